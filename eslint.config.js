// ESLint 9 flat config: rules that catch real bugs, not layout (Prettier owns that; see .prettierrc.json).
// Type-aware (recommendedTypeChecked) over every TypeScript file through tsconfig.eslint.json; the
// JavaScript scripts and benchmarks get the untyped recommended rules.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/dist/", "**/node_modules/", "coverage/", "bench/.out/", "fixtures/", "packages/compiler/test/typed-app/", "packages/sdk/src/service/*.generated.ts"],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  {
    rules: {
      // The parsers and validators match C0 control characters on purpose: they are what they reject.
      "no-control-regex": "off",
    },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["packages/sdk/test/browser/page/**/*.js"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: "./tsconfig.eslint.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A promise nobody awaits loses its rejection: the bugs most worth the type-aware pass.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // `const { signature: _signature, ...rest } = record` is how a field is left out.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // An async function without `await` is deliberate here: it turns a throw into a rejection, as its callers expect.
      "@typescript-eslint/require-await": "off",
      // Passing on an abort's `signal.reason` (or a caught error) as it is, whatever it is, is right.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    // The playground is browser code (DOM types, Vite's client types): its own tsconfig is its program.
    files: ["packages/playground/**/*.ts"],
    languageOptions: { parserOptions: { project: "./packages/playground/tsconfig.json", tsconfigRootDir: import.meta.dirname } },
  },
  {
    // Tests read JSON from child processes and replies, typed `any`; checking each access would only add casts.
    files: ["packages/*/test/**/*.ts", "test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-explicit-any": "off",
      // Tests take methods off prototypes to spy on them, and call the originals with `.call(this)`.
      "@typescript-eslint/unbound-method": "off",
    },
  },
);
