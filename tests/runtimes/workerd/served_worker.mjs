// Starts serve.mjs (examples/worker in workerd) in a process of its own and waits until wrangler reports the Worker
// ready: the runtimes test and the two workerd benches (bench/runtimes.mjs, bench/workerd_startup.mjs) start it so.
import { spawn } from "node:child_process";
import path from "node:path";
import { root } from "./example_snapshot.mjs";

/**
 * `args`: serve.mjs's (MODEL_URL TOKENIZER_URL, or --id MODEL_ID HUB_URL); `env`: its RERANKIT_WORKER_* and
 * RERANKIT_WORKERD_PERSIST settings; `spawned` hears the process at once (a caller that must kill it on a
 * timeout). Resolves to `{url, child, stop, log}` (`url` without a trailing slash; `stop`
 * ends the whole process group, workerd included; `log` is the tail of its stderr); rejects with that log when
 * the process exits before it is ready.
 */
export async function serveWorker(args, env = {}, spawned = () => {}) {
  const child = spawn(process.execPath, [path.join(root, "tests", "runtimes", "workerd", "serve.mjs"), ...args], {
    cwd: root,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, CI: "true", NO_COLOR: "1", ...env },
  });
  spawned(child);
  let log = "";
  child.stderr.on("data", (d) => (log = (log + d).slice(-20_000)));
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.on("close", resolve);
      process.kill(-child.pid, "SIGTERM");
    });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line).url.replace(/\/$/, ""));
    });
    child.on("close", (code) => reject(new Error(`the worker exited (${code}) before it was ready:\n${log}\n${out}`)));
  });
  return { url, child, stop, log: () => log };
}
