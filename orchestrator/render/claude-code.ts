// Claude Code argv: tool-policy layers, ambient_context and full access, one --settings object.
import { CLAUDE_SOURCES, claudeAmbient, type ClaudeSource } from "../policy/ambient-context.js";
import type { Diagnostic } from "../spec/diagnostics.js";
import { ceilingCut, notRendered, type Rendered, type RenderInput } from "./render-input.js";

function parseSources(value: string): ClaudeSource[] {
  const named = value.split(",").map((part) => part.trim());
  return CLAUDE_SOURCES.filter((source) => named.includes(source));
}

/**
 * The rendered source set (ADR 0002): isolation is a ceiling and ambient_context a request, so
 * under a ceiling the sources are their intersection; without one, ambient's alone.
 */
export function composeSettingSources(
  ceiling: string | undefined,
  requested: readonly ClaudeSource[],
): { sources: ClaudeSource[]; cut: ClaudeSource[] } {
  if (ceiling === undefined) return { sources: [...requested], cut: [] };
  const allowed = parseSources(ceiling);
  return {
    sources: requested.filter((source) => allowed.includes(source)),
    cut: requested.filter((source) => !allowed.includes(source)),
  };
}

/** Renders a Claude Code launch: `claude -p ... -- <prompt>` (after `--` a prompt is never a flag). */
export function renderClaude(input: RenderInput): Rendered {
  const { node, policy } = input;
  const diagnostics: Diagnostic[] = notRendered(input, ["filesystem"]);
  const ambient = claudeAmbient(input.ambient.value, input.root);
  const { sources, cut } = composeSettingSources(policy.settingSources, ambient.sources);
  // `none` asks for no instruction file, so a cut source costs it nothing it asked for.
  if (cut.length > 0 && input.ambient.source !== "default" && input.ambient.value !== "none")
    diagnostics.push(ceilingCut(input, `the ${cut.join(" and ")} setting source`));
  const fullAccess = input.access.mode === "full-access";
  const settings = {
    ...(ambient.excludes === undefined ? {} : { claudeMdExcludes: ambient.excludes }),
    ...(fullAccess ? { sandbox: { enabled: false } } : {}),
  };
  const args = ["-p"];
  if (node.model !== undefined) args.push("--model", node.model);
  if (node.effort !== undefined) args.push("--effort", node.effort);
  args.push("--setting-sources", sources.join(","));
  if (Object.keys(settings).length > 0) args.push("--settings", JSON.stringify(settings));
  if (fullAccess) args.push("--permission-mode", "bypassPermissions");
  if (policy.strictMcpConfig) args.push("--strict-mcp-config");
  if (node.agent !== undefined) args.push("--agent", node.agent);
  for (const dir of node.pluginDirs ?? []) args.push("--plugin-dir", dir);
  // The list flags take several values each, so they come last, after every single-value flag.
  if (policy.allowedTools.length > 0) args.push("--allowedTools", ...policy.allowedTools);
  if (policy.tools !== undefined)
    args.push("--tools", ...(policy.tools.length > 0 ? policy.tools : [""]));
  if (policy.disallowedTools.length > 0) args.push("--disallowedTools", ...policy.disallowedTools);
  // `--` also ends the list flags' values; measured on 1.0.128, 2.0.77 and 2.1.332.
  args.push("--", input.prompt);
  return { file: "claude", args, env: {}, diagnostics };
}
