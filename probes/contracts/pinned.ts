import type { CliRef } from "./probe-spec.js";

/** The CLI versions the shipped protocols and the live tests are pinned to. */
export const PINNED: Readonly<Record<CliRef["name"], CliRef>> = {
  "claude-code": { name: "claude-code", version: "2.1.332" },
  codex: { name: "codex", version: "0.171.0" },
  gemini: { name: "gemini", version: "0.61.0" },
  qwen: { name: "qwen", version: "0.24.4" },
  pi: { name: "pi", version: "0.73.1" },
  opencode: { name: "opencode", version: "1.18.33" },
};
