// The Kilo Code driver. Kilo is an opencode fork: the same Chat Completions provider block (in
// KILO_CONFIG_CONTENT), the same tool names and wordings, the same SQLite session rows, so those
// pieces are opencode's; what differs is Kilo's own: its variables, config directories, the seed
// its 7.0 background install checks, 7.0's title call and gateway model list, and the file name.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import { classifyOpencodeCall } from "../../clis/opencode/outcome.js";
import { list, record } from "../fake/wire.js";
import type { PrepareInput, ProbeDriver } from "./driver.js";
import { opencodeConfig, opencodeDriver, readOpencodeTranscript } from "./opencode.js";

/** The configuration KILO_CONFIG_CONTENT holds: opencode's provider, and Kilo's gateway on the fake. */
export function kiloConfig(baseUrl: string): Record<string, unknown> {
  const base = opencodeConfig(baseUrl);
  return {
    ...base,
    provider: {
      ...(base.provider as Record<string, unknown>),
      // 7.0.33 lists its gateway's models whatever enabled_providers says: on the fake, not the net.
      kilo: { options: { baseURL: `${baseUrl}/kilo-gateway` } },
    },
    enabled_providers: ["witness"],
  };
}

/**
 * The configuration directories Kilo 7.0 runs `kilo install` (bun, from the registry) in: the
 * global one, the workspace's and HOME's `.kilo` and `.opencode`, and KILO_CONFIG_DIR.
 */
export function kiloConfigDirs(input: PrepareInput): string[] {
  const { cell, env } = input;
  const global = join(env.XDG_CONFIG_HOME ?? join(cell.home, ".config"), "kilo");
  const optional = [".kilo", ".opencode"]
    .flatMap((name) => [join(cell.workspace, name), join(cell.home, name)])
    .filter((dir) => existsSync(dir));
  return [global, ...optional, ...(env.KILO_CONFIG_DIR ? [env.KILO_CONFIG_DIR] : [])];
}

/**
 * Seeds every config directory the way Kilo 7.0.33's `needsInstall` takes as installed: a
 * node_modules/ and a package.json pinning @kilocode/plugin at the running version (opencode's
 * package-lock seed is not what it checks). 7.7 installs nothing; the seed is harmless there.
 */
async function prepare(input: PrepareInput): Promise<void> {
  const pin = { dependencies: { "@kilocode/plugin": input.version } };
  for (const dir of kiloConfigDirs(input)) {
    await mkdir(join(dir, "node_modules"), { recursive: true });
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest)) await writeFile(manifest, JSON.stringify(pin));
  }
}

const TITLE_PROMPT = "Generate a title for this conversation:";

/** Kilo 7.0's title call: its normal system prompt, no tools, the prompt after TITLE_PROMPT. */
export function kiloHelper(body: unknown) {
  const b = record(body);
  if (list(b.tools).length > 0) return null;
  const asks = list(b.messages).some((message) => {
    const content = record(message).content;
    const texts =
      typeof content === "string" ? [content] : list(content).map((part) => record(part).text);
    return texts.some((text) => typeof text === "string" && text.startsWith(TITLE_PROMPT));
  });
  return asks ? { kind: "title", text: "witness probe" } : null;
}

/** Kilo Code (`@kilocode/cli`), as the probe cell runs it. */
export const kiloDriver: ProbeDriver = {
  name: "kilo",
  info: CLI_CATALOG.kilo,
  wire: opencodeDriver.wire,
  naming: opencodeDriver.naming,
  launch: ({ argv, baseUrl, stdin }) => ({
    args: [...argv],
    env: {
      KILO_CONFIG_CONTENT: JSON.stringify(kiloConfig(baseUrl)),
      KILO_DISABLE_MODELS_FETCH: "1",
      KILO_DISABLE_AUTOUPDATE: "1",
      KILO_DISABLE_LSP_DOWNLOAD: "1",
      // Anything but "all" turns its PostHog client off.
      KILO_TELEMETRY_LEVEL: "off",
      // 7.0.33 would otherwise install opencode-anthropic-auth from the registry.
      KILO_DISABLE_DEFAULT_PLUGINS: "1",
      // 7.7: one retry of a failed model request, not five over ~90 s (7.0.33 has no such switch).
      KILO_SESSION_RETRY_LIMIT: "1",
    },
    ...(stdin === undefined ? {} : { stdin }),
  }),
  prepare,
  // Kilo has no notion of a trusted folder (7.0.33, 7.7.7).
  trustWorkspace: () => Promise.resolve(),
  sideRoutes: () => [
    {
      method: "GET",
      path: "/kilo-gateway/api/openrouter/models",
      status: 200,
      body: { data: [] },
      why: "7.0.33 lists its gateway's models (twice), whatever enabled_providers says",
    },
  ],
  helperCall: kiloHelper,
  readTranscript: (env, hints) => readOpencodeTranscript(env, hints, "kilo"),
  classify: classifyOpencodeCall,
  sessionFixture: { name: "kilo.db", companions: ["-wal"] },
};
