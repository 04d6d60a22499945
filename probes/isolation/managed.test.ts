// Managed configuration: refused while present (`require-absent`), hidden in the spawn's own mount
// namespace (`mask`), never mounted in witness's own. Every planted managed file lies in a temp
// root: nothing here writes to the real /etc.
import { readFileSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { factsOf } from "../../clis/facts-by-cli.js";
import { PROBE_CLI_NAMES } from "../../clis/names.js";
import { PINNED } from "../../clis/pinned.js";
import { RefusalError } from "../../core/errors.js";
import { runProcess } from "../../core/exec.js";
import { tempDir } from "../../test/support/temp-dir.js";
import { probeSpecSchema } from "../contracts/probe-spec.js";
import { runProbe } from "../run-probe.js";
import { containment } from "./contain.js";
import {
  hostMountNamespace,
  managedFacts,
  MASK_FAILED_EXIT,
  maskFailure,
  maskTargets,
  maskWrap,
  refuseManaged,
} from "./managed.js";
import { ASSETS_DIR } from "./netns.js";

let root: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir("witness-managed-test-"));
});
afterEach(() => cleanup());

async function plant(path: string, text: string): Promise<string> {
  const file = join(root, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

const facts = (present: string[]) =>
  managedFacts(
    factsOf("claude-code").managedFiles,
    (p) => present.includes(p.slice(root.length)),
    root,
  );

describe("managed: require-absent", () => {
  it("refuses while a managed file exists, naming it, and passes when none does", () => {
    const context = { cli: "claude-code", containment: "pidns" as const };
    expect(() => refuseManaged("require-absent", facts([]), context)).not.toThrow();
    const refuse = () =>
      refuseManaged("require-absent", facts(["/etc/claude-code/CLAUDE.md"]), context);
    expect(refuse).toThrow(RefusalError);
    expect(refuse).toThrow(
      "refused (managed-present): /etc/claude-code/CLAUDE.md: claude-code reads this machine-wide managed file whatever the cell does, and the fixture says managed: require-absent",
    );
  });

  it("stops runProbe before the CLI is installed or a cell is made", async () => {
    await plant("/etc/claude-code/managed-settings.json", '{"permissions":{"deny":["Bash"]}}');
    const cacheDir = join(root, "cache");
    await mkdir(cacheDir);
    const spec = probeSpecSchema.parse({
      cli: PINNED["claude-code"],
      fixture: { managed: "require-absent" },
      launch: { argv: ["-p", "hi"] },
    });
    await expect(runProbe(spec, { cacheDir, managedRoot: root })).rejects.toThrow(
      /refused \(managed-present\): \/etc\/claude-code\/managed-settings\.json: /,
    );
    expect(await readdir(cacheDir)).toEqual([]);
  });
});

describe("managed: mask", () => {
  it("hides the directory of each present managed path, once, and refuses a machine-wide one", () => {
    expect(maskTargets(facts([]), root)).toEqual([]);
    expect(
      maskTargets(facts(["/etc/claude-code/CLAUDE.md", "/etc/claude-code/.claude"]), root),
    ).toEqual([join(root, "etc/claude-code")]);
    expect(() => maskTargets([{ path: "/etc/CLAUDE.md", present: true }])).toThrow(
      "refused (managed-unmaskable): /etc/CLAUDE.md: managed: mask hides a CLI's own directory, and /etc is shared by the whole machine",
    );
  });

  it("keeps every driver's managed paths in a directory of the CLI's own", () => {
    for (const name of PROBE_CLI_NAMES) {
      const all = factsOf(name).managedFiles.map((path) => ({ path, present: true }));
      expect(() => maskTargets(all), name).not.toThrow();
    }
  });

  it("refuses where the spawn gets no private mount namespace, rather than run unmasked", () => {
    const present = facts(["/etc/claude-code/CLAUDE.md"]);
    const context = { cli: "claude-code", containment: "process-group" as const };
    expect(() => refuseManaged("mask", present, context)).toThrow(
      "refused (managed-unmaskable): /etc/claude-code/CLAUDE.md: managed: mask needs a private mount namespace",
    );
    expect(() => refuseManaged("mask", facts([]), context)).not.toThrow();
    expect(() =>
      refuseManaged("mask", present, { ...context, containment: "pidns" }),
    ).not.toThrow();
  });

  it("refuses to mount in witness's own mount namespace: exit 125, the CLI never runs", async () => {
    const file = await plant("/etc/claude-code/CLAUDE.md", "MANAGED-MARKER");
    const dir = dirname(file);
    const ran = join(root, "ran");
    const wrapped = maskWrap("/bin/sh", ["-c", `touch '${ran}'`], [dir]);
    const result = await runProcess({ ...wrapped, env: {}, cwd: "/", timeoutMs: 10_000 });
    expect(result.exitCode).toBe(MASK_FAILED_EXIT);
    expect(maskFailure(result.exitCode, result.stderr)).toBe(
      `not in a private mount namespace (still in ${hostMountNamespace()})`,
    );
    expect(readFileSync(file, "utf8")).toBe("MANAGED-MARKER");
    expect(await readdir(root)).not.toContain("ran");
    expect(readFileSync("/proc/self/mountinfo", "utf8")).not.toContain(dir);
  });

  it("hides a planted managed directory from the contained command alone", async (ctx) => {
    const contained = await containment();
    if (contained.kind !== "pidns") ctx.skip("no PID namespace here (unshare --pid needs root)");
    const file = await plant("/etc/claude-code/CLAUDE.md", "MANAGED-MARKER");
    const dir = dirname(file);
    const show = ["-c", `cat '${file}' 2>&1; ls -A '${dir}'; echo end`];
    const run = (dirs: string[]) => {
      const inner = maskWrap("/bin/sh", show, dirs);
      return runProcess({
        ...contained.wrap(inner.file, inner.args),
        env: {},
        cwd: "/",
        timeoutMs: 10_000,
      });
    };
    const unmasked = await run([]);
    expect(unmasked.stdout).toContain("MANAGED-MARKER");
    const masked = await run([dir]);
    expect(masked.exitCode).toBe(0);
    expect(masked.stdout).not.toContain("MANAGED-MARKER");
    expect(masked.stdout).toMatch(/No such file or directory\nend\n?$/);
    // Witness's own view of the machine is untouched.
    expect(readFileSync(file, "utf8")).toBe("MANAGED-MARKER");
    expect(readFileSync("/proc/self/mountinfo", "utf8")).not.toContain(dir);
  });

  it("ships its script beside the other isolation assets", () => {
    expect(maskWrap("/x", ["a"], ["/etc/x"]).args[0]).toBe(join(ASSETS_DIR, "mask-managed.sh"));
    expect(maskWrap("/x", ["a"], [])).toEqual({ file: "/x", args: ["a"] });
  });
});
