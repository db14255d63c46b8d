//! trec_eval's `-J` and ir_measures' `judged_only=True` on qrels with negative grades (issue #41), against
//! tests/fixtures/judged_only (tests/fixtures/gen/make_judged_only.py: trec_eval 10.0, tag v10.0, built from
//! source; pytrec_eval-terrier 0.5.11; ir_measures 0.4.3). trec_eval keeps only the retrieved documents judged
//! with a grade ≥ 0: a negative grade ("in the pool but unjudged") is thrown out as an unjudged document is.

use std::path::PathBuf;

use rerankit::metrics::trec_cli::{run_trec_eval, TrecEvalArgs};
use rerankit::metrics::{evaluate, parse_measures, DuplicatePolicy, EvalOptions, Qrels, RankingOptions, Run, Value};
use serde_json::Value as Json;

fn read(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/judged_only").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The CLI with `args` on the fixture's qrels and run, line by line against trec_eval's output `expected`.
fn check(expected: &str, args: &[&str]) {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["qrels.trec", "run.trec"]);
    let parsed = TrecEvalArgs::parse(&all).unwrap();
    let ours = run_trec_eval(&parsed, &read("qrels.trec"), &read("run.trec"), None).unwrap();
    let theirs = read(expected);
    let differences: Vec<String> = ours
        .lines()
        .zip(theirs.lines())
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| format!("line {}: ours {a:?} trec_eval {b:?}", i + 1))
        .collect();
    assert!(differences.is_empty(), "{expected}: {} differences:\n{}", differences.len(), differences[..differences.len().min(40)].join("\n"));
    assert_eq!(ours.lines().count(), theirs.lines().count(), "{expected}: line count");
}

#[test]
fn all_trec_without_judged_only() {
    check("out.aq", &["-m", "all_trec", "-q"]);
}

#[test]
fn all_trec_judged_only() {
    check("out.aqJ", &["-m", "all_trec", "-q", "-J"]);
}

#[test]
fn all_trec_judged_only_max_5() {
    check("out.aqJM5", &["-m", "all_trec", "-q", "-J", "-M5"]);
}

#[test]
fn all_trec_judged_only_relevance_level_2() {
    check("out.aqJl2", &["-m", "all_trec", "-q", "-J", "-l2"]);
}

fn inputs() -> (Qrels, Run) {
    (Qrels::parse(&read("qrels.trec")).unwrap(), Run::parse(&read("run.trec"), DuplicatePolicy::Error).unwrap())
}

/// ir_measures' `judged_only=True` names, per query and aggregate, to 1e-12.
#[test]
fn ir_measures_judged_only() {
    let (qrels, run) = inputs();
    let reference: Json = serde_json::from_str(&read("ir_measures.json")).unwrap();
    let per_query = reference["per_query"].as_object().unwrap();
    let names: Vec<&str> = per_query.keys().map(String::as_str).collect();
    let requests = parse_measures(&names).unwrap();
    let evaluation = evaluate(&qrels, &run, &requests, &EvalOptions::default()).unwrap();
    let mut compared = 0;
    for (i, request) in requests.iter().enumerate() {
        let expected = per_query[&request.key].as_object().unwrap();
        assert_eq!(expected.len(), evaluation.per_query.len(), "{}: the same queries", request.key);
        for q in &evaluation.per_query {
            let Value::Number(ours) = q.values[i] else { panic!("{} is a number", request.key) };
            let theirs = expected[&q.qid].as_f64().unwrap();
            assert!((ours - theirs).abs() <= 1e-12, "{} {}: ours {ours} ir_measures {theirs}", request.key, q.qid);
            compared += 1;
        }
        let theirs = reference["aggregate"][&request.key].as_f64().unwrap();
        let ours = evaluation.aggregate[i].as_f64();
        assert!((ours - theirs).abs() <= 1e-12, "{} mean: ours {ours} ir_measures {theirs}", request.key);
    }
    assert!(compared >= 50, "{compared} values compared");
}

/// pytrec_eval's `judged_docs_only_flag=True` through the library option, per query, to 1e-12.
#[test]
fn pytrec_eval_judged_docs_only() {
    let (qrels, run) = inputs();
    let reference: Json = serde_json::from_str(&read("pytrec_eval.json")).unwrap();
    let reference = reference.as_object().unwrap();
    let names: Vec<&str> = reference.values().next().unwrap().as_object().unwrap().keys().map(String::as_str).collect();
    let requests = parse_measures(&names).unwrap();
    let options = EvalOptions { ranking: RankingOptions { judged_only: true, ..Default::default() }, ..Default::default() };
    let evaluation = evaluate(&qrels, &run, &requests, &options).unwrap();
    assert_eq!(evaluation.per_query.len(), reference.len());
    for q in &evaluation.per_query {
        for (i, request) in requests.iter().enumerate() {
            let Value::Number(ours) = q.values[i] else { panic!("{} is a number", request.key) };
            let theirs = reference[&q.qid][&request.key].as_f64().unwrap();
            assert!((ours - theirs).abs() <= 1e-12, "{} {}: ours {ours} pytrec_eval {theirs}", request.key, q.qid);
        }
    }
}
