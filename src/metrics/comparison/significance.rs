//! Comparing two runs query by query: the paired Student's t-test (scipy's `ttest_rel`) and Fisher's
//! randomisation test exactly as ranx draws it (numpy's seeded MT19937), as ranx's `compare` offers them. Tukey's
//! HSD, which looks at all runs at once, is [`super::tukey`].
//!
//! The t distribution's CDF comes from the regularised incomplete beta function (continued fraction, Lentz's
//! method) and a Lanczos log-gamma; both are tested against reference values.

use crate::python::mt19937::Mt19937;
use crate::python::numpy_sum::np_mean;

/// A paired t-test result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TTest {
    /// t = mean(d) / (sd(d) / √n), d = b − a per query.
    pub statistic: f64,
    /// Two-sided p-value with n − 1 degrees of freedom.
    pub p_value: f64,
}

/// A randomised permutation test result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PermutationTest {
    /// Fraction of the random permutations whose |mean difference| ≥ the observed one (ranx's estimate).
    pub p_value: f64,
    pub n_permutations: u32,
    pub random_seed: u32,
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error below 1e-15).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (i, c) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_continued_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const EPSILON: f64 = 1e-15;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=10_000 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < EPSILON {
            break;
        }
    }
    h
}

/// The regularised incomplete beta function I_x(a, b), for a, b > 0 and 0 ≤ x ≤ 1.
pub fn regularized_incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_continued_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b
    }
}

/// Two-sided p-value of Student's t with `df` degrees of freedom: P(|T| ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2).
pub fn student_t_two_sided_p(t: f64, df: f64) -> f64 {
    if t.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return 0.0;
    }
    regularized_incomplete_beta(df / 2.0, 0.5, df / (df + t * t)).clamp(0.0, 1.0)
}

/// Arithmetic mean; 0 for none.
fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().fold(0.0, |s, v| s + v) / values.len() as f64
    }
}

/// Paired t-test on differences `b − a`: t = mean(d) / (sd(d)/√n), sd with n − 1; two-sided p with n − 1 df.
/// With fewer than 2 queries p is NaN; with all differences equal, p is 1 when they are 0 and 0 otherwise.
pub fn paired_t_test(a: &[f64], b: &[f64]) -> TTest {
    let differences: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
    let n = differences.len();
    if n < 2 {
        return TTest { statistic: f64::NAN, p_value: f64::NAN };
    }
    let m = mean(&differences);
    let variance = differences.iter().map(|d| (d - m) * (d - m)).fold(0.0, |s, v| s + v) / (n - 1) as f64;
    if variance == 0.0 {
        return if m == 0.0 {
            TTest { statistic: 0.0, p_value: 1.0 }
        } else {
            TTest { statistic: m.signum() * f64::INFINITY, p_value: 0.0 }
        };
    }
    let statistic = m / (variance.sqrt() / (n as f64).sqrt());
    TTest { statistic, p_value: student_t_two_sided_p(statistic, (n - 1) as f64) }
}

