import { describe, expect, it } from "vitest";

import { canonicalHash } from "../core/canonical.js";
import { fixtureFileSchema, fixtureSchema } from "../probes/contracts/fixture.js";
import { launchEnvSchema } from "../probes/contracts/launch-env.js";
import { scriptSchema } from "../probes/contracts/script.js";
import { canonicalValue, earlierFormOf, protocolHash } from "./canonical-form.js";
import { parseProtocol } from "./load.js";

const FILE = "docs/prereg/0001-demo.yaml";

/** A one-arm protocol; `fixture`, `launch` and `script` are YAML flow mappings. */
function protocol(
  parts: { fixture?: string; launch?: string; script?: string; top?: string } = {},
): ReturnType<typeof parseProtocol> {
  const script = parts.script ?? '{ turns: [{ calls: [{ shell: "touch {{sentinel:RAN}}" }] }] }';
  return parseProtocol(
    `id: "0001"
slug: demo
title: t
adr: "0001"
hypothesis: h
cli: { name: claude-code, version: 2.1.332 }
${parts.top ?? ""}
arms:
  - id: only
    description: d
${parts.fixture === undefined ? "" : `    fixture: ${parts.fixture}\n`}    launch: ${parts.launch ?? '{ argv: ["-p", "hi"] }'}
    script: ${script}
    expect:
      - { kind: sentinel-created, sentinel: RAN }
`,
    FILE,
  );
}

type Effective = {
  form: string;
  spawns: number;
  arms: {
    fixture: Record<string, unknown> & { files: Record<string, unknown>[] };
    launch: Record<string, unknown>;
    script: Record<string, unknown>;
  }[];
};

function effective(p: ReturnType<typeof parseProtocol>): Effective {
  return canonicalValue(p, "effective/1") as Effective;
}

describe("the effective canonical form", () => {
  it("writes out every default a spawn depends on", () => {
    const value = effective(
      protocol({ fixture: '{ files: [{ at: workspace, path: A.md, content: "a" }] }' }),
    );
    const arm = value.arms[0];
    expect(value.form).toBe("effective/1");
    expect(value.spawns).toBe(3);
    expect(arm?.fixture).toMatchObject({
      workspace: "outside-home",
      // A fresh install's state (docs/adr/0011-fixture-trust-default.md).
      trust: false,
      sentinelsIn: { RAN: "cell" },
      worktree: null,
      cwd: ".",
      layout: { workspace: "outside/grand/parent/ws", home: "home" },
    });
    expect(arm?.fixture.files[0]).toMatchObject({ afterWorktree: false });
    expect(arm?.launch).toMatchObject({ env: { set: {}, unset: [] } });
    expect(arm?.script).toMatchObject({ final: "done", classifier: "allow" });
  });

  it("names the nested worktree's default path", () => {
    const arm = effective(protocol({ fixture: "{ workspace: nested-worktree }" })).arms[0];
    expect(arm?.fixture).toMatchObject({
      worktree: "ws",
      layout: { workspace: "outside/grand/parent/ws", primary: "outside/grand/parent" },
    });
  });

  it("holds a key for every field of the fixture, its files, the launch env and the script", () => {
    // A field added to one of these schemas must get its effective value in canonical-form.ts.
    const arm = effective(
      protocol({
        fixture: '{ files: [{ at: workspace, path: A.md, content: "a" }] }',
        launch: "{ node: { id: n, prompt: hi } }",
      }),
    ).arms[0];
    expect(Object.keys(arm?.fixture ?? {})).toEqual(
      expect.arrayContaining(Object.keys(fixtureSchema.shape)),
    );
    expect(Object.keys(arm?.fixture.files[0] ?? {})).toEqual(
      expect.arrayContaining(Object.keys(fixtureFileSchema.shape)),
    );
    expect(Object.keys(arm?.launch.env ?? {})).toEqual(Object.keys(launchEnvSchema.shape));
    expect(Object.keys(arm?.launch ?? {})).toEqual(
      expect.arrayContaining(["node", "acceptLoadedUserConfig", "env"]),
    );
    expect(Object.keys(arm?.script ?? {})).toEqual(
      expect.arrayContaining(Object.keys(scriptSchema.shape)),
    );
  });

  it.each([
    ["trust", "{ trust: false }"],
    ["workspace", "{ workspace: outside-home }"],
    ["sentinelsIn", "{ sentinelsIn: { RAN: cell } }"],
  ])("hashes a stated default (%s) like the same default left out", (_name, fixture) => {
    expect(protocolHash(protocol({ fixture }))).toBe(protocolHash(protocol()));
  });

  it("hashes a nested worktree at ws like one whose worktree is left out, and an empty env like none", () => {
    const nested = (extra: string) =>
      protocol({ fixture: `{ workspace: nested-worktree${extra} }` });
    expect(protocolHash(nested(", worktree: ws"))).toBe(protocolHash(nested("")));
    expect(protocolHash(protocol({ launch: '{ argv: ["-p", "hi"], env: {} }' }))).toBe(
      protocolHash(protocol()),
    );
  });

  it.each([
    ["trust", "{ trust: true }"],
    ["sentinelsIn", "{ sentinelsIn: { RAN: workspace } }"],
    ["cwd", "{ cwd: sub }"],
  ])("moves the hash when %s differs from its default", (_name, fixture) => {
    expect(protocolHash(protocol({ fixture }))).not.toBe(protocolHash(protocol()));
  });

  it("differs from the parsed form, which an earlier lock recognises", () => {
    const p = protocol();
    const parsed = protocolHash(p, "parsed");
    expect(parsed).toBe(canonicalHash(p));
    expect(protocolHash(p)).not.toBe(parsed);
    expect(earlierFormOf(p, parsed)).toBe("parsed");
    expect(earlierFormOf(p, protocolHash(p))).toBeNull();
    expect(earlierFormOf(protocol({ fixture: "{ trust: true }" }), parsed)).toBeNull();
  });
});
