import { createHash } from "node:crypto";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { InputError, UsageError } from "../core/errors.js";
import { loadProbeSpec } from "./probe-input.js";
import {
  checkReplay,
  envFlags,
  replayEnv,
  replayInput,
  type ReplaySource,
} from "./replay-input.js";

const cwd = join(import.meta.dirname, "test", "fixtures", "probe-input");

describe("--env flags", () => {
  it("become variables, the value after the first =", () => {
    expect(envFlags(["A=1", "B=x=y", "EMPTY="])).toEqual({ A: "1", B: "x=y", EMPTY: "" });
  });

  it.each([
    ["NOVALUE", /expected NAME=value/],
    ["=v", /expected an environment variable name/],
    ["1BAD=v", /expected an environment variable name/],
    ["HOME=/root", /HOME is the cell's own/],
    ["ANTHROPIC_BASE_URL=http://x", /points the CLI at a model server/],
    ["MY_API_KEY=k", /names a key or token/],
  ])("refuses %s, naming the flag", (flag, message) => {
    expect(() => envFlags([flag])).toThrow(UsageError);
    expect(() => envFlags([flag])).toThrow(message);
    expect(() => envFlags([flag])).toThrow(`--env "${flag}"`);
  });

  it("reach the spec's launch as variables it sets", async () => {
    const spec = await loadProbeSpec({
      cli: "codex@0.171.0",
      argv: ["exec", "go"],
      env: ["A=1"],
      cwd,
    });
    expect(spec.launch).toEqual({ argv: ["exec", "go"], env: { set: { A: "1" } } });
  });
});

const source = (over: Partial<ReplaySource> = {}): ReplaySource => ({
  file: "shims.jsonl",
  line: 3,
  shim: "claude",
  argv: ["-p", "hi", "--model", "opus"],
  env: { HOME: "/home/ci", CLAUDE_CODE_X: "1", ANTHROPIC_BASE_URL: "http://x" },
  stdin: null,
  ...over,
});

describe("a replayed call", () => {
  it("keeps the variables the cell does not own and names the others", () => {
    expect(replayEnv(source().env)).toEqual({
      set: { CLAUDE_CODE_X: "1" },
      dropped: ["HOME", "ANTHROPIC_BASE_URL"],
    });
  });

  it("becomes the spec's argv and variables, --env on top", async () => {
    const notes: string[] = [];
    const input = replayInput(
      { cli: "claude-code@2.1.332", env: ["CLAUDE_CODE_X=2"], cwd },
      source({ redacted: ["ANTHROPIC_API_KEY"] }),
      (line) => notes.push(line),
    );
    const spec = await loadProbeSpec(input);
    expect(spec.launch).toEqual({
      argv: ["-p", "hi", "--model", "opus"],
      env: { set: { CLAUDE_CODE_X: "2" } },
    });
    expect(notes).toEqual([
      "replay: the cell sets its own HOME, ANTHROPIC_BASE_URL",
      "replay: not replayed, the log kept them redacted: ANTHROPIC_API_KEY",
    ]);
  });

  it("refuses a call of another CLI, naming the file and line", () => {
    expect(() => checkReplay(source({ shim: "codex" }), "claude-code", undefined)).toThrow(
      new InputError("shims.jsonl", [
        { path: "line 3", message: "expected a call of claude-code (--cli); got one of codex" },
      ]),
    );
  });

  it("asks for the stdin it read, and takes it only when its digest matches", () => {
    const sha256 = createHash("sha256").update("the prompt").digest("hex");
    const read = source({ stdin: { bytes: 10, sha256 } });
    expect(() => checkReplay(read, "claude-code", undefined)).toThrow(/give them with --stdin/);
    expect(() => checkReplay(read, "claude-code", "another")).toThrow(/got other text/);
    expect(() => checkReplay(read, "claude-code", "the prompt")).not.toThrow();
    expect(() => checkReplay(source(), "claude-code", "x")).toThrow(/read nothing on stdin/);
  });

  it("refuses raw arguments beside it", () => {
    expect(() => replayInput({ cli: "claude-code@2.1.332", argv: ["-p"], cwd }, source())).toThrow(
      /give --replay alone/,
    );
  });
});
