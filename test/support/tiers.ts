// Which tier a test file is in, and whether a fast one reaches for the built binary.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { repositoryTsFiles } from "./import-layers.js";

// The helpers of built-cli.ts and witness-repo.ts that start the built binary.
const BINARY_HELPERS = new Set(["builtCli", "runBuiltCli", "BUILT_CLI", "witness", "witnessWith"]);
const SUPPORT_IMPORT =
  /^import\s+\{([^}]*)\}\s+from\s+"[./]*(?:test\/)?support\/(?:built-cli|witness-repo)\.js";/gm;

/** The fast tier's test files: every `*.test.ts` that is neither `*.e2e.test.ts` nor `*.live.test.ts`. */
export function fastTestFiles(root: string): string[] {
  return repositoryTsFiles(root).filter(
    (f) => f.endsWith(".test.ts") && !/\.(e2e|live)\.test\.ts$/.test(f),
  );
}

/** Fast test files that import a helper starting the built binary, as `file: name`. */
export function fastFilesStartingTheBinary(root: string): string[] {
  return fastTestFiles(root).flatMap((file) =>
    [...readFileSync(join(root, file), "utf8").matchAll(SUPPORT_IMPORT)]
      .flatMap((m) => (m[1] ?? "").split(","))
      .map(
        (name) =>
          name
            .trim()
            .replace(/^type\s+/, "")
            .split(/\s+as\s+/)[0] ?? "",
      )
      .filter((name) => BINARY_HELPERS.has(name))
      .map((name) => `${file}: ${name}`),
  );
}
