import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { statedExitCode } from "../../clis/outcome.js";
import { GEMINI_SETTINGS, geminiDriver } from "./gemini.js";

let root: string | null = null;
afterEach(async () => {
  if (root !== null) await rm(root, { recursive: true, force: true });
  root = null;
});

async function cellPaths() {
  root = await mkdtemp(join(tmpdir(), "witness-gemini-driver-"));
  const home = join(root, "home");
  await mkdir(join(home, ".gemini"), { recursive: true });
  return { root, home, workspace: join(root, "ws"), codexHome: join(home, ".codex") };
}

const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8")) as unknown;

describe("the Gemini CLI driver", () => {
  it("passes argv through and points the CLI at the fake with a dummy key and the cell's system settings path", async () => {
    const cell = await cellPaths();
    const launch = geminiDriver.launch({
      argv: ["-m", "m", "-p", "hi"],
      baseUrl: "http://127.0.0.1:9",
      version: "0.61.0",
      cell,
    });
    expect(launch.args).toEqual(["-m", "m", "-p", "hi"]);
    expect(launch.env).toMatchObject({
      GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:9",
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(cell.root, "gemini-system-settings.json"),
    });
    expect(launch.env.GEMINI_API_KEY).toMatch(/dummy/);
    // Trust comes from the cell's trustedFolders.json, never from the environment.
    expect(launch.env.GEMINI_CLI_TRUST_WORKSPACE).toBeUndefined();
  });

  it("plants its settings under a fixture's own settings.json, the fixture's values winning", async () => {
    const cell = await cellPaths();
    const file = join(cell.home, ".gemini", "settings.json");
    await writeFile(
      file,
      JSON.stringify({ context: { fileName: "AGENTS.md" }, telemetry: { enabled: true } }),
    );
    await geminiDriver.prepareCell?.(cell);
    expect(await readJson(file)).toEqual({
      ...GEMINI_SETTINGS,
      context: { fileName: "AGENTS.md" },
      telemetry: { enabled: true },
    });
  });

  it("leaves a planted settings file that is not JSON as it is", async () => {
    const cell = await cellPaths();
    const file = join(cell.home, ".gemini", "settings.json");
    await writeFile(file, "{ not json");
    await geminiDriver.prepareCell?.(cell);
    expect(await readFile(file, "utf8")).toBe("{ not json");
  });

  it("trusts the workspace in the cell's trustedFolders.json", async () => {
    const cell = await cellPaths();
    await geminiDriver.trustWorkspace(cell);
    expect(await readJson(join(cell.home, ".gemini", "trustedFolders.json"))).toEqual({
      [cell.workspace]: "TRUST_FOLDER",
    });
  });

  it("names a scripted shell command run_shell_command", () => {
    expect(geminiDriver.naming({ shell: "ls" }, [])).toEqual({
      name: "run_shell_command",
      input: { command: "ls", description: "witness probe command" },
    });
    expect(geminiDriver.naming({ tool: "write_file", input: { a: 1 } }, [])).toEqual({
      name: "write_file",
      input: { a: 1 },
    });
  });

  it.each([
    [
      {
        isError: false,
        text: "<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 1\n</untrusted_context>",
      },
      "ran",
    ],
    [{ isError: false, text: "Output: out-line\nExit Code: 3\nProcess Group PGID: 2" }, "error"],
    [{ isError: false, text: "Successfully created and wrote to new file: /w/x." }, "ran"],
    [
      { isError: true, text: 'Tool "run_shell_command" not found. Did you mean one of: "glob"?' },
      "no-such-tool",
    ],
    [{ isError: true, text: "Tool execution denied by policy." }, "denied"],
    [
      { isError: true, text: 'Path not in workspace: Attempted path "/x" resolves outside' },
      "denied",
    ],
    [
      { isError: true, text: "Access denied: plan path (/x) must be within the plans directory" },
      "denied",
    ],
    [{ isError: true, text: "Error checking existing file '/x': ENOTDIR" }, "error"],
    [null, "unknown"],
  ])("reads %j as %s", (result, outcome) => {
    expect(geminiDriver.classify({ wire: result, recorded: null }).outcome).toBe(outcome);
  });

  it("reads the exit code from the shell tool's output", () => {
    expect(statedExitCode("Output: x\nExit Code: 127\n")).toBe(127);
    expect(statedExitCode("Output: Exit Code: 3 was printed")).toBeNull();
  });
});
