//! Bindings for the retrieval metrics (wrapped by pkg/metrics/evaluate.ts).
//!
//! Inputs cross the boundary in bulk, never entry by entry: TREC text as bytes (parsed here), the ranx
//! shape flattened by the wrapper into columns (qids, entries per qid, docnos joined by U+0000, values as a
//! `Float64Array`), or the caller's own columns (`ColumnarQrels` / `ColumnarRun`: typed arrays copied as they
//! are, ids joined by U+0000 by the wrapper, or a `MetricsDocIdTable` built before and kept here). Parsed inputs
//! stay here as `MetricsQrels` / `MetricsRun` handles that can be evaluated many times. Results go back as columns
//! too (a `Float64Array` of per-query values), which the wrapper turns into `{aggregate, perQuery}`.

use super::convert::{js_type, read_options, to_json};
use super::errors::{js, JsResult};
use rerankit::metrics::comparison::{compare_runs, CompareOptions};
use rerankit::options::split_off;
use rerankit::metrics::evaluation::aggregate;
use rerankit::metrics::evaluation::query_inputs::query_inputs;
use rerankit::metrics::inputs::columns::{DocIdTable, QrelsColumns, RunColumns};
use rerankit::metrics::inputs::qrels::QrelsBuilder;
use rerankit::metrics::inputs::run::RunBuilder;
use rerankit::metrics::trec_cli::{run_trec_eval, TrecEvalArgs};
use rerankit::metrics::{
    evaluate, inputs::run::RunParseOptions, DuplicatePolicy, EvalOptions, EvaluateOptions, MeasureRequest, Qrels, Run, Value as MetricValue,
};
use rerankit::{Error, Result};
use js_sys::{Array, Float32Array, Float64Array, Int32Array, Object, Reflect, Uint32Array};
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// `numQueries` and `size` of a parsed input.
macro_rules! counts {
    ($t:ident) => {
        #[wasm_bindgen]
        impl $t {
            /// Number of queries.
            #[wasm_bindgen(getter, js_name = numQueries)]
            pub fn num_queries(&self) -> usize {
                self.inner.queries().len()
            }

            /// Number of entries (judgements, or retrieved documents).
            #[wasm_bindgen(getter)]
            pub fn size(&self) -> usize {
                self.inner.len()
            }
        }
    };
}

/// Parsed relevance judgements.
#[wasm_bindgen]
pub struct MetricsQrels {
    inner: Qrels,
}

/// A parsed run.
#[wasm_bindgen]
pub struct MetricsRun {
    inner: Run,
}

counts!(MetricsQrels);
counts!(MetricsRun);

impl MetricsQrels {
    /// The parsed qrels, for the other binding modules (comparison, fusion optimisation).
    pub(crate) fn qrels(&self) -> &Qrels {
        &self.inner
    }
}

impl MetricsRun {
    /// The parsed run, for the other binding modules.
    pub(crate) fn run(&self) -> &Run {
        &self.inner
    }
}

#[wasm_bindgen]
impl MetricsRun {
    /// The run's name (the tag column of its last line).
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.inner.name.clone()
    }
}

fn utf8<'a>(field: &str, bytes: &'a [u8]) -> Result<&'a str> {
    rerankit::metrics::formats::trec_text::utf8_text(field, bytes)
}

/// TREC qrels text (`qid iter docno grade`).
#[wasm_bindgen(js_name = metricsParseQrels)]
pub fn metrics_parse_qrels(text: &[u8]) -> JsResult<MetricsQrels> {
    js(utf8("qrels", text).and_then(Qrels::parse).map(|inner| MetricsQrels { inner }))
}

/// TREC run text (`qid Q0 docno rank score tag`).
#[wasm_bindgen(js_name = metricsParseRun)]
pub fn metrics_parse_run(text: &[u8], options: JsValue) -> JsResult<MetricsRun> {
    js((|| {
        let options: RunParseOptions = read_options("options", &options)?;
        Run::parse(utf8("run", text)?, options.duplicates()).map(|inner| MetricsRun { inner })
    })())
}

