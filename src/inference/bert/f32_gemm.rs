//! `Y[m×n] = X[m×k]·B[k×n] (+ bias)` in f32 on [`f32_tile`]'s 4 × 8 micro-kernel.
//!
//! B is packed into 8-column panels (`Panels`): once at load for weights, per head for attention's keys and
//! values. X is packed per call into 4-row panels. The loops run B's panels outermost, so one B panel (k × 8
//! floats: 12 KB at k = 384) stays in cache while every row panel of X streams past it. Tails are zero-padded,
//! which adds nothing to a product.

use crate::inference::f32_tile::{add_mat_mul, Tile, MR, NR};

/// B `[k × n]` in `n.div_ceil(8)` panels of `k · 8` floats, k-major.
#[derive(Debug, Clone, Default)]
pub struct Panels {
    k: usize,
    n: usize,
    data: Vec<f32>,
}

impl Panels {
    /// B with `b(kk, c)` at row kk, column c.
    pub fn new(k: usize, n: usize, b: impl Fn(usize, usize) -> f32) -> Self {
        let mut p = Panels::default();
        p.refill(k, n, b);
        p
    }

    /// Packs a new B into this buffer (attention packs one per head without allocating).
    pub fn refill(&mut self, k: usize, n: usize, b: impl Fn(usize, usize) -> f32) {
        self.k = k;
        self.n = n;
        self.data.clear();
        self.data.resize(n.div_ceil(NR) * k * NR, 0.0);
        for (p, panel) in self.data.chunks_exact_mut(k * NR).enumerate() {
            for c in 0..NR.min(n - p * NR) {
                for kk in 0..k {
                    panel[kk * NR + c] = b(kk, p * NR + c);
                }
            }
        }
    }

    pub fn k(&self) -> usize {
        self.k
    }

    pub fn n(&self) -> usize {
        self.n
    }
}

/// A row-major matrix view: row r starts at `r · stride`.
#[derive(Clone, Copy)]
pub struct Rows<'a> {
    pub data: &'a [f32],
    pub stride: usize,
}

/// `y[r · y_stride + c] = Σ_k x[r][k] · b[k][c] + bias[c]` for r < m, c < b.n(). `packed` is reused scratch
/// for X's panels.
pub fn product(x: Rows<'_>, m: usize, b: &Panels, bias: Option<&[f32]>, y: &mut [f32], y_stride: usize, packed: &mut Vec<f32>) {
    let (k, n) = (b.k, b.n);
    assert!(m == 0 || (x.data.len() >= (m - 1) * x.stride + k && y.len() >= (m - 1) * y_stride + n));
    assert!(bias.is_none_or(|v| v.len() >= n));
    packed.clear();
    packed.resize(m.div_ceil(MR) * k * MR, 0.0);
    for (p, panel) in packed.chunks_exact_mut(k * MR).enumerate() {
        for r in 0..MR.min(m - p * MR) {
            let row = &x.data[(p * MR + r) * x.stride..][..k];
            for (kk, &v) in row.iter().enumerate() {
                panel[kk * MR + r] = v;
            }
        }
    }
    for (q, bp) in b.data.chunks_exact(k * NR).enumerate() {
        let c0 = q * NR;
        let cols = NR.min(n - c0);
        for (p, ap) in packed.chunks_exact(k * MR).enumerate() {
            let mut tile: Tile = [[0.0; NR]; MR];
            // SAFETY: `ap` holds k · MR floats and `bp` k · NR (chunks_exact above).
            unsafe { add_mat_mul(&mut tile, k, ap.as_ptr(), bp.as_ptr()) };
            for (r, t) in tile.iter().enumerate().take(MR.min(m - p * MR)) {
                let out = &mut y[(p * MR + r) * y_stride + c0..][..cols];
                match bias {
                    Some(bias) => out.iter_mut().zip(t).zip(&bias[c0..]).for_each(|((o, v), b)| *o = v + b),
                    None => out.copy_from_slice(&t[..cols]),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_matches_the_definition_on_every_tail() {
        let mut packed = Vec::new();
        for (m, k, n) in [(1, 1, 1), (3, 5, 7), (4, 8, 8), (9, 13, 17), (5, 1, 9)] {
            let x: Vec<f32> = (0..m * (k + 2)).map(|i| ((i * 7 % 11) as f32 - 5.0) / 4.0).collect();
            let w: Vec<f32> = (0..k * n).map(|i| ((i * 5 % 13) as f32 - 6.0) / 8.0).collect();
            let bias: Vec<f32> = (0..n).map(|c| c as f32 / 2.0).collect();
            let b = Panels::new(k, n, |kk, c| w[kk * n + c]);
            let mut y = vec![f32::NAN; m * (n + 1)];
            product(Rows { data: &x, stride: k + 2 }, m, &b, Some(&bias), &mut y, n + 1, &mut packed);
            for r in 0..m {
                for c in 0..n {
                    let want: f32 = (0..k).fold(0.0, |s, kk| s + x[r * (k + 2) + kk] * w[kk * n + c]) + bias[c];
                    assert_eq!(y[r * (n + 1) + c], want, "{m}×{k}×{n} at {r},{c}");
                }
                assert!(y[r * (n + 1) + n].is_nan(), "{m}×{k}×{n}: wrote past column n");
            }
        }
    }
}
