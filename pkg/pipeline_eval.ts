/**
 * Pipeline evaluation over its own small wasm module, which holds no model code: Haystack 1.x's `EvaluationResult`
 * (a pipeline's retriever and reader metrics, SQuAD, semantic answer similarity with a scorer the caller gives) and
 * graphrag-eval's agent evaluation, with the documents and labels they read.
 * @module rerankit/pipeline-eval
 */
// `rerankit/pipeline-eval` is this API over its own wasm module (bindings/wasm's feature `pipeline-eval`), apart from
// `rerankit/eval` so that each stays small (docs/runtimes.md); `rerankit` exports it too (index.ts).
export * from "./documents_api.js";
export { evaluateAgent, aggregateAgent, agentJudgePrompts, agentToYaml, type AgentResult, type AgentInput, type Judge, type JudgeReply, type EvaluateAgentOptions } from "./metrics/agent_eval.js";
export { EvaluationResult, squadEvaluate, normalizeAnswer, squadScores, type DocumentScope, type AnswerScope, type EvalMode, type HaystackMetricsOptions, type WrongExamplesOptions, type EvalRow, type NodeMetrics, type PipelineMetrics, type WrongExample, type PredictedAnswerDict, type PerQuery, type NodePredictions, type EvaluationInput, type ContextMatchingOptions, type EvaluationBuildOptions, type CsvFiles, type SquadDataset, type SquadPredictions, type SquadV1Result, type SquadV2Result, type SquadEvaluation, type SquadOptions, type SasModel, type SasScorer, type SasOptions } from "./metrics/haystack_eval.js";
