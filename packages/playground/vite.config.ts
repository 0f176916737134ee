import { defineConfig } from "vite";

// A static site: relative asset URLs (`base: "./"`) so dist/ can be deployed under any path.
export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
  worker: { format: "es" },
});
