//! Every pruned search against the plain oracle, on thousands of random trees.
//!
//! Trees come from `Tree::random` with a seed proptest picks, so a failing case names its seed.
//! Chance probabilities are dyadic unless a test says otherwise, so `f64` sums are exact and the
//! comparisons below are exact too.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::expectimax::{self, ChanceTables, Reuse};
use search_core::tree::{NodeId, Shape, Tree, TreeEval};
use search_core::{
    DepthCount, Evaluator, Game, Horizon, NoTable, PartialCut, ProbabilityCutoff, TranspositionTable, Value,
    alphabeta, minimax, parallel,
};

fn tree(seed: u64, shape: &Shape) -> (Tree, NodeId) {
    Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), shape)
}

fn deterministic(depth: u32, max_branching: usize, layer_width: Option<usize>) -> Shape {
    Shape { depth, branching: 1..=max_branching, chance: 0.0, layer_width, ..Shape::default() }
}

fn with_chance(depth: u32, max_branching: usize, two_players: bool, dyadic: bool) -> Shape {
    Shape { depth, branching: 1..=max_branching, chance: 0.35, two_players, dyadic, ..Shape::default() }
}

/// The root moves whose oracle value equals the best value.
fn tied_best<E: Evaluator<Tree>>(tree: &Tree, eval: &E, root: NodeId, depth: u32) -> Vec<u32> {
    let values = minimax::move_values(tree, eval, &root, &Horizon::depth(depth));
    let best = values.iter().map(|&(_, v)| v).fold(E::Value::NEG_INFINITY, |a, v| if v > a { v } else { a });
    values.into_iter().filter(|&(_, v)| v == best).map(|(m, _)| m).collect()
}

fn plain(depth: u32) -> alphabeta::Config {
    alphabeta::Config {
        star1: false,
        killers: false,
        history: false,
        pvs: false,
        ..alphabeta::Config::depth(depth)
    }
}

