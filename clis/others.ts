// The CLIs witness cannot run (yet), with what the decisions in docs/background.md say they read.
import type { CliFacts } from "./facts.js";

const UNKNOWN: CliFacts = {
  instructionFiles: [],
  configDir: null,
  sessions: null,
  switches: [],
  managedFiles: [],
  trust: null,
};

/** Cursor's agent: not on npm, never measured. */
export const CURSOR_FACTS: CliFacts = UNKNOWN;

/** Kimi Code, as a decision record measured kimi-code 2.1.1 (docs/background.md#ac-support). */
export const KIMI_FACTS: CliFacts = {
  ...UNKNOWN,
  instructionFiles: [
    { at: "home", path: ".agents/AGENTS.md", when: "always (resolved from HOME)" },
    { at: "workspace", path: ".kimi-code/AGENTS.md", when: "from the git root down to the cwd" },
    { at: "workspace", path: "AGENTS.md", when: "from the git root down to the cwd, or agents.md" },
  ],
  switches: [{ name: "KIMI_CODE_HOME", effect: "its home, whose AGENTS.md it always reads" }],
};

/** Grok Build, read from source by a decision record. */
export const GROK_FACTS: CliFacts = {
  ...UNKNOWN,
  trust: { how: "trusts a repository without hook or MCP configuration without asking" },
};
