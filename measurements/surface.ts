// Drift of the surface itself: between versions of a CLI, what the spawns of one protocol arm
// were offered and did besides the verdict: the tools offered, the kinds of helper and model calls
// and side requests, and (traced arms) the instruction-like files read. An item seen on some versions of
// an arm and not on others is a change nobody had to plant for ("2.1.300 starts reading …").
import { compareVersions } from "../core/version-order.js";
import type { MeasurementRecord } from "./record.js";

/** One item whose presence differs between the versions an arm ran on. */
export interface SurfaceChange {
  cli: string;
  protocol: string;
  arm: string;
  aspect: "tool offered" | "helper call" | "model call" | "side request" | "file read";
  item: string;
  seenOn: string[];
  notOn: string[];
}

type Observed = NonNullable<MeasurementRecord["arms"][number]["spawns"][number]["observation"]>;

// Each aspect's items in one spawn; a traced aspect only when the spawn was traced.
const ASPECTS: [SurfaceChange["aspect"], (o: Observed) => string[] | null][] = [
  ["tool offered", (o) => o.toolsOffered],
  ["helper call", (o) => o.helperCalls.map((h) => h.kind)],
  // Observations older than the field say nothing about it: no change is claimed from them.
  ["model call", (o) => (o.modelCalls === undefined ? null : o.modelCalls.map((c) => c.kind))],
  ["side request", (o) => o.sideRequests.map((s) => `${s.method} ${s.path}`)],
  [
    "file read",
    (o) =>
      o.fileTrace !== undefined && "by" in o.fileTrace
        ? (o.fileReads ?? []).map((r) => r.path)
        : null,
  ],
];

/** The surface changes among `records` (the records the drift table counts). */
export function surfaceChanges(records: readonly MeasurementRecord[]): SurfaceChange[] {
  const changes: SurfaceChange[] = [];
  const keys = new Set(
    records.flatMap((r) => r.arms.map((a) => `${r.cli.name}\u0000${r.protocol.id}\u0000${a.id}`)),
  );
  for (const key of [...keys].sort()) {
    const [cli = "", protocol = "", arm = ""] = key.split("\u0000");
    const runs = records
      .filter((r) => r.cli.name === cli && r.protocol.id === protocol)
      .flatMap((r) =>
        r.arms.filter((a) => a.id === arm).map((a) => ({ version: r.cli.version, arm: a })),
      )
      .sort((a, b) => compareVersions(a.version, b.version));
    if (runs.length < 2) continue;
    for (const [aspect, itemsOf] of ASPECTS) {
      const perVersion = new Map<string, Set<string>>();
      for (const run of runs) {
        const observed = run.arm.spawns.flatMap((s) =>
          s.observation === null ? [] : [itemsOf(s.observation)],
        );
        if (observed.length === 0 || observed.some((o) => o === null)) continue;
        perVersion.set(run.version, new Set(observed.flatMap((o) => o ?? [])));
      }
      if (perVersion.size < 2) continue;
      const versions = [...perVersion.keys()];
      const items = new Set([...perVersion.values()].flatMap((s) => [...s]));
      for (const item of [...items].sort()) {
        const seenOn = versions.filter((v) => perVersion.get(v)?.has(item) === true);
        if (seenOn.length === versions.length) continue;
        changes.push({
          cli,
          protocol,
          arm,
          aspect,
          item,
          seenOn,
          notOn: versions.filter((v) => !seenOn.includes(v)),
        });
      }
    }
  }
  return changes;
}

/** The changes as a Markdown table, one row per CLI, aspect, item and versions, naming the arms. */
export function renderSurfaceMarkdown(changes: readonly SurfaceChange[]): string {
  if (changes.length === 0)
    return "No surface change: every arm was offered and did the same on each version it ran on.\n";
  const groups = new Map<string, SurfaceChange[]>();
  for (const c of changes) {
    const key = [c.cli, c.aspect, c.item, c.seenOn.join(","), c.notOn.join(",")].join("\u0000");
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const rows = [...groups.values()].map((g) => {
    const c = g[0] as SurfaceChange;
    const byProtocol = new Map<string, number>();
    for (const x of g) byProtocol.set(x.protocol, (byProtocol.get(x.protocol) ?? 0) + 1);
    const arms = [...byProtocol].map(([p, n]) => `${p} (${n} arm${n === 1 ? "" : "s"})`).join(", ");
    return `| ${c.cli} | ${c.aspect} | \`${c.item}\` | ${c.seenOn.join(", ")} | ${c.notOn.join(", ")} | ${arms} |`;
  });
  return [
    "| CLI | aspect | item | seen on | not on | in |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}
