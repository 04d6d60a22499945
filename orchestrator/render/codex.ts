// Codex argv: sandbox and approval on every node, the isolation bit, ambient_context, full access.
import { join } from "node:path";

import { RefusalError } from "../../core/errors.js";
import { CODEX_INSTRUCTION_FILES, codexAmbient } from "../policy/ambient-context.js";
import type { Diagnostic } from "../spec/diagnostics.js";
import {
  ceilingCut,
  notRendered,
  type Rendered,
  type RenderInput,
  TOOL_FIELDS,
} from "./render-input.js";

/** The four arguments layer 1 becomes on Codex; only the policy's presence is read, never its value. */
export const CODEX_ISOLATION = [
  "--ignore-user-config",
  "--ignore-rules",
  "-c",
  "project_doc_max_bytes=0",
  "-c",
  "mcp_servers={}",
];

function codexHomeSource(input: RenderInput): string {
  const fromEnv = input.env.CODEX_HOME;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const home = input.operatorHome ?? input.env.HOME;
  if (home === undefined || home === "")
    throw new RefusalError(
      "operator-home-unknown",
      `node ${input.node.id}: ambient_context ${input.ambient.value} needs the operator's CODEX_HOME, and neither CODEX_HOME nor HOME is known`,
    );
  return join(home, ".codex");
}

/**
 * What `filesystem: workspace-write` adds to Codex's own workspace-write: its default writable
 * roots are the workspace, /tmp and $TMPDIR (record 0008), so without these a "workspace" sandbox
 * lets a command write anywhere under /tmp. With both, only the workspace is writable.
 */
export const CODEX_WORKSPACE_ONLY = [
  "-c",
  "sandbox_workspace_write.exclude_slash_tmp=true",
  "-c",
  "sandbox_workspace_write.exclude_tmpdir_env_var=true",
];

/** Renders a Codex launch: `codex exec ... -- <prompt>` (after `--` a prompt is never a flag). */
export function renderCodex(input: RenderInput): Rendered {
  const { node, policy } = input;
  const diagnostics: Diagnostic[] = notRendered(input, TOOL_FIELDS);
  const isolated = policy.settingSources !== undefined;
  const ambient = codexAmbient(input.ambient.value);
  const sandbox =
    input.access.mode === "full-access"
      ? "danger-full-access"
      : (input.filesystem ?? "workspace-write");
  const args = ["exec", "--sandbox", sandbox, "-c", 'approval_policy="never"'];
  if (sandbox === "workspace-write") args.push(...CODEX_WORKSPACE_ONLY);
  if (isolated) args.push(...CODEX_ISOLATION);
  else if (ambient.projectDocsOff) args.push("-c", "project_doc_max_bytes=0");
  const asksForProjectDocs = input.ambient.value === "workspace" || input.ambient.value === "all";
  if (isolated && asksForProjectDocs && input.ambient.source !== "default")
    diagnostics.push(ceilingCut(input, "the repository's AGENTS.md files"));
  if (node.model !== undefined) args.push("-m", node.model);
  if (node.effort !== undefined) args.push("-c", `model_reasoning_effort="${node.effort}"`);
  // clap reads everything after `--` as the prompt; measured on 0.58.0 and 0.171.0.
  args.push("--", input.prompt);
  const rendered: Rendered = { file: "codex", args, env: {}, diagnostics };
  if (ambient.homeWithoutInstructions)
    rendered.homeOverlay = {
      variable: "CODEX_HOME",
      source: codexHomeSource(input),
      exclude: [...CODEX_INSTRUCTION_FILES],
    };
  return rendered;
}
