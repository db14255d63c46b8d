//! Rank fusion: ranx's definitions on hand-computed examples, and ranx's own outputs when the fixtures exist.

use rerankit::rankers::fusion::{fuse, Combination, FusionMethod, Normalization, Run};
use rerankit::ErrorCode;
use serde_json::json;

fn run(queries: &[(&str, &[(&str, f64)])]) -> Run {
    Run::new(queries.iter().map(|(q, r)| (q.to_string(), r.iter().map(|(d, s)| (d.to_string(), *s)).collect())).collect())
}

fn two_runs() -> Vec<Run> {
    vec![
        run(&[("q1", &[("c", 1.0), ("a", 3.0), ("b", 2.0)])]),
        run(&[("q1", &[("b", 0.9), ("c", 0.5), ("d", 0.1)])]),
    ]
}

fn fused(method: FusionMethod, norm: Normalization) -> Vec<(String, f64)> {
    let out = fuse(&two_runs(), &method, norm).unwrap();
    assert_eq!(out.queries.len(), 1);
    out.queries[0].1.clone()
}

fn assert_close(got: &[(String, f64)], want: &[(&str, f64)]) {
    let ids: Vec<&str> = got.iter().map(|(d, _)| d.as_str()).collect();
    let want_ids: Vec<&str> = want.iter().map(|(d, _)| *d).collect();
    assert_eq!(ids, want_ids, "{got:?}");
    for ((d, g), (_, w)) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-12, "{d}: {g} vs {w}");
    }
}

#[test]
fn rrf_uses_one_based_ranks_and_k() {
    let got = fused(FusionMethod::ReciprocalRank { k: 60.0 }, Normalization::None);
    assert_close(&got, &[("b", 1.0 / 62.0 + 1.0 / 61.0), ("c", 1.0 / 63.0 + 1.0 / 62.0), ("a", 1.0 / 61.0), ("d", 1.0 / 63.0)]);
    // The norm does not matter for RRF.
    assert_eq!(got, fused(FusionMethod::ReciprocalRank { k: 60.0 }, Normalization::ZScore));
    let got = fused(FusionMethod::ReciprocalRank { k: 0.0 }, Normalization::None);
    assert_close(&got, &[("b", 1.5), ("a", 1.0), ("c", 1.0 / 3.0 + 0.5), ("d", 1.0 / 3.0)]);
}

#[test]
fn combsum_min_max() {
    let got = fused(FusionMethod::Combined(Combination::Sum), Normalization::MinMax);
    assert_close(&got, &[("b", 1.5), ("a", 1.0), ("c", 0.5), ("d", 0.0)]);
}

#[test]
fn combmnz_multiplies_by_the_number_of_runs() {
    let got = fused(FusionMethod::Combined(Combination::Mnz), Normalization::MinMax);
    // a and c tie at 1: doc id ascending.
    assert_close(&got, &[("b", 3.0), ("a", 1.0), ("c", 1.0), ("d", 0.0)]);
}

#[test]
fn combmax() {
    let got = fused(FusionMethod::Combined(Combination::Max), Normalization::MinMax);
    assert_close(&got, &[("a", 1.0), ("b", 1.0), ("c", 0.5), ("d", 0.0)]);
}

#[test]
fn weighted_sum() {
    let got = fused(FusionMethod::Combined(Combination::WeightedSum(vec![0.7, 0.3])), Normalization::MinMax);
    assert_close(&got, &[("a", 0.7), ("b", 0.65), ("c", 0.15), ("d", 0.0)]);
    // Without normalisation: a 3, b 2 + 1.8, c 1 + 1, d 0.2.
    let got = fused(FusionMethod::Combined(Combination::WeightedSum(vec![1.0, 2.0])), Normalization::None);
    assert_close(&got, &[("b", 3.8), ("a", 3.0), ("c", 2.0), ("d", 0.2)]);
}

