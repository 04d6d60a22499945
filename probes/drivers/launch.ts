// The argv and environment that point each vendor CLI at the fake model, with background traffic off.
import type { ProbeCliName } from "../contracts/probe-spec.js";

/** A dummy credential: the CLIs insist on a key, the fake server ignores it. */
export const DUMMY_KEY = "witness-dummy-key-not-a-secret";

/** The variables a CLI needs to reach the fake server at `baseUrl` and stay quiet otherwise. */
export function endpointEnv(cli: ProbeCliName, baseUrl: string): Record<string, string> {
  if (cli === "claude-code") {
    return {
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: DUMMY_KEY,
      // Without it the CLI resolves the vendor's API host and sends HEAD /api/hello.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      // witness runs as root in a throwaway cell; bypass modes refuse to start as root without it.
      IS_SANDBOX: "1",
    };
  }
  return { OPENAI_API_KEY: DUMMY_KEY };
}

/** Codex `-c` flags that route the model to the fake server and switch off start-up lookups. */
export function codexProviderFlags(baseUrl: string): string[] {
  const provider =
    `model_providers.probe={name="probe",base_url="${baseUrl}/v1",env_key="OPENAI_API_KEY",` +
    `wire_api="responses",request_max_retries=0,stream_max_retries=0}`;
  return [
    "-c",
    'model_provider="probe"',
    "-c",
    provider,
    "--disable",
    "plugins",
    "--disable",
    "apps",
    "-c",
    "analytics.enabled=false",
  ];
}

/** The arguments after the binary: the caller's argv plus, for Codex, the provider flags after `exec`. */
export function cliArgs(cli: ProbeCliName, argv: readonly string[], baseUrl: string): string[] {
  if (cli === "claude-code") return [...argv];
  const flags = codexProviderFlags(baseUrl);
  // `-c` is global too, so when argv does not start with `exec` the flags go first.
  if (argv[0] !== "exec") return [...flags, ...argv];
  return ["exec", ...flags, ...argv.slice(1)];
}
