// How a rerank endpoint's JSON looks, as one small typed mapping per API: the request body from (query, texts,
// how many results), the scores from the answer, the service's message from an error body. `HttpRanker` does the
// rest (HTTP, retries, limits, merging). The four shipped here are the common dialects; any other endpoint is one
// more object of this type.

/** What one request carries: indices in the answer refer to `documents`. */
export interface RerankRequest {
  /** The query. */
  query: string;
  /** The documents' texts. */
  documents: string[];
  /** How many best results are needed; `null`: all (send no limit). */
  topN: number | null;
  /** The ranker's `model` option, when given. */
  model: string | undefined;
}

/** One API's JSON mapping. */
export interface RerankApi {
  /** The JSON body of one request. */
  request(call: RerankRequest): unknown;
  /** `[{index, score}]` from the JSON answer (`index` into the request's documents); throw on a shape it cannot read. */
  response(body: unknown): {
    /** Index into the request's documents. */
    index: number;
    /** The service's relevance score. */
    score: number;
  }[];
  /** The service's own message in an error body, if it has one. */
  errorMessage(body: unknown): string | undefined;
  /** The path appended to `baseUrl` (`/v1/rerank`, `/rerank`). */
  path: string;
  /** Most documents the API takes per request (lists are split above it). */
  maxDocuments: number;
}

/** `message`, FastAPI's `detail` (text or `[{msg}]`), or `error` (text or `{message}`): what rerank APIs put in error bodies. */
export function commonErrorMessage(body: unknown): string | undefined {
  if (body === null || typeof body !== "object") return typeof body === "string" ? body : undefined;
  const b = body as { message?: unknown; detail?: unknown; error?: unknown };
  if (typeof b.message === "string") return b.message;
  if (typeof b.detail === "string") return b.detail;
  if (Array.isArray(b.detail)) return b.detail.map((d) => (typeof d?.msg === "string" ? d.msg : JSON.stringify(d))).join("; ");
  if (typeof b.error === "string") return b.error;
  if (b.error !== null && typeof b.error === "object" && typeof (b.error as { message?: unknown }).message === "string") return (b.error as { message: string }).message;
  return undefined;
}

/** `[{index, <scoreKey>}]` under `key` of an object (or the body itself when `key` is null). */
function results(body: unknown, key: string | null, scoreKey: string): { index: number; score: number }[] {
  const list = key === null ? body : (body as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(list)) throw new Error(key === null ? "expected a JSON list of results" : `expected {${key}: [...]}`);
  return list.map((r) => ({ index: r?.index, score: r?.[scoreKey] }));
}

/** Cohere's `POST /v1/rerank`: `{model, query, documents, top_n, max_chunks_per_doc}` → `{results: [{index, relevance_score}]}`; 1000 documents per request. */
export const cohereApi: RerankApi = {
  path: "/v1/rerank",
  maxDocuments: 1000,
  request: ({ query, documents, topN, model }) => ({ model, query, documents, ...(topN === null ? {} : { top_n: topN }), return_documents: false }),
  response: (body) => results(body, "results", "relevance_score"),
  errorMessage: commonErrorMessage,
};

/** Jina's `POST /v1/rerank`: Cohere's shape (`{model, query, documents, top_n}` → `{results: [{index, relevance_score}]}`). */
export const jinaApi: RerankApi = {
  path: "/v1/rerank",
  maxDocuments: 1000,
  request: ({ query, documents, topN, model }) => ({ model, query, documents, ...(topN === null ? {} : { top_n: topN }), return_documents: false }),
  response: (body) => results(body, "results", "relevance_score"),
  errorMessage: commonErrorMessage,
};

/** Voyage's `POST /v1/rerank`: `{model, query, documents, top_k}` → `{data: [{index, relevance_score}]}`; 1000 documents per request. */
export const voyageApi: RerankApi = {
  path: "/v1/rerank",
  maxDocuments: 1000,
  request: ({ query, documents, topN, model }) => ({ model, query, documents, ...(topN === null ? {} : { top_k: topN }), return_documents: false }),
  response: (body) => results(body, "data", "relevance_score"),
  errorMessage: commonErrorMessage,
};

/**
 * Hugging Face text-embeddings-inference's `POST /rerank`: `{query, texts}` → `[{index, score}]` (every text,
 * scored; the model is the server's). 32 texts per request: the server's default `--max-client-batch-size`.
 */
export const teiApi: RerankApi = {
  path: "/rerank",
  maxDocuments: 32,
  request: ({ query, documents }) => ({ query, texts: documents }),
  response: (body) => results(body, null, "score"),
  errorMessage: commonErrorMessage,
};

/** The ready-made mappings, by name. */
export const rerankApis = {
  /** Cohere's `POST /v1/rerank`. */
  cohere: cohereApi,
  /** Jina AI's `POST /v1/rerank`. */
  jina: jinaApi,
  /** Voyage AI's `POST /v1/rerank`. */
  voyage: voyageApi,
  /** Hugging Face text-embeddings-inference's `POST /rerank`. */
  tei: teiApi,
} as const;
