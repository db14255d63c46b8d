//! `Y[m×n] = dequantise(quantise_rows(X[m×k]) · W[k×n]) + bias`, with W packed once at load.
//!
//! A row panel (4 rows of X) is quantised straight into the layout of the micro-kernel's A operand, in one
//! reused buffer, and multiplied by every 8-column panel of W; the epilogue dequantises each 4×8 tile into Y.
//! So the activations are read once and quantised once, and no i8 or i32 tensor of the whole product is ever
//! allocated. Tails are zero-padded (k to a pair or quad, rows to 4, columns to 8), which adds nothing to a
//! product. The kernel is [`quad_tile`](super::quad_tile)'s where the relaxed dot product is exact
//! ([`dot_form`]), else [`tile`](super::tile)'s; both give the same integers.

use super::quad_tile::{self, dot_form, DotForm};
use super::tile::{self, MR, NR};

/// A constant int8 weight matrix `[k × n]` packed in 8-column panels, with what the epilogue needs per column.
#[derive(Debug)]
pub struct PackedWeights {
    k: usize,
    n: usize,
    /// `n.div_ceil(8)` panels of 8 columns: per pair of k, 8 columns × 2 values (`tile`'s layout), or per quad
    /// of k, 8 columns × 4 values (`quad_tile`'s, when `form` is set).
    panels: Vec<i8>,
    form: Option<DotForm>,
    /// `form.offset() · Σₖ w` per column (`quad_tile`'s encoding adds it to every sum), padded with zeros.
    encoding_offset: Vec<i32>,
    /// The weight zero point per column (0 for symmetric weights, which is what quantizers write for int8),
    /// padded with zeros to a whole panel.
    zero_point: Vec<i32>,
    /// The weight scale per column, padded like `zero_point`.
    scale: Vec<f32>,
    /// Added after dequantisation (zeros when the graph has no bias), padded like `zero_point`.
    bias: Vec<f32>,
    /// Whether any zero point is non-zero (then the epilogue subtracts `zero_point · Σ q_row`).
    offset: bool,
}

impl PackedWeights {
    /// `w` row-major `[k × n]` (weights stored as u8 are first shifted by 128, see the op); `zero_point`,
    /// `scale` and `bias` have `n` entries.
    pub fn new(k: usize, n: usize, w: &[i8], zero_point: Vec<i32>, scale: Vec<f32>, bias: Option<Vec<f32>>) -> Self {
        Self::for_kernel(dot_form(), k, n, w, zero_point, scale, bias)
    }

    /// [`PackedWeights::new`] for the quad kernel in `form`, or the pair kernel (`None`).
    fn for_kernel(form: Option<DotForm>, k: usize, n: usize, w: &[i8], zero_point: Vec<i32>, scale: Vec<f32>, bias: Option<Vec<f32>>) -> Self {
        debug_assert!(w.len() == k * n && zero_point.len() == n && scale.len() == n);
        let step = if form.is_some() { 4 } else { 2 };
        let panel = k.div_ceil(step) * step * NR;
        let mut panels = vec![0i8; n.div_ceil(NR) * panel];
        for (kk, row) in w.chunks_exact(n).enumerate() {
            for (c, &v) in row.iter().enumerate() {
                panels[(c / NR) * panel + (kk / step) * step * NR + (c % NR) * step + kk % step] = v;
            }
        }
        let width = n.div_ceil(NR) * NR;
        let mut encoding_offset = vec![0i32; width];
        if let Some(form) = form {
            for row in w.chunks_exact(n) {
                encoding_offset.iter_mut().zip(row).for_each(|(o, &v)| *o += form.offset() * v as i32);
            }
        }
        let offset = zero_point.iter().any(|&z| z != 0);
        let pad = |mut v: Vec<f32>| {
            v.resize(width, 0.0);
            v
        };
        let mut zero_point = zero_point;
        zero_point.resize(width, 0);
        PackedWeights { k, n, panels, form, encoding_offset, zero_point, scale: pad(scale), bias: pad(bias.unwrap_or_default()), offset }
    }

    /// Inner dimension.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Output columns.
    pub fn n(&self) -> usize {
        self.n
    }
}

