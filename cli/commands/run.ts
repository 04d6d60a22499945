import type { CommandModule } from "yargs";
import { handled } from "../exit.js";
import { InternalError } from "../../orchestrator/errors.js";

// Placeholder until its issue lands; replaced by the real command module.
export const runCommand: CommandModule = {
  command: "run",
  describe: false,
  handler: handled(() => Promise.reject(new InternalError("witness run is not implemented yet"))),
};
