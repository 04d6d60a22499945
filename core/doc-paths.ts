import { basename, join } from "node:path";

/** Where witness keeps its documents, relative to the repository root. */
export const DOCS = {
  prereg: join("docs", "prereg"),
  measurements: join("docs", "measurements"),
  adr: join("docs", "adr"),
  versions: join("docs", "versions"),
} as const;

const PROTOCOL_NAME = /^(\d{4})-([a-z0-9]+(?:-[a-z0-9]+)*)\.yaml$/;

/** The id and slug a protocol file name declares, or null when it is not `NNNN-slug.yaml`. */
export function protocolFileName(file: string): { id: string; slug: string } | null {
  const match = PROTOCOL_NAME.exec(basename(file));
  return match === null ? null : { id: match[1] ?? "", slug: match[2] ?? "" };
}

/** The lock file beside a protocol. */
export function lockPathOf(protocolFile: string): string {
  return protocolFile.replace(/\.yaml$/, ".lock.json");
}

/** The amendment log beside a protocol. */
export function amendmentsPathOf(protocolFile: string): string {
  return protocolFile.replace(/\.yaml$/, ".amendments.jsonl");
}
