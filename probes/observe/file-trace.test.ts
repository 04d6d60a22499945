import { describe, expect, it } from "vitest";

import { CLAUDE_CODE_FACTS } from "../../clis/claude-code/facts.js";
import { marker } from "../../test/support/observations.js";
import { instructionLike, instructionReads } from "./file-reads.js";
import { openedForReading, traceWrap } from "./file-trace.js";

const TRACE = [
  '101 openat(AT_FDCWD, "/c/ws/CLAUDE.md", O_RDONLY|O_CLOEXEC) = 21',
  '101 openat(AT_FDCWD, "/c/ws", O_RDONLY|O_DIRECTORY|O_CLOEXEC) = 22',
  '102 open("/c/home/.claude/CLAUDE.md", O_RDONLY) = 3',
  '102 openat(AT_FDCWD, "/c/ws/out.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4',
  '102 openat(AT_FDCWD, "rel.md", O_RDONLY) = 5',
  '103 openat(AT_FDCWD, "/c/ws/sp\\303\\251 ce.md", O_RDONLY) = 6',
  '103 openat(AT_FDCWD, "/c/ws/CLAUDE.md", O_RDONLY) = 7',
].join("\n");

describe("a spawn's file trace", () => {
  it("lists the files opened for reading once each, not directories or writes, decoding strace's escapes", () => {
    const read = openedForReading(TRACE);
    expect(read.paths).toEqual(["/c/ws/CLAUDE.md", "/c/home/.claude/CLAUDE.md", "/c/ws/spé ce.md"]);
    expect(read.relative).toBe(1);
  });

  it("reads an open relative to the cwd or a directory as the absolute file strace -y names", () => {
    const trace = [
      '7 openat(AT_FDCWD</c/ws>, "AGENTS.md", O_RDONLY|O_CLOEXEC) = 3</c/ws/AGENTS.md>',
      '7 openat(5</c/home/.codex>, "AGENTS.md", O_RDONLY) = 6</c/home/.codex/AGENTS.md>',
      '7 openat(AT_FDCWD</c/ws>, "sub", O_RDONLY|O_DIRECTORY) = 4</c/ws/sub>',
    ].join("\n");
    expect(openedForReading(trace)).toMatchObject({
      paths: ["/c/ws/AGENTS.md", "/c/home/.codex/AGENTS.md"],
      relative: 0,
    });
  });

  it("names the program that opened each file: a process's last exec, else its parent's at the clone", () => {
    const trace = [
      '10 execve("/cache/codex/bin/codex", ["codex", "exec"], 0x7ffd /* 20 vars */) = 0',
      '10 openat(AT_FDCWD</c/ws>, "AGENTS.md", O_RDONLY) = 3</c/ws/AGENTS.md>',
      "10 clone3({flags=CLONE_VM, ...}, 88) = 11",
      '11 openat(AT_FDCWD</c/ws>, "x.md", O_RDONLY) = 4</c/ws/x.md>',
      "10 vfork() = 2 /* 12 in strace's PID NS */",
      '12 execve("/usr/bin/git", ["git", "status"], 0x1 /* 3 vars */) = 0',
      '12 openat(AT_FDCWD</c/ws>, "CLAUDE.md", O_RDONLY) = 5</c/ws/CLAUDE.md>',
      '13 execve("/nope/git", ["git"], 0x1 /* 3 vars */) = -1 ENOENT (No such file or directory)',
      "10 clone3({flags=CLONE_VM, ...}, 88 <unfinished ...>",
      "10 <... clone3 resumed>) = 14",
      '14 openat(AT_FDCWD</c/ws>, "GEMINI.md", O_RDONLY <unfinished ...>',
      "11 futex(0x1, FUTEX_WAKE, 1) = 0",
      "14 <... openat resumed>) = 6</c/ws/GEMINI.md>",
      '14 openat(AT_FDCWD</c/ws>, "out.md", O_WRONLY|O_CREAT <unfinished ...>',
      "14 <... openat resumed>) = 7</c/ws/out.md>",
      '10 openat(AT_FDCWD</c/ws>, "CLAUDE.md", O_RDONLY) = 8</c/ws/CLAUDE.md>',
      "10 clone3({flags=CLONE_VM|CLONE_VFORK}, 88) = 3 /* 15 in strace's PID NS */",
      '15 execve("/usr/bin/git", ["git", "status"], 0x1 /* 3 vars */ <unfinished ...>',
      "15 <... execve resumed>) = 0",
      '15 openat(AT_FDCWD</c/ws>, "AGENT.md", O_RDONLY) = 9</c/ws/AGENT.md>',
    ].join("\n");
    expect(openedForReading(trace).programs).toEqual({
      "/c/ws/AGENTS.md": "codex",
      "/c/ws/x.md": "codex",
      "/c/ws/CLAUDE.md": "git, codex",
      "/c/ws/GEMINI.md": "codex",
      "/c/ws/AGENT.md": "git",
    });
  });

  it("runs the command under strace with the trace written where witness says", () => {
    const wrapped = traceWrap("/usr/bin/strace", "/t/trace", "/bin/claude", ["-p", "hi"]);
    expect(wrapped.file).toBe("/usr/bin/strace");
    expect(wrapped.args.slice(-5)).toEqual(["/t/trace", "--", "/bin/claude", "-p", "hi"]);
    expect(wrapped.args).toContain("-f");
    expect(wrapped.args).toContain("-y");
  });
});

