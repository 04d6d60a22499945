// What Gemini CLI reads and writes, as witness has measured or read it (records 0014, 0016).
import type { CliFacts } from "../facts.js";

/** Gemini CLI's facts. */
export const GEMINI_FACTS: CliFacts = {
  instructionFiles: [
    { at: "workspace", path: "GEMINI.md", when: "trusted folder: from the cwd up to the git root" },
    { at: "workspace", path: "AGENTS.md", when: "only when context.fileName names it" },
    { at: "home", path: ".gemini/GEMINI.md", when: "always (into systemInstruction)" },
    {
      at: "home",
      path: ".gemini/tmp/ws/memory/MEMORY.md",
      when: "the user's project memory, for a project named ws",
    },
  ],
  configDir: {
    variables: [{ name: "GEMINI_CLI_HOME", sub: ".gemini" }],
    fallback: { base: "HOME", path: ".gemini" },
  },
  sessions: {
    variables: [{ name: "GEMINI_CLI_HOME", sub: ".gemini/tmp" }],
    fallback: { base: "HOME", path: ".gemini/tmp" },
    layout: "<project>/chats/session-*.jsonl",
  },
  switches: [
    {
      name: "context.fileName",
      effect: "a settings key: more instruction file names (GEMINI.md stays)",
    },
    {
      name: "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
      effect: "where the system settings (and system-defaults.json beside them) are read",
    },
  ],
  // None reach a cell: 0.59.0 and 0.61.0 read system-defaults.json from the directory of
  // GEMINI_CLI_SYSTEM_SETTINGS_PATH, which the driver points into the cell with the system settings.
  managedFiles: [],
  trust: {
    how: "~/.gemini/trustedFolders.json ({<workspace>: TRUST_FOLDER}) or GEMINI_CLI_TRUST_WORKSPACE; headless refuses an untrusted folder (exit 55)",
    file: ".gemini/trustedFolders.json",
  },
  // Its fatal errors' exit codes, as the 0.61.0 bundle declares them (FatalError subclasses).
  exitCodes: {
    41: "authentication failed",
    42: "bad input",
    44: "sandbox error",
    52: "configuration error",
    53: "turn limit reached",
    54: "tool execution error",
    55: "untrusted folder: headless Gemini CLI will not run in a folder it does not trust",
    130: "cancelled",
  },
};