/// Walks the flattened ranx shape: `qids` and `docnos` joined by U+0000, `counts[i]` entries for query i.
fn for_each_column_entry(
    field: &str,
    qids: &str,
    counts: &[u32],
    docnos: &str,
    values: &[f64],
    mut add: impl FnMut(&str, &str, f64) -> Result<()>,
) -> Result<()> {
    let total: u64 = counts.iter().map(|&c| c as u64).sum();
    if total != values.len() as u64 {
        return Err(Error::internal(format!("{field}: {} values for {total} entries", values.len())));
    }
    let qid_list: Vec<&str> = if counts.is_empty() { Vec::new() } else { qids.split('\0').collect() };
    if qid_list.len() != counts.len() {
        return Err(Error::invalid(field, "query ids must not contain U+0000"));
    }
    let mut docno_iter = if total == 0 { None } else { Some(docnos.split('\0')) };
    let mut v = 0;
    for (qid, &count) in qid_list.iter().zip(counts) {
        for _ in 0..count {
            let docno = docno_iter.as_mut().and_then(|it| it.next()).ok_or_else(|| Error::invalid(field, "document ids must not contain U+0000"))?;
            add(qid, docno, values[v])?;
            v += 1;
        }
    }
    if docno_iter.and_then(|mut it| it.next()).is_some() {
        return Err(Error::invalid(field, "document ids must not contain U+0000"));
    }
    Ok(())
}

/// Qrels from the flattened ranx shape; grades must be integers.
#[wasm_bindgen(js_name = metricsQrelsFromColumns)]
pub fn metrics_qrels_from_columns(qids: &str, counts: &[u32], docnos: &str, grades: &[f64]) -> JsResult<MetricsQrels> {
    js((|| {
        let mut builder = QrelsBuilder::with_capacity(docnos.len(), grades.len());
        for_each_column_entry("qrels", qids, counts, docnos, grades, |qid, docno, grade| {
            if !grade.is_finite() || grade.fract() != 0.0 || grade.abs() > 9.0e15 {
                return Err(Error::invalid(&format!("qrels[{qid:?}][{docno:?}]"), format!("grade must be an integer, got {grade}")));
            }
            builder.add(qid, docno, grade as i64)
        })?;
        Ok(MetricsQrels { inner: builder.build()? })
    })())
}

/// A run from the flattened ranx shape; scores must be finite.
#[wasm_bindgen(js_name = metricsRunFromColumns)]
pub fn metrics_run_from_columns(
    qids: &str,
    counts: &[u32],
    docnos: &str,
    scores: &[f64],
    keep_first_duplicate: bool,
) -> JsResult<MetricsRun> {
    js((|| {
        let mut builder = RunBuilder::with_capacity(docnos.len(), scores.len(), DuplicatePolicy::keeping_first(keep_first_duplicate));
        for_each_column_entry("run", qids, counts, docnos, scores, |qid, docno, score| builder.add(qid, docno, score))?;
        Ok(MetricsRun { inner: builder.build()? })
    })())
}

#[wasm_bindgen(typescript_custom_section)]
const COLUMNAR_TYPES: &'static str = r#"
/**
 * Qrels as query-major columns (src/metrics/inputs/columns.rs): the in-memory form for large collections, where
 * `{qid: {docno: grade}}` would cost one JavaScript object per judgement. Query `i`'s judgements are the rows
 * `offsets[i]` to `offsets[i + 1] - 1`; row `r` judges document `docIds[docs[r]]` with grade `grades[r]`.
 */
export interface ColumnarQrels {
  /** One id per query (a query listed twice has its rows joined). */
  queryIds: string[];
  /** `queryIds.length + 1` row offsets: 0 first, never decreasing, the number of rows last. */
  offsets: Uint32Array;
  /**
   * The document-id table: ids, each once however many queries judge it (repeats are allowed), or a table built
   * before with `docIdTable(ids)` and shared with the run (then documents are compared by index, not by bytes).
   */
  docIds: string[] | import('../metrics/doc_id_table.js').DocIdTable;
  /** Per row, the index of its document in `docIds`; leave it out when `docIds` has one id per row. */
  docs?: Uint32Array;
  /** Per row, the grade (negative: in the pool but unjudged, as in TREC qrels). */
  grades: Int32Array;
}
/**
 * A run as query-major columns (src/metrics/inputs/columns.rs): the in-memory form for large runs, where
 * `{qid: {docno: score}}` would cost one JavaScript object per entry. Query `i`'s results are the rows
 * `offsets[i]` to `offsets[i + 1] - 1`, in the order the "input" tie policy keeps; row `r` retrieves document
 * `docIds[docs[r]]` with score `scores[r]`.
 */