/// The fail-hard post-condition of `r`, found in the window `[alpha, beta]`, against the true
/// value `f`.
fn check_fail_hard<V: Value>(r: V, alpha: V, beta: V, f: V) -> Result<(), TestCaseError> {
    prop_assert!(alpha <= r && r <= beta, "{r:?} outside [{alpha:?}, {beta:?}]");
    if alpha < r && r < beta {
        prop_assert_eq!(r, f, "a result strictly inside the window must be exact");
    } else if alpha < beta && r == alpha {
        prop_assert!(f <= alpha, "fail low at {alpha:?} but the value is {f:?}");
    } else if alpha < beta {
        prop_assert!(f >= beta, "fail high at {beta:?} but the value is {f:?}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Alpha-beta equals minimax at every depth, with and without ordering and a table, and its
    /// move is one of the tied best moves.
    #[test]
    fn alphabeta_equals_minimax(seed: u64, depth in 1u32..=6, b in 1usize..=4, search_depth in 0u32..=7) {
        let (tree, root) = tree(seed, &deterministic(depth, b, None));
        let eval = TreeEval::<i32>::new();
        let oracle = minimax::search(&tree, &eval, &root, &Horizon::depth(search_depth));
        let tied = tied_best(&tree, &eval, root, search_depth);
        let table = TranspositionTable::with_capacity(1 << 10);
        for config in [plain(search_depth), alphabeta::Config::depth(search_depth)] {
            let found = alphabeta::search(&tree, &eval, &root, &config, NoTable);
            prop_assert_eq!(found.value, oracle.value);
            // Principal variation search may value a leaf twice (probe, then full window), so
            // only plain alpha-beta is bound to look at no more leaves than minimax.
            if !config.pvs {
                prop_assert!(found.stats.leaves <= oracle.stats.leaves);
            }
            let with_table = alphabeta::search(&tree, &eval, &root, &config, &table);
            prop_assert_eq!(with_table.value, oracle.value);
            if search_depth > 0 && tree.to_move(&root) != search_core::ToMove::Terminal {
                prop_assert!(found.best_move.is_some_and(|m| tied.contains(&m)));
                prop_assert!(with_table.best_move.is_some_and(|m| tied.contains(&m)));
            }
        }
    }

    /// On DAGs a table meets the same state again; with exact-depth entries the value is the
    /// oracle's at every depth, and searching to the end it is exact with deeper entries too.
    #[test]
    fn table_on_transpositions(seed: u64, depth in 2u32..=7, b in 2usize..=4, width in 2usize..=6, search_depth in 1u32..=8) {
        let (tree, root) = tree(seed, &deterministic(depth, b, Some(width)));
        let eval = TreeEval::<i32>::new();
        let oracle = minimax::search(&tree, &eval, &root, &Horizon::depth(search_depth));
        let table = TranspositionTable::with_capacity(1 << 8);
        // Search several windows with one table, so entries from one window serve another.
        for (alpha, beta) in [(-5, 5), (0, 1), (-100, 100), (-20, -3)] {
            let config = alphabeta::Config { tt_exact_depth: true, ..alphabeta::Config::depth(search_depth) };
            let r = alphabeta::search_window(&tree, &eval, &root, alpha, beta, &config, &table).value;
            check_fail_hard(r, alpha, beta, oracle.value)?;
        }
        let config = alphabeta::Config { tt_exact_depth: true, ..alphabeta::Config::depth(search_depth) };
        prop_assert_eq!(alphabeta::search(&tree, &eval, &root, &config, &table).value, oracle.value);
        // In a layered DAG every path to a node has the same length, so remaining depth is a
        // function of the node and deeper entries cannot change the value either.
        let deeper = TranspositionTable::with_capacity(1 << 8);
        let config = alphabeta::Config::depth(search_depth);
        prop_assert_eq!(alphabeta::search(&tree, &eval, &root, &config, &deeper).value, oracle.value);
    }

    /// The fail-hard contract for random windows: inside the window, exact when strictly inside,
    /// a correct bound on the edges.
    #[test]
    fn fail_hard_contract(seed: u64, depth in 1u32..=5, b in 1usize..=4, lo in -25i32..=25, width in 0i32..=20) {
        let (tree, root) = tree(seed, &deterministic(depth, b, None));
        let eval = TreeEval::<i32>::new();
        let f = minimax::search(&tree, &eval, &root, &Horizon::depth(depth)).value;
        let (alpha, beta) = (lo, lo + width);
        for config in [plain(depth), alphabeta::Config::depth(depth)] {
            let r = alphabeta::search_window(&tree, &eval, &root, alpha, beta, &config, NoTable).value;
            check_fail_hard(r, alpha, beta, f)?;
        }
    }

    /// Expectiminimax through alpha-beta: chance nodes searched exactly and with Star1 give the
    /// oracle's value, in one- and two-player trees, and Star1 never evaluates more leaves.
    #[test]
    fn star1_equals_expectimax(seed: u64, depth in 1u32..=5, b in 1usize..=4, two_players: bool, search_depth in 0u32..=6) {
        let (tree, root) = tree(seed, &with_chance(depth, b, two_players, true));
        let eval = TreeEval::<f64>::with_bounds(-20, 20);
        let oracle = minimax::search(&tree, &eval, &root, &Horizon::depth(search_depth));
        let exact = alphabeta::search(&tree, &eval, &root, &plain(search_depth), NoTable);
        // Without principal variation search, whose re-searches may value a leaf twice.
        let config = alphabeta::Config { pvs: false, ..alphabeta::Config::depth(search_depth) };
        let star1 = alphabeta::search(&tree, &eval, &root, &config, NoTable);
        prop_assert_eq!(exact.value, oracle.value);
        prop_assert_eq!(star1.value, oracle.value);
        prop_assert!(star1.stats.leaves <= oracle.stats.leaves);
        let tied = tied_best(&tree, &eval, root, search_depth);
        if let Some(m) = star1.best_move {
            prop_assert!(tied.contains(&m));
        }
    }

    /// Star1's fail-hard contract at chance nodes, for random windows.
    #[test]
    fn star1_fail_hard_contract(seed: u64, depth in 1u32..=5, b in 1usize..=4, two_players: bool, lo in -25i32..=25, width in 0i32..=20) {
        let (tree, root) = tree(seed, &with_chance(depth, b, two_players, true));
        let eval = TreeEval::<f64>::with_bounds(-20, 20);
        let f = minimax::search(&tree, &eval, &root, &Horizon::depth(depth)).value;
        let (alpha, beta) = (f64::from(lo), f64::from(lo + width));
        let r = alphabeta::search_window(&tree, &eval, &root, alpha, beta, &alphabeta::Config::depth(depth), NoTable).value;
        check_fail_hard(r, alpha, beta, f)?;
    }

    /// With probabilities that are not dyadic, Star1 and expectimax agree within 1e-9 (the
    /// cut-off tests compare sums formed in another order).
    #[test]
    fn star1_with_inexact_probabilities(seed: u64, depth in 1u32..=5, b in 1usize..=4) {
        let (tree, root) = tree(seed, &with_chance(depth, b, true, false));
        let eval = TreeEval::<f64>::with_bounds(-20, 20);
        let oracle = minimax::search(&tree, &eval, &root, &Horizon::depth(depth)).value;
        let star1 = alphabeta::search(&tree, &eval, &root, &alphabeta::Config::depth(depth), NoTable).value;
        prop_assert!((star1 - oracle).abs() <= 1e-9, "star1 {} vs expectimax {}", star1, oracle);
    }

    /// Integer values at chance nodes are rounded the same way by the oracle and by Star1.
    #[test]
    fn star1_with_integer_values(seed: u64, depth in 1u32..=5, b in 1usize..=4) {
        let (tree, root) = tree(seed, &with_chance(depth, b, true, true));
        let eval = TreeEval::<i32>::with_bounds(-20, 20);
        let oracle = minimax::search(&tree, &eval, &root, &Horizon::depth(depth)).value;
        let star1 = alphabeta::search(&tree, &eval, &root, &alphabeta::Config::depth(depth), NoTable).value;
        prop_assert_eq!(star1, oracle);
    }

    /// Depth counting, partial cuts and probability cut-offs give the same value in the oracle
    /// and in alpha-beta with Star1; a probability threshold of 0 changes nothing.
    #[test]
    fn horizons_agree(seed: u64, depth in 1u32..=6, b in 1usize..=4, plies: bool, min_width in 1usize..=4, max_remaining in 0u32..=3, threshold in 0.0f64..0.6) {
        let (tree, root) = tree(seed, &with_chance(depth, b, true, true));
        let eval = TreeEval::<f64>::with_bounds(-20, 20);
        let count = if plies { DepthCount::Plies } else { DepthCount::Moves };
        let config = alphabeta::Config::depth(depth);

        let partial = Horizon { depth, count, cutoff: PartialCut { min_width, max_remaining } };
        let oracle = minimax::search(&tree, &eval, &root, &partial).value;
        prop_assert_eq!(alphabeta::search(&tree, &eval, &root, &config.with_horizon(partial), NoTable).value, oracle);

        let cut = Horizon { depth, count, cutoff: ProbabilityCutoff { threshold } };
        let oracle = minimax::search(&tree, &eval, &root, &cut).value;
        prop_assert_eq!(alphabeta::search(&tree, &eval, &root, &config.with_horizon(cut), NoTable).value, oracle);

        let zero = Horizon { depth, count, cutoff: ProbabilityCutoff { threshold: 0.0 } };
        let full = Horizon { depth, count, cutoff: search_core::NoCutoff };
        prop_assert_eq!(minimax::search(&tree, &eval, &root, &zero).value, minimax::search(&tree, &eval, &root, &full).value);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The parallel root split gives the serial value and the very same move at 1, 2 and 4 threads.
    #[test]
    fn parallel_equals_serial(seed: u64, depth in 1u32..=6, b in 2usize..=4, chance: bool) {
        let shape = if chance { with_chance(depth, b, true, true) } else { deterministic(depth, b, None) };
        let (tree, root) = tree(seed, &shape);
        let eval = TreeEval::<f64>::with_bounds(-20, 20);
        let search = alphabeta::Config::depth(depth);
        let serial = alphabeta::search(&tree, &eval, &root, &search, NoTable);
        let tied = tied_best(&tree, &eval, root, depth);
        for threads in [1, 2, 4] {
            let found = parallel::search(&tree, &eval, &root, &parallel::Config { search, threads }, NoTable);
            prop_assert_eq!(found.value, serial.value);
            if let Some(m) = found.best_move {
                prop_assert!(tied.contains(&m));
            }
            prop_assert_eq!(found.best_move, serial.best_move);
        }
        let table = TranspositionTable::with_capacity(1 << 10);
        let found = parallel::search(&tree, &eval, &root, &parallel::Config { search, threads: 2 }, &table);
        prop_assert_eq!(found.value, serial.value);
    }

    /// The value does not depend on the order the game lists its moves in.
    #[test]
    fn order_does_not_change_the_value(seed: u64, shuffle: u64, depth in 1u32..=5, b in 1usize..=4) {
        let (tree, root) = tree(seed, &with_chance(depth, b, true, true));
        let shuffled = Shuffled { tree: &tree, seed: shuffle };
        let eval = TreeEval::<f64>::with_bounds(-20, 20);
        let config = alphabeta::Config::depth(depth);
        let a = alphabeta::search(&tree, &eval, &root, &config, NoTable).value;
        let b = alphabeta::search(&shuffled, &ShuffledEval(eval), &root, &config, NoTable).value;
        prop_assert_eq!(a, b);
    }

    /// Replaying the principal variation of a deterministic search reaches a state whose value
    /// is the root value.
    #[test]
    fn principal_variation_replays_to_the_value(seed: u64, depth in 1u32..=6, b in 1usize..=4) {
        let (tree, root) = tree(seed, &deterministic(depth, b, None));
        let eval = TreeEval::<i32>::new();
        let found = alphabeta::search(&tree, &eval, &root, &alphabeta::Config::depth(depth), NoTable);
        let mut state = root;
        for &mv in &found.pv {
            let mut moves = search_core::MoveList::new();
            tree.moves(&state, &mut moves);
            prop_assert!(moves.contains(&mv), "illegal move in the PV");
            state = tree.play(&state, mv);
        }
        let end = if tree.to_move(&state) == search_core::ToMove::Terminal {
            eval.terminal(&tree, &state, 0, found.pv.len() as u32)
        } else {
            prop_assert_eq!(found.pv.len() as u32, depth, "the PV stops early at a non-terminal state");
            eval.evaluate(&tree, &state, 0)
        };
        prop_assert_eq!(end, found.value);
    }
}

/// A tree that lists its moves in a seeded pseudo-random order.
/// [`TreeEval`] that also values a node whose children are all chance nodes in one go, and
/// refuses (`None`) when one is not.
struct AtOnce;

impl Evaluator<Tree> for AtOnce {
    type Value = f64;

    fn evaluate(&self, tree: &Tree, state: &NodeId, player: u8) -> f64 {
        TreeEval::<f64>::new().evaluate(tree, state, player)
    }

    fn best_chance_child(&self, tree: &Tree, state: &NodeId, player: u8) -> Option<f64> {
        let mut best: Option<f64> = None;
        let mut all_chance = true;
        tree.successors(state, |_, child| {
            all_chance &= tree.to_move(&child) == search_core::ToMove::Chance;
            let v = self.evaluate(tree, &child, player);
            if best.is_none_or(|b| v > b) {
                best = Some(v);
            }
        });
        best.filter(|_| all_chance)
    }
}

/// [`AtOnce`] that also values all the children of a chance node in one go
/// (`chance_value`), when each is a node [`AtOnce`] values at once or is terminal, and
/// refuses otherwise.
struct SiblingsAtOnce;

impl Evaluator<Tree> for SiblingsAtOnce {
    type Value = f64;

    fn evaluate(&self, tree: &Tree, state: &NodeId, player: u8) -> f64 {
        AtOnce.evaluate(tree, state, player)
    }

    fn best_chance_child(&self, tree: &Tree, state: &NodeId, player: u8) -> Option<f64> {
        AtOnce.best_chance_child(tree, state, player)
    }

    fn chance_value(
        &self,
        tree: &Tree,
        state: &NodeId,
        player: u8,
        ply: u32,
        bottom: &dyn Fn(f64) -> bool,
    ) -> Option<(f64, u64)> {
        let (mut sum, mut children, mut all) = (0.0, 0, true);
        tree.chance_successors(state, |_, q, child| {
            let value = match tree.to_move(&child) {
                search_core::ToMove::Terminal => Some(self.terminal(tree, &child, player, ply)),
                search_core::ToMove::Player(p) if p == player && bottom(q) => {
                    self.best_chance_child(tree, &child, player)
                }
                _ => None,
            };
            match value {
                Some(v) => {
                    sum += q * v;
                    children += 1;
                }
                None => all = false,
            }
        });
        all.then_some((sum, children))
    }
}

struct Shuffled<'a> {
    tree: &'a Tree,
    seed: u64,
}

impl Game for Shuffled<'_> {
    type State = NodeId;
    type Move = u32;
    fn to_move(&self, s: &NodeId) -> search_core::ToMove {
        self.tree.to_move(s)
    }
    fn moves(&self, s: &NodeId, moves: &mut search_core::MoveList<u32>) {
        self.tree.moves(s, moves);
    }
    fn outcomes(&self, s: &NodeId, outcomes: &mut search_core::OutcomeList<u32>) {
        self.tree.outcomes(s, outcomes);
    }
    fn play(&self, s: &NodeId, mv: u32) -> NodeId {
        self.tree.play(s, mv)
    }
    fn order_moves(&self, s: &NodeId, moves: &mut [u32]) {
        let key = |m: &u32| {
            (*s as u64 ^ self.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(*m * 7) ^ u64::from(*m)
        };
        moves.sort_by_key(key);
    }
}

struct ShuffledEval(TreeEval<f64>);

impl Evaluator<Shuffled<'_>> for ShuffledEval {
    type Value = f64;
    fn evaluate(&self, g: &Shuffled<'_>, s: &NodeId, p: u8) -> f64 {
        self.0.evaluate(g.tree, s, p)
    }
    fn terminal(&self, g: &Shuffled<'_>, s: &NodeId, p: u8, ply: u32) -> f64 {
        self.0.terminal(g.tree, s, p, ply)
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        self.0.bounds()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Expectimax without a table is the oracle, value and move, whatever the horizon: depth
    /// in moves or plies, partial cuts, probability cut-offs (asked before the outcomes are
    /// generated), one or two players, probabilities exact or not.
    #[test]
    fn expectimax_equals_the_oracle(seed: u64, depth in 1u32..=6, b in 1usize..=4, two_players: bool, dyadic: bool, plies: bool, min_width in 1usize..=4, max_remaining in 0u32..=3, threshold in 0.0f64..0.6) {
        let (tree, root) = tree(seed, &with_chance(depth, b, two_players, dyadic));
        let eval = TreeEval::<f64>::new();
        let count = if plies { DepthCount::Plies } else { DepthCount::Moves };
        let mut none = ChanceTables::none();

        let partial = Horizon { depth, count, cutoff: PartialCut { min_width, max_remaining } };
        let oracle = minimax::search(&tree, &eval, &root, &partial);
        let config = expectimax::Config { horizon: partial, reuse: Reuse::Deeper, parallel: false };
        let found = expectimax::search(&tree, &eval, &root, &config, &mut none);
        prop_assert_eq!((found.value, found.best_move), (oracle.value, oracle.best_move));

        let cut = Horizon { depth, count, cutoff: ProbabilityCutoff { threshold } };
        let oracle = minimax::search(&tree, &eval, &root, &cut);
        let config = expectimax::Config { horizon: cut, reuse: Reuse::Deeper, parallel: false };
        let found = expectimax::search(&tree, &eval, &root, &config, &mut none);
        prop_assert_eq!((found.value, found.best_move), (oracle.value, oracle.best_move));
        prop_assert_eq!(found.stats.policy_cutoffs, oracle.stats.policy_cutoffs);
    }

    /// An evaluator that values a node of leaves at once (`best_chance_child`) changes
    /// nothing: the search asks it only where every child is a chance node it would value
    /// statically, so the value and move stay the oracle's, and fewer leaves are counted.
    #[test]
    fn expectimax_with_a_node_of_leaves_at_once(seed: u64, depth in 1u32..=6, b in 1usize..=4, plies: bool, threshold in 0.0f64..0.6) {
        let (tree, root) = tree(seed, &with_chance(depth, b, false, false));
        let count = if plies { DepthCount::Plies } else { DepthCount::Moves };
        let horizon = Horizon { depth, count, cutoff: ProbabilityCutoff { threshold } };
        let oracle = minimax::search(&tree, &TreeEval::<f64>::new(), &root, &horizon);
        let config = expectimax::Config { horizon, reuse: Reuse::Deeper, parallel: false };
        let found = expectimax::search(&tree, &AtOnce, &root, &config, &mut ChanceTables::none());
        prop_assert_eq!((found.value, found.best_move), (oracle.value, oracle.best_move));
    }

    /// An evaluator that also values a chance node's children at once (`chance_value`)
    /// changes nothing either: the same value to the bit, the same move, the same node and leaf
    /// counts, with or without a table; the search asks it only where every outcome would be
    /// valued by `best_chance_child` or as terminal.
    #[test]
    fn expectimax_with_siblings_at_once(seed: u64, depth in 1u32..=6, b in 1usize..=4, plies: bool, threshold in 0.0f64..0.6, table: bool) {
        let (tree, root) = tree(seed, &with_chance(depth, b, false, false));
        let count = if plies { DepthCount::Plies } else { DepthCount::Moves };
        let horizon = Horizon { depth, count, cutoff: ProbabilityCutoff { threshold } };
        let config = expectimax::Config { horizon, reuse: Reuse::SameDepth, parallel: false };
        let tables = || if table { ChanceTables::with_capacity(1 << 6) } else { ChanceTables::none() };
        let one_by_one = expectimax::search(&tree, &AtOnce, &root, &config, &mut tables());
        let siblings = expectimax::search(&tree, &SiblingsAtOnce, &root, &config, &mut tables());
        prop_assert_eq!(siblings.value.to_bits(), one_by_one.value.to_bits());
        prop_assert_eq!(siblings.best_move, one_by_one.best_move);
        prop_assert_eq!((siblings.stats.nodes, siblings.stats.leaves), (one_by_one.stats.nodes, one_by_one.stats.leaves));
    }

    /// With a table that reuses only values found with the same depth left, a DAG's
    /// transpositions give the oracle's value and move: without a probability cut-off a chance
    /// node's value depends only on the node and the depth left.
    #[test]
    fn expectimax_table_on_transpositions(seed: u64, depth in 2u32..=7, b in 2usize..=4, width in 2usize..=6, plies: bool, min_width in 1usize..=4, max_remaining in 0u32..=3) {
        let shape = Shape { layer_width: Some(width), ..with_chance(depth, b, true, true) };
        let (tree, root) = tree(seed, &shape);
        let eval = TreeEval::<f64>::new();
        let count = if plies { DepthCount::Plies } else { DepthCount::Moves };
        let horizon = Horizon { depth, count, cutoff: PartialCut { min_width, max_remaining } };
        let oracle = minimax::search(&tree, &eval, &root, &horizon);
        let mut tables = ChanceTables::with_capacity(1 << 6);
        let config = expectimax::Config { horizon, reuse: Reuse::SameDepth, parallel: false };
        // Twice with the same tables: a new search must not see the last one's entries.
        for _ in 0..2 {
            let found = expectimax::search(&tree, &eval, &root, &config, &mut tables);
            prop_assert_eq!((found.value, found.best_move), (oracle.value, oracle.best_move));
        }
    }

    /// Root moves on several threads give the serial search exactly (value, move and node
    /// count), tables and probability cut-offs included: each root move has its own table.
    #[test]
    fn expectimax_parallel_equals_serial(seed: u64, depth in 1u32..=6, b in 2usize..=4, width in 2usize..=6, threshold in 0.0f64..0.3) {
        let shape = Shape { layer_width: Some(width), ..with_chance(depth, b, true, false) };
        let (tree, root) = tree(seed, &shape);
        let eval = TreeEval::<f64>::new();
        let horizon = Horizon { depth, count: DepthCount::Moves, cutoff: ProbabilityCutoff { threshold } };
        let serial_config = expectimax::Config { horizon, reuse: Reuse::Deeper, parallel: false };
        let serial = expectimax::search(&tree, &eval, &root, &serial_config, &mut ChanceTables::with_capacity(1 << 5));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let config = expectimax::Config { parallel: true, ..serial_config };
        let mut tables = ChanceTables::with_capacity(1 << 5);
        let found = pool.install(|| expectimax::search(&tree, &eval, &root, &config, &mut tables));
        prop_assert_eq!((found.value, found.best_move), (serial.value, serial.best_move));
        prop_assert_eq!(found.stats.nodes, serial.stats.nodes);
    }
}
