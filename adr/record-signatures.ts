// Records signed by a key the CI holds: when the repository commits an allowed-signers file, a
// record is evidence only with a committed SSH signature (`<record>.sig`, namespace
// witness-record) that one of those keys made over the record's committed bytes. Without the
// file nothing changes. Signing is ssh-keygen's own: `ssh-keygen -Y sign -f <key> -n
// witness-record docs/measurements/<record>.json`.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { runProcess } from "../core/exec.js";
import { runGit, showAt } from "../core/git.js";

/** The allowed-signers file (ssh-keygen's format), read as committed at HEAD. */
export const SIGNERS_FILE = join(DOCS.adr, "allowed_signers");
/** The namespace a record's signature is made in, so no other signature by the key passes. */
export const SIGNATURE_NAMESPACE = "witness-record";

/** Verifies one committed record's signature: null when it holds, else why not. */
export interface SignatureCheck {
  verify(path: string, blob: string): Promise<string | null>;
}

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C" };

async function keygen(args: readonly string[], cwd: string, input?: Uint8Array) {
  const result = await runProcess({
    file: "ssh-keygen",
    args,
    env,
    cwd,
    timeoutMs: 30_000,
    ...(input === undefined ? {} : { input }),
  });
  if (result.spawnError !== null)
    return {
      ok: false,
      out: `cannot run ssh-keygen (${result.spawnError}); install openssh-client`,
    };
  const said = (result.stderr.trim() || result.stdout.trim()).split("\n")[0] ?? "";
  return { ok: result.exitCode === 0, out: result.exitCode === 0 ? result.stdout : said };
}

async function verifyOne(
  root: string,
  signers: string,
  path: string,
  blob: string,
): Promise<string | null> {
  const signature = await showAt("HEAD", `${path}.sig`, root);
  if (signature === null)
    return `no signature: expected ${path}.sig committed, an SSH signature (namespace ${SIGNATURE_NAMESPACE}) by a key in ${SIGNERS_FILE}`;
  const bytes = await runGit(["cat-file", "blob", blob], { cwd: root, binaryStdout: true });
  const dir = await mkdtemp(join(tmpdir(), "witness-signature-"));
  try {
    await writeFile(join(dir, "allowed_signers"), signers);
    await writeFile(join(dir, "record.sig"), signature);
    const found = await keygen(
      ["-Y", "find-principals", "-s", "record.sig", "-f", "allowed_signers"],
      dir,
    );
    const principal = found.ok ? found.out.split("\n")[0]?.trim() : undefined;
    if (principal === undefined || principal === "")
      return `${path}.sig: signed by no key in ${SIGNERS_FILE} (${found.out})`;
    const verified = await keygen(
      ["-Y", "verify", "-f", "allowed_signers", "-I", principal, "-n", SIGNATURE_NAMESPACE].concat([
        "-s",
        "record.sig",
      ]),
      dir,
      bytes.stdoutBytes ?? new Uint8Array(),
    );
    return verified.ok ? null : `${path}.sig: does not verify for ${principal} (${verified.out})`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The check of the repository at `root`, or null when it commits no allowed-signers file. */
export async function signatureCheck(root: string): Promise<SignatureCheck | null> {
  const signers = await showAt("HEAD", SIGNERS_FILE, root);
  if (signers === null) return null;
  return { verify: (path, blob) => verifyOne(root, signers, path, blob) };
}
