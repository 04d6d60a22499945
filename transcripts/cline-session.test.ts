import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { classifyClineCall } from "../clis/cline/outcome.js";
import {
  clineRecorded,
  clineSessionsDir,
  newestClineSession,
  readClineSession,
} from "./cline-session.js";

let dir = "";
afterEach(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

// A 3.0.65 session under --auto-approve false (a hand run, paths and ids shortened): the shell
// call's result is an array, the editor's a refusal flagged is_error.
const DENIED = {
  version: 1,
  sessionId: "1796399988_abcde",
  system_prompt: "You are Cline. # Rules ## Workspace AGENTS.md MARK_WS",
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: '<user_input mode="act">do it</user_input>' }],
    },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "t0", name: "run_commands", input: { commands: ["touch /s/RAN"] } },
        { type: "tool_use", id: "t1", name: "editor", input: { path: "/s/W", new_text: "x" } },
      ],
      modelInfo: { id: "claude-sonnet-4-5", provider: "anthropic" },
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "t0",
          content: [{ query: "touch /s/RAN", result: "", success: true }],
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "t1",
          content: '{"error":"Tool \\"editor\\" requires approval in a TTY session"}',
          is_error: true,
        },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "all done" }] },
  ],
};

async function session(value: unknown): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "witness-cline-session-"));
  const path = join(dir, "s.messages.json");
  await writeFile(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

describe("readClineSession", () => {
  it("joins each call to its result, the mode, the model, the final text and the markers", async () => {
    const read = await readClineSession(await session(DENIED), { markers: ["MARK_WS", "NOPE"] });
    expect(read.modes).toEqual(["act"]);
    expect(read.models).toEqual(["claude-sonnet-4-5"]);
    expect(read.finalText).toBe("all done");
    expect(read.markersSeen).toEqual(["MARK_WS"]);
    expect(
      read.toolCalls.map((c) => [
        c.name,
        classifyClineCall({ wire: null, recorded: clineRecorded(c) }).outcome,
      ]),
    ).toEqual([
      ["run_commands", "ran"],
      ["editor", "denied"],
    ]);
    expect(read.drift.items).toEqual([]);
  });

  it("notes a broken file or an unknown block as drift, never throws", async () => {
    expect((await readClineSession(await session("{cut off"))).drift.counts).toEqual({
      "not-json": 1,
    });
    await rm(dir, { recursive: true });
    const odd = { messages: [{ role: "assistant", content: [{ type: "hologram" }] }] };
    expect((await readClineSession(await session(odd))).drift.counts).toEqual({
      "unknown-payload block/hologram": 1,
    });
  });

  it("finds the newest session where CLINE_DIR, else HOME, puts it", async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-cline-session-"));
    expect(clineSessionsDir({ HOME: "/h" })).toBe("/h/.cline/data/sessions");
    expect(clineSessionsDir({ HOME: "/h", CLINE_DIR: "/c" })).toBe("/c/data/sessions");
    for (const [id, at] of [
      ["1_old", 1000],
      ["2_new", 2000],
    ] as const) {
      await mkdir(join(dir, id));
      const file = join(dir, id, `${id}.messages.json`);
      await writeFile(file, "{}");
      await utimes(file, at, at);
    }
    expect(await newestClineSession(dir)).toBe(join(dir, "2_new", "2_new.messages.json"));
    expect(await newestClineSession(join(dir, "none"))).toBeNull();
  });
});
