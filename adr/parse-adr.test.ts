import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { judgeAdr } from "./gate.js";
import { gateHistory } from "./gate-history.js";
import { parseAdr, withStatus } from "./parse-adr.js";

describe("parseAdr", () => {
  it.each([
    ["Status: Proposed", "proposed", "Proposed"],
    ["• Status: proposed", "proposed", "proposed"],
    ["Status: accepted (2026-09-26)", "accepted", "accepted"],
    ["- **Status:** Accepted", "accepted", "Accepted"],
    ["**Status**: Superseded by 0007", "superseded", "Superseded"],
  ])("reads the status line %j", (line, value, word) => {
    const adr = parseAdr(`# 0003 — A decision\n\n${line}\nRequires: none\n`, "docs/adr/0003-a.md");
    expect(adr.status).toMatchObject({ value, word, line: 2 });
    expect(adr.id).toBe("0003");
  });

  it("reads a front-matter status", () => {
    const adr = parseAdr("---\ntitle: x\nstatus: accepted\n---\n# Title\n", "docs/adr/0004-x.md");
    expect(adr.status).toEqual({ line: 2, word: "accepted", value: "accepted" });
  });

  it("reads a MADR status section", () => {
    const adr = parseAdr("# T\n\n## Status\n\nProposed\n", "docs/adr/0005-t.md");
    expect(adr.status).toEqual({ line: 4, word: "Proposed", value: "proposed" });
  });

  it("finds no status when there is none", () => {
    expect(parseAdr("# T\n\nNo status here.\n", "docs/adr/0006-t.md").status).toBeNull();
  });

  it("takes an id from an ADR-119 title when the file name has none", () => {
    expect(parseAdr("ADR-119 — ambient_context\n\n• Status: proposed\n", "decision.md").id).toBe(
      "0119",
    );
  });

  it.each([
    ["Requires: 0001, 0003", ["0001", "0003"]],
    ["Requires: 1 3", ["0001", "0003"]],
    ["Requires: none", []],
    ["• Requires: 0002", ["0002"]],
  ])("reads %j", (line, requires) => {
    expect(parseAdr(`# T\nStatus: Proposed\n${line}\n`, "docs/adr/0001-t.md").requires).toEqual(
      requires,
    );
  });

  it("reports a Requires line that is not a list of ids", () => {
    const adr = parseAdr(
      "# T\nStatus: Proposed\nRequires: the setting-sources one\n",
      "docs/adr/0001-t.md",
    );
    expect(adr.requires).toBeNull();
    expect(adr.problems[0]).toContain('expected protocol ids like "0001, 0003" or "none"');
  });

  it("says null when there is no Requires line", () => {
    expect(parseAdr("# T\nStatus: Proposed\n", "docs/adr/0001-t.md").requires).toBeNull();
  });
});

describe("withStatus", () => {
  it.each([
    ["Status: Proposed", "Status: Accepted"],
    ["• Status: proposed", "• Status: accepted"],
    ["STATUS: PROPOSED", "STATUS: ACCEPTED"],
    ["- **Status:** Proposed (2026-01-01)", "- **Status:** Accepted (2026-01-01)"],
  ])("rewrites %j as %j and nothing else", (line, after) => {
    const text = `# Proposed things\n\n${line}\nRequires: none\n\nProposed elsewhere.\n`;
    const adr = parseAdr(text, "docs/adr/0001-t.md");
    if (adr.status === null) throw new Error("no status");
    expect(withStatus(text, adr.status, "accepted")).toBe(text.replace(line, after));
  });
});

