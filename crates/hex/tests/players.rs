//! The seed players: wins in one taken, the opponent's wins in one blocked (the original programs
//! did neither), legal moves over whole games, the bridges player's rules, and a round robin run
//! by hand with `HEX_ROUND_ROBIN=1` (see [`round_robin`]).

use std::time::{Duration, Instant};

use hex::heuristics::{
    PathDifference, PathDistance, TwoDistance, WIN, ZeroOneBfs, bridge_repairs, critical_cell, forms_bridge,
    winning_cells,
};
use hex::players::{
    BridgesConfig, BridgesPlayer, CoolcowPlayer, MadeupConfig, MadeupPlayer, Reason, SearchConfig,
};
use hex::{Board, Cell, Color, HexGame, HexMove, HexPlayer, Position, RandomPlayer, centre};
use search_core::{Evaluator, NoTable, alphabeta};

/// A board from rows of `.`, `B` and `W`, top row first (spaces ignored).
fn board(rows: &[&str]) -> Board {
    let mut b = Board::new(rows.len() as u32).unwrap();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().filter(|ch| !ch.is_whitespace()).enumerate() {
            let stone = match ch {
                'B' => Some(Color::Black),
                'W' => Some(Color::White),
                _ => None,
            };
            b.set(Cell::new(r as u8, c as u8), stone);
        }
    }
    b
}

/// The three seed players with `config`'s depth.
fn seed_players(config: SearchConfig) -> Vec<Box<dyn HexPlayer>> {
    vec![
        Box::new(MadeupPlayer::new(MadeupConfig { search: config, ..MadeupConfig::default() })),
        Box::new(CoolcowPlayer::new(config)),
        Box::new(BridgesPlayer::new(BridgesConfig { search: config, ..BridgesConfig::default() })),
    ]
}

fn place(mv: HexMove) -> Cell {
    match mv {
        HexMove::Place(cell) => cell,
        HexMove::Swap => panic!("unexpected swap"),
    }
}

/// Black to move wins only at c5 (b5 is White's); White has no win in one.
fn black_wins_at_c5() -> Position {
    let b = board(&[
        "W . B . B", //
        "W . B . .",
        ". . B . .",
        ". . B . W",
        ". W . . W",
    ]);
    Position::from_board(b, Color::Black)
}

/// White to move; Black threatens to win at c5 and nowhere else; White has no win in one.
fn white_must_block_c5() -> Position {
    let b = board(&[
        ". . B . .", //
        "W . B . .",
        ". . B . .",
        ". . B . W",
        ". W . . .",
    ]);
    Position::from_board(b, Color::White)
}

/// 6x6, Black to move: White's row 3 lacks only f3 (Black holds f2), and Black has no win in
/// one. Black must block at f3.
fn black_must_block_on_six() -> (Position, Cell) {
    let b = board(&[
        "B . . . . .", //
        ". . B . . B",
        "W W W W W .",
        ". . B . . .",
        ". B . . . .",
        ". . . . . .",
    ]);
    (Position::from_board(b, Color::Black), Cell::new(2, 5))
}

#[test]
fn every_player_takes_a_win_in_one() {
    for depth in [1, 2, 3] {
        for pos in [black_wins_at_c5(), black_wins_at_c5().mirrored()] {
            for mut player in seed_players(SearchConfig::depth(depth)) {
                let mv = player.choose_move(&pos);
                let after = pos.play(mv).unwrap();
                assert_eq!(after.winner(), Some(pos.to_move()), "{} played {mv:?}", player.name());
            }
        }
    }
}

