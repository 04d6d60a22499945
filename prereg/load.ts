import { sha256 } from "../core/canonical.js";
import { protocolFileName } from "../core/doc-paths.js";
import { InputError } from "../core/errors.js";
import { parseDocument, parseWith, readUserFile } from "../core/read-input.js";
import { protocolHash } from "./canonical-form.js";
import { type Protocol, protocolSchema } from "./protocol.js";

/** The largest protocol file (1 MiB): the shipped ones are about 10 kB. */
export const MAX_PROTOCOL_BYTES = 1024 * 1024;

/** A protocol read from disk, with both of its hashes. */
export interface LoadedProtocol {
  file: string;
  protocol: Protocol;
  /** Hash of the protocol in the current canonical form (every default written out): what a lock pins. */
  canonicalHash: string;
  /** Hash of the file's bytes. */
  bytesHash: string;
}

/** Validates protocol text; `file` names it in every error. */
export function parseProtocol(text: string, file: string): Protocol {
  const protocol = parseWith(protocolSchema, parseDocument(text, file), file);
  const named = protocolFileName(file);
  if (named === null) {
    throw new InputError(file, [{ path: "", message: "expected a file named NNNN-<slug>.yaml" }]);
  }
  const issues = [];
  if (named.id !== protocol.id) {
    issues.push({
      path: "id",
      message: `expected "${named.id}" as the file name says; got "${protocol.id}"`,
    });
  }
  if (named.slug !== protocol.slug) {
    issues.push({
      path: "slug",
      message: `expected "${named.slug}" as the file name says; got "${protocol.slug}"`,
    });
  }
  if (issues.length > 0) throw new InputError(file, issues);
  return protocol;
}

/** Reads, validates and hashes a protocol file. */
export async function loadProtocol(file: string): Promise<LoadedProtocol> {
  const bytes = await readUserFile(file, "the protocol", undefined, {
    maxBytes: MAX_PROTOCOL_BYTES,
    noSymlink: true,
  });
  const protocol = parseProtocol(bytes.toString("utf8"), file);
  return { file, protocol, canonicalHash: protocolHash(protocol), bytesHash: sha256(bytes) };
}
