//! Haystack 1.x document ids (`Document._get_id`, docs/parity.md §1).
//!
//! id = `'{:02x}'.format(mmh3.hash128(key, signed=False))`: MurmurHash3 x64 128-bit, seed 0, of the UTF-8
//! bytes of the key, as an unsigned integer in lower-case hex **without** zero padding to 32 digits (so the
//! empty string, which hashes to 0, gives `"00"`).

use std::io::Cursor;

/// MurmurHash3 x64 128 of `bytes` with seed 0, as the unsigned integer `mmh3.hash128` returns.
pub fn murmur3_x64_128(bytes: &[u8]) -> u128 {
    murmur3::murmur3_x64_128(&mut Cursor::new(bytes), 0).expect("reading from memory cannot fail")
}

/// The id Haystack derives from the hashed key string.
pub fn id_from_key(key: &str) -> String {
    format!("{:02x}", murmur3_x64_128(key.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_ids_from_parity() {
        let cases = [
            ("hello world", "ab97467d60eb63b1533f6046eb7f610e"),
            ("", "00"),
            ("Ünïcödé text — ✓ 🚀", "feaa2e0c675a9e88eeec037e16f38649"),
            ("The quick brown fox jumps over the lazy dog", "7a433ca9c49a9347e34bbc7bbc071b6c"),
            (":same text:{'source': 'a.pdf', 'page': 1}", "c752396ef48f7d390149628665954ab5"),
            (":same text:{'source': 'b.pdf', 'page': 1}", "c5bfd03e64ef56211f273c1f2865ff5"),
            (":{'source': 'a.pdf'}", "e1f916fbc44302e05a5d15b5741f1aae"),
            (":same text", "5b0d946892ee9301e58fc17d0dfb635a"),
            ("line1\nline2\ttab", "6bbf81cdc7a032097b0a7be388d7467f"),
            ("日本語のテキスト", "a4c4e6415667b49ee8d3ac652a560caa"),
        ];
        for (key, want) in cases {
            assert_eq!(id_from_key(key), want, "key {key:?}");
        }
        assert_eq!(id_from_key(&"a".repeat(10_000)), "8f3c6fd33973be4e59af6a9023bd9b69");
    }

    #[test]
    fn ids_are_not_zero_padded() {
        // The docs/parity.md §1 table's b.pdf id has 31 hex digits: its top nibble is zero.
        assert_eq!(id_from_key(":same text:{'source': 'b.pdf', 'page': 1}").len(), 31);
    }
}
