// The checks zod makes in code (refinements), in JSON Schema where JSON Schema can state them:
// z.toJSONSchema writes only the declared shapes, so an editor would accept what witness refuses.
// What no JSON Schema can state (a rule across arms or between a predicate and its arm's
// fixture, or the file's name) is listed with its reason in test/json-schemas.test.ts.
import { isSecretName } from "../core/child-env.js";
import { predicateSchema } from "../prereg/predicate.js";
import {
  fixtureFileSchema,
  fixtureSchema,
  WORKSPACE_SENTINEL_DIR,
} from "../probes/contracts/fixture.js";
import {
  CELL_OWN_NAMES,
  MAX_FIXTURE_NAME_BYTES,
  MAX_FIXTURE_PATH_BYTES,
} from "../probes/contracts/fixture-paths.js";
import {
  launchEnvSchema,
  PROTECTED_ENV_NAMES,
  protectedEnvReason,
} from "../probes/contracts/launch-env.js";
import { PATH_ROOTS } from "../probes/contracts/placeholders.js";
import { launchSchema } from "../probes/contracts/probe-spec.js";

/** A JSON Schema node as z.toJSONSchema writes it (plain JSON). */
export type JsonSchema = Record<string, unknown>;

// Unicode-mode patterns (as ajv and editors compile them) refuse a needless escape such as `\-`.
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// JSON Schema patterns take no flags: `[gG][iI][tT]` for a case-blind `git`.
const caseless = (word: string) =>
  [...word]
    .map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escape(c)))
    .join("");

/** One path segment: no `.` or `..`, no `.git` (any case, trailing dots or spaces, `git~N`). */
const SEGMENT = `(?!\\.\\.?(?:/|$))(?!(?:\\.${caseless("git")}|${caseless("git")}~[0-9]+)[. ]*(?:/|$))[^/\\\\\\u0000-\\u001f\\u007f]{1,${MAX_FIXTURE_NAME_BYTES}}`;

/**
 * A fixture path (fixture-paths.ts `fixturePathProblem`), counted in characters where the code
 * counts bytes: a name of multi-byte characters may pass here and be refused by witness.
 */
const PLAIN_RELATIVE: JsonSchema = {
  pattern: `^${SEGMENT}(?:/${SEGMENT})*$`,
  maxLength: MAX_FIXTURE_PATH_BYTES,
};

/** A file `at: cell` as fixture-paths.ts takes it: inside a directory, none of the cell's own names (any case). */
const CELL_FILE: JsonSchema = {
  pattern: "/",
  not: { pattern: `^(?:${CELL_OWN_NAMES.map(caseless).join("|")})(?:/|$)` },
};

const under = (dirs: readonly string[]) => `^(?:${dirs.map(escape).join("|")})(?:/|$)`;

function fixtureFile(node: JsonSchema): void {
  const properties = node.properties as Record<string, JsonSchema>;
  Object.assign(properties.path as JsonSchema, PLAIN_RELATIVE);
  node.allOf = [
    ...((node.allOf as JsonSchema[] | undefined) ?? []),
    whenAt("workspace", { not: { pattern: under([WORKSPACE_SENTINEL_DIR]) } }),
    whenAt("cell", CELL_FILE),
  ];
}

function whenAt(root: string, path: JsonSchema): JsonSchema {
  return {
    if: { properties: { at: { const: root } }, required: ["at"] },
    then: { properties: { path: { type: "string", ...path } } },
  };
}

function fixture(node: JsonSchema): void {
  const properties = node.properties as Record<string, JsonSchema>;
  Object.assign(properties.worktree as JsonSchema, PLAIN_RELATIVE);
  Object.assign(properties.cwd as JsonSchema, PLAIN_RELATIVE);
  // worktree and afterWorktree belong to the nested layout; there, afterWorktree to primary files.
  node.if = { properties: { workspace: { const: "nested-worktree" } }, required: ["workspace"] };
  node.then = {
    properties: {
      files: {
        type: "array",
        items: {
          type: "object",
          if: { properties: { afterWorktree: true }, required: ["afterWorktree"] },
          then: { properties: { at: { enum: ["primary", "parent"] } } },
        },
      },
    },
  };
  node.else = {
    properties: {
      worktree: false,
      files: { type: "array", items: { type: "object", properties: { afterWorktree: false } } },
    },
  };
}

