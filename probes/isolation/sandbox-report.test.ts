// The statement of what held: read from report.sh's lines, and held to what a process in the same
// place actually meets (on the host, and in the sandbox where this machine makes one).
import { readFileSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { runProcess } from "../../core/exec.js";
import { tempDir } from "../../test/support/temp-dir.js";
import { containment } from "./contain.js";
import { ASSETS_DIR } from "./netns.js";
import { prepareSandbox } from "./sandbox.js";
import {
  containmentStatements,
  heldSummary,
  readReport,
  sandboxFaults,
  unsandboxedHeld,
} from "./sandbox-report.js";

const SANDBOXED = [
  "Uid:\t0\t0\t0\t0",
  "CapEff:\t000001ffffffffff",
  "NoNewPrivs:\t0",
  "uid_map: 0 1879048200 1",
  "stat_pid: 3",
  "shell_pid: 3",
  "pid1: /bin/sh/x/assets/sandbox.sh/v/fstab-1",
  "witness_visible: no",
  "net_if: lo",
  "host_path_visible: no",
].join("\n");

describe("reading a report", () => {
  it("reads a sandboxed CLI: uid 0 as a host uid of its own, no host capability, its own /proc, the cell view", () => {
    const held = readReport(SANDBOXED);
    expect(held).toEqual({
      uid: 0,
      hostUid: 1879048200,
      hostCapabilities: "none",
      noNewPrivs: false,
      ownProc: true,
      interfaces: ["lo"],
      files: "cell-view",
    });
    expect(sandboxFaults(held, { uid: 1879048200, netns: true })).toEqual([]);
    expect(heldSummary("sandbox", held!)).toBe(
      "sandbox: uid 0 in a user namespace of its own (a host uid of its own), no host capabilities, no_new_privs off, its own /proc, the cell view",
    );
  });

  it("faults each way a sandbox did not hold, and a missing report", () => {
    const host = SANDBOXED.replace("uid_map: 0 1879048200 1", "uid_map: 0 0 4294967295")
      .replace("pid1: /bin/sh/x/assets/sandbox.sh/v/fstab-1", "pid1: /sbin/init")
      .replace("host_path_visible: no", "host_path_visible: yes")
      .concat("\nnet_if: eth0");
    const held = readReport(host);
    expect(held).toMatchObject({
      hostUid: null,
      hostCapabilities: "000001ffffffffff",
      ownProc: false,
      files: "host",
    });
    expect(sandboxFaults(held, { uid: 1879048200, netns: true })).toEqual([
      "containment-not-held: host uid null, not 1879048200; host capabilities 000001ffffffffff; the host's /proc; the host's files; interfaces lo, eth0",
    ]);
    expect(sandboxFaults(readReport(SANDBOXED), { uid: 7, netns: false })).toEqual([
      "containment-not-held: host uid 1879048200, not 7",
    ]);
    expect(readReport("")).toBeNull();
    expect(sandboxFaults(null, { uid: 1, netns: false })).toEqual([
      "containment-not-held: the sandbox wrote no report before the CLI",
    ]);
  });

  it("states a fallback from witness's own status, and a record's statements once each", () => {
    const status = "Uid:\t0\t0\t0\t0\nCapEff:\t000001ffffffffff\nNoNewPrivs:\t0\n";
    const pidns = unsandboxedHeld("pidns", status);
    expect(heldSummary("pidns", pidns)).toBe(
      "pidns: uid 0 on the host, host capabilities 000001ffffffffff, no_new_privs off, its own /proc, the host's files",
    );
    const sandboxed = { containment: "sandbox" as const, containmentHeld: readReport(SANDBOXED)! };
    const other = { ...sandboxed, containmentHeld: { ...sandboxed.containmentHeld, hostUid: 5 } };
    expect(containmentStatements([sandboxed, other, { containment: "pidns" }])).toEqual([
      heldSummary("sandbox", sandboxed.containmentHeld),
    ]);
  });
});

describe("the statement against what a process meets", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir("witness-report-test-"));
  });
  afterEach(() => cleanup());

  // What a process tries after the report: each line "<name> ok" or "<name> refused".
  const tries = (sibling: string) =>
    [
      `t() { n=$1; shift; if "$@" >/dev/null 2>&1; then echo "$n ok"; else echo "$n refused"; fi; }`,
      "t umount-proc umount /proc",
      "t nsenter-pid1 nsenter --net=/proc/1/ns/net true",
      `t see-sibling test -e '${sibling}'`,
    ].join("\n");

  it("on the host: report.sh run directly states the host, as witness's own status has it", async (ctx) => {
    if (process.platform !== "linux") ctx.skip("report.sh reads Linux's /proc");
    const result = await runProcess({
      file: "/bin/sh",
      args: [join(ASSETS_DIR, "report.sh"), dir, String(process.pid), "--", "/bin/true"],
      env: {},
      cwd: "/",
      reportPipe: true,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const held = readReport(result.report ?? "");
    const own = unsandboxedHeld("process-group", readFileSync("/proc/self/status", "utf8"));
    expect(held).toMatchObject({
      uid: own.uid,
      hostUid: null,
      hostCapabilities: own.hostCapabilities,
      ownProc: false,
      files: "host",
    });
  });

  it("in the sandbox: no host capability, its own /proc and the cell view, as the attempts meet them", async (ctx) => {
    const contained = await containment();
    if (contained.kind !== "sandbox")
      ctx.skip(`no sandbox here (containment is ${contained.kind}: it needs Linux and root)`);
    const cell = join(dir, "cell");
    await mkdir(join(cell, "home"), { recursive: true });
    await writeFile(join(dir, "sibling"), "");
    await chmod(dir, 0o755);
    const box = await prepareSandbox({
      bin: "/bin/sh",
      path: "/usr/bin:/bin",
      cell: { root: cell, cwd: cell },
      masks: [],
    });
    try {
      const result = await runProcess({
        ...contained.wrap("/bin/sh", ["-c", tries(join(dir, "sibling"))], { sandbox: box.launch }),
        env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
        cwd: cell,
        reportPipe: true,
        timeoutMs: 30_000,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      const held = readReport(result.report ?? "");
      expect(sandboxFaults(held, { uid: box.launch.uid, netns: false })).toEqual([]);
      expect(result.stdout.trim().split("\n")).toEqual([
        "umount-proc refused",
        "nsenter-pid1 refused",
        "see-sibling refused",
      ]);
    } finally {
      await box.dispose();
    }
  });
});
