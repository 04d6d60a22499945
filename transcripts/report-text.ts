// A session report as lines for a person (`witness transcript` without --json).
import type { SessionReport } from "./session-report.js";

/** Consecutive equal values folded: `default (lines 3, 20)`. */
function runs<T extends { line: number }>(items: readonly T[], value: (item: T) => string): string {
  const folded: { value: string; lines: number[] }[] = [];
  for (const item of items) {
    const last = folded.at(-1);
    if (last?.value === value(item)) last.lines.push(item.line);
    else folded.push({ value: value(item), lines: [item.line] });
  }
  if (folded.length === 0) return "not recorded";
  return folded
    .map((f) => `${f.value} (line${f.lines.length > 1 ? "s" : ""} ${f.lines.join(", ")})`)
    .join(" → ");
}

/** The report as text lines; `indent` prefixes every line (sidechains are indented). */
export function renderSessionReport(report: SessionReport, indent = ""): string[] {
  const usage = report.usage;
  const lines = [
    `${report.file}`,
    `  cli: ${report.cli}${report.cliVersion === null ? "" : `@${report.cliVersion}`}`,
    `  session: ${report.sessionId ?? "unknown"}`,
    `  cwd: ${report.cwd ?? "unknown"}`,
    `  model: ${report.models.join(", ") || "not recorded"}`,
    `  permission modes: ${runs(report.permissionModes, (m) => m.mode)}`,
  ];
  if (report.sandboxPolicies.length > 0)
    lines.push(`  sandbox policies: ${runs(report.sandboxPolicies, (p) => p.policy)}`);
  if (usage !== null)
    lines.push(
      `  tokens: ${usage.inputTokens} in (${usage.cachedInputTokens} cached), ${usage.outputTokens} out`,
    );
  lines.push(`  tool calls: ${report.calls.length === 0 ? "none" : ""}`);
  for (const [index, c] of report.calls.entries()) {
    const exit = c.exitCode === null ? "" : `, exit ${c.exitCode}`;
    lines.push(
      `    ${index + 1}. line ${c.line} ${c.name} ${c.inputSummary}`,
      `       → ${c.outcome}${exit} (${c.because})`,
    );
  }
  lines.push(
    `  final text: ${report.finalText === null ? "none" : JSON.stringify(report.finalText)}`,
  );
  lines.push(
    `  lines: ${report.lineCount}; warnings: ${report.warnings.length === 0 ? "none" : ""}`,
  );
  for (const warning of report.warnings) lines.push(`    ${warning}`);
  for (const side of report.sidechains) {
    lines.push(`  sidechain:`);
    lines.push(...renderSessionReport(side, "    "));
  }
  return lines.map((line) => `${indent}${line}`.trimEnd());
}