/// Weights and their per-column zero points as the kernel takes them: u8 storage is shifted into i8 with its
/// zero point, `(w − zp) = ((w − 128) − (zp − 128))`, which leaves every product unchanged.
pub fn to_signed(stored: &[i32], zero_point: Vec<i32>, unsigned: bool) -> (Vec<i8>, Vec<i32>) {
    let shift = if unsigned { 128 } else { 0 };
    (stored.iter().map(|&v| (v - shift) as i8).collect(), zero_point.into_iter().map(|z| z - shift).collect())
}

/// `y[m × n] = (q(x) · w − zero_point · Σq) · s_row · scale + bias`, rows quantised one by one (module doc).
pub fn matmul(x: &[f32], m: usize, w: &PackedWeights, y: &mut [f32]) {
    match w.form {
        Some(form) => product(x, m, w, y, &mut QuadPanel { a: vec![0; w.k.div_ceil(4) * 16], form }),
        None => product(x, m, w, y, &mut PairPanel { a: vec![0; w.k.div_ceil(2) * 8] }),
    }
}

/// An A panel: 4 rows of quantised activations in a micro-kernel's layout.
trait APanel {
    /// Writes `q` (in [-127, 127]) as row `r`'s value at `kk`.
    fn put(&mut self, r: usize, kk: usize, q: i32);
    /// Writes the quantised leading multiple of 8 of `x` (`inv` = 127 / max|x|) into row `r`, in SIMD where the
    /// build has it; returns how many values and their sum.
    fn put_bulk(&mut self, x: &[f32], inv: f32, r: usize) -> (usize, i32);
    /// Row `r` as zeros.
    fn clear_row(&mut self, r: usize, k: usize) {
        (0..k).for_each(|kk| self.put(r, kk, 0));
    }
    /// The 4×8 product of this panel and a B panel.
    fn tile(&self, b: &[i8]) -> [[i32; NR]; MR];
}

struct PairPanel {
    a: Vec<i16>,
}

impl APanel for PairPanel {
    fn put(&mut self, r: usize, kk: usize, q: i32) {
        self.a[(kk / 2) * 8 + r * 2 + kk % 2] = q as i16;
    }
    fn put_bulk(&mut self, x: &[f32], inv: f32, r: usize) -> (usize, i32) {
        quantise_bulk(x, inv, &mut self.a, r)
    }
    fn tile(&self, b: &[i8]) -> [[i32; NR]; MR] {
        tile::tile(&self.a, b, self.a.len() / 8)
    }
}

struct QuadPanel {
    a: Vec<u8>,
    form: DotForm,
}

impl APanel for QuadPanel {
    fn put(&mut self, r: usize, kk: usize, q: i32) {
        self.a[(kk / 4) * 16 + r * 4 + kk % 4] = self.form.encode(q);
    }
    fn put_bulk(&mut self, x: &[f32], inv: f32, r: usize) -> (usize, i32) {
        quantise_bulk_quads(x, inv, self, r)
    }
    fn tile(&self, b: &[i8]) -> [[i32; NR]; MR] {
        quad_tile::tile(self.form, &self.a, b, self.a.len() / 16)
    }
}

fn product(x: &[f32], m: usize, w: &PackedWeights, y: &mut [f32], a: &mut impl APanel) {
    let (k, n) = (w.k, w.n);
    debug_assert!(x.len() == m * k && y.len() == m * n);
    let mut tail = [0f32; NR];
    let panel = w.panels.len() / n.div_ceil(NR);
    for r0 in (0..m).step_by(MR) {
        let rows = MR.min(m - r0);
        let mut scale = [0f32; MR];
        let mut sum = [0i32; MR];
        // rows past m keep what the panel held: their outputs are never written
        for r in 0..rows {
            let row = r0 + r;
            (scale[r], sum[r]) = quantise_row(&x[row * k..(row + 1) * k], a, r);
        }
        for (p, panel) in w.panels.chunks_exact(panel).enumerate() {
            let mut acc = a.tile(panel);
            let c0 = p * NR;
            let cols = NR.min(n - c0);
            for (r, row) in acc.iter_mut().enumerate().take(rows) {
                if w.form.is_some_and(|f| f.offset() != 0) {
                    row.iter_mut().zip(&w.encoding_offset[c0..c0 + NR]).for_each(|(v, o)| *v = v.wrapping_sub(*o));
                }
                let at = (r0 + r) * n + c0;
                if cols == NR {
                    dequantise(row, scale[r], sum[r], w, c0, &mut y[at..at + NR]);
                } else {
                    dequantise(row, scale[r], sum[r], w, c0, &mut tail);
                    y[at..at + cols].copy_from_slice(&tail[..cols]);
                }
            }
        }
    }
}