export interface ColumnarRun {
  /** One id per query (a query listed twice has its rows joined). */
  queryIds: string[];
  /** `queryIds.length + 1` row offsets: 0 first, never decreasing, the number of rows last. */
  offsets: Uint32Array;
  /**
   * The document-id table: ids, each once however many queries retrieve it (repeats are allowed), or a table built
   * before with `docIdTable(ids)` and shared with the qrels (then documents are compared by index, not by bytes).
   */
  docIds: string[] | import('../metrics/doc_id_table.js').DocIdTable;
  /** Per row, the index of its document in `docIds`; leave it out when `docIds` has one id per row. */
  docs?: Uint32Array;
  /** Per row, the score: finite; a Float32Array's values are widened to doubles exactly. */
  scores: Float64Array | Float32Array;
}
"#;

/// `columns[key]`, read through a catching call (a getter or Proxy that throws is `field.key`'s error).
fn member(field: &str, columns: &JsValue, key: &str) -> Result<JsValue> {
    Reflect::get(columns, &JsValue::from_str(key))
        .map_err(|_| Error::invalid(&format!("{field}.{key}"), "reading it threw"))
}

/// What a value is, for messages: a typed array by its class (`an Int32Array`), else as [`js_type`] says.
fn described(value: &JsValue) -> String {
    if js_sys::ArrayBuffer::is_view(value) {
        let name = String::from(value.unchecked_ref::<Object>().constructor().name());
        return format!("{} {name}", if name.starts_with("Int") { "an" } else { "a" });
    }
    js_type(value).to_string()
}

/// `columns[key]` as the typed array `T` (`None` when absent and `optional`).
fn typed_array<T: JsCast>(field: &str, columns: &JsValue, key: &str, expected: &str, optional: bool) -> Result<Option<T>> {
    let value = member(field, columns, key)?;
    if optional && value.is_undefined() {
        return Ok(None);
    }
    value
        .dyn_into::<T>()
        .map(Some)
        .map_err(|other| Error::invalid(&format!("{field}.{key}"), format!("expected {expected}, got {}", described(&other))))
}

/// Ids the wrapper joined with U+0000 (`count` of them), split again.
fn split_ids<'a>(field: &str, key: &str, joined: &'a str, count: usize) -> Result<Vec<&'a str>> {
    let mut ids = Vec::with_capacity(count);
    if count > 0 {
        ids.extend(joined.split('\0'));
    }
    if ids.len() != count {
        return Err(Error::invalid(&format!("{field}.{key}"), "ids must not contain U+0000"));
    }
    Ok(ids)
}

/// A document-id table built once and kept here (`docIdTable` in pkg/metrics/doc_id_table.ts): qrels and runs whose
/// columns name it share it, and are judged by comparing indices in it.
#[wasm_bindgen]
pub struct MetricsDocIdTable {
    inner: DocIdTable,
}

#[wasm_bindgen]
impl MetricsDocIdTable {
    /// Number of ids.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.inner.len()
    }
}

/// A table of `count` ids (the wrapper's UTF-8 bytes, joined by a zero byte), each listed once; `field` names them
/// in errors.
#[wasm_bindgen(js_name = metricsDocIdTable)]
pub fn metrics_doc_id_table(field: &str, ids: Vec<u8>, count: usize) -> JsResult<MetricsDocIdTable> {
    js((|| Ok(MetricsDocIdTable { inner: joined_table(field, ids, count)?.distinct(field)? }))())
}

/// The wrapper's joined ids as a table.
fn joined_table(field: &str, ids: Vec<u8>, count: usize) -> Result<DocIdTable> {
    let ids = String::from_utf8(ids).map_err(|_| Error::invalid(field, "is not UTF-8 text"))?;
    DocIdTable::from_joined(field, ids, count)
}

