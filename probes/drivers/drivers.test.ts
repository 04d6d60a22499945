import { describe, expect, it } from "vitest";

import { codexProviderFlags } from "./codex.js";
import { driverFor } from "./index.js";

const cliArgs = (cli: "claude-code" | "codex", argv: string[], baseUrl: string) =>
  driverFor(cli).launch({ argv, baseUrl, version: "0.0.0" }).args;
const endpointEnv = (cli: "claude-code" | "codex", baseUrl: string) =>
  driverFor(cli).launch({ argv: [], baseUrl, version: "0.0.0" }).env;

const URL = "http://127.0.0.1:4321";

describe("launch plumbing", () => {
  it("passes Claude Code's argv through untouched", () => {
    expect(cliArgs("claude-code", ["-p", "hi", "--tools", "Read"], URL)).toEqual([
      "-p",
      "hi",
      "--tools",
      "Read",
    ]);
  });

  it("puts the Codex provider flags right after exec", () => {
    const args = cliArgs("codex", ["exec", "--sandbox", "read-only", "go"], URL);
    expect(args[0]).toBe("exec");
    expect(args.slice(1, 1 + codexProviderFlags(URL).length)).toEqual(codexProviderFlags(URL));
    expect(args.slice(-3)).toEqual(["--sandbox", "read-only", "go"]);
  });

  it("puts the Codex provider flags first when argv does not start with exec", () => {
    expect(cliArgs("codex", ["--version"], URL)).toEqual([...codexProviderFlags(URL), "--version"]);
  });

  it("routes Codex to the fake server with retries off and start-up lookups disabled", () => {
    const flags = codexProviderFlags(URL).join(" ");
    expect(flags).toContain('model_provider="probe"');
    expect(flags).toContain(`base_url="${URL}/v1"`);
    expect(flags).toContain("request_max_retries=0");
    expect(flags).toContain("--disable plugins --disable apps -c analytics.enabled=false");
  });

  it("gives each CLI the fake endpoint, a dummy key and the switches that stop background traffic", () => {
    expect(endpointEnv("claude-code", URL)).toMatchObject({
      ANTHROPIC_BASE_URL: URL,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      IS_SANDBOX: "1",
    });
    expect(endpointEnv("claude-code", URL).ANTHROPIC_API_KEY).toMatch(/dummy/);
    expect(Object.keys(endpointEnv("codex", URL))).toEqual(["OPENAI_API_KEY"]);
  });
});
