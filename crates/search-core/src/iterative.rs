//! Iterative deepening under depth, node and time limits.

use std::time::Duration;

use crate::alphabeta::searcher::Searcher;
use crate::alphabeta::{self, SearchResult};
use crate::eval::Evaluator;
use crate::game::maximizer;
use crate::game::{Game, MoveList, ToMove};
use crate::horizon::{CutoffPolicy, NoCutoff};
use crate::limits::{Budget, Clock, Limits, WallClock};
use crate::table::TableAccess;
use crate::value::{Value, checked};

/// Settings of an iterative-deepening search.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use search_core::{iterative, Limits};
///
/// let config = iterative::Config {
///     limits: Limits { time: Some(Duration::from_millis(50)), ..Limits::depth(30) },
///     ..Default::default()
/// };
/// assert_eq!(config.limits.depth, 30);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config<C = NoCutoff> {
    /// The alpha-beta settings of each iteration; their depth limit is replaced by the
    /// iteration's depth (counted as `search.horizon.count` says).
    pub search: alphabeta::Config<C>,
    /// When to stop.
    pub limits: Limits,
}

impl Default for Config<NoCutoff> {
    /// Default alpha-beta settings, up to depth 64, no node or time limit.
    fn default() -> Self {
        Config { search: alphabeta::Config::default(), limits: Limits::depth(64) }
    }
}

/// Why an iterative-deepening search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The last iteration, at the depth limit, completed.
    Depth,
    /// The node budget ran out during an iteration.
    Nodes,
    /// The time limit passed during an iteration.
    Time,
    /// An iteration found a won or lost game ([`Evaluator::is_decisive`]), which deeper
    /// iterations would find again.
    Decided,
}

/// One completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration<M, V> {
    /// Its depth.
    pub depth: u32,
    /// The root value it found.
    pub value: V,
    /// Its best move.
    pub best_move: Option<M>,
    /// Nodes it entered.
    pub nodes: u64,
    /// Clock time when it completed, since the search started.
    pub elapsed: Duration,
}

/// What an iterative-deepening search found.
#[derive(Clone, Debug, PartialEq)]
pub struct IterativeResult<M, V> {
    /// The value, best move and principal variation of the deepest completed iteration, with
    /// statistics summed over all iterations (the unfinished one included).
    pub result: SearchResult<M, V>,
    /// Why the search stopped.
    pub stop: Stop,
    /// Every completed iteration, shallowest first.
    pub iterations: Vec<Iteration<M, V>>,
}

/// Searches `state` at depth 1, 2, … until a limit is met or an iteration finds the game decided
/// ([`Evaluator::is_decisive`]: a forced win or loss, which deeper iterations would find again),
/// and answers with the deepest completed iteration.
///
/// Each iteration tries the previous best move first, and keeps the killer and history tables
/// (history halved) and the transposition table. If even the first iteration is cut short, the
/// answer is the first move in the game's order, valued by the evaluator, with
/// `stats.depth_reached == 0`: a stopped search always names a legal move.
///
/// A time limit is measured on the wall clock from this call, read every
/// [`crate::CLOCK_INTERVAL`] nodes; [`search_with_clock`] takes another clock (a test's).
///
/// # Examples
///
/// ```
/// use search_core::{iterative, Limits, NoTable};
/// use search_core::tree::{Tree, TreeEval};
///
/// let (tree, root) = Tree::perfectly_ordered(3, 6);
/// let config = iterative::Config { limits: Limits::depth(6), ..Default::default() };
/// let found = iterative::search(&tree, &TreeEval::<i32>::new(), &root, &config, NoTable);
/// assert_eq!(found.stop, iterative::Stop::Depth);
/// assert_eq!(found.iterations.len(), 6);
/// assert_eq!(found.result.value, 0);
/// ```
pub fn search<G, E, C, T>(
    game: &G,
    eval: &E,
    state: &G::State,
    config: &Config<C>,
    table: T,
) -> IterativeResult<G::Move, E::Value>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value>,
{
    search_with_clock(game, eval, state, config, table, &WallClock::start())
}

