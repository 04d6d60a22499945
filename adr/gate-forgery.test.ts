// Forged evidence: each case builds a record the gate must not accept, by editing what a real run
// wrote. Every case passed the gate while it read a record's own verdict, provenance or working tree.
import { readFile, rm, symlink, writeFile } from "node:fs/promises";
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
import { tempDir } from "../test/support/temp-dir.js";
import {
  commit,
  put,
  putAdr,
  tempGitRepo,
  witnessInProcess,
} from "../test/support/witness-repo.js";
import { gateAdrs } from "./gate.js";

const REL = "docs/prereg/0001-demo.yaml";
const OTHER = "docs/prereg/0002-other.yaml";
const ADR = "docs/adr/0001-demo.md";
let repo: { dir: string; cleanup: () => Promise<void> };
let scratch: { dir: string; cleanup: () => Promise<void> };

type Json = Record<string, unknown> & {
  protocol: Record<string, unknown>;
  arms: (Record<string, unknown> & { spawns: Record<string, unknown>[] })[];
};

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

/** Runs the registered protocol(s) with a probe that sees `names`; returns the JSON written. */
async function run(names: string[], options: { file?: string; spawns?: number } = {}) {
  const [done] = await runProtocols({
    cwd: repo.dir,
    files: [options.file ?? REL],
    install: noInstall,
    facts: npmFacts,
    probe: seeing(names),
    ...(options.spawns === undefined ? {} : { spawns: options.spawns }),
  });
  return done?.written.json ?? "";
}

async function readJson(file: string): Promise<Json> {
  return JSON.parse(await readFile(file, "utf8")) as Json;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function register(file: string, text: string): Promise<void> {
  await put(repo.dir, file, text);
  await commit(repo.dir, `register ${file}`);
  await lockProtocol(file, { cwd: repo.dir });
  await commit(repo.dir, `lock ${file}`);
}

/** Marks every spawn, arm and the record as confirmed, keeping the observations as they were. */
function claimConfirmed(json: Json, passes: boolean): Json {
  for (const arm of json.arms) {
    arm.verdict = "confirmed";
    arm.reasons = ["all spawns as expected"];
    for (const spawn of arm.spawns) {
      spawn.status = "as-expected";
      if (passes) {
        spawn.predicates = (spawn.predicates as { pass: boolean }[]).map((p) => ({
          ...p,
          pass: true,
        }));
      }
    }
  }
  json.verdict = "confirmed";
  return json;
}

async function gateRow() {
  const [row] = await gateAdrs({ cwd: repo.dir });
  if (row === undefined) throw new Error("no ADR row");
  return row;
}

beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  scratch = await tempDir("witness-forgery-");
  await put(repo.dir, ADR, "# 0001 — Demo\n\nStatus: Accepted\nRequires: 0001\n");
  await register(REL, protocolText());
});
afterEach(async () => {
  await repo.cleanup();
  await scratch.cleanup();
});

