//! The BERT forward pass on the GPU: weights uploaded once, activation buffers sized to the largest batch seen
//! and reused, every kernel's bind group built once per buffer set; a batch is one compute pass (embeddings,
//! per layer 7 dispatches, head) and one read-back.
//!
//! Per layer (`X` the hidden state `[B·S, H]`):
//!   qkv = X·Wqkv + bqkv;  ctx = attention(qkv, mask);  t = ctx·Wo + bo;  X = LN₁(t + X);
//!   f = GELU(X·Wi + bi);  t = f·Wf + bf;  X = LN₂(t + X).

use super::context::Gpu;
use super::kernels::{self, Attention, Classifier, Dispatch, Embeddings, Matmul, MeanPool, ResidualLayerNorm, MAX_HEAD_DIM, MAX_HIDDEN, MAX_SEQUENCE};
use crate::inference::bert::{BertWeights, Head, Linear, PoolerActivation};
use crate::inference::batching::{batches, Batch, Sequence};
use crate::inference::memory_budget::BatchLimit;
pub use crate::inference::engine::Output;
use crate::{Error, Result};
use std::sync::Arc;

struct GpuLinear {
    w: wgpu::Buffer,
    b: wgpu::Buffer,
    inputs: usize,
    outputs: usize,
}

impl GpuLinear {
    fn new(gpu: &Gpu, name: &str, l: &Linear) -> Result<Self> {
        let w = l.w.as_f32().ok_or_else(|| Error::internal("webgpu: int8 weights passed GpuBert::fits"))?;
        Ok(GpuLinear { w: gpu.upload_f32(name, w), b: gpu.upload_f32(name, &l.b), inputs: l.inputs, outputs: l.outputs })
    }
}

struct GpuLayer {
    qkv: GpuLinear,
    attn_out: GpuLinear,
    ln1: (wgpu::Buffer, f32),
    ffn_in: GpuLinear,
    ffn_out: GpuLinear,
    ln2: (wgpu::Buffer, f32),
}

/// Activation buffers for up to `rows` tokens and `batch` sequences, and the dispatches bound to them.
struct Activations {
    rows: usize,
    batch: usize,
    ids: wgpu::Buffer,
    types: wgpu::Buffer,
    mask: wgpu::Buffer,
    out: wgpu::Buffer,
    staging: wgpu::Buffer,
    embeddings: Embeddings,
    layers: Vec<LayerOps>,
    classifier: Option<Classifier>,
    pool: Option<MeanPool>,
    /// kept alive for the bind groups
    _buffers: Vec<wgpu::Buffer>,
}

struct LayerOps {
    qkv: Matmul,
    attention: Attention,
    attn_out: Matmul,
    ln1: ResidualLayerNorm,
    ffn_in: Matmul,
    ffn_out: Matmul,
    ln2: ResidualLayerNorm,
}

/// A BERT-family model resident on the GPU.
pub struct GpuBert {
    gpu: Arc<Gpu>,
    hidden: usize,
    heads: usize,
    vocab: usize,
    positions: usize,
    types: usize,
    emb: [wgpu::Buffer; 4],
    emb_eps: f32,
    layers: Vec<GpuLayer>,
    pooler: Option<(GpuLinear, PoolerActivation)>,
    classifier: Option<GpuLinear>,
    dummy: wgpu::Buffer,
    acts: Option<Activations>,
    /// Matmul FLOPs of the last batch (for GFLOP/s reports).
    pub last_matmul_flops: f64,
}

impl std::fmt::Debug for GpuBert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuBert").field("hidden", &self.hidden).field("layers", &self.layers.len()).field("gpu", &self.gpu).finish()
    }
}

impl GpuBert {
    /// The GPU model of `weights`, uploaded to a new device.
    pub async fn upload(weights: &BertWeights) -> Result<GpuBert> {
        GpuBert::fits(weights)?;
        let gpu = Arc::new(Gpu::new().await?);
        GpuBert::new(gpu, weights)
    }

    /// `UNSUPPORTED` for what the kernels do not cover: int8 weights, sizes.
    fn fits(weights: &BertWeights) -> Result<()> {
        if weights.is_quantised() {
            return Err(Error::unsupported("webgpu: quantised graphs run on the CPU only; use the float32 model.onnx for WebGPU"));
        }
        let (hidden, heads) = (weights.hidden, weights.heads);
        if hidden > MAX_HIDDEN {
            return Err(Error::unsupported(format!("webgpu: hidden size {hidden} > {MAX_HIDDEN}")));
        }
        if hidden / heads > MAX_HEAD_DIM || (hidden / heads) % 4 != 0 {
            return Err(Error::unsupported(format!(
                "webgpu: {heads} heads of hidden size {hidden} (the kernels need a head size that is a multiple of 4, at most {MAX_HEAD_DIM})"
            )));
        }
        Ok(())
    }

