// Records signed by a CI-held key: with an allowed-signers file committed, only a record whose
// committed SSH signature (namespace witness-record) an allowed key made is evidence.
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { runProcess } from "../core/exec.js";
import { runProtocols } from "../measurements/run-protocols.js";
import type { ProbeFn } from "../measurements/runner.js";
import { lockProtocol } from "../prereg/lock.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import {
  marker,
  noInstall,
  npmFacts,
  observation,
  protocolText,
} from "../test/support/observations.js";
import { tempDir } from "../test/support/temp-dir.js";
import { commit, put, putAdr, tempGitRepo } from "../test/support/witness-repo.js";
import { gateAdrs } from "./gate.js";

const REL = "docs/prereg/0001-demo.yaml";
const RECORD = "docs/measurements/0001-demo-claude-code-2.1.332.json";
const KEYGEN = ["/usr/bin/ssh-keygen", "/bin/ssh-keygen"].find((f) => existsSync(f));
let repo: { dir: string; cleanup: () => Promise<void> };
let keys: { dir: string; cleanup: () => Promise<void> };

const seeingA: ProbeFn = (spec: ProbeSpec) =>
  Promise.resolve(
    observation({
      markers: plantedMarkerNames(spec.fixture).map((n) => marker(n, n === "A" ? ["system"] : [])),
    }),
  );

async function keygen(...args: string[]) {
  const result = await runProcess({
    file: KEYGEN ?? "ssh-keygen",
    args,
    env: { PATH: "/usr/bin:/bin" },
    cwd: keys.dir,
  });
  expect(result.exitCode, result.stderr).toBe(0);
}

async function newKey(name: string): Promise<string> {
  await keygen("-q", "-t", "ed25519", "-N", "", "-C", name, "-f", join(keys.dir, name));
  return (await readFile(join(keys.dir, `${name}.pub`), "utf8")).trim();
}

async function sign(key: string, namespace = "witness-record") {
  // ssh-keygen does not replace a signature file.
  await rm(join(repo.dir, `${RECORD}.sig`), { force: true });
  await keygen("-Y", "sign", "-f", join(keys.dir, key), "-n", namespace, join(repo.dir, RECORD));
}

async function gateOk(): Promise<{ ok: boolean; note: string }> {
  const [row] = await gateAdrs({ cwd: repo.dir });
  return { ok: row?.ok ?? false, note: row?.evidence[0]?.note ?? "" };
}

beforeEach(async () => {
  repo = await tempGitRepo();
  keys = await tempDir("witness-keys-");
  await putAdr(repo.dir);
  await put(repo.dir, REL, protocolText());
  await commit(repo.dir, "register");
  await lockProtocol(REL, { cwd: repo.dir });
  await commit(repo.dir, "lock");
  await runProtocols({
    cwd: repo.dir,
    files: [REL],
    install: noInstall,
    facts: npmFacts,
    probe: seeingA,
  });
  await put(repo.dir, "docs/adr/0001-demo.md", "# 0001 Demo\n\nStatus: Accepted\nRequires: 0001\n");
});
afterEach(async () => {
  await repo.cleanup();
  await keys.cleanup();
});

describe.skipIf(KEYGEN === undefined)("records signed by a CI-held key (ssh-keygen -Y)", () => {
  it("without an allowed-signers file, an unsigned record counts as before", async () => {
    await commit(repo.dir, "record");
    expect(await gateOk()).toMatchObject({ ok: true });
  });

  it("with one, refuses an unsigned record and one signed by another key or in another namespace, and takes the CI's", async () => {
    const ci = await newKey("ci");
    await newKey("other");
    await put(
      repo.dir,
      "docs/adr/allowed_signers",
      `ci@witness namespaces="witness-record" ${ci}\n`,
    );
    await commit(repo.dir, "record, signers");
    expect((await gateOk()).note).toBe(
      `${RECORD} is not evidence: no signature: expected ${RECORD}.sig committed, an SSH signature (namespace witness-record) by a key in docs/adr/allowed_signers`,
    );

    await sign("other");
    await commit(repo.dir, "signed by another key");
    const byOther = await gateOk();
    expect(byOther.ok).toBe(false);
    expect(byOther.note).toContain(`${RECORD}.sig: signed by no key in docs/adr/allowed_signers`);

    await sign("ci", "file");
    await commit(repo.dir, "signed by the CI key in another namespace");
    const elsewhere = await gateOk();
    expect(elsewhere.ok).toBe(false);
    expect(elsewhere.note).toContain(`${RECORD}.sig: does not verify for ci@witness`);

    await sign("ci");
    await commit(repo.dir, "signed by the CI key");
    expect(await gateOk()).toMatchObject({ ok: true });
  });
});

if (KEYGEN === undefined)
  console.log("record-signatures.test: skipped, no ssh-keygen (apt-get install openssh-client)");
