// The CLI's resource use as a PID namespace's first process reports it: the report line read, and
// the init script measuring a real process tree (the CLI and the child it waits for).
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { runProcess } from "../../core/exec.js";
import { ASSETS_DIR } from "./netns.js";
import { readTreeUse } from "./tree-use.js";

// A shell loop that burns CPU for a while, run by a child of the child the init starts.
const BURN = "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done";

describe("readTreeUse", () => {
  it("reads the ticks and hundredths between the start and the end", () => {
    const use = readTreeUse("Uid: 1\ntree_use: 3 1 100.50 40 9 102.00\n");
    expect(use).toEqual({
      userMs: 370,
      systemMs: 80,
      cpuMs: 450,
      wallMs: 1500,
      resolutionMs: 10,
      source: "pid-namespace-init",
    });
  });

  it("is null without the line, or with a field that is no number", () => {
    expect(readTreeUse("Uid: 1\n")).toBeNull();
    expect(readTreeUse("tree_use: 3 - 100.50 40 9 102.00\n")).toBeNull();
    expect(readTreeUse("tree_use: 3 1 100.50 40 9\n")).toBeNull();
  });
});

describe("pid-init.sh's report", () => {
  it("counts the CPU of the whole tree it waited for, and keeps fd 3 from the command", async () => {
    const result = await runProcess({
      file: "/bin/sh",
      args: [
        join(ASSETS_DIR, "pid-init.sh"),
        "/bin/sh",
        "-c",
        `/bin/sh -c '${BURN}'; ls /proc/self/fd >/dev/null 3>&-; [ ! -e /proc/self/fd/3 ]`,
      ],
      env: { PATH: "/usr/bin:/bin" },
      cwd: "/",
      reportPipe: true,
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(0);
    const use = readTreeUse(result.report ?? "");
    expect(use).not.toBeNull();
    // The burn runs in a grandchild: only a children's total of the whole tree sees it.
    expect(use?.cpuMs).toBeGreaterThanOrEqual(50);
    expect(use?.wallMs).toBeGreaterThanOrEqual(50);
  });

  it("writes nothing, and no error, when fd 3 is not open", async () => {
    const result = await runProcess({
      file: "/bin/sh",
      args: [join(ASSETS_DIR, "pid-init.sh"), "/bin/sh", "-c", "exit 3"],
      env: { PATH: "/usr/bin:/bin" },
      cwd: "/",
    });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toBe("");
  });
});
