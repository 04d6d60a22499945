// The redaction table both copies of the rule are held to: core/redact.ts and the shim's awk.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { WITNESS_ROOT } from "./built-cli.js";

/**
 * One row: an environment or an argv, and what it must read as once redacted; `holding`: secret-named
 * variables the redacting process holds (the environment the argv was launched with).
 */
export type RedactionCase =
  | { case: string; env: Record<string, string>; expected: Record<string, string> }
  | { case: string; argv: string[]; holding?: Record<string, string>; expected: string[] };

/** core/test/fixtures/redaction/cases.json. */
export const REDACTION_CASES = JSON.parse(
  readFileSync(join(WITNESS_ROOT, "core", "test", "fixtures", "redaction", "cases.json"), "utf8"),
) as RedactionCase[];
