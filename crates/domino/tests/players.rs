//! Players: legal moves over whole games, strength smoke tests, inference and determinism.
//!
//! The long measurements run only with `DOMINO_STRENGTH=1` (use `--release`).

use domino::game::DominoGame;
use domino::matches::{MatchResult, play_game, play_match};
use domino::players::{DominoPlayer, Greedy, MinNode, Omniscient, PimcPlayer, RandomPlayer, SeedPlayer};
use domino::solver::Objective;
use domino::{Move, Rules, State, TileSet};
use proptest::prelude::*;

/// A player seated at a table: any agent of the whole game.
type Seat = Box<dyn domino::Agent<DominoGame>>;

fn roster(seed: u64) -> Vec<Box<dyn domino::Agent<DominoGame>>> {
    vec![
        Box::new(RandomPlayer::new(seed)),
        Box::new(Greedy),
        Box::new(PimcPlayer::new(8, Objective::WinLoss, 1, seed)),
        Box::new(PimcPlayer::new(8, Objective::Points, 2, seed)),
        Box::new(SeedPlayer::new(3, MinNode::Paranoid)),
        Box::new(SeedPlayer::new(3, MinNode::Average)),
        Box::new(Omniscient::new(Objective::WinLoss)),
    ]
}

#[test]
fn every_player_moves_legally_in_both_variants() {
    for rules in [Rules::block(), Rules::draw()] {
        let mut players = roster(5);
        let n = players.len();
        for i in 0..n {
            for deal in 0..2u64 {
                let j = (i + 1 + deal as usize) % n;
                let (a, b) = if i < j {
                    let (lo, hi) = players.split_at_mut(j);
                    (&mut lo[i], &mut hi[0])
                } else {
                    let (lo, hi) = players.split_at_mut(i);
                    (&mut hi[0], &mut lo[j])
                };
                let state = State::deal(rules, 100 + deal + 10 * i as u64);
                let end = play_game([a.as_mut(), b.as_mut()], state);
                let end = end.unwrap_or_else(|e| panic!("{rules:?}: {e}"));
                assert!(end.is_terminal());
            }
        }
    }
}

#[test]
fn matches_are_deterministic_and_balanced() {
    let run = || play_match(&mut Greedy, &mut RandomPlayer::new(9), Rules::draw(), 20, 4);
    let (r1, r2) = (run(), run());
    assert_eq!(r1, r2);
    assert_eq!(r1.games, 40);
    // Greedy against itself: duplicate deals make the tally symmetric.
    let r = play_match(&mut Greedy, &mut Greedy, Rules::block(), 30, 2);
    assert_eq!(r.wins, r.losses);
    assert_eq!(r.points, 0);
}

#[test]
fn omniscient_beats_greedy_and_greedy_beats_random() {
    let r = play_match(&mut Omniscient::new(Objective::WinLoss), &mut Greedy, Rules::block(), 100, 11);
    assert!(r.score() > 0.7, "omniscient vs greedy: {r}");
    let r = play_match(&mut Greedy, &mut RandomPlayer::new(1), Rules::block(), 300, 12);
    assert!(r.score() > 0.5, "greedy vs random: {r}");
}

#[test]
fn pimc_does_not_depend_on_the_thread_count() {
    for deal in 0..3 {
        let mut one = PimcPlayer::new(30, Objective::WinLoss, 1, 77);
        let mut two = PimcPlayer::new(30, Objective::WinLoss, 2, 77);
        let mut s = State::deal(Rules::block(), 300 + deal);
        while !s.is_terminal() {
            let v = s.view(s.to_move());
            let (m1, m2) = (one.choose(&v, s.rules()), two.choose(&v, s.rules()));
            assert_eq!(m1, m2);
            s.play(m1).unwrap();
        }
    }
}

/// Plays greedy moves from `seed` until the first pass, returning the state just after it.
fn state_after_a_pass(seed: u64) -> Option<State> {
    let mut s = State::deal(Rules::block(), seed);
    let mut random = RandomPlayer::new(seed);
    while !s.is_terminal() {
        let mv = random.choose(&s.view(s.to_move()), s.rules());
        s.play(mv).unwrap();
        if s.history().iter().any(|r| r.mv == Move::Pass) && !s.is_terminal() {
            return Some(s);
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn sampled_hands_avoid_the_suits_passed_on(seed in 0u64..100_000, pimc_seed in any::<u64>()) {
        let Some(s) = state_after_a_pass(seed) else { return Ok(()) };
        let pass = s.history().iter().find(|r| r.mv == Move::Pass).unwrap();
        let passer = pass.player;
        let (a, b) = pass.ends_before.unwrap();
        let viewer = 1 - passer;
        let view = s.view(viewer);
        let player = PimcPlayer::new(40, Objective::WinLoss, 1, pimc_seed);
        let worlds = player.worlds(&view, 0);
        prop_assert!(!worlds.is_empty());
        let banned = TileSet::of_suits((1 << a) | (1 << b));
        for w in worlds {
            prop_assert_eq!(w.len(), view.opponent_hand_len());
            prop_assert!((w & banned).is_empty(), "{} holds a {} or a {}", w, a, b);
            prop_assert!((w & view.hand()).is_empty() && (w & view.played()).is_empty());
            // The true hand is one of the consistent hands.
            prop_assert!((s.hand(passer) & banned).is_empty());
        }
    }
}

fn row(name: &str, r: &MatchResult) {
    let (lo, hi) = r.interval();
    eprintln!(
        "| {name} | {:.3} | {:.3} | {:.3} | {:.3} [{:.3}, {:.3}] | {:+.2} | {} |",
        f64::from(r.wins) / f64::from(r.games),
        f64::from(r.draws) / f64::from(r.games),
        f64::from(r.losses) / f64::from(r.games),
        r.score(),
        lo,
        hi,
        r.points_per_game(),
        r.games
    );
}

#[test]
fn strength() {
    if std::env::var("DOMINO_STRENGTH").as_deref() != Ok("1") {
        return;
    }
    let deals: u32 = std::env::var("DOMINO_DEALS").ok().and_then(|d| d.parse().ok()).unwrap_or(1000);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for rules in [Rules::block(), Rules::draw()] {
        eprintln!("\n{:?}, {deals} deals x 2 seats", rules.variant);
        eprintln!("| A vs B | win | draw | loss | score [95%] | pts/game | games |");
        eprintln!("|---|---|---|---|---|---|---|");
        let pimc = || PimcPlayer::new(50, Objective::WinLoss, threads, 1);
        let seed = || SeedPlayer::new(4, MinNode::Paranoid);
        let mut pairs: Vec<(Seat, Seat)> = vec![
            (Box::new(Greedy), Box::new(RandomPlayer::new(2))),
            (Box::new(seed()), Box::new(Greedy)),
            (Box::new(SeedPlayer::new(4, MinNode::Average)), Box::new(Greedy)),
            (Box::new(Omniscient::new(Objective::WinLoss)), Box::new(Greedy)),
        ];
        pairs.push((Box::new(pimc()), Box::new(Greedy)));
        pairs.push((Box::new(pimc()), Box::new(seed())));
        pairs.push((Box::new(pimc()), Box::new(RandomPlayer::new(3))));
        for (mut a, mut b) in pairs {
            let t = std::time::Instant::now();
            let r = play_match(a.as_mut(), b.as_mut(), rules, deals, 2026);
            row(&format!("{} vs {}", a.name(), b.name()), &r);
            eprintln!("  ({:.1} s)", t.elapsed().as_secs_f64());
        }
    }
}