    /// Uploads `weights` to `gpu`.
    pub fn new(gpu: Arc<Gpu>, weights: &BertWeights) -> Result<Self> {
        GpuBert::fits(weights)?;
        // (fits refuses 8-bit tables)
        let Some(word) = weights.word.as_f32() else { return Err(Error::unsupported("webgpu: quantised graphs run on the CPU only")) };
        let g = &*gpu;
        let (typ, types) = match &weights.token_type {
            Some((t, n)) => (g.upload_f32("token_type", t), *n),
            None => (g.upload_f32("token_type", &vec![0.0; weights.hidden]), 0),
        };
        let emb = [
            g.upload_f32("word", word),
            g.upload_f32("position", &weights.position),
            typ,
            g.upload_f32("emb_ln", &weights.emb_ln.gamma_beta),
        ];
        let layers = weights
            .layers
            .iter()
            .enumerate()
            .map(|(i, l)| {
                Ok(GpuLayer {
                    qkv: GpuLinear::new(g, &format!("l{i}.qkv"), &l.qkv)?,
                    attn_out: GpuLinear::new(g, &format!("l{i}.attn_out"), &l.attn_out)?,
                    ln1: (g.upload_f32("ln1", &l.ln1.gamma_beta), l.ln1.eps),
                    ffn_in: GpuLinear::new(g, &format!("l{i}.ffn_in"), &l.ffn_in)?,
                    ffn_out: GpuLinear::new(g, &format!("l{i}.ffn_out"), &l.ffn_out)?,
                    ln2: (g.upload_f32("ln2", &l.ln2.gamma_beta), l.ln2.eps),
                })
            })
            .collect::<Result<_>>()?;
        let (pooler, classifier) = match &weights.head {
            Head::Classifier { pooler, classifier } => (
                pooler.as_ref().map(|p| Ok((GpuLinear::new(g, "pooler", &p.linear)?, p.activation))).transpose()?,
                Some(GpuLinear::new(g, "classifier", classifier)?),
            ),
            Head::States => (None, None),
        };
        let dummy = g.storage("dummy", 4);
        Ok(GpuBert {
            hidden: weights.hidden,
            heads: weights.heads,
            vocab: weights.vocab,
            positions: weights.positions,
            types,
            emb,
            emb_eps: weights.emb_ln.eps,
            layers,
            pooler,
            classifier,
            dummy,
            acts: None,
            last_matmul_flops: 0.0,
            gpu,
        })
    }

    pub fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Logits per sequence (classifier models).
    pub fn num_labels(&self) -> Option<usize> {
        self.classifier.as_ref().map(|c| c.outputs)
    }

    fn intermediate(&self) -> usize {
        self.layers.iter().map(|l| l.ffn_in.outputs).max().unwrap_or(0)
    }

    /// (Re)allocates activations when `rows`/`batch` exceed what is allocated (sizes grow by ×1.5 steps).
    fn ensure(&mut self, rows: usize, batch: usize) {
        if self.acts.as_ref().is_some_and(|a| a.rows >= rows && a.batch >= batch) {
            return;
        }
        let (old_r, old_b) = self.acts.as_ref().map(|a| (a.rows, a.batch)).unwrap_or((0, 0));
        let rows = rows.max(old_r + old_r / 2).max(64);
        let batch = batch.max(old_b + old_b / 2).max(8);
        self.acts = None; // drop the old buffers first
        let g = &*self.gpu;
        let h = self.hidden;
        let ids = g.storage("ids", rows);
        let types = g.storage("types", rows);
        let mask = g.storage("mask", rows);
        let hs = g.storage("hidden", rows * h);
        let qkv = g.storage("qkv", rows * 3 * h);
        let ctx = g.storage("ctx", rows * h);
        let tmp = g.storage("tmp", rows * h);
        let inter = g.storage("intermediate", rows * self.intermediate());
        let width = self.num_labels().unwrap_or(h).max(h);
        let out = g.storage("out", batch * width);
        let staging = g.staging("staging", batch * width);
        let embeddings = Embeddings::new(g, &ids, &types, &self.emb[0], &self.emb[1], &self.emb[2], &self.emb[3], &hs);
        let layers = self
            .layers
            .iter()
            .map(|l| LayerOps {
                qkv: Matmul::new(g, &hs, &l.qkv.w, &l.qkv.b, &qkv),
                attention: Attention::new(g, &qkv, &mask, &ctx),
                attn_out: Matmul::new(g, &ctx, &l.attn_out.w, &l.attn_out.b, &tmp),
                ln1: ResidualLayerNorm::new(g, &tmp, &l.ln1.0, &hs),
                ffn_in: Matmul::new(g, &hs, &l.ffn_in.w, &l.ffn_in.b, &inter),
                ffn_out: Matmul::new(g, &inter, &l.ffn_out.w, &l.ffn_out.b, &tmp),
                ln2: ResidualLayerNorm::new(g, &tmp, &l.ln2.0, &hs),
            })
            .collect();
        let classifier = self.classifier.as_ref().map(|c| {
            let (pw, pb) = self.pooler.as_ref().map(|(p, _)| (&p.w, &p.b)).unwrap_or((&self.dummy, &self.dummy));
            Classifier::new(g, &hs, (pw, pb), (&c.w, &c.b), &out)
        });
        let pool = self.classifier.is_none().then(|| MeanPool::new(g, &hs, &mask, &out));
        self.acts = Some(Activations {
            rows,
            batch,
            ids,
            types,
            mask,
            out,
            staging,
            embeddings,
            layers,
            classifier,
            pool,
            _buffers: vec![hs, qkv, ctx, tmp, inter],
        });
    }

