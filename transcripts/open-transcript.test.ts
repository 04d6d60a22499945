import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { InputError } from "../core/errors.js";
import { homeWith, recorded, removeHomes } from "../test/support/recorded-transcripts.js";
import { openTranscript, sniffTranscript } from "./open-transcript.js";
import { renderSessionReport } from "./report-text.js";

const dir = await mkdtemp(join(tmpdir(), "witness-open-"));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await removeHomes();
});

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
  return path;
}

async function inputError(target: string): Promise<string> {
  const error = await openTranscript(target).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).message;
}

const runs = [...recorded("claude-code"), ...recorded("codex"), ...recorded("copilot")];

describe("openTranscript on the recorded fixtures", () => {
  for (const run of runs) {
    it(`${run.name}: the file and its fixture folder give the same report, calls as the truth has them`, async () => {
      const report = await openTranscript(run.file);
      expect(report.cli).toBe(run.cli);
      expect(report.sessionId).toBe(run.truth.sessionId);
      expect(report.calls.map((c) => [c.id, c.outcome])).toEqual(
        run.truth.calls.map((c) => [c.id, c.outcome]),
      );
      expect(report.warnings).toEqual([]);
      // What `witness transcript --json` prints: plain JSON, nothing lost on the way.
      expect(JSON.parse(JSON.stringify(report))).toEqual(report);
      expect((await openTranscript(run.dir)).file).toBe(run.file);
    });
  }

  for (const run of runs.filter((r) => r.sidechains.length > 0)) {
    it(`${run.name}: in a HOME the main session is read, its sidechains as children`, async () => {
      const report = await openTranscript(await homeWith(run));
      expect(report.file.endsWith(run.meta.sessionPath)).toBe(true);
      expect(report.sidechains).toHaveLength(run.sidechains.length);
      expect(report.sidechains.every((s) => s.sessionId === report.sessionId)).toBe(true);
    });
  }
});

// Each chat fixture's calls as its script made them and the cell saw them end (COMMAND.md beside it).
const chats = [
  {
    name: "gemini-0.61.0-default",
    cli: "gemini",
    calls: [
      ["run_shell_command", "no-such-tool", null],
      ["write_file", "no-such-tool", null],
    ],
  },
  {
    name: "gemini-0.61.0-yolo",
    cli: "gemini",
    calls: [
      ["run_shell_command", "ran", null],
      ["write_file", "ran", null],
    ],
  },
  {
    name: "gemini-0.61.0-yolo-errors",
    cli: "gemini",
    calls: [
      ["run_shell_command", "error", 3],
      ["write_file", "denied", null],
      ["no_such_tool", "no-such-tool", null],
    ],
  },
  {
    name: "qwen-0.24.4-default",
    cli: "qwen",
    calls: [
      ["run_shell_command", "denied", null],
      ["write_file", "denied", null],
    ],
  },
  {
    name: "qwen-0.24.4-yolo-errors",
    cli: "qwen",
    calls: [
      ["run_shell_command", "ran", 0],
      ["run_shell_command", "error", 3],
      ["no_such_tool", "no-such-tool", null],
    ],
  },
] as const;

