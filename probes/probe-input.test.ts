import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { InputError, UsageError } from "../core/errors.js";
import { probeSpecSchema } from "./contracts/probe-spec.js";
import { loadProbeSpec } from "./probe-input.js";

const cwd = join(import.meta.dirname, "test", "fixtures", "probe-input");

describe("probe input from the command line", () => {
  it("builds a raw-argv spec with the script read from its file and defaults elsewhere", async () => {
    const spec = await loadProbeSpec({
      cli: "codex@0.171.0",
      script: "script.yaml",
      argv: ["exec", "go"],
      cwd,
    });
    expect(spec.cli).toEqual({ name: "codex", version: "0.171.0" });
    expect(spec.launch).toEqual({ argv: ["exec", "go"] });
    expect(spec.script).toEqual({
      turns: [{ calls: [{ shell: "touch {{sentinel:S}}" }] }],
      final: "bye",
      classifier: "allow",
    });
    expect(spec.fixture).toEqual({ workspace: "outside-home", trust: false, files: [] });
  });

  it("builds a node launch from a node file", async () => {
    const spec = await loadProbeSpec({ cli: "claude-code@2.1.332", node: "node.yaml", cwd });
    expect(spec.launch).toEqual({
      node: { adapter: "claude-code", prompt: "hello" },
      acceptLoadedUserConfig: false,
    });
  });

  it("rejects a CLI reference that is not name@exact-version", async () => {
    await expect(
      loadProbeSpec({ cli: "claude-code@latest", argv: ["-p", "x"], cwd }),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(loadProbeSpec({ cli: "gpt@1.0.0", argv: ["-p", "x"], cwd })).rejects.toThrow(
      /no driver for a CLI named "gpt"; supported: claude-code, codex/,
    );
  });

  it("puts --stdin beside raw arguments, and refuses it with a node", async () => {
    const spec = await loadProbeSpec({ cli: "pi@0.73.1", argv: ["-p"], stdin: "@file", cwd });
    expect(spec.launch).toEqual({ argv: ["-p"], stdin: "@file" });
    await expect(
      loadProbeSpec({ cli: "claude-code@2.1.332", node: "node.yaml", stdin: "x", cwd }),
    ).rejects.toThrow(/--stdin goes with raw arguments/);
  });

  it("wants exactly one of --node and raw arguments", async () => {
    await expect(loadProbeSpec({ cli: "codex@0.171.0", cwd })).rejects.toThrow(
      /arguments after --/,
    );
    await expect(
      loadProbeSpec({ cli: "codex@0.171.0", node: "node.yaml", argv: ["x"], cwd }),
    ).rejects.toThrow(/not both/);
  });

  it("names the file and each bad field of an invalid fixture", async () => {
    const error = await loadProbeSpec({
      cli: "codex@0.171.0",
      fixture: "bad-fixture.yaml",
      argv: ["exec"],
      cwd,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    const message = (error as InputError).message;
    expect(message).toContain(`${join(cwd, "bad-fixture.yaml")}: workspace:`);
    expect(message).toContain("files.0.path: expected a path without '.' or '..' segments");
  });

  it("rejects a fixture placing a sentinel the script never names, in the file and in the spec", async () => {
    const file = join(cwd, "unused-sentinel.yaml");
    await expect(
      loadProbeSpec({
        cli: "codex@0.171.0",
        fixture: "unused-sentinel.yaml",
        script: "script.yaml",
        argv: ["exec"],
        cwd,
      }),
    ).rejects.toThrow(
      `${file}: sentinelsIn.NEVER: expected a sentinel the script names (S); got "NEVER"`,
    );
    const spec = probeSpecSchema.safeParse({
      cli: { name: "codex", version: "0.171.0" },
      fixture: { sentinelsIn: { S: "workspace" } },
      launch: { argv: ["exec"] },
    });
    expect(spec.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["fixture.sentinelsIn.S", 'expected a sentinel the script names (none); got "S"'],
    ]);
  });

  it("says a missing fixture file cannot be read", async () => {
    await expect(
      loadProbeSpec({ cli: "codex@0.171.0", fixture: "nope.yaml", argv: ["exec"], cwd }),
    ).rejects.toThrow(/nope\.yaml: cannot read the file \(ENOENT\)/);
  });
});
