// The gate's reading of docs/measurements is bounded on git's sizes, before any blob is read: a
// record over the bound is named and not read, and too many records or bytes stop the gate (exit 2).
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { InputError } from "../core/errors.js";
import { commit, put, tempGitRepo } from "../test/support/witness-repo.js";
import { RECORD_LIMITS, recordsAtHead } from "./committed-records.js";

let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await tempGitRepo();
  await put(repo.dir, "docs/measurements/small.json", "{}\n");
  await put(repo.dir, "docs/measurements/big.json", `${"x".repeat(2000)}\n`);
  await commit(repo.dir, "two files");
});
afterEach(() => repo.cleanup());

describe("the records the gate reads, bounded", () => {
  it("names a record over the size bound without reading it", async () => {
    const read = await recordsAtHead(repo.dir, new Map(), { ...RECORD_LIMITS, recordBytes: 1000 });
    expect(read.rejected).toContainEqual({
      path: "docs/measurements/big.json",
      problem: "2001 bytes, over the 1000 a record may have (not read)",
    });
    // The small one was read (and is not a record).
    expect(read.rejected.find((r) => r.path.endsWith("small.json"))?.problem).toMatch(
      /not a witness\.record\/1/,
    );
  });

  it.each([
    [{ records: 1 }, "expected at most 1 record files of"],
    [{ totalBytes: 100 }, "of 100 bytes in all; got 2 of 2004"],
  ])("stops on too many records or bytes (%o), naming the directory", async (bound, says) => {
    const error = await recordsAtHead(repo.dir, new Map(), { ...RECORD_LIMITS, ...bound }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/^docs\/measurements: expected at most /);
    expect((error as Error).message).toContain(says);
  });
});
