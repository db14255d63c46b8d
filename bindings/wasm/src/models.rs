//! The two model classes: `CrossEncoderEngine` and `EmbedderEngine`, rerankit's engines (src/inference/engine.rs)
//! as JavaScript sees them (pkg/models/engine.ts wraps each in its class of the same name), one per kind of model: the
//! CPU path (tract), or our WGSL kernels on WebGPU parity-checked against it, with the CPU as fallback. A call is
//! made as its batches (bindings/wasm/src/model_work.rs): on the CPU each runs synchronously (`runWorkBatch`), on
//! WebGPU asynchronously (`runDeviceBatch`: WebGPU hands results back through the event loop).
//!
//! ```js
//! const core = await CrossEncoderEngine.load({model, tokenizer, config}, {maxLength}, "auto", msg => console.warn(msg));
//! core.device;                                   // "webgpu" | "cpu" (asked for, no adapter, unsupported graph, failed probe)
//! const work = core.rerankWork(["q"], [["doc a", "doc b"]], false, {topK: 10});
//! for (let i = 0; i < work.batchCount; i++) work.setOutput(i, await core.runDeviceBatch(work, i));
//! work.finishRanking();                          // [[{index, score}]]
//! ```
//! On WebGPU the probe against the CPU path runs on the first batch; a failed probe or a GPU error switches the
//! model to the CPU for good, calls the warning callback, and `device` becomes `"cpu"`. Where the model starts is
//! decided before loading (`placeDevice`, src/inference/device.rs).

use super::convert::{count_arg, read_options, string_arg, to_js};
use super::errors::{js, to_js_error, JsResult};
use super::inference::{cross_encoder_sas, embedder_sas, external_files, string_list};
use rerankit::inference::{
    engine, Device, EmbedOptions, ExternalFile, ModelLoadOptions, Pooling, PreparedModel, ProbeReport, WarningFn,
};
use rerankit::{Error, Result};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const MODEL_TYPES: &'static str = r#"
/** The parity probe's verdict (first use on WebGPU): largest |GPU − CPU| over the probe batch's outputs. */
export interface ProbeReport {
  /** Largest |GPU − CPU| over the probe's outputs. */
  maxAbsDiff: number;
  /** Whether it is within the tolerance (1e-3), so the model stays on the GPU. */
  passed: boolean;
  /** Outputs compared. */
  values: number;
}
/** The token ids of a pair as the model sees it. */
export interface EncodedPair {
  /** Token ids, special tokens included. */
  inputIds: number[];
  /** 0 for the query's tokens, 1 for the document's (BERT's segment ids). */
  tokenTypeIds: number[];
}
"#;

/// A loaded cross-encoder; its engine is the CPU or WebGPU (with the CPU as fallback).
#[wasm_bindgen(js_name = CrossEncoderEngine)]
pub struct CrossEncoderEngine {
    pub(super) inner: Rc<RefCell<engine::CrossEncoderEngine>>,
    num_labels: usize,
    max_length: usize,
}

/// Runs `f` on the model inside a promise. Calls are serialised by the TypeScript wrapper; a call arriving
/// while another awaits the GPU is refused rather than interleaved.
pub(super) fn with_model<M: 'static, F, Fut>(inner: &Rc<RefCell<M>>, f: F) -> js_sys::Promise
where
    F: FnOnce(Rc<RefCell<M>>) -> Fut + 'static,
    Fut: std::future::Future<Output = Result<JsValue>> + 'static,
{
    let inner = inner.clone();
    wasm_bindgen_futures::future_to_promise(async move { f(inner).await.map_err(to_js_error) })
}

/// What both loaders read the same way: `files` (`{model, tokenizer, config?, external?}`, bytes), the load
/// options and the device.
struct LoadRequest {
    model: Vec<u8>,
    tokenizer: Vec<u8>,
    config: Option<Vec<u8>>,
    external: Vec<ExternalFile>,
    limits: ModelLoadOptions,
    device: Device,
}

