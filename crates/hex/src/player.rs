//! The interface every Hex player implements, and the random player.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{HexMove, Position};

/// A Hex player: given a position where the game is not over, it chooses a legal move.
///
/// # Examples
///
/// ```
/// use hex::{HexPlayer, Position, RandomPlayer};
///
/// let pos = Position::new(5).unwrap();
/// let mv = RandomPlayer::new(1).choose(&pos);
/// assert!(pos.play(mv).is_ok());
/// ```
pub trait HexPlayer {
    /// A short name for logs and tables.
    fn name(&self) -> String;

    /// A legal move for the side to move.
    ///
    /// # Panics
    /// If the game is over (check [`Position::winner`] first).
    fn choose(&mut self, position: &Position) -> HexMove;
}

/// Plays a uniformly random legal move, from a seed.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPlayer { rng: Xoshiro256PlusPlus::seed_from_u64(seed) }
    }
}

impl HexPlayer for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, position: &Position) -> HexMove {
        let moves = position.legal_moves();
        assert!(!moves.is_empty(), "choose() needs a position where the game is not over");
        moves[self.rng.random_range(0..moves.len())]
    }
}
