//! `compare` and its report against ranx 0.3.21 on the SciFact fixture runs (tests/fixtures/collection/compare,
//! made by tests/fixtures/gen/make_ranx_compare.py): p-values of every pair under Fisher's test (equal: the same
//! seeded draws), the paired t-test (1e-12) and Tukey's HSD (1e-11, scipy's own integration tolerance), and the report
//! tables byte for byte. Once on ranx's own per-query scores, once end to end from the TREC files.

use crate::collection::collection;
use rerankit::metrics::comparison::{compare, compare_scores, CompareSettings, Comparison, PermutationSettings, StatTest};
use rerankit::metrics::formats::ranx_report::{report, ReportFormat, ReportStyle};
use rerankit::metrics::comparison::significance::fisher_randomization_test;
use rerankit::metrics::{parse_measures, DuplicatePolicy, EvalOptions, Qrels, Run};
use serde_json::Value as Json;

fn fixture() -> Json {
    let text = std::fs::read_to_string(collection().join("compare/ranx_compare.json")).expect("ranx_compare.json");
    serde_json::from_str(&text).unwrap()
}

fn names(f: &Json) -> Vec<String> {
    f["runs"].as_object().unwrap().keys().cloned().collect()
}

fn metrics(f: &Json) -> Vec<String> {
    f["metrics"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect()
}

fn settings(case: &Json) -> CompareSettings {
    let stat_test = match case["stat_test"].as_str().unwrap() {
        "fisher" => StatTest::Fisher,
        "student" => StatTest::Student,
        _ => StatTest::Tukey,
    };
    CompareSettings {
        stat_test,
        permutation: PermutationSettings {
            n_permutations: case["n_permutations"].as_u64().unwrap() as u32,
            random_seed: case["random_seed"].as_u64().unwrap() as u32,
        },
        max_p: case["max_p"].as_f64().unwrap(),
    }
}

/// The tolerance on p-values each test reaches.
fn tolerance(test: StatTest) -> f64 {
    match test {
        StatTest::Fisher => 0.0,
        StatTest::Student => 1e-12,
        StatTest::Tukey => 1e-11,
    }
}

/// Checks every pair's p-value and significance, the means and win/tie/loss, and the four tables; returns the
/// largest p-value difference.
fn check(c: &Comparison, case: &Json, tables: bool) -> f64 {
    let expected = &case["report"];
    let test = c.settings.stat_test;
    let mut worst: f64 = 0.0;
    for (i, a) in c.run_names.iter().enumerate() {
        for (m, measure) in c.measures.iter().enumerate() {
            let mean = expected[a]["scores"][&measure.key].as_f64().unwrap();
            assert!((measure.means[i] - mean).abs() <= 1e-12, "{a} {}: mean {} vs ranx {mean}", measure.key, measure.means[i]);
            for (j, b) in c.run_names.iter().enumerate() {
                if i == j {
                    continue;
                }
                let p = expected[a]["comparisons"][b][&measure.key].as_f64().unwrap();
                let ours = measure.p_values[i][j];
                worst = worst.max((ours - p).abs());
                assert!((ours - p).abs() <= tolerance(test), "{test:?} {a} vs {b} {}: p {ours} vs ranx {p}", measure.key);
                assert_eq!(c.significant(m, i, j), p <= c.settings.max_p);
                let wtl = &expected[a]["win_tie_loss"][b][&measure.key];
                let w = measure.win_tie_loss[i][j];
                assert_eq!([w.win, w.tie, w.loss] as [u32; 3], ["W", "T", "L"].map(|k| wtl[k].as_u64().unwrap() as u32), "{a} vs {b}");
            }
        }
    }
    if tables {
        for (format, key) in [(ReportFormat::Text, "table"), (ReportFormat::Latex, "latex"), (ReportFormat::Markdown, "markdown"), (ReportFormat::Html, "html")] {
            assert_eq!(report(c, format, ReportStyle::default()).unwrap(), case[key].as_str().unwrap(), "{test:?} {key}");
        }
    }
    worst
}

#[test]
fn compare_on_ranx_scores_equals_ranx() {
    let f = fixture();
    let qids: Vec<String> = f["qids"].as_array().unwrap().iter().map(|q| q.as_str().unwrap().to_string()).collect();
    let names = names(&f);
    let scores: Vec<(String, Vec<Vec<f64>>)> = metrics(&f)
        .into_iter()
        .map(|m| {
            let values = names.iter().map(|n| f["per_query"][n][&m].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()).collect();
            (m, values)
        })
        .collect();
    let cases = f["compare"].as_array().unwrap();
    for case in cases {
        let c = compare_scores(&names, qids.clone(), scores.clone(), settings(case)).unwrap();
        let worst = check(&c, case, true);
        eprintln!("{:?} max_p {}: largest p-value difference {worst:e}", c.settings.stat_test, c.settings.max_p);
    }
    assert_eq!(cases.len(), 6);
}

#[test]
fn fisher_on_ranx_scores_equals_ranx_for_other_seeds() {
    let f = fixture();
    let cases = f["fisher"].as_array().unwrap();
    for case in cases {
        let values = |run: &str| -> Vec<f64> {
            f["per_query"][run][case["metric"].as_str().unwrap()].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()
        };
        let p = fisher_randomization_test(
            &values(case["control"].as_str().unwrap()),
            &values(case["treatment"].as_str().unwrap()),
            case["n_permutations"].as_u64().unwrap() as u32,
            case["random_seed"].as_u64().unwrap() as u32,
        );
        assert_eq!(p.p_value, case["p_value"].as_f64().unwrap(), "{case}");
    }
    assert_eq!(cases.len(), 5);
}

#[test]
fn compare_from_trec_files_equals_ranx() {
    let f = fixture();
    let dir = collection();
    let qrels = Qrels::parse(&std::fs::read_to_string(dir.join("qrels.test.trec")).unwrap()).unwrap();
    let names = names(&f);
    let runs: Vec<Run> = names
        .iter()
        .map(|n| Run::parse(&std::fs::read_to_string(dir.join(f["runs"][n].as_str().unwrap())).unwrap(), DuplicatePolicy::Error).unwrap())
        .collect();
    let refs: Vec<&Run> = runs.iter().collect();
    let measures = parse_measures(&metrics(&f)).unwrap();
    for case in f["compare"].as_array().unwrap() {
        let c = compare(&qrels, &refs, &names, &measures, &EvalOptions::default(), settings(case)).unwrap();
        assert_eq!(c.qids.len(), 300);
        let worst = check(&c, case, true);
        eprintln!("end to end {:?} max_p {}: largest p-value difference {worst:e}", c.settings.stat_test, c.settings.max_p);
    }
}

#[test]
fn compare_refuses_bad_input() {
    let f = fixture();
    let names = names(&f);
    let qids = vec!["q".to_string()];
    let one = vec![("map".to_string(), vec![vec![0.5]; 4])];
    let bad = |s: CompareSettings, n: &[String]| compare_scores(n, qids.clone(), one.clone(), s).unwrap_err().to_string();
    assert!(bad(CompareSettings { max_p: f64::NAN, ..Default::default() }, &names).contains("maxP"));
    assert!(bad(CompareSettings { max_p: 0.0, ..Default::default() }, &names).contains("maxP"));
    let zero = CompareSettings { permutation: PermutationSettings { n_permutations: 0, random_seed: 1 }, ..Default::default() };
    assert!(bad(zero, &names).contains("nPermutations"));
    assert!(bad(CompareSettings::default(), &names[..1]).contains("runs"));
    let twice = vec![names[0].clone(), names[1].clone(), names[0].clone(), names[2].clone()];
    assert!(bad(CompareSettings::default(), &twice).contains("names[2]"));
    let ragged = vec![("map".to_string(), vec![vec![0.5], vec![0.5], vec![0.5], vec![]])];
    assert!(compare_scores(&names, qids, ragged, CompareSettings::default()).unwrap_err().to_string().contains("scores.map"));
}
