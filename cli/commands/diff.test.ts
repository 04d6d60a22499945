import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { runProtocols } from "../../measurements/run-protocols.js";
import { lockProtocol } from "../../prereg/lock.js";
import { plantedMarkerNames } from "../../probes/contracts/fixture.js";
import type { ProbeSpec } from "../../probes/contracts/probe-spec.js";
import { marker, observation, protocolText } from "../../test/support/observations.js";
import { commit, put, tempGitRepo, witness } from "../../test/support/witness-repo.js";

let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await tempGitRepo();
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

describe("witness diff (built CLI)", () => {
  it("shows arm by arm which verdict and which predicate counts changed", async () => {
    const [a] = await runProtocols({ cwd: repo.dir, all: true, probe: seeing(["A"]) });
    const [b] = await runProtocols({ cwd: repo.dir, all: true, probe: seeing(["A", "B"]) });
    const result = await witness(repo.dir, "diff", a?.written.json ?? "", b?.written.json ?? "");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("overall: confirmed -> refuted");
    expect(result.stdout).toContain("~ only: confirmed -> refuted");
    expect(result.stdout).toContain("    marker-absent B 2/2 -> 0/2");
  });

  it("exits 2 on a file that is not a record", async () => {
    const bogus = await put(repo.dir, "not-a-record.json", '{"schema": "something else"}');
    const result = await witness(repo.dir, "diff", bogus, bogus);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${bogus}: schema:`);
  });
});
