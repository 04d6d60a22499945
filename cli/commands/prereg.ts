import type { CommandModule } from "yargs";
import { handled } from "../exit.js";
import { InternalError } from "../../orchestrator/errors.js";

// Placeholder until its issue lands; replaced by the real command module.
export const preregCommand: CommandModule = {
  command: "prereg",
  describe: false,
  handler: handled(() =>
    Promise.reject(new InternalError("witness prereg is not implemented yet")),
  ),
};
