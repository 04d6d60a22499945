import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { defaultCacheDir } from "../probes/vendor-cache.js";
import { liveClis } from "../test/support/live-clis.js";
import { git, witness, WITNESS_ROOT, witnessWith } from "../test/support/witness-repo.js";
import { recordSchema } from "./record.js";

const PROTOCOL = "docs/prereg/0001-claude-code-setting-sources.yaml";
const RECORD = "docs/measurements/0001-claude-code-setting-sources-claude-code-2.1.332.json";
/** The other registered protocols the ADRs and the support table rest on, with their CLI. */
const RIDERS = [
  { protocol: "0002-claude-code-ambient-none", cli: "claude-code" },
  { protocol: "0003-claude-code-ambient-workspace-operator", cli: "claude-code" },
  { protocol: "0004-codex-ambient-context", cli: "codex" },
  { protocol: "0005-claude-code-loaded-user-config", cli: "claude-code" },
  { protocol: "0006-codex-loaded-user-config", cli: "codex" },
  { protocol: "0007-claude-code-scope-workspace-sentinels", cli: "claude-code" },
] as const;

/** The pid of the witness process whose argv contains `arg` (Linux /proc), or null. */
async function pidWithArg(arg: string): Promise<number | null> {
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const argv = await readFile(join("/proc", entry, "cmdline"), "utf8").catch(() => "");
    const parts = argv.split("\0");
    if (parts.includes(arg) && parts.some((p) => p.endsWith("main.js"))) return Number(entry);
  }
  return null;
}

async function verdicts(file: string): Promise<{ overall: string; arms: Record<string, string> }> {
  const record = recordSchema.parse(JSON.parse(await readFile(file, "utf8")));
  return {
    overall: record.verdict,
    arms: Object.fromEntries(record.arms.map((a) => [a.id, a.verdict])),
  };
}

const clis = liveClis([PINNED["claude-code"], PINNED.codex], "reproduction");
beforeAll(() => clis.install(), 600_000);

describe("protocol 0001 end to end", () => {
  let out = "";
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "witness-0001-"));
  });
  afterAll(() => rm(out, { recursive: true, force: true }));

  it("live: witness run of protocol 0001 into a temp --out reproduces the committed verdicts", async (ctx) => {
    clis.need(ctx, "claude-code");
    // The other protocols ride along when their CLI is installed: the ADRs rest on them too.
    const riders = RIDERS.filter((r) => {
      const reason = clis.missing(r.cli);
      if (reason !== undefined)
        console.warn(`protocol ${r.protocol} not re-run: ${r.cli} cannot be installed: ${reason}`);
      return reason === undefined;
    });
    const files = [PROTOCOL, ...riders.map((r) => `docs/prereg/${r.protocol}.yaml`)];
    const result = await witness(
      WITNESS_ROOT,
      "run",
      ...files,
      "--out",
      out,
      "--cache",
      defaultCacheDir(),
    );
    expect(result.stderr).toBe("");
    const committed = await verdicts(join(WITNESS_ROOT, RECORD));
    expect(Object.keys(committed.arms)).toHaveLength(10);
    expect(await verdicts(join(out, basename(RECORD)))).toEqual(committed);
    let allConfirmed = committed.overall === "confirmed";
    for (const rider of riders) {
      const name = `${rider.protocol}-${rider.cli}-${PINNED[rider.cli].version}.json`;
      const earlier = await verdicts(join(WITNESS_ROOT, "docs/measurements", name));
      expect(await verdicts(join(out, name))).toEqual(earlier);
      allConfirmed &&= earlier.overall === "confirmed";
    }
    expect(result.exitCode).toBe(allConfirmed ? 0 : 1);
  }, 300_000);
});

