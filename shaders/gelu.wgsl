// Exact (erf) GELU, elementwise:  y = ½·x·(1 + erf(x/√2)).
//
// WGSL has no erf, so erf is Abramowitz & Stegun 7.1.26 (|error| ≤ 1.5e-7 on the whole real line):
//   erf(x) = sign(x)·(1 − (a₁t + a₂t² + a₃t³ + a₄t⁴ + a₅t⁵)·e^(−x²)),   t = 1 / (1 + p·|x|),
//   p = 0.3275911, a₁..a₅ = 0.254829592, −0.284496736, 1.421413741, −1.453152027, 1.061405429.
// GELU needs 1 + erf(z), which for z < 0 is the complement erfc(|z|) = poly·e^(−z²): computed directly, it keeps
// its relative accuracy in the negative tail, where 1 − (1 − erfc) would cancel in f32.
// The functions (gelu_erf, one_plus_erf_as) are in gelu_fn.wgsl, which gelu.rs concat!s in front of this file;
// matmul.rs (its fused GELU epilogue) and classifier.rs do the same.
//
// Bindings: 0 params {n}, 1 x [n] (read), 2 y [n] (write). Dispatch: ceil(n/256) workgroups of 256, split
// over x and y when above 65535 (index = (wid.y·nwg.x + wid.x)·256 + lid).

struct GeluParams {
    n: u32,
    _p1: u32, _p2: u32, _p3: u32, _p4: u32, _p5: u32, _p6: u32, _p7: u32,
}

@group(0) @binding(0) var<uniform> gp: GeluParams;
@group(0) @binding(1) var<storage, read> gx: array<f32>;
@group(0) @binding(2) var<storage, read_write> gy: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let i = (wid.y * nwg.x + wid.x) * 256u + lid;
    if (i < gp.n) {
        gy[i] = gelu_erf(gx[i]);
    }
}
