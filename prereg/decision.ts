// The decision a protocol gates: a witness ADR (`adr: "0011"`), or one that belongs to someone
// else, `decision: {external: <an https URL, or <owner>/<repo>:<path>>}`, or none, with the reason.
import { z } from "zod";

// An http(s) URL with a host, or `<owner>/<repo>:<path>` (a file in another repository,
// GitHub-style). A pattern, not a refinement, so the JSON Schema editors read states it too.
const EXTERNAL =
  /^(?:https?:\/\/[^\s/?#]+[^\s]*|[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*:[^\s:][^\s]*)$/;

const EXTERNAL_FORM =
  "expected an http(s) URL or <owner>/<repo>:<path> (a file in another repository)";

/** A decision outside witness's docs/adr, or none at all (with the reason). */
export const decisionSchema = z.union(
  [
    z.strictObject({ external: z.string().regex(EXTERNAL, EXTERNAL_FORM) }),
    z.strictObject({
      none: z
        .string()
        .regex(/\S.{9,}/su, "expected the reason no decision is gated (ten characters at least)"),
    }),
  ],
  {
    error: (issue) =>
      issue.code === "invalid_union"
        ? `expected {external: <url or <owner>/<repo>:<path>>} or {none: <reason>}`
        : undefined,
  },
);
export type Decision = z.infer<typeof decisionSchema>;

/** What a protocol (or a record's header) says it gates. */
export interface Gates {
  adr?: string | undefined;
  decision?: Decision | undefined;
}

/** One phrase for it: `ADR 0011`, `the external decision <x>`, `no decision (<reason>)`. */
export function gatesText(gates: Gates): string {
  if (gates.decision !== undefined)
    return "external" in gates.decision
      ? `the external decision ${gates.decision.external}`
      : `no decision (${gates.decision.none})`;
  return `ADR ${gates.adr ?? "?"}`;
}
