import type { CommandModule } from "yargs";
import { handled } from "../exit.js";
import { InternalError } from "../../orchestrator/errors.js";

// Placeholder until its issue lands; replaced by the real command module.
export const planCommand: CommandModule = {
  command: "plan",
  describe: false,
  handler: handled(() => Promise.reject(new InternalError("witness plan is not implemented yet"))),
};
