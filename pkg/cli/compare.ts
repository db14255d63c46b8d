// `rerankit compare [-m MEASURE]... [--test fisher|student|tukey] [--format text|markdown|latex|html] QRELS RUN RUN...`:
// ranx's `compare` on TREC files, printing its report table (through the wasm core, src/metrics/formats/ranx_report.rs).
import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";

const HELP = `usage: rerankit compare [-m MEASURE]... [--test fisher|student|tukey] [--format text|markdown|latex|html]
                        [--permutations N] [--max-p P] [--seed S] [--digits N] [--percentages] [--complete]
                        [--names A,B,...] QRELS RUN RUN [RUN...]

Compares the runs like ranx's compare (each pair tested, p <= max-p significant) and prints ranx's report:
runs as rows (a, b, ...), measures as columns, each mean followed by the letters of the runs it beats.
  -m MEASURE        a measure (ranx names ndcg@10, map@100, mrr@10, or trec_eval names); default ndcg@10
  --test T          student (default, as ranx), fisher (ranx's seeded randomisation test) or tukey (HSD)
  --format F        text (ranx's printed table, the default), markdown, latex (ranx's to_latex) or html
  --permutations N  Fisher's permutations (default 1000)
  --max-p P         significance threshold (default 0.01)
  --seed S          Fisher's seed, numpy's legacy seed (default 42)
  --digits N        decimals of the means (default 3)
  --percentages     means x 100
  --complete        average over every query of the qrels (trec_eval -c)
  --names A,B,...   run names (default: the files' names without extension)
`;

const VALUE_OPTIONS = new Set(["-m", "--test", "--format", "--permutations", "--max-p", "--seed", "--digits", "--names"]);

function number(flag: string, value: string): number {
  const x = Number(value);
  if (value.trim() === "" || !Number.isFinite(x)) throw new UsageError(`${flag} expects a number, got ${JSON.stringify(value)}`);
  return x;
}

class UsageError extends Error {}

export async function main(args: string[]): Promise<number> {
  if (args.includes("-h") || args.includes("--help")) {
    process.stdout.write(HELP);
    return 0;
  }
  const measures: string[] = [];
  const files: string[] = [];
  const options: Record<string, unknown> = {};
  let format = "text";
  const style: { digits?: number; percentages?: boolean } = {};
  let names: string[] | undefined;
  try {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      if (VALUE_OPTIONS.has(arg)) {
        const value = args[++i];
        if (value === undefined) throw new UsageError(`${arg} needs a value`);
        if (arg === "-m") measures.push(value);
        else if (arg === "--test") options.statTest = value;
        else if (arg === "--format") format = value;
        else if (arg === "--permutations") options.nPermutations = number(arg, value);
        else if (arg === "--max-p") options.maxP = number(arg, value);
        else if (arg === "--seed") options.randomSeed = number(arg, value);
        else if (arg === "--digits") style.digits = number(arg, value);
        else names = value.split(",");
      } else if (arg === "--percentages") style.percentages = true;
      else if (arg === "--complete") options.complete = true;
      else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg}`);
      else files.push(arg);
    }
    if (files.length < 3) throw new UsageError("give the qrels and at least two runs");
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`rerankit compare: ${err.message}\n${HELP}`);
    return 2;
  }
  await import("../runtimes/node.js"); // instantiates the wasm core
  const { compareRuns } = await import("../metrics/comparison.js");
  let texts: Uint8Array[];
  try {
    texts = files.map((f) => readFileSync(f));
  } catch (err) {
    process.stderr.write(`rerankit compare: ${(err as Error).message}\n`);
    return 2;
  }
  const [qrels, ...runs] = texts;
  options.names = names ?? files.slice(1).map((f) => basename(f, extname(f)));
  const comparison = compareRuns(qrels, runs, measures.length > 0 ? measures : ["ndcg@10"], options);
  try {
    process.stdout.write(comparison.report(format as "text", style) + "\n");
  } finally {
    comparison.free();
  }
  return 0;
}
