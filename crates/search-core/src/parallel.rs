//! Parallel search on rayon: a fixed-depth search whose root moves are shared among threads
//! ([`search`]), and iterative deepening with threads that share one transposition table
//! ([`iterative_search`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::alphabeta::searcher::Searcher;
use crate::alphabeta::{self, SearchResult};
use crate::eval::Evaluator;
use crate::game::{Game, MoveList, ToMove};
use crate::horizon::{CutoffPolicy, NoCutoff};
use crate::iterative::{self, Helper, IterativeResult};
use crate::limits::{Clock, WallClock};
use crate::stats::SearchStats;
use crate::table::TableAccess;
use crate::value::Value;

/// Settings of a parallel root search.
///
/// # Examples
///
/// ```
/// use search_core::{alphabeta, parallel};
///
/// let config = parallel::Config { search: alphabeta::Config::depth(5), threads: 2 };
/// assert_eq!(config.threads, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config<C = NoCutoff> {
    /// The alpha-beta settings each thread searches with.
    pub search: alphabeta::Config<C>,
    /// Worker threads; `0` uses rayon's current pool (by default one thread per core).
    pub threads: usize,
}

impl Default for Config<NoCutoff> {
    fn default() -> Self {
        Config { search: alphabeta::Config::default(), threads: 0 }
    }
}

/// The same value as [`alphabeta::search`], with the root moves searched in parallel, and the
/// first best move in the game's move order, whatever the threads' timing.
///
/// The first root move is searched alone with the full window. The others then run in parallel,
/// each with the window `[a, +∞]` where `a` is the best value known when it starts, or `[a⁻, +∞]`
/// (`a⁻` the value just below `a`) for a move that comes before the one holding `a`: such a move
/// must show an exact tie to win, so the choice among tied moves does not depend on which thread
/// finished first. Statistics are summed over threads. A chance or terminal root is searched
/// serially.
///
/// With `threads > 0` each call builds its own rayon pool, whose threads have stacks of
/// [`WORKER_STACK_BYTES`] (the search recurses once a ply, so rayon's default stacks of a few
/// megabytes overflow on games thousands of plies deep). To search many positions, build one
/// pool with [`pool`], call with `threads: 0` inside `pool.install`, and save that cost; with
/// `threads: 0` the current pool's stacks are the limit.
///
/// # Examples
///
/// ```
/// use search_core::{alphabeta, parallel, NoTable};
/// use search_core::tree::{Tree, TreeEval};
///
/// let (tree, root) = Tree::perfectly_ordered(4, 5);
/// let eval = TreeEval::<i32>::new();
/// let serial = alphabeta::search(&tree, &eval, &root, &alphabeta::Config::depth(5), NoTable);
/// let config = parallel::Config { search: alphabeta::Config::depth(5), threads: 2 };
/// let par = parallel::search(&tree, &eval, &root, &config, NoTable);
/// assert_eq!((par.value, par.best_move), (serial.value, serial.best_move));
/// ```
pub fn search<G, E, C, T>(
    game: &G,
    eval: &E,
    state: &G::State,
    config: &Config<C>,
    table: T,
) -> SearchResult<G::Move, E::Value>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value> + Copy + Send + Sync,
{
    on_threads(config.threads, || root_split(game, eval, state, &config.search, table))
}

/// Runs `run` on a pool of `threads` threads of [`WORKER_STACK_BYTES`] stacks, or on the current
/// pool for `threads == 0`.
fn on_threads<R: Send>(threads: usize, run: impl FnOnce() -> R + Send) -> R {
    if threads == 0 {
        return run();
    }
    match pool(threads) {
        Ok(pool) => pool.install(run),
        // Without a pool of our own the current one still gives the same answer.
        Err(_) => run(),
    }
}

/// The stack of each worker thread of the pools [`search`] builds: 256 MiB of address space,
/// enough for the 100,000-ply games serial search handles on a large stack (only the pages a
/// search touches are ever committed).
pub const WORKER_STACK_BYTES: usize = 256 << 20;