describe("the instruction-like reads", () => {
  it("knows the CLI's own names, and takes any markdown, settings, rules or skills file as instruction-like", () => {
    expect(instructionLike("ws/CLAUDE.md", CLAUDE_CODE_FACTS)).toEqual({ like: true, known: true });
    expect(instructionLike("ws/.claude/rules/style.md", CLAUDE_CODE_FACTS)).toEqual({
      like: true,
      known: true,
    });
    expect(instructionLike("ws/AGENTS.md", CLAUDE_CODE_FACTS)).toEqual({
      like: true,
      known: false,
    });
    expect(instructionLike("home/.claude/settings.json", CLAUDE_CODE_FACTS).like).toBe(true);
    expect(instructionLike("ws/skills/x/run.py", CLAUDE_CODE_FACTS).like).toBe(true);
    expect(instructionLike("ws/src/main.ts", CLAUDE_CODE_FACTS).like).toBe(false);
  });

  it("names the marker planted in each read file and whether it reached the model; a read with none planted says so", () => {
    const reads = instructionReads(
      [
        "/c/ws/CLAUDE.md",
        "/c/ws/AGENTS.md",
        "/c/home/.claude/CLAUDE.md",
        "/usr/lib/x.md",
        "/c/sentinels/s.md",
      ],
      "/c",
      [marker("WS", ["system"]), { ...marker("HOME", []), planted: ["home/.claude/CLAUDE.md"] }],
      CLAUDE_CODE_FACTS,
    );
    expect(reads).toEqual([
      { path: "ws/CLAUDE.md", known: true, marker: null, reachedModel: null },
      { path: "ws/AGENTS.md", known: false, marker: null, reachedModel: null },
      { path: "home/.claude/CLAUDE.md", known: true, marker: "HOME", reachedModel: false },
    ]);
  });

  it("reports a machine-wide file the CLI's facts name, though it is outside the cell", () => {
    const facts = { ...CLAUDE_CODE_FACTS, managedFiles: ["/etc/claude-code"] };
    const reads = instructionReads(["/etc/claude-code/managed-settings.json"], "/c", [], facts);
    expect(reads).toEqual([
      {
        path: "/etc/claude-code/managed-settings.json",
        known: false,
        marker: null,
        reachedModel: null,
      },
    ]);
  });
});
