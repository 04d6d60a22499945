// Before `npm pack`: records the commit dist/ was built from in dist/build-info.json, so a record
// written by an installed package (no .git beside it) still names the witness commit that wrote it.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

import { BUILD_INFO, packageRoot, witnessBuild } from "../measurements/witness-build.js";

const root = packageRoot(join(import.meta.dirname, "..", "measurements"));
const build = await witnessBuild(root);
await writeFile(join(root, BUILD_INFO), `${JSON.stringify(build, null, 2)}\n`);
console.log(
  `${BUILD_INFO}: ${build.version} ${build.commit ?? "(no commit)"}${build.dirty === true ? " (dirty)" : ""}`,
);
