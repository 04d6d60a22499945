// A spawn's observation from its shim record: the reason a spawn that asked the model nothing
// gives (its exit and stderr's end, as a CLI launch says it), and none for a spawn that asked.
import { describe, expect, it } from "vitest";

import { tempDir } from "../../test/support/temp-dir.js";
import type { Cell } from "../cell/cell.js";
import { scriptSchema } from "../contracts/script.js";
import { driverFor } from "../drivers/index.js";
import type { CapturedRequest } from "../fake/server.js";
import { observeSpawns } from "./observe-spawns.js";
import type { SpawnRecord } from "./spawn-records.js";

const record = (spawn: number, stderr: string, exitCode: number): SpawnRecord => ({
  spawn,
  call: { cli: "codex", argv: ["exec", "--cd", "/p"], env: {}, overridden: [], cwd: "/", start: 0 },
  exit: { exitCode, signal: null, end: 5, stdinBytes: 0, stdoutBytes: 0, stderrBytes: 0 },
  stdin: "",
  stdout: "",
  stderr,
  problem: null,
});

describe("observeSpawns", () => {
  it("gives a spawn that reached no model request its reason, and one that asked none", async () => {
    const temp = await tempDir("witness-observe-spawns-");
    try {
      const cell = { root: temp.dir, env: { HOME: temp.dir }, markers: [] } as unknown as Cell;
      const asked: CapturedRequest = {
        method: "POST",
        path: "/s/2/v1/responses",
        headers: {},
        body: { input: [] },
        answer: "final",
        spawn: 2,
      };
      const refusal = "Not inside a trusted directory and --skip-git-repo-check was not specified.";
      const { observations } = await observeSpawns({
        driver: driverFor("codex"),
        records: { spawns: [record(1, `${refusal}\n`, 1), record(2, "", 0)] },
        requests: [asked],
        cell,
        script: scriptSchema.parse({}),
        startedAt: 0,
      });
      expect(observations[0]?.noRequestReason).toEqual({
        exitCode: 1,
        meaning: null,
        stderr: refusal,
      });
      expect(observations[1]?.requestCount).toBe(1);
      expect(observations[1]?.noRequestReason).toBeUndefined();
    } finally {
      await temp.cleanup();
    }
  });
});
