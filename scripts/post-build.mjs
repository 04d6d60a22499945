// Bundles the CLI, marks it executable and copies non-TypeScript assets (shell templates) into dist.
import { chmodSync, cpSync, existsSync } from "node:fs";

await import("./bundle-cli.mjs");
chmodSync("dist/cli/main.js", 0o755);
for (const dir of ["shims/assets", "probes/isolation/assets", "probes/orchestrated/assets"]) {
  if (existsSync(dir)) cpSync(dir, `dist/${dir}`, { recursive: true });
}
