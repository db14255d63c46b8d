/**
 * Any rerankit `Ranker` as a reranking model for the Vercel AI SDK's `rerank()`.
 * @module rerankit/ai-sdk
 */
// `rerankit/ai-sdk`: any rerankit Ranker as a reranking model for the Vercel AI SDK's `rerank()`:
// `rerank({model: rerankit.reranking(await CrossEncoder.load(...)), query, documents, topN})` ranks locally.
//
// The model implements @ai-sdk/provider's `RerankingModelV3`, not V4: `ai` 7 takes both (it reads a V3 model
// as V4 without a warning: the call and its result are the same shape), and `ai` 6 takes only V3, so one model
// serves both majors. Nothing from the AI SDK is imported at run time (the provider interface is types only),
// so loading this module costs nothing beyond rerankit's own error and option checks.
import type { RerankingModelV3, RerankingModelV3CallOptions, SharedV3Warning } from "@ai-sdk/provider";
import { checkListLength, describeValue, invalidArgument, optionsObject } from "../errors.js";
import { checkRanker } from "../rankers/hosted/fallback.js";
import { integerOption, stringOption } from "../rankers/hosted/hosted_ranker.js";
import { checkedRanking, type Ranker } from "../rankers/ranker.js";

type RerankingResult = Awaited<ReturnType<RerankingModelV3["doRerank"]>>;

/** Options of `rerankit.reranking`. */
export interface RerankingModelOptions {
  /** The model's id in the AI SDK's results and telemetry (`response.modelId`). Default: the ranker's class name. */
  modelId?: string;
}

/**
 * The AI SDK's view of a rerankit Ranker. `topN` is the ranker's `topK` (absent: every document, as the AI SDK
 * expects), `abortSignal` its `signal`; object documents are ranked as their JSON text, as the AI SDK's Cohere
 * and Voyage providers send them (with the same `compatibility` warning). Scores are the ranker's: the local
 * model's sigmoid, or the service's relevance score.
 */
export class RerankitRerankingModel implements RerankingModelV3 {
  readonly specificationVersion = "v3" as const;
  readonly provider = "rerankit";
  readonly modelId: string;
  /** The ranker that ranks each `rerank()` call. */
  readonly ranker: Ranker<any>;

  constructor(ranker: Ranker<any>, options?: RerankingModelOptions) {
    checkRanker(ranker, "ranker");
    const o = optionsObject(options, ["modelId"]);
    this.ranker = ranker;
    this.modelId = o.modelId === undefined ? ranker.constructor?.name ?? "ranker" : stringOption(o.modelId, "modelId");
  }

  async doRerank({ documents, query, topN, abortSignal }: RerankingModelV3CallOptions): Promise<RerankingResult> {
    const warnings: SharedV3Warning[] = [];
    const kind = (documents as { type?: unknown } | null)?.type;
    if (kind !== "text" && kind !== "object") invalidArgument("documents.type", `expected "text" or "object", got ${describeValue(kind)}`);
    if (!Array.isArray(documents.values)) invalidArgument("documents.values", `expected an array, got ${describeValue(documents.values)}`);
    checkListLength(documents.values, "documents.values");
    let texts: readonly string[];
    if (documents.type === "text") {
      texts = documents.values;
    } else {
      warnings.push({ type: "compatibility", feature: "object documents", details: "Object documents are ranked as their JSON text." });
      texts = documents.values.map((value, i) => jsonText(value, `documents.values[${i}]`));
    }
    // validated here so that a bad `topN` is named as the caller wrote it, not as the ranker's `topK`
    const topK = topN === undefined ? null : integerOption(topN, "topN", 1);
    const ranked = checkedRanking(await this.ranker.rerank(query, texts, { topK, signal: abortSignal }), texts.length, "ranker");
    return {
      ranking: ranked.map(({ index, score }) => ({ index, relevanceScore: score })),
      warnings,
      response: { modelId: this.modelId },
    };
  }
}

/** The provider: `rerankit.reranking(ranker, {modelId})` is the model `rerank()` takes. */
export const rerankit = {
  /** A reranking model for the AI SDK's `rerank()` that ranks with `ranker`. */
  reranking(ranker: Ranker<any>, options?: RerankingModelOptions): RerankitRerankingModel {
    return new RerankitRerankingModel(ranker, options);
  },
};

/** `JSON.stringify(value)`, with what it cannot write (a BigInt, a cycle, nesting past the stack) named as `field`. */
function jsonText(value: unknown, field: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    invalidArgument(field, `cannot be written as JSON (${e instanceof Error ? e.message : "unwritable"})`);
  }
  if (text === undefined) invalidArgument(field, "cannot be written as JSON (a function, symbol or undefined)");
  return text;
}
