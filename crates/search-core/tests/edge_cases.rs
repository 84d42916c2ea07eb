//! Regression tests for the edges of the value range, found by an independent harness
//! (issue 16): each failed before its fix.

use search_core::{Evaluator, Game, MoveList, NoTable, OutcomeList, Player, ToMove, alphabeta};

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
