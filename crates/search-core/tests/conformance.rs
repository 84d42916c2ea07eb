//! The conformance checker (`search_core::testing`, feature `testing`): random trees pass it,
//! and games that break each rule are caught with that rule named.
#![cfg(feature = "testing")]

use std::cell::Cell;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::testing::{Rule, Walk, check, check_hashed};
use search_core::tree::{Shape, Tree};
use search_core::{Game, GameHash, MoveList, OutcomeList, ToMove};

#[test]
fn random_trees_pass() {
    for seed in 0..20 {
        let shape = Shape { depth: 5, chance: 0.3, dyadic: seed % 2 == 0, ..Shape::default() };
        let (tree, root) = Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &shape);
        let report =
            check_hashed(&tree, &[root], &Walk { walks: 10, max_plies: 50, seed, ..Walk::default() })
                .unwrap();
        assert_eq!(report.terminal_states, 10, "every walk of a finite tree ends");
    }
}

/// A counter from 0: player 0 adds 1 or 2, then chance adds 0 or 10, until 30. Each flag
/// breaks one rule.
#[derive(Default)]
struct Faulty {
    no_moves_at: Option<u32>,
    probabilities: Option<(f64, f64)>,
    flaky_moves: bool,
    bad_hash: bool,
    calls: Cell<u32>,
}

impl Game for Faulty {
    type State = (u32, bool);
    type Move = u32;

    fn to_move(&self, &(n, chance): &(u32, bool)) -> ToMove {
        if n >= 30 {
            ToMove::Terminal
        } else if chance {
            ToMove::Chance
        } else {
            ToMove::Player(0)
        }
    }
    fn moves(&self, &(n, _): &(u32, bool), moves: &mut MoveList<u32>) {
        if self.no_moves_at == Some(n) {
            return;
        }
        self.calls.set(self.calls.get() + 1);
        if self.flaky_moves && self.calls.get().is_multiple_of(2) {
            moves.extend([2, 1]);
        } else {
            moves.extend([1, 2]);
        }
    }
    fn outcomes(&self, _: &(u32, bool), outcomes: &mut OutcomeList<u32>) {
        let (p, q) = self.probabilities.unwrap_or((0.5, 0.5));
        outcomes.extend([(0, p), (10, q)]);
    }
    fn play(&self, &(n, chance): &(u32, bool), mv: u32) -> (u32, bool) {
        (n + mv, !chance)
    }
}

impl GameHash for Faulty {
    fn hash(&self, &(n, chance): &(u32, bool)) -> u64 {
        self.calls.set(self.calls.get() + 1);
        let salt = if self.bad_hash { u64::from(self.calls.get()) } else { 0 };
        u64::from(n) * 2 + u64::from(chance) + salt
    }
}

fn rule_broken(game: &Faulty) -> Option<Rule> {
    let walk = Walk { walks: 5, max_plies: 100, seed: 3, ..Walk::default() };
    check_hashed(game, &[(0, false)], &walk).err().map(|v| {
        // The message names the rule and where.
        assert!(v.to_string().starts_with("walk "), "{v}");
        v.rule
    })
}

#[test]
fn each_broken_rule_is_named() {
    assert_eq!(rule_broken(&Faulty::default()), None);
    assert!(check(&Faulty::default(), &[(0, false)], &Walk::default()).unwrap().chance_states > 0);
    assert_eq!(rule_broken(&Faulty { no_moves_at: Some(0), ..Faulty::default() }), Some(Rule::NoMoves));
    assert_eq!(
        rule_broken(&Faulty { probabilities: Some((0.5, 0.4)), ..Faulty::default() }),
        Some(Rule::ProbabilitiesSum(0.9))
    );
    assert_eq!(
        rule_broken(&Faulty { probabilities: Some((1.5, -0.5)), ..Faulty::default() }),
        Some(Rule::BadProbability(-0.5))
    );
    assert_eq!(
        rule_broken(&Faulty { flaky_moves: true, ..Faulty::default() }),
        Some(Rule::MovesNotDeterministic)
    );
    assert_eq!(rule_broken(&Faulty { bad_hash: true, ..Faulty::default() }), Some(Rule::HashDiffers));
}
