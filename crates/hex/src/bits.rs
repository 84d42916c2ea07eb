//! A fixed-size bitset for boards up to 19x19, with the shifts a flood fill needs.

/// Words in a [`Bits`]: 6 × 64 = 384 bits, enough for 19 rows of 20 (19 cells and a guard).
pub(crate) const WORDS: usize = 6;

/// A set of board bits. Cell `(r, c)` of an n×n board is bit `r·(n+1) + c`: each row has one
/// extra guard bit that never holds a stone, so shifting a set left or right by one never wraps
/// a stone from one row into the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bits(pub(crate) [u64; WORDS]);

impl Bits {
    pub(crate) const EMPTY: Bits = Bits([0; WORDS]);

    pub(crate) fn get(&self, bit: usize) -> bool {
        self.0[bit / 64] >> (bit % 64) & 1 == 1
    }

    pub(crate) fn set(&mut self, bit: usize) {
        self.0[bit / 64] |= 1 << (bit % 64);
    }

    pub(crate) fn clear(&mut self, bit: usize) {
        self.0[bit / 64] &= !(1 << (bit % 64));
    }

    pub(crate) fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    pub(crate) fn and(&self, other: &Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    pub(crate) fn or(&self, other: &Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    pub(crate) fn and_not(&self, other: &Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    pub(crate) fn intersects(&self, other: &Bits) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// Every bit moved `k` places up (towards higher indices); bits past the end are lost.
    pub(crate) fn shl(&self, k: usize) -> Bits {
        let (words, bits) = (k / 64, k % 64);
        let mut out = [0u64; WORDS];
        for i in (words..WORDS).rev() {
            let src = i - words;
            out[i] = self.0[src] << bits;
            if bits > 0 && src > 0 {
                out[i] |= self.0[src - 1] >> (64 - bits);
            }
        }
        Bits(out)
    }

    /// Every bit moved `k` places down (towards lower indices); bits below 0 are lost.
    pub(crate) fn shr(&self, k: usize) -> Bits {
        let (words, bits) = (k / 64, k % 64);
        let mut out = [0u64; WORDS];
        for (i, word) in out.iter_mut().enumerate().take(WORDS - words) {
            let src = i + words;
            *word = self.0[src] >> bits;
            if bits > 0 && src + 1 < WORDS {
                *word |= self.0[src + 1] << (64 - bits);
            }
        }
        Bits(out)
    }

    /// The indices of the set bits, in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + use<> {
        let words = self.0;
        words.into_iter().enumerate().flat_map(|(i, w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + bit)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_match_single_bits() {
        for bit in [0usize, 1, 63, 64, 65, 127, 200, 383] {
            let mut b = Bits::EMPTY;
            b.set(bit);
            for k in [0usize, 1, 5, 19, 20, 21, 64, 70] {
                let up = b.shl(k);
                assert_eq!(up.iter().collect::<Vec<_>>(), if bit + k < 384 { vec![bit + k] } else { vec![] });
                let down = b.shr(k);
                assert_eq!(down.iter().collect::<Vec<_>>(), if bit >= k { vec![bit - k] } else { vec![] });
            }
        }
    }

    #[test]
    fn set_operations() {
        let mut a = Bits::EMPTY;
        let mut b = Bits::EMPTY;
        a.set(3);
        a.set(100);
        b.set(100);
        b.set(300);
        assert_eq!(a.and(&b).iter().collect::<Vec<_>>(), vec![100]);
        assert_eq!(a.or(&b).count(), 3);
        assert_eq!(a.and_not(&b).iter().collect::<Vec<_>>(), vec![3]);
        assert!(a.intersects(&b));
        a.clear(100);
        assert!(!a.intersects(&b));
        assert_eq!(Bits::EMPTY.count(), 0);
    }
}
