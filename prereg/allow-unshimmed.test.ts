// An orchestrator launch's allowUnshimmed in a protocol: locked when set, absent from the hash of
// every launch written without it, and refused by field when malformed.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { protocolText } from "../test/support/observations.js";
import { protocolHash } from "./canonical-form.js";
import { parseProtocol } from "./load.js";

const CLI = "sha256:d6b1c4e9e50b7ac0fd5e3cd2b5d9e46a2b7b0f14d4f1e5a0d1f2ec23b0b1a1d5";

describe("allowUnshimmed in a protocol", () => {
  const orchestrated = (extra: string) =>
    protocolText().replace(
      'argv: ["-p", "hi"]',
      `orchestrator: { command: [node, q.mjs], clis: [claude-code]${extra} }`,
    );
  const file = "docs/prereg/0001-demo.yaml";

  it("is locked when set, and leaves a committed orchestrator lock's hash as it was", () => {
    const without = protocolHash(parseProtocol(orchestrated(""), file));
    const allowed = `, allowUnshimmed: [{ path: node_modules/sdk/claude, sha256: "${CLI}" }]`;
    expect(protocolHash(parseProtocol(orchestrated(allowed), file))).not.toBe(without);
    // 0032 was locked before the field existed: its hash is still its lock's.
    const sdk = join(import.meta.dirname, "..", "docs", "prereg", "0032-agent-sdk-setting-sources");
    const lock = JSON.parse(readFileSync(`${sdk}.lock.json`, "utf8")) as { canonicalHash: string };
    const text = readFileSync(`${sdk}.yaml`, "utf8");
    expect(protocolHash(parseProtocol(text, `${sdk}.yaml`))).toBe(lock.canonicalHash);
  });

  it.each([
    [
      `[{ path: ../x, sha256: "${CLI}" }]`,
      "allowUnshimmed.0.path",
      "expected a path inside the cell",
    ],
    ["[{ path: a, sha256: abc }]", "allowUnshimmed.0.sha256", "expected sha256:<64 hex digits>"],
  ])("refuses %s naming the field", (value, field, expected) => {
    expect(() => parseProtocol(orchestrated(`, allowUnshimmed: ${value}`), file)).toThrow(
      new RegExp(
        `${field.replaceAll(".", "\\.")}.*${expected.replace(/[.*+?^${}()|[\]\\<>]/g, "\\$&")}`,
      ),
    );
  });
});
