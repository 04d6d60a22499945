// Which backend honours, refuses or has not measured each ambient_context value (seed 003).
import type { AmbientContext } from "./spec.js";

/** A backend named by seed 003: the adapters plus kimi and grok, which it also rules on. */
export type AmbientBackend =
  "claude-code" | "codex" | "opencode" | "pi" | "cursor" | "gemini" | "qwen" | "kimi" | "grok";

/**
 * One cell. `honoured` must name the measurement that earned it: `record` is the witness record
 * (null until one exists; the ADR gate will demand it), `evidence` what is known meanwhile.
 */
export type SupportCell =
  | { verdict: "honoured"; record: string | null; evidence: string }
  | { verdict: "refused"; why: string }
  | { verdict: "unmeasured"; why: string };

type Row = Readonly<Record<AmbientContext, SupportCell>>;

const SEED_MARKERS = "seed 003 planted-marker measurements";
const honoured = (cli: string): SupportCell => ({
  verdict: "honoured",
  record: null,
  evidence: `${SEED_MARKERS} (${cli}); witness record owed`,
});
const unmeasured = (why: string): SupportCell => ({ verdict: "unmeasured", why });
const refused = (why: string): SupportCell => ({ verdict: "refused", why });
const allFour = (cell: SupportCell): Row => ({
  none: cell,
  workspace: cell,
  operator: cell,
  all: cell,
});

const OPENCODE_LOADER =
  "opencode loads its global AGENTS.md and every AGENTS.md up to the home directory, with no switch to stop it";
const GROK_TRUST = "grok reads the project's instruction files whenever it trusts the folder";

/** The support table, backend × value. */
export const AMBIENT_SUPPORT: Readonly<Record<AmbientBackend, Row>> = {
  "claude-code": allFour(honoured("Claude Code 2.1.282")),
  codex: allFour(honoured("codex-cli 0.156.1")),
  pi: allFour(
    unmeasured(
      "pi's translation (--no-context-files plus engine-resolved files) has no measurement",
    ),
  ),
  opencode: {
    none: refused(OPENCODE_LOADER),
    workspace: refused(OPENCODE_LOADER),
    operator: refused(OPENCODE_LOADER),
    all: unmeasured("opencode's native loading was read from source, not measured"),
  },
  kimi: {
    none: refused("kimi has no switch that skips the repository walk"),
    workspace: honoured("kimi-code 2.1.1, KIMI_CODE_HOME overlay"),
    operator: refused("kimi has no switch that skips the repository walk"),
    all: honoured("kimi-code 2.1.1, native"),
  },
  grok: {
    none: refused(GROK_TRUST),
    workspace: unmeasured("what grok reads from GROK_HOME and the vendor homes is unmeasured"),
    operator: refused(GROK_TRUST),
    all: unmeasured("grok's native loading was read from source, not measured"),
  },
  cursor: allFour(unmeasured("no ambient_context mechanism is known or measured for cursor")),
  gemini: allFour(unmeasured("no ambient_context mechanism is known or measured for gemini")),
  qwen: allFour(unmeasured("no ambient_context mechanism is known or measured for qwen")),
};

/** The cell for one backend and value. */
export function supportOf(backend: AmbientBackend, value: AmbientContext): SupportCell {
  return AMBIENT_SUPPORT[backend][value];
}
