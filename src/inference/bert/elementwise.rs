//! The forward pass's element-wise steps — softmax, exact GELU, layer norm — written once over four-lane
//! vectors ([`F4`]): `f32x4` in wasm, `[f32; 4]` elsewhere (which the compiler vectorises). A row's tail is
//! padded into one more vector, so every value goes through the same arithmetic. Sums are taken in four
//! interleaved lanes, then across them.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod f4 {
    use std::arch::wasm32::*;
    pub type F4 = v128;
    pub fn splat(v: f32) -> F4 {
        f32x4_splat(v)
    }
    pub fn add(a: F4, b: F4) -> F4 {
        f32x4_add(a, b)
    }
    pub fn sub(a: F4, b: F4) -> F4 {
        f32x4_sub(a, b)
    }
    pub fn mul(a: F4, b: F4) -> F4 {
        f32x4_mul(a, b)
    }
    pub fn div(a: F4, b: F4) -> F4 {
        f32x4_div(a, b)
    }
    pub fn floor(a: F4) -> F4 {
        f32x4_floor(a)
    }
    pub fn abs(a: F4) -> F4 {
        f32x4_abs(a)
    }
    /// `b < a ? b : a` (a NaN in `a` stays).
    pub fn min(a: F4, b: F4) -> F4 {
        f32x4_pmin(a, b)
    }
    /// `a < b ? b : a` (a NaN in `a` stays).
    pub fn max(a: F4, b: F4) -> F4 {
        f32x4_pmax(a, b)
    }
    /// `2ⁿ` for integral `n` in the normal exponent range.
    pub fn pow2(n: F4) -> F4 {
        i32x4_shl(i32x4_add(i32x4_trunc_sat_f32x4(n), i32x4_splat(127)), 23)
    }
    /// `a` with the sign of `s`.
    pub fn copysign(a: F4, s: F4) -> F4 {
        v128_bitselect(s, a, f32x4_splat(-0.0))
    }
    pub fn from(v: [f32; 4]) -> F4 {
        f32x4(v[0], v[1], v[2], v[3])
    }
    pub fn to(a: F4) -> [f32; 4] {
        [f32x4_extract_lane::<0>(a), f32x4_extract_lane::<1>(a), f32x4_extract_lane::<2>(a), f32x4_extract_lane::<3>(a)]
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod f4 {
    pub type F4 = [f32; 4];
    fn each(a: F4, f: impl Fn(f32) -> f32) -> F4 {
        a.map(f)
    }
    fn both(a: F4, b: F4, f: impl Fn(f32, f32) -> f32) -> F4 {
        [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
    }
    pub fn splat(v: f32) -> F4 {
        [v; 4]
    }
    pub fn add(a: F4, b: F4) -> F4 {
        both(a, b, |x, y| x + y)
    }
    pub fn sub(a: F4, b: F4) -> F4 {
        both(a, b, |x, y| x - y)
    }
    pub fn mul(a: F4, b: F4) -> F4 {
        both(a, b, |x, y| x * y)
    }
    pub fn div(a: F4, b: F4) -> F4 {
        both(a, b, |x, y| x / y)
    }
    pub fn floor(a: F4) -> F4 {
        each(a, f32::floor)
    }
    pub fn abs(a: F4) -> F4 {
        each(a, f32::abs)
    }
    pub fn min(a: F4, b: F4) -> F4 {
        both(a, b, |x, y| if y < x { y } else { x })
    }
    pub fn max(a: F4, b: F4) -> F4 {
        both(a, b, |x, y| if x < y { y } else { x })
    }
    pub fn pow2(n: F4) -> F4 {
        each(n, |n| f32::from_bits(((n as i32 + 127) << 23) as u32))
    }
    pub fn copysign(a: F4, s: F4) -> F4 {
        both(a, s, f32::copysign)
    }
    pub fn from(v: [f32; 4]) -> F4 {
        v
    }
    pub fn to(a: F4) -> [f32; 4] {
        a
    }
}

use f4::*;

/// `eˣ` to about 1 ulp: `x = n·ln 2 + r` with |r| ≤ ½ ln 2, a degree-6 polynomial for `eʳ` (Cephes' `expf`
/// coefficients), `2ⁿ` put into the exponent bits. x is clamped to the normal floats' range: below −87.3 it
/// gives e^−87.3 ≈ 1.2·10⁻³⁸, nothing beside a softmax's largest term e⁰ = 1.
#[inline(always)]
fn exp(x: F4) -> F4 {
    const P: [f32; 6] = [1.987_569_1e-4, 1.398_199_9e-3, 8.333_452e-3, 4.166_579_6e-2, 1.666_666_5e-1, 5.000_000_1e-1];
    // ln 2 split in two so that n·LN2_HI is exact
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    let x = max(min(x, splat(88.7)), splat(-87.3));
    let n = floor(add(mul(x, splat(std::f32::consts::LOG2_E)), splat(0.5)));
    let r = sub(sub(x, mul(n, splat(LN2_HI))), mul(n, splat(LN2_LO)));
    let p = P[1..].iter().fold(splat(P[0]), |p, &c| add(mul(p, r), splat(c)));
    let e = add(add(mul(mul(p, r), r), r), splat(1.0));
    mul(e, pow2(n))
}

/// Exact GELU `½x(1 + erf(x/√2))`, erf by Abramowitz & Stegun 7.1.26: `erf(z) = 1 − t·(a₁ + t(a₂ + t(a₃ +
/// t(a₄ + t·a₅))))·e^(−z²)`, `t = 1/(1 + p·z)`, z ≥ 0 (absolute error ≤ 1.5·10⁻⁷).
#[inline(always)]
fn gelu4(x: F4) -> F4 {
    const P: f32 = 0.327_591_1;
    const A: [f32; 5] = [0.254_829_6, -0.284_496_74, 1.421_413_7, -1.453_152_1, 1.061_405_4];
    let z = abs(mul(x, splat(std::f32::consts::FRAC_1_SQRT_2)));
    let t = div(splat(1.0), add(splat(1.0), mul(splat(P), z)));
    let poly = mul(t, A[..4].iter().rev().fold(splat(A[4]), |p, &c| add(splat(c), mul(t, p))));
    let erf = sub(splat(1.0), mul(poly, exp(sub(splat(0.0), mul(z, z)))));
    mul(mul(splat(0.5), x), add(splat(1.0), copysign(erf, x)))
}

/// Calls `f` on each group of four values in place, the tail padded with `pad`.
#[inline(always)]
fn for_each4(values: &mut [f32], pad: f32, mut f: impl FnMut(F4) -> F4) {
    let mut chunks = values.chunks_exact_mut(4);
    for c in &mut chunks {
        let out = to(f(from([c[0], c[1], c[2], c[3]])));
        c.copy_from_slice(&out);
    }
    let tail = chunks.into_remainder();
    if !tail.is_empty() {
        let mut v = [pad; 4];
        v[..tail.len()].copy_from_slice(tail);
        let out = to(f(from(v)));
        let n = tail.len();
        tail.copy_from_slice(&out[..n]);
    }
}

/// The sum of `f` over groups of four values, the tail padded with `pad` (for which `f` must give zeros).
#[inline(always)]
fn sum4(values: &[f32], pad: f32, f: impl Fn(F4) -> F4) -> f32 {
    let mut acc = splat(0.0);
    let mut chunks = values.chunks_exact(4);
    for c in &mut chunks {
        acc = add(acc, f(from([c[0], c[1], c[2], c[3]])));
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut v = [pad; 4];
        v[..tail.len()].copy_from_slice(tail);
        acc = add(acc, f(from(v)));
    }
    let l = to(acc);
    (l[0] + l[1]) + (l[2] + l[3])
}

/// Exact GELU of every value, in place.
pub fn gelu(values: &mut [f32]) {
    for_each4(values, 0.0, gelu4);
}

/// The GELU of one value (a pooler's activation).
pub fn gelu1(x: f32) -> f32 {
    to(gelu4(splat(x)))[0]
}

/// Softmax of `row · scale`, in place.
pub fn softmax(row: &mut [f32], scale: f32) {
    let s = splat(scale);
    let mut m = splat(f32::NEG_INFINITY);
    for_each4(row, f32::NEG_INFINITY, |x| {
        let y = mul(x, s);
        m = max(m, y);
        y
    });
    let max_of = to(m).into_iter().fold(f32::NEG_INFINITY, |a, b| if a < b { b } else { a });
    let max_of = splat(max_of);
    for_each4(row, f32::NEG_INFINITY, |x| exp(sub(x, max_of)));
    let inv = splat(1.0 / sum4(row, 0.0, |x| x));
    for_each4(row, 0.0, |x| mul(x, inv));
}

/// `(x − μ) / √(σ² + ε) · γ + β` over one row, `gamma_beta` = γ then β (two passes, as onnxruntime computes
/// it).
pub fn layer_norm(x: &mut [f32], gamma_beta: &[f32], eps: f32) {
    let h = x.len();
    let mean = sum4(x, 0.0, |v| v) / h as f32;
    let m = splat(mean);
    // the padding (= mean) adds nothing
    let var = sum4(x, mean, |v| {
        let d = sub(v, m);
        mul(d, d)
    }) / h as f32;
    let inv = 1.0 / (var + eps).sqrt();
    let (gamma, beta) = gamma_beta.split_at(h);
    for ((v, g), b) in x.iter_mut().zip(gamma).zip(beta) {
        *v = (*v - mean) * inv * g + b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_is_within_two_ulps_of_std() {
        let mut worst = 0u32;
        for i in 0..=200_000 {
            let x = -87.0 + i as f32 * (87.0 + 88.0) / 200_000.0;
            let (got, want) = (to(exp(splat(x)))[0], x.exp());
            worst = worst.max(got.to_bits().abs_diff(want.to_bits()));
        }
        assert!(worst <= 2, "{worst} ulps");
        assert!(to(exp(splat(-100.0)))[0] < 1.3e-38);
        assert_eq!(to(exp(splat(0.0)))[0], 1.0);
    }

    #[test]
    fn gelu_is_within_two_tenths_of_a_millionth_of_the_exact_one() {
        let mut xs: Vec<f32> = (-8000..=8000).map(|i| i as f32 / 1000.0).collect();
        gelu(&mut xs);
        for (i, got) in (-8000..=8000).zip(xs) {
            let x = i as f64 / 1000.0;
            let want = 0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2));
            assert!((got as f64 - want).abs() <= 2e-7 * (1.0 + x.abs()), "{x}: {got} vs {want}");
        }
    }

    #[test]
    fn softmax_and_layer_norm_match_their_definitions_on_ragged_rows() {
        for n in [1, 3, 4, 7, 9] {
            let row: Vec<f32> = (0..n).map(|i| (i as f32 * 1.7).sin() * 5.0).collect();
            let mut s = row.clone();
            softmax(&mut s, 0.5);
            let e: Vec<f64> = row.iter().map(|v| (*v as f64 * 0.5).exp()).collect();
            let total: f64 = e.iter().sum();
            for (got, want) in s.iter().zip(&e) {
                assert!((*got as f64 - want / total).abs() < 1e-6, "softmax of {n}");
            }
            let mut l = row.clone();
            let gamma_beta: Vec<f32> = (0..2 * n).map(|i| 1.0 + i as f32 / 10.0).collect();
            layer_norm(&mut l, &gamma_beta, 1e-5);
            let mean = row.iter().map(|v| *v as f64).sum::<f64>() / n as f64;
            let var = row.iter().map(|v| (*v as f64 - mean).powi(2)).sum::<f64>() / n as f64;
            for (i, got) in l.iter().enumerate() {
                let want = (row[i] as f64 - mean) / (var + 1e-5).sqrt() * gamma_beta[i] as f64 + gamma_beta[n + i] as f64;
                assert!((*got as f64 - want).abs() < 1e-5, "layer norm of {n}");
            }
        }
    }
}
