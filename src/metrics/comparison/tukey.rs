//! Tukey's honestly significant difference test over k runs, as ranx 0.3.21 runs it: scipy's
//! `scipy.stats.tukey_hsd(*scores)` (equal variances), one group of per-query scores per run, and the p-value of
//! each pair from the studentized range distribution (scipy's `studentized_range.sf`).
//!
//! The studentized range CDF is a double integral (Lund & Lund 1983; Batista et al.), which scipy evaluates with
//! `nquad` to `epsabs = 1e-11`; here both integrals are adaptive Gauss–Kronrod (7/15 points) to 1e-14, so p-values
//! agree with scipy's to within scipy's own error (about 1e-11).

/// Gauss–Kronrod 15-point nodes (the Gauss 7-point nodes are the odd ones) and weights, from QUADPACK's `qk15`.
const KRONROD_NODES: [f64; 8] = [
    0.991_455_371_120_812_6,
    0.949_107_912_342_758_5,
    0.864_864_423_359_769_1,
    0.741_531_185_599_394_4,
    0.586_087_235_467_691_1,
    0.405_845_151_377_397_2,
    0.207_784_955_007_898_5,
    0.0,
];
const KRONROD_WEIGHTS: [f64; 8] = [
    0.022_935_322_010_529_22,
    0.063_092_092_629_978_55,
    0.104_790_010_322_250_2,
    0.140_653_259_715_525_9,
    0.169_004_726_639_267_9,
    0.190_350_578_064_785_4,
    0.204_432_940_075_298_9,
    0.209_482_141_084_727_8,
];
const GAUSS_WEIGHTS: [f64; 4] = [0.129_484_966_168_869_7, 0.279_705_391_489_276_7, 0.381_830_050_505_118_9, 0.417_959_183_673_469_4];

/// The 15-point Kronrod estimate of ∫ₐᵇ f and its distance from the embedded 7-point Gauss estimate.
fn kronrod(f: &dyn Fn(f64) -> f64, a: f64, b: f64) -> (f64, f64) {
    let (centre, half) = ((a + b) / 2.0, (b - a) / 2.0);
    let middle = f(centre);
    let (mut k, mut g) = (KRONROD_WEIGHTS[7] * middle, GAUSS_WEIGHTS[3] * middle);
    for i in 0..7 {
        let pair = f(centre - half * KRONROD_NODES[i]) + f(centre + half * KRONROD_NODES[i]);
        k += KRONROD_WEIGHTS[i] * pair;
        if i % 2 == 1 {
            g += GAUSS_WEIGHTS[i / 2] * pair;
        }
    }
    (k * half, ((k - g) * half).abs())
}

/// ∫ₐᵇ f, globally adaptive as QUADPACK's `qag`: the interval with the largest error estimate is halved until the
/// summed estimate is within `tolerance` (absolute) or 1e-13 relative, or 200 intervals are in use.
fn integrate(f: &dyn Fn(f64) -> f64, a: f64, b: f64, tolerance: f64) -> f64 {
    let (value, error) = kronrod(f, a, b);
    let mut intervals = vec![(a, b, value, error)];
    loop {
        let total: f64 = intervals.iter().map(|i| i.2).sum();
        let error: f64 = intervals.iter().map(|i| i.3).sum();
        if error <= tolerance.max(1e-13 * total.abs()) || intervals.len() >= 200 {
            return total;
        }
        let worst = (0..intervals.len()).max_by(|&x, &y| intervals[x].3.total_cmp(&intervals[y].3)).unwrap_or(0);
        let (lo, hi, _, _) = intervals.swap_remove(worst);
        let mid = (lo + hi) / 2.0;
        for (x, y) in [(lo, mid), (mid, hi)] {
            let (v, e) = kronrod(f, x, y);
            intervals.push((x, y, v, e));
        }
    }
}

/// The standard normal CDF Φ(z) = erfc(−z/√2)/2 (as scipy's integrand computes it).
fn normal_cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
}

/// ln φ(z), the standard normal log-density.
fn normal_log_pdf(z: f64) -> f64 {
    -z * z / 2.0 - 0.5 * (2.0 * std::f64::consts::PI).ln()
}

/// k ∫ φ(z) [Φ(z + x) − Φ(z)]^(k−1) dz: the range CDF of k standard normals at x (φ is below 1e-22 past |z| = 10).
fn normal_range_cdf(x: f64, k: f64) -> f64 {
    let inner = |z: f64| (normal_log_pdf(z).exp()) * (normal_cdf(z + x) - normal_cdf(z)).powf(k - 1.0);
    k * integrate(&inner, -10.0, 10.0, 1e-15)
}

