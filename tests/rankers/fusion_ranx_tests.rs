//! ranx 0.3.21's own fusion and normalisation unit tests (ranx repo tests/unit/ranx/fusion/*_test.py and
//! normalization/*_test.py), translated: the same runs and the same asserted values. ranx's tests call the
//! fusion functions directly, without normalisation: here `norm: None`. Assertions with no JS meaning are left
//! out (listed in docs/parity.md): the fused run's `name`, that the input runs are left unchanged (Rust borrows
//! them), and the internal helpers `get_candidates` / `get_results` / `_estimate_log_odds` on numba lists
//! (their values are checked through the public result instead).

use rerankit::metrics::Qrels;
use rerankit::rankers::fusion::optimize::{optimize_fusion, FusionParams, OptimizeFusionOptions};
use rerankit::rankers::fusion::{fuse, normalize, trained, FusionMethod, FuseOptions, Normalization, Run};
use std::collections::HashMap;

type Fused = HashMap<String, HashMap<String, f64>>;

fn run(queries: &[(&str, &[(&str, f64)])]) -> Run {
    Run::new(queries.iter().map(|(q, r)| (q.to_string(), r.iter().map(|(d, s)| (d.to_string(), *s)).collect())).collect())
}

/// The three runs most of ranx's fusion tests share.
fn runs_123() -> Vec<Run> {
    vec![
        run(&[("q1", &[("d1", 1.0), ("d2", 2.0), ("d3", 3.0)]), ("q2", &[("d1", 1.0), ("d2", 2.0)])]),
        run(&[("q1", &[("d1", 3.0), ("d2", 2.0)]), ("q2", &[("d1", 1.0), ("d3", 3.0)])]),
        run(&[("q1", &[("d3", 1.0)]), ("q2", &[("d2", 2.0), ("d3", 3.0)])]),
    ]
}

/// condorcet_test's and weighted_condorcet_test's runs.
fn condorcet_runs() -> Vec<Run> {
    vec![
        run(&[("q1", &[("d1", 1.0), ("d2", 2.0), ("d3", 3.0)]), ("q2", &[("d1", 1.0), ("d2", 2.0)])]),
        run(&[("q1", &[("d1", 2.0), ("d2", 3.0)]), ("q2", &[("d1", 1.0), ("d3", 3.0)])]),
        run(&[("q1", &[("d3", 3.0)]), ("q2", &[("d2", 2.0), ("d3", 3.0)])]),
    ]
}

fn qrels_d1() -> Qrels {
    Qrels::from_triples([("q1", "d1", 1), ("q2", "d1", 1)]).unwrap()
}

fn fused(runs: &[Run], options: serde_json::Value) -> Fused {
    let mut options = options;
    options["norm"] = serde_json::Value::Null;
    let options: FuseOptions = rerankit::options::from_json("", options).unwrap();
    let (method, norm) = options.method_and_norm().unwrap();
    let out = fuse(runs, &method, norm).unwrap();
    out.queries.into_iter().map(|(q, r)| (q, r.into_iter().collect())).collect()
}

fn check(got: &Fused, want: &[(&str, &str, f64)]) {
    for (q, d, w) in want {
        let g = got[*q][*d];
        assert_eq!(g, *w, "{q} {d}: {g} vs ranx's {w}");
    }
    let count: usize = got.values().map(|r| r.len()).sum();
    assert_eq!(count, want.len(), "{got:?}");
}

#[test]
fn comb_anz_med_min_max_mnz_sum() {
    let runs = runs_123();
    let r = |m: &str| fused(&runs, serde_json::json!({ "method": m }));
    check(&r("anz"), &[("q1", "d1", 2.0), ("q1", "d2", 2.0), ("q1", "d3", 2.0), ("q2", "d1", 1.0), ("q2", "d2", 2.0), ("q2", "d3", 3.0)]);
    check(&r("med"), &[("q1", "d1", 2.0), ("q1", "d2", 2.0), ("q1", "d3", 2.0), ("q2", "d1", 1.0), ("q2", "d2", 2.0), ("q2", "d3", 3.0)]);
    check(&r("min"), &[("q1", "d1", 1.0), ("q1", "d2", 2.0), ("q1", "d3", 1.0), ("q2", "d1", 1.0), ("q2", "d2", 2.0), ("q2", "d3", 3.0)]);
    check(&r("max"), &[("q1", "d1", 3.0), ("q1", "d2", 2.0), ("q1", "d3", 3.0), ("q2", "d1", 1.0), ("q2", "d2", 2.0), ("q2", "d3", 3.0)]);
    // comb_gmnz_test: γ = 1 is CombMNZ, γ = 0 CombSUM
    assert_eq!(fused(&runs, serde_json::json!({"method": "gmnz", "gamma": 1.0})), r("mnz"));
    assert_eq!(fused(&runs, serde_json::json!({"method": "gmnz", "gamma": 0.0})), r("sum"));
}