/// The ids, offsets and docs of a columnar input; the values column is read by the caller.
struct ColumnarParts<'a> {
    query_ids: Vec<&'a str>,
    offsets: Vec<u32>,
    docs: Option<Vec<u32>>,
}

fn columnar_parts<'a>(field: &str, columns: &JsValue, query_ids: &'a str, num_queries: usize) -> Result<ColumnarParts<'a>> {
    let offsets = typed_array::<Uint32Array>(field, columns, "offsets", "a Uint32Array", false)?.expect("required");
    let docs = typed_array::<Uint32Array>(field, columns, "docs", "a Uint32Array (or nothing)", true)?;
    Ok(ColumnarParts {
        query_ids: split_ids(field, "queryIds", query_ids, num_queries)?,
        offsets: offsets.to_vec(),
        docs: docs.map(|d| d.to_vec()),
    })
}

/// Qrels from a `ColumnarQrels` whose ids the wrapper has checked and joined: `queryIds`, and `docIds` as UTF-8.
#[wasm_bindgen(js_name = metricsQrelsFromColumnar)]
pub fn metrics_qrels_from_columnar(
    field: &str,
    columns: JsValue,
    query_ids: &str,
    num_queries: usize,
    doc_ids: Vec<u8>,
    num_docs: usize,
) -> JsResult<MetricsQrels> {
    js((|| qrels_from_columnar(field, &columns, query_ids, num_queries, joined_table(&format!("{field}.docIds"), doc_ids, num_docs)?))())
}

/// Qrels from a `ColumnarQrels` whose `docIds` is a table built before (`queryIds` joined by the wrapper).
#[wasm_bindgen(js_name = metricsQrelsFromTableColumnar)]
pub fn metrics_qrels_from_table_columnar(
    field: &str,
    columns: JsValue,
    query_ids: &str,
    num_queries: usize,
    table: &MetricsDocIdTable,
) -> JsResult<MetricsQrels> {
    js(qrels_from_columnar(field, &columns, query_ids, num_queries, table.inner.clone()))
}

fn qrels_from_columnar(field: &str, columns: &JsValue, query_ids: &str, num_queries: usize, doc_ids: DocIdTable) -> Result<MetricsQrels> {
    let parts = columnar_parts(field, columns, query_ids, num_queries)?;
    let grades = typed_array::<Int32Array>(field, columns, "grades", "an Int32Array", false)?.expect("required");
    let grades: Vec<i64> = grades.to_vec().into_iter().map(i64::from).collect();
    let columns = QrelsColumns { query_ids: &parts.query_ids, offsets: &parts.offsets, doc_ids, docs: parts.docs.as_deref(), values: &grades };
    Ok(MetricsQrels { inner: Qrels::from_columns(field, columns)? })
}

/// A run from a `ColumnarRun` whose ids the wrapper has checked and joined: `queryIds`, and `docIds` as UTF-8.
#[wasm_bindgen(js_name = metricsRunFromColumnar)]
pub fn metrics_run_from_columnar(
    field: &str,
    columns: JsValue,
    query_ids: &str,
    num_queries: usize,
    doc_ids: Vec<u8>,
    num_docs: usize,
    keep_first_duplicate: bool,
) -> JsResult<MetricsRun> {
    js((|| {
        let doc_ids = joined_table(&format!("{field}.docIds"), doc_ids, num_docs)?;
        run_from_columnar(field, &columns, query_ids, num_queries, doc_ids, keep_first_duplicate)
    })())
}

/// A run from a `ColumnarRun` whose `docIds` is a table built before (`queryIds` joined by the wrapper).
#[wasm_bindgen(js_name = metricsRunFromTableColumnar)]
pub fn metrics_run_from_table_columnar(
    field: &str,
    columns: JsValue,
    query_ids: &str,
    num_queries: usize,
    table: &MetricsDocIdTable,
    keep_first_duplicate: bool,
) -> JsResult<MetricsRun> {
    js(run_from_columnar(field, &columns, query_ids, num_queries, table.inner.clone(), keep_first_duplicate))
}

