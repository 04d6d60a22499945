// JSON Schemas for the files people write by hand (protocol, fixture, script, node, workflow,
// project config), generated from the zod schemas that read them, for editors' completion:
// `node --import tsx scripts/json-schemas.ts` rewrites docs/schemas/ (a test says when it is stale).
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { z } from "zod";

import { DOCS } from "../core/doc-paths.js";
import {
  nodeSpecSchema,
  projectConfigSchema,
  workflowSpecSchema,
} from "../orchestrator/spec/schemas.js";
import { protocolSchema } from "../prereg/protocol.js";
import { fixtureSchema } from "../probes/contracts/fixture.js";
import { scriptSchema } from "../probes/contracts/script.js";
import { addArmRules, addRefinements } from "./json-schema-rules.js";

/** Each schema file's name stem, its zod schema and what it describes. */
export const SCHEMA_FILES = {
  protocol: [protocolSchema, "a pre-registered witness protocol (docs/prereg/NNNN-slug.yaml)"],
  fixture: [fixtureSchema, "a witness probe fixture: the files planted in a cell and its layout"],
  script: [scriptSchema, "a witness fake-model script: tool-call turns and the final answer"],
  node: [nodeSpecSchema, "a reference-orchestrator node"],
  workflow: [workflowSpecSchema, "a reference-orchestrator workflow"],
  "project-config": [projectConfigSchema, "the reference orchestrator's project configuration"],
} as const satisfies Record<string, readonly [z.ZodType, string]>;

/** Where the schemas are committed and shipped. */
export const SCHEMAS_DIR = join(DOCS.prereg, "..", "schemas");

/** The JSON Schema documents, by file name (`protocol.schema.json` …), as their text. */
export function jsonSchemas(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, [schema, title]] of Object.entries(SCHEMA_FILES)) {
    // What a person writes is the input side: defaults are optional there.
    const doc = z.toJSONSchema(schema, {
      io: "input",
      unrepresentable: "any",
      override: addRefinements,
    }) as Record<string, unknown>;
    if (name === "protocol") addArmRules(doc);
    out.set(
      `${name}.schema.json`,
      `${JSON.stringify({ ...doc, title: `witness ${name}`, description: title }, null, 2)}\n`,
    );
  }
  return out;
}

/** Writes every schema under `root`'s docs/schemas. */
export async function writeJsonSchemas(root: string): Promise<string[]> {
  const dir = join(root, SCHEMAS_DIR);
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [file, text] of jsonSchemas()) {
    await writeFile(join(dir, file), text);
    written.push(join(SCHEMAS_DIR, file));
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of await writeJsonSchemas(join(import.meta.dirname, ".."))) console.log(file);
}
