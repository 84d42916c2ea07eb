//! The perfect-information Block game agrees with `State`, and the alpha-beta solve agrees with
//! plain minimax.

use domino::solver::{FULL_DEPTH, Objective, PerfectBlock, Position, minimax_value, solve};
use domino::{Rules, State};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::{Game, GameHash, MoveList, ToMove, TranspositionTable, alphabeta};

/// A Block state after `plies` random moves (fewer if the game ends).
fn random_state(rules: Rules, seed: u64, plies: usize) -> State {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut s = State::deal(rules, seed);
    for _ in 0..plies {
        if s.is_terminal() {
            break;
        }
        let moves = s.legal_moves();
        s.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    s
}

#[test]
fn positions_follow_the_state_through_random_games() {
    let game = PerfectBlock::default();
    for seed in 0..300 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = State::deal(Rules::block(), seed);
        let mut p = Position::from_state(&s).unwrap();
        loop {
            assert_eq!(Position::from_state(&s), Some(p));
            if s.is_terminal() {
                assert_eq!(game.to_move(&p), ToMove::Terminal);
                assert_eq!(p.returns(game.blocked), s.returns());
                break;
            }
            assert_eq!(game.to_move(&p), ToMove::Player(s.to_move()));
            let mut moves = MoveList::new();
            game.moves(&p, &mut moves);
            assert_eq!(moves.to_vec(), s.legal_moves());
            let mv = moves[rng.random_range(0..moves.len())];
            s.play(mv).unwrap();
            p = game.play(&p, mv);
        }
    }
    assert_eq!(Position::from_state(&State::deal(Rules::draw(), 0)), None);
}

/// The exact value of `p` for `player`, by minimax.
fn value_for(game: &PerfectBlock, p: &Position, objective: Objective, player: u8) -> i32 {
    if p.over {
        let r = p.returns(game.blocked)[player as usize];
        return match objective {
            Objective::Points => r,
            Objective::WinLoss => r.signum(),
        };
    }
    let v = minimax_value(game, p, objective);
    if p.to_move == player { v } else { -v }
}

#[test]
fn alphabeta_matches_minimax_on_random_deals() {
    let small = Rules { hand_size: 4, ..Rules::block() };
    let cases = (0..40)
        .map(|seed| random_state(small, seed, 0))
        .chain((0..40).map(|seed| random_state(Rules::block(), seed, 4)));
    for (i, s) in cases.enumerate() {
        let p = Position::from_state(&s).unwrap();
        if p.over {
            continue;
        }
        for blocked in [
            domino::BlockedScoring::LoserPips,
            domino::BlockedScoring::Difference,
            domino::BlockedScoring::Draw,
        ] {
            let game = PerfectBlock { blocked };
            for objective in [Objective::Points, Objective::WinLoss] {
                let (value, best) = solve(&game, &p, objective);
                assert_eq!(value, minimax_value(&game, &p, objective), "case {i}");
                let best = best.expect("a live position has a best move");
                assert!(s.legal_moves().contains(&best), "case {i}");
                let child = game.play(&p, best);
                assert_eq!(value_for(&game, &child, objective, p.to_move), value, "case {i}");
            }
        }
    }
}

#[test]
fn a_transposition_table_gives_the_same_values() {
    let game = PerfectBlock::default();
    let table = TranspositionTable::with_capacity(1 << 16);
    let config = alphabeta::Config::depth(FULL_DEPTH);
    for seed in 0..30 {
        let p = Position::from_state(&random_state(Rules::block(), seed, 2)).unwrap();
        if p.over {
            continue;
        }
        table.new_search();
        let with_table = alphabeta::search(&game, &Objective::Points, &p, &config, &table);
        assert_eq!(with_table.value, solve(&game, &p, Objective::Points).0, "seed {seed}");
    }
}

#[test]
fn the_hash_tells_positions_apart() {
    let game = PerfectBlock::default();
    let s = random_state(Rules::block(), 5, 3);
    let p = Position::from_state(&s).unwrap();
    let mut other = p;
    other.to_move = 1 - p.to_move;
    assert_ne!(game.hash(&p), game.hash(&other));
    assert_eq!(game.hash(&p), game.hash(&Position::from_state(&s).unwrap()));
}

/// The perfect-information Block game keeps search-core's `Game` contract on seeded random
/// walks from several deals.
#[test]
fn the_game_keeps_the_search_contract() {
    use search_core::testing::{Walk, check_hashed};
    let starts: Vec<Position> =
        (0..5).map(|seed| Position::from_state(&State::deal(Rules::block(), seed)).unwrap()).collect();
    let report = check_hashed(
        &PerfectBlock::default(),
        &starts,
        &Walk { walks: 4, max_plies: 100, seed: 2, ..Walk::default() },
    )
    .unwrap();
    assert_eq!(report.terminal_states, 20);
}
