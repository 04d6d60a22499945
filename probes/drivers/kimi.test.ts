import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { kimiDriver, kimiRejectedArgv, kimiWorkDirKey } from "./kimi.js";

let dir: string | null = null;
afterEach(async () => {
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe("the Kimi Code driver", () => {
  it("points KIMI_MODEL_* at the fake's Chat Completions and turns telemetry and updates off", () => {
    const { env, args } = kimiDriver.launch({
      argv: ["-p", "go"],
      baseUrl: "http://127.0.0.1:9",
      version: "2.1.0",
    });
    expect(args).toEqual(["-p", "go"]);
    expect(env).toMatchObject({
      KIMI_MODEL_NAME: "fake-model",
      KIMI_MODEL_PROVIDER_TYPE: "openai",
      KIMI_MODEL_BASE_URL: "http://127.0.0.1:9/v1",
      KIMI_DISABLE_TELEMETRY: "1",
      KIMI_CODE_NO_AUTO_UPDATE: "1",
    });
  });

  it("names a scripted shell call Bash {command}", () => {
    expect(kimiDriver.naming({ shell: "touch x" }, [])).toEqual({
      name: "Bash",
      input: { command: "touch x" },
    });
  });

  it("keys a working directory as 2.1.0 does (the session bucket seen in a real run)", () => {
    // A research run's session_index.jsonl: this workDir, its session under this bucket.
    expect(
      kimiWorkDirKey("/work/research/kimi-kilo/cells/cell-1796362967437-68d809/parent/ws"),
    ).toBe("wd_ws_657b4494f207");
    expect(kimiWorkDirKey("/a/b/ws/")).toBe(kimiWorkDirKey("/a/b/ws"));
    expect(kimiWorkDirKey("/a/My Repo!")).toMatch(/^wd_my-repo_[0-9a-f]{12}$/);
    expect(kimiWorkDirKey("/a/b/ws")).not.toBe(kimiWorkDirKey("/a/c/ws"));
  });

  it("trusts the workspace with a workspace-trust record under ~/.kimi-code", async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-kimi-driver-"));
    const cell = { root: dir, home: join(dir, "home"), workspace: join(dir, "ws"), codexHome: "" };
    await mkdir(cell.workspace);
    await kimiDriver.trustWorkspace(cell);
    const file = join(cell.home, ".kimi-code", "workspace-trust", kimiWorkDirKey(cell.workspace));
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ root: cell.workspace });
  });

  it("reads the flag commander refused", () => {
    expect(kimiRejectedArgv("error: unknown option '--no-such-flag'\n")).toEqual({
      flag: "--no-such-flag",
      message: "error: unknown option '--no-such-flag'",
    });
    expect(kimiRejectedArgv("error: Cannot combine --prompt with --yolo.\n")).toEqual({
      flag: "--yolo",
      message: "error: Cannot combine --prompt with --yolo.",
    });
    expect(kimiRejectedArgv("error: failed to run prompt: provider.api_error: 400")).toBeNull();
  });
});
