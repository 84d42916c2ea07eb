//! Nodes per second of the `search-core` searches on random synthetic games.
//!
//! Every game is built once, from a fixed seed, before any timing starts. Each search is run once
//! beforehand to count the nodes it enters; that count is the benchmark's throughput, so criterion
//! reports nodes per second next to the time per search. The counts also go to stderr (stdout
//! belongs to criterion: test runners read its list of benchmarks there). The searches are
//! deterministic, so the counts are the same on every run; the two-thread parallel search is the
//! exception, since which bound a root move starts with depends on the threads' timing.
//!
//! Groups:
//! - `searches`: plain minimax and alpha-beta on a two-player tree, then expectimax (the plain
//!   oracle) and Star1 (alpha-beta with evaluator bounds) on a tree with chance nodes.
//! - `transpositions`: alpha-beta without and with a transposition table on a DAG, where many
//!   paths lead to the same node.
//! - `parallel`: the root split on 1 and 2 threads, next to serial alpha-beta.
//!
//! Run `cargo bench --bench search_core -- --quick` for a fast estimate.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::tree::{NodeId, Shape, Tree, TreeEval};
use search_core::{Horizon, NoTable, SearchStats, TranspositionTable, alphabeta, minimax, parallel};

/// The seed every game is grown from.
const SEED: u64 = 2024;

/// Leaf and static values lie in `-VALUE..=VALUE`; Star1 is given exactly these bounds.
const VALUE: i32 = 1000;

/// Depth of the two random trees. A horizon of this many moves reaches every leaf, since a chance
/// layer does not use up depth.
const TREE_DEPTH: u32 = 9;

/// Depth of the DAG: its search tree is large, while the DAG itself stays small.
const DAG_DEPTH: u32 = 14;

/// A two-player random tree without chance nodes, `depth` layers deep.
fn tree_shape(depth: u32) -> Shape {
    Shape {
        depth,
        branching: 2..=6,
        chance: 0.0,
        two_players: true,
        early_leaf: 0.05,
        values: -VALUE..=VALUE,
        dyadic: true,
        layer_width: None,
    }
}

/// The random game of the given shape grown from [`SEED`]; returns it and its root.
fn grow(shape: &Shape) -> (Tree, NodeId) {
    Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(SEED), shape)
}

/// A group whose benches each take a few seconds at most, even without `--quick`.
fn new_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    group
}

/// Prints what one search does and makes its node count the throughput of the next bench.
fn per_node(group: &mut BenchmarkGroup<'_, WallTime>, id: &str, stats: &SearchStats) {
    eprintln!(
        "{id}: {} nodes, {} leaves, {} cut-offs, {} chance cut-offs, {} table hits per search",
        stats.nodes, stats.leaves, stats.cutoffs, stats.chance_cutoffs, stats.tt_hits
    );
    group.throughput(Throughput::Elements(stats.nodes));
}

