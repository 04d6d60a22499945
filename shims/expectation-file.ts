// Expectations for `witness shim assert`, for CI written in any language: JSON or YAML, with the
// matchers a vitest user writes in code spelled as data (`{contains: "Review"}`).
import { z } from "zod";

import { readInput } from "../core/read-input.js";
import type { AsymmetricMatcher, Expected, SpawnExpectation } from "./assertions.js";

const matcherSchema = z.union([
  z.strictObject({ contains: z.string() }),
  z.strictObject({ startsWith: z.string() }),
  z.strictObject({
    matches: z.string().refine((re) => {
      try {
        new RegExp(re, "u");
        return true;
      } catch {
        return false;
      }
    }, "expected a regular expression that compiles"),
  }),
  z.strictObject({ anything: z.literal(true) }),
]);
/** One expected argument or variable: exact text, or `{contains}`, `{startsWith}`, `{matches}`, `{anything: true}`. */
export const expectedSchema = z.union([z.string(), matcherSchema]);
export type ExpectedInput = z.infer<typeof expectedSchema>;

/** One expected call: which shim, its argv, cwd and variables (null: absent), how many times. */
export const callExpectationSchema = z.strictObject({
  shim: z.string().min(1),
  argv: z.array(expectedSchema).optional(),
  cwd: z.string().optional(),
  env: z.record(z.string(), expectedSchema.nullable()).optional(),
  times: z.number().int().min(0).optional(),
});
export type CallExpectation = z.infer<typeof callExpectationSchema>;

/** An expectation file: the calls that must be in the log. */
export const expectationFileSchema = z.strictObject({
  calls: z.array(callExpectationSchema).min(1, "expected at least one call"),
  /** Also require every shim plan to be met (no planned call missing, none beyond). */
  plansMet: z.boolean().default(false),
});
export type ExpectationFile = z.infer<typeof expectationFileSchema>;

/** A matcher object as an asymmetric matcher (what the vitest helpers compare with). */
export function toExpected(input: ExpectedInput): Expected {
  if (typeof input === "string") return input;
  const [kind, arg] = Object.entries(input)[0] as [string, string | true];
  const test = (actual: unknown): boolean => {
    if (typeof actual !== "string") return false;
    if (kind === "contains") return actual.includes(String(arg));
    if (kind === "startsWith") return actual.startsWith(String(arg));
    if (kind === "matches") return new RegExp(String(arg), "u").test(actual);
    return true;
  };
  const text = kind === "anything" ? "anything" : `${kind} ${JSON.stringify(arg)}`;
  const matcher: AsymmetricMatcher = {
    asymmetricMatch: test,
    toString: () => text,
    toAsymmetricMatcher: () => text,
  };
  return matcher;
}

/** An expected call as the assertion takes it. */
export function toSpawnExpectation(call: CallExpectation): SpawnExpectation {
  return {
    ...(call.argv === undefined ? {} : { argv: call.argv.map(toExpected) }),
    ...(call.cwd === undefined ? {} : { cwd: call.cwd }),
    ...(call.env === undefined
      ? {}
      : {
          env: Object.fromEntries(
            Object.entries(call.env).map(([k, v]) => [k, v === null ? null : toExpected(v)]),
          ),
        }),
    ...(call.times === undefined ? {} : { times: call.times }),
  };
}

/** Reads an expectation file (YAML or JSON); bad input names the file and the field. */
export function readExpectationFile(file: string): Promise<ExpectationFile> {
  return readInput(expectationFileSchema, file, "the expectation file");
}
