// The launching session's own access, as evidence; `detect.ts` establishes it from the session's records.

/** One piece of evidence about the parent session's access. */
export interface ParentEvidence {
  source: string;
  detail: string;
  passed: boolean;
}

/** The parent's access: full only when every piece of positive evidence passed. */
export interface ParentAccess {
  fullAccess: boolean;
  evidence: ParentEvidence[];
}

/** Establishes the launching session's access from its own records. */
export interface ParentAccessDetector {
  detect(): Promise<ParentAccess>;
}

/** Per-run memory of the parent probe, so it runs at most once per run. */
export interface RunContext {
  /** The first parent probe of this run, once a launch has reached it. */
  parent?: Promise<ParentAccess>;
}

/** A fresh per-run context: one per `witness orchestrate` run (or per single `witness argv`). */
export function newRunContext(): RunContext {
  return {};
}
