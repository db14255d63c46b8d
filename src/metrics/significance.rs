//! Comparing two runs query by query: per-query differences, the paired Student's t-test and the randomised
//! (Fisher) permutation test, as ranx's `compare` offers them.
//!
//! The t distribution's CDF comes from the regularised incomplete beta function (continued fraction, Lentz's
//! method) and a Lanczos log-gamma; both are tested against reference values.

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
    /// Fraction of the random sign flips whose |mean difference| ≥ the observed one (ranx's estimate).
    pub p_value: f64,
    pub trials: u32,
    pub seed: u64,
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

/// Randomised permutation test (Fisher's, as ranx): each trial swaps each query's pair of values with
/// probability 1/2; p = (trials with |mean(b) − mean(a)| ≥ observed) / trials.
pub fn permutation_test(a: &[f64], b: &[f64], trials: u32, seed: u64) -> PermutationTest {
    let n = a.len().min(b.len());
    if n == 0 || trials == 0 {
        return PermutationTest { p_value: f64::NAN, trials, seed };
    }
    let differences: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
    let observed = (differences.iter().fold(0.0, |s, d| s + d) / n as f64).abs();
    // Rounding: a permuted mean equal to the observed one up to 1e-12 counts as reaching it.
    let threshold = observed - 1e-12 * observed.max(1.0);
    let mut rng = SplitMix64::new(seed);
    let mut reached = 0u32;
    for _ in 0..trials {
        let mut sum = 0.0;
        let mut bits = 0u64;
        for (i, d) in differences.iter().enumerate() {
            if i % 64 == 0 {
                bits = rng.next_u64();
            }
            sum += if bits & 1 == 1 { -d } else { *d };
            bits >>= 1;
        }
        if (sum / n as f64).abs() >= threshold {
            reached += 1;
        }
    }
    PermutationTest { p_value: reached as f64 / trials as f64, trials, seed }
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
    fn permutation_test_is_seeded_and_sane() {
        let a: Vec<f64> = (0..50).map(|i| (i % 7) as f64 / 7.0).collect();
        let same = permutation_test(&a, &a, 1000, 42);
        assert_eq!(same.p_value, 1.0);
        let better: Vec<f64> = a.iter().map(|x| x + 0.2).collect();
        let p = permutation_test(&a, &better, 1000, 42);
        assert_eq!(p.p_value, 0.0);
        let noisy: Vec<f64> = a.iter().enumerate().map(|(i, x)| x + if i % 2 == 0 { 0.05 } else { -0.04 }).collect();
        let p1 = permutation_test(&a, &noisy, 2000, 7);
        let p2 = permutation_test(&a, &noisy, 2000, 7);
        assert_eq!(p1, p2);
        assert!(p1.p_value > 0.0 && p1.p_value < 1.0);
    }
}
