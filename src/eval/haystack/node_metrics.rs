//! `EvaluationResult.calculate_metrics` / `wrong_examples` (farm-haystack 1.26 `schema.py`), on node tables.
//!
//! Documents: per query (multilabel id, in first-appearance order) the rows matching the relevance criterion
//! (`document_scope`, tightened by `answer_scope` when the scope is `answer` / `document_id_or_answer`) give
//! mrr, map, ndcg, precision, recall_multi_hit (matched gold labels / gold labels) and recall_single_hit;
//! a query whose labels have no document (no-answer labels, id "00" dropped) scores 1.0 on all, a query with
//! no relevant row 0.0. These are Haystack 1.26's formulas; `crate::metrics`' `haystack` profile implements
//! the older per-document ones (R = gold ids ∪ matching retrieved ids) and cannot be reused here.
//! Answers: per query the max of `exact_match` / `f1` / `sas` (or their `*_{answer_scope}_scope` columns) over
//! its rows, then the mean over queries, plus `num_examples_for_eval`.
//! `simulated_top_k_retriever` keeps documents of rank ≤ k; for answers it keeps the answers whose
//! `document_ids` all lie in the retriever's top k (the one node with document rows), then
//! `simulated_top_k_reader` keeps the k best ranks (`nsmallest`, ties by position) and re-ranks them.

use crate::python::numpy_argsort::pandas_sort_order;
use crate::python::numpy_sum::np_sum;
use super::table::{Cell, NodeTable};
use super::warnings::{NO_EVAL_MODE_COLUMN, NON_ANSWER_DOCUMENT_SCOPE};
use crate::error::{Error, Result};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};

/// `document_scope` of `calculate_metrics`: what makes a retrieved document relevant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "snake_case"))]
pub enum DocumentScope {
    DocumentId,
    Context,
    DocumentIdAndContext,
    DocumentIdOrContext,
    Answer,
    DocumentIdOrAnswer,
}

impl DocumentScope {
    pub const ALL: [DocumentScope; 6] = [
        DocumentScope::DocumentId,
        DocumentScope::Context,
        DocumentScope::DocumentIdAndContext,
        DocumentScope::DocumentIdOrContext,
        DocumentScope::Answer,
        DocumentScope::DocumentIdOrAnswer,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentScope::DocumentId => "document_id",
            DocumentScope::Context => "context",
            DocumentScope::DocumentIdAndContext => "document_id_and_context",
            DocumentScope::DocumentIdOrContext => "document_id_or_context",
            DocumentScope::Answer => "answer",
            DocumentScope::DocumentIdOrAnswer => "document_id_or_answer",
        }
    }
    pub fn parse(s: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|x| x.as_str() == s).ok_or_else(|| {
            Error::invalid("documentScope", format!("{s:?} is not one of document_id, context, document_id_and_context, document_id_or_context, answer, document_id_or_answer"))
        })
    }
}

/// `answer_scope` of `calculate_metrics`: where a predicted answer must come from to count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "snake_case"))]
pub enum AnswerScope {
    Any,
    Context,
    DocumentId,
    DocumentIdAndContext,
}

impl AnswerScope {
    pub const ALL: [AnswerScope; 4] = [AnswerScope::Any, AnswerScope::Context, AnswerScope::DocumentId, AnswerScope::DocumentIdAndContext];
    pub fn as_str(self) -> &'static str {
        match self {
            AnswerScope::Any => "any",
            AnswerScope::Context => "context",
            AnswerScope::DocumentId => "document_id",
            AnswerScope::DocumentIdAndContext => "document_id_and_context",
        }
    }
    pub fn parse(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|x| x.as_str() == s)
            .ok_or_else(|| Error::invalid("answerScope", format!("{s:?} is not one of any, context, document_id, document_id_and_context")))
    }
}

crate::deserialize_by_parse!(DocumentScope, DocumentScope::parse);
crate::deserialize_by_parse!(AnswerScope, AnswerScope::parse);
crate::deserialize_by_parse!(EvalMode, EvalMode::parse);

