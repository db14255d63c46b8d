//! Our own wasm SIMD128 GEMM micro-kernels, registered into tract-linalg's kernel registry so that tract runs
//! them for every f32 and i8×i8→i32 matrix product with more than one column (the transformer's projections,
//! feed-forward layers and attention products). Only the wasm32 + simd128 build has them.
//!
//! **Why.** tract's wasm GEMM kernels were tuned on Apple M1 (32 vector registers). On an x86-64 host V8
//! gives wasm code the 16 xmm registers, so tract's f32 tile (`wasm_f32_8x8`: 16 `f32x4` accumulators, plus
//! two A loads, two B loads and eight broadcasts per k) cannot stay in registers and spills; and its int8
//! kernel without relaxed SIMD (`wasm_i32_4x4`) widens every i8 to i32 and does one `i32x4.mul` + one
//! `i32x4.add` per 4 multiply-accumulates.
//!
//! - [`f32_4x8`]: `C[4×8] += A[4×k]·B[k×8]`, XNNPACK's "splat" scheme — per k, two `v128` loads of B (the 8
//!   columns), four `v128.load32_splat` of A (one per row), eight `f32x4.mul` + `f32x4.add` into 8
//!   accumulators: 8 + 2 + 1 live vectors, under V8's 16. In SIMD128 (no fused multiply-add) each element is
//!   `c += a·b` in k order, the same arithmetic as tract's kernels, so fp32 outputs do not change; the
//!   `relaxed-simd` build fuses each multiply-add (`f32x4.relaxed_madd`, docs/inference.md "Two modules").
//! - [`i8_dot`]: `C[4×4] += A[4×k]·B[k×4]` on i8 operands in tract's `PackedI8K4` layout (4 consecutive k per
//!   row/column). Per block of 4 k: B's 16 bytes are loaded once and sign-extended to two `i16x8` (columns
//!   0–1 and 2–3, 4 k each); each row's 4 A bytes are splatted and extended to `[a0..a3, a0..a3]`; two
//!   `i32x4.dot_i16x8_s` add `a0·b0 + a1·b1` and `a2·b2 + a3·b3` for two columns each into two
//!   accumulators per row (16 multiply-accumulates per row in 6 instructions instead of 12). After the k
//!   loop, lanes are folded pairwise with shuffles: `row = [l0+l1, l2+l3, h0+h1, h2+h3]`. i8·i8 products
//!   summed in pairs never reach i16·i16's overflow (|2·128·128| < 2³¹), and i32 addition wraps exactly like
//!   tract's, so int8 outputs are bit-identical.
//!
//! The fused epilogue ops (bias per row/column, residual add, scaling, requantisation, store) run on a plain
//! `[[T; NR]; MR]` tile ([`fused_op`]): they are O(MR·NR) per tile against the O(MR·NR·k) product.
//!
//! **How tract picks them.** A matmul whose `n` is known asks the tiers ([`MmmTier`]) in precedence order;
//! ours (precedence 2, above tract's `wasm-simd128` tier at 1) names our kernels for `n > 1` and leaves
//! `n = 1` (GEMV) to tract's tier. rerankit's plans have a symbolic `batch × sequence`, so most matmuls have
//! no known `n`: there tract keeps the suitable kernels with the highest `(arch, preference)` and pairs a
//! GEMV with a GEMM that share one A packing. Our kernels therefore carry `boost = 1` (tract's wasm kernels
//! have 0), and tract's own `wasm_f32_4x1` GEMV is registered again under our name with the same boost
//! ([`F32_4X1`]), so that the f32 plan still runs a GEMV when a product turns out to have one column.
use std::sync::LazyLock;

use tract_linalg::isa::{Arch, IsaSet};
use tract_linalg::mmm::{DynKernel, FusedKerSpec, Query, Suitable};
use tract_linalg::mmm_routines::MmmRoutine;
use tract_linalg::mmm_tiers::MmmTier;
use tract_linalg::pack::{PackedI8K4, Packing};
use tract_linalg::{ScaleShiftAndRound, Scaler};
use tract_onnx::prelude::DatumType;

mod f32_4x8;
mod i8_dot;

/// Names tract reports and selects by.
pub const F32_GEMM: &str = "rerankit_wasm_f32_4x8";
pub const F32_GEMV: &str = "rerankit_wasm_f32_4x1";
pub const I8_GEMM: &str = "rerankit_wasm_i8dot_4x4";

/// Above tract's wasm kernels (boost 0), so that they win the symbolic-`n` selection.
fn boost() -> isize {
    1
}

