import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { tempDir } from "../test/support/temp-dir.js";
import { InputError } from "./errors.js";
import { runProcess } from "./exec.js";
import { readUserFile } from "./read-input.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-read-input-"));
});
afterEach(() => cleanup());

describe("reading a file a user (or a checkout) named", () => {
  it("refuses a FIFO at once, naming it, instead of waiting for a writer", async () => {
    const fifo = join(dir, "protocol.yaml");
    await runProcess({ file: "mkfifo", args: [fifo], env: {}, cwd: dir, timeoutMs: 10_000 });
    const error = await readUserFile(fifo, "the protocol").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${fifo}: expected the protocol as a regular file`);
  }, 5_000);
});