#[test]
fn isr_log_isr_logn_isr() {
    let runs = runs_123();
    let sq = |i: f64| 1.0 / (i * i);
    let want = |f: f64| {
        vec![
            ("q1", "d1", (sq(3.0) + sq(1.0)) * f),
            ("q1", "d2", (sq(2.0) + sq(2.0)) * f),
            ("q1", "d3", (sq(1.0) + sq(1.0)) * f),
            ("q2", "d1", (sq(2.0) + sq(2.0)) * f),
            ("q2", "d2", (sq(1.0) + sq(2.0)) * f),
            ("q2", "d3", (sq(1.0) + sq(1.0)) * f),
        ]
    };
    check(&fused(&runs, serde_json::json!({"method": "isr"})), &want(2.0));
    check(&fused(&runs, serde_json::json!({"method": "log_isr"})), &want(2f64.ln()));
    check(&fused(&runs, serde_json::json!({"method": "logn_isr", "sigma": 0.1})), &want((2.0 + 0.1f64).ln()));
}

#[test]
fn bordafuse_and_weighted() {
    let runs = vec![
        run(&[("q1", &[("d1", 1.0), ("d2", 2.0), ("d3", 3.0)]), ("q2", &[("d1", 1.0), ("d2", 2.0)])]),
        run(&[("q1", &[("d1", 3.0), ("d2", 2.0)]), ("q2", &[("d1", 1.0), ("d3", 3.0)])]),
        run(&[("q1", &[("d3", 1.0)]), ("q2", &[("d2", 2.0), ("d3", 3.0)])]),
    ];
    let want = [
        ("q1", "d1", 1.0 + 3.0 + 1.5),
        ("q1", "d2", 2.0 + 2.0 + 1.5),
        ("q1", "d3", 3.0 + 1.0 + 3.0),
        ("q2", "d1", 2.0 + 2.0 + 1.0),
        ("q2", "d2", 3.0 + 1.0 + 2.0),
        ("q2", "d3", 1.0 + 3.0 + 3.0),
    ];
    check(&fused(&runs, serde_json::json!({"method": "bordafuse"})), &want);
    check(&fused(&runs, serde_json::json!({"method": "w_bordafuse", "weights": [1, 1, 1]})), &want);
    check(
        &fused(&runs, serde_json::json!({"method": "w_bordafuse", "weights": [3, 2, 1]})),
        &[
            ("q1", "d1", 3.0 * 1.0 + 2.0 * 3.0 + 1.5),
            ("q1", "d2", 3.0 * 2.0 + 2.0 * 2.0 + 1.5),
            ("q1", "d3", 3.0 * 3.0 + 2.0 * 1.0 + 3.0),
            ("q2", "d1", 3.0 * 2.0 + 2.0 * 2.0 + 1.0),
            ("q2", "d2", 3.0 * 3.0 + 2.0 * 1.0 + 2.0),
            ("q2", "d3", 3.0 * 1.0 + 2.0 * 3.0 + 3.0),
        ],
    );
    // bordafuse_test_no_result_query: q2 empty in every run
    let empty = vec![
        run(&[("q1", &[("d1", 1.0), ("d2", 2.0), ("d3", 3.0)]), ("q2", &[])]),
        run(&[("q1", &[("d1", 3.0), ("d2", 2.0)]), ("q2", &[])]),
        run(&[("q1", &[("d3", 1.0)]), ("q2", &[])]),
    ];
    check(&fused(&empty, serde_json::json!({"method": "bordafuse"})), &want[..3]);
}