/// Quantises row `x` (length k) into slot `r` of an A panel; returns its scale and the sum of its quantised values.
///
/// `s = max|x| / 127`, `q = round_half_even(x · (127 / max|x|))` in [-127, 127]: symmetric, so no activation
/// zero point. A row with a non-finite value gets scale NaN, so its outputs are NaN as in the float graph; an
/// all-zero row gets scale 0 and quantises to zeros.
fn quantise_row(x: &[f32], a: &mut impl APanel, r: usize) -> (f32, i32) {
    let amax = abs_max(x);
    if !amax.is_finite() || amax == 0.0 {
        a.clear_row(r, x.len());
        return (if amax == 0.0 { 0.0 } else { f32::NAN }, 0);
    }
    let inv = 127.0 / amax;
    let done = a.put_bulk(x, inv, r);
    let mut sum = done.1;
    for (kk, &v) in x.iter().enumerate().skip(done.0) {
        let q = (v * inv).round_ties_even() as i32;
        sum += q;
        a.put(r, kk, q);
    }
    (amax / 127.0, sum)
}

/// `max |x|`; NaN or infinite when x holds a non-finite value.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn abs_max(x: &[f32]) -> f32 {
    use std::arch::wasm32::*;
    let mut chunks = x.chunks_exact(4);
    // f32x4.max propagates NaN, so a NaN anywhere makes the result NaN
    let mut acc = f32x4_splat(0.0);
    for c in &mut chunks {
        // SAFETY: `c` is 4 f32 = 16 bytes.
        acc = f32x4_max(acc, f32x4_abs(unsafe { v128_load(c.as_ptr() as *const v128) }));
    }
    let lanes = [f32x4_extract_lane::<0>(acc), f32x4_extract_lane::<1>(acc), f32x4_extract_lane::<2>(acc), f32x4_extract_lane::<3>(acc)];
    lanes.into_iter().chain(chunks.remainder().iter().map(|v| v.abs())).fold(0.0, nan_max)
}

/// `max |x|`; NaN or infinite when x holds a non-finite value.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn abs_max(x: &[f32]) -> f32 {
    x.iter().map(|v| v.abs()).fold(0.0, nan_max)
}

/// `max` that keeps a NaN (f32::max drops it).
fn nan_max(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() { f32::NAN } else { a.max(b) }
}

/// Quantises the leading multiple of 8 of `x` (`inv` = 127 / max|x|), 8 values at a time, handing each block's
/// eight i16 values to `store(block, values)`; returns how many values and their sum.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn quantise_blocks(x: &[f32], inv: f32, mut store: impl FnMut(usize, std::arch::wasm32::v128)) -> (usize, i32) {
    use std::arch::wasm32::*;
    let vinv = f32x4_splat(inv);
    let mut sum = i32x4_splat(0);
    let blocks = x.len() / 8;
    for b in 0..blocks {
        // SAFETY: 8 f32 are read from x[b·8..], in bounds since b < x.len() / 8.
        let (lo, hi) = unsafe {
            let p = x.as_ptr().add(b * 8);
            let lo = i32x4_trunc_sat_f32x4(f32x4_nearest(f32x4_mul(v128_load(p as *const v128), vinv)));
            (lo, i32x4_trunc_sat_f32x4(f32x4_nearest(f32x4_mul(v128_load(p.add(4) as *const v128), vinv))))
        };
        sum = i32x4_add(sum, i32x4_add(lo, hi));
        store(b, i16x8_narrow_i32x4(lo, hi));
    }
    let total = i32x4_extract_lane::<0>(sum) + i32x4_extract_lane::<1>(sum) + i32x4_extract_lane::<2>(sum) + i32x4_extract_lane::<3>(sum);
    (blocks * 8, total)
}

