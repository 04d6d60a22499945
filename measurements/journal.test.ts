// No data lost on a failed write: every spawn is journaled as it completes, a record that cannot
// be written is an exit-2 error naming the journal, and `--resume` finishes it without spawning.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { InputError, UsageError } from "../core/errors.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import { marker, noInstall, observation, protocolText } from "../test/support/observations.js";
import { registeredRepo } from "../test/support/witness-repo.js";
import { recordSchema } from "./record.js";
import { runProtocols } from "./run-protocols.js";
import type { ProbeFn } from "./runner.js";
import { writeRecord } from "./write-record.js";

const REL = "docs/prereg/0001-demo.yaml";
let repo: { dir: string; cleanup: () => Promise<void> };
let calls = 0;
const probe: ProbeFn = (spec: ProbeSpec) => {
  calls++;
  return Promise.resolve(
    observation({
      markers: plantedMarkerNames(spec.fixture).map((n) => marker(n, n === "A" ? ["system"] : [])),
    }),
  );
};

beforeEach(async () => {
  calls = 0;
  repo = await registeredRepo(REL, protocolText());
});
afterEach(() => repo.cleanup());

const out = () => join(repo.dir, "records");
const journals = () => join(repo.dir, "journals");
const base = () => ({ cwd: repo.dir, install: noInstall, probe, journalDir: journals() });
const failing =
  (code: string): typeof writeRecord =>
  () =>
    Promise.reject(Object.assign(new Error(`${code}: simulated`), { code }));

async function onlyJournal(): Promise<string> {
  const names = await readdir(journals());
  expect(names).toHaveLength(1);
  return join(journals(), names[0] ?? "");
}

describe("the run journal", () => {
  it.each(["EROFS", "ENOSPC"])(
    "a record write failing with %s is an exit-2 error naming the journal, which holds every spawn; --resume writes it without spawning",
    async (code) => {
      const error = await runProtocols({
        ...base(),
        all: true,
        out: out(),
        writeRecord: failing(code),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      const journal = await onlyJournal();
      expect((error as Error).message).toContain(code);
      expect((error as Error).message).toContain(`witness run --resume ${journal}`);
      expect(calls).toBe(2);
      const lines = (await readFile(journal, "utf8")).trim().split("\n");
      expect(lines.slice(1).map((l) => (JSON.parse(l) as { type: string }).type)).toEqual([
        "spawn",
        "spawn",
      ]);

      calls = 0;
      const [run] = await runProtocols({ ...base(), resume: journal });
      expect(calls).toBe(0);
      expect(run?.written.json).toBe(join(out(), "0001-demo-claude-code-2.1.332.json"));
      const record = recordSchema.parse(
        JSON.parse(await readFile(run?.written.json ?? "", "utf8")),
      );
      expect(record.verdict).toBe("confirmed");
      expect(record.arms[0]?.spawns.map((s) => s.index)).toEqual([1, 2]);
      expect(existsSync(journal)).toBe(false);
    },
  );

  it("an interrupted run keeps its finished spawns; --resume runs only the ones it lacks", async () => {
    const controller = new AbortController();
    const stopping: ProbeFn = async (spec, options) => {
      if (calls === 1) controller.abort();
      if (options.signal?.aborted === true) throw new Error("aborted");
      return probe(spec, options);
    };
    await expect(
      runProtocols({
        ...base(),
        probe: stopping,
        all: true,
        out: out(),
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(existsSync(out()) ? await readdir(out()) : []).toEqual([]);
    const journal = await onlyJournal();

    calls = 0;
    const [run] = await runProtocols({ ...base(), resume: journal });
    expect(calls).toBe(1);
    expect(run?.record.arms[0]?.spawns.map((s) => s.index)).toEqual([1, 2]);
    expect(existsSync(journal)).toBe(false);
  });

  it("a successful run leaves no journal behind, nor its key", async () => {
    await runProtocols({ ...base(), all: true, out: out() });
    expect(await readdir(journals())).toEqual([]);
    expect(await readdir(join(repo.dir, ".journal-keys"))).toEqual([]);
  });

  it("--resume refuses an edited journal (a spawn made to see what it did not), naming the line and its mac", async () => {
    await runProtocols({ ...base(), all: true, out: out(), writeRecord: failing("ENOSPC") }).catch(
      () => undefined,
    );
    const journal = await onlyJournal();
    const lines = (await readFile(journal, "utf8")).split("\n");
    // Marker B was not seen; the edit says it reached the system prompt.
    lines[2] = (lines[2] ?? "").replace('"seenIn":[]', '"seenIn":["system"]');
    expect(lines[2]).toContain('"seenIn":["system"]');
    await writeFile(journal, lines.join("\n"));
    calls = 0;
    const error = await runProtocols({ ...base(), resume: journal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `${journal}: line 3: mac: expected the MAC this run's key gives the line; the journal was edited or is not this run's`,
    );
    expect(calls).toBe(0);
    expect(existsSync(out()) ? await readdir(out()) : []).toEqual([]);
  });

  it("--resume refuses a journal whose key is not in the state directory (one carried in with its own key)", async () => {
    await runProtocols({ ...base(), all: true, out: out(), writeRecord: failing("ENOSPC") }).catch(
      () => undefined,
    );
    const journal = await onlyJournal();
    const carried = join(repo.dir, "carried", "journals", "run-carried.jsonl");
    await mkdir(join(repo.dir, "carried", ".journal-keys"), { recursive: true });
    await mkdir(join(repo.dir, "carried", "journals"), { recursive: true });
    await writeFile(carried, await readFile(journal));
    const key = join(repo.dir, ".journal-keys", `${basename(journal)}.key`);
    await writeFile(
      join(repo.dir, "carried", ".journal-keys", "run-carried.jsonl.key"),
      await readFile(key),
    );
    const error = await runProtocols({ ...base(), resume: carried }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(
      `.journal-keys/run-carried.jsonl.key: cannot read the journal's key (ENOENT); a journal is resumed only with the key its run kept in ${join(repo.dir, ".journal-keys")}`,
    );
  });

  it("--resume refuses a journal that is a symlink, naming it", async () => {
    await runProtocols({ ...base(), all: true, out: out(), writeRecord: failing("ENOSPC") }).catch(
      () => undefined,
    );
    const journal = await onlyJournal();
    const link = join(repo.dir, "link.jsonl");
    await symlink(journal, link);
    const error = await runProtocols({ ...base(), resume: link }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `${link}: expected the run journal as a regular file; got a symlink`,
    );
  });

  it("--resume refuses other options, a journal that is not one, and a protocol changed since", async () => {
    await runProtocols({
      ...base(),
      all: true,
      out: out(),
      writeRecord: failing("ENOSPC"),
    }).catch(() => undefined);
    const journal = await onlyJournal();
    await expect(runProtocols({ ...base(), resume: journal, all: true })).rejects.toThrow(
      /--resume finishes the run its journal holds, as it was planned: drop protocols or --all/,
    );
    const bad = join(repo.dir, "bad.jsonl");
    await writeFile(bad, '{"type":"run"}\n');
    await expect(runProtocols({ ...base(), resume: bad })).rejects.toBeInstanceOf(InputError);
    // Edited since its lock: the run it held can no longer be finished as planned.
    await writeFile(join(repo.dir, REL), protocolText({ expectB: "marker-present" }));
    calls = 0;
    const error = await runProtocols({ ...base(), resume: journal }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/0001-demo\.yaml/);
    expect(calls).toBe(0);
  });
});
