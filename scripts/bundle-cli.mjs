// Bundles the `witness` command into dist/cli/: one entry (main.js) plus a chunk per lazily
// imported command, so a start resolves a handful of files instead of some three hundred modules.
// The library entry points (dist/orchestrator, dist/shims, dist/probes) stay tsc's output.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

import { build } from "esbuild";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = join(ROOT, "dist", "cli");
/** Written beside the bundle: which source went into which file (core/exec-seam.test.ts reads it). */
export const METAFILE = join(OUT, "bundle-meta.json");

// Every output file sits in dist/cli/, so a source's own dist location is a fixed relative path
// from there: asset lookups through import.meta keep pointing at dist/<folder>/assets.
const importMetaOfSource = {
  name: "import-meta-of-source",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const { readFile } = await import("node:fs/promises");
      const text = await readFile(args.path, "utf8");
      const rel = relative(ROOT, args.path);
      if (rel.startsWith("node_modules") || !text.includes("import.meta.")) return undefined;
      const distFile = `../${rel.replace(/\.ts$/, ".js")}`;
      const distDir = `/../${dirname(rel)}`;
      const contents = text
        .replaceAll("import.meta.url", `new URL(${JSON.stringify(distFile)}, import.meta.url).href`)
        .replaceAll("import.meta.dirname", `(import.meta.dirname + ${JSON.stringify(distDir)})`);
      return { contents, loader: "ts" };
    });
  },
};

// zod's namespace export keeps every locale (about 260 KB, most of its size); witness reports
// issues in English only, so its locale index is cut to the one zod registers by default.
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /node_modules\/zod\/v4\//.test(args.importer)
        ? { path: join(dirname(args.importer), "..", "locales", "index.js"), namespace: "zod-en" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-en" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), "en.js"))};`,
      loader: "js",
      resolveDir: dirname(args.path),
    }));
  },
};

// string-width builds an Intl.Segmenter and compiles a \p{RGI_Emoji} regular expression (some
// 15 ms of CPU, the emoji property alone about 13) when its module is evaluated; yargs loads it
// for help text only. Both are made on first use instead. The build fails if a new version of
// the package changes the lines this expects, so the saving cannot silently vanish.
const LAZY_VALUES = [
  {
    declared: /^const (\w+) = new Intl\.Segmenter\(\);$/m,
    method: "segment",
    make: () => "new Intl.Segmenter()",
  },
  {
    declared: /^const (\w+) = \/(\^?\\p\{RGI_Emoji\}\$?)\/(\w*);$/m,
    method: "test",
    make: (m) => `new RegExp(${JSON.stringify(m[2])}, ${JSON.stringify(m[3])})`,
  },
];
const lazyStringWidth = {
  name: "lazy-string-width",
  setup(b) {
    b.onLoad({ filter: /node_modules\/(?:.*\/)?string-width\/index\.js$/ }, async (args) => {
      const { readFile } = await import("node:fs/promises");
      let text = await readFile(args.path, "utf8");
      for (const { declared, method, make } of LAZY_VALUES) {
        const m = declared.exec(text);
        if (m === null) continue;
        const name = m[1];
        const code = text.slice(m.index + m[0].length).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
        if (new RegExp(`\\b${name}\\b(?!\\.${method}\\()`).test(code))
          throw new Error(
            `${args.path}: ${name} is used other than through .${method}(); update LAZY_VALUES`,
          );
        text = text.replace(
          m[0],
          `let ${name}Made; const ${name} = { ${method}: (value) => (${name}Made ??= ${make(m)}).${method}(value) };`,
        );
      }
      if (/^const \w+ = (?:new Intl\.Segmenter|.*\\p\{RGI_Emoji)/m.test(text))
        throw new Error(
          `${args.path}: an eager Intl.Segmenter or emoji expression is left; update LAZY_VALUES`,
        );
      return { contents: text, loader: "js" };
    });
  },
};

// Chunks of an earlier build carry other hashes: remove them (the previous metafile names them).
if (existsSync(METAFILE)) {
  for (const file of Object.keys(JSON.parse(readFileSync(METAFILE, "utf8")).outputs)) {
    if (!file.endsWith("/main.js")) rmSync(join(ROOT, file), { force: true });
  }
}

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: { main: "cli/main.ts" },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "[name]-[hash]",
  // Whitespace and syntax only: stack traces of an InternalError keep the source's names.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
  // The CommonJS dependencies bundled in (cross-spawn under execa) call require for built-ins.
  banner: {
    js: 'import { createRequire as __witnessRequire } from "node:module"; const require = __witnessRequire(import.meta.url);',
  },
  plugins: [importMetaOfSource, zodEnglishOnly, lazyStringWidth],
  // Finds its .wasm beside its own file (__dirname): it stays in node_modules, imported at run time.
  external: ["node-sqlite3-wasm"],
});
writeFileSync(METAFILE, `${JSON.stringify(result.metafile)}\n`);
