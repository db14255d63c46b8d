// Rendered from the Rust types by src/typescript.rs (`RERANKIT_WRITE_TYPES=1 cargo test --lib typescript`): edit the Rust
// types and their doc comments, not this file.

/**
 * The stable, machine-readable `code` of a `RerankitError`: switch on `err.code`, never on the message.
 * `REMOTE`: a hosted reranker failed (HTTP error, unreachable, malformed answer; docs/hosted_rankers.md).
 * `FREED`: a method of an object whose `free()` was called (a model, a parsed run…): make it again.
 */
export type ErrorCode = "INVALID_ARGUMENT" | "MODEL_LOAD" | "TOKENIZER" | "UNSUPPORTED" | "PARSE" | "INTERNAL" | "ABORTED" | "REMOTE" | "FREED";

/**
 * Options of `evaluate` and `compareRuns`.
 */
export type EvaluateOptions = {
/**
 * Grades ≥ this are relevant (trec_eval `-l`). Default 1.
 */
relevanceLevel: number | null,
/**
 * Average over every query of the qrels; a query missing from the run scores 0 (trec_eval `-c`): the same
 * as `scope: "qrels"`.
 */
complete: boolean | null,
/**
 * Which queries are evaluated.
 */
scope: QueryScope | null,
/**
 * Keep only the top n of each query after ranking (trec_eval `-M`; Haystack's simulated_top_k_retriever).
 */
maxResults: number | null,
/**
 * Rank only the retrieved documents judged with a grade ≥ 0, after the maxResults cut (trec_eval `-J`): one
 * absent from the qrels or judged with a negative grade is dropped. Default false.
 */
judgedOnly: boolean | null,
/**
 * How documents of equal score are ordered.
 */
ties: TiePolicy | null,
/**
 * Documents in the collection (trec_eval `-N`; `utility` only).
 */
collectionSize: number | null,
/**
 * Measures and settings of another tool: "haystack", "graphrag", "graphrag@k", "trec_eval".
 */
profile: string | null,
/**
 * Whose meaning a measure name has where the tools' names collide (docs/eval.md "Measure names and
 * dialects"). The "ir_measures" dialect also evaluates every query of the qrels (ir_measures' scope) unless
 * `scope` or `complete` says otherwise.
 */
dialect: Dialect | null,
/**
 * A document listed twice for a query: keep the first instead of failing (text and Map runs).
 */
keepFirstDuplicate: boolean | null,
/**
 * Recall level → number of relevant documents for iprec_at_recall / 11pt_avg.
 */
recallRounding: RecallRounding | null,
/**
 * Also report each measure's standard deviation over the evaluated queries in `Evaluation.std`, as ranx's
 * `evaluate(..., return_std=True)` does (numpy's population standard deviation, ddof 0). Default false.
 */
returnStd: boolean | null,
/**
 * Intent-aware (diversity) qrels, `qid subtopic docno grade` per line (TREC Web track / ndeval format), for
 * ndeval's measures (`alpha_nDCG@k`, `ERR_IA@k`, `nERR_IA@k`, `P_IA@k`, `StRecall@k`, `AP_IA`, `NRBP`,
 * `nNRBP`); the ordinary qrels still decide which queries are evaluated.
 */
intents: string | null, };

/**
 * Which queries are evaluated and averaged over: "judged" (in both the qrels and the run; trec_eval's default),
 * "qrels" (every query of the qrels, trec_eval `-c`) or "run" (every run query, judged or not; Haystack).
 */
export type QueryScope = "judged" | "qrels" | "run";

/**
 * How documents with equal scores are ordered: "trec_eval" (score descending, then docno descending; the
 * default) or "input" (the run's order as given).
 */
export type TiePolicy = "trec_eval" | "input";

