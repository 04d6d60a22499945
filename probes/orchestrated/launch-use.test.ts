// An orchestrator launch's use taken apart: a shim's record read as the CLI's use, and the
// orchestrator's own CPU as the launch's tree less its CLIs' and shims'.
import { describe, expect, it } from "vitest";

import type { CliUse, SpawnObservation } from "../contracts/observation.js";
import { orchestratorUse, shimCliUse } from "./launch-use.js";

const tree: CliUse = {
  ...{ userMs: 2000, systemMs: 500, cpuMs: 2500, wallMs: 4000, resolutionMs: 10 },
  source: "pid-namespace-init",
};

const spawn = (n: number, cpuMs: number | null, shimCpuMs?: number) =>
  ({
    spawn: n,
    ...(cpuMs === null
      ? {}
      : { cliUse: { ...tree, userMs: cpuMs, systemMs: 0, cpuMs, source: "cell-shim" } }),
    ...(shimCpuMs === undefined ? {} : { shimCpuMs }),
  }) as SpawnObservation;

describe("shimCliUse", () => {
  it("reads ticks as ms and the polled high-water mark as the CLI process's peak", () => {
    const use = { wallMs: 812, userTicks: 70, systemTicks: 12, hwmKb: 204800, shimCpuMs: 41 };
    expect(shimCliUse(use)).toEqual({
      cliUse: {
        ...{ userMs: 700, systemMs: 120, cpuMs: 820, wallMs: 812, resolutionMs: 10 },
        source: "cell-shim",
        peakMemory: { bytes: 200 * 2 ** 20, source: "cli-process-vmhwm-polled" },
      },
      shimCpuMs: 41,
    });
  });

  it("states no CLI use without the shim's CPU figures, and nothing without a record", () => {
    expect(shimCliUse({ wallMs: 5, hwmKb: null, shimCpuMs: 30 })).toEqual({ shimCpuMs: 30 });
    expect(shimCliUse(undefined)).toEqual({});
  });
});

describe("orchestratorUse", () => {
  it("leaves the orchestrator the tree's CPU less its CLIs' and shims'", () => {
    const use = orchestratorUse(tree, [spawn(1, 900, 40), spawn(2, 600, 35), spawn(3, null)]);
    expect(use).toEqual({
      tree,
      clisCpuMs: 1500,
      shimsCpuMs: 75,
      ownCpuMs: 925,
      unmeasuredSpawns: 1,
    });
  });

  it("is null when the launch's tree was not measured", () => {
    expect(orchestratorUse(null, [spawn(1, 900, 40)])).toBeNull();
  });
});
