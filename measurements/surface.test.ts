import { describe, expect, it } from "vitest";

import type { Observation } from "../probes/contracts/observation.js";
import { demoRecord, observation } from "../test/support/observations.js";
import type { MeasurementRecord } from "./record.js";
import { renderSurfaceMarkdown, surfaceChanges } from "./surface.js";

function record(version: string, o: Partial<Observation>): MeasurementRecord {
  const spawn = { index: 1, status: "as-expected" as const, faults: [], predicates: [] };
  return demoRecord(version, [
    {
      id: "only",
      description: "d",
      verdict: "confirmed",
      reasons: [],
      tally: [],
      spawns: [{ ...spawn, observation: observation(o) }],
    },
  ]);
}

const traced = (paths: string[]): Partial<Observation> => ({
  fileTrace: { by: "strace", opened: 10, relative: 0 },
  fileReads: paths.map((path) => ({ path, known: false, marker: null, reachedModel: null })),
});

describe("drift of the surface", () => {
  it("names what an arm was offered or read on some versions and not others, and nothing that stayed the same", () => {
    const changes = surfaceChanges([
      record("2.1.276", { toolsOffered: ["Bash", "Read"], ...traced(["ws/CLAUDE.md"]) }),
      record("2.1.277", {
        toolsOffered: ["Bash", "Read", "ToolSearch"],
        ...traced(["ws/CLAUDE.md", "ws/AGENTS.md"]),
      }),
    ]);
    expect(changes).toEqual([
      {
        cli: "claude-code",
        protocol: "0001",
        arm: "only",
        aspect: "tool offered",
        item: "ToolSearch",
        seenOn: ["2.1.277"],
        notOn: ["2.1.276"],
      },
      {
        cli: "claude-code",
        protocol: "0001",
        arm: "only",
        aspect: "file read",
        item: "ws/AGENTS.md",
        seenOn: ["2.1.277"],
        notOn: ["2.1.276"],
      },
    ]);
    expect(renderSurfaceMarkdown(changes)).toContain(
      "| claude-code | file read | `ws/AGENTS.md` | 2.1.277 | 2.1.276 | 0001 (1 arm) |",
    );
  });

  it("compares files read only between traced spawns: an untraced version says nothing about reads", () => {
    const changes = surfaceChanges([
      record("2.1.276", {}),
      record("2.1.277", traced(["ws/AGENTS.md"])),
    ]);
    expect(changes.filter((c) => c.aspect === "file read")).toEqual([]);
  });

  it("names a kind of model call a version starts making, and says nothing from an observation without the account", () => {
    const calls = (kinds: string[]): Partial<Observation> => ({
      modelCalls: kinds.map((kind) => ({ kind, count: 1, answers: ["turn:0"] })),
    });
    // 2.1.278's observation predates the account: it is left out, not counted as "no calls".
    const changes = surfaceChanges([
      record("2.1.276", calls(["main"])),
      record("2.1.277", calls(["main", "unclassified"])),
      record("2.1.278", {}),
    ]);
    expect(changes.filter((c) => c.aspect === "model call")).toEqual([
      expect.objectContaining({ item: "unclassified", seenOn: ["2.1.277"], notOn: ["2.1.276"] }),
    ]);
  });
});
