// Bundles the `witness` command into dist/cli/, twice from the same sources, and a launcher:
// - witness.cjs: cli/main.ts and everything it imports in one CommonJS file, its lazily imported
//   commands evaluated only when called; run through V8's code cache (cli/code-cache.ts), which
//   Node 20 offers for CommonJS only;
// - esm/: the same as ES modules, one chunk per lazily imported command, for a start that may
//   keep no code cache (no cache directory, as in a probe cell): it parses only what it loads;
// - main.js: cli/launch.ts, the executable, which picks one of the two.
// A start reads a few files instead of some three hundred modules. The library entry points
// (dist/orchestrator, dist/shims, dist/probes) stay tsc's output.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

import { build } from "esbuild";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = join(ROOT, "dist", "cli");
const BUNDLE = join(OUT, "witness.cjs");
const ESM_OUT = join(OUT, "esm");
/** Written beside the bundle: which source went into which file (core/exec-seam.e2e.test.ts reads it). */
export const METAFILE = join(OUT, "bundle-meta.json");

// A source's import.meta, wherever its bundle sits (`from`, relative to dist/): asset lookups keep
// pointing at dist/<folder>/assets. CommonJS has none, so there it is rebuilt from the bundle's
// own path, and a dependency's import.meta.url becomes the bundle's (yargs makes a require
// function from it).
// A script compiled from V8's cached data loses its dynamic import() callback on Node 20 (the
// import then fails with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so in the CommonJS bundle a
// source's import() of a built-in or an external package becomes a require.
const EXTERNAL_IMPORT = /(?<!typeof )\bimport\(\s*"(node:[a-z_/]+|node-sqlite3-wasm)"\s*\)/g;
function requireExternals(text) {
  return text.replace(
    EXTERNAL_IMPORT,
    (_, name) =>
      `Promise.resolve().then(() => { const m = require(${JSON.stringify(name)}); return { ...m, default: m }; })`,
  );
}

function importMetaPlugin({ from, commonJs }) {
  const up = from
    .split("/")
    .map(() => "..")
    .join("/");
  const bundleUrl = commonJs ? "__witnessBundleUrl" : "import.meta.url";
  const bundleDir = commonJs ? "__dirname" : "import.meta.dirname";
  return {
    name: "import-meta-of-source",
    setup(b) {
      b.onLoad({ filter: commonJs ? /\.(ts|m?js)$/ : /\.ts$/ }, async (args) => {
        const { readFile } = await import("node:fs/promises");
        const rel = relative(ROOT, args.path);
        const read = await readFile(args.path, "utf8");
        const text = commonJs && !rel.startsWith("node_modules") ? requireExternals(read) : read;
        if (!text.includes("import.meta."))
          return text === read ? undefined : { contents: text, loader: "ts" };
        if (rel.startsWith("node_modules")) {
          if (!commonJs) return undefined;
          const contents = text
            .replaceAll("import.meta.url", "__witnessBundleUrl")
            .replaceAll("import.meta.dirname", "__dirname")
            .replaceAll("import.meta.filename", "__filename")
            .replaceAll(
              "import.meta.resolve",
              '((name) => require("node:url").pathToFileURL(require.resolve(name)).href)',
            );
          if (contents.includes("import.meta"))
            throw new Error(`${rel}: an import.meta use the CommonJS bundle cannot express`);
          return { contents, loader: "js" };
        }
        const distFile = `${up}/${rel.replace(/\.ts$/, ".js")}`;
        const distDir = `/${up}/${dirname(rel)}`;
        const contents = text
          .replaceAll("import.meta.url", `new URL(${JSON.stringify(distFile)}, ${bundleUrl}).href`)
          .replaceAll("import.meta.dirname", `(${bundleDir} + ${JSON.stringify(distDir)})`);
        return { contents, loader: "ts" };
      });
    },
  };
}

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

// Files of an earlier build (chunks carry their hash in their names): the metafile names them.
if (existsSync(METAFILE)) {
  for (const file of Object.keys(JSON.parse(readFileSync(METAFILE, "utf8")).outputs)) {
    if (!/dist\/cli\/(main\.js|witness\.cjs)$/.test(file))
      rmSync(join(ROOT, file), { force: true });
  }
}

const common = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: "node",
  target: "node20",
  // Whitespace and syntax only: stack traces of an InternalError keep the source's names.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
  // Finds its .wasm beside its own file (__dirname): it stays in node_modules, imported at run time.
  external: ["node-sqlite3-wasm"],
};

const commonJs = await build({
  ...common,
  entryPoints: ["cli/main.ts"],
  outfile: BUNDLE,
  format: "cjs",
  banner: { js: 'var __witnessBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [importMetaPlugin({ from: "cli", commonJs: true }), zodEnglishOnly, lazyStringWidth],
});

const esm = await build({
  ...common,
  entryPoints: { main: "cli/main.ts" },
  outdir: ESM_OUT,
  splitting: true,
  format: "esm",
  chunkNames: "[name]-[hash]",
  // The CommonJS dependencies bundled in (cross-spawn under execa) call require for built-ins.
  banner: {
    js: 'import { createRequire as __witnessRequire } from "node:module"; const require = __witnessRequire(import.meta.url);',
  },
  plugins: [
    importMetaPlugin({ from: "cli/esm", commonJs: false }),
    zodEnglishOnly,
    lazyStringWidth,
  ],
});

// What requireExternals did not catch would fail only on a start with a code cache: refuse it here.
const leftImport = /[^\w.$]import\(/.exec(readFileSync(BUNDLE, "utf8"));
if (leftImport !== null)
  throw new Error(
    `${BUNDLE}: a dynamic import() at offset ${leftImport.index}; see requireExternals`,
  );

// The code cache is keyed by the bundle's content: V8 itself checks only the source's length.
const bundleId = createHash("sha256").update(readFileSync(BUNDLE)).digest("hex").slice(0, 16);
const launcher = await build({
  ...common,
  entryPoints: ["cli/launch.ts"],
  outfile: join(OUT, "main.js"),
  format: "esm",
  minifyWhitespace: false,
  define: { WITNESS_BUNDLE_ID: JSON.stringify(bundleId) },
});

const meta = { inputs: {}, outputs: {} };
for (const part of [commonJs, esm, launcher]) {
  Object.assign(meta.inputs, part.metafile.inputs);
  Object.assign(meta.outputs, part.metafile.outputs);
}
writeFileSync(METAFILE, `${JSON.stringify(meta)}\n`);
