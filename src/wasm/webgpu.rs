//! Bindings for the WebGPU backend: `WebGpuCrossEncoder` (async: WebGPU maps buffers through the event loop).
//!
//! ```js
//! const ce = await WebGpuCrossEncoder.load(modelBytes, tokenizerBytes, configBytes, {device: "auto"}, msg => console.warn(msg));
//! ce.device;                       // "webgpu" | "cpu" (after a failed probe or without an adapter: "cpu")
//! const logits = await ce.score("query", ["doc a", "doc b"], 16);   // Float32Array [n × numLabels]
//! const ranked = await ce.rerank("query", ["doc a", "doc b"], {topK: 10, batchSize: 16}); // [{index, score}]
//! ```
//! The probe against the CPU path runs on the first `score`/`rerank`; a failed probe or a GPU error switches the
//! model to the CPU for good, calls the warning callback and `device` becomes `"cpu"`.

use super::errors::{to_js_error, JsResult};
use crate::inference::webgpu::{Device, GpuCrossEncoder};
use crate::inference::{LoadOptions, ModelFiles, RerankOptions};
use crate::Error;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

fn options_object(options: &JsValue) -> Result<serde_json::Map<String, Value>, Error> {
    if options.is_undefined() || options.is_null() {
        return Ok(Default::default());
    }
    match serde_wasm_bindgen::from_value::<Value>(options.clone()) {
        Ok(Value::Object(o)) => Ok(o),
        _ => Err(Error::invalid("options", "expected an object")),
    }
}

fn usize_opt(o: &serde_json::Map<String, Value>, key: &str) -> Result<Option<usize>, Error> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().filter(|&n| n >= 1).map(|n| Some(n as usize)).ok_or_else(|| Error::invalid(key, format!("expected an integer ≥ 1, got {v}"))),
    }
}

/// A cross-encoder on WebGPU (parity-checked against the CPU path) with CPU fallback.
#[wasm_bindgen]
pub struct WebGpuCrossEncoder {
    inner: Rc<RefCell<GpuCrossEncoder>>,
}

#[wasm_bindgen]
impl WebGpuCrossEncoder {
    /// `options`: `{device?: "webgpu" | "cpu" | "auto", maxLength?, maxQueryTokens?}`; `onWarning(message)` hears
    /// every fallback to the CPU.
    pub async fn load(
        model: Vec<u8>,
        tokenizer: Vec<u8>,
        config: Option<Vec<u8>>,
        options: JsValue,
        on_warning: Option<js_sys::Function>,
    ) -> JsResult<WebGpuCrossEncoder> {
        let o = options_object(&options).map_err(to_js_error)?;
        let device = match o.get("device") {
            None | Some(Value::Null) => Device::Auto,
            Some(Value::String(s)) => Device::parse(s).map_err(to_js_error)?,
            Some(v) => return Err(to_js_error(Error::invalid("device", format!("expected \"webgpu\", \"cpu\" or \"auto\", got {v}")))),
        };
        let load = LoadOptions { max_length: usize_opt(&o, "maxLength").map_err(to_js_error)?, max_query_tokens: usize_opt(&o, "maxQueryTokens").map_err(to_js_error)? };
        let warn = on_warning.map(|f| {
            Box::new(move |m: &str| {
                let _ = f.call1(&JsValue::NULL, &JsValue::from_str(m));
            }) as Box<dyn Fn(&str)>
        });
        let files = ModelFiles { model: &model, tokenizer: &tokenizer, config: config.as_deref() };
        let ce = GpuCrossEncoder::load(files, &load, device, warn).await.map_err(to_js_error)?;
        Ok(WebGpuCrossEncoder { inner: Rc::new(RefCell::new(ce)) })
    }

    /// `"webgpu"` or `"cpu"`.
    #[wasm_bindgen(getter)]
    pub fn device(&self) -> String {
        self.inner.borrow().device().to_string()
    }

    /// The adapter's description while on WebGPU.
    #[wasm_bindgen(getter)]
    pub fn adapter(&self) -> Option<String> {
        self.inner.borrow().adapter()
    }

    /// Every fallback warning so far.
    #[wasm_bindgen(getter)]
    pub fn warnings(&self) -> Vec<String> {
        self.inner.borrow().warnings().to_vec()
    }

    #[wasm_bindgen(getter, js_name = numLabels)]
    pub fn num_labels(&self) -> usize {
        self.inner.borrow().cpu().num_labels()
    }

    /// Raw logits of (query, text) pairs, `Float32Array [texts.length × numLabels]`.
    pub fn score(&self, query: String, texts: Vec<String>, batch_size: Option<usize>) -> js_sys::Promise {
        let inner = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let mut ce = inner.try_borrow_mut().map_err(|_| to_js_error(Error::invalid("WebGpuCrossEncoder", "another call is still running")))?;
            let pairs: Vec<(&str, &str)> = texts.iter().map(|t| (query.as_str(), t.as_str())).collect();
            let logits = ce.score(&pairs, batch_size.unwrap_or(16).max(1)).await.map_err(to_js_error)?;
            Ok(js_sys::Float32Array::from(&logits[..]).into())
        })
    }

    /// Reranks texts for `query` (`{topK?, batchSize?, maxChunksPerDoc?, chunkOverlap?, scaleScore?,
    /// calibrationFactor?, scoreThreshold?}`): `[{index, score}]`, best first.
    pub fn rerank(&self, query: String, texts: Vec<String>, options: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let o = options_object(&options).map_err(to_js_error)?;
            let mut r = RerankOptions::default();
            match o.get("topK") {
                Some(Value::Null) => r.top_k = None,
                Some(_) => r.top_k = usize_opt(&o, "topK").map_err(to_js_error)?,
                None => {}
            }
            if let Some(n) = usize_opt(&o, "batchSize").map_err(to_js_error)? {
                r.batch_size = n;
            }
            if let Some(n) = usize_opt(&o, "maxChunksPerDoc").map_err(to_js_error)? {
                r.max_chunks_per_doc = n;
            }
            if let Some(n) = o.get("chunkOverlap").and_then(Value::as_u64) {
                r.chunk_overlap = n as usize;
            }
            if let Some(b) = o.get("scaleScore").and_then(Value::as_bool) {
                r.scale_score = Some(b);
            }
            if let Some(c) = o.get("calibrationFactor").and_then(Value::as_f64) {
                r.calibration_factor = c as f32;
            }
            r.score_threshold = o.get("scoreThreshold").and_then(Value::as_f64).map(|x| x as f32);
            let mut ce = inner.try_borrow_mut().map_err(|_| to_js_error(Error::invalid("WebGpuCrossEncoder", "another call is still running")))?;
            let refs: Vec<&str> = texts.iter().map(|s| s.as_str()).collect();
            let ranked = ce.rerank_texts(&query, &refs, &r).await.map_err(to_js_error)?;
            let out = js_sys::Array::new();
            for x in ranked {
                let o = js_sys::Object::new();
                js_sys::Reflect::set(&o, &"index".into(), &JsValue::from(x.index as u32))?;
                js_sys::Reflect::set(&o, &"score".into(), &JsValue::from(x.score))?;
                out.push(&o);
            }
            Ok(out.into())
        })
    }
}
