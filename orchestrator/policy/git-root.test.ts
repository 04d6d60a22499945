import { mkdirSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { ancestorsAbove, gitRoot, pathFromRoot } from "./git-root.js";

describe("git-root", () => {
  it("finds the nearest directory with .git on disk", () => {
    const repo = tempWorkspace();
    const deep = join(repo.root, "a", "b");
    mkdirSync(deep, { recursive: true });
    expect([gitRoot(deep), gitRoot(repo.root)]).toEqual([repo.root, repo.root]);
  });

  it.each([
    ["/w/repo/a/b", ["/w/repo/.git"], "/w/repo"],
    ["/w/repo/a/b", ["/w/repo/.git", "/w/repo/a/.git"], "/w/repo/a"],
    ["/w/loose", [], "/w/loose"],
  ])(
    "resolves %s with %j to %s (outside a repository: the directory itself)",
    (cwd, gits, root) => {
      expect(gitRoot(cwd, (path) => gits.includes(path))).toBe(root);
    },
  );

  it.each([
    ["/work/repo", ["/work", "/"]],
    ["/repo", ["/"]],
    ["/", []],
  ])("lists the ancestors above %s nearest first", (root, ancestors) => {
    expect(ancestorsAbove(root)).toEqual(ancestors);
  });

  it.each([
    ["/r", "/r/a/b", ["/r", "/r/a", "/r/a/b"]],
    ["/r", "/r", ["/r"]],
  ])("walks from root %s down to %s", (root, cwd, path) => {
    expect(pathFromRoot(root, cwd)).toEqual(path);
  });
});
