//! Speed of the WebGPU path against the CPU (tract) path: pairs/s for 100-document reranks and the matmul
//! kernel's GFLOP/s. Ignored by default (it takes minutes on a software adapter):
//!
//!   cargo test --release --test webgpu_bench -- --ignored --nocapture
//!   RERANKIT_BENCH_QUERIES=3 RERANKIT_BENCH_MAX_LENGTH=256 …   (defaults: 2 queries, 512-token window)
//!
//! Prints one JSON line per measurement (also written to target/webgpu_bench.json). On a machine without a
//! GPU the adapter is lavapipe (Mesa's software Vulkan): the numbers then measure our kernels compiled for
//! the CPU by LLVM, not a GPU.
#![cfg(all(feature = "webgpu", not(target_arch = "wasm32")))]

#[path = "inference_common.rs"]
mod common;

use common::*;
use rerankit::inference::webgpu::{block_on, Device, Gpu, GpuBert, GpuCrossEncoder};
use rerankit::inference::{LoadOptions, RerankOptions};
use std::time::Instant;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn corpus(n: usize) -> Vec<String> {
    let p = repo().join("tests/fixtures/collection/corpus.jsonl.gz");
    let out = std::process::Command::new("gzip").arg("-dc").arg(&p).output().expect("gzip");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .take(n)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{} {}", v["title"].as_str().unwrap(), v["text"].as_str().unwrap())
        })
        .collect()
}

#[test]
#[ignore]
fn bench_webgpu_vs_cpu() {
    let mut lines = Vec::new();
    let gpu = block_on(Gpu::new()).expect("a wgpu adapter (bash scripts/install-vulkan.sh)");
    let adapter = gpu.describe();
    // matmul kernel alone: the shapes of a 16 × 256-token batch of MiniLM
    for &(m, n, k) in &[(4096usize, 384usize, 384usize), (4096, 1536, 384), (4096, 384, 1536), (1024, 1024, 1024)] {
        let reps = 5;
        let s = block_on(GpuBert::time_matmul(&gpu, m, n, k, reps)).unwrap();
        let gflops = 2.0 * (m * n * k) as f64 / s / 1e9;
        let line = format!(r#"{{"bench":"matmul","m":{m},"n":{n},"k":{k},"ms":{:.2},"gflops":{gflops:.2},"adapter":{adapter:?}}}"#, s * 1e3);
        println!("{line}");
        lines.push(line);
    }
    drop(gpu);

    let queries = ["Vitamin D deficiency increases the risk of tuberculosis.", "Aspirin reduces the risk of myocardial infarction.", "Smoking causes lung cancer.", "Obesity is associated with type 2 diabetes."];
    let nq = env("RERANKIT_BENCH_QUERIES", 2).min(queries.len());
    let max_length = env("RERANKIT_BENCH_MAX_LENGTH", 512);
    let docs = corpus(100);
    let texts: Vec<&str> = docs.iter().map(|s| s.as_str()).collect();
    let dir = model_dir("ce-parity-1", "model.onnx");
    let load = LoadOptions { max_length: Some(max_length), ..Default::default() };
    let mut ce = block_on(GpuCrossEncoder::load(dir.files(), &load, Device::WebGpu, None)).unwrap();
    let opts = RerankOptions { top_k: None, max_chunks_per_doc: 1, batch_size: 16, ..Default::default() };
    // warm-up: pipelines, the probe, activation buffers
    block_on(ce.rerank_texts(queries[0], &texts[..16], &opts)).unwrap();
    assert_eq!(ce.device(), "webgpu", "{:?}", ce.warnings());
    let t = Instant::now();
    for q in &queries[..nq] {
        block_on(ce.rerank_texts(q, &texts, &opts)).unwrap();
    }
    let gpu_s = t.elapsed().as_secs_f64();
    ce.cpu().rerank_texts(queries[0], &texts[..16], &opts).unwrap();
    let t = Instant::now();
    for q in &queries[..nq] {
        ce.cpu().rerank_texts(q, &texts, &opts).unwrap();
    }
    let cpu_s = t.elapsed().as_secs_f64();
    let pairs = (nq * texts.len()) as f64;
    let line = format!(
        r#"{{"bench":"rerank","model":"ce-parity-1","docs_per_query":100,"queries":{nq},"max_length":{max_length},"batch_size":16,"webgpu_pairs_per_s":{:.2},"cpu_pairs_per_s":{:.2},"adapter":{:?},"cpu_threads":{}}}"#,
        pairs / gpu_s,
        pairs / cpu_s,
        ce.adapter().unwrap_or_default(),
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
    );
    println!("{line}");
    lines.push(line);
    let _ = std::fs::write(repo().join("target/webgpu_bench.json"), lines.join("\n") + "\n");
}
