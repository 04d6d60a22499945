// Each journal line carries an HMAC chained over every line before it, keyed by a secret the run
// made and kept in witness's state directory, never beside the journal: an edited, reordered or
// hand-written journal (one carried in a checkout, say) cannot be resumed into a record.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

import { InputError } from "../core/errors.js";
import { makeDirs } from "../core/make-dirs.js";
import { readUserFile } from "../core/read-input.js";

/** The secret of one journal and the last line's MAC, which the next line's MAC covers. */
export interface JournalSeal {
  key: Buffer;
  last: string;
}

/** Where the key of `journal` lives: beside the journal directory `dir` names, not in it. */
export function keyFileOf(dir: string, journal: string): string {
  return join(dirname(dir), ".journal-keys", `${basename(journal)}.key`);
}

/** Makes and stores a new journal's secret (0600, a name never reused); its first MAC follows. */
export async function createSeal(dir: string, journal: string): Promise<JournalSeal> {
  const key = randomBytes(32);
  const file = keyFileOf(dir, journal);
  await makeDirs(dirname(file));
  await writeFile(file, key.toString("hex"), { mode: 0o600, flag: "wx" });
  return { key, last: "" };
}

/** Reads the secret of `journal` from the state directory `dir`; an InputError when there is none. */
export async function readSeal(dir: string, journal: string): Promise<JournalSeal> {
  const file = keyFileOf(dir, journal);
  const hint = `a journal is resumed only with the key its run kept in ${dirname(file)}`;
  const text = (
    await readUserFile(file, "the journal's key", hint, { maxBytes: 256, noSymlink: true })
  ).toString("utf8");
  if (!/^[0-9a-f]{64}$/.test(text))
    throw new InputError(file, [{ path: "", message: "expected 64 hex digits (a journal key)" }]);
  return { key: Buffer.from(text, "hex"), last: "" };
}

function macOf(seal: JournalSeal, body: string): string {
  return createHmac("sha256", seal.key).update(`${seal.last}\n${body}`).digest("hex");
}

/** The line to append for `value`, with its MAC; the seal moves on to it. */
export function sealLine(seal: JournalSeal, value: object): string {
  const mac = macOf(seal, JSON.stringify(value));
  seal.last = mac;
  return JSON.stringify({ ...value, mac });
}

/** True when `parsed` (a line read back) carries the MAC its content and place give; the seal moves on. */
export function openLine(seal: JournalSeal, parsed: unknown): boolean {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
  const { mac, ...value } = parsed as Record<string, unknown>;
  if (typeof mac !== "string" || !/^[0-9a-f]{64}$/.test(mac)) return false;
  const expected = Buffer.from(macOf(seal, JSON.stringify(value)), "hex");
  if (!timingSafeEqual(expected, Buffer.from(mac, "hex"))) return false;
  seal.last = mac;
  return true;
}
