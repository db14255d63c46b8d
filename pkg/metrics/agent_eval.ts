// Agent-step evaluation in the style of graphrag-eval 6.6.1: steps score (SPARQL results, retrieval ids,
// time series, data points, IRI discovery), per-question results in graphrag-eval's output shape, aggregates
// (per_template / micro / macro), and LLM-judged metrics through your own async `judge(prompt)` — rerankit
// holds no API key and calls no vendor. The Rust docs in src/eval/agent/ carry the exact rules.
import * as wasm from "../wasm/rerankit.js";
import { invalidArgument, optionsObject } from "../errors.js";

/** One evaluation result (graphrag-eval's output keys: `template_id`, `question_id`, `steps_score`, …). */
export type AgentResult = Record<string, unknown>;

/** What a judge returns: the text, or the text with the call's cost in US dollars. */
export type JudgeReply = string | {
  /** The judge's answer. */
  text: string;
  /** What the call cost, in US dollars (reported in the results' `*_cost` fields). */
  cost?: number;
};

/** A caller-supplied LLM: `prompt → answer text` (async). Deterministic judges make reproducible tests. */
export type Judge = (prompt: string) => Promise<JudgeReply> | JudgeReply;

/** Options of `evaluateAgent`. */
export interface EvaluateAgentOptions {
  /** Enables the LLM metrics (answer correctness and relevance, retrieval recall/precision, custom metrics). */
  judge?: Judge;
  /**
   * graphrag-eval's configuration (YAML/JSON text, or an object): `answer_correctness.{enabled,prompt}`,
   * `answer_relevance.enabled`, `retrieval.enabled`, `custom_evaluations`. Its `llm` section is accepted and
   * ignored, except that (as in graphrag-eval) answer relevance is then on only with `llm.embedding`.
   */
  config?: string | Record<string, unknown>;
  /** How many judge calls run at once (default 4). */
  concurrency?: number;
}

/** Reference datasets and responses may be given as text (YAML, JSON, JSONL) or as parsed values. */
export type AgentInput = string | unknown[] | Record<string, unknown>;

/**
 * Evaluates `responses` against the `reference` dataset, as graphrag-eval's `run_evaluation` does: one result
 * per reference question. Without a judge the call is synchronous and returns the results; with a judge it
 * returns a promise. Bad items never stop the run: they get `status: "error"` / `error` or `steps_score_error`.
 */
export function evaluateAgent(reference: AgentInput, responses: AgentInput): AgentResult[];
export function evaluateAgent(reference: AgentInput, responses: AgentInput, options: EvaluateAgentOptions & { judge: Judge }): Promise<AgentResult[]>;
export function evaluateAgent(reference: AgentInput, responses: AgentInput, options?: EvaluateAgentOptions): AgentResult[] | Promise<AgentResult[]>;
export function evaluateAgent(reference: AgentInput, responses: AgentInput, options: EvaluateAgentOptions = {}): AgentResult[] | Promise<AgentResult[]> {
  options = optionsObject(options, ["judge", "config", "concurrency"]);
  if (options.judge === undefined) return wasm.agentEvaluate(reference, responses);
  if (typeof options.judge !== "function") invalidArgument("judge", "expected a function (prompt) => text");
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) invalidArgument("concurrency", "expected an integer from 1 to 1024");
  return judged(reference, responses, options, concurrency);
}

async function judged(reference: AgentInput, responses: AgentInput, options: EvaluateAgentOptions, concurrency: number): Promise<AgentResult[]> {
  const plan = new wasm.AgentJudgePlan(reference, responses, options.config);
  try {
    const prompts = plan.prompts();
    const answers: Array<{ text?: string; error?: string; cost?: number }> = new Array(prompts.length);
    let next = 0;
    const worker = async () => {
      while (next < prompts.length) {
        const i = next++;
        try {
          const reply = await options.judge!(prompts[i]!);
          if (typeof reply === "string") answers[i] = { text: reply };
          else if (reply && typeof reply === "object" && typeof reply.text === "string") {
            answers[i] = typeof reply.cost === "number" ? { text: reply.text, cost: reply.cost } : { text: reply.text };
          } else answers[i] = { error: "the judge returned neither a string nor {text}" };
        } catch (err) {
          answers[i] = { error: err instanceof Error ? err.message : String(err) };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, prompts.length) }, worker));
    return plan.apply(answers);
  } finally {
    plan.free();
  }
}

/** The prompts a judge would be asked for these inputs (for inspection or batching). */
export function agentJudgePrompts(reference: AgentInput, responses: AgentInput, config?: EvaluateAgentOptions["config"]): string[] {
  const plan = new wasm.AgentJudgePlan(reference, responses, config);
  try {
    return plan.prompts();
  } finally {
    plan.free();
  }
}

/**
 * graphrag-eval's `compute_aggregates`: `per_template`, `micro` and `macro` statistics (sum, mean, median, min,
 * max; step counts). Pass the same `config` as to `evaluateAgent` to aggregate custom metrics too.
 */
export function aggregateAgent(results: AgentResult[] | string, options: { config?: EvaluateAgentOptions["config"] } = {}): Record<string, unknown> {
  options = optionsObject(options, ["config"]);
  return wasm.agentAggregate(results, options.config);
}

/** Any JSON-compatible value as YAML text (the CLI's `--format yaml`). */
export function agentToYaml(value: unknown): string {
  return wasm.agentToYaml(value);
}