impl LoadRequest {
    fn read(files: &JsValue, options: &JsValue, device: &JsValue) -> Result<LoadRequest> {
        let file = |key: &str| js_sys::Reflect::get(files, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        let config = file("config");
        Ok(LoadRequest {
            model: bytes("model", &file("model"))?,
            tokenizer: bytes("tokenizer", &file("tokenizer"))?,
            config: if config.is_null() || config.is_undefined() { None } else { Some(bytes("config", &config)?) },
            external: external_files(&file("external"))?,
            limits: read_options("options", options)?,
            device: Device::parse("device", &string_arg("device", device)?)?,
        })
    }

    /// The model to build, with the load's options and device. The ONNX bytes (and external data) are freed as
    /// soon as they are decoded, before the engine builds its plan: the file's copy in wasm memory does not add to
    /// the load's peak.
    fn prepare(&mut self) -> Result<(PreparedModel<'_>, &ModelLoadOptions, Device)> {
        let (model, external) = (std::mem::take(&mut self.model), std::mem::take(&mut self.external));
        let prepared = PreparedModel::prepare(&model, &external, &self.tokenizer, self.config.as_deref())?;
        Ok((prepared, &self.limits, self.device))
    }
}

/// A file's bytes, which must come as a `Uint8Array`.
fn bytes(name: &str, value: &JsValue) -> Result<Vec<u8>> {
    value
        .dyn_ref::<js_sys::Uint8Array>()
        .map(js_sys::Uint8Array::to_vec)
        .ok_or_else(|| Error::invalid(name, "expected the file's bytes as a Uint8Array"))
}

pub(super) fn busy() -> Error {
    Error::invalid("model", "another call on this WebGPU model is still running (await it first)")
}

/// The JS warning callback as the Rust one (anything but a function: none).
fn warning_fn(on_warning: JsValue) -> Option<WarningFn> {
    on_warning.dyn_into::<js_sys::Function>().ok().map(|f| {
        Box::new(move |m: &str| {
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(m));
        }) as WarningFn
    })
}

/// `{maxAbsDiff, passed, values}`, or `undefined` before the probe ran.
fn probe_to_js(report: Option<&ProbeReport>) -> JsResult<JsValue> {
    let Some(p) = report else { return Ok(JsValue::UNDEFINED) };
    let mut o = Map::new();
    o.insert("maxAbsDiff".into(), Value::from(p.max_abs_diff as f64));
    o.insert("passed".into(), Value::from(p.passed));
    o.insert("values".into(), Value::from(p.values));
    js(to_js(&Value::Object(o)))
}

/// The device getters both cores share (their models wrap the same WebGPU backend): where the next batch runs,
/// the adapter, the fallback warnings and the parity probe's verdict.
macro_rules! device_getters {
    ($core:ident) => {
        #[wasm_bindgen(js_class = $core)]
        impl $core {
            /// `"webgpu"` or `"cpu"`: where the next batch runs.
            #[wasm_bindgen(getter, unchecked_return_type = "\"webgpu\" | \"cpu\"")]
            pub fn device(&self) -> String {
                self.inner.try_borrow().map(|c| c.device().to_string()).unwrap_or_else(|_| "webgpu".into())
            }

            /// The adapter's description while on WebGPU.
            #[wasm_bindgen(getter)]
            pub fn adapter(&self) -> Option<String> {
                self.inner.try_borrow().ok().and_then(|c| c.adapter())
            }

            /// Every fallback warning so far.
            #[wasm_bindgen(getter)]
            pub fn warnings(&self) -> Vec<String> {
                self.inner.try_borrow().map(|c| c.warnings().to_vec()).unwrap_or_default()
            }

            /// The parity probe's verdict once it ran: `{maxAbsDiff, passed, values}`, else `undefined`.
            #[wasm_bindgen(getter, unchecked_return_type = "ProbeReport | undefined")]
            pub fn probe(&self) -> JsResult<JsValue> {
                let Ok(c) = self.inner.try_borrow() else { return Ok(JsValue::UNDEFINED) };
                probe_to_js(c.probe_report())
            }
        }
    };
}

device_getters!(CrossEncoderEngine);
device_getters!(EmbedderEngine);

#[wasm_bindgen(js_class = CrossEncoderEngine)]
impl CrossEncoderEngine {
    /// Loads the CPU model (tokenizer, probe oracle, fallback) and, unless `device` is `"cpu"`, the GPU one.
    /// `options`: `{maxLength?, maxQueryTokens?}`; `device`: `"webgpu" | "cpu" | "auto"`; `onWarning(message)`
    /// hears every fallback to the CPU.
    pub async fn load(files: JsValue, options: JsValue, device: JsValue, on_warning: JsValue) -> JsResult<CrossEncoderEngine> {
        let mut r = js(LoadRequest::read(&files, &options, &device))?;
        let (model, limits, place) = js(r.prepare())?;
        let ce = js(engine::CrossEncoderEngine::load_prepared(model, limits, place, warning_fn(on_warning)).await)?;
        let (num_labels, max_length) = (ce.cpu().num_labels(), ce.cpu().max_length());
        Ok(CrossEncoderEngine { inner: Rc::new(RefCell::new(ce)), num_labels, max_length })
    }

    /// Logits per pair (fixed at load: readable while a call is in flight).
    #[wasm_bindgen(getter, js_name = numLabels)]
    pub fn num_labels(&self) -> usize {
        self.num_labels
    }

