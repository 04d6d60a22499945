import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import {
  homeWith,
  recorded,
  removeHomes,
  sessionIdOf,
} from "../test/support/recorded-transcripts.js";
import { readCodexRollout } from "./codex-rollout.js";

const runs = recorded("codex");

afterAll(removeHomes);

describe("readCodexRollout on rollouts the real CLI wrote", () => {
  it("has fixtures from at least two versions of Codex", () => {
    expect(new Set(runs.map((r) => r.version)).size).toBeGreaterThanOrEqual(2);
  });

  for (const run of runs) {
    it(`${run.name}: reads back session_meta, the turn context and the exec call`, async () => {
      const rollout = await readCodexRollout(run.file);
      expect(rollout.broken).toEqual([]);
      expect(rollout.unknownRecords).toEqual([]);
      expect(rollout.sessionMeta).toMatchObject({
        id: sessionIdOf(run),
        cwd: run.meta.cwd,
        cliVersion: run.version,
      });
      expect(rollout.turnContexts).toHaveLength(1);
      expect(rollout.latestTurnContext).toMatchObject({
        approvalPolicy: "never",
        sandboxPolicy: run.scenario,
        cwd: run.meta.cwd,
      });
      expect(rollout.customToolCalls).toHaveLength(1);
      const [call] = rollout.customToolCalls;
      expect(call?.name).toBe("exec");
      expect(call?.input).toContain("tools.exec_command");
      expect(rollout.customToolOutputs.map((o) => o.callId)).toEqual([call?.callId]);
      const counted = Object.values(rollout.recordCounts).reduce((a, b) => a + b, 0);
      expect(counted).toBe(rollout.lineCount);
    });
  }

  for (const run of recorded("codex", "danger-full-access")) {
    it(`${run.name}: the command ran and is listed as executed`, async () => {
      const rollout = await readCodexRollout(run.file);
      expect(rollout.commands).toHaveLength(1);
      expect(rollout.commands[0]?.command.at(-1)).toBe(`touch ${run.meta.cwd}/FULL_ACCESS_RAN`);
      expect(rollout.commands[0]?.exitCode).toBe(0);
    });
  }

  for (const run of recorded("codex", "workspace-write")) {
    it(`${run.name}: a command inside the workspace ran under workspace-write`, async () => {
      const rollout = await readCodexRollout(run.file);
      expect(rollout.commands.map((c) => [c.command.at(-1), c.exitCode])).toEqual([
        [`touch ${run.meta.cwd}/WORKSPACE_WRITE_RAN`, 0],
      ]);
    });
  }

  for (const run of recorded("codex", "read-only")) {
    it(`${run.name}: the blocked command shows only in the tool output`, async () => {
      const rollout = await readCodexRollout(run.file);
      expect(rollout.commands).toEqual([]);
      expect(rollout.customToolOutputs[0]?.text).toMatch(/cannot touch.*READ_ONLY_RAN/);
    });
  }
});

describe("readCodexRollout on damaged or newer rollouts", () => {
  const base = recorded("codex", "danger-full-access")[0];

  async function edited(edit: (lines: string[]) => string[]): Promise<string> {
    if (base === undefined) throw new Error("no danger-full-access fixture recorded");
    const path = join(await homeWith(), "rollout.jsonl");
    const lines = (await readFile(base.file, "utf8")).split("\n").filter((l) => l !== "");
    await writeFile(path, `${edit(lines).join("\n")}\n`);
    return path;
  }

  it("reports a broken line with its line number and reads on past it", async () => {
    const path = await edited((lines) => [
      ...lines.slice(0, 3),
      "not json at all",
      ...lines.slice(3),
    ]);
    const rollout = await readCodexRollout(path);
    expect(rollout.broken.map((b) => b.line)).toEqual([4]);
    expect(rollout.broken[0]?.error).toMatch(/^not JSON: /);
    expect(rollout.latestTurnContext?.sandboxPolicy).toBe("danger-full-access");
    expect(rollout.commands).toHaveLength(1);
  });

  it("keeps and counts a line type it does not know", async () => {
    const future = JSON.stringify({
      timestamp: "t",
      ordinal: 99,
      type: "future_kind",
      payload: {},
    });
    const path = await edited((lines) => [...lines, future]);
    const rollout = await readCodexRollout(path);
    expect(rollout.recordCounts.future_kind).toBe(1);
    expect(rollout.unknownRecords).toEqual([
      { line: rollout.lineCount, type: "future_kind", value: JSON.parse(future) as unknown },
    ]);
  });

  it("takes the last turn context as the latest and reports one without a sandbox policy", async () => {
    const turn = (policy: unknown) =>
      JSON.stringify({ type: "turn_context", payload: { cwd: "/w", sandbox_policy: policy } });
    const path = await edited((lines) => [...lines, turn({ type: "read-only" }), turn("bogus")]);
    const rollout = await readCodexRollout(path);
    expect(rollout.turnContexts.map((t) => t.sandboxPolicy)).toEqual([
      "danger-full-access",
      "read-only",
    ]);
    expect(rollout.latestTurnContext?.sandboxPolicy).toBe("read-only");
    expect(rollout.broken.map((b) => b.line)).toEqual([rollout.lineCount]);
    expect(rollout.broken[0]?.error).toMatch(/^turn_context payload: sandbox_policy: /);
  });
});
