// Claude Code's own calls on /v1/messages (not the agent's turn), recognised by their system
// prompt or first message, each answered with the text a working model would give. Up to 2.1.20
// the CLI makes them beside the agent: Warmup sub-agents (2.0.x–2.1.4), a git-history helper, a
// Bash command-prefix check and a file-path extractor (up to 2.1.0). Answered with the script's
// turn instead, a Warmup echoes the script's tool ids back from its own conversation.
import { systemTexts } from "../fake/anthropic-messages.js";
import { type HelperReply, list, record } from "../fake/wire.js";

const GIT_HISTORY = "You are an expert at analyzing git history";
const BASH_PREFIX = "Your task is to process Bash commands that an AI coding agent wants to run";
const FILE_PATHS = "Extract any file paths that this command reads or modifies";
const NEW_TOPIC = "Analyze if this message indicates a new conversation topic";

// Commands whose second word names what they do (`git commit`, `npm test`), as the prompt's examples.
const WITH_SUBCOMMAND = new Set(["git", "npm", "yarn", "pnpm", "go", "cargo", "docker", "kubectl"]);

function texts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  return list(content)
    .map((block) => record(block).text)
    .filter((t): t is string => typeof t === "string");
}

/**
 * The prefix Claude Code's Bash-prefix helper asks for: leading variable assignments and the
 * command (with its subcommand for git, npm …); `command_injection_detected` for chained or
 * substituted commands, as the helper's own examples answer.
 */
export function commandPrefix(command: string): string {
  const trimmed = command.trim();
  if (trimmed === "") return "none";
  if (/[;&|`\n]|\$\(/.test(trimmed)) return "command_injection_detected";
  const words = trimmed.split(/\s+/);
  const assignments: string[] = [];
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] ?? ""))
    assignments.push(words.shift() ?? "");
  const [head, next] = words;
  if (head === undefined) return "none";
  const sub =
    next !== undefined && WITH_SUBCOMMAND.has(head) && !next.startsWith("-") ? next : null;
  return [...assignments, head, ...(sub === null ? [] : [sub])].join(" ");
}

/** Recognises one of Claude Code's helper calls and answers it; null for an agent turn. */
export function claudeCodeHelper(body: unknown): HelperReply | null {
  const b = record(body);
  const system = systemTexts(b.system).join("\n");
  const messages = list(b.messages);
  const first = texts(record(messages[0]).content);
  // A Warmup's CLAUDE.md reminder comes first; its own prompt is the last text block.
  if (messages.length === 1 && first.at(-1)?.trim() === "Warmup")
    return { kind: "warmup", text: "Ready." };
  if (system.includes(BASH_PREFIX)) {
    const command = /Command: (.*)\s*$/.exec(first.join("\n").trim())?.[1] ?? "";
    return { kind: "bash-prefix", text: commandPrefix(command) };
  }
  if (system.includes(FILE_PATHS)) {
    const text =
      "<is_displaying_contents>\nfalse\n</is_displaying_contents>\n\n<filepaths>\n</filepaths>";
    return { kind: "file-paths", text };
  }
  if (system.includes(GIT_HISTORY)) return { kind: "git-history", text: "README.md" };
  if (system.includes(NEW_TOPIC))
    return { kind: "topic", text: '{"isNewTopic": false, "title": null}' };
  return null;
}
