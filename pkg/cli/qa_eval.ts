// `rerankit qa-eval [--version 1.1|2.0] DATASET PREDICTIONS`: the official SQuAD scripts (evaluate-v1.1.py,
// evaluate-v2.0.py) through the wasm core: the same JSON on stdout, the same messages on stderr.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

const HELP = `usage: rerankit qa-eval [--version 1.1|2.0] DATASET PREDICTIONS

SQuAD exact match and F1 as the official scripts compute and print them:
  v1.1  {"exact_match": ..., "f1": ...}                        (evaluate-v1.1.py)
  v2.0  {"exact", "f1", "total", "HasAns_*", "NoAns_*"}, indented  (evaluate-v2.0.py)
DATASET is a SQuAD file (JSON, or gzipped JSON); PREDICTIONS is {question id: answer text} ("" = no answer).
The version is --version, else the dataset's "version" field, else 2.0 when a question has "is_impossible".
`;

function readText(path: string): string {
  const bytes = path === "-" ? readFileSync(0) : readFileSync(path);
  const raw = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  return new TextDecoder("utf-8", { fatal: true }).decode(raw);
}

export async function main(args: string[]): Promise<number> {
  if (args.includes("-h") || args.includes("--help")) {
    process.stdout.write(HELP);
    return 0;
  }
  let version: "1.1" | "2.0" | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--version" || a.startsWith("--version=")) {
      const v = a === "--version" ? args[++i] : a.slice("--version=".length);
      if (v !== "1.1" && v !== "2.0") {
        process.stderr.write(`rerankit qa-eval: --version takes 1.1 or 2.0\n${HELP}`);
        return 2;
      }
      version = v;
    } else if (a.startsWith("-") && a !== "-") {
      process.stderr.write(`rerankit qa-eval: unknown option ${JSON.stringify(a)}\n${HELP}`);
      return 2;
    } else operands.push(a);
  }
  if (operands.length !== 2) {
    process.stderr.write(`rerankit qa-eval: expected DATASET and PREDICTIONS\n${HELP}`);
    return 2;
  }
  const [datasetPath, predictionsPath] = operands as [string, string];
  let dataset: string;
  let predictions: string;
  try {
    dataset = readText(datasetPath);
  } catch (err) {
    process.stderr.write(`rerankit qa-eval: dataset ${datasetPath}: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    predictions = readText(predictionsPath);
  } catch (err) {
    process.stderr.write(`rerankit qa-eval: predictions ${predictionsPath}: ${(err as Error).message}\n`);
    return 1;
  }
  await import("../runtimes/node.js"); // instantiates the wasm core
  const { squadEvaluate } = await import("../metrics/haystack_eval.js");
  // RerankitError (malformed JSON, not a SQuAD file) is reported by cli.ts with exit status 1.
  const out = squadEvaluate(dataset, predictions, version ? { version } : {});
  for (const m of out.messages) process.stderr.write(m.endsWith("\n") ? m : `${m}\n`);
  process.stdout.write(`${out.printed}\n`);
  return 0;
}
