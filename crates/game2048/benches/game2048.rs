//! Speed of the board's primitives, the heuristics and the agents on realistic positions.
//!
//! The primitives and heuristics run over 1,000 boards from random games: each game starts from
//! `Rules::default().new_board`, plays uniformly random legal moves with the standard spawns, and
//! every position it passes through is kept with probability 1/10, until there are 1,000. The
//! games use a fixed seed, so every run measures the same boards. They are built before any timing
//! starts; a short summary of them goes to stderr (stdout belongs to criterion: test runners read
//! its list of benchmarks there).
//!
//! The agents decide on [`N_DECISIONS`] positions of one game the strong agent plays with a cheap
//! configuration (probability cut-off 0.01) from a seeded new board: two early boards, three from
//! the middle game and three late ones with 2048 and 4096 tiles (see [`DECISION_MOVES`]). Before
//! the agents are timed, one decision of each on every position goes to stderr with its search
//! statistics, and for the strong agent a table of nodes, leaves and table hits with its table of
//! chance values and without it. When the benches only run once, as a check (`cargo test --benches`,
//! `cargo nextest run --all-targets`, unoptimised), the agents decide on the two early positions
//! alone, built by the first agent bench that runs.
//!
//! Groups, each with its throughput in elements so criterion reports operations per second:
//! - `board/slide`: every board slid in all four directions (4,000 slides per iteration).
//! - `board/is_terminal`: the terminal test on every board.
//! - `board/legal_moves`: the legal directions of every board, counted.
//! - `heuristic/<name>`: the value of every board, for `line-table` (the strong agent's) and each
//!   of the seed's heuristics (through the `SeedHeuristic` enum, as the command line uses them).
//! - `agent/<name>`: one iteration is the mean time of one decision over the decision positions
//!   (criterion is handed the time of a pass over all of them, divided by their number), so the
//!   reported time is the time per decision and the throughput is decisions per second.
//!
//! Run `cargo bench -p game-search-2048 --bench game2048 -- --quick` for a fast estimate.

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use game2048::agents::{
    Agent, Decision, Greedy, SeedConfig, SeedExpectimax, SeedMinimax, Strong, StrongConfig,
};
use game2048::heuristics::{LineTable, SeedHeuristic};
use game2048::{Board, Direction, Heuristic, Rules};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::SearchStats;

/// The seed the positions are played from.
const SEED: u64 = 2048;

/// How many positions every board and heuristic bench runs over.
const N_BOARDS: usize = 1_000;

/// The chance that a position a game passes through is kept.
const KEEP_PROBABILITY: f64 = 0.1;

/// [`N_BOARDS`] positions from random games played from [`SEED`], terminal ones included; built on
/// the first call, shared by every group.
fn positions() -> &'static [Board] {
    static POSITIONS: OnceLock<Vec<Board>> = OnceLock::new();
    POSITIONS.get_or_init(random_game_positions)
}

fn random_game_positions() -> Vec<Board> {
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
            for &board in black_box(boards) {
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
        b.iter(|| black_box(boards).iter().filter(|board| board.is_terminal()).count())
    });
    group.bench_function("legal_moves", |b| {
        b.iter(|| black_box(boards).iter().map(|board| board.legal_moves().count()).sum::<usize>())
    });

    group.finish();
}

/// The value of every board, for the strong agent's line table and for each seed heuristic.
fn heuristic(c: &mut Criterion) {
    let boards = positions();
    let mut group = new_group(c, "heuristic");
    group.throughput(Throughput::Elements(boards.len() as u64));
    bench_heuristic(&mut group, "line-table", &LineTable::default(), boards);
    for h in SeedHeuristic::ALL {
        bench_heuristic(&mut group, h.name(), &h, boards);
    }
    group.finish();
}

fn bench_heuristic<H: Heuristic>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    h: &H,
    boards: &[Board],
) {
    group.bench_function(name, |b| {
        b.iter(|| black_box(boards).iter().map(|&board| black_box(h).value(board)).sum::<f64>())
    });
}

/// The seed the decision positions' game is played from.
const DECISION_SEED: u64 = 4096;

/// How many positions the agents decide on when they are measured.
const N_DECISIONS: usize = 8;

/// After how many moves of the decision game each decision position is taken: early (a few
/// tiles), middle (256 to 1024), late (2048 and 4096 with many distinct tiles, where the strong
/// agent searches deepest).
const DECISION_MOVES: [u64; N_DECISIONS] = [8, 60, 300, 600, 1000, 1400, 1800, 2200];

/// How many of [`DECISION_MOVES`] (the first, early ones) the agents decide on when every bench
/// runs once only, as a check (`cargo test --benches`, `cargo nextest run --all-targets`): those
/// run unoptimised, where the whole game and the late positions would take minutes.
const TEST_DECISIONS: usize = 2;

/// What criterion does in this run, read from the arguments as criterion reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RunMode {
    /// `--list`: names only, no bench runs.
    List,
    /// No `--bench`, or `--test`: every bench runs once.
    Test,
    /// `cargo bench`: benches are measured (or profiled).
    Measure,
}

