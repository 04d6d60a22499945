// A lock migrated to the effective canonical form: records made under the old hash keep counting
// exactly when the content is the same, and never through an amendment's own word.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { DOCS } from "../core/doc-paths.js";
import { runProtocol } from "../measurements/run-protocols.js";
import { writeRecord } from "../measurements/write-record.js";
import { lockProtocol } from "../prereg/lock.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import { lockInParsedForm } from "../test/support/earlier-lock.js";
import { marker, npmInstalled, observation, protocolText } from "../test/support/observations.js";
import { commit, put, tempGitRepo } from "../test/support/witness-repo.js";
import { gateAdrs } from "./gate.js";

const REL = "docs/prereg/0001-demo.yaml";
const AMENDMENTS = "docs/prereg/0001-demo.amendments.jsonl";
const RECORD = "docs/measurements/0001-demo-claude-code-2.1.332.json";
let repo: { dir: string; cleanup: () => Promise<void> };

const seeingA = (spec: ProbeSpec) =>
  Promise.resolve(
    observation({
      markers: plantedMarkerNames(spec.fixture).map((n) => marker(n, n === "A" ? ["system"] : [])),
    }),
  );

/** Registers, locks in the parsed form, records a confirming run under that lock, commits it. */
async function recordUnderParsedLock(): Promise<string> {
  await put(repo.dir, REL, protocolText());
  await commit(repo.dir, "register");
  const check = await lockInParsedForm(repo.dir, REL, new Date(Date.now() - 60_000));
  const record = await runProtocol(check, {
    probe: seeingA,
    installed: npmInstalled(check.loaded.protocol.cli),
  });
  await mkdir(join(repo.dir, DOCS.measurements), { recursive: true });
  await writeRecord(record, join(repo.dir, DOCS.measurements));
  await commit(repo.dir, "record");
  await put(
    repo.dir,
    "docs/adr/0001-demo.md",
    "# 0001 — Demo\n\nStatus: Accepted\nRequires: 0001\n",
  );
  await commit(repo.dir, "adr");
  return record.protocol.canonicalHash;
}

async function evidence() {
  const [row] = await gateAdrs({ cwd: repo.dir });
  return { ok: row?.ok, note: row?.evidence[0]?.note ?? "" };
}

beforeEach(async () => {
  repo = await tempGitRepo();
});
afterEach(() => repo.cleanup());

describe("the gate across a re-expressed lock", () => {
  it("counts a record of the parsed-form hash once the lock is re-expressed", async () => {
    await recordUnderParsedLock();
    expect((await evidence()).ok).toBe(false); // the lock is in an earlier form: relock first
    const { action } = await lockProtocol(REL, { cwd: repo.dir, amend: "defaults written out" });
    expect(action).toBe("re-expressed");
    await commit(repo.dir, "re-express the lock");
    expect(await evidence()).toEqual({ ok: true, note: `confirmed by ${RECORD}` });
  });

  it("orphans the old record when the protocol really changed", async () => {
    await recordUnderParsedLock();
    await lockProtocol(REL, { cwd: repo.dir, amend: "defaults written out" });
    await commit(repo.dir, "re-express the lock");
    await put(repo.dir, REL, protocolText().replace('["-p", "hi"]', '["-p", "hello"]'));
    await commit(repo.dir, "change the prompt");
    await lockProtocol(REL, { cwd: repo.dir, amend: "a new prompt" });
    await commit(repo.dir, "relock");
    const { ok, note } = await evidence();
    expect(ok).toBe(false);
    expect(note).toContain("1 record(s) of an earlier version of the protocol do not count");
  });

  it("orphans it too when the change came with the new form, even if the log claims a re-expression", async () => {
    const old = await recordUnderParsedLock();
    await put(repo.dir, REL, protocolText().replace('["-p", "hi"]', '["-p", "hello"]'));
    await commit(repo.dir, "change the prompt");
    expect((await lockProtocol(REL, { cwd: repo.dir, amend: "a new prompt" })).action).toBe(
      "amended",
    );
    // A hand-edited log: the same entry, now claiming only the form changed.
    const file = join(repo.dir, AMENDMENTS);
    const entry = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(entry.oldCanonicalHash).toBe(old);
    entry.reexpression = { from: "parsed", to: "effective/1" };
    await writeFile(file, `${JSON.stringify(entry)}\n`);
    await commit(repo.dir, "relock, with a forged re-expression");
    const { ok, note } = await evidence();
    expect(ok).toBe(false);
    expect(note).toContain("do not count");
  });
});
