import { z } from "zod";

/** The record format version written by this generator. */
export const SHIM_LOG_VERSION = 1;

/** One invocation of a shim, as one line of the JSONL log. */
export const shimRecordSchema = z.object({
  v: z.literal(SHIM_LOG_VERSION),
  shim: z.string(),
  /** The arguments after the program name, byte for byte (UTF-8). */
  argv: z.array(z.string()),
  /** The physical working directory (symlinks resolved). */
  cwd: z.string(),
  /** The selected variables; secret-named values read `<redacted:N>` (N bytes). */
  env: z.record(z.string(), z.string()),
  /** Start time, epoch milliseconds (10 ms resolution from /proc/uptime on Linux, else from date). */
  start: z.number().int(),
  pid: z.number().int(),
  ppid: z.number().int(),
  mode: z.enum(["script", "plan", "pass-through"]),
  /** Plan mode: this call's number (1-based) and the plan's length. */
  call: z.number().int().positive().optional(),
  planLength: z.number().int().positive().optional(),
  /** Plan mode: the call came after every step was used, and failed. */
  beyondPlan: z.boolean().optional(),
  /** Pass-through: the real binary that ran. */
  target: z.string().optional(),
  /** Bytes read from stdin and their digest; null when stdin was not read (ignored, a terminal, closed). */
  stdin: z
    .object({ bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })
    .nullable(),
  exitCode: z.number().int(),
  /** Pass-through: the signal number the real binary died of, or null. */
  signal: z.number().int().nullable().optional(),
});
/** One shim invocation. */
export type ShimRecord = z.infer<typeof shimRecordSchema>;
