//! Seeded random keys for Zobrist hashing.

/// SplitMix64's output function: a bijection on `u64` that spreads nearby inputs far apart.
pub(crate) fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A fixed list of pseudo-random 64-bit keys, one per (piece, square)-like feature, for a
/// Zobrist hash: a state's hash is the XOR of the keys of its features, so a move updates it
/// with one XOR per feature it changes.
///
/// The keys depend only on the seed, so hashes are the same in every run and on every machine.
///
/// # Examples
///
/// ```
/// use search_core::ZobristKeys;
///
/// // Two colours of stone on a 3x3 board: feature = colour * 9 + cell.
/// let keys = ZobristKeys::new(2026, 2 * 9);
/// let empty = 0u64;
/// let one_stone = empty ^ keys.key(4);
/// assert_ne!(one_stone, empty);
/// assert_eq!(one_stone ^ keys.key(4), empty); // taking the stone back restores the hash
/// assert_eq!(keys.key(4), ZobristKeys::new(2026, 18).key(4));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZobristKeys {
    keys: Vec<u64>,
}

impl ZobristKeys {
    /// `len` keys drawn from `seed`. Keys are distinct and never zero.
    pub fn new(seed: u64, len: usize) -> Self {
        let base = splitmix64(seed);
        // SplitMix64 is a bijection, so distinct counters give distinct keys; zero is skipped.
        let keys = (0u64..).map(|i| splitmix64(base.wrapping_add(i))).filter(|&k| k != 0).take(len).collect();
        ZobristKeys { keys }
    }

    /// The key of feature `index`.
    ///
    /// # Panics
    /// If `index >= len()`.
    pub fn key(&self, index: usize) -> u64 {
        self.keys[index]
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_seeded() {
        let keys = ZobristKeys::new(1, 10_000);
        let mut sorted = keys.keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 10_000);
        assert_ne!(ZobristKeys::new(2, 10).key(0), keys.key(0));
        assert!(keys.keys.iter().all(|&k| k != 0));
    }
}
