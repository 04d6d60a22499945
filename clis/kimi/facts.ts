// What Kimi Code reads and writes, as read by hand on 0.20.0 and 2.1.0 offline against a loopback
// fake (every file below was planted with a marker and looked for on the wire).
import type { CliFacts } from "../facts.js";

/** Kimi Code's facts. */
export const KIMI_FACTS: CliFacts = {
  instructionFiles: [
    { at: "home", path: ".kimi-code/AGENTS.md", when: "always ($KIMI_CODE_HOME/AGENTS.md)" },
    { at: "home", path: ".agents/AGENTS.md", when: "always (resolved from HOME), else agents.md" },
    { at: "workspace", path: ".kimi-code/AGENTS.md", when: "from the git root down to the cwd" },
    {
      at: "workspace",
      path: "AGENTS.md",
      when: "from the git root down to the cwd (the cwd only outside git), else agents.md",
    },
    { at: "workspace", path: ".kimi-code/skills/*/SKILL.md", when: "descriptions" },
    { at: "workspace", path: ".agents/skills/*/SKILL.md", when: "descriptions" },
    { at: "home", path: ".kimi-code/skills/*/SKILL.md", when: "descriptions" },
    { at: "home", path: ".agents/skills/*/SKILL.md", when: "descriptions" },
  ],
  configDir: {
    variables: [{ name: "KIMI_CODE_HOME" }],
    fallback: { base: "HOME", path: ".kimi-code" },
  },
  sessions: {
    variables: [{ name: "KIMI_CODE_HOME", sub: "sessions" }],
    fallback: { base: "HOME", path: ".kimi-code/sessions" },
    layout: "wd_<cwd name>_<sha256(cwd)[:12]>/session_<uuid>/agents/main/wire.jsonl",
  },
  switches: [
    {
      name: "KIMI_CODE_HOME",
      effect: "moves its home (AGENTS.md, skills, sessions, trust); ~/.agents is still read",
    },
    { name: "--skills-dir", effect: "replaces skill discovery; AGENTS.md unchanged" },
    {
      name: "--agent-file (2.x)",
      effect: "replaces the whole system prompt: no AGENTS.md and no skills at all",
    },
    { name: "-p", effect: "forces auto permission mode: every tool call runs unasked" },
  ],
  managedFiles: [],
  trust: {
    how: "2.x: $KIMI_CODE_HOME/workspace-trust/<workDirKey> holding {root, trustedAt}; gates project MCP servers and local.toml, not AGENTS.md or skills; 0.x has none",
    file: ".kimi-code/workspace-trust",
    byVersion: [
      { upTo: "0.43.1", how: "no folder trust" },
      { from: "2.0.0", how: "workspace-trust/<workDirKey>, gating project MCP servers" },
    ],
  },
};
