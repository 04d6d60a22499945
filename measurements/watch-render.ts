// What `witness watch` prints: per CLI one line ("nothing new", "0 flips in 31 protocols", "could
// not install"), then one line per flip naming the protocol, the arm, both versions and verdicts,
// the first differing release and the first differing predicate.
import type { WatchedCli } from "./watch.js";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function headline(w: WatchedCli): string {
  const at = `${w.cli}@${w.target ?? "?"}`;
  switch (w.status) {
    case "nothing-new":
      return w.baseline === null
        ? `${w.cli}: nothing published`
        : `${w.cli}: nothing new after ${w.baseline}`;
    case "no-protocols":
      return `${at}: no locked protocol runs ${w.cli}`;
    case "could-not-install":
      return `${at}: could not install (${w.why ?? "no reason given"})`;
    case "planned": {
      const reused = w.protocols.filter((p) => p.how === "reused").length;
      const run = w.protocols.length - reused;
      return `${at}: would run ${plural(run, "protocol")}${reused === 0 ? "" : ` (${reused} already recorded there)`}; ${plural(w.newer.length, "release")} after ${w.baseline ?? "no evidence"}: ${w.newer.join(", ")}`;
    }
    case "watched":
      return `${at}: ${plural(w.flips.length, "flip")} in ${plural(w.protocols.length, "protocol")} (after ${w.baseline ?? "no evidence"})`;
  }
}

/** The watch's summary as text; "nothing changed" when no CLI has a flip or a failed install. */
export function renderWatch(result: readonly WatchedCli[]): string {
  const lines: string[] = [];
  for (const w of result) {
    lines.push(headline(w));
    if (w.status === "planned")
      for (const p of w.protocols)
        lines.push(
          `  ${p.id} ${p.slug}: ${p.how === "reused" ? "reuse" : "run"}, compare with ${p.comparedWith === null ? "nothing (no earlier evidence of its lock)" : p.comparedWith.version}`,
        );
    for (const f of w.flips)
      lines.push(
        `  flip ${f.protocol} ${f.slug} arm ${f.arm}: ${f.before.verdict} on ${f.before.version} -> ${f.after.verdict} on ${f.after.version}; first release that differs: ${f.first}; first differing predicate: ${f.predicate ?? "none (only the verdict differs)"}`,
      );
  }
  const flips = result.reduce((n, w) => n + w.flips.length, 0);
  const failed = result.filter((w) => w.status === "could-not-install").length;
  if (result.every((w) => w.status !== "planned"))
    lines.push(
      flips === 0 && failed === 0
        ? "nothing changed"
        : `${plural(flips, "flip")}${failed === 0 ? "" : `, ${plural(failed, "CLI")} could not install`}`,
    );
  return `${lines.join("\n")}\n`;
}
