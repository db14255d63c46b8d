//! From labels and one node's predictions to its evaluation rows: Haystack 1.x's
//! `Pipeline._build_eval_dataframe` (farm-haystack 1.26), column for column.
//!
//! Per query (in order) and per field (`answers`, `answers_isolated`, then `documents`, `documents_isolated`):
//! a query with no predictions in a field that is present gets one placeholder row (an empty answer with
//! offsets 0–0, or a document with empty id and content), as Haystack does, so that it still counts.
//! With a `custom_document_id_field` ([`super::custom_ids`]) the rows also carry `gold_custom_document_ids` and
//! `custom_document_ids` (answers) / `custom_document_id` (documents), and `gold_documents_id_match` compares those.
//! Differences from Haystack, all where Haystack raises: a `max()` over no matching gold label (possible only
//! when labels without answers misalign `gold_answers` and `gold_contexts`) gives 0.0.

use super::context::calculate_context_similarity;
use super::custom_ids;
use super::squad::{compute_exact, get_tokens};
use super::table::{Cell, NodeTable};
use crate::python::json::dumps_sorted;
use crate::document::{Answer, Document, MultiLabel, Offset};
use crate::error::{Error, Result};
use serde_json::{json, Map, Value};

/// Context matching of Haystack's `pipeline.eval()`: when a retrieved document's text counts as the gold context.
#[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ContextMatchingOptions {
    /// Contexts shorter than this many characters never match (their similarity is 0). Default 100.
    pub min_length: usize,
    /// Raise a partial match at an end of the longer text (a passage split across two documents) to the score of
    /// the overlapping halves. Default true.
    pub boost_split_overlaps: bool,
    /// The similarity (0–100) at which contexts match. Default 65.
    pub threshold: f64,
}

impl Default for ContextMatchingOptions {
    fn default() -> Self {
        ContextMatchingOptions { min_length: 100, boost_split_overlaps: true, threshold: 65.0 }
    }
}

/// Options of `EvaluationResult.build` (`Pipeline.eval`'s `context_matching_*` and `custom_document_id_field`).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct EvaluationBuildOptions {
    /// How a gold context matches a document's or answer's context.
    #[cfg_attr(test, ts(type = "Partial<ContextMatchingOptions>"))]
    pub context_matching: ContextMatchingOptions,
    /// A meta field that identifies documents (e.g. `"name"`): labels and documents match by it, not by id.
    pub custom_document_id_field: Option<String>,
}

/// A predicted answer (Haystack `Answer`; `document_ids` may be absent).
#[derive(Debug, Clone, PartialEq)]
pub struct PredictedAnswer {
    pub answer: String,
    pub answer_type: String,
    pub score: Option<f64>,
    pub context: Option<Value>,
    pub offsets_in_document: Option<Vec<(i64, i64)>>,
    pub offsets_in_context: Option<Vec<(i64, i64)>>,
    pub document_ids: Option<Vec<String>>,
    pub meta: Map<String, Value>,
}

impl PredictedAnswer {
    /// Haystack's placeholder for a query without answers.
    pub fn no_answer() -> Self {
        PredictedAnswer {
            answer: String::new(),
            answer_type: "extractive".into(),
            score: None,
            context: None,
            offsets_in_document: Some(vec![(0, 0)]),
            offsets_in_context: Some(vec![(0, 0)]),
            document_ids: None,
            meta: Map::new(),
        }
    }

    /// From an `Answer` dict, read as `Answer.from_dict` reads it (`document_ids`, or the older `document_id`).
    /// Table answers (`TableCell` offsets) are not evaluated: Haystack's answer metrics compare character spans.
    pub fn from_dict(field: &str, v: &Value) -> Result<Self> {
        let a = Answer::from_dict(field, v)?;
        let spans = |k: &str, offsets: Option<Vec<Offset>>| -> Result<Option<Vec<(i64, i64)>>> {
            offsets
                .map(|o| {
                    o.into_iter()
                        .map(|x| match x {
                            Offset::Span(s) => Ok((s.start, s.end)),
                            Offset::Cell(_) => Err(Error::unsupported(format!("{field}.{k}: table answers (row/col offsets) cannot be evaluated"))),
                        })
                        .collect()
                })
                .transpose()
        };
        Ok(PredictedAnswer {
            offsets_in_document: spans("offsets_in_document", a.offsets_in_document)?,
            offsets_in_context: spans("offsets_in_context", a.offsets_in_context)?,
            answer: a.answer,
            answer_type: a.answer_type.as_str().to_string(),
            score: a.score,
            context: a.context,
            document_ids: a.document_ids,
            meta: a.meta,
        })
    }
}

