import { defineConfig } from "vitest/config";

const outside = ["node_modules/**", "dist/**"];

export default defineConfig({
  test: {
    exclude: outside,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Live probes spawn real CLIs; two workers match the two-core CI machine.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // In process: no built CLI, no vendor CLI, no network (`npm run test:fast`). One module
        // graph per worker instead of one per file: the imports were a third of the tier's CPU.
        test: {
          name: "fast",
          include: ["**/*.test.ts"],
          exclude: ["**/*.e2e.test.ts", "**/*.live.test.ts", ...outside],
          isolate: false,
          setupFiles: ["test/support/cells-removed.ts"],
          // test/support/built-cli.ts refuses to start the built CLI under this.
          env: { WITNESS_TEST_TIER: "fast" },
        },
      },
      {
        extends: true,
        // The built binary end to end, and what needs a browser (`npm run test:e2e`).
        test: {
          name: "e2e",
          include: ["**/*.e2e.test.ts"],
          setupFiles: ["test/support/cells-removed.ts"],
          exclude: outside,
        },
      },
      {
        extends: true,
        // Real CLIs from the vendor cache, installed on first use.
        test: {
          name: "live",
          include: ["**/*.live.test.ts"],
          setupFiles: ["test/support/cells-removed.ts"],
          exclude: outside,
        },
      },
    ],
  },
});
