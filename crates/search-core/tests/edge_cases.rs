//! Regression tests for the edges of the value range, found by an independent harness
//! (issue 16): each failed before its fix.

use search_core::tree::{NodeId, Tree, TreeEval};
use search_core::{Evaluator, Game, MoveList, NoTable, OutcomeList, Player, ToMove, alphabeta, parallel};

/// A one-player game of fixed shape: the root (player 0, maximising) has two moves; move 0 ends
/// at once worth `SAFE`, move 1 reaches a chance node whose single outcome (probability 1) is
/// worth `GAMBLE`.
struct Gamble;

/// The states: the root, the two ends, and the chance node.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Spot {
    Root,
    Chance,
    Safe,
    Gambled,
}

const SAFE: i64 = (1 << 60) - 1;
const GAMBLE: i64 = 1 << 60;

impl Game for Gamble {
    type State = Spot;
    type Move = u8;

    fn to_move(&self, spot: &Spot) -> ToMove {
        match spot {
            Spot::Root => ToMove::Player(0),
            Spot::Chance => ToMove::Chance,
            Spot::Safe | Spot::Gambled => ToMove::Terminal,
        }
    }

    fn moves(&self, spot: &Spot, moves: &mut MoveList<u8>) {
        if *spot == Spot::Root {
            moves.extend([0, 1]);
        }
    }

    fn outcomes(&self, spot: &Spot, outcomes: &mut OutcomeList<u8>) {
        if *spot == Spot::Chance {
            outcomes.push((0, 1.0));
        }
    }

    fn play(&self, spot: &Spot, mv: u8) -> Spot {
        match (spot, mv) {
            (Spot::Root, 0) => Spot::Safe,
            (Spot::Root, _) => Spot::Chance,
            _ => Spot::Gambled,
        }
    }
}

/// Exact `i64` values, with bounds well past 2^53.
struct Exact;

impl Evaluator<Gamble> for Exact {
    type Value = i64;

    fn evaluate(&self, _: &Gamble, spot: &Spot, _: Player) -> i64 {
        match spot {
            Spot::Safe => SAFE,
            Spot::Gambled => GAMBLE,
            _ => 0,
        }
    }

    fn bounds(&self) -> Option<(i64, i64)> {
        Some((-(1 << 61), 1 << 61))
    }
}

#[test]
fn star1_is_exact_for_i64_values_past_2_to_the_53() {
    for star1 in [false, true] {
        let config = alphabeta::Config { star1, ..alphabeta::Config::depth(2) };
        let found = alphabeta::search(&Gamble, &Exact, &Spot::Root, &config, NoTable);
        assert_eq!((found.value, found.best_move), (GAMBLE, Some(1)), "star1 {star1}");
    }
}

/// The same game valued in `f64`, with NaN for the gamble: an evaluator bug.
struct NotANumber;

impl Evaluator<Gamble> for NotANumber {
    type Value = f64;

    fn evaluate(&self, _: &Gamble, spot: &Spot, _: Player) -> f64 {
        if *spot == Spot::Gambled { f64::NAN } else { 1.0 }
    }
}

#[test]
#[should_panic(expected = "an evaluator returned NaN")]
fn a_nan_evaluation_panics_instead_of_being_skipped() {
    alphabeta::search(&Gamble, &NotANumber, &Spot::Root, &alphabeta::Config::depth(2), NoTable);
}

#[test]
#[should_panic(expected = "an evaluator returned NaN")]
fn a_nan_evaluation_panics_in_minimax_too() {
    search_core::minimax::search(&Gamble, &NotANumber, &Spot::Root, &search_core::Horizon::depth(2));
}

/// Two `i32::MAX` leaves under a 50/50 chance node, beside a leaf worth 0.
fn out_of_range_tree() -> (Tree, NodeId) {
    let mut tree = Tree::new();
    let (big, other_big, zero) = (tree.leaf(i32::MAX), tree.leaf(i32::MAX), tree.leaf(0));
    let gamble = tree.chance(vec![(big, 0.5), (other_big, 0.5)], 0);
    let root = tree.max(vec![zero, gamble], 0);
    (tree, root)
}

