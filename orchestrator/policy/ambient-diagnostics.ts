// Diagnostics for an ambient_context value on a backend: refused is an error, unmeasured a warning.
import type { Diagnostic } from "../spec/diagnostics.js";
import type { Adapter } from "../spec/schemas.js";
import type { AmbientResolution } from "./ambient-context.js";
import { supportOf } from "./ambient-support.js";

/**
 * The findings for one node. The default is never refused nor warned about: each backend applies
 * it as far as it can.
 */
export function ambientDiagnostics(
  nodeId: string,
  adapter: Adapter,
  ambient: AmbientResolution,
): Diagnostic[] {
  if (ambient.source === "default") return [];
  const cell = supportOf(adapter, ambient.value);
  const what = `ambient_context ${ambient.value} (from ${ambient.source}) on ${adapter}`;
  if (cell.verdict === "refused")
    return [
      {
        severity: "error",
        code: "ambient-context-refused",
        nodeId,
        message: `${what} is refused: ${cell.why}`,
      },
    ];
  if (cell.verdict === "unmeasured")
    return [
      {
        severity: "warning",
        code: "ambient-context-unmeasured",
        nodeId,
        message: `${what} is not enforced by any measurement: ${cell.why}`,
      },
    ];
  return [];
}
