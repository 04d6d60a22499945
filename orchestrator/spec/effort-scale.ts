// Each adapter's declared effort scale, lowest first; a model floor orders efforts by it.
import type { Adapter } from "./schemas.js";

/** Efforts in increasing order. Adapters absent here declare no scale (effort lives in the model id, or nowhere). */
export const EFFORT_SCALES: Readonly<Partial<Record<Adapter, readonly string[]>>> = {
  "claude-code": ["low", "medium", "high", "xhigh", "max"],
  codex: ["minimal", "low", "medium", "high", "xhigh"],
  pi: ["off", "minimal", "low", "medium", "high", "xhigh"],
};

/** The adapter's scale, or undefined when it declares none. */
export function effortScale(adapter: Adapter): readonly string[] | undefined {
  return EFFORT_SCALES[adapter];
}
