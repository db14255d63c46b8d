//! Speed of the WebGPU path against the CPU (tract) path: pairs/s for 100-document reranks and the matmul
//! kernel's GFLOP/s. Ignored by default (it takes minutes on a software adapter):
//!
//!   cargo test --release --test webgpu bench:: -- --ignored --nocapture
//!   RERANKIT_BENCH_QUERIES=3 RERANKIT_BENCH_MAX_LENGTH=256 …   (defaults: 2 queries, 512-token window)
//!   RERANKIT_BENCH_MODEL=ce-parity-1   the model folder under $RERANKIT_MODELS
//!   RERANKIT_BENCH_BATCHES=16,32,100   the WebGPU batch sizes to time (the CPU runs at the first)
//!   RERANKIT_BENCH_CPU_DOCS=100        documents per CPU rerank (fewer for large models)
//!   RERANKIT_BENCH_MATMUL=0            skip the matmul kernel timings
//!
//! Prints one JSON line per measurement (also written to target/webgpu_bench.json). On a machine without a
//! GPU the adapter is lavapipe (Mesa's software Vulkan): the numbers then measure our kernels compiled for
//! the CPU by LLVM, not a GPU.
#![cfg(all(feature = "webgpu", not(target_arch = "wasm32")))]


use crate::common::*;
use rerankit::inference::webgpu::{block_on, Gpu, GpuBert};
use rerankit::inference::{CrossEncoderEngine, Device, ModelLoadOptions, RerankOptions};
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
    let shapes: &[(usize, usize, usize)] = if env("RERANKIT_BENCH_MATMUL", 1) == 0 { &[] } else { &[(4096usize, 384usize, 384usize), (4096, 1536, 384), (4096, 384, 1536), (1024, 1024, 1024), (4096, 4096, 4096)] };
    for &(m, n, k) in shapes {
        // one submission of `reps` products: grow it until it lasts ≥ 0.2 s, so that submission and read-back
        // latency (~0.1 ms on a GPU) do not count
        let mut reps = 5;
        let mut s = block_on(GpuBert::time_matmul(&gpu, m, n, k, reps)).unwrap();
        while s * (reps as f64) < 0.2 && reps < 100_000 {
            reps = (reps * 10).min(100_000);
            s = block_on(GpuBert::time_matmul(&gpu, m, n, k, reps)).unwrap();
        }
        let gflops = 2.0 * (m * n * k) as f64 / s / 1e9;
        let line = format!(r#"{{"bench":"matmul","m":{m},"n":{n},"k":{k},"reps":{reps},"ms":{:.4},"gflops":{gflops:.2},"adapter":{adapter:?}}}"#, s * 1e3);
        println!("{line}");
        lines.push(line);
    }
    drop(gpu);

    let queries = ["Vitamin D deficiency increases the risk of tuberculosis.", "Aspirin reduces the risk of myocardial infarction.", "Smoking causes lung cancer.", "Obesity is associated with type 2 diabetes."];
    let nq = env("RERANKIT_BENCH_QUERIES", 2).min(queries.len());
    let max_length = env("RERANKIT_BENCH_MAX_LENGTH", 512);
    let docs = corpus(100);
    let texts: Vec<&str> = docs.iter().map(|s| s.as_str()).collect();
    let model = std::env::var("RERANKIT_BENCH_MODEL").unwrap_or_else(|_| "ce-parity-1".into());
    let batches: Vec<usize> = std::env::var("RERANKIT_BENCH_BATCHES")
        .ok()
        .map(|v| v.split(',').filter_map(|b| b.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![16]);
    let dir = model_dir(&model, "model.onnx");
    let load = ModelLoadOptions { max_length: Some(max_length), ..Default::default() };
    let mut ce = block_on(CrossEncoderEngine::load(dir.files(), &load, Device::WebGpu, None)).unwrap();
    // tokenization runs on the CPU for both paths: its share bounds what the GPU can gain
    let t = Instant::now();
    let tokens: usize = texts.iter().map(|d| ce.cpu().encode_pair(queries[0], d).unwrap().len()).sum();
    let encode_ms = t.elapsed().as_secs_f64() * 1e3;
    let cpu_docs = env("RERANKIT_BENCH_CPU_DOCS", 100).clamp(1, texts.len());
    let mut gpu_rates = Vec::new();
    for &batch_size in &batches {
        let opts = RerankOptions { top_k: None, max_chunks_per_doc: 1, batch_size, ..Default::default() };
        // warm-up: pipelines, the probe, activation buffers of this batch size
        block_on(ce.rerank_texts(queries[0], &texts, &opts)).unwrap();
        assert_eq!(ce.device(), "webgpu", "{:?}", ce.warnings());
        let t = Instant::now();
        for q in &queries[..nq] {
            block_on(ce.rerank_texts(q, &texts, &opts)).unwrap();
        }
        gpu_rates.push(format!("\"{batch_size}\":{:.2}", (nq * texts.len()) as f64 / t.elapsed().as_secs_f64()));
    }
    // where a batch's GPU time goes (the middle batch of the first query's 100 pairs)
    let pairs: Vec<(&str, &str)> = texts.iter().map(|d| (queries[0], *d)).collect();
    if let Some(kinds) = block_on(ce.profile_gpu(&pairs, batches[0], 20)).unwrap() {
        let total: f64 = kinds.iter().map(|(_, s)| s).sum();
        let parts: Vec<String> = kinds.iter().map(|(n, s)| format!("{n:?}:{:.3}", s * 1e3)).collect();
        let line = format!(r#"{{"bench":"kernels","model":{model:?},"batch_size":{},"max_length":{max_length},"ms_per_batch":{{{}}},"total_ms":{:.3}}}"#, batches[0], parts.join(","), total * 1e3);
        println!("{line}");
        lines.push(line);
    }
    let opts = RerankOptions { top_k: None, max_chunks_per_doc: 1, batch_size: batches[0], ..Default::default() };
    ce.cpu().rerank_texts(queries[0], &texts[..16], &opts).unwrap();
    let t = Instant::now();
    for q in &queries[..nq] {
        ce.cpu().rerank_texts(q, &texts[..cpu_docs], &opts).unwrap();
    }
    let cpu_s = t.elapsed().as_secs_f64();
    let cpu_pairs = (nq * cpu_docs) as f64;
    let line = format!(
        r#"{{"bench":"rerank","model":{model:?},"docs_per_query":100,"queries":{nq},"max_length":{max_length},"tokens_per_rerank":{tokens},"encode_ms_per_rerank":{encode_ms:.1},"webgpu_pairs_per_s_by_batch":{{{}}},"cpu_batch_size":{},"cpu_docs_per_rerank":{cpu_docs},"cpu_pairs_per_s":{:.2},"adapter":{:?},"tract_threads":1,"machine_cores":{}}}"#,
        gpu_rates.join(","),
        batches[0],
        cpu_pairs / cpu_s,
        ce.adapter().unwrap_or_default(),
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
    );
    println!("{line}");
    lines.push(line);
    let _ = std::fs::write(repo().join("target/webgpu_bench.json"), lines.join("\n") + "\n");
}
