// The Codex driver: OpenAI Responses on the wire, provider flags on the argv, config.toml trust,
// rollout JSONL.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import { classifyCodexCall } from "../../clis/codex/outcome.js";
import { PINNED } from "../../clis/pinned.js";
import { inRange } from "../../core/version-order.js";
import type { ToolCall } from "../contracts/script.js";
import { execProgram, openaiResponses } from "../fake/openai-responses.js";
import type { NamedCall } from "../fake/wire.js";
import { readCodexTranscript } from "./codex-transcript.js";
import type { CellPaths, ProbeDriver, RejectedArgv } from "./driver.js";
import { DUMMY_KEY } from "./shared.js";

// Start-up features that reach the network unless switched off, and the first version whose
// `codex features list` has each (an unknown feature name makes `--disable` exit 1 at once).
const QUIET_FEATURES: readonly { feature: string; from: string; until?: string }[] = [
  // On by default only in 0.92–0.98 (api.openai.com lookups, about 15 s); removed later.
  { feature: "remote_models", from: "0.92.0", until: "0.105.0" },
  { feature: "plugins", from: "0.110.0" },
  { feature: "apps", from: "0.95.0" },
];

/** Codex flags that route the model to the fake server and switch off start-up lookups. */
export function codexProviderFlags(baseUrl: string, version: string = PINNED.codex.version) {
  const provider =
    `model_providers.probe={name="probe",base_url="${baseUrl}/v1",env_key="OPENAI_API_KEY",` +
    `wire_api="responses",request_max_retries=0,stream_max_retries=0}`;
  const disable = QUIET_FEATURES.filter((f) => inRange(version, f.from, f.until)).flatMap((f) => [
    "--disable",
    f.feature,
  ]);
  // Versions without analytics ignore the unknown key.
  return [
    ...["-c", 'model_provider="probe"', "-c", provider],
    ...disable,
    ...["-c", "analytics.enabled=false"],
  ];
}

/** The flag Codex's argument parser refused, or an unknown feature name, or null. */
export function codexRejectedArgv(stderr: string): RejectedArgv | null {
  for (const raw of stderr.split("\n")) {
    const line = raw.trim();
    const clap = /^error: unexpected argument '([^']+)' found/.exec(line);
    if (clap?.[1] !== undefined) return { flag: clap[1], message: line };
    const feature = /^Error: Unknown feature flag: (\S+)/.exec(line);
    if (feature?.[1] !== undefined) return { flag: `--disable ${feature[1]}`, message: line };
  }
  return null;
}

/** The arguments after the binary: the provider flags after `exec` (first when argv has none). */
export function codexArgs(
  argv: readonly string[],
  baseUrl: string,
  version: string = PINNED.codex.version,
): string[] {
  const flags = codexProviderFlags(baseUrl, version);
  // `-c` is global too, so when argv does not start with `exec` the flags go first.
  if (argv[0] !== "exec") return [...flags, ...argv];
  return ["exec", ...flags, ...argv.slice(1)];
}

/**
 * A scripted call as Codex names it. A shell command goes to the shell tool the request offers:
 * the `exec` custom tool (JavaScript, 0.144+), else the `exec_command` (0.96–0.143),
 * `shell_command` (0.59–0.95) or `shell` (0.58) functions.
 */
function naming(call: ToolCall, offered: readonly string[]): NamedCall {
  if (!("shell" in call)) {
    if (call.tool === "exec" && typeof call.input.code === "string")
      return { name: "exec", input: call.input, freeform: call.input.code };
    return { name: call.tool, input: call.input };
  }
  if (offered.includes("exec")) {
    const code = execProgram(call.shell);
    return { name: "exec", input: { code }, freeform: code };
  }
  if (offered.includes("exec_command")) return { name: "exec_command", input: { cmd: call.shell } };
  if (offered.includes("shell_command"))
    return { name: "shell_command", input: { command: call.shell } };
  if (offered.includes("shell"))
    return { name: "shell", input: { command: ["bash", "-lc", call.shell] } };
  const code = execProgram(call.shell);
  return { name: "exec", input: { code }, freeform: code };
}

/** Marks the workspace trusted in the cell's config.toml (trust loads the workspace's config). */
async function trustWorkspace(cell: CellPaths): Promise<void> {
  const file = join(cell.codexHome, "config.toml");
  let config = "";
  try {
    config = await readFile(file, "utf8");
  } catch {
    // absent: the trust table is the whole config
  }
  // A table appended at the end leaves whatever top-level keys the fixture wrote untouched.
  const table = `[projects.${JSON.stringify(cell.workspace)}]\ntrust_level = "trusted"\n`;
  await writeFile(file, `${config}${config === "" || config.endsWith("\n") ? "" : "\n"}\n${table}`);
}

/** Codex (codex-cli), as the probe cell runs it. */
export const codexDriver: ProbeDriver = {
  name: "codex",
  info: CLI_CATALOG.codex,
  wire: openaiResponses,
  naming,
  launch: ({ argv, baseUrl, version, stdin }) => ({
    args: codexArgs(argv, baseUrl, version),
    ...(stdin === undefined ? {} : { stdin }),
    env: { OPENAI_API_KEY: DUMMY_KEY },
  }),
  trustWorkspace,
  rejectedArgv: codexRejectedArgv,
  readTranscript: readCodexTranscript,
  classify: classifyCodexCall,
  sessionFixture: { name: "rollout.jsonl" },
};
