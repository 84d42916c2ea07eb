//! Plain minimax with chance nodes (expectiminimax): no pruning, no tables, no ordering.
//!
//! This is the oracle every other search is tested against. It follows the same [`Horizon`]
//! (depth limit, depth counting, cut-off policy) as the pruning searches, so a pruned search and
//! the oracle with the same horizon must give the same value.
//!
//! - A terminal state is valued by [`Evaluator::terminal`]; a state reached with depth 0, or a
//!   node the cut-off policy stops, by [`Evaluator::evaluate`].
//! - The maximiser's nodes take the largest child value, every other player's the smallest.
//! - A chance node takes `Σ p·v` over its outcomes: expectimax when there is one player,
//!   expectiminimax when there are two.

use crate::eval::Evaluator;
use crate::game::{Game, MoveList, OutcomeList, Player, ToMove};
use crate::horizon::{CutoffContext, CutoffPolicy, Horizon};
use crate::limits::{Clock, WallClock};
use crate::stats::SearchStats;
use crate::value::{Value, checked};

pub use crate::alphabeta::SearchResult;

/// The value of `state` to `horizon`, with the first best root move in generation order.
///
/// # Examples
///
/// ```
/// use search_core::{minimax, Horizon};
/// use search_core::tree::{Tree, TreeEval};
///
/// // A chance node: 12 with probability 1/4, 2 with 3/4, against a sure 4.
/// let mut tree = Tree::new();
/// let (twelve, two, four) = (tree.leaf(12), tree.leaf(2), tree.leaf(4));
/// let gamble = tree.chance(vec![(twelve, 0.25), (two, 0.75)], 0);
/// let root = tree.max(vec![gamble, four], 0);
/// // Depth 2: a chance node does not use up depth, but one reached with depth 0 is a leaf, valued
/// // statically (here 0), so depth 1 would see only the afterstate.
/// let eval = TreeEval::<f64>::new();
/// let found = minimax::search(&tree, &eval, &root, &Horizon::depth(2));
/// assert_eq!((found.value, found.best_move), (4.5, Some(0)));
/// assert_eq!(minimax::search(&tree, &eval, &root, &Horizon::depth(1)).best_move, Some(1));
/// ```
pub fn search<G, E, C>(
    game: &G,
    eval: &E,
    state: &G::State,
    horizon: &Horizon<C>,
) -> SearchResult<G::Move, E::Value>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
{
    let clock = WallClock::start();
    let mut oracle = Oracle {
        game,
        eval,
        horizon,
        maximizer: crate::game::maximizer(game, state),
        stats: SearchStats::default(),
    };
    let (value, best_move) = match game.to_move(state) {
        ToMove::Player(_) if horizon.depth > 0 => {
            let values = oracle.move_values(state);
            let mut best: Option<(G::Move, E::Value)> = None;
            for (mv, v) in values {
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((mv, v));
                }
            }
            match best {
                Some((mv, v)) => (v, Some(mv)),
                None => (oracle.value(state, horizon.depth, 0, 1.0), None),
            }
        }
        _ => (oracle.value(state, horizon.depth, 0, 1.0), None),
    };
    let mut stats = oracle.stats;
    stats.depth_reached = horizon.depth;
    stats.elapsed = clock.elapsed();
    SearchResult { value, best_move, pv: best_move.into_iter().collect(), stats }
}

/// The value of every root move, in generation order (the root must be a player node with depth
/// left, otherwise the list is empty). The maximiser is the player to move at the root.
///
/// Tests use it to get the set of tied best moves.
///
/// # Examples
///
/// ```
/// use search_core::{minimax, Horizon};
/// use search_core::tree::{Tree, TreeEval};
///
/// let mut tree = Tree::new();
/// let leaves = vec![tree.leaf(1), tree.leaf(5), tree.leaf(5)];
/// let root = tree.max(leaves, 0);
/// let values = minimax::move_values(&tree, &TreeEval::<i32>::new(), &root, &Horizon::depth(1));
/// assert_eq!(values, vec![(0, 1), (1, 5), (2, 5)]);
/// ```
pub fn move_values<G, E, C>(
    game: &G,
    eval: &E,
    state: &G::State,
    horizon: &Horizon<C>,
) -> Vec<(G::Move, E::Value)>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
{
    let mut oracle = Oracle {
        game,
        eval,
        horizon,
        maximizer: crate::game::maximizer(game, state),
        stats: SearchStats::default(),
    };
    match game.to_move(state) {
        ToMove::Player(_) if horizon.depth > 0 => oracle.move_values(state),
        _ => Vec::new(),
    }
}

struct Oracle<'a, G, E, C> {
    game: &'a G,
    eval: &'a E,
    horizon: &'a Horizon<C>,
    maximizer: Player,
    stats: SearchStats,
}

impl<G, E, C> Oracle<'_, G, E, C>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
{
    fn move_values(&mut self, state: &G::State) -> Vec<(G::Move, E::Value)> {
        self.stats.nodes += 1;
        let mut moves = MoveList::new();
        self.game.moves(state, &mut moves);
        let child_depth = self.horizon.child_depth(self.horizon.depth, false);
        moves.iter().map(|&mv| (mv, self.value(&self.game.play(state, mv), child_depth, 1, 1.0))).collect()
    }

    fn leaf(&mut self, state: &G::State) -> E::Value {
        self.stats.leaves += 1;
        checked(self.eval.evaluate(self.game, state, self.maximizer))
    }

    fn value(&mut self, state: &G::State, depth: u32, ply: u32, prob: f64) -> E::Value {
        self.stats.nodes += 1;
        let kind = self.game.to_move(state);
        if kind == ToMove::Terminal {
            self.stats.leaves += 1;
            return checked(self.eval.terminal(self.game, state, self.maximizer, ply));
        }
        if depth == 0 {
            return self.leaf(state);
        }
        match kind {
            ToMove::Chance => {
                let mut outcomes = OutcomeList::new();
                self.game.outcomes(state, &mut outcomes);
                let child_depth = self.horizon.child_depth(depth, true);
                if self.cut(state, child_depth, outcomes.len(), prob, ply, true) {
                    return self.leaf(state);
                }
                let mut sum = 0.0;
                for (mv, q) in outcomes {
                    sum +=
                        q * self.value(&self.game.play(state, mv), child_depth, ply + 1, prob * q).to_f64();
                }
                E::Value::from_f64(sum)
            }
            _ => {
                let is_max = kind == ToMove::Player(self.maximizer);
                let mut moves = MoveList::new();
                self.game.moves(state, &mut moves);
                let child_depth = self.horizon.child_depth(depth, false);
                if moves.is_empty() || !is_max && self.cut(state, child_depth, moves.len(), prob, ply, false)
                {
                    return self.leaf(state);
                }
                let mut best = if is_max { E::Value::NEG_INFINITY } else { E::Value::INFINITY };
                for mv in moves {
                    let v = self.value(&self.game.play(state, mv), child_depth, ply + 1, prob);
                    if (is_max && v > best) || (!is_max && v < best) {
                        best = v;
                    }
                }
                best
            }
        }
    }

    fn cut(
        &mut self,
        state: &G::State,
        remaining: u32,
        width: usize,
        prob: f64,
        ply: u32,
        chance: bool,
    ) -> bool {
        let ctx = CutoffContext { remaining, width, path_probability: prob, ply, chance };
        self.horizon.cuts(self.game, state, ctx, &mut self.stats)
    }
}