/// A rayon pool of `threads` threads (0: one a core) with stacks of [`WORKER_STACK_BYTES`], for
/// searching many positions with `threads: 0` inside `pool.install`.
///
/// # Errors
/// When the operating system refuses the threads.
///
/// ```
/// let pool = search_core::parallel::pool(2).unwrap();
/// assert_eq!(pool.current_num_threads(), 2);
/// ```
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new().num_threads(threads).stack_size(WORKER_STACK_BYTES).build()
}

/// Settings of a parallel iterative-deepening search.
///
/// # Examples
///
/// ```
/// use search_core::{iterative, parallel, Limits};
///
/// let config = parallel::IterativeConfig {
///     search: iterative::Config { limits: Limits::depth(12), ..Default::default() },
///     threads: 2,
/// };
/// assert_eq!(config.search.limits.depth, 12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IterativeConfig<C = NoCutoff> {
    /// The iterative-deepening settings (limits, and the alpha-beta settings of each iteration).
    pub search: iterative::Config<C>,
    /// Threads; `0` uses rayon's current pool (by default one thread per core), `1` searches
    /// serially.
    pub threads: usize,
}

impl Default for IterativeConfig<NoCutoff> {
    /// Default iterative settings, one thread per core.
    fn default() -> Self {
        IterativeConfig { search: iterative::Config::default(), threads: 0 }
    }
}

/// [`iterative::search`] with several threads that share `table` (the lazy scheme of
/// multi-threaded game engines): the main thread deepens exactly as the serial search does,
/// and each helper thread deepens on its own with its root moves taken in a rotated order, so
/// that it searches other subtrees first and leaves their results in the table, where the main
/// thread finds them. The answer is the main thread's; the helpers stop when it is done. Their
/// nodes count in the statistics; the iterations listed are the main thread's.
///
/// The table is what makes helpers useful: with [`NoTable`](crate::NoTable), or one thread,
/// this is the serial search. Table entries are valid whichever thread stored them, so the
/// value is one the serial search with that table could give: for a game whose states are
/// always reached at the same depth below the root (most board games that add a piece a
/// move), or with [`alphabeta::Config::tt_exact_depth`], exactly the value of the serial
/// search. Among moves of equal value the one named may depend on the threads' timing.
///
/// # Examples
///
/// ```
/// use search_core::{iterative, parallel, Limits, TranspositionTable};
/// use search_core::tree::{Tree, TreeEval};
///
/// let (tree, root) = Tree::perfectly_ordered(4, 6);
/// let eval = TreeEval::<i32>::new();
/// let search = iterative::Config { limits: Limits::depth(6), ..Default::default() };
/// let table = TranspositionTable::<i32>::with_capacity(1 << 12);
/// let serial = iterative::search(&tree, &eval, &root, &search, &table);
/// let table = TranspositionTable::<i32>::with_capacity(1 << 12);
/// let config = parallel::IterativeConfig { search, threads: 2 };
/// let par = parallel::iterative_search(&tree, &eval, &root, &config, &table);
/// assert_eq!(par.result.value, serial.result.value);
/// ```
pub fn iterative_search<G, E, C, T>(
    game: &G,
    eval: &E,
    state: &G::State,
    config: &IterativeConfig<C>,
    table: T,
) -> IterativeResult<G::Move, E::Value>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value> + Copy + Send + Sync,
{
    let run = || {
        let threads = rayon::current_num_threads();
        if threads < 2 || !T::ENABLED {
            return iterative::search(game, eval, state, &config.search, table);
        }
        lazy(game, eval, state, &config.search, table, threads)
    };
    if config.threads == 1 {
        return iterative::search(game, eval, state, &config.search, table);
    }
    on_threads(config.threads, run)
}

