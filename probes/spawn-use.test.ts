// witness's own cost per spawn: phases metered, CPU shared among the spawns running at once, and the
// run's account taking the CLIs' measured use out of the process's whole CPU.
import { describe, expect, it } from "vitest";

import { accountLines, runAccount } from "./accounting.js";
import { addSpawnAccount, spawnLedger, startSpawnMeter } from "./spawn-use.js";

// Spends `ms` of this process's CPU (not wall time: the machine may be busy).
function burn(ms: number): void {
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const until = cpu() + ms;
  while (cpu() < until) {
    // busy
  }
}

describe("spawn meter", () => {
  it("puts the CPU of each phase in that phase", () => {
    const meter = startSpawnMeter();
    burn(5);
    meter.phase("observe");
    burn(60);
    const use = meter.end();
    const observe = use.phases.find((p) => p.phase === "observe");
    const prepare = use.phases.find((p) => p.phase === "prepare");
    expect(observe?.cpuMs).toBeGreaterThanOrEqual(40);
    // Process CPU counts every thread (GC ones too), so the wall time can be a little under it.
    expect(observe?.wallMs).toBeGreaterThan(prepare?.wallMs ?? 0);
    expect(prepare?.cpuMs ?? 0).toBeLessThan(observe?.cpuMs ?? 0);
    expect(use.concurrent).toBe(1);
  });

  it("shares the CPU of a stretch equally among the spawns running in it", () => {
    const a = startSpawnMeter();
    const b = startSpawnMeter();
    burn(80);
    const useA = a.end();
    const useB = b.end();
    expect(useA.concurrent).toBe(2);
    expect(useA.cpuMs).toBeGreaterThanOrEqual(30);
    expect(useA.cpuMs).toBeLessThan(70);
    expect(Math.abs(useA.cpuMs - useB.cpuMs)).toBeLessThan(15);
  });
});

describe("runAccount", () => {
  it("counts the CLIs' measured CPU as theirs and the rest of the process's as witness's", () => {
    const meter = startSpawnMeter();
    const witnessUse = meter.end();
    const before = spawnLedger().spawns.length;
    const cliUse = {
      ...{ userMs: 400, systemMs: 100, cpuMs: 500, wallMs: 700 },
      ...{ resolutionMs: 10, source: "pid-namespace-init" as const },
    };
    addSpawnAccount({ cli: "codex@9.9.9", cliUse, witnessUse });
    addSpawnAccount({ cli: "codex@9.9.9", cliUse: null, witnessUse });
    const account = runAccount();
    const { process: total } = spawnLedger();
    expect(account?.spawns).toBe(before + 2);
    expect(account?.unmeasured).toBe(before + 1);
    expect(account?.cliCpuMs).toBe(500);
    const children = total.childrenMs ?? 0;
    expect(account?.witnessCpuMs).toBeCloseTo(total.cpuMs + children - 500, -1);
    const codex = account?.perCli.find((c) => c.cli === "codex@9.9.9");
    expect(codex).toMatchObject({ spawns: 2, measured: 1, cliMeanCpuMs: 500, cliMeanWallMs: 700 });
  });

  it("states the largest peak memory of a CLI's spawns, where one was measured", () => {
    const witnessUse = startSpawnMeter().end();
    const use = (mb: number) => ({
      ...{ userMs: 10, systemMs: 0, cpuMs: 10, wallMs: 20, resolutionMs: 10 },
      source: "pid-namespace-init" as const,
      peakMemory: { bytes: mb * 2 ** 20, source: "cgroup-v2-memory.peak" as const },
    });
    addSpawnAccount({ cli: "pi@9.9.9", cliUse: use(180), witnessUse });
    addSpawnAccount({ cli: "pi@9.9.9", cliUse: use(240), witnessUse });
    const account = runAccount();
    expect(account?.perCli.find((c) => c.cli === "pi@9.9.9")?.cliPeakMemoryMb).toBe(240);
    const lines = accountLines(account as NonNullable<typeof account>);
    expect(lines.find((l) => l.includes("pi@9.9.9"))).toContain("peak memory at most 240 MB");
    expect(lines[0]).not.toContain("cell shims");
    expect(account?.perCli.find((c) => c.cli === "codex@9.9.9")?.cliPeakMemoryMb).toBeNull();
  });

  it("counts an orchestrator launch's CLI processes as the CLI's and its own CPU apart", () => {
    const witnessUse = startSpawnMeter().end();
    const before = runAccount();
    const clis = [300, 200].map((cpuMs) => ({
      ...{ userMs: cpuMs, systemMs: 0, cpuMs, wallMs: 900, resolutionMs: 10 },
      source: "cell-shim" as const,
      peakMemory: { bytes: 2 ** 30, source: "cli-process-vmhwm-polled" as const },
    }));
    addSpawnAccount({
      cli: "claude-code@9.9.9",
      cliUse: null,
      witnessUse,
      orchestrator: { ownCpuMs: 450, spawns: clis },
    });
    const account = runAccount();
    expect((account?.cliCpuMs ?? 0) - (before?.cliCpuMs ?? 0)).toBe(500);
    expect((account?.orchestratorCpuMs ?? 0) - (before?.orchestratorCpuMs ?? 0)).toBe(450);
    expect(account?.unmeasured).toBe(before?.unmeasured);
    const { process: total } = spawnLedger();
    expect(account?.witnessCpuMs).toBeCloseTo(
      total.cpuMs + (total.childrenMs ?? 0) - (account?.cliCpuMs ?? 0) - 450,
      -1,
    );
    const claude = account?.perCli.find((c) => c.cli === "claude-code@9.9.9");
    expect(claude).toMatchObject({
      spawns: 1,
      measured: 2,
      orchestratorLaunches: 1,
      orchestratorCpuMs: 450,
      cliMeanCpuMs: 250,
    });
    const lines = accountLines(account as NonNullable<typeof account>);
    expect(lines[0]).toContain("the orchestrators 0.5 s");
    expect(lines[0]).toContain("or by an orchestrator's cell shims");
    // One CLI process's resident set is not a tree's peak.
    expect(claude?.cliPeakMemoryMb).toBeNull();
    expect(lines.find((l) => l.includes("claude-code@9.9.9"))).toContain(
      "(1 orchestrator launches, 2 CLI processes measured, the orchestrator 450 ms CPU a launch)",
    );
  });
});
