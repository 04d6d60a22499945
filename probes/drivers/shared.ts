// What several drivers share: the dummy credential and the wording of a tool that does not exist.

/** A dummy credential: the CLIs insist on a key, the fake server ignores it. */
export const DUMMY_KEY = "witness-dummy-key-not-a-secret";

/** How the CLIs say a tool is not there (Claude Code, Codex, and the generic phrasings). */
export const NO_SUCH_TOOL =
  /No such tool available|unsupported call|unknown tool|tool .* not found/i;
