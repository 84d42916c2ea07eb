//! Brute-force checks shared by the solver's unit tests.

use super::geometry::{Geometry, bits};
use crate::board::{Cell, Color};

/// The bits of these (row, column) cells.
pub(super) fn stones(geo: &Geometry, cells: &[(u8, u8)]) -> u128 {
    cells.iter().map(|&(r, c)| geo.bit(Cell::new(r, c))).fold(0, |a, b| a | b)
}

/// Whether `color` (stones `own`) connects its edges when both sides play only on the `free`
/// cells, its opponent first if `opp_to_move`.
pub(super) fn wins_defending(geo: &Geometry, color: Color, own: u128, free: u128, opp_to_move: bool) -> bool {
    if geo.connects(color, own) {
        return true;
    }
    if free == 0 {
        return false;
    }
    if opp_to_move {
        bits(free).all(|b| wins_defending(geo, color, own, free & !(1 << b), false))
    } else {
        bits(free).any(|b| wins_defending(geo, color, own | 1 << b, free & !(1 << b), true))
    }
}

/// Random positions from a seed: each cell Black or White with probability 1/3, else empty.
pub(super) struct RandomStones(u64);

impl RandomStones {
    pub(super) fn new(seed: u64) -> RandomStones {
        RandomStones(seed.max(1))
    }

    /// A number below `n`.
    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn next(&mut self) -> u64 {
        // xorshift64
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Black's stones, then White's.
    pub(super) fn position(&mut self, geo: &Geometry) -> [u128; 2] {
        let mut stones = [0u128; 2];
        for b in bits(geo.cells) {
            match self.next() % 6 {
                0 | 1 => stones[0] |= 1 << b,
                2 | 3 => stones[1] |= 1 << b,
                _ => {}
            }
        }
        stones
    }
}
