import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vitest/config";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [sdkSourceImports()],
  test: {
    include: ["packages/*/test/**/*.test.ts", "grammar/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Vitest's default (cores - 1) is one worker on a 2-core machine, where many test files spend their time waiting on the
    // servers, browsers and CLIs they start: two workers took CI's test phase from 803 s to about 590 s there, every test still
    // far from its timeout (the slowest, the PostgreSQL cluster test, at 38 s of 120 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});

/**
 * The SDK's tests run its TypeScript source, but the targets of its
 * package.json `imports` (`#default-sdk`) are built files in dist: resolved
 * as they are, source modules would load a second copy of part of the SDK,
 * whose classes fail `instanceof` against the source's and whose state is
 * separate. For importers in packages/sdk/src, map the target back to its
 * source file (the condition, node or not, is still chosen by Vite).
 */
function sdkSourceImports(): Plugin {
  const src = fileURLToPath(new URL("packages/sdk/src/", import.meta.url));
  const dist = fileURLToPath(new URL("packages/sdk/dist/", import.meta.url));
  return {
    name: "temporal:sdk-source-imports",
    enforce: "pre",
    async resolveId(id, importer, options) {
      if (!id.startsWith("#") || importer === undefined || !importer.startsWith(src)) return null;
      const resolved = await this.resolve(id, importer, { ...options, skipSelf: true });
      if (resolved === null || !resolved.id.startsWith(dist)) return resolved;
      return { ...resolved, id: src + resolved.id.slice(dist.length).replace(/\.js$/, ".ts") };
    },
  };
}