describe("openTranscript on Gemini CLI and Qwen Code chats", () => {
  for (const chat of chats) {
    it(`${chat.name}: read as ${chat.cli}, each call with the outcome its script met`, async () => {
      const fixture = join(import.meta.dirname, "test", "fixtures", chat.name);
      const report = await openTranscript(fixture);
      expect(report.cli).toBe(chat.cli);
      expect(report.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(report.models).toEqual(["witness-fake-model"]);
      expect(report.finalText).toBe("done");
      expect(report.calls.map((c) => [c.name, c.outcome, c.exitCode])).toEqual(chat.calls);
      expect(report.warnings).toEqual([]);
    });
  }
});

// pi and opencode fixtures: meta.json holds each call as the cell observed it when it was recorded.
const sessions = [
  { name: "pi-0.73.1-tools", cli: "pi" },
  { name: "opencode-1.18.33-auto", cli: "opencode" },
  { name: "opencode-1.18.33-default", cli: "opencode" },
] as const;

describe("openTranscript on pi sessions and opencode databases", () => {
  for (const fixture of sessions) {
    it(`${fixture.name}: read as ${fixture.cli}, each call ending as the cell saw it`, async () => {
      const dir = join(import.meta.dirname, "test", "fixtures", fixture.name);
      const meta = JSON.parse(await readFile(join(dir, "meta.json"), "utf8")) as {
        cwd: string;
        toolCalls: { id: string; outcome: string }[];
      };
      const report = await openTranscript(dir);
      expect(report.cli).toBe(fixture.cli);
      expect(report.cwd).toBe(meta.cwd);
      expect(report.calls.map((c) => [c.id, c.outcome])).toEqual(
        meta.toolCalls.map((c) => [c.id, c.outcome]),
      );
      expect(report.warnings).toEqual([]);
      expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    });
  }
});

describe("openTranscript on Kilo databases", () => {
  for (const name of ["kilo-7.0.33-auto", "kilo-7.7.7-default"]) {
    it(`${name}: read as kilo (by its file name), each call ending as the cell saw it`, async () => {
      const dir = join(import.meta.dirname, "test", "fixtures", name);
      const truth = JSON.parse(await readFile(join(dir, "truth.json"), "utf8")) as {
        calls: { id: string; outcome: string }[];
      };
      const report = await openTranscript(join(dir, "kilo.db"));
      expect(report.cli).toBe("kilo");
      expect(report.model).toBe("witness/fake-model");
      expect(report.calls.map((c) => [c.id, c.outcome])).toEqual(
        truth.calls.map((c) => [c.id, c.outcome]),
      );
      expect(report.warnings).toEqual([]);
    });
  }
});

describe("openTranscript on Kimi wire files", () => {
  for (const name of ["kimi-0.20.0-prompt-mode", "kimi-2.1.0-prompt-mode"]) {
    it(`${name}: found under its home, read as kimi, each call ending as the cell saw it`, async () => {
      const dir = join(import.meta.dirname, "test", "fixtures", name);
      const truth = JSON.parse(await readFile(join(dir, "truth.json"), "utf8")) as {
        calls: { id: string; outcome: string }[];
      };
      const report = await openTranscript(join(dir, "wire.jsonl"));
      expect(report.cli).toBe("kimi");
      expect(report.permissionModes.map((m) => m.mode)).toEqual(["auto"]);
      // 2.1.0 records the call of a tool it lacks first (it fails before the others start).
      const byId = (a: string[], b: string[]) => (a[0] ?? "").localeCompare(b[0] ?? "");
      expect(report.calls.map((c) => [c.id, c.outcome]).sort(byId)).toEqual(
        truth.calls.map((c) => [c.id, c.outcome]).sort(byId),
      );
      expect(report.warnings).toEqual([]);
    });
  }
});

describe("openTranscript on Cline 3.x session documents", () => {
  for (const run of recorded("cline")) {
    it(`${run.name}: found from its HOME, read as cline, each call ending as the cell saw it`, async () => {
      const home = await homeWith(run);
      const report = await openTranscript(home);
      expect(report.cli).toBe("cline");
      expect(report.file).toBe(join(home, run.meta.sessionPath));
      expect(report.calls.map((c) => [c.id, c.outcome])).toEqual(
        run.truth.calls.map((c) => [c.id, c.outcome]),
      );
      const failed = run.truth.calls.filter((c) => c.outcome === "error");
      expect(report.calls.filter((c) => c.outcome === "error").map((c) => c.exitCode)).toEqual(
        failed.map((c) => c.exitCode),
      );
      expect(report.finalText).toBe(run.truth.finalText);
      expect(report.warnings).toEqual([]);
      // The fixture file itself, named as the recorder named it, reads the same.
      expect((await openTranscript(run.file)).calls).toEqual(report.calls);
    });
  }

  it("refuses a messages.json that is no Cline session, naming the file", async () => {
    const path = await file("x.messages.json", '{"name":"x"}\n');
    expect(await inputError(path)).toMatch(
      /x\.messages\.json: a JSON document without a messages list: not a Cline session \(keys: name\)$/,
    );
  });
});

describe("openTranscript on bad input", () => {
  it("reads a file whose last line was cut off, and names that line", async () => {
    const path = await file(
      "cut.jsonl",
      '{"type":"session_meta","payload":{"id":"t"}}\n{"type":"event_msg","pay',
    );
    const report = await openTranscript(path);
    expect(report.cli).toBe("codex");
    expect(report.warnings).toEqual([
      expect.stringMatching(new RegExp(`^${path}:2: the last line is not complete JSON`)) as string,
    ]);
  });

  it("reads past a garbage line in the middle, and names it", async () => {
    const lines = [
      '{"type":"user","sessionId":"s","message":{"content":"hi"}}',
      "garbage",
      '{"type":"user","sessionId":"s","message":{"content":"again"}}',
    ];
    const report = await openTranscript(await file("garbage.jsonl", lines.join("\n")));
    expect(report.cli).toBe("claude-code");
    expect(report.lineCount).toBe(3);
    expect(report.warnings).toEqual([
      expect.stringMatching(/garbage\.jsonl:2: not JSON: /) as string,
    ]);
  });

  it("refuses an SQLite file that is no opencode database, naming it", async () => {
    const path = await file("broken.db", "SQLite format 3\0garbage");
    expect(await inputError(path)).toMatch(
      new RegExp(`^${path}: an SQLite file that is no opencode database \\(.+\\)$`),
    );
  });

  it("refuses an empty file, naming it", async () => {
    const path = await file("empty.jsonl", "");
    expect(await inputError(path)).toBe(`${path}: empty: the file holds no record`);
  });

  it("refuses a file that is not JSONL, naming the line", async () => {
    const path = await file("notes.txt", "# notes\nnothing here\n");
    expect(await inputError(path)).toBe(
      `${path}: line 1: not JSON ("# notes"): not a JSONL transcript`,
    );
  });

  it("refuses JSON lines that no known CLI writes", async () => {
    const path = await file("other.jsonl", '{"name":"x","version":"1"}\n');
    expect(await inputError(path)).toMatch(
      /line 1: a JSON record of no session format witness reads \(Claude Code, Codex, Gemini CLI, Qwen Code, pi, GitHub Copilot CLI, Kimi Code; Cline's \*\.messages\.json\) \(keys: name, version\)$/,
    );
  });

  it("refuses a directory with no session in it, and a path that does not exist", async () => {
    const empty = join(dir, "nothing");
    await mkdir(join(empty, "deeper"), { recursive: true });
    await writeFile(join(empty, "deeper", "x.jsonl"), '{"a":1}\n');
    expect(await inputError(empty)).toBe(
      `${empty}: no session of a CLI witness reads here (none of its 1 candidate file(s) is one)`,
    );
    expect(await inputError(join(dir, "absent"))).toMatch(
      /absent: cannot read the transcript \(ENOENT\)$/,
    );
  });

  it("tells Claude Code from Codex by the first records, and a sidechain from a main session", async () => {
    const side = await file(
      "side.jsonl",
      '{"type":"user","sessionId":"s","isSidechain":true,"message":{"content":"Warmup"}}\n',
    );
    expect(await sniffTranscript(side)).toEqual({ kind: "claude-code", sidechain: true });
  });
});

describe("renderSessionReport", () => {
  it("prints the session, the modes per turn, each call and the warnings", async () => {
    const [run] = runs.filter((r) => r.cli === "claude-code" && r.scenario === "denied");
    if (run === undefined) return;
    const copy = join(dir, "render.jsonl");
    await copyFile(run.file, copy);
    const text = renderSessionReport(await openTranscript(copy)).join("\n");
    expect(text).toContain(`  session: ${run.truth.sessionId}`);
    expect(text).toMatch(/1\. line \d+ Write file_path: .*\n {7}→ denied/);
    expect(text).toContain("warnings: none");
  });
});