/// Quantises the leading multiple of 8 of `x` into slot `r` of a pair panel; returns how many values and their sum.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn quantise_bulk(x: &[f32], inv: f32, a: &mut [i16], r: usize) -> (usize, i32) {
    use std::arch::wasm32::*;
    assert!(r < MR && a.len() >= x.len() / 8 * 32);
    quantise_blocks(x, inv, |b, q| {
        // SAFETY: 4 × 4 bytes written at a[(4b + j)·8 + 2r], j < 4: in bounds by the assert.
        unsafe {
            let base = a.as_mut_ptr().add(b * 32 + r * 2) as *mut u8;
            v128_store32_lane::<0>(q, base as *mut u32);
            v128_store32_lane::<1>(q, base.add(16) as *mut u32);
            v128_store32_lane::<2>(q, base.add(32) as *mut u32);
            v128_store32_lane::<3>(q, base.add(48) as *mut u32);
        }
    })
}

/// Portable builds quantise every value in [`quantise_row`]'s loop.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn quantise_bulk(_x: &[f32], _inv: f32, _a: &mut [i16], _r: usize) -> (usize, i32) {
    (0, 0)
}

/// [`quantise_bulk`] into a quad panel: 8 values are two quads, one 4-byte store each.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn quantise_bulk_quads(x: &[f32], inv: f32, panel: &mut QuadPanel, r: usize) -> (usize, i32) {
    use std::arch::wasm32::*;
    let form = panel.form;
    let a = &mut panel.a;
    assert!(r < MR && a.len() >= x.len() / 8 * 32);
    quantise_blocks(x, inv, |b, q| {
        let bytes = match form {
            DotForm::Unsigned => u8x16_narrow_i16x8(i16x8_add(q, i16x8_splat(128)), q),
            DotForm::Signed => i8x16_narrow_i16x8(q, q),
        };
        // SAFETY: 2 × 4 bytes written at a[(2b + j)·16 + 4r], j < 2: in bounds by the assert.
        unsafe {
            let base = a.as_mut_ptr().add(b * 32 + r * 4);
            v128_store32_lane::<0>(bytes, base as *mut u32);
            v128_store32_lane::<1>(bytes, base.add(16) as *mut u32);
        }
    })
}

/// Portable builds quantise every value in [`quantise_row`]'s loop.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn quantise_bulk_quads(_x: &[f32], _inv: f32, _panel: &mut QuadPanel, _r: usize) -> (usize, i32) {
    (0, 0)
}

/// One tile row to floats: `out[c] = (acc[c] − zp[c0 + c] · sum) · (s · scale[c0 + c]) + bias[c0 + c]`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn dequantise(acc: &[i32; NR], s: f32, sum: i32, w: &PackedWeights, c0: usize, out: &mut [f32]) {
    use std::arch::wasm32::*;
    assert!(out.len() >= NR && w.scale.len() >= c0 + NR);
    // SAFETY: NR = 8 values read from acc and w's padded per-column vectors at c0, written to out: bounded above.
    unsafe {
        for half in 0..2 {
            let at = c0 + half * 4;
            let mut v = v128_load(acc.as_ptr().add(half * 4) as *const v128);
            if w.offset {
                let zp = v128_load(w.zero_point.as_ptr().add(at) as *const v128);
                v = i32x4_sub(v, i32x4_mul(zp, i32x4_splat(sum)));
            }
            let scale = f32x4_mul(f32x4_splat(s), v128_load(w.scale.as_ptr().add(at) as *const v128));
            let y = f32x4_add(f32x4_mul(f32x4_convert_i32x4(v), scale), v128_load(w.bias.as_ptr().add(at) as *const v128));
            v128_store(out.as_mut_ptr().add(half * 4) as *mut v128, y);
        }
    }
}

