import { describe, expect, it } from "vitest";

import { claudeRejectedArgv } from "./claude-code.js";
import { codexProviderFlags, codexRejectedArgv } from "./codex.js";
import { driverFor } from "./index.js";

const cliArgs = (cli: "claude-code" | "codex", argv: string[], baseUrl: string) =>
  driverFor(cli).launch({ argv, baseUrl, version: "0.171.0" }).args;
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
    const flags = codexProviderFlags(URL, "0.171.0");
    expect(args.slice(1, 1 + flags.length)).toEqual(flags);
    expect(args.slice(-3)).toEqual(["--sandbox", "read-only", "go"]);
  });

  it("puts the Codex provider flags first when argv does not start with exec", () => {
    expect(cliArgs("codex", ["--version"], URL)).toEqual([
      ...codexProviderFlags(URL, "0.171.0"),
      "--version",
    ]);
  });

  it("routes Codex to the fake server with retries off and start-up lookups disabled", () => {
    const flags = codexProviderFlags(URL).join(" ");
    expect(flags).toContain('model_provider="probe"');
    expect(flags).toContain(`base_url="${URL}/v1"`);
    expect(flags).toContain("request_max_retries=0");
    expect(flags).toContain("--disable plugins --disable apps -c analytics.enabled=false");
  });

  it.each([
    ["0.58.0", "-c analytics.enabled=false"],
    ["0.80.0", "-c analytics.enabled=false"],
    ["0.92.0", "--disable remote_models -c analytics.enabled=false"],
    ["0.96.0", "--disable remote_models --disable apps -c analytics.enabled=false"],
    ["0.107.0", "--disable apps -c analytics.enabled=false"],
    ["0.110.0", "--disable plugins --disable apps -c analytics.enabled=false"],
    ["0.156.1", "--disable plugins --disable apps -c analytics.enabled=false"],
  ])("switches off on Codex %s only the start-up features it knows: %s", (version, tail) => {
    const flags = codexProviderFlags(URL, version);
    expect(flags.slice(4).join(" ")).toBe(tail);
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

describe("a refused argument, in the CLI's own words", () => {
  it.each([
    ["error: unknown option '--tools'", "--tools"],
    [
      "error: option '--permission-mode <mode>' argument 'auto' is invalid. Allowed choices are acceptEdits, bypassPermissions, default, plan.",
      "--permission-mode auto",
    ],
    [
      "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
      "--dangerously-skip-permissions",
    ],
  ])("reads Claude Code's %j as a refusal of %s", (stderr, flag) => {
    expect(claudeRejectedArgv(`\n${stderr}\n`)).toEqual({ flag, message: stderr });
  });

  it.each([
    ["error: unexpected argument '--ignore-user-config' found", "--ignore-user-config"],
    ["Error: Unknown feature flag: plugins", "--disable plugins"],
  ])("reads Codex's %j as a refusal of %s", (stderr, flag) => {
    expect(codexRejectedArgv(`${stderr}\n\nUsage: codex exec`)).toEqual({
      flag,
      message: stderr,
    });
  });

  it("reads no refusal in an ordinary failure", () => {
    expect(claudeRejectedArgv("Error: something else broke")).toBeNull();
    expect(codexRejectedArgv("ERROR: unexpected status 404 Not Found")).toBeNull();
  });
});

describe("Codex's shell call, named after the shell tool the request offers", () => {
  const shell = { shell: "touch /w/S" };
  it.each([
    [["exec", "exec.exec_command", "wait"], "exec"],
    [["exec_command", "write_stdin", "update_plan"], "exec_command"],
    [["shell_command", "update_plan"], "shell_command"],
    [["shell", "update_plan"], "shell"],
  ])("offered %j, calls %s", (offered, name) => {
    expect(driverFor("codex").naming(shell, offered).name).toBe(name);
  });

  it("gives each generation its own argument shape", () => {
    const naming = driverFor("codex").naming;
    expect(naming(shell, ["exec_command"]).input).toEqual({ cmd: "touch /w/S" });
    expect(naming(shell, ["shell_command"]).input).toEqual({ command: "touch /w/S" });
    expect(naming(shell, ["shell"]).input).toEqual({ command: ["bash", "-lc", "touch /w/S"] });
    expect(naming(shell, ["exec"]).freeform).toContain("tools.exec_command");
  });
});
