// The one exec seam in the built bundle: esbuild's account of what went into it (exec-seam.test.ts
// checks the sources).
import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { builtCli, BUNDLE_METAFILE } from "../test/support/built-cli.js";

const SEAM = "core/exec.ts";

/** The part of an esbuild metafile the bundle check reads. */
interface Metafile {
  inputs: Record<string, { imports: { path: string }[] }>;
}

const CHILD_PROCESS = /^(node:)?child_process$/;
const isExeca = (path: string) => path.startsWith("node_modules/execa/");

/**
 * Each path by which bundled code reaches child_process without going through the seam's own
 * import of execa, as `importer -> child_process`: a walk from every witness source that never
 * takes the seam's edge into execa.
 */
function bundleOffenders(meta: Metafile): string[] {
  const seen = new Set<string>();
  const queue = Object.keys(meta.inputs).filter((path) => !path.startsWith("node_modules/"));
  const offenders: string[] = [];
  while (queue.length > 0) {
    const from = queue.shift() ?? "";
    if (seen.has(from)) continue;
    seen.add(from);
    for (const { path } of meta.inputs[from]?.imports ?? []) {
      if (CHILD_PROCESS.test(path)) offenders.push(`${from} -> ${path}`);
      else if (!(from === SEAM && isExeca(path))) queue.push(path);
    }
  }
  return offenders;
}

/** The sources in the bundle that import execa directly. */
function execaImporters(meta: Metafile): string[] {
  return Object.entries(meta.inputs)
    .filter(([from]) => !from.startsWith("node_modules/"))
    .filter(([, input]) => input.imports.some(({ path }) => isExeca(path)))
    .map(([from]) => from);
}

describe("the one exec seam in the bundled CLI", () => {
  it("holds exactly one source that imports execa, and nothing else reaches a spawner", () => {
    builtCli(); // refuses a stale dist/
    const meta = JSON.parse(readFileSync(BUNDLE_METAFILE, "utf8")) as Metafile;
    expect(execaImporters(meta)).toEqual([SEAM]);
    expect(bundleOffenders(meta)).toEqual([]);
  });

  it("names a second importer and each other way to child_process in a bundle that has them", () => {
    const cross = "node_modules/cross-spawn/index.js";
    const meta: Metafile = {
      inputs: {
        [SEAM]: { imports: [{ path: "node_modules/execa/index.js" }] },
        "probes/run-probe.ts": { imports: [{ path: "node_modules/execa/index.js" }] },
        "shims/install.ts": { imports: [{ path: "node:child_process" }] },
        "cli/main.ts": { imports: [{ path: "node_modules/yargs/index.js" }] },
        "node_modules/yargs/index.js": { imports: [{ path: cross }] },
        "node_modules/execa/index.js": { imports: [{ path: cross }] },
        [cross]: { imports: [{ path: "child_process" }] },
      },
    };
    expect(execaImporters(meta)).toEqual([SEAM, "probes/run-probe.ts"]);
    expect(bundleOffenders(meta).sort()).toEqual([
      `${cross} -> child_process`,
      "shims/install.ts -> node:child_process",
    ]);
    // The seam alone reaches it: no offender.
    delete meta.inputs["probes/run-probe.ts"];
    delete meta.inputs["shims/install.ts"];
    delete meta.inputs["cli/main.ts"];
    expect(bundleOffenders(meta)).toEqual([]);
  });
});