/** A name `launchEnvProblems` accepts: a variable name the cell does not own. */
function envName(): JsonSchema {
  const secretWords = ["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "COOKIE"];
  const refused = [
    `^(?:${PROTECTED_ENV_NAMES.map(escape).join("|")})$`,
    "_BASE_URL$|_API_BASE$|^OPENAI_API_BASE|_ENDPOINT$",
    [...secretWords, "SESSION_ID", "AUTH"].map(caseless).join("|"),
  ];
  // The rule is duplicated here; keep the two from drifting on the names that matter most.
  for (const name of [...PROTECTED_ENV_NAMES, "ANTHROPIC_BASE_URL", "GH_TOKEN", "api_key"])
    if (protectedEnvReason(name) === null && !isSecretName(name))
      throw new Error(`${name}: launch-env.ts no longer refuses it; update json-schema-rules.ts`);
  return {
    type: "string",
    pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
    not: { anyOf: refused.map((pattern) => ({ pattern })) },
  };
}

function launchEnv(node: JsonSchema): void {
  const properties = node.properties as Record<string, JsonSchema>;
  (properties.set as JsonSchema).propertyNames = envName();
  (properties.unset as JsonSchema).items = envName();
}

function launch(node: JsonSchema): void {
  // The raw-argv form: no NUL in an argument.
  const forms = node.anyOf as JsonSchema[];
  const raw = forms.find((f) => "argv" in (f.properties as JsonSchema));
  const argv = (raw?.properties as Record<string, JsonSchema> | undefined)?.argv;
  if (argv === undefined) throw new Error("launch: no raw-argv form to add the NUL rule to");
  Object.assign(argv.items as JsonSchema, { pattern: "^[^\\u0000]*$" });
}

// Strict mode wants each required name among the same subschema's properties.
const has = (name: string): JsonSchema => ({ properties: { [name]: true }, required: [name] });
const oneOf = (a: string, b: string): JsonSchema => ({ oneOf: [has(a), has(b)] });

// Each predicate kind's refinements (prereg/predicate.ts).
const PREDICATES: Record<string, (node: JsonSchema) => void> = {
  "marker-present": transcriptScope,
  "marker-absent": transcriptScope,
  "marker-count": (node) => Object.assign(node, oneOf("count", "atLeast")),
  "sentinel-content": (node) => {
    Object.assign(node, oneOf("equals", "matches"));
    Object.assign((node.properties as Record<string, JsonSchema>).matches as JsonSchema, {
      format: "regex",
    });
  },
  "argv-rejected": (node) =>
    Object.assign((node.properties as Record<string, JsonSchema>).matches as JsonSchema, {
      format: "regex",
    }),
  "no-request": (node) =>
    Object.assign((node.properties as Record<string, JsonSchema>).matches as JsonSchema, {
      format: "regex",
    }),
  "tool-call": (node) => Object.assign(node, { anyOf: [has("tool"), has("call")] }),
};

// The transcript has no requests or roles: `in: transcript` takes no narrower scope.
function transcriptScope(node: JsonSchema): void {
  node.if = { properties: { in: { const: "transcript" } }, required: ["in"] };
  node.then = { properties: { request: false, role: false, near: false } };
}

/** Any value whose strings name only known `{{path:<root>}}` roots (placeholders.ts). */
const UNKNOWN_ROOT = `\\{\\{path:(?!(?:${PATH_ROOTS.map(escape).join("|")})\\}\\})[^}]*\\}\\}`;

/** Adds the path-root rule to every string below `node` (an arm's fixture files, launch, script). */
function knownRoots(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) knownRoots(item);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as JsonSchema;
  if (schema.type === "string" && schema.const === undefined && schema.enum === undefined)
    addNot(schema, { type: "string", pattern: UNKNOWN_ROOT });
  // A value of any shape (a node's fields, a tool's input): its strings anywhere inside.
  if (Object.keys(schema).length === 0) schema.$ref = "#/$defs/knownRoots";
  for (const [key, value] of Object.entries(schema)) if (key !== "not") knownRoots(value);
}

// A second `not` on one node goes into its allOf.
function addNot(schema: JsonSchema, sub: JsonSchema): void {
  if (schema.not === undefined) schema.not = sub;
  else schema.allOf = [...((schema.allOf as JsonSchema[] | undefined) ?? []), { not: sub }];
}

/** The `$defs` entry `knownRoots` refers to: any JSON value, its strings free of unknown roots. */
export const KNOWN_ROOTS_DEF: JsonSchema = {
  anyOf: [
    { type: "string", not: { pattern: UNKNOWN_ROOT } },
    { type: "number" },
    { type: "boolean" },
    { type: "null" },
    { type: "array", items: { $ref: "#/$defs/knownRoots" } },
    { type: "object", additionalProperties: { $ref: "#/$defs/knownRoots" } },
  ],
};

// zod writes `format: "starts_with"` beside the pattern it means: no JSON Schema format.
const ZOD_ONLY_FORMATS = ["starts_with", "ends_with", "includes"];

/** z.toJSONSchema's `override`: each zod schema's JSON Schema, given the refinements it lacks. */
export function addRefinements(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const node = ctx.jsonSchema;
  if (typeof node.format === "string" && ZOD_ONLY_FORMATS.includes(node.format)) delete node.format;
  if (ctx.zodSchema === fixtureFileSchema) fixtureFile(node);
  else if (ctx.zodSchema === fixtureSchema) fixture(node);
  else if (ctx.zodSchema === launchEnvSchema) launchEnv(node);
  else if (ctx.zodSchema === launchSchema) launch(node);
  else {
    const predicate = predicateSchema.options.find((o) => o === ctx.zodSchema);
    if (predicate !== undefined) PREDICATES[predicate.shape.kind.value]?.(node);
  }
}

/** After generation: the protocol's arms get the path-root rule in every string they plant or pass. */
export function addArmRules(doc: JsonSchema): void {
  const arm = ((doc.properties as Record<string, JsonSchema>).arms as JsonSchema)
    .items as JsonSchema;
  const properties = arm.properties as Record<string, JsonSchema>;
  for (const key of ["fixture", "launch", "script"] as const) {
    const part = properties[key];
    if (part === undefined)
      throw new Error(`protocol: arms have no ${key} to add the path-root rule to`);
    knownRoots(key === "fixture" ? (part.properties as JsonSchema).files : part);
  }
  doc.$defs = { ...(doc.$defs ?? {}), knownRoots: KNOWN_ROOTS_DEF };
}
