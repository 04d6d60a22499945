import type { CommandModule } from "yargs";

import { UsageError } from "../../core/errors.js";
import type { CliRef } from "../../probes/contracts/probe-spec.js";
import { handled } from "../exit.js";

/** Parses `name@version` arguments; the first bad one is a usage error naming the accepted form. */
export async function parseRefs(texts: readonly string[]): Promise<CliRef[]> {
  const { parseCliRef } = await import("../../probes/contracts/probe-spec.js");
  return texts.map((text) => parseCliRef(text, "vendor"));
}

const out = (line: string) => process.stdout.write(`${line}\n`);

const add: CommandModule<object, { refs: string[] }> = {
  command: "add <refs..>",
  describe: "Install exact CLI versions into the vendor cache (idempotent)",
  builder: (y) => y.positional("refs", { type: "string", array: true, demandOption: true }),
  handler: handled(async (args) => {
    const refs = await parseRefs(args.refs);
    const { ensureCli } = await import("../../probes/vendor-cache.js");
    for (const ref of refs) {
      const { bin, version } = await ensureCli(ref);
      out(`${ref.name}@${version}\t${bin}`);
    }
  }),
};

const list: CommandModule<object, { json: boolean }> = {
  command: "list",
  describe: "List the installed CLI versions",
  builder: (y) => y.option("json", { type: "boolean", default: false }),
  handler: handled(async (args) => {
    const { listCli, defaultCacheDir } = await import("../../probes/vendor-cache.js");
    const entries = await listCli();
    if (args.json) {
      out(JSON.stringify(entries, null, 2));
      return;
    }
    if (entries.length === 0) process.stderr.write(`no CLI installed in ${defaultCacheDir()}\n`);
    for (const e of entries) out(`${e.name}@${e.reported}\t${e.dir}`);
  }),
};

const path: CommandModule<object, { ref: string }> = {
  command: "path <ref>",
  describe: "Print the binary of an installed CLI version",
  builder: (y) => y.positional("ref", { type: "string", demandOption: true }),
  handler: handled(async (args) => {
    const [ref] = await parseRefs([args.ref]);
    const { cliPath } = await import("../../probes/vendor-cache.js");
    const bin = ref === undefined ? null : await cliPath(ref);
    if (bin === null) {
      throw new UsageError(`${args.ref} is not installed; run \`witness vendors add ${args.ref}\``);
    }
    out(bin);
  }),
};

/** `witness vendors add|list|path`: the exact-version vendor CLI cache. */
export const vendorsCommand: CommandModule = {
  command: "vendors <command>",
  describe: "Install and locate exact versions of the vendor CLIs",
  builder: (y) =>
    y
      .command(add)
      .command(list)
      .command(path)
      .demandCommand(1, "Name a subcommand: add, list or path."),
  handler: () => undefined,
};
