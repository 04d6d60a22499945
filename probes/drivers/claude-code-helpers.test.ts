import { describe, expect, it } from "vitest";

import { claudeCodeHelper, commandPrefix } from "./claude-code-helpers.js";

const identity = {
  type: "text",
  text: "You are Claude Code, Anthropic's official CLI for Claude.",
};
const reminder = {
  type: "text",
  text: "<system-reminder>\n# claudeMd\nWITNESS-WS-1\n</system-reminder>",
};
const body = (system: string, content: unknown[], extra: object = {}) => ({
  system: [identity, { type: "text", text: system }],
  messages: [{ role: "user", content }],
  ...extra,
});

describe("Claude Code's helper calls", () => {
  it("answers a Warmup sub-agent with text, whatever its system prompt", () => {
    const warmup = body("You are a file search specialist for Claude Code…", [
      reminder,
      { type: "text", text: "Warmup" },
    ]);
    expect(claudeCodeHelper(warmup)?.kind).toBe("warmup");
  });

  it("answers the Bash prefix check with the command's prefix", () => {
    const check = body(
      "Your task is to process Bash commands that an AI coding agent wants to run.",
      [
        {
          type: "text",
          text: "<policy_spec>…</policy_spec>\n\nCommand: git config --file /w/S a 1\n",
        },
      ],
    );
    expect(claudeCodeHelper(check)).toEqual({ kind: "bash-prefix", text: "git config" });
  });

  it("answers the file-path extractor and the git-history helper in their formats", () => {
    const paths = body("Extract any file paths that this command reads or modifies. …", [
      { type: "text", text: "Command: touch /w/S\nOutput: \n\n" },
    ]);
    expect(claudeCodeHelper(paths)?.text).toContain("<filepaths>\n</filepaths>");
    const git = body("You are an expert at analyzing git history. Given a list of files…", [
      { type: "text", text: "Files modified by user:\n" },
    ]);
    expect(claudeCodeHelper(git)?.kind).toBe("git-history");
  });

  it("leaves the agent's own turn alone, even one whose prompt is the word Warmup later on", () => {
    const agent = body("You are an interactive agent that helps users…", [
      reminder,
      { type: "text", text: "go" },
    ]);
    expect(claudeCodeHelper(agent)).toBeNull();
    const later = {
      ...agent,
      messages: [
        { role: "user", content: [{ type: "text", text: "Warmup" }] },
        { role: "assistant", content: [{ type: "text", text: "hi" }] },
        { role: "user", content: [{ type: "text", text: "again" }] },
      ],
    };
    expect(claudeCodeHelper(later)).toBeNull();
  });
});

describe("command prefixes, as the helper's own examples give them", () => {
  it.each([
    ["touch /w/S", "touch"],
    ["git commit -m x", "git commit"],
    ["git --no-pager log", "git"],
    ["FOO=bar BAZ=qux ls -la", "FOO=bar BAZ=qux ls"],
    ["touch a && rm b", "command_injection_detected"],
    ["echo $(cat x)", "command_injection_detected"],
    ["", "none"],
  ])("%j → %j", (command, prefix) => {
    expect(commandPrefix(command)).toBe(prefix);
  });
});
