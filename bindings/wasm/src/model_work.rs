//! A model call as the padded batches it runs. Inline (`workers: 0`) the batches stay in wasm: JavaScript only
//! says when to run the next one (`runWorkBatch`), so that it can turn the event loop, report progress and stop on
//! an AbortSignal between batches; no token ids or logits cross the boundary. A worker pool (pkg/models/pool.ts) asks for
//! each batch's token ids (`batch`), runs it in a worker's copy of the model and hands its output back
//! (`setOutput`). Either way [`ModelWork::finish_ranking`] (or `finish_values`) makes the answer from the outputs, and the batches are the
//! single-threaded path's (rerankit::inference::batch_work), so the answer is the same bit for bit wherever they
//! ran.
//!
//! ```js
//! const work = core.rerankWork(queries, lists, nested, options);       // tokenised and batched, nothing run
//! for (let i = 0; i < work.batchCount; i++) core.runWorkBatch(work, i); // or: work.setOutput(i, worker.runBatch(work.batch(i)))
//! const ranked = work.finishRanking();                                   // score and embed: work.finishValues()
//! ```

use super::convert::read_options;
use super::errors::{js, JsResult};
use super::inference::{ranked_to_js, rerank_input, string_list, string_pairs};
use super::models::{busy, with_model, CrossEncoderEngine, EmbedderEngine};
use rerankit::inference::batching::Batch;
use rerankit::inference::tokenization::PairTokenizer;
use rerankit::inference::{BatchWork, EmbedOptions, RerankWork, ScoreOptions};
use rerankit::{Error, Result};
use wasm_bindgen::prelude::*;

enum Kind {
    /// `score`: logits in input order.
    Logits(BatchWork),
    /// `embed`: pooled vectors in input order.
    Vectors { work: BatchWork, normalize: bool },
    /// `rerank`/`rerankBatch`: ranked groups.
    Ranking(RerankWork),
}

#[wasm_bindgen(typescript_custom_section)]
const WORK_BATCH_TYPE: &'static str = r#"
/** One batch of a call as a pool worker's `runBatch` takes it: row-major `[rows × len]` token ids (and, for an
 *  embedder, whether to normalise). */
export interface WorkBatch {
  /** Padded length of every row. */
  len: number;
  /** Token ids, `[rows × len]`. */
  inputIds: Int32Array;
  /** 1 for a token, 0 for padding, `[rows × len]`. */
  attentionMask: Int32Array;
  /** Segment ids, `[rows × len]`. */
  tokenTypeIds: Int32Array;
  /** Embedders: L2-normalise each vector. */
  normalize?: boolean;
}
"#;

/// The batches of one call, their outputs as they come in, and what turns the outputs into its answer.
#[wasm_bindgen]
pub struct ModelWork {
    kind: Kind,
    outputs: Vec<Option<Vec<f32>>>,
}

impl ModelWork {
    fn new(kind: Kind) -> ModelWork {
        let mut work = ModelWork { kind, outputs: Vec::new() };
        work.outputs = vec![None; work.batches().batches.len()];
        work
    }

    fn batches(&self) -> &BatchWork {
        match &self.kind {
            Kind::Logits(work) | Kind::Vectors { work, .. } => work,
            Kind::Ranking(r) => &r.work,
        }
    }

    fn checked_batch(&self, i: usize) -> Result<&Batch> {
        self.batches().batches.get(i).ok_or_else(|| Error::invalid("batch", format!("{i} is past the last of {} batches", self.outputs.len())))
    }

    /// Keeps batch `i`'s output, which must be its rows × the call's width.
    fn keep(&mut self, i: usize, values: Vec<f32>) -> Result<()> {
        let expected = self.checked_batch(i)?.rows.len() * self.batches().width;
        if values.len() != expected {
            return Err(Error::invalid(&format!("outputs[{i}]"), format!("{} values, expected {expected}", values.len())));
        }
        self.outputs[i] = Some(values);
        Ok(())
    }

