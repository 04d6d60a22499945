// `witness run --dry-run` printed: one block per spawn, or the JSON document.
import type { RunProtocolsOptions } from "../measurements/run-protocols.js";
import { printJson } from "./common-options.js";

/** Prints what the run would launch and returns 0 (nothing ran, so nothing failed). */
export async function printDryRun(
  options: Omit<RunProtocolsOptions, "signal">,
  json: boolean,
): Promise<number> {
  const { dryRun } = await import("../measurements/dry-run.js");
  const run = await dryRun(options);
  if (json) {
    printJson(run);
    return 0;
  }
  for (const line of run.skipped) process.stdout.write(`${line}\n`);
  for (const s of run.spawns) {
    const lines = [
      `${s.protocol} ${s.slug} on ${s.cli}, arm ${s.arm}, spawn ${s.spawn} of ${s.of}`,
      `  file:  ${s.file}${s.installed ? "" : " (not installed yet: witness run installs it)"}`,
      `  argv:  ${JSON.stringify(s.args)}`,
      `  cwd:   ${s.cwd}`,
      `  env:   ${Object.entries(s.env)
        .map(([k, v]) => `${k}=${v}`)
        .join("\n         ")}`,
      ...(s.files.length === 0
        ? ["  files: none"]
        : s.files.map(
            (f, i) => `  ${i === 0 ? "files:" : "      "} ${f.path} (${f.content.length} chars)`,
          )),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  const shard =
    run.spawns.length === run.total ? "" : ` (this shard's ${run.spawns.length} of ${run.total})`;
  process.stdout.write(`dry run: ${run.spawns.length} spawn(s)${shard}, nothing spawned\n`);
  return 0;
}
