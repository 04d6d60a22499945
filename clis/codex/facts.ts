// What Codex reads and writes, as witness has measured or read it (records 0004, 0006).
import type { CliFacts } from "../facts.js";

/** Codex's facts. */
export const CODEX_FACTS: CliFacts = {
  instructionFiles: [
    { at: "workspace", path: "AGENTS.md", when: "from the repository root down to the cwd" },
    { at: "workspace", path: "AGENTS.override.md", when: "instead of AGENTS.md in its directory" },
    { at: "home", path: ".codex/AGENTS.md", when: "always ($CODEX_HOME)" },
  ],
  configDir: { variables: [{ name: "CODEX_HOME" }], fallback: { base: "HOME", path: ".codex" } },
  sessions: {
    variables: [{ name: "CODEX_HOME", sub: "sessions" }],
    fallback: { base: "HOME", path: ".codex/sessions" },
    layout: "YYYY/MM/DD/rollout-<time>-<thread id>.jsonl",
  },
  switches: [
    { name: "-c project_doc_max_bytes=0", effect: "no AGENTS.md at all" },
    {
      name: "--ignore-user-config",
      effect: "no $CODEX_HOME/config.toml (its MCP servers included)",
    },
    { name: "--ignore-rules", effect: "no execution-policy rules" },
  ],
  // The system configuration, its requirements and the managed layer (strings in its binary).
  managedFiles: [
    "/etc/codex/config.toml",
    "/etc/codex/requirements.toml",
    "/etc/codex/managed_config.toml",
  ],
  trust: {
    how: 'trust_level = "trusted" under [projects."<workspace>"] in config.toml; it loads the workspace\'s .codex/config.toml and makes exec\'s default sandbox workspace-write',
    file: ".codex/config.toml",
  },
};