fn run_mode() -> RunMode {
    let has = |flag: &str| std::env::args().any(|arg| arg == flag);
    if has("--list") {
        RunMode::List
    } else if !has("--bench") || has("--test") {
        RunMode::Test
    } else {
        RunMode::Measure
    }
}

/// A decision position: the board, and the move of the game it was taken after.
#[derive(Clone, Copy, Debug)]
struct DecisionPosition {
    moves: u64,
    board: Board,
}

/// The boards after the first `count` of [`DECISION_MOVES`] in one game of the strong agent with a
/// probability cut-off of 0.01, from [`DECISION_SEED`]. Should the game end early, the positions
/// are spread over the moves it lasted in the same proportions, so there are always `count`
/// positions, each with a legal move.
fn decision_positions(count: usize) -> Vec<DecisionPosition> {
    let start = Instant::now();
    let rules = Rules::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(DECISION_SEED);
    let mut player = Strong::new(
        StrongConfig { probability_cutoff: 0.01, threads: 1, ..StrongConfig::default() },
        LineTable::default(),
    );
    let wanted = &DECISION_MOVES[..count];
    let last = wanted[count - 1];
    // Every board the player decided on, in order: history[m] is the board after m moves.
    let mut history = Vec::with_capacity(last as usize + 1);
    let mut board = rules.new_board(&mut rng);
    while history.len() as u64 <= last && !board.is_terminal() {
        history.push(board);
        let direction = player.decide(board).direction;
        let moved = board.play(direction).expect("the agent plays a legal move").board;
        board = rules.spawn(moved, &mut rng).expect("a legal move leaves an empty cell");
    }
    let played = history.len() as u64;
    let positions: Vec<DecisionPosition> = wanted
        .iter()
        .map(|&m| {
            let moves = if played > last { m } else { m * played / (last + 1) };
            DecisionPosition { moves, board: history[moves as usize] }
        })
        .collect();
    eprintln!(
        "{count} decision positions from one game of the strong agent (cprob 0.01, seed {DECISION_SEED}), \
         {played} moves played in {:.1} s:",
        start.elapsed().as_secs_f64()
    );
    let config = strong_config();
    for p in &positions {
        eprintln!(
            "  move {:>5}: largest tile {:>5}, {:>2} empty cells, {:>2} distinct tiles (strong depth {:>2})  {}",
            p.moves,
            p.board.max_tile(),
            p.board.empty_count(),
            p.board.distinct_tiles(),
            config.depth_for(p.board),
            p.board
        );
    }
    positions
}

/// The decision positions, built on the first call together with the search-effort report (on
/// agents of their own, so no timed agent has decided before it is timed).
fn prepared_positions(count: usize) -> &'static [DecisionPosition] {
    static PREPARED: OnceLock<Vec<DecisionPosition>> = OnceLock::new();
    PREPARED.get_or_init(|| {
        let positions = decision_positions(count);
        report_search_effort(&mut agents(), &positions);
        positions
    })
}

/// An agent to time, with how long criterion measures it.
struct AgentBench {
    name: &'static str,
    agent: Box<dyn Agent>,
    measurement: Duration,
}

impl AgentBench {
    fn new(name: &'static str, agent: impl Agent + 'static, measurement: Duration) -> Self {
        AgentBench { name, agent: Box::new(agent), measurement }
    }
}

/// The strong agent's configuration timed here: the defaults, serial.
fn strong_config() -> StrongConfig {
    StrongConfig { threads: 1, ..StrongConfig::default() }
}

/// The agents at the seed document's depths (original counting, partial cut, its final heuristic
/// max-sq-coef-sum), the greedy baseline and the strong agent (line table) with its table of chance values and without it.
fn agents() -> Vec<AgentBench> {
    let seed_h = SeedHeuristic::MaxSqCoefSum;
    // The seed agents decide in well under a millisecond on these positions.
    let short = Duration::from_secs(2);
    // Ten passes over the positions (about 0.45 s and 0.9 s each on one core) with some room.
    let (strong, no_table) = (Duration::from_secs(6), Duration::from_secs(12));
    vec![
        AgentBench::new("greedy", Greedy::new(LineTable::default()), short),
        AgentBench::new("minimax-original-d4", SeedMinimax::new(SeedConfig::original(4), seed_h), short),
        AgentBench::new("minimax-original-d6", SeedMinimax::new(SeedConfig::original(6), seed_h), short),
        AgentBench::new(
            "expectimax-original-d4",
            SeedExpectimax::new(SeedConfig::original(4), seed_h),
            short,
        ),
        AgentBench::new(
            "expectimax-original-d5",
            SeedExpectimax::new(SeedConfig::original(5), seed_h),
            short,
        ),
        AgentBench::new("strong", Strong::new(strong_config(), LineTable::default()), strong),
        AgentBench::new(
            "strong-no-table",
            Strong::new(StrongConfig { table_slots: 0, ..strong_config() }, LineTable::default()),
            no_table,
        ),
    ]
}

