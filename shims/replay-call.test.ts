import { writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { InputError } from "../core/errors.js";
import { tempDir } from "../test/support/temp-dir.js";
import { replayCall } from "./replay-call.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-replay-"));
});
afterEach(() => cleanup());

const record = (argv: string[], env: Record<string, string> = {}) =>
  JSON.stringify({
    v: 1,
    shim: "claude",
    argv,
    cwd: "/w",
    env,
    start: 1,
    pid: 2,
    ppid: 1,
    mode: "pass-through",
    stdin: null,
    exitCode: 0,
  });

async function log(...lines: string[]): Promise<string> {
  const file = join(dir, "shims.jsonl");
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

describe("replayCall", () => {
  it("picks call N with its line, and keeps redacted values out of the env", async () => {
    const file = await log(
      record(["-p", "one"]),
      "",
      record(["-p", "two"], { CLAUDE_X: "1", ANTHROPIC_API_KEY: "<redacted:40>" }),
    );
    const call = await replayCall(file, 2);
    expect(call).toMatchObject({
      call: 2,
      line: 3,
      shim: "claude",
      argv: ["-p", "two"],
      env: { CLAUDE_X: "1" },
      redacted: ["ANTHROPIC_API_KEY"],
    });
  });

  it("takes the only call when none is named, and asks for one among several", async () => {
    expect((await replayCall(await log(record(["a"])), undefined)).argv).toEqual(["a"]);
    const file = await log(record(["a"]), record(["b"]));
    await expect(replayCall(file, undefined)).rejects.toThrow(
      /holds 2 calls; pick one with --call N/,
    );
  });

  it("refuses a call beyond the log's calls, naming the file", async () => {
    const file = await log(record(["a"]));
    await expect(replayCall(file, 3)).rejects.toThrow(
      new InputError(file, [
        { path: "--call 3", message: "expected a call from 1 to 1 (the calls in the log)" },
      ]),
    );
  });

  it("refuses a line that is not a recorded call, naming the file and line", async () => {
    const file = await log(record(["a"]), '{"v":1,"shim":"claude"}');
    const error = await replayCall(file, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(
      /shims\.jsonl: line 2: expected a recorded call; not a shim record/,
    );
  });
});
