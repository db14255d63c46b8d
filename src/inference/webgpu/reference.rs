//! Plain-Rust references of the WGSL kernels (f64 accumulation), one function per kernel, same layouts.
//! The kernel tests (`tests/webgpu/kernels.rs`) compare the GPU against these.

use crate::inference::bert::PoolerActivation;

/// matmul.wgsl: `C = act(A·W + bias)`, A `[m, k]`, W `[k, n]`.
pub fn matmul(a: &[f32], w: &[f32], bias: &[f32], m: usize, n: usize, k: usize, gelu_act: bool) -> Vec<f32> {
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = bias[j] as f64;
            for t in 0..k {
                s += a[i * k + t] as f64 * w[t * n + j] as f64;
            }
            c[i * n + j] = if gelu_act { gelu(s as f32) } else { s as f32 };
        }
    }
    c
}

/// Exact GELU `½x(1 + erf(x/√2))` with a double-precision erf (libm-free: W. J. Cody's rational erf is not in
/// std, so the series/continued fraction below, accurate to ~1e-15).
pub fn gelu(x: f32) -> f32 {
    let x = x as f64;
    (0.5 * x * (1.0 + erf(x / std::f64::consts::SQRT_2))) as f32
}

/// erf in f64: Maclaurin series for |x| < 3, else the asymptotic complement (|x| ≥ 3 gives erfc < 2.3e-5, where
/// 5 terms of the asymptotic series are accurate to ~1e-12).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let r = if z < 3.0 {
        // erf(z) = 2/√π Σ (−1)ⁿ z^(2n+1) / (n! (2n+1))
        let mut sum = 0.0;
        let mut term = z; // (−1)ⁿ z^(2n+1) / n!
        let mut n = 0.0;
        loop {
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
            n += 1.0;
            term *= -z * z / n;
            if n > 200.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc(z) ≈ e^(−z²)/(z√π) · (1 − 1/(2z²) + 3/(2z²)² − 15/(2z²)³ + 105/(2z²)⁴)
        let u = 1.0 / (2.0 * z * z);
        let series = 1.0 - u + 3.0 * u * u - 15.0 * u * u * u + 105.0 * u * u * u * u;
        1.0 - (-z * z).exp() / (z * std::f64::consts::PI.sqrt()) * series
    };
    if x < 0.0 { -r } else { r }
}

/// Layer norm of one row: `(y − μ)/√(σ² + ε)·γ + β` (two-pass variance).
pub fn layer_norm_row(y: &[f64], gamma: &[f32], beta: &[f32], eps: f32) -> Vec<f32> {
    let h = y.len() as f64;
    let mean = y.iter().sum::<f64>() / h;
    let var = y.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / h;
    let inv = 1.0 / (var + eps as f64).sqrt();
    y.iter().enumerate().map(|(i, v)| ((v - mean) * inv * gamma[i] as f64 + beta[i] as f64) as f32).collect()
}

/// embeddings.wgsl: `LN(word[id] + pos[t] + type[tt])` per row (`t = row mod seq`).
#[allow(clippy::too_many_arguments)]
pub fn embeddings(
    ids: &[u32],
    types: &[u32],
    word: &[f32],
    pos: &[f32],
    typ: Option<&[f32]>,
    ln: &[f32],
    seq: usize,
    hidden: usize,
    eps: f32,
) -> Vec<f32> {
    let h = hidden;
    let mut out = Vec::with_capacity(ids.len() * h);
    for (r, (&id, &tt)) in ids.iter().zip(types).enumerate() {
        let t = r % seq;
        let y: Vec<f64> = (0..h)
            .map(|i| {
                let mut e = word[id as usize * h + i] as f64 + pos[t * h + i] as f64;
                if let Some(typ) = typ {
                    e += typ[tt as usize * h + i] as f64;
                }
                e
            })
            .collect();
        out.extend(layer_norm_row(&y, &ln[..h], &ln[h..], eps));
    }
    out
}

