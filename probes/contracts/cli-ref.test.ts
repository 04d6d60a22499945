import { describe, expect, it } from "vitest";

import { canonicalCliName, PROBE_CLI_NAMES } from "../../clis/names.js";
import { UsageError } from "../../core/errors.js";
import { parseCliRef } from "./probe-spec.js";

describe("CLI names and references", () => {
  it.each([
    ["claude-code", "claude-code"],
    ["claude", "claude-code"],
    ["@anthropic-ai/claude-code", "claude-code"],
    ["Codex", "codex"],
    ["@openai/codex", "codex"],
    ["pi", "pi"],
    ["pi-coding-agent", "pi"],
    ["@mariozechner/pi-coding-agent", "pi"],
    ["opencode", "opencode"],
    ["opencode-ai", "opencode"],
    ["gpt", null],
  ])("reads %s as %s", (text, name) => {
    expect(canonicalCliName(text)).toBe(name);
  });

  it("parses a name, an alias or a package with an exact version", () => {
    expect(parseCliRef("claude@2.1.282")).toEqual({ name: "claude-code", version: "2.1.282" });
    expect(parseCliRef("@openai/codex@0.156.1")).toEqual({ name: "codex", version: "0.156.1" });
    expect(parseCliRef("@mariozechner/pi-coding-agent@0.73.1")).toEqual({
      name: "pi",
      version: "0.73.1",
    });
    expect(parseCliRef("opencode-ai@1.18.33")).toEqual({ name: "opencode", version: "1.18.33" });
  });

  it.each([
    ["claude-code", /expected <cli>@<exact version>/],
    ["gpt@1.0.0", new RegExp(`supported: ${PROBE_CLI_NAMES.join(", ")}`)],
    ["codex@latest", /expected an exact version like 2\.1\.332/],
  ])("refuses %s, saying which part is wrong", (text, message) => {
    expect(() => parseCliRef(text)).toThrow(UsageError);
    expect(() => parseCliRef(text)).toThrow(message);
  });
});
