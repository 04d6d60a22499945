// The situations the transcript fixtures record, per CLI: short scripts, so fixtures stay small.
// Every call writes a sentinel in the workspace or ends with a known exit status, so its ground
// truth comes from the cell (the disk, the fake's log), never from the transcript.
import type { ProbeCliName } from "../clis/names.js";
import type { Fixture } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import type { Script } from "../probes/contracts/script.js";

/** One recorded situation. */
export interface Scenario {
  name: string;
  cli: ProbeCliName;
  /** The first version the scenario applies to (absent: every version). */
  from?: string;
  /** The argv after the binary, for one version (flags differ between versions). */
  argv: (version: string) => string[];
  fixture: Fixture;
  script: Script;
}

const ws = (...names: string[]): Fixture["sentinelsIn"] =>
  Object.fromEntries(names.map((name) => [name, "workspace" as const]));

/** True when version `a` is at least `b` (dotted numbers). */
export function atLeast(a: string, b: string): boolean {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

// No trust entry: 0.2.x and 1.0.x crash on witness's ~/.claude.json, and -p needs none.
const claudeFixture = (sentinels: string[], files: Fixture["files"] = []): Fixture => ({
  workspace: "outside-home",
  trust: false,
  files,
  ...(sentinels.length > 0 ? { sentinelsIn: ws(...sentinels) } : {}),
});

const json = ["--output-format", "json"];

const CLAUDE: Scenario[] = [
  {
    name: "text",
    cli: "claude-code",
    argv: () => ["-p", "say hello", ...json],
    fixture: claudeFixture(
      [],
      [{ at: "workspace", path: "CLAUDE.md", content: "Project memory {{marker:PROJECT}}\n" }],
    ),
    script: { turns: [], final: "hello from witness", classifier: "allow" },
  },
  {
    name: "ran",
    cli: "claude-code",
    argv: () => ["-p", "go", ...json, "--permission-mode", "bypassPermissions"],
    fixture: claudeFixture(["W", "B"]),
    script: {
      turns: [
        {
          calls: [
            { tool: "Write", input: { file_path: "{{sentinel:W}}", content: "x" } },
            { shell: "touch {{sentinel:B}}" },
            { shell: "echo out; exit 3" },
          ],
        },
      ],
      final: "done",
      classifier: "allow",
    },
  },
  {
    name: "denied",
    cli: "claude-code",
    argv: () => ["-p", "go", ...json, "--permission-mode", "default"],
    fixture: claudeFixture(["W", "B"]),
    script: {
      turns: [
        {
          calls: [
            { tool: "Write", input: { file_path: "{{sentinel:W}}", content: "x" } },
            { shell: "touch {{sentinel:B}}" },
          ],
        },
      ],
      final: "done",
      classifier: "allow",
    },
  },
  {
    name: "removed",
    cli: "claude-code",
    // `--tools` exists from 2.0.77 on; before it the deny list removes the tool.
    argv: (v) => [
      ...["-p", "go", ...json, "--permission-mode", "bypassPermissions"],
      ...(atLeast(v, "2.0.77") ? ["--tools", "Write"] : ["--disallowedTools", "Bash"]),
    ],
    fixture: claudeFixture(["W", "B"]),
    script: {
      turns: [
        {
          calls: [
            { shell: "touch {{sentinel:B}}" },
            { tool: "Write", input: { file_path: "{{sentinel:W}}", content: "x" } },
          ],
        },
      ],
      final: "done",
      classifier: "allow",
    },
  },
  {
    name: "deny-rule",
    cli: "claude-code",
    // A permissions.deny rule in the project's settings refuses the call even when the mode would
    // run it: the refusal comes from the rule, worded apart from the mode's own refusals.
    argv: () => ["-p", "go", ...json, "--permission-mode", "bypassPermissions"],
    fixture: claudeFixture(
      ["B"],
      [
        {
          at: "workspace",
          path: ".claude/settings.json",
          content: '{"permissions":{"deny":["Bash(touch:*)"]}}\n',
        },
      ],
    ),
    script: {
      turns: [{ calls: [{ shell: "touch {{sentinel:B}}" }] }],
      final: "done",
      classifier: "allow",
    },
  },
];

const codexFixture = (sentinels: string[], files: Fixture["files"] = []): Fixture => ({
  workspace: "outside-home",
  trust: true,
  files,
  ...(sentinels.length > 0 ? { sentinelsIn: ws(...sentinels) } : {}),
});

const PATCH_SCRIPT: Script = {
  turns: [
    {
      calls: [
        {
          tool: "exec",
          input: {
            code: `const r = await tools.apply_patch(${JSON.stringify(
              [
                "*** Begin Patch",
                "*** Add File: {{sentinel:P}}",
                "+patched",
                "*** Update File: notes.md",
                "@@",
                "-one",
                "+two",
                "*** End Patch",
                "",
              ].join("\n"),
            )});\ntext(JSON.stringify(r));`,
          },
        },
      ],
    },
  ],
  final: "done",
  classifier: "allow",
};

const CODEX: Scenario[] = [
  {
    name: "text",
    cli: "codex",
    argv: () => ["exec", "-s", "workspace-write", "say hello"],
    fixture: codexFixture(
      [],
      [{ at: "workspace", path: "AGENTS.md", content: "Project rules {{marker:PROJECT}}\n" }],
    ),
    script: { turns: [], final: "hello from witness", classifier: "allow" },
  },
  {
    name: "ran",
    cli: "codex",
    argv: () => ["exec", "-s", "danger-full-access", "go"],
    fixture: codexFixture(["B"]),
    script: {
      turns: [
        { calls: [{ shell: "touch {{sentinel:B}}" }] },
        { calls: [{ shell: "echo out; exit 3" }] },
      ],
      final: "done",
      classifier: "allow",
    },
  },
  {
    name: "sandbox",
    cli: "codex",
    argv: () => ["exec", "-s", "read-only", "go"],
    fixture: codexFixture(["B"]),
    script: {
      turns: [{ calls: [{ shell: "touch {{sentinel:B}}" }] }],
      final: "done",
      classifier: "allow",
    },
  },
  {
    name: "unknown-tool",
    cli: "codex",
    // Under `exec` the approval policy is always never: a tool the CLI does not have is the other refusal.
    argv: () => ["exec", "-s", "workspace-write", "go"],
    fixture: codexFixture(["B"]),
    script: {
      turns: [
        { calls: [{ tool: "witness_no_such_tool", input: { command: "touch {{sentinel:B}}" } }] },
      ],
      final: "done",
      classifier: "allow",
    },
  },
  {
    name: "patch",
    cli: "codex",
    // From 0.171 apply_patch is reached through the exec tool (`tools.apply_patch(patch)`): a new
    // file (the sentinel) and an update of a planted one, as a normal editing session makes them.
    from: "0.171.0",
    argv: () => ["exec", "-s", "workspace-write", "go"],
    fixture: codexFixture(["P"], [{ at: "workspace", path: "notes.md", content: "one\n" }]),
    script: PATCH_SCRIPT,
  },
  {
    name: "patch-refused",
    cli: "codex",
    // The same patch under read-only: exec's approval policy is never, so the patch is refused
    // before it runs ("patch rejected: … rejected by user approval settings"), not by the kernel.
    from: "0.171.0",
    argv: () => ["exec", "-s", "read-only", "go"],
    fixture: codexFixture(["P"], [{ at: "workspace", path: "notes.md", content: "one\n" }]),
    script: PATCH_SCRIPT,
  },
];

const copilotFixture = (sentinels: string[]): Fixture => ({
  workspace: "outside-home",
  trust: false,
  files: [],
  sentinelsIn: ws(...sentinels),
});

// A shell call and a file write inside the workspace (outside it even --allow-all-tools refuses
// them), the prompt as `--prompt=` (1.0.102 reads `-p -x` as a missing value; both take this),
// JSONL on stdout for the session id its last line carries (1.0.60 prints none in text mode).
const COPILOT_CALLS: Script["turns"] = [
  {
    calls: [
      { shell: "touch {{sentinel:B}}" },
      { tool: "create", input: { path: "{{sentinel:W}}", file_text: "x" } },
    ],
  },
];

const COPILOT: Scenario[] = [
  {
    name: "default",
    cli: "copilot",
    argv: () => ["--output-format", "json", "--prompt=go"],
    fixture: copilotFixture(["B", "W"]),
    script: { turns: COPILOT_CALLS, final: "done", classifier: "allow" },
  },
  {
    name: "allow-all-tools",
    cli: "copilot",
    argv: () => ["--output-format", "json", "--allow-all-tools", "--prompt=go"],
    fixture: copilotFixture(["B", "W"]),
    script: {
      turns: [...COPILOT_CALLS, { calls: [{ shell: "echo out; exit 3" }] }],
      final: "done",
      classifier: "allow",
    },
  },
];

// Kilo: a shell call and a write in the workspace, and a write outside it (an external_directory
// ask: auto-rejected with no flag, approved under --auto). Not an exit status: like opencode, Kilo
// sends a failed command's output back without its exit code, so the wire alone cannot tell it.
const KILO_CALLS: Script["turns"] = [
  {
    calls: [
      { shell: "touch {{sentinel:B}}" },
      { tool: "write", input: { filePath: "{{sentinel:W}}", content: "x" } },
      { tool: "write", input: { filePath: "{{sentinel:OUT}}", content: "x" } },
    ],
  },
];

const KILO: Scenario[] = [
  {
    name: "default",
    cli: "kilo",
    argv: () => ["run", "go"],
    fixture: copilotFixture(["B", "W"]),
    script: { turns: KILO_CALLS, final: "done", classifier: "allow" },
  },
  {
    name: "auto",
    cli: "kilo",
    argv: () => ["run", "--auto", "go"],
    fixture: copilotFixture(["B", "W"]),
    script: { turns: KILO_CALLS, final: "done", classifier: "allow" },
  },
];

// Kimi: -p runs every call unasked, so its one scenario covers what a result can say: a shell call
// and a write that run, a tool it does not offer, a command that exits 3.
const KIMI: Scenario[] = [
  {
    name: "prompt-mode",
    cli: "kimi",
    argv: () => ["-p", "go"],
    fixture: copilotFixture(["B", "W"]),
    script: {
      turns: [
        {
          calls: [
            { shell: "touch {{sentinel:B}}" },
            { tool: "Write", input: { path: "{{sentinel:W}}", content: "x" } },
            { tool: "NoSuchTool", input: {} },
          ],
        },
        { calls: [{ shell: "echo out; exit 3" }] },
      ],
      final: "done",
      classifier: "allow",
    },
  },
];

/** Every scenario of `cli`. */
// Cline 3.x: with no flag (act mode, auto-approve on) a shell call and an edit run, a tool it does
// not offer is refused, a command exits 3; with --auto-approve false headless, both are refused.
const CLINE_CALLS: Script["turns"] = [
  {
    calls: [
      { shell: "touch {{sentinel:B}}" },
      { tool: "editor", input: { path: "{{sentinel:W}}", new_text: "x\n" } },
    ],
  },
];

const CLINE: Scenario[] = [
  {
    name: "default",
    cli: "cline",
    argv: () => ["--", "Run the probe."],
    fixture: copilotFixture(["B", "W"]),
    script: {
      turns: [
        ...CLINE_CALLS,
        { calls: [{ tool: "NoSuchTool", input: {} }] },
        { calls: [{ shell: "echo out; exit 3" }] },
      ],
      final: "done",
      classifier: "allow",
    },
  },
  {
    name: "auto-approve-false",
    cli: "cline",
    argv: () => ["--auto-approve", "false", "--", "Run the probe."],
    fixture: copilotFixture(["B", "W"]),
    script: { turns: CLINE_CALLS, final: "done", classifier: "allow" },
  },
];

export function scenariosFor(cli: ProbeCliName): Scenario[] {
  return [...CLAUDE, ...CODEX, ...COPILOT, ...KILO, ...KIMI, ...CLINE].filter((s) => s.cli === cli);
}

/** The probe spec of one scenario at one version. */
export function specOf(scenario: Scenario, version: string): ProbeSpec {
  return {
    cli: { name: scenario.cli, version },
    fixture: scenario.fixture,
    script: scenario.script,
    launch: { argv: scenario.argv(version) },
    timeoutMs: 120_000,
  };
}
