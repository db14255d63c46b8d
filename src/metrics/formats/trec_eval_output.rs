//! trec_eval's output: `measure` left-justified in 22 characters, TAB, qid or `all`, TAB, value (`%6.4f`,
//! counts as integers, `relstring` quoted); with `-q` every query's lines first, then the `all` lines; measures
//! in trec_eval's order.

use std::fmt::Write;

use crate::metrics::evaluation::Evaluation;
use crate::metrics::measures::metric::{Aggregation, Metric, ValueKind};
use crate::metrics::measures::Value;

/// One output line.
fn line(out: &mut String, name: &str, qid: &str, value: &str) {
    let _ = writeln!(out, "{name:<22}\t{qid}\t{value}");
}

/// `%6.4f`. A NaN (0/0 in trec_eval, e.g. `iprec_at_recall` with nothing retrieved) prints as glibc prints
/// the default NaN of x86-64 division, whose sign bit is set: `  -nan`.
fn fixed(x: f64) -> String {
    if x.is_nan() {
        format!("{:>6}", "-nan")
    } else {
        format!("{x:6.4}")
    }
}

/// A value as trec_eval prints it.
fn formatted(metric: &Metric, value: &Value, per_query: bool) -> String {
    match (metric.value_kind(), value) {
        (ValueKind::Count, Value::Number(x)) => format!("{}", x.trunc() as i64),
        (ValueKind::Real, Value::Number(x)) => fixed(*x),
        (_, Value::Text(text)) if per_query && matches!(metric, Metric::Relstring { .. }) => format!("'{text}'"),
        (_, Value::Text(text)) => text.clone(),
        (_, Value::Number(x)) => fixed(*x),
    }
}

/// Indices of `evaluation.measures` in trec_eval's printing order.
pub fn print_order(evaluation: &Evaluation) -> Vec<usize> {
    let mut order: Vec<usize> = (0..evaluation.measures.len()).collect();
    crate::stable_sort::stable_sort_by(&mut order, |&a, &b| {
        let (fa, pa) = evaluation.measures[a].metric.print_order();
        let (fb, pb) = evaluation.measures[b].metric.print_order();
        fa.cmp(&fb).then(pa.total_cmp(&pb))
    });
    order
}

/// The whole trec_eval report; `per_query` is trec_eval's `-q`.
pub fn format_trec_eval(evaluation: &Evaluation, per_query: bool) -> String {
    let order = print_order(evaluation);
    let mut out = String::new();
    if per_query {
        for query in &evaluation.per_query {
            for &i in &order {
                let metric = &evaluation.measures[i].metric;
                if metric.prints_per_query() {
                    line(&mut out, &metric.name(), &query.qid, &formatted(metric, &query.values[i], true));
                }
            }
        }
    }
    for &i in &order {
        let metric = &evaluation.measures[i].metric;
        if metric.aggregation() != Aggregation::None {
            line(&mut out, &metric.name(), "all", &formatted(metric, &evaluation.aggregate[i], false));
        }
    }
    out
}
