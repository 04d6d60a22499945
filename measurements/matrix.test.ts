import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { DOCS } from "../core/doc-paths.js";
import { reexpressedHashes } from "../prereg/verify.js";
import { WITNESS_ROOT } from "../test/support/witness-repo.js";
import { buildMatrices } from "./matrix.js";
import { matrixFiles, staleMatrixFiles } from "./matrix-files.js";
import { renderFeeds, renderMatrixPage } from "./matrix-page.js";
import type { MeasurementRecord } from "./record.js";

function record(
  version: string,
  verdict: "confirmed" | "refuted",
  finishedAt: string,
): MeasurementRecord {
  return {
    schema: "witness.record/1",
    protocol: {
      id: "0001",
      slug: "demo",
      title: "Marker B stays out",
      adr: "0001",
      hypothesis: "h",
      file: "docs/prereg/0001-demo.yaml",
      canonicalHash: "sha256:lock1",
      bytesHash: "sha256:b",
      lockCommit: "c",
      lockedAt: "2026-01-01T00:00:00.000Z",
    },
    cli: { name: "claude-code", version, versionsRun: [version] },
    machine: { platform: "linux", release: "6", arch: "x64", node: "v20", cpus: 2 },
    isolation: ["netns"],
    startedAt: finishedAt,
    finishedAt,
    spawnsPerArm: 1,
    verdictRule: "",
    arms: [{ id: "only", description: "d", verdict, reasons: [], tally: [], spawns: [] }],
    verdict,
  };
}

const files = [
  {
    file: "/r/docs/measurements/0001-demo-claude-code-2.1.300.json",
    record: record("2.1.300", "refuted", "2026-03-01T00:00:00.000Z"),
  },
  {
    file: "/r/docs/measurements/0001-demo-claude-code-2.1.90.json",
    record: record("2.1.90", "confirmed", "2026-01-01T00:00:00.000Z"),
  },
  {
    file: "/r/docs/measurements/0001-demo-claude-code-2.1.200.json",
    record: record("2.1.200", "confirmed", "2026-02-01T00:00:00.000Z"),
  },
];

describe("the behaviour matrix", () => {
  it("orders versions as npm does, links each cell to its record, and marks the flip on the version it happened", () => {
    const [m] = buildMatrices(files);
    expect(m?.versions).toEqual(["2.1.90", "2.1.200", "2.1.300"]);
    expect(m?.releases.map((r) => [r.version, r.flips.length])).toEqual([
      ["2.1.300", 1],
      ["2.1.200", 0],
      ["2.1.90", 0],
    ]);
    expect(m?.releases[0]?.flips[0]).toMatchObject({
      from: "2.1.200",
      to: "2.1.300",
      before: "confirmed",
      after: "refuted",
    });
    const page = renderMatrixPage(m!, "/r/docs/versions");
    expect(page).toContain("| 2.1.300 | 0001 demo | only | confirmed on 2.1.200 | refuted |");
    expect(page).toContain(
      "| 0001 Marker B stays out | only | [confirmed](../measurements/0001-demo-claude-code-2.1.90.md) | [confirmed](../measurements/0001-demo-claude-code-2.1.200.md) | ≠ [refuted](../measurements/0001-demo-claude-code-2.1.300.md) |",
    );
  });

  it("writes one feed entry per version with evidence, newest first, naming its flips, in JSON Feed and Atom", () => {
    const { json, atom } = renderFeeds(buildMatrices(files), "https://example.org/docs/versions/");
    const feed = JSON.parse(json) as {
      items: { id: string; title: string; url: string; content_html?: string; summary?: string }[];
    };
    expect(feed.items.map((i) => i.title)).toEqual([
      "claude-code 2.1.300: 1 flip in 1 protocol",
      "claude-code 2.1.200: 0 flips in 1 protocol",
      "claude-code 2.1.90: 0 flips in 1 protocol",
    ]);
    expect(feed.items[0]?.url).toBe("https://example.org/docs/versions/claude-code.md");
    expect(JSON.stringify(feed.items[0])).toContain(
      "0001 demo arm only: confirmed on 2.1.200 -> refuted on 2.1.300",
    );
    expect(atom).toContain("<id>tag:witness,2026:claude-code@2.1.300</id>");
    expect(atom.indexOf("2.1.300: 1 flip")).toBeLessThan(atom.indexOf("2.1.200: 0 flips"));
  });

  it("keeps docs/versions' pages and feed as the committed records give them (regenerate with witness matrix)", async () => {
    const generated = await matrixFiles(
      join(WITNESS_ROOT, DOCS.measurements),
      join(WITNESS_ROOT, DOCS.versions),
      await reexpressedHashes({ cwd: WITNESS_ROOT }),
    );
    expect(await staleMatrixFiles(generated)).toEqual([]);
    const codex = await readFile(join(WITNESS_ROOT, DOCS.versions, "codex.md"), "utf8");
    expect(codex).toContain("## Flips");
    // Every committed record (some 46 MB) is read and every lock's history with it: 55 s alone at
    // load 14, past the default 60 s when the suite's other workers share the cores.
  }, 180_000);
});
