import type { CommandModule } from "yargs";

import { handled } from "../exit.js";

interface TranscriptArgs {
  path: string;
  json: boolean;
}

/** `witness transcript <file|dir> [--json]`: a session transcript as witness reads it. */
export const transcriptCommand: CommandModule<object, TranscriptArgs> = {
  command: "transcript <path>",
  describe:
    "Read a session of Claude Code, Codex, Gemini CLI, Qwen Code, pi, opencode, GitHub Copilot CLI, Kilo Code, Kimi Code or Cline: ids, modes per turn, each tool call and how it ended, drift",
  builder: (y) =>
    y
      .positional("path", {
        type: "string",
        demandOption: true,
        describe: "a session file, or a directory holding one (a HOME, ~/.claude, $CODEX_HOME …)",
      })
      .option("json", { type: "boolean", default: false, describe: "print the report as JSON" }),
  handler: handled(async (args: TranscriptArgs) => {
    const { openTranscript } = await import("../../transcripts/open-transcript.js");
    const report = await openTranscript(args.path);
    if (args.json) {
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }
    const { renderSessionReport } = await import("../../transcripts/report-text.js");
    process.stdout.write(`${renderSessionReport(report).join("\n")}\n`);
  }),
};