#[test]
fn condorcet_and_weighted() {
    let runs = condorcet_runs();
    let ranked = [("q1", "d1", 1.0), ("q1", "d2", 2.0), ("q1", "d3", 3.0), ("q2", "d1", 1.0), ("q2", "d2", 2.0), ("q2", "d3", 3.0)];
    check(&fused(&runs, serde_json::json!({"method": "condorcet"})), &ranked);
    check(&fused(&runs, serde_json::json!({"method": "w_condorcet", "weights": [1, 1, 1]})), &ranked);
    check(
        &fused(&runs, serde_json::json!({"method": "w_condorcet", "weights": [1, 5, 2]})),
        &[("q1", "d1", 2.0), ("q1", "d2", 3.0), ("q1", "d3", 1.0), ("q2", "d1", 2.0), ("q2", "d2", 1.0), ("q2", "d3", 3.0)],
    );
    // test_condorcet_no_result_query
    let empty = vec![
        run(&[("q1", &[("d1", 1.0), ("d2", 2.0), ("d3", 3.0)]), ("q2", &[])]),
        run(&[("q1", &[("d1", 2.0), ("d2", 3.0)]), ("q2", &[])]),
        run(&[("q1", &[("d3", 3.0)]), ("q2", &[])]),
    ];
    check(&fused(&empty, serde_json::json!({"method": "condorcet"})), &ranked[..3]);
}

#[test]
fn rbc() {
    let runs = vec![
        run(&[("q1", &[("A", 7.0), ("D", 6.0), ("B", 5.0), ("C", 4.0), ("G", 3.0), ("F", 2.0)])]),
        run(&[("q1", &[("B", 7.0), ("D", 6.0), ("E", 5.0), ("C", 4.0)])]),
        run(&[("q1", &[("A", 7.0), ("B", 6.0), ("D", 5.0), ("C", 4.0), ("G", 3.0), ("F", 2.0), ("E", 1.0)])]),
        run(&[("q1", &[("G", 7.0), ("D", 6.0), ("E", 5.0), ("A", 4.0), ("F", 3.0), ("C", 2.0)])]),
    ];
    // ranx asserts round(score, 2)
    let cases: [(f64, [(&str, f64); 7]); 3] = [
        (0.6, [("A", 0.89), ("D", 0.86), ("B", 0.78), ("G", 0.50), ("E", 0.31), ("C", 0.29), ("F", 0.11)]),
        (0.8, [("D", 0.61), ("A", 0.50), ("B", 0.49), ("C", 0.37), ("G", 0.36), ("E", 0.31), ("F", 0.21)]),
        (0.9, [("D", 0.35), ("C", 0.28), ("A", 0.27), ("B", 0.27), ("G", 0.23), ("E", 0.22), ("F", 0.18)]),
    ];
    for (phi, want) in cases {
        let got = fused(&runs, serde_json::json!({"method": "rbc", "phi": phi}));
        assert_eq!(got["q1"].len(), 7);
        for (d, w) in want {
            assert_eq!(rerankit::python::repr::round(got["q1"][d], 2), w, "φ {phi} {d}: {}", got["q1"][d]);
        }
    }
}

#[test]
fn mixed_and_wmnz_with_unit_weights() {
    let runs = runs_123();
    let s2 = 2f64.sqrt();
    check(
        &fused(&runs, serde_json::json!({"method": "mixed", "weights": [1, 1, 1]})),
        &[("q1", "d1", 4.0 * s2), ("q1", "d2", 4.0 * s2), ("q1", "d3", 4.0 * s2), ("q2", "d1", 2.0 * s2), ("q2", "d2", 4.0 * s2), ("q2", "d3", 6.0 * s2)],
    );
    check(
        &fused(&runs, serde_json::json!({"method": "wmnz", "weights": [1, 1, 1]})),
        &[("q1", "d1", 8.0), ("q1", "d2", 8.0), ("q1", "d3", 8.0), ("q2", "d1", 4.0), ("q2", "d2", 8.0), ("q2", "d3", 12.0)],
    );
}

/// Trains `method` as ranx's `*_train` does (through optimizeFusion, with no normalisation).
fn train(method: &str, runs: &[Run], qrels: &Qrels) -> FusionParams {
    let options = OptimizeFusionOptions { method: method.into(), norm: Some(Normalization::None), ..Default::default() };
    optimize_fusion(qrels, runs, &options).unwrap().best
}

