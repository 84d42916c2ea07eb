//! Fail-hard alpha-beta for any [`Game`]: player nodes, and chance nodes searched exactly or with
//! Star1, with an optional transposition table, killers and history.
//!
//! # The fail-hard contract
//!
//! A search of `state` in the window `[alpha, beta]` returns `r` with `alpha <= r <= beta`
//! (checked by `debug_assert!` at every return, table hits included). With `f` the value plain
//! [`crate::minimax`] gives for the same horizon:
//!
//! - `alpha < r < beta` means `r == f`: the value is exact;
//! - `r == alpha` means `f <= alpha`: the search failed low and `alpha` is an upper bound;
//! - `r == beta` means `f >= beta`: the search failed high and `beta` is a lower bound.
//!
//! [`search`] uses the infinite window, so its value is always exact.
//!
//! Inside, the recursion is fail-soft (a node that fails returns the best bound its children
//! gave, which may lie beyond the window), so the transposition table keeps the tightest bounds
//! found; only the answer at the root is held to the window.

pub(crate) mod searcher;

use crate::eval::Evaluator;
use crate::game::Game;
use crate::game::maximizer;
use crate::horizon::{CutoffPolicy, Horizon, NoCutoff};
use crate::limits::Clock;
use crate::limits::WallClock;
use crate::stats::SearchStats;
use crate::table::TableAccess;
use crate::value::{Value, clamp};
use searcher::Searcher;

/// Settings of an alpha-beta search.
///
/// # Examples
///
/// ```
/// use search_core::alphabeta::Config;
///
/// let config = Config { star1: false, ..Config::depth(6) };
/// assert_eq!(config.horizon.depth, 6);
/// assert!(config.killers && config.history);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config<C = NoCutoff> {
    /// Depth limit, depth counting and cut-off policy.
    pub horizon: Horizon<C>,
    /// Prune chance nodes with Star1 when the evaluator has [`Evaluator::bounds`]; the value is
    /// the same either way. On by default.
    pub star1: bool,
    /// Try killer moves early (needs [`Game::move_space`] > 0). On by default.
    pub killers: bool,
    /// Order moves by history score (needs [`Game::move_space`] > 0). On by default.
    pub history: bool,
    /// Principal variation search: after a node's first move, each move is searched first with a
    /// null window that only asks whether it beats the best so far, and again with the full
    /// window when it does. The value is the same either way; with good move ordering most moves
    /// are settled by the cheap probe. On by default.
    pub pvs: bool,
    /// Accept a table entry only if it was searched to exactly the depth required, not deeper.
    /// Off by default: a deeper entry is normally better. Turn it on to compare exactly with a
    /// fixed-depth oracle on a game where one state can be reached with different depths left.
    pub tt_exact_depth: bool,
}

impl Config<NoCutoff> {
    /// The default settings with a depth limit of `depth` player moves.
    pub fn depth(depth: u32) -> Self {
        Config {
            horizon: Horizon::depth(depth),
            star1: true,
            killers: true,
            history: true,
            pvs: true,
            tt_exact_depth: false,
        }
    }
}

impl Default for Config<NoCutoff> {
    /// Depth 4 and every option on.
    fn default() -> Self {
        Config::depth(4)
    }
}

impl<C> Config<C> {
    /// The same settings with another horizon (and so, possibly, another cut-off policy).
    pub fn with_horizon<D>(&self, horizon: Horizon<D>) -> Config<D> {
        Config {
            horizon,
            star1: self.star1,
            killers: self.killers,
            history: self.history,
            pvs: self.pvs,
            tt_exact_depth: self.tt_exact_depth,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M, V> {
    /// The value of the root for the player to move there (player 0 at a chance root).
    pub value: V,
    /// The move to play: the first of the best moves in search order. `None` at a chance or
    /// terminal root, or when a window search failed low.
    pub best_move: Option<M>,
    /// The principal variation from the root: the best move, the best reply, and so on, until a
    /// chance node, a leaf or a table cut-off ends it.
    pub pv: Vec<M>,
    /// What the search did.
    pub stats: SearchStats,
}

/// The exact value of `state` to the configured horizon, its best move and principal variation.
///
/// `table` is [`crate::NoTable`] or `&TranspositionTable` for a game that implements
/// [`crate::GameHash`].
///
/// # Examples
///
/// ```
/// use search_core::{alphabeta, minimax, Horizon, NoTable};
/// use search_core::tree::{Tree, TreeEval};
///
/// // The tree of AIMA's Figure 5.5: MAX chooses among three MIN nodes.
/// let mut tree = Tree::new();
/// let mins: Vec<usize> = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
///     .iter()
///     .map(|leaves| {
///         let leaves = leaves.iter().map(|&v| tree.leaf(v)).collect();
///         tree.min(leaves, 0)
///     })
///     .collect();
/// let root = tree.max(mins, 0);
///
/// let config = alphabeta::Config::depth(2);
/// let found = alphabeta::search(&tree, &TreeEval::<i32>::new(), &root, &config, NoTable);
/// assert_eq!((found.value, found.best_move), (3, Some(0)));
/// assert_eq!(found.stats.leaves, 7); // minimax looks at all 9
/// assert_eq!(minimax::search(&tree, &TreeEval::<i32>::new(), &root, &Horizon::depth(2)).value, 3);
/// ```
pub fn search<G, E, C, T>(
    game: &G,
    eval: &E,
    state: &G::State,
    config: &Config<C>,
    table: T,
) -> SearchResult<G::Move, E::Value>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value>,
{
    search_window(game, eval, state, E::Value::NEG_INFINITY, E::Value::INFINITY, config, table)
}

/// A fail-hard search of `state` in the window `[alpha, beta]` (see the module docs for what the
/// value means). The principal variation and best move are those of an exact result; after a
/// fail-high the best move is the refutation, after a fail-low there is none.
///
/// # Examples
///
/// ```
/// use search_core::{alphabeta, NoTable};
/// use search_core::tree::{Tree, TreeEval};
///
/// let mut tree = Tree::new();
/// let leaves = vec![tree.leaf(3), tree.leaf(9)];
/// let root = tree.max(leaves, 0);
/// let config = alphabeta::Config::depth(1);
/// let eval = TreeEval::<i32>::new();
/// // True value 9: a window above it fails low, one below fails high, one around it is exact.
/// assert_eq!(alphabeta::search_window(&tree, &eval, &root, 10, 20, &config, NoTable).value, 10);
/// assert_eq!(alphabeta::search_window(&tree, &eval, &root, 0, 5, &config, NoTable).value, 5);
/// assert_eq!(alphabeta::search_window(&tree, &eval, &root, 0, 20, &config, NoTable).value, 9);
/// ```
pub fn search_window<G, E, C, T>(
    game: &G,
    eval: &E,
    state: &G::State,
    alpha: E::Value,
    beta: E::Value,
    config: &Config<C>,
    table: T,
) -> SearchResult<G::Move, E::Value>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value>,
{
    let clock = WallClock::start();
    let mut searcher = Searcher::new(game, eval, config, table, maximizer(game, state), None);
    // The recursion is fail-soft; the window's edges make the answer fail-hard.
    let value = clamp(searcher.node(state, config.horizon.depth, 0, alpha, beta, 1.0), alpha, beta);
    let pv = searcher.pv(0).to_vec();
    let mut stats = searcher.stats;
    stats.depth_reached = config.horizon.depth;
    stats.elapsed = clock.elapsed();
    SearchResult { value, best_move: pv.first().copied(), pv, stats }
}
