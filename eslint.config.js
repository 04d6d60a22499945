import js from "@eslint/js";
import simpleImportSort from "eslint-plugin-simple-import-sort";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "**/fixtures/**",
      "eslint.config.js",
      "scripts/*.mjs",
      "probes/orchestrated/assets/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    plugins: { "simple-import-sort": simpleImportSort },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // One import order everywhere: packages, then witness's own modules by path.
      "simple-import-sort/imports": "error",
      "simple-import-sort/exports": "error",
      // A switch over a union names every member: a `default` does not stand in for one, so a new
      // member (a predicate kind, a reply kind) is an error until each switch decides about it.
      "@typescript-eslint/switch-exhaustiveness-check": "error",
    },
  },
);
