// Hand-built observations and protocols for unit tests of predicates, verdicts and records.
import { packageFor } from "../../clis/names.js";
import type { InstalledCli, MeasurementRecord } from "../../measurements/record.js";
import type { Observation } from "../../probes/contracts/observation.js";
import type { CliRef } from "../../probes/contracts/probe-spec.js";
import type { InstalledFacts } from "../../probes/vendor-cache.js";

/** An observation of a clean spawn; override what a test needs. */
export function observation(overrides: Partial<Observation> = {}): Observation {
  return {
    cli: { name: "claude-code", version: "2.1.332" },
    argv: ["claude", "-p", "hi"],
    env: { HOME: "/tmp/cell/home", ANTHROPIC_API_KEY: "not-a-real-key" },
    cwd: "/tmp/cell/ws",
    isolation: "loopback-config",
    exitCode: 0,
    signal: null,
    timedOut: false,
    durationMs: 500,
    requestCount: 1,
    markers: [],
    sentinels: [],
    toolsOffered: [],
    toolCalls: [],
    permissionMode: null,
    sandboxPolicy: null,
    sideRequests: [],
    helperCalls: [],
    rejectedArgv: null,
    faults: [],
    stdoutTail: "",
    stderrTail: "",
    ...overrides,
  };
}

/** A marker entry as the cell reports it. */
export function marker(
  name: string,
  seenIn: Observation["markers"][number]["seenIn"],
): Observation["markers"][number] {
  return { name, value: `WITNESS-${name}-abc`, planted: [`ws/${name}.md`], seenIn };
}

/** A small valid protocol text: one arm expecting marker A present and B absent. */
export function protocolText(
  overrides: { id?: string; slug?: string; expectB?: "marker-absent" | "marker-present" } = {},
): string {
  const id = overrides.id ?? "0001";
  const slug = overrides.slug ?? "demo";
  return `id: "${id}"
slug: ${slug}
title: Demo protocol
adr: "0001"
hypothesis: A reaches the model and B does not.
cli:
  name: claude-code
  version: 2.1.332
spawns: 2
arms:
  - id: only
    description: the only arm
    fixture:
      files:
        - { at: workspace, path: CLAUDE.md, content: "{{marker:A}}" }
        - { at: home, path: .claude/CLAUDE.md, content: "{{marker:B}}" }
    launch:
      argv: ["-p", "hi"]
    expect:
      - { kind: exit-code, equals: 0 }
      - { kind: marker-present, marker: A }
      - { kind: ${overrides.expectB ?? "marker-absent"}, marker: B }
`;
}

/** An installer for runs whose probe is a stand-in: there is no CLI to install. */
export const noInstall = (): Promise<void> => Promise.resolve();

/**
 * What a record says of an npm install of `ref` (package, npm integrity): the gate takes a record
 * as evidence only with it, so runs judged by the gate in tests name one, whatever this machine's
 * vendor cache holds.
 */
export function npmInstalled(ref: CliRef): InstalledCli {
  const pkg = packageFor(ref.name, ref.version);
  const integrity = `sha512-test-${ref.name}-${ref.version}`;
  const bin = `/cache/${ref.name}@${ref.version}/node_modules/.bin/${ref.name}`;
  return {
    pkg,
    bin,
    resolvedBin: bin,
    integrity,
    packages: [{ name: pkg, version: ref.version, integrity }],
  };
}

/** `npmInstalled` as the vendor cache's facts, for `runProtocols({ facts })`. */
export const npmFacts = (ref: CliRef): Promise<InstalledFacts> =>
  Promise.resolve({ name: ref.name, version: ref.version, ...npmInstalled(ref) });

/**
 * A record of demo protocol 0001 on claude-code@`version` holding `arms`, every other field fixed
 * (protocol fields may be overridden); its verdict follows the arms' as the runner's rule does.
 */
export function demoRecord(
  version: string,
  arms: MeasurementRecord["arms"],
  extra: { protocol?: Partial<MeasurementRecord["protocol"]>; spawnsPerArm?: number } = {},
): MeasurementRecord {
  const verdicts = arms.map((a) => a.verdict);
  return {
    schema: "witness.record/1",
    protocol: {
      id: "0001",
      slug: "demo",
      title: "t",
      adr: "0001",
      hypothesis: "h",
      file: "docs/prereg/0001-demo.yaml",
      canonicalHash: "sha256:l",
      bytesHash: "sha256:b",
      lockCommit: "c",
      lockedAt: "2026-01-01T00:00:00.000Z",
      ...extra.protocol,
    },
    cli: { name: "claude-code", version, versionsRun: [version] },
    machine: { platform: "linux", release: "6", arch: "x64", node: "v20", cpus: 2 },
    isolation: ["netns"],
    startedAt: "2026-01-02T00:00:00.000Z",
    finishedAt: "2026-01-02T00:00:01.000Z",
    spawnsPerArm: extra.spawnsPerArm ?? 1,
    verdictRule: "",
    arms,
    verdict: verdicts.includes("inconclusive")
      ? "inconclusive"
      : verdicts.includes("refuted")
        ? "refuted"
        : "confirmed",
  };
}
