import type { CommandModule } from "yargs";

import { CheckFailedError } from "../../core/errors.js";
import { printJson, withCache, withJson } from "../common-options.js";
import { handled } from "../exit.js";
import { GROUP_NEEDS_COMMAND } from "../parse-errors.js";

interface NewArgs {
  slug: string;
  adr?: string;
  "decision-external"?: string;
  "decision-none"?: string;
  json: boolean;
}
interface LockArgs {
  file: string;
  amend?: string;
  cache: string | undefined;
  json: boolean;
}
interface VerifyArgs {
  files?: string[];
  json: boolean;
}

const newCommand: CommandModule<object, NewArgs> = {
  command: "new <slug>",
  describe: "Write a protocol template in docs/prereg with the next free id",
  builder: (y) =>
    withJson(
      y
        .positional("slug", { type: "string", demandOption: true, describe: "kebab-case name" })
        .option("adr", {
          type: "string",
          describe: "the ADR the protocol gates (its docs/adr file must exist before the lock)",
        })
        .option("decision-external", {
          type: "string",
          describe: "instead: a decision outside docs/adr (an http(s) URL or owner/repo:path)",
        })
        .option("decision-none", {
          type: "string",
          describe: "instead: gate no decision, with the reason",
        }),
      "{file}",
    ),
  handler: handled(async (args: NewArgs) => {
    const { newProtocol } = await import("../../prereg/new-protocol.js");
    const { shownPath } = await import("../../core/display-path.js");
    const external = args["decision-external"];
    const none = args["decision-none"];
    const { UsageError } = await import("../../core/errors.js");
    if (external !== undefined && none !== undefined)
      throw new UsageError("give --decision-external or --decision-none, not both");
    const decision =
      external !== undefined
        ? { external: String(external) }
        : none !== undefined
          ? { none: String(none) }
          : undefined;
    const file = await newProtocol({
      slug: args.slug,
      ...(args.adr === undefined ? {} : { adr: String(args.adr) }),
      ...(decision === undefined ? {} : { decision }),
    });
    if (args.json) printJson({ file });
    else process.stdout.write(`${shownPath(file, process.cwd())}\n`);
  }),
};

const lockCommand: CommandModule<object, LockArgs> = {
  command: "lock <file>",
  describe:
    "Lock a committed protocol: its hashes and commit; refuses template placeholders, a missing ADR and no positive control; a change needs --amend",
  builder: (y) =>
    withJson(
      withCache(
        y
          .positional("file", {
            type: "string",
            demandOption: true,
            describe: "docs/prereg/NNNN-slug.yaml",
          })
          .option("amend", {
            type: "string",
            describe: "why a locked protocol changed (appended to its amendment log)",
          }),
      ),
      "{file, action, lock}",
    ),
  handler: handled(async (args: LockArgs) => {
    const { lockProtocol } = await import("../../prereg/lock.js");
    const { ledgerRecordsOf, runLedgerPath } = await import("../../measurements/run-ledger.js");
    const ledger = runLedgerPath(args.cache);
    const result = await lockProtocol(args.file, {
      ...(args.amend === undefined ? {} : { amend: args.amend }),
      recordsElsewhere: (id, hashes) => ledgerRecordsOf(ledger, id, hashes),
    });
    const { lock } = result;
    if (args.json) {
      printJson({ file: args.file, action: result.action, lock });
      return;
    }
    process.stdout.write(
      `${args.file}: ${result.action} ${lock.canonicalHash} at commit ${lock.commit}\n`,
    );
  }),
};

const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: "verify [files..]",
  describe: "Check protocols (all in docs/prereg by default) against their locks",
  builder: (y) =>
    withJson(
      y.positional("files", {
        type: "string",
        array: true,
        default: [],
        defaultDescription: "every protocol in docs/prereg",
        describe: "protocol files",
      }),
      "one entry per protocol: {file, id, state, message, canonicalHash, lock}",
    ),
  handler: handled(async (args: VerifyArgs) => {
    const { verifyProtocols, isUsable } = await import("../../prereg/verify.js");
    const { shownPath } = await import("../../core/display-path.js");
    const checks = await verifyProtocols({ files: args.files ?? [] });
    const bad = checks.filter((c) => !isUsable(c.state));
    if (args.json) {
      printJson({
        ok: bad.length === 0,
        protocols: checks.map((c) => ({
          file: shownPath(c.loaded.file, process.cwd()),
          id: c.loaded.protocol.id,
          slug: c.loaded.protocol.slug,
          state: c.state,
          usable: isUsable(c.state),
          message: c.message,
          canonicalHash: c.loaded.canonicalHash,
          lock: c.lock,
        })),
      });
    } else {
      for (const c of checks)
        process.stdout.write(
          `${shownPath(c.loaded.file, process.cwd())}: ${c.state}: ${c.message}\n`,
        );
      if (checks.length === 0) process.stdout.write("no protocols in docs/prereg\n");
    }
    if (bad.length > 0)
      throw new CheckFailedError(`${bad.length} protocol(s) not locked as registered`);
  }),
};

/** `witness prereg new | lock | verify`: pre-registration of protocols. */
export const preregCommand: CommandModule = {
  command: "prereg",
  describe: "Register a protocol before measuring: new, lock, verify",
  builder: (y) =>
    y
      .command(newCommand as CommandModule)
      .command(lockCommand as CommandModule)
      .command(verifyCommand as CommandModule)
      .demandCommand(1, GROUP_NEEDS_COMMAND),
  handler: () => undefined,
};
