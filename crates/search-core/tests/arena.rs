//! Matches on Connect Four (the example's game): seeded random openings give deterministic
//! agents different games, the two games of a pair share their opening, the same settings
//! replay the same match, and a result counts and prints its games.

#[path = "../examples/connect_four/game.rs"]
#[allow(dead_code)]
mod connect_four;

use connect_four::{Board, ConnectFour, Windows};
use search_core::agent::AlphaBetaAgent;
use search_core::arena::{self, MatchConfig, MatchResult};
use search_core::{Game, Rewards, TranspositionTable, alphabeta, draw, win_for};

fn rewards(_: &ConnectFour, board: &Board) -> Rewards {
    board.winner().map_or_else(draw, win_for)
}

fn play(config: &MatchConfig, pairs: usize, table: &TranspositionTable<i32>) -> MatchResult<Board, u8> {
    // Two deterministic agents; the second borrows a table its caller owns.
    let mut a = AlphaBetaAgent::new("d3", Windows, alphabeta::Config::depth(3), search_core::NoTable);
    let mut b = AlphaBetaAgent::new("d2-table", Windows, alphabeta::Config::depth(2), table);
    let starts = vec![Board::new(); pairs];
    arena::play_match(&ConnectFour, &starts, &mut a, &mut b, config, rewards)
}

#[test]
fn without_openings_deterministic_agents_replay_one_game() {
    let table = TranspositionTable::with_capacity(1 << 12);
    let m = play(&MatchConfig::default(), 3, &table);
    assert_eq!(m.games.len(), 6);
    for pair in m.games.chunks(2).skip(1) {
        assert_eq!(pair[0].moves, m.games[0].moves, "the same start, the same game");
        assert_eq!(pair[1].moves, m.games[1].moves);
    }
}

#[test]
fn random_openings_vary_the_games_and_replay_with_the_seed() {
    let table = TranspositionTable::with_capacity(1 << 12);
    let config = MatchConfig { seed: 11, opening_plies: 4, max_plies: None };
    let m = play(&config, 5, &table);
    assert_eq!(m.games.len(), 10);
    for pair in m.games.chunks(2) {
        assert_eq!(pair[0].opening_plies, 4);
        assert_eq!(pair[0].moves[..4], pair[1].moves[..4], "both seats play from one opening");
        // The opening is legal and leaves a game to play.
        let mut board = Board::new();
        for &(player, column) in &pair[0].moves[..4] {
            assert_eq!(player, Some(board.to_move()));
            assert!(board.can_play(column));
            board = ConnectFour.play(&board, column);
        }
        assert!(!board.is_over());
    }
    let openings: std::collections::HashSet<_> = m.games.iter().map(|g| g.moves[..4].to_vec()).collect();
    assert!(openings.len() >= 4, "five seeded openings, {} distinct", openings.len());
    assert_eq!(play(&config, 5, &table), m, "the same seed replays the same match");
    let other = play(&MatchConfig { seed: 12, ..config }, 5, &table);
    assert_ne!(
        other.games.iter().map(|g| &g.moves).collect::<Vec<_>>(),
        m.games.iter().map(|g| &g.moves).collect::<Vec<_>>()
    );
}

#[test]
fn a_result_counts_and_prints_its_games() {
    let table = TranspositionTable::with_capacity(1 << 12);
    let m = play(&MatchConfig { seed: 3, opening_plies: 2, max_plies: Some(12) }, 4, &table);
    assert_eq!(m.wins_a() + m.draws() + m.losses_a(), m.games.len());
    // Twelve plies are too few to finish a game of Connect Four between these two: all
    // unfinished, all counted as draws.
    assert!(m.games.iter().all(|g| !g.finished && g.moves.len() == 12));
    assert_eq!(m.draws(), 8);
    assert_eq!(m.to_string(), "d3 vs d2-table: 0 won, 8 drawn, 0 lost (score 50.0 %, 95 % 21.5–78.5 %)");
}
