import type { CommandModule } from "yargs";

import { UsageError } from "../../core/errors.js";
import { handled } from "../exit.js";

interface MatrixArgs {
  dir?: string;
  out?: string;
  check: boolean;
  "base-url"?: string;
}

/** `witness matrix`: docs/versions' per-CLI pages and release feed, from the records on disk. */
export const matrixCommand: CommandModule<object, MatrixArgs> = {
  command: "matrix",
  describe:
    "Write docs/versions/<cli>.md (protocol arm × version, flips first) and the release feed (feed.json, feed.atom) from the records",
  builder: (y) =>
    y
      .option("dir", { type: "string", describe: "records directory (default docs/measurements)" })
      .option("out", { type: "string", describe: "pages directory (default docs/versions)" })
      .option("base-url", {
        type: "string",
        describe:
          "the public URL of the pages directory, for the feed's links (default: a tag: URI)",
      })
      .option("check", {
        type: "boolean",
        default: false,
        describe: "write nothing; exit 1 naming each page the records no longer match",
      }),
  handler: handled(async (args: MatrixArgs) => {
    const { shownPath } = await import("../../core/display-path.js");
    const { repoMatrixFiles, staleMatrixFiles, writeMatrixFiles } =
      await import("../../measurements/matrix-files.js");
    const cwd = process.cwd();
    const base = args["base-url"];
    if (base !== undefined && !/^https?:\/\/\S+\/$/.test(base))
      throw new UsageError(
        `--base-url ${JSON.stringify(base)}: expected an http(s) URL ending in /`,
      );
    const files = await repoMatrixFiles(cwd, {
      ...(args.dir === undefined ? {} : { dir: args.dir }),
      ...(args.out === undefined ? {} : { out: args.out }),
      ...(base === undefined ? {} : { base }),
    });
    if (args.check) {
      const stale = await staleMatrixFiles(files);
      for (const f of stale)
        process.stdout.write(`stale: ${shownPath(f, cwd)} (run witness matrix)\n`);
      return stale.length === 0 ? 0 : 1;
    }
    for (const f of await writeMatrixFiles(files))
      process.stdout.write(`wrote ${shownPath(f, cwd)}\n`);
    return 0;
  }),
};
