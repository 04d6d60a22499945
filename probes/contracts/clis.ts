// The CLIs witness can install and probe, as data: the one list every other file asks.
import { z } from "zod";

/** What witness knows about a CLI before loading its driver. */
export interface CliInfo {
  /** How screens and records name it. */
  display: string;
  /** The npm package holding it, and the binary the package installs. */
  pkg: string;
  bin: string;
  /** Other names a person may type for it (the binary, the package). */
  aliases: readonly string[];
}

/** Every CLI with a driver in `probes/drivers/`, by its canonical name. */
export const CLI_CATALOG = {
  "claude-code": {
    display: "Claude Code",
    pkg: "@anthropic-ai/claude-code",
    bin: "claude",
    aliases: ["claude", "@anthropic-ai/claude-code"],
  },
  codex: { display: "Codex", pkg: "@openai/codex", bin: "codex", aliases: ["@openai/codex"] },
  gemini: {
    display: "Gemini CLI",
    pkg: "@google/gemini-cli",
    bin: "gemini",
    aliases: ["gemini-cli", "@google/gemini-cli"],
  },
  qwen: {
    display: "Qwen Code",
    pkg: "@qwen-code/qwen-code",
    bin: "qwen",
    aliases: ["qwen-code", "@qwen-code/qwen-code"],
  },
  pi: {
    display: "pi",
    pkg: "@mariozechner/pi-coding-agent",
    bin: "pi",
    aliases: ["pi-coding-agent", "@mariozechner/pi-coding-agent"],
  },
  opencode: { display: "opencode", pkg: "opencode-ai", bin: "opencode", aliases: ["opencode-ai"] },
} as const satisfies Record<string, CliInfo>;

/** A CLI witness can probe. */
export type ProbeCliName = keyof typeof CLI_CATALOG;

/** The canonical names, in catalog order. */
export const PROBE_CLI_NAMES = Object.keys(CLI_CATALOG) as [ProbeCliName, ...ProbeCliName[]];

/** A CLI name as written in a protocol or a spec: canonical names only. */
export const probeCliNameSchema = z.enum(PROBE_CLI_NAMES);

/** The canonical name for a name or an alias (case-insensitive); null when no driver has it. */
export function canonicalCliName(text: string): ProbeCliName | null {
  const wanted = text.trim().toLowerCase();
  for (const name of PROBE_CLI_NAMES) {
    const info: CliInfo = CLI_CATALOG[name];
    if (name === wanted || info.aliases.some((a) => a.toLowerCase() === wanted)) return name;
  }
  return null;
}

/** The sentence that lists what is supported, for a name that is not. */
export function unsupportedCli(text: string): string {
  return `no driver for a CLI named "${text}"; supported: ${PROBE_CLI_NAMES.join(", ")}`;
}
