//! Native throughput for bench/rerank.mjs (ignored in `cargo test`; run by the bench):
//! `RERANKIT_BENCH_QUERIES=5 cargo test --profile native-test --test inference bench:: -- --ignored --nocapture`
//! prints one JSON line per model variant: load time and pairs/s reranking each query's BM25 top-100.


use crate::common::*;
use rerankit::inference::{CrossEncoder, ModelLoadOptions, RerankOptions};
use std::collections::HashMap;

#[test]
#[ignore]
fn bench_native_rerank() {
    let n: usize = std::env::var("RERANKIT_BENCH_QUERIES").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let batch: usize = std::env::var("RERANKIT_BENCH_BATCH").ok().and_then(|s| s.parse().ok()).unwrap_or(16);
    let max_length: Option<usize> = std::env::var("RERANKIT_BENCH_MAX_LENGTH").ok().and_then(|s| s.parse().ok());
    let coll = repo().join("tests/fixtures/collection");
    let out = std::process::Command::new("gzip").arg("-dc").arg(coll.join("corpus.jsonl.gz")).output().unwrap();
    let docs: HashMap<String, String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["_id"].as_str().unwrap().into(), format!("{} {}", v["title"].as_str().unwrap(), v["text"].as_str().unwrap()))
        })
        .collect();
    let queries: HashMap<String, String> = std::fs::read_to_string(coll.join("queries.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["_id"].as_str().unwrap().into(), v["text"].as_str().unwrap().into())
        })
        .collect();
    let mut run: Vec<(String, Vec<String>)> = Vec::new();
    for l in std::fs::read_to_string(coll.join("runs/bm25.trec")).unwrap().lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if run.last().is_none_or(|(q, _)| q != f[0]) {
            run.push((f[0].into(), Vec::new()));
        }
        run.last_mut().unwrap().1.push(f[2].into());
    }
    run.sort_by_key(|(q, _)| q.parse::<u64>().unwrap());
    for file in ["model.onnx", "model_int8.onnx"] {
        let dir = model_dir("ce-probe", file);
        let t = std::time::Instant::now();
        let ce = CrossEncoder::load(dir.files(), &ModelLoadOptions { max_length, ..Default::default() }).unwrap();
        let load_ms = t.elapsed().as_secs_f64() * 1e3;
        let options = RerankOptions { top_k: None, batch_size: batch, max_chunks_per_doc: 1, ..Default::default() };
        let t = std::time::Instant::now();
        let mut pairs = 0;
        for (q, ids) in run.iter().take(n) {
            let texts: Vec<&str> = ids.iter().map(|d| docs[d].as_str()).collect();
            pairs += ce.rerank_texts(&queries[q], &texts, &options).unwrap().len();
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "BENCH {{\"engine\":\"rerankit-native\",\"model\":\"{file}\",\"queries\":{n},\"pairs\":{pairs},\"batch\":{batch},\"load_ms\":{load_ms:.1},\"seconds\":{s:.3},\"pairs_per_s\":{:.2}}}",
            pairs as f64 / s
        );
    }
}
