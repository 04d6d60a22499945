import { writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { tempDir } from "../test/support/temp-dir.js";
import { InputError } from "./errors.js";
import { runProcess } from "./exec.js";
import { readInput, readUserFile, zodIssues } from "./read-input.js";

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

// An anchor of `bytes` named `times` times: a small file that stands for a huge value.
const aliasBomb = (bytes: number, times: number) =>
  `big: &x "${"x".repeat(bytes)}"\nmany:\n${"  - *x\n".repeat(times)}`;

describe("a YAML document read from a file", () => {
  const read = async (text: string, maxBytes?: number) => {
    const file = join(dir, "doc.yaml");
    await writeFile(file, text);
    const error = await readInput(z.unknown(), file, "the document", {
      ...(maxBytes === undefined ? {} : { maxBytes }),
    }).then(
      () => null,
      (e: unknown) => e,
    );
    return { file, error: error as Error | null };
  };

  it("is refused when its aliases expand past the file's own bound, naming the file", async () => {
    const { file, error } = await read(aliasBomb(200_000, 99));
    expect(error).toBeInstanceOf(InputError);
    expect(error?.message).toBe(
      `${file}: expected at most ${16 * 1024 * 1024} bytes once its YAML aliases are expanded; got more`,
    );
  });

  it("is held to the reader's own bound after expansion too", async () => {
    expect((await read(aliasBomb(2_000, 20), 30_000)).error?.message).toContain(
      "expected at most 30000 bytes once its YAML aliases are expanded",
    );
    expect((await read(aliasBomb(2_000, 5), 30_000)).error).toBeNull();
  });

  it("is refused when an alias names a node that contains it", async () => {
    const { file, error } = await read("a: &a [1, *a]\n");
    expect(error?.message).toBe(
      `${file}: expected no YAML alias inside the node it names (a cycle)`,
    );
  });

  it("is refused, not a crash, when nested 10 000 deep, and says where a syntax error is", async () => {
    const deep = await read(`${"[".repeat(10_000)}${"]".repeat(10_000)}`);
    expect(deep.error).toBeInstanceOf(InputError);
    expect((await read("a: [1,\n")).error?.message).toMatch(
      /not valid YAML or JSON: .* at line 2, column 1$/,
    );
  });
});

describe("zodIssues on a union", () => {
  const shapes = z.union([
    z.strictObject({ argv: z.array(z.string()) }),
    z.strictObject({ orchestrator: z.strictObject({ clis: z.array(z.enum(["a", "b"])) }) }),
  ]);
  const lines = (value: unknown) => {
    const parsed = shapes.safeParse(value);
    return parsed.success ? [] : zodIssues(parsed.error);
  };

  it("reports the issues of the one shape the value's keys chose", () => {
    expect(lines({ orchestrator: { clis: ["c"] } })).toEqual([
      { path: "orchestrator.clis.0", message: 'Invalid option: expected one of "a"|"b"' },
    ]);
    expect(lines({ argv: [1] })).toEqual([
      { path: "argv.0", message: "Invalid input: expected string, received number" },
    ]);
  });

  it("keeps the union's own message when no shape, or more than one, fits the keys", () => {
    expect(lines({ neither: 1 })).toEqual([{ path: "", message: "Invalid input" }]);
  });
});
