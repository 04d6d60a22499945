// Runs every bench/*.bench.ts (or those named on the command line) and writes docs/benchmarks.md.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import os from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

import { format } from "prettier";

import { writeFileAtomic } from "../core/atomic.js";

/** What a bench module exports by default: run, then return its Markdown section (no top heading). */
export type BenchModule = { default: () => Promise<string> };

const BENCH_DIR = import.meta.dirname;
const OUT = join(BENCH_DIR, "..", "docs", "benchmarks.md");

function machine(): string {
  const cpus = os.cpus();
  return [
    `- CPU: ${cpus[0]?.model ?? "unknown"}, ${cpus.length} logical cores`,
    `- memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${os.type()} ${os.release()} (${os.arch()})`,
    `- Node: ${process.version}`,
    // Other work on the machine inflates every figure: say how busy it was.
    `- load average (1, 5, 15 min) at the end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
    `- date: ${new Date().toISOString()}`,
  ].join("\n");
}

const start = (name: string) => `<!-- bench:${name} start -->`;
const end = (name: string) => `<!-- bench:${name} end -->`;

/** Sections already in the file, so running one bench keeps the others' figures. */
function previousSections(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of text.matchAll(
    /<!-- bench:([\w-]+) start -->\n([\s\S]*?)\n<!-- bench:\1 end -->/g,
  )) {
    if (m[1] !== undefined && m[2] !== undefined) found.set(m[1], m[2]);
  }
  return found;
}

// Written after every bench, so one that fails loses only its own section.
async function writeDoc(): Promise<void> {
  const body = [...sections.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, text]) => `${start(name)}\n${text}\n${end(name)}`)
    .join("\n\n");
  const doc = `# Benchmarks\n\nWritten by \`npm run bench\` (bench/run.ts); each section names the machine it ran on.\n\n${body}\n`;
  // Formatted as `npm run lint` expects, so a bench run never breaks the lint step.
  await writeFileAtomic(OUT, await format(doc, { parser: "markdown" }));
  process.stderr.write(`bench: wrote ${OUT}\n`);
}

const wanted = process.argv.slice(2);
const files = (await readdir(BENCH_DIR)).filter((f) => f.endsWith(".bench.ts")).sort();
const sections = existsSync(OUT)
  ? previousSections(await readFile(OUT, "utf8"))
  : new Map<string, string>();
for (const file of files) {
  const name = basename(file, ".bench.ts");
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  process.stderr.write(`bench: ${name}\n`);
  const mod = (await import(pathToFileURL(join(BENCH_DIR, file)).href)) as BenchModule;
  sections.set(name, `${(await mod.default()).trim()}\n\n${machine()}`);
  await writeDoc();
}
