import { describe, expect, it } from "vitest";

import { detectCi, renderAnnotation } from "./ci-annotations.js";

describe("CI annotations", () => {
  it.each([
    [{ GITHUB_ACTIONS: "true" }, "github"],
    [{ TF_BUILD: "True" }, "azure"],
    [{ CI: "true" }, null],
    [{}, null],
  ])("detects %j as %s", (env, ci) => {
    expect(detectCi(env)).toBe(ci);
  });

  it("writes GitHub's workflow command, escaping what ends a property or the line", () => {
    expect(
      renderAnnotation("github", {
        level: "error",
        file: "docs/prereg/0001-a,b.yaml",
        line: 3,
        title: "0001 arm: refuted",
        message: "100% wrong\nsecond line",
      }),
    ).toBe(
      "::error file=docs/prereg/0001-a%2Cb.yaml,line=3,title=0001 arm%3A refuted::100%25 wrong%0Asecond line",
    );
  });

  it("writes Azure's logging command on one line", () => {
    expect(
      renderAnnotation("azure", {
        level: "warning",
        file: "docs/adr/0001-x.md",
        title: "ADR 0001",
        message: "a\nb]",
      }),
    ).toBe("##vso[task.logissue type=warning;sourcepath=docs/adr/0001-x.md]ADR 0001: a b]");
  });
});
