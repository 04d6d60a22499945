import { createHash } from "node:crypto";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { run, tempDir } from "../test/support/temp-dir.js";
import { unmetPlans } from "./assertions.js";
import { installShims } from "./install.js";
import { readShimLog } from "./read-log.js";
import { BEYOND_PLAN_EXIT_CODE, LOG_FAILURE_EXIT_CODE } from "./shim-spec.js";

const FIXTURES = join(import.meta.dirname, "test/fixtures/pass-through");
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("shim behaviours", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  it("exits with the scripted code and prints the scripted stdout and stderr", async () => {
    const s = await installShims({
      dir,
      names: ["claude"],
      behaviour: {
        kind: "script",
        outcome: { exitCode: 3, stdout: "it's out\n", stderr: "and $err" },
      },
    });
    const before = Date.now();
    const result = await run(join(dir, "claude"), ["-p", "hi"]);
    const after = Date.now();
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([3, "it's out\n", "and $err"]);
    const [record] = (await readShimLog(s.log)).records;
    expect(record).toMatchObject({
      v: 1,
      shim: "claude",
      argv: ["-p", "hi"],
      mode: "script",
      exitCode: 3,
    });
    // The start time is the call's (a few ms of clock granularity either side).
    expect(record?.start).toBeGreaterThanOrEqual(before - 5);
    expect(record?.start).toBeLessThanOrEqual(after + 5);
    expect(record?.pid).toBeGreaterThan(1);
    expect(record?.ppid).toBe(process.pid);
  });

  it("prints outputs copied from files at install time", async () => {
    await writeFile(join(dir, "reply.json"), '{"type":"result"}\n');
    await writeFile(join(dir, "warn.txt"), "careful\n");
    await installShims({
      dir: join(dir, "bin"),
      names: ["codex"],
      behaviour: { kind: "script", outcome: { stdoutFile: "reply.json", stderrFile: "warn.txt" } },
      cwd: dir,
    });
    // Changing the source afterwards does not change what the shim prints.
    await writeFile(join(dir, "reply.json"), "changed\n");
    const result = await run(join(dir, "bin", "codex"), []);
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([
      0,
      '{"type":"result"}\n',
      "careful\n",
    ]);
  });

  it("follows a per-call plan and fails clearly on a call beyond it", async () => {
    const s = await installShims({
      dir,
      names: ["claude"],
      behaviour: { kind: "plan", calls: [{ stdout: "first" }, { exitCode: 2, stdout: "second" }] },
    });
    const shim = join(dir, "claude");
    const outs = [];
    for (const arg of ["a", "b", "c"]) outs.push(await run(shim, [arg]));
    expect(outs.map((r) => [r.exitCode, r.stdout])).toEqual([
      [0, "first"],
      [2, "second"],
      [BEYOND_PLAN_EXIT_CODE, ""],
    ]);
    expect(outs[2]?.stderr).toMatch(/call 3 arrived beyond the plan of 2 call/);
    const log = await readShimLog(s.log);
    expect(log.records.map((r) => [r.call, r.planLength, r.beyondPlan ?? false])).toEqual([
      [1, 2, false],
      [2, 2, false],
      [3, 2, true],
    ]);
    expect(unmetPlans(log.records)).toEqual([
      'claude: call 3 arrived beyond the plan of 2, argv ["c"]',
    ]);
  });

  it("starts a plan again from call 1 when reinstalled", async () => {
    const behaviour = { kind: "plan" as const, calls: [{ stdout: "only" }] };
    await installShims({ dir, names: ["claude"], behaviour });
    await run(join(dir, "claude"), []);
    await installShims({ dir, names: ["claude"], behaviour });
    expect((await run(join(dir, "claude"), [])).stdout).toBe("only");
  });

  it("records stdin's size and sha256 digest", async () => {
    const s = await installShims({ dir, names: ["claude"] });
    const inputs = [
      "prompt with ünïcode\nand two lines\n",
      "no newline at the end",
      "nul\0bytes\0\n\0",
      "\n\n",
      "",
    ];
    for (const input of inputs) await run(join(dir, "claude"), [], { input });
    const log = await readShimLog(s.log);
    expect(log.records.map((r) => r.stdin)).toEqual(
      inputs.map((input) => ({ bytes: Buffer.byteLength(input), sha256: sha256(input) })),
    );
  });

  it("falls back to date for the start time when the boot has changed since install", async () => {
    const s = await installShims({ dir, names: ["claude"] });
    const file = join(dir, "claude");
    const script = await readFile(file, "utf8");
    expect(script).toMatch(/^__witness_boot_id='[0-9a-f-]+'$/m);
    await writeFile(
      file,
      script.replace(/^__witness_boot_id='[^']*'$/m, "__witness_boot_id='another-boot'"),
    );
    const before = Date.now();
    await run(file, []);
    const [record] = (await readShimLog(s.log)).records;
    expect(record?.start).toBeGreaterThanOrEqual(before - 5);
    expect(record?.start).toBeLessThanOrEqual(Date.now() + 5);
  });

  it("leaves stdin alone when told to ignore it", async () => {
    const s = await installShims({ dir, names: ["claude"], stdin: "ignore" });
    await run(join(dir, "claude"), [], { input: "unread" });
    expect((await readShimLog(s.log)).records[0]?.stdin).toBeNull();
  });

  it("records the selected variables and redacts secrets keeping their length", async () => {
    const s = await installShims({ dir, names: ["claude"] });
    await run(join(dir, "claude"), [], {
      env: {
        HOME: "/home/x",
        ANTHROPIC_API_KEY: "sk-ant-0123456789",
        ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
        CLAUDE_CONFIG_DIR: "/c",
        OPENAI_API_KEY: "sk-é",
        UNRELATED: "x",
      },
    });
    expect((await readShimLog(s.log)).records[0]?.env).toEqual({
      HOME: "/home/x",
      ANTHROPIC_API_KEY: "<redacted:17>",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
      CLAUDE_CONFIG_DIR: "/c",
      OPENAI_API_KEY: "<redacted:5>",
    });
  });

  it("records only the variables named by custom selectors, LC_ALL as the caller set it", async () => {
    const s = await installShims({ dir, names: ["claude"], env: ["MY_*", "LC_ALL"] });
    await run(join(dir, "claude"), [], {
      env: { MY_A: "1", MY_TOKEN: "abc", LC_ALL: "C.UTF-8", HOME: "/h" },
    });
    await run(join(dir, "claude"), [], { env: { MY_B: "line\nbreak" } });
    const log = await readShimLog(s.log);
    expect(log.records.map((r) => r.env)).toEqual([
      { MY_A: "1", MY_TOKEN: "<redacted:3>", LC_ALL: "C.UTF-8" },
      { MY_B: "line\nbreak" },
    ]);
  });
});

