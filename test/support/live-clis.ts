// Live tests' real CLIs: installed through witness's own vendor cache once per test file, and a
// test skipped with the reason printed when its CLI truly cannot be installed.
import type { TestContext } from "vitest";

import type { CliRef } from "../../probes/contracts/probe-spec.js";
import { defaultCacheDir, ensureCli } from "../../probes/vendor-cache.js";

/** The CLIs one live test file uses. */
export interface LiveClis {
  /** The vendor cache they are installed in (resolved when the file loads). */
  cacheDir: string;
  /** Installs every CLI (call in beforeAll); a failure is remembered and printed, not thrown. */
  install(): Promise<void>;
  /** The binary of `name`, or skips the test with the reason it is missing. */
  need(ctx: TestContext, name: CliRef["name"]): string;
  /** The names that installed. */
  ready(): CliRef["name"][];
  /** Why `name` is missing, or undefined when it installed. */
  missing(name: CliRef["name"]): string | undefined;
}

/** Live CLIs for a file of tests about `what` (the skip message names it). */
export function liveClis(refs: readonly CliRef[], what: string): LiveClis {
  // Resolved now, before any test changes HOME: the CI's `vendors add` install is the one used.
  const cacheDir = defaultCacheDir();
  const bins = new Map<CliRef["name"], string>();
  const reasons = new Map<CliRef["name"], string>();
  return {
    cacheDir,
    async install() {
      for (const ref of refs) {
        try {
          bins.set(ref.name, (await ensureCli(ref, { cacheDir })).bin);
        } catch (error) {
          const reason = `cannot install ${ref.name}@${ref.version}: ${String(error)}`;
          reasons.set(ref.name, reason);
          console.warn(`live ${what} tests of ${ref.name} will be skipped: ${reason}`);
        }
      }
    },
    need(ctx, name) {
      const bin = bins.get(name);
      if (bin === undefined) ctx.skip(reasons.get(name) ?? `${name} was never installed`);
      return bin ?? "";
    },
    ready: () => refs.map((r) => r.name).filter((n) => bins.has(n)),
    missing: (name) => reasons.get(name),
  };
}
