//! SQuAD normalisation / EM / F1 against the official scripts' own outputs (tests/fixtures/squad, made by
//! scripts/fixtures/haystack/make_squad.py running evaluate-v1.1.py / evaluate-v2.0.py).

use rerankit::eval::haystack::squad::{dumps_official, evaluate_v1, evaluate_v2, normalize_answer, SquadVersion};
use serde_json::Value;
use std::io::Read;
use std::path::PathBuf;

fn path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/squad").join(rel)
}

fn gunzip(rel: &str) -> String {
    let bytes = std::fs::read(path(rel)).unwrap();
    let mut s = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut s).unwrap();
    s
}

#[test]
fn normalisation_equals_the_official_function() {
    let text = gunzip("normalize.jsonl.gz");
    let mut n = 0;
    let mut bad = Vec::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let (input, v1, v2) = (v[0].as_str().unwrap(), v[1].as_str().unwrap(), v[2].as_str().unwrap());
        assert_eq!(v1, v2, "the two official scripts normalise alike");
        let got = normalize_answer(input);
        if got != v2 {
            bad.push(format!("{input:?}: {got:?} != {v2:?}"));
        }
        n += 1;
    }
    assert!(n >= 20_000, "{n} strings");
    assert!(bad.is_empty(), "{} of {n} differ:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}

#[test]
fn em_f1_equal_the_official_scripts() {
    let mut files: Vec<_> = std::fs::read_dir(path("expected")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 3);
    for f in files {
        let exp: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let name = f.file_stem().unwrap().to_str().unwrap();
        let dataset: Value = serde_json::from_str(&gunzip(exp["dataset"].as_str().unwrap())).unwrap();
        let preds: Value = serde_json::from_str(&std::fs::read_to_string(path(&format!("predictions/{name}.json"))).unwrap()).unwrap();
        let (got, version) = if exp["version"] == "v1.1" {
            (evaluate_v1(&dataset, &preds).unwrap(), SquadVersion::V1_1)
        } else {
            (evaluate_v2(&dataset, &preds).unwrap(), SquadVersion::V2_0)
        };
        let want = exp["result"].as_object().unwrap();
        assert_eq!(got.output.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>(), "{name}");
        for (k, w) in want {
            let g = &got.output[k];
            assert!((g.as_f64().unwrap() - w.as_f64().unwrap()).abs() <= 1e-9, "{name} {k}: {g} != {w}");
        }
        assert_eq!(got.messages.len() as u64, exp["stderr_lines"].as_u64().unwrap() + if version == SquadVersion::V2_0 { 0 } else { 0 }, "{name}: reported lines");
        assert_eq!(dumps_official(&got.output, version).trim(), exp["stdout_json"].as_str().unwrap().trim(), "{name}: printed like the script");
    }
}

#[test]
fn bad_squad_input_is_a_typed_error() {
    let e = evaluate_v1(&serde_json::json!({"data": 3}), &serde_json::json!({})).unwrap_err();
    assert_eq!(e.code, rerankit::ErrorCode::Parse);
    let ds = serde_json::json!({"version": "1.1", "data": [{"paragraphs": [{"qas": [{"id": "q", "answers": [{"text": "x"}]}]}]}]});
    let e = evaluate_v1(&ds, &serde_json::json!({"q": 5})).unwrap_err();
    assert_eq!(e.code, rerankit::ErrorCode::Parse);
    let r = evaluate_v1(&ds, &serde_json::json!({"other": "x"})).unwrap();
    assert_eq!(r.messages, ["Unanswered question q will receive score 0."]);
}
