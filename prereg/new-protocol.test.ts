import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { tempGitRepo } from "../test/support/witness-repo.js";
import { parseProtocol } from "./load.js";
import { newProtocol, PROTOCOL_SCHEMA, protocolSchemaFile } from "./new-protocol.js";

let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await tempGitRepo();
});
afterEach(() => repo.cleanup());

describe("prereg new", () => {
  it("writes the yaml-language-server line pointing at a protocol schema that exists", async () => {
    const file = await newProtocol({ cwd: repo.dir, slug: "first-question", adr: "1" });
    const [first] = (await readFile(file, "utf8")).split("\n");
    const path = /^# yaml-language-server: \$schema=(.+)$/.exec(first ?? "")?.[1];
    expect(path).toBeDefined();
    expect(existsSync(resolve(dirname(file), path ?? ""))).toBe(true);
  });

  it("prefers the repository's own docs/schemas, and finds none where there is none", async () => {
    await mkdir(join(repo.dir, "docs", "schemas"), { recursive: true });
    await writeFile(join(repo.dir, PROTOCOL_SCHEMA), "{}");
    const file = await newProtocol({ cwd: repo.dir, slug: "second-question", adr: "1" });
    expect(await readFile(file, "utf8")).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/schemas\/protocol\.schema\.json\n/,
    );
    expect(protocolSchemaFile(join(repo.dir, "nowhere"), "/")).toBeNull();
  });

  it("writes a decision instead of an ADR, and the template parses", async () => {
    const file = await newProtocol({
      cwd: repo.dir,
      slug: "sdk-defaults",
      decision: { external: "acme/runner:docs/adr/0007.md" },
    });
    const protocol = parseProtocol(await readFile(file, "utf8"), file);
    expect(protocol.decision).toEqual({ external: "acme/runner:docs/adr/0007.md" });
    expect(protocol.adr).toBeUndefined();
  });

  it("refuses a bad decision, or none and an ADR together, naming the flags, writing nothing", async () => {
    const slug = "bad";
    await expect(
      newProtocol({ cwd: repo.dir, slug, decision: { external: "docs/x.md" } }),
    ).rejects.toThrow(/^--decision-external "docs\/x\.md": expected an http\(s\) URL/);
    await expect(
      newProtocol({ cwd: repo.dir, slug, adr: "1", decision: { none: "long enough reason" } }),
    ).rejects.toThrow(/--adr <id>, --decision-external/);
    expect(existsSync(join(repo.dir, "docs", "prereg"))).toBe(false);
  });
});
