// What a record must say of its subjects before it is evidence: the CLI install that ran (npm's
// package and integrity, never a stand-in) and, for an orchestrator launch, the orchestrator
// (every package it imported with npm's integrity). A record that cannot say what ran is history.
import type { Protocol } from "../prereg/protocol.js";
import type { MeasurementRecord } from "./record.js";

/** Every missing piece of provenance, each `field: expected …`; [] when the record has it all. */
export function provenanceGaps(record: MeasurementRecord, protocol: Protocol): string[] {
  const gaps: string[] = [];
  const installed = record.cli.installed;
  if (installed === undefined)
    gaps.push(
      "cli.installed: expected the install that ran (package and npm integrity); the record has none",
    );
  else if (installed.standIn !== undefined)
    gaps.push(
      `cli.installed.standIn: expected npm's install; the run used a stand-in (${installed.standIn})`,
    );
  else {
    if (installed.integrity === null)
      gaps.push(`cli.installed.integrity: expected npm's integrity of ${installed.pkg}; got null`);
    if (!installed.packages.some((p) => p.name === installed.pkg))
      gaps.push(
        `cli.installed.packages: expected ${installed.pkg} among the packages npm installed`,
      );
  }
  protocol.arms.forEach((arm, a) => {
    if (!("orchestrator" in arm.launch)) return;
    const wanted = arm.launch.orchestrator.packages ?? [];
    const spawns = record.arms[a]?.spawns ?? [];
    spawns.forEach((spawn, i) => {
      if (spawn.observation === null) return; // a spawn that observed nothing is a fault already
      const at = `arm ${arm.id} spawn ${i + 1}: observation.orchestrator`;
      const subject = spawn.observation.orchestrator;
      if (subject === undefined) {
        gaps.push(`${at}: expected the orchestrator's provenance; the record has none`);
        return;
      }
      for (const pin of wanted) {
        const cut = pin.lastIndexOf("@");
        const [name, version] = [pin.slice(0, cut), pin.slice(cut + 1)];
        const got = subject.packages.find((p) => p.name === name && p.version === version);
        if (got === undefined || got.integrity === "")
          gaps.push(`${at}.packages: expected ${pin} with npm's integrity`);
      }
    });
  });
  return gaps;
}