/// Options of `calculateMetrics` (Haystack's `calculate_metrics`; its defaults: no simulation,
/// `document_id_or_answer`, `any`, `integrated`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct HaystackMetricsOptions {
    /// Keep only the top k answers of each query (-1: all).
    pub simulated_top_k_reader: i64,
    /// Keep only the top k documents of each query, also for the reader's answer scopes (-1: all).
    pub simulated_top_k_retriever: i64,
    /// What makes a retrieved document relevant (default "document_id_or_answer").
    pub document_scope: DocumentScope,
    /// Where a predicted answer must come from to count (default "any").
    pub answer_scope: AnswerScope,
    /// Which rows to score: the pipeline's ("integrated", default) or the node's fed gold input ("isolated").
    pub eval_mode: EvalMode,
}

/// "integrated" (the node's input came from the pipeline) or "isolated" (it was fed the gold documents).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "snake_case"))]
pub enum EvalMode {
    Integrated,
    Isolated,
}

impl EvalMode {
    pub fn as_str(self) -> &'static str {
        match self {
            EvalMode::Integrated => "integrated",
            EvalMode::Isolated => "isolated",
        }
    }
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "integrated" => Ok(EvalMode::Integrated),
            "isolated" => Ok(EvalMode::Isolated),
            _ => Err(Error::invalid("evalMode", format!("{s:?} is not integrated or isolated"))),
        }
    }
}

impl Default for HaystackMetricsOptions {
    fn default() -> Self {
        HaystackMetricsOptions {
            simulated_top_k_reader: -1,
            simulated_top_k_retriever: -1,
            document_scope: DocumentScope::DocumentIdOrAnswer,
            answer_scope: AnswerScope::Any,
            eval_mode: EvalMode::Integrated,
        }
    }
}

/// Whether `_get_document_relevance_criterion` warns ([`NON_ANSWER_DOCUMENT_SCOPE`]): a non-default answer scope
/// that the document scope leaves out.
pub fn answer_scope_ignored_by_documents(document_scope: DocumentScope, answer_scope: AnswerScope) -> bool {
    answer_scope != AnswerScope::Any && !matches!(document_scope, DocumentScope::Answer | DocumentScope::DocumentIdOrAnswer)
}

/// `_get_document_relevance_criterion` with its warning.
fn relevance_criterion_warned(document_scope: DocumentScope, answer_scope: AnswerScope, warnings: &mut Vec<String>) -> &'static str {
    if answer_scope_ignored_by_documents(document_scope, answer_scope) {
        warnings.push(NON_ANSWER_DOCUMENT_SCOPE.to_string());
    }
    relevance_criterion(document_scope, answer_scope)
}

/// `_get_document_relevance_criterion`: the `*_match` column deciding relevance and the label-matching rule.
pub fn relevance_criterion(document_scope: DocumentScope, answer_scope: AnswerScope) -> &'static str {
    let answer_crit = match answer_scope {
        AnswerScope::Context => Some("context_and_answer"),
        AnswerScope::DocumentId => Some("document_id_and_answer"),
        AnswerScope::DocumentIdAndContext => Some("document_id_and_context_and_answer"),
        AnswerScope::Any => None,
    };
    match document_scope {
        DocumentScope::Answer | DocumentScope::DocumentIdOrAnswer => answer_crit.unwrap_or(document_scope.as_str()),
        other => other.as_str(),
    }
}

fn rows_where(t: &NodeTable, f: impl Fn(usize) -> bool) -> Vec<usize> {
    (0..t.rows.len()).filter(|&i| f(i)).collect()
}

fn str_ref<'a>(t: &'a NodeTable, r: usize, c: &str) -> &'a str {
    match t.get(r, c) {
        Cell::Str(s) | Cell::Bytes(s) => s,
        _ => "",
    }
}

/// Rows grouped by multilabel id, groups in first-appearance order.
fn groups(t: &NodeTable, rows: &[usize]) -> Vec<(String, Vec<usize>)> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut out: Vec<(String, Vec<usize>)> = Vec::new();
    for &r in rows {
        let id = str_ref(t, r, "multilabel_id");
        match index.get(id) {
            Some(&g) => out[g].1.push(r),
            None => {
                index.insert(id, out.len());
                out.push((id.to_string(), vec![r]));
            }
        }
    }
    out
}

fn str_cell(t: &NodeTable, r: usize, c: &str) -> String {
    match t.get(r, c) {
        Cell::Str(s) | Cell::Bytes(s) => s.clone(),
        Cell::None => String::new(),
        other => format!("{other:?}"),
    }
}