/// layer_norm.wgsl: `LN(x + hidden)` per row.
pub fn residual_layer_norm(x: &[f32], hidden: &[f32], ln: &[f32], h: usize, eps: f32) -> Vec<f32> {
    x.chunks(h)
        .zip(hidden.chunks(h))
        .flat_map(|(a, b)| {
            let y: Vec<f64> = a.iter().zip(b).map(|(p, q)| *p as f64 + *q as f64).collect();
            layer_norm_row(&y, &ln[..h], &ln[h..], eps)
        })
        .collect()
}

/// attention.wgsl: per sequence and head, `softmax(QKᵀ/√d + mask)·V`; qkv `[B·S, 3H]`, out `[B·S, H]`.
pub fn attention(qkv: &[f32], mask: &[u32], batch: usize, seq: usize, heads: usize, hidden: usize) -> Vec<f32> {
    let d = hidden / heads;
    let stride = 3 * hidden;
    let scale = 1.0 / (d as f64).sqrt();
    let mut out = vec![0f32; batch * seq * hidden];
    for b in 0..batch {
        for h in 0..heads {
            for i in 0..seq {
                let q = &qkv[(b * seq + i) * stride + h * d..][..d];
                let s: Vec<f64> = (0..seq)
                    .map(|j| {
                        let k = &qkv[(b * seq + j) * stride + hidden + h * d..][..d];
                        let dot: f64 = q.iter().zip(k).map(|(x, y)| *x as f64 * *y as f64).sum::<f64>() * scale;
                        if mask[b * seq + j] == 0 { dot + f32::MIN as f64 } else { dot }
                    })
                    .collect();
                let mx = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let e: Vec<f64> = s.iter().map(|v| (v - mx).exp()).collect();
                let z: f64 = e.iter().sum();
                for c in 0..d {
                    let mut acc = 0.0;
                    for (j, p) in e.iter().enumerate() {
                        acc += p * qkv[(b * seq + j) * stride + 2 * hidden + h * d + c] as f64;
                    }
                    out[(b * seq + i) * hidden + h * d + c] = (acc / z) as f32;
                }
            }
        }
    }
    out
}

/// classifier.wgsl: `act([CLS]·Wp + bp)·Wc + bc` (pooler optional; act tanh, ReLU or erf GELU).
pub fn classifier(
    hidden: &[f32],
    pooler: Option<(&[f32], &[f32], PoolerActivation)>,
    wc: &[f32],
    bc: &[f32],
    batch: usize,
    seq: usize,
    h: usize,
) -> Vec<f32> {
    let l = bc.len();
    let mut out = Vec::with_capacity(batch * l);
    for b in 0..batch {
        let cls = &hidden[b * seq * h..][..h];
        let pooled: Vec<f64> = match pooler {
            Some((wp, bp, activation)) => (0..h)
                .map(|n| {
                    let z = bp[n] as f64 + (0..h).map(|k| cls[k] as f64 * wp[k * h + n] as f64).sum::<f64>();
                    match activation {
                        PoolerActivation::Tanh => z.tanh(),
                        PoolerActivation::Relu => z.max(0.0),
                        PoolerActivation::Gelu => gelu(z as f32) as f64,
                    }
                })
                .collect(),
            None => cls.iter().map(|&x| x as f64).collect(),
        };
        for j in 0..l {
            out.push((bc[j] as f64 + (0..h).map(|n| pooled[n] * wc[n * l + j] as f64).sum::<f64>()) as f32);
        }
    }
    out
}

/// mean_pool.wgsl: masked mean (optionally L2-normalised), `[B, H]`.
pub fn mean_pool(hidden: &[f32], mask: &[u32], batch: usize, seq: usize, h: usize, normalize: bool) -> Vec<f32> {
    let mut out = Vec::with_capacity(batch * h);
    for b in 0..batch {
        let count = mask[b * seq..(b + 1) * seq].iter().filter(|&&m| m != 0).count() as f64;
        let mut e: Vec<f64> = (0..h)
            .map(|i| (0..seq).filter(|&t| mask[b * seq + t] != 0).map(|t| hidden[(b * seq + t) * h + i] as f64).sum::<f64>())
            .map(|s| s / count.max(1e-9))
            .collect();
        if normalize {
            let n = e.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-12);
            e.iter_mut().for_each(|x| *x /= n);
        }
        out.extend(e.into_iter().map(|x| x as f32));
    }
    out
}