    /// Every batch's output, in batch order; an error names the first batch that has not run.
    fn outputs(&self) -> Result<Vec<&[f32]>> {
        self.outputs
            .iter()
            .enumerate()
            .map(|(i, o)| o.as_deref().ok_or_else(|| Error::invalid(&format!("outputs[{i}]"), "this batch has not run")))
            .collect()
    }

    fn normalize(&self) -> bool {
        matches!(self.kind, Kind::Vectors { normalize: true, .. })
    }
}

#[wasm_bindgen]
impl ModelWork {
    #[wasm_bindgen(getter, js_name = batchCount)]
    pub fn batch_count(&self) -> usize {
        self.batches().batches.len()
    }

    /// Model inputs over all batches (pairs, texts, or a rerank's document chunks).
    #[wasm_bindgen(getter, js_name = rowCount)]
    pub fn row_count(&self) -> usize {
        self.batches().rows
    }

    /// Batch `i` as a worker's `runBatch` takes it: `{len, inputIds, attentionMask, tokenTypeIds}` (Int32Arrays,
    /// row-major `[rows × len]`) and, for embeddings, `normalize`.
    #[wasm_bindgen(unchecked_return_type = "WorkBatch")]
    pub fn batch(&self, i: usize) -> JsResult<JsValue> {
        let b = self.checked_batch(i).map_err(super::errors::to_js_error)?;
        let o = js_sys::Object::new();
        let int32 = |v: &[i64]| js_sys::Int32Array::from(&v.iter().map(|&x| x as i32).collect::<Vec<i32>>()[..]);
        let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&o, &JsValue::from_str(k), v).map(|_| ());
        set("len", &JsValue::from(b.len as u32))?;
        set("inputIds", &int32(&b.input_ids))?;
        set("attentionMask", &int32(&b.attention_mask))?;
        set("tokenTypeIds", &int32(&b.token_type_ids))?;
        if let Kind::Vectors { normalize, .. } = self.kind {
            set("normalize", &JsValue::from(normalize))?;
        }
        Ok(o.into())
    }

    /// Batch `i`'s output from a pool worker (`runBatch` of a copy of the model): a `Float32Array`, copied
    /// straight into wasm memory. (Taken by value: a borrowed JS object would make wasm-bindgen clear its slot with
    /// `table.fill`, which the Binaryen that optimises the package cannot read.)
    /// Returns the batch's rows.
    #[wasm_bindgen(js_name = setOutput)]
    pub fn set_output(&mut self, i: usize, output: Vec<f32>) -> JsResult<usize> {
        js(self.keep(i, output).map(|()| self.batches().batches[i].rows.len()))
    }

    /// A `score` or `embed` call's answer once every batch has its output: the logits
    /// (`[rows × numLabels]`) or the vectors (`[rows × dimension]`), in input order.
    #[wasm_bindgen(js_name = finishValues)]
    pub fn finish_values(&self) -> JsResult<js_sys::Float32Array> {
        js((|| match &self.kind {
            Kind::Logits(work) | Kind::Vectors { work, .. } => Ok(js_sys::Float32Array::from(&work.assemble(&self.outputs()?)?[..])),
            Kind::Ranking(_) => Err(Error::internal("finishValues on a rerank's work")),
        })())
    }

    /// A `rerank` call's answer once every batch has its output: each list ranked, best first.
    #[wasm_bindgen(js_name = finishRanking, unchecked_return_type = "Ranked[][]")]
    pub fn finish_ranking(&self) -> JsResult<JsValue> {
        js((|| match &self.kind {
            // a call under a deadline may have stopped before its last batches
            Kind::Ranking(r) if r.options.deadline_ms.is_some() => ranked_to_js(r.rank_partial(&self.outputs)?, &r.options),
            Kind::Ranking(r) => ranked_to_js(r.rank(&self.outputs()?)?, &r.options),
            _ => Err(Error::internal("finishRanking on a score or embed call's work")),
        })())
    }
}

