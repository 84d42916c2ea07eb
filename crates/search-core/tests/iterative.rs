//! Iterative deepening: each iteration equals a fixed-depth search, and node and time limits stop
//! it with a legal move. Time is injected, so nothing here depends on the machine's speed.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::tree::{Shape, Tree, TreeEval};
use search_core::{
    CLOCK_INTERVAL, Clock, Game, Horizon, Limits, MoveList, NoTable, TranspositionTable, alphabeta,
    iterative, minimax,
};

/// A clock that advances one millisecond each time it is read.
#[derive(Default)]
struct StepClock(AtomicU64);

impl Clock for StepClock {
    fn elapsed(&self) -> Duration {
        Duration::from_millis(self.0.fetch_add(1, Ordering::Relaxed))
    }
}

fn random_tree(seed: u64, depth: u32, b: usize, layer_width: Option<usize>) -> (Tree, usize) {
    let shape = Shape { depth, branching: 1..=b, chance: 0.2, layer_width, ..Shape::default() };
    Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &shape)
}

fn root_moves(tree: &Tree, root: usize) -> MoveList<u32> {
    let mut moves = MoveList::new();
    tree.moves(&root, &mut moves);
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Each completed iteration has the value of a fixed-depth search at its depth.
    #[test]
    fn iterations_equal_fixed_depth_searches(seed: u64, depth in 1u32..=6, b in 1usize..=4, dag: bool) {
        let (tree, root) = random_tree(seed, depth, b, dag.then_some(3));
        let eval = TreeEval::<f64>::with_bounds(-20, 20);
        let search = alphabeta::Config { tt_exact_depth: true, ..alphabeta::Config::depth(depth) };
        let config = iterative::Config { search, limits: Limits::depth(depth + 1) };
        let table = TranspositionTable::with_capacity(1 << 10);
        for found in [
            iterative::search(&tree, &eval, &root, &config, NoTable),
            iterative::search(&tree, &eval, &root, &config, &table),
        ] {
            prop_assert_eq!(found.stop, iterative::Stop::Depth);
            prop_assert_eq!(found.iterations.len() as u32, depth + 1);
            for it in &found.iterations {
                let oracle = minimax::search(&tree, &eval, &root, &Horizon::depth(it.depth)).value;
                prop_assert_eq!(it.value, oracle, "iteration at depth {}", it.depth);
            }
            prop_assert_eq!(found.result.value, found.iterations.last().unwrap().value);
            prop_assert_eq!(found.result.stats.depth_reached, depth + 1);
        }
    }

    /// A node budget stops the search within the budget, with a legal move.
    #[test]
    fn node_budget_stops_with_a_legal_move(seed: u64, budget in 1u64..200) {
        let (tree, root) = random_tree(seed, 6, 4, None);
        prop_assume!(matches!(tree.to_move(&root), search_core::ToMove::Player(_)));
        let eval = TreeEval::<f64>::with_bounds(-20, 20);
        let config = iterative::Config { limits: Limits { nodes: Some(budget), ..Limits::depth(6) }, ..Default::default() };
        let found = iterative::search(&tree, &eval, &root, &config, NoTable);
        prop_assert!(found.result.stats.nodes <= budget);
        prop_assert!(found.result.best_move.is_some_and(|m| root_moves(&tree, root).contains(&m)));
        if found.stop == iterative::Stop::Nodes {
            prop_assert_eq!(found.result.stats.nodes, budget);
            // The answer is the deepest completed iteration's.
            if let Some(last) = found.iterations.last() {
                prop_assert_eq!(found.result.best_move, last.best_move);
                prop_assert_eq!(found.result.stats.depth_reached, last.depth);
            }
        }
    }
}

/// A uniform tree big enough that no limit below is reached by finishing the search.
fn big_tree() -> (Tree, usize) {
    Tree::perfectly_ordered(6, 9)
}

