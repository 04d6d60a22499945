// How Claude Code words a refused or missing tool in the tool_result it sends back, per version.
// Data, one row per phrasing; the transcript parser reads it, and so may a driver's wire outcome.
// `seenOn` lists the versions whose recorded runs (a default-mode Write + touch, a removed tool,
// plan and auto modes) produced the phrasing; a phrasing may well hold between the listed ones.

/** One phrasing: what it means, the text that identifies it, and where it was seen. */
export interface ClaudeWording {
  id: string;
  /** `denied`: the permission mode or a rule refused the call; `no-such-tool`: not offered. */
  outcome: "denied" | "no-such-tool";
  pattern: RegExp;
  /** When the CLI uses it, in a few words. */
  when: string;
  seenOn: readonly string[];
}

const SPAN_1_0_128_TO_2_1_240 = [
  "1.0.128",
  "2.0.30",
  "2.0.77",
  "2.1.0",
  "2.1.4",
  "2.1.7",
  "2.1.9",
  "2.1.14",
  "2.1.17",
  "2.1.20",
  "2.1.50",
  "2.1.75",
  "2.1.81",
  "2.1.85",
  "2.1.88",
  "2.1.100",
  "2.1.110",
  "2.1.122",
  "2.1.150",
  "2.1.175",
  "2.1.187",
  "2.1.200",
  "2.1.220",
  "2.1.240",
] as const;

/** Every phrasing seen, most specific first (the first row that matches wins). */
export const CLAUDE_WORDINGS: readonly ClaudeWording[] = [
  {
    id: "write-not-granted",
    outcome: "denied",
    pattern: /Claude requested permissions to write to .+, but you haven't granted it yet/,
    when: "Write or Edit the mode does not allow (default, plan before 2.1.200, acceptEdits outside the workspace)",
    seenOn: [
      ...SPAN_1_0_128_TO_2_1_240,
      "2.1.282",
      "2.1.284",
      "2.1.300",
      "2.1.308",
      "2.1.316",
      "2.1.332",
    ],
  },
  {
    id: "use-not-granted",
    outcome: "denied",
    pattern: /Claude requested permissions to use \S+, but you haven't granted it yet/,
    when: "any tool the mode does not allow",
    seenOn: ["0.2.126"],
  },
  {
    id: "command-requires-approval",
    outcome: "denied",
    pattern: /^This command requires approval/,
    when: "Bash inside the workspace after the prefix check",
    seenOn: ["1.0.128", "2.0.30", "2.0.77", "2.1.0"],
  },
  {
    id: "blocked-outside-working-dirs",
    outcome: "denied",
    pattern:
      /was blocked\. For security, Claude Code may only create or modify files in the allowed working director/,
    when: "Bash that writes a file (outside the workspace; from 2.1.4 inside it too)",
    seenOn: SPAN_1_0_128_TO_2_1_240,
  },
  {
    id: "needs-approval-inside",
    outcome: "denied",
    pattern: /needs approval\. The path is inside the working directories for this session/,
    when: "Bash that creates, changes or removes a file inside the workspace",
    seenOn: ["2.1.282", "2.1.284", "2.1.300", "2.1.308", "2.1.316", "2.1.330", "2.1.332"],
  },
  {
    id: "needs-approval-outside",
    outcome: "denied",
    pattern: /needs approval\. The path is outside the working directories for this session/,
    when: "Bash that writes outside the workspace",
    seenOn: ["2.1.282", "2.1.300", "2.1.332"],
  },
  {
    id: "plan-mode-write",
    outcome: "denied",
    pattern: /^Cannot write to .+ while in plan mode/,
    when: "Write in plan mode",
    seenOn: ["2.1.200", "2.1.282", "2.1.300", "2.1.332"],
  },
  {
    id: "auto-mode-has-been-denied",
    outcome: "denied",
    pattern: /^Permission for this action has been denied\. Reason:/,
    when: "auto mode, the classifier blocked the call",
    seenOn: ["2.1.100"],
  },
  {
    id: "auto-mode-classifier",
    outcome: "denied",
    pattern: /^Permission for this action was denied by the Claude Code auto mode classifier/,
    when: "auto mode (and plan outside the workspace), the classifier blocked the call",
    seenOn: ["2.1.200", "2.1.282", "2.1.300", "2.1.332"],
  },
  {
    id: "deny-rule",
    outcome: "denied",
    pattern: /^Permission to (use|read|edit) .+ has been denied\./,
    when: "a permissions.deny rule in a settings file (one naming a command prefix; a bare tool name removes the tool)",
    seenOn: ["2.1.332"],
  },
  {
    id: "no-such-tool-disabled",
    outcome: "no-such-tool",
    pattern: /No such tool available: (\w+)\. \1 is disabled for this session/,
    when: "a tool left out by --tools or --disallowedTools",
    seenOn: ["2.1.282", "2.1.300", "2.1.332"],
  },
  {
    id: "no-such-tool-not-enabled",
    outcome: "no-such-tool",
    pattern: /No such tool available: (\w+)\. \1 exists but is not enabled in this context/,
    when: "a tool left out by --tools or --disallowedTools",
    seenOn: ["2.1.200"],
  },
  {
    id: "no-such-tool",
    outcome: "no-such-tool",
    pattern: /No such tool available: \w+/,
    when: "a tool left out by --tools or --disallowedTools, or one that does not exist",
    seenOn: ["0.2.126", "1.0.128", "2.0.30", "2.0.77", "2.1.0", "2.1.100"],
  },
];

/** The first phrasing that matches a tool result's text, or null when none does. */
export function claudeWording(text: string): ClaudeWording | null {
  return CLAUDE_WORDINGS.find((row) => row.pattern.test(text)) ?? null;
}

/**
 * Values of `toolDenialKind` (2.1.200+) seen on refused calls. Any value counts as a refusal;
 * these are listed so a new one shows up in a test.
 */
export const CLAUDE_DENIAL_KINDS: readonly string[] = ["user-rejected", "automode-blocked"];
