//! The SciFact collection fixtures (tests/fixtures/collection): rerankit against pytrec_eval (trec_eval's own
//! code) on every all_trec measure, per query and aggregate, and against ranx where ranx defines a measure its
//! own way (`map@100`, `mrr@10`), to 1e-6. Skips while the reference files are not generated yet.

use std::path::{Path, PathBuf};

use rerankit::metrics::{
    evaluate, DuplicatePolicy, EvalOptions, MeasureRequest, Metric, QueryScope, Qrels, RecallRounding, Run, Value,
};
use serde_json::Value as Json;

pub(crate) fn collection() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/collection")
}

fn read_json(path: &Path) -> Option<Json> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(serde_json::from_str(&text).expect("valid JSON"))
}

fn number(v: &Value) -> f64 {
    match v {
        Value::Number(x) => *x,
        Value::Text(_) => f64::NAN,
    }
}

/// Requests for every numeric measure named in a pytrec_eval result that rerankit parses.
fn requests_for(names: &[&str]) -> Vec<MeasureRequest> {
    names
        .iter()
        .filter_map(|name| Metric::parse(name).ok().map(|metric| MeasureRequest { key: name.to_string(), metric }))
        .filter(|r| !matches!(r.metric, Metric::RunId | Metric::Relstring { .. }))
        .collect()
}

fn load(run_name: &str) -> Option<(Qrels, Run)> {
    let dir = collection();
    let qrels = std::fs::read_to_string(dir.join("qrels.test.trec")).ok()?;
    let run = std::fs::read_to_string(dir.join("runs").join(format!("{run_name}.trec"))).ok()?;
    Some((Qrels::parse(&qrels).unwrap(), Run::parse(&run, DuplicatePolicy::Error).unwrap()))
}

fn check_trec_eval(run_name: &str) {
    let Some(reference) = read_json(&collection().join("eval").join(format!("{run_name}.trec_eval.json"))) else {
        eprintln!("skipping {run_name}: no pytrec_eval reference yet");
        return;
    };
    let (qrels, run) = load(run_name).expect("run and qrels beside the reference");
    let per_query = reference["per_query"].as_object().unwrap();
    let first = per_query.values().next().unwrap().as_object().unwrap();
    let names: Vec<&str> = first.keys().map(|k| k.as_str()).collect();
    let requests = requests_for(&names);
    assert!(requests.len() > 50, "only {} measures recognised", requests.len());
    for (label, scope, all_key) in [("", QueryScope::Judged, "all"), (" -c", QueryScope::AllQrels, "all_c")] {
        // pytrec_eval embeds trec_eval 9.x, which rounds recall levels (iprec_at_recall, 11pt_avg) its own way.
        let options = EvalOptions { scope, recall_rounding: RecallRounding::TrecEval9, ..Default::default() };
        let e = evaluate(&qrels, &run, &requests, &options).unwrap();
        let mut mismatches = Vec::new();
        if scope == QueryScope::Judged {
            for q in &e.per_query {
                let theirs = &per_query[&q.qid];
                for (request, value) in requests.iter().zip(&q.values) {
                    let Some(expected) = theirs[&request.key].as_f64() else { continue };
                    let mut ours = number(value);
                    if matches!(request.metric, Metric::GmMap | Metric::GmBpref) {
                        ours = ours.max(0.00001).ln(); // trec_eval keeps gm_* per query as the log
                    }
                    if (ours - expected).abs() > 1e-6 {
                        mismatches.push(format!("{} {}: ours {ours} pytrec_eval {expected}", q.qid, request.key));
                    }
                }
            }
        }
        if let Some(all) = reference[all_key].as_object() {
            for (request, value) in requests.iter().zip(&e.aggregate) {
                let Some(expected) = all.get(&request.key).and_then(|v| v.as_f64()) else { continue };
                if (number(value) - expected).abs() > 1e-6 {
                    mismatches.push(format!("{all_key} {}: ours {} pytrec_eval {expected}", request.key, number(value)));
                }
            }
        }
        assert!(
            mismatches.is_empty(),
            "{run_name}{label}: {} mismatches:\n{}",
            mismatches.len(),
            mismatches.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
        );
    }
}

/// Queries whose run has two documents with the same score: ranx may order those its own way.
pub fn queries_with_ties(run: &Run) -> Vec<String> {
    run.queries()
        .iter()
        .filter(|q| {
            let mut scores: Vec<f64> = q.entries.iter().map(|e| e.score).collect();
            scores.sort_by(|a, b| a.total_cmp(b));
            scores.windows(2).any(|w| w[0] == w[1])
        })
        .map(|q| q.qid.clone())
        .collect()
}

fn check_ranx(run_name: &str) {
    let Some(reference) = read_json(&collection().join("eval").join(format!("{run_name}.ranx.json"))) else {
        eprintln!("skipping {run_name}: no ranx reference yet");
        return;
    };
    let (qrels, run) = load(run_name).expect("run and qrels beside the reference");
    let names: Vec<String> = reference["mean"].as_object().unwrap().keys().cloned().collect();
    let requests: Vec<MeasureRequest> =
        names.iter().map(|n| MeasureRequest { key: n.clone(), metric: Metric::parse(n).unwrap() }).collect();
    let e = evaluate(&qrels, &run, &requests, &EvalOptions::default()).unwrap();
    let tied = queries_with_ties(&run);
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for q in &e.per_query {
        if tied.contains(&q.qid) {
            continue;
        }
        for (request, value) in requests.iter().zip(&q.values) {
            let Some(expected) = reference["per_query"][&q.qid][&request.key].as_f64() else { continue };
            compared += 1;
            if (number(value) - expected).abs() > 1e-6 {
                mismatches.push(format!("{} {}: ours {} ranx {expected}", q.qid, request.key, number(value)));
            }
        }
    }
    if tied.is_empty() {
        for (request, value) in requests.iter().zip(&e.aggregate) {
            let expected = reference["mean"][&request.key].as_f64().unwrap();
            if (number(value) - expected).abs() > 1e-6 {
                mismatches.push(format!("mean {}: ours {} ranx {expected}", request.key, number(value)));
            }
        }
    }
    assert!(compared > 0, "{run_name}: nothing compared");
    assert!(mismatches.is_empty(), "{run_name} vs ranx: {} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

#[test]
fn bm25_matches_pytrec_eval() {
    check_trec_eval("bm25");
}

#[test]
fn second_matches_pytrec_eval() {
    check_trec_eval("second");
}

#[test]
fn ce_probe_matches_pytrec_eval() {
    check_trec_eval("ce_probe");
}

#[test]
fn bm25_matches_ranx() {
    check_ranx("bm25");
}

#[test]
fn second_matches_ranx() {
    check_ranx("second");
}

#[test]
fn ce_probe_matches_ranx() {
    check_ranx("ce_probe");
}
