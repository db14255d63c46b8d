//! A bare measure name means what the caller's dialect means (issue #41): every name the three tools' tables
//! share is read in each dialect whose tool defines it and compared with that tool's own answer,
//! tests/fixtures/collection/dialects (tests/fixtures/gen/make_dialects.py: trec_eval 10.0 built from source,
//! ranx 0.3.21, ir_measures 0.4.3). trec_eval's output is compared as printed; ranx's and ir_measures' values
//! per query and mean to 1e-12; a name the tool refuses must be refused.

use std::path::PathBuf;

use rerankit::metrics::{
    colliding_names, evaluate, format_trec_eval, DuplicatePolicy, Dialect, EvaluateOptions, Evaluation, Qrels, Run,
};
use serde_json::Value as Json;

/// A file of the collection's fixtures (`tests/fixtures/collection/<folder>/<name>`).
pub(super) fn read(folder: &str, name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/collection").join(folder).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The dialects fixture's qrels and run, with the tools' values from `values_folder`.
pub(super) struct Fixture {
    pub(super) qrels: Qrels,
    pub(super) run: Run,
    pub(super) values: Json,
}

pub(super) fn fixture_with(values_folder: &str) -> Fixture {
    Fixture {
        qrels: Qrels::parse(&read("dialects", "qrels.trec")).unwrap(),
        run: Run::parse(&read("dialects", "run.trec"), DuplicatePolicy::Error).unwrap(),
        values: serde_json::from_str(&read(values_folder, "values.json")).unwrap(),
    }
}

fn fixture() -> Fixture {
    fixture_with("dialects")
}

fn evaluate_in(f: &Fixture, name: &str, dialect: Dialect) -> rerankit::Result<Evaluation> {
    let options = EvaluateOptions { dialect: Some(dialect), ..Default::default() };
    let (requests, eval) = options.resolve(&[name.to_string()])?;
    evaluate(&f.qrels, &f.run, &requests, &eval)
}

/// `name` in `dialect` against the tool's answer; `Err` describes a difference.
fn check(f: &Fixture, name: &str, dialect: Dialect) -> Result<(), String> {
    let expected = &f.values[dialect.as_str()][name];
    if expected.is_null() {
        return Err(format!("{} {name}: no value from the tool in the fixture", dialect.as_str()));
    }
    let ours = evaluate_in(f, name, dialect);
    if let Some(error) = expected["error"].as_str() {
        return match ours {
            Err(_) => Ok(()),
            Ok(_) => Err(format!("{} {name}: the tool refuses it ({error}), rerankit computes it", dialect.as_str())),
        };
    }
    let ours = ours.map_err(|e| format!("{} {name}: {}", dialect.as_str(), e.message))?;
    if let Some(stdout) = expected["stdout"].as_str() {
        let text = format_trec_eval(&ours, true);
        return if text == stdout {
            Ok(())
        } else {
            let first = text.lines().zip(stdout.lines()).find(|(a, b)| a != b);
            Err(format!("trec_eval {name}: output differs (first: {first:?}; {} vs {} lines)", text.lines().count(), stdout.lines().count()))
        };
    }
    let per_query = expected["per_query"].as_object().unwrap();
    if per_query.len() != ours.per_query.len() {
        return Err(format!("{} {name}: {} queries, the tool {}", dialect.as_str(), ours.per_query.len(), per_query.len()));
    }
    for (i, request) in ours.measures.iter().enumerate() {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12;
        for q in &ours.per_query {
            let theirs = per_query[&q.qid][&request.key].as_f64().ok_or(format!("{name}: no {} for {}", request.key, q.qid))?;
            if !close(q.values[i].as_f64(), theirs) {
                return Err(format!("{} {name} {} {}: ours {} tool {theirs}", dialect.as_str(), request.key, q.qid, q.values[i].as_f64()));
            }
        }
        let theirs = expected["mean"][&request.key].as_f64().unwrap();
        if !close(ours.aggregate[i].as_f64(), theirs) {
            return Err(format!("{} {name} mean: ours {} tool {theirs}", dialect.as_str(), ours.aggregate[i].as_f64()));
        }
    }
    Ok(())
}

/// The colliding names, enumerated from rerankit's own name tables; each in every dialect whose tool defines it.
#[test]
fn every_colliding_name_means_what_its_dialect_means() {
    let f = fixture();
    let names = colliding_names();
    eprintln!("colliding names: {names:?}");
    for expected in ["recall", "P", "Precision", "Recall", "rbp"] {
        assert!(names.contains(&expected), "{expected} collides: {names:?}");
    }
    let mut problems = Vec::new();
    let mut checked = 0;
    for name in &names {
        for dialect in Dialect::ALL.into_iter().filter(|d| d.names().contains(name)) {
            checked += 1;
            if let Err(problem) = check(&f, name, dialect) {
                problems.push(problem);
            }
        }
    }
    assert!(problems.is_empty(), "{} of {checked} differ:\n{}", problems.len(), problems.join("\n"));
}

/// Names rerankit computes where the tool's default refuses them: ir_measures' DefaultPipeline has no provider for
/// graded RBP, which rerankit computes as trectools does (checked against trectools in tests/metrics/ir_measures.rs).
const EXTENSIONS: &[(Dialect, &str)] = &[(Dialect::IrMeasures, "RBP")];

/// Every shared name the fixture holds, colliding in rerankit or not (`map`, `ndcg`, `bpref`, `MRR`…).
#[test]
fn every_shared_name_in_its_own_dialect() {
    let f = fixture();
    let mut problems = Vec::new();
    for dialect in Dialect::ALL {
        for name in f.values[dialect.as_str()].as_object().unwrap().keys() {
            if EXTENSIONS.contains(&(dialect, name.as_str())) {
                continue;
            }
            if let Err(problem) = check(&f, name, dialect) {
                problems.push(problem);
            }
        }
    }
    assert!(problems.is_empty(), "{} differ:\n{}", problems.len(), problems.join("\n"));
}

/// Without a dialect a colliding name keeps its trec_eval meaning (what rerankit always read it as).
#[test]
fn trec_eval_is_the_default() {
    let f = fixture();
    let (requests, _) = EvaluateOptions::default().resolve(&["recall".to_string()]).unwrap();
    assert_eq!(requests.len(), 9, "recall_5 … recall_1000");
    let ranx = evaluate_in(&f, "recall", Dialect::Ranx).unwrap();
    assert_eq!(ranx.measures.len(), 1);
    assert_eq!(ranx.measures[0].key, "recall");
}

/// `{qid: {docno: value}}` as TREC qrels or run text.
fn trec_text(nested: &Json, run: bool) -> String {
    let mut out = String::new();
    for (qid, docs) in nested.as_object().unwrap() {
        for (rank, (docno, value)) in docs.as_object().unwrap().iter().enumerate() {
            out.push_str(&match run {
                true => format!("{qid} Q0 {docno} {} {} r\n", rank + 1, value.as_f64().unwrap()),
                false => format!("{qid} 0 {docno} {}\n", value.as_i64().unwrap()),
            });
        }
    }
    out
}

/// Empty qrels, an empty run, or both, in each peer's dialect against what the peer answers
/// (collection/dialects/empty.json): ranx refuses all three; ir_measures answers with no queries (mean NaN, sums
/// 0) for empty qrels and scores each query of the qrels 0 for an empty run. ir_measures' NumQ counts 0 for a
/// query missing from the run where rerankit counts it (trec_eval's `-c`): not compared there.
#[test]
fn empty_inputs_as_the_peers_answer_them() {
    let expected: Json = serde_json::from_str(&read("dialects", "empty.json")).unwrap();
    let inputs = &expected["inputs"];
    let (qrels, run) = (trec_text(&inputs["qrels"], false), trec_text(&inputs["run"], true));
    let cases = [("empty qrels", "", run.as_str()), ("empty run", qrels.as_str(), ""), ("both empty", "", "")];
    for (case, qrels_text, run_text) in cases {
        let qrels = Qrels::parse(qrels_text).unwrap();
        let run = Run::parse(run_text, DuplicatePolicy::Error).unwrap();
        for (dialect, tool) in [(Dialect::Ranx, "ranx"), (Dialect::IrMeasures, "ir_measures")] {
            let names: Vec<String> =
                expected["measures"][tool].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect();
            let options = EvaluateOptions { dialect: Some(dialect), ..Default::default() };
            let (requests, eval) = options.resolve(&names).unwrap();
            let ours = evaluate(&qrels, &run, &requests, &eval);
            let theirs = &expected[tool][case];
            if theirs["error"].is_string() {
                let error = ours.expect_err(&format!("{tool} {case}: the peer refuses it"));
                assert_eq!(error.code, rerankit::ErrorCode::InvalidArgument, "{tool} {case}");
                assert!(error.message.starts_with(if qrels_text.is_empty() { "qrels:" } else { "run:" }), "{}", error.message);
                continue;
            }
            let ours = ours.unwrap_or_else(|e| panic!("{tool} {case}: {}", e.message));
            let per_query = theirs["per_query"].as_object().unwrap();
            assert_eq!(ours.per_query.len(), per_query.len(), "{tool} {case}: queries");
            for (i, request) in ours.measures.iter().enumerate() {
                if request.key == "NumQ" && run_text.is_empty() && !qrels_text.is_empty() {
                    continue;
                }
                for q in &ours.per_query {
                    assert_eq!(q.values[i].as_f64(), per_query[&q.qid][&request.key].as_f64().unwrap(), "{tool} {case} {}", request.key);
                }
                let mean = &theirs["mean"][&request.key];
                let ours_mean = ours.aggregate[i].as_f64();
                match mean.as_str() {
                    Some("nan") => assert!(ours_mean.is_nan(), "{tool} {case} {}: ours {ours_mean}, the peer's NaN", request.key),
                    _ => assert_eq!(ours_mean, mean.as_f64().unwrap(), "{tool} {case} {} mean", request.key),
                }
            }
        }
        // trec_eval's dialect keeps trec_eval's rule: empty qrels are refused, an empty run judges no query
        let (requests, eval) = EvaluateOptions::default().resolve(&["map".to_string()]).unwrap();
        match evaluate(&qrels, &run, &requests, &eval) {
            Err(e) => assert!(qrels_text.is_empty() && e.message.starts_with("qrels:"), "{case}: {}", e.message),
            Ok(e) => assert!(!qrels_text.is_empty() && e.per_query.is_empty(), "{case}"),
        }
    }
}
