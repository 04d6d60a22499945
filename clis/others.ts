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

/** Grok Build, read from source by a decision record. */
export const GROK_FACTS: CliFacts = {
  ...UNKNOWN,
  trust: { how: "trusts a repository without hook or MCP configuration without asking" },
};
