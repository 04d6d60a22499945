// Which backend honours, refuses or has not measured each ambient_context value (docs/background.md#ac-support, ADR 0001).
import type { CliName } from "../../clis/names.js";
import type { AmbientContext } from "../spec/schemas.js";

/** A backend the decision rules on: every CLI in the catalog (the adapters, plus kimi and grok). */
export type AmbientBackend = CliName;

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
  "docs/measurements/0001-claude-code-setting-sources-claude-code-2.1.332-2.json";

/** Record 0002: the orchestrator's `none` argv on Claude Code 2.1.332 keeps every planted file out. */
export const RECORD_0002 =
  "docs/measurements/0002-claude-code-ambient-none-claude-code-2.1.332-2.json";

/** Record 0003: hand-written `workspace` and `operator` nodes on Claude Code 2.1.332. */
export const RECORD_0003 =
  "docs/measurements/0003-claude-code-ambient-workspace-operator-claude-code-2.1.332-2.json";

/** Record 0004: hand-written Codex 0.171.0 nodes under each of the four values. */
export const RECORD_0004 = "docs/measurements/0004-codex-ambient-context-codex-0.171.0-2.json";

/** Record 0014: Gemini CLI 0.61.0's own loading, context.fileName and approval modes. */
export const RECORD_0014 =
  "docs/measurements/0014-gemini-instruction-files-approval-gemini-0.61.0-3.json";

/** Record 0016: the orchestrator's workspace and all nodes on Gemini CLI 0.61.0. */
export const RECORD_0016 = "docs/measurements/0016-gemini-ambient-context-gemini-0.61.0-4.json";

/** Record 0017: the orchestrator's none and all nodes on Qwen Code 0.24.4. */
export const RECORD_0017 = "docs/measurements/0017-qwen-ambient-context-qwen-0.24.4-4.json";

/** Record 0019: the orchestrator's all node on opencode 1.18.33. */
export const RECORD_0019 =
  "docs/measurements/0019-opencode-ambient-context-opencode-1.18.33-2.json";

/** Record 0028: the orchestrator's none, workspace and operator nodes on opencode 1.18.33. */
export const RECORD_0028 =
  "docs/measurements/0028-opencode-ambient-renderings-opencode-1.18.33.json";

/** Record 0029: the orchestrator's four pi 0.73.1 nodes with SYSTEM.md and APPEND_SYSTEM.md planted. */
export const RECORD_0029 = "docs/measurements/0029-pi-prompt-files-pi-0.73.1.json";

/** Record 0033: GitHub Copilot CLI 1.0.102's own loading and approval, and the orchestrator's none, workspace and all nodes. */
export const RECORD_0033 =
  "docs/measurements/0033-copilot-instructions-approval-copilot-1.0.102.json";

/** Record 0047: Cline 3.0.65's own loading and approval, and the orchestrator's all node. */
export const RECORD_0047 = "docs/measurements/0047-cline-instructions-approval-cline-3.0.65.json";
/** Record 0051: Kimi Code 2.1.0's own loading and -p approval, and the orchestrator's workspace and all nodes. */
export const RECORD_0051 = "docs/measurements/0051-kimi-instructions-approval-kimi-2.1.0.json";

/**
 * Record 0050 on the lock's Kilo Code 7.7.7, run with a 240 s spawn limit (its spawns took 117 s
 * of wall time on average at load 19, past the default 60 s): its own loading and approval, and the
 * orchestrator's four nodes, 3 of 3 spawns per arm.
 */
export const RECORD_0050 = "docs/measurements/0050-kilo-instructions-approval-kilo-7.7.7-2.json";

const unmeasured = (why: string): SupportCell => ({ verdict: "unmeasured", why });
const refused = (why: string, record?: string): SupportCell =>
  record === undefined ? { verdict: "refused", why } : { verdict: "refused", why, record };
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
// Record 0029 measured the current rendering (the prompt files chosen by the engine) with every
// file planted, outside HOME; record 0018 the context files alone, outside and under HOME.
const pi = (evidence: string): SupportCell => ({
  verdict: "honoured",
  record: RECORD_0029,
  evidence: `--no-context-files and an --append-system-prompt always given ${evidence}, 3 of 3 spawns per arm (the context files also under HOME in record 0018)`,
});
const opencode = (evidence: string): SupportCell => ({
  verdict: "honoured",
  record: RECORD_0028,
  evidence: `${evidence}; never a file above the git root, workspace outside and under HOME, 3 of 3 spawns per arm`,
});
const KIMI_WALK =
  "Kimi Code reads the workspace's AGENTS.md files whenever it reads its home's, and the two switches that drop them (--agent-file, 2.x; a SYSTEM.md in its home without ${agents_md}) replace its whole system prompt and drop the home's too (records 0051 and 0070)";
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

