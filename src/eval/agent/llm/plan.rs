//! The two pure steps around the caller's async judge: [`Plan::new`] builds every prompt (and settles what needs
//! no judge), [`Plan::apply`] folds the judge's answers back into the evaluation results.

use super::super::evaluate::{questions, response_for};
use super::super::input::Responses;
use super::answers::*;
use super::config::*;
use super::prompts::*;
use crate::python::text::python_format;
use crate::python::values as py;
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// The judge's answer to one prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeAnswer {
    /// The text, or the judge's own failure (an exception in the callback).
    pub text: std::result::Result<String, String>,
    /// Cost in US dollars, when the judge reports it.
    pub cost: Option<f64>,
}

/// What a prompt is for.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    AnswerCorrectness,
    AnswerRelevance,
    Custom(usize),
    /// (actual step index, `answer`|`context`, `recall`|`precision`)
    Retrieval(usize, &'static str, &'static str),
}

/// One call to the judge.
#[derive(Debug, Clone)]
pub struct JudgeRequest {
    /// Index of the output object (question) it is for.
    pub item: usize,
    pub purpose: Purpose,
    pub prompt: String,
    /// For retrieval precision: how many contexts the verdicts are about.
    pub contexts: usize,
}

pub(super) enum Slot {
    Ready(Map<String, Value>),
    Judge(usize),
}

/// The prompts for a set of evaluation results, and how to fold the answers back in.
pub struct Plan {
    pub requests: Vec<JudgeRequest>,
    /// Per item, in graphrag-eval's key order: answer relevance, answer correctness, custom evaluations.
    slots: Vec<Vec<(Purpose, Slot)>>,
    config: Config,
}


