/**
 * Any rerankit `Ranker` as a LangChain.js document compressor.
 * @module rerankit/langchain
 */
// `rerankit/langchain`: any rerankit Ranker (the local CrossEncoder, a hosted ranker, withFallback's pair) as a
// LangChain.js document compressor, the piece `ContextualCompressionRetriever` calls after its base retriever.
//
// It extends @langchain/core's own `BaseDocumentCompressor` (a runtime import: this subpath is loaded only by
// someone who has @langchain/core, an optional peer dependency; `rerankit` itself never imports this module).
// Results are new `Document`s, never the retriever's own objects changed: a retriever that keeps its documents
// (an in-memory store) hands out the same objects on every query, and a score written into them would outlive
// the query it belongs to. The score's name is the one LangChain's API rerankers use (`metadata.relevanceScore`:
// @langchain/cohere's `CohereRerank`, IBM's `WatsonxRerank`), so that code written for them reads these results
// unchanged.
import type { Callbacks } from "@langchain/core/callbacks/manager";
import { Document, type DocumentInterface } from "@langchain/core/documents";
import { BaseDocumentCompressor } from "@langchain/core/retrievers/document_compressors";
import { checkListLength, describeValue, invalidArgument, optionsObject } from "../errors.js";
import { checkRanker } from "../rankers/hosted/fallback.js";
import { topKOption } from "../rankers/hosted/hosted_ranker.js";
import { checkedRanking, type RankOptions, type Ranker } from "../rankers/ranker.js";

/** Options of `RerankCompressor`. */
export interface RerankCompressorOptions {
  /** Keep this many best documents; `null` keeps all. Default: the ranker's own (10 for a CrossEncoder). */
  topK?: number | null;
}

/**
 * `new RerankCompressor(await CrossEncoder.load(...), {topK: 5})`: `compressDocuments(documents, query)` returns
 * the best `topK` documents for `query`, best first, each with its metadata and `metadata.relevanceScore` (the
 * ranker's score: the local model's sigmoid, or the service's relevance score).
 */
export class RerankCompressor extends BaseDocumentCompressor {
  /** The ranker that orders the retrieved documents. */
  readonly ranker: Ranker<any>;
  /** `undefined`: the ranker's default. */
  readonly topK: number | null | undefined;

  constructor(ranker: Ranker<any>, options?: RerankCompressorOptions) {
    super();
    checkRanker(ranker, "ranker");
    const o = optionsObject(options, ["topK"]);
    this.ranker = ranker;
    this.topK = o.topK === undefined ? undefined : topKOption(o.topK, "topK");
  }

  // LangChain gives a compressor its callbacks but no AbortSignal (ContextualCompressionRetriever passes only a
  // child run manager), so there is no signal to pass on; the callbacks are LangChain's tracing, not ours.
  async compressDocuments(documents: DocumentInterface[], query: string, _callbacks?: Callbacks): Promise<DocumentInterface[]> {
    if (!Array.isArray(documents)) invalidArgument("documents", `expected an array of LangChain Documents, got ${describeValue(documents)}`);
    checkListLength(documents, "documents");
    const texts = documents.map((d, i) => {
      const text = (d as Partial<DocumentInterface> | null)?.pageContent;
      if (typeof text !== "string") invalidArgument(`documents[${i}].pageContent`, `expected a string, got ${describeValue(text)}`);
      return text;
    });
    const call: RankOptions = this.topK === undefined ? {} : { topK: this.topK };
    const ranked = checkedRanking(await this.ranker.rerank(query, texts, call), texts.length, "ranker");
    return ranked.map(({ index, score }) => {
      const d = documents[index];
      return new Document({ pageContent: d.pageContent, metadata: { ...d.metadata, relevanceScore: score }, id: d.id });
    });
  }
}
