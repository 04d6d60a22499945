import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

import { parseProtocol } from "../prereg/load.js";
import { probeSpecSchema } from "../probes/contracts/probe-spec.js";
import { jsonSchemas, SCHEMAS_DIR } from "../scripts/json-schemas.js";
import { WITNESS_ROOT } from "./support/built-cli.js";

const BAD = join(WITNESS_ROOT, "prereg", "test", "fixtures", "bad");

/**
 * The bad inputs witness refuses that its protocol JSON Schema still accepts, each with why no
 * JSON Schema can refuse it. Everything else in the corpus the schema refuses too.
 */
const BEYOND_JSON_SCHEMA: Record<string, string> = {
  "0001-adr-and-decision.yaml":
    "exactly one of adr and decision: a refinement across two fields, which the generated schema does not carry",
  "0001-no-decision.yaml":
    "exactly one of adr and decision: a refinement across two fields, which the generated schema does not carry",
  "0001-call-beyond-script.yaml":
    "a predicate's call number against the count of calls in its arm's script: a count of items elsewhere in the document",
  "0001-too-many-calls.yaml":
    "the calls of one turn, bounded in a refinement outside the turn's union (so its message can name the turn), which the generated schema does not carry",
  "0001-too-many-markers.yaml":
    "distinct {{marker:…}} names inside the fixture's contents: text found inside string values",
  "0001-count-unplanted-marker.yaml":
    "a predicate's marker against the {{marker:…}} names inside its arm's fixture contents: a value compared with text found elsewhere",
  "0001-duplicate-arm-ids.yaml":
    "unique arm ids: uniqueItems compares whole items, not one field of them",
  "0001-fixture-file-directory-clash.yaml":
    "one planted file's path against another's (a file where another needs a directory): a relation between items",
  "0001-id-mismatch.yaml": "the id against the file's name, which the schema never sees",
  "0001-unnamed-sentinel.yaml":
    "a predicate's sentinel against the {{sentinel:…}} names in its arm's script: a value compared with text found elsewhere",
  "0001-unplanted-marker.yaml":
    "a predicate's marker against the {{marker:…}} names inside its arm's fixture contents: a value compared with text found elsewhere",
  "0001-unused-sentinel-placement.yaml":
    "a fixture's sentinelsIn keys against the sentinel names in its arm's script: keys compared with text found elsewhere",
};

/** ajv with every strict-mode restriction an error, and the formats the schemas use. */
function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  // A CommonJS module: its function is both the module and its `default`, which TypeScript sees.
  addFormats.default(ajv);
  return ajv;
}

const schemaOf = (name: string): Record<string, unknown> =>
  JSON.parse(jsonSchemas().get(name) ?? "{}") as Record<string, unknown>;

async function yamlFiles(dir: string, pattern: RegExp): Promise<string[]> {
  return (await readdir(dir)).filter((f) => pattern.test(f)).sort();
}

describe("the shipped JSON Schemas", () => {
  it("are what the zod schemas generate today (regenerate: node --import tsx scripts/json-schemas.ts)", async () => {
    const generated = jsonSchemas();
    const dir = join(WITNESS_ROOT, SCHEMAS_DIR);
    expect((await readdir(dir)).sort()).toEqual([...generated.keys()].sort());
    for (const [file, text] of generated)
      expect(await readFile(join(dir, file), "utf8"), file).toBe(text);
  });

  it.each([...jsonSchemas().keys()])(
    "%s compiles under ajv's strict mode (every restriction on)",
    (name) => {
      expect(() => strictAjv().compile(schemaOf(name))).not.toThrow();
    },
  );

  it("name every top-level field a shipped protocol uses, and only those the schema allows", async () => {
    const schema = schemaOf("protocol.schema.json") as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(schema.additionalProperties).toBe(false);
    const dir = join(WITNESS_ROOT, "docs", "prereg");
    const files = await yamlFiles(dir, /^\d{4}-.*\.yaml$/);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const doc = parse(await readFile(join(dir, file), "utf8")) as Record<string, unknown>;
      for (const key of Object.keys(doc))
        expect(schema.properties, `${file}: ${key}`).toHaveProperty(key);
      for (const key of schema.required) expect(doc, `${file}: ${key}`).toHaveProperty(key);
    }
  });

  it("accept every shipped protocol, example fixture and example script", async () => {
    const ajv = strictAjv();
    const inputs: [string, string][] = [
      ...(await yamlFiles(join(WITNESS_ROOT, "docs", "prereg"), /^\d{4}-.*\.yaml$/)).map(
        (f): [string, string] => ["protocol", join("docs", "prereg", f)],
      ),
      ...(
        await yamlFiles(join(WITNESS_ROOT, "probes", "examples"), /\.(fixture|script)\.yaml$/)
      ).map((f): [string, string] => [
        /fixture/.test(f) ? "fixture" : "script",
        join("probes", "examples", f),
      ]),
    ];
    expect(inputs.length).toBeGreaterThan(30);
    for (const [kind, file] of inputs) {
      const validate =
        ajv.getSchema(kind) ?? ajv.addSchema(schemaOf(`${kind}.schema.json`), kind).getSchema(kind);
      const doc: unknown = parse(await readFile(join(WITNESS_ROOT, file), "utf8"));
      expect(validate?.(doc), `${file}: ${JSON.stringify(validate?.errors)}`).toBe(true);
    }
  });

  it("refuse the bad-input corpus witness refuses, but for what JSON Schema cannot state (listed with why)", async () => {
    const validate = strictAjv().compile(schemaOf("protocol.schema.json"));
    const accepted: string[] = [];
    let checked = 0;
    for (const name of await yamlFiles(BAD, /\.yaml$/)) {
      const text = await readFile(join(BAD, name), "utf8");
      expect(() => parseProtocol(text, join("docs", "prereg", name)), name).toThrow();
      let doc: unknown;
      try {
        doc = parse(text);
      } catch {
        continue; // not YAML at all: the editor's parser says so before any schema is read
      }
      checked++;
      if (validate(doc)) accepted.push(name);
    }
    expect(checked).toBeGreaterThanOrEqual(39);
    expect(accepted).toEqual(Object.keys(BEYOND_JSON_SCHEMA).sort());
  });
});

