import { readdir } from "node:fs/promises";
import { join } from "node:path";

import { writeFileExclusive } from "../core/atomic.js";
import { DOCS, protocolFileName } from "../core/doc-paths.js";
import { UsageError } from "../core/errors.js";
import { repoRoot } from "../core/git.js";
import { makeDirs } from "../core/make-dirs.js";
import { PINNED } from "../probes/contracts/pinned.js";
import { parseProtocol } from "./load.js";

/** Options of `newProtocol`. */
export interface NewProtocolOptions {
  cwd?: string;
  slug: string;
  adr: string;
  /** Directory to write into (default the repository's docs/prereg). */
  dir?: string;
}

/** The id after the highest one used in `dir`. */
export async function nextProtocolId(dir: string): Promise<string> {
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {
    // No directory yet: the first protocol is 0001.
  }
  const ids = names
    .map((n) => /^(\d{4})-/.exec(n)?.[1])
    .filter((id) => id !== undefined)
    .map(Number);
  return String(Math.max(0, ...ids) + 1).padStart(4, "0");
}

function template(id: string, slug: string, adr: string): string {
  const cli = PINNED["claude-code"];
  return `# Pre-registered protocol. Write the expectations before any data exists, commit, then
# \`witness prereg lock\` this file. Changing it after the lock needs --amend "<reason>".
id: "${id}"
slug: ${slug}
title: TODO one line saying what is measured
adr: "${adr}"
hypothesis: >-
  TODO what the CLI does, stated so that the predicates below can refute it.
basis:
  - TODO the documentation or observation each expectation comes from
cli:
  name: ${cli.name}
  version: ${cli.version}
spawns: 3
arms:
  - id: example
    description: TODO what this arm varies
    fixture:
      workspace: outside-home
      files:
        - at: workspace
          path: CLAUDE.md
          content: "{{marker:WORKSPACE_MD}}"
    launch:
      argv: ["-p", "hello", "--output-format", "json"]
    expect:
      - { kind: exit-code, equals: 0 }
      - { kind: marker-present, marker: WORKSPACE_MD }
`;
}

/** Writes a protocol template with the next free id; returns its path. */
export async function newProtocol(options: NewProtocolOptions): Promise<string> {
  const cwd = options.cwd ?? process.cwd();
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(options.slug)) {
    throw new UsageError(`slug "${options.slug}": expected kebab-case, e.g. setting-sources`);
  }
  if (!/^\d{1,4}$/.test(options.adr))
    throw new UsageError(`--adr "${options.adr}": expected an ADR number`);
  const adr = options.adr.padStart(4, "0");
  const dir = options.dir ?? join(await repoRoot(cwd), DOCS.prereg);
  await makeDirs(dir);
  for (;;) {
    const id = await nextProtocolId(dir);
    const file = join(dir, `${id}-${options.slug}.yaml`);
    const text = template(id, options.slug, adr);
    parseProtocol(text, file); // the template itself must be a valid protocol
    if (protocolFileName(file) === null) throw new UsageError(`cannot name a protocol ${file}`);
    if (await writeFileExclusive(file, text)) return file;
  }
}
