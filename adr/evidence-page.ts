// The evidence page (`witness report`): one self-contained HTML file a reviewer opens on a phone
// or prints. No script, no font, no request: everything it shows is in the file.
import type { DriftTable } from "../measurements/drift.js";
import type { MatrixFlip } from "../measurements/matrix.js";
import type { MeasurementRecord } from "../measurements/record.js";
import type { Question } from "./evidence-questions.js";
import type { AdrRow } from "./gate.js";

/** One cell of the support matrix: a backend's verdict for a value, and the record behind it. */
export interface SupportMatrixCell {
  backend: string;
  value: string;
  verdict: string;
  /** The record cited, with the CLI version it ran; null for a cell that cites none. */
  record: { path: string; version: string | null } | null;
  /** The gate's judgement of the citation; null when the cell cites nothing. */
  ok: boolean | null;
  note: string;
}

/** Everything the page shows. */
export interface EvidencePageInput {
  generatedAt: string;
  adrs: readonly AdrRow[];
  support: readonly SupportMatrixCell[];
  records: readonly { path: string; record: MeasurementRecord }[];
  drift: readonly DriftTable[];
  /** Arms whose verdict differs from the previous version they ran on, per CLI. */
  flips: readonly (MatrixFlip & { cli: string })[];
  questions: readonly Question[];
}

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const e = escapeHtml;
const badge = (word: string) =>
  `<span class="v v-${e(word.split(" ")[0] ?? "")}">${e(word)}</span>`;
const anchor = (path: string) => `r-${path.replace(/[^A-Za-z0-9]+/g, "-")}`;

function table(head: readonly string[], rows: readonly string[][]): string {
  const th = head.map((h) => `<th>${e(h)}</th>`).join("");
  const trs = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("\n");
  return `<div class="scroll"><table><thead><tr>${th}</tr></thead><tbody>\n${trs}\n</tbody></table></div>`;
}

function adrSection(rows: readonly AdrRow[]): string {
  const body = rows.map((r) => [
    e(r.adr.id),
    e(r.adr.title),
    e(r.adr.status?.word ?? "none"),
    badge(r.ok ? "passes" : "fails"),
    [...r.problems.map(e), ...r.evidence.map((v) => `${e(v.protocol)}: ${e(v.note)}`)].join(
      "<br>",
    ) || "requires no protocol",
  ]);
  return `<h2 id="gate">ADR gate</h2>\n${table(["ADR", "title", "status", "gate", "evidence"], body)}`;
}

function flipSection(flips: EvidencePageInput["flips"]): string {
  const body = flips.map((f) => [
    `${e(f.cli)} ${e(f.to)}`,
    `${e(f.protocol)} ${e(f.slug)}`,
    e(f.arm),
    `${badge(f.before)} on ${e(f.from)}`,
    badge(f.after),
  ]);
  return `<h2 id="flips">Flips between versions</h2>\n${
    flips.length === 0
      ? "<p>None: every arm has the same verdict on every version it ran on.</p>"
      : table(["CLI version", "protocol", "arm", "before", "after"], body)
  }`;
}

const list = (items: readonly string[]) => (items.length === 0 ? "none" : items.map(e).join(", "));

function questionSection(questions: readonly Question[]): string {
  const parts = questions.map((q) => {
    const rows = q.arms.flatMap((a) =>
      a.answers.map((v) => [
        `${e(a.arm)}<br><span class="meta">${e(a.description)}</span>`,
        `${e(q.cli)} ${e(v.version)}`,
        badge(v.verdict),
        `reached: ${list(v.reached)}<br>kept out: ${list(v.keptOut)}`,
        `${list(v.ran)}${v.created.length === 0 ? "" : `<br>created: ${list(v.created)}`}`,
      ]),
    );
    return `<h3>${e(q.protocol)} ${e(q.title)}</h3>\n<p>${e(q.hypothesis)}</p>\n${table(
      ["arm", "version", "verdict", "planted markers in model requests", "tool calls"],
      rows,
    )}`;
  });
  return `<h2 id="questions">Questions and what the CLIs did</h2>\n${parts.join("\n")}`;
}