fn run_from_columnar(field: &str, columns: &JsValue, query_ids: &str, num_queries: usize, doc_ids: DocIdTable, keep_first_duplicate: bool) -> Result<MetricsRun> {
    let parts = columnar_parts(field, columns, query_ids, num_queries)?;
    let scores = member(field, columns, "scores")?;
    let scores: Vec<f64> = if let Some(doubles) = scores.dyn_ref::<Float64Array>() {
        doubles.to_vec()
    } else if let Some(floats) = scores.dyn_ref::<Float32Array>() {
        floats.to_vec().into_iter().map(f64::from).collect()
    } else {
        return Err(Error::invalid(&format!("{field}.scores"), format!("expected a Float64Array or a Float32Array, got {}", described(&scores))));
    };
    let columns = RunColumns { query_ids: &parts.query_ids, offsets: &parts.offsets, doc_ids, docs: parts.docs.as_deref(), values: &scores };
    Ok(MetricsRun { inner: Run::from_columns(field, columns, DuplicatePolicy::keeping_first(keep_first_duplicate))? })
}

/// Measures and settings from the JS `measures` (a name, names, or nothing for the profile's) and `options`.
pub(crate) fn requests_and_options(measures: &JsValue, options: Value) -> Result<(Vec<MeasureRequest>, EvalOptions, EvaluateOptions)> {
    let options: EvaluateOptions = rerankit::options::from_json("options", options)?;
    let names: Vec<String> = match to_json("measures", measures)? {
        Value::Null => Vec::new(),
        Value::String(s) => vec![s],
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s),
                other => Err(Error::invalid(&format!("measures[{i}]"), format!("expected a measure name, got {other}"))),
            })
            .collect::<Result<_>>()?,
        other => return Err(Error::invalid("measures", format!("expected a name or an array of names, got {other}"))),
    };
    let (requests, eval) = options.resolve(&names)?;
    Ok((requests, eval, options))
}

fn set(target: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

fn strings<'a>(items: impl IntoIterator<Item = &'a str>) -> Array {
    items.into_iter().map(JsValue::from_str).collect()
}

#[wasm_bindgen(typescript_custom_section)]
const RESULT_COLUMNS: &'static str = r#"
/** `metricsEvaluate`'s answer, in columns (pkg/metrics/evaluate.ts shapes it). */
export interface EvaluationColumns {
  /** One key per requested measure, in request order. */
  keys: string[];
  /** The evaluated queries, in trec_eval's order. */
  qids: string[];
  /** Query-major values: query q's measure j at `q * keys.length + j`; NaN where the value is a text. */
  values: Float64Array;
  /** Per measure, the aggregate; NaN where it is a text. */
  aggregate: Float64Array;
  /** `[q, j, text]` for values that are texts (q = -1: the aggregate). */
  texts: [number, number, string][];
  /** The run's name (its sixth column in TREC text). */
  runName: string;
  /** Per measure, the standard deviation over queries (with `returnStd`). */
  std?: Float64Array;
}
/** `metricsCompare`'s answer for one measure (pkg/metrics/comparison.ts shapes it). */
export interface RunPairColumns {
  key: string;
  meanA: number;
  meanB: number;
  qids: string[];
  a: Float64Array;
  b: Float64Array;
  tTest: { statistic: number; pValue: number };
  permutation: { pValue: number; nPermutations: number; randomSeed: number };
}
"#;

