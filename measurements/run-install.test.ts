// A run refuses a vendor cache entry npm did not verify: a hand-made "CLI" is no subject.
import { describe, expect, it } from "vitest";

import type { InstalledFacts } from "../probes/vendor-cache.js";
import { refuseUnverified } from "./run-install.js";

const facts = (overrides: Partial<InstalledFacts> = {}): InstalledFacts => ({
  name: "claude-code",
  version: "2.1.332",
  pkg: "@anthropic-ai/claude-code",
  bin: "/c/bin/claude",
  resolvedBin: "/c/bin/claude",
  integrity: "sha512-x",
  packages: [{ name: "@anthropic-ai/claude-code", version: "2.1.332", integrity: "sha512-x" }],
  ...overrides,
});

describe("refuseUnverified", () => {
  it("accepts an entry npm installed with its integrity", () => {
    expect(() => refuseUnverified("claude-code@2.1.332", facts())).not.toThrow();
  });

  it.each([
    [facts({ packages: [], integrity: null }), "holds no package npm installed"],
    [facts({ integrity: null }), "npm recorded no integrity for @anthropic-ai/claude-code"],
  ])("refuses %#", (f, message) => {
    expect(() => refuseUnverified("claude-code@2.1.332", f)).toThrow(message);
  });
});
