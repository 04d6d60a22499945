// What held around a spawn's CLI, from the report assets/report.sh wrote with the CLI's own
// credentials just before it started: the statement every observation carries, and the faults
// when a sandbox did not hold as launched.
import type { Held, Observation } from "../contracts/observation.js";

/** The report's `key: value` lines, the repeatable ones (`net_if`) gathered. */
export function reportLines(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const at = line.indexOf(":");
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    out.set(key, [...(out.get(key) ?? []), line.slice(at + 1).trim()]);
  }
  return out;
}

const int = (text: string | undefined) =>
  text !== undefined && /^\d+$/.test(text) ? Number(text) : null;

/** Reads a report; null when it is missing or names no identity (the launch never got that far). */
export function readReport(text: string): Held | null {
  const lines = reportLines(text);
  const first = (key: string) => lines.get(key)?.[0];
  const map = first("uid_map")?.split(/\s+/);
  const uid = int(first("Uid")?.split(/\s+/)[0]);
  if (map === undefined || map.length !== 3 || uid === null) return null;
  // The host's own user namespace maps every uid to itself; any other map is a namespace of its own.
  const hostNamespace = map[0] === "0" && map[1] === "0" && map[2] === "4294967295";
  const effective = first("CapEff") ?? "";
  const capabilities = /^0+$/.test(effective) ? "none" : effective || "unknown";
  const statPid = first("stat_pid");
  return {
    uid,
    hostUid: hostNamespace ? null : int(map[1]),
    hostCapabilities: hostNamespace ? capabilities : "none",
    noNewPrivs: first("NoNewPrivs") === undefined ? null : first("NoNewPrivs") !== "0",
    ownProc:
      statPid !== undefined &&
      statPid === first("shell_pid") &&
      (first("pid1") ?? "").includes("sandbox.sh") &&
      first("witness_visible") === "no",
    interfaces: lines.get("net_if") ?? [],
    files: first("host_path_visible") === "no" ? "cell-view" : "host",
  };
}

/**
 * The faults of a sandboxed spawn whose report is missing or says it did not hold as launched:
 * another host uid than the one it was given, a capability on the host, the host's /proc or
 * files, or (in a network namespace) an interface besides loopback.
 */
export function sandboxFaults(
  held: Held | null,
  expected: { uid: number; netns: boolean },
): string[] {
  if (held === null) return ["containment-not-held: the sandbox wrote no report before the CLI"];
  const wrong: string[] = [];
  if (held.hostUid !== expected.uid)
    wrong.push(`host uid ${String(held.hostUid)}, not ${expected.uid}`);
  if (held.hostCapabilities !== "none") wrong.push(`host capabilities ${held.hostCapabilities}`);
  if (!held.ownProc) wrong.push("the host's /proc");
  if (held.files !== "cell-view") wrong.push("the host's files");
  if (expected.netns && held.interfaces.some((i) => i !== "lo"))
    wrong.push(`interfaces ${held.interfaces.join(", ")}`);
  return wrong.length === 0 ? [] : [`containment-not-held: ${wrong.join("; ")}`];
}

/** One line a person reads: what the CLI ran as, could do and could see. */
export function heldSummary(kind: string, held: Held): string {
  const who =
    held.hostUid === null
      ? `uid ${String(held.uid)} on the host`
      : `uid ${String(held.uid)} in a user namespace of its own (a host uid of its own)`;
  const caps =
    held.hostCapabilities === "none"
      ? "no host capabilities"
      : `host capabilities ${held.hostCapabilities}`;
  const nnp =
    held.noNewPrivs === null ? "" : held.noNewPrivs ? ", no_new_privs" : ", no_new_privs off";
  const proc = held.ownProc ? "its own /proc" : "the host's /proc";
  const files = held.files === "cell-view" ? "the cell view" : "the host's files";
  return `${kind}: ${who}, ${caps}${nnp}, ${proc}, ${files}`;
}

/**
 * What holds without a sandbox, read from witness's own /proc/self/status (the CLI inherits its
 * user and capabilities): the pidns has its own /proc, the process group the host's; both see the
 * host's files. Interfaces are not read here: `isolation` says whether a network namespace held.
 */
export function unsandboxedHeld(kind: "pidns" | "process-group", status: string | null): Held {
  const lines = reportLines(status ?? "");
  const effective = lines.get("CapEff")?.[0];
  const nnp = lines.get("NoNewPrivs")?.[0];
  return {
    uid: int(lines.get("Uid")?.[0]?.split(/\s+/)[0]),
    hostUid: null,
    hostCapabilities:
      effective === undefined ? "unknown" : /^0+$/.test(effective) ? "none" : effective,
    noNewPrivs: nnp === undefined ? null : nnp !== "0",
    ownProc: kind === "pidns",
    interfaces: [],
    files: "host",
  };
}

/** The distinct statements of what held around some spawns' CLIs, sorted (a record's `containment`). */
export function containmentStatements(
  observations: readonly Pick<Observation, "containment" | "containmentHeld">[],
): string[] {
  const lines = observations.flatMap((o) =>
    o.containmentHeld === undefined
      ? []
      : [heldSummary(o.containment ?? "unknown", o.containmentHeld)],
  );
  return [...new Set(lines)].sort();
}