#[test]
fn every_player_blocks_a_win_in_one() {
    let (six, six_block) = black_must_block_on_six();
    let cases = [
        (white_must_block_c5(), Cell::new(4, 2)),
        (white_must_block_c5().mirrored(), Cell::new(2, 4)),
        (six, six_block),
        (six.mirrored(), six_block.transpose()),
    ];
    for depth in [2, 3] {
        for (pos, block) in &cases {
            assert_eq!(winning_cells(pos.board(), pos.to_move().opponent()), vec![*block]);
            assert!(winning_cells(pos.board(), pos.to_move()).is_empty());
            for mut player in seed_players(SearchConfig::depth(depth)) {
                assert_eq!(
                    player.choose_move(pos),
                    HexMove::Place(*block),
                    "{} at depth {depth}",
                    player.name()
                );
            }
        }
    }
}

/// One alpha-beta search of `pos` with `eval`; the move it names.
fn search_with<E: Evaluator<HexGame, Value = i32>>(eval: &E, pos: &Position, depth: u32) -> (HexMove, i32) {
    let found =
        alphabeta::search(&HexGame::new(pos.size()), eval, pos, &alphabeta::Config::depth(depth), NoTable);
    (found.best_move.unwrap(), found.value)
}

#[test]
fn every_evaluator_scores_wins_above_heuristics() {
    let (six, six_block) = black_must_block_on_six();
    for depth in [2, 3] {
        for pos in [black_wins_at_c5(), black_wins_at_c5().mirrored()] {
            let expect = |(mv, value): (HexMove, i32)| {
                assert_eq!(value, WIN - 1);
                assert_eq!(pos.play(mv).unwrap().winner(), Some(pos.to_move()));
            };
            expect(search_with(&PathDistance, &pos, depth));
            expect(search_with(&PathDifference, &pos, depth));
            expect(search_with(&ZeroOneBfs::default(), &pos, depth));
            expect(search_with(&TwoDistance, &pos, depth));
        }
        for (pos, block) in [(white_must_block_c5(), Cell::new(4, 2)), (six, six_block)] {
            let block = HexMove::Place(block);
            assert_eq!(search_with(&PathDistance, &pos, depth).0, block);
            assert_eq!(search_with(&PathDifference, &pos, depth).0, block);
            assert_eq!(search_with(&ZeroOneBfs::default(), &pos, depth).0, block);
            assert_eq!(search_with(&TwoDistance, &pos, depth).0, block);
        }
    }
    // A lost position (two winning cells for Black, White to move) is valued as a loss in 2.
    let mut b = *black_wins_at_c5().board();
    b.set(Cell::new(4, 1), None);
    let lost = Position::from_board(b, Color::White);
    assert_eq!(search_with(&PathDifference, &lost, 2).1, -(WIN - 2));
}

#[test]
fn difference_evaluators_are_zero_sum() {
    let mut random = RandomPlayer::new(9);
    let mut pos = Position::new(6).unwrap();
    let game = HexGame::new(6);
    while pos.winner().is_none() {
        assert_eq!(PathDifference.evaluate(&game, &pos, 0), -PathDifference.evaluate(&game, &pos, 1));
        assert_eq!(TwoDistance.evaluate(&game, &pos, 0), -TwoDistance.evaluate(&game, &pos, 1));
        let d = PathDistance.evaluate(&game, &pos, 0);
        assert!((0..=1000).contains(&d));
        pos = pos.play(random.choose_move(&pos)).unwrap();
    }
}

/// Positions from seeded random 5x5 games where the side to move can win at once, and where it
/// cannot but the opponent can at exactly one cell.
fn random_critical_positions() -> (Vec<Position>, Vec<(Position, Cell)>) {
    let (mut wins, mut blocks) = (Vec::new(), Vec::new());
    for seed in 0..200 {
        let mut random = RandomPlayer::new(seed);
        let mut pos = Position::new(5).unwrap();
        while pos.winner().is_none() {
            let me = pos.to_move();
            let mine = winning_cells(pos.board(), me);
            let theirs = winning_cells(pos.board(), me.opponent());
            if !mine.is_empty() && wins.len() < 12 {
                wins.push(pos);
            } else if mine.is_empty() && theirs.len() == 1 && blocks.len() < 12 {
                blocks.push((pos, theirs[0]));
            }
            pos = pos.play(random.choose_move(&pos)).unwrap();
        }
        if wins.len() == 12 && blocks.len() == 12 {
            break;
        }
    }
    (wins, blocks)
}

