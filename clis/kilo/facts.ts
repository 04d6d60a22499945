// What Kilo Code's CLI reads and writes, as read by hand on 7.0.33 and 7.7.7 offline against a
// loopback fake (every file below was planted with a marker and looked for on the wire). Kilo is an
// opencode fork: opencode's loading with OPENCODE_* renamed KILO_*, plus the Kilo Code rule files.
import type { CliFacts } from "../facts.js";

/** Kilo Code's facts. */
export const KILO_FACTS: CliFacts = {
  instructionFiles: [
    {
      at: "workspace",
      path: "AGENTS.md",
      when: "from the cwd up to the git root, the first name found of AGENTS.md, CLAUDE.md, CONTEXT.md (7.0.33 also above the cwd outside git)",
    },
    { at: "workspace", path: "CLAUDE.md", when: "when no AGENTS.md is found" },
    { at: "workspace", path: "CONTEXT.md", when: "when neither AGENTS.md nor CLAUDE.md is found" },
    { at: "workspace", path: ".kilocoderules", when: "in the cwd only" },
    {
      at: "workspace",
      path: ".kilocode/rules/*.md",
      when: "in the cwd only (7.7.7: without .kilo/rules)",
    },
    { at: "workspace", path: ".kilo/rules/*.md", when: "in the cwd only, from 7.7" },
    {
      at: "home",
      path: ".config/kilo/AGENTS.md",
      when: "always ($KILO_CONFIG_DIR/AGENTS.md first when set)",
    },
    { at: "home", path: ".claude/CLAUDE.md", when: "when there is no global AGENTS.md" },
    { at: "home", path: ".kilocode/rules/*.md", when: "always" },
    { at: "home", path: ".kilo/rules/*.md", when: "always, from 7.7" },
    { at: "workspace", path: ".kilo/skills/*/SKILL.md", when: "descriptions" },
    { at: "workspace", path: ".claude/skills/*/SKILL.md", when: "descriptions" },
    { at: "home", path: ".config/kilo/skills/*/SKILL.md", when: "descriptions" },
  ],
  configDir: { variables: [], fallback: { base: "XDG_CONFIG_HOME", path: "kilo" } },
  sessions: {
    variables: [],
    fallback: { base: "XDG_DATA_HOME", path: "kilo/kilo.db" },
    layout: "one SQLite database in WAL mode (tables session, message, part), opencode's schema",
  },
  switches: [
    {
      name: "KILO_DISABLE_PROJECT_CONFIG",
      effect:
        "the repository's AGENTS.md/CLAUDE.md/CONTEXT.md, kilo.json and .kilo/ stay out; its .kilocoderules and .kilocode/rules still load",
    },
    { name: "KILO_CONFIG_DIR", effect: "one more configuration directory; its AGENTS.md wins" },
    {
      name: "KILO_DISABLE_CLAUDE_CODE",
      effect:
        "no ~/.claude/CLAUDE.md and no Claude Code skills (7.7.7: no project CLAUDE.md either)",
    },
    { name: "KILO_DISABLE_EXTERNAL_SKILLS", effect: "no .claude/skills or .agents/skills" },
    {
      name: "run --auto",
      effect: "approves every ask not denied by a rule (an outside-the-workspace path included)",
    },
  ],
  managedFiles: [
    "/etc/kilo/kilo.jsonc",
    "/etc/kilo/kilo.json",
    "/etc/kilo/opencode.jsonc",
    "/etc/kilo/opencode.json",
  ],
  trust: null,
};
