//! Evaluators: the values of the states where a search stops.

use crate::game::{Game, Player};
use crate::value::Value;

/// Values the states where a search stops: depth-limit leaves, cut-off nodes and terminal states.
///
/// Every value is from the point of view of `player`, the player the search maximises for (the
/// one to move at the root). In a two-player zero-sum game the opponent's value is the negation.
///
/// # Examples
///
/// ```
/// use search_core::{Evaluator, Game, MoveList, Player, ToMove};
///
/// /// Counting down from a number; the player who reaches zero wins.
/// struct Countdown;
/// impl Game for Countdown {
///     type State = (u32, u8);
///     type Move = ();
///     fn to_move(&self, s: &(u32, u8)) -> ToMove {
///         if s.0 == 0 { ToMove::Terminal } else { ToMove::Player(s.1) }
///     }
///     fn moves(&self, _: &(u32, u8), moves: &mut MoveList<()>) { moves.push(()) }
///     fn play(&self, s: &(u32, u8), _: ()) -> (u32, u8) { (s.0 - 1, 1 - s.1) }
/// }
///
/// struct WinLoss;
/// impl Evaluator<Countdown> for WinLoss {
///     type Value = i32;
///     fn evaluate(&self, _: &Countdown, _: &(u32, u8), _: Player) -> i32 { 0 }
///     fn terminal(&self, _: &Countdown, s: &(u32, u8), player: Player, ply: u32) -> i32 {
///         // The player who just moved won; a shorter win scores higher.
///         let winner = 1 - s.1;
///         let score = 1000 - ply as i32;
///         if winner == player { score } else { -score }
///     }
///     fn bounds(&self) -> Option<(i32, i32)> { Some((-1000, 1000)) }
/// }
///
/// assert_eq!(WinLoss.terminal(&Countdown, &(0, 1), 0, 3), 997);
/// ```
pub trait Evaluator<G: Game> {
    /// The value type; `f64` for games with chance nodes.
    type Value: Value;

    /// The heuristic value of a non-terminal `state` for `player`.
    fn evaluate(&self, game: &G, state: &G::State, player: Player) -> Self::Value;

    /// The value of a terminal `state` for `player`, reached `ply` moves below the root (so a
    /// game can prefer a quick win and a slow loss). The default calls [`Evaluator::evaluate`];
    /// override it so a win scores above every heuristic value and a loss below.
    ///
    /// A transposition table stores values as found: a ply-dependent value stored for a state
    /// reached at one ply is reused where the state is reached at another, so with a table such
    /// values are exact in their sign and class (win or loss) but not always in the distance.
    fn terminal(&self, game: &G, state: &G::State, player: Player, ply: u32) -> Self::Value {
        let _ = ply;
        self.evaluate(game, state, player)
    }

    /// Whether `value` can only be the value of a won or lost game: one that
    /// [`Evaluator::terminal`] gives and [`Evaluator::evaluate`] never does. Iterative deepening
    /// stops at a root value it calls decisive ([`crate::iterative::Stop::Decided`]): the win or
    /// loss is forced within the depth already searched, and every deeper iteration would find
    /// it again. `false` for every value (the default) lets the search go on to its depth limit.
    ///
    /// ```
    /// use search_core::Evaluator;
    /// use search_core::tree::TreeEval;
    ///
    /// assert!(!TreeEval::<i32>::new().is_decisive(1_000_000));
    /// ```
    fn is_decisive(&self, value: Self::Value) -> bool {
        let _ = value;
        false
    }

    /// Static bounds `(lo, hi)` with `lo <= v <= hi` for every value this evaluator returns,
    /// terminal values included. Star1 pruning at chance nodes needs them; `None` (the default)
    /// turns it off. Tighter bounds prune more; wrong bounds give wrong results (checked by
    /// `debug_assert!`).
    fn bounds(&self) -> Option<(Self::Value, Self::Value)> {
        None
    }

    /// The value of the maximiser's node `state` when each of its children is a chance node that
    /// the search would value with [`Evaluator::evaluate`] (its depth is spent, or the cut-off
    /// policy cuts it: see [`crate::CutoffPolicy::cuts_every_chance_node`]): the largest of those
    /// values, computed in one go. `None` (the default), or a child that is not such a chance
    /// node, leaves the work to the search.
    ///
    /// [`crate::expectimax`] asks it, and the answer must be exactly the value the search would
    /// find (the largest of `evaluate` over the children; a child with no outcomes is terminal
    /// and valued by [`Evaluator::terminal`]). A game whose move generation already computes
    /// what the evaluation needs (2048: the slid rows) saves a node and a call per child. The
    /// children it values this way are not counted in the search's statistics.
    fn best_chance_child(&self, game: &G, state: &G::State, player: Player) -> Option<Self::Value> {
        let _ = (game, state, player);
        None
    }

    /// The value of the chance node `state` when every outcome leads to a node of `player`
    /// that the search would value with [`Evaluator::best_chance_child`] (or with
    /// [`Evaluator::terminal`] where the game is over), computed in one go, with the number of
    /// outcomes.
    ///
    /// The value must be exactly the one the search would find: the sum over the outcomes, in
    /// the order of [`Game::chance_successors`], of `q · v` in `f64` (`v` through
    /// [`Value::to_f64`](crate::Value::to_f64)), starting from `0.0`, then
    /// [`Value::from_f64`](crate::Value::from_f64). `bottom(q)` says whether an outcome of
    /// probability `q` leads to such a node; when one does not, return `None` (the default
    /// always does, leaving the work to the search). `ply` is the children's ply below the
    /// root. [`crate::expectimax`] asks it: siblings that share most of their work (2048: the
    /// spawns on one board share all but one row and one column) are then valued faster than
    /// one by one, and without a call per outcome.
    fn chance_value(
        &self,
        game: &G,
        state: &G::State,
        player: Player,
        ply: u32,
        bottom: &dyn Fn(f64) -> bool,
    ) -> Option<(Self::Value, u64)> {
        let _ = (game, state, player, ply, bottom);
        None
    }
}
