import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { kiloConfigDirs, kiloDriver, kiloHelper } from "./kilo.js";

let dir: string | null = null;
afterEach(async () => {
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});
async function cell() {
  dir = await mkdtemp(join(tmpdir(), "witness-kilo-driver-"));
  const home = join(dir, "home");
  const workspace = join(dir, "ws");
  await mkdir(workspace, { recursive: true });
  return { root: dir, home, workspace, codexHome: join(home, ".codex") };
}

describe("the Kilo driver", () => {
  it("routes Kilo to the fake in KILO_CONFIG_CONTENT (its gateway too) and turns off telemetry, updates and default plugins", () => {
    const { env, args } = kiloDriver.launch({
      argv: ["run", "go"],
      baseUrl: "http://127.0.0.1:9",
      version: "7.7.7",
    });
    expect(args).toEqual(["run", "go"]);
    const config = JSON.parse(env.KILO_CONFIG_CONTENT ?? "{}") as {
      model: string;
      enabled_providers: string[];
      provider: Record<string, { options: { baseURL: string } }>;
    };
    expect(config.model).toBe("witness/fake-model");
    expect(config.enabled_providers).toEqual(["witness"]);
    expect(config.provider.witness?.options.baseURL).toBe("http://127.0.0.1:9/v1");
    expect(config.provider.kilo?.options.baseURL).toBe("http://127.0.0.1:9/kilo-gateway");
    expect(env).toMatchObject({
      KILO_TELEMETRY_LEVEL: "off",
      KILO_DISABLE_DEFAULT_PLUGINS: "1",
      KILO_DISABLE_AUTOUPDATE: "1",
      KILO_SESSION_RETRY_LIMIT: "1",
    });
    expect(Object.keys(env).filter((k) => k.startsWith("OPENCODE_"))).toEqual([]);
  });

  it("seeds every config directory 7.0.33 would `kilo install` into with its own version pinned", async () => {
    const c = await cell();
    await mkdir(join(c.workspace, ".kilo"));
    await mkdir(join(c.home, ".opencode"), { recursive: true });
    const input = {
      cell: c,
      env: { HOME: c.home, KILO_CONFIG_DIR: join(c.root, "overlay") },
      baseUrl: "http://h",
      version: "7.0.33",
    };
    const dirs = kiloConfigDirs(input);
    expect(dirs).toEqual([
      join(c.home, ".config", "kilo"),
      join(c.workspace, ".kilo"),
      join(c.home, ".opencode"),
      join(c.root, "overlay"),
    ]);
    await kiloDriver.prepare?.(input);
    for (const d of dirs)
      expect(JSON.parse(await readFile(join(d, "package.json"), "utf8"))).toEqual({
        dependencies: { "@kilocode/plugin": "7.0.33" },
      });
  });

  it("answers 7.0.33's title call (no tools, 'Generate a title') with text, and leaves an agent turn alone", () => {
    const title = {
      messages: [
        { role: "system", content: "You are Kilo" },
        {
          role: "user",
          content: [{ type: "text", text: "Generate a title for this conversation:\n" }],
        },
        { role: "user", content: "go" },
      ],
    };
    expect(kiloHelper(title)).toEqual({ kind: "title", text: "witness probe" });
    expect(kiloHelper({ ...title, tools: [{ type: "function" }] })).toBeNull();
    expect(kiloHelper({ messages: [{ role: "user", content: "go" }] })).toBeNull();
  });
});
