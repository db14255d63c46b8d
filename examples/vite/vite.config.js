import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  build: { target: "es2022", outDir: "dist", emptyOutDir: true },
  server: { fs: { allow: ["../.."] } },
});
