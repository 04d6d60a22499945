// Claude Code's feature flags (GrowthBook): with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 (what
// witness sets) the flag service is off and the release's compiled defaults apply; with it off and
// the service unreachable (always, offline), the copy cached in ~/.claude.json
// (`cachedGrowthBookFeatures`) applies when there is one. Record 0020's start-up mode follows one.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import type { FeatureFlags, PrepareInput } from "./driver.js";
import { overlayJsonSettings } from "./shared.js";

/** The most bytes of ~/.claude.json read for the cache (the file is small; a bound, named). */
const MAX_CONFIG = 4 * 1024 * 1024;

async function cachedFeatures(home: string): Promise<Record<string, unknown> | null> {
  const text = await readFile(join(home, ".claude.json"), "utf8").catch(() => null);
  if (text === null || text.length > MAX_CONFIG) return null;
  try {
    const parsed = JSON.parse(text) as { cachedGrowthBookFeatures?: unknown };
    const cached = parsed.cachedGrowthBookFeatures;
    return cached !== null && typeof cached === "object" && !Array.isArray(cached)
      ? (cached as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The flag input of one Claude Code spawn. */
export async function claudeCodeFlags(input: PrepareInput): Promise<FeatureFlags> {
  if (input.env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC === "1")
    return {
      source: "built-in",
      why: "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 turns the flag service off: the release's compiled defaults apply",
    };
  const cached = await cachedFeatures(input.env.HOME ?? input.cell.home);
  if (cached !== null)
    return {
      source: "cache",
      why: "the flag service is unreachable offline; ~/.claude.json's cachedGrowthBookFeatures apply",
      values: cached,
    };
  return {
    source: "built-in-unreachable",
    why: "the flag service is unreachable offline and ~/.claude.json caches no values: the compiled defaults apply",
  };
}

/**
 * Sets flag values the way Claude Code caches them, laid over ~/.claude.json (the trust the cell
 * wrote and other cached values stay; these win): the CLI reads them when its flag service is on
 * and unreachable, as offline. A planted ~/.claude.json that is not a JSON object is left alone,
 * and the spawn's flag input then says nothing is cached.
 */
export function plantClaudeCodeFlags(
  home: string,
  values: Readonly<Record<string, unknown>>,
): Promise<void> {
  return overlayJsonSettings(join(home, ".claude.json"), { cachedGrowthBookFeatures: values });
}
