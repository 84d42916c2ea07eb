//! Speed of win detection, connection distances and alpha-beta search on Hex.
//!
//! Boards: for each size in [`SIZES`], [`N_BOARDS`] full boards and as many half-full ones, from a
//! fixed seed. A full board is every cell in a random order, coloured Black, White, Black, …
//! (so the counts differ by at most one, as in a game); a half-full board is the first half of
//! such an order. Nobody checks for a win while they are filled, so most boards have long chains.
//!
//! Groups, each with its throughput in elements so criterion reports operations per second:
//! - `connects/{full,half}/N`: `Board::connects` for both colours on every board (two checks a
//!   board).
//! - `distance/<function>/N`: each distance of `hex::distances` (`bfs`, `ucs`, `zero-one-bfs`,
//!   `two-distance`) for both colours on every half-full board (two evaluations a board).
//! - `alphabeta/<evaluator>/N`: fail-hard alpha-beta from `search-core` on `HexGame`, default
//!   settings (killers and history on), no table, from [`N_SEARCH_POSITIONS`] positions four
//!   random moves into a game. Two evaluators: `centre-weight`, a cheap one written here (each
//!   stone is worth more the nearer it is to the centre), which measures the search itself; and
//!   `path-difference`, the coolcow seed's `hex::heuristics::PathDifference` (a uniform-cost
//!   search for each colour at every leaf), which measures what a seed player's search costs.
//!   Searches are deterministic, so the nodes of one pass are counted before timing and criterion
//!   reports nodes per second.
//!
//! - `mcts/threads/T`: the MCTS player with the GTP engine's knowledge and priors, 20,000
//!   iterations from 9×9 after a first stone at e5, on `T` threads (root parallelism: the
//!   budget is split between the threads), so criterion reports iterations per second.
//!
//! - `mcts/fill-in/{off,on}`: the same one-thread search from a 9×9 middle game, without and
//!   with [`MctsConfig::fill_in`] (the search going on below analysed nodes from their
//!   positions with dead and captured cells filled in).
//! - `mcts/local/{off,priors,playouts,both}`: the same search with the local-response
//!   weights in the priors ([`MctsConfig::local_priors`]), in the playouts
//!   ([`MctsConfig::local_playouts`]), or both.
//! - `mcts/search/{default,rave-prior,vc-answers,inferior,dominated}`: the same search with
//!   RAVE's even prior ([`MctsConfig::rave_prior`], 10 visits), the answers to intrusions into
//!   virtual connections ([`MctsConfig::vc_answers`]), the inferior cells left out of every new
//!   node ([`MctsConfig::inferior_on_expand`]) or the dominated cells too
//!   ([`MctsConfig::dominated_on_expand`]): what each costs an iteration.
//!
//! - `net/policy/{32x6,16x4}`: the convolutional policy ([`hex::net::PolicyNet::policy`]) on
//!   the 11×11 half-full boards, a network of 32 channels and 6 layers (about 37,000 weights)
//!   and one of 16 and 4: what one call at an analysed node costs ([`MctsConfig::net`]).
//!
//! The boards' win counts and distances, and the searches' node counts, go to stderr (stdout
//! belongs to criterion: test runners read its list of benchmarks there).
//!
//! Run `cargo bench -p game-search-hex --bench hex -- --quick` for a fast estimate (a few seconds once built;
//! it draws no plots).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use hex::distances::{bfs_distance, two_distance, ucs_distance, zero_one_bfs_distance};
use hex::heuristics::PathDifference;
use hex::mcts::{MctsConfig, MctsPlayer};
use hex::{Board, Cell, Color, HexGame, HexMove, Position};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::{Evaluator, NoTable, Player, alphabeta};

/// The board sides measured.
const SIZES: [u8; 3] = [7, 11, 13];

/// Boards of each kind and size in the win-check groups.
const N_BOARDS: usize = 200;

/// Positions each alpha-beta bench searches from.
const N_SEARCH_POSITIONS: usize = 4;

/// The seed every board and position is drawn from.
const SEED: u64 = 0x4845_5842;

/// A group whose benches take a few seconds at most, even without `--quick`.
fn new_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.sample_size(20).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(1));
    group
}

/// `N_BOARDS` random full boards of side `n`, and their first halves.
fn random_boards(n: u8, rng: &mut Xoshiro256PlusPlus) -> (Vec<Board>, Vec<Board>) {
    let empty = Board::new(u32::from(n)).expect("a valid size");
    let mut full = Vec::with_capacity(N_BOARDS);
    let mut half = Vec::with_capacity(N_BOARDS);
    for _ in 0..N_BOARDS {
        let mut cells: Vec<Cell> = empty.cells().collect();
        cells.shuffle(rng);
        let mut board = empty;
        for (i, &cell) in cells.iter().enumerate() {
            if i == cells.len() / 2 {
                half.push(board);
            }
            board.set(cell, Some(if i % 2 == 0 { Color::Black } else { Color::White }));
        }
        full.push(board);
    }
    (full, half)
}

