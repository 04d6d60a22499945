// What pi reads and writes, as witness has measured it on 0.73.1 (records 0012, 0018, 0029).
import type { CliFacts } from "../facts.js";

/** pi's facts. */
export const PI_FACTS: CliFacts = {
  instructionFiles: [
    { at: "home", path: ".pi/agent/AGENTS.md", when: "always (or its CLAUDE.md)" },
    {
      at: "workspace",
      path: "AGENTS.md",
      when: "each directory from the cwd up to /, the first of AGENTS.md, AGENTS.MD, CLAUDE.md, CLAUDE.MD",
    },
    { at: "workspace", path: "CLAUDE.md", when: "when its directory has no AGENTS.md" },
    { at: "parent", path: "AGENTS.md", when: "the walk ignores the git root" },
    { at: "grandparent", path: "CLAUDE.md", when: "the walk ignores the git root" },
    {
      at: "workspace",
      path: ".pi/SYSTEM.md",
      when: "replaces the system prompt, even under --no-context-files",
    },
    {
      at: "workspace",
      path: ".pi/APPEND_SYSTEM.md",
      when: "appended unless --append-system-prompt is given",
    },
    { at: "home", path: ".pi/agent/skills/*/SKILL.md", when: "descriptions, unless --no-skills" },
  ],
  configDir: {
    variables: [{ name: "PI_CODING_AGENT_DIR" }],
    fallback: { base: "HOME", path: ".pi/agent" },
  },
  sessions: {
    variables: [{ name: "PI_CODING_AGENT_DIR", sub: "sessions" }],
    fallback: { base: "HOME", path: ".pi/agent/sessions" },
    layout: "--<cwd>--/<stamp>_<uuid>.jsonl",
  },
  switches: [
    { name: "--no-context-files", effect: "stops the AGENTS.md/CLAUDE.md walk only" },
    { name: "--system-prompt", effect: "replaces SYSTEM.md" },
    { name: "--append-system-prompt", effect: "replaces APPEND_SYSTEM.md" },
    { name: "--no-skills", effect: "no skill descriptions" },
  ],
  managedFiles: [],
  trust: null,
};
