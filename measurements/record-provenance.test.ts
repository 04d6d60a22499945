// What a record must say of its subjects before the gate takes it: the CLI's npm install (never a
// stand-in) and, for an orchestrator launch, the orchestrator's packages with npm's integrity.
import { describe, expect, it } from "vitest";

import { parseProtocol } from "../prereg/load.js";
import type { OrchestratorSubject } from "../probes/contracts/observation.js";
import {
  demoRecord,
  npmInstalled,
  observation,
  protocolText,
} from "../test/support/observations.js";
import type { MeasurementRecord } from "./record.js";
import { provenanceGaps } from "./record-provenance.js";

const argvProtocol = parseProtocol(protocolText(), "docs/prereg/0001-demo.yaml");
const orchestratorProtocol = parseProtocol(
  protocolText().replace(
    'argv: ["-p", "hi"]',
    'orchestrator: { command: [node, q.mjs], clis: [claude-code], packages: ["@a/sdk@0.3.332"] }',
  ),
  "docs/prereg/0001-demo.yaml",
);
const subject: OrchestratorSubject = {
  command: ["node", "q.mjs"],
  clis: ["claude-code"],
  packages: [{ name: "@a/sdk", version: "0.3.332", integrity: "sha512-sdk" }],
  files: [],
  maxSpawns: 16,
};

function record(
  installed: MeasurementRecord["cli"]["installed"],
  orchestrator?: OrchestratorSubject,
): MeasurementRecord {
  const obs = observation(orchestrator === undefined ? {} : { orchestrator });
  const spawn = {
    index: 1,
    status: "as-expected" as const,
    faults: [],
    observation: obs,
    predicates: [],
  };
  const arm = {
    id: "only",
    description: "",
    verdict: "confirmed" as const,
    reasons: [],
    tally: [],
    spawns: [spawn],
  };
  const r = demoRecord("2.1.332", [arm]);
  return { ...r, cli: { ...r.cli, ...(installed === undefined ? {} : { installed }) } };
}

const installed = npmInstalled({ name: "claude-code", version: "2.1.332" });

describe("provenanceGaps", () => {
  it("finds none in a record naming npm's install", () => {
    expect(provenanceGaps(record(installed), argvProtocol)).toEqual([]);
  });

  it.each([
    [undefined, "cli.installed: expected the install that ran"],
    [{ ...installed, integrity: null }, "cli.installed.integrity: expected npm's integrity"],
    [{ ...installed, packages: [] }, "cli.installed.packages: expected @anthropic-ai/claude-code"],
    [
      { ...installed, standIn: "a wrapper" },
      "cli.installed.standIn: expected npm's install; the run used a stand-in (a wrapper)",
    ],
  ])("names the missing field %#", (given, gap) => {
    expect(provenanceGaps(record(given), argvProtocol).join("\n")).toContain(gap);
  });

  it("asks an orchestrator launch's spawns for the orchestrator and each package it pins", () => {
    expect(provenanceGaps(record(installed, subject), orchestratorProtocol)).toEqual([]);
    expect(provenanceGaps(record(installed), orchestratorProtocol)).toEqual([
      "arm only spawn 1: observation.orchestrator: expected the orchestrator's provenance; the record has none",
    ]);
    expect(
      provenanceGaps(record(installed, { ...subject, packages: [] }), orchestratorProtocol),
    ).toEqual([
      "arm only spawn 1: observation.orchestrator.packages: expected @a/sdk@0.3.332 with npm's integrity",
    ]);
  });
});
