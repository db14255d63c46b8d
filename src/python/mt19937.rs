//! numpy's legacy generator (`np.random.seed(s)` / `RandomState(s)`): the 32-bit Mersenne Twister MT19937
//! (Matsumoto & Nishimura, 1998), seeded from one 32-bit integer by Knuth's linear recurrence (numpy's
//! `mt19937_seed`, the reference `init_genrand`), so that a seed gives numpy's stream draw for draw.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// The generator's state: 624 words and the position of the next one.
#[derive(Clone)]
pub struct Mt19937 {
    key: [u32; N],
    pos: usize,
}

impl Mt19937 {
    /// `np.random.seed(seed)`: key[0] = seed, key[i] = 1812433253 · (key[i−1] ⊕ (key[i−1] >> 30)) + i (mod 2³²).
    pub fn new(seed: u32) -> Self {
        let mut key = [0u32; N];
        key[0] = seed;
        for i in 1..N {
            key[i] = 1_812_433_253u32.wrapping_mul(key[i - 1] ^ (key[i - 1] >> 30)).wrapping_add(i as u32);
        }
        Mt19937 { key, pos: N }
    }

    /// The next 32-bit output (numpy's `next_uint32`, `genrand_int32` with its tempering).
    pub fn next_u32(&mut self) -> u32 {
        if self.pos == N {
            self.generate();
        }
        let mut y = self.key[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// Regenerates the 624 words (the twist).
    fn generate(&mut self) {
        let twist = |upper: u32, lower: u32, far: u32| {
            let y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
            far ^ (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 }
        };
        for i in 0..N {
            self.key[i] = twist(self.key[i], self.key[(i + 1) % N], self.key[(i + M) % N]);
        }
        self.pos = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_outputs() {
        // mt19937ar.c's init_genrand(5489): the first output is 3499211612; the 10000th is 4123659995 (C++11
        // std::mt19937's required check value).
        let mut g = Mt19937::new(5489);
        assert_eq!(g.next_u32(), 3_499_211_612);
        for _ in 1..9_999 {
            g.next_u32();
        }
        assert_eq!(g.next_u32(), 4_123_659_995);
    }

    #[test]
    fn numpy_seed_42() {
        // np.random.seed(42); np.random.randint(0, 2**32, 3, dtype=np.uint64) draws one word each (mask 2³²−1)
        let mut g = Mt19937::new(42);
        assert_eq!([g.next_u32(), g.next_u32(), g.next_u32()], [1_608_637_542, 3_421_126_067, 4_083_286_876]);
    }
}