static F32_4X8: LazyLock<DynKernel<4, 8, f32>> = LazyLock::new(|| {
    let mut k = DynKernel::<4, 8, f32>::new(F32_GEMM, f32_4x8::kernel, f32::packing(4), f32::packing(8));
    k.arch = Some(Arch::Wasm32Simd128);
    k.with_boost(boost)
});

/// tract's own `wasm_f32_4x1` GEMV, under our name and boost (see the module doc).
static F32_4X1: LazyLock<DynKernel<4, 1, f32>> = LazyLock::new(|| {
    let mut k = tract_linalg::wasm::wasm_f32_4x1.clone();
    k.name = F32_GEMV.to_string();
    k.with_boost(boost)
});

static I8_4X4: LazyLock<DynKernel<4, 4, i32>> = LazyLock::new(|| {
    // packing 0: i32 × i32 (tract's plain format); packing 1: i8 × i8 in PackedI8K4.
    let mut k = DynKernel::<4, 4, i32>::new(I8_GEMM, i8_dot::kernel, i32::packing(4), i32::packing(4))
        .with_packing(PackedI8K4::new(4), PackedI8K4::new(4))
        .with_store::<i8>();
    k.arch = Some(Arch::Wasm32Simd128);
    k.with_boost(boost)
});

inventory::submit! { MmmRoutine { make: || F32_4X8.mmm() } }
inventory::submit! { MmmRoutine { make: || F32_4X1.mmm() } }
inventory::submit! { MmmRoutine { make: || I8_4X4.mmm() } }

fn preferred(_isa: &IsaSet, dt: DatumType, query: &Query, _suitable: &[Suitable]) -> Option<&'static str> {
    match (dt, query.n) {
        (_, Some(1)) => None,
        (DatumType::F32, _) => Some(F32_GEMM),
        (DatumType::I32, _) => Some(I8_GEMM),
        _ => None,
    }
}

inventory::submit! {
    MmmTier {
        arch: Some(Arch::Wasm32Simd128),
        precedence: 2,
        name: "rerankit-wasm-simd128",
        applies: |_| true,
        preferred,
    }
}

/// What the scalar epilogue needs of an accumulator type.
pub(crate) trait Acc: Copy + PartialOrd + ScaleShiftAndRound {
    const ZERO: Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// Reads one element of a tile of `item_size` bytes (`None`: a size this kernel does not take).
    unsafe fn read(p: *const u8, item_size: usize) -> Option<Self>;
    /// Writes one element into a tile of `item_size` bytes (`false`: a size this kernel does not store).
    unsafe fn write(self, p: *mut u8, item_size: usize) -> bool;
}

impl Acc for f32 {
    const ZERO: f32 = 0.0;
    fn add(self, o: f32) -> f32 {
        self + o
    }
    fn sub(self, o: f32) -> f32 {
        self - o
    }
    fn mul(self, o: f32) -> f32 {
        self * o
    }
    unsafe fn read(p: *const u8, item_size: usize) -> Option<f32> {
        (item_size == 4).then(|| unsafe { (p as *const f32).read_unaligned() })
    }
    unsafe fn write(self, p: *mut u8, item_size: usize) -> bool {
        if item_size != 4 {
            return false;
        }
        unsafe { (p as *mut f32).write_unaligned(self) };
        true
    }
}

impl Acc for i32 {
    const ZERO: i32 = 0;
    fn add(self, o: i32) -> i32 {
        self.wrapping_add(o)
    }
    fn sub(self, o: i32) -> i32 {
        self.wrapping_sub(o)
    }
    fn mul(self, o: i32) -> i32 {
        self.wrapping_mul(o)
    }
    unsafe fn read(p: *const u8, item_size: usize) -> Option<i32> {
        unsafe {
            match item_size {
                1 => Some(*(p as *const i8) as i32),
                4 => Some((p as *const i32).read_unaligned()),
                _ => None,
            }
        }
    }
    unsafe fn write(self, p: *mut u8, item_size: usize) -> bool {
        unsafe {
            match item_size {
                1 => *p = self as u8,
                4 => (p as *mut i32).write_unaligned(self),
                _ => return false,
            }
        }
        true
    }
}

