import { describe, expect, it } from "vitest";

import { CLI_NAMES, PROBE_CLI_NAMES } from "../../clis/names.js";
import { allCliEnvs, cliEnv, renderCliEnv, undrivenClis } from "./cli-env.js";

const URL = "http://127.0.0.1:4321";

describe("the env that points each CLI at a served fake", () => {
  it("covers every CLI with a driver, each on its own path prefix", async () => {
    expect((await allCliEnvs(URL)).map((e) => [e.cli, e.baseUrl])).toEqual(
      PROBE_CLI_NAMES.map((cli) => [cli, `${URL}/${cli}`]),
    );
  });

  it.each([
    ["claude-code", "ANTHROPIC_BASE_URL", `${URL}/claude-code`],
    ["gemini", "GOOGLE_GEMINI_BASE_URL", `${URL}/gemini`],
    ["qwen", "OPENAI_BASE_URL", `${URL}/qwen/v1`],
  ] as const)("%s gets %s from its driver", async (cli, name, value) => {
    expect((await cliEnv(URL, cli)).env[name]).toBe(value);
  });

  it("gives Codex its provider flags and key, and opencode its config content", async () => {
    const codex = await cliEnv(URL, "codex");
    expect(codex.env).toEqual({ OPENAI_API_KEY: expect.any(String) as unknown });
    expect(codex.args.join(" ")).toContain(`base_url="${URL}/codex/v1"`);
    const config = JSON.parse(
      (await cliEnv(URL, "opencode")).env.OPENCODE_CONFIG_CONTENT ?? "{}",
    ) as {
      provider: { witness: { options: { baseURL: string } } };
    };
    expect(config.provider.witness.options.baseURL).toBe(`${URL}/opencode/v1`);
  });

  it("gives pi the models and settings files its driver plants, naming the fake", async () => {
    const pi = await cliEnv(URL, "pi");
    expect(pi.files.map((f) => f.path)).toEqual([
      "~/.pi/agent/models.json",
      "~/.pi/agent/settings.json",
    ]);
    const models = JSON.parse(pi.files[0]?.content ?? "{}") as {
      providers: Record<string, { baseUrl: string }>;
    };
    expect(Object.values(models.providers).map((p) => p.baseUrl)).toEqual([`${URL}/pi/v1`]);
  });

  it("gives Gemini CLI the settings that select API-key auth", async () => {
    const gemini = await cliEnv(URL, "gemini");
    expect(gemini.files.map((f) => f.path)).toEqual(["~/.gemini/settings.json"]);
    expect(gemini.files[0]?.content).toContain('"gemini-api-key"');
  });

  it("names the catalog's CLIs that have no driver, and only those", () => {
    expect(undrivenClis()).toContain("cursor");
    expect(undrivenClis()).not.toContain("claude-code");
    expect(undrivenClis().length + PROBE_CLI_NAMES.length).toBe(CLI_NAMES.length);
  });

  it("leaves out the switches only a root cell needs", async () => {
    expect((await cliEnv(URL, "claude-code")).env).not.toHaveProperty("IS_SANDBOX");
  });

  it("renders export lines a POSIX shell reads back, quoting what needs it", () => {
    const text = renderCliEnv({
      cli: "codex",
      baseUrl: URL,
      env: { PLAIN: "a/b:c", ODD: `it's {"x": 1}` },
      args: ["-c", 'model_provider="probe"'],
      files: [
        { path: "~/.x/settings.json", content: '{\n  "a": 1\n}\n' },
        { path: "~/.x/node_modules/", content: null },
      ],
    });
    expect(text.split("\n")).toEqual([
      "# codex",
      "export PLAIN=a/b:c",
      `export ODD='it'\\''s {"x": 1}'`,
      `# and pass these flags first: -c 'model_provider="probe"'`,
      "# and write ~/.x/settings.json:",
      '#   {"a":1}',
      "# and create the directory ~/.x/node_modules/",
    ]);
  });
});
