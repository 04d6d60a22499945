// Every agent CLI witness knows of, as one table: the names, packages, pinned versions and
// capabilities that every other list, type and schema in the repository derives from.

/** A capability a CLI has in witness, or the reason it has not. */
export type Capability = true | { lacks: string };

/** An npm package that published the CLI, for the versions in its range (inclusive). */
export interface PackageRange {
  name: string;
  /** The first version published under this name (absent: from the first). */
  from?: string;
  /** The last version published under this name (absent: still published). */
  upTo?: string;
}

/** What witness knows about one CLI before loading any of its code. */
export interface CliRow {
  /** How screens and records name it. */
  display: string;
  /** The npm packages holding it, oldest name first; empty when it is not on the registry. */
  packages: readonly PackageRange[];
  /** The executable its package installs (null: witness never runs it). */
  bin: string | null;
  /**
   * The program to run instead of `node_modules/.bin/<bin>`, relative to the install, when the
   * bin is only a loader that spawns a native program from an optional dependency (glibc x64).
   */
  nativeBin?: string;
  /**
   * The versions the probe driver drives when not every published one is (checked against the
   * registry before any install): from `from` on, inclusive, and why not before.
   */
  drives?: { from: string; why: string };
  /** Other names a person may type for it (the binary, the packages). */
  aliases: readonly string[];
  /** The version the shipped protocols and live tests pin (null: none can be installed). */
  pinned: string | null;
  /** A probe driver in `probes/drivers/`: witness installs, runs and observes it. */
  probe: Capability;
  /** A session reader in `transcripts/`: `witness transcript` reads what it writes. */
  transcript: Capability;
  /** A renderer in `orchestrator/render/`: the reference orchestrator launches it. */
  adapter: Capability;
  /**
   * Where the CLI caches its remotely served feature flags, so a fixture can set them
   * (`fixture.featureFlags`), and the boolean flags known to decide an outcome (`witness flags`
   * flips each); absent when witness knows of no such cache.
   */
  flagCache?: { where: string; known: readonly KnownFlag[] };
}

/** A served boolean flag known to decide something a protocol can observe. */
export interface KnownFlag {
  name: string;
  /** What it decides, and where that was seen. */
  decides: string;
}

const NOT_ON_NPM = "its agent (cursor-agent) is not published on the npm registry";

