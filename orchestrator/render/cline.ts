// Cline argv (3.x): `cline [-m model] [--auto-approve false] -- <prompt>`. Its act mode runs every
// tool unasked, outside the workspace too, so that is its full-access rendering; a sandboxed launch
// turns auto-approval off, which headless (no TTY to ask) refuses every tool call (record 0047). No switch keeps
// an instruction file out: the cwd's AGENTS.md and rules and the home's rules always load.
import { notRendered, type Rendered, type RenderInput, TOOL_FIELDS } from "./render-input.js";

/** Cline 3.x; the prompt follows `--` (a one-word prompt before it is read as a subcommand). */
export function renderCline(input: RenderInput): Rendered {
  const args: string[] = [];
  if (input.node.model !== undefined) args.push("-m", input.node.model);
  const diagnostics = notRendered(input, [...TOOL_FIELDS, "effort", "filesystem"]);
  if (input.access.mode !== "full-access") {
    args.push("--auto-approve", "false");
    diagnostics.push({
      severity: "info",
      code: "cline-auto-approve-off",
      nodeId: input.node.id,
      message:
        "Cline runs with --auto-approve false: with no terminal to ask, every tool call is refused (its default act mode would run them all, outside the workspace too)",
    });
  }
  if (input.ambient.value !== "all")
    diagnostics.push({
      severity: "info",
      code: "cline-rules-unswitchable",
      nodeId: input.node.id,
      message: `ambient_context ${input.ambient.value} cannot narrow Cline's loading: the cwd's AGENTS.md, .clinerules and .cline/rules and the home's ~/.agents/AGENTS.md and Cline rules all load`,
    });
  args.push("--", input.prompt);
  return { file: "cline", args, env: {}, diagnostics };
}
