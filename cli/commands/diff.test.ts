import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { runProtocols } from "../../measurements/run-protocols.js";
import { lockProtocol } from "../../prereg/lock.js";
import { plantedMarkerNames } from "../../probes/contracts/fixture.js";
import type { ProbeSpec } from "../../probes/contracts/probe-spec.js";
import { marker, noInstall, observation, protocolText } from "../../test/support/observations.js";
import {
  commit,
  put,
  putAdr,
  tempGitRepo,
  witnessInProcess,
} from "../../test/support/witness-repo.js";

let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  await put(repo.dir, "docs/prereg/0001-demo.yaml", protocolText());
  await commit(repo.dir, "register");
  await lockProtocol("docs/prereg/0001-demo.yaml", { cwd: repo.dir });
});
afterEach(() => repo.cleanup());

const seeing = (names: string[]) => (spec: ProbeSpec) =>
  Promise.resolve(
    observation({
      markers: plantedMarkerNames(spec.fixture).map((n) =>
        marker(n, names.includes(n) ? ["system"] : []),
      ),
    }),
  );

describe("witness diff (in process)", () => {
  it("shows arm by arm which verdict and which predicate counts changed", async () => {
    const [a] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe: seeing(["A"]),
    });
    const [b] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe: seeing(["A", "B"]),
    });
    const result = await witnessInProcess(
      repo.dir,
      "diff",
      a?.written.json ?? "",
      b?.written.json ?? "",
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain("overall: confirmed -> refuted");
    expect(result.stdout).toContain("~ only: confirmed -> refuted");
    expect(result.stdout).toContain("    marker-absent B 2/2 -> 0/2");
    expect(result.stdout).toContain("verdicts changed");
    const same = await witnessInProcess(
      repo.dir,
      "diff",
      a?.written.json ?? "",
      a?.written.json ?? "",
    );
    expect(same.exitCode).toBe(0);
    expect(same.stdout).toContain("no verdict changed");
    const json = await witnessInProcess(
      repo.dir,
      "diff",
      "--json",
      a?.written.json ?? "",
      b?.written.json ?? "",
    );
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      verdictChanged: true,
      overall: { before: "confirmed", after: "refuted" },
    });
  });

  it("names faulted spawns and their reasons, and never shows them as predicate drift", async () => {
    const [a] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe: seeing(["A"]),
    });
    const faulty = (spec: ProbeSpec) =>
      seeing(["A"])(spec).then((o) => ({
        ...o,
        faults: ["no-request: no model request reached the fake server"],
      }));
    const [b] = await runProtocols({ cwd: repo.dir, all: true, install: noInstall, probe: faulty });
    const result = await witnessInProcess(
      repo.dir,
      "diff",
      a?.written.json ?? "",
      b?.written.json ?? "",
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain("~ only: confirmed -> inconclusive");
    expect(result.stdout).toContain(
      "    after: spawn 1 faulted: no-request: no model request reached the fake server",
    );
    expect(result.stdout).not.toMatch(/-> 0\/0/);
  });

  it("refuses two records of different protocols with exit 2", async () => {
    await put(repo.dir, "docs/prereg/0002-other.yaml", protocolText({ id: "0002", slug: "other" }));
    await commit(repo.dir, "register 0002");
    await lockProtocol("docs/prereg/0002-other.yaml", { cwd: repo.dir });
    const runs = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe: seeing(["A"]),
    });
    const result = await witnessInProcess(
      repo.dir,
      "diff",
      runs[0]?.written.json ?? "",
      runs[1]?.written.json ?? "",
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      "the records are of different protocols (0001 demo, 0002 other)",
    );
  });

  it("exits 2 on a file that is not a record", async () => {
    const bogus = await put(repo.dir, "not-a-record.json", '{"schema": "something else"}');
    const result = await witnessInProcess(repo.dir, "diff", bogus, bogus);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${bogus}: schema:`);
  });
});