/// A batch from [`ModelWork::batch`], checked: a malformed one must not reach tract (an id past the embedding
/// table is a trap there).
fn read_batch(batch: &JsValue, tokenizer: &PairTokenizer) -> Result<(Batch, bool)> {
    let max_token_id = (tokenizer.max_token_id as i64).max(tokenizer.pad_id as i64);
    let field = |k: &str| js_sys::Reflect::get(batch, &JsValue::from_str(k)).map_err(|_| Error::invalid("batch", format!("{k} is unreadable")));
    let ints = |k: &str| -> Result<Vec<i64>> {
        let v = field(k)?;
        let a = v.dyn_into::<js_sys::Int32Array>().map_err(|_| Error::invalid("batch", format!("{k}: expected an Int32Array")))?;
        Ok(a.to_vec().into_iter().map(i64::from).collect())
    };
    let len = field("len")?.as_f64().filter(|l| l.fract() == 0.0 && *l >= 1.0).ok_or_else(|| Error::invalid("batch", "len: expected a positive integer"))? as usize;
    let (input_ids, attention_mask, token_type_ids) = (ints("inputIds")?, ints("attentionMask")?, ints("tokenTypeIds")?);
    let n = input_ids.len();
    if n == 0 || n % len != 0 || attention_mask.len() != n || token_type_ids.len() != n {
        return Err(Error::invalid("batch", format!("{n} input ids, {} mask values and {} type ids do not make rows of {len}", attention_mask.len(), token_type_ids.len())));
    }
    if input_ids.iter().any(|&id| id < 0 || id > max_token_id)
        || attention_mask.iter().any(|&m| m != 0 && m != 1)
        || token_type_ids.iter().any(|&t| t != 0 && t != 1)
    {
        return Err(Error::invalid("batch", "holds ids this model's tokenizer does not make"));
    }
    let normalize = field("normalize")?.as_bool().unwrap_or(false);
    Ok((Batch { rows: (0..n / len).collect(), len, input_ids, attention_mask, token_type_ids }, normalize))
}

#[wasm_bindgen(js_class = CrossEncoderEngine)]
impl CrossEncoderEngine {
    /// `score`'s batches, on the CPU engine (see [`ModelWork`]).
    #[wasm_bindgen(js_name = scoreWork)]
    pub fn score_work(&self, pairs: JsValue, options: JsValue) -> JsResult<ModelWork> {
        let inner = self.inner.try_borrow().map_err(|_| super::errors::to_js_error(busy()))?;
        js((|| {
            let pairs = string_pairs("pairs", &pairs, "[query, document]")?;
            let options: ScoreOptions = read_options("options", &options)?;
            let pairs: Vec<(&str, &str)> = pairs.iter().map(|(q, d)| (q.as_str(), d.as_str())).collect();
            Ok(ModelWork::new(Kind::Logits(inner.cpu().score_work(&pairs, options.batch_size)?)))
        })())
    }

    /// `rerank`'s batches, on the CPU engine (see [`ModelWork`]).
    #[wasm_bindgen(js_name = rerankWork)]
    pub fn rerank_work(&self, queries: JsValue, lists: JsValue, nested: bool, options: JsValue) -> JsResult<ModelWork> {
        let inner = self.inner.try_borrow().map_err(|_| super::errors::to_js_error(busy()))?;
        js((|| {
            let (options, queries, lists) = rerank_input(&queries, &lists, nested, &options)?;
            let groups: Vec<(&str, Vec<String>)> = queries.iter().map(String::as_str).zip(lists).collect();
            Ok(ModelWork::new(Kind::Ranking(inner.cpu().rerank_work(&groups, &options)?)))
        })())
    }

    /// Runs batch `i` of `work` (made by this model) here, keeping its logits in `work`; the batch's rows.
    #[wasm_bindgen(js_name = runWorkBatch)]
    pub fn run_work_batch(&self, work: &mut ModelWork, i: usize) -> JsResult<usize> {
        let inner = self.inner.try_borrow().map_err(|_| super::errors::to_js_error(busy()))?;
        js((|| {
            let batch = work.checked_batch(i)?;
            let (rows, logits) = (batch.rows.len(), inner.cpu().run_batch(batch)?);
            work.keep(i, logits)?;
            Ok(rows)
        })())
    }

