// `witness adr check --reproduce`: every protocol an Accepted ADR requires is run again, and the
// gate passes only when each run reproduces the verdicts of the committed record it stands on.
// The records go to a directory of their own, never into docs/measurements.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Reproduction } from "../measurements/committed-record.js";
import type { RunProtocolsOptions } from "../measurements/run-options.js";
import type { AdrRow } from "./gate.js";

/** One required protocol run again, and how it compares with its committed record. */
export interface Reproduced {
  protocol: string;
  file: string;
  /** The CLI version run (the protocol's registered one). */
  cli: string;
  reproduction: Reproduction;
  ok: boolean;
}

/** The protocol files the Accepted ADRs require, once each, in id order; `only` keeps those ids. */
export function requiredProtocolFiles(
  rows: readonly AdrRow[],
  only?: readonly string[],
): { protocol: string; file: string }[] {
  const files = new Map<string, string>();
  for (const row of rows.filter((r) => r.gated))
    for (const e of row.evidence)
      if (e.file !== undefined && (only === undefined || only.includes(e.protocol)))
        files.set(e.protocol, e.file);
  return [...files]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([protocol, file]) => ({ protocol, file }));
}

/**
 * Runs every required protocol on its registered version (records in a temporary directory,
 * removed after) and says, per protocol, whether it reproduced its committed record's verdicts.
 * `run` is the run pipeline's options beyond the files and where records go.
 */
export async function reproduceRequired(
  rows: readonly AdrRow[],
  run: Omit<RunProtocolsOptions, "files" | "all" | "out" | "clis"> & { only?: readonly string[] },
): Promise<Reproduced[]> {
  const { only, ...options } = run;
  const required = requiredProtocolFiles(rows, only);
  if (required.length === 0) return [];
  const { runProtocols } = await import("../measurements/run-protocols.js");
  const out = await mkdtemp(join(tmpdir(), "witness-reproduce-"));
  try {
    const runs = await runProtocols({ ...options, files: required.map((r) => r.file), out });
    return required.map(({ protocol, file }) => {
      const done = runs.find((r) => r.record.protocol.id === protocol);
      const reproduction: Reproduction = done?.reproduction ?? {
        kind: "none",
        why: "the run wrote no record of it",
      };
      return {
        protocol,
        file,
        cli: done === undefined ? "" : `${done.record.cli.name}@${done.record.cli.version}`,
        reproduction,
        ok: reproduction.kind === "compared" && reproduction.reproduces,
      };
    });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
