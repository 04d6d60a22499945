import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isSecretName } from "../core/child-env.js";
import { run, tempDir } from "../test/support/temp-dir.js";
import { installShims } from "./install.js";
import type { ShimRecord } from "./log-schema.js";
import { readShimLog } from "./read-log.js";

const NAMES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "OPENAI_API_KEY",
  "CODEX_API_KEY",
  "NPM_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "DB_PASSWORD",
  "my_passwd",
  "GITHUB_CREDENTIALS",
  "SESSION_COOKIE",
  "X_SESSION_ID",
  "api_key",
  "lower_token",
  "Mixed_Secret",
  "AUTHOR",
  "MONKEY",
  "ANTHROPIC_BASE_URL",
  "OPENAI_BASE_URL",
  "CLAUDE_CODE_USE_BEDROCK",
  "CODEX_HOME",
  "IS_SANDBOX",
  "HOME",
  "SESSION",
  "TOKE",
];

describe("the shim's secret rule", () => {
  let record: ShimRecord | undefined;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const t = await tempDir();
    cleanup = t.cleanup;
    const s = await installShims({ dir: t.dir, names: ["claude"], env: NAMES });
    await run(join(t.dir, "claude"), [], {
      env: Object.fromEntries(NAMES.map((n) => [n, `v-${n}`])),
    });
    record = (await readShimLog(s.log)).records[0];
  });
  afterAll(() => cleanup());

  it.each(NAMES.map((n) => [n, isSecretName(n)]))(
    "agrees with isSecretName on %s (secret: %s)",
    (name, secret) => {
      const value = `v-${name}`;
      expect(record?.env[name]).toBe(secret ? `<redacted:${value.length}>` : value);
    },
  );

  it("has secret and non-secret names in its table", () => {
    expect(new Set(NAMES.map(isSecretName))).toEqual(new Set([true, false]));
  });
});
