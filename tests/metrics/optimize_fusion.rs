//! `optimize_fusion` against ranx 0.3.21's on the SciFact fixture runs (tests/fixtures/collection/compare/
//! ranx_optimize.json, made by tests/fixtures/gen/make_ranx_compare.py): the same grid in the same order, the same
//! best parameters, and every configuration's score.

use crate::collection::collection;
use rerankit::metrics::Qrels;
use rerankit::rankers::fusion::optimize::{optimize_fusion, FusionParams, OptimizeFusionOptions};
use rerankit::rankers::fusion::Run;
use rerankit::ErrorCode;
use serde_json::Value as Json;

/// A TREC run file as a fusion run (lines in file order).
fn trec_run(name: &str) -> Run {
    let text = std::fs::read_to_string(collection().join("runs").join(format!("{name}.trec"))).unwrap();
    let mut queries: Vec<(String, Vec<(String, f64)>)> = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if queries.last().map(|(q, _)| q.as_str()) != Some(f[0]) {
            queries.push((f[0].to_string(), Vec::new()));
        }
        queries.last_mut().unwrap().1.push((f[2].to_string(), f[4].parse().unwrap()));
    }
    Run::new(queries)
}

fn params_json(p: &FusionParams) -> String {
    match p {
        FusionParams::Weights(w) => format!("({})", w.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(", ")),
        FusionParams::K(k) => format!("{}", *k as u64),
        other => unreachable!("{other:?}"),
    }
}

#[test]
fn optimize_fusion_equals_ranx() {
    let text = std::fs::read_to_string(collection().join("compare/ranx_optimize.json")).unwrap();
    let fixture: Json = serde_json::from_str(&text).unwrap();
    let qrels = Qrels::parse(&std::fs::read_to_string(collection().join("qrels.test.trec")).unwrap()).unwrap();
    let cases = fixture["optimize_fusion"].as_array().unwrap();
    let (mut configs, mut worst) = (0, 0.0f64);
    for case in cases {
        let runs: Vec<Run> = case["runs"].as_array().unwrap().iter().map(|n| trec_run(n.as_str().unwrap())).collect();
        let mut options = OptimizeFusionOptions { method: case["method"].as_str().unwrap().into(), metric: case["metric"].as_str().unwrap().into(), ..Default::default() };
        let kwargs = &case["kwargs"];
        options.step = kwargs["step"].as_f64();
        options.min_k = kwargs["min_k"].as_u64().map(|k| k as u32);
        options.max_k = kwargs["max_k"].as_u64().map(|k| k as u32);
        let result = optimize_fusion(&qrels, &runs, &options).unwrap();
        let grid = case["grid"].as_array().unwrap();
        assert_eq!(result.trials.len(), grid.len(), "{case}");
        for ((params, score), expected) in result.trials.iter().zip(grid) {
            // ranx's report keys are str(weights) of numpy floats, e.g. "(np.float64(0.3), np.float64(0.7))"
            let key = expected["config"].as_str().unwrap().replace("np.float64(", "").replace(')', "").replace('(', "");
            assert_eq!(params_json(params).replace(['(', ')'], ""), key);
            let difference = (score - expected["score"].as_f64().unwrap()).abs();
            worst = worst.max(difference);
            // wsum, mixed, wmnz: the same fused scores, ranked and evaluated as ranx does. rrf: ranx ranks tied scores inside each
            // input run (and tied fused scores, frequent under RRF) in its own order, rerankit by doc id, which
            // moves some queries' values; the best k must still be ranx's.
            let tolerance = if case["method"] == "rrf" { 1e-3 } else { 1e-12 };
            assert!(difference <= tolerance, "{} {key}: {score} vs ranx {}", case["method"], expected["score"]);
        }
        let best = &case["best_params"];
        match &result.best {
            FusionParams::Weights(w) => {
                let want: Vec<f64> = best["weights"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
                assert_eq!(w, &want, "{}", case["metric"]);
            }
            FusionParams::K(k) => assert_eq!(*k, best["k"].as_f64().unwrap()),
            other => unreachable!("{other:?}"),
        }
        configs += grid.len();
    }
    eprintln!("{} searches, {configs} configurations; largest score difference {worst:e}", cases.len());
    assert_eq!(cases.len(), 8);
}

#[test]
fn optimize_fusion_refuses_bad_input() {
    let qrels = Qrels::parse("q 0 a 1\n").unwrap();
    let runs = vec![Run::new(vec![("q".into(), vec![("a".into(), 1.0)])]); 2];
    let err = |o: OptimizeFusionOptions, runs: &[Run]| optimize_fusion(&qrels, runs, &o).unwrap_err();
    let cases = [
        (OptimizeFusionOptions { method: "bordafuse".into(), ..Default::default() }, "method"),
        (OptimizeFusionOptions { metric: "nope@3".into(), ..Default::default() }, "nope"),
        (OptimizeFusionOptions { step: Some(0.0), ..Default::default() }, "step"),
        (OptimizeFusionOptions { step: Some(f64::NAN), ..Default::default() }, "step"),
        (OptimizeFusionOptions { method: "rrf".into(), step: Some(2.5), ..Default::default() }, "step"),
        (OptimizeFusionOptions { min_k: Some(3), ..Default::default() }, "minK"),
        (OptimizeFusionOptions { grid: Some(vec![serde_json::json!([0.5])]), ..Default::default() }, "grid[0]"),
        (OptimizeFusionOptions { method: "rrf".into(), grid: Some(vec![serde_json::json!(-1)]), ..Default::default() }, "grid[0]"),
        (OptimizeFusionOptions { grid: Some(vec![]), ..Default::default() }, "grid"),
        (OptimizeFusionOptions { method: "rrf".into(), min_k: Some(0), max_k: Some(u32::MAX), step: Some(1.0), ..Default::default() }, "grid"),
    ];
    for (options, field) in cases {
        let e = err(options, &runs);
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.to_string().contains(field), "{e} should name {field}");
    }
    assert!(err(OptimizeFusionOptions::default(), &runs[..1]).to_string().contains("runs"));
    // an explicit grid is tried in order, and the last of equal scores wins (ranx's `>=`)
    let options = OptimizeFusionOptions { grid: Some(vec![serde_json::json!([1.0, 0.0]), serde_json::json!([0.0, 1.0])]), ..Default::default() };
    let result = optimize_fusion(&qrels, &runs, &options).unwrap();
    assert_eq!(result.best, FusionParams::Weights(vec![0.0, 1.0]));
    assert_eq!(result.trials.len(), 2);
}