#[test]
fn every_player_wins_and_blocks_in_random_positions() {
    let (wins, blocks) = random_critical_positions();
    assert_eq!((wins.len(), blocks.len()), (12, 12));
    for mut player in seed_players(SearchConfig::default()) {
        for pos in &wins {
            let after = pos.play(player.choose_move(pos)).unwrap();
            assert_eq!(after.winner(), Some(pos.to_move()), "{} missed a win in {pos:?}", player.name());
        }
        for (pos, block) in &blocks {
            assert_eq!(
                player.choose_move(pos),
                HexMove::Place(*block),
                "{} did not block in {pos:?}",
                player.name()
            );
        }
    }
}

/// Plays one game; returns the winner. Every move must be legal.
fn play_game(black: &mut dyn HexPlayer, white: &mut dyn HexPlayer, start: Position) -> Color {
    let mut pos = start;
    while pos.winner().is_none() {
        let player: &mut dyn HexPlayer =
            if pos.to_move() == Color::Black { &mut *black } else { &mut *white };
        let mv = player.choose_move(&pos);
        pos = pos.play(mv).unwrap_or_else(|e| panic!("{} played an illegal move: {e}", player.name()));
    }
    pos.winner().unwrap()
}

#[test]
fn whole_games_against_random_are_legal() {
    for (i, name) in ["madeup", "coolcow", "bridges"].into_iter().enumerate() {
        let mut wins = 0;
        for size in [4, 5] {
            for seat in [Color::Black, Color::White] {
                for seed in 0..2 {
                    let mut player = seed_players(SearchConfig::default()).swap_remove(i);
                    let mut random = RandomPlayer::new(seed * 31 + u64::from(size));
                    let start = Position::new(size).unwrap();
                    let winner = if seat == Color::Black {
                        play_game(player.as_mut(), &mut random, start)
                    } else {
                        play_game(&mut random, player.as_mut(), start)
                    };
                    wins += u32::from(winner == seat);
                }
            }
        }
        // Not the point of the test, but a depth-3 search should hardly ever lose to random here.
        assert!(wins >= 7, "{name} won only {wins} of 8 games against random");
    }
}

#[test]
fn searches_with_a_table_or_ordering_stay_legal() {
    let config = SearchConfig::depth(3).ordered().with_table(1 << 14);
    for mut player in seed_players(config) {
        let mut random = RandomPlayer::new(5);
        play_game(player.as_mut(), &mut random, Position::new(5).unwrap());
    }
}

#[test]
fn madeup_alphabeta_chooses_as_plain_minimax() {
    let mut random = RandomPlayer::new(11);
    for size in [3, 4] {
        for game in 0..3 {
            let mut pos = Position::new(size).unwrap();
            for _ in 0..game * 2 {
                pos = pos.play(random.choose_move(&pos)).unwrap();
            }
            if pos.winner().is_some() {
                continue;
            }
            let mut fast = MadeupPlayer::default();
            let mut oracle =
                MadeupPlayer::new(MadeupConfig { plain_minimax: true, ..MadeupConfig::default() });
            assert_eq!(fast.choose_move(&pos), oracle.choose_move(&pos), "{pos:?}");
            let (a, b) = (fast.last_search().unwrap(), oracle.last_search().unwrap());
            assert_eq!(a.value, b.value);
            assert!(a.stats.leaves <= b.stats.leaves);
        }
    }
}

