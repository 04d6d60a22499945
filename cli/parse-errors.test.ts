import { describe, expect, it } from "vitest";

import { unknownOption, unknownOptionMessage } from "./parse-errors.js";

const known = ["help", "version", "json", "stdout-file", "accept-loaded-user-config", "a", "b"];

describe("a mistyped flag", () => {
  it.each([
    [["diff", "--jsno", "a.json", "b.json"], "unknown option --jsno (did you mean --json?)"],
    [
      ["shim", "install", "--stdout-fil=x"],
      "unknown option --stdout-fil (did you mean --stdout-file?)",
    ],
    [["run", "--frobnicate"], "unknown option --frobnicate"],
  ])("%j is named as such", (argv, message) => {
    const found = unknownOption(argv, known);
    expect(found === null ? null : unknownOptionMessage(found)).toBe(message);
  });

  it.each([
    [["diff", "--json", "a", "b"]],
    [["x", "--no-json"]],
    [["x", "--stdoutFile", "f"]],
    [["probe", "--", "--anything", "--goes"]],
    [["x", "-p"]],
  ])("%j is not an unknown option", (argv) => {
    expect(unknownOption(argv, known)).toBeNull();
  });
});
