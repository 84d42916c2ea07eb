//! The expectimax player of issue 6: legal play, its chance nodes, going out, and a short match.

use domino::game::DominoGame;
use domino::matches::{play_game, play_match};
use domino::players::{
    DominoPlayer, ExpectimaxPlayer, Greedy, MinNode, PimcPlayer, RandomPlayer, SeedPlayer,
};
use domino::solver::Objective;
use domino::{Move, Rules, State, Tile, TileSet};

#[test]
fn plays_legal_moves_over_whole_games_in_both_variants() {
    for rules in [Rules::block(), Rules::draw()] {
        for seed in 0..6u64 {
            let mut a = ExpectimaxPlayer { depth: 4 };
            let mut b = RandomPlayer::new(seed);
            let state = State::deal(rules, 1000 + seed);
            let end = if seed % 2 == 0 {
                play_game([&mut a, &mut b], state)
            } else {
                play_game([&mut b, &mut a], state)
            };
            assert!(end.unwrap_or_else(|e| panic!("{rules:?} seed {seed}: {e}")).is_terminal());
        }
    }
}

#[test]
fn reply_probabilities_sum_to_one_on_random_views() {
    let mut checked = 0;
    for seed in 0..60u64 {
        let mut s = State::deal(Rules::block(), seed);
        let mut random = RandomPlayer::new(seed);
        while !s.is_terminal() {
            let me = s.to_move();
            let view = s.view(1 - me);
            if let Some((a, b)) = view.ends() {
                let candidates = view.opponent_candidates();
                // The opponent's real hand lies within its candidates.
                assert_eq!(s.hand(me).0 & !candidates.0, 0, "seed {seed}");
                let fits = candidates.iter().filter(|t| t.has(a) || t.has(b)).count() as u32;
                let (ranks, pass) =
                    ExpectimaxPlayer::rank_probabilities(candidates.len(), fits, view.opponent_hand_len());
                let total: f64 = ranks.iter().sum::<f64>() + pass;
                assert!((total - 1.0).abs() < 1e-9, "seed {seed}: {total}");
                // Better-ranked tiles are more likely to be the one played.
                assert!(ranks.windows(2).all(|w| w[0] >= w[1] - 1e-12), "seed {seed}");
                checked += 1;
            }
            let mv = random.choose(&s.view(me), s.rules());
            s.play(mv).unwrap();
        }
    }
    assert!(checked > 100);
}

#[test]
fn depth_one_goes_out_when_it_can() {
    let mut going_out = 0;
    for seed in 0..80u64 {
        let mut s = State::deal(Rules::block(), seed);
        let mut greedy = Greedy;
        while !s.is_terminal() {
            let me = s.to_move();
            let view = s.view(me);
            let mv = if view.hand().len() == 1 {
                let mv = ExpectimaxPlayer { depth: 1 }.choose(&view, s.rules());
                let hand = view.hand();
                if let Some(&Move::Play { .. }) = s.legal_moves().first() {
                    assert!(matches!(mv, Move::Play { tile, .. } if hand.contains(tile)));
                    going_out += 1;
                }
                mv
            } else {
                greedy.choose(&view, s.rules())
            };
            s.play(mv).unwrap();
        }
    }
    assert!(going_out > 10);
}

#[test]
fn short_match_against_greedy_and_the_seed() {
    let r = play_match(&mut ExpectimaxPlayer { depth: 4 }, &mut Greedy, Rules::block(), 50, 6);
    println!(
        "expectimax4 vs greedy: {:.3} ({} games, {:+.2} pts/game)",
        r.score(),
        r.games,
        r.points_per_game()
    );
    // No strength assertion here: strength is measured by `cargo xtask eval --game domino`.
    let r = play_match(
        &mut ExpectimaxPlayer { depth: 4 },
        &mut SeedPlayer::new(4, MinNode::Paranoid),
        Rules::block(),
        50,
        6,
    );
    println!(
        "expectimax4 vs seed4: {:.3} ({} games, {:+.2} pts/game)",
        r.score(),
        r.games,
        r.points_per_game()
    );
}

/// `DOMINO_STRENGTH=1 [DOMINO_DEPTHS=4,6] cargo test --release -p game-search-domino --test expectimax strength -- --nocapture`:
/// 500 duplicate deals per row against greedy and the seed player, in both variants.
#[test]
fn strength() {
    if std::env::var_os("DOMINO_STRENGTH").is_none() {
        return;
    }
    let depths: Vec<u32> = std::env::var("DOMINO_DEPTHS")
        .unwrap_or_else(|_| "2,4,6".into())
        .split(',')
        .filter_map(|d| d.trim().parse().ok())
        .collect();
    for rules in [Rules::block(), Rules::draw()] {
        for &depth in &depths {
            let mut seed = SeedPlayer::new(4, MinNode::Paranoid);
            let opponents: [(&str, &mut dyn domino::Agent<DominoGame>); 2] =
                [("greedy", &mut Greedy), ("seed4", &mut seed)];
            for (name, opponent) in opponents {
                let r = play_match(&mut ExpectimaxPlayer { depth }, opponent, rules, 500, 1);
                let (lo, hi) = r.interval();
                println!(
                    "{:?} expectimax{depth} vs {name}: {:.3} [{lo:.3}, {hi:.3}] {:+.2} pts/game",
                    rules.variant,
                    r.score(),
                    r.points_per_game()
                );
            }
        }
    }
}

/// A position where the first version chose wrong (found by comparing it with the fixed player
/// over greedy games). The opponent has just passed on 3 and 5, so it holds neither: 3-3 on the
/// 3 keeps both ends out of its reach, 3-6 opens a 6 for it. Averaged over the opponent's 462
/// possible hands, each solved exactly, 3-3 is worth +0.81 (wins − losses per game) and 3-6
/// +0.18; the first version, whose horizon values were tiny beside ±1000 for a finished game,
/// played 3-6 at depth 4.
#[test]
fn keeps_the_ends_the_opponent_lacks() {
    let hand = |s: &str| s.split(' ').map(|t| t.parse::<Tile>().unwrap()).collect::<TileSet>();
    let h0 = hand("0-3 0-4 1-3 3-3 3-6 4-6 6-6");
    let h1 = hand("0-2 1-1 1-4 1-6 2-2 2-6 5-6");
    let dead: Vec<Tile> = (h0 | h1).complement().iter().collect();
    let mut s = State::from_hands(Rules::block(), [h0, h1], &dead).unwrap();
    for mv in ["6-6", "5-6@6", "4-6@6", "1-4@4", "1-3@1"] {
        s.play(mv.parse().unwrap()).unwrap();
    }
    // Player 1 could not cover 3 or 5 and passed.
    assert_eq!((s.to_move(), s.ends()), (0, Some((3, 5))));
    let view = s.view(0);
    let keep: Move = "3-3@3".parse().unwrap();
    assert_eq!(ExpectimaxPlayer { depth: 4 }.choose(&view, s.rules()), keep);
    // The exhaustive perfect-information average (every consistent hand, 462 < 2,000) agrees.
    let mut exhaustive = PimcPlayer::new(50, Objective::WinLoss, 1, 1);
    assert_eq!(exhaustive.choose(&view, s.rules()), keep);
}
