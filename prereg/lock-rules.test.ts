import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";
import { parse } from "yaml";

import { protocolText } from "../test/support/observations.js";
import {
  adrIssues,
  isAbsence,
  isFixturePresence,
  placeholderIssues,
  positiveControlIssues,
} from "./lock-rules.js";
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

  it.each([
    [
      "tool-offered Bash",
      "{ kind: tool-offered, tool: Bash }",
      "arms.0.expect.1 (tool-offered Bash) is a property",
    ],
    [
      "permission-mode",
      "{ kind: permission-mode, equals: default }",
      "arms.0.expect.1 (permission-mode default) is a property",
    ],
    ["side-request-seen", "{ kind: side-request-seen }", "is a property of the CLI"],
  ])(
    "refuses a protocol whose only presence is %s, a property of the CLI, by name",
    (_, predicate, says) => {
      const text = protocolText().replace("{ kind: marker-present, marker: A }", predicate);
      const issues = positiveControlIssues(protocol(text));
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toBe("arms");
      expect(issues[0]?.message).toContain(says);
      expect(issues[0]?.message).toContain("add a positive control the fixture produces");
    },
  );

  it("takes a planted marker seen, or a sentinel the script names created, as a positive control", () => {
    const p = protocol();
    const arm = p.arms[0];
    if (arm === undefined) throw new Error("no arm");
    expect(isFixturePresence({ kind: "marker-present", marker: "A" }, arm)).toBe(true);
    expect(isFixturePresence({ kind: "marker-count", marker: "A", atLeast: 1 } as never, arm)).toBe(
      true,
    );
    expect(isFixturePresence({ kind: "tool-offered", tool: "Bash" }, arm)).toBe(false);
    // Not planted by this arm: nothing the fixture produces.
    expect(isFixturePresence({ kind: "marker-present", marker: "Z" }, arm)).toBe(false);
    expect(isFixturePresence({ kind: "sentinel-created", sentinel: "RAN" }, arm)).toBe(false);
    const scripted = {
      ...arm,
      script: { ...arm.script, turns: [{ calls: [{ shell: "touch {{sentinel:RAN}}" }] }] },
    } as never;
    expect(isFixturePresence({ kind: "sentinel-created", sentinel: "RAN" }, scripted)).toBe(true);
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