/// One decision of `agent` on every position, with the wall time of each.
fn decide_all(agent: &mut dyn Agent, positions: &[DecisionPosition]) -> Vec<(Decision, Duration)> {
    positions
        .iter()
        .map(|p| {
            let start = Instant::now();
            let decision = agent.decide(p.board);
            (decision, start.elapsed())
        })
        .collect()
}

/// Search statistics summed over a pass of decisions, and its wall time.
fn totals(pass: &[(Decision, Duration)]) -> (SearchStats, Duration) {
    pass.iter().fold((SearchStats::default(), Duration::ZERO), |(mut stats, time), (d, t)| {
        stats += d.stats;
        (stats, time + *t)
    })
}

fn per_decision(total: u64, n: usize) -> f64 {
    total as f64 / n as f64
}

/// Prints each agent's mean search effort per decision, and the strong agent's table comparison
/// position by position.
fn report_search_effort(agents: &mut [AgentBench], positions: &[DecisionPosition]) {
    let n = positions.len();
    eprintln!("search effort per decision (mean over the {n} positions, one untimed pass):");
    let mut passes = Vec::with_capacity(agents.len());
    for bench in agents.iter_mut() {
        let pass = decide_all(bench.agent.as_mut(), positions);
        let (stats, time) = totals(&pass);
        eprintln!(
            "  {:<24} {:>12.0} nodes {:>12.0} leaves {:>10.0} chance cut-offs {:>10.0} policy cut-offs  {:>9.3} ms",
            bench.name,
            per_decision(stats.nodes, n),
            per_decision(stats.leaves, n),
            per_decision(stats.chance_cutoffs, n),
            per_decision(stats.policy_cutoffs, n),
            time.as_secs_f64() * 1e3 / n as f64,
        );
        passes.push((bench.name, pass));
    }

    let find = |name: &str| passes.iter().find(|(n, _)| *n == name).map(|(_, pass)| pass);
    let (Some(on), Some(off)) = (find("strong"), find("strong-no-table")) else { return };
    eprintln!("strong agent, chance table on vs off, per position:");
    eprintln!(
        "  {:>5} {:>5} {:>12} {:>12} {:>12} {:>12} {:>10} {:>9} {:>9}  same move",
        "move", "depth", "nodes on", "nodes off", "leaves on", "leaves off", "table hits", "ms on", "ms off"
    );
    let config = strong_config();
    for ((p, (a, ta)), (b, tb)) in positions.iter().zip(on).zip(off) {
        eprintln!(
            "  {:>5} {:>5} {:>12} {:>12} {:>12} {:>12} {:>10} {:>9.2} {:>9.2}  {}",
            p.moves,
            config.depth_for(p.board),
            a.stats.nodes,
            b.stats.nodes,
            a.stats.leaves,
            b.stats.leaves,
            a.stats.tt_hits,
            ta.as_secs_f64() * 1e3,
            tb.as_secs_f64() * 1e3,
            if a.direction == b.direction { "yes" } else { "no" },
        );
    }
    let ((a, ta), (b, tb)) = (totals(on), totals(off));
    let saving = |with: u64, without: u64| 100.0 * (1.0 - with as f64 / without.max(1) as f64);
    eprintln!(
        "  the table saves {:.1}% of the nodes, {:.1}% of the leaves and {:.1}% of the time ({} table hits in all)",
        saving(a.nodes, b.nodes),
        saving(a.leaves, b.leaves),
        100.0 * (1.0 - ta.as_secs_f64() / tb.as_secs_f64().max(f64::MIN_POSITIVE)),
        a.tt_hits,
    );
}

/// Time per decision of every agent over the decision positions.
fn agent(c: &mut Criterion) {
    let mode = run_mode();
    let count = if mode == RunMode::Measure { N_DECISIONS } else { TEST_DECISIONS };
    if mode == RunMode::Measure {
        // Before any agent is timed. Otherwise the positions are built by the first agent bench
        // that runs, if one does: listing the benches, or running only others, builds nothing.
        prepared_positions(count);
    }

    let mut group = c.benchmark_group("agent");
    // A pass of the strong agent takes about half a second: ten flat samples are enough.
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(500));
    group.throughput(Throughput::Elements(1));
    for mut bench in agents() {
        group.measurement_time(bench.measurement);
        let agent = bench.agent.as_mut();
        group.bench_function(bench.name, |b| {
            // An iteration is one decision on each position; criterion is handed the mean.
            b.iter_custom(|iters| {
                let positions = prepared_positions(count);
                let n = u32::try_from(positions.len()).expect("a handful of positions");
                let start = Instant::now();
                for _ in 0..iters {
                    for p in positions {
                        black_box(agent.decide(black_box(p.board)));
                    }
                }
                start.elapsed() / n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, board, heuristic, agent);
criterion_main!(benches);
