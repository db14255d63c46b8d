#!/usr/bin/env node
// The `rerankit` command. Each subcommand lives in its own module (pkg/cli/<name>.ts, exporting
// `main(args): Promise<number>`) and is loaded on demand: add one line to the table below.
import { RerankitError } from "../runtimes/node.js";

type Subcommand = { summary: string; load: () => Promise<{ main(args: string[]): Promise<number> | number }> };

const subcommands: Record<string, Subcommand> = {
  "agent-eval": { summary: "evaluate agent answers and steps like graphrag-eval", load: () => import("./agent_eval.js") },
  compare: { summary: "compare runs like ranx (Fisher, Student, Tukey) and print its report table", load: () => import("./compare.js") },
  eval: { summary: "trec_eval: evaluate a run against qrels (its options, its output)", load: () => import("./eval.js") },
  "qa-eval": { summary: "SQuAD v1.1/v2.0 exact match and F1, as the official scripts print them", load: () => import("./qa_eval.js") },
  version: { summary: "print the version", load: async () => ({ main: async () => { const { version } = await import("../runtimes/node.js"); console.log(version()); return 0; } }) },
};

function usage(): string {
  const lines = Object.entries(subcommands).map(([name, s]) => `  ${name.padEnd(12)} ${s.summary}`);
  return `usage: rerankit <command> [options]\n\ncommands:\n${lines.join("\n")}\n`;
}

export async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "-h" || name === "--help") {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const sub = subcommands[name];
  if (!sub) {
    process.stderr.write(`rerankit: unknown command ${JSON.stringify(name)}\n${usage()}`);
    return 2;
  }
  try {
    return await (await sub.load()).main(rest);
  } catch (err) {
    if (err instanceof RerankitError) {
      process.stderr.write(`rerankit ${name}: ${err.message} [${err.code}]\n`);
      return 1;
    }
    throw err;
  }
}

// `rerankit eval … | head` closes the pipe early: stop quietly, as a C program dies of SIGPIPE, not with a stack trace
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});
process.exitCode = await run(process.argv.slice(2));
