//! Seeded input generation: a SplitMix64 stream and byte-level mutations of seed files (AFL's havoc stage, small).

use rerankit::metrics::comparison::significance::SplitMix64;

/// The crate's SplitMix64 (the permutation test's generator): seedable and the same on every platform, so a
/// failing case is reproduced by its seed.
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Tokens that break parsers: number edge cases, Unicode that normalises or trims to nothing, separators,
/// quoting, a byte-order mark, and bytes that are not UTF-8.
const TOKENS: &[&[u8]] = &[
    b"0", b"-1", b"-0", b"1e309", b"-1e309", b"NaN", b"nan", b"inf", b"-inf", b"1.5", b"4294967296", b"18446744073709551616",
    b"99999999999999999999999999", b"0x10", b"1_000", b"", b" ", b"\t", b"\n", b"\r\n", b"\r", b"\0", b"\xef\xbb\xbf",
    b"\xe2\x80\x8b", b"\xff", b"\xc3", b"\xf0\x9f\x98\x80", b"\"", b"'", b"\\", b",", b";", b":", b"{", b"}", b"[", b"]",
    b"(", b")", b"null", b"None", b"True", b"false", b"[]", b"{}", b"- ", b"? ", b"&a", b"*a", b"!!binary", b"%", b"#",
    b"Q0", b"q1", b"doc1", b"\"\"", b"''", b"a\xcc\x81",
];

const MAX_LEN: usize = 1 << 16;

/// One mutated input: 1–8 random edits of a random seed (or, now and then, of random bytes), spliced with
/// another seed sometimes. Never longer than 64 KiB.
pub fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = if rng.chance(50) {
        (0..rng.below(256)).map(|_| rng.next_u64() as u8).collect()
    } else {
        rng.pick(seeds).clone()
    };
    let edits = 1 + rng.below(8);
    for _ in 0..edits {
        edit(rng, &mut data, seeds);
        data.truncate(MAX_LEN);
    }
    data
}

fn edit(rng: &mut Rng, data: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let len = data.len();
    let at = |rng: &mut Rng| if len == 0 { 0 } else { rng.below(len + 1) };
    match rng.below(10) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = rng.next_u64() as u8;
        }
        2 | 3 => {
            let i = at(rng);
            let token = *rng.pick(TOKENS);
            data.splice(i..i, token.iter().copied());
        }
        4 if len > 0 => {
            // replace a run of digits or letters (a field) by a token
            let i = rng.below(len);
            let mut j = i;
            while j < len && data[j].is_ascii_alphanumeric() && j - i < 32 {
                j += 1;
            }
            let token = *rng.pick(TOKENS);
            data.splice(i..j.max(i + 1).min(len), token.iter().copied());
        }
        5 if len > 0 => {
            let i = rng.below(len);
            let n = rng.below((len - i).min(64) + 1);
            data.drain(i..i + n);
        }
        6 if len > 0 => {
            // duplicate a range (repeated lines, keys and ids)
            let i = rng.below(len);
            let n = rng.below((len - i).min(256) + 1);
            let piece: Vec<u8> = data[i..i + n].to_vec();
            let j = at(rng);
            data.splice(j..j, piece);
        }
        7 => {
            // splice in a piece of another seed
            let other = rng.pick(seeds);
            if !other.is_empty() {
                let i = rng.below(other.len());
                let n = rng.below((other.len() - i).min(512) + 1);
                let j = at(rng);
                data.splice(j..j, other[i..i + n].iter().copied());
            }
        }
        8 if len > 0 => data.truncate(rng.below(len)),
        _ => {
            // swap two lines
            let lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
            if lines.len() > 2 {
                let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                let mut lines: Vec<Vec<u8>> = lines.into_iter().map(<[u8]>::to_vec).collect();
                lines.swap(a, b);
                *data = lines.join(&b'\n');
            }
        }
    }
}
