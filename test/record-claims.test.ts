// What README.md and docs/background.md say about a record's verdict is checked against the
// record. A claim is a link whose text is `<protocol>: <verdict>` (or `<protocol>/<arm>:
// <verdict>`) to the record it rests on, e.g. [0011: refuted](docs/measurements/0011-….json);
// a paragraph that names a protocol beside a verdict word without such a link is refused, and so
// is a number of spawns per arm or seconds per spawn stated of every record that some record
// does not have.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

import { describe, expect, it } from "vitest";

import { type MeasurementRecord, recordSchema } from "../measurements/record.js";
import { checkProtocol } from "../prereg/verify.js";
import { WITNESS_ROOT } from "./support/built-cli.js";

const DOCUMENTS = ["README.md", "docs/background.md"];
const MEASUREMENTS = join(WITNESS_ROOT, "docs", "measurements");

/** `[0011/nested-project: refuted](measurements/0011-….json)`: id, optional arm, verdict, target. */
const CLAIM = /\[(\d{4})(?:\/([a-z0-9-]+))?: (confirmed|refuted|inconclusive)\]\(([^)\s]+)\)/g;
const VERDICT_WORD = /\b(?:confirm(?:s|ed)?|refut(?:e|es|ed)|inconclusive)\b/i;

interface Claim {
  document: string;
  id: string;
  arm: string | undefined;
  verdict: string;
  /** The record's JSON, repository-relative (a link to its .md names the same record). */
  record: string;
}

const protocolIds = new Set(
  readdirSync(join(WITNESS_ROOT, "docs", "prereg"))
    .map((f) => /^(\d{4})-.*\.yaml$/.exec(f)?.[1])
    .filter((id) => id !== undefined),
);
const records: { path: string; record: MeasurementRecord }[] = readdirSync(MEASUREMENTS)
  .filter((f) => f.endsWith(".json"))
  .map((f) => ({
    path: `docs/measurements/${f}`,
    record: recordSchema.parse(JSON.parse(readFileSync(join(MEASUREMENTS, f), "utf8"))),
  }));

const text = (document: string) => readFileSync(join(WITNESS_ROOT, document), "utf8");

function claimsIn(document: string): Claim[] {
  return [...text(document).matchAll(CLAIM)].map((m) => ({
    document,
    id: m[1] ?? "",
    arm: m[2],
    verdict: m[3] ?? "",
    record: relative(
      WITNESS_ROOT,
      join(WITNESS_ROOT, dirname(document), (m[4] ?? "").replace(/\.(md|csv)$/, ".json")),
    ),
  }));
}

// Paragraphs and list items: where a protocol and a verdict word stand together in prose.
function paragraphs(document: string): string[] {
  return text(document)
    .replace(/```[\s\S]*?```/g, "")
    .split(/\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )/);
}

/** What is wrong with one claim (empty when the record says what the prose says). */
async function problems(claim: Claim): Promise<string[]> {
  const where = `${claim.document}: ${claim.id}${claim.arm === undefined ? "" : `/${claim.arm}`}: ${claim.verdict}`;
  if (!existsSync(join(WITNESS_ROOT, claim.record))) return [`${where}: no record ${claim.record}`];
  const cited = records.find((r) => r.path === claim.record)?.record;
  if (cited === undefined) return [`${where}: ${claim.record} is not a record`];
  if (cited.protocol.id !== claim.id)
    return [`${where}: ${claim.record} measures ${cited.protocol.id}`];
  // The protocol as registered now: a record of an earlier lock no longer speaks for it.
  const check = await checkProtocol(join(WITNESS_ROOT, cited.protocol.file));
  if (!check.counting.includes(cited.protocol.canonicalHash))
    return [`${where}: ${claim.record} is a record of an earlier lock of ${claim.id}`];
  // Every record of the current lock on that CLI version must say it, not just the one cited.
  const same = records.filter(
    (r) =>
      r.record.protocol.id === claim.id &&
      r.record.selection === undefined &&
      check.counting.includes(r.record.protocol.canonicalHash) &&
      r.record.cli.name === cited.cli.name &&
      r.record.cli.version === cited.cli.version,
  );
  return same.flatMap(({ path, record }) => {
    const verdict =
      claim.arm === undefined
        ? record.verdict
        : (record.arms.find((a) => a.id === claim.arm)?.verdict ?? "no such arm");
    return verdict === claim.verdict ? [] : [`${where}: ${path} says ${verdict}`];
  });
}

describe("what the prose says about records", () => {
  const claims = DOCUMENTS.flatMap(claimsIn);

  it("has claims to check, in both documents", () => {
    for (const document of DOCUMENTS)
      expect(claims.filter((c) => c.document === document).length, document).toBeGreaterThan(0);
  });

  it("every claim of a verdict is the verdict of the current lock's records it cites", async () => {
    const found = (await Promise.all(claims.map(problems))).flat();
    expect(found).toEqual([]);
  });

  it("no paragraph names a protocol beside a verdict without citing the record", () => {
    const uncited = DOCUMENTS.flatMap((document) =>
      paragraphs(document).flatMap((paragraph) => {
        const prose = paragraph.replace(CLAIM, "").replace(/\[[^\]]*\]\([^)]*\)/g, "");
        if (!VERDICT_WORD.test(prose)) return [];
        const bare = [...prose.matchAll(/(?<!ADR )\b(\d{4})\b/g)]
          .map((m) => m[1] ?? "")
          .filter((id) => protocolIds.has(id));
        return bare.map((id) => `${document}: ${id} in "${paragraph.trim().slice(0, 80)}…"`);
      }),
    );
    expect(uncited).toEqual([]);
  });

  it("a number of spawns per arm said of the records holds for every record", () => {
    const counts = new Set(records.map((r) => r.record.spawnsPerArm));
    const wrong = DOCUMENTS.flatMap((document) =>
      [...text(document).matchAll(/\((\d+) spawns per arm\)/g)]
        .filter((m) => counts.size !== 1 || !counts.has(Number(m[1])))
        .map((m) => `${document}: "${m[0]}", records have ${[...counts].join(", ")}`),
    );
    expect(wrong).toEqual([]);
  });

  it("a time per spawn said of every spawn holds for every record's median", () => {
    const wrong = DOCUMENTS.flatMap((document) =>
      [...text(document).matchAll(/about (a|one|\d+) seconds? per spawn/g)].flatMap((m) => {
        const limit = (m[1] === "a" || m[1] === "one" ? 1 : Number(m[1])) * 1.5 * 1000;
        return records
          .filter(({ record }) => {
            const times = record.arms.flatMap((a) =>
              a.spawns.map((s) => s.observation?.durationMs ?? 0),
            );
            const median = times.sort((x, y) => x - y)[Math.floor(times.length / 2)] ?? 0;
            return median > limit;
          })
          .slice(0, 3)
          .map(({ path }) => `${document}: "${m[0]}", but ${path}'s median spawn took longer`);
      }),
    );
    expect(wrong).toEqual([]);
  });
});
