// What Qwen Code reads and writes, as witness has measured or read it (records 0015, 0017).
import type { CliFacts } from "../facts.js";

/** Qwen Code's facts. */
export const QWEN_FACTS: CliFacts = {
  instructionFiles: [
    { at: "workspace", path: "QWEN.md", when: "from the cwd up to the git root's parent" },
    { at: "workspace", path: "AGENTS.md", when: "from the cwd up to the git root's parent" },
    { at: "parent", path: "QWEN.md", when: "the git root's parent is read, nothing above it" },
    { at: "workspace", path: ".qwen/QWEN.local.md", when: "whatever context.fileName says" },
    { at: "workspace", path: ".qwen/rules/*.md", when: "baseline rules (no paths:)" },
    { at: "home", path: ".qwen/QWEN.md", when: "always ($QWEN_HOME)" },
    { at: "home", path: ".qwen/AGENTS.md", when: "always ($QWEN_HOME)" },
    { at: "home", path: ".qwen/rules/*.md", when: "baseline rules (no paths:)" },
  ],
  configDir: { variables: [{ name: "QWEN_HOME" }], fallback: { base: "HOME", path: ".qwen" } },
  sessions: {
    variables: [
      { name: "QWEN_RUNTIME_DIR", sub: "projects" },
      { name: "QWEN_HOME", sub: "projects" },
    ],
    fallback: { base: "HOME", path: ".qwen/projects" },
    layout: "<cwd slug>/chats/<session id>.jsonl",
  },
  switches: [
    { name: "--safe-mode", effect: "no instruction file at all" },
    { name: "--bare", effect: "no instruction file at all" },
  ],
  managedFiles: ["/etc/qwen-code/settings.json", "/etc/qwen-code/system-defaults.json"],
  trust: {
    how: "~/.qwen/trustedFolders.json ({<workspace>: TRUST_FOLDER})",
    file: ".qwen/trustedFolders.json",
  },
  // Its fatal errors' exit codes, as the 0.24.4 bundle declares them (FatalError subclasses,
  // forked from Gemini CLI's: 55 means a spent budget here, not an untrusted folder).
  exitCodes: {
    42: "bad input",
    44: "sandbox error",
    52: "configuration error",
    53: "turn limit reached",
    55: "budget exceeded",
    130: "cancelled",
  },
};
