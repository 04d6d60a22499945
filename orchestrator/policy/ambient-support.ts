// Which backend honours, refuses or has not measured each ambient_context value (docs/background.md#ac-support, ADR 0001).
import type { AmbientContext } from "../spec/schemas.js";

/** A backend the decision rules on: the adapters, plus kimi and grok. */
export type AmbientBackend =
  "claude-code" | "codex" | "opencode" | "pi" | "cursor" | "gemini" | "qwen" | "kimi" | "grok";

/**
 * One cell. `honoured` must cite the witness measurement record that earned it (the ADR gate
 * checks the path); a cell without one is `unmeasured`, however plausible its translation. A
 * `refused` cell may cite the record that shows the loader the policy cannot switch off (the gate
 * checks that citation too).
 */
export type SupportCell =
  | { verdict: "honoured"; record: string; evidence: string }
  | { verdict: "refused"; why: string; record?: string }
  | { verdict: "unmeasured"; why: string };

type Row = Readonly<Record<AmbientContext, SupportCell>>;

/** Record 0001: real Claude Code 2.1.332, `--setting-sources user,project` loads every planted file. */
export const RECORD_0001 =
  "docs/measurements/0001-claude-code-setting-sources-claude-code-2.1.332.json";

/** Record 0002: the orchestrator's `none` argv on Claude Code 2.1.332 keeps every planted file out. */
export const RECORD_0002 =
  "docs/measurements/0002-claude-code-ambient-none-claude-code-2.1.332.json";

/** Record 0003: hand-written `workspace` and `operator` nodes on Claude Code 2.1.332. */
export const RECORD_0003 =
  "docs/measurements/0003-claude-code-ambient-workspace-operator-claude-code-2.1.332.json";

/** Record 0004: hand-written Codex 0.171.0 nodes under each of the four values. */
export const RECORD_0004 = "docs/measurements/0004-codex-ambient-context-codex-0.171.0.json";

/** Record 0014: Gemini CLI 0.61.0's own loading, context.fileName and approval modes. */
export const RECORD_0014 =
  "docs/measurements/0014-gemini-instruction-files-approval-gemini-0.61.0-2.json";

/** Record 0016: the orchestrator's workspace and all nodes on Gemini CLI 0.61.0. */
export const RECORD_0016 = "docs/measurements/0016-gemini-ambient-context-gemini-0.61.0-3.json";

/** Record 0017: the orchestrator's none and all nodes on Qwen Code 0.24.4. */
export const RECORD_0017 = "docs/measurements/0017-qwen-ambient-context-qwen-0.24.4-3.json";

/** Record 0018: the orchestrator's four pi 0.73.1 nodes. */
export const RECORD_0018 = "docs/measurements/0018-pi-ambient-context-pi-0.73.1.json";

/** Record 0019: the orchestrator's all node on opencode 1.18.33. */
export const RECORD_0019 = "docs/measurements/0019-opencode-ambient-context-opencode-1.18.33.json";

const unmeasured = (why: string): SupportCell => ({ verdict: "unmeasured", why });
const refused = (why: string): SupportCell => ({ verdict: "refused", why });
const allFour = (cell: SupportCell): Row => ({
  none: cell,
  workspace: cell,
  operator: cell,
  all: cell,
});

const codexHonoured = (what: string): SupportCell => ({
  verdict: "honoured",
  record: RECORD_0004,
  evidence: `${what}, workspace outside and under HOME, 3 of 3 spawns per arm`,
});
const pi = (evidence: string): SupportCell => ({
  verdict: "honoured",
  record: RECORD_0018,
  evidence: `--no-context-files ${evidence}, workspace outside and under HOME, 3 of 3 spawns per arm`,
});
// Record 0013 refuted the reported loader (the walk stops at the git root) and found switches,
// so these cells are not refused; none is rendered yet, and each takes more than the value's files.
const OPENCODE_NOT_RENDERED = (what: string): SupportCell =>
  unmeasured(
    `opencode 1.18.33 has switches for its instruction files (record 0013: OPENCODE_DISABLE_PROJECT_CONFIG drops the workspace's, with the repository's opencode.json; OPENCODE_CONFIG_DIR without an AGENTS.md drops the global one, and ~/.claude/CLAUDE.md then loads unless OPENCODE_DISABLE_CLAUDE_CODE, which also drops the workspace's CLAUDE.md); the orchestrator renders none of them for ${what} yet`,
  );
const KIMI_WALK = "kimi has no switch that skips the repository walk";
const GROK_TRUST = "grok reads the project's instruction files whenever it trusts the folder";
const CURSOR_NOT_ON_NPM = unmeasured(
  "Cursor's agent (cursor-agent) is not published on the npm registry, so witness cannot install it into its vendor cache or measure it; it keeps its own conventions",
);
const GEMINI_PROJECT_FILE: SupportCell = {
  verdict: "refused",
  why: "Gemini CLI 0.61.0 loads the workspace's GEMINI.md in every headless run: context.fileName only adds names, and a headless run refuses an untrusted folder",
  record: RECORD_0014,
};
const gemini = (evidence: string): SupportCell => ({
  verdict: "honoured",
  record: RECORD_0016,
  evidence: `${evidence}, workspace outside and under HOME, 3 of 3 spawns per arm`,
});
const qwen = (evidence: string): SupportCell => ({
  verdict: "honoured",
  record: RECORD_0017,
  evidence: `${evidence}, workspace outside and under HOME, 3 of 3 spawns per arm`,
});
const QWEN_NO_NARROWING = (what: string): SupportCell =>
  unmeasured(
    `Qwen Code 0.24.4 reads ~/.qwen, the workspace and the git root's parent together, and only --safe-mode narrows that, to nothing (record 0015); the orchestrator renders no ${what}-only translation (files resolved by the engine and passed with --append-system-prompt would be one)`,
  );

