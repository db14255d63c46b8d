// A snapshot of examples/worker with the package installed as npm would install it (package.json + pkg/dist), in a
// fresh temporary folder: wrangler's bundler watches its inputs, and a rebuild of pkg/dist during a run would
// restart the worker mid-request. Used by serve.mjs (to run it) and by the runtimes test (`wrangler deploy --dry-run`).
import path from "node:path";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The folder of a new snapshot (the caller removes it). */
export function snapshotExample() {
  const dir = mkdtempSync(path.join(tmpdir(), "rerankit-worker-"));
  cpSync(path.join(root, "examples", "worker", "wrangler.toml"), path.join(dir, "wrangler.toml"));
  cpSync(path.join(root, "examples", "worker", "src"), path.join(dir, "src"), { recursive: true });
  const installed = path.join(dir, "node_modules", "rerankit");
  cpSync(path.join(root, "package.json"), path.join(installed, "package.json"));
  cpSync(path.join(root, "pkg", "dist"), path.join(installed, "pkg", "dist"), { recursive: true });
  return dir;
}