impl Plan {
    /// Builds every prompt for `results` (the output of [`super::evaluate`] on the same inputs).
    pub fn new(reference: &Value, responses: &Responses, results: &[Value], config: Config) -> Plan {
        let mut requests = vec![];
        let mut slots = vec![];
        let empty = Map::new();
        for (item, q) in questions(reference).into_iter().enumerate() {
            let mut item_slots = vec![];
            let Ok(question) = q.question else {
                slots.push(item_slots);
                continue;
            };
            if results.get(item).and_then(|r| r.get("question_text")).is_none() {
                slots.push(item_slots);
                continue;
            }
            let actual_v = response_for(question, responses);
            let actual = actual_v.as_object().unwrap_or(&empty);
            let question_text = question.get("question_text").map(py::str_of).unwrap_or_default();
            // retrieval steps (graphrag-eval evaluates these inside evaluate_steps, before the evaluators)
            if config.retrieval {
                let steps = actual.get("actual_steps").and_then(Value::as_array).cloned().unwrap_or_default();
                if let Some(reference_answer) = question.get("reference_answer") {
                    for (si, step) in steps.iter().enumerate() {
                        if step.get("name").and_then(Value::as_str) != Some("retrieval") {
                            continue;
                        }
                        let Some(output) = step.get("output") else { continue };
                        match contexts_texts(output) {
                            Ok(ctx) => {
                                let reference = py::str_of(reference_answer);
                                for (which, prompt) in [
                                    ("recall", retrieval_recall_prompt(&question_text, &reference, &ctx)),
                                    ("precision", retrieval_precision_prompt(&question_text, &reference, &ctx)),
                                ] {
                                    requests.push(JudgeRequest {
                                        item,
                                        purpose: Purpose::Retrieval(si, "answer", which),
                                        prompt,
                                        contexts: ctx.len(),
                                    });
                                }
                            }
                            Err(e) => {
                                let mut m = Map::new();
                                m.insert("retrieval_answer_recall_error".into(), Value::String(e.clone()));
                                m.insert("retrieval_answer_precision_error".into(), Value::String(e));
                                item_slots.push((Purpose::Retrieval(si, "answer", "error"), Slot::Ready(m)));
                            }
                        }
                    }
                }
                // matched reference retrieval steps: context recall/precision against the reference contexts
                if let Some(Value::Array(groups)) = results.get(item).and_then(|r| r.get("reference_steps")) {
                    for g in groups {
                        for rs in g.as_array().map(|v| v.as_slice()).unwrap_or(&[]) {
                            if rs.get("name").and_then(Value::as_str) != Some("retrieval") {
                                continue;
                            }
                            let Some(id) = rs.get("matches") else { continue };
                            let Some(si) = steps.iter().position(|s| s.get("id").is_some_and(|x| py::eq(x, id))) else { continue };
                            let Some(output) = steps[si].get("output") else { continue };
                            let both = contexts_texts(output).and_then(|ctx| {
                                contexts_texts(rs.get("output").unwrap_or(&Value::Null)).map(|r| (ctx, r.join("\n")))
                            });
                            match both {
                                Ok((ctx, reference)) => {
                                    for (which, prompt) in [
                                        ("recall", retrieval_recall_prompt(&question_text, &reference, &ctx)),
                                        ("precision", retrieval_precision_prompt(&question_text, &reference, &ctx)),
                                    ] {
                                        requests.push(JudgeRequest {
                                            item,
                                            purpose: Purpose::Retrieval(si, "context", which),
                                            prompt,
                                            contexts: ctx.len(),
                                        });
                                    }
                                }
                                Err(e) => {
                                    let mut m = Map::new();
                                    m.insert("retrieval_context_recall_error".into(), Value::String(e.clone()));
                                    m.insert("retrieval_context_precision_error".into(), Value::String(e));
                                    item_slots.push((Purpose::Retrieval(si, "context", "error"), Slot::Ready(m)));
                                }
                            }
                        }
                    }
                }
            }
            if config.answer_relevance {
                if let Some(answer) = actual.get("actual_answer") {
                    requests.push(JudgeRequest {
                        item,
                        purpose: Purpose::AnswerRelevance,
                        prompt: relevance_prompt(&question_text, &py::str_of(answer)),
                        contexts: 0,
                    });
                    item_slots.push((Purpose::AnswerRelevance, Slot::Judge(requests.len() - 1)));
                }
            }
            if config.answer_correctness {
                if let (Some(actual_answer), Some(reference_answer)) = (actual.get("actual_answer"), question.get("reference_answer")) {
                    let q = question.get("question_text").cloned().unwrap_or(Value::Null);
                    let blank = [&q, reference_answer, actual_answer].iter().find_map(|v| match v {
                        Value::String(s) if s.trim().is_empty() => {
                            Some("The question of the reference or the actual answer is a blank string!".to_string())
                        }
                        Value::String(_) => None,
                        other => Some(format!("'{}' object has no attribute 'strip'", py::type_name(other))),
                    });
                    let mut vals = Map::new();
                    vals.insert("question".into(), q.clone());
                    vals.insert("reference_answer".into(), reference_answer.clone());
                    vals.insert("actual_answer".into(), actual_answer.clone());
                    match blank.map(Err).unwrap_or_else(|| python_format(&config.correctness_prompt, &vals)) {
                        Ok(prompt) => {
                            requests.push(JudgeRequest { item, purpose: Purpose::AnswerCorrectness, prompt, contexts: 0 });
                            item_slots.push((Purpose::AnswerCorrectness, Slot::Judge(requests.len() - 1)));
                        }
                        Err(e) => {
                            let mut m = Map::new();
                            m.insert("answer_correctness_error".into(), Value::String(e));
                            item_slots.push((Purpose::AnswerCorrectness, Slot::Ready(m)));
                        }
                    }
                }
            }
            for (ci, custom) in config.custom.iter().enumerate() {
                match custom.prompt(question, actual) {
                    Ok(prompt) => {
                        requests.push(JudgeRequest { item, purpose: Purpose::Custom(ci), prompt, contexts: 0 });
                        item_slots.push((Purpose::Custom(ci), Slot::Judge(requests.len() - 1)));
                    }
                    Err(m) => item_slots.push((Purpose::Custom(ci), Slot::Ready(m))),
                }
            }
            slots.push(item_slots);
        }
        Plan { requests, slots, config }
    }

    /// The output names of the configuration's custom evaluations (for [`super::aggregate`]).
    pub fn custom_metric_names(&self) -> Vec<String> {
        self.config.custom_metric_names()
    }

    /// The prompts, in order (one judge call each).
    pub fn prompts(&self) -> Vec<String> {
        self.requests.iter().map(|r| r.prompt.clone()).collect()
    }

