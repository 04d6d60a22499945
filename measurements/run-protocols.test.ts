import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { RefusalError, UsageError } from "../core/errors.js";
import { lockProtocol } from "../prereg/lock.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import { marker, noInstall, observation, protocolText } from "../test/support/observations.js";
import { commit, put, registeredRepo } from "../test/support/witness-repo.js";
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
  repo = await registeredRepo(REL, protocolText(), { lock: false });
});
afterEach(() => repo.cleanup());

const out = () => join(repo.dir, "records");

describe("runProtocols", () => {
  it("refuses an unlocked protocol before any spawn", async () => {
    const error = await runProtocols({
      cwd: repo.dir,
      files: [REL],
      install: noInstall,
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
      install: noInstall,
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
      install: noInstall,
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
      install: noInstall,
      probe: seeing(["A"]),
      out: out(),
    });
    expect(first?.written.json).toBe(join(out(), "0001-demo-claude-code-2.1.332.json"));
    expect(first?.reproduction).toEqual({
      kind: "none",
      why: "nothing committed to compare with: no record of protocol 0001 for this lock on claude-code@2.1.332",
    });
    const before = await readFile(first?.written.json ?? "", "utf8");
    const record = recordSchema.parse(JSON.parse(before));
    expect(record.verdict).toBe("confirmed");
    const csv = (await readFile(first?.written.csv ?? "", "utf8")).trim().split("\n");
    expect(csv).toHaveLength(1 + 2 * 3); // header + spawns × predicates
    expect(await readFile(first?.written.md ?? "", "utf8")).toContain("Verdict: **confirmed**");

    const [second] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe: seeing(["A"]),
      out: out(),
    });
    expect(second?.written.json).toBe(join(out(), "0001-demo-claude-code-2.1.332-2.json"));
    // A record on disk is not the reference: only a committed one is.
    expect(second?.reproduction.kind).toBe("none");
    expect(await readFile(first?.written.json ?? "", "utf8")).toBe(before);

    const [third] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe: seeing(["A", "B"]),
      out: out(),
    });
    expect(third?.written.json).toMatch(/-3\.json$/);
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
      runProtocols({
        cwd: repo.dir,
        all: true,
        install: noInstall,
        probe,
        signal: controller.signal,
        out: out(),
      }),
    ).rejects.toThrow();
    expect(await readdir(out())).toEqual([]);
  });

  it("gives every spawn the run's --timeout and states it in the record; none given, neither", async () => {
    await lockProtocol(REL, { cwd: repo.dir });
    const limits: number[] = [];
    const probe: ProbeFn = (spec, options) => {
      limits.push(spec.timeoutMs);
      return seeing(["A"])(spec, options);
    };
    const [set] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe,
      out: out(),
      timeoutMs: 150_000,
    });
    expect(new Set(limits)).toEqual(new Set([150_000]));
    const record = recordSchema.parse(JSON.parse(await readFile(set?.written.json ?? "", "utf8")));
    expect(record.spawnTimeoutMs).toBe(150_000);
    expect(await readFile(set?.written.md ?? "", "utf8")).toContain("a spawn's time limit 150 s");
    limits.length = 0;
    const [unset] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe,
      out: out(),
      fresh: true,
    });
    expect(new Set(limits)).toEqual(new Set([60_000]));
    const plain = recordSchema.parse(JSON.parse(await readFile(unset?.written.json ?? "", "utf8")));
    expect(plain.spawnTimeoutMs).toBeUndefined();
  });

  it("asks for protocols or --all, not neither and not both", async () => {
    await expect(
      runProtocols({ cwd: repo.dir, install: noInstall, probe: seeing([]) }),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      runProtocols({
        cwd: repo.dir,
        all: true,
        files: [REL],
        install: noInstall,
        probe: seeing([]),
      }),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it("compares with the committed record of the same lock and version, naming it and the spawn counts", async () => {
    await lockProtocol(REL, { cwd: repo.dir });
    const records = join(repo.dir, "docs", "measurements");
    await runProtocols({ cwd: repo.dir, all: true, install: noInstall, probe: seeing(["A"]) });
    await commit(repo.dir, "record 0001");
    const [same] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe: seeing(["A"]),
      spawns: 1,
    });
    expect(same?.reproduction).toEqual({
      kind: "compared",
      committed: "docs/measurements/0001-demo-claude-code-2.1.332.json",
      reproduces: true,
      spawns: { committed: 2, now: 1 },
    });
    const [differs] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe: seeing(["A", "B"]),
    });
    expect(differs?.reproduction).toMatchObject({
      kind: "compared",
      reproduces: false,
      spawns: null,
    });
    expect((await readdir(records)).filter((n) => n.endsWith(".json"))).toHaveLength(3);
    // Committed, the later record (…-3, B seen) becomes the reference: a run seeing B reproduces.
    await commit(repo.dir, "records -2 and -3");
    const [later] = await runProtocols({
      cwd: repo.dir,
      all: true,
      install: noInstall,
      probe: seeing(["A", "B"]),
    });
    expect(later?.reproduction).toMatchObject({
      committed: "docs/measurements/0001-demo-claude-code-2.1.332-3.json",
      reproduces: true,
    });
  });

  it("runs each --cli version on its CLI's protocols only, skipping the others with a line", async () => {
    await put(
      repo.dir,
      "docs/prereg/0002-other.yaml",
      protocolText({ id: "0002", slug: "other" }).replace("claude-code", "codex"),
    );
    await commit(repo.dir, "register 0002");
    await lockProtocol(REL, { cwd: repo.dir });
    await lockProtocol("docs/prereg/0002-other.yaml", { cwd: repo.dir });
    const ran: string[] = [];
    const installed: string[][] = [];
    const skipped: string[] = [];
    const probe: ProbeFn = (spec, options) => {
      ran.push(`${spec.cli.name}@${spec.cli.version}`);
      return seeing(["A"])(spec, options).then((o) => ({ ...o, cli: spec.cli }));
    };
    const runs = await runProtocols({
      cwd: repo.dir,
      all: true,
      out: out(),
      clis: [
        { name: "claude-code", version: "2.1.282" },
        { name: "claude-code", version: "2.1.332" },
      ],
      install: (refs) => {
        installed.push(refs.map((r) => `${r.name}@${r.version}`));
        return Promise.resolve();
      },
      onSkip: (line) => skipped.push(line),
      probe,
    });
    expect(runs.map((r) => `${r.record.protocol.id} ${r.record.cli.version}`)).toEqual([
      "0001 2.1.282",
      "0001 2.1.332",
    ]);
    expect(installed).toEqual([["claude-code@2.1.282", "claude-code@2.1.332"]]);
    expect(new Set(ran)).toEqual(new Set(["claude-code@2.1.282", "claude-code@2.1.332"]));
    expect(skipped).toEqual([
      "skipped 0002 other: it runs codex, and --cli names only claude-code",
    ]);
  });

  it("stops before any spawn and writes nothing when an install fails", async () => {
    await lockProtocol(REL, { cwd: repo.dir });
    const install = () =>
      Promise.reject(new UsageError("cannot install claude-code@2.1.282: offline"));
    const run = runProtocols({
      cwd: repo.dir,
      all: true,
      out: out(),
      install,
      probe: seeing(["A"]),
    });
    await expect(run).rejects.toThrow("offline");
    expect(calls).toBe(0);
    expect(await readdir(out())).toEqual([]);
  });
});
