// Haystack 1.x's CohereRanker (seed 000): `CohereRanker(api_key, model_name_or_path, top_k=10,
// max_chunks_per_doc=None, embed_meta_fields=None)` with `predict` (here `rerank`) and `predict_batch`
// (`rerankBatch`), over Cohere's `POST /v1/rerank`. Where rerankit differs from Haystack (lists over 1000
// documents are sent in pieces, not truncated; retries; errors) is recorded in docs/hosted_rankers.md.
import { optionsObject } from "../../errors.js";
import { integerOption, stringOption, type HostedRankerOptions } from "./hosted_ranker.js";
import { HttpRanker, apiKeyOption, type RetryOptions } from "./http.js";
import type { FetchFunction } from "./json_request.js";
import { cohereApi, type RerankApi } from "./rerank_apis.js";

export interface CohereRankerOptions extends HostedRankerOptions, RetryOptions {
  /** Cohere API key; never part of an error or warning. */
  apiKey: string;
  /** Cohere rerank model (`"rerank-v3.5"`, `"rerank-english-v3.0"`, `"rerank-multilingual-v3.0"`…). */
  model: string;
  /**
   * Chunks a long document is split into on Cohere's side (query + chunk fill the model's 512 tokens; the
   * document scores its best chunk). Default: the API's (10).
   */
  maxChunksPerDoc?: number;
  /** Default `https://api.cohere.com` (a proxy, or a Cohere-compatible server). */
  baseUrl?: string;
  /** The `fetch` to call. Default: the global `fetch`. */
  fetch?: FetchFunction;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

const COHERE_KEYS = ["apiKey", "model", "topK", "maxChunksPerDoc", "embedMetaFields", "baseUrl", "fetch", "headers", "maxRetries", "retryDelayMs", "maxRetryDelayMs", "maxDocumentsPerRequest", "concurrency"];

/** Cohere's hosted reranker behind the {@link Ranker} interface. */
export class CohereRanker extends HttpRanker {
  /** Chunks a long document is split into on Cohere's side (undefined: the API's default). */
  readonly maxChunksPerDoc: number | undefined;

  constructor(options: CohereRankerOptions) {
    const o = optionsObject(options, COHERE_KEYS);
    const apiKey = apiKeyOption(o.apiKey);
    const model = stringOption(o.model, "model");
    const maxChunksPerDoc = o.maxChunksPerDoc === undefined || o.maxChunksPerDoc === null ? undefined : integerOption(o.maxChunksPerDoc, "maxChunksPerDoc", 1);
    const api: RerankApi = maxChunksPerDoc === undefined ? cohereApi : {
      ...cohereApi,
      request: (call) => ({ ...(cohereApi.request(call) as object), max_chunks_per_doc: maxChunksPerDoc }),
    };
    const { maxChunksPerDoc: _m, ...rest } = o;
    super({ ...rest, apiKey, model, api, baseUrl: o.baseUrl ?? "https://api.cohere.com", name: "cohere" });
    this.maxChunksPerDoc = maxChunksPerDoc;
  }

  toJSON(): object {
    return { ...super.toJSON(), maxChunksPerDoc: this.maxChunksPerDoc };
  }
}