fn f64_list(t: &NodeTable, r: usize, c: &str) -> Vec<f64> {
    match t.get(r, c) {
        Cell::Lit(Value::Array(a)) => a.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect(),
        _ => Vec::new(),
    }
}

fn str_list(t: &NodeTable, r: usize, c: &str) -> Option<Vec<String>> {
    match t.get(r, c) {
        Cell::Lit(Value::Array(a)) => Some(a.iter().map(|x| x.as_str().map(str::to_string).unwrap_or_else(|| x.to_string())).collect()),
        _ => None,
    }
}

fn num(t: &NodeTable, r: usize, c: &str) -> f64 {
    t.get(r, c).as_f64().unwrap_or(f64::NAN)
}

/// `_filter_eval_mode`: the rows of `mode`, or all rows (with Haystack's warning) in a table without `eval_mode`.
fn eval_mode_rows(t: &NodeTable, mode: EvalMode, warnings: &mut Vec<String>) -> Vec<usize> {
    if t.col("eval_mode").is_none() {
        warnings.push(NO_EVAL_MODE_COLUMN.to_string());
        return (0..t.rows.len()).collect();
    }
    rows_where(t, |r| str_ref(t, r, "eval_mode") == mode.as_str())
}

/// Per-query metric values (`metrics_df`): query ids in order and one map per query.
pub type PerQuery = Vec<(String, Map<String, Value>)>;

/// `find_matched_label_idxs` of `_build_document_metrics_df`: the gold labels a document row matches under the
/// relevance criterion (ids: `gold_documents_id_match` 1.0; contexts: `gold_contexts_similarity` > 65, the
/// threshold Haystack hard-codes there; answers: `gold_answers_match` 1.0), ascending (Python iterates a set of
/// small ints in ascending order).
pub fn matched_label_idxs(t: &NodeTable, r: usize, criterion: &str) -> BTreeSet<usize> {
    let thr = 65.0;
    let id = set_of(f64_list(t, r, "gold_documents_id_match").iter().enumerate().filter(|(_, v)| **v == 1.0).map(|(i, _)| i));
    let ctx = set_of(f64_list(t, r, "gold_contexts_similarity").iter().enumerate().filter(|(_, v)| **v > thr).map(|(i, _)| i));
    let ans = set_of(f64_list(t, r, "gold_answers_match").iter().enumerate().filter(|(_, v)| **v == 1.0).map(|(i, _)| i));
    let and = |a: &BTreeSet<usize>, b: &BTreeSet<usize>| set_of(a.intersection(b).copied());
    let or = |a: &BTreeSet<usize>, b: &BTreeSet<usize>| set_of(a.union(b).copied());
    match criterion {
        "document_id" => id,
        "context" => ctx,
        "answer" => ans,
        "document_id_and_context" => and(&id, &ctx),
        "document_id_or_context" => or(&id, &ctx),
        "document_id_and_answer" => and(&id, &ans),
        "document_id_or_answer" => or(&id, &ans),
        "context_and_answer" => and(&ctx, &ans),
        _ => and(&and(&id, &ctx), &ans),
    }
}