/// One node's predictions per query (outer lists are aligned with the queries).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodePredictions {
    pub answers: Option<Vec<Vec<PredictedAnswer>>>,
    pub answers_isolated: Option<Vec<Vec<PredictedAnswer>>>,
    pub documents: Option<Vec<Vec<Document>>>,
    pub documents_isolated: Option<Vec<Vec<Document>>>,
}

fn spans_value(s: &Option<Vec<(i64, i64)>>) -> Cell {
    match s {
        None => Cell::None,
        Some(v) => Cell::Lit(Value::Array(v.iter().map(|(a, b)| json!({"start": a, "end": b})).collect())),
    }
}

fn strs(v: &[String]) -> Cell {
    Cell::Lit(Value::Array(v.iter().map(|s| Value::String(s.clone())).collect()))
}

fn nums(v: &[f64]) -> Cell {
    Cell::Lit(Value::Array(v.iter().map(|x| json!(x)).collect()))
}

/// Python's `max(iterable)` over numbers (0.0 where Python would raise on an empty one).
fn pymax(it: impl Iterator<Item = f64>) -> f64 {
    it.fold(None, |m: Option<f64>, x| Some(match m {
        Some(m) if m >= x => m,
        _ => x,
    }))
    .unwrap_or(0.0)
}

/// v2.0 F1 as a Python number: int for the 0 and empty-answer paths (as `compute_f1` returns them).
fn f1_value(gold: &str, pred: &str) -> Value {
    let (g, p) = (get_tokens(gold), get_tokens(pred));
    if g.is_empty() || p.is_empty() {
        return json!(i64::from(g == p));
    }
    let f = super::squad::compute_f1(gold, pred);
    if f == 0.0 {
        json!(0)
    } else {
        json!(f)
    }
}

struct Builder {
    columns: Vec<String>,
    rows: Vec<Vec<(String, Cell)>>,
}

impl Builder {
    fn see(&mut self, cols: &[&str]) {
        for c in cols {
            if !self.columns.iter().any(|x| x == c) {
                self.columns.push(c.to_string());
            }
        }
    }
}

const GENERAL: [&str; 6] = ["type", "node", "multilabel_id", "query", "filters", "eval_mode"];

