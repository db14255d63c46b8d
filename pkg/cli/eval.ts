// `rerankit eval [-q] [-c] [-n] [-l N] [-M N] [-N N] [-m MEASURE]... QRELS RUN`: trec_eval's command line and
// output, byte for byte (through the wasm core). RUN may be `-` for standard input.
import { readFileSync } from "node:fs";

const HELP = `usage: rerankit eval [-q] [-c] [-n] [-l N] [-M N] [-N N] [--intents FILE] {-m measure[.params]}* QRELS RUN

trec_eval 10.0's options and output:
  -q          per-query lines, then the 'all' lines
  -c          average over every query of the qrels (missing queries score 0)
  -n          no summary ('all') lines
  -l N        grades >= N are relevant (default 1)
  -M N        keep the top N documents of each query
  -N N        documents in the collection (utility)
  -m MEASURE  a measure, family with parameters (P.5,10, ndcg_cut.10, ndcg.1=3,2=9) or nickname
              (official — the default —, all_trec, set); ranx names (ndcg@10, mrr@10) and ir_measures
              names (P(rel=2)@10, ERR@10, 'RBP(p=0.8,rel=1)', Judged@10) work too
  --intents FILE           intent-aware qrels (qid subtopic docno grade) for alpha_nDCG, ERR_IA and
                           ndeval's other measures (docs/eval.md)
  --keep-first-duplicate   keep the first of a document listed twice (trec_eval fails)
  --input-order            rank by the run's line order instead of by score
RUN may be '-' (standard input).
`;

export async function main(args: string[]): Promise<number> {
  if (args.includes("-h") || args.includes("--help")) {
    process.stdout.write(HELP);
    return 0;
  }
  await import("../runtimes/node.js"); // instantiates the wasm core
  const { trecEvalOperands, trecEvalReport } = await import("../metrics/evaluate.js");
  const [qrelsPath, runPath, intentsPath] = trecEvalOperands(args);
  let qrels: Uint8Array;
  let run: Uint8Array;
  let intents: Uint8Array | undefined;
  try {
    qrels = readFileSync(qrelsPath);
    run = runPath === "-" ? readFileSync(0) : readFileSync(runPath);
    intents = intentsPath === undefined ? undefined : readFileSync(intentsPath);
  } catch (err) {
    process.stderr.write(`rerankit eval: ${(err as Error).message}\n`);
    return 2;
  }
  process.stdout.write(trecEvalReport(args, qrels, run, intents));
  return 0;
}
