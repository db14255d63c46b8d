//! Qrels and runs in ranx's in-memory shape, as JSON: `{qid: {docno: grade}}` and `{qid: {docno: score}}`.
//! Errors name the path of the offending value (`qrels["q1"]["d3"]`).

use serde_json::Value;

use crate::error::{Error, Result};
use crate::metrics::inputs::qrels::{Qrels, QrelsBuilder};
use crate::metrics::inputs::run::{DuplicatePolicy, Run, RunBuilder};

/// `{qid: {docno: integer grade}}` → [`Qrels`].
pub fn qrels_from_json(value: &Value) -> Result<Qrels> {
    let queries = value.as_object().ok_or_else(|| Error::invalid("qrels", "expected an object {qid: {docno: grade}}"))?;
    let mut builder = QrelsBuilder::default();
    for (qid, docs) in queries {
        let docs = docs
            .as_object()
            .ok_or_else(|| Error::invalid(&format!("qrels[{qid:?}]"), "expected an object {docno: grade}"))?;
        for (docno, grade) in docs {
            let grade = grade
                .as_i64()
                .or_else(|| grade.as_f64().filter(|g| g.fract() == 0.0 && g.abs() < 9.0e15).map(|g| g as i64))
                .ok_or_else(|| Error::invalid(&format!("qrels[{qid:?}][{docno:?}]"), "grade must be an integer"))?;
            builder.add(qid, docno, grade)?;
        }
    }
    builder.build()
}

/// `{qid: {docno: finite score}}` → [`Run`] (no duplicates are possible in this shape).
pub fn run_from_json(value: &Value) -> Result<Run> {
    let queries = value.as_object().ok_or_else(|| Error::invalid("run", "expected an object {qid: {docno: score}}"))?;
    let mut builder = RunBuilder::with_capacity(0, 0, DuplicatePolicy::Error);
    for (qid, docs) in queries {
        let docs = docs
            .as_object()
            .ok_or_else(|| Error::invalid(&format!("run[{qid:?}]"), "expected an object {docno: score}"))?;
        for (docno, score) in docs {
            let score = score
                .as_f64()
                .ok_or_else(|| Error::invalid(&format!("run[{qid:?}][{docno:?}]"), "score must be a number"))?;
            builder.add(qid, docno, score)?;
        }
    }
    builder.build()
}
