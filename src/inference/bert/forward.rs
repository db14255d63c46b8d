//! The forward pass of [`BertWeights`] on the CPU, one sequence at a time, in the graph's own arithmetic
//! order where it matters (residual adds, layer norms, exact erf GELU).
//!
//! Per layer (`X` the hidden state `[S, H]` of one unpadded sequence):
//!   qkv = X·Wqkv + bqkv;  per head: P = softmax(Q·Kᵀ/√d), ctx = P·V;  X = LN₁(ctx·Wo + bo + X);
//!   X = LN₂(GELU(X·Wi + bi)·Wf + bf + X).
//!
//! A sequence runs alone, without padding, so no mask is needed and its output cannot depend on the other
//! rows of a batch (the same logits inline, in a pool worker, in any batch). Products are [`f32_gemm`] for
//! float weights and [`row_quantization::gemm`] for int8 ones: each token's activations quantised on their own
//! scale, as the CPU plan's fused op does.

use super::elementwise;
use super::f32_gemm::{product, Panels, Rows};
use super::weights::{BertWeights, Embedding, Head, Linear, Matrix, Norm, PoolerActivation};
use crate::inference::batching::Batch;
use crate::inference::row_quantization::gemm::{self as int8_gemm, PackedWeights};
use crate::{Error, Result};

/// A linear layer packed for its kernel.
#[derive(Debug)]
enum Product {
    F32 { w: Panels, bias: Vec<f32> },
    Int8(PackedWeights),
}

impl Product {
    fn new(l: Linear) -> Self {
        let (k, n) = (l.inputs, l.outputs);
        match l.w {
            Matrix::F32(w) => Product::F32 { w: Panels::new(k, n, |kk, c| w[kk * n + c]), bias: l.b },
            Matrix::Int8 { values, zero_point, scale } => Product::Int8(PackedWeights::new(k, n, &values, zero_point, scale, Some(l.b))),
        }
    }

    fn outputs(&self) -> usize {
        match self {
            Product::F32 { w, .. } => w.n(),
            Product::Int8(w) => w.n(),
        }
    }

    /// `y[m × n] = x[m × k] · W + b`, both contiguous.
    fn run(&self, x: &[f32], m: usize, y: &mut Vec<f32>, packed: &mut Vec<f32>) {
        let n = self.outputs();
        y.clear();
        y.resize(m * n, 0.0);
        match self {
            Product::F32 { w, bias } => product(Rows { data: x, stride: w.k() }, m, w, Some(bias), y, n, packed),
            Product::Int8(w) => int8_gemm::matmul(x, m, w, y),
        }
    }
}

#[derive(Debug)]
struct CpuLayer {
    qkv: Product,
    attn_out: Product,
    ln1: Norm,
    ffn_in: Product,
    ffn_out: Product,
    ln2: Norm,
}

#[derive(Debug)]
enum CpuHead {
    Classifier { pooler: Option<(Product, PoolerActivation)>, classifier: Product },
    States,
}

/// A BERT-family model ready to run on the CPU.
#[derive(Debug)]
pub struct CpuBert {
    hidden: usize,
    heads: usize,
    word: Embedding,
    vocab: usize,
    position: Vec<f32>,
    positions: usize,
    token_type: Option<(Vec<f32>, usize)>,
    emb_ln: Norm,
    layers: Vec<CpuLayer>,
    head: CpuHead,
}

/// Buffers one sequence's pass reuses from layer to layer.
#[derive(Default)]
struct Scratch {
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    t: Vec<f32>,
    inter: Vec<f32>,
    scores: Vec<f32>,
    keys: Panels,
    values: Panels,
    packed: Vec<f32>,
}

impl CpuBert {
    /// Packs `weights` (consumed: each matrix is freed once packed).
    pub fn new(weights: BertWeights) -> Self {
        let BertWeights { hidden, heads, word, vocab, position, positions, token_type, emb_ln, layers, head, .. } = weights;
        let layers = layers
            .into_iter()
            .map(|l| CpuLayer {
                qkv: Product::new(l.qkv),
                attn_out: Product::new(l.attn_out),
                ln1: l.ln1,
                ffn_in: Product::new(l.ffn_in),
                ffn_out: Product::new(l.ffn_out),
                ln2: l.ln2,
            })
            .collect();
        let head = match head {
            Head::Classifier { pooler, classifier } => CpuHead::Classifier {
                pooler: pooler.map(|p| (Product::new(p.linear), p.activation)),
                classifier: Product::new(classifier),
            },
            Head::States => CpuHead::States,
        };
        CpuBert { hidden, heads, word, vocab, position, positions, token_type, emb_ln, layers, head }
    }

