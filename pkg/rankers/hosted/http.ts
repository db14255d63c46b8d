// A reranker behind any rerank endpoint over HTTP (Cohere, Jina, Voyage, a self-hosted text-embeddings-inference
// server…): the endpoint's JSON dialect is a `RerankApi` mapping (rerank_apis.ts), the HTTP is `fetch` with the
// retry policy of json_request.ts. Only `fetch`, `AbortSignal` and `setTimeout`: it runs in every runtime.
import { describeValue, invalidArgument, optionsObject, RerankitError } from "../../errors.js";
import { CallControl } from "../../call_control.js";
import {HOSTED_RANKER_KEYS, HostedRanker, integerOption, stringOption, type HostedRankerOptions, type ScoreRequest, type Scored } from "./hosted_ranker.js";
import { postJson, type FetchFunction, type RetryPolicy } from "./json_request.js";
import type { RerankApi } from "./rerank_apis.js";

/** How hosted rankers retry (see docs/hosted_rankers.md). */
export interface RetryOptions {
  /** Retries of a request answered 429 or 5xx, or that failed on the network. Default 3. */
  maxRetries?: number;
  /** First backoff in ms, doubled per retry (with jitter) when the service sends no `Retry-After`. Default 500. */
  retryDelayMs?: number;
  /** Longest wait between attempts in ms; a `Retry-After` asking for more fails the call at once. Default 30000. */
  maxRetryDelayMs?: number;
}

export interface HttpRankerOptions extends HostedRankerOptions, RetryOptions {
  /** The endpoint's base URL, without the API's path (`https://api.jina.ai`, `http://127.0.0.1:8080`). */
  baseUrl: string;
  /** The endpoint's JSON dialect: `rerankApis.cohere | jina | voyage | tei`, or your own mapping. */
  api: RerankApi;
  /** Sent as `Authorization: Bearer <apiKey>`; never part of an error or warning. */
  apiKey?: string;
  /** The model name sent in each request (when the API takes one). */
  model?: string;
  /** Extra request headers (values are treated as secrets too: kept out of errors). */
  headers?: Record<string, string>;
  /** The `fetch` to call. Default: the global `fetch`. */
  fetch?: FetchFunction;
  /** The service's name in error messages. Default: the URL's host. */
  name?: string;
}

const HTTP_KEYS = [...HOSTED_RANKER_KEYS, "baseUrl", "api", "apiKey", "model", "headers", "fetch", "name", "maxRetries", "retryDelayMs", "maxRetryDelayMs"];

/** The API key, checked without ever printing it (a wrong type is named, not shown). */
export function apiKeyOption(value: unknown): string {
  if (typeof value !== "string" || value.length === 0) invalidArgument("apiKey", `expected a non-empty string, got ${value === "" ? "an empty string" : value === null ? "null" : typeof value}`);
  return value;
}

/** Retry options, checked. */
export function retryPolicy(options: RetryOptions): RetryPolicy {
  return {
    maxRetries: integerOption(options.maxRetries ?? 3, "maxRetries", 0),
    retryDelayMs: integerOption(options.retryDelayMs ?? 500, "retryDelayMs", 0),
    maxRetryDelayMs: integerOption(options.maxRetryDelayMs ?? 30_000, "maxRetryDelayMs", 0),
  };
}

/** A Cohere-compatible rerank endpoint: `new HttpRanker({baseUrl, api: rerankApis.tei})`. */
export class HttpRanker extends HostedRanker {
  readonly service: string;
  /** The endpoint: `baseUrl` and the API's path. */
  readonly url: string;
  /** The model sent with each request, if any. */
  readonly model: string | undefined;
  /** How failed requests (429, 5xx, network failures) are retried. */
  readonly retry: Readonly<RetryPolicy>;
  readonly #api: RerankApi;
  readonly #apiKey: string | undefined;
  readonly #headers: Record<string, string>;
  readonly #fetch: FetchFunction;
  readonly #secrets: string[];

  constructor(options: HttpRankerOptions) {
    const o = optionsObject(options, HTTP_KEYS);
    const api = o.api;
    if (api === null || typeof api !== "object" || typeof api.request !== "function" || typeof api.response !== "function") {
      invalidApi(api);
    }
    super(o, { maxDocumentsPerRequest: api.maxDocuments ?? 1000 });
    let url: URL;
    try {
      url = new URL(stringOption(o.baseUrl, "baseUrl").replace(/\/+$/, "") + (api.path ?? ""));
    } catch (e) {
      if (e instanceof RerankitError) throw e;
      invalidUrl(o.baseUrl);
    }
    this.url = url.href;
    this.service = o.name === undefined ? url.host : stringOption(o.name, "name");
    this.model = o.model === undefined ? undefined : stringOption(o.model, "model");
    this.#apiKey = o.apiKey === undefined ? undefined : apiKeyOption(o.apiKey);
    const headers = o.headers ?? {};
    if (headers === null || typeof headers !== "object" || Array.isArray(headers)) invalidArgument(`headers`, `expected {name: value}, got ${describeValue(headers)}`);
    for (const [k, v] of Object.entries(headers)) if (typeof v !== "string") invalidArgument(`headers.${k}`, `expected a string, got ${v === null ? "null" : typeof v}`);
    this.#headers = { ...headers };
    if (o.fetch !== undefined && typeof o.fetch !== "function") invalidArgument(`fetch`, `expected a function, got ${describeValue(o.fetch)}`);
    // called as a plain function, never as a method: workerd's fetch throws "Illegal invocation" on another `this`
    const given = o.fetch;
    this.#fetch = given ?? ((input, init) => globalThis.fetch(input, init));
    this.retry = Object.freeze(retryPolicy(o));
    this.#api = api;
    this.#secrets = [...(this.#apiKey ? [this.#apiKey] : []), ...Object.values(this.#headers).filter((v) => v.length >= 8)];
  }

  protected async scoreRequest({ query, texts, topN, signal }: ScoreRequest): Promise<Scored[]> {
    const body = this.#api.request({ query, documents: texts, topN, model: this.model });
    const answer = await postJson({
      service: this.service,
      url: this.url,
      headers: { ...(this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {}), ...this.#headers },
      body,
      fetch: this.#fetch,
      retry: this.retry,
      signal,
      control: new CallControl(this.service, signal, undefined),
      secrets: this.#secrets,
      errorMessage: (b) => this.#api.errorMessage?.(b),
    });
    try {
      return this.#api.response(answer);
    } catch (e) {
      throw new RerankitError(`${this.service}: unexpected response: ${e instanceof Error ? e.message : String(e)}`, "REMOTE", { status: 200 });
    }
  }

  /** The key stays out of `JSON.stringify(ranker)` and logs of the object. */
  toJSON(): object {
    return { service: this.service, url: this.url, model: this.model, topK: this.topK };
  }
}

function invalidApi(api: unknown): never {
  invalidArgument(`api`, `expected a RerankApi ({request, response, errorMessage, path, maxDocuments}: rerankApis.cohere, jina, voyage, tei or your own), got ${describeValue(api)}`);
}

function invalidUrl(url: unknown): never {
  invalidArgument(`baseUrl`, `not a URL: ${describeValue(url)}`);
}
