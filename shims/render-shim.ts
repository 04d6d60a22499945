import type { HostTools } from "./host-tools.js";
import { shQuote } from "./sh-quote.js";
import { BEYOND_PLAN_EXIT_CODE, type StdinMode } from "./shim-spec.js";

/** Where one output of one scripted call comes from: literal text or a file copied at install. */
export type OutputSource = { text: string } | { file: string } | undefined;

/** One scripted call, ready to render: exit code and where its outputs come from. */
export interface RenderedStep {
  exitCode: number;
  stdout: OutputSource;
  stderr: OutputSource;
}

/** Everything the sh template needs, as data; `renderShim` only formats it. */
export interface ShimConfig {
  name: string;
  log: string;
  stateDir: string;
  tools: HostTools;
  stdin: StdinMode;
  envRegex: string;
  /** The behaviour: scripted steps (`script` repeats its single step forever) or a pass-through target. */
  mode:
    | { kind: "script"; step: RenderedStep }
    | { kind: "plan"; steps: RenderedStep[] }
    | { kind: "pass-through"; target: string };
  /** This boot's id and wall-clock boot time (ms): a shim derives its start time from /proc/uptime. */
  clock?: { bootId: string; bootMs: number };
  /** Serialise large appends with mkdir even where flock exists (tests of the fallback). */
  forceMkdirLock?: boolean;
}

const CONFIG_SLOT = "#@@CONFIG@@";

function assign(name: string, value: string): string {
  return `__witness_${name}=${shQuote(value, name)}`;
}

function emitOutput(source: OutputSource, redirect: string, cat: string): string {
  if (source === undefined) return "";
  if ("text" in source)
    return source.text === "" ? "" : `printf '%s' ${shQuote(source.text)}${redirect}; `;
  return `${shQuote(cat)} ${shQuote(source.file)}${redirect}; `;
}

function stepFunctions(steps: readonly RenderedStep[], cat: string): string {
  const codes = steps.map((s, i) => `    ${i + 1}) __witness_code=${s.exitCode} ;;`);
  const emits = steps.map((s, i) => {
    const body = emitOutput(s.stdout, "", cat) + emitOutput(s.stderr, " >&2", cat);
    return `    ${i + 1}) ${body === "" ? ": " : body};;`;
  });
  return [
    "__witness_code_for() {",
    "  case $1 in",
    ...codes,
    "  esac",
    "}",
    "__witness_emit() {",
    "  case $1 in",
    ...emits,
    "  esac",
    "}",
  ].join("\n");
}

/** The config block that replaces the template's slot: plain assignments and two small functions. */
export function renderConfig(config: ShimConfig): string {
  const t = config.tools;
  const lines = [
    assign("name", config.name),
    assign("log", config.log),
    assign("state", config.stateDir),
    assign("stdin", config.stdin),
    assign("env_re", config.envRegex),
    assign("awk_bin", t.awk),
    assign("date_bin", t.date),
    assign("cat_bin", t.cat),
    assign("tee_bin", t.tee),
    assign("mkfifo_bin", t.mkfifo),
    assign("mkdir_bin", t.mkdir),
    assign("rmdir_bin", t.rmdir),
    assign("sleep_bin", t.sleep),
    assign("rm_bin", t.rm),
    assign("flock_bin", config.forceMkdirLock === true ? "" : (t.flock ?? "")),
    assign("env_bin", t.envDefaultSignal ?? ""),
    `__witness_beyond_code=${BEYOND_PLAN_EXIT_CODE}`,
    assign("boot_id", config.clock?.bootId ?? ""),
    assign("boot_ms", String(config.clock?.bootMs ?? "")),
    `__witness_sha256() { ${t.sha256.map((w) => shQuote(w)).join(" ")}; }`,
  ];
  const mode = config.mode;
  switch (mode.kind) {
    case "script":
      lines.push(
        assign("mode", "script"),
        "__witness_plan_len=1",
        stepFunctions([mode.step], t.cat),
      );
      break;
    case "plan":
      lines.push(
        assign("mode", "plan"),
        `__witness_plan_len=${mode.steps.length}`,
        stepFunctions(mode.steps, t.cat),
      );
      break;
    case "pass-through":
      lines.push(
        assign("mode", "pass"),
        assign("target", mode.target),
        // The target path goes into the JSON record verbatim, so escape it once here.
        assign("target_json", JSON.stringify(mode.target).slice(1, -1)),
      );
      break;
  }
  return lines.join("\n");
}

/** The complete shim script: the template with its config slot filled. */
export function renderShim(template: string, config: ShimConfig): string {
  if (!template.includes(CONFIG_SLOT)) throw new Error("shim template has no config slot");
  return template.replace(CONFIG_SLOT, () => renderConfig(config));
}
