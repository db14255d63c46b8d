//! `run_evaluation` without the LLM: one output object per reference question, in graphrag-eval's shape.

use super::input::Responses;
use super::steps;
use crate::python::values as py;
use serde_json::{Map, Value};

/// Keys copied from the response record when present.
const CARRIED: [&str; 4] = ["input_tokens", "output_tokens", "total_tokens", "elapsed_sec"];

/// A question of the reference dataset with its template, or the reason it cannot be read.
pub struct Question<'a> {
    pub template_id: Value,
    pub question: Result<&'a Map<String, Value>, String>,
}

/// The questions of a reference dataset in order. A malformed template or question becomes an `Err` item
/// (graphrag-eval would raise and stop the whole run).
pub fn questions(reference: &Value) -> Vec<Question<'_>> {
    let mut out = vec![];
    let Value::Array(templates) = reference else {
        return out;
    };
    for (ti, template) in templates.iter().enumerate() {
        let Value::Object(t) = template else {
            out.push(Question { template_id: Value::Null, question: Err(format!("template {ti} is not an object")) });
            continue;
        };
        let template_id = t.get("template_id").cloned().unwrap_or(Value::Null);
        if !t.contains_key("template_id") {
            out.push(Question { template_id, question: Err(format!("template {ti} has no 'template_id'")) });
            continue;
        }
        match t.get("questions") {
            Some(Value::Array(qs)) => {
                for (qi, q) in qs.iter().enumerate() {
                    let question = match q {
                        Value::Object(m) if !m.contains_key("id") => Err(format!("question {qi} of template {ti} has no 'id'")),
                        Value::Object(m) => Ok(m),
                        _ => Err(format!("question {qi} of template {ti} is not an object")),
                    };
                    out.push(Question { template_id: template_id.clone(), question });
                }
            }
            Some(Value::Null) | None => out.push(Question { template_id, question: Err(format!("template {ti} has no 'questions' list")) }),
            Some(_) => out.push(Question { template_id, question: Err(format!("template {ti}: 'questions' is not a list")) }),
        }
    }
    out
}

fn id_key(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The response record for a question, or a synthetic error record when there is none.
pub fn response_for(question: &Map<String, Value>, responses: &Responses) -> Value {
    let id = question.get("id").cloned().unwrap_or(Value::Null);
    match responses.by_id.get(&id_key(&id)) {
        Some(r) => r.clone(),
        None => {
            let mut msg = format!("no response for question id {}", py::str_of(&id));
            if !responses.problems.is_empty() {
                msg.push_str(&format!(" ({} unreadable response record(s): {})", responses.problems.len(), responses.problems.join("; ")));
            }
            let mut m = Map::new();
            m.insert("question_id".into(), id);
            m.insert("error".into(), Value::String(msg));
            m.insert("status".into(), Value::String("error".into()));
            Value::Object(m)
        }
    }
}

/// The output object for a question that could not be read at all.
pub fn broken_item(template_id: &Value, message: &str) -> Value {
    let mut m = Map::new();
    m.insert("template_id".into(), template_id.clone());
    m.insert("status".into(), Value::String("error".into()));
    m.insert("error".into(), Value::String(message.to_string()));
    Value::Object(m)
}

/// One question's non-LLM output: copied fields, status/error, `actual_steps`, and `steps_score` with the
/// `matches` annotations (or `steps_score_error` where graphrag-eval would have raised).
pub fn evaluate_question(template_id: &Value, question: &Map<String, Value>, actual: &Value) -> Value {
    let mut r = Map::new();
    let empty = Map::new();
    let actual_map = actual.as_object().unwrap_or(&empty);
    r.insert("template_id".into(), template_id.clone());
    r.insert(
        "question_id".into(),
        actual_map.get("question_id").or_else(|| question.get("id")).cloned().unwrap_or(Value::Null),
    );
    match question.get("question_text") {
        Some(t) => {
            r.insert("question_text".into(), t.clone());
        }
        None => {
            r.insert("status".into(), Value::String("error".into()));
            r.insert("error".into(), Value::String("the question has no 'question_text'".into()));
            return Value::Object(r);
        }
    }
    for key in CARRIED {
        if let Some(v) = actual_map.get(key) {
            r.insert(key.into(), v.clone());
        }
    }
    if let Some(a) = actual_map.get("actual_answer") {
        r.insert("actual_answer".into(), a.clone());
    }
    if let Some(a) = question.get("reference_answer") {
        r.insert("reference_answer".into(), a.clone());
    }
    if let Some(s) = question.get("reference_steps") {
        r.insert("reference_steps".into(), s.clone());
    }
    if let Some(e) = actual_map.get("error") {
        r.insert("status".into(), Value::String("error".into()));
        r.insert("error".into(), e.clone());
    } else {
        r.insert("status".into(), Value::String("success".into()));
    }
    let actual_steps = match actual_map.get("actual_steps") {
        None => Value::Array(vec![]),
        Some(v) => v.clone(),
    };
    r.insert("actual_steps".into(), actual_steps.clone());
    if let Some(reference_steps) = question.get("reference_steps") {
        let steps_list: Vec<Value> = match &actual_steps {
            Value::Array(a) => a.clone(),
            Value::Null => vec![],
            _ => {
                r.insert("steps_score_error".into(), Value::String("actual_steps must be a list".into()));
                return Value::Object(r);
            }
        };
        let mut annotated = reference_steps.clone();
        let outcome = steps::match_groups(reference_steps, &steps_list)
            .and_then(|m| steps::steps_score(&mut annotated, &steps_list, &m));
        match outcome {
            Ok(score) => {
                r.insert("reference_steps".into(), annotated);
                r.insert("steps_score".into(), Value::from(score));
            }
            Err(e) => {
                r.insert("steps_score_error".into(), Value::String(e));
            }
        }
    }
    Value::Object(r)
}

/// `run_evaluation(reference, responses)` without LLM metrics.
pub fn evaluate(reference: &Value, responses: &Responses) -> Vec<Value> {
    questions(reference)
        .into_iter()
        .map(|q| match q.question {
            Ok(question) => evaluate_question(&q.template_id, question, &response_for(question, responses)),
            Err(e) => broken_item(&q.template_id, &e),
        })
        .collect()
}
