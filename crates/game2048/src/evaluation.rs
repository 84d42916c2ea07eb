//! From a board heuristic to a search evaluator: the [`Heuristic`] trait and [`Evaluation`].

use search_core::{Evaluator, Player};

use crate::board::Board;
use crate::rules::{Game2048, Position, Spawns, Turn};

/// A static value of a board: higher is better for the player.
///
/// Implemented by every heuristic in [`crate::heuristics`]; implement it to search with your own.
///
/// # Examples
///
/// ```
/// use game2048::{Board, Heuristic};
///
/// /// More empty cells is better.
/// struct Space;
/// impl Heuristic for Space {
///     fn value(&self, board: Board) -> f64 { f64::from(board.empty_count()) }
///     fn bounds(&self) -> Option<(f64, f64)> { Some((0.0, 16.0)) }
/// }
/// assert_eq!(Space.value(Board::EMPTY), 16.0);
/// ```
pub trait Heuristic: Sync {
    /// The value of `board`.
    fn value(&self, board: Board) -> f64;

    /// Bounds `(lo, hi)` on every value this heuristic returns, if known: they let Star1 prune
    /// chance nodes.
    fn bounds(&self) -> Option<(f64, f64)> {
        None
    }

    /// The value of the lost `board` (no slide is legal), if the heuristic has one; `None`,
    /// the default, puts every loss below every board this heuristic values (see
    /// [`Evaluation::loss`]). A heuristic that estimates the final score values a lost board at
    /// the score it ends with. A heuristic with [`Heuristic::bounds`] must keep these values
    /// within them (Star1 prunes by the bounds).
    fn lost(&self, board: Board) -> Option<f64> {
        let _ = board;
        None
    }

    /// The largest value among the boards `board` slides to (its afterstates), `None` when no
    /// move is legal. The default slides and values each; a heuristic that can share work
    /// between the four overrides it, and must give exactly the same value.
    fn best_afterstate(&self, board: Board) -> Option<f64> {
        best_afterstate_by_value(self, board)
    }

    /// The expected [`Heuristic::best_afterstate`] after a random spawn on `board`: the sum
    /// of `two · v` for a 2 and `four · v` for a 4 on each empty cell, `v` the best afterstate
    /// of the board with that tile (`lost` when it has none), in `f64` from `0.0`, cell by cell
    /// in increasing order and a 2 before a 4; the 4s are left out when `four` is 0. This is
    /// the value of a chance node whose spawns the search values at once. The spawns differ
    /// from `board` in one cell, so a heuristic may share the work they have in common; the
    /// default values each on its own, and an override must give exactly the same sum.
    fn expected_best_afterstate(&self, board: Board, two: f64, four: f64, lost: f64) -> f64 {
        expected_best_afterstate_one_by_one(self, board, two, four, lost)
    }
}

/// [`Heuristic::expected_best_afterstate`]'s default: each spawn's board valued on its own.
pub(crate) fn expected_best_afterstate_one_by_one<H: Heuristic + ?Sized>(
    heuristic: &H,
    board: Board,
    two: f64,
    four: f64,
    lost: f64,
) -> f64 {
    let mut sum = 0.0;
    let mut empty = board.empty_mask();
    while empty != 0 {
        let cell = empty.trailing_zeros() as usize;
        empty &= empty - 1;
        sum += two * heuristic.best_afterstate(board.with_rank(cell, 1)).unwrap_or(lost);
        if four > 0.0 {
            sum += four * heuristic.best_afterstate(board.with_rank(cell, 2)).unwrap_or(lost);
        }
    }
    sum
}

/// [`Heuristic::best_afterstate`]'s default: each afterstate slid and valued, the first of the
/// largest kept (NaN too), as the search's own maximum would find it.
pub(crate) fn best_afterstate_by_value<H: Heuristic + ?Sized>(heuristic: &H, board: Board) -> Option<f64> {
    board
        .afters()
        .into_iter()
        .flatten()
        .map(|after| heuristic.value(after))
        .reduce(|a, b| if b > a || b.is_nan() { b } else { a })
}

impl<H: Heuristic + ?Sized> Heuristic for &H {
    fn value(&self, board: Board) -> f64 {
        (**self).value(board)
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        (**self).bounds()
    }
    fn lost(&self, board: Board) -> Option<f64> {
        (**self).lost(board)
    }
    fn best_afterstate(&self, board: Board) -> Option<f64> {
        (**self).best_afterstate(board)
    }
    fn expected_best_afterstate(&self, board: Board, two: f64, four: f64, lost: f64) -> f64 {
        (**self).expected_best_afterstate(board, two, four, lost)
    }
}

