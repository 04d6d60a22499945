// What the evidence page leads with: the flips between versions, then each protocol's question in
// its own words with, per arm and version, what reached the model and what ran, before any path.
import { compareVersions } from "../core/version-order.js";
import type { MeasurementRecord, SpawnRecord } from "../measurements/record.js";

/** One arm on one version, in plain words. */
export interface ArmAnswer {
  version: string;
  verdict: string;
  /** Planted markers seen in a model request, with the spawns that saw each (`A 3/3`). */
  reached: string[];
  /** Planted markers no spawn's requests carried. */
  keptOut: string[];
  /** Tool calls by name and outcome (`Bash ran`, `Write denied`), with the spawns seeing each. */
  ran: string[];
  /** Sentinels some spawn created. */
  created: string[];
}

/** One protocol's question and its answers. */
export interface Question {
  protocol: string;
  title: string;
  hypothesis: string;
  cli: string;
  arms: { arm: string; description: string; answers: ArmAnswer[] }[];
}

type Observed = NonNullable<SpawnRecord["observation"]>;

function counted(spawns: readonly Observed[], names: (o: Observed) => string[]): string[] {
  const counts = new Map<string, number>();
  for (const o of spawns)
    for (const n of new Set(names(o))) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, c]) => `${n} ${c}/${spawns.length}`);
}

function answer(record: MeasurementRecord, arm: MeasurementRecord["arms"][number]): ArmAnswer {
  const seen = arm.spawns.flatMap((s) => (s.observation === null ? [] : [s.observation]));
  const planted = [...new Set(seen.flatMap((o) => o.markers.map((m) => m.name)))];
  const reachedNames = (o: Observed) =>
    o.markers.filter((m) => m.seenIn.length > 0).map((m) => m.name);
  const everReached = new Set(seen.flatMap(reachedNames));
  return {
    version: record.cli.version,
    verdict: arm.verdict,
    reached: counted(seen, reachedNames),
    keptOut: planted.filter((n) => !everReached.has(n)),
    ran: counted(seen, (o) => o.toolCalls.map((c) => `${c.name} ${c.outcome}`)),
    created: [
      ...new Set(seen.flatMap((o) => o.sentinels.filter((s) => s.created).map((s) => s.name))),
    ],
  };
}

/** The questions of `records` (the records the drift table counts), one per protocol and CLI. */
export function questionsOf(records: readonly MeasurementRecord[]): Question[] {
  const keys = [...new Set(records.map((r) => `${r.protocol.id}\u0000${r.cli.name}`))].sort();
  return keys.map((key) => {
    const mine = records.filter((r) => `${r.protocol.id}\u0000${r.cli.name}` === key);
    const head = mine[0];
    const byVersion = [...mine].sort((a, b) => compareVersions(a.cli.version, b.cli.version));
    const armIds = [...new Set(mine.flatMap((r) => r.arms.map((a) => a.id)))];
    return {
      protocol: head?.protocol.id ?? "",
      title: head?.protocol.title ?? "",
      hypothesis: head?.protocol.hypothesis ?? "",
      cli: head?.cli.name ?? "",
      arms: armIds.map((id) => ({
        arm: id,
        description: mine.flatMap((r) => r.arms.filter((a) => a.id === id))[0]?.description ?? "",
        answers: byVersion.flatMap((r) =>
          r.arms.filter((a) => a.id === id).map((a) => answer(r, a)),
        ),
      })),
    };
  });
}