#[test]
fn normalisations_as_ranx_defines_them() {
    let ranked = [3.0, 2.0, 1.0];
    let close = |got: Vec<f64>, want: &[f64]| {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{got:?} vs {want:?}");
        }
    };
    close(Normalization::None.apply(&ranked), &[3.0, 2.0, 1.0]);
    close(Normalization::MinMax.apply(&ranked), &[1.0, 0.5, 0.0]);
    close(Normalization::Max.apply(&ranked), &[1.0, 2.0 / 3.0, 1.0 / 3.0]);
    close(Normalization::Sum.apply(&ranked), &[2.0 / 3.0, 1.0 / 3.0, 0.0]);
    let z = 1.0 / (2.0f64 / 3.0).sqrt();
    close(Normalization::ZScore.apply(&ranked), &[z, 0.0, -z]);
    close(Normalization::Rank.apply(&ranked), &[1.0, 2.0 / 3.0, 1.0 / 3.0]);
    // ε = 1e-9 under every denominator: equal scores do not divide by zero.
    close(Normalization::MinMax.apply(&[2.0, 2.0]), &[0.0, 0.0]);
    close(Normalization::ZScore.apply(&[2.0, 2.0]), &[0.0, 0.0]);
    assert_eq!(Normalization::Max.apply(&[-1.0, -2.0]), [-1.0 / 1e-9, -2.0 / 1e-9]);
    assert!(Normalization::MinMax.apply(&[]).is_empty());
}

#[test]
fn rank_norm_follows_the_ranking_order() {
    let got = fused(FusionMethod::Combined(Combination::Sum), Normalization::Rank);
    // run 1: a 1, b 2/3, c 1/3; run 2: b 1, c 2/3, d 1/3.
    assert_close(&got, &[("b", 5.0 / 3.0), ("a", 1.0), ("c", 1.0), ("d", 1.0 / 3.0)]);
}

#[test]
fn queries_are_the_union_in_first_appearance_order() {
    let runs = vec![run(&[("q2", &[("x", 1.0)]), ("q1", &[("a", 1.0)])]), run(&[("q1", &[("a", 2.0)]), ("q3", &[("y", 5.0)])])];
    let out = fuse(&runs, &FusionMethod::ReciprocalRank { k: 60.0 }, Normalization::MinMax).unwrap();
    let qids: Vec<&str> = out.queries.iter().map(|(q, _)| q.as_str()).collect();
    assert_eq!(qids, ["q2", "q1", "q3"]);
    assert_eq!(out.queries[1].1, vec![("a".to_string(), 2.0 / 61.0)]);
}

#[test]
fn empty_results_and_one_run() {
    let runs = vec![run(&[("q1", &[])])];
    let out = fuse(&runs, &FusionMethod::Combined(Combination::Sum), Normalization::MinMax).unwrap();
    assert_eq!(out.queries, vec![("q1".to_string(), vec![])]);
}

