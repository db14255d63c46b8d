// Exact (erf) GELU as WGSL functions: gelu_erf(x) = ½·x·(1 + erf(x/√2)), with 1 + erf from A&S 7.1.26
// (see gelu.wgsl's header for the approximation and its error). No bindings and no entry point: gelu.rs,
// matmul.rs and classifier.rs build their shaders as
// concat!(include_str!("gelu_fn.wgsl"), include_str!("<kernel>.wgsl")).

/// 1 + erf(x) with A&S 7.1.26; for x < 0 it is erfc(|x|) itself, not 1 − erf(|x|) (no cancellation).
fn one_plus_erf_as(x: f32) -> f32 {
    let z = abs(x);
    let t = 1.0 / (1.0 + 0.3275911 * z);
    let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    let complement = poly * exp(-z * z);
    return select(2.0 - complement, complement, x < 0.0);
}

fn gelu_erf(x: f32) -> f32 {
    return 0.5 * x * one_plus_erf_as(x * 0.70710678118654752);
}
