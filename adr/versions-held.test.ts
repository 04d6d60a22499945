import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { runProtocols } from "../measurements/run-protocols.js";
import type { ProbeFn } from "../measurements/runner.js";
import { lockProtocol } from "../prereg/lock.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import {
  marker,
  noInstall,
  npmFacts,
  observation,
  protocolText,
} from "../test/support/observations.js";
import { commit, put, tempGitRepo } from "../test/support/witness-repo.js";
import { gateAdrs, loadGateContext } from "./gate.js";
import { renderVersionsHeld, versionsHeld } from "./versions-held.js";

const REL = "docs/prereg/0001-demo.yaml";
let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await tempGitRepo();
});
afterEach(() => repo.cleanup());

// Marker B reaches the model on 2.1.300 only, so the arm expecting it absent is refuted there.
const probe: ProbeFn = (spec) =>
  Promise.resolve(
    observation({
      cli: spec.cli,
      markers: plantedMarkerNames(spec.fixture).map((n) =>
        marker(n, n === "A" || spec.cli.version === "2.1.300" ? ["system"] : []),
      ),
    }),
  );

describe("versions a protocol holds on", () => {
  it("lists every version with a committed confirming record of the current lock, and no other", async () => {
    await put(repo.dir, REL, protocolText());
    await put(
      repo.dir,
      "docs/adr/0001-demo.md",
      "# 0001 — Demo\n\nStatus: Proposed\nRequires: 0001\n",
    );
    await commit(repo.dir, "register");
    await lockProtocol(REL, { cwd: repo.dir });
    await commit(repo.dir, "lock");
    const clis = ["2.1.282", "2.1.300", "2.1.332"].map((version) => ({
      name: "claude-code" as const,
      version,
    }));
    await runProtocols({
      cwd: repo.dir,
      all: true,
      clis,
      install: noInstall,
      facts: npmFacts,
      probe,
    });
    await commit(repo.dir, "records");
    const rows = await gateAdrs({ cwd: repo.dir });
    const { ctx } = await loadGateContext(repo.dir);
    expect(renderVersionsHeld(await versionsHeld(rows, ctx))).toBe(
      "0001 holds on claude-code 2.1.282, 2.1.332\n",
    );
  });
});
