import type { CommandModule } from "yargs";

import { adrCommand } from "./adr.js";
import { argvCommand } from "./argv.js";
import { bisectCommand } from "./bisect.js";
import { cleanCommand } from "./clean.js";
import { diffCommand } from "./diff.js";
import { driftCommand } from "./drift.js";
import { flagsCommand } from "./flags.js";
import { matrixCommand } from "./matrix.js";
import { mcpSentinelCommand } from "./mcp-sentinel.js";
import { mergeCommand } from "./merge.js";
import { orchestrateCommand } from "./orchestrate.js";
import { parentAccessCommand } from "./parent-access.js";
import { planCommand } from "./plan.js";
import { preregCommand } from "./prereg.js";
import { probeCommand } from "./probe.js";
import { reportCommand } from "./report.js";
import { runCommand } from "./run.js";
import { serveCommand } from "./serve.js";
import { shimCommand } from "./shim.js";
import { transcriptCommand } from "./transcript.js";
import { vendorsCommand } from "./vendors.js";
import { watchCommand } from "./watch.js";

/** Every top-level command, in the order `witness --help` lists them. */
// Each module declares its own argument shape; yargs takes them as untyped modules.
// eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type
export const commands: CommandModule<{}, any>[] = [
  runCommand,
  mergeCommand,
  preregCommand,
  adrCommand,
  diffCommand,
  driftCommand,
  reportCommand,
  bisectCommand,
  flagsCommand,
  watchCommand,
  matrixCommand,
  probeCommand,
  serveCommand,
  vendorsCommand,
  cleanCommand,
  shimCommand,
  argvCommand,
  planCommand,
  orchestrateCommand,
  transcriptCommand,
  parentAccessCommand,
  mcpSentinelCommand,
];
