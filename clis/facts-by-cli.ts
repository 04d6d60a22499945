// Every CLI's facts, by name: a total map, so a catalog row without facts does not compile.
import { CLAUDE_CODE_FACTS } from "./claude-code/facts.js";
import { CLINE_FACTS } from "./cline/facts.js";
import { CODEX_FACTS } from "./codex/facts.js";
import { COPILOT_FACTS } from "./copilot/facts.js";
import type { CliFacts } from "./facts.js";
import { GEMINI_FACTS } from "./gemini/facts.js";
import { KILO_FACTS } from "./kilo/facts.js";
import { KIMI_FACTS } from "./kimi/facts.js";
import type { CliName } from "./names.js";
import { OPENCODE_FACTS } from "./opencode/facts.js";
import { CURSOR_FACTS, GROK_FACTS } from "./others.js";
import { PI_FACTS } from "./pi/facts.js";
import { QWEN_FACTS } from "./qwen/facts.js";

const FACTS: Readonly<Record<CliName, CliFacts>> = {
  "claude-code": CLAUDE_CODE_FACTS,
  codex: CODEX_FACTS,
  gemini: GEMINI_FACTS,
  qwen: QWEN_FACTS,
  pi: PI_FACTS,
  opencode: OPENCODE_FACTS,
  copilot: COPILOT_FACTS,
  cline: CLINE_FACTS,
  kilo: KILO_FACTS,
  cursor: CURSOR_FACTS,
  kimi: KIMI_FACTS,
  grok: GROK_FACTS,
};

/** What witness knows `name` reads and writes. */
export function factsOf(name: CliName): CliFacts {
  return FACTS[name];
}
