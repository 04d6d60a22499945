import { describe, expect, it } from "vitest";

import { behaviourFromArgs, type InstallArgs, installOptionsFromArgs } from "./shim.js";

const base: InstallArgs = { dir: "/d", names: ["claude"] };

describe("witness shim install flags", () => {
  it.each<[Partial<InstallArgs>, unknown]>([
    [{}, { behaviour: { kind: "script", outcome: {} } }],
    [
      { exit: 3, stdout: "hi", stderrFile: "e.txt" },
      {
        behaviour: { kind: "script", outcome: { exitCode: 3, stdout: "hi", stderrFile: "e.txt" } },
      },
    ],
    [{ passThrough: true }, { behaviour: { kind: "pass-through" } }],
    [
      { passThrough: true, target: "/usr/bin/true" },
      { behaviour: { kind: "pass-through", target: "/usr/bin/true" } },
    ],
    [{ plan: "plan.yaml" }, { callPlanFile: "plan.yaml" }],
  ])("map %j to %j", (flags, expected) => {
    expect(behaviourFromArgs({ ...base, ...flags })).toEqual(expected);
  });

  it.each<[Partial<InstallArgs>, RegExp]>([
    [{ passThrough: true, exit: 1 }, /--pass-through runs the real binary; drop --exit/],
    [{ passThrough: true, plan: "p.yaml" }, /drop --plan/],
    [{ target: "/x" }, /--target only applies with --pass-through/],
    [{ plan: "p.yaml", stdout: "x" }, /drop --stdout/],
    [{ stdout: "a", stdoutFile: "b" }, /--stdout or --stdout-file/],
    [{ exit: 256 }, /from 0 to 255/],
    [{ exit: Number.NaN }, /from 0 to 255/],
  ])("refuse %j", (flags, message) => {
    expect(() => behaviourFromArgs({ ...base, ...flags })).toThrow(message);
  });

  it("passes dir, names, log, env and stdin to the installer", () => {
    expect(
      installOptionsFromArgs({ ...base, log: "l.jsonl", env: ["HOME"], stdin: "ignore" }),
    ).toEqual({
      dir: "/d",
      names: ["claude"],
      log: "l.jsonl",
      env: ["HOME"],
      stdin: "ignore",
    });
  });
});
