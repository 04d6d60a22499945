import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { codexExitCode } from "../clis/codex/wordings.js";
import { recorded, sessionIdOf } from "../test/support/recorded-transcripts.js";
import { readCodexRollout } from "./codex-rollout.js";

const runs = recorded("codex");
const dir = await mkdtemp(join(tmpdir(), "witness-codex-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function rollout(name: string, lines: unknown[]) {
  const path = join(dir, name);
  await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return readCodexRollout(path);
}
const item = (payload: unknown) => ({ type: "response_item", payload });
const event = (payload: unknown) => ({ type: "event_msg", payload });
const meta = { type: "session_meta", payload: { id: "t-1", cwd: "/w", cli_version: "0.58.0" } };

describe("readCodexRollout on every recorded fixture, against the cell's ground truth", () => {
  it("has fixtures of at least three versions: one ≤ 0.60, one 0.15x, one 0.17x", () => {
    const versions = [...new Set(runs.map((r) => r.version))];
    expect(versions.length).toBeGreaterThanOrEqual(3);
    expect(versions.some((v) => /^0\.([0-5]\d|60)\./.test(v))).toBe(true);
    expect(versions.some((v) => v.startsWith("0.15"))).toBe(true);
    expect(versions.some((v) => v.startsWith("0.17"))).toBe(true);
  });

  for (const run of runs) {
    const truth = run.truth;
    it(`${run.name}: thread id, cwd, version, model, sandbox and final text as the cell saw them`, async () => {
      const r = await readCodexRollout(run.file);
      expect(r.sessionMeta?.id).toBe(truth.sessionId);
      expect(r.sessionMeta?.id).toBe(sessionIdOf(run));
      expect(r.sessionMeta?.cwd).toBe(truth.cwd);
      expect(r.sessionMeta?.cliVersion).toBe(truth.version);
      expect(r.models.at(-1)).toBe(truth.model);
      expect(r.finalText).toBe(truth.finalText);
      expect(new Set(r.turnContexts.map((t) => t.sandboxPolicy))).toEqual(
        new Set([truth.sandboxPolicy]),
      );
    });

    it(`${run.name}: every call the fake issued, in order, ended as the cell shows`, async () => {
      const r = await readCodexRollout(run.file);
      expect(r.calls.map((c) => [c.id, c.name])).toEqual(truth.calls.map((c) => [c.id, c.name]));
      expect(r.calls.map((c) => c.outcome)).toEqual(truth.calls.map((c) => c.outcome));
      for (const [i, call] of truth.calls.entries()) {
        if (call.exitCode !== null) expect(r.calls[i]?.exitCode).toBe(call.exitCode);
      }
    });

    it(`${run.name}: reads every line (no drift)`, async () => {
      const r = await readCodexRollout(run.file);
      expect(r.drift.items).toEqual([]);
      const counted = Object.values(r.recordCounts).reduce((a, b) => a + b, 0);
      expect(counted).toBe(r.lineCount);
    });
  }

  for (const run of recorded("codex", "text")) {
    it(`${run.name}: finds the planted AGENTS.md marker while streaming`, async () => {
      const r = await readCodexRollout(run.file, { markers: ["Project rules", "WITNESS-ABSENT"] });
      expect(r.markersSeen).toEqual(["Project rules"]);
    });
  }
});

describe("codexExitCode", () => {
  it.each([
    [['{"chunk_id":"a","exit_code":3,"output":""}'], { code: 3, form: "json" }],
    [["Script completed\nOutput:\n", '{"exit_code":0}'], { code: 0, form: "json" }],
    [
      ['{"output":"x\\n","metadata":{"exit_code":1,"duration_seconds":0.0}}'],
      { code: 1, form: "metadata" },
    ],
    [["Exit code: 3\nWall time: 0 seconds\nOutput:\nout\n"], { code: 3, form: "text" }],
    [
      ["Chunk ID: a\nWall time: 0.05 seconds\nProcess exited with code 2\nOutput:\n"],
      { code: 2, form: "text" },
    ],
    [['{"output":"printed \\"exit_code\\": 9"}'], null],
    [["no code here"], null],
  ] as const)("reads %j as %j", (parts, expected) => {
    expect(codexExitCode(parts)).toEqual(expected);
  });
});

describe("readCodexRollout on the shapes older versions write", () => {
  it("0.58: shell function calls with JSON output, sandbox_policy as mode, one turn context per request", async () => {
    const turn = (mode: string) => ({
      type: "turn_context",
      payload: {
        cwd: "/w",
        approval_policy: "never",
        sandbox_policy: { mode },
        model: "gpt-5-codex",
      },
    });
    const call = (id: string, cmd: string) =>
      item({
        type: "function_call",
        name: "shell",
        arguments: JSON.stringify({ command: ["bash", "-lc", cmd] }),
        call_id: id,
      });
    const output = (id: string, text: string) =>
      item({ type: "function_call_output", call_id: id, output: text });
    const r = await rollout("058.jsonl", [
      meta,
      turn("read-only"),
      item({ type: "ghost_snapshot", ghost_commit: { id: "c" } }),
      call("c1", "touch /w/x"),
      output(
        "c1",
        '{"output":"touch: cannot touch \'/w/x\': Permission denied\\n","metadata":{"exit_code":1}}',
      ),
      turn("read-only"),
      call("c2", "echo out; exit 3"),
      output("c2", '{"output":"out\\n","metadata":{"exit_code":3}}'),
      event({ type: "agent_message", message: "done" }),
      item({
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "done" }],
      }),
    ]);
    expect(
      r.calls.map((c) => [c.id, c.family, c.name, c.inputSummary, c.outcome, c.exitCode]),
    ).toEqual([
      ["c1", "function_call", "shell", "command: bash -lc touch /w/x", "denied", 1],
      ["c2", "function_call", "shell", "command: bash -lc echo out; exit 3", "error", 3],
    ]);
    expect(r.turnContexts.map((t) => t.sandboxPolicy)).toEqual(["read-only", "read-only"]);
    expect(r.finalText).toBe("done");
    expect(r.drift.items).toEqual([]);
  });

  it("0.60: shell_command and local_shell_call in one ordered list, exit codes from the text", async () => {
    const r = await rollout("060.jsonl", [
      meta,
      item({
        type: "function_call",
        name: "shell_command",
        arguments: '{"command":"touch /w/a"}',
        call_id: "c1",
      }),
      item({
        type: "local_shell_call",
        call_id: "c2",
        status: "completed",
        action: { type: "exec", command: ["bash", "-lc", "touch /w/b"] },
      }),
      item({
        type: "function_call_output",
        call_id: "c2",
        output: "Exit code: 0\nWall time: 0 seconds\nOutput:\n",
      }),
      item({
        type: "function_call_output",
        call_id: "c1",
        output: "Exit code: 4\nWall time: 0 seconds\nOutput:\n",
      }),
    ]);
    expect(
      r.calls.map((c) => [c.id, c.family, c.name, c.outcome, c.exitCode, c.resultLine]),
    ).toEqual([
      ["c1", "function_call", "shell_command", "error", 4, 5],
      ["c2", "local_shell_call", "local_shell", "ran", 0, 4],
    ]);
  });

  it("0.148+: a CommandExecution event belongs to the exec call it ran under", async () => {
    const command = {
      type: "CommandExecution",
      id: "exec-1",
      command: ["/bin/bash", "-lc", "touch /w/a"],
      status: "failed",
      exit_code: 1,
      aggregated_output: "Read-only file system",
    };
    const r = await rollout("148.jsonl", [
      meta,
      item({
        type: "custom_tool_call",
        call_id: "c1",
        name: "exec",
        input: 'const a = await tools.exec_command({cmd: "touch /w/a"});',
      }),
      event({ type: "item_completed", item: command }),
      item({
        type: "custom_tool_call_output",
        call_id: "c1",
        output: [{ type: "input_text", text: "Script completed\n" }],
      }),
    ]);
    expect(r.calls[0]).toMatchObject({
      inputSummary: "cmd: touch /w/a",
      exitCode: 1,
      outcome: "denied",
    });
    expect(r.calls[0]?.commands.map((c) => c.id)).toEqual(["exec-1"]);
    expect(r.commands).toHaveLength(1);
  });

  it("reports unknown line and payload types, renamed fields and orphan outputs with their lines", async () => {
    const r = await rollout("drift.jsonl", [
      meta,
      { type: "brand_new_line", payload: {} },
      item({ type: "web_search_call", id: "w" }),
      event({ type: "exec_command_end", call_id: "x" }),
      item({ type: "function_call", tool_name: "shell", arguments: "{}", call_id: "c1" }),
      item({ type: "function_call_output", call_id: "ghost", output: "x" }),
      { type: "turn_context", payload: { cwd: "/w" } },
      event({ type: "item_completed", item: { type: "Reasoning" } }),
    ]);
    expect(r.drift.items.map((i) => [i.line, i.kind, i.subject])).toEqual([
      [2, "unknown-record", "brand_new_line"],
      [3, "unknown-payload", "response_item/web_search_call"],
      [4, "unknown-payload", "event_msg/exec_command_end"],
      [5, "missing-field", "response_item/function_call"],
      [6, "missing-field", "response_item/output"],
      [7, "missing-field", "turn_context"],
      [8, "unknown-payload", "event_msg/item_completed/Reasoning"],
    ]);
    expect(r.drift.items[3]?.detail).toBe("name: missing");
    expect(r.calls).toEqual([]);
    expect(r.payloadCounts).toMatchObject({ "response_item/web_search_call": 1 });
  });

  it("keeps the last cumulative token count", async () => {
    const count = (input: number) =>
      event({
        type: "token_count",
        info: {
          total_token_usage: { input_tokens: input, cached_input_tokens: 1, output_tokens: 2 },
        },
      });
    const r = await rollout("tokens.jsonl", [
      meta,
      event({ type: "token_count", info: null }),
      count(10),
      count(25),
    ]);
    expect(r.usage).toEqual({
      inputTokens: 25,
      outputTokens: 2,
      cachedInputTokens: 1,
      cacheCreationInputTokens: 0,
    });
  });
});