/// With a clock that ticks once per read, the search reads it every `CLOCK_INTERVAL` nodes and
/// stops at the first read at or past the limit: it overshoots by at most one read, and the final
/// report reads once more.
#[test]
fn time_limit_is_checked_every_interval() {
    let (tree, root) = big_tree();
    let clock = StepClock::default();
    let limit = Duration::from_millis(40);
    let config =
        iterative::Config { limits: Limits { time: Some(limit), ..Limits::depth(9) }, ..Default::default() };
    let found = iterative::search_with_clock(&tree, &TreeEval::<i32>::new(), &root, &config, NoTable, &clock);
    assert_eq!(found.stop, iterative::Stop::Time);
    let ticks = found.result.stats.elapsed.as_millis() as u64;
    assert!(ticks <= 40 + 1, "stopped at {ticks} ms for a 40 ms limit");
    // Every read but the iterations' own time stamps and the final one comes every interval.
    let reads = clock.0.load(Ordering::Relaxed);
    let stamps = found.iterations.len() as u64 + 1;
    assert!((reads - stamps) * CLOCK_INTERVAL <= found.result.stats.nodes);
    assert!(found.iterations.len() >= 2, "a 6-way tree should complete shallow iterations in 40 reads");
    assert!(found.result.best_move.is_some());
}

/// If not even the first iteration completes, the search still names the first legal move.
#[test]
fn stopped_before_depth_one_falls_back_to_a_legal_move() {
    let (tree, root) = big_tree();
    let config =
        iterative::Config { limits: Limits { nodes: Some(1), ..Limits::depth(9) }, ..Default::default() };
    let found = iterative::search(&tree, &TreeEval::<i32>::new(), &root, &config, NoTable);
    assert_eq!(found.stop, iterative::Stop::Nodes);
    assert!(found.iterations.is_empty());
    assert_eq!(found.result.stats.depth_reached, 0);
    assert_eq!(found.result.best_move, Some(0));
}

/// Later iterations consult the table filled by earlier ones, and the final answer is still the
/// fixed-depth one.
#[test]
fn table_orders_later_iterations() {
    let (tree, root) = Tree::perfectly_ordered(4, 6);
    let eval = TreeEval::<i32>::new();
    let table = TranspositionTable::with_capacity(1 << 14);
    let config = iterative::Config { limits: Limits::depth(6), ..Default::default() };
    let found = iterative::search(&tree, &eval, &root, &config, &table);
    let fixed = alphabeta::search(&tree, &eval, &root, &alphabeta::Config::depth(6), NoTable);
    assert_eq!((found.result.value, found.result.best_move), (fixed.value, fixed.best_move));
    assert!(found.result.stats.tt_hits > 0);
}

/// The parallel iterative search (feature `parallel`).
#[cfg(feature = "parallel")]
mod parallel_search {
    use super::*;
    use search_core::parallel;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Two and three threads sharing one table (exact-depth entries) give the value of the
        /// plain oracle at the depth limit, on trees and on DAGs, and name one of its best moves.
        #[test]
        fn parallel_iterative_equals_the_oracle(seed: u64, depth in 1u32..=6, b in 1usize..=4, dag: bool, threads in 2usize..=3) {
            let (tree, root) = random_tree(seed, depth, b, dag.then_some(3));
            let eval = TreeEval::<f64>::with_bounds(-20, 20);
            let search = alphabeta::Config { tt_exact_depth: true, ..alphabeta::Config::depth(depth) };
            let config = parallel::IterativeConfig { search: iterative::Config { search, limits: Limits::depth(depth) }, threads };
            let table = TranspositionTable::with_capacity(1 << 10);
            let found = parallel::iterative_search(&tree, &eval, &root, &config, &table);
            let oracle = minimax::search(&tree, &eval, &root, &Horizon::depth(depth));
            prop_assert_eq!(found.result.value, oracle.value);
            prop_assert_eq!(found.stop, iterative::Stop::Depth);
            prop_assert_eq!(found.iterations.len() as u32, depth);
            if let Some(best) = found.result.best_move {
                let values = minimax::move_values(&tree, &eval, &root, &Horizon::depth(depth));
                prop_assert!(values.iter().any(|&(m, v)| m == best && v == oracle.value));
            }
        }
    }
}