#[test]
fn json_round_trip_in_ranking_order() {
    let run = Run::from_json("runs[0]", &json!({"q1": {"b": 1.0, "a": 1.0, "c": 2}})).unwrap();
    assert_eq!(run.to_json().to_string(), r#"{"q1":{"c":2.0,"a":1.0,"b":1.0}}"#);
}

#[test]
fn method_names() {
    assert_eq!(FusionMethod::parse("rrf", None, None).unwrap(), FusionMethod::ReciprocalRank { k: 60.0 });
    assert_eq!(FusionMethod::parse("combmnz", None, None).unwrap(), FusionMethod::Combined(Combination::Mnz));
    assert_eq!(FusionMethod::parse("max", None, None).unwrap(), FusionMethod::Combined(Combination::Max));
    assert!(FusionMethod::parse("wsum", None, None).unwrap_err().message.starts_with("weights:"));
    assert!(FusionMethod::parse("rrf", None, Some(vec![1.0])).unwrap_err().message.starts_with("weights:"));
    assert!(FusionMethod::parse("combsum", Some(10.0), None).unwrap_err().message.starts_with("k:"));
    assert!(FusionMethod::parse("bayesfuse", None, None).unwrap_err().message.starts_with("logOdds: method \"bayesfuse\" needs"));
    assert_eq!(Normalization::parse("norm", "z-score").unwrap(), Normalization::ZScore);
    assert_eq!(Normalization::parse("norm", "borda").unwrap(), Normalization::Borda);
    assert_eq!(Normalization::parse("norm", "min_max_inverted").unwrap(), Normalization::MinMaxInverted);
}

#[test]
fn bad_input() {
    let err = fuse(&[], &FusionMethod::ReciprocalRank { k: 60.0 }, Normalization::None).unwrap_err();
    assert!(err.message.starts_with("runs:"), "{}", err.message);
    let err = fuse(&two_runs(), &FusionMethod::ReciprocalRank { k: -1.0 }, Normalization::None).unwrap_err();
    assert!(err.message.starts_with("k:"), "{}", err.message);
    let err = fuse(&two_runs(), &FusionMethod::Combined(Combination::WeightedSum(vec![1.0])), Normalization::None).unwrap_err();
    assert!(err.message.starts_with("weights: has 1 weights for 2 runs"), "{}", err.message);
    let mut runs = two_runs();
    runs[1].queries[0].1[2].1 = f64::NAN;
    let err = fuse(&runs, &FusionMethod::Combined(Combination::Sum), Normalization::None).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("runs[1].q1.d: NaN"), "{}", err.message);
    let mut runs = two_runs();
    runs[0].queries[0].1.push(("a".into(), 0.0));
    let err = fuse(&runs, &FusionMethod::Combined(Combination::Sum), Normalization::None).unwrap_err();
    assert!(err.message.starts_with("runs[0].q1.a: doc id appears twice"), "{}", err.message);
    let err = Run::from_json("runs[2]", &json!({"q1": {"a": "high"}})).unwrap_err();
    assert!(err.message.starts_with("runs[2].q1.a: expected a number"), "{}", err.message);
    let err = Run::from_json("runs[2]", &json!({"q1": [1, 2]})).unwrap_err();
    assert!(err.message.starts_with("runs[2].q1:"), "{}", err.message);
}

// ------------------------------------------------------------------------------------------ ranx's own outputs
//
// tests/fixtures/collection/fusion/*.trec hold `ranx.fuse` of runs/bm25.trec × runs/ce_probe.trec (see the
// provenance.json there). ranx ranks tied input scores in an order of numpy's choosing, so for RRF the documents
// tied within an input run can swap contributions: for those the test checks the sum of their fused scores per
// query (invariant under such swaps), for every other document the score itself, to 1e-6.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

fn read_trec(path: &Path) -> Vec<(String, Vec<(String, f64)>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut queries: Vec<(String, Vec<(String, f64)>)> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 6, "{}: {line}", path.display());
        let score: f64 = f[4].parse().unwrap();
        match queries.last_mut() {
            Some((q, docs)) if q == f[0] => docs.push((f[2].to_string(), score)),
            _ => queries.push((f[0].to_string(), vec![(f[2].to_string(), score)])),
        }
    }
    queries
}

/// Doc ids that share their score with another doc of the same query in `run`.
fn tied_docs(run: &Run) -> HashMap<String, HashSet<String>> {
    let mut out = HashMap::new();
    for (q, results) in &run.queries {
        let mut by_score: BTreeMap<u64, Vec<&str>> = BTreeMap::new();
        for (d, s) in results {
            by_score.entry(s.to_bits()).or_default().push(d);
        }
        let tied: HashSet<String> = by_score.values().filter(|v| v.len() > 1).flatten().map(|d| d.to_string()).collect();
        out.insert(q.clone(), tied);
    }
    out
}

