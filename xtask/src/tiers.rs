//! What each tier runs: a row per player or pairing, for each game (2048, dominoes, Hex, one
//! module each), and how a row plays its games.

pub mod domino;
pub mod g2048;
pub mod hex;

use self::domino::DominoRow;
use self::g2048::Row2048;
use self::hex::HexRow;
use crate::record::{GameKind, GameLine};

/// A row of some tier.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The tier.
    pub tier: u8,
    /// The row's id, unique within its game.
    pub id: String,
    /// How many games the row plays by default.
    pub games: u64,
    /// What the row plays.
    pub spec: RowSpec,
}

/// What a row plays, per game.
#[derive(Clone, Debug, PartialEq)]
pub enum RowSpec {
    /// A 2048 player and its stopping rules.
    G2048(Row2048),
    /// A dominoes pairing on duplicate deals.
    Domino(DominoRow),
    /// A Hex pairing from fixed openings, colours swapped.
    Hex(HexRow),
}

impl Row {
    /// The game this row belongs to.
    pub fn game(&self) -> GameKind {
        match self.spec {
            RowSpec::G2048(_) => GameKind::G2048,
            RowSpec::Domino(_) => GameKind::Domino,
            RowSpec::Hex(_) => GameKind::Hex,
        }
    }

    /// The seed game `index` of this row plays in a run seeded with `base`.
    pub fn seed(&self, base: u64, index: u64) -> u64 {
        match &self.spec {
            RowSpec::G2048(_) => game_seed(base, index),
            RowSpec::Domino(row) => row.deal_seed(base, index),
            RowSpec::Hex(row) => row.opening_seed(base, index),
        }
    }

    /// Plays game `index` of this row in a run seeded with `base` and returns its record line.
    pub fn run(&self, index: u64, base: u64) -> GameLine {
        let seed = self.seed(base, index);
        match &self.spec {
            RowSpec::G2048(row) => row.run(self.tier, &self.id, index, seed),
            RowSpec::Domino(row) => row.run(self.tier, &self.id, index, seed),
            RowSpec::Hex(row) => row.run(self.tier, &self.id, index, seed),
        }
    }
}

/// The seed of game `index` in a run with seed `base`: every row plays the same spawn seeds, so
/// rows are compared on the same games.
pub fn game_seed(base: u64, index: u64) -> u64 {
    // SplitMix64's output function over base + index.
    let mut z = base.wrapping_add(index).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_by_index_and_base() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
    }
}