#[test]
fn players_are_deterministic() {
    let play = || {
        let mut moves = Vec::new();
        let mut pos = Position::new(5).unwrap();
        let mut players = seed_players(SearchConfig::depth(2));
        let mut turn = 0;
        while pos.winner().is_none() {
            let mv = players[turn % 3].choose_move(&pos);
            moves.push(mv);
            pos = pos.play(mv).unwrap();
            turn += 1;
        }
        moves
    };
    assert_eq!(play(), play());
}

#[test]
fn bridges_opens_in_the_centre_or_next_to_it() {
    let mut player = BridgesPlayer::default();
    let start = Position::new(7).unwrap();
    assert_eq!(player.decide(&start), (HexMove::Place(centre(7)), Reason::Centre));
    // White's first stone, with the centre taken: a neighbour of it.
    let pos = start.play(HexMove::Place(centre(7))).unwrap();
    let (mv, reason) = player.decide(&pos);
    assert_eq!(reason, Reason::Centre);
    assert!(centre(7).neighbours(7).any(|c| HexMove::Place(c) == mv), "{mv:?}");
    // Black's second stone forms a bridge with the first.
    let pos = pos.play(mv).unwrap();
    let (mv, reason) = player.decide(&pos);
    assert_eq!(reason, Reason::Opening);
    assert!(forms_bridge(pos.board(), place(mv), Color::Black), "{mv:?}");
}

#[test]
fn bridges_repairs_an_intruded_bridge() {
    // Black's bridge d4-e2 (carrier d3, e3); White has taken d3: Black answers e3.
    let b = board(&[
        ". . . . . . .", //
        ". . . . B . .",
        ". . . W . . .",
        ". . . B . . .",
        ". . . . W . .",
        ". . . . . . .",
        ". . . . . . .",
    ]);
    let pos = Position::from_board(b, Color::Black);
    let mut player = BridgesPlayer::default();
    assert_eq!(player.decide(&pos), (HexMove::Place(Cell::new(2, 4)), Reason::BridgeRepair));
    // The same for White, mirrored.
    let (mv, reason) = player.decide(&pos.mirrored());
    assert_eq!((mv, reason), (HexMove::Place(Cell::new(4, 2)), Reason::BridgeRepair));
}

#[test]
fn bridges_checks_critical_cells_before_repairs() {
    // Black's bridge c4-b6 (carrier b5, c5) is intruded at b5, but White threatens to win at f3:
    // block first.
    let b = board(&[
        "B . . B . .", //
        ". . B . . B",
        "W W W W W .",
        ". . B . . .",
        ". W . . . .",
        ". B . . . .",
    ]);
    let pos = Position::from_board(b, Color::Black);
    assert_eq!(bridge_repairs(pos.board(), Color::Black), vec![Cell::new(4, 2)]);
    let mut player = BridgesPlayer::default();
    assert_eq!(player.decide(&pos), (HexMove::Place(Cell::new(2, 5)), Reason::Block));
}

#[test]
fn bridges_searches_after_the_opening() {
    // The first position of a seeded random 5x5 game that is half full, with nothing critical
    // and no bridge to repair: the search decides.
    let mut random = RandomPlayer::new(3);
    let mut pos = Position::new(5).unwrap();
    let mut searched = 0;
    while pos.winner().is_none() {
        let me = pos.to_move();
        if 2 * pos.board().stones_on_board() >= 25
            && critical_cell(&pos).is_none()
            && bridge_repairs(pos.board(), me).is_empty()
        {
            let mut player = BridgesPlayer::default();
            let (mv, reason) = player.decide(&pos);
            assert_eq!(reason, Reason::Search);
            assert!(pos.play(mv).is_ok());
            assert!(player.last_search().is_some());
            searched += 1;
        }
        pos = pos.play(random.choose_move(&pos)).unwrap();
    }
    assert!(searched > 0);
}

/// A cell's name: column letter and row number, `d2` for row 1, column 3.
fn cell_name(cell: Cell) -> String {
    format!("{}{}", char::from(b'a' + cell.col), cell.row + 1)
}

