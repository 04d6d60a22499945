// `witness watch` in this repository against the npm registry: the plan a clean clone gets, and
// bad flags. measurements/watch.test.ts covers runs, flips and bisection with a stand-in probe.
import { readdir } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { WITNESS_ROOT, witnessInProcess } from "../../test/support/witness-repo.js";

const records = async () => (await readdir(join(WITNESS_ROOT, "docs", "measurements"))).sort();

describe("witness watch (registry)", () => {
  it("--dry-run lists the Codex releases after --since and the protocols it would compare, writing nothing", async () => {
    const before = await records();
    const result = await witnessInProcess(
      WITNESS_ROOT,
      "watch",
      "--dry-run",
      "--json",
      "--cli",
      "codex",
      "--since",
      "codex@0.169.0",
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const [codex] = JSON.parse(result.stdout) as {
      cli: string;
      newer: string[];
      target: string;
      protocols: { id: string; comparedWith: { version: string } | null }[];
    }[];
    expect(codex?.cli).toBe("codex");
    expect(codex?.newer.slice(0, 2)).toEqual(["0.169.1", "0.171.0"]);
    expect(codex?.target).toBe(codex?.newer.at(-1));
    expect(codex?.protocols.map((p) => p.id)).toContain("0004");
    expect(await records()).toEqual(before);
  });

  it("exits 2 naming the flag on a CLI it has no driver for, or a --since that is not name@version", async () => {
    const cli = await witnessInProcess(WITNESS_ROOT, "watch", "--dry-run", "--cli", "vim");
    expect(cli.exitCode).toBe(2);
    expect(cli.stderr).toContain('--cli "vim": no driver for a CLI named "vim"');
    const since = await witnessInProcess(WITNESS_ROOT, "watch", "--dry-run", "--since", "codex");
    expect(since.exitCode).toBe(2);
    expect(since.stderr).toContain('--since "codex": expected <cli>@<exact version>');
  });
});
