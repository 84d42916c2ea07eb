//! The interface every Hex player implements, and the random player.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use search_core::agent::Agent;

use crate::board::{HexMove, Position};
use crate::rules::HexGame;

/// A Hex player: every player implements `search_core`'s [`Agent`] for [`HexGame`], the one
/// trait that match runners, the GTP engine and the evaluation tiers take; this extension,
/// implemented for every such agent, asks for a move without naming the game
/// ([`HexPlayer::choose_move`]).
///
/// # Examples
///
/// ```
/// use hex::{HexPlayer, Position, RandomPlayer};
///
/// let pos = Position::new(5).unwrap();
/// let mv = RandomPlayer::new(1).choose_move(&pos);
/// assert!(pos.play(mv).is_ok());
/// ```
///
/// A player of your own implements [`Agent`]:
///
/// ```
/// use hex::{Agent, HexGame, HexMove, HexPlayer, Position};
///
/// /// Plays the first empty cell.
/// struct First;
///
/// impl Agent<HexGame> for First {
///     fn name(&self) -> String {
///         "first".into()
///     }
///     fn choose(&mut self, _: &HexGame, position: &Position) -> HexMove {
///         HexMove::Place(position.board().empty_cells().next().expect("the game is not over"))
///     }
/// }
///
/// let pos = Position::new(3).unwrap();
/// assert_eq!(First.choose_move(&pos), HexMove::Place(hex::Cell::new(0, 0)));
/// ```
pub trait HexPlayer: Agent<HexGame> {
    /// A legal move for the side to move (the agent's move for the game of this board size).
    ///
    /// # Panics
    /// If the game is over (check [`Position::winner`] first).
    fn choose_move(&mut self, position: &Position) -> HexMove {
        Agent::choose(self, &HexGame::new(position.size()), position)
    }
}

impl<A: Agent<HexGame> + ?Sized> HexPlayer for A {}

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

impl Agent<HexGame> for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, _: &HexGame, position: &Position) -> HexMove {
        let moves = position.legal_moves();
        assert!(!moves.is_empty(), "choose() needs a position where the game is not over");
        moves[self.rng.random_range(0..moves.len())]
    }
}
