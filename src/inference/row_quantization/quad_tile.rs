//! The 8-bit micro-kernel on relaxed SIMD's integer dot product: `C[4×8] = A[4×k] · B[k×8]`, four k per step.
//!
//! `i32x4.relaxed_dot_i8x16_i7x16_add_s(w, a, c)` adds to each i32 lane the products of four bytes of `w`
//! (signed) and four of `a`. It is exact and the same everywhere only while `a`'s bytes stay in [0, 127]; with
//! the top bit set engines differ: x86 with VNNI (`vpdpbusd`) reads them as unsigned, ARM (`sdot`) as signed,
//! x86 without VNNI (`pmaddubsw`) as unsigned but saturates each pair to 16 bits. Our activations need 8 bits
//! (q ∈ [-127, 127]), so [`dot_form`] runs the instruction once on bytes that tell the three apart. Where it
//! is exact as unsigned, activations go in as `q + 128` and the epilogue takes `128 · Σₖ w` off each column
//! ([`DotForm::offset`]); where exact as signed, as `q`; elsewhere the i16 kernel ([`super::tile`]) runs.
//! Either way the i32 sums equal `Σ q·w` exactly, so the outputs are the i16 kernel's bit for bit.
//!
//! Layouts (written by [`super::gemm`]): an A panel holds, per quad of k, the 4 rows' four bytes,
//! `a[q·16 + r·4 + j]`; a B panel, per quad, the 8 columns' four bytes, `b[q·32 + c·4 + j]`. Per quad: two
//! loads of B, four `v128.load32_splat` of A, eight dot products into 8 accumulators (14 instructions per 128
//! multiply-accumulates, against 23 per 64 for the i16 kernel; one `vpdpbusd` each with VNNI).

pub const MR: usize = 4;
pub const NR: usize = 8;

/// How this engine's relaxed dot product reads a second operand with its top bit set, where that is exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DotForm {
    /// As unsigned bytes (x86 VNNI).
    Unsigned,
    /// As signed bytes (ARM dot product).
    Signed,
}

impl DotForm {
    /// The byte an activation q ∈ [-127, 127] goes in as.
    pub fn encode(self, q: i32) -> u8 {
        match self {
            DotForm::Unsigned => (q + 128) as u8,
            DotForm::Signed => q as i8 as u8,
        }
    }

    /// What the encoding adds to each activation: the dot product then holds `Σ q·w + offset · Σ w`.
    pub fn offset(self) -> i32 {
        match self {
            DotForm::Unsigned => 128,
            DotForm::Signed => 0,
        }
    }

    /// What the dot product makes of `w · byte`.
    #[cfg_attr(all(target_arch = "wasm32", feature = "relaxed-simd"), allow(dead_code))]
    fn product(self, w: i8, byte: u8) -> i32 {
        match self {
            DotForm::Unsigned => w as i32 * byte as i32,
            DotForm::Signed => w as i32 * byte as i8 as i32,
        }
    }
}

/// The form of this build's dot product: found once by running it in the relaxed-SIMD build, `None` (the i16
/// kernel) in every other build.
pub fn dot_form() -> Option<DotForm> {
    #[cfg(all(target_arch = "wasm32", feature = "relaxed-simd"))]
    {
        static FORM: std::sync::OnceLock<Option<DotForm>> = std::sync::OnceLock::new();
        // SAFETY: the relaxed-SIMD build only loads where the runtime validates relaxed SIMD.
        *FORM.get_or_init(|| unsafe { simd::probe() })
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "relaxed-simd")))]
    None
}

#[cfg(all(target_arch = "wasm32", feature = "relaxed-simd"))]
mod simd {
    use super::{DotForm, MR, NR};
    use std::arch::wasm32::*;

    /// Runs the dot product on bytes whose answers differ between the engines' forms (module doc).
    #[target_feature(enable = "relaxed-simd")]
    pub unsafe fn probe() -> Option<DotForm> {
        let dot = |w: i8, byte: u8| {
            let (w, byte) = std::hint::black_box((w, byte));
            let v = i32x4_relaxed_dot_i8x16_i7x16_add(i8x16_splat(w), u8x16_splat(byte), i32x4_splat(0));
            let lanes = [i32x4_extract_lane::<0>(v), i32x4_extract_lane::<1>(v), i32x4_extract_lane::<2>(v), i32x4_extract_lane::<3>(v)];
            lanes.iter().all(|&l| l == lanes[0]).then_some(lanes[0])
        };
        let cases = [(127i8, 255u8), (-128, 255), (-128, 128), (127, 1), (-1, 200), (-77, 129)];
        let agrees = |form: DotForm| cases.iter().all(|&(w, b)| dot(w, b) == Some(4 * form.product(w, b)));
        [DotForm::Unsigned, DotForm::Signed].into_iter().find(|&f| agrees(f))
    }

    /// `C = A panel · B panel` over `quads` quads of k.
    #[target_feature(enable = "relaxed-simd")]
    pub unsafe fn tile(a: &[u8], b: &[i8], quads: usize) -> [[i32; NR]; MR] {
        assert!(a.len() >= quads * 16 && b.len() >= quads * 32);
        // accumulators: row r's columns 0–3 in acc[2r], 4–7 in acc[2r + 1]
        let mut acc = [i32x4_splat(0); 2 * MR];
        // SAFETY: the assert bounds every load: per quad, 16 bytes of A (4 × load32) and 32 bytes of B.
        unsafe {
            for q in 0..quads {
                let pb = b.as_ptr().add(q * 32);
                let (bl, bh) = (v128_load(pb as *const v128), v128_load(pb.add(16) as *const v128));
                let pa = a.as_ptr().add(q * 16);
                for r in 0..MR {
                    let ar = v128_load32_splat(pa.add(r * 4) as *const u32);
                    acc[2 * r] = i32x4_relaxed_dot_i8x16_i7x16_add(bl, ar, acc[2 * r]);
                    acc[2 * r + 1] = i32x4_relaxed_dot_i8x16_i7x16_add(bh, ar, acc[2 * r + 1]);
                }
            }
        }
        // SAFETY: eight v128 are the 128 bytes of `[[i32; 8]; 4]`, row by row.
        let c: [[i32; NR]; MR] = unsafe { std::mem::transmute(acc) };
        c
    }
}

/// `C = A panel · B panel` over `quads` quads of k, the dot product taken in `form`.
pub fn tile(form: DotForm, a: &[u8], b: &[i8], quads: usize) -> [[i32; NR]; MR] {
    #[cfg(all(target_arch = "wasm32", feature = "relaxed-simd"))]
    {
        let _ = form;
        // SAFETY: `form` came from `dot_form`, so this build runs where relaxed SIMD validates.
        unsafe { simd::tile(a, b, quads) }
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "relaxed-simd")))]
    {
        // the dot product's arithmetic written out: the gemm tests run the quad layout natively through this
        let mut c = [[0i32; NR]; MR];
        for (ap, bp) in a.chunks_exact(16).zip(b.chunks_exact(32)).take(quads) {
            for (r, row) in c.iter_mut().enumerate() {
                for (col, acc) in row.iter_mut().enumerate() {
                    *acc += (0..4).map(|j| form.product(bp[col * 4 + j], ap[r * 4 + j])).sum::<i32>();
                }
            }
        }
        c
    }
}
