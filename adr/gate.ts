import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { errorMessage } from "../core/error-text.js";
import { commitThatAdded, hasCommit, isAncestor, missingCommit, repoRoot } from "../core/git.js";
import { type MeasurementRecord, recordSchema } from "../measurements/record.js";
import { checkProtocol, isUsable, listProtocols } from "../prereg/verify.js";
import { type AdrDoc, parseAdr } from "./parse-adr.js";

/** What one required protocol contributes to an ADR. */
export interface Evidence {
  protocol: string;
  /** The protocol's current lock hash, when it has a usable lock. */
  lockHash: string | null;
  /** The confirming record (repository-relative), when one holds. */
  record: string | null;
  ok: boolean;
  /** One line: the confirming record, or why there is none. */
  note: string;
}

/** One ADR as the gate sees it. */
export interface AdrRow {
  adr: AdrDoc;
  /** Whether the gate applies: the ADR says Accepted. */
  gated: boolean;
  evidence: Evidence[];
  problems: string[];
  ok: boolean;
}

/** What the gate reads: the repository root, its protocols and its records. */
export interface GateContext {
  root: string;
  protocols: string[];
  records: { path: string; record: MeasurementRecord }[];
}

async function loadRecords(root: string): Promise<GateContext["records"]> {
  const dir = join(root, DOCS.measurements);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  } catch {
    return [];
  }
  const out: GateContext["records"] = [];
  for (const name of names) {
    const parsed = recordSchema.safeParse(
      JSON.parse(await readFile(join(dir, name), "utf8")) as unknown,
    );
    // A file that is not a record is not evidence; it cannot make an ADR pass.
    if (parsed.success) out.push({ path: join(DOCS.measurements, name), record: parsed.data });
  }
  return out;
}

/** Null when the run followed the lock and the record was committed after its lock commit. */
export async function provenanceProblem(
  r: GateContext["records"][number],
  ctx: GateContext,
): Promise<string | null> {
  // The record's own clock: a run that started before the lock cannot be registered evidence.
  if (Date.parse(r.record.startedAt) < Date.parse(r.record.protocol.lockedAt)) {
    return `${r.path}: the run started before the protocol was locked`;
  }
  const added = await commitThatAdded(r.path, ctx.root);
  if (added === null) return `${r.path} is not committed`;
  if (await isAncestor(r.record.protocol.lockCommit, added, ctx.root)) return null;
  if (!(await hasCommit(r.record.protocol.lockCommit, ctx.root))) {
    return `${r.path}: lock ${missingCommit(r.record.protocol.lockCommit)}`;
  }
  return `${r.path}: lock commit ${r.record.protocol.lockCommit.slice(0, 12)} is not an ancestor of ${added.slice(0, 12)}, which added the record`;
}

/** What a required protocol contributes: a confirming, committed record for its current lock. */
export async function evidenceFor(id: string, ctx: GateContext): Promise<Evidence> {
  const none = { protocol: id, lockHash: null, record: null, ok: false };
  const file = ctx.protocols.find((f) =>
    relative(join(ctx.root, DOCS.prereg), f).startsWith(`${id}-`),
  );
  if (file === undefined) return { ...none, note: `no protocol ${id} in ${DOCS.prereg}` };
  let check;
  try {
    check = await checkProtocol(file);
  } catch (error) {
    return {
      ...none,
      note: `protocol ${id} is invalid: ${errorMessage(error)}`,
    };
  }
  if (!isUsable(check.state) || check.lock === null)
    return { ...none, note: `protocol ${id}: ${check.message}` };
  const hash = check.lock.canonicalHash;
  const matching = ctx.records.filter(
    (r) => r.record.protocol.id === id && r.record.protocol.canonicalHash === hash,
  );
  const base = { protocol: id, lockHash: hash, ok: false };
  const refuted = matching.find((r) => r.record.verdict === "refuted");
  if (refuted !== undefined)
    return { ...base, record: refuted.path, note: `refuted by ${refuted.path}` };
  const confirmed = matching.filter((r) => r.record.verdict === "confirmed").reverse();
  const rejected: string[] = [];
  for (const r of confirmed) {
    const problem = await provenanceProblem(r, ctx);
    if (problem === null)
      return { ...base, record: r.path, ok: true, note: `confirmed by ${r.path}` };
    rejected.push(problem);
  }
  const found = matching.map((r) => r.record.verdict);
  const stale = ctx.records.filter((r) => r.record.protocol.id === id).length - matching.length;
  const notes = [
    ...(found.length > 0 ? [`found: ${found.join(", ")}`] : []),
    ...(stale > 0 ? [`${stale} record(s) of an earlier version of the protocol do not count`] : []),
  ];
  const why =
    rejected.length > 0
      ? rejected.join("; ")
      : `no confirming record for lock ${hash}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
  return { ...base, record: null, note: why };
}

/** Judges one ADR as if its status were `asStatus` (the gate uses its own status). */
export async function judgeAdr(adr: AdrDoc, ctx: GateContext, asStatus?: string): Promise<AdrRow> {
  const status = asStatus ?? adr.status?.value ?? null;
  const gated = status === "accepted";
  const problems = [...adr.problems];
  if (adr.status === null) problems.push("no status line (expected e.g. `Status: Proposed`)");
  if (gated && adr.requires === null && adr.problems.length === 0) {
    problems.push("accepted without a `Requires:` line (list protocol ids, or `Requires: none`)");
  }
  const evidence: Evidence[] = [];
  for (const id of adr.requires ?? []) evidence.push(await evidenceFor(id, ctx));
  const ok = problems.length === 0 && (!gated || evidence.every((e) => e.ok));
  return { adr, gated, evidence, problems, ok };
}

/** Loads the repository's ADRs, protocols and records. */
export async function loadGateContext(cwd: string): Promise<{ ctx: GateContext; adrs: AdrDoc[] }> {
  const root = await repoRoot(cwd);
  const dir = join(root, DOCS.adr);
  let names: string[] = [];
  try {
    names = (await readdir(dir))
      .filter((n) => n.endsWith(".md") && n.toLowerCase() !== "readme.md")
      .sort();
  } catch {
    // No ADR directory: nothing to gate.
  }
  const adrs: AdrDoc[] = [];
  for (const name of names)
    adrs.push(parseAdr(await readFile(join(dir, name), "utf8"), join(DOCS.adr, name)));
  const ctx = {
    root,
    protocols: await listProtocols({ cwd: root }),
    records: await loadRecords(root),
  };
  return { ctx, adrs };
}

/** Every ADR in docs/adr with its evidence; `ok` false on any row fails the gate. */
export async function gateAdrs(options: { cwd?: string } = {}): Promise<AdrRow[]> {
  const { ctx, adrs } = await loadGateContext(options.cwd ?? process.cwd());
  const rows: AdrRow[] = [];
  for (const adr of adrs) rows.push(await judgeAdr(adr, ctx));
  return rows;
}
