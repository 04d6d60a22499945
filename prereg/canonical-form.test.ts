import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { canonicalHash } from "../core/canonical.js";
import { fixtureFileSchema, fixtureSchema } from "../probes/contracts/fixture.js";
import { launchEnvSchema } from "../probes/contracts/launch-env.js";
import { scriptSchema } from "../probes/contracts/script.js";
import {
  type CanonicalForm,
  canonicalValue,
  earlierFormOf,
  formOf,
  protocolHash,
} from "./canonical-form.js";
import { loadProtocol, parseProtocol } from "./load.js";
import { countingHashes } from "./lock-history.js";

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

function effective(
  p: ReturnType<typeof parseProtocol>,
  form: CanonicalForm = "effective/1",
): Effective {
  return canonicalValue(p, form) as Effective;
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

  it("hashes a cell root under HOME apart from the temp directory", () => {
    const home = protocol({ fixture: "{ cell: { root: home } }" });
    expect(protocolHash(home)).not.toBe(protocolHash(protocol()));
    expect(effective(home, "effective/2").arms[0]?.fixture.cell).toEqual({ root: "home" });
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
        // `cell` and `featureFlags` are written out only when stated: stated here so their keys are there.
        fixture:
          '{ files: [{ at: workspace, path: A.md, content: "a" }], cell: { root: home }, featureFlags: { f: true } }',
        launch: "{ node: { id: n, prompt: hi } }",
      }),
      "effective/2",
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
    ["cell", "{ cell: { root: temp } }"],
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
    ["featureFlags", "{ featureFlags: { f: true } }"],
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

describe("effective/2: the managed-configuration setting", () => {
  const masked = () => protocol({ fixture: "{ managed: mask }" });

  it("hashes a protocol whose arms all record in effective/1, so locks made before the field keep verifying", () => {
    const p = protocol();
    expect(formOf(p)).toBe("effective/1");
    expect(protocolHash(p)).toBe(canonicalHash(canonicalValue(p, "effective/1")));
    // Stated or left out, `record` is what effective/1 means.
    const stated = protocol({ fixture: "{ managed: record }" });
    expect(formOf(stated)).toBe("effective/1");
    expect(protocolHash(stated)).toBe(protocolHash(p));
    expect(Object.keys(effective(p).arms[0]?.fixture ?? {})).not.toContain("managed");
  });

  it.each(["mask", "require-absent"])(
    "writes managed: %s out in effective/2, which moves the hash",
    (mode) => {
      const p = protocol({ fixture: `{ managed: ${mode} }` });
      expect(formOf(p)).toBe("effective/2");
      const value = effective(p, "effective/2");
      expect(value.form).toBe("effective/2");
      expect(value.arms[0]?.fixture).toMatchObject({ managed: mode });
      expect(protocolHash(p)).not.toBe(protocolHash(protocol()));
      expect(protocolHash(protocol(), "effective/2")).not.toBe(protocolHash(p, "effective/2"));
      // effective/2 states the default too: the same protocol recording differs only in that value.
      expect(effective(protocol(), "effective/2").arms[0]?.fixture).toMatchObject({
        managed: "record",
      });
    },
  );

  it("never takes a recording protocol's lock for a masking one (effective/1 cannot state mask)", () => {
    const lockedBefore = protocolHash(protocol());
    // Re-expressed in effective/1 the mask disappears, so the hashes would match...
    expect(protocolHash(masked(), "effective/1")).toBe(lockedBefore);
    // ...which must not read as the same content in an earlier form.
    expect(earlierFormOf(masked(), lockedBefore)).toBeNull();
    expect(earlierFormOf(masked(), protocolHash(masked(), "parsed"))).toBe("parsed");
  });

  it("lets no amendment claim that adding a mask re-expressed the lock: the unmasked records do not count", () => {
    const before = protocolHash(protocol());
    const after = protocolHash(masked());
    const claimed = {
      at: "2026-12-01T00:00:00.000Z",
      reason: "mask the managed files",
      oldCanonicalHash: before,
      newCanonicalHash: after,
      oldBytesHash: "sha256:a",
      newBytesHash: "sha256:b",
      commit: "0".repeat(40),
      recordsExisted: true,
      records: [],
      reexpression: { from: "effective/1" as const, to: "effective/2" as const },
    };
    expect(countingHashes(masked(), after, [claimed])).toEqual([after]);
  });

  it("leaves every lock committed in docs/prereg pinning its protocol's hash", async () => {
    const dir = join(import.meta.dirname, "..", "docs", "prereg");
    const locks = readdirSync(dir).filter((n) => n.endsWith(".lock.json"));
    expect(locks.length).toBeGreaterThan(0);
    for (const name of locks) {
      const lock = JSON.parse(readFileSync(join(dir, name), "utf8")) as { canonicalHash: string };
      const loaded = await loadProtocol(join(dir, name.replace(/\.lock\.json$/, ".yaml")));
      expect({ name, hash: loaded.canonicalHash }).toEqual({ name, hash: lock.canonicalHash });
    }
  });
});

describe("an arm's runtime pin", () => {
  const pinned = (p: ReturnType<typeof parseProtocol>) => ({
    ...p,
    arms: p.arms.map((a) => ({ ...a, runtime: { node: "22.23.5" } })),
  });

  it("is hashed when stated, and an arm without one hashes as before the field existed", () => {
    const plain = protocol();
    expect(Object.keys(effective(plain).arms[0] ?? {})).not.toContain("runtime");
    expect(protocolHash(pinned(plain))).not.toBe(protocolHash(plain));
    const other = {
      ...plain,
      arms: plain.arms.map((a) => ({ ...a, runtime: { node: "24.22.3" } })),
    };
    expect(protocolHash(pinned(plain))).not.toBe(protocolHash(other));
  });
});