/// The main thread and `threads - 1` helpers on the current pool.
fn lazy<G, E, C, T>(
    game: &G,
    eval: &E,
    state: &G::State,
    config: &iterative::Config<C>,
    table: T,
    threads: usize,
) -> IterativeResult<G::Move, E::Value>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value> + Copy + Send + Sync,
{
    let clock = WallClock::start();
    let done = AtomicBool::new(false);
    let helpers = Mutex::new(SearchStats::default());
    let mut found = rayon::scope(|scope| {
        for rotation in 1..threads {
            let (done, helpers, clock) = (&done, &helpers, &clock);
            scope.spawn(move |_| {
                let helped = iterative::deepen(
                    game,
                    eval,
                    state,
                    config,
                    table,
                    clock,
                    Helper::Rotated(rotation, done),
                );
                *helpers.lock().unwrap_or_else(|e| e.into_inner()) += helped.result.stats;
            });
        }
        let found = iterative::deepen(game, eval, state, config, table, &clock, Helper::None);
        done.store(true, Ordering::Relaxed);
        found
    });
    let helped = *helpers.lock().unwrap_or_else(|e| e.into_inner());
    let (depth, elapsed) = (found.result.stats.depth_reached, found.result.stats.elapsed);
    found.result.stats += helped;
    // The helpers' deeper or longer work is not the answer's: keep the main thread's.
    (found.result.stats.depth_reached, found.result.stats.elapsed) = (depth, elapsed.max(clock.elapsed()));
    found
}

fn root_split<G, E, C, T>(
    game: &G,
    eval: &E,
    state: &G::State,
    config: &alphabeta::Config<C>,
    table: T,
) -> SearchResult<G::Move, E::Value>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value> + Copy + Send + Sync,
{
    let clock = WallClock::start();
    let depth = config.horizon.depth;
    let player = match game.to_move(state) {
        ToMove::Player(p) if depth > 0 => p,
        _ => return alphabeta::search(game, eval, state, config, table),
    };
    let mut moves = MoveList::new();
    game.moves(state, &mut moves);
    game.order_moves(state, &mut moves);
    if moves.len() < 2 {
        return alphabeta::search(game, eval, state, config, table);
    }
    let child_depth = config.horizon.child_depth(depth, false);

    // Searches root move `i` with the window [alpha, +inf]; a result above alpha is exact.
    let search_move = |i: usize, alpha: E::Value| {
        let mut searcher = Searcher::new(game, eval, config, table, player, None);
        let child = game.play(state, moves[i]);
        let value = searcher.node(&child, child_depth, 1, alpha, E::Value::INFINITY, 1.0);
        let mut pv = vec![moves[i]];
        pv.extend_from_slice(searcher.pv(1));
        (value, value > alpha, pv, searcher.stats)
    };

    let first = search_move(0, E::Value::NEG_INFINITY);
    // The best value known and the position of the move that has it.
    let shared_best = Mutex::new((first.0, 0));
    let rest: Vec<_> = (1..moves.len())
        .into_par_iter()
        .map(|i| {
            let (best_value, best_at) = *shared_best.lock().unwrap_or_else(|e| e.into_inner());
            // A move after the current best only needs to beat it; one before it must also show
            // a tie, so it gets a window just below the best value.
            let alpha = if i < best_at { best_value.next_down() } else { best_value };
            let found = search_move(i, alpha);
            if found.1 {
                let mut best = shared_best.lock().unwrap_or_else(|e| e.into_inner());
                if found.0 > best.0 || (found.0 == best.0 && i < best.1) {
                    *best = (found.0, i);
                }
            }
            found
        })
        .collect();

    let mut stats = SearchStats { nodes: 1, ..SearchStats::default() };
    let mut best: Option<(E::Value, Vec<G::Move>)> = None;
    for (value, exact, pv, move_stats) in std::iter::once(first).chain(rest) {
        stats += move_stats;
        // The first move (in order) with the best value was searched with a window below that
        // value, so its result is exact: the first exact result with the best value is it.
        if exact && best.as_ref().is_none_or(|(b, _)| value > *b) {
            best = Some((value, pv));
        }
    }
    let (value, pv) = best.expect("the first root move is always searched exactly");
    stats.depth_reached = depth;
    stats.elapsed = clock.elapsed();
    SearchResult { value, best_move: pv.first().copied(), pv, stats }
}
