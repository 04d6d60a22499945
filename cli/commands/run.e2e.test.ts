// `witness run` and `witness prereg` through the built binary: a usage error and a refused
// protocol as a person sees them. run.test.ts runs the rest of the cases in process.
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { protocolText } from "../../test/support/observations.js";
import { commit, put, putAdr, tempGitRepo, witness } from "../../test/support/witness-repo.js";

let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  await put(repo.dir, "docs/prereg/0001-demo.yaml", protocolText());
  await commit(repo.dir, "register");
});
afterEach(() => repo.cleanup());

describe("witness run (built CLI)", () => {
  it("exits 2 on a bad flag value, with the message and no stack", async () => {
    const result = await witness(repo.dir, "run", "--all", "--jobs", "0");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("witness: --jobs: expected a positive integer; got 0\n");
    expect(result.stdout).toBe("");
  });

  it("refuses an unlocked protocol with exit 2, and prereg verify says unlocked with exit 1", async () => {
    const run = await witness(repo.dir, "run", "--all");
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /refused \(prereg-unlocked\): .*0001-demo\.yaml: not locked \(hash sha256:[0-9a-f]{64}\)/,
    );
    const verify = await witness(repo.dir, "prereg", "verify");
    expect(verify.exitCode).toBe(1);
    expect(verify.stdout).toContain("docs/prereg/0001-demo.yaml: unlocked");
  });
});
