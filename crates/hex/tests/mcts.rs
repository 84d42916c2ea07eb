//! The MCTS player: its rules (win, block), the bridge reply in playouts, determinism for a seed
//! and an iteration budget, short games against the random player, and (ignored) the equal-time
//! matches its docs report.

use std::time::{Duration, Instant};

use hex::mcts::{HexPlayout, MctsConfig, MctsPlayer, MctsReason};
use hex::players::{BridgesPlayer, CoolcowPlayer, MadeupPlayer};
use hex::strong::{StrongConfig, StrongPlayer};
use hex::{Cell, Color, HexGame, HexMove, HexPlayer, Position, RandomPlayer};
use rand::{RngExt, SeedableRng};
use search_core::mcts::{McRng, Playout};

mod common;

use common::{place, position};

#[test]
fn takes_an_immediate_win() {
    let pos = position(5, &[(0, 2), (1, 2), (2, 2), (3, 2)], &[(0, 0), (1, 0), (2, 0), (3, 0)], Color::Black);
    let mut player = MctsPlayer::new(MctsConfig::iterations(100));
    let mv = player.choose_move(&pos);
    assert_eq!(pos.play(mv).unwrap().winner(), Some(Color::Black));
    assert_eq!(player.last_reason(), Some(MctsReason::Win));
}

#[test]
fn blocks_an_immediate_loss() {
    let pos = position(5, &[(0, 0), (1, 0), (2, 0), (3, 0)], &[(0, 2), (1, 2), (2, 3)], Color::White);
    let mut player = MctsPlayer::new(MctsConfig::iterations(100));
    assert_eq!(player.choose_move(&pos), place(4, 0));
    assert_eq!(player.last_reason(), Some(MctsReason::Block));
}

#[test]
fn playouts_answer_a_bridge_intrusion() {
    // 7x7: Black's bridge d4–e2 has the carrier d3, e3; White has just intruded at d3.
    let pos = position(7, &[(3, 3), (1, 4)], &[(2, 3), (3, 1)], Color::Black);
    let game = HexGame::new(7);
    for seed in 0..20 {
        let mut trace = vec![(1, place(2, 3))];
        HexPlayout::new(true).playout(&game, &pos, &mut McRng::seed_from_u64(seed), &mut trace);
        assert_eq!(trace[1], (0, place(2, 4)), "seed {seed}");
        assert_eq!(trace.len(), 1 + 45);
    }
    // Without the pattern the first move is random.
    let firsts: Vec<_> = (0..20)
        .map(|seed| {
            let mut trace = vec![(1, place(2, 3))];
            HexPlayout::new(false).playout(&game, &pos, &mut McRng::seed_from_u64(seed), &mut trace);
            trace[1]
        })
        .collect();
    assert!(firsts.iter().any(|&m| m != (0, place(2, 4))));
}

/// The first playout move after `intruder`, for each of 20 seeds.
fn first_replies(pos: &Position, intruder: HexMove, edge_bridges: bool) -> Vec<HexMove> {
    let game = HexGame::new(pos.size());
    let mover = pos.to_move().opponent().index();
    (0..20)
        .map(|seed| {
            let mut trace = vec![(mover, intruder)];
            let mut playout = HexPlayout::new(true).with_edge_bridges(edge_bridges);
            playout.playout(&game, pos, &mut McRng::seed_from_u64(seed), &mut trace);
            trace[1].1
        })
        .collect()
}

#[test]
fn playouts_keep_a_bridge_to_the_own_edge_on_every_edge() {
    // 7x7, Black joins the top and bottom rows, White the left and right columns. Each case: a
    // stone one row (column) from its own edge, the opponent on one of the two cells between
    // them, and the other cell, the only answer that keeps the stone joined to its edge.
    let cases = [
        ("top", position(7, &[(1, 3)], &[(0, 3)], Color::Black), place(0, 3), place(0, 4)),
        ("bottom", position(7, &[(5, 3)], &[(6, 2)], Color::Black), place(6, 2), place(6, 3)),
        ("left", position(7, &[(3, 0)], &[(3, 1)], Color::White), place(3, 0), place(4, 0)),
        ("right", position(7, &[(2, 6)], &[(3, 5)], Color::White), place(2, 6), place(3, 6)),
    ];
    for (edge, pos, intruder, answer) in cases {
        assert!(first_replies(&pos, intruder, true).iter().all(|&m| m == answer), "{edge}");
        // Without edge bridges the edge is not a stone, and the first move is random.
        assert!(first_replies(&pos, intruder, false).iter().any(|&m| m != answer), "{edge}");
    }
}