    /// The logits of one batch of a [`ModelWork`] (made by a copy of this model): a `Float32Array`.
    #[wasm_bindgen(js_name = runBatch)]
    pub fn run_batch(&self, batch: JsValue) -> JsResult<js_sys::Float32Array> {
        let inner = self.inner.try_borrow().map_err(|_| super::errors::to_js_error(busy()))?;
        let cpu = inner.cpu();
        js(read_batch(&batch, cpu.tokenizer()).and_then(|(b, _)| cpu.run_batch(&b)).map(|v| js_sys::Float32Array::from(&v[..])))
    }

    /// Runs batch `i` of `work` on the model's device (WebGPU, or the CPU it fell back to), resolving to its
    /// logits for `work.setOutput(i, …)`: batch by batch, a call on WebGPU can stop between two (a deadline, an
    /// AbortSignal) as the CPU path does.
    #[wasm_bindgen(js_name = runDeviceBatch, unchecked_return_type = "Promise<Float32Array>")]
    pub fn run_device_batch(&self, work: &ModelWork, i: usize) -> js_sys::Promise {
        let batch = match work.checked_batch(i) {
            Ok(b) => b.clone(),
            Err(e) => return js_sys::Promise::reject(&super::errors::to_js_error(e)),
        };
        with_model(&self.inner, move |inner| async move {
            let mut ce = inner.try_borrow_mut().map_err(|_| busy())?;
            let logits = ce.batch_logits(&batch).await?;
            Ok(js_sys::Float32Array::from(&logits[..]).into())
        })
    }
}

#[wasm_bindgen(js_class = EmbedderEngine)]
impl EmbedderEngine {
    /// `embed`'s batches, on the CPU engine (see [`ModelWork`]).
    #[wasm_bindgen(js_name = embedWork)]
    pub fn embed_work(&self, texts: JsValue, options: JsValue, default_normalize: bool) -> JsResult<ModelWork> {
        let inner = self.inner.try_borrow().map_err(|_| super::errors::to_js_error(busy()))?;
        js((|| {
            let t = string_list("texts", &texts)?;
            let options: EmbedOptions = read_options("options", &options)?;
            let refs: Vec<&str> = t.iter().map(String::as_str).collect();
            let work = inner.cpu().embed_work(&refs, options.batch_size)?;
            Ok(ModelWork::new(Kind::Vectors { work, normalize: options.normalize.unwrap_or(default_normalize) }))
        })())
    }

    /// Runs batch `i` of `work` (made by this model) here, keeping its vectors in `work`; the batch's rows.
    #[wasm_bindgen(js_name = runWorkBatch)]
    pub fn run_work_batch(&self, work: &mut ModelWork, i: usize) -> JsResult<usize> {
        let inner = self.inner.try_borrow().map_err(|_| super::errors::to_js_error(busy()))?;
        js((|| {
            let normalize = work.normalize();
            let batch = work.checked_batch(i)?;
            let (rows, vectors) = (batch.rows.len(), inner.cpu().run_batch(batch, normalize)?);
            work.keep(i, vectors)?;
            Ok(rows)
        })())
    }

    /// The vectors of one batch of a [`ModelWork`] (made by a copy of this model): a `Float32Array [rows × dimension]`.
    #[wasm_bindgen(js_name = runBatch)]
    pub fn run_batch(&self, batch: JsValue) -> JsResult<js_sys::Float32Array> {
        let inner = self.inner.try_borrow().map_err(|_| super::errors::to_js_error(busy()))?;
        let cpu = inner.cpu();
        js(read_batch(&batch, cpu.tokenizer())
            .and_then(|(b, normalize)| cpu.run_batch(&b, normalize))
            .map(|v| js_sys::Float32Array::from(&v[..])))
    }
}
