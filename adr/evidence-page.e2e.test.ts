// witness's own evidence page, rendered from the whole repository (every ADR gated, every record
// read), and opened in a real browser (headless Chromium through puppeteer-core) at a phone's
// width. evidence-page.test.ts checks the rendering on hand-made rows.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { WITNESS_ROOT } from "../test/support/built-cli.js";
import { writeEvidencePage } from "./report.js";

// Debian's Chromium (.ci/run installs it), or the one WITNESS_CHROMIUM names.
const CHROMIUM = process.env.WITNESS_CHROMIUM ?? "/usr/bin/chromium";
const missing = existsSync(CHROMIUM)
  ? null
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or name one in WITNESS_CHROMIUM)`;
if (missing !== null) console.warn(`evidence page browser check skipped: ${missing}`);

describe("witness's own evidence page", () => {
  let out = "";
  let file = "";
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "witness-report-"));
    file = await writeEvidencePage({ cwd: WITNESS_ROOT, out });
  }, 120_000);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it("shows every ADR, the support matrix, every record and the drift, with nothing to fetch", async () => {
    const html = await readFile(file, "utf8");
    for (const id of ["gate", "support", "records", "drift"]) expect(html).toContain(`id="${id}"`);
    expect(html).toContain("0001");
    expect(html).toMatch(/claude-code<\/td><td>2\.1\.332<\/td>/);
    expect(html).toContain('id="r-docs-measurements-0001-');
    // Self-contained: no script, and no address outside the page itself.
    expect(html).not.toMatch(/<script|<link|@import|url\(/i);
    expect(html.match(/(?:src|href)="([^"#][^"]*)"/g) ?? []).toEqual([]);
  });

  it("loads nothing but itself in a browser and fits a phone's width", async (ctx) => {
    if (missing !== null) ctx.skip(missing);
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
  }, 120_000);
});
