import type { CommandModule } from "yargs";

import { CheckFailedError } from "../../core/errors.js";
import { handled } from "../exit.js";

interface NewArgs {
  slug: string;
  adr: string;
}
interface LockArgs {
  file: string;
  amend?: string;
}
interface VerifyArgs {
  files?: string[];
}

const newCommand: CommandModule<object, NewArgs> = {
  command: "new <slug>",
  describe: "Write a protocol template in docs/prereg with the next free id",
  builder: (y) =>
    y
      .positional("slug", { type: "string", demandOption: true, describe: "kebab-case name" })
      .option("adr", {
        type: "string",
        demandOption: true,
        describe: "the ADR the protocol gates",
      }),
  handler: handled(async (args: NewArgs) => {
    const { newProtocol } = await import("../../prereg/new-protocol.js");
    const { shownPath } = await import("../../core/display-path.js");
    const file = await newProtocol({ slug: args.slug, adr: String(args.adr) });
    process.stdout.write(`${shownPath(file, process.cwd())}\n`);
  }),
};

const lockCommand: CommandModule<object, LockArgs> = {
  command: "lock <file>",
  describe: "Lock a committed protocol: its hashes and commit; a change needs --amend",
  builder: (y) =>
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
  handler: handled(async (args: LockArgs) => {
    const { lockProtocol } = await import("../../prereg/lock.js");
    const result = await lockProtocol(
      args.file,
      args.amend === undefined ? {} : { amend: args.amend },
    );
    const { lock } = result;
    process.stdout.write(
      `${args.file}: ${result.action} ${lock.canonicalHash} at commit ${lock.commit}\n`,
    );
  }),
};

const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: "verify [files..]",
  describe: "Check protocols (all in docs/prereg by default) against their locks",
  builder: (y) =>
    y.positional("files", {
      type: "string",
      array: true,
      describe: "protocol files",
    }),
  handler: handled(async (args: VerifyArgs) => {
    const { verifyProtocols, isUsable } = await import("../../prereg/verify.js");
    const { shownPath } = await import("../../core/display-path.js");
    const checks = await verifyProtocols({ files: args.files ?? [] });
    for (const c of checks)
      process.stdout.write(
        `${shownPath(c.loaded.file, process.cwd())}: ${c.state}: ${c.message}\n`,
      );
    const bad = checks.filter((c) => !isUsable(c.state));
    if (bad.length > 0)
      throw new CheckFailedError(`${bad.length} protocol(s) not locked as registered`);
    if (checks.length === 0) process.stdout.write("no protocols in docs/prereg\n");
  }),
};

/** `witness prereg new | lock | verify`: pre-registration of protocols. */
export const preregCommand: CommandModule = {
  command: "prereg <command>",
  describe: "Register a protocol before measuring: new, lock, verify",
  builder: (y) =>
    y
      .command(newCommand as CommandModule)
      .command(lockCommand as CommandModule)
      .command(verifyCommand as CommandModule)
      .demandCommand(1, "Name a prereg command: new, lock or verify."),
  handler: () => undefined,
};