#[test]
fn probfuse_train_and_fuse() {
    let (runs, qrels) = (runs_123(), qrels_d1());
    let queries = normalize(&runs, Normalization::None);
    let probs: Vec<Vec<f64>> = (0..3).map(|r| trained::probfuse_probs(&trained::hit_lists(&qrels, &queries, r).unwrap(), 2)).collect();
    assert_eq!(probs, [vec![0.0, 1.0], vec![0.5, 0.5], vec![0.0, 0.0]]);
    let got = fused(&runs, serde_json::json!({"method": "probfuse", "probs": probs}));
    let p = &probs;
    check(
        &got,
        &[
            ("q1", "d1", p[0][1] / 2.0 + p[1][0]),
            ("q1", "d2", p[0][0] + p[1][1] / 2.0),
            ("q1", "d3", p[0][0] + p[2][0]),
            ("q2", "d1", p[0][1] / 2.0 + p[1][1] / 2.0),
            ("q2", "d2", p[0][0] + p[2][1] / 2.0),
            ("q2", "d3", p[1][0] + p[2][0]),
        ],
    );
}

#[test]
fn posfuse_and_slidefuse_train_and_fuse() {
    let (runs, qrels) = (runs_123(), qrels_d1());
    let FusionParams::Probs(probs) = train("posfuse", &runs, &qrels) else { panic!() };
    assert_eq!(probs, [vec![0.0, 1.0 / 2.0, 1.0], vec![1.0 / 2.0, 1.0 / 2.0], vec![0.0, 0.0]]);
    let p = &probs;
    check(
        &fused(&runs, serde_json::json!({"method": "posfuse", "probs": probs})),
        &[
            ("q1", "d1", p[0][2] + p[1][0]),
            ("q1", "d2", p[0][1] + p[1][1]),
            ("q1", "d3", p[0][0] + p[2][0]),
            ("q2", "d1", p[0][1] + p[1][1]),
            ("q2", "d2", p[0][0] + p[2][1]),
            ("q2", "d3", p[1][0] + p[2][0]),
        ],
    );
    // slidefuse_train is posfuse's estimate
    let s = |xs: &[f64]| xs.iter().fold(0.0, |a, b| a + b);
    check(
        &fused(&runs, serde_json::json!({"method": "slidefuse", "probs": probs, "w": 1})),
        &[
            ("q1", "d1", s(&p[0][1..3]) / 2.0 + s(&p[1]) / 2.0),
            ("q1", "d2", s(&p[0]) / 3.0 + s(&p[1]) / 2.0),
            ("q1", "d3", s(&p[0][..2]) / 2.0 + s(&p[2]) / 2.0),
            ("q2", "d1", s(&p[0][0..2]) / 2.0 + s(&p[1]) / 2.0),
            ("q2", "d2", s(&p[0][0..2]) / 2.0 + s(&p[2]) / 2.0),
            ("q2", "d3", s(&p[1]) / 2.0 + s(&p[2]) / 2.0),
        ],
    );
    check(
        &fused(&runs, serde_json::json!({"method": "slidefuse", "probs": probs, "w": 2})),
        &[
            ("q1", "d1", s(&p[0]) / 3.0 + s(&p[1]) / 2.0),
            ("q1", "d2", s(&p[0]) / 3.0 + s(&p[1]) / 2.0),
            ("q1", "d3", s(&p[0]) / 3.0 + s(&p[2]) / 2.0),
            ("q2", "d1", s(&p[0][0..2]) / 2.0 + s(&p[1]) / 2.0),
            ("q2", "d2", s(&p[0][0..2]) / 2.0 + s(&p[2]) / 2.0),
            ("q2", "d3", s(&p[1]) / 2.0 + s(&p[2]) / 2.0),
        ],
    );
}

