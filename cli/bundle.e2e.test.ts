import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { builtCli, BUNDLE_METAFILE } from "../test/support/built-cli.js";

interface Output {
  entryPoint?: string;
  imports: { path: string; kind: string; external?: boolean }[];
  inputs: Record<string, unknown>;
}

const ESM = "dist/cli/esm/";

function esmOutputs(): Record<string, Output> {
  builtCli(); // refuses a stale dist/
  const meta = JSON.parse(readFileSync(BUNDLE_METAFILE, "utf8")) as {
    outputs: Record<string, Output>;
  };
  return Object.fromEntries(Object.entries(meta.outputs).filter(([file]) => file.startsWith(ESM)));
}

/** Every source evaluated once `file` is: its own and those of the chunks it imports statically. */
function evaluatedWith(outputs: Record<string, Output>, file: string): string[] {
  const seen = new Set<string>();
  const todo = [file];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    for (const i of outputs[next]?.imports ?? [])
      if (i.kind === "import-statement" && i.external !== true) todo.push(i.path);
  }
  return [...seen].flatMap((f) => Object.keys(outputs[f]?.inputs ?? {})).sort();
}

function chunkOf(outputs: Record<string, Output>, entryPoint: string): string {
  const found = Object.entries(outputs).find(([, o]) => o.entryPoint === entryPoint)?.[0];
  if (found === undefined) throw new Error(`no chunk starts at ${entryPoint}`);
  return found;
}

// What a command that runs no CLI must never evaluate: the probe machinery, the transcript
// readers, the MCP server and its SDK.
const PROBE_RUNNING =
  /^(probes\/(fake|drivers|cell|isolation|mcp|observe)\/|transcripts\/)|@modelcontextprotocol/;

describe("the bundled CLI loads what a command uses", () => {
  it("evaluates only yargs and the command declarations on every start", () => {
    const outputs = esmOutputs();
    const always = evaluatedWith(outputs, `${ESM}main.js`);
    expect(always).toContain("cli/main.ts");
    expect(always.filter((f) => /node_modules\/(zod|yaml|execa)\//.test(f))).toEqual([]);
    expect(always.filter((f) => /^(probes|prereg|measurements|adr|transcripts)\//.test(f))).toEqual(
      [],
    );
  });

  it("runs the ADR gate and the lock check without the probe machinery", () => {
    const outputs = esmOutputs();
    for (const entry of ["adr/gate.ts", "prereg/verify.ts"]) {
      const loaded = evaluatedWith(outputs, chunkOf(outputs, entry));
      expect(loaded).toContain(entry);
      expect(loaded.filter((f) => PROBE_RUNNING.test(f))).toEqual([]);
    }
  });

  it("sees the probe machinery where a command does load it", () => {
    const outputs = esmOutputs();
    const probe = evaluatedWith(outputs, chunkOf(outputs, "probes/run-probe.ts"));
    expect(probe.filter((f) => PROBE_RUNNING.test(f)).length).toBeGreaterThan(0);
  });
});
