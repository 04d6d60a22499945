// The probe cell's cost over the bare CLI for Gemini CLI and Qwen Code (their own section).
import { benchProbeOf } from "./probe.bench.js";

/** Runs the probe benchmark for Gemini CLI and Qwen Code and returns its Markdown section. */
export default function benchProbeGeminiQwen(): Promise<string> {
  return benchProbeOf(["gemini", "qwen"], "probe-gemini-qwen: cost of runProbe over the bare CLI");
}
