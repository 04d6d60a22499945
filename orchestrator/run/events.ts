// The run's JSONL event log: one line per event, appended as it happens.
import { appendFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";

import type { ParentEvidence } from "../parent-access/parent-access.js";
import type { AccessDecision } from "../plan/launch-types.js";
import type { AmbientResolution } from "../policy/ambient-context.js";
import type { NodeStatus } from "./state.js";

/** Every event the orchestrator records. */
export type RunEvent =
  | { type: "run.start"; workflow: string; resumed: boolean }
  | {
      type: "worker_access.parent";
      nodeId: string;
      fullAccess: boolean;
      evidence: ParentEvidence[];
    }
  | {
      type: "agent.start";
      nodeId: string;
      adapter: string;
      file: string;
      args: string[];
      /** The prompt, when the CLI takes it on stdin. */
      stdin?: string;
      access: AccessDecision;
      ambient: AmbientResolution;
    }
  | { type: "agent.refused"; nodeId: string; code: string; message: string }
  | { type: "agent.skipped"; nodeId: string; reason: string }
  | {
      type: "agent.end";
      nodeId: string;
      status: NodeStatus;
      exitCode: number | null;
      durationMs: number;
    }
  | { type: "run.end"; status: "succeeded" | "failed" | "refused" };

/** The log file inside a state directory. */
export function eventsPath(stateDir: string): string {
  return join(stateDir, "events.jsonl");
}

/** Appends events to `<stateDir>/events.jsonl`, each stamped with its time. */
export class EventLog {
  constructor(
    readonly file: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Appends one event as one line. */
  async append(event: RunEvent): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    await appendFile(
      this.file,
      `${JSON.stringify({ time: this.now().toISOString(), ...event })}\n`,
      "utf8",
    );
  }
}
