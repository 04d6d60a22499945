import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { CheckFailedError } from "../core/errors.js";
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
import {
  commit,
  git,
  put,
  putAdr,
  tempGitRepo,
  witnessInProcess,
} from "../test/support/witness-repo.js";
import { gateAdrs } from "./gate.js";
import { promoteAdr } from "./promote.js";

const REL = "docs/prereg/0001-demo.yaml";
const ADR = "docs/adr/0001-demo.md";
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

const adrText = (status: string, requires = "Requires: 0001") =>
  `# 0001 — Demo\n\nStatus: ${status}\n${requires}\n\nBody.\n`;

async function registerAndRun(names: string[]): Promise<string> {
  await put(repo.dir, REL, protocolText());
  await commit(repo.dir, "register");
  await lockProtocol(REL, { cwd: repo.dir });
  await commit(repo.dir, "lock");
  const [run] = await runProtocols({
    cwd: repo.dir,
    all: true,
    install: noInstall,
    facts: npmFacts,
    probe: seeing(names),
  });
  return run?.written.json ?? "";
}

async function gate() {
  const [row] = await gateAdrs({ cwd: repo.dir });
  if (row === undefined) throw new Error("no ADR row");
  return row;
}

beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
});
afterEach(() => repo.cleanup());

describe("the ADR gate", () => {
  it("passes an Accepted ADR whose protocol has a committed confirming record", async () => {
    await registerAndRun(["A"]);
    await commit(repo.dir, "record");
    await put(repo.dir, ADR, adrText("Accepted"));
    const row = await gate();
    expect(row.ok).toBe(true);
    expect(row.evidence[0]?.note).toBe(
      "confirmed by docs/measurements/0001-demo-claude-code-2.1.332.json",
    );
  });

  it("fails an Accepted ADR whose confirming record is not committed", async () => {
    await registerAndRun(["A"]);
    await put(repo.dir, ADR, adrText("Accepted"));
    const row = await gate();
    expect(row.ok).toBe(false);
    expect(row.evidence[0]?.note).toContain("is not committed");
  });

  it("fails an Accepted ADR whose protocol has a refuted record", async () => {
    await registerAndRun(["A", "B"]);
    await commit(repo.dir, "record");
    await put(repo.dir, ADR, adrText("Accepted"));
    const row = await gate();
    expect(row.ok).toBe(false);
    expect(row.evidence[0]?.note).toMatch(/^refuted by docs\/measurements\//);
  });

  it("judges a protocol on its registered CLI version and names other versions that refute it", async () => {
    await registerAndRun(["A"]);
    await commit(repo.dir, "record on the registered version");
    const older = { name: "claude-code" as const, version: "2.1.282" };
    const refutingOnOlder: ProbeFn = (spec, options) =>
      seeing(["A", "B"])(spec, options).then((o) => ({ ...o, cli: { ...spec.cli } }));
    await runProtocols({
      cwd: repo.dir,
      all: true,
      clis: [older],
      install: noInstall,
      facts: npmFacts,
      probe: refutingOnOlder,
    });
    await commit(repo.dir, "record on an older version");
    await put(repo.dir, ADR, adrText("Accepted"));
    const row = await gate();
    expect(row.ok).toBe(true);
    expect(row.evidence[0]?.note).toBe(
      "confirmed by docs/measurements/0001-demo-claude-code-2.1.332.json; refuted on claude-code 2.1.282",
    );
  });

  it("fails when the protocol changed since its lock, even with a confirming record", async () => {
    await registerAndRun(["A"]);
    await commit(repo.dir, "record");
    await put(repo.dir, ADR, adrText("Accepted"));
    await writeFile(join(repo.dir, REL), protocolText({ expectB: "marker-present" }));
    const row = await gate();
    expect(row.ok).toBe(false);
    expect(row.evidence[0]?.note).toContain("changed since its lock");
  });

  it("fails after an amendment until a record of the amended protocol exists", async () => {
    await registerAndRun(["A"]);
    await commit(repo.dir, "record");
    await put(repo.dir, ADR, adrText("Accepted"));
    await writeFile(join(repo.dir, REL), protocolText({ expectB: "marker-present" }));
    await commit(repo.dir, "amend the protocol");
    await lockProtocol(REL, { cwd: repo.dir, amend: "B is loaded after all" });
    await commit(repo.dir, "relock");
    const row = await gate();
    expect(row.ok).toBe(false);
    expect(row.evidence[0]?.note).toContain(
      "1 record(s) of an earlier version of the protocol do not count",
    );
    await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      facts: npmFacts,
      probe: seeing(["A", "B"]),
    });
    await commit(repo.dir, "record of the amended protocol");
    expect((await gate()).ok).toBe(true);
  });

  it("fails a record whose lock commit is not its lock's (the record's claim is checked, not used)", async () => {
    const json = await registerAndRun(["A"]);
    await git(repo.dir, "checkout", "-q", "-b", "elsewhere");
    const stranger = await commit(repo.dir, "unrelated", await put(repo.dir, "x.txt", "x"));
    await git(repo.dir, "checkout", "-q", "main");
    const text = await readFile(json, "utf8");
    await writeFile(json, text.replace(/"lockCommit": "[0-9a-f]+"/, `"lockCommit": "${stranger}"`));
    await commit(repo.dir, "record with a foreign lock commit");
    await put(repo.dir, ADR, adrText("Accepted"));
    const row = await gate();
    expect(row.ok).toBe(false);
    expect(row.evidence[0]?.note).toContain(`claims lock commit ${stranger.slice(0, 12)}`);
  });

  it("fails a record whose run started before the protocol was locked", async () => {
    const json = await registerAndRun(["A"]);
    const text = await readFile(json, "utf8");
    await writeFile(
      json,
      text.replace(/"startedAt": "[^"]+"/, `"startedAt": "2000-01-01T00:00:00.000Z"`),
    );
    await commit(repo.dir, "record");
    await put(repo.dir, ADR, adrText("Accepted"));
    const row = await gate();
    expect(row.ok).toBe(false);
    expect(row.evidence[0]?.note).toContain("the run started before the protocol was locked");
  });

  it("does not gate a Proposed ADR, and fails an Accepted one without a Requires line", async () => {
    await put(repo.dir, ADR, adrText("Proposed"));
    expect((await gate()).ok).toBe(true);
    await put(repo.dir, ADR, adrText("Accepted", ""));
    const row = await gate();
    expect(row.ok).toBe(false);
    expect(row.problems[0]).toContain("without a `Requires:` line");
    await put(repo.dir, ADR, adrText("Accepted", "Requires: none"));
    expect((await gate()).ok).toBe(true);
  });
});

