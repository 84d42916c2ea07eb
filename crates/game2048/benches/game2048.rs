//! Speed of the board's primitives on realistic positions.
//!
//! The positions are 1,000 boards from random games: each game starts from
//! `Rules::default().new_board`, plays uniformly random legal moves with the standard spawns, and
//! every position it passes through is kept with probability 1/10, until there are 1,000. The
//! games use a fixed seed, so every run measures the same boards. They are built before any timing
//! starts; a short summary of them goes to stderr (stdout belongs to criterion: test runners read
//! its list of benchmarks there).
//!
//! Groups, each with its throughput in elements so criterion reports operations per second:
//! - `board/slide`: every board slid in all four directions (4,000 slides per iteration).
//! - `board/is_terminal`: the terminal test on every board.
//! - `board/legal_moves`: the legal directions of every board, counted.
//!
//! Run `cargo bench -p game2048 --bench game2048 -- --quick` for a fast estimate.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use game2048::{Board, Direction, Rules};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The seed the positions are played from.
const SEED: u64 = 2048;

/// How many positions every bench runs over.
const N_BOARDS: usize = 1_000;

/// The chance that a position a game passes through is kept.
const KEEP_PROBABILITY: f64 = 0.1;

/// [`N_BOARDS`] positions from random games played from [`SEED`], terminal ones included.
fn positions() -> Vec<Board> {
    let rules = Rules::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut boards = Vec::with_capacity(N_BOARDS);
    let mut n_games = 0;
    while boards.len() < N_BOARDS {
        n_games += 1;
        let mut board = rules.new_board(&mut rng);
        loop {
            if boards.len() < N_BOARDS && rng.random_bool(KEEP_PROBABILITY) {
                boards.push(board);
            }
            let moves: Vec<Direction> = board.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            let direction = moves[rng.random_range(0..moves.len())];
            let moved = board.play(direction).expect("a legal move").board;
            board = rules.spawn(moved, &mut rng).expect("a legal move leaves an empty cell");
        }
    }
    let terminal = boards.iter().filter(|b| b.is_terminal()).count();
    let empty: u32 = boards.iter().map(|b| b.empty_count()).sum();
    let max_tile = boards.iter().map(|b| b.max_tile()).max().unwrap_or(0);
    eprintln!(
        "{N_BOARDS} boards from {n_games} random games: {terminal} terminal, {:.1} empty cells on average, \
         largest tile {max_tile}",
        f64::from(empty) / N_BOARDS as f64
    );
    boards
}

/// A group whose benches take a few seconds at most, even without `--quick`.
fn new_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.sample_size(30).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    group
}

/// Slides, the terminal test and the legal moves over the same positions.
fn board(c: &mut Criterion) {
    let boards = positions();
    let mut group = new_group(c, "board");

    group.throughput(Throughput::Elements((4 * boards.len()) as u64));
    group.bench_function("slide", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &board in black_box(&boards) {
                for d in Direction::ALL {
                    if let Ok(s) = board.slide(d) {
                        acc ^= s.board.raw().wrapping_add(u64::from(s.score));
                    }
                }
            }
            acc
        })
    });

    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("is_terminal", |b| {
        b.iter(|| black_box(&boards).iter().filter(|board| board.is_terminal()).count())
    });
    group.bench_function("legal_moves", |b| {
        b.iter(|| black_box(&boards).iter().map(|board| board.legal_moves().count()).sum::<usize>())
    });

    group.finish();
}

// Heuristic evaluations and agent decision times belong below, each in its own group over the same
// `positions()`, added to the `criterion_group!` list.

criterion_group!(benches, board);
criterion_main!(benches);
