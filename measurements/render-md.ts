import { gatesText } from "../prereg/decision.js";
import type { Observation } from "../probes/contracts/observation.js";
import { runtimeText } from "../probes/contracts/runtime.js";
import { heldSummary } from "../probes/isolation/sandbox-report.js";
import type { ArmRecord, MeasurementRecord, SpawnRecord } from "./record.js";
import { orchestratorLines } from "./render-orchestrator.js";
import { useLines } from "./render-use.js";
import { reuseText } from "./reuse-text.js";
import type { WitnessBuild } from "./witness-build.js";

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function code(text: string): string {
  return `\`${text.replaceAll("`", "'")}\``;
}

// The inputs a spawn was given besides its argv, stated only when the launch or fixture set them.
function inputLines(obs: NonNullable<SpawnRecord["observation"]>): string[] {
  const out: string[] = [];
  if (obs.cellRoot === "home")
    out.push(
      "- cell root: under witness's cache directory (`cell.root: home`), not the temp directory",
    );
  const set = Object.entries(obs.launchEnv?.set ?? {}).map(([k, v]) => `${k}=${v}`);
  const unset = obs.launchEnv?.unset ?? [];
  if (set.length + unset.length > 0)
    out.push(
      `- launch env: ${[...(set.length > 0 ? [`set ${code(set.join(" "))}`] : []), ...(unset.length > 0 ? [`unset ${code(unset.join(" "))}`] : [])].join("; ")}`,
    );
  return out;
}

// The CLI's compile cache, stated on every spawn that recorded it (records before it: nothing).
function compileCacheLines(obs: Observation): string[] {
  const c = obs.compileCache;
  if (c === undefined) return [];
  if (c.state === "off") return [`- compile cache: off (${c.why ?? "unknown"})`];
  if (c.state === "read") return [`- compile cache: read from ${code(c.dir ?? "")}`];
  const then = c.published === true ? "published for later spawns" : "not published";
  return [`- compile cache: written into the cell, ${then}`];
}

function spawnLines(spawn: SpawnRecord): string[] {
  const obs = spawn.observation;
  const from = spawn.reused;
  const reused =
    from === undefined
      ? ""
      : ` (reused: spawn ${from.spawn} of run ${from.run}, inputs ${from.inputs})`;
  const lines = [`#### spawn ${spawn.index}: ${spawn.status}${reused}`, ""];
  if (obs === null) return [...lines, `- faults: ${spawn.faults.join("; ")}`, ""];
  const seen = obs.markers.map(
    (m) => `${m.name} ${m.seenIn.length === 0 ? "absent" : `in ${m.seenIn.join("+")}`}`,
  );
  lines.push(
    `- argv: ${code(JSON.stringify(obs.argv))}`,
    `- cwd: ${code(obs.cwd)}`,
    ...inputLines(obs),
    `- env (secrets redacted): ${code(
      Object.entries(obs.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(" "),
    )}`,
    `- CLI run: ${obs.cli.name}@${obs.cli.version}; isolation: ${obs.isolation}${obs.netnsForwarder === undefined ? "" : ` (${obs.netnsForwarder} forwarder)`}; exit ${String(obs.exitCode)}${obs.noRequestReason?.meaning == null ? "" : ` (${obs.noRequestReason.meaning})`}${obs.signal === null ? "" : ` (signal ${obs.signal})`}; ${Math.round(obs.durationMs)} ms; ${obs.requestCount} requests`,
    ...(obs.containmentHeld === undefined
      ? []
      : [`- containment: ${heldSummary(obs.containment ?? "unknown", obs.containmentHeld)}`]),
    ...useLines(obs),
    ...compileCacheLines(obs),
    `- markers: ${seen.join(", ") || "none"}`,
    ...orchestratorLines(obs),
  );
  // A created sentinel and the call that explains it; one no call explains is flagged.
  const created = obs.sentinels.filter((s) => s.created && s.byCall !== undefined);
  if (created.length > 0)
    lines.push(
      `- sentinels created: ${created.map((s) => `${s.name} ${s.byCall === null ? "(FLAGGED: no call that ran names it)" : `by call ${s.byCall}`}${s.madeBySpawn === false ? " (NOT by this spawn's uid)" : ""}`).join(", ")}`,
    );
  if (obs.runtime !== undefined) lines.push(`- runtime: ${runtimeText(obs.runtime)}`);
  // Remotely served flags decide outcomes too: the source, and each cached value that applied.
  if (obs.featureFlags !== undefined) {
    const values = Object.entries(obs.featureFlags.values ?? {})
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(", ");
    lines.push(`- feature flags: ${obs.featureFlags.source}${values === "" ? "" : ` (${values})`}`);
  }
  if (obs.toolCalls.length > 0)
    lines.push(`- tool calls: ${obs.toolCalls.map((c) => `${c.name} ${c.outcome}`).join(", ")}`);
  // Requests besides the agent's turns: listed, never counted as the script's calls or as faults.
  if (obs.sideRequests.length > 0)
    lines.push(
      `- side requests: ${obs.sideRequests.map((r) => `${r.method} ${r.path} ${r.status} ×${r.count}`).join(", ")}`,
    );
  if (obs.helperCalls.length > 0)
    lines.push(`- helper calls: ${obs.helperCalls.map((h) => `${h.kind} ×${h.count}`).join(", ")}`);
  // Every model call by kind, with how the fake answered it: an unclassified one is never hidden.
  if (obs.modelCalls !== undefined && obs.modelCalls.length > 0)
    lines.push(
      `- model calls: ${obs.modelCalls.map((c) => `${c.kind} ×${c.count} (answered ${c.answers.join(", ")}${c.decides === undefined ? "" : `; decides ${c.decides}`})`).join(", ")}`,
    );
  // Machine-wide configuration the CLI reads whatever the cell does: a present file is evidence.
  const managed = obs.managedFiles ?? [];
  if (managed.length > 0) {
    const present = managed.filter((f) => f.present).map((f) => code(f.path));
    const masked = obs.managedMasked;
    lines.push(
      present.length === 0
        ? `- managed configuration: none present (looked for ${managed.map((f) => code(f.path)).join(", ")})`
        : masked === undefined || masked.length === 0
          ? `- managed configuration PRESENT: ${present.join(", ")}`
          : `- managed configuration present, masked: ${present.join(", ")} (the CLI saw ${masked.map(code).join(", ")} empty)`,
    );
  }
  // What the transcript's reader could not use: a CLI format that moved shows here.
  const drift = obs.transcriptWarnings ?? [];
  if (drift.length > 0) lines.push(`- transcript warnings: ${drift.map(code).join("; ")}`);
  if (spawn.faults.length > 0) lines.push(`- faults: ${spawn.faults.join("; ")}`);
  lines.push("", "| predicate | result | explanation |", "|---|---|---|");
  for (const p of spawn.predicates)
    lines.push(`| ${cell(p.label)} | ${p.pass ? "pass" : "FAIL"} | ${cell(p.explanation)} |`);
  return [...lines, ""];
}

