// The probe cell's cost over the bare CLI for Gemini CLI and Qwen Code (their own section).
import { benchProbeOf } from "./probe.bench.js";

/**
 * Runs the probe benchmark for Gemini CLI and Qwen Code and returns its Markdown section. Their
 * spawns take seconds, not hundreds of milliseconds: fewer rounds keep the run to minutes.
 */
export default function benchProbeGeminiQwen(): Promise<string> {
  return benchProbeOf(["gemini", "qwen"], "probe-gemini-qwen: cost of runProbe over the bare CLI", {
    rounds: 3,
    perRound: 2,
  });
}