function supportSection(cells: readonly SupportMatrixCell[]): string {
  if (cells.length === 0) return "";
  const body = cells.map((c) => [
    e(c.backend),
    e(c.record?.version ?? "–"),
    e(c.value),
    badge(c.verdict),
    c.record === null
      ? e(c.note)
      : `<a href="#${anchor(c.record.path)}">${e(c.record.path)}</a>${c.ok === false ? ` ${badge("fails")} ${e(c.note)}` : ""}`,
  ]);
  return `<h2 id="support">Support matrix</h2>\n${table(["CLI", "version", "value", "verdict", "record"], body)}`;
}

function recordSection(records: EvidencePageInput["records"]): string {
  const items = records.map(({ path, record: r }) => {
    const arms = r.arms.map((a) => {
      const tally = a.tally.map((t) => `<li>${e(t.label)}: ${t.passed}/${t.of}</li>`).join("");
      const reasons = a.reasons.map((x) => `<li>${e(x)}</li>`).join("");
      return `<div class="arm"><h4>${e(a.id)} ${badge(a.verdict)}</h4><p>${e(a.description)}</p><ul>${tally}</ul>${reasons === "" ? "" : `<ul class="why">${reasons}</ul>`}</div>`;
    });
    return `<section class="record" id="${anchor(path)}"><h3>${e(r.protocol.id)} ${e(r.protocol.title)} on ${e(r.cli.name)} ${e(r.cli.version)} ${badge(r.verdict)}</h3>
<p class="meta">${e(path)} · ${e(r.finishedAt)} · ${r.spawnsPerArm} spawn(s) per arm · ${e(r.isolation.join(", "))}</p>
<p>${e(r.protocol.hypothesis)}</p>
${arms.join("\n")}</section>`;
  });
  return `<h2 id="records">Records</h2>\n${items.join("\n")}`;
}

function driftSection(tables: readonly DriftTable[]): string {
  const parts = tables.map(
    (t) =>
      `<h3>${e(t.cli)}</h3>\n${table(
        ["protocol", "arm", ...t.versions],
        t.rows.map((row) => [
          `${e(row.protocol)} ${e(row.slug)}`,
          `${e(row.arm)}${row.changed ? " " + badge("changed") : ""}`,
          ...t.versions.map((v) => (row.verdicts[v] === undefined ? "–" : badge(row.verdicts[v]))),
        ]),
      )}`,
  );
  return `<h2 id="drift">Drift between versions</h2>\n${parts.join("\n") || "<p>No CLI has records on two versions.</p>"}`;
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;overflow-wrap:break-word;margin:0 auto;max-width:70rem;padding:1rem;color:#111}
h1{font-size:1.5rem}h2{margin-top:2rem;border-bottom:1px solid #ccc}h3{font-size:1.05rem}h4{margin:.5rem 0 0}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;width:100%}th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
.v{display:inline-block;padding:0 .4rem;border-radius:.3rem;font-size:.85em;border:1px solid #999}
.v-confirmed,.v-passes,.v-honoured{background:#d8f5d8}.v-refuted,.v-fails,.v-refused{background:#f8d4d4}
.v-inconclusive,.v-changed,.v-unmeasured{background:#f7ecc4}.meta{color:#555;font-size:.85em}
.record{border-top:1px solid #eee;padding-top:.5rem}.arm{margin-left:1rem}ul{margin:.2rem 0}
nav a{margin-right:1rem}
@media (max-width:40rem){table,tbody,tr,td{display:block}thead{display:none}tr{border:1px solid #ddd;margin-bottom:.5rem}td{border:none;padding:.15rem .5rem}}
@media print{nav{display:none}a{color:inherit;text-decoration:none}.record{break-inside:avoid-page}}`;

/** The page: one HTML document with its style inline and nothing to fetch. */
export function renderEvidencePage(input: EvidencePageInput): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>witness evidence</title><style>${STYLE}</style></head>
<body><h1>witness evidence</h1>
<p class="meta">generated ${e(input.generatedAt)} · ${input.adrs.length} ADR(s) · ${input.records.length} record(s)</p>
<nav><a href="#flips">flips</a><a href="#questions">questions</a><a href="#gate">gate</a><a href="#support">support</a><a href="#records">records</a><a href="#drift">drift</a></nav>
${flipSection(input.flips)}
${questionSection(input.questions)}
${adrSection(input.adrs)}
${supportSection(input.support)}
${recordSection(input.records)}
${driftSection(input.drift)}
</body></html>
`;
}
