// `adr check --reproduce`: a required protocol run again passes only when it reproduces the
// verdicts of its committed record; the run's records never land in docs/measurements.
import { readdir } from "node:fs/promises";
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
import { reproduceRequired } from "./reproduce.js";

const REL = "docs/prereg/0001-demo.yaml";
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

beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  await put(repo.dir, REL, protocolText());
  await commit(repo.dir, "register");
  await lockProtocol(REL, { cwd: repo.dir });
  await commit(repo.dir, "lock");
  await runProtocols({
    cwd: repo.dir,
    files: [REL],
    install: noInstall,
    facts: npmFacts,
    probe: seeing(["A"]),
  });
  await put(repo.dir, "docs/adr/0001-demo.md", "# 0001 Demo\n\nStatus: Accepted\nRequires: 0001\n");
  await commit(repo.dir, "a confirming record; the ADR accepted");
});
afterEach(() => repo.cleanup());

describe("adr check --reproduce", () => {
  it("passes when the required protocol, run again, reproduces its committed record", async () => {
    const rows = await gateAdrs({ cwd: repo.dir });
    expect(rows.every((r) => r.ok)).toBe(true);
    const done = await reproduceRequired(rows, {
      cwd: repo.dir,
      install: noInstall,
      facts: npmFacts,
      probe: seeing(["A"]),
    });
    expect(done.map((d) => [d.protocol, d.cli, d.ok])).toEqual([
      ["0001", "claude-code@2.1.332", true],
    ]);
    // The run's records went to a directory of their own.
    expect(await readdir(join(repo.dir, "docs/measurements"))).toHaveLength(3);
  });

  it("fails when the CLI no longer does what the committed record says (B now reaches the model)", async () => {
    const rows = await gateAdrs({ cwd: repo.dir });
    const done = await reproduceRequired(rows, {
      cwd: repo.dir,
      install: noInstall,
      facts: npmFacts,
      probe: seeing(["A", "B"]),
    });
    expect(done[0]?.ok).toBe(false);
    expect(done[0]?.reproduction).toMatchObject({
      kind: "compared",
      committed: "docs/measurements/0001-demo-claude-code-2.1.332.json",
      reproduces: false,
    });
  });

  it("runs nothing for a Proposed ADR", async () => {
    await put(
      repo.dir,
      "docs/adr/0001-demo.md",
      "# 0001 Demo\n\nStatus: Proposed\nRequires: 0001\n",
    );
    const rows = await gateAdrs({ cwd: repo.dir });
    const probe: ProbeFn = () => Promise.reject(new Error("nothing should run"));
    expect(
      await reproduceRequired(rows, { cwd: repo.dir, install: noInstall, facts: npmFacts, probe }),
    ).toEqual([]);
  });
});
