import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import {
  homeWith,
  recorded,
  removeHomes,
  sessionIdOf,
} from "../../test/support/recorded-transcripts.js";
import { witnessInProcess, witnessInProcessWith } from "../../test/support/witness-repo.js";

const dir = await mkdtemp(join(tmpdir(), "witness-transcript-cmd-"));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await removeHomes();
});

// One fixture per recorded version (the command is openTranscript printed as JSON;
// transcripts/open-transcript.test.ts reads every fixture through the same function).
const runs = [...recorded("claude-code"), ...recorded("codex")].filter(
  (r, i, all) => all.findIndex((o) => o.cli === r.cli && o.version === r.version) === i,
);

describe("witness transcript (in process)", () => {
  for (const run of runs) {
    it(`${run.name}: --json prints the session as the cell's truth has it`, async () => {
      const result = await witnessInProcess(dir, "transcript", run.file, "--json");
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      const report = JSON.parse(result.stdout) as {
        sessionId: string;
        cliVersion: string;
        model: string;
        calls: { id: string; name: string; outcome: string }[];
        finalText: string;
        warnings: string[];
      };
      expect(report).toMatchObject({
        sessionId: run.truth.sessionId,
        cliVersion: run.truth.version,
        model: run.truth.model,
        finalText: run.truth.finalText,
        warnings: [],
      });
      expect(report.calls.map((c) => [c.id, c.name, c.outcome])).toEqual(
        run.truth.calls.map((c) => [c.id, c.name, c.outcome]),
      );
    });
  }

  it("prints a report for a person, naming each call and its outcome", async () => {
    const [run] = recorded("codex", "ran");
    if (run === undefined) throw new Error("expected a recorded codex run fixture");
    const result = await witnessInProcess(dir, "transcript", run.dir);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`session: ${sessionIdOf(run)}`);
    expect(result.stdout).toMatch(/→ error, exit 3 \(/);
  });

  it("exits 2 naming the file for something that is not a transcript, and the line for a non-JSONL one", async () => {
    const notes = join(dir, "notes.md");
    await writeFile(notes, "# hello\n");
    const result = await witnessInProcess(dir, "transcript", notes);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `witness: ${notes}: line 1: not JSON ("# hello"): not a JSONL transcript\n`,
    );
    expect(result.stdout).toBe("");
    const missing = await witnessInProcess(dir, "transcript", join(dir, "absent"));
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/absent: cannot read the transcript \(ENOENT\)\n$/);
  });
});

describe("witness parent-access (in process)", () => {
  it("reports a Codex parent's rollout as the evidence, in JSON", async () => {
    const [run] = recorded("codex", "sandbox");
    if (run === undefined) throw new Error("expected a recorded codex sandbox fixture");
    const home = await homeWith(run);
    const result = await witnessInProcessWith({
      cwd: dir,
      args: ["parent-access", "--json"],
      env: { HOME: home, CODEX_HOME: join(home, ".codex"), CODEX_THREAD_ID: sessionIdOf(run) },
    });
    expect(result.exitCode).toBe(0);
    const access = JSON.parse(result.stdout) as {
      fullAccess: boolean;
      evidence: { source: string; detail: string }[];
    };
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.at(-1)).toMatchObject({ source: "codex-rollout" });
    expect(access.evidence.at(-1)?.detail).toMatch(
      /latest turn_context sandbox_policy is read-only$/,
    );
  });

  it("says the parent is sandboxed when no session marker is set", async () => {
    const result = await witnessInProcessWith({
      cwd: dir,
      args: ["parent-access"],
      env: { HOME: dir },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^parent session: sandboxed \(full access not established\)\n/);
    expect(result.stdout).toContain(
      "FAIL session-marker: no Codex (CODEX_THREAD_ID) or Claude Code (CLAUDECODE) session marker",
    );
  });
});
