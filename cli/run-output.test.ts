import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import type { Reproduction } from "../measurements/committed-record.js";
import { recordSchema } from "../measurements/record.js";
import type { ProtocolRun } from "../measurements/run-protocols.js";
import { WITNESS_ROOT } from "../test/support/built-cli.js";
import { gateFailures, runAnnotations, runJson } from "./run-output.js";

// Two committed records: 0011 refuted (a result the shipped set keeps), 0002 confirmed.
async function run(name: string, reproduction: Reproduction): Promise<ProtocolRun> {
  const file = join(WITNESS_ROOT, "docs", "measurements", `${name}.json`);
  const record = recordSchema.parse(JSON.parse(await readFile(file, "utf8")));
  return {
    file: record.protocol.file,
    record,
    written: { json: file, md: "", csv: "", previous: null },
    reproduction,
  };
}
const refuted = "0011-claude-code-nested-worktree-claude-code-2.1.332";
const confirmed = "0002-claude-code-ambient-none-claude-code-2.1.332";
const same: Reproduction = {
  kind: "compared",
  committed: "c.json",
  reproduces: true,
  spawns: null,
};
const differs: Reproduction = { ...same, reproduces: false };
const none: Reproduction = { kind: "none", why: "nothing committed to compare with: no record" };

describe("the gate of witness run and witness merge", () => {
  it.each([
    ["confirmed", confirmed, same, 0],
    ["confirmed", refuted, same, 1],
    ["reproduces", refuted, same, 0],
    ["reproduces", confirmed, same, 0],
    ["reproduces", confirmed, differs, 1],
    ["reproduces", refuted, none, 1],
  ] as const)("--gate %s on %s (%j): %d failure(s)", async (gate, name, reproduction, count) => {
    const failures = gateFailures([await run(name, reproduction)], gate);
    expect(failures).toHaveLength(count);
    expect(runJson([await run(name, reproduction)], [], gate).ok).toBe(count === 0);
  });

  it("names the record that does not reproduce, and why", async () => {
    const [line] = gateFailures([await run(confirmed, differs)], "reproduces");
    expect(line).toBe(
      "0002 claude-code-ambient-none on claude-code@2.1.332: DIFFERS from the verdicts of the committed c.json",
    );
  });

  it("under --gate reproduces annotates the records that differ, not the refuted arms they keep", async () => {
    const env = { GITHUB_ACTIONS: "true" };
    const runs = [await run(refuted, same), await run(confirmed, differs)];
    expect(runAnnotations(runs, env, "confirmed")).toHaveLength(1);
    const notes = runAnnotations(runs, env, "reproduces");
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^::error file=docs\/prereg\/0002-claude-code-ambient-none\.yaml,/);
  });
});