#[test]
fn playouts_do_not_count_the_opponents_edge_as_a_bridge() {
    // White one row from the top, which is Black's edge: Black's stone between them breaks
    // nothing of White's, so White's first move stays random.
    let pos = position(7, &[(0, 3)], &[(1, 3)], Color::White);
    assert!(first_replies(&pos, place(0, 3), true).iter().any(|&m| m != place(0, 4)));
    // Off the corner a1 lies a place beyond both edges, nobody's stone: with Black on b1 and
    // White taking a1, a2 would join b1 only to that place, so it is no bridge reply.
    let pos = position(7, &[(0, 1)], &[(0, 0)], Color::Black);
    assert!(first_replies(&pos, place(0, 0), true).iter().any(|&m| m != place(1, 0)));
    // Whereas Black on a2 with White on a1 is a bridge to the top edge, kept by b1.
    let pos = position(7, &[(1, 0)], &[(0, 0)], Color::Black);
    assert!(first_replies(&pos, place(0, 0), true).iter().all(|&m| m == place(0, 1)));
}

#[test]
fn playout_winner_matches_the_board() {
    let game = HexGame::new(6);
    let start = Position::new(6).unwrap();
    for seed in 0..50 {
        let mut trace = Vec::new();
        let rewards =
            HexPlayout::new(true).playout(&game, &start, &mut McRng::seed_from_u64(seed), &mut trace);
        let mut pos = start;
        for &(_, mv) in &trace {
            if pos.winner().is_some() {
                break;
            }
            pos = pos.play(mv).unwrap();
        }
        assert_eq!(rewards[usize::from(pos.winner().unwrap().index())], 1.0, "seed {seed}");
    }
}

#[test]
fn deterministic_for_a_seed_and_iterations() {
    let pos = Position::new(5).unwrap().play(place(2, 2)).unwrap();
    let config = MctsConfig { seed: 9, ..MctsConfig::iterations(300) };
    let (mut a, mut b) = (MctsPlayer::new(config), MctsPlayer::new(config));
    assert_eq!(a.choose_move(&pos), b.choose_move(&pos));
    let (ra, rb) = (a.last_result().unwrap(), b.last_result().unwrap());
    // Everything but the time taken.
    assert_eq!(
        (&ra.moves, ra.iterations, ra.nodes, ra.value),
        (&rb.moves, rb.iterations, rb.nodes, rb.value)
    );
}

/// Plays one game; returns the winner.
fn play_game(start: Position, black: &mut dyn HexPlayer, white: &mut dyn HexPlayer) -> Color {
    let mut pos = start;
    while pos.winner().is_none() {
        let mv =
            if pos.to_move() == Color::Black { black.choose_move(&pos) } else { white.choose_move(&pos) };
        pos = pos.play(mv).unwrap();
    }
    pos.winner().unwrap()
}

#[test]
fn beats_the_random_player_on_5x5() {
    for seed in 0..2 {
        let start = Position::new(5).unwrap();
        let mut mcts = MctsPlayer::new(MctsConfig { seed, ..MctsConfig::iterations(300) });
        let mut random = RandomPlayer::new(seed);
        assert_eq!(play_game(start, &mut mcts, &mut random), Color::Black);
        assert_eq!(play_game(start, &mut random, &mut mcts), Color::White);
    }
}

/// The 95% Wilson score interval of `wins` in `n`.
fn wilson(wins: u32, n: u32) -> (f64, f64) {
    search_core::arena::wilson(f64::from(wins), u64::from(n))
}

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The MCTS settings of the ignored matches: the defaults with `time` a move, unless
/// `MCTS_C` (exploration), `MCTS_RAVE` (`0` for plain UCT) or `MCTS_BRIDGES` (`0` for none) say
/// otherwise.
fn config(seed: u64, time: Duration) -> MctsConfig {
    let default = MctsConfig::time(time);
    let rave: f64 = env("MCTS_RAVE", default.rave.unwrap_or(0.0));
    MctsConfig {
        seed,
        exploration: env("MCTS_C", default.exploration),
        rave: (rave > 0.0).then_some(rave),
        bridge_replies: env("MCTS_BRIDGES", 1) != 0,
        ..default
    }
}

/// `MCTS_OPPONENT` (strong, madeup, coolcow, bridges, random), `MCTS_GAMES` (pairs × 2),
/// `MCTS_SIZE`, `MCTS_MS` (time a move for both MCTS and the strong player): pairs of games from
/// a shared random opening stone, MCTS Black in one and White in the other. Run in release:
/// `cargo test --release -p game-search-hex --test mcts -- --ignored --nocapture match_against`.
#[test]
#[ignore]
fn match_against() {
    let opponent: String = env("MCTS_OPPONENT", "strong".to_string());
    let games: u32 = env("MCTS_GAMES", 20);
    let size: u8 = env("MCTS_SIZE", 9);
    let time = Duration::from_millis(env("MCTS_MS", 200));
    let mut rng = McRng::seed_from_u64(env("MCTS_SEED", 1));
    let (mut wins, mut played) = (0, 0);
    for pair in 0..games.div_ceil(2) {
        let cell = Cell::new(rng.random_range(0..size), rng.random_range(0..size));
        let start = Position::new(u32::from(size)).unwrap().play(HexMove::Place(cell)).unwrap();
        for mcts_colour in [Color::Black, Color::White] {
            let mut mcts = MctsPlayer::new(config(u64::from(pair), time));
            let mut other: Box<dyn HexPlayer> = match opponent.as_str() {
                "strong" => Box::new(StrongPlayer::new(StrongConfig::time(time))),
                "madeup" => Box::new(MadeupPlayer::default()),
                "coolcow" => Box::new(CoolcowPlayer::default()),
                "bridges" => Box::new(BridgesPlayer::default()),
                _ => Box::new(RandomPlayer::new(u64::from(pair))),
            };
            let clock = Instant::now();
            let winner = if mcts_colour == Color::Black {
                play_game(start, &mut mcts, other.as_mut())
            } else {
                play_game(start, other.as_mut(), &mut mcts)
            };
            played += 1;
            wins += u32::from(winner == mcts_colour);
            println!(
                "game {played}: opening {cell:?}, mcts {} {}, {:.1} s",
                mcts_colour.name(),
                if winner == mcts_colour { "won" } else { "lost" },
                clock.elapsed().as_secs_f64()
            );
        }
    }
    let (lo, hi) = wilson(wins, played);
    println!(
        "{:?} vs {opponent} on {size}x{size} at {} ms: {wins}/{played} ({:.1}–{:.1} %)",
        config(0, time),
        time.as_millis(),
        100.0 * lo,
        100.0 * hi
    );
}

