import { describe, expect, it } from "vitest";

import { escapeHtml, renderEvidencePage } from "./evidence-page.js";

describe("the evidence page", () => {
  it("escapes what records and ADRs say, so a record cannot inject markup", () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;",
    );
    const html = renderEvidencePage({
      generatedAt: "2026-12-01T00:00:00.000Z",
      adrs: [],
      support: [
        {
          backend: "claude-code",
          value: "<b>all</b>",
          verdict: "honoured",
          record: { path: "docs/measurements/x.json", version: "2.1.332" },
          ok: true,
          note: "",
        },
      ],
      records: [],
      drift: [],
      flips: [],
      questions: [],
    });
    expect(html).not.toContain("<b>all</b>");
    expect(html).toContain("&lt;b&gt;all&lt;/b&gt;");
  });

  it("leads with the flips, then each question with what reached the model and what ran, before the gate and any record path", () => {
    const html = renderEvidencePage({
      generatedAt: "2026-12-01T00:00:00.000Z",
      adrs: [],
      support: [],
      records: [],
      drift: [],
      flips: [
        {
          cli: "claude-code",
          protocol: "0020",
          slug: "default-mode",
          arm: "no-flag",
          from: "2.1.284",
          to: "2.1.285",
          before: "confirmed",
          after: "refuted",
        },
      ],
      questions: [
        {
          protocol: "0001",
          title: "Does HOME's CLAUDE.md reach the model?",
          hypothesis: "It does <not>",
          cli: "claude-code",
          arms: [
            {
              arm: "bare",
              description: "no flags",
              answers: [
                {
                  version: "2.1.332",
                  verdict: "confirmed",
                  reached: ["HOME 3/3"],
                  keptOut: ["PROJECT"],
                  ran: ["Bash ran 3/3"],
                  created: ["S1"],
                },
              ],
            },
          ],
        },
      ],
    });
    const at = (text: string) => html.indexOf(text);
    expect(at("Flips between versions")).toBeGreaterThan(0);
    expect(at("Flips between versions")).toBeLessThan(at("Questions and what the CLIs did"));
    expect(at("Questions and what the CLIs did")).toBeLessThan(at('id="gate"'));
    expect(html).toContain("claude-code 2.1.285");
    expect(html).toContain("reached: HOME 3/3<br>kept out: PROJECT");
    expect(html).toContain("Bash ran 3/3<br>created: S1");
    expect(html).toContain("It does &lt;not&gt;");
  });
});
