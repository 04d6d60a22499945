// Live: pass-through shims in front of the real pinned CLIs, installed through the vendor cache.
import { join } from "node:path";

import { afterEach, beforeAll, beforeEach, describe, expect, it, type TestContext } from "vitest";

import { PINNED } from "../clis/pinned.js";
import type { ProbeCliName } from "../probes/contracts/probe-spec.js";
import { liveClis } from "../test/support/live-clis.js";
import { run, tempDir } from "../test/support/temp-dir.js";
import { installShims } from "./install.js";
import { readShimLog } from "./read-log.js";

const clis = liveClis([PINNED["claude-code"], PINNED.codex], "shim");
beforeAll(() => clis.install(), 600_000);

function binOf(ctx: TestContext, name: ProbeCliName): string {
  return clis.need(ctx, name);
}

describe("live: pass-through shims", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  it.for([
    ["claude-code", "claude"],
    ["codex", "codex"],
  ] as const)(
    "live: a %s shim runs the real CLI, which reports its pinned version",
    async ([cli, name], ctx) => {
      const target = binOf(ctx, cli);
      const s = await installShims({
        dir: join(dir, "bin"),
        names: [name],
        behaviour: { kind: "pass-through", target },
      });
      // A temp HOME: the real CLI never sees the operator's configuration.
      const result = await run(join(dir, "bin", name), ["--version"], {
        env: { HOME: join(dir, "home") },
        cwd: dir,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toContain(PINNED[cli].version);
      const [record] = (await readShimLog(s.log)).records;
      expect(record).toMatchObject({
        shim: name,
        argv: ["--version"],
        target,
        exitCode: 0,
        signal: null,
      });
    },
  );
});
