// Through the built CLI and the real Claude Code: a run whose record cannot be written (a full
// disk: a 4 KiB tmpfs in a mount namespace of the test's own) exits 2 naming its journal, and
// `witness run --resume` writes the record from the journal without spawning again; a run
// interrupted after one protocol's record was written says which records it wrote.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { lockProtocol } from "../prereg/lock.js";
import { builtCli, runBuiltCli } from "../test/support/built-cli.js";
import { liveClis } from "../test/support/live-clis.js";
import { protocolText } from "../test/support/observations.js";
import { privateMountsUnavailable, runInPrivateMounts } from "../test/support/planted-etc.js";
import { commit, put, putAdr, tempGitRepo } from "../test/support/witness-repo.js";
import { recordSchema } from "./record.js";

const CLAUDE = PINNED["claude-code"];
const clis = liveClis([CLAUDE], "run --resume and interrupt");
beforeAll(() => clis.install(), 600_000);

const FIRST = "docs/prereg/0001-demo.yaml";
const SECOND = "docs/prereg/0002-hang.yaml";
const RECORD = `0001-demo-claude-code-${CLAUDE.version}`;

let repo: { dir: string; cleanup: () => Promise<void> };
let scratch: string;
// A vendor cache of the test's own (its run ledger too), holding the installed CLI by a link.
let cache: string;
beforeEach(async () => {
  repo = await tempGitRepo();
  scratch = await mkdtemp(join(tmpdir(), "witness-resume-"));
  cache = join(scratch, "cache");
  await mkdir(cache);
  const name = `${CLAUDE.name}@${CLAUDE.version}`;
  await symlink(join(clis.cacheDir, name), join(cache, name));
  await putAdr(repo.dir);
  // One spawn whose home CLAUDE.md is expected too: a confirmed arm, so exit codes say 0.
  const first = protocolText({ expectB: "marker-present" }).replace("spawns: 2", "spawns: 1");
  await put(repo.dir, FIRST, first);
  const hang = protocolText({ id: "0002", slug: "hang" })
    .replace("spawns: 2", "spawns: 1")
    .replace("    expect:\n", "    script: { turns: [{ fault: { hang: true } }] }\n    expect:\n");
  await put(repo.dir, SECOND, hang);
  await commit(repo.dir, "register 0001 and 0002");
  await lockProtocol(FIRST, { cwd: repo.dir });
  await lockProtocol(SECOND, { cwd: repo.dir });
});
afterEach(async () => {
  await repo.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: scratch,
  LANG: "C.UTF-8",
  NO_COLOR: "1",
  WITNESS_STATE_DIR: join(scratch, "state"),
  ...extra,
});

// In one mount namespace: the run into a full out directory, what it left, its journal, then
// room made and the resume; each step's output lands in `$t`.
const FULL_DISK_THEN_RESUME = `
out=$1 t=$2 cache=$3
shift 3
mount -t tmpfs -o size=4k witness-full "$out" || exit 97
"$@" run ${FIRST} --out "$out" --cache "$cache" >"$t/1.out" 2>"$t/1.err"
echo $? >"$t/1.rc"
ls -A "$out" >"$t/1.ls"
journal=$(ls "$WITNESS_STATE_DIR"/journals/*) || exit 98
cp "$journal" "$t/journal.jsonl"
printf '%s' "$journal" >"$t/journal.path"
mount -o remount,size=16m "$out" || exit 99
"$@" run --resume "$journal" --cache "$cache" >"$t/2.out" 2>"$t/2.err"
echo $? >"$t/2.rc"
cp -a "$out/." "$t/records/"
`;

describe("witness run on a full disk, then --resume", () => {
  it("live: exits 2 naming the journal, writes nothing, and --resume writes the record without spawning", async (ctx) => {
    clis.need(ctx, "claude-code");
    const unavailable = await privateMountsUnavailable();
    if (unavailable !== null) ctx.skip(unavailable);
    const t = join(scratch, "t");
    const out = join(scratch, "out");
    await mkdir(join(t, "records"), { recursive: true });
    await mkdir(out);
    const result = await runInPrivateMounts({
      script: FULL_DISK_THEN_RESUME,
      args: [out, t, cache, process.execPath, builtCli()],
      env: env(),
      cwd: repo.dir,
      timeoutMs: 240_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const read = (name: string) => readFile(join(t, name), "utf8");
    const journal = await read("journal.path");

    // The failed write: exit 2, the journal and the way to finish named, no stack, nothing left.
    const err1 = await read("1.err");
    expect((await read("1.rc")).trim(), err1).toBe("2");
    expect(err1).toContain(`cannot write the record of 0001 demo (ENOSPC)`);
    expect(err1).toContain(`witness run --resume ${journal}`);
    expect(err1).not.toMatch(/\n\s+at /);
    expect((await read("1.ls")).trim()).toBe("");

    // The resume: the record, whole, holding exactly the journaled spawn (a new spawn would have
    // other markers, times and durations); the journal is gone once the record is written.
    expect((await read("2.rc")).trim(), await read("2.err")).toBe("0");
    expect((await readdir(join(t, "records"))).sort()).toEqual(
      [`${RECORD}.csv`, `${RECORD}.json`, `${RECORD}.md`].sort(),
    );
    const record = recordSchema.parse(JSON.parse(await read(`records/${RECORD}.json`)));
    const journaled = (await read("journal.jsonl"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; spawn?: unknown })
      .filter((line) => line.type === "spawn");
    expect(journaled).toHaveLength(1);
    expect(record.arms[0]?.spawns).toEqual([journaled[0]?.spawn]);
    expect(record.verdict).toBe("confirmed");
    expect(existsSync(journal)).toBe(false);
  }, 300_000);
});

describe("witness run interrupted after a record was written", () => {
  it("live: SIGINT during the second protocol's spawn lists the first one's record and only it", async (ctx) => {
    clis.need(ctx, "claude-code");
    const tmp = join(scratch, "tmp");
    const out = join(scratch, "records");
    await mkdir(tmp);
    const written = join(out, `${RECORD}.json`);
    // Interrupt once the first record is on disk and the second protocol's spawn is under way.
    const controller = new AbortController();
    const poll = setInterval(() => {
      void (async () => {
        if (controller.signal.aborted || !existsSync(written)) return;
        const cells = (await readdir(tmp)).filter((n) => n.startsWith("witness-cell-"));
        if (cells.length > 0) controller.abort();
      })();
    }, 50);
    const result = await runBuiltCli(
      // --fresh: a spawn taken from the spawn cache would leave no cell to interrupt in.
      ["run", FIRST, SECOND, "--out", out, "--cache", cache, "--jobs", "1", "--fresh"],
      {
        env: env({ TMPDIR: tmp }),
        cwd: repo.dir,
        signal: controller.signal,
        killSignal: "SIGINT",
        timeoutMs: 240_000,
      },
    ).finally(() => clearInterval(poll));
    expect(controller.signal.aborted).toBe(true);
    expect(result.exitCode, result.stderr).toBe(130);
    expect(result.stderr).toContain(
      `witness: interrupted; records written (each with its .md and .csv): ${join(out, `${RECORD}.json`)}; no unfinished one`,
    );
    expect(result.stderr).toContain("finish with `witness run --resume ");
    expect((await readdir(out)).sort()).toEqual(
      [`${RECORD}.csv`, `${RECORD}.json`, `${RECORD}.md`].sort(),
    );
    expect(await readdir(tmp)).toEqual([]);
  }, 300_000);
});