    /// Logits per row (`[rows, labels]`), or the last hidden state (`[rows, len, hidden]`, zeros past each
    /// row's length) — the shapes the CPU plan returns for the same batch.
    pub fn run(&self, batch: &Batch) -> Result<(Vec<usize>, Vec<f32>)> {
        let mut scratch = Scratch::default();
        let mut out = Vec::new();
        let mut labels = 0;
        for sequence in batch.sequences() {
            let y = self.sequence(&sequence.ids, &sequence.type_ids, &mut scratch)?;
            labels = y.len();
            out.extend_from_slice(&y);
            if let CpuHead::States = self.head {
                // zeros for the row's padding positions
                out.resize(out.len() + (batch.len - sequence.ids.len()) * self.hidden, 0.0);
            }
        }
        let rows = batch.rows.len();
        Ok(match self.head {
            CpuHead::Classifier { .. } => (vec![rows, labels], out),
            CpuHead::States => (vec![rows, batch.len, self.hidden], out),
        })
    }

    /// One unpadded sequence's output: logits, or `[len × hidden]` states.
    fn sequence(&self, ids: &[i64], types: &[i64], s: &mut Scratch) -> Result<Vec<f32>> {
        let (h, len) = (self.hidden, ids.len());
        let mut x = self.embeddings(ids, types)?;
        for (i, layer) in self.layers.iter().enumerate() {
            // A classifier reads [CLS] alone: after the last layer's keys and values (every token's), only its
            // row goes on. Each product's row depends on its own input row only, so the logits keep their bits.
            let rows = if i + 1 == self.layers.len() && matches!(self.head, CpuHead::Classifier { .. }) { len.min(1) } else { len };
            layer.qkv.run(&x, len, &mut s.qkv, &mut s.packed);
            self.attention(len, rows, s);
            x.truncate(rows * h);
            layer.attn_out.run(&s.ctx, rows, &mut s.t, &mut s.packed);
            residual_layer_norm(&mut x, &s.t, &layer.ln1, h);
            layer.ffn_in.run(&x, rows, &mut s.inter, &mut s.packed);
            elementwise::gelu(&mut s.inter);
            layer.ffn_out.run(&s.inter, rows, &mut s.t, &mut s.packed);
            residual_layer_norm(&mut x, &s.t, &layer.ln2, h);
        }
        match &self.head {
            CpuHead::States => Ok(x),
            CpuHead::Classifier { pooler, classifier } => Ok(classify(pooler.as_ref(), classifier, &x[..h], &mut s.packed)),
        }
    }

    /// `LN(word[id] + type[tt] + position[t])` per token.
    fn embeddings(&self, ids: &[i64], types: &[i64]) -> Result<Vec<f32>> {
        let h = self.hidden;
        if ids.len() > self.positions {
            return Err(Error::invalid("maxLength", format!("a sequence of {} tokens is longer than the model's {} positions", ids.len(), self.positions)));
        }
        let row = |rows: usize, id: i64, what: &str| -> Result<std::ops::Range<usize>> {
            usize::try_from(id).ok().filter(|&i| i < rows).map(|i| i * h..(i + 1) * h).ok_or_else(|| {
                Error::model_load(format!("model: {what} {id} is outside its {rows}-row embedding table (do the tokenizer and the model match?)"))
            })
        };
        let mut x = vec![0f32; ids.len() * h];
        for (t, (out, &id)) in x.chunks_exact_mut(h).zip(ids).enumerate() {
            self.word.read(row(self.vocab, id, "token id")?, out);
            if let Some((table, rows)) = &self.token_type {
                let tt = types.get(t).copied().unwrap_or(0);
                out.iter_mut().zip(&table[row(*rows, tt, "token type")?]).for_each(|(o, v)| *o += v);
            }
            out.iter_mut().zip(&self.position[t * h..(t + 1) * h]).for_each(|(o, v)| *o += v);
            elementwise::layer_norm(out, &self.emb_ln.gamma_beta, self.emb_ln.eps);
        }
        Ok(x)
    }

    /// `ctx[rows × H]` from `qkv[S × 3H]`, one head at a time: `softmax(Q·Kᵀ/√d)·V` for the first `rows` queries
    /// against all `len` keys.
    fn attention(&self, len: usize, rows: usize, s: &mut Scratch) {
        let h = self.hidden;
        let d = h / self.heads;
        let scale = 1.0 / (d as f32).sqrt();
        s.ctx.clear();
        s.ctx.resize(rows * h, 0.0);
        s.scores.resize(rows * len, 0.0);
        for head in 0..self.heads {
            let qkv = &s.qkv;
            s.keys.refill(d, len, |kk, t| qkv[t * 3 * h + h + head * d + kk]);
            product(Rows { data: &qkv[head * d..], stride: 3 * h }, rows, &s.keys, None, &mut s.scores, len, &mut s.packed);
            for row in s.scores.chunks_exact_mut(len) {
                elementwise::softmax(row, scale);
            }
            s.values.refill(len, d, |t, c| qkv[t * 3 * h + 2 * h + head * d + c]);
            product(Rows { data: &s.scores, stride: len }, rows, &s.values, None, &mut s.ctx[head * d..], h, &mut s.packed);
        }
    }
}

