import type { CommandModule } from "yargs";

import { handled } from "../exit.js";

interface ParentAccessArgs {
  json: boolean;
}

/** `witness parent-access [--json]`: what the detector concludes about this process's parent session. */
export const parentAccessCommand: CommandModule<object, ParentAccessArgs> = {
  command: "parent-access",
  describe:
    "Say whether the session that launched this process has full access, and the evidence for it",
  builder: (y) =>
    y.option("json", { type: "boolean", default: false, describe: "print the result as JSON" }),
  handler: handled(async (args: ParentAccessArgs) => {
    const { detectParentAccess } = await import("../../orchestrator/parent-access/detect.js");
    const access = await detectParentAccess();
    if (args.json) {
      process.stdout.write(`${JSON.stringify(access, null, 2)}\n`);
      return;
    }
    const lines = [
      `parent session: ${access.fullAccess ? "full access" : "sandboxed (full access not established)"}`,
      ...access.evidence.map((e) => `  ${e.passed ? "pass" : "FAIL"} ${e.source}: ${e.detail}`),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }),
};
