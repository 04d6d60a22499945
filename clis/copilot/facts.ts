// What GitHub Copilot CLI reads and writes, as read by hand on 1.0.60 and 1.0.102 offline against
// a loopback fake (every file below was planted with a marker and looked for on the wire).
import type { CliFacts } from "../facts.js";

/** GitHub Copilot CLI's facts. */
export const COPILOT_FACTS: CliFacts = {
  instructionFiles: [
    { at: "workspace", path: ".github/copilot-instructions.md", when: "always, and in the cwd" },
    { at: "workspace", path: "AGENTS.md", when: "the git root and the cwd" },
    { at: "workspace", path: "CLAUDE.md", when: "the git root and the cwd" },
    { at: "workspace", path: "GEMINI.md", when: "the git root" },
    {
      at: "workspace",
      path: ".github/instructions/*.instructions.md",
      when: "content without applyTo or with applyTo **; only the path when applyTo matches no file",
    },
    { at: "home", path: ".copilot/copilot-instructions.md", when: "always ($COPILOT_HOME)" },
    {
      at: "home",
      path: ".copilot/instructions/*.instructions.md",
      when: "always ($COPILOT_HOME)",
    },
  ],
  configDir: {
    variables: [{ name: "COPILOT_HOME" }],
    fallback: { base: "HOME", path: ".copilot" },
  },
  sessions: {
    variables: [{ name: "COPILOT_HOME", sub: "session-state" }],
    fallback: { base: "HOME", path: ".copilot/session-state" },
    layout: "<session id>/events.jsonl",
  },
  switches: [
    { name: "--no-custom-instructions", effect: "no instruction file at all (skills stay)" },
    {
      name: "COPILOT_CUSTOM_INSTRUCTIONS_DIRS",
      effect: "adds those directories' .github/instructions files; their AGENTS.md as a path only",
    },
    { name: "COPILOT_HOME", effect: "moves the home instructions, skills, sessions and config" },
    {
      name: "--allow-all-tools / COPILOT_ALLOW_ALL=true",
      effect: "runs tools inside the workspace unasked; the env form also trusts the folder",
    },
    { name: "--yolo / --allow-all", effect: "tools, paths and URLs allowed, outside too" },
  ],
  managedFiles: ["/etc/github-copilot/managed-settings.json", "/etc/github-copilot/policy.d"],
  trust: {
    how: "$COPILOT_HOME/config.json trusted_folders: [<workspace>] (or --trust-folder from 1.0.102, COPILOT_ALLOW_ALL=true); gates repository hooks and workspace MCP servers, not instruction files",
    file: ".copilot/config.json",
  },
};
