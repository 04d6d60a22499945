// `witness serve` through the built binary: one request per wire protocol answered from the
// script, each captured to the requests file as it arrives, a clean stop on SIGTERM, and a bad
// script refused with exit 2.
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { runProcess } from "../../core/exec.js";
import { builtCli } from "../../test/support/built-cli.js";
import { tempDir } from "../../test/support/temp-dir.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-serve-"));
});
afterEach(() => cleanup());

// A free loopback port: taken by the OS, then given back for witness to listen on.
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address !== null ? address.port : 0;
}

function serve(args: string[], signal?: AbortSignal) {
  return runProcess({
    file: process.execPath,
    args: [builtCli(), "serve", ...args],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, WITNESS_NO_CODE_CACHE: "1" },
    cwd: dir,
    timeoutMs: 60_000,
    ...(signal === undefined ? {} : { signal }),
  });
}

async function post(url: string, body: unknown): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: "Bearer sk-e2e-secret-0123456789",
    },
    body: JSON.stringify(body),
  });
  return response.text();
}

const messages = [{ role: "user", content: "go" }];

describe("witness serve", () => {
  it("answers each wire protocol from the script, captures each request, stops on SIGTERM", async () => {
    await writeFile(join(dir, "script.yaml"), "turns:\n  - text: scripted-hello\n");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const abort = new AbortController();
    const run = serve(
      ["--script", "script.yaml", "--port", String(port), "--requests", "requests.jsonl"],
      abort.signal,
    );
    try {
      await vi.waitFor(() => fetch(url, { method: "HEAD" }), { timeout: 30_000, interval: 100 });
      const replies = [
        await post(`${url}/claude-code/v1/messages`, { model: "m", messages, stream: false }),
        await post(`${url}/codex/v1/responses`, { model: "m", input: [], stream: true }),
        await post(`${url}/qwen/v1/chat/completions`, { model: "m", messages }),
        await post(`${url}/gemini/v1beta/models/m:streamGenerateContent?alt=sse`, {
          contents: [{ role: "user", parts: [{ text: "go" }] }],
        }),
      ];
      // Gemini's stream splits the text in two parts: join every text field before looking.
      const said = (reply: string) =>
        [...reply.matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]).join("") + reply;
      for (const reply of replies) expect(said(reply)).toContain("scripted-hello");
      const captured = async () =>
        (await readFile(join(dir, "requests.jsonl"), "utf8").catch(() => ""))
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as { path: string; answer: string; headers: object });
      // Written as they arrive: all four are there while the server still runs.
      await vi.waitFor(async () => expect(await captured()).toHaveLength(5));
      const lines = await captured();
      expect(lines.slice(1).map((r) => [r.path.split("?")[0], r.answer])).toEqual([
        ["/claude-code/v1/messages", "turn:0"],
        ["/codex/v1/responses", "turn:0"],
        ["/qwen/v1/chat/completions", "turn:0"],
        ["/gemini/v1beta/models/m:streamGenerateContent", "turn:0"],
      ]);
      expect(JSON.stringify(lines)).not.toContain("sk-e2e-secret");
    } finally {
      abort.abort();
    }
    const result = await run;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(`# witness fake model: ${url}`);
    expect(result.stdout).toContain(`export ANTHROPIC_BASE_URL=${url}/claude-code`);
  });

  it("refuses a bad script with exit 2, naming the file and the field", async () => {
    await writeFile(join(dir, "bad.yaml"), "turns:\n  - text: ok\n  - say: nothing\n");
    const result = await serve(["--script", "bad.yaml"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/bad\.yaml: turns\.1: .*expected/);
    expect(result.stderr).not.toContain("    at ");
  });
});
