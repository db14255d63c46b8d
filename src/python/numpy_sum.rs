//! numpy's float64 sum (`np.sum`, `np.add.reduce`, and so `np.mean` and `np.var`): pairwise summation in blocks
//! of 128 with 8 running partial sums, so results equal numpy's to the last bit (a left-to-right sum differs
//! past 8 values).

/// `np.sum` of float64 values.
pub fn np_sum(v: &[f64]) -> f64 {
    fn pairwise(a: &[f64]) -> f64 {
        let n = a.len();
        if n < 8 {
            let mut res = 0.0;
            for x in a {
                res += x;
            }
            res
        } else if n <= 128 {
            let mut r = [a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]];
            let mut i = 8;
            while i < n - (n % 8) {
                for k in 0..8 {
                    r[k] += a[i + k];
                }
                i += 8;
            }
            let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
            while i < n {
                res += a[i];
                i += 1;
            }
            res
        } else {
            let mut n2 = n / 2;
            n2 -= n2 % 8;
            pairwise(&a[..n2]) + pairwise(&a[n2..])
        }
    }
    pairwise(v)
}


/// `np.mean` of float64 values: the pairwise sum over the count (NaN for none, as numpy).
pub fn np_mean(v: &[f64]) -> f64 {
    np_sum(v) / v.len() as f64
}

/// `np.var(v, ddof)`: the mean is subtracted, the squares summed pairwise and divided by `n − ddof`.
pub fn np_var(v: &[f64], ddof: usize) -> f64 {
    let mean = np_mean(v);
    let squares: Vec<f64> = v.iter().map(|x| (x - mean) * (x - mean)).collect();
    np_sum(&squares) / (v.len() as f64 - ddof as f64)
}
