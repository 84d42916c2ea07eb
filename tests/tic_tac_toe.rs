//! Tests of the tic-tac-toe tutorial example: alpha-beta against the minimax oracle, the value of
//! the empty board, games against a random player, and a win in one.

// `main` and the printing helpers of the example are not called from here.
#[allow(dead_code)]
#[path = "../examples/tic_tac_toe.rs"]
mod tic_tac_toe;

use search_core::{Game, Horizon, NoTable, ToMove, TranspositionTable, alphabeta, minimax};
use tic_tac_toe::{Board, Score, Settings, SplitMix64, TicTacToe, WIN, choose, parse_args, random_move};

/// A random position: up to 8 random moves from the empty board, stopping at a finished game.
fn random_position(rng: &mut SplitMix64) -> Board {
    let mut board = Board::new();
    for _ in 0..rng.below(9) {
        if TicTacToe.to_move(&board) == ToMove::Terminal {
            break;
        }
        board = TicTacToe.play(&board, random_move(&board, rng));
    }
    board
}

/// Asserts that alpha-beta, with and without a table, gives the oracle's value at `depth`.
fn assert_agrees(board: &Board, depth: u32, score: Score) {
    let oracle = minimax::search(&TicTacToe, &score, board, &Horizon::depth(depth)).value;
    let config = alphabeta::Config::depth(depth);
    let plain = alphabeta::search(&TicTacToe, &score, board, &config, NoTable).value;
    let table = TranspositionTable::<i32>::with_capacity(1 << 12);
    let tabled = alphabeta::search(&TicTacToe, &score, board, &config, &table).value;
    assert_eq!(plain, oracle, "no table, depth {depth}, {board:?}");
    assert_eq!(tabled, oracle, "table, depth {depth}, {board:?}");
}

#[test]
fn alphabeta_agrees_with_minimax_at_full_depth() {
    assert_agrees(&Board::new(), 9, Score::default());
    let mut rng = SplitMix64(2024);
    for _ in 0..200 {
        assert_agrees(&random_position(&mut rng), 9, Score::default());
    }
}

#[test]
fn alphabeta_agrees_with_minimax_with_line_counting_at_shallow_depth() {
    let mut rng = SplitMix64(7);
    for depth in 1..=3 {
        for _ in 0..50 {
            assert_agrees(&random_position(&mut rng), depth, Score { count_lines: true });
        }
    }
}

#[test]
fn empty_board_is_a_draw() {
    let found = choose(&Board::new(), 9, false);
    assert_eq!(found.value, 0);
    assert!(found.best_move.is_some());
    assert_eq!(minimax::search(&TicTacToe, &Score::default(), &Board::new(), &Horizon::depth(9)).value, 0);
}

#[test]
fn self_play_is_a_draw() {
    assert_eq!(tic_tac_toe::play_game(&Settings::default(), false), None);
}

#[test]
fn engine_never_loses_to_a_random_player() {
    let mut wins = 0;
    for seed in 0..50 {
        let settings = Settings { seed, depth: 9, vs_random: true, ..Settings::default() };
        // The random player is O for an even seed and X for an odd one.
        let engine = tic_tac_toe::engine_side(seed);
        let winner = tic_tac_toe::play_game(&settings, false);
        assert!(winner.is_none_or(|w| w == engine), "seed {seed}: the engine lost");
        wins += usize::from(winner == Some(engine));
    }
    // A random player blunders: most games are won, not drawn.
    assert!(wins >= 25, "only {wins} wins in 50 games");
}

#[test]
fn a_match_through_the_arena_swaps_seats_and_the_engine_never_loses() {
    let settings = Settings { seed: 11, pairs: 10, ..Settings::default() };
    let result = tic_tac_toe::play_match(&settings);
    assert_eq!((result.a.as_str(), result.b.as_str()), ("alphabeta-d9", "random"));
    assert_eq!(result.games.len(), 20);
    for (i, game) in result.games.iter().enumerate() {
        assert_eq!(game.seat_a.0, (i % 2) as u8, "game {i}: seats alternate");
        assert!(game.finished);
        assert!(game.score_a >= 0.5, "game {i}: the engine lost");
    }
    assert!(result.score_a() > 0.75, "{}", result.score_a());
    // The same seed plays the same match.
    assert_eq!(tic_tac_toe::play_match(&settings), result);
}

#[test]
fn a_win_in_one_is_taken() {
    // X: cells 0 and 1; O: cells 3 and 4; X to move wins at cell 2 (O would win at 5).
    let board = Board { marks: [0b11, 0b11000], to_move: 0 };
    for count_lines in [false, true] {
        for depth in [1, 9] {
            let found = choose(&board, depth, count_lines);
            assert_eq!(found.best_move, Some(2));
            assert_eq!(found.value, WIN - 1);
        }
    }
}

#[test]
fn arguments_are_parsed_with_clear_errors() {
    let parse = |args: &[&str]| parse_args(args.iter().map(|s| s.to_string()));
    assert_eq!(parse(&[]), Ok(Some(Settings::default())));
    assert_eq!(
        parse(&["--vs-random", "--seed", "5", "--depth", "4"]),
        Ok(Some(Settings { seed: 5, depth: 4, vs_random: true, pairs: 0 }))
    );
    assert_eq!(parse(&["--help"]), Ok(None));
    assert!(parse(&["--depth", "10"]).unwrap_err().contains("from 1 to 9"));
    assert!(parse(&["--seed"]).unwrap_err().contains("needs a value"));
    assert!(parse(&["--seed", "-1"]).unwrap_err().contains("`--seed`"));
    assert!(parse(&["--fast"]).unwrap_err().contains("unknown argument"));
    assert_eq!(parse(&["--match", "3"]), Ok(Some(Settings { pairs: 3, ..Settings::default() })));
    assert!(parse(&["--match", "0"]).unwrap_err().contains("1 or more"));
}
