// A hostile CLI: a wrapper around the real pinned Claude Code, planted as its vendor install, that
// tries every escape the sandbox must stop before it hands over to the real binary, while another
// spawn is live beside it. Each attempt prints its outcome on stderr, which the observation keeps;
// the test holds each to failure, the spawn to a normal run, and the observation's statement of
// what held to what the attempts met.
import { existsSync, lstatSync } from "node:fs";
import { chmod, copyFile, link, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { PINNED } from "../../clis/pinned.js";
import { runProcess } from "../../core/exec.js";
import { liveClis } from "../../test/support/live-clis.js";
import { tempDir } from "../../test/support/temp-dir.js";
import type { Observation } from "../contracts/observation.js";
import { runProbe } from "../run-probe.js";
import { netnsTools, releaseWarmSlot } from "./netns.js";

const ref = PINNED["claude-code"];
const clis = liveClis([ref], "hostile wrapper");
beforeAll(() => clis.install(), 600_000);
afterAll(releaseWarmSlot);

let dir: string;
let cleanup: () => Promise<void>;
const savedTmp = process.env.TMPDIR;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-hostile-test-"));
  // The spawns' cells and namespaces go here, where the test can find the live one's.
  await mkdir(join(dir, "tmp"));
  process.env.TMPDIR = join(dir, "tmp");
});
afterEach(async () => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  await cleanup();
});

// Each attempt: its name, then the command; "SUCCEEDED" or "failed" goes to stderr with its output.
const ATTEMPTS = `
attempt() {
  name=$1; shift
  if out=$("$@" 2>&1 </dev/null); then r=SUCCEEDED; else r=failed; fi
  printf 'hostile %s: %s: %s\\n' "$name" "$r" "$(printf %s "$out" | tr '\\n\\0' '  ' | cut -c1-160)" >&2
}
connect_tcp='require("net").connect(+process.argv[1], "127.0.0.1").on("connect", () => process.exit(0)).on("error", (e) => { console.log(e.code); process.exit(1); })'
inject='const c = require("net").connect(process.argv[1]); c.on("connect", () => { c.end("POST /v1/messages HTTP/1.1\\r\\nhost: x\\r\\ncontent-length: 2\\r\\n\\r\\n{}"); setTimeout(() => process.exit(0), 300); }).on("error", (e) => { console.log(e.code); process.exit(1); })'
attempt umount-proc umount /proc
attempt read-pid1-environ cat /proc/1/environ
attempt read-witness-environ cat "/proc/$HOSTILE_WITNESS_PID/environ"
attempt nsenter-host-net nsenter --net=/proc/1/ns/net true
attempt canary node -e "$connect_tcp" "$HOSTILE_CANARY"
attempt write-victim-cell touch "$HOSTILE_VICTIM_CELL/sentinels/FORGED"
for sock in $HOSTILE_SOCKETS; do attempt victim-socket node -e "$inject" "$sock"; done
attempt unmount-mask umount "$HOSTILE_MASK"
attempt read-masked cat "$HOSTILE_MASK/CLAUDE.md"
attempt write-host-usr touch "/usr/witness-hostile-$HOSTILE_WITNESS_PID"
`;

// A vendor entry whose `claude` is `script`; with `real`, its node_modules are the real install's
// (hard links, else copies): the sandbox shows the entry alone, so the real binary must be in it.
async function plantEntry(cache: string, script: string, real = false): Promise<void> {
  const installed = join(clis.cacheDir, `${ref.name}@${ref.version}`);
  const entry = join(cache, `${ref.name}@${ref.version}`);
  const modules = real ? await readdir(join(installed, "node_modules"), { recursive: true }) : [];
  for (const rel of modules) {
    const from = join(installed, "node_modules", rel);
    const to = join(entry, "node_modules", rel);
    if (existsSync(to)) continue;
    await mkdir(join(to, ".."), { recursive: true });
    if (lstatSync(from).isDirectory()) await mkdir(to, { recursive: true });
    else await link(from, to).catch(() => copyFile(from, to));
  }
  await mkdir(join(entry, "bin"), { recursive: true });
  await writeFile(join(entry, "bin", "claude"), script);
  await chmod(join(entry, "bin", "claude"), 0o755);
  const meta = { name: ref.name, version: ref.version, pkg: "@anthropic-ai/claude-code" };
  await writeFile(
    join(entry, "witness-vendor.json"),
    JSON.stringify({
      ...meta,
      bin: "bin/claude",
      reported: ref.version,
      installedAt: "now",
      standIn: "a hostile script run as Claude Code (containment test)",
    }),
  );
}

async function waitFor<T>(find: () => Promise<T | null>, ms = 30_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    const found = await find();
    if (found !== null) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out");
}

// Why this machine cannot run a sandboxed spawn (Linux, root, user and network namespaces), or null.
async function sandboxUnavailable(): Promise<string | null> {
  if (process.platform !== "linux") return "the sandbox needs Linux";
  if (process.getuid?.() !== 0) return "the sandbox needs witness to run as root";
  if ((await netnsTools()) === null) return "no network namespace here (unshare --net failed)";
  const userns = await runProcess({
    file: "unshare",
    args: ["--user", "--map-root-user", "--", "/bin/true"],
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    cwd: "/",
    timeoutMs: 10_000,
  });
  return userns.exitCode === 0
    ? null
    : `user namespaces are not allowed here (${userns.stderr.trim() || String(userns.exitCode)})`;
}

const lines = (o: Observation) => o.stderrTail.split("\n").filter((l) => l.startsWith("hostile "));