/// Evaluates: `{keys, qids, values (Float64Array, query-major), aggregate (Float64Array), texts: [[q, m, text]],
/// runName, std (Float64Array, with options.returnStd)}`; q = -1 for an aggregate text.
#[wasm_bindgen(js_name = metricsEvaluate, unchecked_return_type = "EvaluationColumns")]
pub fn metrics_evaluate(qrels: &MetricsQrels, run: &MetricsRun, measures: JsValue, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let (requests, eval_options, options) = requests_and_options(&measures, to_json("options", &options)?)?;
        let qrels = options.qrels_with_intents(&qrels.inner)?;
        let evaluation = evaluate(&qrels, &run.inner, &requests, &eval_options)?;
        let m = requests.len();
        let mut values = vec![f64::NAN; evaluation.per_query.len() * m];
        let texts = Array::new();
        for (q, query) in evaluation.per_query.iter().enumerate() {
            for (j, value) in query.values.iter().enumerate() {
                match value {
                    MetricValue::Number(x) => values[q * m + j] = *x,
                    MetricValue::Text(t) => {
                        texts.push(&Array::of3(&JsValue::from(q as f64), &JsValue::from(j as f64), &JsValue::from_str(t)));
                    }
                }
            }
        }
        let mut aggregate = vec![f64::NAN; m];
        for (j, value) in evaluation.aggregate.iter().enumerate() {
            match value {
                MetricValue::Number(x) => aggregate[j] = *x,
                MetricValue::Text(t) => {
                    if !matches!(requests[j].metric, rerankit::metrics::Metric::Relstring { .. }) {
                        texts.push(&Array::of3(&JsValue::from(-1.0), &JsValue::from(j as f64), &JsValue::from_str(t)));
                    }
                }
            }
        }
        let out = Object::new();
        set(&out, "keys", &strings(requests.iter().map(|r| r.key.as_str())));
        set(&out, "qids", &strings(evaluation.per_query.iter().map(|q| q.qid.as_str())));
        set(&out, "values", &Float64Array::from(values.as_slice()));
        set(&out, "aggregate", &Float64Array::from(aggregate.as_slice()));
        set(&out, "texts", &texts);
        set(&out, "runName", &JsValue::from_str(&evaluation.run_name));
        if options.return_std == Some(true) {
            set(&out, "std", &Float64Array::from(evaluation.standard_deviations().as_slice()));
        }
        Ok(out.into())
    })())
}

#[wasm_bindgen(typescript_custom_section)]
const QUERY_INPUT_COLUMNS: &'static str = r#"
/**
 * `metricsQueryInputs`'s answer: each query `evaluate` scores with these options, its judgements (docno order)
 * and its ranking, as columns: query `i`'s judgements are the rows `judgedOffsets[i]` to `judgedOffsets[i + 1] - 1`,
 * its ranking the rows `rankedOffsets[i]` to `rankedOffsets[i + 1] - 1` (pkg/metrics/defined_measures.ts reads them).
 */
export interface QueryInputColumns {
  qids: string[];
  judgedOffsets: Uint32Array;
  judgedDocIds: string[];
  relevance: Float64Array;
  rankedOffsets: Uint32Array;
  rankedDocIds: string[];
  scores: Float64Array;
}
"#;

/// The inputs of the caller's own measures: each query `metricsEvaluate` would score with `options`, with its
/// judgements and its ranking (`rerankit::metrics::evaluation::query_inputs`).
#[wasm_bindgen(js_name = metricsQueryInputs, unchecked_return_type = "QueryInputColumns")]
pub fn metrics_query_inputs(qrels: &MetricsQrels, run: &MetricsRun, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let options: EvaluateOptions = read_options("options", &options)?;
        let queries = query_inputs(&qrels.inner, &run.inner, &options.settings()?)?;
        let (mut judged_offsets, mut ranked_offsets) = (vec![0u32], vec![0u32]);
        let (mut relevance, mut scores) = (Vec::new(), Vec::new());
        let (judged_ids, ranked_ids) = (Array::new(), Array::new());
        for query in &queries {
            for (docno, grade) in &query.judgements {
                judged_ids.push(&JsValue::from_str(docno));
                relevance.push(*grade as f64);
            }
            for (docno, score) in &query.ranking {
                ranked_ids.push(&JsValue::from_str(docno));
                scores.push(*score);
            }
            judged_offsets.push(relevance.len() as u32);
            ranked_offsets.push(scores.len() as u32);
        }
        let out = Object::new();
        set(&out, "qids", &strings(queries.iter().map(|q| q.qid.as_str())));
        set(&out, "judgedOffsets", &Uint32Array::from(judged_offsets.as_slice()));
        set(&out, "judgedDocIds", &judged_ids);
        set(&out, "relevance", &Float64Array::from(relevance.as_slice()));
        set(&out, "rankedOffsets", &Uint32Array::from(ranked_offsets.as_slice()));
        set(&out, "rankedDocIds", &ranked_ids);
        set(&out, "scores", &Float64Array::from(scores.as_slice()));
        Ok(out.into())
    })())
}