/// `_build_eval_dataframe(queries, labels, node_name, node_output, custom_document_id_field)`.
pub fn build_node_table(queries: &[String], labels: &[MultiLabel], node: &str, output: &NodePredictions, cm: &ContextMatchingOptions, custom_document_id_field: Option<&str>) -> Result<NodeTable> {
    if queries.len() != labels.len() {
        return Err(Error::invalid("labels", format!("{} MultiLabels for {} queries", labels.len(), queries.len())));
    }
    for (name, len) in [
        ("answers", output.answers.as_ref().map(Vec::len)),
        ("answers_isolated", output.answers_isolated.as_ref().map(Vec::len)),
        ("documents", output.documents.as_ref().map(Vec::len)),
        ("documents_isolated", output.documents_isolated.as_ref().map(Vec::len)),
    ] {
        if let Some(n) = len {
            if n != queries.len() {
                return Err(Error::invalid(&format!("{node}.{name}"), format!("{n} lists for {} queries", queries.len())));
            }
        }
    }
    let mut b = Builder { columns: vec!["index".into()], rows: Vec::new() };
    for (i, (query, ml)) in queries.iter().zip(labels).enumerate() {
        let gold_answers = &ml.answers;
        let gold_ids = &ml.document_ids;
        let gold_contexts = &ml.contexts;
        let gold_offs_doc = Cell::Lit(json!(ml.offsets_in_documents));
        let gold_offs_ctx = Cell::Lit(json!(ml.offsets_in_contexts));
        let filters_bytes = dumps_sorted(ml.filters.as_ref().unwrap_or(&Value::Null));
        let gold_custom_ids = custom_document_id_field.map(|f| custom_ids::gold_ids(ml, f, i)).transpose()?;
        let general = |eval_mode: &str, answers: bool| -> Vec<(String, Cell)> {
            let filters = if answers && ml.filters.is_none() { Cell::None } else { Cell::Bytes(filters_bytes.clone()) };
            vec![
                ("type".into(), Cell::Str(if answers { "answer" } else { "document" }.into())),
                ("node".into(), Cell::Str(node.into())),
                ("multilabel_id".into(), Cell::Str(ml.id.clone())),
                ("query".into(), Cell::Str(query.clone())),
                ("filters".into(), filters),
                ("eval_mode".into(), Cell::Str(eval_mode.into())),
            ]
        };
        for (field, eval_mode) in [(&output.answers, "integrated"), (&output.answers_isolated, "isolated")] {
            let Some(all) = field else {
                b.see(&GENERAL);
                continue;
            };
            let mut answers = all[i].clone();
            if answers.is_empty() {
                answers.push(PredictedAnswer::no_answer());
            }
            let generative = answers.iter().any(|a| a.answer_type == "generative");
            let mut cols = vec!["answer", "document_ids", "offsets_in_document", "offsets_in_context", "context", "rank", "gold_answers", "gold_offsets_in_documents", "gold_offsets_in_contexts", "gold_document_ids", "gold_contexts"];
            if generative {
                cols.push("prompt");
            }
            cols.extend(["gold_answers_exact_match", "gold_answers_f1", "gold_contexts_similarity", "gold_documents_id_match"]);
            if gold_custom_ids.is_some() {
                cols.extend(["gold_custom_document_ids", "custom_document_ids"]);
            }
            cols.extend(["exact_match", "f1", "exact_match_context_scope", "f1_context_scope", "exact_match_document_id_scope", "f1_document_id_scope", "exact_match_document_id_and_context_scope", "f1_document_id_and_context_scope"]);
            cols.extend(GENERAL);
            b.see(&cols);
            for (rank, a) in answers.iter().enumerate() {
                let em: Vec<f64> = gold_answers.iter().map(|g| compute_exact(g, &a.answer)).collect();
                let f1v: Vec<Value> = gold_answers.iter().map(|g| f1_value(g, &a.answer)).collect();
                let f1: Vec<f64> = f1v.iter().map(|v| v.as_f64().unwrap_or(0.0)).collect();
                let ctx = a.context.as_ref().map(Answer::context_str).transpose()?;
                let sim: Vec<f64> = gold_contexts.iter().map(|g| calculate_context_similarity(g, ctx.as_deref().unwrap_or_default(), cm.min_length, cm.boost_split_overlaps)).collect();
                let custom = match (custom_document_id_field, &gold_custom_ids) {
                    (Some(f), Some(gold)) => Some((gold, custom_ids::answer_ids(&a.meta, f, &format!("nodes.{node}.{}[{i}][{rank}]", if eval_mode == "isolated" { "answers_isolated" } else { "answers" }))?)),
                    _ => None,
                };
                let idm: Vec<f64> = match &custom {
                    Some((gold, ids)) => custom_ids::answer_matches(gold, ids),
                    None => {
                        let ids = a.document_ids.clone().unwrap_or_default();
                        gold_ids.iter().map(|g| if ids.contains(g) { 1.0 } else { 0.0 }).collect()
                    }
                };
                let scoped = |vals: &[f64]| -> [f64; 4] { answer_scopes(vals, &sim, &idm, cm.threshold) };
                let [em_any, em_ctx, em_doc, em_both] = scoped(&em);
                let [f1_any, f1_ctx, f1_doc, f1_both] = scoped(&f1);
                let mut row: Vec<(String, Cell)> = vec![
                    ("answer".into(), Cell::Str(a.answer.clone())),
                    ("document_ids".into(), a.document_ids.as_ref().map(|d| strs(d)).unwrap_or(Cell::None)),
                    ("offsets_in_document".into(), spans_value(&a.offsets_in_document)),
                    ("offsets_in_context".into(), spans_value(&a.offsets_in_context)),
                    ("context".into(), ctx.clone().map(Cell::Str).unwrap_or(Cell::None)),
                    // float, as in Haystack's frame: pd.concat with the zero-row frames of the fields a node did not
                    // return (no `rank` column there) turns the int64 ranks into float64 ("1.0" in the CSV)
                    ("rank".into(), Cell::Float(rank as f64 + 1.0)),
                    ("gold_answers".into(), strs(gold_answers)),
                    ("gold_offsets_in_documents".into(), gold_offs_doc.clone()),
                    ("gold_offsets_in_contexts".into(), gold_offs_ctx.clone()),
                    ("gold_document_ids".into(), strs(gold_ids)),
                    ("gold_contexts".into(), strs(gold_contexts)),
                ];
                if generative {
                    row.push(("prompt".into(), a.meta.get("prompt").map(|p| Cell::from_json("prompt", p)).unwrap_or(Cell::None)));
                }
                row.extend([
                    ("gold_answers_exact_match".into(), Cell::Lit(Value::Array(em.iter().map(|x| json!(*x as i64)).collect()))),
                    ("gold_answers_f1".into(), Cell::Lit(Value::Array(f1v))),
                    ("gold_contexts_similarity".into(), nums(&sim)),
                    ("gold_documents_id_match".into(), nums(&idm)),
                ]);
                if let Some((gold, ids)) = custom {
                    row.push(("gold_custom_document_ids".into(), Cell::Lit(Value::Array(gold.clone()))));
                    row.push(("custom_document_ids".into(), Cell::Lit(Value::Array(ids))));
                }
                row.extend([
                    ("exact_match".into(), Cell::Float(em_any)),
                    ("f1".into(), Cell::Float(f1_any)),
                    ("exact_match_context_scope".into(), Cell::Float(em_ctx)),
                    ("f1_context_scope".into(), Cell::Float(f1_ctx)),
                    ("exact_match_document_id_scope".into(), Cell::Float(em_doc)),
                    ("f1_document_id_scope".into(), Cell::Float(f1_doc)),
                    ("exact_match_document_id_and_context_scope".into(), Cell::Float(em_both)),
                    ("f1_document_id_and_context_scope".into(), Cell::Float(f1_both)),
                ]);
                row.extend(general(eval_mode, true));
                b.rows.push(row);
            }
        }
        for (field, eval_mode) in [(&output.documents, "integrated"), (&output.documents_isolated, "isolated")] {
            let Some(all) = field else {
                b.see(&GENERAL);
                continue;
            };
            let mut docs = all[i].clone();
            if docs.is_empty() {
                let mut d = Document::new("");
                d.id = String::new();
                docs.push(d);
            }
            b.see(&GENERAL);
            b.see(&["context", "document_id", "gold_document_ids", "gold_answers", "gold_contexts", "gold_contexts_similarity", "gold_documents_id_match"]);
            if gold_custom_ids.is_some() {
                b.see(&["gold_custom_document_ids", "custom_document_id"]);
            }
            b.see(&["gold_answers_match", "gold_id_match", "answer_match", "gold_id_or_answer_match", "gold_id_and_answer_match", "context_match", "gold_id_or_context_match", "gold_id_and_context_match", "gold_id_and_context_and_answer_match", "context_and_answer_match", "rank"]);
            for (rank, d) in docs.iter().enumerate() {
                let content = d.content_str()?;
                let sim: Vec<f64> = gold_contexts.iter().map(|g| calculate_context_similarity(g, &content, cm.min_length, cm.boost_split_overlaps)).collect();
                let custom = match (custom_document_id_field, &gold_custom_ids) {
                    (Some(f), Some(gold)) => Some((gold, custom_ids::document_id(&d.meta, f))),
                    _ => None,
                };
                let idm: Vec<f64> = match &custom {
                    Some((gold, id)) => custom_ids::document_matches(gold, id),
                    None => gold_ids.iter().map(|g| if &d.id == g { 1.0 } else { 0.0 }).collect(),
                };
                let ansm: Vec<f64> = gold_answers.iter().map(|g| if !g.is_empty() && content.contains(g.as_str()) { 1.0 } else { 0.0 }).collect();
                let thr = |s: f64| if s > cm.threshold { 1.0 } else { 0.0 };
                let with0 = |v: &[f64]| v.iter().copied().chain([0.0]).collect::<Vec<f64>>();
                let (id0, sim0, ans0) = (with0(&idm), with0(&sim), with0(&ansm));
                let gold_id_match = pymax(id0.iter().copied());
                let answer_match = pymax(ans0.iter().copied());
                let context_match = if sim.iter().any(|&s| s > cm.threshold) { 1.0 } else { 0.0 };
                let id_and_answer = pymax(id0.iter().zip(&ans0).map(|(a, b)| a.min(*b)));
                let id_and_context = pymax(id0.iter().zip(&sim0).map(|(a, s)| a.min(thr(*s))));
                let n3 = id0.len().min(sim0.len()).min(ans0.len());
                let id_ctx_ans = pymax((0..n3).map(|k| id0[k].min(thr(sim0[k])).min(ans0[k])));
                let ctx_and_ans = if ansm.iter().any(|&x| x != 0.0) && sim.iter().any(|&x| x != 0.0) {
                    pymax(sim.iter().zip(&ansm).map(|(s, a)| thr(*s).min(*a)))
                } else {
                    0.0
                };
                let mut row = general(eval_mode, false);
                row.extend([
                    ("context".into(), Cell::Str(content.clone())),
                    ("document_id".into(), Cell::Str(d.id.clone())),
                    ("gold_document_ids".into(), strs(gold_ids)),
                    ("gold_answers".into(), strs(gold_answers)),
                    ("gold_contexts".into(), strs(gold_contexts)),
                    ("gold_contexts_similarity".into(), nums(&sim)),
                    ("gold_documents_id_match".into(), nums(&idm)),
                ]);
                if let Some((gold, id)) = custom {
                    row.push(("gold_custom_document_ids".into(), Cell::Lit(Value::Array(gold.clone()))));
                    row.push(("custom_document_id".into(), Cell::from_json("custom_document_id", &id)));
                }
                row.extend([
                    ("gold_answers_match".into(), nums(&ansm)),
                    ("gold_id_match".into(), Cell::Float(gold_id_match)),
                    ("answer_match".into(), Cell::Float(answer_match)),
                    ("gold_id_or_answer_match".into(), Cell::Float(gold_id_match.max(answer_match))),
                    ("gold_id_and_answer_match".into(), Cell::Float(id_and_answer)),
                    ("context_match".into(), Cell::Float(context_match)),
                    ("gold_id_or_context_match".into(), Cell::Float(gold_id_match.max(context_match))),
                    ("gold_id_and_context_match".into(), Cell::Float(id_and_context)),
                    ("gold_id_and_context_and_answer_match".into(), Cell::Float(id_ctx_ans)),
                    ("context_and_answer_match".into(), Cell::Float(ctx_and_ans)),
                    ("rank".into(), Cell::Float(rank as f64 + 1.0)), // float: see the answer rows
                ]);
                b.rows.push(row);
            }
        }
    }
    let Builder { columns, rows } = b;
    let mut table = NodeTable::new(columns.clone());
    for (i, row) in rows.into_iter().enumerate() {
        let mut cells = vec![Cell::None; columns.len()];
        cells[0] = Cell::Int(i as i64);
        for (k, v) in row {
            if let Some(c) = columns.iter().position(|x| *x == k) {
                cells[c] = v;
            }
        }
        table.rows.push(cells);
    }
    if table.rows.is_empty() {
        return Ok(NodeTable::default());
    }
    numbers_as_floats(&mut table, "custom_document_id");
    Ok(table)
}

