import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { scriptSchema } from "../contracts/script.js";
import { startFakeServer } from "../fake/server.js";
import { QWEN_MEMORY_EXTRACTION, QWEN_SETTINGS, qwenDriver } from "./qwen.js";

let root: string | null = null;
afterEach(async () => {
  if (root !== null) await rm(root, { recursive: true, force: true });
  root = null;
});

async function cellPaths() {
  root = await mkdtemp(join(tmpdir(), "witness-qwen-driver-"));
  const home = join(root, "home");
  await mkdir(join(home, ".qwen"), { recursive: true });
  return { root, home, workspace: join(root, "ws"), codexHome: join(home, ".codex") };
}

describe("the Qwen Code driver", () => {
  it("points the CLI at the fake's /v1 with a dummy key, a model and usage statistics off", () => {
    const launch = qwenDriver.launch({
      argv: ["-p", "hi"],
      baseUrl: "http://127.0.0.1:9",
      version: "0.24.4",
    });
    expect(launch.args).toEqual(["-p", "hi"]);
    expect(launch.env).toMatchObject({
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      OPENAI_MODEL: "witness-fake-model",
      QWEN_USAGE_STATISTICS_ENABLED: "0",
    });
    expect(launch.env.OPENAI_API_KEY).toMatch(/dummy/);
  });

  it("plants settings with managed auto-memory off, under a fixture's own values", async () => {
    const cell = await cellPaths();
    const file = join(cell.home, ".qwen", "settings.json");
    await writeFile(file, JSON.stringify({ context: { fileName: "AGENTS.md" } }));
    await qwenDriver.prepareCell?.(cell);
    const written = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(written).toEqual({ ...QWEN_SETTINGS, context: { fileName: "AGENTS.md" } });
    expect(written.memory).toEqual({
      enableManagedAutoMemory: false,
      enableManagedAutoDream: false,
    });
  });

  it("answers the memory-extraction request with text, using no scripted turn", async () => {
    const script = scriptSchema.parse({ turns: [{ calls: [{ shell: "touch /x" }] }] });
    const server = await startFakeServer(qwenDriver.wire.responder(script, qwenDriver.naming));
    try {
      const post = (system: string) =>
        fetch(`${server.url}/v1/chat/completions`, {
          method: "POST",
          body: JSON.stringify({ messages: [{ role: "system", content: system }], stream: false }),
        }).then((r) => r.json());
      await post(`${QWEN_MEMORY_EXTRACTION.systemPrefix} for an AI coding assistant.`);
      await post("You are Qwen Code.");
      expect(server.requests.map((r) => r.answer)).toEqual(["helper:memory-extraction", "turn:0"]);
      expect(server.requests[1]?.issued?.[0]).toMatchObject({
        name: "run_shell_command",
        input: { command: "touch /x" },
      });
      expect(qwenDriver.wire.isAgentRequest(server.requests[0] ?? ({} as never))).toBe(false);
    } finally {
      await server.close();
    }
  });

  const text = (t: string) => ({ isError: false, text: t });
  it.each([
    [
      text("Command: touch /x\nOutput: (empty)\nExit Code: 0\nSignal: (none)"),
      "auto_accept",
      "ran",
    ],
    [text("Successfully created and wrote to new file: /w/x."), "auto_accept", "ran"],
    [text("Command: exit 3\nExit Code: 3"), "shell_execute_error", "error"],
    [
      text('Qwen Code requires permission to use "write_file", but that permission was declined.'),
      "execution_denied",
      "denied",
    ],
    [text('This "run_shell_command" invocation was denied by permission rules.'), null, "denied"],
    [text('Tool "no_such_tool" not found in registry.'), "tool_not_registered", "no-such-tool"],
    [
      text("Could not stat /x to verify prior read (ENOTDIR)."),
      "prior_read_verification_failed",
      "error",
    ],
    [null, "execution_denied", "denied"],
    [null, null, "unknown"],
  ])("reads %j with recorded %s as %s", (result, recorded, outcome) => {
    // The chat records a telemetry decision (auto_accept) or an error type for a call.
    const record =
      recorded === null
        ? null
        : recorded === "auto_accept"
          ? { decision: recorded }
          : { errorType: recorded };
    expect(qwenDriver.classify({ wire: result, recorded: record }).outcome).toBe(outcome);
  });
});
