// An orchestrator's packages are a subject only with npm's integrity, at the pinned version.
import { describe, expect, it } from "vitest";

import { pinnedFacts, splitPin } from "./vendor-packages.js";

const lock = (entries: Record<string, { version?: string; integrity?: string }>) =>
  JSON.stringify({
    packages: Object.fromEntries(Object.entries(entries).map(([n, e]) => [`node_modules/${n}`, e])),
  });

describe("pinnedFacts", () => {
  it("reads each pin's version and integrity", () => {
    const text = lock({
      "@a/sdk": { version: "0.3.332", integrity: "sha512-x" },
      dep: { version: "1.0.0" },
    });
    expect(pinnedFacts(["@a/sdk@0.3.332"], text)).toEqual([
      { name: "@a/sdk", version: "0.3.332", integrity: "sha512-x" },
    ]);
    expect(splitPin("@a/sdk@0.3.332")).toEqual({ name: "@a/sdk", version: "0.3.332" });
  });

  it.each([
    [{}, "@a/sdk@0.3.332: npm installed no package @a/sdk"],
    [
      { "@a/sdk": { version: "0.3.331", integrity: "sha512-x" } },
      "@a/sdk@0.3.332: npm installed version 0.3.331",
    ],
    [
      { "@a/sdk": { version: "0.3.332" } },
      "@a/sdk@0.3.332: npm recorded no integrity for it; refused as a subject",
    ],
  ])("refuses %j", (entries, message) => {
    expect(() => pinnedFacts(["@a/sdk@0.3.332"], lock(entries))).toThrow(message);
  });
});