describe("a log that cannot be written", () => {
  it("makes a scripted call fail loudly instead of passing unrecorded", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const s = await installShims({
        dir,
        names: ["claude"],
        behaviour: { kind: "script", outcome: { stdout: "x" } },
      });
      await rm(s.log);
      await mkdir(s.log);
      const result = await run(join(dir, "claude"), []);
      expect(result.exitCode).toBe(LOG_FAILURE_EXIT_CODE);
      expect(result.stderr).toMatch(/cannot append to the log .*writable/);
      expect(result.stdout).toBe("");
    } finally {
      await cleanup();
    }
  });
});

describe("pass-through", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  async function realClaude(): Promise<string> {
    await mkdir(join(dir, "real"));
    await copyFile(join(FIXTURES, "echo-args.sh"), join(dir, "real", "claude"));
    return join(dir, "real");
  }

  it("runs the real binary found on PATH outside the shim dir, with argv, stdin and exit code intact", async () => {
    const real = await realClaude();
    const shims = join(dir, "shims");
    const path = `${shims}:${real}:${process.env.PATH ?? ""}`;
    const s = await installShims({
      dir: shims,
      names: ["claude"],
      behaviour: { kind: "pass-through" },
      path,
    });
    expect(s.shims[0]?.target).toBe(join(real, "claude"));
    const result = await run(join(shims, "claude"), ["a b", ""], {
      env: { PATH: path, ECHO_ARGS_EXIT: "42" },
      input: "streamed stdin",
    });
    expect(result.exitCode).toBe(42);
    expect(result.stdout).toBe("a b\0\0STDIN:streamed stdin");
    const [record] = (await readShimLog(s.log)).records;
    expect(record).toMatchObject({
      mode: "pass-through",
      target: join(real, "claude"),
      argv: ["a b", ""],
      exitCode: 42,
      signal: null,
      stdin: { bytes: 14, sha256: sha256("streamed stdin") },
    });
  });

  it("never passes through to itself or to another witness shim", async () => {
    const real = await realClaude();
    const first = join(dir, "first");
    await installShims({
      dir: first,
      names: ["claude"],
      behaviour: { kind: "script", outcome: {} },
    });
    const shims = join(dir, "shims");
    // PATH lists the shim dir twice and another shim dir before the real binary.
    const path = `${shims}:${first}:${shims}:${real}:${process.env.PATH ?? ""}`;
    const s = await installShims({
      dir: shims,
      names: ["claude"],
      behaviour: { kind: "pass-through" },
      path,
    });
    expect(s.shims[0]?.target).toBe(join(real, "claude"));
  });

  it.each([
    ["a missing file", "missing", /is not an executable file; check --target/],
    [
      "a witness shim",
      "shims/claude",
      /is a witness shim itself; point --target at the real binary/,
    ],
  ])("refuses --target naming %s", async (_label, target, message) => {
    await installShims({ dir: join(dir, "shims"), names: ["claude"] });
    const attempt = installShims({
      dir: join(dir, "other"),
      names: ["claude"],
      behaviour: { kind: "pass-through", target: join(dir, target) },
    });
    await expect(attempt).rejects.toThrow(message);
  });

  it("refuses to install when no real binary can be found, saying what to do", async () => {
    const attempt = installShims({
      dir,
      names: ["no-such-cli-xyz"],
      behaviour: { kind: "pass-through" },
      path: "/usr/bin:/bin",
    });
    await expect(attempt).rejects.toThrow(/no real "no-such-cli-xyz" on PATH.*--target/);
  });

  it("tells an exit code of 143 from death by SIGTERM", async () => {
    const s = await installShims({ dir, names: ["sh"], behaviour: { kind: "pass-through" } });
    const result = await run(join(dir, "sh"), ["-c", "exit 143"]);
    expect([result.exitCode, result.signal]).toEqual([143, null]);
    expect((await readShimLog(s.log)).records[0]).toMatchObject({ exitCode: 143, signal: null });
  });

  it("hands a closed stdin on closed, in pass-through and scripted mode alike", async () => {
    const real = await realClaude();
    const shims = join(dir, "shims");
    const path = `${shims}:${real}:${process.env.PATH ?? ""}`;
    const s = await installShims({
      dir: shims,
      names: ["claude"],
      behaviour: { kind: "pass-through" },
      path,
    });
    await installShims({ dir: shims, names: ["codex"] });
    const result = await run("/bin/sh", ["-c", "claude x <&-; codex y <&-"], {
      env: { PATH: path },
    });
    expect(result.exitCode).toBe(0);
    // The stand-in's `cat` found no stdin at all, as it would without the shim.
    expect(result.stderr).toMatch(/cat: .*Bad file descriptor/);
    const log = await readShimLog(s.log);
    expect(log.records.map((r) => [r.shim, r.stdin])).toEqual([
      ["claude", null],
      ["codex", null],
    ]);
  });

  it("starts the real binary with the same ignored signals as a direct launch would", async () => {
    const target = join(FIXTURES, "sig-ignored.sh");
    await installShims({ dir, names: ["claude"], behaviour: { kind: "pass-through", target } });
    // In the foreground nothing is ignored; a background job of sh ignores SIGINT and SIGQUIT.
    for (const launch of ["$0", "$0 & wait"]) {
      const direct = await run("/bin/sh", ["-c", launch, target]);
      const shimmed = await run("/bin/sh", ["-c", launch, join(dir, "claude")]);
      expect(direct.stdout).toMatch(/^SigIgn:/);
      expect(shimmed.stdout, launch).toBe(direct.stdout);
    }
  });

  it("forwards SIGINT sent to the shim alone to the real binary", async (ctx) => {
    const probe = await run("/bin/sh", ["-c", "env --default-signal=INT true"]);
    if (probe.exitCode !== 0) ctx.skip("this env has no --default-signal (GNU coreutils 8.31+)");
    const s = await installShims({
      dir,
      names: ["claude"],
      behaviour: { kind: "pass-through", target: join(FIXTURES, "sleepy.sh") },
    });
    // env --default-signal undoes the SIGINT-ignore of sh's background job, as a parent process would.
    const harness = `env --default-signal=INT "$0" & pid=$!; sleep 0.5; kill -INT $pid; wait $pid; echo "status $?"`;
    const result = await run("/bin/sh", ["-c", harness, join(dir, "claude")]);
    // The target (a 30 s sleep) died of the SIGINT: it would otherwise have ended with status 0.
    expect(result.stdout).toBe("started\nstatus 130\n");
    expect((await readShimLog(s.log)).records[0]).toMatchObject({ exitCode: 130, signal: 2 });
  });

  it("forwards SIGTERM to the real binary and dies of the same signal", async () => {
    const s = await installShims({
      dir,
      names: ["claude"],
      behaviour: { kind: "pass-through", target: join(FIXTURES, "sleepy.sh") },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 700);
    const result = await run(join(dir, "claude"), [], { signal: controller.signal });
    expect(result.signal).toBe("SIGTERM");
    const [record] = (await readShimLog(s.log)).records;
    expect(record).toMatchObject({ exitCode: 143, signal: 15 });
  });
});

describe("bad install input", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  it.each([
    [["bin/claude"], /contains a slash/],
    [[""], /is empty/],
    [[], /at least one shim/],
  ])("refuses the names %j", async (names, message) => {
    await expect(installShims({ dir, names })).rejects.toThrow(message);
  });

  it("refuses a directory it cannot write to", async () => {
    await writeFile(join(dir, "file"), "");
    await expect(
      installShims({ dir: join(dir, "file", "bin"), names: ["claude"] }),
    ).rejects.toThrow(/cannot write to the shim directory .*choose a directory/);
  });

  it("refuses an environment selector that is not a name or a prefix", async () => {
    await expect(installShims({ dir, names: ["claude"], env: ["A-B"] })).rejects.toThrow(
      /--env "A-B"/,
    );
  });
});
