//! Root parallelism: several threads search the same root, each in its own tree with its own
//! playouts and knowledge, and their root statistics are added up at the end (Cazenave and
//! Jouandeau, 2007; Chaslot, Winands and van den Herik, 2008, found it as strong as tree
//! parallelism in Go on a few threads, without a lock or a shared node).
//!
//! Each thread runs [`search_in_tree`] with the same settings but its own seed and, under an
//! iteration budget, its share of the iterations, so an iteration-limited parallel search is
//! as deterministic as a serial one: its answer is the merge of the same serial searches run
//! one after another. Under a time limit, a thread that proves the root won stops the others.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{Config, Knowledge, MctsResult, MoveStats, Playout, SearchTree, best_of, search_in_tree};
use crate::game::{Game, ToMove};
use crate::limits::Clock;

/// One thread of [`search_root_parallel`]: the tree it grows (kept for the next search, as
/// [`search_in_tree`] keeps it), its playout policy and its knowledge.
#[derive(Debug)]
pub struct Worker<'a, M, P, K: ?Sized> {
    /// The thread's tree; its root must be the searched state (an empty tree starts afresh).
    pub tree: &'a mut SearchTree<M>,
    /// The thread's playouts.
    pub playout: &'a mut P,
    /// The thread's knowledge.
    pub knowledge: &'a mut K,
}

