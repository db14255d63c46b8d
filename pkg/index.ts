// The public API, shared by every runtime entry (node.ts, browser.ts, deno.ts, workerd.ts).
export { RerankitError, type ErrorCode } from "./errors.js";
export {
  Document, Label, MultiLabel,
  type Answer, type ContentType, type DocumentDict, type DocumentInit, type FieldMap, type IdHashKey, type LabelDict, type Meta, type Span,
} from "./document.js";
export { version, wasmMemoryBytes, wasmRestarts } from "./runtime.js";
export { CrossEncoder, Embedder, type Device, type Dtype, type EmbedOptions, type EmbedderLoadOptions, type HubOptions, type PretrainedOptions, type LoadProgress, type ModelLoadOptions, type ModelSource, type RerankDocument, type RerankOptions, type RerankResult, type SourceCache } from "./cross_encoder.js";
export { type DeviceOption, type ProbeReport, type WebGpuInfo } from "./webgpu_cross_encoder.js";
export { DEFAULT_CACHE_NAME, type ModelCacheStore, type CacheApiCache } from "./model_source.js";
export { RecentnessRanker, LostInTheMiddleRanker, DiversityRanker, Pipeline, fuse, adaptiveWeight, combineScores, adaptiveRerank, rerankPipeline, type RecentnessRankerOptions, type RankingMode, type LostInTheMiddleRankerOptions, type DiversityRankerOptions, type DiversityQuery, type TextEmbedder, type DocumentLike, type FusionRun, type FuseOptions, type AdaptiveWeightOptions, type CombineScoresOptions, type AdaptiveRerankOptions, type AdaptiveRerankResult, type PipelineStep, type NamedStep, type PipelineStage, type PipelineResult, type PairReranker, type RerankPipelineOptions, type RerankPipelineResult } from "./rankers.js";
export { evaluateAgent, aggregateAgent, agentJudgePrompts, agentToYaml, type AgentResult, type AgentInput, type Judge, type JudgeReply, type EvaluateAgentOptions } from "./agent_eval.js";
export { evaluate, parseQrels, parseRun, compareRuns, ParsedQrels, ParsedRun, type QrelsInput, type RunInput, type NestedScores, type EvaluateOptions, type Evaluation, type MetricValue, type CompareOptions, type MeasureComparison } from "./metrics.js";
export { EvaluationResult, squadEvaluate, normalizeAnswer, squadScores, type DocumentScope, type AnswerScope, type EvalMode, type HaystackMetricsOptions, type WrongExamplesOptions, type EvalRow, type NodeMetrics, type PipelineMetrics, type WrongExample, type PredictedAnswerDict, type PerQuery, type NodePredictions, type EvaluationInput, type ContextMatchingOptions, type CsvFiles, type SquadDataset, type SquadPredictions, type SquadV1Result, type SquadV2Result, type SquadEvaluation, type SasModel, type SasOptions } from "./haystack_eval.js";
