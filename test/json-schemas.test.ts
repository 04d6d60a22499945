import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";
import { parse } from "yaml";

import { jsonSchemas, SCHEMAS_DIR } from "../scripts/json-schemas.js";
import { WITNESS_ROOT } from "./support/built-cli.js";

describe("the shipped JSON Schemas", () => {
  it("are what the zod schemas generate today (regenerate: node --import tsx scripts/json-schemas.ts)", async () => {
    const generated = jsonSchemas();
    const dir = join(WITNESS_ROOT, SCHEMAS_DIR);
    expect((await readdir(dir)).sort()).toEqual([...generated.keys()].sort());
    for (const [file, text] of generated)
      expect(await readFile(join(dir, file), "utf8"), file).toBe(text);
  });

  it("name every top-level field a shipped protocol uses, and only those the schema allows", async () => {
    const schema = JSON.parse(jsonSchemas().get("protocol.schema.json") ?? "{}") as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(schema.additionalProperties).toBe(false);
    const dir = join(WITNESS_ROOT, "docs", "prereg");
    const files = (await readdir(dir)).filter((f) => /^\d{4}-.*\.yaml$/.test(f));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const doc = parse(await readFile(join(dir, file), "utf8")) as Record<string, unknown>;
      for (const key of Object.keys(doc))
        expect(schema.properties, `${file}: ${key}`).toHaveProperty(key);
      for (const key of schema.required) expect(doc, `${file}: ${key}`).toHaveProperty(key);
    }
  });
});
