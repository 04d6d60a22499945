import type { CommandModule } from "yargs";

import { UsageError } from "../../core/errors.js";
import type { CliRef } from "../../probes/contracts/probe-spec.js";
import { printJson, withCache, withJson } from "../common-options.js";
import { handled } from "../exit.js";
import { GROUP_NEEDS_COMMAND } from "../parse-errors.js";

/** Parses `name@version` arguments; the first bad one is a usage error naming the accepted form. */
export async function parseRefs(texts: readonly string[]): Promise<CliRef[]> {
  const { parseCliRef } = await import("../../probes/contracts/probe-spec.js");
  return texts.map((text) => parseCliRef(text, "vendor"));
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const cacheOf = (cache: string | undefined) => (cache === undefined ? {} : { cacheDir: cache });

interface AddArgs {
  refs: string[];
  cache: string | undefined;
  json: boolean;
}

const add: CommandModule<object, AddArgs> = {
  command: "add <refs..>",
  describe: "Install exact CLI versions into the vendor cache (idempotent)",
  builder: (y) =>
    withJson(
      withCache(
        y.positional("refs", {
          type: "string",
          array: true,
          demandOption: true,
          // No `[default: []]` in the help: the command syntax already requires one.
          default: undefined,
          describe: "CLI versions, e.g. claude-code@2.1.332 codex@0.171.0",
        }),
      ),
      "each installed version and its binary",
    ),
  handler: handled(async (args) => {
    const refs = await parseRefs(args.refs);
    // A version not in the cache is checked against the registry's list first (exit 2 naming the
    // nearest published, under every name the CLI was published as), then installed.
    const { installAll } = await import("../../probes/vendor-registry.js");
    const got = await installAll(refs, cacheOf(args.cache));
    const installed: { name: string; version: string; bin: string }[] = [];
    for (const ref of refs) {
      const one = got.get(`${ref.name}@${ref.version}`);
      if (one === undefined) continue;
      installed.push({ name: ref.name, version: one.version, bin: one.bin });
      if (!args.json) out(`${ref.name}@${one.version}\t${one.bin}`);
    }
    if (args.json) printJson(installed);
  }),
};

const list: CommandModule<object, { cache: string | undefined; json: boolean }> = {
  command: "list",
  describe: "List the installed CLI versions",
  builder: (y) => withJson(withCache(y), "the installed versions"),
  handler: handled(async (args) => {
    const { listCli, defaultCacheDir } = await import("../../probes/vendor-cache.js");
    const entries = await listCli(cacheOf(args.cache));
    if (args.json) {
      printJson(entries);
      return;
    }
    if (entries.length === 0)
      process.stderr.write(`no CLI installed in ${args.cache ?? defaultCacheDir()}\n`);
    for (const e of entries) out(`${e.name}@${e.reported}\t${e.dir}`);
  }),
};

const path: CommandModule<object, { ref: string; cache: string | undefined; json: boolean }> = {
  command: "path <ref>",
  describe: "Print the binary of an installed CLI version",
  builder: (y) =>
    withJson(
      withCache(
        y.positional("ref", {
          type: "string",
          demandOption: true,
          describe: "an installed version, e.g. codex@0.171.0",
        }),
      ),
      "the version, its binary, the binary it resolves to and its npm integrity",
    ),
  handler: handled(async (args) => {
    const [ref] = await parseRefs([args.ref]);
    const { installedFacts } = await import("../../probes/vendor-cache.js");
    const facts = ref === undefined ? null : await installedFacts(ref, cacheOf(args.cache));
    if (facts === null) {
      throw new UsageError(`${args.ref} is not installed; run \`witness vendors add ${args.ref}\``);
    }
    if (args.json) printJson(facts);
    else out(facts.bin);
  }),
};

/** `witness vendors add|list|path`: the exact-version vendor CLI cache. */
export const vendorsCommand: CommandModule = {
  command: "vendors",
  describe: "Install and locate exact versions of the vendor CLIs",
  builder: (y) => y.command(add).command(list).command(path).demandCommand(1, GROUP_NEEDS_COMMAND),
  handler: () => undefined,
};
