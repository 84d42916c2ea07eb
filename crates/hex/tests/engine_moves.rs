//! The shipped engine (`hex-gtp`'s default MCTS player, `MctsConfig::engine()`) plays the
//! moves recorded in `data/engine-moves.txt`: 24 positions of 9x9 and 11x11, each searched with
//! a fixed seed and a fixed number of iterations (no clock, so the answer is the same on every
//! machine). The solver, with its default settings, expands the numbers of nodes recorded in
//! `data/solver-nodes.txt` on the positions of `data/solve-positions-ci.txt` and on the 6x6
//! openings of the first row. A restructuring
//! of the engine or the solver must keep both; a change meant to play or search differently
//! records them anew:
//!
//! ```text
//! ENGINE_MOVES_RECORD=1 cargo test --release -p game-search-hex --test engine_moves
//! ```
//!
//! With a time limit instead of iterations, the engine also runs the exact solver first near the
//! end of a game, which a fixed iteration budget leaves out.

use hex::gtp::Settings;
use hex::mcts::{MctsConfig, MctsPlayer};
use hex::solver::{Solver, SolverConfig};
use hex::{HexMove, HexPlayer, Position, move_name, play_moves};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Where the recorded moves are kept.
const RECORD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engine-moves.txt");

/// Where the solver's recorded node counts are kept, and the positions they are of.
const SOLVER_RECORD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/solver-nodes.txt");
const SOLVER_POSITIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/solve-positions-ci.txt");
/// Harder positions beside those, from the solver's benchmark set: the 6x6 openings on the first
/// row, which take the solver hundreds to thousands of nodes.
const SOLVER_MORE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/solve-positions.txt");

/// Iterations per searched move.
const ITERATIONS: u64 = 800;

/// The shipped engine's settings with a fixed iteration budget in place of its time.
fn engine() -> MctsPlayer {
    let config = MctsConfig { time: None, iterations: Some(ITERATIONS), ..MctsConfig::engine() };
    MctsPlayer::new(config)
}

#[test]
fn the_gtp_default_is_the_engine() {
    assert_eq!(Settings::default().mcts_config(), MctsConfig::engine());
}

/// Twelve openings of 2 to 13 random stones on each of 9x9 and 11x11, from a fixed seed.
fn openings() -> Vec<(u32, Vec<String>)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(81);
    let mut out = Vec::new();
    for size in [9u32, 11] {
        for k in 0..12 {
            let stones = 2 + k;
            let mut position = Position::new(size).unwrap();
            let mut names = Vec::new();
            while names.len() < stones {
                let places: Vec<HexMove> =
                    position.legal_moves().into_iter().filter(|m| matches!(m, HexMove::Place(_))).collect();
                let mv = places[rng.random_range(0..places.len())];
                position = position.play(mv).unwrap();
                names.push(move_name(mv));
            }
            assert!(position.winner().is_none());
            out.push((size, names));
        }
    }
    out
}

/// The engine's move in each opening, a fresh engine each time, as `size moves -> move` lines.
fn engine_moves() -> Vec<String> {
    openings()
        .into_iter()
        .map(|(size, names)| {
            let (position, _) = play_moves(size, names.iter().map(String::as_str)).unwrap();
            let mv = engine().choose_move(&position);
            format!("{size} {} -> {}", names.join(","), move_name(mv))
        })
        .collect()
}

/// Compares `found` with the lines recorded at `path` (comments and blank lines aside), or,
/// with `ENGINE_MOVES_RECORD` set, records them there under the comment `header`.
fn check_or_record(path: &str, header: &str, found: &[String], what: &str) {
    if std::env::var_os("ENGINE_MOVES_RECORD").is_some() {
        let mut text = format!("# {header} (see tests/engine_moves.rs)\n");
        for line in found {
            text.push_str(line);
            text.push('\n');
        }
        std::fs::write(path, text).unwrap();
        return;
    }
    let recorded: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    assert_eq!(found, recorded.as_slice(), "{what} changed");
}

#[test]
fn the_engine_plays_its_recorded_moves() {
    let found = engine_moves();
    assert_eq!(found.len(), 24);
    check_or_record(RECORD, "size, opening -> the shipped engine's move", &found, "the engine's moves");
}

/// The solver's verdict and nodes on each CI position (`NAME SIZE MOVE...` lines), a fresh
/// solver with the default settings each time.
fn solver_nodes() -> Vec<String> {
    let ci = std::fs::read_to_string(SOLVER_POSITIONS).unwrap();
    let more = std::fs::read_to_string(SOLVER_MORE).unwrap();
    let first_row = more
        .lines()
        .filter(|l| l.starts_with("6x6-") && l.split_whitespace().nth(2).is_some_and(|m| m.ends_with('1')));
    ci.lines()
        .chain(first_row)
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next().unwrap();
            let size: u32 = words.next().unwrap().parse().unwrap();
            let (position, _) = play_moves(size, words).unwrap();
            let solution = Solver::new(SolverConfig::default()).solve(&position).unwrap();
            format!("{name} {:?} nodes {}", solution.verdict, solution.stats.nodes)
        })
        .collect()
}

#[test]
fn the_solver_expands_its_recorded_nodes() {
    let found = solver_nodes();
    let header = "position, verdict and nodes of the default solver";
    check_or_record(SOLVER_RECORD, header, &found, "the solver's verdicts or node counts");
}
