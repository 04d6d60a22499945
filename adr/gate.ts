import { basename, join, relative } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { errorMessage } from "../core/error-text.js";
import { hasCommit, missingCommit, repoRoot } from "../core/git.js";
import { compareVersions } from "../core/version-order.js";
import { recheckRecord } from "../measurements/recheck.js";
import type { Verdict } from "../measurements/record.js";
import { provenanceGaps } from "../measurements/record-provenance.js";
import { type LedgerEntry, readLedger } from "../measurements/run-ledger.js";
import { gatesText } from "../prereg/decision.js";
import { isUsable, listProtocols, type LockCheck } from "../prereg/verify.js";
import { falseAmendments } from "./amendment-check.js";
import { type CommittedRecord, recordsAtHead, type RejectedRecord } from "./committed-records.js";
import { type GateHistory, gateHistory } from "./gate-history.js";
import type { AdrDoc } from "./parse-adr.js";
import { readAdrs } from "./read-adrs.js";
import { type SignatureCheck, signatureCheck } from "./record-signatures.js";

/** What one required protocol contributes to an ADR. */
export interface Evidence {
  protocol: string;
  /** The protocol file, when one with that id exists. */
  file?: string;
  /** The protocol's current lock hash, when it has a usable lock. */
  lockHash: string | null;
  /** The record hashes that stand for that lock: its own and its verified re-expressions. */
  counting: string[];
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

/** What the gate reads: the repository root, its protocols and its records as committed. */
export interface GateContext {
  root: string;
  protocols: string[];
  records: CommittedRecord[];
  /** Files of the records directory that are not evidence (a symlink, not JSON, not a record). */
  rejected: RejectedRecord[];
  /** Record files in the working tree only. */
  uncommitted: string[];
  /** Git's and the protocols' answers, asked once per gate run. */
  history: GateHistory;
  /** The run ledger's entries (this machine's), against which amendments are checked; [] when none is read. */
  ledger: LedgerEntry[];
  /** The records' signature check, when the repository commits an allowed-signers file. */
  signatures: SignatureCheck | null;
}

/** One record judged against its protocol's lock: what it shows, or why it shows nothing. */
export interface RecordJudgement {
  /** The verdict recomputed from its spawns; null when the record is not evidence at all. */
  verdict: Verdict | null;
  /** Null when the record is evidence for the lock; otherwise the sentence that says why not. */
  problem: string | null;
}

// The committed versions of the lock that pin `hash`, oldest first: the lock file's own history.
async function lockVersionsOf(check: LockCheck, ctx: GateContext, hash: string) {
  return (await ctx.history.locks(check.loaded.file)).filter((v) => v.lock.canonicalHash === hash);
}

/**
 * Null when the record was committed after the lock it was run under: the lock's commit and
 * time come from the lock file's history in git, never from the record's own fields.
 */
export async function provenanceProblem(
  r: CommittedRecord,
  check: LockCheck,
  ctx: GateContext,
): Promise<string | null> {
  const versions = await lockVersionsOf(check, ctx, r.record.protocol.canonicalHash);
  const first = versions[0];
  if (first === undefined)
    return `${r.path}: no committed lock pins ${r.record.protocol.canonicalHash}`;
  // The record's own clock against the lock file's: a run that started before the lock is no registered evidence.
  if (Date.parse(r.record.startedAt) < Date.parse(first.lock.lockedAt)) {
    return `${r.path}: the run started before the protocol was locked (${first.lock.lockedAt})`;
  }
  // What the record says of its lock is only cross-checked, never used.
  const claimed = r.record.protocol;
  if (
    !versions.some(
      (v) => v.lock.commit === claimed.lockCommit && v.lock.lockedAt === claimed.lockedAt,
    )
  ) {
    return `${r.path} claims lock commit ${claimed.lockCommit.slice(0, 12)} at ${claimed.lockedAt}; the lock file says ${first.lock.commit.slice(0, 12)} at ${first.lock.lockedAt}`;
  }
  const added = await ctx.history.addedBy(r.path);
  if (added === null) return `${r.path} is not committed`;
  for (const v of versions) {
    if (v.commit !== null && (await ctx.history.follows(added, v.commit))) return null;
  }
  const lockCommit = first.commit ?? "";
  if (!(await hasCommit(lockCommit, ctx.root)))
    return `${r.path}: lock ${missingCommit(lockCommit)}`;
  return `${r.path}: added in ${added.slice(0, 12)}, which does not follow the commit of its lock (${lockCommit.slice(0, 12)})`;
}

/** A record recomputed against the locked protocol, then its provenance when it confirms. */
export function judgeRecord(
  r: CommittedRecord,
  check: LockCheck,
  ctx: GateContext,
): Promise<RecordJudgement> {
  // Several ADRs and support-table cells ask about the same record: judge it once per lock.
  const key = `judge\0${r.path}\0${check.loaded.file}\0${check.loaded.canonicalHash}`;
  return ctx.history.once(key, () => judgeAgainstLock(r, check, ctx));
}

async function judgeAgainstLock(
  r: CommittedRecord,
  check: LockCheck,
  ctx: GateContext,
): Promise<RecordJudgement> {
  const recheck = recheckRecord(r.record, check.loaded.protocol);
  if (recheck.problems.length > 0) {
    const shown = recheck.problems.slice(0, 3).join("; ");
    const more = recheck.problems.length > 3 ? ` (+${recheck.problems.length - 3} more)` : "";
    return { verdict: null, problem: `${r.path} is not evidence: ${shown}${more}` };
  }
  // A record that cannot say what ran (the CLI install, the orchestrator) is history, not evidence.
  const gaps = provenanceGaps(r.record, check.loaded.protocol);
  if (gaps.length > 0) {
    const more = gaps.length > 2 ? ` (+${gaps.length - 2} more)` : "";
    return {
      verdict: null,
      problem: `${r.path} is not evidence: ${gaps.slice(0, 2).join("; ")}${more}`,
    };
  }
  // With signers configured, a record no allowed key signed is not evidence either way.
  const unsigned = ctx.signatures === null ? null : await ctx.signatures.verify(r.path, r.blob);
  if (unsigned !== null)
    return { verdict: null, problem: `${r.path} is not evidence: ${unsigned}` };
  if (recheck.verdict !== "confirmed") return { verdict: recheck.verdict, problem: null };
  return { verdict: recheck.verdict, problem: await provenanceProblem(r, check, ctx) };
}

/** `; refuted on claude-code 2.1.285` for the other versions whose records refute the lock. */
async function refutedElsewhere(
  others: readonly CommittedRecord[],
  check: LockCheck,
  ctx: GateContext,
): Promise<string> {
  const versions = new Set<string>();
  for (const r of others) {
    if ((await judgeRecord(r, check, ctx)).verdict === "refuted")
      versions.add(r.record.cli.version);
  }
  if (versions.size === 0) return "";
  const cli = check.loaded.protocol.cli.name;
  return `; refuted on ${cli} ${[...versions].sort(compareVersions).join(", ")}`;
}

/**
 * What a required protocol contributes: a confirming, committed record of its current lock on
 * the CLI version it was registered for. Records of other versions are named when they refute it.
 */
export async function evidenceFor(id: string, ctx: GateContext): Promise<Evidence> {
  const none = { protocol: id, lockHash: null, counting: [], record: null, ok: false };
  const file = ctx.protocols.find((f) =>
    relative(join(ctx.root, DOCS.prereg), f).startsWith(`${id}-`),
  );
  if (file === undefined) return { ...none, note: `no protocol ${id} in ${DOCS.prereg}` };
  let check;
  try {
    check = await ctx.history.check(file);
  } catch (error) {
    return {
      ...none,
      note: `protocol ${id} is invalid: ${errorMessage(error)}`,
    };
  }
  if (!isUsable(check.state) || check.lock === null)
    return { ...none, note: `protocol ${id}: ${check.message}` };
  // A protocol registered for someone else's decision (or none) is no witness ADR's evidence.
  if (check.loaded.protocol.adr === undefined)
    return {
      ...none,
      file,
      note: `protocol ${id} gates ${gatesText(check.loaded.protocol)}, not a witness ADR`,
    };
  const lockedCheck = check;
  const falsehoods = await ctx.history.once(`amend\0${file}`, () =>
    falseAmendments(lockedCheck, ctx, ctx.ledger),
  );
  if (falsehoods.length > 0) return { ...none, note: `protocol ${id}: ${falsehoods.join("; ")}` };
  const hash = check.lock.canonicalHash;
  const { slug } = check.loaded.protocol;
  const mine = (path: string) => basename(path).startsWith(`${id}-${slug}-`);
  // A record of an earlier canonical form of the same content counts (a verified re-expression).
  const matching = ctx.records.filter(
    (r) => r.record.protocol.id === id && check.counting.includes(r.record.protocol.canonicalHash),
  );
  const base = { protocol: id, file, lockHash: hash, counting: check.counting, ok: false };
  // The protocol's registered CLI version decides; other versions' records are drift to report
  // (witness drift, witness adr status), not evidence for or against the decision as registered.
  const registered = check.loaded.protocol.cli.version;
  const others = matching.filter((r) => r.record.cli.version !== registered);
  const elsewhere = await refutedElsewhere(others, check, ctx);
  const judged: { r: CommittedRecord; j: RecordJudgement }[] = [];
  for (const r of matching.filter((m) => m.record.cli.version === registered))
    judged.push({ r, j: await judgeRecord(r, check, ctx) });
  const refuted = judged.find(({ j }) => j.verdict === "refuted");
  if (refuted !== undefined)
    return { ...base, record: refuted.r.path, note: `refuted by ${refuted.r.path}` };
  const rejected = [
    ...ctx.rejected.filter((x) => mine(x.path)).map((x) => `${x.path} is ${x.problem}`),
    ...ctx.uncommitted.filter(mine).map((path) => `${path} is not committed`),
  ];
  for (const { r, j } of [...judged].reverse()) {
    if (j.verdict === "confirmed" && j.problem === null)
      return { ...base, record: r.path, ok: true, note: `confirmed by ${r.path}${elsewhere}` };
    if (j.problem !== null) rejected.push(j.problem);
  }
  const found = judged.flatMap(({ j }) => (j.verdict === null ? [] : [j.verdict]));
  const stale = ctx.records.filter((r) => r.record.protocol.id === id).length - matching.length;
  const notes = [
    ...(found.length > 0 ? [`found: ${found.join(", ")}`] : []),
    ...(stale > 0 ? [`${stale} record(s) of an earlier version of the protocol do not count`] : []),
  ];
  const why = `no confirming record of ${check.loaded.protocol.cli.name} ${registered} for lock ${hash}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}${elsewhere}`;
  return { ...base, record: null, note: rejected.length > 0 ? rejected.join("; ") : why };
}

/** Judges one ADR as if its status were `asStatus` (the gate uses its own status). */
export async function judgeAdr(adr: AdrDoc, ctx: GateContext, asStatus?: string): Promise<AdrRow> {
  const status = asStatus ?? adr.status?.value ?? null;
  const gated = status === "accepted";
  const problems = [...adr.problems];
  if (adr.status === null && adr.problems.length === 0)
    problems.push("no status line (expected e.g. `Status: Proposed`)");
  if (gated && adr.requires === null && adr.problems.length === 0) {
    problems.push("accepted without a `Requires:` line (list protocol ids, or `Requires: none`)");
  }
  const evidence: Evidence[] = [];
  for (const id of adr.requires ?? []) evidence.push(await evidenceFor(id, ctx));
  const ok = problems.length === 0 && (!gated || evidence.every((e) => e.ok));
  return { adr, gated, evidence, problems, ok };
}

/** What the gate reads beyond the repository: the run ledger, when one is named. */
export interface GateOptions {
  cwd?: string;
  /** The run ledger (`runs.jsonl`) whose entries amendments are checked against. */
  ledger?: string;
}

/** Loads the repository's ADRs, protocols and records. */
export async function loadGateContext(
  cwd: string,
  options: Omit<GateOptions, "cwd"> = {},
): Promise<{ ctx: GateContext; adrs: AdrDoc[] }> {
  const root = await repoRoot(cwd);
  const adrs = await readAdrs(root);
  const history = gateHistory(root);
  const ctx = {
    root,
    protocols: await listProtocols({ cwd: root }),
    ...(await recordsAtHead(root, await history.additions())),
    history,
    ledger: options.ledger === undefined ? [] : await readLedger(options.ledger),
    signatures: await signatureCheck(root),
  };
  return { ctx, adrs };
}

/** Every ADR with its evidence, and the record files that are not evidence (reported by name). */
export async function gateRepository(
  options: GateOptions = {},
): Promise<{ rows: AdrRow[]; rejected: RejectedRecord[] }> {
  const { ctx, adrs } = await loadGateContext(options.cwd ?? process.cwd(), options);
  const rows: AdrRow[] = [];
  for (const adr of adrs) rows.push(await judgeAdr(adr, ctx));
  return { rows, rejected: ctx.rejected };
}

/** Every ADR in docs/adr with its evidence; `ok` false on any row fails the gate. */
export async function gateAdrs(options: GateOptions = {}): Promise<AdrRow[]> {
  return (await gateRepository(options)).rows;
}
