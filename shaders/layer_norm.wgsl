// Residual add + layer norm, in place on the residual stream, one workgroup (256 threads) per row:
//   y = x[r] + hidden[r],  μ = Σᵢ yᵢ / H,  σ² = Σᵢ (yᵢ − μ)² / H,
//   hidden[r] = (y − μ) / √(σ² + ε) · γ + β
// μ and 1/√(σ² + ε) come from `ln_stats` (ln_stats.wgsl, shared with embeddings.wgsl), which layer_norm.rs
// concat!s in front of this file.
// Each thread reads and writes only its own columns, so updating `hidden` in place is race-free. H ≤ 1024.
//
// Bindings: 0 params {rows, hidden, eps}, 1 x [R, H] (read), 2 ln [2, H] (γ then β), 3 hidden [R, H] (read/write).
// Dispatch: R workgroups split over (x, y).

struct LnParams {
    rows: u32, hidden: u32, eps: f32, _p3: u32,
    _p4: u32, _p5: u32, _p6: u32, _p7: u32,
}

@group(0) @binding(0) var<uniform> p: LnParams;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> ln: array<f32>;
@group(0) @binding(3) var<storage, read_write> hs: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let row = wid.y * nwg.x + wid.x;
    if (row >= p.rows) { return; }
    let h = p.hidden;
    var v: array<f32, 4>;
    for (var j = 0u; j < 4u; j = j + 1u) {
        let i = lid + j * 256u;
        var e = 0.0;
        if (i < h) { e = x[row * h + i] + hs[row * h + i]; }
        v[j] = e;
    }
    let st = ln_stats(v, h, lid, p.eps);
    for (var j = 0u; j < 4u; j = j + 1u) {
        let i = lid + j * 256u;
        if (i < h) { hs[row * h + i] = (v[j] - st.x) * st.y * ln[i] + ln[h + i]; }
    }
}
