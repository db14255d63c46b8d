//! The i16 × i8 → i32 micro-kernel: `C[4×8] = A[4×k] · B[k×8]`, one pair of k per step.
//!
//! Layouts (written by [`super::gemm`]): an A panel holds, per pair of k, the 4 rows' two values as i16,
//! `a[p·8 + r·2 + j]` (the activations are quantised straight into i16, so the kernel never widens them); a B
//! panel holds, per pair, the 8 columns' two values as i8, `b[p·16 + c·2 + j]`.
//!
//! **Why this shape.** Per pair, B's 16 bytes are one load and two `i16x8.extend` (columns 0–3 and 4–7); each
//! row's pair is one `v128.load32_splat` → `[a0, a1, a0, a1, …]`, and `i32x4.dot_i16x8_s` against a B half gives
//! `a0·b(c, k0) + a1·b(c, k1)` for four columns at once, one lane per column — so the accumulators are the
//! output columns and need no folding. 23 instructions per 64 multiply-accumulates (the 4×4 `PackedI8K4` tile
//! of `wasm_gemm::i8_dot` takes 27 and a shuffle fold), with 8 accumulators + 2 B halves + 1 A splat live:
//! under the 16 vector registers V8 gives wasm on x86-64. Products of values in [-127, 127] × [-128, 127]
//! summed in pairs cannot overflow, and i32 sums are exact, so every version below gives the same integers.

pub const MR: usize = 4;
pub const NR: usize = 8;

/// `C = A panel · B panel` over `pairs` pairs of k (SIMD128).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub fn tile(a: &[i16], b: &[i8], pairs: usize) -> [[i32; NR]; MR] {
    use std::arch::wasm32::*;
    assert!(a.len() >= pairs * 8 && b.len() >= pairs * 16);
    let mut c = [[0i32; NR]; MR];
    // SAFETY: the assert bounds every load below: per pair, 16 bytes of A (4 × load32) and 16 bytes of B.
    unsafe {
        let z = i32x4_splat(0);
        let (mut l0, mut h0, mut l1, mut h1) = (z, z, z, z);
        let (mut l2, mut h2, mut l3, mut h3) = (z, z, z, z);
        let mut pa = a.as_ptr();
        let mut pb = b.as_ptr();
        // one pair per iteration: unrolled to two pairs, V8 (Node 20, x86-64) ran this tile ~30% slower
        for _ in 0..pairs {
            let bv = v128_load(pb as *const v128);
            let blo = i16x8_extend_low_i8x16(bv);
            let bhi = i16x8_extend_high_i8x16(bv);
            let a0 = v128_load32_splat(pa as *const u32);
            l0 = i32x4_add(l0, i32x4_dot_i16x8(a0, blo));
            h0 = i32x4_add(h0, i32x4_dot_i16x8(a0, bhi));
            let a1 = v128_load32_splat(pa.add(2) as *const u32);
            l1 = i32x4_add(l1, i32x4_dot_i16x8(a1, blo));
            h1 = i32x4_add(h1, i32x4_dot_i16x8(a1, bhi));
            let a2 = v128_load32_splat(pa.add(4) as *const u32);
            l2 = i32x4_add(l2, i32x4_dot_i16x8(a2, blo));
            h2 = i32x4_add(h2, i32x4_dot_i16x8(a2, bhi));
            let a3 = v128_load32_splat(pa.add(6) as *const u32);
            l3 = i32x4_add(l3, i32x4_dot_i16x8(a3, blo));
            h3 = i32x4_add(h3, i32x4_dot_i16x8(a3, bhi));
            pa = pa.add(8);
            pb = pb.add(16);
        }
        let out = c.as_mut_ptr() as *mut v128;
        for (i, v) in [l0, h0, l1, h1, l2, h2, l3, h3].into_iter().enumerate() {
            v128_store(out.add(i), v);
        }
    }
    c
}

/// `C = A panel · B panel` over `pairs` pairs of k (x86-64: SSE2, which every x86-64 CPU has). The same scheme
/// as SIMD128: `_mm_madd_epi16` is `i32x4.dot_i16x8_s`; SSE2 has no i8→i16 sign extension, so a byte is
/// unpacked into the high half of an i16 and shifted back arithmetically.
#[cfg(all(target_arch = "x86_64", not(all(target_arch = "wasm32", target_feature = "simd128"))))]
pub fn tile(a: &[i16], b: &[i8], pairs: usize) -> [[i32; NR]; MR] {
    use std::arch::x86_64::*;
    assert!(a.len() >= pairs * 8 && b.len() >= pairs * 16);
    let mut c = [[0i32; NR]; MR];
    // SAFETY: SSE2 is part of x86-64; the assert bounds every (unaligned) load: per pair, 16 bytes of A and of B.
    unsafe {
        let z = _mm_setzero_si128();
        let mut acc = [z; 8];
        for p in 0..pairs {
            let bv = _mm_loadu_si128(b.as_ptr().add(p * 16) as *const __m128i);
            let blo = _mm_srai_epi16(_mm_unpacklo_epi8(bv, bv), 8);
            let bhi = _mm_srai_epi16(_mm_unpackhi_epi8(bv, bv), 8);
            let pa = a.as_ptr().add(p * 8) as *const i32;
            for r in 0..MR {
                let ar = _mm_set1_epi32(pa.add(r).read_unaligned());
                acc[2 * r] = _mm_add_epi32(acc[2 * r], _mm_madd_epi16(ar, blo));
                acc[2 * r + 1] = _mm_add_epi32(acc[2 * r + 1], _mm_madd_epi16(ar, bhi));
            }
        }
        for (r, row) in c.iter_mut().enumerate() {
            _mm_storeu_si128(row.as_mut_ptr() as *mut __m128i, acc[2 * r]);
            _mm_storeu_si128(row.as_mut_ptr().add(4) as *mut __m128i, acc[2 * r + 1]);
        }
    }
    c
}

/// `C = A panel · B panel` over `pairs` pairs of k (portable: other native targets).
#[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
pub fn tile(a: &[i16], b: &[i8], pairs: usize) -> [[i32; NR]; MR] {
    let mut c = [[0i32; NR]; MR];
    for (ap, bp) in a.chunks_exact(8).zip(b.chunks_exact(16)).take(pairs) {
        for (r, row) in c.iter_mut().enumerate() {
            let (a0, a1) = (ap[r * 2] as i32, ap[r * 2 + 1] as i32);
            for (col, acc) in row.iter_mut().enumerate() {
                *acc += a0 * bp[col * 2] as i32 + a1 * bp[col * 2 + 1] as i32;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tile this build runs against the layout's definition, on values at the ends of both ranges.
    #[test]
    fn tile_equals_the_layout_definition() {
        let pairs = 5;
        let a: Vec<i16> = (0..pairs * 8).map(|i| [127, -127, 0, 5, -3][i % 5]).collect();
        let b: Vec<i8> = (0..pairs * 16).map(|i| [-128, 127, 1, -1, 64, 0, -77][i % 7]).collect();
        let c = tile(&a, &b, pairs);
        for r in 0..MR {
            for col in 0..NR {
                let want: i32 = (0..pairs)
                    .map(|p| a[p * 8 + r * 2] as i32 * b[p * 16 + col * 2] as i32 + a[p * 8 + r * 2 + 1] as i32 * b[p * 16 + col * 2 + 1] as i32)
                    .sum();
                assert_eq!(c[r][col], want, "row {r} column {col}");
            }
        }
    }
}