    /// The outputs of `sequences` in batches of `batch_size`, in input order (`width` values each).
    pub async fn outputs(&mut self, sequences: &[Sequence], batch_size: usize, pad_id: i64, output: Output, width: usize) -> Result<Vec<f32>> {
        let mut out = vec![0f32; sequences.len() * width];
        for batch in batches(sequences, &BatchLimit::rows(batch_size), pad_id) {
            let values = self.run(&batch, output).await?;
            if values.len() != batch.rows.len() * width {
                return Err(Error::internal(format!("webgpu: {} outputs for {} rows", values.len(), batch.rows.len())));
            }
            for (r, &i) in batch.rows.iter().enumerate() {
                out[i * width..(i + 1) * width].copy_from_slice(&values[r * width..(r + 1) * width]);
            }
        }
        Ok(out)
    }

    /// Runs one padded batch: `[B, num_labels]` logits or `[B, H]` pooled embeddings, row-major.
    pub async fn run(&mut self, batch: &Batch, output: Output) -> Result<Vec<f32>> {
        let b = batch.rows.len();
        let s = batch.len;
        if b == 0 || s == 0 {
            return Ok(Vec::new());
        }
        if s > MAX_SEQUENCE.min(self.positions) {
            return Err(Error::unsupported(format!("webgpu: sequences of {s} tokens exceed {}", MAX_SEQUENCE.min(self.positions))));
        }
        let width = match output {
            Output::Logits => self.num_labels().ok_or_else(|| Error::invalid("output", "this model has no classifier head"))?,
            Output::MeanPooled { .. } => {
                if self.classifier.is_some() {
                    return Err(Error::invalid("output", "this model outputs logits, not token states"));
                }
                self.hidden
            }
        };
        let rows = b * s;
        self.ensure(rows, b);
        let (h, heads, pooler) = (self.hidden, self.heads, self.pooler.as_ref().map(|(_, a)| *a));
        let tables = (self.vocab, self.positions, self.types);
        let emb_eps = self.emb_eps;
        let dims: Vec<_> = self
            .layers
            .iter()
            .map(|l| (l.qkv.outputs, l.ffn_in.outputs, l.ln1.1, l.ln2.1, l.attn_out.inputs, l.ffn_out.inputs))
            .collect();
        let gpu = self.gpu.clone();
        let g = &*gpu;
        let acts = self.acts.as_mut().expect("allocated");
        let to_u32 = |v: &[i64]| v.iter().map(|&x| x.clamp(0, u32::MAX as i64) as u32).collect::<Vec<u32>>();
        g.queue.write_buffer(&acts.ids, 0, &super::context::u32_bytes(&to_u32(&batch.input_ids)));
        g.queue.write_buffer(&acts.types, 0, &super::context::u32_bytes(&to_u32(&batch.token_type_ids)));
        g.queue.write_buffer(&acts.mask, 0, &super::context::u32_bytes(&to_u32(&batch.attention_mask)));
        acts.embeddings.set(g, rows, s, h, tables, emb_eps);
        let mut flops = 0.0;
        for (ops, &(qkv_n, inter, eps1, eps2, _, _)) in acts.layers.iter_mut().zip(&dims) {
            ops.qkv.set(g, rows, qkv_n, h, false);
            ops.attention.set(g, b, s, heads, h);
            ops.attn_out.set(g, rows, h, h, false);
            ops.ln1.set(g, rows, h, eps1);
            ops.ffn_in.set(g, rows, inter, h, true);
            ops.ffn_out.set(g, rows, h, inter, false);
            ops.ln2.set(g, rows, h, eps2);
            flops += Matmul::flops(rows, qkv_n, h) + Matmul::flops(rows, h, h) + 2.0 * Matmul::flops(rows, inter, h);
        }
        self.last_matmul_flops = flops;
        if let Some(c) = acts.classifier.as_mut() {
            c.set(g, b, s, h, width, pooler);
        }
        if let (Some(p), Output::MeanPooled { normalize }) = (acts.pool.as_mut(), output) {
            p.set(g, b, s, h, normalize);
        }
        let mut list: Vec<&Dispatch> = vec![&acts.embeddings.0];
        for ops in &acts.layers {
            list.extend([&ops.qkv.0, &ops.attention.0, &ops.attn_out.0, &ops.ln1.0, &ops.ffn_in.0, &ops.ffn_out.0, &ops.ln2.0]);
        }
        if let Some(c) = &acts.classifier {
            list.push(&c.0);
        }
        if let Some(p) = &acts.pool {
            list.push(&p.0);
        }
        kernels::submit(g, &list, &acts.out, &acts.staging, b * width);
        let out = g.read(&acts.staging, b * width).await?;
        if out.iter().any(|x| !x.is_finite()) {
            return Err(Error::internal("webgpu: the GPU produced non-finite outputs"));
        }
        Ok(out)
    }