/// A short round robin of the three seed players and a random player, seats swapped, run only
/// when `HEX_ROUND_ROBIN=1`:
///
/// ```text
/// HEX_ROUND_ROBIN=1 cargo test --release -p game-search-hex --test players round_robin -- --nocapture
/// ```
///
/// `HEX_ROUND_ROBIN_SIZE` (7) and `HEX_ROUND_ROBIN_DEPTH` (3) change the board and the depth.
/// Each pair plays four games: from the empty board and from a fixed first stone (d2, a losing
/// opening on 7x7), each with both seatings, so two deterministic players never replay a game.
#[test]
fn round_robin() {
    if std::env::var("HEX_ROUND_ROBIN").as_deref() != Ok("1") {
        return;
    }
    let env =
        |name: &str, default: u32| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let size = env("HEX_ROUND_ROBIN_SIZE", 7);
    let depth = env("HEX_ROUND_ROBIN_DEPTH", 3);
    let names = ["madeup", "coolcow", "bridges", "random"];
    let make = |i: usize, seed: u64| -> Box<dyn HexPlayer> {
        let config = SearchConfig::depth(depth);
        match i {
            0 => Box::new(MadeupPlayer::new(MadeupConfig { search: config, ..MadeupConfig::default() })),
            1 => Box::new(CoolcowPlayer::new(config)),
            2 => Box::new(BridgesPlayer::new(BridgesConfig { search: config, ..BridgesConfig::default() })),
            _ => Box::new(RandomPlayer::new(seed)),
        }
    };
    let openings = [None, Some(Cell::new(1, 3.min(size as u8 - 1)))];
    let mut wins = [[0u32; 4]; 4];
    let mut time = [Duration::ZERO; 4];
    let mut moves = [0u32; 4];
    let mut slowest = [Duration::ZERO; 4];
    let mut seed = 0;
    for a in 0..4 {
        for b in a + 1..4 {
            for opening in openings {
                for (black, white) in [(a, b), (b, a)] {
                    seed += 1;
                    let mut players = [make(black, seed), make(white, seed + 1000)];
                    let mut pos = Position::new(size).unwrap();
                    if let Some(cell) = opening {
                        pos = pos.play(HexMove::Place(cell)).unwrap();
                    }
                    while pos.winner().is_none() {
                        let (seat, who) = if pos.to_move() == Color::Black { (0, black) } else { (1, white) };
                        let clock = Instant::now();
                        let mv = players[seat].choose_move(&pos);
                        let spent = clock.elapsed();
                        time[who] += spent;
                        moves[who] += 1;
                        slowest[who] = slowest[who].max(spent);
                        pos = pos.play(mv).unwrap();
                    }
                    let winner = if pos.winner() == Some(Color::Black) { black } else { white };
                    let loser = if winner == black { white } else { black };
                    wins[winner][loser] += 1;
                    println!(
                        "{:>8} (B) vs {:>8} (W), opening {}: {} wins in {} moves",
                        names[black],
                        names[white],
                        opening.map_or("free".to_string(), cell_name),
                        names[winner],
                        pos.moves_played()
                    );
                }
            }
        }
    }
    println!("\n{size}x{size}, depth {depth}: wins of the row player against the column player (of 4)");
    println!(
        "{:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>14} {:>12}",
        "", names[0], names[1], names[2], names[3], "total", "ms/move", "slowest ms"
    );
    for i in 0..4 {
        let cells: Vec<String> =
            (0..4).map(|j| if i == j { "-".to_string() } else { wins[i][j].to_string() }).collect();
        let per_move = time[i].as_secs_f64() * 1000.0 / f64::from(moves[i].max(1));
        println!(
            "{:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>14.3} {:>12.1}",
            names[i],
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            wins[i].iter().sum::<u32>(),
            per_move,
            slowest[i].as_secs_f64() * 1000.0
        );
    }
}
