// The fake model servers on their own, outside any cell: one loopback server that plays a script
// for every CLI in the catalog (each on its own path prefix, so each gets its own tool names and
// side routes), and hands each captured request to the caller as it arrives.
import type { z } from "zod";

import { PROBE_CLI_NAMES, type ProbeCliName } from "../../clis/names.js";
import { PINNED } from "../../clis/pinned.js";
import { parseWith } from "../../core/read-input.js";
import { resolveSentinelsDeep, sentinelPath } from "../cell/markers.js";
import { type Script, scriptSchema } from "../contracts/script.js";
import { driverFor } from "../drivers/index.js";
import { driverResponder } from "../drivers/responder.js";
import { type CapturedRequest, type Responder, startFakeServer } from "../fake/server.js";
import { NOT_FOUND_ANSWER } from "../fake/side-routes.js";
import { allCliEnvs, type CliEnv, cliEnv } from "./cli-env.js";

/** A script as a caller writes it (defaults not yet filled in): `{turns, final, classifier}`. */
export type ScriptInput = z.input<typeof scriptSchema>;

/** What `startFake` takes. */
export interface StartFakeOptions {
  /** The fake model's script, as in a protocol's arm; checked, an InputError when it is not one. */
  script: ScriptInput;
  /** A fixed loopback port (default: an ephemeral one). */
  port?: number;
  /** Where `{{sentinel:NAME}}` in the script points (`<dir>/NAME`); left as written without it. */
  sentinelDir?: string;
  /**
   * Called with each request once it is answered, in arrival order, one call at a time; a call
   * that throws does not stop the later ones, and `close()` rethrows the first error.
   */
  onRequest?: (request: CapturedRequest) => void | Promise<void>;
}

/** A running fake model. */
export interface Fake {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request, in arrival order, headers redacted. */
  readonly requests: readonly CapturedRequest[];
  /** The base URL, variables, flags and HOME files that point `cli` at this fake. */
  env(cli: ProbeCliName): Promise<CliEnv>;
  /** The same for every CLI with a driver, in catalog order. */
  envs(): Promise<CliEnv[]>;
  /** Stops the server; resolves once every `onRequest` call has finished. */
  close(): Promise<void>;
}

/**
 * The responder of a served fake: `/<cli>/…` is that CLI's (its tool names, helper calls and side
 * routes, at its pinned version); any other path goes to the first CLI in catalog order whose
 * fake API serves it, so a plain `POST /v1/messages` works too.
 */
export function servedResponder(script: Script): Responder {
  const byCli = new Map(
    PROBE_CLI_NAMES.map((cli) => [
      cli,
      driverResponder(driverFor(cli), script, PINNED[cli].version),
    ]),
  );
  return (path, body, method) => {
    for (const [cli, respond] of byCli) {
      const prefix = `/${cli}`;
      if (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`)) {
        const rest = path.slice(prefix.length);
        return respond(rest.startsWith("/") ? rest : `/${rest}`, body, method);
      }
    }
    let first = null;
    for (const respond of byCli.values()) {
      const reply = respond(path, body, method);
      if (reply.answer !== NOT_FOUND_ANSWER) return reply;
      first ??= reply;
    }
    // Every responder answers an unknown path alike; byCli is never empty.
    return first ?? { kind: "json", status: 404, body: {}, answer: NOT_FOUND_ANSWER };
  };
}

/** Starts a fake model on loopback for an orchestrator's own end-to-end tests. */
export async function startFake(options: StartFakeOptions): Promise<Fake> {
  const parsed = parseWith(scriptSchema, options.script, "script");
  const dir = options.sentinelDir;
  const script =
    dir === undefined ? parsed : resolveSentinelsDeep(parsed, (name) => sentinelPath(dir, name));
  let handed = 0;
  let chain: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  const inner = servedResponder(script);
  // The server pushes a request right after its responder returns: a microtask later it is there.
  const respond: Responder = (path, body, method) => {
    queueMicrotask(flush);
    return inner(path, body, method);
  };
  const server = await startFakeServer(
    respond,
    options.port === undefined ? {} : { port: options.port },
  );
  function flush(): void {
    const { onRequest } = options;
    if (onRequest === undefined) return;
    while (handed < server.requests.length) {
      const request = server.requests[handed++];
      if (request === undefined) continue;
      chain = chain
        .then(() => onRequest(request))
        .catch((error: unknown) => {
          failure ??= { error };
        });
    }
  }
  return {
    url: server.url,
    requests: server.requests,
    env: (cli) => cliEnv(server.url, cli),
    envs: () => allCliEnvs(server.url),
    close: async () => {
      await server.close();
      flush();
      await chain;
      if (failure !== null) throw failure.error;
    },
  };
}
