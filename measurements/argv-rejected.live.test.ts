// A claim that the CLI refuses an argv, confirmed end to end: Claude Code run as root without
// IS_SANDBOX=1 refuses to skip permissions before any model request (exit 1, its own message).
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { liveClis } from "../test/support/live-clis.js";
import { registeredRepo, witnessWith } from "../test/support/witness-repo.js";
import { recordSchema } from "./record.js";

const PROTOCOL = `id: "0001"
slug: root-refusal
title: Claude Code refuses to skip permissions as root without IS_SANDBOX
adr: "0001"
hypothesis: As root, without IS_SANDBOX=1, bypassPermissions is refused before any model request; with it, the session runs.
cli: { name: claude-code, version: ${PINNED["claude-code"].version} }
positiveControl: "none — the question is the CLI's refusal of an argv; the second arm's permission mode shows a session that ran"
spawns: 1
arms:
  - id: no-sandbox-variable
    description: IS_SANDBOX removed; the CLI must refuse
    launch:
      argv: ["-p", "hi", "--permission-mode", "bypassPermissions"]
      env: { unset: [IS_SANDBOX] }
    expect:
      - { kind: argv-rejected, flag: --dangerously-skip-permissions, matches: "root/sudo privileges" }
      - { kind: exit-code, equals: 1 }
  - id: sandbox-variable
    description: the cell's IS_SANDBOX=1; the same argv runs
    launch:
      argv: ["-p", "hi", "--permission-mode", "bypassPermissions"]
    expect:
      - { kind: permission-mode, equals: bypassPermissions }
`;

const clis = liveClis([PINNED["claude-code"]], "argv-rejected");
let repo: { dir: string; cleanup: () => Promise<void> } | null = null;
beforeAll(async () => {
  await clis.install();
  repo = await registeredRepo("docs/prereg/0001-root-refusal.yaml", PROTOCOL);
}, 600_000);
afterAll(() => repo?.cleanup());

describe("an expected refusal of the argv", () => {
  it("live: Claude Code as root without IS_SANDBOX refusing bypassPermissions confirms an argv-rejected arm", async (ctx) => {
    clis.need(ctx, "claude-code");
    if (process.getuid?.() !== 0)
      ctx.skip("Claude Code refuses skipping permissions only as root; not root here");
    const dir = repo?.dir ?? "";
    const result = await witnessWith({
      cwd: dir,
      args: ["run", "docs/prereg/0001-root-refusal.yaml"],
      env: { WITNESS_CACHE: clis.cacheDir },
    });
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    const file = join(dir, "docs", "measurements", "0001-root-refusal-claude-code-2.1.332.json");
    const record = recordSchema.parse(JSON.parse(await readFile(file, "utf8")));
    const [refused, ran] = record.arms;
    expect(refused?.verdict).toBe("confirmed");
    expect(refused?.spawns[0]?.observation?.rejectedArgv?.message).toContain("root/sudo");
    expect(ran?.verdict).toBe("confirmed");
  });
});