/// One tile row to floats: `out[c] = (acc[c] − zp[c0 + c] · sum) · (s · scale[c0 + c]) + bias[c0 + c]`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn dequantise(acc: &[i32; NR], s: f32, sum: i32, w: &PackedWeights, c0: usize, out: &mut [f32]) {
    for (c, o) in out.iter_mut().take(NR).enumerate() {
        let col = c0 + c;
        let v = if w.offset { acc[c].wrapping_sub(w.zero_point[col].wrapping_mul(sum)) } else { acc[c] };
        *o = v as f32 * (s * w.scale[col]) + w.bias[col];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same arithmetic written out without packing.
    fn reference(x: &[f32], m: usize, k: usize, n: usize, w: &[i8], zp: &[i32], scale: &[f32], bias: &[f32]) -> Vec<f32> {
        let mut y = vec![0f32; m * n];
        for r in 0..m {
            let row = &x[r * k..(r + 1) * k];
            let amax = row.iter().fold(0f32, |a, v| a.max(v.abs()));
            let q: Vec<i32> = row.iter().map(|v| if amax == 0.0 { 0 } else { (v * (127.0 / amax)).round_ties_even() as i32 }).collect();
            for c in 0..n {
                let acc: i32 = (0..k).map(|kk| q[kk] * (w[kk * n + c] as i32 - zp[c])).sum();
                y[r * n + c] = acc as f32 * (amax / 127.0 * scale[c]) + bias[c];
            }
        }
        y
    }

    /// A small deterministic generator (no rand dependency).
    fn lcg(seed: &mut u64) -> u32 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 33) as u32
    }

    #[test]
    fn packed_product_equals_the_unpacked_arithmetic_on_ragged_shapes() {
        let mut seed = 7;
        for &(m, k, n) in &[(1, 1, 1), (3, 5, 7), (4, 4, 4), (9, 33, 10), (17, 64, 6)] {
            let x: Vec<f32> = (0..m * k).map(|_| lcg(&mut seed) as f32 / u32::MAX as f32 * 4.0 - 2.0).collect();
            let w: Vec<i8> = (0..k * n).map(|_| lcg(&mut seed) as i8).collect();
            for zp in [vec![0; n], (0..n).map(|c| c as i32 - 3).collect()] {
                let scale: Vec<f32> = (0..n).map(|c| 0.01 + c as f32 * 0.003).collect();
                let bias: Vec<f32> = (0..n).map(|c| c as f32 * 0.5).collect();
                for form in [None, Some(DotForm::Unsigned), Some(DotForm::Signed)] {
                    let packed = PackedWeights::for_kernel(form, k, n, &w, zp.clone(), scale.clone(), Some(bias.clone()));
                    let mut y = vec![0f32; m * n];
                    matmul(&x, m, &packed, &mut y);
                    assert_eq!(y, reference(&x, m, k, n, &w, &zp, &scale, &bias), "m={m} k={k} n={n} {form:?}");
                }
            }
        }
    }

    #[test]
    fn a_row_is_quantised_on_its_own_scale_whatever_its_neighbours() {
        // padding rows (here: huge values) must not change a real row's output
        let (k, n) = (8, 4);
        let w: Vec<i8> = (0..k * n).map(|i| (i as i8).wrapping_mul(37)).collect();
        let packed = PackedWeights::new(k, n, &w, vec![0; n], vec![0.02; n], None);
        let row: Vec<f32> = (0..k).map(|i| i as f32 * 0.1 - 0.3).collect();
        let mut alone = vec![0f32; n];
        matmul(&row, 1, &packed, &mut alone);
        let mut batch = row.clone();
        batch.extend((0..k).map(|i| 1000.0 * i as f32));
        let mut both = vec![0f32; 2 * n];
        matmul(&batch, 2, &packed, &mut both);
        assert_eq!(&both[..n], &alone[..]);
    }

    #[test]
    fn zero_and_non_finite_rows() {
        for form in [None, Some(DotForm::Unsigned), Some(DotForm::Signed)] {
            let packed = PackedWeights::for_kernel(form, 4, 2, &[1, 2, 3, 4, 5, 6, 7, 8], vec![0; 2], vec![1.0; 2], Some(vec![0.5, -0.5]));
            let x = [0.0, 0.0, 0.0, 0.0, 1.0, f32::NAN, 0.0, 0.0];
            let mut y = [0f32; 4];
            matmul(&x, 2, &packed, &mut y);
            assert_eq!(&y[..2], &[0.5, -0.5], "{form:?}");
            assert!(y[2].is_nan() && y[3].is_nan(), "{form:?}");
        }
    }
}
