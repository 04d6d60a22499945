// The probe cell's cost over the bare CLI for Cline 3.x (its own section): its native program,
// the provider and quiet settings the driver writes in HOME, the same on both sides.
import { benchProbeOf } from "./probe.bench.js";

/** Runs the probe benchmark for Cline and returns its Markdown section. */
export default function benchProbeCline(): Promise<string> {
  return benchProbeOf(["cline"], "probe-cline: cost of runProbe over the bare CLI", {
    rounds: 3,
    perRound: 2,
  });
}
