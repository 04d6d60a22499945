// The fast tier runs no built CLI: builtCli() refuses there, and no fast test file imports a
// helper that starts the binary (those belong in *.e2e.test.ts or *.live.test.ts).
import { describe, expect, it } from "vitest";

import { builtCli, WITNESS_ROOT } from "./support/built-cli.js";
import { fastFilesStartingTheBinary } from "./support/tiers.js";

describe("the fast tier", () => {
  it("refuses to start the built CLI", () => {
    expect(process.env.WITNESS_TEST_TIER).toBe("fast");
    expect(() => builtCli()).toThrow(/the fast tier runs no built CLI/);
  });

  it("has no test file importing a helper that starts the built binary (but this one, to check the refusal)", () => {
    expect(fastFilesStartingTheBinary(WITNESS_ROOT)).toEqual(["test/tiers.test.ts: builtCli"]);
  });
});
