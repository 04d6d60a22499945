import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { CLINE_MODEL, clineDriver, clineRejectedArgv } from "./cline.js";

let dir = "";
afterEach(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

const cellIn = (root: string) => ({
  root,
  home: join(root, "home"),
  workspace: join(root, "ws"),
  codexHome: join(root, "home", ".codex"),
});

describe("the Cline driver", () => {
  it("keeps the hub daemon and the self-update off, and names a shell call run_commands", () => {
    const launch = clineDriver.launch({
      argv: ["--", "say hi"],
      baseUrl: "http://127.0.0.1:9",
      version: "3.0.65",
    });
    expect(launch.args).toEqual(["--", "say hi"]);
    expect(launch.env).toEqual({ CLINE_SESSION_BACKEND_MODE: "local", CLINE_NO_AUTO_UPDATE: "1" });
    expect(clineDriver.naming({ shell: "touch x" }, [])).toEqual({
      name: "run_commands",
      input: { commands: ["touch x"] },
    });
  });

  it("writes the provider (with updatedAt, baseUrl ending in /v1) and quiet settings under a fixture's", async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-cline-"));
    const cell = cellIn(dir);
    const settings = join(cell.home, ".cline", "data", "settings");
    await mkdir(settings, { recursive: true });
    await writeFile(join(settings, "global-settings.json"), '{"autoUpdateEnabled":true,"x":1}');
    await clineDriver.prepare?.({
      cell,
      env: { HOME: cell.home },
      baseUrl: "http://127.0.0.1:9",
      version: "3.0.65",
    });
    const json = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, "utf8"));
    const providers = (await json(join(settings, "providers.json"))) as {
      providers: { anthropic: { settings: unknown; updatedAt: unknown } };
    };
    expect(providers.providers.anthropic.settings).toMatchObject({
      baseUrl: "http://127.0.0.1:9/v1",
      model: CLINE_MODEL,
    });
    expect(typeof providers.providers.anthropic.updatedAt).toBe("string");
    const global = await json(join(settings, "global-settings.json"));
    expect(global).toEqual({ telemetryOptOut: true, autoUpdateEnabled: true, x: 1 });
    const flags = join(cell.home, ".cline", "data", "cache", "feature-flags.json");
    const cached = (await json(flags)) as { updatedAt: number };
    expect(cached.updatedAt).toBeGreaterThan(Date.now());
  });

  it("follows CLINE_DIR for its data", async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-cline-"));
    const cell = cellIn(dir);
    const moved = join(dir, "moved");
    await clineDriver.prepare?.({
      cell,
      env: { HOME: cell.home, CLINE_DIR: moved },
      baseUrl: "http://127.0.0.1:9",
      version: "3.0.65",
    });
    await expect(
      readFile(join(moved, "data", "settings", "providers.json"), "utf8"),
    ).resolves.toContain("anthropic");
  });

  it("names the flag or the one-word prompt it refused", () => {
    expect(clineRejectedArgv("error: error: unknown option '--bogus-flag'\n")?.flag).toBe(
      "--bogus-flag",
    );
    expect(clineRejectedArgv("error: unknown option '--bogus'\n")?.flag).toBe("--bogus");
    expect(clineRejectedArgv("Unknown command or unquoted prompt: hello\n")?.flag).toBe(
      "(the prompt)",
    );
    expect(clineRejectedArgv("error: witness scripted fault")).toBeNull();
  });
});
