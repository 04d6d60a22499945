import { copyFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { FIXTURES_DIR } from "../../test/support/recorded-transcripts.js";
import { OPENCODE_MODEL, opencodeConfigDirs, opencodeDriver } from "./opencode.js";

let dir: string | null = null;
afterEach(async () => {
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});
async function cell() {
  dir = await mkdtemp(join(tmpdir(), "witness-opencode-driver-"));
  const home = join(dir, "home");
  const workspace = join(dir, "ws");
  await mkdir(workspace, { recursive: true });
  return { root: dir, home, workspace, codexHome: join(home, ".codex") };
}

describe("the opencode driver", () => {
  it("routes opencode to the fake in OPENCODE_CONFIG_CONTENT and switches off its start-up fetches", () => {
    const { env, args, stdin } = opencodeDriver.launch({
      argv: ["run", "--title", "t"],
      baseUrl: "http://127.0.0.1:9",
      version: "1.18.33",
      stdin: "prompt",
    });
    expect(args).toEqual(["run", "--title", "t"]);
    expect(stdin).toBe("prompt");
    const config = JSON.parse(env.OPENCODE_CONFIG_CONTENT ?? "{}") as {
      model: string;
      provider: Record<string, { options: { baseURL: string } }>;
    };
    expect(config.model).toBe(OPENCODE_MODEL);
    expect(config.provider.witness?.options.baseURL).toBe("http://127.0.0.1:9/v1");
    expect(env).toMatchObject({
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    });
  });

  it("seeds every config directory it will use (global, the workspace's .opencode, OPENCODE_CONFIG_DIR) so no npm install starts", async () => {
    const c = await cell();
    await mkdir(join(c.workspace, ".opencode"));
    const configDir = join(c.root, "overlay");
    const input = {
      cell: c,
      env: {
        HOME: c.home,
        XDG_CONFIG_HOME: join(c.home, ".config"),
        OPENCODE_CONFIG_DIR: configDir,
      },
      baseUrl: "http://h",
      version: "1.18.33",
    };
    const dirs = opencodeConfigDirs(input);
    expect(dirs).toEqual([
      join(c.home, ".config", "opencode"),
      join(c.workspace, ".opencode"),
      configDir,
    ]);
    await opencodeDriver.prepare?.(input);
    for (const d of dirs) {
      const lock = JSON.parse(await readFile(join(d, "package-lock.json"), "utf8")) as {
        packages: Record<string, { dependencies: Record<string, string> }>;
      };
      expect(lock.packages[""]?.dependencies["@opencode-ai/plugin"]).toBe("*");
      await expect(readFile(join(d, "node_modules"))).rejects.toMatchObject({ code: "EISDIR" });
    }
  });

  it("leaves out a workspace .opencode that does not exist", async () => {
    const c = await cell();
    expect(
      opencodeConfigDirs({ cell: c, env: { HOME: c.home }, baseUrl: "", version: "" }),
    ).toEqual([join(c.home, ".config", "opencode")]);
  });

  it.each([
    ["default", { call_w0_0: "error", call_w1_0: "denied" }],
    ["auto", { call_w0_0: "ran", call_w0_1: "ran", call_w0_2: "no-such-tool" }],
  ])(
    "reads the outcome of each call of the recorded %s run from its database",
    async (scenario, expected) => {
      const c = await cell();
      const data = join(c.home, ".local", "share", "opencode");
      await mkdir(data, { recursive: true });
      for (const f of ["opencode.db", "opencode.db-wal"])
        await copyFile(join(FIXTURES_DIR, `opencode-1.18.33-${scenario}`, f), join(data, f));
      const facts = await opencodeDriver.readTranscript(
        { HOME: c.home },
        { markers: [], stdout: "", stderr: "" },
      );
      const got = Object.fromEntries(
        Object.keys(expected).map((id) => {
          const recorded = facts.calls.get(id) ?? null;
          // The rejected call has no result on the wire (the run stopped); the others' text is the same.
          const text = recorded?.result?.text;
          const wire =
            text === undefined || recorded?.decision === "reject" ? null : { isError: false, text };
          return [id, opencodeDriver.classify({ wire, recorded }).outcome];
        }),
      );
      expect(got).toEqual(expected);
    },
  );

  it.each([
    [
      {
        isError: false,
        text: "The user has specified a rule which prevents you from using this specific tool call.",
      },
      "denied",
    ],
    [
      {
        isError: false,
        text: "Model tried to call unavailable tool 'bash'. Available tools: read.",
      },
      "no-such-tool",
    ],
    [{ isError: false, text: "Wrote file successfully." }, "ran"],
    [null, "unknown"],
  ] as const)("without a session record, reads %j as %s", (result, outcome) => {
    expect(opencodeDriver.classify({ wire: result, recorded: null }).outcome).toBe(outcome);
  });
});