/// The logits of a classification head from the `[CLS]` row of the last hidden state.
fn classify(pooler: Option<&(Product, PoolerActivation)>, classifier: &Product, cls_state: &[f32], packed: &mut Vec<f32>) -> Vec<f32> {
    let mut cls = cls_state.to_vec();
    if let Some((dense, activation)) = pooler {
        dense.run(cls_state, 1, &mut cls, packed);
        cls.iter_mut().for_each(|v| {
            *v = match activation {
                PoolerActivation::Tanh => v.tanh(),
                PoolerActivation::Relu => v.max(0.0),
                PoolerActivation::Gelu => elementwise::gelu1(*v),
            }
        });
    }
    let mut logits = Vec::new();
    classifier.run(&cls, 1, &mut logits, packed);
    logits
}

/// `x = LN(t + x)` row by row.
fn residual_layer_norm(x: &mut [f32], t: &[f32], norm: &Norm, h: usize) {
    for (row, add) in x.chunks_exact_mut(h).zip(t.chunks_exact(h)) {
        row.iter_mut().zip(add).for_each(|(v, a)| *v = a + *v);
        elementwise::layer_norm(row, &norm.gamma_beta, norm.eps);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inference::bert::weights::{Layer, Pooler};

    /// Values in [-0.5, 0.5) from a fixed sequence (a small LCG).
    struct Values(u64);

    impl Values {
        fn next(&mut self) -> f32 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        }

        fn floats(&mut self, n: usize) -> Vec<f32> {
            (0..n).map(|_| self.next()).collect()
        }

        fn linear(&mut self, inputs: usize, outputs: usize, int8: bool) -> Linear {
            let w = if int8 {
                let values = (0..inputs * outputs).map(|_| (self.next() * 250.0) as i8).collect();
                let zero_point = (0..outputs).map(|_| (self.next() * 20.0) as i32).collect();
                Matrix::Int8 { values, zero_point, scale: (0..outputs).map(|_| 0.004 + self.next().abs() * 0.004).collect() }
            } else {
                Matrix::F32(self.floats(inputs * outputs))
            };
            Linear { w, b: self.floats(outputs), inputs, outputs }
        }

        fn norm(&mut self, h: usize) -> Norm {
            Norm { gamma_beta: self.floats(2 * h).iter().enumerate().map(|(i, v)| if i < h { 1.0 + v } else { *v }).collect(), eps: 1e-12 }
        }
    }

    /// A 3-layer model of width 16 (4 heads) with a pooler and two labels, or its last hidden state.
    fn weights(int8: bool, head: bool) -> BertWeights {
        let (h, inter, vocab, positions) = (16, 32, 50, 64);
        let mut v = Values(7);
        let layers = (0..3)
            .map(|_| Layer {
                qkv: v.linear(h, 3 * h, int8),
                attn_out: v.linear(h, h, int8),
                ln1: v.norm(h),
                ffn_in: v.linear(h, inter, int8),
                ffn_out: v.linear(inter, h, int8),
                ln2: v.norm(h),
            })
            .collect();
        let pooler = Pooler { linear: v.linear(h, h, int8), activation: PoolerActivation::Tanh };
        let classifier = v.linear(h, 2, int8);
        BertWeights {
            hidden: h,
            heads: 4,
            intermediate: inter,
            word: Embedding::F32(v.floats(vocab * h)),
            vocab,
            position: v.floats(positions * h),
            positions,
            token_type: Some((v.floats(2 * h), 2)),
            emb_ln: v.norm(h),
            layers,
            head: if head { Head::Classifier { pooler: Some(pooler), classifier } } else { Head::States },
            output: String::new(),
        }
    }

    #[test]
    fn a_classifier_runs_its_last_layer_for_cls_alone_with_the_full_layers_bits() {
        for int8 in [false, true] {
            let classifier = CpuBert::new(weights(int8, true));
            let states = CpuBert::new(weights(int8, false));
            let CpuHead::Classifier { pooler, classifier: dense } = &classifier.head else { unreachable!() };
            for len in [1, 2, 5, 17, 64] {
                let ids: Vec<i64> = (0..len).map(|t| (t * 7 % 50) as i64).collect();
                let types: Vec<i64> = (0..len).map(|t| (2 * t >= len) as i64).collect();
                let mut s = Scratch::default();
                let full = states.sequence(&ids, &types, &mut s).unwrap();
                let want = classify(pooler.as_ref(), dense, &full[..16], &mut s.packed);
                let got = classifier.sequence(&ids, &types, &mut Scratch::default()).unwrap();
                assert_eq!(got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), "int8 {int8}, {len} tokens");
            }
        }
    }
}
