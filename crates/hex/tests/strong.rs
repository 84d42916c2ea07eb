//! The strong player: its rules (win, block, bridge repair), its selective move generation,
//! determinism under a node or depth budget, and short games against the random player.

use hex::strong::{StrongConfig, StrongMoves, StrongPlayer, StrongReason};
use hex::{Color, HexMove, HexPlayer, Position, RandomPlayer};

mod common;

use common::{place, position};

#[test]
fn takes_an_immediate_win() {
    // 5x5, Black holds the middle column but c5; White threatens nothing yet.
    let pos = position(5, &[(0, 2), (1, 2), (2, 2), (3, 2)], &[(0, 0), (1, 0), (2, 0), (3, 0)], Color::Black);
    for config in [StrongConfig::depth(2), StrongConfig { repair_bridges: false, ..StrongConfig::nodes(500) }]
    {
        let mut player = StrongPlayer::new(config);
        let mv = player.choose_move(&pos);
        assert_eq!(pos.play(mv).unwrap().winner(), Some(Color::Black));
        assert_eq!(player.last_reason(), Some(StrongReason::Win));
    }
}

#[test]
fn blocks_an_immediate_loss() {
    // 5x5, White to move; Black's column a1-a4 wins at a5, and White has no win of its own.
    let pos = position(5, &[(0, 0), (1, 0), (2, 0), (3, 0)], &[(0, 2), (1, 2), (2, 3)], Color::White);
    let mut player = StrongPlayer::new(StrongConfig::nodes(500));
    assert_eq!(player.choose_move(&pos), place(4, 0));
    assert_eq!(player.last_reason(), Some(StrongReason::Block));
    // The search's own move generation only offers the block.
    assert_eq!(StrongMoves::new(5, 12).ordered_moves(&pos), vec![place(4, 0)]);
}

#[test]
fn repairs_an_intruded_bridge() {
    // 7x7: Black's bridge d4–e2 has the carrier d3, e3; White intrudes at d3, Black answers e3.
    let pos = position(7, &[(3, 3), (1, 4)], &[(2, 3), (3, 1)], Color::Black);
    let mut player = StrongPlayer::new(StrongConfig::nodes(1_000));
    assert_eq!(player.choose_move(&pos), place(2, 4));
    assert_eq!(player.last_reason(), Some(StrongReason::BridgeRepair));
    // Without the rule, the repair is the first move the search tries.
    assert_eq!(StrongMoves::new(7, 12).ordered_moves(&pos)[0], place(2, 4));
}

#[test]
fn the_width_limits_the_moves_searched() {
    let start = Position::new(9).unwrap();
    assert_eq!(StrongMoves::new(9, 10).ordered_moves(&start).len(), 10);
    assert_eq!(StrongMoves::new(9, 0).ordered_moves(&start).len(), 81);
    // On the empty board the whole short diagonal ties; the centre comes first, not a corner.
    let first = StrongMoves::new(9, 10).ordered_moves(&start);
    assert_eq!(first[0], place(4, 4), "{first:?}");
    let mut player = StrongPlayer::new(StrongConfig::nodes(1_000));
    assert_eq!(player.choose_move(&Position::new(7).unwrap()), place(3, 3));
}

/// The moves of a game between two players from `start`, and the winner.
fn game(start: Position, black: &mut dyn HexPlayer, white: &mut dyn HexPlayer) -> (Vec<HexMove>, Color) {
    let mut pos = start;
    let mut moves = Vec::new();
    while pos.winner().is_none() {
        let mv =
            if pos.to_move() == Color::Black { black.choose_move(&pos) } else { white.choose_move(&pos) };
        moves.push(mv);
        pos = pos.play(mv).unwrap();
    }
    (moves, pos.winner().unwrap())
}

#[test]
fn deterministic_under_a_node_or_depth_budget() {
    for config in [StrongConfig::nodes(400), StrongConfig::depth(2)] {
        let play = || {
            let mut black = StrongPlayer::new(config);
            let mut white = RandomPlayer::new(3);
            game(Position::new(5).unwrap(), &mut black, &mut white)
        };
        assert_eq!(play(), play());
    }
    let mut player = StrongPlayer::new(StrongConfig::nodes(400));
    player.choose_move(&Position::new(6).unwrap());
    let search = player.last_search().expect("the first move comes from the search");
    assert!(search.result.stats.nodes <= 400);
    assert!(search.result.stats.depth_reached >= 1);
}

#[test]
fn beats_the_random_player_with_either_colour() {
    for (size, nodes) in [(5u32, 300u64), (7, 600)] {
        for seed in 0..2u64 {
            for strong_black in [true, false] {
                let mut strong = StrongPlayer::new(StrongConfig::nodes(nodes));
                let mut random = RandomPlayer::new(seed);
                // The random player's first stone opens the game when the strong player is White.
                let start = Position::new(size).unwrap();
                let (_, winner) = if strong_black {
                    game(start, &mut strong, &mut random)
                } else {
                    game(start, &mut random, &mut strong)
                };
                let strong_color = if strong_black { Color::Black } else { Color::White };
                assert_eq!(winner, strong_color, "{size}x{size}, seed {seed}, strong black: {strong_black}");
            }
        }
    }
}

#[test]
fn a_time_budget_is_kept_and_the_swap_is_a_candidate() {
    let mut player = StrongPlayer::new(StrongConfig::time(std::time::Duration::from_millis(50)));
    let start = Position::new(9).unwrap();
    let clock = std::time::Instant::now();
    let mv = player.choose_move(&start);
    // Generous: a debug build on a loaded machine reads the clock every 256 nodes.
    assert!(clock.elapsed() < std::time::Duration::from_secs(3), "{:?}", clock.elapsed());
    assert!(start.play(mv).is_ok());
    // With the swap rule on, White's answer to the centre may be the swap; either way it is legal.
    let pos = Position::with_swap(5, true).unwrap().play(place(2, 2)).unwrap();
    assert!(StrongMoves::new(5, 4).ordered_moves(&pos).contains(&HexMove::Swap));
    let mut white = StrongPlayer::new(StrongConfig::nodes(300));
    assert!(pos.play(white.choose_move(&pos)).is_ok());
}
