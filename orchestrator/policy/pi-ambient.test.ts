// What the engine reads for pi from a checkout or the operator's agent directory is bounded: a
// file too big for the one argument it becomes, or not a regular file, is refused by name.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { InputError } from "../../core/errors.js";
import { tempDir } from "../../test/support/temp-dir.js";
import { MAX_PI_APPENDED_BYTES, piAppendedPrompt } from "./pi-ambient.js";

let dir: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir("witness-pi-ambient-");
});
afterEach(() => dir.cleanup());

describe("pi's appended prompt, read within bounds", () => {
  it("puts each file under a heading naming it", async () => {
    const a = join(dir.dir, "APPEND_SYSTEM.md");
    const b = join(dir.dir, "AGENTS.md");
    await writeFile(a, "one\n");
    await writeFile(b, "two\n\n");
    expect(piAppendedPrompt([a, b])).toBe(`# ${a}\n\none\n\n# ${b}\n\ntwo\n`);
  });

  it.each([
    [
      "too big for one argument",
      async (p: string) => writeFile(p, "x".repeat(MAX_PI_APPENDED_BYTES)),
      /got 122880 bytes$/,
    ],
    ["a directory", async (p: string) => mkdir(p), /got something else than a regular file$/],
  ])("refuses an AGENTS.md %s, naming it (exit 2)", async (_, make, got) => {
    const file = join(dir.dir, "AGENTS.md");
    await make(file);
    let error: unknown;
    try {
      piAppendedPrompt([file]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(
      new RegExp(`^${file}: expected a regular file of at most \\d+ bytes \\(pi's ambient context`),
    );
    expect((error as Error).message).toMatch(got);
  });
});
