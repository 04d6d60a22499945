import { stat } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { FIXTURES_DIR } from "../test/support/recorded-transcripts.js";
import { collect, opencodeDbPath, readOpencodeDb } from "./opencode-session.js";

const db = (scenario: string) => join(FIXTURES_DIR, `opencode-1.18.33-${scenario}`, "opencode.db");

describe("reading a recorded opencode 1.18.33 database", () => {
  it("reads a run whose rows are only in the -wal file: the session, a bash call's exit code, an auto-rejected write", async () => {
    const path = db("default");
    // The main file holds no table yet: everything the reader finds comes from the -wal.
    expect((await stat(path)).size).toBe(4096);
    const read = await readOpencodeDb(path, { markers: ["WSRAN", "NEVER-WRITTEN-MARKER"] });
    expect(read.sessions).toHaveLength(1);
    expect(read.sessions[0]).toMatchObject({
      title: "witness",
      version: "1.18.33",
      agent: "build",
    });
    expect(read.sessions[0]?.model).toMatchObject({ id: "fake-model", providerID: "witness" });
    expect(read.toolCalls.map((c) => [c.callId, c.tool, c.status, c.exit])).toEqual([
      ["call_w0_0", "bash", "completed", 4],
      ["call_w1_0", "write", "error", null],
    ]);
    expect(read.toolCalls[1]?.error).toMatch(/rejected permission/);
    expect(read.roleCounts).toEqual({ user: 1, assistant: 2 });
    expect(read.drift.items).toEqual([]);
    expect(read.markersSeen).toEqual(["WSRAN"]);
    // The run stopped at the rejected write: no assistant text after the prompt.
    expect(read.finalText).toBeNull();
  });

  it("leaves the database and its -wal as they were", async () => {
    const path = db("default");
    const before = await Promise.all([stat(path), stat(`${path}-wal`)]);
    await readOpencodeDb(path);
    const after = await Promise.all([stat(path), stat(`${path}-wal`)]);
    expect(after.map((s) => [s.size, s.mtimeMs])).toEqual(before.map((s) => [s.size, s.mtimeMs]));
  });

  it("reads an --auto run: calls outside the workspace completed, an unknown tool recorded as opencode's invalid tool", async () => {
    const read = await readOpencodeDb(db("auto"));
    expect(read.toolCalls.map((c) => [c.callId, c.tool, c.status])).toEqual([
      ["call_w0_0", "bash", "completed"],
      ["call_w0_1", "write", "completed"],
      ["call_w0_2", "invalid", "completed"],
    ]);
    expect(read.toolCalls[2]?.input.tool).toBe("no_such_tool");
    expect(read.finalText).toBe("done");
  });

  it("rejects a database that does not exist", async () => {
    await expect(readOpencodeDb(join(FIXTURES_DIR, "nowhere.db"))).rejects.toThrow();
  });
});

describe("opencode rows", () => {
  it("counts an unknown part type and reports rows that do not fit, without throwing", () => {
    const part = (id: string, data: unknown) => ({
      id,
      session_id: "s",
      message_id: "m",
      data: JSON.stringify(data),
    });
    const read = collect("x.db", [], {
      sessions: [
        {
          id: "s",
          directory: "/w",
          title: "t",
          version: "9",
          permission: null,
          agent: null,
          model: null,
        },
      ],
      messages: [
        { id: "m", session_id: "s", data: JSON.stringify({ role: "assistant" }) },
        { id: "m2" },
      ],
      parts: [
        part("p1", { type: "hologram" }),
        part("p2", { type: "tool", tool: "bash" }),
        part("p3", { type: "tool", tool: "bash", callID: "c", state: { status: "running" } }),
        { id: "p4", session_id: "s", message_id: "m", data: "not json" },
        part("p5", { type: "text", text: "final words" }),
      ],
    });
    expect(read.unknownParts).toEqual([{ id: "p1", type: "hologram" }]);
    expect(read.toolCalls).toMatchObject([
      { callId: "c", status: "running", exit: null, input: {} },
    ]);
    // One item per problem found in a row (a row missing two fields gives two).
    const rows = new Set(read.drift.items.map((d) => `${d.subject}:${d.line}:${d.kind}`));
    expect([...rows].sort()).toEqual([
      "message:2:missing-field",
      "part/hologram:1:unknown-payload",
      "part/tool:2:missing-field",
      "part:4:missing-field",
    ]);
    expect(read.partCounts).toEqual({ hologram: 1, tool: 2, text: 1 });
    expect(read.finalText).toBe("final words");
  });

  it("finds the database at OPENCODE_DB, else under the XDG data home, else ~/.local/share", () => {
    expect(opencodeDbPath({ OPENCODE_DB: "/d.db", HOME: "/h" })).toBe("/d.db");
    expect(opencodeDbPath({ XDG_DATA_HOME: "/x", HOME: "/h" })).toBe("/x/opencode/opencode.db");
    expect(opencodeDbPath({ HOME: "/h" })).toBe("/h/.local/share/opencode/opencode.db");
    expect(opencodeDbPath({})).toBeNull();
  });

  it("finds Kilo's kilo.db under the XDG data home; OPENCODE_DB does not move it", () => {
    expect(opencodeDbPath({ OPENCODE_DB: "/d.db", HOME: "/h" }, "kilo")).toBe(
      "/h/.local/share/kilo/kilo.db",
    );
    expect(opencodeDbPath({ XDG_DATA_HOME: "/x", HOME: "/h" }, "kilo")).toBe("/x/kilo/kilo.db");
  });

  it("takes the model from the session's last assistant message when its row has no model column (Kilo 7.0.33)", () => {
    const message = (id: string, data: unknown) => ({
      id,
      session_id: "s",
      data: JSON.stringify(data),
    });
    const read = collect("kilo.db", [], {
      sessions: [{ id: "s", directory: "/w", title: "t", version: "7.0.33", permission: null }],
      messages: [
        message("m1", { role: "user" }),
        message("m2", { role: "assistant", providerID: "witness", modelID: "fake-model" }),
      ],
      parts: [],
    });
    expect(read.drift.items).toEqual([]);
    expect(read.sessions).toMatchObject([
      { id: "s", agent: null, model: { id: "fake-model", providerID: "witness" } },
    ]);
  });
});
