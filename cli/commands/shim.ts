import type { CommandModule } from "yargs";
import { handled } from "../exit.js";
import { InternalError } from "../../orchestrator/errors.js";

// Placeholder until its issue lands; replaced by the real command module.
export const shimCommand: CommandModule = {
  command: "shim",
  describe: false,
  handler: handled(() => Promise.reject(new InternalError("witness shim is not implemented yet"))),
};
