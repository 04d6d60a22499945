import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "dist/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Live probes spawn real CLIs; two workers match the two-core CI machine.
    maxWorkers: 2,
  },
});
