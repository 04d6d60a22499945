// The ground truth of one recorded run, from the cell alone: the argv, the sentinels on disk, and
// the fake server's log of the calls it issued, the tools it was offered and the results it got.
// The transcript is never read here: it is what the truth checks.
import type { Observation } from "../probes/contracts/observation.js";
import type { CapturedRequest } from "../probes/fake/server.js";
import { issuedCalls, type WireProtocol } from "../probes/fake/wire.js";
import type { Truth, TruthCall } from "../test/support/recorded-transcripts.js";

/** The value after `flag` (or `-s` for `--sandbox`) on an argv, or null. */
function flagValue(argv: readonly string[], ...flags: string[]): string | null {
  const at = argv.findIndex((arg) => flags.includes(arg));
  return at >= 0 ? (argv[at + 1] ?? null) : null;
}

/**
 * The session id the CLI printed: Claude Code's JSON `session_id`, Codex's `session id:` banner,
 * Copilot's `{"type":"result","sessionId":…}` line of `--output-format json`.
 */
export function reportedSessionId(output: { stdout: string; stderr: string }): string | null {
  const json = /"session_id"\s*:\s*"([\w-]+)"/.exec(output.stdout);
  const banner = /^session id: ([\w-]+)$/m.exec(output.stderr);
  const result = /^\{"type":"result".*"sessionId":"([\w-]+)"/m.exec(output.stdout);
  return json?.[1] ?? banner?.[1] ?? result?.[1] ?? null;
}

/** One issued call's truth: a created sentinel → ran; not offered → no-such-tool; else denied, or its exit. */
function callTruth(
  call: { id: string; name: string; input: Record<string, unknown> },
  observation: Observation,
  wire: WireProtocol,
  requests: readonly CapturedRequest[],
): TruthCall {
  const text = JSON.stringify(call.input);
  const sentinel = observation.sentinels.find((s) => text.includes(s.path)) ?? null;
  const exit = /exit (\d+)\b/.exec(text);
  // A patch (apply_patch's `*** Add File:`) runs no command: it has no exit code to know.
  const patch = /\*\*\* (?:Add|Update|Delete) File:/.test(text);
  const offered = observation.toolsOffered.includes(call.name);
  const result = wire.findResult(requests, call.id);
  const base = {
    id: call.id,
    name: call.name,
    input: call.input,
    offered,
    sentinel: sentinel === null ? null : { name: sentinel.name, created: sentinel.created },
    exitCode: exit ? Number(exit[1]) : sentinel?.created && !patch ? 0 : null,
    wireResult: result,
  };
  // What the disk shows beats what the request offered: 0.58 runs a shell_command it never offered.
  if (sentinel?.created)
    return { ...base, outcome: "ran", because: `sentinel ${sentinel.name} was created` };
  if (!offered)
    return { ...base, outcome: "no-such-tool", because: "no agent request offered the tool" };
  if (sentinel !== null)
    return { ...base, outcome: "denied", because: `sentinel ${sentinel.name} was not created` };
  if (exit && exit[1] !== "0")
    return { ...base, outcome: "error", because: `the command ends with exit ${exit[1]}` };
  throw new Error(`call ${call.id} writes no sentinel and sets no exit status: no truth for it`);
}

/** The ground truth of a finished, kept probe run. */
export function buildTruth(input: {
  observation: Observation;
  /** The CLI's whole stdout and stderr, as the kept cell has them (the observation's are redacted). */
  output: { stdout: string; stderr: string };
  requests: readonly CapturedRequest[];
  wire: WireProtocol;
  scenario: string;
  finalText: string;
}): Truth {
  const { observation, requests, wire } = input;
  const agent = requests.filter((r) => wire.isAgentRequest(r));
  const body = (agent.at(-1)?.body ?? {}) as { model?: unknown };
  const argv = observation.argv;
  return {
    schema: "witness.transcript-truth/1",
    cli: observation.cli.name as Truth["cli"],
    version: observation.cli.version,
    scenario: input.scenario,
    argv,
    exitCode: observation.exitCode,
    sessionId: reportedSessionId(input.output),
    cwd: observation.cwd,
    model: typeof body.model === "string" ? body.model : null,
    finalText: input.finalText,
    permissionMode: flagValue(argv, "--permission-mode"),
    sandboxPolicy: flagValue(argv, "--sandbox", "-s"),
    toolsOffered: observation.toolsOffered,
    calls: issuedCalls(requests).map((call) => callTruth(call, observation, wire, requests)),
  };
}
