import { describe, expect, it } from "vitest";
import { parse } from "yaml";

import { observation } from "../test/support/observations.js";
import { protocolText } from "../test/support/observations.js";
import { evaluatePredicate, globMatches } from "./evaluate.js";
import { predicateSchema } from "./predicate.js";
import { protocolSchema } from "./protocol.js";

const readsOnly = (allow: string[]) => predicateSchema.parse({ kind: "reads-only", allow });
const traced = observation({
  fileTrace: { by: "strace", opened: 200, relative: 0 },
  fileReads: [
    { path: "home/.claude/CLAUDE.md", known: true, marker: "HOME", reachedModel: true },
    { path: "outside/grand/parent/AGENTS.md", known: false, marker: null, reachedModel: null },
  ],
});

describe("reads-only", () => {
  it("passes when every instruction-like read is allowed, and names each read outside, planted or not", () => {
    expect(evaluatePredicate(readsOnly(["home/**", "outside/**"]), traced).pass).toBe(true);
    const narrow = evaluatePredicate(readsOnly(["home/**"]), traced);
    expect(narrow).toEqual({
      pass: false,
      explanation: "read outside [home/**]: outside/grand/parent/AGENTS.md (not planted)",
    });
  });

  it("fails an untraced spawn rather than passing it for reading nothing", () => {
    expect(evaluatePredicate(readsOnly(["**"]), observation()).pass).toBe(false);
    const unavailable = observation({ fileTrace: { unavailable: "no strace on this machine" } });
    expect(evaluatePredicate(readsOnly(["**"]), unavailable).pass).toBe(false);
  });

  it("matches * within a name and ** across directories, anchored", () => {
    expect(globMatches("home/.claude/*.md", "home/.claude/CLAUDE.md")).toBe(true);
    expect(globMatches("home/*.md", "home/.claude/CLAUDE.md")).toBe(false);
    expect(globMatches("**/AGENTS.md", "outside/grand/parent/AGENTS.md")).toBe(true);
    expect(globMatches("AGENTS.md", "outside/AGENTS.md")).toBe(false);
  });

  it("is refused on an arm that does not trace its files, naming the field", () => {
    const doc = parse(protocolText()) as { arms: { expect: unknown[]; traceFiles?: boolean }[] };
    doc.arms[0]?.expect.push({ kind: "reads-only", allow: ["home/**"] });
    const bad = protocolSchema.safeParse(doc);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toContainEqual([
      "arms.0.traceFiles",
      "expected traceFiles: true on an arm with a reads-only predicate (it reads the file trace)",
    ]);
    if (doc.arms[0] !== undefined) doc.arms[0].traceFiles = true;
    expect(protocolSchema.safeParse(doc).success).toBe(true);
  });
});
