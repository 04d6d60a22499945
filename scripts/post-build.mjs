// Marks the built CLI executable and copies non-TypeScript assets (shell templates) into dist.
import { chmodSync, cpSync, existsSync } from "node:fs";

chmodSync("dist/cli/main.js", 0o755);
for (const dir of ["shims/assets", "probes/isolation/assets"]) {
  if (existsSync(dir)) cpSync(dir, `dist/${dir}`, { recursive: true });
}
