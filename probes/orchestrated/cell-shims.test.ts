// The cell shim on a stand-in CLI (a node one-liner): a spawn number per call, witness's plumbing
// over the caller's environment, stdin, stdout and stderr passed through and recorded, the exit code kept,
// and calls past the bound refused.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { run, tempDir } from "../../test/support/temp-dir.js";
import { ARGV_SLOT, SPAWN_SLOT, writeCellShims } from "./cell-shims.js";
import { readSpawnRecords } from "./spawn-records.js";

// The stand-in CLI: echoes stdin upper-cased, then its argv and two variables, says its exit code
// on stderr and exits with argv[0].
const STAND_IN = `let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{process.stderr.write("exiting "+process.argv[1]);process.stdout.write(t.toUpperCase()+JSON.stringify({argv:process.argv.slice(1),url:process.env.ANTHROPIC_BASE_URL,own:process.env.OWN??null}));process.exit(Number(process.argv[1]))});`;

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

async function shims(maxSpawns: number, standIn = STAND_IN) {
  const temp = await tempDir("witness-cell-shims-");
  cleanup = temp.cleanup;
  const written = await writeCellShims({
    root: temp.dir,
    node: process.execPath,
    targets: [
      {
        cli: "claude-code",
        file: process.execPath,
        args: ["-e", standIn, "+plumbing", ARGV_SLOT],
        head: 2,
        env: { ANTHROPIC_BASE_URL: `http://fake/s/${SPAWN_SLOT}` },
        path: "/usr/bin:/bin",
      },
    ],
    maxSpawns,
  });
  return { ...written, bin: written.paths["claude-code"] ?? "" };
}

describe("the cell shim", () => {
  it("numbers each spawn, sets its route over the caller's, passes stdin and stdout and the exit code", async () => {
    const s = await shims(4);
    const env = { ANTHROPIC_BASE_URL: "https://api.example", OWN: "kept" };
    const first = await run(s.bin, ["3", "two words"], { env, input: "hello" });
    const second = await run(s.bin, ["0"], { env, input: "" });
    expect(first.exitCode).toBe(3);
    expect(first.stdout).toBe(
      `HELLO${JSON.stringify({ argv: ["3", "two words", "+plumbing"], url: "http://fake/s/1", own: "kept" })}`,
    );
    expect(JSON.parse(second.stdout)).toMatchObject({ url: "http://fake/s/2" });
    const { spawns, refused } = readSpawnRecords(s.spawnsDir);
    expect(refused).toBe(0);
    expect(spawns.map((r) => r.spawn)).toEqual([1, 2]);
    const one = spawns[0];
    expect(one?.call).toMatchObject({
      cli: "claude-code",
      argv: ["3", "two words"],
      overridden: ["ANTHROPIC_BASE_URL"],
    });
    expect(one?.call?.env.ANTHROPIC_BASE_URL).toBe("https://api.example");
    expect(one?.stdin).toBe("hello");
    expect(one?.stdout).toBe(first.stdout);
    expect(first.stderr).toBe("exiting 3");
    expect(one?.stderr).toBe("exiting 3");
    expect(one?.exit).toMatchObject({ exitCode: 3, signal: null, stdinBytes: 5, stderrBytes: 9 });
  });

  it("records the CLI's CPU, wall time and peak resident set, and its own CPU apart", async () => {
    // Holds 64 MB and burns CPU for about 300 ms, then waits: longer than the shim's 50 ms poll.
    const hold = `const b=Buffer.alloc(64*2**20,1);const u=()=>{const c=process.cpuUsage();return (c.user+c.system)/1000};const t=u()+300;while(u()<t);setTimeout(()=>process.exit(b[0]-1),200);`;
    const s = await shims(4, hold);
    const ran = await run(s.bin, [], { input: "" });
    expect(ran.exitCode).toBe(0);
    const use = readSpawnRecords(s.spawnsDir).spawns[0]?.exit?.use;
    const cpuMs = ((use?.userTicks ?? 0) + (use?.systemTicks ?? 0)) * 10;
    expect(cpuMs).toBeGreaterThanOrEqual(250);
    expect(use?.wallMs).toBeGreaterThanOrEqual(450);
    expect(use?.hwmKb).toBeGreaterThan(64 * 1024);
    // The shim's own Node start-up and streaming, not the CLI's burn.
    expect(use?.shimCpuMs).toBeGreaterThan(0);
    expect(use?.shimCpuMs).toBeLessThan(cpuMs);
  });

  it("puts the driver's flags after the caller's argv, or before it when the argv holds --", async () => {
    const s = await shims(4);
    const after = await run(s.bin, ["0", "x"], { input: "" });
    const dashed = await run(s.bin, ["0", "--", "x"], { input: "" });
    expect(JSON.parse(after.stdout)).toMatchObject({ argv: ["0", "x", "+plumbing"] });
    expect(JSON.parse(dashed.stdout)).toMatchObject({ argv: ["+plumbing", "0", "--", "x"] });
  });

  it("refuses a spawn past the bound with exit 97, and records it", async () => {
    const s = await shims(1);
    expect((await run(s.bin, ["0"], { input: "" })).exitCode).toBe(0);
    const past = await run(s.bin, ["0"], { input: "" });
    expect(past.exitCode).toBe(97);
    expect(past.stderr).toContain("more than 1 spawns of claude-code");
    expect(readSpawnRecords(s.spawnsDir)).toMatchObject({ refused: 1 });
    expect(readFileSync(join(s.dir, ".claude-code.json"), "utf8")).toContain('"maxSpawns":1');
  });
});
