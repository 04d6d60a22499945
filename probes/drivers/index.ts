// Every CLI's driver, by name: the only place that maps a CLI name to its code.
import type { ProbeCliName } from "../../clis/names.js";
import { claudeCodeDriver } from "./claude-code.js";
import { clineDriver } from "./cline.js";
import { codexDriver } from "./codex.js";
import { copilotDriver } from "./copilot.js";
import type { ProbeDriver } from "./driver.js";
import { geminiDriver } from "./gemini.js";
import { kiloDriver } from "./kilo.js";
import { kimiDriver } from "./kimi.js";
import { opencodeDriver } from "./opencode.js";
import { piDriver } from "./pi.js";
import { qwenDriver } from "./qwen.js";

const DRIVERS: Readonly<Record<ProbeCliName, ProbeDriver>> = {
  "claude-code": claudeCodeDriver,
  codex: codexDriver,
  gemini: geminiDriver,
  qwen: qwenDriver,
  pi: piDriver,
  opencode: opencodeDriver,
  copilot: copilotDriver,
  cline: clineDriver,
  kilo: kiloDriver,
  kimi: kimiDriver,
};

/** The driver of a CLI witness supports. */
export function driverFor(name: ProbeCliName): ProbeDriver {
  return DRIVERS[name];
}
