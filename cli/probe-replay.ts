// `witness probe --replay <shim log> [--call N]`: the recorded call read from the log (shims/)
// and made the probe's input (probes/); a note on stderr for what it leaves out.
import { UsageError } from "../core/errors.js";
import type { ProbeInput } from "../probes/probe-input.js";
import { replayInput } from "../probes/replay-input.js";
import { replayCall } from "../shims/replay-call.js";

/** The probe input, replaced by the recorded call's when `--replay` is given. */
export async function replayedArgs(
  input: ProbeInput,
  args: { replay?: string; call?: number },
): Promise<ProbeInput> {
  if (args.replay === undefined) {
    if (args.call !== undefined) throw new UsageError("--call goes with --replay <shim log>");
    return input;
  }
  const call = await replayCall(
    args.replay,
    args.call,
    input.cwd === undefined ? {} : { cwd: input.cwd },
  );
  return replayInput(input, call, (line) => process.stderr.write(`witness: ${line}\n`));
}
