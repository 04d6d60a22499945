import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { demoRecord, observation } from "../test/support/observations.js";
import { tempDir } from "../test/support/temp-dir.js";
import { driftTables, readRecordFilesIn, renderDriftMarkdown } from "./drift.js";
import type { MeasurementRecord } from "./record.js";

function record(
  version: string,
  verdict: "confirmed" | "refuted" | "inconclusive",
  extra: Partial<MeasurementRecord> = {},
): MeasurementRecord {
  const refused = observation({
    rejectedArgv: { flag: "--tools", message: "error: unknown option '--tools'" },
  });
  const spawn = { index: 1, status: "fault" as const, faults: [], predicates: [] };
  const base = demoRecord(
    version,
    [
      {
        id: "only",
        description: "d",
        verdict,
        reasons: [],
        tally: [],
        spawns: [{ ...spawn, observation: verdict === "inconclusive" ? refused : null }],
      },
    ],
    { protocol: { canonicalHash: "sha256:lock1" } },
  );
  return { ...base, ...extra };
}

describe("records read from a directory", () => {
  it("are the directory's own files: a symlink to a record elsewhere is not one", async () => {
    const { dir, cleanup } = await tempDir("witness-drift-");
    try {
      await mkdir(join(dir, "records"));
      await writeFile(join(dir, "elsewhere.json"), JSON.stringify(record("2.1.1", "refuted")));
      await writeFile(
        join(dir, "records", "own.json"),
        JSON.stringify(record("2.1.2", "confirmed")),
      );
      await symlink(join(dir, "elsewhere.json"), join(dir, "records", "linked.json"));
      const found = await readRecordFilesIn(join(dir, "records"));
      expect(found.map((f) => f.record.cli.version)).toEqual(["2.1.2"]);
    } finally {
      await cleanup();
    }
  });
});

describe("the drift table", () => {
  it("puts each arm's verdict under each version in npm order, marking a changed row", () => {
    const tables = driftTables([
      record("2.1.332", "confirmed"),
      record("2.1.282", "refuted"),
      record("1.0.128", "inconclusive"),
    ]);
    expect(tables).toHaveLength(1);
    expect(tables[0]?.versions).toEqual(["1.0.128", "2.1.282", "2.1.332"]);
    expect(renderDriftMarkdown(tables)).toContain(
      "| 0001 demo | only | inconclusive (rejected `--tools`) | refuted | confirmed | ≠ |",
    );
  });

  it("keeps only the records of a protocol's latest lock, and the last of one version", () => {
    const old = record("2.1.282", "refuted", {
      protocol: {
        ...record("x", "confirmed").protocol,
        canonicalHash: "sha256:lock0",
        lockedAt: "2025-01-01T00:00:00.000Z",
      },
    });
    const later = record("2.1.332", "refuted", { finishedAt: "2026-01-03T00:00:00.000Z" });
    const tables = driftTables([old, record("2.1.332", "confirmed"), later]);
    expect(tables[0]?.versions).toEqual(["2.1.332"]);
    expect(tables[0]?.rows[0]?.verdicts).toEqual({ "2.1.332": "refuted" });
    expect(tables[0]?.rows[0]?.changed).toBe(false);
  });

  it("keeps a record of an earlier canonical form of the latest lock in its column", () => {
    const old = record("2.1.282", "refuted", {
      protocol: {
        ...record("x", "confirmed").protocol,
        canonicalHash: "sha256:lock0",
        lockedAt: "2025-01-01T00:00:00.000Z",
      },
    });
    const tables = driftTables(
      [old, record("2.1.332", "confirmed")],
      new Map([["sha256:lock0", "sha256:lock1"]]),
    );
    expect(tables[0]?.versions).toEqual(["2.1.282", "2.1.332"]);
    expect(tables[0]?.rows[0]?.changed).toBe(true);
  });
});
