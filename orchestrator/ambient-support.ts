// Which backend honours, refuses or has not measured each ambient_context value (seed 003, ADR 0001).
import type { AmbientContext } from "./spec.js";

/** A backend named by seed 003: the adapters plus kimi and grok, which it also rules on. */
export type AmbientBackend =
  "claude-code" | "codex" | "opencode" | "pi" | "cursor" | "gemini" | "qwen" | "kimi" | "grok";

/**
 * One cell. `honoured` must cite the witness measurement record that earned it (the ADR gate
 * checks the path); a cell without one is `unmeasured`, however plausible its translation.
 */
export type SupportCell =
  | { verdict: "honoured"; record: string; evidence: string }
  | { verdict: "refused"; why: string }
  | { verdict: "unmeasured"; why: string };

type Row = Readonly<Record<AmbientContext, SupportCell>>;

/** Record 0001: real Claude Code 2.1.332, `--setting-sources user,project` loads every planted file. */
export const RECORD_0001 =
  "docs/measurements/0001-claude-code-setting-sources-claude-code-2.1.332.json";

/** Record 0002: the orchestrator's `none` argv on Claude Code 2.1.332 keeps every planted file out. */
export const RECORD_0002 =
  "docs/measurements/0002-claude-code-ambient-none-claude-code-2.1.332.json";

const unmeasured = (why: string): SupportCell => ({ verdict: "unmeasured", why });
const refused = (why: string): SupportCell => ({ verdict: "refused", why });
const allFour = (cell: SupportCell): Row => ({
  none: cell,
  workspace: cell,
  operator: cell,
  all: cell,
});

const NO_RECORD = (cli: string, how: string): SupportCell =>
  unmeasured(`${cli} translates it (${how}), but no witness record has measured that launch yet`);
const OPENCODE_LOADER =
  "opencode loads its global AGENTS.md and every AGENTS.md up to the home directory, with no switch to stop it";
const KIMI_WALK = "kimi has no switch that skips the repository walk";
const GROK_TRUST = "grok reads the project's instruction files whenever it trusts the folder";
const NO_MECHANISM = (cli: string): SupportCell =>
  unmeasured(
    `no ambient_context mechanism is known or measured for ${cli}; it keeps its own conventions`,
  );

/** The support table, backend × value. Refusals need only a loader seen without a switch (seed 003). */
export const AMBIENT_SUPPORT: Readonly<Record<AmbientBackend, Row>> = {
  "claude-code": {
    none: {
      verdict: "honoured",
      record: RECORD_0002,
      evidence:
        '--setting-sources project with claudeMdExcludes ["**"] kept all five planted files out, workspace outside and under HOME, 3 of 3 spawns per arm',
    },
    workspace: NO_RECORD(
      "Claude Code",
      "--setting-sources project, ancestors above the git root excluded",
    ),
    operator: NO_RECORD("Claude Code", "--setting-sources user,project, the git root excluded"),
    all: {
      verdict: "honoured",
      record: RECORD_0001,
      evidence:
        "--setting-sources user,project loaded every planted instruction file, 3 of 3 spawns per arm",
    },
  },
  codex: {
    none: NO_RECORD("Codex", "project_doc_max_bytes=0 and a CODEX_HOME overlay without AGENTS.md"),
    workspace: NO_RECORD("Codex", "a CODEX_HOME overlay without AGENTS.md"),
    operator: NO_RECORD("Codex", "project_doc_max_bytes=0"),
    all: NO_RECORD("Codex", "its own loading, unchanged"),
  },
  pi: allFour(NO_RECORD("pi", "--no-context-files plus the engine-resolved files")),
  opencode: {
    none: refused(OPENCODE_LOADER),
    workspace: refused(OPENCODE_LOADER),
    operator: refused(OPENCODE_LOADER),
    all: unmeasured("opencode's native loading was read from its source, not measured"),
  },
  kimi: {
    none: refused(KIMI_WALK),
    workspace: unmeasured(
      "seed 003 measured a KIMI_CODE_HOME overlay; witness has no record of it",
    ),
    operator: refused(KIMI_WALK),
    all: unmeasured("seed 003 measured kimi's native loading; witness has no record of it"),
  },
  grok: {
    none: refused(GROK_TRUST),
    workspace: unmeasured("what grok reads from GROK_HOME and the vendor homes is unmeasured"),
    operator: refused(GROK_TRUST),
    all: unmeasured("grok's native loading was read from its source, not measured"),
  },
  cursor: allFour(NO_MECHANISM("cursor")),
  gemini: allFour(NO_MECHANISM("gemini")),
  qwen: allFour(NO_MECHANISM("qwen")),
};

/** The cell for one backend and value. */
export function supportOf(backend: AmbientBackend, value: AmbientContext): SupportCell {
  return AMBIENT_SUPPORT[backend][value];
}
