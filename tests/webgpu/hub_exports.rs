//! WebGPU on every fp32/fp16 form of the Hub fixtures (tests/fixtures/hub): each either runs on the GPU within
//! 1e-3 of the CPU path (the parity probe passes) or falls back to the CPU with a warning that names the part
//! it cannot map. The forms docs/models.md's compatibility table ("Tested forms") lists as WebGPU must run on it: torch.onnx exports
//! (TorchScript, dynamo, external data), optimum O1 and fp16 of BERT, DistilBERT, ELECTRA and XLM-R. Prints the
//! table (`-- --nocapture`).
#![cfg(all(feature = "webgpu", not(target_arch = "wasm32")))]

use crate::common::repo;
use rerankit::inference::webgpu::block_on;
use rerankit::inference::{CrossEncoderEngine, Device, ModelLoadOptions, ModelDir};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;

#[test]
fn every_float_form_runs_on_the_gpu_or_falls_back_naming_the_part() {
    let hub = repo().join("tests/fixtures/hub");
    let mut table = Vec::new();
    for entry in std::fs::read_dir(hub.join("references")).unwrap() {
        let r: Value = serde_json::from_slice(&std::fs::read(entry.unwrap().path()).unwrap()).unwrap();
        if r["output"] != "logits" {
            continue;
        }
        let pairs: Vec<(&str, &str)> = r["pairs"].as_array().unwrap().iter().map(|p| (p[0].as_str().unwrap(), p[1].as_str().unwrap())).collect();
        for (form, meta) in r["forms"].as_object().unwrap() {
            if form.contains("quant") || form.contains("int8") || form.contains("uint8") || form.contains("q4") {
                continue; // integer forms run on the CPU by design (docs/models.md, "Tested forms")
            }
            let dir = ModelDir::read(hub.join(r["repo"].as_str().unwrap()), meta["file"].as_str().unwrap()).unwrap();
            let heard = Rc::new(RefCell::new(Vec::<String>::new()));
            let h = heard.clone();
            let mut ce = block_on(CrossEncoderEngine::load(dir.files(), &ModelLoadOptions::default(), Device::WebGpu, Some(Box::new(move |m: &str| h.borrow_mut().push(m.to_string())))))
                .unwrap_or_else(|e| panic!("{} {form}: {e}", r["repo"]));
            let gpu = block_on(ce.score(&pairs, 4)).unwrap();
            let cpu = ce.cpu().score(&pairs, 4).unwrap();
            let device = ce.device();
            let warnings = heard.borrow().join(" | ");
            let family = r["model_type"].as_str().unwrap();
            let fused = ["model_O2", "model_O3", "model_O4", "model_ort_fused"].contains(&form.as_str());
            if family != "modernbert" && !fused {
                assert_eq!(device, "webgpu", "{} {form} fell back: {warnings}", r["repo"]);
            }
            if device == "webgpu" {
                let d = gpu.iter().zip(&cpu).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
                assert!(d <= 1e-3, "{} {form}: GPU {d} from the CPU", r["repo"]);
                table.push(format!("{} {form}: webgpu (max |Δ| {d:.1e})", r["repo"]));
            } else {
                assert!(!warnings.is_empty(), "{} {form}: fell back without saying why", r["repo"]);
                assert_eq!(gpu, cpu, "{} {form}: the fallback must be the CPU's answer", r["repo"]);
                table.push(format!("{} {form}: cpu ({warnings})", r["repo"]));
            }
        }
    }
    table.sort();
    eprintln!("{}", table.join("\n"));
}

