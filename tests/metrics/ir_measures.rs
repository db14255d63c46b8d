//! ir_measures names against ir_measures itself (tests/fixtures/collection/ir_measures, made by
//! tests/fixtures/gen/make_ir_measures.py with ir_measures' own providers): every SciFact run against the binary
//! and the seeded graded qrels, and the synthetic intent-aware collection, per query and mean, to 1e-9.
//!
//! ir_measures averages over every qrels query (a query missing from the run counts 0): rerankit's `-c` scope.
//! gdeval prints its values with 5 decimals, so ERR and exp-log2 nDCG are compared as gdeval rounds them. The
//! judged, msmarco, trectools and pyndeval providers order tied scores by docno ascending (trec_eval: descending),
//! so their values on queries with tied scores, and their means over runs with any, are not compared. `NumQ`
//! and `NumRel` under `-c` count a query missing from the run (trec_eval's rule); ir_measures gives it 0, so
//! they are not compared on queries missing from the run.

use std::path::PathBuf;

use rerankit::metrics::{
    evaluate, parse_measures, DuplicatePolicy, EvalOptions, IntentQrels, QueryScope, Qrels, RankingOptions, Run, Value,
};
use serde_json::Value as Json;

use super::collection::queries_with_ties;

fn collection() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/collection")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(collection().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Providers that break score ties by ascending docno.
const TIE_ORDER_DIFFERS: &[&str] = &["judged", "msmarco", "trectools", "pyndeval"];

/// What one fixture compared: values, and the largest difference on measures compared to 1e-9.
#[derive(Default)]
struct Tally {
    values: usize,
    max_difference: f64,
    mismatches: Vec<String>,
}

impl Tally {
    fn compare(&mut self, what: String, ours: f64, theirs: f64, provider: &str) {
        self.values += 1;
        let difference = (ours - theirs).abs();
        let ok = if provider == "gdeval" {
            // gdeval prints %.5f: our value rounded the same way must be theirs
            difference <= 5e-6 + 1e-12
        } else {
            self.max_difference = self.max_difference.max(difference);
            difference <= 1e-9
        };
        if !ok {
            self.mismatches.push(format!("{what}: ours {ours} ir_measures {theirs}"));
        }
    }
}

fn check(fixture: &str, qrels: &Qrels, run: &Run) -> Tally {
    let reference: Json = serde_json::from_str(&read(&format!("ir_measures/{fixture}.json"))).unwrap();
    let measures = reference["measures"].as_object().unwrap();
    let names: Vec<&str> = measures.keys().map(|k| k.as_str()).collect();
    let requests = parse_measures(&names).unwrap();
    assert_eq!(requests.len(), names.len());
    let options = EvalOptions { scope: QueryScope::AllQrels, ..Default::default() };
    let evaluation = evaluate(qrels, run, &requests, &options).unwrap();
    let tied = queries_with_ties(run);
    let missing: Vec<&str> = qrels.queries().iter().map(|q| q.qid.as_str()).filter(|qid| run.query(qid).is_none()).collect();
    let mut tally = Tally::default();
    for (i, request) in requests.iter().enumerate() {
        let expected = &measures[&request.key];
        let provider = expected["provider"].as_str().unwrap();
        let tie_sensitive = TIE_ORDER_DIFFERS.contains(&provider);
        let counts_run_queries = matches!(request.key.as_str(), "NumQ" | "NumRel");
        let per_query = expected["per_query"].as_object().unwrap();
        assert_eq!(per_query.len(), evaluation.per_query.len(), "{fixture} {}: the same queries", request.key);
        for q in &evaluation.per_query {
            if (tie_sensitive && tied.contains(&q.qid)) || (counts_run_queries && missing.contains(&q.qid.as_str())) {
                continue;
            }
            let theirs = per_query[&q.qid].as_f64().unwrap();
            let Value::Number(ours) = q.values[i] else { panic!("{} is a number", request.key) };
            tally.compare(format!("{fixture} {} {}", q.qid, request.key), ours, theirs, provider);
        }
        let ties_matter = tie_sensitive && !tied.is_empty();
        let counts_differ = counts_run_queries && !missing.is_empty();
        let mean_comparable = !ties_matter && !counts_differ;
        if mean_comparable {
            let theirs = expected["mean"].as_f64().unwrap();
            tally.compare(format!("{fixture} mean {}", request.key), evaluation.aggregate[i].as_f64(), theirs, provider);
        }
    }
    tally
}