/// The studentized range CDF P(Q ≤ q) for k groups and `df` degrees of freedom:
///
/// F(q; k, ν) = ∫₀^∞ f_ν(s) · k ∫ φ(z) [Φ(z + qs) − Φ(z)]^(k−1) dz ds,
/// f_ν(s) = ν^(ν/2) s^(ν−1) e^(−νs²/2) / (Γ(ν/2) 2^(ν/2−1)) (the density of χ_ν/√ν).
///
/// From ν = 100,000 on, scipy uses the limit ν → ∞ (s ≡ 1), and so does this.
pub fn studentized_range_cdf(q: f64, k: f64, df: f64) -> f64 {
    if q.is_nan() || k.is_nan() || df.is_nan() || k < 2.0 || df <= 0.0 {
        return f64::NAN;
    }
    if q <= 0.0 {
        return 0.0;
    }
    if q.is_infinite() {
        return 1.0;
    }
    if df >= 100_000.0 {
        return normal_range_cdf(q, k).clamp(0.0, 1.0);
    }
    let log_constant = df / 2.0 * df.ln() - libm::lgamma(df / 2.0) - (df / 2.0 - 1.0) * std::f64::consts::LN_2;
    let outer = |s: f64| {
        if s <= 0.0 {
            return 0.0;
        }
        let density = (log_constant + (df - 1.0) * s.ln() - df * s * s / 2.0).exp();
        if density == 0.0 {
            0.0
        } else {
            density * normal_range_cdf(q * s, k)
        }
    };
    // The density of s peaks at √((ν−1)/ν) with spread about 1/√(2ν): split there, and map [mode, ∞) onto [0, 1).
    let mode = if df > 1.0 { ((df - 1.0) / df).sqrt() } else { 0.0 };
    let below = if mode > 0.0 { integrate(&outer, 0.0, mode, 1e-14) } else { 0.0 };
    let above = integrate(
        &|t: f64| if t >= 1.0 { 0.0 } else { outer(mode + t / (1.0 - t)) / ((1.0 - t) * (1.0 - t)) },
        0.0,
        1.0,
        1e-14,
    );
    (below + above).clamp(0.0, 1.0)
}

/// The studentized range survival function 1 − F(q; k, ν), as scipy computes it (from the clipped CDF).
pub fn studentized_range_sf(q: f64, k: f64, df: f64) -> f64 {
    1.0 - studentized_range_cdf(q, k, df)
}

/// Tukey's HSD p-values of every pair of groups (a symmetric k × k matrix, 1 on the diagonal):
///
/// p_ij = 1 − F(|m_i − m_j| / SE_ij; k, N − k), MSE = Σ_g (n_g − 1)·var_g / (N − k), SE_ij = √(MSE·(1/n_i + 1/n_j)/2)
///
/// with numpy's means and variances (ddof 1), as scipy's `tukey_hsd`. Fewer than 2 values in every group leaves
/// no degrees of freedom: NaN.
pub fn tukey_hsd(groups: &[&[f64]]) -> Vec<Vec<f64>> {
    use crate::python::numpy_sum::{np_mean, np_sum, np_var};
    let k = groups.len();
    let sizes: Vec<f64> = groups.iter().map(|g| g.len() as f64).collect();
    let means: Vec<f64> = groups.iter().map(|g| np_mean(g)).collect();
    let observations: f64 = sizes.iter().sum();
    let weighted: Vec<f64> = groups.iter().zip(&sizes).map(|(g, n)| np_var(g, 1) * (n - 1.0)).collect();
    let df = observations - k as f64;
    let mse = np_sum(&weighted) / df;
    let equal_sizes = sizes.iter().all(|n| *n == sizes[0]);
    (0..k)
        .map(|i| {
            (0..k)
                .map(|j| {
                    let normalize = if equal_sizes { 2.0 / sizes[0] } else { 1.0 / sizes[j] + 1.0 / sizes[i] };
                    let standard_error = (normalize * mse / 2.0).sqrt();
                    studentized_range_sf((means[i] - means[j]).abs() / standard_error, k as f64, df)
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // scipy 1.17.1: studentized_range.sf(q, k, df)
    const STUDENTIZED_RANGE_SF: [(f64, f64, f64, f64); 9] = [
        (0.5, 3.0, 10.0, 0.9338641721504076),
        (3.5, 3.0, 12.0, 0.06999548527518362),
        (2.0, 4.0, 1196.0, 0.4906362564383715),
        (5.0, 4.0, 1196.0, 0.0023837851739052507),
        (3.0, 2.0, 5.0, 0.08735930812736137),
        (1.0, 10.0, 2.0, 0.9937697791774422),
        (4.2, 5.0, 100000.0, 0.02484121553783003),
        (6.0, 3.0, 1.0, 0.21955918512098205),
        (0.01, 3.0, 50.0, 0.9999724339534068),
    ];
    // scipy 1.17.1: tukey_hsd(g0, g1, g2).pvalue of the docstring example
    const TUKEY_EXAMPLE: [(usize, usize, f64); 3] = [(0, 1, 0.01444832673640073), (0, 2, 0.9803107240941081), (1, 2, 0.02033113673971476)];

    #[test]
    fn studentized_range_matches_scipy() {
        for (q, k, df, expected) in STUDENTIZED_RANGE_SF {
            let p = studentized_range_sf(q, k, df);
            assert!((p - expected).abs() < 1e-10, "sf({q}, {k}, {df}) = {p}, scipy {expected}");
        }
    }

    #[test]
    fn tukey_matches_scipy_example() {
        let g0 = [24.5, 23.5, 26.4, 27.1, 29.9];
        let g1 = [28.4, 34.2, 29.5, 32.2, 30.1];
        let g2 = [26.1, 28.3, 24.3, 26.2, 27.8];
        let p = tukey_hsd(&[&g0, &g1, &g2]);
        for (i, j, expected) in TUKEY_EXAMPLE {
            assert!((p[i][j] - expected).abs() < 1e-10, "p[{i}][{j}] = {}, scipy {expected}", p[i][j]);
            assert_eq!(p[i][j], p[j][i]);
        }
        assert_eq!(p[1][1], 1.0);
    }
}
