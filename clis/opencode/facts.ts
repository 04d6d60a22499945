// What opencode reads and writes, as witness has measured it (records 0013, 0019, 0028).
import type { CliFacts } from "../facts.js";

/** opencode's facts. */
export const OPENCODE_FACTS: CliFacts = {
  instructionFiles: [
    {
      at: "workspace",
      path: "AGENTS.md",
      when: "from the cwd up to the git root (to / outside git), the first name found of AGENTS.md, CLAUDE.md, CONTEXT.md",
    },
    { at: "workspace", path: "CLAUDE.md", when: "when no AGENTS.md is found" },
    {
      at: "home",
      path: ".config/opencode/AGENTS.md",
      when: "always ($OPENCODE_CONFIG_DIR if set)",
    },
    { at: "home", path: ".claude/CLAUDE.md", when: "when there is no global AGENTS.md" },
    { at: "workspace", path: ".opencode/skills/*/SKILL.md", when: "descriptions" },
    { at: "home", path: ".claude/skills/*/SKILL.md", when: "descriptions" },
  ],
  configDir: { variables: [], fallback: { base: "XDG_CONFIG_HOME", path: "opencode" } },
  sessions: {
    variables: [{ name: "OPENCODE_DB" }],
    fallback: { base: "XDG_DATA_HOME", path: "opencode/opencode.db" },
    layout: "one SQLite database in WAL mode (tables session, message, part)",
  },
  switches: [
    {
      name: "OPENCODE_DISABLE_PROJECT_CONFIG",
      effect: "the repository's instruction files, opencode.json and .opencode/ stay out",
    },
    {
      name: "OPENCODE_CONFIG_DIR",
      effect: "one more configuration directory, read after the global one",
    },
    {
      name: "OPENCODE_DISABLE_CLAUDE_CODE",
      effect: "no ~/.claude/CLAUDE.md fallback and no Claude Code skills",
    },
  ],
  managedFiles: [],
  trust: null,
};