/// [`search_in_tree`] on as many threads as `workers`, one tree each, merged at the root: a
/// move's visits and all-moves-as-first counts are the sums over the threads, its means the
/// visit-weighted means, and a move any thread proved keeps that proof (proofs are exact, so
/// the threads never disagree). The answer is chosen from the merged moves by the serial
/// search's rule: a proved win, else the most visited move not proved lost.
///
/// Worker `i` searches with `config`'s seed for `i = 0` and a seed derived from it and `i`
/// otherwise; an iteration budget is split between the workers (the first ones get the
/// remainder). With one worker this is exactly [`search_in_tree`].
///
/// # Panics
/// As [`super::search`], and if `workers` is empty.
///
/// # Examples
///
/// ```
/// use search_core::{Game, MoveList, ToMove, WallClock};
/// use search_core::mcts::{self, RandomPlayout, SearchTree, Worker};
///
/// # struct Nim;
/// # impl Game for Nim {
/// #     type State = (u32, u8);
/// #     type Move = u32;
/// #     fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
/// #         if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
/// #     }
/// #     fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
/// #         moves.extend((1..=3).filter(|&take| take <= stones));
/// #     }
/// #     fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
/// #         (stones - take, 1 - player)
/// #     }
/// # }
/// let result = |&(_, to_move): &(u32, u8)| mcts::win_for(1 - to_move);
/// let mut playouts = [RandomPlayout::new(result), RandomPlayout::new(result)];
/// let mut trees = [SearchTree::new(), SearchTree::new()];
/// let mut knowledge = [(), ()];
/// let mut workers: Vec<_> = trees
///     .iter_mut()
///     .zip(&mut playouts)
///     .zip(&mut knowledge)
///     .map(|((tree, playout), knowledge)| Worker { tree, playout, knowledge })
///     .collect();
/// let config = mcts::Config::iterations(3_000);
/// let found = mcts::search_root_parallel(&Nim, &(15, 0), &mut workers, &config, &WallClock::start());
/// assert_eq!(found.best_move, Some(3)); // leave 12, a multiple of four
/// // At most 1,500 iterations on each thread: a thread stops once it has proved the root won.
/// assert!(found.iterations <= 3_000);
/// assert_eq!(found.moves.len(), 3);
/// ```
pub fn search_root_parallel<G, P, K, C>(
    game: &G,
    state: &G::State,
    workers: &mut [Worker<'_, G::Move, P, K>],
    config: &Config,
    clock: &C,
) -> MctsResult<G::Move>
where
    G: Game + Sync,
    G::State: Sync,
    G::Move: Send,
    P: Playout<G> + Send,
    K: Knowledge<G> + Send + ?Sized,
    C: Clock + ?Sized,
{
    assert!(!workers.is_empty(), "a parallel search needs at least one worker");
    if let [only] = workers {
        return search_in_tree(game, state, only.tree, only.playout, only.knowledge, config, clock);
    }
    let count = workers.len();
    let stop = AtomicBool::new(false);
    let stoppable = Stoppable { clock, stop: &stop };
    let results: Vec<MctsResult<G::Move>> = std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .enumerate()
            .map(|(i, worker)| {
                let config = worker_config(config, i, count);
                let (stoppable, stop) = (&stoppable, &stop);
                scope.spawn(move || {
                    let found = search_in_tree(
                        game,
                        state,
                        worker.tree,
                        worker.playout,
                        worker.knowledge,
                        &config,
                        stoppable,
                    );
                    if proves_win(game, state, &found) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    found
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    merge(game, state, results, clock.elapsed())
}

/// Worker `i`'s settings (of `count`): its seed and its share of an iteration budget.
fn worker_config(config: &Config, i: usize, count: usize) -> Config {
    let i64 = i as u64;
    Config {
        seed: config.seed.wrapping_add(i64.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        iterations: config.iterations.map(|max| max / count as u64 + u64::from(i64 < max % count as u64)),
        ..*config
    }
}

/// Whether `found`'s answer is a move proved to win for the player to move at `state`.
fn proves_win<G: Game>(game: &G, state: &G::State, found: &MctsResult<G::Move>) -> bool {
    let ToMove::Player(mover) = game.to_move(state) else { return false };
    found.best_move.is_some_and(|best| found.moves.iter().any(|m| m.mv == best && m.winner == Some(mover)))
}

/// The threads' root statistics added up, move by move, in the order the moves first appear.
fn merge<G: Game>(
    game: &G,
    state: &G::State,
    results: Vec<MctsResult<G::Move>>,
    elapsed: Duration,
) -> MctsResult<G::Move> {
    let mut moves: Vec<MoveStats<G::Move>> = Vec::new();
    let (mut iterations, mut nodes) = (0, 0);
    for result in results {
        iterations += result.iterations;
        nodes += result.nodes;
        for m in result.moves {
            match moves.iter_mut().find(|kept| kept.mv == m.mv) {
                None => moves.push(m),
                Some(kept) => {
                    kept.value = weighted_mean(kept.value, kept.visits, m.value, m.visits);
                    kept.amaf_value =
                        weighted_mean(kept.amaf_value, kept.amaf_visits, m.amaf_value, m.amaf_visits);
                    kept.visits += m.visits;
                    kept.amaf_visits += m.amaf_visits;
                    kept.winner = kept.winner.or(m.winner);
                }
            }
        }
    }
    let mover = match game.to_move(state) {
        ToMove::Player(player) => Some(player),
        _ => None,
    };
    let best = best_of(&moves, mover);
    MctsResult {
        best_move: best.map(|m| m.mv),
        value: best.map_or(0.0, |m| m.value),
        moves,
        iterations,
        nodes,
        elapsed,
    }
}

/// The mean of two means of `n` and `m` samples.
fn weighted_mean(a: f64, n: u32, b: f64, m: u32) -> f64 {
    match n + m {
        0 => 0.0,
        total => (a * f64::from(n) + b * f64::from(m)) / f64::from(total),
    }
}

/// A clock that reads as run out once `stop` is set, so that the other threads end their
/// searches when one has proved the root won.
struct Stoppable<'a, C: ?Sized> {
    clock: &'a C,
    stop: &'a AtomicBool,
}

impl<C: Clock + ?Sized> Clock for Stoppable<'_, C> {
    fn elapsed(&self) -> Duration {
        if self.stop.load(Ordering::Relaxed) { Duration::MAX } else { self.clock.elapsed() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::WallClock;
    use crate::mcts::{Insight, RandomPlayout, Rewards, win_for};
    use crate::tree::{NodeId, Shape, Tree};
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Nim with one pile: take 1 to 3, the last stone wins.
    struct Nim;

    impl Game for Nim {
        type State = (u32, u8);
        type Move = u32;
        fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
            if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
        }
        fn moves(&self, &(stones, _): &(u32, u8), moves: &mut crate::MoveList<u32>) {
            moves.extend((1..=3).filter(|&take| take <= stones));
        }
        fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
            (stones - take, 1 - player)
        }
    }

    fn nim_playout() -> RandomPlayout<impl FnMut(&(u32, u8)) -> Rewards + Copy> {
        RandomPlayout::new(|&(_, to_move): &(u32, u8)| win_for(1 - to_move))
    }

    /// Nim's theory as knowledge: proves every node it is asked about.
    struct Theory;

    impl Knowledge<Nim> for Theory {
        fn analyse(&mut self, _: &Nim, &(stones, player): &(u32, u8), moves: &[u32]) -> Insight<u32> {
            let good: Vec<u32> = moves.iter().copied().filter(|take| (stones - take) % 4 == 0).collect();
            let winner = if good.is_empty() { 1 - player } else { player };
            Insight::Solved { winner, moves: good }
        }
    }

    /// The parallel search of `threads` workers on `state`, with fresh trees.
    fn parallel<G: Game + Sync, P: Playout<G> + Send + Clone>(
        game: &G,
        state: &G::State,
        playout: &P,
        threads: usize,
        config: &Config,
    ) -> MctsResult<G::Move>
    where
        G::State: Sync,
        G::Move: Send,
    {
        let mut trees: Vec<SearchTree<G::Move>> = (0..threads).map(|_| SearchTree::new()).collect();
        let mut playouts: Vec<P> = vec![playout.clone(); threads];
        let mut knowledge = vec![(); threads];
        let mut workers = workers(&mut trees, &mut playouts, &mut knowledge);
        search_root_parallel(game, state, &mut workers, config, &WallClock::start())
    }

    /// One worker for each tree, playout and knowledge, in order.
    fn workers<'a, M, P, K>(
        trees: &'a mut [SearchTree<M>],
        playouts: &'a mut [P],
        knowledge: &'a mut [K],
    ) -> Vec<Worker<'a, M, P, K>> {
        trees
            .iter_mut()
            .zip(playouts)
            .zip(knowledge)
            .map(|((tree, playout), knowledge)| Worker { tree, playout, knowledge })
            .collect()
    }

    /// The same searches one after another, on this thread, merged.
    fn serial<G: Game, P: Playout<G> + Clone>(
        game: &G,
        state: &G::State,
        playout: &P,
        threads: usize,
        config: &Config,
    ) -> MctsResult<G::Move> {
        let results = (0..threads)
            .map(|i| {
                let config = worker_config(config, i, threads);
                let mut playout = playout.clone();
                search_in_tree(
                    game,
                    state,
                    &mut SearchTree::new(),
                    &mut playout,
                    &mut (),
                    &config,
                    &WallClock::start(),
                )
            })
            .collect();
        merge(game, state, results, Duration::ZERO)
    }

    /// Everything but the time taken.
    fn timeless<M>(mut result: MctsResult<M>) -> MctsResult<M> {
        result.elapsed = Duration::ZERO;
        result
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// The parallel search equals the same per-thread searches run serially and merged,
        /// on random game trees, and one worker equals the plain serial search.
        #[test]
        fn parallel_search_equals_serial_search(
            seed in any::<u64>(),
            threads in 1usize..4,
            iterations in 0u64..400,
            rave in any::<bool>(),
        ) {
            let shape = Shape { depth: 5, branching: 2..=4, chance: 0.0, early_leaf: 0.1, values: -1..=1, ..Shape::default() };
            let (game, root) = Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &shape);
            let playout = RandomPlayout::new(|&leaf: &NodeId| match game.value(leaf).signum() {
                1 => win_for(0),
                -1 => win_for(1),
                _ => [0.5, 0.5, 0.0, 0.0],
            });
            let config = Config {
                seed,
                rave: rave.then_some(300.0),
                ..Config::iterations(iterations)
            };
            let found = timeless(parallel(&game, &root, &playout, threads, &config));
            prop_assert_eq!(&found, &timeless(serial(&game, &root, &playout, threads, &config)));
            prop_assert!(found.iterations <= iterations);
            if threads == 1 {
                let mut playout = playout;
                let plain = search_in_tree(&game, &root, &mut SearchTree::new(), &mut playout, &mut (), &config, &WallClock::start());
                prop_assert_eq!(found, timeless(plain));
            }
        }
    }

    /// Visits add up, means are weighted by visits, and a move keeps a proof from any thread.
    #[test]
    fn merged_moves_add_up() {
        let stats = |mv, visits, value, winner| MoveStats {
            mv,
            visits,
            value,
            amaf_visits: visits * 2,
            amaf_value: value,
            winner,
            prior: 0.0,
        };
        let result = |moves| MctsResult {
            best_move: None,
            value: 0.0,
            moves,
            iterations: 10,
            nodes: 5,
            elapsed: Duration::ZERO,
        };
        let a = result(vec![stats(1, 6, 0.5, None), stats(2, 4, 1.0, None)]);
        let b = result(vec![stats(2, 4, 0.0, Some(1)), stats(3, 30, 0.9, None)]);
        let merged = merge(&Nim, &(10, 0), vec![a, b], Duration::ZERO);
        assert_eq!(
            merged.moves.iter().map(|m| (m.mv, m.visits)).collect::<Vec<_>>(),
            [(1, 6), (2, 8), (3, 30)]
        );
        assert_eq!(merged.moves[1].value, 0.5);
        assert_eq!(merged.moves[1].amaf_visits, 16);
        assert_eq!(merged.moves[1].winner, Some(1));
        assert_eq!((merged.iterations, merged.nodes), (20, 10));
        // Move 3 is the most visited and not proved lost.
        assert_eq!(merged.best_move, Some(3));
        assert_eq!(merged.value, 0.9);
    }

    /// A root proved won by the knowledge: each thread proves it before searching, and the
    /// time-limited search ends at once with the winning move instead of running out its time.
    #[test]
    fn a_proved_root_ends_a_timed_parallel_search() {
        let config = Config { knowledge_after: Some(1), ..Config::time(Duration::from_secs(30)) };
        let mut trees = [SearchTree::new(), SearchTree::new()];
        let mut playouts = [nim_playout(), nim_playout()];
        let mut knowledge = [Theory, Theory];
        let mut workers = workers(&mut trees, &mut playouts, &mut knowledge);
        let found = search_root_parallel(&Nim, &(10, 0), &mut workers, &config, &WallClock::start());
        assert_eq!(found.best_move, Some(2));
        assert_eq!(found.moves.len(), 1);
        assert_eq!(found.iterations, 0);
        assert!(found.elapsed < Duration::from_secs(30));
    }

    /// Without knowledge, a timed search on two threads still finds Nim's winning move, and
    /// one thread that proves the root (through terminal states) stops the other.
    #[test]
    fn a_timed_search_on_two_threads_finds_the_winning_move() {
        let config = Config::time(Duration::from_secs(20));
        let found = parallel(&Nim, &(7, 0), &nim_playout(), 2, &config);
        assert_eq!(found.best_move, Some(3));
        assert!(found.elapsed < Duration::from_secs(20), "{:?}", found.elapsed);
    }
}
