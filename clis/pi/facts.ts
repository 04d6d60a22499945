// What pi reads and writes, as witness has measured it on 0.73.1 (records 0012, 0018, 0029) and
// 1.6.0 (the same protocols re-run, and 0030 for project trust).
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
    {
      at: "workspace",
      path: ".pi/skills/*/SKILL.md",
      when: "descriptions; from 0.79.0 only in a trusted project",
    },
    {
      at: "workspace",
      path: ".agents/skills/*/SKILL.md",
      when: "up to the git root; from 0.79.0 only in a trusted project",
    },
    {
      at: "workspace",
      path: "AGENTS.override.md",
      when: "1.x: replaces the AGENTS.md/CLAUDE.md of its directory",
    },
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
    { name: "--approve / -a", effect: "0.79.0+: trusts the project for this run" },
    { name: "--no-approve / -na", effect: "0.79.0+: distrusts the project for this run" },
    {
      name: "PI_OFFLINE",
      effect:
        "no start-up network: no version check, no package installs, no model-catalog refresh (1.x writes <agent dir>/models-store.json, the catalog's cache)",
    },
  ],
  managedFiles: [],
  trust: {
    how: "from 0.79.0, project resources load only in a trusted project: <agent dir>/trust.json ({<realpath of the directory>: true | false}), or --approve / --no-approve for one run; a project with none of those resources counts as trusted",
    file: ".pi/agent/trust.json",
    byVersion: [
      { upTo: "0.78.1", how: "none: every project resource loads (and a project extension runs)" },
      {
        from: "0.79.0",
        upTo: "0.79.0",
        how: "untrusted by default: .pi/ resources and .agents/skills are skipped, and so are the AGENTS.md/CLAUDE.md of the cwd and its ancestors (only the agent dir's reach the model); trust.json is matched on the exact path; --approve/-a, --no-approve/-na",
      },
      {
        from: "0.79.1",
        how: 'untrusted by default: .pi/settings.json, .pi/mcp.json (1.x), .pi/extensions, skills, prompts, themes, SYSTEM.md, APPEND_SYSTEM.md and .agents/skills (cwd and ancestors) are skipped, never AGENTS.md/CLAUDE.md; the nearest trust.json entry of the cwd or an ancestor decides; --approve/--no-approve beat it and write nothing; defaultProjectTrust: "always" in the global settings.json trusts every project; print mode says nothing when it skips',
      },
    ],
  },
};
