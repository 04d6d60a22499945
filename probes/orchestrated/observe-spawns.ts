// One observation per spawn an orchestrator made: its requests by route prefix (never guessed),
// its transcript by the session id on its own stdout, its markers and tool calls, and, for a spawn
// that asked the model nothing, why (its exit and the end of its stderr, as a CLI launch says it).
import { relative } from "node:path";

import { factsOf } from "../../clis/facts-by-cli.js";
import type { Cell } from "../cell/cell.js";
import type { SpawnObservation } from "../contracts/observation.js";
import type { Script } from "../contracts/script.js";
import type { ProbeDriver, TranscriptFacts } from "../drivers/driver.js";
import type { CapturedRequest } from "../fake/server.js";
import { isSideRequest } from "../fake/side-routes.js";
import { noRequestReason } from "../no-request.js";
import { observe } from "../observe/observe.js";
import { shimCliUse } from "./launch-use.js";
import type { SpawnRecord } from "./spawn-records.js";

/** Each spawn's observation, and the transcripts read for them (in the same order). */
export async function observeSpawns(input: {
  driver: ProbeDriver;
  records: { spawns: SpawnRecord[] };
  requests: readonly CapturedRequest[];
  cell: Cell;
  script: Script;
  startedAt: number;
}): Promise<{ observations: SpawnObservation[]; transcripts: TranscriptFacts[] }> {
  const { driver, cell } = input;
  const observations: SpawnObservation[] = [];
  const transcripts: TranscriptFacts[] = [];
  for (const record of input.records.spawns) {
    const call = record.call;
    if (call === null) continue;
    const requests = input.requests.filter((r) => r.spawn === record.spawn);
    // The shim set the cell's HOME over the caller's: the session is where the cell puts it.
    const transcript = await driver.readTranscript(
      { ...call.env, ...cell.env },
      { markers: cell.markers.map((m) => m.value), stdout: record.stdout, stderr: "" },
    );
    transcripts.push(transcript);
    const exitCode = record.exit?.exitCode ?? null;
    const seen = observe({
      driver,
      requests,
      markers: cell.markers,
      sentinels: [],
      transcript,
      script: input.script,
    });
    observations.push({
      spawn: record.spawn,
      cli: call.cli,
      argv: call.argv,
      env: call.env,
      overridden: call.overridden,
      cwd: call.cwd,
      stdin: record.stdin,
      stdinBytes: record.exit?.stdinBytes ?? Buffer.byteLength(record.stdin),
      stdout: record.stdout,
      stdoutBytes: record.exit?.stdoutBytes ?? Buffer.byteLength(record.stdout),
      exitCode,
      signal: record.exit?.signal ?? null,
      startMs: Math.max(0, call.start - input.startedAt),
      durationMs: record.exit === null ? null : record.exit.end - call.start,
      requestCount: seen.requestCount,
      markers: seen.markers,
      toolsOffered: seen.toolsOffered,
      toolCalls: seen.toolCalls,
      permissionMode: seen.permissionMode,
      transcriptFile: transcript.path === null ? null : relative(cell.root, transcript.path),
      ...(requests.some((r) => !isSideRequest(r))
        ? {}
        : {
            noRequestReason: noRequestReason(
              exitCode,
              record.stderr,
              factsOf(driver.name).exitCodes,
            ),
          }),
      ...shimCliUse(record.exit?.use),
    });
  }
  return { observations, transcripts };
}
