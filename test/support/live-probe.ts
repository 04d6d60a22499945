// A live test file's probe of one pinned CLI: installed once through the vendor cache, each probe
// run in a trusted workspace outside HOME with an empty script unless the test says otherwise.
import { afterAll, beforeAll } from "vitest";

import { PINNED } from "../../clis/pinned.js";
import type { Observation } from "../../probes/contracts/observation.js";
import type { CliRef, ProbeSpec } from "../../probes/contracts/probe-spec.js";
import { releaseWarmSlot } from "../../probes/isolation/netns.js";
import { runProbe } from "../../probes/run-probe.js";
import { type LiveClis, liveClis } from "./live-clis.js";

/** What a probe call may set; the CLI is the file's. */
export type LiveSpec = Partial<Omit<ProbeSpec, "cli">> & Pick<ProbeSpec, "launch">;

/**
 * Registers the install (beforeAll) and the warm namespace's release (afterAll) for the pinned
 * `name` (or `ref`), and returns the probe to call in each test.
 */
export function liveProbe(
  name: CliRef["name"],
  what: string,
  timeoutMs = 60_000,
  /** Another version than the pinned one. */
  ref: CliRef = PINNED[name],
): { clis: LiveClis; probe: (spec: LiveSpec) => Promise<Observation> } {
  const clis = liveClis([ref], what);
  beforeAll(() => clis.install(), 600_000);
  afterAll(releaseWarmSlot);
  const probe = (spec: LiveSpec) =>
    runProbe(
      {
        cli: ref,
        fixture: { workspace: "outside-home", trust: true, files: [] },
        script: { turns: [], final: "done", classifier: "allow" },
        timeoutMs,
        ...spec,
      },
      { cacheDir: clis.cacheDir },
    );
  return { clis, probe };
}

/** Where the marker `name` was seen, or undefined when the observation has no such marker. */
export const seenIn = (o: Observation, name: string) =>
  o.markers.find((m) => m.name === name)?.seenIn;

/** Whether the sentinel `name` was created, or undefined when there is no such sentinel. */
export const created = (o: Observation, name: string) =>
  o.sentinels.find((s) => s.name === name)?.created;