#[test]
fn equals_ranx_on_the_collection_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/collection");
    let fusion = root.join("fusion");
    let (bm25, ce) = (root.join("runs/bm25.trec"), root.join("runs/ce_probe.trec"));
    if !fusion.join("rrf.trec").exists() || !bm25.exists() || !ce.exists() {
        eprintln!("skipped: ranx fusion fixtures not present (scripts/fixtures.sh --regenerate-references makes them)");
        return;
    }
    let runs = vec![Run::new(read_trec(&bm25)), Run::new(read_trec(&ce))];
    let mut input_ties: HashMap<String, HashSet<String>> = HashMap::new();
    for run in &runs {
        for (q, docs) in tied_docs(run) {
            input_ties.entry(q).or_default().extend(docs);
        }
    }
    let cases: [(&str, FusionMethod, Normalization); 5] = [
        ("rrf", FusionMethod::ReciprocalRank { k: 60.0 }, Normalization::None),
        ("wsum", FusionMethod::Combined(Combination::WeightedSum(vec![0.5, 0.5])), Normalization::MinMax),
        ("combsum", FusionMethod::Combined(Combination::Sum), Normalization::MinMax),
        ("combmnz", FusionMethod::Combined(Combination::Mnz), Normalization::MinMax),
        ("combmax", FusionMethod::Combined(Combination::Max), Normalization::MinMax),
    ];
    for (name, method, norm) in cases {
        let ours = fuse(&runs, &method, norm).unwrap();
        let ours: HashMap<&str, HashMap<&str, f64>> =
            ours.queries.iter().map(|(q, r)| (q.as_str(), r.iter().map(|(d, s)| (d.as_str(), *s)).collect())).collect();
        let theirs = read_trec(&fusion.join(format!("{name}.trec")));
        assert_eq!(ours.len(), theirs.len(), "{name}: query count");
        for (q, docs) in &theirs {
            let mine = &ours[q.as_str()];
            assert_eq!(mine.len(), docs.len(), "{name} {q}: document count");
            let ties = if name == "rrf" { input_ties.get(q).cloned().unwrap_or_default() } else { HashSet::new() };
            let (mut tied_ours, mut tied_theirs) = (0.0, 0.0);
            for (d, s) in docs {
                let m = *mine.get(d.as_str()).unwrap_or_else(|| panic!("{name} {q}: {d} missing"));
                if ties.contains(d) {
                    tied_ours += m;
                    tied_theirs += s;
                } else {
                    assert!((m - s).abs() <= 1e-6, "{name} {q} {d}: {m} vs ranx {s}");
                }
            }
            assert!((tied_ours - tied_theirs).abs() <= 1e-6 * ties.len().max(1) as f64, "{name} {q}: tied documents");
        }
    }
    // Tie-broken RRF: score descending, doc id ascending, where no input ties make ranx's scores ambiguous.
    let tiebreak = fusion.join("rrf_tiebreak_docid.trec");
    if tiebreak.exists() {
        let ours = fuse(&runs, &FusionMethod::ReciprocalRank { k: 60.0 }, Normalization::MinMax).unwrap();
        for (q, docs) in read_trec(&tiebreak) {
            if input_ties.get(&q).is_some_and(|t| !t.is_empty()) {
                continue;
            }
            let mine: Vec<&str> = ours.results(&q).unwrap().iter().map(|(d, _)| d.as_str()).collect();
            let theirs: Vec<&str> = docs.iter().map(|(d, _)| d.as_str()).collect();
            assert_eq!(mine, theirs, "rrf tie-broken order of {q}");
        }
    }
}

// ------------------------------------------------------------------------------- every method, ranx's values
//
// tests/fixtures/ranx_fusion/ranx_fusion.json (tests/fixtures/gen/make_ranx_fusion.py): ranx 0.3.21's `fuse` of a
// slice of bm25 × second × ce_probe (no tied input scores) with every method and normalisation, and its
// `optimize_fusion` (search or training) for every method it optimises. Scores per (query, doc) within 1e-9
// relative; the chosen parameters exactly.

