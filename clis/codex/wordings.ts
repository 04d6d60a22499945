// What a Codex tool output says about the command it ran: the exit code in any of the forms the
// versions write, and whether the sandbox or the approval policy refused it (data: one row per
// wording, with the versions whose recorded runs produced it).

/** One way the sandbox's refusal reads in a command's output, and where it was seen. */
export interface CodexSandboxWording {
  id: string;
  pattern: RegExp;
  when: string;
  seenOn: readonly string[];
}

/** Sandbox refusals: the kernel's words (Landlock, then bubblewrap) and Codex's own wrapper. */
export const CODEX_SANDBOX_WORDINGS: readonly CodexSandboxWording[] = [
  {
    id: "sandbox-denied",
    pattern: /Sandbox\(Denied/,
    when: "exec_command failed: CreateProcess { … Sandbox(Denied …",
    seenOn: ["0.96.0", "0.110.0"],
  },
  {
    id: "read-only-file-system",
    pattern: /Read-only file system/,
    when: "a write under read-only (bubblewrap)",
    seenOn: ["0.125.0", "0.142.5", "0.153.4", "0.156.1", "0.163.0", "0.169.0", "0.171.0"],
  },
  {
    id: "permission-denied",
    pattern: /Permission denied|Operation not permitted/,
    when: "a write under read-only (Landlock)",
    seenOn: ["0.58.0", "0.60.1", "0.80.0", "0.96.0", "0.110.0"],
  },
];

/** Refusals by the approval policy rather than the sandbox: a patch or command it would not run. */
export const CODEX_APPROVAL_WORDINGS: readonly CodexSandboxWording[] = [
  {
    id: "rejected-by-approval-settings",
    pattern: /rejected by user approval settings/,
    when: "apply_patch the approval policy refuses under exec (read-only, or a path outside the project)",
    seenOn: ["0.171.0"],
  },
];

/** The first sandbox wording that matches, or null. */
export function codexSandboxWording(text: string): CodexSandboxWording | null {
  return CODEX_SANDBOX_WORDINGS.find((row) => row.pattern.test(text)) ?? null;
}

/** The first sandbox or approval wording that matches, or null. */
export function codexRefusalWording(text: string): CodexSandboxWording | null {
  return (
    codexSandboxWording(text) ??
    CODEX_APPROVAL_WORDINGS.find((row) => row.pattern.test(text)) ??
    null
  );
}

/** How a call Codex did not know reads (0.58 – 0.171). */
export const CODEX_NO_SUCH_TOOL =
  /unsupported (custom tool )?call|unknown tool|No such tool available/i;

/** An exit code and the form it was read from. */
export interface ExitCodeReading {
  code: number;
  /** `json` (`exit_code`), `metadata` (`metadata.exit_code`, 0.58), `text` (`Exit code: N`, `Process exited with code N`). */
  form: "json" | "metadata" | "text";
}

const TEXT_FORMS = [/^Exit code: (-?\d+)$/m, /^Process exited with code (-?\d+)$/m];

/**
 * The exit code a tool output reports: from a JSON part (`{"exit_code":N}` of the exec tool,
 * `{"metadata":{"exit_code":N}}` of 0.58's rollout) or from the text forms of 0.58 – 0.143.
 */
export function codexExitCode(parts: readonly string[]): ExitCodeReading | null {
  for (const part of parts) {
    const trimmed = part.trim();
    if (!trimmed.startsWith("{")) continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      continue;
    }
    const fields = (typeof value === "object" && value !== null ? value : {}) as Record<
      string,
      unknown
    >;
    if (typeof fields.exit_code === "number") return { code: fields.exit_code, form: "json" };
    const metadata = fields.metadata as Record<string, unknown> | undefined;
    if (typeof metadata?.exit_code === "number")
      return { code: metadata.exit_code, form: "metadata" };
  }
  for (const part of parts) {
    for (const form of TEXT_FORMS) {
      const match = form.exec(part);
      if (match) return { code: Number(match[1]), form: "text" };
    }
  }
  return null;
}
