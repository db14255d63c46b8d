// Embedding gather + layer norm, one workgroup (256 threads) per token row r = b·S + t:
//   e = word[ids[r]] + pos[t] + type[types[r]]            (t = r mod S; type term skipped when has_type = 0)
//   μ = Σᵢ eᵢ / H,  σ² = Σᵢ (eᵢ − μ)² / H,  out[r] = (e − μ) / √(σ² + ε) · γ + β
// μ and 1/√(σ² + ε) come from `ln_stats` (two-pass variance; ln_stats.wgsl, shared with layer_norm.wgsl),
// which embeddings.rs concat!s in front of this file.
// H ≤ 1024 (4 values per thread kept in registers).
//
// Bindings: 0 params, 1 ids [R] u32, 2 types [R] u32, 3 word [V, H], 4 pos [P, H], 5 type [T, H],
// 6 ln [2, H] (γ then β), 7 out [R, H]. Dispatch: R workgroups split over (x, y), row = wid.y·nwg.x + wid.x.

struct EmbParams {
    rows: u32, seq: u32, hidden: u32, has_type: u32,
    eps: f32, vocab: u32, types_n: u32, positions: u32,
}

@group(0) @binding(0) var<uniform> p: EmbParams;
@group(0) @binding(1) var<storage, read> ids: array<u32>;
@group(0) @binding(2) var<storage, read> types: array<u32>;
@group(0) @binding(3) var<storage, read> word: array<f32>;
@group(0) @binding(4) var<storage, read> pos: array<f32>;
@group(0) @binding(5) var<storage, read> typ: array<f32>;
@group(0) @binding(6) var<storage, read> ln: array<f32>;
@group(0) @binding(7) var<storage, read_write> out: array<f32>;


@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let row = wid.y * nwg.x + wid.x;
    if (row >= p.rows) { return; }
    let h = p.hidden;
    let t = min(row % p.seq, p.positions - 1u);
    let id = min(ids[row], p.vocab - 1u);
    let ty = min(types[row], p.types_n - 1u);
    var v: array<f32, 4>;
    for (var j = 0u; j < 4u; j = j + 1u) {
        let i = lid + j * 256u;
        var e = 0.0;
        if (i < h) {
            e = word[id * h + i] + pos[t * h + i];
            if (p.has_type == 1u) { e = e + typ[ty * h + i]; }
        }
        v[j] = e;
    }
    let st = ln_stats(v, h, lid, p.eps);
    for (var j = 0u; j < 4u; j = j + 1u) {
        let i = lid + j * 256u;
        if (i < h) { out[row * h + i] = (v[j] - st.x) * st.y * ln[i] + ln[h + i]; }
    }
}