use rerankit::metrics::Qrels;
use rerankit::rankers::fusion::optimize::{optimize_fusion, FusionParams, OptimizeFusionOptions};
use rerankit::rankers::fusion::FuseOptions;
use serde_json::Value as Json;

fn ranx_fusion_fixture() -> Json {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ranx_fusion/ranx_fusion.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// bayesfuse's log-odds from the fixture's one value per band.
fn expand_bands(params: &mut Json) {
    if let Some(bands) = params.as_object_mut().and_then(|o| o.remove("logOddsBands")) {
        let cut = rerankit::rankers::fusion::trained::BAYESFUSE_CUTOFFS;
        let odds: Vec<Vec<f64>> = bands
            .as_array()
            .unwrap()
            .iter()
            .map(|b| cut.windows(2).zip(b.as_array().unwrap()).flat_map(|(w, v)| std::iter::repeat(v.as_f64().unwrap()).take(w[1] - w[0])).collect())
            .collect();
        params["logOdds"] = json!(odds);
    }
}

fn fixture_runs_and_qrels(fixture: &Json) -> (Vec<Run>, Qrels) {
    let runs = ["bm25", "second", "ce_probe"].iter().enumerate().map(|(i, n)| Run::from_json(&format!("runs[{i}]"), &fixture["runs"][n]).unwrap()).collect();
    let mut triples = Vec::new();
    for (q, docs) in fixture["qrels"].as_object().unwrap() {
        for (d, g) in docs.as_object().unwrap() {
            triples.push((q.as_str(), d.as_str(), g.as_i64().unwrap()));
        }
    }
    (runs, Qrels::from_triples(triples).unwrap())
}

#[test]
fn every_method_and_norm_equals_ranx() {
    let fixture = ranx_fusion_fixture();
    assert_eq!(fixture["versions"]["ranx"], "0.3.21");
    let (runs, _) = fixture_runs_and_qrels(&fixture);
    let trained: HashMap<(String, String), Json> = fixture["optimize_fusion"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| ((c["method"].as_str().unwrap().to_string(), c["norm"].to_string()), c["best_params"].clone()))
        .collect();
    let (mut cases, mut scores, mut worst) = (0, 0, 0.0f64);
    let mut methods = HashSet::new();
    let mut norms = HashSet::new();
    for case in fixture["fuse"].as_array().unwrap() {
        let method = case["method"].as_str().unwrap();
        let mut options = case["params"].clone();
        if case["trained"] == true {
            // the trained params, then the case's own (slidefuse's w)
            let mut best = trained[&(method.to_string(), case["norm"].to_string())].clone();
            expand_bands(&mut best);
            for (k, v) in case["params"].as_object().unwrap() {
                best[k] = v.clone();
            }
            options = best;
        }
        options["method"] = json!(method);
        options["norm"] = case["norm"].clone();
        let options: FuseOptions = rerankit::options::from_json("", options).unwrap();
        let (m, norm) = options.method_and_norm().unwrap();
        let ours = fuse(&runs, &m, norm).unwrap();
        for (q, docs) in fixture["docs"].as_object().unwrap() {
            let mine: HashMap<&str, f64> = ours.results(q).unwrap().iter().map(|(d, s)| (d.as_str(), *s)).collect();
            let theirs = case["scores"][q].as_array().unwrap();
            assert_eq!(mine.len(), theirs.len(), "{method} {} {q}: document count", case["norm"]);
            for (d, s) in docs.as_array().unwrap().iter().zip(theirs) {
                let (m, s) = (mine[d.as_str().unwrap()], s.as_f64().unwrap());
                assert!(close(m, s), "{method} norm {} {q} {d}: {m} vs ranx {s}", case["norm"]);
                if m != s {
                    worst = worst.max((m - s).abs() / s.abs());
                }
                scores += 1;
            }
        }
        methods.insert(method.to_string());
        norms.insert(case["norm"].to_string());
        cases += 1;
    }
    eprintln!("{cases} fusions, {scores} scores; largest relative difference {worst:e}");
    assert_eq!(methods.len(), 25, "{methods:?}");
    assert_eq!(norms.len(), 8, "{norms:?}");
}

#[test]
fn optimize_and_train_equal_ranx() {
    let fixture = ranx_fusion_fixture();
    let (runs, qrels) = fixture_runs_and_qrels(&fixture);
    let mut methods = HashSet::new();
    for case in fixture["optimize_fusion"].as_array().unwrap() {
        let method = case["method"].as_str().unwrap();
        let mut options: OptimizeFusionOptions = rerankit::options::from_json("", json!({"method": method, "metric": case["metric"], "norm": case["norm"]})).unwrap();
        if case["norm"].is_null() {
            options.norm = Some(Normalization::None);
        }
        let result = optimize_fusion(&qrels, &runs, &options).unwrap();
        let mut want = case["best_params"].clone();
        expand_bands(&mut want);
        let got = result.best.to_json();
        let what = format!("{method} norm {}", case["norm"]);
        match (&result.best, method) {
            // trained arrays: ranx's floats, the same arithmetic
            (FusionParams::Probs(_) | FusionParams::LogOdds(_) | FusionParams::MapScores(_) | FusionParams::SlideFuse { .. }, _) => {
                let flat = |v: &Json| -> Vec<f64> {
                    let mut out = Vec::new();
                    let mut stack = vec![v.clone()];
                    while let Some(x) = stack.pop() {
                        match x {
                            Json::Array(a) => stack.extend(a.into_iter().rev()),
                            Json::Object(o) => stack.extend(o.into_iter().map(|(_, v)| v).collect::<Vec<_>>().into_iter().rev()),
                            Json::Number(n) => out.push(n.as_f64().unwrap()),
                            other => panic!("{other}"),
                        }
                    }
                    out
                };
                assert_eq!(got.as_object().unwrap().keys().collect::<Vec<_>>(), want.as_object().unwrap().keys().collect::<Vec<_>>(), "{what}");
                let (g, w) = (flat(&got), flat(&want));
                assert_eq!(g.len(), w.len(), "{what}");
                for (i, (a, b)) in g.iter().zip(&w).enumerate() {
                    assert!(close(*a, *b), "{what} [{i}]: {a} vs ranx {b}");
                }
            }
            // a searched value: the same number (ranx writes k as an integer)
            _ => {
                let (g, w) = (got.as_object().unwrap(), want.as_object().unwrap());
                assert_eq!(g.keys().collect::<Vec<_>>(), w.keys().collect::<Vec<_>>(), "{what}");
                for (k, v) in g {
                    match v.as_array() {
                        Some(a) => assert_eq!(a.iter().map(|x| x.as_f64()).collect::<Vec<_>>(), w[k].as_array().unwrap().iter().map(|x| x.as_f64()).collect::<Vec<_>>(), "{what}"),
                        None => assert_eq!(v.as_f64(), w[k].as_f64(), "{what}"),
                    }
                }
            }
        }
        if let Some(trials) = case["trials"].as_array() {
            assert_eq!(result.trials.len(), trials.len(), "{what}");
            for ((params, score), t) in result.trials.iter().zip(trials) {
                let config = params.to_json();
                let value = config.as_object().unwrap().values().next().unwrap().clone();
                let theirs = &t[0];
                let numbers = |v: &Json| -> Vec<f64> { v.as_array().map_or_else(|| vec![v.as_f64().unwrap()], |a| a.iter().map(|x| x.as_f64().unwrap()).collect()) };
                assert_eq!(numbers(&value), numbers(theirs), "{what}: config");
                let s = t[1].as_f64().unwrap();
                assert!(close(*score, s), "{what} {value}: {score} vs ranx {s}");
            }
        } else {
            assert!(result.trials.is_empty() && result.best_score.is_none(), "{what}");
        }
        methods.insert(method.to_string());
    }
    assert_eq!(methods.len(), 15, "{methods:?}");
}

#[test]
fn unknown_names_are_refused_with_the_nearest() {
    let err = FusionMethod::parse("combmnx", None, None).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("method: unknown fusion method \"combmnx\": did you mean \"combmnz\"?"), "{}", err.message);
    assert!(err.message.contains("slidefuse") && err.message.contains("w_condorcet"), "{}", err.message);
    let err = FusionMethod::parse("bordafus", None, None).unwrap_err();
    assert!(err.message.contains("did you mean \"bordafuse\"?"), "{}", err.message);
    let err = Normalization::parse("norm", "min_max_invert").unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("norm: unknown normalisation \"min_max_invert\": did you mean \"min_max_inverted\"?"), "{}", err.message);
    // through the JS-facing options: the field is named
    let err = rerankit::options::from_json::<FuseOptions>("", json!({"method": "rbc", "norm": "zscore"})).unwrap_err();
    assert!(err.message.starts_with("norm: unknown normalisation \"zscore\""), "{}", err.message);
    // an unknown parameter: the closest option
    let err = rerankit::options::from_json::<FuseOptions>("", json!({"method": "probfuse", "nSegment": 3})).unwrap_err();
    assert!(err.message.starts_with("nSegment: unknown option"), "{}", err.message);
    let err = rerankit::options::from_json::<FuseOptions>("", json!({"method": "rbc", "phy": 0.8})).unwrap_err();
    assert!(err.message.contains("did you mean \"phi\"?"), "{}", err.message);
    // a parameter of another method, a missing one, a bad value
    let opts = |v: Json| FusionMethod::from_options(&rerankit::options::from_json::<FuseOptions>("", v).unwrap()).unwrap_err().message;
    assert!(opts(json!({"method": "wsum", "weights": [1, 1], "phi": 0.5})).starts_with("phi: only method \"rbc\" takes phi, not \"wsum\""));
    assert!(opts(json!({"method": "rbc"})).starts_with("phi: method \"rbc\" needs phi"));
    assert!(opts(json!({"method": "gmnz"})).starts_with("gamma:"));
    assert!(opts(json!({"method": "logn_isr", "sigma": 1.5})).starts_with("sigma: must be in [0, 1]"));
    assert!(opts(json!({"method": "slidefuse", "probs": [[0.5]]})).starts_with("w: method \"slidefuse\" needs w"));
    assert!(opts(json!({"method": "condorcet", "probs": [[0.5]]})).starts_with("probs: only methods"));
    let err = rerankit::options::from_json::<FuseOptions>("", json!({"method": "slidefuse", "w": 1.5})).unwrap_err();
    assert!(err.message.starts_with("w: expected a non-negative integer"), "{}", err.message);
    // per-run parameters must match the runs
    let m = FusionMethod::from_options(&rerankit::options::from_json::<FuseOptions>("", json!({"method": "posfuse", "probs": [[0.5]]})).unwrap()).unwrap();
    assert!(fuse(&two_runs(), &m, Normalization::MinMax).unwrap_err().message.starts_with("probs: has 1 entries for 2 runs"));
    // optimizeFusion: an unknown method, one ranx does not optimise, an option of another method
    let qrels = Qrels::parse("q1 0 a 1\n").unwrap();
    let o = |v: Json| optimize_fusion(&qrels, &two_runs(), &rerankit::options::from_json::<OptimizeFusionOptions>("", v).unwrap()).unwrap_err().message;
    assert!(o(json!({"method": "slidefus"})).contains("did you mean \"slidefuse\"?"));
    assert!(o(json!({"method": "bordafuse"})).starts_with("method: \"bordafuse\" has no parameters to optimise"));
    assert!(o(json!({"method": "rbc", "minGamma": 0.1})).starts_with("minGamma: only \"gmnz\" takes minGamma"));
    assert!(o(json!({"method": "probfuse", "step": 0.1})).starts_with("step: only"));
}
