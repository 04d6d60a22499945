// A person-readable summary of one observation (the JSON is the data; this is the screen).
import { type Observation, reasonText } from "./contracts/observation.js";
import { heldSummary } from "./isolation/sandbox-report.js";

// The CLI's own meaning of its exit code, as its driver reads it, beside the code.
function meaning(o: Observation): string {
  const m = o.noRequestReason?.meaning ?? null;
  return m === null ? "" : ` (${m})`;
}
import { runtimeText } from "./contracts/runtime.js";

/** Renders an observation as short labelled lines. */
export function summarizeObservation(o: Observation): string {
  const lines: string[] = [];
  lines.push(
    `${o.cli.name}@${o.cli.version || "?"}  exit ${o.exitCode ?? o.signal ?? "none"}${meaning(o)}  ${Math.round(o.durationMs)} ms  ${o.isolation}  ${o.requestCount} request(s)`,
  );
  lines.push(
    `argv: ${o.argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(" ")}`,
  );
  if (o.containmentHeld !== undefined)
    lines.push(`containment: ${heldSummary(o.containment ?? "unknown", o.containmentHeld)}`);
  if (o.runtime !== undefined) lines.push(`runtime: ${runtimeText(o.runtime)}`);
  for (const p of o.orchestrator?.packages ?? [])
    lines.push(`orchestrator package: ${p.name}@${p.version} (${p.integrity})`);
  for (const s of o.spawns ?? []) {
    const seen = s.markers.filter((m) => m.seenIn.length > 0).map((m) => m.name);
    const mode = s.permissionMode === null ? "" : `, mode ${s.permissionMode}`;
    const calls = s.toolCalls.map((c) => `${c.name} ${c.outcome}`).join(", ");
    lines.push(
      `spawn ${s.spawn}: ${s.cli} ${JSON.stringify(s.argv)} exit ${String(s.exitCode)}, ${s.requestCount} request(s)${mode}, markers seen: ${seen.join(", ") || "none"}${calls === "" ? "" : `, calls: ${calls}`}`,
    );
    // A spawn that asked the model nothing says why, in the CLI's own last words.
    if (s.noRequestReason !== undefined)
      lines.push(`  asked the model nothing: ${reasonText(s.noRequestReason)}`);
  }
  if (o.permissionMode !== null || o.sandboxPolicy !== null) {
    lines.push(
      `permission mode: ${o.permissionMode ?? "-"}  sandbox policy: ${o.sandboxPolicy ?? "-"}`,
    );
  }
  if (o.markers.length > 0) lines.push("markers:");
  for (const m of o.markers) {
    const where = m.seenIn.length > 0 ? `seen in ${m.seenIn.join(", ")}` : "not seen";
    lines.push(`  ${m.name}  ${where}  (planted in ${m.planted.join(", ") || "-"})`);
  }
  if (o.featureFlags !== undefined)
    lines.push(`feature flags: ${o.featureFlags.source} (${o.featureFlags.why})`);
  if (o.fileTrace !== undefined) {
    const t = o.fileTrace;
    lines.push(
      "by" in t
        ? `instruction-like files read (traced, ${t.opened} files opened):`
        : `file trace unavailable: ${t.unavailable}`,
    );
  }
  for (const r of o.fileReads ?? []) {
    const what =
      r.marker === null
        ? "READ BUT NOT PLANTED"
        : `marker ${r.marker} ${r.reachedModel === true ? "reached the model" : "did not reach the model"}`;
    const by = r.by === undefined ? "" : `  (opened by ${r.by})`;
    lines.push(`  ${r.path}  ${what}${r.known ? "" : "  (not in the CLI's known list)"}${by}`);
  }
  if (o.sentinels.length > 0) lines.push("sentinels:");
  for (const s of o.sentinels) {
    const by =
      !s.created || s.byCall === undefined
        ? ""
        : s.byCall === null
          ? "  FLAGGED: no call that ran names it"
          : `  by call ${s.byCall}`;
    const owner = s.madeBySpawn === false ? "  NOT made by this spawn's uid" : "";
    lines.push(`  ${s.name}  ${s.created ? "created" : "absent"}${by}${owner}`);
  }
  if (o.toolCalls.length > 0) lines.push("tool calls:");
  for (const c of o.toolCalls) {
    const decision = c.permissionDecision === null ? "" : `  decision ${c.permissionDecision}`;
    // The transcript's own account, shown only when it differs from the wire's.
    const told =
      c.transcriptOutcome === undefined || c.transcriptOutcome === c.outcome
        ? ""
        : `  (transcript: ${c.transcriptOutcome})`;
    const text = c.resultText.replace(/\s+/g, " ").slice(0, 120);
    lines.push(`  ${c.name} ${c.id}  ${c.outcome}${told}${decision}  ${text}`);
  }
  lines.push(`tools offered (${o.toolsOffered.length}): ${o.toolsOffered.join(", ") || "-"}`);
  const side = o.sideRequests.map((s) => `${s.method} ${s.path} ${s.status} ×${s.count}`);
  if (side.length > 0) lines.push(`side requests: ${side.join(", ")}`);
  const helpers = o.helperCalls.map((h) => `${h.kind} ×${h.count}`);
  if (helpers.length > 0) lines.push(`helper calls (answered with text): ${helpers.join(", ")}`);
  // A managed file on the machine reaches the CLI whatever the cell does: said whenever one exists.
  const managed = (o.managedFiles ?? []).filter((f) => f.present).map((f) => f.path);
  if (managed.length > 0)
    lines.push(
      o.managedMasked !== undefined && o.managedMasked.length > 0
        ? `managed configuration present, masked: ${managed.join(", ")} (the CLI saw ${o.managedMasked.join(", ")} empty)`
        : `managed configuration PRESENT: ${managed.join(", ")}`,
    );
  const drift = o.transcriptWarnings ?? [];
  if (drift.length > 0) lines.push("transcript warnings:", ...drift.map((w) => `  ${w}`));
  if (o.faults.length > 0) lines.push("faults:", ...o.faults.map((f) => `  ${f}`));
  return lines.join("\n");
}
