import { describe, expect, it } from "vitest";

import { factsOf } from "../clis/facts-by-cli.js";
import { noRequestReason, REASON_STDERR_CHARS, reasonText, stderrExcerpt } from "./no-request.js";

const GEMINI = factsOf("gemini").exitCodes;

// What headless Gemini CLI 0.61.0 prints in a folder it does not trust (colour codes included).
const UNTRUSTED =
  "\u001b[31mGemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, set the `GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode. For more details, see https://geminicli.com/docs/cli/trusted-folders/#headless-and-automated-environments\u001b[0m\n";

describe("the reason of a spawn that reached no model request", () => {
  it.each([
    ["", ""],
    ["\n\n", ""],
    ["a\nb\n\nc\nd\n", "b / c / d"],
    ["\u001b[1;31merror:\u001b[0m no key\n", "error: no key"],
    [`${"x".repeat(400)}\nshort\n`, "short"],
  ])("keeps the last lines of stderr %j, without colour: %j", (stderr, excerpt) => {
    expect(stderrExcerpt(stderr)).toBe(excerpt);
  });

  it("keeps the start of a last line too long to show whole, bounded", () => {
    const excerpt = stderrExcerpt(UNTRUSTED);
    expect(excerpt).toMatch(/^Gemini CLI is not running in a trusted directory\./);
    expect(excerpt.length).toBe(REASON_STDERR_CHARS);
    expect(excerpt.endsWith("…")).toBe(true);
  });

  it("reads Gemini CLI's exit 55 as an untrusted folder, in one line with its stderr", () => {
    const reason = noRequestReason(55, UNTRUSTED, GEMINI);
    expect(reason.meaning).toMatch(/^untrusted folder/);
    expect(reasonText(reason)).toMatch(
      /^exit 55 \(untrusted folder: .*\); stderr: "Gemini CLI is not running in a trusted directory/,
    );
  });

  it("reads an exit code by the CLI that exited: Qwen Code's 55 is a spent budget", () => {
    expect(noRequestReason(55, "", factsOf("qwen").exitCodes).meaning).toBe("budget exceeded");
    expect(noRequestReason(1, "", GEMINI).meaning).toBeNull();
    expect(noRequestReason(55, "", factsOf("claude-code").exitCodes).meaning).toBeNull();
  });

  it("says so when the CLI gave no code, no meaning or nothing on stderr", () => {
    expect(reasonText(noRequestReason(null, "", GEMINI))).toBe("no exit code; nothing on stderr");
    expect(reasonText(noRequestReason(1, "boom\n", undefined))).toBe('exit 1; stderr: "boom"');
  });
});
