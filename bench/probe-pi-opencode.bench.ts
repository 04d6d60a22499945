// The probe cell's cost over the bare CLI for pi and opencode (their own section).
import { benchProbeOf } from "./probe.bench.js";

/**
 * Runs the probe benchmark for pi and opencode and returns its Markdown section. opencode's spawns
 * take seconds: fewer rounds keep the run to minutes.
 */
export default function benchProbePiOpencode(): Promise<string> {
  return benchProbeOf(["pi", "opencode"], "probe-pi-opencode: cost of runProbe over the bare CLI", {
    rounds: 3,
    perRound: 2,
  });
}
