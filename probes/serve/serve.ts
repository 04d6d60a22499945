// `witness serve`: a script file read and checked, the fake started on loopback, each captured
// request appended to a JSON Lines file as it arrives.
import { resolve } from "node:path";

import { appendLine } from "../../core/append.js";
import { UsageError } from "../../core/errors.js";
import { errnoCode } from "../../core/fs-errors.js";
import { checkOutputFile } from "../../core/output-file.js";
import { readInput } from "../../core/read-input.js";
import { scriptSchema } from "../contracts/script.js";
import { type Fake, startFake } from "./fake-model.js";

/** What the command line says about one served fake. */
export interface ServeInput {
  /** The script file (YAML or JSON), as in a protocol's arm. */
  script: string;
  port?: number;
  /** A JSON Lines file each captured request is appended to (created when absent). */
  requests?: string;
  cwd?: string;
}

/** Reads and checks the script, checks the requests file's directory, and starts the fake. */
export async function serveFake(input: ServeInput): Promise<Fake> {
  const cwd = input.cwd ?? process.cwd();
  const { port } = input;
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535))
    throw new UsageError(`--port ${port}: expected a TCP port number from 1 to 65535`);
  const script = await readInput(scriptSchema, resolve(cwd, input.script), "the script");
  const out =
    input.requests === undefined ? null : await checkOutputFile(input.requests, "--requests", cwd);
  try {
    return await startFake({
      script,
      ...(port === undefined ? {} : { port }),
      ...(out === null ? {} : { onRequest: (request) => appendLine(out, JSON.stringify(request)) }),
    });
  } catch (error) {
    const code = errnoCode(error);
    if (port !== undefined && (code === "EADDRINUSE" || code === "EACCES"))
      throw new UsageError(`--port ${port}: cannot listen on 127.0.0.1:${port} (${code})`);
    throw error;
  }
}
