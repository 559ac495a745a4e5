import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// Relative asset paths: the same build is loaded by the Tauri window (from its own origin)
// and by a browser under the REST listener's `/ui/`.
export default defineConfig({
  base: "./",
  plugins: [svelte()],
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
  test: { include: ["src/**/*.test.ts"], environment: "node" },
});