#[test]
fn segfuse_train_and_fuse() {
    let (runs, qrels) = (runs_123(), qrels_d1());
    let FusionParams::Probs(probs) = train("segfuse", &runs, &qrels) else { panic!() };
    let mut first = vec![0.0; 10];
    first[0] = 0.2;
    assert_eq!(probs, [first.clone(), first, vec![0.0; 10]]);
    let p = &probs;
    check(
        &fused(&runs, serde_json::json!({"method": "segfuse", "probs": probs})),
        &[
            ("q1", "d1", p[0][0] * (1.0 + 1.0) + p[1][0] * (1.0 + 3.0)),
            ("q1", "d2", p[0][0] * (1.0 + 2.0) + p[1][0] * (1.0 + 2.0)),
            ("q1", "d3", p[0][0] * (1.0 + 3.0) + p[2][0] * (1.0 + 1.0)),
            ("q2", "d1", p[0][0] * (1.0 + 1.0) + p[1][0] * (1.0 + 1.0)),
            ("q2", "d2", p[0][0] * (1.0 + 2.0) + p[2][0] * (1.0 + 2.0)),
            ("q2", "d3", p[1][0] * (1.0 + 3.0) + p[2][0] * (1.0 + 3.0)),
        ],
    );
}

#[test]
fn mapfuse_train_and_fuse() {
    let (runs, qrels) = (runs_123(), qrels_d1());
    let FusionParams::MapScores(m) = train("mapfuse", &runs, &qrels) else { panic!() };
    check(
        &fused(&runs, serde_json::json!({"method": "mapfuse", "mapScores": m})),
        &[
            ("q1", "d1", m[0] / 3.0 + m[1] / 1.0),
            ("q1", "d2", m[0] / 2.0 + m[1] / 2.0),
            ("q1", "d3", m[0] / 1.0 + m[2] / 1.0),
            ("q2", "d1", m[0] / 2.0 + m[1] / 2.0),
            ("q2", "d2", m[0] / 1.0 + m[2] / 2.0),
            ("q2", "d3", m[1] / 1.0 + m[2] / 1.0),
        ],
    );
}

#[test]
fn bayesfuse_log_odds_and_fuse() {
    let qrels = Qrels::from_triples([
        ("q1", "d1", 1), ("q1", "d2", 1), ("q1", "d8", 1), ("q1", "d9", 1), ("q1", "d10", 1),
        ("q2", "d2", 1), ("q2", "d4", 1), ("q2", "d7", 1),
        ("q3", "d1", 1), ("q3", "d3", 1), ("q3", "d4", 1), ("q3", "d5", 1), ("q3", "d6", 1), ("q3", "d8", 1), ("q3", "d9", 1),
    ])
    .unwrap();
    let descending = |order: &[&str]| -> Vec<(String, f64)> { order.iter().enumerate().map(|(i, d)| (d.to_string(), 10.0 - i as f64)).collect() };
    let plain = ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10"];
    let run_1 = Run::new(vec![("q1".into(), descending(&plain)), ("q2".into(), descending(&plain)), ("q3".into(), descending(&plain))]);
    let run_2 = Run::new(vec![
        ("q1".into(), descending(&["d1", "d2", "d8", "d9", "d10", "d3", "d4", "d5", "d6", "d7"])),
        ("q2".into(), descending(&["d2", "d4", "d7", "d1", "d3", "d5", "d6", "d8", "d9", "d10"])),
        ("q3".into(), descending(&plain)),
    ]);
    let runs = vec![run_1, run_2];
    let FusionParams::LogOdds(odds) = train("bayesfuse", &runs, &qrels) else { panic!() };
    let lo = |p: f64| (p / (1.0 - p)).ln();
    assert!(odds[0][..5].iter().all(|x| *x == lo(8.0 / 15.0)), "{:?}", &odds[0][..5]);
    assert!(odds[0][5..10].iter().all(|x| *x == lo(7.0 / 15.0)));
    assert!(odds[0][10..].iter().all(|x| *x < 0.0));
    assert!(odds[1][..5].iter().all(|x| *x == lo(12.0 / 15.0)));
    assert!(odds[1][5..10].iter().all(|x| (x - lo(3.0 / 15.0)).abs() <= 1e-9 * x.abs()));
    assert!(odds[1][10..].iter().all(|x| *x < 0.0));
    let got = fused(&runs, serde_json::json!({"method": "bayesfuse", "logOdds": odds}));
    // d's positions in run 1 and run 2 per query, as ranx's test lists them
    let at: [(&str, [(&str, usize, usize); 10]); 3] = [
        ("q1", [("d1", 0, 0), ("d2", 1, 1), ("d3", 2, 5), ("d4", 3, 6), ("d5", 4, 7), ("d6", 5, 8), ("d7", 6, 8), ("d8", 7, 2), ("d9", 8, 3), ("d10", 9, 4)]),
        ("q2", [("d1", 0, 3), ("d2", 1, 0), ("d3", 2, 4), ("d4", 3, 1), ("d5", 4, 5), ("d6", 5, 6), ("d7", 6, 2), ("d8", 7, 7), ("d9", 8, 8), ("d10", 9, 9)]),
        ("q3", [("d1", 0, 0), ("d2", 1, 1), ("d3", 2, 2), ("d4", 3, 3), ("d5", 4, 4), ("d6", 5, 5), ("d7", 6, 6), ("d8", 7, 7), ("d9", 8, 8), ("d10", 9, 9)]),
    ];
    for (q, docs) in at {
        for (d, i, j) in docs {
            let want = odds[0][i] + odds[1][j];
            // ranx's isclose (rel 1e-9)
            assert!((got[q][d] - want).abs() <= 1e-9 * want.abs().max(got[q][d].abs()), "{q} {d}");
        }
    }
}

