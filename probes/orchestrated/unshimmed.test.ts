// A binary the orchestrator ran without a shim, allowed by content hash: allowed only when the
// file has the allowed hash, is the pinned CLI's byte for byte, and its requests name the version.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { checkUnshimmed, judgeUnshimmed } from "./unshimmed.js";

// sha256 of "cli" and of "other".
const CLI = "sha256:d6b1c4e9e50b7ac0fd5e3cd2b5d9e46a2b7b0f14d4f1e5a0d1f2ec23b0b1a1d5";
const ua = "claude-cli/2.1.332 (external, sdk-ts)";
const cli = "claude-code 2.1.332";

let root: string;
let pinned: string;
let hashOfCli: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "witness-unshimmed-"));
  mkdirSync(join(root, "cell", "node_modules", "sdk"), { recursive: true });
  writeFileSync(join(root, "cell", "node_modules", "sdk", "claude"), "cli");
  pinned = join(root, "pinned-claude");
  writeFileSync(pinned, "cli");
  hashOfCli =
    checkUnshimmed(
      [{ path: "node_modules/sdk/claude", sha256: CLI }],
      join(root, "cell"),
      pinned,
    )[0]?.actual ?? "";
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const judge = (sha256: string, agents = [ua], path = "node_modules/sdk/claude") =>
  judgeUnshimmed(checkUnshimmed([{ path, sha256 }], join(root, "cell"), pinned), agents, cli);

describe("an unshimmed binary allowed by content hash", () => {
  it("is allowed when the file has the allowed hash and is the pinned CLI's", () => {
    expect(hashOfCli).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(judge(hashOfCli)).toEqual({
      allowed: { path: "node_modules/sdk/claude", sha256: hashOfCli },
      fault: null,
    });
  });

  it("is refused naming both hashes when the file's hash is not the allowed one", () => {
    const wrong = `sha256:${"0".repeat(64)}`;
    expect(judge(wrong)).toEqual({
      allowed: null,
      fault: `allowed node_modules/sdk/claude (${wrong}): the file's hash is ${hashOfCli}`,
    });
  });

  it("is refused when the file is not the pinned CLI's binary, naming the pinned hash", () => {
    writeFileSync(pinned, "other");
    const { fault } = judge(hashOfCli);
    expect(fault).toMatch(
      /: not the pinned claude-code 2\.1\.332 binary, whose hash is sha256:[0-9a-f]{64}$/,
    );
    expect(fault).not.toContain(`whose hash is ${hashOfCli}`);
  });

  it("is refused when a request names another version, or the file is missing", () => {
    expect(judge(hashOfCli, ["claude-cli/2.1.300"]).fault).toContain(
      'user-agent "claude-cli/2.1.300" does not name 2.1.332',
    );
    expect(judge(hashOfCli, [ua], "node_modules/sdk/none").fault).toContain(
      "no such file in the cell",
    );
  });
});