/// Playouts a second from the empty board (`MCTS_SIZE`), with bridge replies.
#[test]
#[ignore]
fn playout_speed() {
    let size: u8 = env("MCTS_SIZE", 9);
    let game = HexGame::new(size);
    let start = Position::new(u32::from(size)).unwrap();
    let mut playout = HexPlayout::new(true);
    let mut rng = McRng::seed_from_u64(1);
    let mut trace = Vec::new();
    let clock = Instant::now();
    let n = 100_000;
    for _ in 0..n {
        trace.clear();
        playout.playout(&game, &start, &mut rng, &mut trace);
    }
    let per_second = f64::from(n) / clock.elapsed().as_secs_f64();
    let mut player = MctsPlayer::new(MctsConfig::time(Duration::from_millis(1000)));
    player.choose_move(&start);
    let found = player.last_result().unwrap();
    println!(
        "{size}x{size}: {per_second:.0} playouts/s alone; {} MCTS iterations in {:.2} s",
        found.iterations,
        found.elapsed.as_secs_f64()
    );
}

#[test]
fn knowledge_limits_the_root_to_the_cells_the_solver_keeps() {
    use hex::solver::{Analysis, Solver, SolverConfig};
    let mut solver = Solver::new(SolverConfig::default());
    for moves in [&["e5"][..], &["a1", "e5", "d4"], &["c3", "e5", "d6", "f4", "c7"]] {
        let (pos, _) = hex::play_moves(9, moves.iter().copied()).unwrap();
        let config = MctsConfig { knowledge_after: Some(200), ..MctsConfig::iterations(2_000) };
        let mut player = MctsPlayer::new(config);
        let mv = player.choose_move(&pos);
        let searched: Vec<HexMove> = player.last_result().unwrap().moves.iter().map(|m| m.mv).collect();
        let kept = match solver.analyse(&pos).unwrap() {
            Analysis::Open { moves, .. } => moves,
            other => panic!("{moves:?}: {other:?}"),
        };
        assert!(searched.len() < pos.legal_moves().len(), "{moves:?}: nothing pruned");
        assert!(searched.iter().all(|m| matches!(m, HexMove::Place(c) if kept.contains(c))), "{moves:?}");
        assert!(searched.contains(&mv));
        // The knowledge was asked at the root and at nodes visited 200 times.
        assert!(player.knowledge().calls > 1);
        // The same seed and budget give the same move.
        assert_eq!(MctsPlayer::new(config).choose_move(&pos), mv);
    }
}

#[test]
fn without_knowledge_or_on_large_boards_every_move_is_searched() {
    for (size, knowledge) in [(9, None), (12, Some(100))] {
        let pos = Position::new(size).unwrap().play(place(0, 0)).unwrap();
        let mut player =
            MctsPlayer::new(MctsConfig { knowledge_after: knowledge, ..MctsConfig::iterations(500) });
        player.choose_move(&pos);
        assert_eq!(player.last_result().unwrap().moves.len(), pos.legal_moves().len());
        // On 12x12 the knowledge is asked (for chains of bridges) but prunes nothing here.
        assert_eq!(player.knowledge().calls > 0, knowledge.is_some(), "{size}");
    }
}