/// A column of numbers (and missing cells: the answer rows beside document rows) is float64 in Haystack's frame,
/// as `rank` is (pandas' int64 meets the zero-row frames of the fields a node did not return); a column with text
/// among its numbers is `object` and keeps them.
fn numbers_as_floats(table: &mut NodeTable, column: &str) {
    let Some(c) = table.col(column) else { return };
    if table.rows.iter().all(|r| matches!(r[c], Cell::Int(_) | Cell::Float(_) | Cell::None)) {
        for r in &mut table.rows {
            if let Cell::Int(i) = r[c] {
                r[c] = Cell::Float(i as f64);
            }
        }
    }
}

/// The `any`, `context`, `document_id` and `document_id_and_context` scoped maxima of one answer's per-gold
/// values, with Haystack's `zip` (shortest list wins) and appended sentinels.
pub fn answer_scopes(vals: &[f64], sim: &[f64], idm: &[f64], threshold: f64) -> [f64; 4] {
    let v0: Vec<f64> = vals.iter().copied().chain([0.0]).collect();
    let s100: Vec<f64> = sim.iter().copied().chain([100.0]).collect();
    let i1: Vec<f64> = idm.iter().copied().chain([1.0]).collect();
    let any = pymax(v0.iter().copied());
    let ctx = pymax(v0.iter().zip(&s100).filter(|(_, s)| **s > threshold).map(|(v, _)| *v));
    let doc = pymax(v0.iter().zip(&i1).filter(|(_, d)| **d == 1.0).map(|(v, _)| *v));
    let n = v0.len().min(s100.len()).min(i1.len());
    let both = pymax((0..n).filter(|&k| s100[k] > threshold && i1[k] == 1.0).map(|k| v0[k]));
    [any, ctx, doc, both]
}
