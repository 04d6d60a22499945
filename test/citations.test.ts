// Code, tests and ADRs explain themselves with the repository alone: every cited anchor of
// docs/background.md exists, and nothing cites a file outside the repository.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

import { describe, expect, it } from "vitest";

import { WITNESS_ROOT } from "./support/built-cli.js";

const SKIP = new Set(["node_modules", "dist", ".git", "fixtures"]);
// Locked protocols and their records predate docs/background.md, which maps their wording.
const HISTORICAL = ["docs/prereg/", "docs/measurements/"];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.(ts|md|mjs|yaml)$/.test(entry.name) ? [relative(WITNESS_ROOT, path)] : [];
  });
}

const anchors = new Set(
  [
    ...readFileSync(join(WITNESS_ROOT, "docs/background.md"), "utf8").matchAll(
      /<a id="([a-z0-9-]+)"><\/a>/g,
    ),
  ].map((m) => m[1]),
);
const all = files(WITNESS_ROOT).filter((f) => f !== "test/citations.test.ts");

describe("citations", () => {
  it("cite only anchors docs/background.md has", () => {
    const broken = all.flatMap((file) =>
      [...readFileSync(join(WITNESS_ROOT, file), "utf8").matchAll(/background\.md#([a-z0-9-]+)/g)]
        .filter((m) => !anchors.has(m[1]))
        .map((m) => `${file}: #${m[1]}`),
    );
    expect(anchors.size).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it("never point outside the repository", () => {
    const outside = /\bseed 00\d|shared\/notes|\.\.\/shared\/|another project|engineer [A-Z]\b/i;
    const found = all
      .filter(
        (file) => !HISTORICAL.some((h) => file.startsWith(h)) && file !== "docs/background.md",
      )
      .filter((file) => outside.test(readFileSync(join(WITNESS_ROOT, file), "utf8")));
    expect(found).toEqual([]);
  });
});
