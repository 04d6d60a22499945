// The probe cell's cost over the bare CLI for GitHub Copilot CLI (its own section). Both sides
// extract its ~235 MB package into the run's HOME on every spawn (the driver's per-version cache
// in the cell), so the ratio compares like with like.
import { benchProbeOf } from "./probe.bench.js";

/** Runs the probe benchmark for GitHub Copilot CLI and returns its Markdown section. */
export default function benchProbeCopilot(): Promise<string> {
  return benchProbeOf(["copilot"], "probe-copilot: cost of runProbe over the bare CLI", {
    rounds: 3,
    perRound: 2,
  });
}
