//! Exact node counts that pin the pruning down: Knuth and Moore's minimal tree, AIMA's example,
//! and Star1's savings on trees that allow cuts.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::tree::{Shape, Tree, TreeEval};
use search_core::{Horizon, NoTable, alphabeta, minimax};

fn plain(depth: u32) -> alphabeta::Config {
    alphabeta::Config { star1: false, killers: false, history: false, ..alphabeta::Config::depth(depth) }
}

/// With perfect ordering alpha-beta evaluates exactly b^⌈d/2⌉ + b^⌊d/2⌋ − 1 leaves; minimax b^d.
#[test]
fn knuth_moore_minimal_tree() {
    for b in 1..=4usize {
        for d in 1..=6u32 {
            let (tree, root) = Tree::perfectly_ordered(b, d);
            let eval = TreeEval::<i32>::new();
            let found = alphabeta::search(&tree, &eval, &root, &plain(d), NoTable);
            let expected = b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1;
            assert_eq!(found.stats.leaves, expected as u64, "b = {b}, d = {d}");
            assert_eq!(found.value, 0);
            let oracle = minimax::search(&tree, &eval, &root, &Horizon::depth(d));
            assert_eq!(oracle.stats.leaves, b.pow(d) as u64);
        }
    }
}

/// AIMA, Figure 5.5: value 3; alpha-beta evaluates 7 leaves where minimax evaluates 9.
#[test]
fn aima_figure_5_5() {
    let mut tree = Tree::new();
    let mins: Vec<usize> = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
        .iter()
        .map(|leaves| {
            let leaves = leaves.iter().map(|&v| tree.leaf(v)).collect();
            tree.min(leaves, 0)
        })
        .collect();
    let root = tree.max(mins, 0);
    let eval = TreeEval::<i32>::new();
    let found = alphabeta::search(&tree, &eval, &root, &plain(2), NoTable);
    assert_eq!((found.value, found.best_move, found.stats.leaves), (3, Some(0), 7));
    assert_eq!(found.pv, vec![0, 0]);
    assert_eq!(minimax::search(&tree, &eval, &root, &Horizon::depth(2)).stats.leaves, 9);
}

/// A depth-0 search at the root returns the static value clamped to the window.
#[test]
fn depth_zero_is_the_clamped_static_value() {
    let mut tree = Tree::new();
    let leaf = tree.leaf(1);
    let root = tree.max(vec![leaf], 17);
    let eval = TreeEval::<i32>::new();
    let config = plain(0);
    assert_eq!(alphabeta::search_window(&tree, &eval, &root, -5, 5, &config, NoTable).value, 5);
    assert_eq!(alphabeta::search_window(&tree, &eval, &root, 20, 30, &config, NoTable).value, 20);
    assert_eq!(alphabeta::search(&tree, &eval, &root, &config, NoTable).value, 17);
}

/// Star1 by hand: after the first move is worth 5, a chance node whose first outcome (p = 1/2)
/// is worth 0 can be at most 0/2 + 8/2 = 4 < 5 with bounds [0, 8], so its second outcome is
/// never searched.
#[test]
fn star1_cuts_by_hand() {
    let mut tree = Tree::new();
    let five = tree.leaf(5);
    let (zero, eight) = (tree.leaf(0), tree.leaf(8));
    let gamble = tree.chance(vec![(zero, 0.5), (eight, 0.5)], 0);
    let root = tree.max(vec![five, gamble], 0);
    let bounded = TreeEval::<f64>::with_bounds(0, 8);
    let star1 = alphabeta::search(&tree, &bounded, &root, &alphabeta::Config::depth(2), NoTable);
    assert_eq!((star1.value, star1.best_move), (5.0, Some(0)));
    assert_eq!((star1.stats.leaves, star1.stats.chance_cutoffs), (2, 1));
    // Without bounds there is nothing to cut with.
    let exact =
        alphabeta::search(&tree, &TreeEval::<f64>::new(), &root, &alphabeta::Config::depth(2), NoTable);
    assert_eq!((exact.value, exact.stats.leaves, exact.stats.chance_cutoffs), (5.0, 3, 0));
}

/// On one-player max/chance trees with tight bounds (the shape of 2048), Star1 evaluates
/// clearly fewer leaves than the exact chance search, in aggregate over a suite of trees.
#[test]
fn star1_saves_leaves_on_expectimax_trees() {
    let shape = Shape {
        depth: 6,
        branching: 2..=4,
        chance: 0.5,
        two_players: false,
        early_leaf: 0.0,
        values: 0..=20,
        dyadic: true,
        layer_width: None,
    };
    let (mut star1_leaves, mut exact_leaves) = (0, 0);
    for seed in 0..100 {
        let (tree, root) = Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &shape);
        let eval = TreeEval::<f64>::with_bounds(0, 20);
        let star1 = alphabeta::search(&tree, &eval, &root, &alphabeta::Config::depth(6), NoTable);
        let exact = alphabeta::search(&tree, &eval, &root, &plain(6), NoTable);
        assert_eq!(star1.value, exact.value, "seed {seed}");
        assert!(star1.stats.leaves <= exact.stats.leaves, "seed {seed}");
        star1_leaves += star1.stats.leaves;
        exact_leaves += exact.stats.leaves;
    }
    assert!(star1_leaves * 10 < exact_leaves * 9, "Star1 {star1_leaves} leaves vs exact {exact_leaves}");
}
