// An orchestrator launch in the Markdown record: the orchestrator as a subject (command,
// packages with npm's integrity, the planted files it ran, by content hash) and each CLI process
// it spawned (the argv and stdin it handed over, what witness set over its environment, the
// markers that reached the model through that spawn).
import type { Observation } from "../probes/contracts/observation.js";

const code = (text: string) => `\`${text.replaceAll("`", "'")}\``;

/** The record lines of an orchestrator launch's spawn (none for a CLI launched directly). */
export function orchestratorLines(obs: Observation): string[] {
  const o = obs.orchestrator;
  if (o === undefined) return [];
  const packages = o.packages.map((p) => `${p.name}@${p.version} (${p.integrity})`);
  const files = o.files.map((f) => `${f.path} (${f.sha256})`);
  const lines = [
    `- orchestrator: ${code(JSON.stringify(o.command))}; may spawn ${o.clis.join(", ")} (at most ${o.maxSpawns}); packages: ${packages.join(", ") || "none"}; files: ${files.join(", ") || "none"}`,
  ];
  // An unshimmed binary the launch allowed by content hash: named, so no reader takes it for a shim.
  for (const u of o.unshimmed ?? [])
    lines.push(
      `- unshimmed spawn, allowed by content hash: ${u.path} (${u.sha256}, the pinned CLI's bytes); ${u.requests} ${u.requests === 1 ? "request" : "requests"}; user-agent ${u.userAgents.join(", ")}`,
    );
  for (const s of obs.spawns ?? []) {
    const seen = s.markers.map(
      (m) => `${m.name} ${m.seenIn.length === 0 ? "absent" : `in ${m.seenIn.join("+")}`}`,
    );
    lines.push(
      `- CLI spawn ${s.spawn} (${s.cli}): argv ${code(JSON.stringify(s.argv))}; exit ${String(s.exitCode)}${s.signal === null ? "" : ` (signal ${s.signal})`}; ${s.requestCount} requests; stdin ${s.stdinBytes} bytes; witness set ${s.overridden.join(", ") || "nothing"} over the orchestrator's environment; markers: ${seen.join(", ") || "none"}`,
    );
  }
  return lines;
}
