import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { latestClaudePermissionMode, latestCodexTurnContext } from "./latest-policy.js";
import { latestRecord } from "./latest-record.js";

const dir = await mkdtemp(join(tmpdir(), "witness-latest-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const prompt = (mode: string, extra = {}) =>
  line({ type: "user", permissionMode: mode, message: { content: "go" }, ...extra });
const turn = (policy: unknown) =>
  line({ type: "turn_context", payload: { approval_policy: "never", sandbox_policy: policy } });
const accept = (value: unknown) =>
  (value as { n?: number }).n === undefined ? null : (value as { n: number }).n;

describe("latestRecord", () => {
  it("returns the last matching line and the byte offset where it starts", async () => {
    const text = `${line({ n: 1 })}${line({ x: 0 })}${line({ n: 2 })}${line({ x: 1 })}`;
    const path = await file("simple.jsonl", text);
    expect(await latestRecord(path, { needle: '"n"', accept })).toEqual({
      value: 2,
      offset: text.indexOf('{"n":2}'),
    });
  });

  it("finds a record across 1 MiB chunk boundaries and inside a line longer than a chunk", async () => {
    const filler = line({ x: "y".repeat(700_000) });
    const long = line({ n: 7, pad: "z".repeat(3_000_000) });
    const path = await file("chunks.jsonl", `${line({ n: 1 })}${long}${filler}${filler}`);
    expect((await latestRecord(path, { needle: '"n"', accept }))?.value).toBe(7);
  });

  it("passes over a cut-off last line and lines the accept function refuses", async () => {
    const path = await file("cut.jsonl", `${line({ n: 1 })}${line({ n: "no" })}{"n":3,"half`);
    const numeric = (v: unknown) => {
      const n = (v as { n?: unknown }).n;
      return typeof n === "number" ? n : null;
    };
    expect((await latestRecord(path, { needle: '"n"', accept: numeric }))?.value).toBe(1);
  });

  it("checks the whole needle around each rare byte it finds, across chunk boundaries", async () => {
    // Upper-case M is the byte searched for; plenty of them, few a part of the needle.
    const noise = line({ x: "Mode M permissionMod permission Mode ".repeat(40_000) });
    const wanted = line({ permissionMode: "plan" });
    const path = await file("anchor.jsonl", `${wanted}${noise}${noise}`);
    const mode = (v: unknown) => (v as { permissionMode?: string }).permissionMode ?? null;
    const found = await latestRecord(path, { needle: '"permissionMode"', accept: mode });
    expect(found).toEqual({ value: "plan", offset: 0 });
  });

  it("with `within`, looks for the needle only at the start of each line", async () => {
    const head = (type: string, tail: unknown) =>
      line({ timestamp: "2026-12-01T09:57:25.682Z", type, payload: tail });
    const text = `${head("turn_context", { n: 1 })}${head("event_msg", { note: '"type":"turn_context"' })}`;
    const path = await file("within.jsonl", text);
    const query = { needle: '"type":"turn_context"', within: 80, accept: (v: unknown) => v };
    expect((await latestRecord(path, query))?.offset).toBe(0);
  });

  it("is null when no line matches, and for an empty file", async () => {
    expect(
      await latestRecord(await file("none.jsonl", line({ x: 1 })), { needle: '"n"', accept }),
    ).toBeNull();
    expect(await latestRecord(await file("empty.jsonl", ""), { needle: '"n"', accept })).toBeNull();
  });

  it("reads a first line behind a byte-order mark", async () => {
    const path = await file("bom.jsonl", `\uFEFF${line({ n: 5 })}`);
    expect((await latestRecord(path, { needle: '"n"', accept }))?.value).toBe(5);
  });

  it("rejects a file that cannot be opened", async () => {
    await expect(latestRecord(join(dir, "absent.jsonl"), { needle: "x", accept })).rejects.toThrow(
      /ENOENT/,
    );
  });
});

describe("the latest policy of a session", () => {
  it("Claude Code: the last main-session prompt's permissionMode, not a sidechain's", async () => {
    const text = `${prompt("default")}${prompt("bypassPermissions")}${prompt("plan", { isSidechain: true })}${line({ type: "assistant" })}`;
    const path = await file("claude.jsonl", text);
    expect(await latestClaudePermissionMode(path)).toEqual({
      mode: "bypassPermissions",
      offset: prompt("default").length,
    });
  });

  it("Codex: the last turn_context, its sandbox_policy as type or 0.58's mode", async () => {
    const path = await file(
      "codex.jsonl",
      `${turn({ type: "danger-full-access" })}${turn({ mode: "read-only" })}`,
    );
    expect(await latestCodexTurnContext(path)).toEqual({
      sandboxPolicy: "read-only",
      approvalPolicy: "never",
      offset: turn({ type: "danger-full-access" }).length,
    });
  });

  it("is null when the session has no such record", async () => {
    const path = await file("nothing.jsonl", line({ type: "user", message: { content: "go" } }));
    expect(await latestClaudePermissionMode(path)).toBeNull();
    expect(await latestCodexTurnContext(path)).toBeNull();
  });
});