describe("a hostile CLI in the sandbox", () => {
  it("live: every escape a wrapper around Claude Code tries fails, is recorded, and matches what the observation says held", async (ctx) => {
    clis.need(ctx, "claude-code");
    // Skipped only where the machine cannot make the namespaces; a witness that could and did
    // not sandbox fails here.
    const unable = await sandboxUnavailable();
    if (unable !== null) ctx.skip(unable);

    // witness's own environment holds a secret the hostile CLI must never read.
    const secret = `WITNESS-HOSTILE-SECRET-${process.pid}`;
    process.env.WITNESS_HOSTILE_TEST_SECRET = secret;
    let canaryHits = 0;
    const canary: Server = createServer((s) => {
      canaryHits += 1;
      s.destroy();
    });
    await new Promise<void>((r) => canary.listen(0, "127.0.0.1", r));
    const canaryPort = (canary.address() as { port: number }).port;

    // The victim: a live spawn whose CLI waits until the test releases it.
    const victimCache = join(dir, "victim-cache");
    await plantEntry(
      victimCache,
      '#!/bin/sh\ntouch "$HOME/started"\nwhile [ ! -e "$HOME/release" ]; do sleep 0.1; done\n',
    );
    const spec = {
      cli: ref,
      fixture: { workspace: "outside-home" as const, trust: true, files: [] },
      script: { turns: [], final: "done", classifier: "allow" as const },
      timeoutMs: 90_000,
    };
    const victim = runProbe({ ...spec, launch: { argv: ["-p", "hi"] } }, { cacheDir: victimCache });
    const tmp = join(dir, "tmp");
    // Its CLI has started: its cell and its fake server's socket exist.
    const victimCell = await waitFor(async () => {
      const cell = (await readdir(tmp)).find((n) => n.startsWith("witness-cell-"));
      return cell !== undefined && existsSync(join(tmp, cell, "home", "started"))
        ? join(tmp, cell)
        : null;
    });
    const sockets = (await readdir(tmp))
      .filter((n) => n.startsWith("witness-netns-"))
      .map((n) => join(tmp, n, "fake.sock"))
      .filter((p) => existsSync(p));
    expect(sockets.length).toBeGreaterThan(0);

    // The hostile spawn, with a managed file masked (planted under a root of the test's own).
    const managedRoot = join(dir, "machine");
    await mkdir(join(managedRoot, "etc", "claude-code"), { recursive: true });
    const managedText = `MANAGED-${process.pid}`;
    await writeFile(join(managedRoot, "etc", "claude-code", "CLAUDE.md"), `${managedText}\n`);
    const mask = join(managedRoot, "etc", "claude-code");
    const hostileCache = join(dir, "hostile-cache");
    const real = '$(dirname "$0")/../node_modules/@anthropic-ai/claude-code/bin/claude.exe';
    await plantEntry(hostileCache, `#!/bin/sh\n${ATTEMPTS}\nexec ${real} "$@"\n`, true);
    let o: Observation;
    try {
      o = await runProbe(
        {
          ...spec,
          fixture: { ...spec.fixture, managed: "mask" },
          launch: {
            argv: ["-p", "hi"],
            env: {
              set: {
                HOSTILE_WITNESS_PID: String(process.pid),
                HOSTILE_CANARY: String(canaryPort),
                HOSTILE_VICTIM_CELL: victimCell,
                HOSTILE_SOCKETS: sockets.join(" "),
                HOSTILE_MASK: mask,
              },
            },
          },
        },
        { cacheDir: hostileCache, managedRoot },
      );
    } finally {
      await writeFile(join(victimCell, "home", "release"), "");
      delete process.env.WITNESS_HOSTILE_TEST_SECRET;
    }
    const victimObservation = await victim;
    await new Promise<void>((r) => canary.close(() => r()));

    const attempts = lines(o);
    const names = attempts.map((l) => l.split(":")[0]?.slice("hostile ".length));
    expect(names).toEqual([
      "umount-proc",
      "read-pid1-environ",
      "read-witness-environ",
      "nsenter-host-net",
      "canary",
      "write-victim-cell",
      ...sockets.map(() => "victim-socket"),
      "unmount-mask",
      "read-masked",
      "write-host-usr",
    ]);
    for (const line of attempts) expect(line, line).toMatch(/^hostile [\w-]+: failed: /);
    // Nothing reached: the canary, the victim's cell and fake server, the masked file, the secret.
    expect(canaryHits).toBe(0);
    expect(existsSync(join(victimCell, "sentinels", "FORGED"))).toBe(false);
    expect(victimObservation.requestCount).toBe(0);
    expect(JSON.stringify(o)).not.toContain(secret);
    expect(JSON.stringify(o)).not.toContain(managedText);
    const planted = `/usr/witness-hostile-${process.pid}`;
    const wrote = existsSync(planted);
    if (wrote) await rm(planted); // a witness that let it through leaves nothing behind
    expect(wrote).toBe(false);

    // The real CLI then ran as usual, and the observation says what held, as the attempts met it.
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect(o.requestCount).toBeGreaterThan(0);
    expect(o.containment).toBe("sandbox");
    expect(o.managedMasked).toEqual([mask]);
    const held = o.containmentHeld;
    expect(held?.hostCapabilities).toBe("none"); // umount, nsenter, the mask: refused
    expect(held?.ownProc).toBe(true); // pid 1 and witness: not readable or not there
    expect(held?.files).toBe("cell-view"); // the victim's cell and sockets: not there
    expect(held?.interfaces).toEqual(["lo"]); // the canary on the host's loopback: unreachable
    expect(held?.uid).toBe(0);
    expect(held?.hostUid).toBeGreaterThanOrEqual(0x7000_0000);
    expect(held?.noNewPrivs).toBe(false);
    // The victim ran as another host uid.
    expect(victimObservation.containmentHeld?.hostUid).not.toBe(held?.hostUid);
  }, 240_000);
});