/// [`search`] with its time measured by `clock`, which tests replace by one that advances a
/// fixed step per reading, so the stopping logic is checked without timing anything.
///
/// # Examples
///
/// ```
/// use search_core::{iterative, Limits, NoTable, WallClock};
/// use search_core::tree::{Tree, TreeEval};
///
/// let (tree, root) = Tree::perfectly_ordered(3, 6);
/// let config = iterative::Config { limits: Limits::depth(6), ..Default::default() };
/// let found = iterative::search_with_clock(&tree, &TreeEval::<i32>::new(), &root, &config, NoTable, &WallClock::start());
/// assert_eq!(found.iterations.len(), 6);
/// ```
pub fn search_with_clock<G, E, C, T>(
    game: &G,
    eval: &E,
    state: &G::State,
    config: &Config<C>,
    table: T,
    clock: &dyn Clock,
) -> IterativeResult<G::Move, E::Value>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value>,
{
    deepen(game, eval, state, config, table, clock, Helper::None)
}

/// Whether an iterative search is a helper thread of a parallel one, and then how it differs
/// from the main thread.
#[derive(Clone, Copy)]
pub(crate) enum Helper<'a> {
    /// The search itself.
    None,
    /// A helper: its root moves rotated this many places, and a flag that stops it.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    Rotated(usize, &'a std::sync::atomic::AtomicBool),
}

/// The iterative-deepening loop behind [`search_with_clock`] and each thread of
/// [`crate::parallel::iterative_search`].
pub(crate) fn deepen<G, E, C, T>(
    game: &G,
    eval: &E,
    state: &G::State,
    config: &Config<C>,
    table: T,
    clock: &dyn Clock,
    helper: Helper<'_>,
) -> IterativeResult<G::Move, E::Value>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value>,
{
    let limits = config.limits;
    let stop_flag = match helper {
        Helper::None => None,
        Helper::Rotated(_, flag) => Some(flag),
    };
    let budget = Budget { nodes: limits.nodes, time: limits.time, clock, stop: stop_flag };
    let player = maximizer(game, state);
    let mut searcher = Searcher::new(game, eval, &config.search, table, player, Some(budget));
    if let Helper::Rotated(rotation, _) = helper {
        searcher.root_rotation = rotation;
    }
    let mut iterations: Vec<Iteration<G::Move, E::Value>> = Vec::new();
    let mut best: Option<SearchResult<G::Move, E::Value>> = None;
    let mut stop = Stop::Depth;
    for depth in 1..=limits.depth {
        let nodes_before = searcher.stats.nodes;
        let value = searcher.node(state, depth, 0, E::Value::NEG_INFINITY, E::Value::INFINITY, 1.0);
        if searcher.aborted {
            stop = if limits.nodes.is_some_and(|max| searcher.stats.nodes >= max) {
                Stop::Nodes
            } else {
                Stop::Time
            };
            break;
        }
        let pv = searcher.pv(0).to_vec();
        let best_move = pv.first().copied();
        let elapsed = clock.elapsed();
        iterations.push(Iteration {
            depth,
            value,
            best_move,
            nodes: searcher.stats.nodes - nodes_before,
            elapsed,
        });
        best = Some(SearchResult { value, best_move, pv, stats: Default::default() });
        searcher.root_hint = best_move;
        if let Some(ordering) = &mut searcher.ordering {
            ordering.decay();
        }
        if depth >= limits.depth {
            break;
        }
        if eval.is_decisive(value) {
            stop = Stop::Decided;
            break;
        }
        // An iteration started after the deadline could not finish; do not start it.
        if limits.time.is_some_and(|limit| elapsed >= limit) {
            stop = Stop::Time;
            break;
        }
    }
    let completed = iterations.last().map_or(0, |it| it.depth);
    let mut result = best.unwrap_or_else(|| fallback(game, eval, state, player));
    result.stats = searcher.stats;
    result.stats.depth_reached = completed;
    result.stats.elapsed = clock.elapsed();
    IterativeResult { result, stop, iterations }
}

/// The answer when not even depth 1 completed: the game's first move and the static value.
fn fallback<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    state: &G::State,
    player: u8,
) -> SearchResult<G::Move, E::Value> {
    let (value, best_move) = match game.to_move(state) {
        ToMove::Terminal => (checked(eval.terminal(game, state, player, 0)), None),
        ToMove::Chance => (checked(eval.evaluate(game, state, player)), None),
        ToMove::Player(_) => {
            let mut moves = MoveList::new();
            game.moves(state, &mut moves);
            game.order_moves(state, &mut moves);
            (checked(eval.evaluate(game, state, player)), moves.first().copied())
        }
    };
    SearchResult { value, best_move, pv: best_move.into_iter().collect(), stats: Default::default() }
}