/** The catalog, by canonical name. Adding a CLI starts here (docs/adding-a-cli.md). */
export const CLI_CATALOG = {
  "claude-code": {
    display: "Claude Code",
    packages: [{ name: "@anthropic-ai/claude-code" }],
    bin: "claude",
    aliases: ["claude", "@anthropic-ai/claude-code"],
    pinned: "2.1.332",
    probe: true,
    transcript: true,
    adapter: true,
    flagCache: {
      where: "cachedGrowthBookFeatures in ~/.claude.json (GrowthBook)",
      known: [
        {
          name: "tengu_moss_anchor",
          decides:
            "a -p launch with no mode starts in auto when auto mode is available (record 0057; compiled default false in 2.1.284 and 2.1.332, true in 2.1.285)",
        },
        {
          name: "tengu_harbor_willow",
          decides:
            "whether auto mode is available as a start-up mode (the mode resolver of 2.1.284; compiled default true)",
        },
      ],
    },
  },
  codex: {
    display: "Codex",
    packages: [{ name: "@openai/codex" }],
    bin: "codex",
    aliases: ["@openai/codex"],
    pinned: "0.171.0",
    probe: true,
    transcript: true,
    adapter: true,
  },
  gemini: {
    display: "Gemini CLI",
    packages: [{ name: "@google/gemini-cli" }],
    bin: "gemini",
    aliases: ["gemini-cli", "@google/gemini-cli"],
    pinned: "0.61.0",
    probe: true,
    transcript: true,
    adapter: true,
  },
  qwen: {
    display: "Qwen Code",
    packages: [{ name: "@qwen-code/qwen-code" }],
    bin: "qwen",
    aliases: ["qwen-code", "@qwen-code/qwen-code"],
    pinned: "0.24.4",
    probe: true,
    transcript: true,
    adapter: true,
  },
  pi: {
    display: "pi",
    packages: [
      { name: "@mariozechner/pi-coding-agent", upTo: "0.73.1" },
      { name: "@earendil-works/pi-coding-agent", from: "0.74.0" },
    ],
    bin: "pi",
    aliases: [
      "pi-coding-agent",
      "@mariozechner/pi-coding-agent",
      "@earendil-works/pi-coding-agent",
    ],
    pinned: "0.73.1",
    probe: true,
    transcript: true,
    adapter: true,
  },
  opencode: {
    display: "opencode",
    packages: [{ name: "opencode-ai" }],
    bin: "opencode",
    aliases: ["opencode-ai"],
    pinned: "1.18.33",
    probe: true,
    transcript: true,
    adapter: true,
  },
  copilot: {
    display: "GitHub Copilot CLI",
    packages: [{ name: "@github/copilot" }],
    bin: "copilot",
    // The bin is npm-loader.js, which spawnSyncs this file: a SIGTERM to the loader would not reach it.
    nativeBin: "node_modules/@github/copilot-linux-x64/copilot",
    aliases: ["github-copilot", "copilot-cli", "@github/copilot"],
    pinned: "1.0.102",
    probe: true,
    transcript: true,
    adapter: true,
  },
  cline: {
    display: "Cline",
    packages: [{ name: "cline" }],
    bin: "cline",
    // 3.x: the bin is a Node wrapper that spawnSyncs this Bun-compiled program. 2.x (a Node bundle
    // of the VS Code extension's core) has no such file; `drives` refuses it before any download.
    nativeBin: "node_modules/@cline/cli-linux-x64/bin/cline",
    drives: {
      from: "3.0.0",
      why: "2.x is a Node bundle of the VS Code extension's core, another program with other settings files",
    },
    aliases: ["cline-cli"],
    pinned: "3.0.65",
    probe: true,
    transcript: true,
    adapter: true,
  },
  kilo: {
    display: "Kilo Code",
    packages: [{ name: "@kilocode/cli" }],
    bin: "kilo",
    // The bin is a Node loader that spawns this Bun-compiled program (what its postinstall links).
    nativeBin: "node_modules/@kilocode/cli-linux-x64/bin/kilo",
    aliases: ["kilo-code", "kilocode", "@kilocode/cli"],
    // The newest with a linux-x64 program on the registry (7.8.1's platform package is missing).
    pinned: "7.7.7",
    probe: true,
    transcript: true,
    adapter: true,
  },
  cursor: {
    display: "Cursor",
    packages: [],
    bin: null,
    aliases: ["cursor-agent"],
    pinned: null,
    probe: { lacks: NOT_ON_NPM },
    transcript: { lacks: `${NOT_ON_NPM}, so no session of it was ever recorded` },
    adapter: true,
  },
  kimi: {
    display: "Kimi Code",
    packages: [{ name: "@moonshot-ai/kimi-code" }],
    // dist/main.mjs, one bundle; engines.node >= 22.19 (2.1.0 fails to load on Node 20).
    bin: "kimi",
    aliases: ["kimi-code", "@moonshot-ai/kimi-code"],
    // The newest published (there is no 2.1.1, the version a decision record names).
    pinned: "2.1.0",
    probe: true,
    transcript: true,
    adapter: true,
  },
  grok: {
    display: "Grok Build",
    packages: [],
    bin: null,
    aliases: ["grok-build"],
    pinned: null,
    probe: { lacks: "not published on the npm registry; read from source by a decision record" },
    transcript: { lacks: "not published on the npm registry" },
    adapter: {
      lacks:
        "the reference orchestrator renders no grok launch; it appears in the ambient support table only",
    },
  },
} as const satisfies Record<string, CliRow>;