fn scifact(qrels_label: &str, run_name: &str) {
    let qrels_path = if qrels_label == "binary" { "qrels.test.trec" } else { "ir_measures/qrels.graded.trec" };
    let qrels = Qrels::parse(&read(qrels_path)).unwrap();
    let run = Run::parse(&read(&format!("runs/{run_name}.trec")), DuplicatePolicy::Error).unwrap();
    let tally = check(&format!("{qrels_label}.{run_name}"), &qrels, &run);
    eprintln!("{qrels_label}.{run_name}: {} values compared, max difference {:e}", tally.values, tally.max_difference);
    assert!(tally.values > 10_000, "only {} values compared", tally.values);
    assert!(tally.mismatches.is_empty(), "{} mismatches:\n{}", tally.mismatches.len(), tally.mismatches[..tally.mismatches.len().min(30)].join("\n"));
}

#[test]
fn binary_bm25() {
    scifact("binary", "bm25");
}

#[test]
fn binary_bm25_partial() {
    scifact("binary", "bm25_partial");
}

#[test]
fn binary_second() {
    scifact("binary", "second");
}

#[test]
fn binary_ce_probe() {
    scifact("binary", "ce_probe");
}

#[test]
fn graded_bm25() {
    scifact("graded", "bm25");
}

#[test]
fn graded_bm25_partial() {
    scifact("graded", "bm25_partial");
}

#[test]
fn graded_second() {
    scifact("graded", "second");
}

#[test]
fn graded_ce_probe() {
    scifact("graded", "ce_probe");
}

#[test]
fn intent_aware_collection() {
    let intents = IntentQrels::parse(&read("ir_measures/intents/intents.trec")).unwrap();
    let qrels = Qrels::parse(&read("ir_measures/intents/qrels.trec")).unwrap().with_intents(intents);
    let run = Run::parse(&read("ir_measures/intents/run.trec"), DuplicatePolicy::Error).unwrap();
    let tally = check("intents.run", &qrels, &run);
    eprintln!("intents.run: {} values compared, max difference {:e}", tally.values, tally.max_difference);
    assert!(tally.values >= 25 * 41, "only {} values compared", tally.values);
    assert!(tally.mismatches.is_empty(), "{} mismatches:\n{}", tally.mismatches.len(), tally.mismatches.join("\n"));
    // without rel=, the evaluation's relevance level applies
    let at_level_2 = EvalOptions { ranking: RankingOptions { relevance_level: 2, ..Default::default() }, ..Default::default() };
    let names = ["alpha_nDCG@10", "alpha_nDCG(rel=2)@10", "ERR_IA@10", "ERR_IA(rel=2)@10"];
    let e = evaluate(&qrels, &run, &parse_measures(&names).unwrap(), &at_level_2).unwrap();
    for q in &e.per_query {
        assert_eq!(q.values[0], q.values[1], "{}", q.qid);
        assert_eq!(q.values[2], q.values[3], "{}", q.qid);
    }
}

#[test]
fn intent_aware_measures_need_intents() {
    let qrels = Qrels::parse(&read("ir_measures/intents/qrels.trec")).unwrap();
    let run = Run::parse(&read("ir_measures/intents/run.trec"), DuplicatePolicy::Error).unwrap();
    let error = evaluate(&qrels, &run, &parse_measures(&["alpha_nDCG@10"]).unwrap(), &EvalOptions::default()).unwrap_err();
    assert!(error.to_string().contains("alpha_nDCG@10") && error.to_string().contains("intent"), "{error}");
}