/// `[mean, standard deviation]` of a defined measure's per-query values, by the rules the named measures'
/// aggregates follow (trec_eval's mean, numpy's `std` for `returnStd`).
#[wasm_bindgen(js_name = metricsMeanAndStd)]
pub fn metrics_mean_and_std(values: &[f64]) -> Vec<f64> {
    vec![aggregate::mean(values), aggregate::standard_deviation(values)]
}

/// Compares two runs: `[{key, meanA, meanB, qids, a (Float64Array), b (Float64Array), tTest: {statistic, pValue},
/// permutation: {pValue, nPermutations, randomSeed}}]`; `options` are `evaluate`'s with `{nPermutations, randomSeed}`.
#[wasm_bindgen(js_name = metricsCompare, unchecked_return_type = "RunPairColumns[]")]
pub fn metrics_compare(
    qrels: &MetricsQrels,
    run_a: &MetricsRun,
    run_b: &MetricsRun,
    measures: JsValue,
    options: JsValue,
) -> JsResult<JsValue> {
    js((|| {
        let (compare, options) = split_off::<CompareOptions, EvaluateOptions>("options", to_json("options", &options)?)?;
        let permutation = compare.pair_settings()?;
        let (requests, eval_options, options) = requests_and_options(&measures, options)?;
        let qrels = options.qrels_with_intents(&qrels.inner)?;
        let comparisons = compare_runs(&qrels, &run_a.inner, &run_b.inner, &requests, &eval_options, permutation)?;
        let out = Array::new();
        for c in comparisons {
            let item = Object::new();
            set(&item, "key", &JsValue::from_str(&c.key));
            set(&item, "meanA", &JsValue::from(c.mean_a));
            set(&item, "meanB", &JsValue::from(c.mean_b));
            set(&item, "qids", &strings(c.per_query.iter().map(|(q, _, _)| q.as_str())));
            let a: Vec<f64> = c.per_query.iter().map(|(_, x, _)| *x).collect();
            let b: Vec<f64> = c.per_query.iter().map(|(_, _, y)| *y).collect();
            set(&item, "a", &Float64Array::from(a.as_slice()));
            set(&item, "b", &Float64Array::from(b.as_slice()));
            let t = Object::new();
            set(&t, "statistic", &JsValue::from(c.t_test.statistic));
            set(&t, "pValue", &JsValue::from(c.t_test.p_value));
            set(&item, "tTest", &t);
            let p = Object::new();
            set(&p, "pValue", &JsValue::from(c.permutation.p_value));
            set(&p, "nPermutations", &JsValue::from(c.permutation.n_permutations));
            set(&p, "randomSeed", &JsValue::from(c.permutation.random_seed as f64));
            set(&item, "permutation", &p);
            out.push(&item);
        }
        Ok(out.into())
    })())
}

fn argument_list(args: &JsValue) -> Result<Vec<String>> {
    match to_json("args", args)? {
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s),
                other => Err(Error::invalid(&format!("args[{i}]"), format!("expected a string, got {other}"))),
            })
            .collect(),
        _ => Err(Error::invalid("args", "expected an array of strings")),
    }
}

/// The files a trec_eval command line names, after checking every option: qrels, run, and the `--intents` file
/// when given.
#[wasm_bindgen(js_name = metricsTrecEvalFiles, unchecked_return_type = "[string, string, string?]")]
pub fn metrics_trec_eval_files(args: JsValue) -> JsResult<JsValue> {
    js((|| {
        let parsed = TrecEvalArgs::parse(&argument_list(&args)?)?;
        parsed.measure_requests()?;
        Ok(strings(parsed.files.iter().chain(parsed.intents.iter()).map(|s| s.as_str())).into())
    })())
}

/// trec_eval's report for a command line and the files' bytes (`intents`: the `--intents` file's).
#[wasm_bindgen(js_name = metricsTrecEval)]
pub fn metrics_trec_eval(args: JsValue, qrels: &[u8], run: &[u8], intents: Option<Vec<u8>>) -> JsResult<String> {
    js((|| {
        let parsed = TrecEvalArgs::parse(&argument_list(&args)?)?;
        let intents = intents.as_deref().map(|bytes| utf8("intents", bytes)).transpose()?;
        run_trec_eval(&parsed, utf8("qrels", qrels)?, utf8("run", run)?, intents)
    })())
}