    /// Where one forward pass of `batch` spends its GPU time: seconds per pass for each kind of kernel (summed
    /// over the layers), each dispatch re-run `reps` times alone in one submission (for tests/webgpu/bench.rs).
    /// The layer norms run in place, so the activations are garbage afterwards; the next `run` rewrites them.
    pub async fn profile(&mut self, batch: &Batch, output: Output, reps: usize) -> Result<Vec<(&'static str, f64)>> {
        self.run(batch, output).await?;
        let gpu = self.gpu.clone();
        let acts = self.acts.as_ref().expect("allocated by run");
        let mut kinds: Vec<(&'static str, Vec<&Dispatch>)> = vec![("embeddings + layer norm", vec![&acts.embeddings.0])];
        for ops in &acts.layers {
            for (name, d) in [
                ("QKV matmul", &ops.qkv.0),
                ("attention", &ops.attention.0),
                ("attention-output matmul", &ops.attn_out.0),
                ("residual + layer norm", &ops.ln1.0),
                ("FFN-in matmul + GELU", &ops.ffn_in.0),
                ("FFN-out matmul", &ops.ffn_out.0),
                ("residual + layer norm", &ops.ln2.0),
            ] {
                match kinds.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, list)) => list.push(d),
                    None => kinds.push((name, vec![d])),
                }
            }
        }
        if let Some(c) = &acts.classifier {
            kinds.push(("classifier", vec![&c.0]));
        }
        if let Some(p) = &acts.pool {
            kinds.push(("mean pooling", vec![&p.0]));
        }
        let mut out = Vec::new();
        for (name, list) in kinds {
            let repeated: Vec<&Dispatch> = (0..reps).flat_map(|_| list.iter().copied()).collect();
            let t0 = web_time_now();
            kernels::submit(&gpu, &repeated, &acts.out, &acts.staging, 1);
            gpu.read(&acts.staging, 1).await?;
            out.push((name, (web_time_now() - t0) / reps as f64));
        }
        Ok(out)
    }

    /// Runs the matmul kernel alone on an `[m, k] × [k, n]` product `reps` times; returns seconds per product
    /// (for the GFLOP/s report of `tests/webgpu/bench.rs`).
    pub async fn time_matmul(gpu: &Gpu, m: usize, n: usize, k: usize, reps: usize) -> Result<f64> {
        let a = gpu.upload_f32("a", &vec![0.5; m * k]);
        let w = gpu.upload_f32("w", &vec![0.25; k * n]);
        let bias = gpu.upload_f32("b", &vec![0.0; n]);
        let c = gpu.storage("c", m * n);
        let staging = gpu.staging("s", 1);
        let mut op = Matmul::new(gpu, &a, &w, &bias, &c);
        op.set(gpu, m, n, k, false);
        kernels::submit(gpu, &[&op.0], &c, &staging, 1);
        gpu.read(&staging, 1).await?; // warm-up (pipeline compile)
        let list: Vec<&Dispatch> = (0..reps).map(|_| &op.0).collect();
        let t0 = web_time_now();
        kernels::submit(gpu, &list, &c, &staging, 1);
        gpu.read(&staging, 1).await?;
        Ok((web_time_now() - t0) / reps as f64)
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn web_time_now() -> f64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

#[cfg(target_arch = "wasm32")]
fn web_time_now() -> f64 {
    js_sys::Date::now() / 1000.0
}
