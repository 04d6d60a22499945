// What the cell shims wrote: one directory per spawn (`spawns/<n>/`: call.json, stdin, stdout,
// stderr, exit.json) and one `refused.*` file per spawn past the bound. Read bounded, never trusted blindly:
// the orchestrator runs in the same cell and could write there too.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { z } from "zod";

import { STREAM_BOUND } from "./cell-shims.js";

const callSchema = z.object({
  cli: z.string(),
  argv: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  overridden: z.array(z.string()),
  cwd: z.string(),
  start: z.number(),
});
const exitSchema = z.object({
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  end: z.number(),
  stdinBytes: z.number().int(),
  stdoutBytes: z.number().int(),
  /** Absent in a record from a shim before stderr was kept. */
  stderrBytes: z.number().int().optional(),
  /** What the shim measured of the CLI (assets/cell-shim.mjs); absent from older shims. */
  use: z
    .object({
      wallMs: z.number(),
      userTicks: z.number().int().optional(),
      systemTicks: z.number().int().optional(),
      hwmKb: z.number().int().nullable(),
      shimCpuMs: z.number(),
    })
    .optional(),
});
/** What a shim measured of one CLI process. */
export type ShimUse = NonNullable<z.infer<typeof exitSchema>["use"]>;

/** One spawn as its shim recorded it; `problem` names a record that could not be read. */
export interface SpawnRecord {
  spawn: number;
  call: z.infer<typeof callSchema> | null;
  exit: z.infer<typeof exitSchema> | null;
  stdin: string;
  stdout: string;
  stderr: string;
  problem: string | null;
}

function readBounded(file: string, bound: number): string {
  if (!existsSync(file)) return "";
  const stat = statSync(file);
  if (!stat.isFile() || stat.size > bound) return "";
  return readFileSync(file, "utf8");
}

function readJson<T>(file: string, schema: z.ZodType<T>): T | null {
  const parsed = schema.safeParse(
    (() => {
      try {
        return JSON.parse(readBounded(file, 4 * STREAM_BOUND)) as unknown;
      } catch {
        return null;
      }
    })(),
  );
  return parsed.success ? parsed.data : null;
}

/** The spawns recorded under `spawnsDir`, by number, and how many were refused past the bound. */
export function readSpawnRecords(spawnsDir: string): { spawns: SpawnRecord[]; refused: number } {
  const names = existsSync(spawnsDir) ? readdirSync(spawnsDir) : [];
  const numbers = names
    .filter((n) => /^[1-9]\d{0,5}$/.test(n))
    .map(Number)
    .sort((a, b) => a - b);
  const spawns = numbers.map((spawn) => {
    const dir = join(spawnsDir, String(spawn));
    const call = readJson(join(dir, "call.json"), callSchema);
    const exit = readJson(join(dir, "exit.json"), exitSchema);
    const problem =
      call === null ? `spawn ${spawn}: its shim recorded no readable call (call.json)` : null;
    return {
      spawn,
      call,
      exit,
      stdin: readBounded(join(dir, "stdin"), STREAM_BOUND),
      stdout: readBounded(join(dir, "stdout"), STREAM_BOUND),
      stderr: readBounded(join(dir, "stderr"), STREAM_BOUND),
      problem,
    };
  });
  return { spawns, refused: names.filter((n) => n.startsWith("refused.")).length };
}