/// The set of `items`, inserted one at a time: `collect()` into a `BTreeSet` sorts the items first, with a std
/// sort instantiated for each element type (about 4 KB of wasm each).
fn set_of<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// `_build_document_metrics_df`.
pub fn document_metrics_per_query(t: &NodeTable, rows: &[usize], simulated_top_k_retriever: i64, criterion: &str) -> PerQuery {
    let rows: Vec<usize> = rows
        .iter()
        .copied()
        .filter(|&r| str_ref(t, r, "type") == "document")
        .filter(|&r| simulated_top_k_retriever == -1 || num(t, r, "rank") <= simulated_top_k_retriever as f64)
        .collect();
    let matched_label_idxs = |r: usize| matched_label_idxs(t, r, criterion);
    let col = format!("{}_match", criterion.replace("document_id", "gold_id"));
    let mut out = Vec::new();
    for (qid, q) in groups(t, &rows) {
        let relevant: Vec<usize> = q.iter().copied().filter(|&r| num(t, r, &col) == 1.0).collect();
        let gold_col = if t.col("gold_custom_document_ids").is_some() { "gold_custom_document_ids" } else { "gold_document_ids" };
        let gold: Vec<String> = str_list(t, q[0], gold_col).unwrap_or_default().into_iter().filter(|g| g != "00").collect();
        let num_labels = gold.len();
        let matched = set_of(relevant.iter().flat_map(|&r| matched_label_idxs(r)));
        let num_matched = matched.len();
        let num_missing = num_labels as i64 - num_matched as i64;
        let rel_ids = set_of(relevant.iter().map(|&r| str_cell(t, r, "document_id")));
        let num_relevants = (rel_ids.len() as i64 + num_missing).max(0) as usize;
        let num_retrieved = q.len();
        let num_retrieved_relevants = relevant.len();
        let ranks: Vec<f64> = relevant.iter().map(|&r| num(t, r, "rank")).collect();
        let (rr, ap, rmh, rsh, prec, ndcg) = if num_labels == 0 {
            (1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
        } else if num_retrieved_relevants == 0 {
            (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        } else {
            // np.sum over a list: pairwise summation differs from left-to-right only past 8 elements
            let avp: Vec<f64> = ranks.iter().map(|&rank| ranks.iter().filter(|&&x| x <= rank).count() as f64 / rank).collect();
            let ap = np_sum(&avp) / num_relevants as f64;
            let rmh = num_matched as f64 / num_labels as f64;
            let prec = num_retrieved_relevants as f64 / num_retrieved as f64;
            let rr = 1.0 / ranks.iter().copied().fold(f64::INFINITY, f64::min);
            let dcg = np_sum(&ranks.iter().map(|&r| 1.0 / (r + 1.0).log2()).collect::<Vec<_>>());
            let idcg = np_sum(&(1..=num_relevants).map(|r| 1.0 / (r as f64 + 1.0).log2()).collect::<Vec<_>>());
            (rr, ap, rmh, 1.0, prec, dcg / idcg)
        };
        let mut m = Map::new();
        for (k, v) in [("recall_multi_hit", rmh), ("recall_single_hit", rsh), ("precision", prec), ("map", ap), ("mrr", rr), ("ndcg", ndcg)] {
            m.insert(k.into(), Value::from(v));
        }
        out.push((qid, m));
    }
    out
}

/// pandas' `Series.mean()` of float64 values (numpy's sum over the values, divided by the count; NaN skipped).
fn pd_mean(v: &[f64]) -> f64 {
    let vals: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
    if vals.is_empty() {
        return f64::NAN;
    }
    np_sum(&vals) / vals.len() as f64
}

/// The answer rows after the simulated top-k cuts (row indices into `t`, rank overrides).
fn simulated_answers(t: &NodeTable, answers: &[usize], o: &HaystackMetricsOptions, retriever: Option<&NodeTable>) -> Result<(Vec<usize>, HashMap<usize, f64>)> {
    let mut ranks = HashMap::new();
    if o.simulated_top_k_retriever != -1 {
        let docs = retriever.ok_or_else(|| Error::invalid("simulatedTopKRetriever", "cannot detect retriever dataframe (exactly one node must have document rows)"))?;
        let doc_rows = rows_where(docs, |r| str_ref(docs, r, "type") == "document" && num(docs, r, "rank") <= o.simulated_top_k_retriever as f64);
        let mut kept = Vec::new();
        let doc_groups: HashMap<String, Vec<usize>> = groups(docs, &doc_rows).into_iter().collect();
        for (qid, q) in groups(t, answers) {
            let top: Vec<String> = doc_groups.get(&qid).map(|g| g.iter().map(|&r| str_cell(docs, r, "document_id")).collect()).unwrap_or_default();
            let mut q: Vec<usize> = q
                .into_iter()
                .filter(|&r| str_list(t, r, "document_ids").unwrap_or_default().iter().all(|d| top.contains(d)))
                .collect();
            if o.simulated_top_k_reader != -1 {
                // DataFrame.nsmallest(k, "rank"): stable by rank, first occurrences kept on ties
                let mut sorted = q.clone();
                crate::stable_sort::stable_sort_by(&mut sorted, |a, b| num(t, *a, "rank").partial_cmp(&num(t, *b, "rank")).unwrap_or(std::cmp::Ordering::Equal));
                sorted.truncate(o.simulated_top_k_reader.max(0) as usize);
                q = sorted;
            }
            for (i, &r) in q.iter().enumerate() {
                ranks.insert(r, (i + 1) as f64);
            }
            kept.extend(q);
        }
        return Ok((kept, ranks));
    }
    if o.simulated_top_k_reader != -1 {
        return Ok((answers.iter().copied().filter(|&r| num(t, r, "rank") <= o.simulated_top_k_reader as f64).collect(), ranks));
    }
    Ok((answers.to_vec(), ranks))
}

/// `_build_answer_metrics_df`: per query (every query with answer rows, even those cut away) the max of each
/// available metric column over its kept rows (NaN when none is kept, as pandas gives).
pub fn answer_metrics_per_query(t: &NodeTable, answers: &[usize], o: &HaystackMetricsOptions, retriever: Option<&NodeTable>) -> Result<PerQuery> {
    let (kept, _) = simulated_answers(t, answers, o, retriever)?;
    let kept_groups: HashMap<String, Vec<usize>> = groups(t, &kept).into_iter().collect();
    let mut out = Vec::new();
    for (qid, _) in groups(t, answers) {
        let q: Vec<usize> = kept_groups.get(&qid).cloned().unwrap_or_default();
        let mut m = Map::new();
        for metric in ["exact_match", "f1", "sas"] {
            if t.col(metric).is_none() {
                continue;
            }
            let col = if o.answer_scope == AnswerScope::Any { metric.to_string() } else { format!("{metric}_{}_scope", o.answer_scope.as_str()) };
            let vals: Vec<f64> = q.iter().map(|&r| num(t, r, &col)).filter(|x| !x.is_nan()).collect();
            let v = if vals.is_empty() { f64::NAN } else { vals.iter().copied().fold(f64::NEG_INFINITY, f64::max) };
            m.insert(metric.into(), serde_json::Number::from_f64(v).map(Value::Number).unwrap_or(Value::Null));
        }
        out.push((qid, m));
    }
    Ok(out)
}

fn mean_of(per: &PerQuery, metric: &str) -> f64 {
    let vals: Vec<f64> = per.iter().map(|(_, m)| m.get(metric).and_then(Value::as_f64).unwrap_or(f64::NAN)).collect();
    pd_mean(&vals)
}

/// `_calculate_node_metrics` for one node: answer metrics (if it has answer rows), then document metrics; Haystack's
/// warnings go to `warnings` (the scope one for every node, whether it has document rows or not, as Haystack's).
pub fn node_metrics(t: &NodeTable, o: &HaystackMetricsOptions, retriever: Option<&NodeTable>, warnings: &mut Vec<String>) -> Result<Map<String, Value>> {
    let rows = eval_mode_rows(t, o.eval_mode, warnings);
    let mut out = Map::new();
    let answers: Vec<usize> = rows.iter().copied().filter(|&r| str_ref(t, r, "type") == "answer").collect();
    if !answers.is_empty() {
        let per = answer_metrics_per_query(t, &answers, o, retriever)?;
        let metrics: Vec<String> = per.first().map(|(_, m)| m.keys().cloned().collect()).unwrap_or_default();
        for metric in metrics {
            out.insert(metric.clone(), json_num(mean_of(&per, &metric)));
        }
        out.insert("num_examples_for_eval".into(), json_num(groups(t, &answers).len() as f64));
    }
    let crit = relevance_criterion_warned(o.document_scope, o.answer_scope, warnings);
    let docs: Vec<usize> = rows.iter().copied().filter(|&r| str_ref(t, r, "type") == "document").collect();
    if !docs.is_empty() {
        let per = document_metrics_per_query(t, &docs, o.simulated_top_k_retriever, crit);
        for metric in ["recall_multi_hit", "recall_single_hit", "precision", "map", "mrr", "ndcg"] {
            out.insert(metric.into(), json_num(mean_of(&per, metric)));
        }
    }
    Ok(out)
}

fn json_num(x: f64) -> Value {
    serde_json::Number::from_f64(x).map(Value::Number).unwrap_or(Value::Null)
}

/// Options of `wrong_examples`; JS gives the metrics options beside the others, in one object.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(try_from = "WrongExamplesFields")]
pub struct WrongExamplesOptions {
    pub n: usize,
    pub metrics: HaystackMetricsOptions,
    pub document_metric: String,
    pub answer_metric: String,
    pub document_metric_threshold: f64,
    pub answer_metric_threshold: f64,
}

impl Default for WrongExamplesOptions {
    fn default() -> Self {
        WrongExamplesOptions {
            n: 3,
            metrics: HaystackMetricsOptions::default(),
            document_metric: "recall_single_hit".into(),
            answer_metric: "f1".into(),
            document_metric_threshold: 0.5,
            answer_metric_threshold: 0.5,
        }
    }
}

/// Options of `wrongExamples` (Haystack's `wrong_examples`): `calculateMetrics`' options beside its own.
// [`WrongExamplesOptions`] as JS gives them: flat (serde's `flatten` cannot deny unknown keys).
#[derive(serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "WrongExamplesOptions", optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct WrongExamplesFields {
    /// How many queries (the worst first). Default 3.
    n: Option<usize>,
    /// The document metric that ranks queries (`recall_single_hit` — the default —, `recall_multi_hit`,
    /// `precision`, `map`, `mrr`, `ndcg`; another name throws, as Haystack raises).
    document_metric: Option<String>,
    /// The answer metric that ranks queries (`exact_match`, `f1` — the default —, `sas` once SAS is added; another
    /// name throws, as Haystack raises).
    answer_metric: Option<String>,
    /// Queries whose document metric is above this are not wrong. Default 0.5.
    document_metric_threshold: Option<f64>,
    /// Queries whose answer metric is above this are not wrong. Default 0.5.
    answer_metric_threshold: Option<f64>,
    /// As in `calculateMetrics`.
    simulated_top_k_reader: Option<i64>,
    /// As in `calculateMetrics`.
    simulated_top_k_retriever: Option<i64>,
    /// As in `calculateMetrics`.
    document_scope: Option<DocumentScope>,
    /// As in `calculateMetrics`.
    answer_scope: Option<AnswerScope>,
    /// As in `calculateMetrics`.
    eval_mode: Option<EvalMode>,
}

impl TryFrom<WrongExamplesFields> for WrongExamplesOptions {
    type Error = Error;
    fn try_from(f: WrongExamplesFields) -> Result<Self> {
        let d = WrongExamplesOptions::default();
        let m = d.metrics;
        Ok(WrongExamplesOptions {
            n: f.n.unwrap_or(d.n),
            metrics: HaystackMetricsOptions {
                simulated_top_k_reader: f.simulated_top_k_reader.unwrap_or(m.simulated_top_k_reader),
                simulated_top_k_retriever: f.simulated_top_k_retriever.unwrap_or(m.simulated_top_k_retriever),
                document_scope: f.document_scope.unwrap_or(m.document_scope),
                answer_scope: f.answer_scope.unwrap_or(m.answer_scope),
                eval_mode: f.eval_mode.unwrap_or(m.eval_mode),
            },
            document_metric: f.document_metric.unwrap_or(d.document_metric),
            answer_metric: f.answer_metric.unwrap_or(d.answer_metric),
            document_metric_threshold: f.document_metric_threshold.unwrap_or(d.document_metric_threshold),
            answer_metric_threshold: f.answer_metric_threshold.unwrap_or(d.answer_metric_threshold),
        })
    }
}

/// pandas `metrics_df.sort_values(by=[metric]).head(n)`: numpy's (unstable) quicksort order of the metric,
/// NaN last (see [`crate::python::numpy_argsort`]); a query without the metric counts as NaN.
fn worst(per: &PerQuery, metric: &str, n: usize) -> Vec<(String, Map<String, Value>)> {
    let values: Vec<f64> = per.iter().map(|(_, m)| m.get(metric).and_then(Value::as_f64).unwrap_or(f64::NAN)).collect();
    pandas_sort_order(&values).into_iter().take(n).map(|i| per[i].clone()).collect()
}

/// `df.drop(drop, axis=1).to_dict(orient="records")`, with an extra last column when `extra` is given.
fn records(t: &NodeTable, rows: &[usize], drop: &[&str], extra: Option<(&str, &dyn Fn(usize) -> Value)>) -> Vec<Value> {
    rows.iter()
        .map(|&r| {
            let mut m = Map::new();
            for (c, cell) in t.columns.iter().zip(&t.rows[r]) {
                if !drop.contains(&c.as_str()) {
                    m.insert(c.clone(), cell.to_json());
                }
            }
            if let Some((name, f)) = extra {
                m.insert(name.to_string(), f(r));
            }
            Value::Object(m)
        })
        .collect()
}

/// A metric the per-query table has: Haystack's `sort_values(by=[metric])` raises `KeyError` on any other (`sas`
/// without SAS columns, a misspelt name).
fn known_metric(per: &PerQuery, option: &str, metric: &str) -> Result<()> {
    let Some((_, first)) = per.first() else { return Ok(()) };
    if first.contains_key(metric) {
        return Ok(());
    }
    let valid: Vec<&str> = first.keys().map(String::as_str).collect();
    Err(Error::invalid(option, crate::options::unknown_name("metric", metric, &valid)))
}

/// `wrong_examples(node, ...)`: the worst queries (metric ≤ threshold) with their rows; Haystack's warnings go to
/// `warnings` (the scope one only for a node with document rows and no answer rows, as Haystack's).
pub fn wrong_examples(t: &NodeTable, o: &WrongExamplesOptions, retriever: Option<&NodeTable>, warnings: &mut Vec<String>) -> Result<Vec<Value>> {
    let rows = eval_mode_rows(t, o.metrics.eval_mode, warnings);
    let answers: Vec<usize> = rows.iter().copied().filter(|&r| str_ref(t, r, "type") == "answer").collect();
    let mut out = Vec::new();
    if !answers.is_empty() {
        let per = answer_metrics_per_query(t, &answers, &o.metrics, retriever)?;
        known_metric(&per, "answerMetric", &o.answer_metric)?;
        for (qid, metrics) in worst(&per, &o.answer_metric, o.n) {
            let Some(v) = metrics.get(&o.answer_metric) else { break };
            let v = v.as_f64().unwrap_or(f64::NAN);
            if v <= o.answer_metric_threshold {
                let q: Vec<usize> = answers.iter().copied().filter(|&r| str_cell(t, r, "multilabel_id") == qid).collect();
                let first = q[0];
                out.push(serde_json::json!({
                    "multilabel_id": t.get(first, "multilabel_id").to_json(),
                    "query": t.get(first, "query").to_json(),
                    "filters": t.get(first, "filters").to_json(),
                    "metrics": Value::Object(metrics.clone()),
                    "answers": records(t, &q, &["node", "query", "type", "gold_answers", "gold_offsets_in_documents", "gold_document_ids"], None),
                    "gold_answers": t.get(first, "gold_answers").to_json(),
                    "gold_document_ids": t.get(first, "gold_document_ids").to_json(),
                }));
            }
        }
        return Ok(out);
    }
    let docs: Vec<usize> = rows.iter().copied().filter(|&r| str_ref(t, r, "type") == "document").collect();
    if !docs.is_empty() {
        let crit = relevance_criterion_warned(o.metrics.document_scope, o.metrics.answer_scope, warnings);
        let per = document_metrics_per_query(t, &docs, o.metrics.simulated_top_k_retriever, crit);
        known_metric(&per, "documentMetric", &o.document_metric)?;
        // Haystack's `_build_document_metrics_df` adds `matched_label_idxs` to the very frame wrong_examples
        // then lists, unless simulated_top_k_retriever made it filter a copy first.
        let label_idxs = |r: usize| Value::Array(matched_label_idxs(t, r, crit).into_iter().map(Value::from).collect());
        let extra: Option<(&str, &dyn Fn(usize) -> Value)> =
            if o.metrics.simulated_top_k_retriever == -1 { Some(("matched_label_idxs", &label_idxs)) } else { None };
        for (qid, metrics) in worst(&per, &o.document_metric, o.n) {
            let Some(v) = metrics.get(&o.document_metric) else { break };
            if v.as_f64().unwrap_or(f64::NAN) <= o.document_metric_threshold {
                let q: Vec<usize> = docs.iter().copied().filter(|&r| str_cell(t, r, "multilabel_id") == qid).collect();
                let first = q[0];
                out.push(serde_json::json!({
                    "multilabel_id": t.get(first, "multilabel_id").to_json(),
                    "query": t.get(first, "query").to_json(),
                    "filters": t.get(first, "filters").to_json(),
                    "metrics": Value::Object(metrics.clone()),
                    "documents": records(t, &q, &["node", "query", "multilabel_id", "filters", "type", "gold_document_ids", "gold_contexts"], extra),
                    "gold_document_ids": t.get(first, "gold_document_ids").to_json(),
                }));
            }
        }
    }
    Ok(out)
}
