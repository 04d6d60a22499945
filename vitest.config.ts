import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    exclude: ["node_modules/**", "dist/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Live probes spawn real CLIs; two workers match the two-core CI machine.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // Needs no vendor CLI and no network: `npm run test:unit`.
        test: {
          name: "unit",
          include: ["**/*.test.ts"],
          setupFiles: ["test/support/cells-removed.ts"],
          exclude: ["**/*.live.test.ts", "node_modules/**", "dist/**"],
        },
      },
      {
        extends: true,
        // Real CLIs from the vendor cache, installed on first use.
        test: {
          name: "live",
          include: ["**/*.live.test.ts"],
          setupFiles: ["test/support/cells-removed.ts"],
          exclude: ["node_modules/**", "dist/**"],
        },
      },
    ],
  },
});