const copilot = (evidence: string): SupportCell => ({
  verdict: "honoured",
  record: RECORD_0033,
  evidence: `${evidence}; never an AGENTS.md above the git root, workspace outside HOME, 3 of 3 spawns per arm`,
});

const CLINE_RULES_ALWAYS =
  "Cline 3.0.65 reads the cwd's AGENTS.md, .clinerules and .cline/rules and the home's ~/.agents/AGENTS.md, ~/.cline/rules, ~/Cline/Rules and ~/Documents/Cline/Rules in every mode, and no flag or variable keeps them out (-s replaces the base prompt and keeps the rules; CLINE_DIR moves ~/.cline only)";
const kilo = (evidence: string): SupportCell => ({
  verdict: "honoured",
  record: RECORD_0050,
  evidence: `${evidence}; never an AGENTS.md above the git root, ~/.claude/CLAUDE.md or ~/AGENTS.md, 3 of 3 spawns per arm on 7.7.7 (and on 7.0.33, the record beside it); refused while .kilocoderules, .kilocode/rules, .kilo/rules, a mode's rules (.kilo/rules-<mode>, seen in record 0071) or ~/.kilocode/rules, ~/.kilo/rules would load past the switch (record 0050's default and project-config-off arms, record 0071)`,
});

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
        "--setting-sources project with the ancestors above the git root excluded loaded the workspace's CLAUDE.md and rules and nothing else, workspace outside and under HOME, 3 of 3 spawns per arm; with each ancestor's AGENTS.md excluded too, the workspace's AGENTS.md loaded and the parent's stayed out (record docs/measurements/0031-claude-code-agents-md-renderings-claude-code-2.1.332-2.json; the first run, before that exclude, let it through)",
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
    none: pi(
      "empty, and --system-prompt \"\" where a SYSTEM.md exists, kept all ten planted files out (context files, the workspace's and ~/.pi/agent's SYSTEM.md and APPEND_SYSTEM.md), outside and under HOME",
    ),
    workspace: pi(
      "with the workspace's .pi/APPEND_SYSTEM.md and AGENTS.md, and --system-prompt \"\" against ~/.pi/agent's SYSTEM.md, loaded the workspace's SYSTEM.md, APPEND_SYSTEM.md and AGENTS.md only",
    ),
    operator: pi(
      "with ~/.pi/agent's APPEND_SYSTEM.md and AGENTS.md and the files above the git root, and --system-prompt naming ~/.pi/agent/SYSTEM.md, loaded those and none of the workspace's",
    ),
    all: pi(
      "with pi's own choice (the workspace's .pi/ files before ~/.pi/agent's) and both sets of context files loaded all of them, never ~/.claude/CLAUDE.md",
    ),
  },
  opencode: {
    none: opencode(
      "OPENCODE_DISABLE_PROJECT_CONFIG=1 and a per-run OPENCODE_CONFIG_DIR mirror with an empty AGENTS.md kept every planted instruction file out, ~/.claude/CLAUDE.md too; it also drops the repository's opencode.json and .opencode/, and instructions listed in the operator's own opencode.json still load",
    ),
    workspace: opencode(
      "a per-run OPENCODE_CONFIG_DIR mirror with an empty AGENTS.md loaded the workspace's AGENTS.md and its opencode.json instructions (its CLAUDE.md when it has no AGENTS.md) and neither ~/.config/opencode/AGENTS.md nor ~/.claude/CLAUDE.md",
    ),
    operator: opencode(
      "OPENCODE_DISABLE_PROJECT_CONFIG=1 loaded ~/.config/opencode/AGENTS.md (~/.claude/CLAUDE.md without one) and none of the workspace's files; it also drops the repository's opencode.json and .opencode/",
    ),
    all: {
      verdict: "honoured",
      record: RECORD_0019,
      evidence:
        "unchanged loading read the workspace's AGENTS.md and ~/.config/opencode/AGENTS.md, nothing above the git root, workspace outside and under HOME, 3 of 3 spawns per arm",
    },
  },
  kilo: {
    none: kilo(
      "KILO_DISABLE_PROJECT_CONFIG=1 and a per-run KILO_CONFIG_DIR with an empty AGENTS.md kept the workspace's AGENTS.md and CLAUDE.md and ~/.config/kilo/AGENTS.md out",
    ),
    workspace: kilo(
      "a per-run KILO_CONFIG_DIR with an empty AGENTS.md loaded the workspace's AGENTS.md and not ~/.config/kilo/AGENTS.md",
    ),
    operator: kilo(
      "KILO_DISABLE_PROJECT_CONFIG=1 loaded ~/.config/kilo/AGENTS.md and not the workspace's AGENTS.md or CLAUDE.md",
    ),
    all: kilo("unchanged loading read the workspace's AGENTS.md and ~/.config/kilo/AGENTS.md"),
  },
  kimi: {
    none: refused(KIMI_WALK),
    workspace: {
      verdict: "honoured",
      record: RECORD_0051,
      evidence:
        "a per-run KIMI_CODE_HOME without AGENTS.md and skills loaded the workspace's AGENTS.md and .kimi-code/AGENTS.md and not ~/.kimi-code/AGENTS.md, nothing above the git root, workspace outside HOME, 3 of 3 spawns on 2.1.0; without SYSTEM.md too, it kept ~/.kimi-code/SYSTEM.md and the home's skills out (record docs/measurements/0070-kimi-home-skills-switches-kimi-2.1.0.json, 3 of 3 spawns); refused while ~/.agents/AGENTS.md exists or ~/.agents/skills holds a skill (read from HOME whatever KIMI_CODE_HOME says: record 0051's default arm, record 0070's home-moved arm)",
    },
    operator: refused(KIMI_WALK),
    all: {
      verdict: "honoured",
      record: RECORD_0051,
      evidence:
        "unchanged loading read the workspace's AGENTS.md and .kimi-code/AGENTS.md and ~/.kimi-code/AGENTS.md, nothing above the git root, workspace outside HOME, 3 of 3 spawns on 2.1.0",
    },
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
  copilot: {
    none: copilot(
      "--no-custom-instructions kept every planted workspace and ~/.copilot instruction file out",
    ),
    workspace: copilot(
      "a per-run COPILOT_HOME without copilot-instructions.md and instructions/ loaded the workspace's .github/copilot-instructions.md, AGENTS.md, CLAUDE.md, GEMINI.md and instructions file, and neither home file",
    ),
    operator: refused(
      "GitHub Copilot CLI reads the workspace's .github/copilot-instructions.md, AGENTS.md, CLAUDE.md and GEMINI.md whenever it reads ~/.copilot's; its only switch (--no-custom-instructions) turns off both",
    ),
    all: copilot(
      "unchanged loading read the workspace's five files and ~/.copilot's copilot-instructions.md and instructions file",
    ),
  },
  cline: {
    none: refused(`${CLINE_RULES_ALWAYS}; none would need both kept out`, RECORD_0047),
    workspace: refused(
      `${CLINE_RULES_ALWAYS}; workspace would need the home's kept out`,
      RECORD_0047,
    ),
    operator: refused(`${CLINE_RULES_ALWAYS}; operator would need the cwd's kept out`, RECORD_0047),
    all: {
      verdict: "honoured",
      record: RECORD_0047,
      evidence:
        "unchanged loading (the node rendered with --auto-approve false) read the workspace's AGENTS.md, .clinerules and .cline/rules and the home's ~/.agents/AGENTS.md, ~/.cline/rules, ~/Cline/Rules and ~/Documents/Cline/Rules, never an AGENTS.md above the git root, cwd the git root, workspace outside HOME, 3 of 3 spawns (3.0.57 reads the same but ~/Cline/Rules)",
    },
  },
};

/** The cell for one backend and value. */
export function supportOf(backend: AmbientBackend, value: AmbientContext): SupportCell {
  return AMBIENT_SUPPORT[backend][value];
}
