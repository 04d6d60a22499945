import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { REDACTION_CASES } from "../test/support/redaction-cases.js";
import { run, tempDir } from "../test/support/temp-dir.js";
import { installShims } from "./install.js";
import { readShimLog } from "./read-log.js";

// The shim's awk copy of the rule, held to the same table as core/redact.ts.
describe("the shim's redaction, on the shared table", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const names = [
    ...new Set(REDACTION_CASES.flatMap((c) => ("env" in c ? Object.keys(c.env) : []))),
  ];

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterAll(() => cleanup());

  it.each(REDACTION_CASES.map((c, i) => [c.case, c, i] as const))("%s", async (_, c, i) => {
    const shims = await installShims({ dir: join(dir, String(i)), names: ["claude"], env: names });
    const argv = "argv" in c ? c.argv : [];
    // The shim holds what its environment holds: the case's variables, or those an argv row names.
    const env = "env" in c ? c.env : (c.holding ?? {});
    await run(join(shims.dir, "claude"), argv, { env });
    const [record] = (await readShimLog(shims.log)).records;
    if ("env" in c) {
      const recorded = Object.fromEntries(
        Object.keys(c.env).map((name) => [name, record?.env[name]]),
      );
      expect(recorded).toEqual(c.expected);
    } else expect(record?.argv).toEqual(c.expected);
  });
});