/**
 * Whose meaning a measure name has where trec_eval's, ranx's and ir_measures' names collide: "trec_eval" (the
 * default of `evaluate` and `compareRuns(a, b)`: `recall` is recall_5 … recall_1000, `P` is P_5 … P_1000), "ranx"
 * (the default of `compareRuns` with an array of runs: `recall` is recall over the whole ranking, `hits` /
 * `hit_rate` likewise, `rbp.95`; an empty run is refused, as ranx refuses it) or "ir_measures" (its
 * case-sensitive names as ir_measures reads them: `P`, `Recall` without `@k` are errors; every query of the qrels
 * is evaluated; empty qrels give an empty result). A name only one tool knows means what that tool computes in
 * every dialect.
 */
export type Dialect = "trec_eval" | "ranx" | "ir_measures";

/**
 * How a recall level x becomes a number of relevant documents c (of R): "trec_eval_10" (c = round(x·R), the
 * default) or "trec_eval_9" (c = ⌊x·R + 0.9⌋, what pytrec_eval embeds).
 */
export type RecallRounding = "trec_eval_10" | "trec_eval_9";

/**
 * Options of `parseRun` and `runFromColumns`.
 */
export type RunParseOptions = {
/**
 * A document listed twice for a query: keep the first instead of failing (trec_eval refuses such a run).
 */
keepFirstDuplicate: boolean, };

/**
 * Options of `compareRuns`' significance tests, beside `evaluate`'s (ranx's `compare` keyword arguments).
 */
export type CompareOptions = {
/**
 * The test between every pair of runs (ranx's `stat_test`; default "student", as ranx's `compare`). Runs
 * given as an array only: two runs given apart get both Student's and Fisher's test.
 */
statTest: StatTest | null,
/**
 * Permutations of Fisher's randomisation test (ranx's `n_permutations`; default 1000).
 */
nPermutations: number | null,
/**
 * A pair differs significantly when p ≤ maxP (ranx's `max_p`; default 0.01). Runs given as an array only.
 */
maxP: number | null,
/**
 * Fisher's seed (ranx's `random_seed`), numpy's legacy seed 0 ≤ s < 2³² (default 42): the same seed gives
 * ranx's p-values.
 */
randomSeed: number | null, };

/**
 * The significance test of `compareRuns` (ranx's `stat_test`): "student" (two-sided paired Student's t-test),
 * "fisher" (Fisher's randomisation test with ranx's seeded draws) or "tukey" (Tukey's HSD over all runs at once).
 */
export type StatTest = "fisher" | "student" | "tukey";

/**
 * How `RunComparison.report` prints the means (ranx's `rounding_digits` and `show_percentages`).
 */
export type ReportOptions = {
/**
 * Decimals of the means (ranx's `rounding_digits`; default 3, at most 15; 2 fewer with percentages).
 */
digits: number | null,
/**
 * Means × 100 (ranx's `show_percentages`; default false).
 */
percentages: boolean | null, };

/**
 * Options of a `RecentnessRanker` (Haystack's `RecentnessRanker` parameters).
 */
export type RecentnessRankerOptions = {
/**
 * The meta key that holds each document's date (ISO 8601, RFC 2822, `2021/05/01`, epoch seconds, …).
 */
dateMetaField: string,
/**
 * In [0, 1]: 0 ignores age, 0.5 (default) weighs relevance and age equally, 1 sorts by age alone.
 */
weight: number,
/**
 * How many documents to return per list, sliced as Haystack slices (`documents[:topK]`): a negative count
 * leaves out the last `-topK`; 0 or `null` (default) returns all.
 */
topK: number | null,
/**
 * How relevance and age are combined. Default "reciprocal_rank_fusion".
 */
rankingMode: RankingMode, };

/**
 * How the retrieval order and the date order are combined: "reciprocal_rank_fusion" (default) or "score"
 * (needs retriever scores in [0, 1]).
 */
export type RankingMode = "reciprocal_rank_fusion" | "score";

/**
 * Options of a `LostInTheMiddleRanker` (Haystack's `LostInTheMiddleRanker` parameters).
 */