/// Minimax against alpha-beta, and expectimax against Star1.
fn searches(c: &mut Criterion) {
    let mut group = new_group(c, "searches");
    let horizon = Horizon::depth(TREE_DEPTH);
    let config = alphabeta::Config::depth(TREE_DEPTH);

    let (tree, root) = grow(&tree_shape(TREE_DEPTH));
    eprintln!("two-player tree: {} nodes", tree.len());
    let eval = TreeEval::<i32>::new();

    per_node(&mut group, "minimax", &minimax::search(&tree, &eval, &root, &horizon).stats);
    group.bench_function("minimax", |b| b.iter(|| minimax::search(&tree, &eval, black_box(&root), &horizon)));

    per_node(&mut group, "alphabeta", &alphabeta::search(&tree, &eval, &root, &config, NoTable).stats);
    group.bench_function("alphabeta", |b| {
        b.iter(|| alphabeta::search(&tree, &eval, black_box(&root), &config, NoTable))
    });

    // Without killers and history: what the ordering tables cost and save on a random tree.
    let unordered = alphabeta::Config { killers: false, history: false, ..config };
    per_node(
        &mut group,
        "alphabeta_unordered",
        &alphabeta::search(&tree, &eval, &root, &unordered, NoTable).stats,
    );
    group.bench_function("alphabeta_unordered", |b| {
        b.iter(|| alphabeta::search(&tree, &eval, black_box(&root), &unordered, NoTable))
    });

    // Both players and chance: about 30% of the inner nodes are chance nodes.
    let (tree, root) = grow(&Shape { chance: 0.3, ..tree_shape(TREE_DEPTH) });
    eprintln!("chance tree: {} nodes", tree.len());
    let unbounded = TreeEval::<f64>::new();
    let bounded = TreeEval::<f64>::with_bounds(-VALUE, VALUE);

    per_node(&mut group, "expectimax", &minimax::search(&tree, &unbounded, &root, &horizon).stats);
    group.bench_function("expectimax", |b| {
        b.iter(|| minimax::search(&tree, &unbounded, black_box(&root), &horizon))
    });

    per_node(&mut group, "star1", &alphabeta::search(&tree, &bounded, &root, &config, NoTable).stats);
    group.bench_function("star1", |b| {
        b.iter(|| alphabeta::search(&tree, &bounded, black_box(&root), &config, NoTable))
    });
    group.finish();
}

/// Alpha-beta on a DAG without and with a transposition table.
fn transpositions(c: &mut Criterion) {
    let mut group = new_group(c, "transpositions");
    let (dag, root) = grow(&Shape { layer_width: Some(64), ..tree_shape(DAG_DEPTH) });
    eprintln!("DAG: {} nodes", dag.len());
    let eval = TreeEval::<i32>::new();
    let config = alphabeta::Config::depth(DAG_DEPTH);
    // A few slots per node keeps collisions rare and the table small enough to allocate freshly
    // for every search, outside the timing: a table kept between searches would answer the
    // second search from the first one's entries.
    let slots = 4 * dag.len();

    per_node(&mut group, "no_table", &alphabeta::search(&dag, &eval, &root, &config, NoTable).stats);
    group.bench_function("no_table", |b| {
        b.iter(|| alphabeta::search(&dag, &eval, black_box(&root), &config, NoTable))
    });

    let table = TranspositionTable::<i32>::with_capacity(slots);
    per_node(&mut group, "table", &alphabeta::search(&dag, &eval, &root, &config, &table).stats);
    group.bench_function("table", |b| {
        b.iter_batched_ref(
            || TranspositionTable::<i32>::with_capacity(slots),
            |table| alphabeta::search(&dag, &eval, black_box(&root), &config, &*table),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// The parallel root split on 1 and 2 threads, with serial alpha-beta for comparison, on the
/// same DAG searched without a table (a large search tree).
fn parallel_root(c: &mut Criterion) {
    let mut group = new_group(c, "parallel");
    let (dag, root) = grow(&Shape { layer_width: Some(64), ..tree_shape(DAG_DEPTH) });
    let eval = TreeEval::<i32>::new();
    let search = alphabeta::Config::depth(DAG_DEPTH);

    per_node(&mut group, "serial", &alphabeta::search(&dag, &eval, &root, &search, NoTable).stats);
    group.bench_function("serial", |b| {
        b.iter(|| alphabeta::search(&dag, &eval, black_box(&root), &search, NoTable))
    });

    for threads in [1, 2] {
        // One pool for all the calls, so the timing is the search's and not the pool's start-up.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
        let config = parallel::Config { search, threads: 0 };
        let id = format!("threads_{threads}");
        let stats = pool.install(|| parallel::search(&dag, &eval, &root, &config, NoTable).stats);
        per_node(&mut group, &id, &stats);
        group.bench_function(&id, |b| {
            b.iter(|| pool.install(|| parallel::search(&dag, &eval, black_box(&root), &config, NoTable)))
        });
    }
    group.finish();
}

criterion_group!(benches, searches, transpositions, parallel_root);
criterion_main!(benches);
