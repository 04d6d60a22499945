// The probe cell's cost over the bare CLI for Kilo Code (its native program, the provider in
// KILO_CONFIG_CONTENT, its seeded config directories) and Kimi Code (its bundle on the Node its
// engines ask for), in a section of their own; both sides the same.
import { benchProbeOf } from "./probe.bench.js";

/** Runs the probe benchmark for Kilo Code and Kimi Code and returns its Markdown section. */
export default function benchProbeKiloKimi(): Promise<string> {
  return benchProbeOf(["kilo", "kimi"], "probe-kilo-kimi: cost of runProbe over the bare CLI", {
    rounds: 3,
    perRound: 2,
  });
}
