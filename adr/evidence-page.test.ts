import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { describe, expect, it } from "vitest";

import { WITNESS_ROOT } from "../test/support/built-cli.js";
import { escapeHtml, renderEvidencePage } from "./evidence-page.js";
import { writeEvidencePage } from "./report.js";

// Debian's Chromium (.ci/run installs it), or the one WITNESS_CHROMIUM names.
const CHROMIUM = process.env.WITNESS_CHROMIUM ?? "/usr/bin/chromium";

// Opens the page in a headless browser at a phone's size, fails on any request beyond the file
// itself, and takes a screenshot (kept beside the page while the test runs).
async function inBrowser(file: string, out: string): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.warn(
      `skipping the browser check: no Chromium at ${CHROMIUM} (apt-get install chromium)`,
    );
    return;
  }
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage();
    const url = pathToFileURL(file).href;
    const elsewhere: string[] = [];
    page.on("request", (r) => {
      if (r.url() !== url) elsewhere.push(r.url());
    });
    await page.setViewport({ width: 390, height: 844 });
    await page.goto(url, { waitUntil: "load" });
    expect(elsewhere).toEqual([]);
    // Strings, not functions: the tests are compiled without the DOM's types.
    expect(await page.evaluate('document.querySelector("h1").textContent')).toBe(
      "witness evidence",
    );
    // Readable on a phone: the page itself does not scroll sideways (wide tables scroll in place).
    const width = Number(await page.evaluate("document.documentElement.scrollWidth"));
    expect(width).toBeLessThanOrEqual(390);
    const shot = join(out, "phone.png") as `${string}.png`;
    await page.screenshot({ path: shot });
    expect((await stat(shot)).size).toBeGreaterThan(10_000);
  } finally {
    await browser.close();
  }
}

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

  it("renders witness's own evidence: every ADR, the support matrix, every record, the drift; nothing to fetch, in a browser at a phone's width", async () => {
    const out = await mkdtemp(join(tmpdir(), "witness-report-"));
    try {
      const file = await writeEvidencePage({ cwd: WITNESS_ROOT, out });
      const html = await readFile(file, "utf8");
      for (const id of ["gate", "support", "records", "drift"])
        expect(html).toContain(`id="${id}"`);
      expect(html).toContain("0001");
      expect(html).toMatch(/claude-code<\/td><td>2\.1\.332<\/td>/);
      expect(html).toContain('id="r-docs-measurements-0001-');
      // Self-contained: no script, and no address outside the page itself.
      expect(html).not.toMatch(/<script|<link|@import|url\(/i);
      expect(html.match(/(?:src|href)="([^"#][^"]*)"/g) ?? []).toEqual([]);
      await inBrowser(file, out);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);
});
