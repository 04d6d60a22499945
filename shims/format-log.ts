import type { ShimRecord } from "./log-schema.js";
import type { ShimLog } from "./read-log.js";

const LONGEST_SHOWN = 200;

function shown(arg: string): string {
  const json = JSON.stringify(arg);
  return json.length <= LONGEST_SHOWN
    ? json
    : `${json.slice(0, LONGEST_SHOWN - 20)}…(${arg.length} chars)"`;
}

function behaviour(r: ShimRecord): string {
  if (r.mode === "plan")
    return `plan call ${r.call ?? "?"}/${r.planLength ?? "?"}${r.beyondPlan === true ? " BEYOND PLAN" : ""}`;
  if (r.mode === "pass-through") return `pass-through to ${r.target ?? "?"}`;
  return "script";
}

/** One record as a few readable lines (long arguments shortened; `--json` gives them whole). */
export function formatRecord(r: ShimRecord, index: number): string {
  const ending =
    r.signal !== undefined && r.signal !== null ? `signal ${r.signal}` : `exit ${r.exitCode}`;
  const lines = [
    `#${index + 1} ${r.shim}  ${ending}  ${behaviour(r)}  pid ${r.pid} ppid ${r.ppid}  ${new Date(r.start).toISOString()}`,
    `   cwd   ${r.cwd}`,
    `   argv  [${r.argv.map(shown).join(", ")}]`,
  ];
  const env = Object.entries(r.env).sort(([a], [b]) => a.localeCompare(b));
  if (env.length > 0) lines.push(`   env   ${env.map(([k, v]) => `${k}=${shown(v)}`).join(" ")}`);
  lines.push(
    `   stdin ${r.stdin === null ? "not read" : `${r.stdin.bytes} bytes, sha256 ${r.stdin.sha256}`}`,
  );
  return lines.join("\n");
}

/** The whole log as text for `witness shim log`. */
export function formatLog(log: ShimLog): string {
  if (log.records.length === 0) return "(no calls recorded)";
  return log.records.map(formatRecord).join("\n");
}