/** The arm's workspace trust as a person reads it (unknown in records older than the field). */
export function trustText(arm: ArmRecord): string {
  if (arm.workspaceTrusted === undefined) return "not recorded";
  return arm.workspaceTrusted
    ? "trusted (the CLI's own trust entry written in the cell)"
    : "untrusted (no trust entry, as on a fresh install)";
}

function armLines(arm: ArmRecord): string[] {
  return [
    `### ${arm.id}: ${arm.verdict}`,
    "",
    arm.description,
    "",
    `- workspace trust: ${trustText(arm)}`,
    ...arm.reasons.map((r) => `- ${r}`),
    "",
    "| predicate | passed |",
    "|---|---|",
    ...arm.tally.map((t) => `| ${cell(t.label)} | ${t.passed}/${t.of} |`),
    "",
    ...arm.spawns.flatMap(spawnLines),
  ];
}

function witnessText(build: WitnessBuild): string {
  const commit = build.commit === null ? "no commit known" : `commit ${code(build.commit)}`;
  return `${build.version}, ${commit}${build.dirty === true ? " with uncommitted changes" : ""}`;
}

// The install that ran; a stand-in is named as such, so no reader takes it for the package.
function installLines(record: MeasurementRecord): string[] {
  const i = record.cli.installed;
  if (i === undefined) return [];
  if (i.standIn !== undefined)
    return [`- install: a stand-in, not npm's ${i.pkg} (${i.standIn}); not evidence`];
  return [`- install: ${i.pkg}, npm integrity ${code(i.integrity ?? "none")}`];
}

/** The record as Markdown for people; the JSON record is what tools read. */
export function renderMarkdown(record: MeasurementRecord): string {
  const p = record.protocol;
  const m = record.machine;
  return [
    `# Record: ${p.id} ${p.title}`,
    "",
    `Verdict: **${record.verdict}**. Written by \`witness run\`; do not edit.`,
    "",
    `- protocol: ${code(p.file)} (gates ${gatesText(p)}), hash ${code(p.canonicalHash)}, file bytes ${code(p.bytesHash)}`,
    `- locked at ${p.lockedAt} in commit ${code(p.lockCommit)}`,
    `- CLI: ${record.cli.name}@${record.cli.version}; versions that ran: ${record.cli.versionsRun.join(", ") || "none"}`,
    ...installLines(record),
    ...(record.cli.runtimes ?? []).map((r) => `- runtime: ${runtimeText(r)}`),
    `- machine: ${m.platform} ${m.release} ${m.arch}, Node ${m.node}, ${m.cpus} CPUs; isolation: ${record.isolation.join(", ") || "unknown"}`,
    ...(record.containment === undefined
      ? []
      : [`- containment: ${record.containment.join("; ") || "not measured"}`]),
    `- run: ${record.startedAt} to ${record.finishedAt}, ${record.spawnsPerArm} spawns per arm${timeLimitText(record)}`,
    ...(record.witness === undefined ? [] : [`- witness: ${witnessText(record.witness)}`]),
    ...(reuseText(record) === null ? [] : [`- spawn cache: ${reuseText(record)}`]),
    "",
    `Hypothesis: ${p.hypothesis}`,
    "",
    `Rule: ${record.verdictRule}`,
    "",
    "## Arms",
    "",
    "| arm | workspace | verdict | failed predicates (spawns failing) |",
    "|---|---|---|---|",
    ...record.arms.map((a) => {
      const failed = a.tally
        .filter((t) => t.passed < t.of)
        .map((t) => `${t.label} (${t.of - t.passed}/${t.of})`);
      const trust =
        a.workspaceTrusted === undefined ? "–" : a.workspaceTrusted ? "trusted" : "untrusted";
      return `| ${a.id} | ${trust} | ${a.verdict} | ${cell(failed.join(", ") || "none")} |`;
    }),
    "",
    "## Details",
    "",
    ...record.arms.flatMap(armLines),
  ].join("\n");
}

// A run's spawn time limit, said only when it was not the default.
function timeLimitText(record: MeasurementRecord): string {
  const ms = record.spawnTimeoutMs;
  return ms === undefined ? "" : `, a spawn's time limit ${ms / 1000} s`;
}
