import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { AMBIENT_SUPPORT } from "../orchestrator/policy/ambient-support.js";
import { put, tempGitRepo, WITNESS_ROOT } from "../test/support/witness-repo.js";
import { gateSupportTable, SUPPORT_TABLE_SOURCE } from "./support-table.js";

// Honoured cells, and refused cells that cite a record: the ones the gate checks.
const honoured = Object.values(AMBIENT_SUPPORT)
  .flatMap((row) => Object.values(row))
  .filter(
    (cell) =>
      cell.verdict === "honoured" || (cell.verdict === "refused" && cell.record !== undefined),
  ).length;

describe("the support-table gate", () => {
  let repo: { dir: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    repo = await tempGitRepo();
  });
  afterEach(() => repo.cleanup());

  it("passes every honoured cell of witness's own table on its committed records", async () => {
    const cells = await gateSupportTable({ cwd: WITNESS_ROOT });
    expect(cells).toHaveLength(honoured);
    for (const cell of cells ?? []) expect(cell, cell.note).toMatchObject({ ok: true });
  });

  it("fails honoured cells whose records the repository does not hold", async () => {
    await put(repo.dir, SUPPORT_TABLE_SOURCE, "// a copy of witness without its records\n");
    const cells = await gateSupportTable({ cwd: repo.dir });
    expect(cells?.length).toBe(honoured);
    for (const cell of cells ?? []) {
      expect(cell.ok).toBe(false);
      expect(cell.note).toContain("which is not a measurement record");
    }
  });

  it("does not apply outside witness's own repository", async () => {
    expect(await gateSupportTable({ cwd: repo.dir })).toBeNull();
  });
});
