import { describe, expect, it } from "vitest";

import { renderJunit, xmlText } from "./junit-xml.js";

describe("JUnit XML", () => {
  it("counts failures, errors and skips, and escapes every text", () => {
    const xml = renderJunit("witness run", [
      {
        name: "0001 demo on claude-code@2.1.332",
        timestamp: "2026-12-01T00:00:00.000Z",
        cases: [
          { name: "ok", classname: "c", time: 1.5 },
          {
            name: "bad",
            classname: "c",
            failure: { message: 'refuted: "A" <absent>', text: "a & b" },
          },
          {
            name: "broke",
            classname: "c",
            error: { message: "inconclusive", text: "fault\u0007" },
          },
        ],
      },
    ]);
    expect(xml).toContain(
      '<testsuites name="witness run" tests="3" failures="1" errors="1" skipped="0" time="1.500">',
    );
    expect(xml).toContain('<testcase name="ok" classname="c" time="1.500"/>');
    expect(xml).toContain(
      '<failure message="refuted: &quot;A&quot; &lt;absent&gt;">a &amp; b</failure>',
    );
    expect(xml).toContain('<error message="inconclusive">fault\ufffd</error>');
  });

  it("drops characters XML cannot carry", () => {
    expect(xmlText("a\u0000b\u001fc\td")).toBe("a\ufffdb\ufffdc\td");
  });
});
