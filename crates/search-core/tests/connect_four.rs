//! The searches on the example's Connect Four: iterative deepening stops once the game is
//! decided and agrees with a fixed-depth search, and the parallel iterative search finds the
//! serial one's values.

#[path = "../examples/connect_four/game.rs"]
#[allow(dead_code)]
mod connect_four;

use connect_four::{Board, ConnectFour, WIN, Windows};
use search_core::{Limits, NoTable, TranspositionTable, alphabeta, iterative};

fn board(columns: &[u8]) -> Board {
    Board::from_moves(columns).unwrap()
}

#[test]
fn deepening_stops_at_a_decided_game_with_the_fixed_depth_value() {
    // Player 1 to move wins on its second move from here (a win three plies away).
    let position = board(&[4, 4, 0, 1, 1, 3, 6, 5, 2, 3, 4]);
    let config = iterative::Config { limits: Limits::depth(12), ..Default::default() };
    let table = TranspositionTable::<i32>::with_capacity(1 << 16);
    let found = iterative::search(&ConnectFour, &Windows, &position, &config, &table);
    assert_eq!(found.stop, iterative::Stop::Decided);
    assert_eq!(found.result.value, WIN - 3);
    assert!(found.iterations.len() < 12, "{} iterations", found.iterations.len());
    let fixed = alphabeta::search(&ConnectFour, &Windows, &position, &alphabeta::Config::depth(7), NoTable);
    assert_eq!(fixed.value, found.result.value);
    assert_eq!(fixed.best_move, found.result.best_move);
}

#[test]
fn an_undecided_game_is_searched_to_the_depth_limit() {
    let position = board(&[3, 3, 2]);
    let config = iterative::Config { limits: Limits::depth(6), ..Default::default() };
    let found = iterative::search(&ConnectFour, &Windows, &position, &config, NoTable);
    assert_eq!(found.stop, iterative::Stop::Depth);
    assert_eq!(found.iterations.len(), 6);
    let fixed = alphabeta::search(&ConnectFour, &Windows, &position, &alphabeta::Config::depth(6), NoTable);
    assert_eq!(fixed.value, found.result.value);
}

#[cfg(feature = "parallel")]
#[test]
fn two_threads_find_the_serial_values() {
    use search_core::parallel;
    // Every position of Connect Four is reached at the same depth by every move order, so the
    // table's entries are exact for the depth they are used at, whichever thread stored them.
    for columns in [&[3u8, 3, 2][..], &[6, 4, 6, 6, 3, 1, 4, 3, 1], &[0, 3, 1, 3, 0, 1], &[5, 6, 5, 5, 0, 4]]
    {
        let position = board(columns);
        let search = iterative::Config { limits: Limits::depth(7), ..Default::default() };
        let serial = iterative::search(
            &ConnectFour,
            &Windows,
            &position,
            &search,
            TranspositionTable::<i32>::with_capacity(1 << 16),
        );
        let table = TranspositionTable::<i32>::with_capacity(1 << 16);
        let config = parallel::IterativeConfig { search, threads: 2 };
        let par = parallel::iterative_search(&ConnectFour, &Windows, &position, &config, &table);
        assert_eq!(par.result.value, serial.result.value, "{columns:?}");
        assert_eq!(par.iterations.len(), serial.iterations.len());
    }
}
