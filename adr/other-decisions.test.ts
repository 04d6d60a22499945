import { afterEach, describe, expect, it } from "vitest";

import { protocolText } from "../test/support/observations.js";
import { commit, put, registeredRepo, witnessInProcess } from "../test/support/witness-repo.js";

const EXTERNAL = "https://github.com/acme/runner/blob/main/docs/adr/0007-sdk.md";
const external = protocolText({ id: "0002", slug: "ext" }).replace(
  'adr: "0001"\n',
  `decision: { external: "${EXTERNAL}" }\n`,
);

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

describe("a protocol gating someone else's decision", () => {
  it("locks without an ADR file, and adr status lists it apart from the ADRs", async () => {
    const repo = await registeredRepo("docs/prereg/0002-ext.yaml", external);
    cleanup = repo.cleanup;
    const status = await witnessInProcess(repo.dir, "adr", "status", "--json");
    expect(status.exitCode, status.stderr).toBe(0);
    const doc = JSON.parse(status.stdout) as { otherDecisions: unknown[] };
    expect(doc.otherDecisions).toEqual([
      {
        protocol: "0002",
        file: "docs/prereg/0002-ext.yaml",
        decision: { external: EXTERNAL },
        gates: `the external decision ${EXTERNAL}`,
      },
    ]);
    const text = await witnessInProcess(repo.dir, "adr", "status");
    expect(text.stdout).toContain(`0002 docs/prereg/0002-ext.yaml: gates the external decision`);
  });

  it("is refused as evidence of a witness ADR that requires it", async () => {
    const repo = await registeredRepo("docs/prereg/0002-ext.yaml", external);
    cleanup = repo.cleanup;
    await put(
      repo.dir,
      "docs/adr/0003-uses.md",
      "# 0003 Uses\n\nStatus: Accepted\nRequires: 0002\n",
    );
    await commit(repo.dir, "adr 0003");
    const check = await witnessInProcess(repo.dir, "adr", "check", "--json");
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain(
      `protocol 0002 gates the external decision ${EXTERNAL}, not a witness ADR`,
    );
  });
});
