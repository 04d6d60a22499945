import { describe, expect, it, vi } from "vitest";

import type { ParentAccess } from "../parent-access/parent-access.js";
import { newRunContext } from "../parent-access/parent-access.js";
import { planLaunch } from "../plan/plan-launch.js";
import { parseWorkerFullAccess } from "../spec/project-config.js";
import type { NodeSpec, ProjectConfig } from "../spec/schemas.js";
import { type AccessInput, decideAccess } from "./full-access.js";

const consent: ProjectConfig = {
  workflow: {
    workerFullAccess: {
      enabled: true,
      floors: {
        codex: [{ model: "gpt-5", minEffort: "high" }],
        "claude-code": [{ model: "opus", minEffort: "high" }],
        cursor: [{ model: "gpt-5-high" }],
      },
    },
  },
};
const full: ParentAccess = {
  fullAccess: true,
  evidence: [{ source: "codex-rollout", detail: "danger-full-access", passed: true }],
};
const sandboxedParent: ParentAccess = {
  fullAccess: false,
  evidence: [{ source: "no_new_privs", detail: "set", passed: false }],
};

function detector(answer: ParentAccess) {
  return { detect: vi.fn(() => Promise.resolve(answer)) };
}

function input(node: Partial<NodeSpec>, extra: Partial<AccessInput> = {}): AccessInput {
  const spec: NodeSpec = { id: "w", fullAccess: true, model: "gpt-5", effort: "high", ...node };
  return {
    node: spec,
    adapter: "codex",
    nodeFilesystem: spec.filesystem,
    filesystem: spec.filesystem,
    projectConfig: consent,
    env: {},
    parentDetector: detector(full),
    runContext: newRunContext(),
    ...extra,
  };
}

describe("the workerFullAccess setting parser", () => {
  it.each([
    [{}, "absent"],
    [{ workflow: {} }, "absent"],
    [consent, "valid"],
    [{ workflow: { workerFullAccess: { enabled: "yes" } } }, "malformed"],
    [
      {
        workflow: {
          workerFullAccess: {
            enabled: true,
            floors: { codex: [{ model: "gpt-5", minEffort: "extreme" }] },
          },
        },
      },
      "malformed",
    ],
    [
      {
        workflow: { workerFullAccess: { enabled: true, floors: { codex: [{ model: "gpt-5" }] } } },
      },
      "malformed",
    ],
    [
      {
        workflow: {
          workerFullAccess: {
            enabled: true,
            floors: { cursor: [{ model: "m", minEffort: "high" }] },
          },
        },
      },
      "malformed",
    ],
    [{ workflow: { workerFullAccess: { enabled: true, floors: { nope: [] } } } }, "malformed"],
    [{ workflow: { workerFullAccess: { enabled: true, extra: 1 } } }, "malformed"],
  ] as const)("%j is %s", (config, status) => {
    expect(parseWorkerFullAccess(config as ProjectConfig).status).toBe(status);
  });

  it("disables the whole setting when one floor is malformed, the valid ones included", async () => {
    const config = {
      workflow: {
        workerFullAccess: {
          enabled: true,
          floors: {
            codex: [{ model: "gpt-5", minEffort: "high" }],
            "claude-code": [{ model: "opus", minEffort: "loud" }],
          },
        },
      },
    };
    const outcome = await decideAccess(input({}, { projectConfig: config }));
    expect(outcome.access.reason).toBe("consent-malformed");
  });
});

describe("each reason code", () => {
  it.each([
    ["not-requested", { fullAccess: false }, {}],
    ["read-only-kept", {}, { filesystem: "read-only" as const }],
    ["consent-disabled-by-env", {}, { env: { WITNESS_WORKER_FULL_ACCESS: "0" } }],
    ["consent-absent", {}, { projectConfig: undefined }],
    ["consent-off", {}, { projectConfig: { workflow: { workerFullAccess: { enabled: false } } } }],
    ["model-unset", { model: undefined }, {}],
    ["model-not-listed", { model: "gpt-4o-mini" }, {}],
    ["effort-unset", { effort: undefined }, {}],
    ["effort-unknown", { effort: "turbo" }, {}],
    ["effort-below-floor", { effort: "medium" }, {}],
    ["parent-unknown", {}, { parentDetector: undefined }],
    ["parent-sandboxed", {}, { parentDetector: detector(sandboxedParent) }],
    ["granted", {}, {}],
    ["granted", { effort: "xhigh" }, {}],
  ] as const)("%s", async (reason, node, extra) => {
    const outcome = await decideAccess(input(node, extra));
    expect(outcome.access.reason).toBe(reason);
    expect(outcome.access.mode).toBe(reason === "granted" ? "full-access" : "sandboxed");
    expect(outcome.access.explanation.length).toBeGreaterThan(10);
  });

  it("lets the environment disable but never enable", async () => {
    const enabling = await decideAccess(
      input({}, { projectConfig: undefined, env: { WITNESS_WORKER_FULL_ACCESS: "1" } }),
    );
    expect(enabling.access.reason).toBe("consent-absent");
  });

  it("never lets a user-global config enable full access", async () => {
    const p = await planLaunch({
      node: {
        id: "w",
        adapter: "codex",
        prompt: "go",
        fullAccess: true,
        model: "gpt-5",
        effort: "high",
      },
      userConfig: consent,
      cwd: "/",
      env: { HOME: "/nonexistent" },
      parentDetector: detector(full),
      run: { ambientContext: "all" },
    });
    expect(p.access.reason).toBe("consent-absent");
    expect(p.args).toContain("workspace-write");
  });
});

