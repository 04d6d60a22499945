// A hand amendment saying no records existed, when git held records of the old lock (or the run
// ledger names one written before it), fails the protocol: the lie would hide those records.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { runProtocols } from "../measurements/run-protocols.js";
import type { ProbeFn } from "../measurements/runner.js";
import { lockProtocol } from "../prereg/lock.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import {
  marker,
  noInstall,
  npmFacts,
  observation,
  protocolText,
} from "../test/support/observations.js";
import { commit, put, putAdr, tempGitRepo } from "../test/support/witness-repo.js";
import { gateAdrs } from "./gate.js";

const REL = "docs/prereg/0001-demo.yaml";
const LOG = "docs/prereg/0001-demo.amendments.jsonl";
let repo: { dir: string; cleanup: () => Promise<void> };

const seeing =
  (names: string[]): ProbeFn =>
  (spec: ProbeSpec) =>
    Promise.resolve(
      observation({
        markers: plantedMarkerNames(spec.fixture).map((n) =>
          marker(n, names.includes(n) ? ["system"] : []),
        ),
      }),
    );

const run = async (names: string[]) =>
  (
    await runProtocols({
      cwd: repo.dir,
      files: [REL],
      install: noInstall,
      facts: npmFacts,
      probe: seeing(names),
    })
  )[0]?.written.json ?? "";

beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  await put(repo.dir, REL, protocolText());
  await commit(repo.dir, "register");
  await lockProtocol(REL, { cwd: repo.dir });
  await commit(repo.dir, "lock");
  // B reached the model: the registered expectation is refuted, and the record says so.
  await run(["A", "B"]);
  await commit(repo.dir, "a refuting record");
  await put(repo.dir, REL, protocolText({ expectB: "marker-present" }));
  await commit(repo.dir, "expect B after all");
  await lockProtocol(REL, { cwd: repo.dir, amend: "B is meant to load" });
  await put(repo.dir, "docs/adr/0001-demo.md", "# 0001 Demo\n\nStatus: Accepted\nRequires: 0001\n");
});
afterEach(() => repo.cleanup());

async function confirmAndGate(options: { ledger?: string } = {}) {
  await commit(repo.dir, "amend");
  await run(["A", "B"]);
  await commit(repo.dir, "a confirming record of the amended lock");
  const [row] = await gateAdrs({ cwd: repo.dir, ...options });
  return row;
}

describe("an amendment checked against git and the run ledger", () => {
  it("passes the honest amendment (records existed, and it says so)", async () => {
    const text = await readFile(join(repo.dir, LOG), "utf8");
    expect(JSON.parse(text)).toMatchObject({ recordsExisted: true });
    expect((await confirmAndGate())?.ok).toBe(true);
  });

  it("fails a hand amendment saying no records existed when git held one, naming the line and the record", async () => {
    const text = await readFile(join(repo.dir, LOG), "utf8");
    const lie = { ...(JSON.parse(text) as object), recordsExisted: false, records: [] };
    await writeFile(join(repo.dir, LOG), `${JSON.stringify(lie)}\n`);
    const row = await confirmAndGate();
    expect(row?.ok).toBe(false);
    expect(row?.evidence[0]?.note).toMatch(
      /^protocol 0001: docs\/prereg\/0001-demo\.amendments\.jsonl: line 1: recordsExisted: expected true; git holds docs\/measurements\/0001-demo-claude-code-2\.1\.332\.json of lock sha256:[0-9a-f]+, added in [0-9a-f]{12} before the amendment$/,
    );
  });

  it("fails one the run ledger contradicts (a record written elsewhere before it)", async () => {
    const text = await readFile(join(repo.dir, LOG), "utf8");
    const amendment = JSON.parse(text) as { at: string; oldCanonicalHash: string };
    const lie = { ...amendment, recordsExisted: false, records: [] };
    await writeFile(join(repo.dir, LOG), `${JSON.stringify(lie)}\n`);
    // A record written elsewhere (another --out, another clone) that only the ledger knows.
    const ledger = join(repo.dir, "runs.jsonl");
    const entry = {
      v: 1,
      at: "2000-01-01T00:00:00.000Z",
      record: "/elsewhere/0001-demo-claude-code-2.1.332.json",
      protocol: { id: "0001", slug: "demo", canonicalHash: amendment.oldCanonicalHash },
      cli: { name: "claude-code", version: "2.1.332" },
      verdict: "refuted",
    };
    await writeFile(ledger, `${JSON.stringify(entry)}\n`);
    const row = await confirmAndGate({ ledger });
    expect(row?.ok).toBe(false);
    expect(row?.evidence[0]?.note).toContain(
      "recordsExisted: expected true; the run ledger names /elsewhere/0001-demo-claude-code-2.1.332.json, written 2000-01-01T00:00:00.000Z before it",
    );
  });
});
