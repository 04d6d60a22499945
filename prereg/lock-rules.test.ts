import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";
import { parse } from "yaml";

import { protocolText } from "../test/support/observations.js";
import { adrIssues, isAbsence, placeholderIssues, positiveControlIssues } from "./lock-rules.js";
import { type Protocol, protocolSchema } from "./protocol.js";

function protocol(text = protocolText()): Protocol {
  return protocolSchema.parse(parse(text));
}

describe("lock-time rules", () => {
  it.each([
    [{ kind: "marker-absent", marker: "A" }, true],
    [{ kind: "exit-code", equals: 0 }, true],
    [{ kind: "argv-rejected", matches: "unknown option" }, true],
    [{ kind: "reads-only", allow: [] }, true],
    [{ kind: "marker-count", marker: "A", count: 0 }, true],
    [{ kind: "marker-count", marker: "A", count: 1 }, false],
    [{ kind: "marker-present", marker: "A" }, false],
  ] as const)("%o is an absence: %s", (predicate, absence) => {
    expect(isAbsence(predicate as never)).toBe(absence);
  });

  it("names each placeholder left from the template, and nothing in a written protocol", () => {
    expect(placeholderIssues(protocol())).toEqual([]);
    const text = protocolText()
      .replace("title: Demo protocol", "title: TODO one line")
      .replace("description: the only arm", "description: TODO what this arm varies");
    expect(placeholderIssues(protocol(text)).map((i) => i.path)).toEqual([
      "title",
      "arms.0.description",
    ]);
  });

  it("refuses a protocol of absences only, unless it says why it has no positive control", () => {
    expect(positiveControlIssues(protocol())).toEqual([]);
    const absences = protocolText().replace(
      "kind: marker-present, marker: A",
      "kind: marker-absent, marker: A",
    );
    expect(positiveControlIssues(protocol(absences))).toMatchObject([{ path: "arms" }]);
    const said = `${absences}positiveControl: "none — protocol 0002 shows the same cell loads A"\n`;
    expect(positiveControlIssues(protocol(said))).toEqual([]);
    expect(() => protocol(`${absences}positiveControl: "because"\n`)).toThrow(/none —/);
  });

  it("refuses an ADR id with no file in docs/adr", async () => {
    const root = await mkdtemp(join(tmpdir(), "witness-lock-rules-"));
    try {
      expect(await adrIssues(protocol(), root)).toMatchObject([{ path: "adr" }]);
      await mkdir(join(root, "docs/adr"), { recursive: true });
      await writeFile(join(root, "docs/adr/0001-demo.md"), "# 0001\n");
      expect(await adrIssues(protocol(), root)).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
