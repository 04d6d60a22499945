// The one classifier per CLI, judged against ground truth built from the cell (sentinels on disk,
// the fake server's log), never from the transcript: once with what a probe has (the result on the
// wire and the session's record), once with the wire alone, once with the session alone.
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { classifierFor } from "../clis/classify.js";
import { claudeWording } from "../clis/claude-code/wordings.js";
import { codexRefusalWording } from "../clis/codex/wordings.js";
import { driverFor } from "../probes/drivers/index.js";
import { homeWith, recorded, removeHomes, sessionIdOf } from "./support/recorded-transcripts.js";

afterAll(removeHomes);

const runs = [
  ...recorded("claude-code"),
  ...recorded("codex"),
  ...recorded("copilot"),
  ...recorded("kilo"),
  ...recorded("kimi"),
  ...recorded("cline"),
];

describe("each recorded run's calls, classified as the probe and `witness transcript` classify them", () => {
  it.each(runs.map((r) => [r.name, r] as const))("%s", async (_name, run) => {
    const home = await homeWith(run);
    const id = sessionIdOf(run);
    const env = { HOME: home, CODEX_HOME: join(home, ".codex") };
    const hints = { markers: [], stdout: `{"session_id":"${id}"}`, stderr: `session id: ${id}\n` };
    const facts = await driverFor(run.cli).readTranscript(env, hints);
    const classify = classifierFor(run.cli);
    expect(driverFor(run.cli).classify).toBe(classify);
    for (const call of run.truth.calls) {
      const recordedCall = facts.calls.get(call.id) ?? null;
      const probe = classify({ wire: call.wireResult, recorded: recordedCall });
      expect(probe.outcome, `${call.id} (probe: ${probe.because})`).toBe(call.outcome);
      // Kilo ends a run at an auto-rejected ask without sending any result back: no wire to judge.
      if (call.wireResult !== null) {
        const wireOnly = classify({ wire: call.wireResult, recorded: null });
        expect(wireOnly.outcome, `${call.id} (wire alone: ${wireOnly.because})`).toBe(call.outcome);
      }
      expect(facts.outcomes.get(call.id), `${call.id} (transcript alone)`).toBe(call.outcome);
    }
  });
});

describe("the refusal wordings the recorded runs sent back", () => {
  it("include every row of the wording tables a fixture was recorded for, on its version", () => {
    const seen = new Set<string>();
    for (const run of runs)
      for (const call of run.truth.calls) {
        if (call.outcome !== "denied" || call.wireResult === null) continue;
        const row =
          run.cli === "codex"
            ? codexRefusalWording(call.wireResult.text)
            : claudeWording(call.wireResult.text);
        if (row?.seenOn.includes(run.truth.version)) seen.add(`${row.id}@${run.truth.version}`);
      }
    expect([...seen]).toEqual(
      expect.arrayContaining(["deny-rule@2.1.332", "rejected-by-approval-settings@0.171.0"]),
    );
  });
});
