import { describe, expect, it } from "vitest";

import { overlayLine } from "./describe-launch.js";

describe("the plan screen's home-overlay line", () => {
  it.each([
    [
      { variable: "CODEX_HOME", source: "/h/.codex", exclude: ["AGENTS.md", "AGENTS.override.md"] },
      "home overlay: CODEX_HOME mirrors /h/.codex without AGENTS.md, AGENTS.override.md",
    ],
    [
      {
        variable: "GEMINI_CLI_HOME",
        source: "/h/.gemini",
        mirrorInto: ".gemini",
        exclude: ["GEMINI.md", "tmp"],
      },
      "home overlay: GEMINI_CLI_HOME/.gemini mirrors /h/.gemini without GEMINI.md, tmp",
    ],
    [
      {
        variable: "OPENCODE_CONFIG_DIR",
        source: "/h/.config/opencode",
        exclude: ["AGENTS.md"],
        empty: ["AGENTS.md"],
      },
      "home overlay: OPENCODE_CONFIG_DIR mirrors /h/.config/opencode with an empty AGENTS.md",
    ],
  ])("says what %j leaves out and writes empty", (overlay, line) => {
    expect(overlayLine(overlay)).toBe(line);
  });
});