    /// Folds the judge's answers (one per request, in order) into `results`.
    pub fn apply(&self, results: &mut [Value], answers: &[JudgeAnswer]) -> Result<()> {
        if answers.len() != self.requests.len() {
            return Err(Error::invalid("answers", format!("expected {} judge answers, got {}", self.requests.len(), answers.len())));
        }
        // retrieval metrics on the actual steps
        let mut per_step: std::collections::BTreeMap<(usize, usize, &str), Map<String, Value>> = Default::default();
        for (req, ans) in self.requests.iter().zip(answers) {
            let Purpose::Retrieval(si, kind, which) = &req.purpose else { continue };
            let entry = per_step.entry((req.item, *si, kind)).or_default();
            let key = format!("retrieval_{kind}_{which}");
            let parsed = ans.text.clone().and_then(|t| {
                if *which == "recall" {
                    parse_retrieval_recall(&t)
                } else {
                    parse_retrieval_precision(&t, req.contexts)
                }
            });
            match parsed {
                Ok(x) => {
                    entry.insert(key.clone(), Value::from(x));
                }
                Err(e) => {
                    entry.insert(format!("{key}_error"), Value::String(e));
                }
            }
            if let Some(c) = ans.cost {
                entry.insert(format!("{key}_cost"), Value::from(c));
            }
        }
        for (item, slots) in self.slots.iter().enumerate() {
            for (p, s) in slots {
                if let (Purpose::Retrieval(si, kind, _), Slot::Ready(m)) = (p, s) {
                    per_step.entry((item, *si, kind)).or_default().extend(m.clone());
                }
            }
        }
        for ((item, si, kind), mut m) in per_step {
            let (r, p) = (m.get(&format!("retrieval_{kind}_recall")).and_then(Value::as_f64), m.get(&format!("retrieval_{kind}_precision")).and_then(Value::as_f64));
            if let (Some(r), Some(p)) = (r, p) {
                m.insert(format!("retrieval_{kind}_f1"), Value::from(f1(r, p)));
                let costs = (
                    m.get(&format!("retrieval_{kind}_recall_cost")).and_then(Value::as_f64),
                    m.get(&format!("retrieval_{kind}_precision_cost")).and_then(Value::as_f64),
                );
                if let (Some(a), Some(b)) = costs {
                    m.insert(format!("retrieval_{kind}_f1_cost"), Value::from(a + b));
                }
            }
            if let Some(Value::Object(step)) = results.get_mut(item).and_then(|r| r.get_mut("actual_steps")).and_then(|s| s.get_mut(si)) {
                step.extend(m);
            }
        }
        // evaluators, in graphrag-eval's order
        for (item, slots) in self.slots.iter().enumerate() {
            let Some(Value::Object(out)) = results.get_mut(item) else { continue };
            for (purpose, slot) in slots {
                let (m, cost) = match slot {
                    Slot::Ready(m) => (m.clone(), None),
                    Slot::Judge(i) => {
                        let ans = &answers[*i];
                        let m = match purpose {
                            Purpose::AnswerCorrectness => match &ans.text {
                                Ok(t) => parse_correctness(t),
                                Err(e) => [("answer_correctness_error".to_string(), Value::String(e.clone()))].into_iter().collect(),
                            },
                            Purpose::AnswerRelevance => match ans.text.clone().and_then(|t| parse_relevance(&t)) {
                                Ok(x) => [("answer_relevance".to_string(), Value::from(x))].into_iter().collect(),
                                Err(e) => [("answer_relevance_error".to_string(), Value::String(e))].into_iter().collect(),
                            },
                            Purpose::Custom(ci) => {
                                let c = &self.config.custom[*ci];
                                match &ans.text {
                                    Ok(t) => c.parse_answer(t),
                                    Err(e) => c.error(e),
                                }
                            }
                            Purpose::Retrieval(..) => continue,
                        };
                        (m, ans.cost)
                    }
                };
                if matches!(purpose, Purpose::Retrieval(..)) {
                    continue;
                }
                out.extend(m);
                if let Some(c) = cost {
                    let key = match purpose {
                        Purpose::AnswerCorrectness => "answer_correctness_cost".to_string(),
                        Purpose::AnswerRelevance => "answer_relevance_cost".to_string(),
                        Purpose::Custom(ci) => format!("{}_cost", self.config.custom[*ci].name),
                        Purpose::Retrieval(..) => continue,
                    };
                    out.insert(key, Value::from(c));
                }
            }
        }
        Ok(())
    }
}