#[test]
fn on_large_boards_a_bridge_chain_proves_a_node() {
    // 12x12 (past the solver's 11x11), White to move: Black's stones f2, e4, d6, c8, b10-b11
    // are joined by bridges and reach both edges by edge bridges, all twelve carrier cells
    // apart: lost for White whatever it plays, which the knowledge proves at the root.
    let black: Vec<(u8, u8)> = vec![(1, 5), (3, 4), (5, 3), (7, 2), (9, 1), (10, 1)];
    let white: Vec<(u8, u8)> = vec![(0, 0), (0, 10), (10, 10), (5, 8), (6, 9), (11, 11)];
    let pos = position(12, &black, &white, Color::White);
    assert!(hex::bridge_chain::proved_win(&pos, Color::Black).is_some());
    let mut player =
        MctsPlayer::new(MctsConfig { knowledge_after: Some(50), ..MctsConfig::iterations(1_000) });
    let mv = player.choose_move(&pos);
    // The search looks only inside Black's carriers, where White's resistance is.
    let result = player.last_result().unwrap();
    assert_eq!(result.moves.len(), 12);
    assert!(result.moves.iter().any(|m| m.mv == mv));
    // Black to move in the same position wins whatever it plays: proved at the root, no search.
    let black_to_move = position(12, &black, &white, Color::Black);
    player.choose_move(&black_to_move);
    assert_eq!(player.last_result().unwrap().iterations, 0);
}

#[test]
fn the_solver_share_plays_a_proved_win() {
    use hex::solver::{Solver, SolverConfig};
    // 6x6 after a few moves: the side to move wins, but not in one move.
    let (pos, _) = hex::play_moves(6, ["c3", "d4", "d3"]).unwrap();
    let winning = Solver::new(SolverConfig::default()).winning_moves(&pos).unwrap();
    assert!(!winning.is_empty() && hex::heuristics::critical_cell(&pos).is_none());
    let mut player =
        MctsPlayer::new(MctsConfig { solver_share: Some(0.9), ..MctsConfig::time(Duration::from_secs(20)) });
    let started = Instant::now();
    let mv = player.choose_move(&pos);
    assert_eq!(player.last_reason(), Some(MctsReason::Solved));
    assert!(winning.contains(&mv), "{mv:?} is not among {winning:?}");
    // Proved long before the time was up.
    assert!(started.elapsed() < Duration::from_secs(18));
    // An iteration budget has no time to share: no solver.
    let mut counted = MctsPlayer::new(MctsConfig { solver_share: Some(0.9), ..MctsConfig::iterations(300) });
    counted.choose_move(&pos);
    assert_eq!(counted.last_reason(), Some(MctsReason::Search));
    // 33 empty cells: a solver kept to 32 or fewer does not go, one kept to 33 does.
    let reason = |solver_empty, time| {
        let config = MctsConfig { solver_share: Some(0.9), solver_empty, ..MctsConfig::time(time) };
        let mut player = MctsPlayer::new(config);
        player.choose_move(&pos);
        player.last_reason()
    };
    assert_eq!(reason(32, Duration::from_millis(200)), Some(MctsReason::Search));
    assert_eq!(reason(33, Duration::from_secs(20)), Some(MctsReason::Solved));
}

#[test]
fn with_two_threads_the_solver_beside_the_search_plays_a_proved_win() {
    use hex::solver::{Solver, SolverConfig};
    let (pos, _) = hex::play_moves(6, ["c3", "d4", "d3"]).unwrap();
    let winning = Solver::new(SolverConfig::default()).winning_moves(&pos).unwrap();
    let config =
        MctsConfig { threads: 2, solver_share: Some(0.3), ..MctsConfig::time(Duration::from_secs(20)) };
    let mut player = MctsPlayer::new(config);
    let started = Instant::now();
    let mv = player.choose_move(&pos);
    assert_eq!(player.last_reason(), Some(MctsReason::Solved));
    assert!(winning.contains(&mv), "{mv:?} is not among {winning:?}");
    // The proof ended the search on the other thread long before the time was up.
    assert!(started.elapsed() < Duration::from_secs(18));
    assert!(player.last_result().unwrap().elapsed < Duration::from_secs(18));
    // Beyond `solver_beside_empty` (33 empty cells here), both threads search, and the solver
    // first goes only where it would with one thread (here nowhere: `solver_empty` 0).
    let config = MctsConfig {
        solver_beside_empty: 32,
        solver_empty: 0,
        ..MctsConfig::time(Duration::from_millis(200))
    };
    let mut searched = MctsPlayer::new(MctsConfig { threads: 2, solver_share: Some(0.3), ..config });
    searched.choose_move(&pos);
    assert_eq!(searched.last_reason(), Some(MctsReason::Search));
    assert!(searched.last_result().unwrap().iterations > 0);
}

