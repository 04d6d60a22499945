// A killed witness leaves nothing running: the CLI it spawned and every process the CLI started
// die with it, SIGKILL included. The "CLI" is a fake planted in a vendor cache: a POSIX sh script
// that starts children (one in a session of its own) and waits.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { PINNED } from "../../clis/pinned.js";
import { runProcess } from "../../core/exec.js";
import { BUILT_CLI, builtCli, WITNESS_ROOT } from "../../test/support/built-cli.js";
import { tempDir } from "../../test/support/temp-dir.js";
import { prepareSandbox } from "./sandbox.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-contain-test-"));
});
afterEach(async () => {
  // Whatever a failing case left running is ended here, not left to the next test.
  for (const pid of running(token)) process.kill(pid, "SIGKILL");
  await cleanup();
});

let token = "";

// Processes whose command line holds `mark` (a unique sleep duration), zombies excluded.
function running(mark: string): number[] {
  if (mark === "") return [];
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
        return cmdline.includes(mark) && state !== "Z";
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitFor(check: () => boolean, ms = 15_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

// A fake CLI: three sleepers (one detached with setsid unless `noSetsid`), then it waits. It says
// where it started and that it did in `report` (default: its cell's HOME, the one directory a
// sandboxed CLI can write besides the rest of its cell).
function fakeCli(mark: string, options: { noSetsid?: boolean; report?: string } = {}): string {
  const report = options.report ?? '"$HOME"';
  return [
    "#!/bin/sh",
    `sleep ${mark}1 &`,
    `(sleep ${mark}2) &`,
    options.noSetsid ? "" : `setsid sleep ${mark}3 &`,
    `pwd > ${report}/cwd`,
    `touch ${report}/started`,
    "wait",
  ].join("\n");
}

// The cell HOME under `tmp` the fake reported into, once it has started.
function startedHome(tmp: string): string | null {
  for (const name of existsSync(tmp) ? readdirSync(tmp) : []) {
    if (!name.startsWith("witness-cell-")) continue;
    const home = join(tmp, name, "home");
    if (existsSync(join(home, "started"))) return home;
  }
  return null;
}

async function plantFakeClaude(cache: string, script: string): Promise<void> {
  const { version } = PINNED["claude-code"];
  const entry = join(cache, `claude-code@${version}`);
  await mkdir(join(entry, "bin"), { recursive: true });
  await writeFile(join(entry, "bin", "claude"), `${script}\n`);
  await chmod(join(entry, "bin", "claude"), 0o755);
  const meta = { name: "claude-code", version, pkg: "@anthropic-ai/claude-code" };
  await writeFile(
    join(entry, "witness-vendor.json"),
    JSON.stringify({
      ...meta,
      bin: "bin/claude",
      reported: version,
      installedAt: "now",
      standIn: "a fake Claude Code script that reports its children (containment test)",
    }),
  );
}

// `witness probe` on the fake, killed with `signal` once the fake has started its children.
async function killProbe(signal: NodeJS.Signals) {
  const cache = join(dir, "cache");
  const tmp = join(dir, "tmp");
  await mkdir(tmp);
  await plantFakeClaude(cache, fakeCli(token));
  const controller = new AbortController();
  // Read while the spawn runs: a SIGTERM'd witness removes the cell before it exits.
  let cell = "";
  const started = waitFor(() => startedHome(tmp) !== null, 30_000).then(async (ok) => {
    if (ok) cell = (await readFile(join(startedHome(tmp) ?? "", "cwd"), "utf8")).trim();
    controller.abort();
    return ok;
  });
  const result = await runProcess({
    file: process.execPath,
    args: [
      builtCli(),
      "probe",
      "--cli",
      `claude-code@${PINNED["claude-code"].version}`,
      "--",
      "-p",
      "hi",
    ],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", WITNESS_CACHE: cache, TMPDIR: tmp },
    cwd: dir,
    killSignal: signal,
    signal: controller.signal,
    timeoutMs: 60_000,
  });
  expect(await started, result.stderr).toBe(true);
  return { result, tmp, cell };
}

describe("a killed witness probe", () => {
  it("SIGKILL mid-spawn: the CLI and all its children die with it, and witness clean removes the cell", async () => {
    token = `98${process.pid}.`;
    const { result, tmp, cell } = await killProbe("SIGKILL");
    expect(result.signal).toBe("SIGKILL");
    expect(await waitFor(() => running(token).length === 0, 5000)).toBe(true);
    // The namespace's forwarder (its command line names its directory under this TMPDIR) ends
    // too: its control connection closed with witness.
    expect(await waitFor(() => running(tmp).length === 0, 5000)).toBe(true);
    // The cell stays (nothing runs after SIGKILL); `witness clean` removes it and says so.
    expect(existsSync(cell)).toBe(true);
    const clean = await runProcess({
      file: process.execPath,
      args: [BUILT_CLI, "clean"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: tmp },
      cwd: dir,
      timeoutMs: 30_000,
    });
    expect(clean.stderr).toBe("");
    expect(clean.exitCode).toBe(0);
    expect(existsSync(cell)).toBe(false);
    const root = join(tmp, relative(tmp, cell).split("/")[0] ?? "");
    expect(root).toMatch(/witness-cell-/);
    expect(clean.stdout).toContain(`removed ${root}`);
  });

  it("SIGTERM mid-spawn: exits 143, nothing runs and the cell is gone", async () => {
    token = `97${process.pid}.`;
    const { result, cell } = await killProbe("SIGTERM");
    expect(result.exitCode, result.stderr).toBe(143);
    expect(result.stderr).toContain("interrupted");
    expect(await waitFor(() => running(token).length === 0, 5000)).toBe(true);
    expect(await waitFor(() => !existsSync(cell), 5000)).toBe(true);
  });
});

describe("the process-group fallback", () => {
  it("ends the command's whole group when the process that started it dies of SIGKILL", async () => {
    token = `96${process.pid}.`;
    const fake = join(dir, "fake.sh");
    await writeFile(fake, `${fakeCli(token, { noSetsid: true, report: `'${dir}'` })}\n`);
    await chmod(fake, 0o755);
    // A node process that runs the fake through the exec seam in a process group of its own.
    const exec = join(WITNESS_ROOT, "dist", "core", "exec.js");
    const source = `
      const { runProcess } = await import(${JSON.stringify(exec)});
      await runProcess({ file: ${JSON.stringify(fake)}, args: [], env: { PATH: "/usr/bin:/bin" }, cwd: "/", processGroup: true });`;
    const controller = new AbortController();
    void waitFor(() => existsSync(join(dir, "started"))).then(() => controller.abort());
    const result = await runProcess({
      file: process.execPath,
      args: ["--input-type=module", "-e", source],
      env: {},
      cwd: dir,
      killSignal: "SIGKILL",
      signal: controller.signal,
      timeoutMs: 30_000,
    });
    expect(result.signal, result.stderr).toBe("SIGKILL");
    expect(await waitFor(() => running(token).length === 0, 5000)).toBe(true);
  });
});

describe("the PID namespace's launcher", () => {
  it("starts the cell's flush (sync -f <dir>) beside the command when asked, not otherwise", async (ctx) => {
    const { containment } = await import("./contain.js");
    const contained = await containment();
    if (!contained.flushes) {
      const reason = "this machine has no PID namespace launcher to flush from";
      console.warn(`skipped: ${reason}`);
      ctx.skip(reason);
    }
    // A `sync` first on PATH that records its arguments; the command waits until it has run.
    const bin = join(dir, "bin");
    await mkdir(bin);
    await writeFile(join(bin, "sync"), `#!/bin/sh\necho "$@" > '${dir}/synced'\n`);
    await chmod(join(bin, "sync"), 0o755);
    const waitForSync = (tries: number) =>
      `for i in $(seq ${tries}); do [ -s '${dir}/synced' ] && exit 0; sleep 0.05; done; exit 1`;
    // In the sandbox the command sees `dir` as its cell: the flush's record is read there.
    await chmod(dir, 0o755);
    const box =
      contained.kind === "sandbox"
        ? await prepareSandbox({
            bin: "/bin/sh",
            path: "/usr/bin:/bin",
            cell: { root: dir, cwd: dir },
            masks: [],
          })
        : null;
    const run = (tries: number, flushDir?: string) =>
      runProcess({
        ...contained.wrap("/bin/sh", ["-c", waitForSync(tries)], {
          ...(flushDir === undefined ? {} : { flushDir }),
          ...(box === null ? {} : { sandbox: box.launch }),
        }),
        env: { PATH: `${bin}:/usr/bin:/bin` },
        cwd: dir,
        timeoutMs: 30_000,
        reportPipe: contained.reports,
      });
    const flushed = await run(200, "/some/cell");
    expect(flushed.exitCode, flushed.stderr).toBe(0);
    expect((await readFile(join(dir, "synced"), "utf8")).trim()).toBe("-f /some/cell");
    await writeFile(join(dir, "synced"), "");
    expect((await run(20)).exitCode).toBe(1); // no flush asked: nothing ran sync in a second
    await box?.dispose();
  });
});