describe("promoteAdr", () => {
  it("refuses to promote without evidence and leaves the file as it was", async () => {
    await put(repo.dir, ADR, adrText("Proposed"));
    await expect(promoteAdr("1", { cwd: repo.dir })).rejects.toBeInstanceOf(CheckFailedError);
    expect(await readFile(join(repo.dir, ADR), "utf8")).toBe(adrText("Proposed"));
  });

  it("flips only the status word once the evidence holds", async () => {
    await registerAndRun(["A"]);
    await commit(repo.dir, "record");
    await put(repo.dir, ADR, adrText("Proposed"));
    await promoteAdr("0001", { cwd: repo.dir });
    expect(await readFile(join(repo.dir, ADR), "utf8")).toBe(adrText("Accepted"));
  });
});

describe("witness adr check (in process)", () => {
  it("exits 1 with the table when an Accepted ADR lacks evidence, 0 once it holds", async () => {
    await put(repo.dir, ADR, adrText("Accepted"));
    const failing = await witnessInProcess(repo.dir, "adr", "check");
    expect(failing.exitCode).toBe(1);
    expect(failing.stdout).toMatch(/0001\s+Accepted\s+0001\s+FAIL/);
    expect(failing.stdout).toContain("no protocol 0001 in docs/prereg");
    await registerAndRun(["A"]);
    await commit(repo.dir, "record");
    const passing = await witnessInProcess(repo.dir, "adr", "check");
    expect(passing.stdout).toMatch(/0001\s+Accepted\s+0001\s+pass/);
    expect(passing.exitCode).toBe(0);
  });
});
