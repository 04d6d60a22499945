// `witness transcript` through the built binary: one recorded session as JSON, and a file that is
// no transcript. transcript.test.ts runs every recorded version in process.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { recorded } from "../../test/support/recorded-transcripts.js";
import { witness } from "../../test/support/witness-repo.js";

const dir = await mkdtemp(join(tmpdir(), "witness-transcript-e2e-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("witness transcript (built CLI)", () => {
  it("prints a recorded Codex session as one JSON document, its calls as the truth has them", async () => {
    const [run] = recorded("codex", "ran");
    if (run === undefined) throw new Error("expected a recorded codex run fixture");
    const result = await witness(dir, "transcript", run.file, "--json");
    expect([result.exitCode, result.stderr]).toEqual([0, ""]);
    const report = JSON.parse(result.stdout) as { calls: { id: string; outcome: string }[] };
    expect(report.calls.map((c) => [c.id, c.outcome])).toEqual(
      run.truth.calls.map((c) => [c.id, c.outcome]),
    );
  });

  it("exits 2 naming the file and line of something that is not a transcript", async () => {
    const notes = join(dir, "notes.md");
    await writeFile(notes, "# hello\n");
    const result = await witness(dir, "transcript", notes);
    expect([result.exitCode, result.stdout]).toEqual([2, ""]);
    expect(result.stderr).toBe(
      `witness: ${notes}: line 1: not JSON ("# hello"): not a JSONL transcript\n`,
    );
  });
});