/** The support table, backend × value. Refusals need only a loader seen without a switch (docs/background.md#ac-support). */
export const AMBIENT_SUPPORT: Readonly<Record<AmbientBackend, Row>> = {
  "claude-code": {
    none: {
      verdict: "honoured",
      record: RECORD_0002,
      evidence:
        '--setting-sources project with claudeMdExcludes ["**"] kept all five planted files out, workspace outside and under HOME, 3 of 3 spawns per arm',
    },
    workspace: {
      verdict: "honoured",
      record: RECORD_0003,
      evidence:
        "--setting-sources project with the ancestors above the git root excluded loaded the workspace's CLAUDE.md and rules and nothing else, workspace outside and under HOME, 3 of 3 spawns per arm",
    },
    operator: {
      verdict: "honoured",
      record: RECORD_0003,
      evidence:
        "--setting-sources user,project with <git root>/** excluded loaded the ancestor's and HOME's files and none of the workspace's, outside and under HOME, 3 of 3 spawns per arm",
    },
    all: {
      verdict: "honoured",
      record: RECORD_0001,
      evidence:
        "--setting-sources user,project loaded every planted instruction file, 3 of 3 spawns per arm",
    },
  },
  codex: {
    none: codexHonoured(
      "project_doc_max_bytes=0 and a CODEX_HOME overlay without AGENTS.md loaded no AGENTS.md",
    ),
    workspace: codexHonoured(
      "a CODEX_HOME overlay without AGENTS.md loaded the repository's AGENTS.md only",
    ),
    operator: codexHonoured("project_doc_max_bytes=0 loaded $CODEX_HOME/AGENTS.md only"),
    all: codexHonoured("unchanged loading read both the repository's and $CODEX_HOME's AGENTS.md"),
  },
  pi: {
    none: pi("alone kept all six planted files out"),
    workspace: pi(
      "with the workspace's AGENTS.md appended by the engine loaded that file only (not the CLAUDE.md beside it)",
    ),
    operator: pi(
      "with ~/.pi/agent/AGENTS.md and the files above the git root appended loaded those and none of the workspace's",
    ),
    all: pi("with both sets appended loaded all four, never ~/.claude/CLAUDE.md"),
  },
  opencode: {
    none: OPENCODE_NOT_RENDERED("none"),
    workspace: OPENCODE_NOT_RENDERED("workspace"),
    operator: OPENCODE_NOT_RENDERED("operator"),
    all: {
      verdict: "honoured",
      record: RECORD_0019,
      evidence:
        "unchanged loading read the workspace's AGENTS.md and ~/.config/opencode/AGENTS.md, nothing above the git root, workspace outside and under HOME, 3 of 3 spawns per arm",
    },
  },
  kimi: {
    none: refused(KIMI_WALK),
    workspace: unmeasured(
      "the ambient_context decision reports a KIMI_CODE_HOME overlay; witness has no record of it",
    ),
    operator: refused(KIMI_WALK),
    all: unmeasured(
      "the ambient_context decision reports kimi's native loading; witness has no record of it",
    ),
  },
  grok: {
    none: refused(GROK_TRUST),
    workspace: unmeasured("what grok reads from GROK_HOME and the vendor homes is unmeasured"),
    operator: refused(GROK_TRUST),
    all: unmeasured("grok's native loading was read from its source, not measured"),
  },
  cursor: allFour(CURSOR_NOT_ON_NPM),
  gemini: {
    none: GEMINI_PROJECT_FILE,
    workspace: gemini(
      "a GEMINI_CLI_HOME whose .gemini mirrors the operator's without its context files and tmp loaded the workspace's GEMINI.md and AGENTS.md and none of ~/.gemini's files",
    ),
    operator: GEMINI_PROJECT_FILE,
    all: gemini(
      "unchanged loading read the workspace's files and ~/.gemini's GEMINI.md, AGENTS.md (named by context.fileName) and project memory; never a file above the git root",
    ),
  },
  qwen: {
    none: qwen(
      "--safe-mode kept every planted QWEN.md, AGENTS.md, QWEN.local.md and rule out (it also turns off hooks, extensions, skills and MCP servers)",
    ),
    workspace: QWEN_NO_NARROWING("workspace"),
    operator: QWEN_NO_NARROWING("operator"),
    all: qwen(
      "unchanged loading read the workspace's, the git root's parent's and ~/.qwen's QWEN.md, AGENTS.md and rules",
    ),
  },
};

/** The cell for one backend and value. */
export function supportOf(backend: AmbientBackend, value: AmbientContext): SupportCell {
  return AMBIENT_SUPPORT[backend][value];
}