export type LostInTheMiddleRankerOptions = {
/**
 * Keep documents until their total word count reaches this (the document that reaches it is kept); `null`
 * (default): no limit.
 */
wordCountThreshold: number | null,
/**
 * Cut the last kept document so that the total equals `wordCountThreshold` exactly (Haystack 1.x).
 */
truncateDocument: boolean,
/**
 * Keep only the first `topK` input documents before reordering, sliced as Haystack slices: a negative count
 * leaves out the last `-topK`; 0 or `null` (default) keeps all.
 */
topK: number | null, };

/**
 * Options of a `DiversityRanker` (Haystack's `DiversityRanker` parameters).
 */
export type DiversityRankerOptions = {
/**
 * How documents are compared. Default "dot_product".
 */
similarity: Similarity,
/**
 * How the next document is picked. Default "greedy".
 */
strategy: StrategyName,
/**
 * MMR trade-off in [0, 1] (1 = relevance only). Default 0.5.
 */
lambda: number | null,
/**
 * How many documents to pick per list, as Haystack's `[:topK]`: 0 picks none, a negative count leaves out
 * the last `-topK`; `null` (default) orders all of them.
 */
topK: number | null, };

/**
 * How two embeddings are compared: "dot_product" (default) or "cosine" (vectors L2-normalised first).
 */
export type Similarity = "dot_product" | "cosine";

/**
 * How a DiversityRanker picks the next document: "greedy" (the least mean similarity to the picked documents;
 * default) or "mmr" (maximal marginal relevance).
 */
export type StrategyName = "greedy" | "mmr";

/**
 * Options of `fuse`: ranx's `fuse(runs, norm, method, params)`, the params beside the method under ranx's names.
 */
export type FuseOptions = {
/**
 * `"rrf"` (default); `"wsum"`, `"mixed"`, `"wmnz"` (weights); `"sum"`, `"mnz"`, `"max"`, `"min"`, `"anz"`,
 * `"med"`, `"gmnz"` (gamma) over the normalised scores; `"isr"`, `"log_isr"`, `"logn_isr"` (sigma), `"rbc"`
 * (phi), `"bordafuse"`, `"w_bordafuse"` (weights), `"condorcet"`, `"w_condorcet"` (weights) over the
 * positions; the trained `"probfuse"`, `"posfuse"`, `"segfuse"` (probs), `"slidefuse"` (probs, w),
 * `"bayesfuse"` (logOdds), `"mapfuse"` (mapScores), whose params `optimizeFusion` trains.
 */
method: FusionMethodName,
/**
 * RRF's k (default 60).
 */
k: number | null,
/**
 * One weight per run (`wsum`, `mixed`, `wmnz`, `w_bordafuse`, `w_condorcet`).
 */
weights: Array<number> | null,
/**
 * Normalisation per run and query before fusing: min-max when absent (as ranx), none when `null` or
 * `"none"`. The position-based methods see it only through the order it gives.
 */
norm: FusionNorm | null,
/**
 * `rbc`'s persistence φ.
 */
phi: number | null,
/**
 * `gmnz`'s exponent γ.
 */
gamma: number | null,
/**
 * `logn_isr`'s σ in [0, 1] (default 0.01).
 */
sigma: number | null,
/**
 * `slidefuse`'s window half-width.
 */
w: number | null,
/**
 * Trained probabilities, one array per run (`probfuse`, `posfuse`, `segfuse`, `slidefuse`).
 */
probs: Array<Array<number>> | null,
/**
 * `bayesfuse`'s trained log-odds, one array per run.
 */
logOdds: Array<Array<number>> | null,
/**
 * `mapfuse`'s trained MAP, one per run.
 */
mapScores: Array<number> | null, };

/**
 * A fusion method by ranx's name (`sum`, `mnz`… also spelt `combsum`, `combmnz`…).
 */
