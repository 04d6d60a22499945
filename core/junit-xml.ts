// JUnit XML, the test-report format every CI reads: suites of cases, each passed, failed
// (the claim did not hold), errored (no answer: the run itself broke) or skipped.

/** One test case; at most one of `failure`, `error` and `skipped`. */
export interface JunitCase {
  name: string;
  classname: string;
  /** Seconds. */
  time?: number;
  /** A file the case is about, for CI that links it (`file` attribute). */
  file?: string;
  failure?: { message: string; text: string };
  error?: { message: string; text: string };
  skipped?: string;
}

/** A named group of cases. */
export interface JunitSuite {
  name: string;
  timestamp?: string;
  cases: JunitCase[];
}

// XML 1.0 cannot carry most control characters at all, not even escaped.
// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Text escaped for an XML attribute or element. */
export function xmlText(text: string): string {
  return text
    .replace(INVALID, "\ufffd")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

const attrs = (pairs: [string, string | number | undefined][]) =>
  pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join("");

function renderCase(c: JunitCase): string {
  const head = `    <testcase${attrs([
    ["name", c.name],
    ["classname", c.classname],
    ["time", c.time === undefined ? undefined : c.time.toFixed(3)],
    ["file", c.file],
  ])}`;
  const body = c.failure
    ? `<failure${attrs([["message", c.failure.message]])}>${xmlText(c.failure.text)}</failure>`
    : c.error
      ? `<error${attrs([["message", c.error.message]])}>${xmlText(c.error.text)}</error>`
      : c.skipped !== undefined
        ? `<skipped${attrs([["message", c.skipped]])}/>`
        : "";
  return body === "" ? `${head}/>` : `${head}>\n      ${body}\n    </testcase>`;
}

/** A whole `<testsuites>` document. */
export function renderJunit(name: string, suites: readonly JunitSuite[]): string {
  const count = (s: readonly JunitCase[], p: (c: JunitCase) => boolean) => s.filter(p).length;
  const all = suites.flatMap((s) => s.cases);
  const total = (cases: readonly JunitCase[]) =>
    cases.reduce((sum, c) => sum + (c.time ?? 0), 0).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs([
      ["name", name],
      ["tests", all.length],
      ["failures", count(all, (c) => c.failure !== undefined)],
      ["errors", count(all, (c) => c.error !== undefined)],
      ["skipped", count(all, (c) => c.skipped !== undefined)],
      ["time", total(all)],
    ])}>`,
  ];
  for (const s of suites) {
    lines.push(
      `  <testsuite${attrs([
        ["name", s.name],
        ["tests", s.cases.length],
        ["failures", count(s.cases, (c) => c.failure !== undefined)],
        ["errors", count(s.cases, (c) => c.error !== undefined)],
        ["skipped", count(s.cases, (c) => c.skipped !== undefined)],
        ["time", total(s.cases)],
        ["timestamp", s.timestamp],
      ])}>`,
      ...s.cases.map(renderCase),
      "  </testsuite>",
    );
  }
  lines.push("</testsuites>");
  return `${lines.join("\n")}\n`;
}