describe("an interrupted run of protocol 0001", () => {
  let scratch = "";
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "witness-abort-"));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  for (const [sig, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`live: ${sig} leaves no record and no temporary cell behind`, async (ctx) => {
      clis.need(ctx, "claude-code");
      const tmp = join(scratch, sig, "tmp");
      const out = join(scratch, sig, "records");
      await mkdir(tmp, { recursive: true });
      // Interrupt once a spawn is under way (its cell appears in TMPDIR), as Ctrl-C would.
      let sent = false;
      const poll = setInterval(() => {
        void (async () => {
          if (sent || !(await readdir(tmp)).some((n) => n.startsWith("witness-cell-"))) return;
          const pid = await pidWithArg(out);
          if (pid === null || sent) return;
          sent = true;
          process.kill(pid, sig);
        })();
      }, 50);
      const result = await witnessWith({
        cwd: WITNESS_ROOT,
        // --fresh: spawns taken from the spawn cache would end the run before the interrupt.
        args: [
          "run",
          PROTOCOL,
          "--out",
          out,
          "--cache",
          defaultCacheDir(),
          "--jobs",
          "2",
          "--fresh",
        ],
        env: { TMPDIR: tmp },
      });
      clearInterval(poll);
      expect(sent).toBe(true);
      expect(result.exitCode).toBe(code);
      expect(result.stderr).toContain("interrupted; no record written");
      expect(await readdir(out)).toEqual([]);
      expect(await readdir(tmp)).toEqual([]);
    }, 120_000);
  }
});

describe("a tampered protocol 0001 in a clone of the repository", () => {
  let clone = "";
  beforeAll(async () => {
    clone = await mkdtemp(join(tmpdir(), "witness-clone-"));
    await git(tmpdir(), "clone", "-q", WITNESS_ROOT, clone);
  }, 120_000);
  afterAll(() => rm(clone, { recursive: true, force: true }));

  it("is refused by witness run (exit 2) and fails witness adr check (exit 1)", async () => {
    const before = await witness(clone, "adr", "check");
    expect(before.stdout).toMatch(/0001\s+Accepted\s+0001[0-9,]*\s+pass/);

    // Flip one pre-registered outcome: the operator's memory now "expected" under project, outside HOME.
    const file = join(clone, PROTOCOL);
    const text = await readFile(file, "utf8");
    const arm = text.indexOf("id: outside-project");
    const at = text.indexOf("marker-absent, marker: HOME_CLAUDE_MD", arm);
    expect(at).toBeGreaterThan(arm);
    await writeFile(
      file,
      `${text.slice(0, at)}marker-present${text.slice(at + "marker-absent".length)}`,
    );

    const run = await witness(clone, "run", PROTOCOL, "--out", join(clone, "tmp-records"));
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(file);
    expect(run.stderr).toMatch(/lock hash sha256:[0-9a-f]{64}, file hash sha256:[0-9a-f]{64}/);

    const check = await witness(clone, "adr", "check");
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toMatch(/0001\s+Accepted\s+0001[0-9,]*\s+FAIL/);
    expect(check.stdout).toContain("changed since its lock");

    // Committing the edit does not launder it: only --amend changes a lock.
    await git(
      clone,
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@invalid",
      "commit",
      "-q",
      "-am",
      "tamper",
    );
    expect(
      (await witness(clone, "run", PROTOCOL, "--out", join(clone, "tmp-records"))).exitCode,
    ).toBe(2);
    expect((await witness(clone, "adr", "check")).exitCode).toBe(1);
  }, 120_000);
});

describe("a shallow clone of the repository", () => {
  let clone = "";
  beforeAll(async () => {
    clone = await mkdtemp(join(tmpdir(), "witness-shallow-"));
    await git(tmpdir(), "clone", "-q", "--depth", "1", `file://${WITNESS_ROOT}`, clone);
  }, 120_000);
  afterAll(() => rm(clone, { recursive: true, force: true }));

  it("fails adr check, saying the lock commits are not in the clone", async () => {
    const check = await witness(clone, "adr", "check");
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain("is not in this clone (a shallow clone? fetch the full history");
  });
});
