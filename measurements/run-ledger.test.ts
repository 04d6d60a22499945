import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { InputError } from "../core/errors.js";
import { runProcess } from "../core/exec.js";
import { tempDir } from "../test/support/temp-dir.js";
import { readLedger } from "./run-ledger.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir("witness-ledger-")));
afterEach(() => cleanup());

const entry = {
  v: 1,
  at: "2026-01-01T00:00:00.000Z",
  record: "/r/0001-demo-claude-code-2.1.332.json",
  protocol: { id: "0001", slug: "demo", canonicalHash: "sha256:a" },
  cli: { name: "claude-code", version: "2.1.332" },
  verdict: "confirmed",
};

describe("the run ledger, read back", () => {
  it("is empty when missing, and skips a damaged line", async () => {
    expect(await readLedger(join(dir, "runs.jsonl"))).toEqual([]);
    await writeFile(join(dir, "runs.jsonl"), `${JSON.stringify(entry)}\n{"v":\n`);
    expect(await readLedger(join(dir, "runs.jsonl"))).toEqual([entry]);
  });

  it("refuses a symlink in its place (to a FIFO, which would block), naming it", async () => {
    const fifo = join(dir, "fifo");
    await runProcess({ file: "mkfifo", args: [fifo], env: {}, cwd: dir, timeoutMs: 10_000 });
    await symlink(fifo, join(dir, "runs.jsonl"));
    const error = await readLedger(join(dir, "runs.jsonl")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(
      `${join(dir, "runs.jsonl")}: expected the run ledger`,
    );
  }, 5_000);
});
