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
    });
    expect(html).not.toContain("<b>all</b>");
    expect(html).toContain("&lt;b&gt;all&lt;/b&gt;");
  });
});