impl<H: Heuristic + ?Sized + Send> Heuristic for std::sync::Arc<H> {
    fn value(&self, board: Board) -> f64 {
        (**self).value(board)
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        (**self).bounds()
    }
    fn lost(&self, board: Board) -> Option<f64> {
        (**self).lost(board)
    }
    fn best_afterstate(&self, board: Board) -> Option<f64> {
        (**self).best_afterstate(board)
    }
    fn expected_best_afterstate(&self, board: Board, two: f64, four: f64, lost: f64) -> f64 {
        (**self).expected_best_afterstate(board, two, four, lost)
    }
}

impl<H: Heuristic + ?Sized> Heuristic for Box<H> {
    fn value(&self, board: Board) -> f64 {
        (**self).value(board)
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        (**self).bounds()
    }
    fn lost(&self, board: Board) -> Option<f64> {
        (**self).lost(board)
    }
    fn best_afterstate(&self, board: Board) -> Option<f64> {
        (**self).best_afterstate(board)
    }
    fn expected_best_afterstate(&self, board: Board, two: f64, four: f64, lost: f64) -> f64 {
        (**self).expected_best_afterstate(board, two, four, lost)
    }
}

/// The evaluator the agents search with: a heuristic for boards where the search stops, and a
/// fixed value for lost positions (no legal move).
///
/// `loss` must lie below every heuristic value, so that the search avoids losing whenever it
/// can, as the seed document asks ("a won position must score higher than a lost one"); the
/// default, [`Evaluation::new`], takes one below the heuristic's lower bound, or −10¹² when the
/// heuristic has none.
///
/// Values are the player's (player 0); in the seed's minimax model the adversary minimises them.
///
/// # Examples
///
/// ```
/// use game2048::{Board, Evaluation, Game2048, Heuristic, Position};
/// use search_core::Evaluator;
///
/// struct TileSum;
/// impl Heuristic for TileSum {
///     fn value(&self, board: Board) -> f64 { board.tile_sum() as f64 }
///     fn bounds(&self) -> Option<(f64, f64)> { Some((0.0, 16.0 * 32768.0)) }
/// }
///
/// let eval = Evaluation::new(TileSum);
/// let lost: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
/// assert!(eval.terminal(&Game2048::chance(0.1), &Position::slide(lost), 0, 3) < 0.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation<H> {
    /// The heuristic for non-terminal boards.
    pub heuristic: H,
    /// The value of a lost position when the heuristic has none ([`Heuristic::lost`]).
    pub loss: f64,
}

impl<H: Heuristic> Evaluation<H> {
    /// An evaluation with the loss value just below the heuristic's lower bound.
    pub fn new(heuristic: H) -> Self {
        let loss = heuristic.bounds().map_or(-1e12, |(lo, _)| lo - 1.0);
        Evaluation { heuristic, loss }
    }
}

impl<H: Heuristic> Evaluator<Game2048> for Evaluation<H> {
    type Value = f64;

    fn evaluate(&self, _: &Game2048, position: &Position, player: Player) -> f64 {
        let v = self.heuristic.value(position.board);
        if player == 0 { v } else { -v }
    }

    fn terminal(&self, _: &Game2048, position: &Position, player: Player, _: u32) -> f64 {
        let v = self.heuristic.lost(position.board).unwrap_or(self.loss);
        if player == 0 { v } else { -v }
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        self.heuristic.bounds().map(|(lo, hi)| (lo.min(self.loss), hi.max(self.loss)))
    }

    /// A slide position's best afterstate by the heuristic: the children of a slide are spawn
    /// positions, never out of empty cells after a legal slide, so none is terminal.
    fn best_chance_child(&self, game: &Game2048, position: &Position, player: Player) -> Option<f64> {
        if position.turn != Turn::Slide || game.spawns != Spawns::Chance || player != 0 {
            return None;
        }
        self.heuristic.best_afterstate(position.board)
    }

    fn chance_value(
        &self,
        game: &Game2048,
        position: &Position,
        player: Player,
        ply: u32,
        bottom: &dyn Fn(f64) -> bool,
    ) -> Option<(f64, u64)> {
        if position.turn != Turn::Spawn || game.spawns != Spawns::Chance || player != 0 {
            return None;
        }
        let empty = position.board.empty_count();
        if empty == 0 {
            return None;
        }
        let (two, four) = game.spawn_probabilities(position.board);
        if !bottom(two) || (four > 0.0 && !bottom(four)) {
            return None;
        }
        // One loop over the spawns, in the game's order, instead of a search node for each; a
        // board without a move is lost.
        let lost = self.terminal(game, position, player, ply);
        let value = self.heuristic.expected_best_afterstate(position.board, two, four, lost);
        // The game lists an outcome only when its probability is positive.
        let children = u64::from(empty) * (u64::from(two > 0.0) + u64::from(four > 0.0));
        Some((value, children))
    }
}