fn connects(c: &mut Criterion) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut group = new_group(c, "connects");
    group.throughput(Throughput::Elements(2 * N_BOARDS as u64));
    for n in SIZES {
        let (full, half) = random_boards(n, &mut rng);
        for (kind, boards) in [("full", &full), ("half", &half)] {
            let black = boards.iter().filter(|b| b.connects(Color::Black)).count();
            let white = boards.iter().filter(|b| b.connects(Color::White)).count();
            eprintln!("{n}x{n} {kind}: {N_BOARDS} boards, Black connects on {black}, White on {white}");
            group.bench_function(BenchmarkId::new(kind, n), |b| {
                b.iter(|| {
                    black_box(boards)
                        .iter()
                        .map(|board| {
                            usize::from(board.connects(Color::Black))
                                + usize::from(board.connects(Color::White))
                        })
                        .sum::<usize>()
                })
            });
        }
    }
    group.finish();
}

/// A colour's connection distance on a board, `None` if it is cut off.
type Distance = fn(&Board, Color) -> Option<u32>;

/// The distance functions measured, by name: each gives a colour's distance on a board (for
/// `two-distance`, the best potential).
const DISTANCES: [(&str, Distance); 4] = [
    ("bfs", bfs_distance),
    ("ucs", ucs_distance),
    ("zero-one-bfs", zero_one_bfs_distance),
    ("two-distance", |board, color| two_distance(board, color).best_potential()),
];

fn distances(c: &mut Criterion) {
    // The same boards as the win checks: the same seed, drawn in the same order.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut group = new_group(c, "distance");
    group.throughput(Throughput::Elements(2 * N_BOARDS as u64));
    for n in SIZES {
        let (_, half) = random_boards(n, &mut rng);
        for (name, distance) in DISTANCES {
            let total: u32 = half
                .iter()
                .flat_map(|b| [distance(b, Color::Black), distance(b, Color::White)])
                .map(|d| d.unwrap_or(0))
                .sum();
            eprintln!(
                "{name} on {n}x{n} half-full boards: {:.2} on average",
                f64::from(total) / (2 * N_BOARDS) as f64
            );
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| {
                    black_box(&half)
                        .iter()
                        .map(|board| {
                            distance(board, Color::Black).map_or(0, |d| d)
                                + distance(board, Color::White).map_or(0, |d| d)
                        })
                        .sum::<u32>()
                })
            });
        }
    }
    group.finish();
}

/// A win or loss: beyond every heuristic value (those stay below `n²·n` on an n×n board).
const WIN: i32 = 1_000_000;

/// Each own stone scores `n − (hex distance to the centre)`, each opponent stone the negation; a
/// win scores [`WIN`] less the plies to reach it.
#[derive(Clone, Copy, Debug)]
struct CentreWeight;

impl Evaluator<HexGame> for CentreWeight {
    type Value = i32;

    fn evaluate(&self, game: &HexGame, position: &Position, player: Player) -> i32 {
        let n = i32::from(game.size);
        let mid = (n - 1) / 2;
        let board = position.board();
        board
            .cells()
            .filter_map(|cell| {
                let colour = board.get(cell)?;
                let (dr, dc) = (i32::from(cell.row) - mid, i32::from(cell.col) - mid);
                // Distance on the hex grid, whose neighbours differ by (±1, 0), (0, ±1), ±(1, −1).
                let distance = if dr * dc < 0 { dr.abs().max(dc.abs()) } else { dr.abs() + dc.abs() };
                let weight = n - distance;
                Some(if colour.index() == player { weight } else { -weight })
            })
            .sum()
    }

    fn terminal(&self, _: &HexGame, position: &Position, player: Player, ply: u32) -> i32 {
        let score = WIN - ply as i32;
        match position.winner() {
            Some(winner) if winner.index() == player => score,
            Some(_) => -score,
            None => 0,
        }
    }
}

/// `N_SEARCH_POSITIONS` positions of side `n`, each four random moves into a game.
fn search_positions(n: u8, rng: &mut Xoshiro256PlusPlus) -> Vec<Position> {
    (0..N_SEARCH_POSITIONS)
        .map(|_| {
            let mut position = Position::new(u32::from(n)).expect("a valid size");
            for _ in 0..4 {
                let moves: Vec<HexMove> = position.legal_moves();
                position = position.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            position
        })
        .collect()
}

fn alphabeta_nodes(c: &mut Criterion) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED ^ 1);
    let mut group = new_group(c, "alphabeta");
    for n in SIZES {
        let positions = search_positions(n, &mut rng);
        // Depths that keep one pass over the positions to tens of milliseconds.
        let cheap_depth = if n <= 7 { 4 } else { 3 };
        let path_depth = if n <= 7 { 3 } else { 2 };
        bench_alphabeta(&mut group, "centre-weight", &CentreWeight, &positions, cheap_depth);
        bench_alphabeta(&mut group, "path-difference", &PathDifference, &positions, path_depth);
    }
    group.finish();
}

