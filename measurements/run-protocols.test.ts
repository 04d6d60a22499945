import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { RefusalError, UsageError } from "../core/errors.js";
import { lockProtocol } from "../prereg/lock.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import { marker, observation, protocolText } from "../test/support/observations.js";
import { commit, put, tempGitRepo } from "../test/support/witness-repo.js";
import { diffRecords } from "./diff.js";
import { recordSchema } from "./record.js";
import { runProtocols } from "./run-protocols.js";
import type { ProbeFn } from "./runner.js";

const REL = "docs/prereg/0001-demo.yaml";
let repo: { dir: string; cleanup: () => Promise<void> };
let calls = 0;
const seeing =
  (names: string[]): ProbeFn =>
  (spec: ProbeSpec) => {
    calls++;
    return Promise.resolve(
      observation({
        markers: plantedMarkerNames(spec.fixture).map((n) =>
          marker(n, names.includes(n) ? ["system"] : []),
        ),
      }),
    );
  };

beforeEach(async () => {
  calls = 0;
  repo = await tempGitRepo();
  await put(repo.dir, REL, protocolText());
  await commit(repo.dir, "register 0001");
});
afterEach(() => repo.cleanup());

const out = () => join(repo.dir, "records");

describe("runProtocols", () => {
  it("refuses an unlocked protocol before any spawn", async () => {
    const error = await runProtocols({
      cwd: repo.dir,
      files: [REL],
      probe: seeing(["A"]),
      out: out(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusalError);
    expect((error as Error).message).toMatch(/0001-demo\.yaml: not locked/);
    expect(calls).toBe(0);
  });

  it("refuses a protocol edited after its lock, naming the file and both hashes", async () => {
    const { lock } = await lockProtocol(REL, { cwd: repo.dir });
    await writeFile(join(repo.dir, REL), protocolText({ expectB: "marker-present" }));
    const error = await runProtocols({
      cwd: repo.dir,
      all: true,
      probe: seeing(["A"]),
      out: out(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusalError);
    const message = (error as Error).message;
    expect(message).toContain(join(repo.dir, REL));
    expect(message).toContain(`lock hash ${lock.canonicalHash}`);
    expect(message).toMatch(/file hash sha256:[0-9a-f]{64}/);
    expect(calls).toBe(0);
  });

  it("fails on an unwritable records directory before any spawn", async () => {
    await lockProtocol(REL, { cwd: repo.dir });
    const blocker = await put(repo.dir, "not-a-dir", "x");
    const run = runProtocols({
      cwd: repo.dir,
      files: [REL],
      probe: seeing(["A"]),
      out: join(blocker, "records"),
    });
    await expect(run).rejects.toBeInstanceOf(UsageError);
    expect(calls).toBe(0);
  });

  it("writes md, json and csv, then a -2 record that reproduces the first without touching it", async () => {
    await lockProtocol(REL, { cwd: repo.dir });
    const [first] = await runProtocols({
      cwd: repo.dir,
      all: true,
      probe: seeing(["A"]),
      out: out(),
    });
    expect(first?.written.json).toBe(join(out(), "0001-demo-claude-code-2.1.332.json"));
    expect(first?.reproduces).toBeNull();
    const before = await readFile(first?.written.json ?? "", "utf8");
    const record = recordSchema.parse(JSON.parse(before));
    expect(record.verdict).toBe("confirmed");
    const csv = (await readFile(first?.written.csv ?? "", "utf8")).trim().split("\n");
    expect(csv).toHaveLength(1 + 2 * 3); // header + spawns × predicates
    expect(await readFile(first?.written.md ?? "", "utf8")).toContain("Verdict: **confirmed**");

    const [second] = await runProtocols({
      cwd: repo.dir,
      all: true,
      probe: seeing(["A"]),
      out: out(),
    });
    expect(second?.written.json).toBe(join(out(), "0001-demo-claude-code-2.1.332-2.json"));
    expect(second?.reproduces).toBe(true);
    expect(await readFile(first?.written.json ?? "", "utf8")).toBe(before);

    const [third] = await runProtocols({
      cwd: repo.dir,
      all: true,
      probe: seeing(["A", "B"]),
      out: out(),
    });
    expect(third?.written.json).toMatch(/-3\.json$/);
    expect(third?.reproduces).toBe(false);
    const diff = diffRecords(record, third?.record ?? record);
    expect(diff[0]).toMatchObject({
      arm: "only",
      before: "confirmed",
      after: "refuted",
      changed: true,
    });
    expect(diff[0]?.predicates).toEqual(["marker-absent B 2/2 -> 0/2"]);
  });

  it("leaves no record and no temporary file when aborted", async () => {
    await lockProtocol(REL, { cwd: repo.dir });
    const controller = new AbortController();
    const probe: ProbeFn = (spec, options) => {
      controller.abort();
      return options.signal?.aborted === true
        ? Promise.reject(new Error("aborted"))
        : seeing(["A"])(spec, options);
    };
    await expect(
      runProtocols({ cwd: repo.dir, all: true, probe, signal: controller.signal, out: out() }),
    ).rejects.toThrow();
    expect(await readdir(out())).toEqual([]);
  });

  it("asks for protocols or --all, not neither and not both", async () => {
    await expect(runProtocols({ cwd: repo.dir, probe: seeing([]) })).rejects.toBeInstanceOf(
      UsageError,
    );
    await expect(
      runProtocols({ cwd: repo.dir, all: true, files: [REL], probe: seeing([]) }),
    ).rejects.toBeInstanceOf(UsageError);
  });
});
