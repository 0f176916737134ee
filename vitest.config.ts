import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "grammar/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