/** Whether `witness probe` takes `fixture` (its layout is checked with the probe, not alone). */
function probeAccepts(fixture: unknown): boolean {
  const spec = { cli: { name: "claude-code", version: "2.1.332" }, fixture, launch: { argv: [] } };
  return probeSpecSchema.safeParse(spec).success;
}

describe("the fixture schema's path rule", () => {
  // Both sides of each rule: the JSON Schema's pattern stands for fixture-paths.ts's code.
  it.each([
    "CLAUDE.md",
    ".claude/CLAUDE.md",
    ".gitignore",
    ".github/workflows/x.yml",
    "git",
    "a..b/..c",
    "n".repeat(255),
    ".git",
    ".GIT/config",
    ".git. /x",
    "Git~1",
    ".",
    "a/../b",
    "a//b",
    "dir/",
    "/abs",
    "a\\b",
    "a\tb",
    "n".repeat(256),
    ".witness-sentinels/x",
  ])("agrees with witness on %j", (path) => {
    const validate = strictAjv().compile(schemaOf("fixture.schema.json"));
    const doc = { files: [{ at: "workspace", path, content: "x" }] };
    expect(validate(doc)).toBe(probeAccepts(doc));
  });
});

describe("the fixture schema's rule for files at: cell", () => {
  it.each(["staged/plugin/x", "homework", "home", "sentinels/x", "requests.json", "outside/x"])(
    "agrees with witness on %j",
    (path) => {
      const validate = strictAjv().compile(schemaOf("fixture.schema.json"));
      const doc = { files: [{ at: "cell", path, content: "x" }] };
      expect(validate(doc)).toBe(probeAccepts(doc));
    },
  );
});

describe("the protocol schema's environment and path-root rules", () => {
  let validate: ValidateFunction;
  beforeAll(() => {
    validate = strictAjv().compile(schemaOf("protocol.schema.json"));
  });
  const protocol = (launch: Record<string, unknown>) => ({
    id: "0001",
    slug: "demo",
    title: "t",
    adr: "0001",
    hypothesis: "h",
    cli: { name: "claude-code", version: "2.1.332" },
    arms: [{ id: "a", description: "d", launch, expect: [{ kind: "exit-code", equals: 0 }] }],
  });
  const agree = (doc: Record<string, unknown>) =>
    expect(validate(doc)).toBe(
      (() => {
        try {
          parseProtocol(JSON.stringify(doc), "docs/prereg/0001-demo.yaml");
          return true;
        } catch {
          return false;
        }
      })(),
    );

  it.each([
    "IS_SANDBOX",
    "MY_FLAG",
    "HOME",
    "CODEX_HOME",
    "ANTHROPIC_BASE_URL",
    "AZURE_ENDPOINT",
    "GH_TOKEN",
    "api_key",
    "Authorization",
    "1BAD",
  ])("agrees with witness on setting and on unsetting %s", (name) => {
    agree(protocol({ argv: ["-p"], env: { set: { [name]: "1" } } }));
    agree(protocol({ argv: ["-p"], env: { unset: [name] } }));
  });

  it.each([
    "{{path:home}}/x",
    "{{path:witness-cli}}",
    "{{path:staging}}/x",
    "{{path:home}}{{path:nope}}",
    "{{path:}}",
  ])("agrees with witness on %j in argv, stdin and a node's field", (text) => {
    agree(protocol({ argv: ["-p", text] }));
    agree(protocol({ argv: ["-p"], stdin: text }));
    agree(protocol({ node: { id: "n", adapter: "claude-code", prompt: { text } } }));
  });
});
