/**
 * The evaluation API over its own small wasm module, which holds no model code: documents, metrics, fusion,
 * the model-free and hosted rankers, Haystack and agent evaluation.
 * @module rerankit/eval
 */
// The evaluation API: documents, metrics, rank fusion, the rankers that need no model (hosted rerankers included:
// pkg/rankers/hosted/), Haystack pipeline and graphrag-eval agent evaluation. `rerankit/eval` is this API over its own small wasm module (no tract, tokenizers
// or wgpu: built from the crate without its `cpu` and `webgpu` features); `rerankit` exports it too, beside the
// models (index.ts).
export { RerankitError, type ErrorCode } from "./errors.js";
export {
  Document, Label, MultiLabel,
  type Answer, type ContentType, type DocumentDict, type DocumentInit, type FieldMap, type IdHashKey, type LabelDict, type MultiLabelOptions, type Meta, type Span, type TableCell,
} from "./document.js";
export { version, wasmMemoryBytes, wasmRestarts, wasmSimd } from "./runtimes/wasm_instance.js";
export type { WasmSimd } from "./runtimes/wasm_simd.js";
export { RecentnessRanker, LostInTheMiddleRanker, DiversityRanker, type RecentnessRankerOptions, type RankingMode, type Similarity, type StrategyName, type LostInTheMiddleRankerOptions, type DiversityRankerOptions, type DiversityQuery, type TextEmbedder, type DocumentLike } from "./rankers/haystack_rankers.js";
export { fuse, adaptiveWeight, combineScores, type FusionRun, type FuseOptions, type FusionMethodName, type FusionNorm, type PositionError, type AdaptiveWeightOptions, type CombineScoresOptions } from "./rankers/fusion.js";
export { type Ranker, type RankOptions, type RerankDocument, type RerankResult } from "./rankers/ranker.js";
export { CohereRanker, type CohereRankerOptions } from "./rankers/hosted/cohere.js";
export { WorkersAiRanker, type WorkersAiRankerOptions, type WorkersAiBinding, type WorkersAiRerankInput } from "./rankers/hosted/workers_ai.js";
export { HttpRanker, type HttpRankerOptions, type RetryOptions } from "./rankers/hosted/http.js";
export { rerankApis, cohereApi, jinaApi, voyageApi, teiApi, type RerankApi, type RerankRequest } from "./rankers/hosted/rerank_apis.js";
export type { HostedRankerOptions } from "./rankers/hosted/hosted_ranker.js";
export { withFallback, FallbackRanker, type FallbackOptions, type FallbackWarning } from "./rankers/hosted/fallback.js";
export type { FetchFunction, RetryPolicy } from "./rankers/hosted/json_request.js";
export { Pipeline, adaptiveRerank, rerankPipeline, type AdaptiveRerankOptions, type AdaptiveRerankResult, type PipelineStep, type NamedStep, type PipelineStage, type PipelineResult, type PairReranker, type RerankPipelineOptions, type RerankPipelineResult } from "./rankers/pipeline.js";
export { evaluateAgent, aggregateAgent, agentJudgePrompts, agentToYaml, type AgentResult, type AgentInput, type Judge, type JudgeReply, type EvaluateAgentOptions } from "./metrics/agent_eval.js";
export { compareRuns, RunComparison, optimizeFusion, type CompareOptions, type MeasureComparison, type CompareRunsOptions, type ComparedMeasure, type ReportFormat, type ReportOptions, type StatTest, type OptimizeFusionOptions, type OptimizableFusionMethod, type FusionOptimization, type FusionParams } from "./metrics/comparison.js";
export { docIdTable, DocIdTable } from "./metrics/doc_id_table.js";
export { evaluate, parseQrels, parseRun, qrelsFromColumns, runFromColumns, ParsedQrels, ParsedRun, type QrelsInput, type RunInput, type NestedScores, type ColumnarQrels, type ColumnarRun, type EvaluateOptions, type RunParseOptions, type QueryScope, type TiePolicy, type Dialect, type RecallRounding, type Evaluation, type MetricValue, type MeasureList } from "./metrics/evaluate.js";
export { define, defineByQuery, DefinedMeasure, type DefineOptions, type Judgement, type RankedDocument, type MeasureFunction, type QueryMeasureFunction } from "./metrics/defined_measures.js";
export { EvaluationResult, squadEvaluate, normalizeAnswer, squadScores, type DocumentScope, type AnswerScope, type EvalMode, type HaystackMetricsOptions, type WrongExamplesOptions, type EvalRow, type NodeMetrics, type PipelineMetrics, type WrongExample, type PredictedAnswerDict, type PerQuery, type NodePredictions, type EvaluationInput, type ContextMatchingOptions, type EvaluationBuildOptions, type CsvFiles, type SquadDataset, type SquadPredictions, type SquadV1Result, type SquadV2Result, type SquadEvaluation, type SquadOptions, type SasModel, type SasScorer, type SasOptions } from "./metrics/haystack_eval.js";