    #[wasm_bindgen(getter, js_name = maxLength)]
    pub fn max_length(&self) -> usize {
        self.max_length
    }

    /// Token ids of the pair as the model sees it (only_second truncation).
    #[wasm_bindgen(js_name = encodePair, unchecked_return_type = "EncodedPair")]
    pub fn encode_pair(&self, query: JsValue, document: JsValue) -> JsResult<JsValue> {
        let c = self.inner.try_borrow().map_err(|_| to_js_error(busy()))?;
        js((|| {
            let s = c.cpu().encode_pair(&string_arg("query", &query)?, &string_arg("document", &document)?)?;
            let mut o = Map::new();
            o.insert("inputIds".into(), Value::from(s.ids));
            o.insert("tokenTypeIds".into(), Value::from(s.type_ids));
            to_js(&Value::Object(o))
        })())
    }

    /// Haystack's semantic answer similarity of `[prediction, gold]` pairs, on the model's CPU path whatever its
    /// engine (exact, and small: SAS scores short answers).
    #[wasm_bindgen(js_name = sasScores)]
    pub fn sas_scores(&self, pairs: JsValue, batch_size: JsValue) -> JsResult<Vec<f64>> {
        let c = self.inner.try_borrow().map_err(|_| to_js_error(busy()))?;
        js(count_arg("batchSize", &batch_size).and_then(|b| cross_encoder_sas(c.cpu(), &pairs, b)))
    }
}

/// A loaded bi-encoder; its engine is the CPU or WebGPU (mean pooling on the GPU, parity-checked).
///
/// ```js
/// const core = await EmbedderEngine.load({model, tokenizer, config}, {maxLength}, "auto", "mean", msg => console.warn(msg));
/// await core.embed(["text a", "text b"], {normalize: true, batchSize: 32}, false);   // Float32Array [n × dimension]
/// ```
#[wasm_bindgen(js_name = EmbedderEngine)]
pub struct EmbedderEngine {
    pub(super) inner: Rc<RefCell<engine::EmbedderEngine>>,
    dimension: usize,
}

#[wasm_bindgen(js_class = EmbedderEngine)]
impl EmbedderEngine {
    /// As `CrossEncoderEngine.load`, for encoders with a `last_hidden_state` output; `pooling`: `"mean"`, `"cls"` or
    /// `"lastToken"` (only mean pooling runs on WebGPU).
    pub async fn load(
        files: JsValue,
        options: JsValue,
        device: JsValue,
        pooling: JsValue,
        on_warning: JsValue,
    ) -> JsResult<EmbedderEngine> {
        let mut r = js(LoadRequest::read(&files, &options, &device))?;
        let pooling = js(string_arg("pooling", &pooling).and_then(|p| Pooling::parse(&p)))?;
        let (model, limits, place) = js(r.prepare())?;
        let e = js(engine::EmbedderEngine::load_prepared(model, limits, place, warning_fn(on_warning)).await)?.with_pooling(pooling);
        let dimension = e.cpu().dimension();
        Ok(EmbedderEngine { inner: Rc::new(RefCell::new(e)), dimension })
    }

    #[wasm_bindgen(getter)]
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// Haystack's semantic answer similarity of `[prediction, gold]` pairs, on the model's CPU twin.
    #[wasm_bindgen(js_name = sasScores)]
    pub fn sas_scores(&self, pairs: JsValue, batch_size: JsValue) -> JsResult<Vec<f64>> {
        let e = self.inner.try_borrow().map_err(|_| to_js_error(busy()))?;
        js(count_arg("batchSize", &batch_size).and_then(|b| embedder_sas(e.cpu(), &pairs, b)))
    }

    /// Embeddings of `texts`, concatenated: a `Float32Array [texts.length × dimension]`; `options`:
    /// `{normalize, batchSize}`, `normalize` defaulting to `default_normalize` (the model's, set at load).
    #[wasm_bindgen(unchecked_return_type = "Promise<Float32Array>")]
    pub fn embed(&self, texts: JsValue, options: JsValue, default_normalize: bool) -> js_sys::Promise {
        with_model(&self.inner, move |inner| async move {
            let t = string_list("texts", &texts)?;
            let options: EmbedOptions = read_options("options", &options)?;
            let refs: Vec<&str> = t.iter().map(String::as_str).collect();
            let mut e = inner.try_borrow_mut().map_err(|_| busy())?;
            let vectors = e.embed(&refs, options.normalize.unwrap_or(default_normalize), options.batch_size).await?;
            Ok(js_sys::Float32Array::from(&vectors.concat()[..]).into())
        })
    }
}