describe("one reading of an ADR's status: the fake-status corpus", () => {
  const dir = join(import.meta.dirname, "test", "fixtures", "fake-status");
  const files = readdirSync(dir).filter((n) => n.endsWith(".md") && n !== "README.md");
  const ctx = {
    root: dir,
    protocols: [],
    records: [],
    rejected: [],
    uncommitted: [],
    history: gateHistory(dir),
    ledger: [],
    signatures: null,
  };

  it("has cases to try", () => {
    expect(files.length).toBeGreaterThanOrEqual(9);
  });

  it.each(files)("%s: an Accepted ADR without evidence does not pass", async (name) => {
    const adr = parseAdr(readFileSync(join(dir, name), "utf8"), `docs/adr/${name}`);
    const row = await judgeAdr(adr, ctx);
    expect(row.gated || row.problems.length > 0).toBe(true);
    expect(row.ok).toBe(false);
  });

  it.each([
    ["a code block", "```\nStatus: Proposed\n```\nStatus: Accepted", "accepted"],
    ["a zero-width space", "Sta\u200btus: Acc\u200bepted", "accepted"],
    ["a full-width word", "Ｓｔａｔｕｓ: Ａｃｃｅｐｔｅｄ", "accepted"],
    ["a combining grapheme joiner (U+034F)", "Status: Acc\u034fepted", "accepted"],
    ["a variation selector (U+FE0F)", "Status: A\ufe0fccepted", "accepted"],
    ["a zero-width joiner", "Status: Pro\u200dposed", "proposed"],
    ["an inline comment", "Status: Pro<!-- x -->posed", "proposed"],
  ])("reads the status past %s", (_, lines, value) => {
    const adr = parseAdr(`# T\n\n${lines}\nRequires: none\n`, "docs/adr/0001-t.md");
    expect(adr.status?.value).toBe(value);
    expect(adr.problems).toEqual([]);
  });

  it("names both lines of a doubled status or Requires line", () => {
    const adr = parseAdr(
      "# T\nStatus: Proposed\nRequires: none\nStatus: Accepted\nRequires: 0001\n",
      "x.md",
    );
    expect(adr.problems).toEqual([
      "expected one status line; found 2 (lines 2, 4)",
      "expected one `Requires:` line; found 2 (lines 3, 5)",
    ]);
  });

  it("refuses to promote a status spelled with invisible characters", () => {
    const text = "# T\nStatus: Pro\u200bposed\nRequires: none\n";
    const adr = parseAdr(text, "x.md");
    if (adr.status === null) throw new Error("no status");
    expect(() => withStatus(text, adr.status!, "accepted")).toThrow(/write it plainly/);
  });

  it.each([
    ["a Cyrillic e", "Status: Acc\u0435pted", 'got "Acc\u0435pted"'],
    ["a word outside the list", "Status: Approved", 'got "Approved"'],
    ["nothing", "Status: ", 'got ""'],
  ])(
    "refuses a status word spelled with %s, naming line, field and the closed list",
    (_, line, got) => {
      const adr = parseAdr(`# T\n\n${line}\nRequires: none\n`, "docs/adr/0001-t.md");
      expect(adr.status).toBeNull();
      expect(adr.problems).toEqual([
        `line 3: status: expected one of proposed, accepted, rejected, deprecated, superseded; ${got}`,
      ]);
    },
  );

  it.each([
    ["<script>", "<script>\nStatus: Proposed\n</script>\n", 4],
    ["<script> on one line", "<script>Status: Proposed</script>\n", 3],
    ["<style>", "<style>\n/* Requires: none */\n</style>\n", 4],
    ["<div hidden>", "<div hidden>\nStatus: Proposed\n</div>\n", 4],
    ["<details>", "<details>\n## Status\nProposed\n</details>\n", 4],
    ["a comment", "<!-- Status: Proposed -->\n", 3],
    ["a multi-line comment", "Text <!--\nStatus: Proposed -->\n", 4],
    ["a lone custom tag", "<x-note>\nStatus: Proposed\n", 4],
  ])("a status line inside %s is an error, not a status", (_, html, line) => {
    const adr = parseAdr(`# T\n\n${html}\nStatus: Accepted\nRequires: none\n`, "x.md");
    expect(adr.problems).toContain(
      `line ${line}: a status or Requires line inside an HTML block or comment; write it as plain Markdown outside HTML`,
    );
  });

  it("reads prose again after an HTML block ends", () => {
    const adr = parseAdr("# T\n\n<div>\nx\n</div>\n\nStatus: Accepted\nRequires: none\n", "x.md");
    expect(adr.status?.value).toBe("accepted");
    expect(adr.problems).toEqual([]);
  });
});