const forgeries: { name: string; note: RegExp; forge: () => Promise<void> }[] = [
  {
    name: "a record that does not say which install ran (no cli.installed)",
    note: /0001-demo-claude-code-2\.1\.332\.json is not evidence: cli\.installed: expected the install that ran/,
    forge: async () => {
      const file = await run(["A"]);
      const json = await readJson(file);
      delete (json.cli as { installed?: unknown }).installed;
      await writeJson(file, json);
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a record made from a stand-in vendor entry",
    note: /is not evidence: cli\.installed\.standIn: expected npm's install; the run used a stand-in \(a wrapper\)/,
    forge: async () => {
      const file = await run(["A"]);
      const json = await readJson(file);
      (json.cli as { installed: Record<string, unknown> }).installed.standIn = "a wrapper";
      await writeJson(file, json);
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a refuted record whose verdicts say confirmed",
    note: /recorded confirmed, its spawns give refuted/,
    forge: async () => {
      const file = await run(["A", "B"]);
      await writeJson(file, claimConfirmed(await readJson(file), false));
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a refuted record whose predicates were flipped to pass",
    note: /"marker-absent B" is recorded as passed, its observation says failed/,
    forge: async () => {
      const file = await run(["A", "B"]);
      await writeJson(file, claimConfirmed(await readJson(file), true));
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a record copied from another protocol, every arm refuted, relabelled confirmed",
    note: /arms \[elsewhere\], the protocol registers \[only\]/,
    forge: async () => {
      await register(
        OTHER,
        protocolText({ id: "0002", slug: "other" }).replace("id: only", "id: elsewhere"),
      );
      const theirs = await readJson(await run([], { file: OTHER }));
      const ours = await readJson(await run(["A"]));
      await rm(join(repo.dir, "docs/measurements"), { recursive: true });
      const forged = claimConfirmed({ ...theirs, protocol: ours.protocol }, false);
      await put(
        repo.dir,
        "docs/measurements/0001-demo-claude-code-2.1.332.json",
        JSON.stringify(forged),
      );
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a record of fewer spawns than the protocol registers",
    note: /arm only: 1 spawn\(s\), the protocol registers 2/,
    forge: async () => {
      await run(["A"], { spawns: 1 });
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a record whose arm claims a workspace trust the protocol does not register",
    note: /arm only: recorded an? (un)?trusted workspace, the protocol registers an? (un)?trusted one/,
    forge: async () => {
      const file = await run(["A"]);
      const json = await readJson(file);
      for (const arm of json.arms) arm.workspaceTrusted = arm.workspaceTrusted !== true;
      await writeJson(file, json);
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a record whose lock commit was rewritten",
    note: /claims lock commit 0{12}/,
    forge: async () => {
      const file = await run(["A"]);
      const json = await readJson(file);
      json.protocol.lockCommit = "0".repeat(40);
      await writeJson(file, json);
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a record that started before the lock, its lock time rewritten to match",
    note: /the run started before the protocol was locked/,
    forge: async () => {
      const file = await run(["A"]);
      const json = await readJson(file);
      json.startedAt = "2000-01-02T00:00:00.000Z";
      json.protocol.lockedAt = "2000-01-01T00:00:00.000Z";
      await writeJson(file, json);
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a committed symlink to an uncommitted record outside the repository",
    note: /is a symlink; a record must be a committed file/,
    forge: async () => {
      const file = await run(["A"]);
      const outside = join(scratch.dir, "record.json");
      await writeFile(outside, await readFile(file));
      await rm(file);
      await symlink(outside, file);
      await commit(repo.dir, "record");
    },
  },
  {
    name: "a committed refuted record edited in the working tree to a confirming one",
    note: /refuted by docs\/measurements\/0001-demo-claude-code-2\.1\.332\.json/,
    forge: async () => {
      const refuted = await run(["A", "B"]);
      await commit(repo.dir, "record");
      const confirming = await run(["A"]);
      await writeFile(refuted, await readFile(confirming));
      for (const ext of ["json", "md", "csv"]) await rm(confirming.replace(/json$/, ext));
    },
  },
  {
    name: "a committed refuted record edited in place to a confirming one, and committed",
    note: /0001-demo-claude-code-2\.1\.332\.json is modified after it was added in [0-9a-f]{12}/,
    forge: async () => {
      const refuted = await run(["A", "B"]);
      await commit(repo.dir, "record");
      const confirming = await run(["A"]);
      await writeFile(refuted, await readFile(confirming));
      for (const ext of ["json", "md", "csv"]) await rm(confirming.replace(/json$/, ext));
      await commit(repo.dir, "fix the record");
    },
  },
  {
    name: "a record of 2.1.282 relabelled 2.1.332 (its argv still runs the 2.1.282 install)",
    note: /observation\.argv: expected the claude-code@2\.1\.332 install; it ran claude-code@2\.1\.282/,
    forge: async () => {
      const file = await run(["A"]);
      const json = await readJson(file);
      for (const arm of json.arms)
        for (const spawn of arm.spawns) {
          const observation = spawn.observation as { argv: string[] };
          observation.argv[0] = "/root/.cache/witness/claude-code@2.1.282/node_modules/.bin/claude";
        }
      await writeJson(file, json);
      await commit(repo.dir, "record");
    },
  },
];

describe("the gate on forged evidence", () => {
  it.each(forgeries)("fails an Accepted ADR on $name", async ({ forge, note }) => {
    await forge();
    const row = await gateRow();
    expect(row.ok).toBe(false);
    expect(row.evidence[0]?.note).toMatch(note);
  });

  it("still passes the same ADR on the genuine record (the forgeries fail for what they forged)", async () => {
    await run(["A"]);
    await commit(repo.dir, "record");
    expect((await gateRow()).ok).toBe(true);
  });

  it("fails when the lock and the record arrive in one commit (no lock preceded the run)", async () => {
    await put(repo.dir, OTHER, protocolText({ id: "0002", slug: "other" }));
    await commit(repo.dir, "register 0002");
    await lockProtocol(OTHER, { cwd: repo.dir });
    await run(["A"], { file: OTHER });
    await commit(repo.dir, "lock and record together");
    await put(repo.dir, ADR, "# 0001 — Demo\n\nStatus: Accepted\nRequires: 0002\n");
    const row = await gateRow();
    expect(row.ok).toBe(false);
    expect(row.evidence[0]?.note).toMatch(/does not follow the commit of its lock/);
  });
});

describe("witness adr check on records that are not records", () => {
  it("reports a non-JSON and a wrong-schema .json by name, gates the rest, and does not crash", async () => {
    await run(["A"]);
    await put(repo.dir, "docs/measurements/notes.json", "this is not JSON\n");
    await put(
      repo.dir,
      "docs/measurements/0001-demo-claude-code-2.1.332-9.json",
      '{"schema": "x"}\n',
    );
    await commit(repo.dir, "record and two files that are not records");
    const result = await witnessInProcess(repo.dir, "adr", "check");
    expect(result.stderr).toContain("docs/measurements/notes.json: not JSON");
    expect(result.stderr).toContain(
      "docs/measurements/0001-demo-claude-code-2.1.332-9.json: not a witness.record/1",
    );
    expect(result.stdout).toMatch(/0001\s+Accepted\s+0001\s+pass/);
    expect(result.exitCode).toBe(0);
  });

  it("never lets a malformed record stand in for a confirming one", async () => {
    await put(repo.dir, "docs/measurements/0001-demo-claude-code-2.1.332.json", "{ not json");
    await commit(repo.dir, "a broken record");
    const result = await witnessInProcess(repo.dir, "adr", "check");
    expect(result.stdout).toMatch(/0001\s+Accepted\s+0001\s+FAIL/);
    expect(result.stdout).toContain("0001-demo-claude-code-2.1.332.json is not JSON");
    expect(result.exitCode).toBe(1);
  });
});