/// Alpha-beta to `depth` with `eval` from every position, as one iteration; the throughput is the
/// nodes of one pass.
fn bench_alphabeta<E>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    eval: &E,
    positions: &[Position],
    depth: u32,
) where
    E: Evaluator<HexGame, Value = i32>,
{
    let n = positions[0].size();
    let game = HexGame::new(n);
    let config = alphabeta::Config::depth(depth);
    let search = |p: &Position| alphabeta::search(&game, eval, p, &config, NoTable);
    let start = Instant::now();
    let nodes: u64 = positions.iter().map(|p| search(p).stats.nodes).sum();
    let elapsed = start.elapsed();
    eprintln!(
        "alpha-beta {name} {n}x{n}, depth {depth}: {nodes} nodes over {} searches, {:.0} nodes/s untimed",
        positions.len(),
        nodes as f64 / elapsed.as_secs_f64()
    );
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(BenchmarkId::new(name, n), |b| {
        b.iter(|| black_box(positions).iter().map(|p| search(p).value).sum::<i32>())
    });
}

/// Iterations of each `mcts/threads` search.
const MCTS_ITERATIONS: u64 = 20_000;

fn mcts_threads(c: &mut Criterion) {
    let mut group = new_group(c, "mcts");
    group.throughput(Throughput::Elements(MCTS_ITERATIONS));
    let start = Position::new(9).unwrap().play(HexMove::Place(Cell::new(4, 4))).unwrap();
    // The shipped engine on a fixed budget.
    let engine = MctsConfig { time: None, iterations: Some(MCTS_ITERATIONS), ..MctsConfig::engine() };
    for threads in [1, 2] {
        let config = MctsConfig { threads, ..engine };
        group.bench_function(BenchmarkId::new("threads", threads), |b| {
            // A fresh player each time: no tree kept from the last search.
            b.iter(|| MctsPlayer::new(config).decide(black_box(&start)).0)
        });
    }
    // A 9x9 middle game (ten stones of a game against MoHex), where the analysed nodes have
    // cells to fill in: the search with and without going on from the filled positions.
    let (middle, _) = hex::play_moves(9, ["a9", "e5", "d5", "c7", "b7", "c6", "b6", "c4", "b3", "b4"])
        .expect("a legal game");
    for (name, fill_in) in [("off", false), ("on", true)] {
        let config = MctsConfig { fill_in, ..engine };
        group.bench_function(BenchmarkId::new("fill-in", name), |b| {
            b.iter(|| MctsPlayer::new(config).decide(black_box(&middle)).0)
        });
    }
    // The local-response weights: in the priors they cost a little when nodes get children,
    // in the playouts a draw among the twelve cells around each last stone.
    for (name, local_priors, local_playouts) in
        [("off", false, false), ("priors", true, false), ("playouts", false, true), ("both", true, true)]
    {
        let config = MctsConfig { local_priors, local_playouts, ..engine };
        group.bench_function(BenchmarkId::new("local", name), |b| {
            b.iter(|| MctsPlayer::new(config).decide(black_box(&middle)).0)
        });
    }
    // The answers to intrusions cost one more connection build per analysed node.
    for (name, config) in [
        ("default", engine),
        ("rave-prior", MctsConfig { rave_prior: 10, ..engine }),
        ("vc-answers", MctsConfig { vc_answers: Some(1.0), ..engine }),
        ("inferior", MctsConfig { inferior_on_expand: true, ..engine }),
        ("dominated", MctsConfig { dominated_on_expand: true, ..engine }),
    ] {
        group.bench_function(BenchmarkId::new("search", name), |b| {
            b.iter(|| MctsPlayer::new(config).decide(black_box(&middle)).0)
        });
    }
    group.finish();
}

fn net_policy(c: &mut Criterion) {
    let mut group = new_group(c, "net");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let (_, half) = random_boards(11, &mut rng);
    let positions: Vec<Position> =
        half.into_iter().take(20).map(|board| Position::from_board(board, Color::Black)).collect();
    group.throughput(Throughput::Elements(positions.len() as u64));
    for (channels, layers) in [(32, 6), (16, 4)] {
        let net = hex::net::PolicyNet::random(channels, layers, SEED);
        group.bench_function(BenchmarkId::new("policy", format!("{channels}x{layers}")), |b| {
            b.iter(|| positions.iter().map(|p| net.policy(black_box(p), None).len()).sum::<usize>())
        });
    }
    group.finish();
}

/// Criterion's defaults, without the plots under `--quick`: drawing them takes most of a quick
/// run's time.
fn config() -> Criterion {
    if std::env::args().any(|arg| arg == "--quick") {
        Criterion::default().without_plots()
    } else {
        Criterion::default()
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = connects, distances, alphabeta_nodes, mcts_threads, net_policy
}
criterion_main!(benches);