/// SplitMix64: a small, seedable generator (Steele, Lea & Flood), enough for sign flips.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Fisher's randomisation test as ranx 0.3.21 computes it (`fisher_randomization_test`, Smucker et al., CIKM
/// 2007), with its generator, so that a seed gives ranx's p-value:
///
/// p = (1/P) · Σ_{i=1..P} [ |mean(c⁽ⁱ⁾) − mean(t⁽ⁱ⁾)| ≥ |mean(c) − mean(t)| ]
///
/// where permutation i swaps query q's pair (c_q, t_q) when its draw is even. The draws are numpy's
/// `np.random.seed(seed)` stream, one 32-bit word per query and permutation, queries in order (numpy's
/// `permutation` of a pair takes one word and swaps on a 0 bit); means are numpy's pairwise ones, so the
/// comparison with the observed difference ties exactly where ranx's does. No query or no permutation gives NaN.
pub fn fisher_randomization_test(control: &[f64], treatment: &[f64], permutations: u32, seed: u32) -> PermutationTest {
    let n = control.len().min(treatment.len());
    if n == 0 || permutations == 0 {
        return PermutationTest { p_value: f64::NAN, n_permutations: permutations, random_seed: seed };
    }
    let (control, treatment) = (&control[..n], &treatment[..n]);
    let observed = (np_mean(control) - np_mean(treatment)).abs();
    let mut rng = Mt19937::new(seed);
    let (mut left, mut right) = (vec![0.0; n], vec![0.0; n]);
    let mut reached = 0u32;
    for _ in 0..permutations {
        for q in 0..n {
            let swap = rng.next_u32() & 1 == 0;
            (left[q], right[q]) = if swap { (treatment[q], control[q]) } else { (control[q], treatment[q]) };
        }
        if (np_mean(&left) - np_mean(&right)).abs() >= observed {
            reached += 1;
        }
    }
    PermutationTest { p_value: reached as f64 / permutations as f64, n_permutations: permutations, random_seed: seed }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) {
        assert!((a - b).abs() <= tolerance, "{a} vs {b}");
    }

    #[test]
    fn ln_gamma_known_values() {
        close(ln_gamma(1.0), 0.0, 1e-14);
        close(ln_gamma(0.5), std::f64::consts::PI.sqrt().ln(), 1e-14);
        close(ln_gamma(10.0), 362_880f64.ln(), 1e-12);
        close(ln_gamma(100.5), 361.435_540_467_777_6, 1e-9); // math.lgamma(100.5)
    }

    #[test]
    fn incomplete_beta_known_values() {
        // I_x(1, 1) = x; I_x(a, 1) = x^a; I_0.5(a, a) = 0.5.
        close(regularized_incomplete_beta(1.0, 1.0, 0.3), 0.3, 1e-14);
        close(regularized_incomplete_beta(3.0, 1.0, 0.4), 0.064, 1e-14);
        close(regularized_incomplete_beta(7.5, 7.5, 0.5), 0.5, 1e-14);
        // scipy.special.betainc(2, 3, 0.25) = 0.26171875
        close(regularized_incomplete_beta(2.0, 3.0, 0.25), 0.261_718_75, 1e-14);
    }

    #[test]
    fn student_t_known_p_values() {
        // mpmath: betainc(df/2, 1/2, 0, df/(df+t²), regularized=True)
        close(student_t_two_sided_p(1.0, 1.0), 0.5, 1e-14);
        close(student_t_two_sided_p(2.0, 10.0), 0.073_388_034_770_740_4, 1e-12);
        close(student_t_two_sided_p(-2.228_138_851_986_273_5, 10.0), 0.05, 1e-12);
        close(student_t_two_sided_p(1.959_963_984_540_054, 1e7), 0.05, 1e-6);
        close(student_t_two_sided_p(0.0, 5.0), 1.0, 1e-14);
        close(student_t_two_sided_p(12.706_204_736_174_7, 1.0), 0.05, 1e-12);
    }

    #[test]
    fn paired_t_test_matches_scipy() {
        // t = 1.6329931618554523 with 4 df; p from mpmath.betainc(2, 0.5, 0, 4/(4+t²), regularized=True)
        let t = paired_t_test(&[0.2, 0.4, 0.6, 0.8, 0.5], &[0.3, 0.5, 0.5, 0.9, 0.7]);
        close(t.statistic, 1.632_993_161_855_452_3, 1e-12);
        close(t.p_value, 0.177_807_808_356_221_28, 1e-12);
        assert_eq!(paired_t_test(&[0.5, 0.5], &[0.5, 0.5]).p_value, 1.0);
        assert!(paired_t_test(&[0.5], &[0.6]).p_value.is_nan());
    }

    #[test]
    fn fisher_test_is_seeded_and_sane() {
        let a: Vec<f64> = (0..50).map(|i| (i % 7) as f64 / 7.0).collect();
        let same = fisher_randomization_test(&a, &a, 1000, 42);
        assert_eq!(same.p_value, 1.0);
        let better: Vec<f64> = a.iter().map(|x| x + 0.2).collect();
        assert_eq!(fisher_randomization_test(&a, &better, 1000, 42).p_value, 0.0);
        let noisy: Vec<f64> = a.iter().enumerate().map(|(i, x)| x + if i % 2 == 0 { 0.05 } else { -0.04 }).collect();
        let p1 = fisher_randomization_test(&a, &noisy, 2000, 7);
        assert_eq!(p1, fisher_randomization_test(&a, &noisy, 2000, 7));
        assert!(p1.p_value > 0.0 && p1.p_value < 1.0);
    }

    #[test]
    fn fisher_test_small_case_matches_ranx() {
        // ranx's fisher_randomization_test.py_func([0.2, 0.5, 0.1, 0.9, 0.4], [0.3, 0.7, 0.1, 0.6, 0.8], 20, 0.01, 42)
        let p = fisher_randomization_test(&[0.2, 0.5, 0.1, 0.9, 0.4], &[0.3, 0.7, 0.1, 0.6, 0.8], 20, 42);
        assert_eq!(p.p_value, 0.65);
    }
}