#[test]
fn by_default_a_second_thread_solves_beside_the_search_near_the_end() {
    use hex::gtp::Settings;
    use hex::mcts::DEFAULT_SOLVER_BESIDE_EMPTY;
    // Random games on 9x9 and 11x11 (the solver's sizes) and 13x13 (beyond them): with two
    // threads the solver runs beside the search exactly where at most
    // `DEFAULT_SOLVER_BESIDE_EMPTY` cells are empty, nowhere on 13x13, and never with one thread.
    let config = Settings::default().mcts_config();
    let two = MctsPlayer::new(MctsConfig { threads: 2, ..config });
    let one = MctsPlayer::new(MctsConfig { threads: 1, ..config });
    let mut rng = McRng::seed_from_u64(74);
    for size in [9u32, 11, 13] {
        let mut pos = Position::new(size).unwrap();
        let (mut beside, mut searched) = (0, 0);
        while pos.winner().is_none() {
            let empty = size.pow(2) - pos.board().stones_on_board();
            let expected = size <= 11 && empty <= DEFAULT_SOLVER_BESIDE_EMPTY && !pos.can_swap();
            assert_eq!(two.solves_beside(&pos), expected, "{size}x{size} with {empty} empty cells");
            assert!(!one.solves_beside(&pos));
            if expected {
                beside += 1
            } else {
                searched += 1
            }
            let moves: Vec<HexMove> = pos.legal_moves().into_iter().filter(|m| *m != HexMove::Swap).collect();
            pos = pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        // Both kinds of positions were met on the solver's sizes.
        assert!(searched > 0 && (size > 11 || beside > 0), "{size}x{size}: {searched} / {beside}");
    }
}

#[test]
fn priors_steer_the_first_visits_without_pruning_or_the_solver() {
    // Black's bridge c3–d4 is cut at d3; the pattern priors point at the save, c4, so with few
    // playouts it gets more of the root's visits with them than without.
    let pos = ["c3", "a9", "d4", "d3"].iter().fold(Position::new(9).unwrap(), |p, m| {
        p.play(HexMove::Place(hex::parse_cell(m, 9).unwrap())).unwrap()
    });
    let save = Cell::new(3, 2);
    let visits = |prior_weight: Option<f64>| {
        let mut player = MctsPlayer::new(MctsConfig { prior_weight, seed: 3, ..MctsConfig::iterations(400) });
        player.choose_move(&pos);
        let result = player.last_result().unwrap();
        // Priors prune nothing, and without knowledge the solver is never asked.
        assert_eq!(result.moves.len(), pos.legal_moves().len());
        assert_eq!(player.knowledge().calls, 0);
        result.moves.iter().find(|m| m.mv == HexMove::Place(save)).unwrap().visits
    };
    let (with, without) = (visits(Some(3.0)), visits(None));
    assert!(with > without, "the save got {with} visits with priors, {without} without");
    // Deterministic with priors too.
    assert_eq!(visits(Some(3.0)), with);
}

/// The visits of the root moves of the player's last search.
fn root_visits(player: &MctsPlayer) -> u64 {
    player.last_result().expect("a search").moves.iter().map(|m| u64::from(m.visits)).sum()
}

#[test]
fn a_kept_tree_carries_the_visits_of_the_move_and_reply_played() {
    let start = Position::new(7).unwrap().play(HexMove::Place(Cell::new(3, 3))).unwrap();
    for reuse_tree in [false, true] {
        let config = MctsConfig { reuse_tree, knowledge_after: Some(50), ..MctsConfig::iterations(3_000) };
        let mut player = MctsPlayer::new(config);
        let mine = player.choose_move(&start);
        assert_eq!(root_visits(&player), 3_000);
        // A reply the first search explored: the one a search from there chooses.
        let after = start.play(mine).unwrap();
        let reply = MctsPlayer::new(MctsConfig::iterations(3_000)).choose_move(&after);
        let next = after.play(reply).unwrap();
        player.choose_move(&next);
        let visits = root_visits(&player);
        if reuse_tree {
            assert!(visits > 3_000, "the kept subtree added nothing: {visits}");
        } else {
            assert_eq!(visits, 3_000);
        }
        // A position that does not follow from the last one starts afresh.
        let other = Position::new(7).unwrap().play(HexMove::Place(Cell::new(0, 0))).unwrap();
        player.choose_move(&other);
        assert_eq!(root_visits(&player), 3_000);
    }
}

/// The moves of a game `config`'s player plays against itself from `start`, to the end.
fn self_play(config: MctsConfig, start: Position) -> Vec<HexMove> {
    let mut player = MctsPlayer::new(config);
    let mut position = start;
    let mut moves = Vec::new();
    while position.winner().is_none() {
        let mv = player.choose_move(&position);
        moves.push(mv);
        position = position.play(mv).unwrap();
    }
    moves
}

#[test]
fn a_kept_tree_plays_the_same_game_for_a_seed() {
    let play = || {
        self_play(MctsConfig { reuse_tree: true, ..MctsConfig::iterations(400) }, Position::new(5).unwrap())
    };
    assert_eq!(play(), play());
}

/// A 6×6 game of the MCTS player of `config`, playing `ours`, against the random player of
/// `seed`: the moves and the winner.
fn against_random(config: MctsConfig, ours: Color, seed: u64) -> (Vec<HexMove>, Color) {
    let mut player = MctsPlayer::new(config);
    let mut random = RandomPlayer::new(seed);
    let mut pos = Position::new(6).unwrap();
    let mut moves = Vec::new();
    while pos.winner().is_none() {
        let mv = if pos.to_move() == ours { player.choose_move(&pos) } else { random.choose_move(&pos) };
        moves.push(mv);
        pos = pos.play(mv).unwrap();
    }
    (moves, pos.winner().unwrap())
}

/// Two threads share an iteration budget and play the same game for a seed, with knowledge,
/// priors and kept trees, and still beat the random player; one thread is the serial player.
#[test]
fn two_threads_share_the_budget_and_play_the_same_game_for_a_seed() {
    let config = MctsConfig {
        threads: 2,
        knowledge_after: Some(50),
        prior_weight: Some(3.0),
        reuse_tree: true,
        ..MctsConfig::iterations(600)
    };
    let (moves, winner) = against_random(config, Color::Black, 4);
    assert_eq!(winner, Color::Black);
    assert_eq!(against_random(config, Color::Black, 4), (moves, winner));
    // Each search spends the budget over both threads (a search the knowledge decides at the
    // root spends none).
    let mut player = MctsPlayer::new(MctsConfig { reuse_tree: false, ..config });
    let start = Position::new(7).unwrap().play(HexMove::Place(Cell::new(3, 3))).unwrap();
    player.choose_move(&start);
    assert_eq!(player.last_result().unwrap().iterations, 600);
    assert_eq!(root_visits(&player), 600);
    // One thread: the serial player's move and statistics.
    let one = MctsConfig { threads: 1, reuse_tree: false, ..config };
    let (mut a, mut b) = (MctsPlayer::new(one), MctsPlayer::new(MctsConfig { threads: 0, ..one }));
    assert_eq!(a.choose_move(&start), b.choose_move(&start));
    assert_eq!(a.last_result().unwrap().moves, b.last_result().unwrap().moves);
}

/// With the local answers on, in the priors and the playouts, the player still plays whole
/// games, the same for a seed on one thread and on two with a kept tree, and beats the random
/// player from either colour.
#[test]
fn local_answers_play_the_same_game_for_a_seed_and_beat_the_random_player() {
    for (threads, reuse_tree) in [(1, false), (2, true)] {
        let config = MctsConfig {
            threads,
            reuse_tree,
            knowledge_after: Some(50),
            prior_weight: Some(3.0),
            local_priors: true,
            local_playouts: true,
            seed: 9,
            ..MctsConfig::iterations(600)
        };
        for ours in [Color::Black, Color::White] {
            let (moves, winner) = against_random(config, ours, 7);
            assert_eq!(winner, ours, "{threads} threads: {moves:?}");
            assert_eq!(against_random(config, ours, 7), (moves, winner));
        }
    }
}

#[test]
fn filled_in_nodes_play_legal_games_alone_with_a_kept_tree_and_on_two_threads() {
    // The knowledge early and often, so that many nodes are analysed and filled in; a move
    // grown from a position before its fill-in would be played on a filled cell, which the
    // debug build's `play_unchecked` refuses. The games must also be whole and the same for
    // a seed.
    let play = |reuse_tree: bool, threads: usize| {
        let config = MctsConfig {
            fill_in: true,
            reuse_tree,
            threads,
            knowledge_after: Some(8),
            seed: 5,
            ..MctsConfig::iterations(1_500)
        };
        self_play(config, Position::new(6).unwrap().play(HexMove::Place(Cell::new(0, 2))).unwrap())
    };
    for (reuse_tree, threads) in [(false, 1), (true, 1), (false, 2)] {
        let game = play(reuse_tree, threads);
        assert!(game.len() >= 5, "{game:?}");
        assert_eq!(game, play(reuse_tree, threads));
    }
}

#[test]
fn the_fill_in_changes_the_search_below_analysed_nodes() {
    // 7x7 after a few moves, analysed after 8 visits: the fill-in changes what the playouts see,
    // so the root's statistics differ from the search without it (same seed and budget).
    let (pos, _) = hex::play_moves(7, ["d4", "c5", "e2", "b6", "f2"]).unwrap();
    let stats = |fill_in| {
        let config = MctsConfig { fill_in, knowledge_after: Some(8), ..MctsConfig::iterations(3_000) };
        let mut player = MctsPlayer::new(config);
        player.choose_move(&pos);
        player.last_result().unwrap().moves.iter().map(|m| (m.mv, m.visits)).collect::<Vec<_>>()
    };
    assert_ne!(stats(true), stats(false));
}

/// Checks a pruning at new nodes, `config(true)` on and `config(false)` off: games stay whole
/// and legal and the same for a seed (alone, with the fill-in and a kept tree, and on two
/// threads), and the search below the root changes.
fn check_pruning_at_new_nodes(config: impl Fn(bool) -> MctsConfig) {
    let start = Position::new(6).unwrap().play(HexMove::Place(Cell::new(1, 3))).unwrap();
    for (fill_in, reuse_tree, threads) in [(false, false, 1), (true, true, 1), (false, false, 2)] {
        let c = MctsConfig { fill_in, reuse_tree, threads, ..config(true) };
        let game = self_play(c, start);
        assert!(game.len() >= 5, "{game:?}");
        assert_eq!(game, self_play(c, start));
    }
    let (pos, _) = hex::play_moves(7, ["d4", "c5", "e2", "b6", "f2"]).unwrap();
    let stats = |on| {
        let mut player = MctsPlayer::new(config(on));
        player.choose_move(&pos);
        player.last_result().unwrap().moves.iter().map(|m| (m.mv, m.visits)).collect::<Vec<_>>()
    };
    assert_ne!(stats(true), stats(false));
}

/// The inferior cells left out of every new node, against the plain search.
#[test]
fn inferior_cells_out_of_new_nodes_play_legal_games_and_change_the_search() {
    check_pruning_at_new_nodes(|inferior_on_expand| MctsConfig {
        inferior_on_expand,
        knowledge_after: Some(50),
        seed: 9,
        ..MctsConfig::iterations(1_500)
    });
}

/// The dominated cells left out as well, against the inferior cells alone.
#[test]
fn dominated_cells_out_of_new_nodes_play_legal_games_and_change_the_search() {
    check_pruning_at_new_nodes(|dominated_on_expand| MctsConfig {
        inferior_on_expand: true,
        dominated_on_expand,
        knowledge_after: Some(50),
        seed: 9,
        ..MctsConfig::iterations(1_500)
    });
}

/// Positions of side 5 after a few seeded random moves, the game not over.
fn seeded_positions(count: u64) -> Vec<Position> {
    (0..count)
        .map(|seed| {
            let mut rng = McRng::seed_from_u64(seed);
            let mut pos = Position::new(5).unwrap();
            for _ in 0..rng.random_range(2..9) {
                let moves = pos.legal_moves();
                let next = pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
                if next.winner().is_some() {
                    break;
                }
                pos = next;
            }
            pos
        })
        .collect()
}

#[test]
fn verify_passes_over_the_moves_the_solver_proves_losing() {
    // A search of two iterations picks nearly at random; checking every move with the solver
    // (which decides 5x5 positions at once) leaves only winning moves where the mover wins.
    let quick = MctsConfig {
        time: Some(Duration::from_secs(2)),
        iterations: Some(2),
        solver_share: None,
        ..MctsConfig::default()
    };
    let checked = MctsConfig { verify: Some(0.5), verify_moves: 25, ..quick };
    let mut solver = hex::solver::Solver::new(hex::solver::SolverConfig::default());
    let (mut won, mut unchecked_lost) = (0, 0);
    for pos in seeded_positions(40) {
        let winning = solver.winning_moves(&pos).unwrap();
        if winning.is_empty() {
            continue;
        }
        won += 1;
        let mut player = MctsPlayer::new(checked);
        let mv = player.choose_move(&pos);
        assert!(winning.contains(&mv), "{mv:?} in {pos:?}");
        for rejected in player.last_rejected() {
            assert!(!winning.contains(rejected), "{rejected:?} rejected in {pos:?}");
        }
        if !winning.contains(&MctsPlayer::new(quick).choose_move(&pos)) {
            unchecked_lost += 1;
        }
    }
    assert!(won >= 20, "{won} won positions");
    // Without the check the same search throws wins away.
    assert!(unchecked_lost > 0);
}

#[test]
fn verify_needs_a_time_limit_and_changes_nothing_without_one() {
    let pos = Position::new(5).unwrap().play(place(2, 2)).unwrap();
    let plain = MctsConfig { seed: 4, ..MctsConfig::iterations(200) };
    let checked = MctsConfig { verify: Some(0.5), ..plain };
    let mut player = MctsPlayer::new(checked);
    assert_eq!(player.choose_move(&pos), MctsPlayer::new(plain).choose_move(&pos));
    assert!(player.last_rejected().is_empty());
}

#[test]
fn proof_attempts_below_the_root_prove_only_what_the_solver_proves() {
    // 6x6 middle games: a search with the knowledge and proof attempts at nodes reached five
    // times; every root move it reports proved must be what the exact solver says, and the
    // attempts must prove something.
    let config = MctsConfig {
        seed: 3,
        knowledge_after: Some(20),
        prove_after: Some(5),
        prove_nodes: 200,
        prove_empty: 36,
        ..MctsConfig::iterations(1_500)
    };
    let mut solver = hex::solver::Solver::new(hex::solver::SolverConfig::default());
    let (mut found, mut checked) = (0, 0);
    for seed in 0..8 {
        let mut rng = McRng::seed_from_u64(seed);
        let mut pos = Position::new(6).unwrap();
        for _ in 0..rng.random_range(4..10) {
            let moves = pos.legal_moves();
            let next = pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
            if next.winner().is_some() {
                break;
            }
            pos = next;
        }
        let mut player = MctsPlayer::new(config);
        let (mv, reason) = player.decide(&pos);
        found += player.knowledge().proofs_found;
        assert!(player.knowledge().proof_calls >= player.knowledge().proofs_found);
        // The same seed, the same move.
        assert_eq!(MctsPlayer::new(config).decide(&pos), (mv, reason));
        let Some(result) = player.last_result() else { continue };
        for stats in &result.moves {
            let Some(winner) = stats.winner else { continue };
            let next = pos.play(stats.mv).unwrap();
            let truth = solver.solve(&next).unwrap().verdict.winner().unwrap();
            assert_eq!(winner, truth.index(), "{:?} after {pos:?}", stats.mv);
            checked += 1;
        }
    }
    assert!(found > 0 && checked > 0, "{found} proofs, {checked} root moves checked");
    // Without `prove_after`, no attempt; without the knowledge, none either.
    let pos = Position::new(6).unwrap().play(place(2, 3)).unwrap();
    for config in [MctsConfig { prove_after: None, ..config }, MctsConfig { knowledge_after: None, ..config }]
    {
        let mut player = MctsPlayer::new(config);
        player.decide(&pos);
        assert_eq!(player.knowledge().proof_calls, 0);
    }
}

#[test]
fn the_static_evaluation_mixed_into_playouts_favours_the_side_closer_to_connecting() {
    use hex::play_moves;
    // Black (top to bottom) holds most of the c column; White's stones are scattered.
    let (position, _) = play_moves(7, ["c2", "a1", "c3", "g7", "c4", "a7", "c5", "g1"]).unwrap();
    let game = HexGame::new(7);
    let black = Color::Black.index() as usize;
    let mut pure = HexPlayout::new(true).with_eval_mix(1.0, 0.5);
    let mut half = HexPlayout::new(true).with_eval_mix(0.5, 0.5);
    let mut plain = HexPlayout::new(true);
    for seed in 0..20 {
        let rewards = pure.playout(&game, &position, &mut McRng::seed_from_u64(seed), &mut Vec::new());
        // The evaluation alone: the same for every playout, and Black's by a wide margin.
        assert!(rewards[black] > 0.8, "{rewards:?}");
        assert!((rewards[0] + rewards[1] - 1.0).abs() < 1e-9);
        // Half of it: the plain result moved halfway towards the evaluation.
        let mixed = half.playout(&game, &position, &mut McRng::seed_from_u64(seed), &mut Vec::new());
        let result = plain.playout(&game, &position, &mut McRng::seed_from_u64(seed), &mut Vec::new());
        assert!((mixed[black] - (0.5 * result[black] + 0.5 * rewards[black])).abs() < 1e-9);
    }
    // A share of 0 is the plain playout.
    let mut none = HexPlayout::new(true).with_eval_mix(0.0, 0.5);
    let a = none.playout(&game, &position, &mut McRng::seed_from_u64(7), &mut Vec::new());
    let b = plain.playout(&game, &position, &mut McRng::seed_from_u64(7), &mut Vec::new());
    assert_eq!(a, b);
}

/// `MctsConfig::playout_weights` plays with the weights it is given: the shipped playout
/// weights given as a file's play exactly as `playout_patterns` does, and weights that favour
/// one pattern heavily change the search.
#[test]
fn playout_weights_replace_the_shipped_ones() {
    use hex::patterns::PatternWeights;
    let (position, _) = hex::play_moves(7, ["d4", "c5"]).unwrap();
    let search = |config: MctsConfig| root_moves(&position, config);
    let base = MctsConfig { seed: 4, ..MctsConfig::iterations(2_000) };
    let shipped = search(MctsConfig { playout_patterns: true, ..base });
    let given = search(MctsConfig { playout_weights: Some(PatternWeights::shipped_playout()), ..base });
    assert_eq!(shipped, given);
    // Every cell with an empty ring a thousand times as likely: not the shipped playouts.
    let skewed: &'static PatternWeights = Box::leak(Box::new(PatternWeights::from_pairs([(0, 1000.0)])));
    let other = search(MctsConfig { playout_weights: Some(skewed), ..base });
    assert_ne!(shipped, other);
    assert_ne!(search(base), other);
}

/// `MctsConfig::answer_factors` plays with the factors it is given: factors of 1 leave the
/// weighted playouts as they were, move for move, and factors that favour answering one shape
/// heavily change the search.
#[test]
fn answer_factors_answer_the_last_move() {
    use hex::patterns::{PatternWeights, local};
    let (position, cells) = hex::play_moves(7, ["d4", "c5"]).unwrap();
    let search = |config: MctsConfig| root_moves(&position, config);
    let flat: &'static PatternWeights = Box::leak(Box::new(PatternWeights::default()));
    let base = MctsConfig { seed: 4, playout_weights: Some(flat), ..MctsConfig::iterations(2_000) };
    let weighted = search(base);
    assert_eq!(weighted, search(MctsConfig { answer_factors: Some(flat), ..base }));
    // The cell beside White's c5 on its other side, answered a thousand times as often.
    let beside = hex::parse_cell("b5", 7).unwrap();
    let key = local(&position, beside, cells[1]).expect("b5 is one of c5's twelve");
    let skewed: &'static PatternWeights = Box::leak(Box::new(PatternWeights::from_pairs([(key, 1000.0)])));
    assert_ne!(weighted, search(MctsConfig { answer_factors: Some(skewed), ..base }));
}

/// The root's moves and their visits after one search of `config` from `position`.
fn root_moves(position: &Position, config: MctsConfig) -> Vec<(HexMove, u32)> {
    let mut player = MctsPlayer::new(config);
    player.decide(position);
    let result = player.last_result().expect("a search ran").clone();
    result.moves.iter().map(|m| (m.mv, m.visits)).collect()
}
