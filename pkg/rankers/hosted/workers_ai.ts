// Cloudflare Workers AI rerankers through a Worker's AI binding (`env.AI`, wrangler.toml `[ai] binding = "AI"`):
// `ai.run(model, {query, contexts: [{text}], top_k})` → `{response: [{id, score}]}`. The binding is any object
// with that `run`, so a test (or a proxy) can stand in for it. A binding call cannot be cancelled: an abort stops
// the waiting, and the answer, when it comes, is dropped.
import { describeValue, invalidArgument, optionsObject, RerankitError } from "../../errors.js";
import {HOSTED_RANKER_KEYS, HostedRanker, stringOption, type HostedRankerOptions, type ScoreRequest, type Scored } from "./hosted_ranker.js";
import { CallControl } from "../../call_control.js";

/** The part of a Workers AI binding (`env.AI`) a reranker calls. */
export interface WorkersAiBinding {
  /** Runs a Workers AI model (`env.AI.run`). */
  run(model: string, inputs: WorkersAiRerankInput, options?: Record<string, unknown>): Promise<unknown>;
}

/** The input of Workers AI's reranker models. */
export interface WorkersAiRerankInput {
  /** The query. */
  query: string;
  /** The documents. */
  contexts: {
    /** A document's text. */
    text: string;
  }[];
  /** How many best results to return. */
  top_k?: number;
}

export interface WorkersAiRankerOptions extends HostedRankerOptions {
  /** The Worker's AI binding, `env.AI`. */
  ai: WorkersAiBinding;
  /** Default `@cf/baai/bge-reranker-base`. */
  model?: string;
  /** Options passed as `run`'s third argument (`{gateway: {id}}` to go through AI Gateway). */
  runOptions?: Record<string, unknown>;
}

const KEYS = [...HOSTED_RANKER_KEYS, "ai", "model", "runOptions"];

/** Workers AI's hosted reranker (`@cf/baai/bge-reranker-base` by default) behind the {@link Ranker} interface. */
export class WorkersAiRanker extends HostedRanker {
  readonly service = "workers-ai";
  /** The Workers AI model. */
  readonly model: string;
  readonly #ai: WorkersAiBinding;
  readonly #runOptions: Record<string, unknown> | undefined;

  constructor(options: WorkersAiRankerOptions) {
    const o = optionsObject(options, KEYS);
    if (o.ai === null || typeof o.ai !== "object" || typeof (o.ai as { run?: unknown }).run !== "function") {
      invalidArgument("ai", `expected the Workers AI binding (env.AI, an object with run(model, inputs)), got ${describeValue(o.ai)}`);
    }
    // no documented per-request limit: one request per list unless the caller sets one
    super(o, { maxDocumentsPerRequest: Number.MAX_SAFE_INTEGER });
    this.model = o.model === undefined ? "@cf/baai/bge-reranker-base" : stringOption(o.model, "model");
    if (o.runOptions !== undefined && (o.runOptions === null || typeof o.runOptions !== "object")) {
      invalidArgument("runOptions", `expected an object, got ${describeValue(o.runOptions)}`);
    }
    this.#ai = o.ai;
    this.#runOptions = o.runOptions;
  }

  protected async scoreRequest({ query, texts, topN, signal }: ScoreRequest): Promise<Scored[]> {
    const control = new CallControl(this.service, signal, undefined);
    const input: WorkersAiRerankInput = { query, contexts: texts.map((text) => ({ text })), ...(topN === null ? { top_k: texts.length } : { top_k: topN }) };
    let answer: unknown;
    try {
      const call = this.#runOptions === undefined ? this.#ai.run(this.model, input) : this.#ai.run(this.model, input, this.#runOptions);
      answer = await control.race(Promise.resolve(call));
    } catch (e) {
      if (e instanceof RerankitError && e.code === "ABORTED") throw e;
      // the binding throws plain Errors ("3040: Capacity temporarily exceeded…"); the status rides in the message
      throw new RerankitError(`${this.service}: ${this.model} failed: ${e instanceof Error ? e.message : String(e)}`, "REMOTE");
    }
    const response = (answer as { response?: unknown } | null)?.response;
    if (!Array.isArray(response)) throw new RerankitError(`${this.service}: unexpected response: expected {response: [{id, score}]}, got ${describeValue(answer)}`, "REMOTE");
    return response.map((r) => ({ index: r?.id, score: r?.score }));
  }

  /** The options, for logs: the binding stays out. */
  toJSON(): object {
    return { service: this.service, model: this.model, topK: this.topK };
  }
}
