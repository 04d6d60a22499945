import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { buildChildEnv } from "../../core/child-env.js";
import { InputError } from "../../core/errors.js";
import { createCell, removeCell } from "../cell/cell.js";
import { fixtureSchema } from "../contracts/fixture.js";
import { driverFor } from "./index.js";
import { renderNodeLaunch } from "./node-launch.js";

const baseEnv = buildChildEnv({ parent: process.env });

describe("a reference-orchestrator node as a probe launch", () => {
  it("renders a planned Claude Code node in the cell: isolation flags and its grant", async () => {
    const cell = await createCell({
      fixture: fixtureSchema.parse({}),
      nonce: "n",
      trust: driverFor("claude-code").trustWorkspace,
      baseEnv,
    });
    try {
      const planned = await renderNodeLaunch(
        {
          node: { id: "n", origin: "planned", prompt: "go", allowedTools: ["Bash"] },
          acceptLoadedUserConfig: false,
        },
        "claude-code",
        cell,
      );
      expect([planned.args[0], ...planned.args.slice(-2)]).toEqual(["-p", "--", "go"]);
      expect(planned.args).toContain("--strict-mcp-config");
      expect(planned.args.join(" ")).toContain("--allowedTools Bash");
      // Ancestor CLAUDE.md exclusions are computed from the cell's own workspace, never the operator's.
      expect(planned.args.join(" ")).toContain(cell.parent);
    } finally {
      await removeCell(cell);
    }
  });

  it("materializes a Codex home overlay inside the cell, without AGENTS.md, and points CODEX_HOME at it", async () => {
    const files = [
      { at: "home", path: ".codex/config.toml", content: "" },
      { at: "home", path: ".codex/AGENTS.md", content: "operator rules" },
    ];
    const cell = await createCell({
      fixture: fixtureSchema.parse({ files }),
      nonce: "n",
      trust: driverFor("codex").trustWorkspace,
      baseEnv,
    });
    try {
      const planned = await renderNodeLaunch(
        { node: { id: "n", prompt: "go", ambientContext: "none" }, acceptLoadedUserConfig: false },
        "codex",
        cell,
      );
      expect(planned.args[0]).toBe("exec");
      expect(planned.env.CODEX_HOME).toBe(join(cell.root, "overlay", "CODEX_HOME"));
      const overlay = planned.env.CODEX_HOME ?? "";
      expect(lstatSync(join(overlay, "config.toml")).isSymbolicLink()).toBe(true);
      expect(existsSync(join(overlay, "AGENTS.md"))).toBe(false);
    } finally {
      await removeCell(cell);
    }
  });

  it("rejects a node written for another CLI than the probe runs", async () => {
    const cell = { workspace: "/nonexistent", home: "/nonexistent", env: {} } as never;
    const error = await renderNodeLaunch(
      { node: { id: "n", adapter: "codex" }, acceptLoadedUserConfig: false },
      "claude-code",
      cell,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      "launch.node: adapter: expected claude-code, the CLI this probe runs",
    );
  });

  it("names the bad field of an invalid node", async () => {
    const cell = { workspace: "/nonexistent", home: "/nonexistent", env: {} } as never;
    await expect(
      renderNodeLaunch(
        { node: { id: "n", colour: "red" }, acceptLoadedUserConfig: false },
        "codex",
        cell,
      ),
    ).rejects.toThrow(/^launch\.node: /);
  });
});