#[test]
fn err_refuses_grades_above_four() {
    let qrels = Qrels::parse("1 0 a 5\n1 0 b 1\n").unwrap();
    let run = Run::parse("1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n", DuplicatePolicy::Error).unwrap();
    let error = evaluate(&qrels, &run, &parse_measures(&["ERR@10"]).unwrap(), &EvalOptions::default()).unwrap_err();
    assert!(error.to_string().contains("ERR@10") && error.to_string().contains("grade 5"), "{error}");
}

#[test]
fn trec_eval_command_line_takes_ir_measures_names() {
    use rerankit::metrics::trec_cli::{run_trec_eval, TrecEvalArgs};
    let names = ["P(rel=2)@10", "ERR@10", "RBP(p=0.5,rel=2)", "Judged@10", "nDCG(gains={0:0,1:1,2:3,3:7,4:15})@10"];
    let mut args: Vec<String> = names.iter().flat_map(|n| ["-m".to_string(), n.to_string()]).collect();
    args.extend(["qrels".to_string(), "run".to_string()]);
    let parsed = TrecEvalArgs::parse(&args).unwrap();
    let report = run_trec_eval(&parsed, &read("ir_measures/qrels.graded.trec"), &read("runs/second.trec"), None).unwrap();
    let reference: Json = serde_json::from_str(&read("ir_measures/graded.second.json")).unwrap();
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), names.len(), "{report}");
    for name in names {
        let key = rerankit::metrics::Metric::parse(name).unwrap().name();
        let line = lines.iter().find(|l| l.split('\t').next().map(str::trim_end) == Some(key.as_str())).unwrap_or_else(|| panic!("{key} in {report}"));
        let printed: f64 = line.split('\t').nth(2).unwrap().trim().parse().unwrap();
        let mean = reference["measures"][name]["mean"].as_f64().unwrap();
        assert!((printed - mean).abs() <= 0.00005 + 5e-6, "{name}: printed {printed}, ir_measures {mean}");
    }
}

#[test]
fn trec_eval_command_line_reads_intents() {
    use rerankit::metrics::trec_cli::{run_trec_eval, TrecEvalArgs};
    let names = ["alpha_nDCG@10", "ERR_IA@20", "nNRBP", "StRecall@5"];
    let mut args: Vec<String> = vec!["--intents".into(), "intents.trec".into()];
    args.extend(names.iter().flat_map(|n| ["-m".to_string(), n.to_string()]));
    args.extend(["qrels".to_string(), "run".to_string()]);
    let parsed = TrecEvalArgs::parse(&args).unwrap();
    assert_eq!(parsed.intents.as_deref(), Some("intents.trec"));
    let (qrels, run) = (read("ir_measures/intents/qrels.trec"), read("ir_measures/intents/run.trec"));
    // named but not read: an error, not a report without the intent-aware measures
    assert!(run_trec_eval(&parsed, &qrels, &run, None).is_err());
    let report = run_trec_eval(&parsed, &qrels, &run, Some(&read("ir_measures/intents/intents.trec"))).unwrap();
    let reference: Json = serde_json::from_str(&read("ir_measures/intents.run.json")).unwrap();
    for name in names {
        let key = rerankit::metrics::Metric::parse(name).unwrap().name();
        let line = report.lines().find(|l| l.split('\t').next().map(str::trim_end) == Some(key.as_str())).unwrap_or_else(|| panic!("{key} in {report}"));
        let printed: f64 = line.split('\t').nth(2).unwrap().trim().parse().unwrap();
        let mean = reference["measures"][name]["mean"].as_f64().unwrap();
        assert!((printed - mean).abs() <= 0.00005 + 5e-6, "{name}: printed {printed}, ir_measures {mean}");
    }
}
