import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { copilotDriver, copilotPackageCache, copilotRejectedArgv } from "./copilot.js";

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

describe("the GitHub Copilot CLI driver", () => {
  it("runs offline against the fake's Chat Completions, the package cache per version in the cell", () => {
    const cell = cellIn("/c");
    const launch = copilotDriver.launch({
      argv: ["--prompt=go"],
      baseUrl: "http://127.0.0.1:9",
      version: "1.0.60",
      cell,
    });
    expect(launch.args).toEqual(["--prompt=go"]);
    expect(launch.env).toMatchObject({
      COPILOT_OFFLINE: "true",
      COPILOT_AUTO_UPDATE: "false",
      COPILOT_PROVIDER_BASE_URL: "http://127.0.0.1:9/v1",
      COPILOT_CACHE_HOME: "/c/home/.cache/copilot-pkg-1.0.60",
      COPILOT_PKG_CACHE_HOME: copilotPackageCache(cell, "1.0.60"),
    });
    expect(copilotPackageCache(cell, "1.0.102")).not.toBe(copilotPackageCache(cell, "1.0.60"));
  });

  it("names the flag each version refused", () => {
    expect(copilotRejectedArgv("error: unexpected argument '--bogus' found\n")?.flag).toBe(
      "--bogus",
    );
    expect(copilotRejectedArgv("error: unknown option '--trust-folder'\n")?.flag).toBe(
      "--trust-folder",
    );
    expect(copilotRejectedArgv("Failed to get response from the AI model")).toBeNull();
  });

  it("trusts the workspace in config.json, keeping what a fixture planted (JSONC comments dropped)", async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-copilot-"));
    const cell = cellIn(dir);
    const file = join(cell.home, ".copilot", "config.json");
    await mkdir(join(cell.home, ".copilot"), { recursive: true });
    await writeFile(file, '// written by copilot\n{"trusted_folders":["/other"],"staff":false}\n');
    await copilotDriver.trustWorkspace(cell);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      trusted_folders: ["/other", cell.workspace],
      staff: false,
    });
  });
});