export type FusionMethodName = "rrf" | "wsum" | "mixed" | "wmnz" | "sum" | "combsum" | "mnz" | "combmnz" | "max" | "combmax" | "min" | "combmin" | "anz" | "combanz" | "med" | "combmed" | "gmnz" | "combgmnz" | "isr" | "log_isr" | "logn_isr" | "bordafuse" | "w_bordafuse" | "condorcet" | "w_condorcet" | "rbc" | "probfuse" | "bayesfuse" | "mapfuse" | "posfuse" | "segfuse" | "slidefuse";

/**
 * A normalisation by ranx's name; `"none"` or `null` for none.
 */
export type FusionNorm = "none" | "min-max" | "min_max" | "min-max-inverted" | "min_max_inverted" | "max" | "sum" | "zmuv" | "z-score" | "rank" | "borda";

/**
 * Options of `optimizeFusion` (ranx's `optimize_fusion` keyword arguments).
 */
export type OptimizeFusionOptions = {
/**
 * The method whose parameters are searched (default "wsum"); "bayesfuse", "mapfuse", "posfuse", "segfuse"
 * are trained only (no search, no score).
 */
method: OptimizableFusionMethod,
/**
 * The measure to maximise, any name `evaluate` takes (default ranx's "ndcg").
 */
metric: string,
/**
 * Normalisation applied once before the search or training (default "min-max", as ranx; "none" for none).
 */
norm: FusionNorm | null,
/**
 * Grid step: weights (default 0.1), rrf's k (default 10), gamma, sigma, phi (default 0.01).
 */
step: number | null,
/**
 * rrf's smallest k (default 10).
 */
minK: number | null,
/**
 * rrf's largest k (default 100).
 */
maxK: number | null,
/**
 * gmnz's smallest γ (default 0.01).
 */
minGamma: number | null,
/**
 * gmnz's largest γ (default 1.0).
 */
maxGamma: number | null,
/**
 * logn_isr's smallest σ (default 0.01).
 */
minSigma: number | null,
/**
 * logn_isr's largest σ (default 1.0).
 */
maxSigma: number | null,
/**
 * rbc's smallest φ (default 0.01).
 */
minPhi: number | null,
/**
 * rbc's largest φ (default 1.0).
 */
maxPhi: number | null,
/**
 * probfuse's smallest number of segments (default 1).
 */
minNSegments: number | null,
/**
 * probfuse's largest number of segments (default 100).
 */
maxNSegments: number | null,
/**
 * slidefuse's smallest window half-width (default 1).
 */
minW: number | null,
/**
 * slidefuse's largest window half-width (default 100).
 */
maxW: number | null,
/**
 * The configurations to try instead of the generated grid: weight vectors, or k, γ, σ, φ, segment counts or
 * w values.
 */
grid: Array<Array<number>> | Array<number> | null, };

/**
 * A fusion method `optimizeFusion` searches the parameters of, or trains.
 */
export type OptimizableFusionMethod = "wsum" | "mixed" | "wmnz" | "w_bordafuse" | "w_condorcet" | "rrf" | "gmnz" | "logn_isr" | "rbc" | "probfuse" | "slidefuse" | "bayesfuse" | "mapfuse" | "posfuse" | "segfuse";

/**
 * Options of `adaptiveWeight`.
 */
export type AdaptiveWeightOptions = {
/**
 * The error over the rank changes. Default "rmse".
 */
error: PositionError,
/**
 * The floor of the weight (default 0).
 */
minWeight: number, };

/**
 * The error function over rank changes: "rmse" (root mean square error; default) or "mae" (mean absolute error).
 */
export type PositionError = "rmse" | "mae";

/**
 * Options of `combineScores`.
 */
export type CombineScoresOptions = {
/**
 * The retriever score's weight. Default 1.
 */
retrieverWeight: number,
/**
 * The reranker score's weight. Default 1; the adaptive weight is a natural choice.
 */
rerankerWeight: number, };

