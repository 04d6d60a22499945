// Every Markdown-like file under docs/adr is an ADR the gate reads or refuses by name: an
// Accepted decision a person reads can never sit where the gate does not look.
import { symlink, truncate } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { MAX_ADR_BYTES } from "../core/adr-files.js";
import { put, tempGitRepo } from "../test/support/witness-repo.js";
import { gateAdrs } from "./gate.js";

const ACCEPTED = "# Demo\n\nStatus: Accepted\nRequires: 0001\n";
let repo: { dir: string; cleanup: () => Promise<void> };

beforeEach(async () => {
  repo = await tempGitRepo();
});
afterEach(() => repo.cleanup());

describe("the ADRs the gate reads", () => {
  it.each([
    ["an upper-case extension", "docs/adr/0002-x.MD"],
    ["a .markdown extension", "docs/adr/0002-x.markdown"],
    ["a subfolder", "docs/adr/old/0002-x.md"],
    ["a deep subfolder", "docs/adr/a/b/c/0002-x.Markdown"],
    ["a name without an id", "docs/adr/decision.mdown"],
  ])("refuse an Accepted ADR kept under %s, naming it", async (_, rel) => {
    await put(repo.dir, rel, ACCEPTED);
    const rows = await gateAdrs({ cwd: repo.dir });
    expect(rows.map((r) => [r.adr.file, r.ok])).toEqual([[rel, false]]);
    expect(rows[0]?.problems.join("\n")).toContain(
      `${rel}: expected an ADR at docs/adr/NNNN-<slug>.md`,
    );
  });

  it("refuse a symlink named as an ADR", async () => {
    await put(repo.dir, "elsewhere.md", ACCEPTED);
    await put(repo.dir, "docs/adr/0001-real.md", "# Real\n\nStatus: Proposed\nRequires: none\n");
    await symlink(join(repo.dir, "elsewhere.md"), join(repo.dir, "docs/adr/0002-link.md"));
    const rows = await gateAdrs({ cwd: repo.dir });
    expect(rows.map((r) => [r.adr.file, r.ok, r.problems])).toEqual([
      ["docs/adr/0001-real.md", true, []],
      [
        "docs/adr/0002-link.md",
        false,
        ["docs/adr/0002-link.md: a symlink; an ADR must be a file in docs/adr itself"],
      ],
    ]);
  });

  it("refuse an ADR larger than the bound, without reading it", async () => {
    const file = await put(repo.dir, "docs/adr/0002-big.md", ACCEPTED);
    await truncate(file, MAX_ADR_BYTES + 1);
    const [row] = await gateAdrs({ cwd: repo.dir });
    expect(row?.ok).toBe(false);
    expect(row?.problems).toEqual([
      `docs/adr/0002-big.md: expected at most ${MAX_ADR_BYTES} bytes (the bound on an ADR); got ${MAX_ADR_BYTES + 1}`,
    ]);
  });

  it("skip the folder's README and files that are not Markdown", async () => {
    await put(repo.dir, "docs/adr/README.md", ACCEPTED);
    await put(repo.dir, "docs/adr/notes.txt", ACCEPTED);
    expect(await gateAdrs({ cwd: repo.dir })).toEqual([]);
  });
});
