// What Claude Code reads and writes, as witness has measured or read it (records 0001–0003).
import type { CliFacts } from "../facts.js";

const HOME_IS_ANCESTOR = "user scope, or any scope when HOME is an ancestor";

/** Claude Code's facts. */
export const CLAUDE_CODE_FACTS: CliFacts = {
  instructionFiles: [
    { at: "workspace", path: "CLAUDE.md", when: "project scope" },
    { at: "workspace", path: ".claude/CLAUDE.md", when: "project scope" },
    { at: "workspace", path: ".claude/rules/*.md", when: "project scope" },
    { at: "workspace", path: "CLAUDE.local.md", when: "local scope" },
    { at: "home", path: ".claude/CLAUDE.md", when: HOME_IS_ANCESTOR },
    { at: "home", path: ".claude/rules/*.md", when: HOME_IS_ANCESTOR },
    { at: "parent", path: "CLAUDE.md", when: "project scope: the walk goes up to /" },
  ],
  configDir: {
    variables: [{ name: "CLAUDE_CONFIG_DIR" }],
    fallback: { base: "HOME", path: ".claude" },
  },
  sessions: {
    variables: [{ name: "CLAUDE_CONFIG_DIR", sub: "projects" }],
    fallback: { base: "HOME", path: ".claude/projects" },
    layout: "<cwd slug>/<session id>.jsonl, sub-agents in <session id>/subagents/ or agent-*.jsonl",
  },
  switches: [
    {
      name: "--setting-sources",
      effect: "which of user, project and local settings (and memory) load",
    },
    {
      name: "claudeMdExcludes",
      effect: "a settings key: glob patterns of memory files not to load",
    },
    { name: "--strict-mcp-config", effect: "only the MCP servers on the argv" },
  ],
  // Read from the 2.1.332 binary (`strings`): on Linux its managed directory is /etc/claude-code
  // (macOS /Library/Application Support/ClaudeCode), holding managed-settings.json and the
  // drop-in directory managed-settings.d, managed-mcp.json, the managed memory CLAUDE.md and a
  // .claude directory of the managed scope's rules, skills, agents and commands.
  managedFiles: [
    "/etc/claude-code/managed-settings.json",
    "/etc/claude-code/managed-settings.d",
    "/etc/claude-code/managed-mcp.json",
    "/etc/claude-code/CLAUDE.md",
    "/etc/claude-code/.claude",
  ],
  trust: {
    how: "projects[<workspace>].hasTrustDialogAccepted in ~/.claude.json; project-scoped grants need it",
    file: ".claude.json",
  },
};