/// Applies one non-matmul fused op to the tile, with tract's semantics (`tract_linalg::generic::mmm`): a
/// scalar/row/column operand `m` and an element `x` give `Sub: m - x`, `SubF: x - m`, `Min`/`Max` of the
/// two, `LeakyRelu: x > 0 ? x : m·x`. Returns `false` for an op it cannot run (`AddMatMul` and `Done` are
/// the kernels' own), which the kernel reports to tract as a non-zero status.
#[inline(always)]
pub(crate) unsafe fn fused_op<T: Acc, const MR: usize, const NR: usize>(
    ab: &mut [[T; NR]; MR],
    op: &FusedKerSpec<T>,
) -> bool {
    #[inline(always)]
    fn each<T: Copy, const MR: usize, const NR: usize>(ab: &mut [[T; NR]; MR], f: impl Fn(usize, usize, T) -> T) {
        for (i, row) in ab.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = f(i, j, *x);
            }
        }
    }
    let min = |a: T, b: T| if a < b { a } else { b };
    let max = |a: T, b: T| if a > b { a } else { b };
    unsafe {
        match *op {
            FusedKerSpec::Clear => *ab = [[T::ZERO; NR]; MR],
            FusedKerSpec::LoadTile(col_major, _row_major) => each(ab, |i, j, _| *col_major.add(j * MR + i)),
            FusedKerSpec::ScalarMin(m) => each(ab, |_, _, x| min(m, x)),
            FusedKerSpec::ScalarMax(m) => each(ab, |_, _, x| max(m, x)),
            FusedKerSpec::ScalarAdd(m) => each(ab, |_, _, x| m.add(x)),
            FusedKerSpec::ScalarMul(m) => each(ab, |_, _, x| m.mul(x)),
            FusedKerSpec::ScalarSub(m) => each(ab, |_, _, x| m.sub(x)),
            FusedKerSpec::ScalarSubF(m) => each(ab, |_, _, x| x.sub(m)),
            FusedKerSpec::LeakyRelu(m) => each(ab, |_, _, x| if x > T::ZERO { x } else { m.mul(x) }),
            FusedKerSpec::PerRowMin(p) => each(ab, |i, _, x| min(*p.add(i), x)),
            FusedKerSpec::PerRowMax(p) => each(ab, |i, _, x| max(*p.add(i), x)),
            FusedKerSpec::PerRowAdd(p) => each(ab, |i, _, x| (*p.add(i)).add(x)),
            FusedKerSpec::PerRowMul(p) => each(ab, |i, _, x| (*p.add(i)).mul(x)),
            FusedKerSpec::PerRowSub(p) => each(ab, |i, _, x| (*p.add(i)).sub(x)),
            FusedKerSpec::PerRowSubF(p) => each(ab, |i, _, x| x.sub(*p.add(i))),
            FusedKerSpec::PerColMin(p) => each(ab, |_, j, x| min(*p.add(j), x)),
            FusedKerSpec::PerColMax(p) => each(ab, |_, j, x| max(*p.add(j), x)),
            FusedKerSpec::PerColAdd(p) => each(ab, |_, j, x| (*p.add(j)).add(x)),
            FusedKerSpec::PerColMul(p) => each(ab, |_, j, x| (*p.add(j)).mul(x)),
            FusedKerSpec::PerColSub(p) => each(ab, |_, j, x| (*p.add(j)).sub(x)),
            FusedKerSpec::PerColSubF(p) => each(ab, |_, j, x| x.sub(*p.add(j))),
            FusedKerSpec::QScale(shift, rp, mult) => {
                let s = Scaler::from_fuse_params(shift, rp, mult);
                each(ab, |_, _, x| x.q_scale(s))
            }
            FusedKerSpec::RoundingShiftRight(shift, rp) => each(ab, |_, _, x| x.q_shr(shift, rp)),
            FusedKerSpec::ShiftLeft(shift) => each(ab, |_, _, x| x.q_shl(shift)),
            FusedKerSpec::AddRowColProducts(rows, cols) => {
                each(ab, |i, j, x| x.add((*rows.add(i)).mul(*cols.add(j))))
            }
            FusedKerSpec::AddUnicast(t) => {
                for (i, row) in ab.iter_mut().enumerate() {
                    for (j, x) in row.iter_mut().enumerate() {
                        let p = t.ptr.offset(t.row_byte_stride * i as isize + t.col_byte_stride * j as isize);
                        let Some(v) = T::read(p, t.item_size) else { return false };
                        *x = x.add(v);
                    }
                }
            }
            FusedKerSpec::Store(t) => {
                for (i, row) in ab.iter().enumerate() {
                    for (j, x) in row.iter().enumerate() {
                        let p = t.ptr.offset(t.row_byte_stride * i as isize + t.col_byte_stride * j as isize);
                        if !x.write(p, t.item_size) {
                            return false;
                        }
                    }
                }
            }
            FusedKerSpec::Done | FusedKerSpec::AddMatMul { .. } => return false,
        }
    }
    true
}