#[test]
fn borda_norm() {
    let queries = normalize(&runs_123(), Normalization::Borda);
    let norm = |q: usize, r: usize, d: &str| queries[q].runs[r].iter().find(|(i, _)| queries[q].docs[*i] == d).unwrap().1;
    let want: [(usize, [(&str, f64, f64, f64); 3]); 2] = [
        (0, [("d1", 1.0 / 3.0, 3.0 / 3.0, 1.5 / 3.0), ("d2", 2.0 / 3.0, 2.0 / 3.0, 1.5 / 3.0), ("d3", 3.0 / 3.0, 1.0 / 3.0, 3.0 / 3.0)]),
        (1, [("d1", 2.0 / 3.0, 2.0 / 3.0, 1.0 / 3.0), ("d2", 3.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0), ("d3", 1.0 / 3.0, 3.0 / 3.0, 3.0 / 3.0)]),
    ];
    for (q, docs) in want {
        for (d, a, b, c) in docs {
            for (r, w) in [a, b, c].into_iter().enumerate() {
                // ranx's isclose (rel 1e-9)
                assert!((norm(q, r, d) - w).abs() <= 1e-9, "q{} run {} {d}: {} vs {w}", q + 1, r + 1, norm(q, r, d));
            }
        }
    }
}

#[test]
fn min_max_norm_and_inverted() {
    let run = vec![run(&[("q1", &[("d1", 1.0), ("d2", 2.0), ("d3", 3.0)]), ("q2", &[("d1", 1.0), ("d2", 2.0)])])];
    for (norm, want) in [
        ("min-max", [(0, "d1", (1.0 - 1.0) / (3.0 - 1.0)), (0, "d2", (2.0 - 1.0) / (3.0 - 1.0)), (0, "d3", (3.0 - 1.0) / (3.0 - 1.0)), (1, "d1", 0.0), (1, "d2", 1.0)]),
        ("min_max_inverted", [(0, "d1", (3.0 - 1.0) / (3.0 - 1.0)), (0, "d2", (3.0 - 2.0) / (3.0 - 1.0)), (0, "d3", (3.0 - 3.0) / (3.0 - 1.0)), (1, "d1", 1.0), (1, "d2", 0.0)]),
        ("min-max-inverted", [(0, "d1", 1.0), (0, "d2", 0.5), (0, "d3", 0.0), (1, "d1", 1.0), (1, "d2", 0.0)]),
    ] {
        let queries = normalize(&run, Normalization::parse("norm", norm).unwrap());
        for (q, d, w) in want {
            let got = queries[q].runs[0].iter().find(|(i, _)| queries[q].docs[*i] == d).unwrap().1;
            assert_eq!(got, w, "{norm} q{} {d}", q + 1);
        }
        if norm != "min-max" {
            // inverted runs are re-ranked: the lowest original score first
            assert_eq!(queries[0].docs[queries[0].runs[0][0].0], "d1");
        }
    }
}

#[test]
fn method_variants_parse() {
    assert_eq!(FusionMethod::parse("combmnz", None, None).unwrap(), FusionMethod::parse("mnz", None, None).unwrap());
}