/**
 * Options of `new MultiLabel(labels, options)` (Haystack's keyword arguments).
 */
export type MultiLabelOptions = {
/**
 * Keep only positive labels (Haystack's `is_positive_label`: a correct document with a correct answer or no
 * answer). Default false.
 */
dropNegativeLabels: boolean,
/**
 * Keep only the labels whose `noAnswer` is false. Default false.
 */
dropNoAnswers: boolean, };

/**
 * Options of `calculateMetrics` (Haystack's `calculate_metrics`; its defaults: no simulation,
 * `document_id_or_answer`, `any`, `integrated`).
 */
export type HaystackMetricsOptions = {
/**
 * Keep only the top k answers of each query (-1: all).
 */
simulatedTopKReader: number,
/**
 * Keep only the top k documents of each query, also for the reader's answer scopes (-1: all).
 */
simulatedTopKRetriever: number,
/**
 * What makes a retrieved document relevant (default "document_id_or_answer").
 */
documentScope: DocumentScope,
/**
 * Where a predicted answer must come from to count (default "any").
 */
answerScope: AnswerScope,
/**
 * Which rows to score: the pipeline's ("integrated", default) or the node's fed gold input ("isolated").
 */
evalMode: EvalMode, };

/**
 * `document_scope` of `calculate_metrics`: what makes a retrieved document relevant.
 */
export type DocumentScope = "document_id" | "context" | "document_id_and_context" | "document_id_or_context" | "answer" | "document_id_or_answer";

/**
 * `answer_scope` of `calculate_metrics`: where a predicted answer must come from to count.
 */
export type AnswerScope = "any" | "context" | "document_id" | "document_id_and_context";

/**
 * "integrated" (the node's input came from the pipeline) or "isolated" (it was fed the gold documents).
 */
export type EvalMode = "integrated" | "isolated";

/**
 * Options of `wrongExamples` (Haystack's `wrong_examples`): `calculateMetrics`' options beside its own.
 */
export type WrongExamplesOptions = {
/**
 * How many queries (the worst first). Default 3.
 */
n?: number,
/**
 * The document metric that ranks queries (`recall_single_hit` — the default —, `recall_multi_hit`,
 * `precision`, `map`, `mrr`, `ndcg`; another name throws, as Haystack raises).
 */
documentMetric?: string,
/**
 * The answer metric that ranks queries (`exact_match`, `f1` — the default —, `sas` once SAS is added; another
 * name throws, as Haystack raises).
 */
answerMetric?: string,
/**
 * Queries whose document metric is above this are not wrong. Default 0.5.
 */
documentMetricThreshold?: number,
/**
 * Queries whose answer metric is above this are not wrong. Default 0.5.
 */
answerMetricThreshold?: number,
/**
 * As in `calculateMetrics`.
 */
simulatedTopKReader?: number,
/**
 * As in `calculateMetrics`.
 */
simulatedTopKRetriever?: number,
/**
 * As in `calculateMetrics`.
 */
documentScope?: DocumentScope,
/**
 * As in `calculateMetrics`.
 */
answerScope?: AnswerScope,
/**
 * As in `calculateMetrics`.
 */
evalMode?: EvalMode, };

/**
 * Options of `EvaluationResult.build` (`Pipeline.eval`'s `context_matching_*` and `custom_document_id_field`).
 */
export type EvaluationBuildOptions = {
/**
 * How a gold context matches a document's or answer's context.
 */
contextMatching: Partial<ContextMatchingOptions>,
/**
 * A meta field that identifies documents (e.g. `"name"`): labels and documents match by it, not by id.
 */
customDocumentIdField: string | null, };

/**
 * Context matching of Haystack's `pipeline.eval()`: when a retrieved document's text counts as the gold context.
 */