/// Debug builds stop at the evaluation outside the range; release builds take it to the nearest
/// value inside, `2^30 - 1`, so the chance node is worth that, not a half of it.
#[test]
#[cfg_attr(debug_assertions, should_panic(expected = "outside the open range"))]
fn evaluations_past_the_infinities_are_taken_inside_them() {
    let (tree, root) = out_of_range_tree();
    let eval = TreeEval::<i32>::new();
    let found = alphabeta::search(&tree, &eval, &root, &alphabeta::Config::depth(2), NoTable);
    assert_eq!((found.value, found.best_move), ((1 << 30) - 1, Some(1)));
}

/// Every root move at or below the lower infinity: serial and parallel search agree (the
/// parallel search used to panic, its first move "always searched exactly" failing low).
#[test]
#[cfg_attr(debug_assertions, should_panic(expected = "outside the open range"))]
fn parallel_search_agrees_when_every_move_is_below_the_range() {
    let mut tree = Tree::new();
    let (low, lower) = (tree.leaf(-(1 << 30)), tree.leaf(i32::MIN));
    let root = tree.max(vec![low, lower], 0);
    let eval = TreeEval::<i32>::new();
    let serial = alphabeta::search(&tree, &eval, &root, &alphabeta::Config::depth(1), NoTable);
    let config = parallel::Config { search: alphabeta::Config::depth(1), threads: 2 };
    let par = parallel::search(&tree, &eval, &root, &config, NoTable);
    assert_eq!(serial.value, -(1 << 30) + 1);
    assert_eq!((par.value, par.best_move), (serial.value, serial.best_move));
}

/// `Limits::depth(0)` runs no iteration: the root's static value and the first move.
#[test]
fn depth_zero_searches_nothing_and_answers_the_static_value() {
    use search_core::{Limits, iterative};
    let (tree, root) = Tree::perfectly_ordered(3, 4);
    let eval = TreeEval::<i32>::new();
    let config = iterative::Config { limits: Limits::depth(0), ..iterative::Config::default() };
    let found = iterative::search(&tree, &eval, &root, &config, NoTable);
    assert!(found.iterations.is_empty());
    assert_eq!(found.stop, iterative::Stop::Depth);
    assert_eq!(found.result.stats.nodes, 0);
    assert_eq!(found.result.stats.depth_reached, 0);
    assert_eq!(found.result.value, eval.evaluate(&tree, &root, 0));
    assert_eq!(found.result.best_move, Some(0));
    // Depth 1 runs exactly one iteration.
    let one = iterative::Config { limits: Limits::depth(1), ..iterative::Config::default() };
    assert_eq!(iterative::search(&tree, &eval, &root, &one, NoTable).iterations.len(), 1);
}

/// A game that is one long corridor: two moves at the root, then one a ply, `len` plies, then
/// the end.
struct Corridor {
    len: u32,
}

impl Game for Corridor {
    type State = u32;
    type Move = u8;

    fn to_move(&self, &ply: &u32) -> ToMove {
        if ply >= self.len { ToMove::Terminal } else { ToMove::Player((ply % 2) as u8) }
    }

    fn moves(&self, &ply: &u32, moves: &mut MoveList<u8>) {
        // Two moves at the root, so that the parallel search has moves to share; one after.
        moves.extend_from_slice(if ply == 0 { &[0, 1] } else { &[0] });
    }

    fn play(&self, &ply: &u32, _: u8) -> u32 {
        ply + 1
    }
}

struct Zero;

impl Evaluator<Corridor> for Zero {
    type Value = i32;

    fn evaluate(&self, _: &Corridor, _: &u32, _: Player) -> i32 {
        0
    }
}

/// Parallel search on a game 5,000 plies deep used to overflow rayon's default worker stacks
/// and abort the process; its own pools now have stacks as deep as serial search needs.
#[test]
fn parallel_search_goes_thousands_of_plies_deep() {
    let game = Corridor { len: 5_000 };
    let config = parallel::Config { search: alphabeta::Config::depth(6_000), threads: 2 };
    let found = parallel::search(&game, &Zero, &0, &config, NoTable);
    assert_eq!(found.value, 0);
    assert!(found.stats.nodes >= 5_000);
}