describe("the parent probe", () => {
  it.each([
    ["an absent setting", { projectConfig: undefined }],
    [
      "a disabled setting",
      { projectConfig: { workflow: { workerFullAccess: { enabled: false } } } },
    ],
    [
      "a model below the floor",
      { node: { id: "w", fullAccess: true, model: "small", effort: "high" } },
    ],
    ["a read-only policy", { filesystem: "read-only" as const }],
  ])("is never consulted for %s", async (_what, extra) => {
    const probe = detector(full);
    await decideAccess({ ...input({}), parentDetector: probe, ...extra });
    expect(probe.detect).not.toHaveBeenCalled();
  });

  it("runs at most once per run and reports its evidence on the first launch only", async () => {
    const probe = detector(full);
    const runContext = newRunContext();
    const first = await decideAccess(input({}, { parentDetector: probe, runContext }));
    const second = await decideAccess(input({ id: "w2" }, { parentDetector: probe, runContext }));
    expect(probe.detect).toHaveBeenCalledTimes(1);
    expect(first.parentCheck).toEqual(full);
    expect(second.parentCheck).toBeUndefined();
    expect(second.access.reason).toBe("granted");
  });

  it("counts a detector that throws as a sandboxed parent", async () => {
    const outcome = await decideAccess(
      input({}, { parentDetector: { detect: () => Promise.reject(new Error("no records")) } }),
    );
    expect(outcome.access.reason).toBe("parent-sandboxed");
    expect(outcome.parentCheck?.evidence).toEqual([
      { source: "detector", detail: "Error: no records", passed: false },
    ]);
  });
});

describe("renderings and refusals", () => {
  const launch = (node: Partial<NodeSpec>) =>
    planLaunch({
      node: { id: "w", prompt: "go", fullAccess: true, ambientContext: "all", ...node },
      projectConfig: consent,
      cwd: "/",
      env: {},
      parentDetector: detector(full),
    });

  it.each([
    [
      "codex",
      { model: "gpt-5", effort: "high" },
      [
        "exec",
        "--sandbox",
        "danger-full-access",
        "-c",
        'approval_policy="never"',
        "-m",
        "gpt-5",
        "-c",
        'model_reasoning_effort="high"',
        "--",
        "go",
      ],
    ],
    [
      "claude-code",
      { model: "opus", effort: "high" },
      [
        "-p",
        "--model",
        "opus",
        "--effort",
        "high",
        "--setting-sources",
        "user,project",
        "--settings",
        '{"sandbox":{"enabled":false}}',
        "--permission-mode",
        "bypassPermissions",
        "--",
        "go",
      ],
    ],
    [
      "cursor",
      { model: "gpt-5-high" },
      ["-p", "--model", "gpt-5-high", "--sandbox", "disabled", "go"],
    ],
  ] as const)("renders %s full access", async (adapter, node, args) => {
    const p = await launch({ adapter, ...node });
    expect(p.access.mode).toBe("full-access");
    expect(p.args).toEqual(args);
  });

  it.each(["opencode", "pi", "gemini", "qwen"] as const)(
    "refuses full access on %s, which has no rendering, before anything launches",
    async (adapter) => {
      await expect(launch({ adapter, model: "m" })).rejects.toMatchObject({
        code: "full-access-unsupported",
      });
    },
  );

  it.each(["read-only", "workspace-write"] as const)(
    "refuses full access together with a %s filesystem policy as contradictory",
    async (filesystem) => {
      await expect(
        launch({ adapter: "codex", model: "gpt-5", effort: "high", filesystem }),
      ).rejects.toMatchObject({
        code: "full-access-with-filesystem",
      });
    },
  );

  it("keeps a workflow's read-only policy instead of granting full access", async () => {
    const p = await planLaunch({
      node: {
        id: "w",
        prompt: "go",
        adapter: "codex",
        fullAccess: true,
        model: "gpt-5",
        effort: "high",
        ambientContext: "all",
      },
      workflow: { nodes: [{ id: "w" }], defaults: { filesystem: "read-only" } },
      projectConfig: consent,
      cwd: "/",
      env: {},
      parentDetector: detector(full),
    });
    expect(p.access.reason).toBe("read-only-kept");
    expect(p.args).toEqual([
      "exec",
      "--sandbox",
      "read-only",
      "-c",
      'approval_policy="never"',
      "-m",
      "gpt-5",
      "-c",
      'model_reasoning_effort="high"',
      "--",
      "go",
    ]);
  });
});
