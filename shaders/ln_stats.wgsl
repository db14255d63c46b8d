// The row statistics of a layer norm over a 256-thread workgroup, each thread holding up to 4 of the row's H
// values (column lid + 256·j, zeros past H): returns (μ, 1/√(σ² + ε)) with the two-pass variance
// σ² = Σᵢ (vᵢ − μ)² / H (no E[x²] − μ² cancellation). No bindings and no entry point: layer_norm.rs and
// embeddings.rs build their shaders as
// concat!(include_str!("ln_stats.wgsl"), include_str!("<kernel>.wgsl")).
var<workgroup> ln_red: array<f32, 256>;

fn wg_sum(v: f32, lid: u32) -> f32 {
    ln_red[lid] = v;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s = s >> 1u) {
        if (lid < s) { ln_red[lid] = ln_red[lid] + ln_red[lid + s]; }
        workgroupBarrier();
    }
    let r = ln_red[0];
    workgroupBarrier();
    return r;
}

fn ln_stats(v: array<f32, 4>, h: u32, lid: u32, eps: f32) -> vec2<f32> {
    let mean = wg_sum(v[0] + v[1] + v[2] + v[3], lid) / f32(h);
    var q = 0.0;
    for (var j = 0u; j < 4u; j = j + 1u) {
        if (lid + j * 256u < h) { let d = v[j] - mean; q = q + d * d; }
    }
    return vec2<f32>(mean, 1.0 / sqrt(wg_sum(q, lid) / f32(h) + eps));
}
