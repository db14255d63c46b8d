/**
 * The evaluation API over its own small wasm module, which holds no model code: documents, metrics, fusion, run
 * comparison, the model-free and hosted rankers. Haystack's pipeline evaluation and graphrag-eval's agent
 * evaluation are `rerankit/pipeline-eval`.
 * @module rerankit/eval
 */
// `rerankit/eval` is this API over its own small wasm module (bindings/wasm's feature `eval`: no tract, tokenizers
// or wgpu); `rerankit` exports it too, beside the models and the pipeline evaluation (index.ts).
export * from "./documents_api.js";
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
export { compareRuns, RunComparison, optimizeFusion, type CompareOptions, type MeasureComparison, type CompareRunsOptions, type ComparedMeasure, type ReportFormat, type ReportOptions, type StatTest, type OptimizeFusionOptions, type OptimizableFusionMethod, type FusionOptimization, type FusionParams } from "./metrics/comparison.js";
export { docIdTable, DocIdTable } from "./metrics/doc_id_table.js";
export { evaluate, parseQrels, parseRun, qrelsFromColumns, runFromColumns, ParsedQrels, ParsedRun, type QrelsInput, type RunInput, type NestedScores, type ColumnarQrels, type ColumnarRun, type EvaluateOptions, type RunParseOptions, type QueryScope, type TiePolicy, type Dialect, type RecallRounding, type Evaluation, type MetricValue, type MeasureList } from "./metrics/evaluate.js";
export { define, defineByQuery, DefinedMeasure, type DefineOptions, type Judgement, type RankedDocument, type MeasureFunction, type QueryMeasureFunction } from "./metrics/defined_measures.js";
