#!/usr/bin/env node
// The `witness` executable (dist/cli/main.js after the build). Where a code cache may be kept, it
// runs the CommonJS bundle through it (code-cache.ts); elsewhere, a fresh HOME such as a probe
// cell's, the ES module bundle, whose chunks let a command parse only the code it loads.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { type BundleStart, codeCacheFile, startBundle } from "./code-cache.js";

// scripts/bundle-cli.mjs replaces this name with the CommonJS bundle's content hash.
declare const WITNESS_BUNDLE_ID: string | undefined;

const start: BundleStart = {
  bundle: join(import.meta.dirname, "witness.cjs"),
  ...(typeof WITNESS_BUNDLE_ID === "string" ? { bundleId: WITNESS_BUNDLE_ID } : {}),
  argv: process.argv.slice(2),
  env: process.env,
};
const cacheFile = codeCacheFile(start);
if (cacheFile !== null) startBundle(start, cacheFile);
else await import(pathToFileURL(join(import.meta.dirname, "esm", "main.js")).href);