export type ContextMatchingOptions = {
/**
 * Contexts shorter than this many characters never match (their similarity is 0). Default 100.
 */
minLength: number,
/**
 * Raise a partial match at an end of the longer text (a passage split across two documents) to the score of
 * the overlapping halves. Default true.
 */
boostSplitOverlaps: boolean,
/**
 * The similarity (0–100) at which contexts match. Default 65.
 */
threshold: number, };

/**
 * Options of `squadEvaluate`.
 */
export type SquadOptions = {
/**
 * The official script to run: "1.1" or "2.0" (also "v1.1", "v2.0"); absent: from the dataset's `version`,
 * else 2.0 when any question is marked `is_impossible`.
 */
version: "1.1" | "2.0" | "v1.1" | "v2.0" | null, };

/**
 * Options of loading a model that the model itself reads (the files and devices are the loader's).
 */
export type ModelLoadOptions = {
/**
 * Window in tokens, special tokens included. Default: `config.json`'s `max_position_embeddings`, else the
 * graph's position table, else 512.
 */
maxLength: number | null,
/**
 * Cap on query tokens. Default `maxLength / 2`.
 */
maxQueryTokens: number | null,
/**
 * The most wasm memory, in MiB, the instance may reach through this model's calls: each batch runs as many
 * of `batchSize` rows as fit beside what is already held (a Cloudflare Worker has 128 MB). A budget that
 * cannot hold the loaded model and one row of `maxLength` tokens is refused with `INVALID_ARGUMENT`. CPU
 * only: WebGPU batches hold their activations on the GPU. Default: none (each batch's activations within 16
 * MiB).
 */
memoryBudgetMiB: number | null, };

/**
 * Options of `CrossEncoder.rerank` and `rerankBatch`; an absent key keeps its default.
 */
export type RerankOptions = {
/**
 * Keep this many best documents; `null` keeps all. Default 10.
 */
topK: number | null,
/**
 * The most pairs per model call. Default 16 (Haystack's default); on the CPU long windows run fewer
 * (`memoryBudgetMiB`).
 */
batchSize: number,
/**
 * Sigmoid on one-logit models (default true); raw logits when false.
 */
scaleScore: boolean | null,
/**
 * sigmoid(logit × calibrationFactor). Default 1.
 */
calibrationFactor: number,
/**
 * Drop documents scoring below this (after scaling).
 */
scoreThreshold: number | null,
/**
 * Long documents: chunks scored per document, the best kept. Default 10; 1 = plain truncation.
 */
maxChunksPerDoc: number,
/**
 * Tokens shared by consecutive chunks. Default 0.
 */
chunkOverlap: number,
/**
 * Meta fields whose values precede the content (joined with "\n") in the text the model reads.
 */
embedMetaFields: Array<string>,
/**
 * Score only the first this many documents of each list — your first-stage order — and return the others
 * after them, unscored, in their order (each result then says `scored`). Default: all.
 */
maxDocuments: number | null,
/**
 * A time budget for the whole call, in milliseconds (an edge function's CPU limit, a page's patience). The
 * documents are scored in your order, batch by batch; no batch starts once the time is up or when the
 * longest batch so far would end past it, and the call returns every document: the scored ones ranked
 * first, the rest after them in your order, each result saying whether it was `scored`. On the CPU, inline
 * and with workers; a model on WebGPU runs the call whole.
 */
deadlineMs: number | null, };

/**
 * Options of `CrossEncoder.score` (raw scores of query–document pairs).
 */
export type ScoreOptions = {
/**
 * The most pairs per model call. Default 16; on the CPU long windows run fewer (`memoryBudgetMiB`).
 */
batchSize: number, };

/**
 * Options of `Embedder.embed`.
 */
export type EmbedOptions = {
/**
 * L2-normalise each vector (cosine similarity = dot product). Default: the model's (`normalize` at load),
 * else false.
 */
normalize: boolean | null,
/**
 * The most texts per model call. Default 32; on the CPU long windows run fewer (`memoryBudgetMiB`).
 */
batchSize: number, };
