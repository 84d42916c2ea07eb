//! A same-run comparison of `search_core` against the `minimax` crate (edre/minimax-rs 0.6) on
//! Connect Four.
//!
//! Both crates search one implementation of the game (`examples/connect_four/game.rs`): the same
//! rules, the same window-count evaluator, the same move order (centre first). The `minimax`
//! traits are static, so the board is wrapped in a unit struct ([`C4`]) and an evaluator struct
//! ([`Eval`]) that call the same functions as `search_core`'s [`ConnectFour`] and [`Windows`].
//! `minimax` is a dev-dependency of this crate only, for this bench; the library never uses it.
//!
//! What it measures, on 20 seeded random positions (6 to 12 random plies, none over and none with
//! a win in one for the side to move), the two crates alternating position by position (ours
//! first on odd positions, theirs first on even ones):
//!
//! 1. fixed-depth alpha-beta at depth 8 (`alphabeta::search`, no table, vs `minimax::Negamax`);
//! 2. the same at depth 10;
//! 3. iterative deepening to depth 12 with a fresh 16 MiB table per position, one thread
//!    (`iterative::search` vs `minimax::IterativeSearch`);
//! 4. the same on two threads (`parallel::iterative_search` vs `minimax::ParallelSearch`), with
//!    each crate's speed-up over its own row 3;
//! 5. MCTS with random playouts at equal iterations (time), then a match at equal time per move.
//!
//! Only the search call is timed: building `minimax`'s strategy objects and our tables is left
//! out for both. Each row runs twice, and the time of a position is the minimum of its two runs.
//! `minimax` reports no node counts, so a separate, untimed pass counts the positions its
//! searches make (calls to `apply`); ours are `stats.nodes`.
//!
//! Run it with
//!
//! ```text
//! cargo bench -p game-search-core --bench vs_minimax
//! cargo bench -p game-search-core --bench vs_minimax -- --games 50 --ms 10
//! ```
//!
//! Options after `--`: `--games N` (match games, default 200), `--ms N` (time per move in the
//! match, default 20), `--iterations N` (MCTS iterations in row 5, default 20,000), `--runs N`
//! (repetitions of each row, default 2), `--seed N` (positions and searches, default 2026).
//!
//! Without `--bench` in its arguments (`cargo test`, `cargo nextest run`) it runs a small smoke
//! version instead and checks that the fixed-depth values agree; `--list` lists that one test.

// The example, the tests and this bench share the game; this bench uses only part of it.
#[path = "../examples/connect_four/game.rs"]
#[allow(dead_code)]
mod game;

use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use game::{Board, COLUMN_ORDER, COLUMNS, ConnectFour, Windows};
use minimax::{
    IterativeOptions, IterativeSearch, MCTSOptions, MonteCarloTreeSearch, Negamax, ParallelOptions,
    ParallelSearch, Strategy, Winner,
};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::agent::{Agent, MctsAgent};
use search_core::arena::{self, MatchConfig};
use search_core::mcts::{self, RandomPlayout};
use search_core::{
    Limits, NoTable, Rewards, TranspositionTable, alphabeta, draw, iterative, parallel, win_for,
};

/// The table size for both crates in rows 3 and 4.
const TABLE_MIB: usize = 16;

/// `minimax`'s UCT score is `wins/n + 1.0 · √(2 · log₂ N / n)`; ours is `mean + c · √(ln N / n)`
/// on the same 0–1 scale, so `c = √(2 / ln 2)` ≈ 1.699 gives the same exploration term.
fn uct_exploration() -> f64 {
    (2.0 / std::f64::consts::LN_2).sqrt()
}

// ---------------------------------------------------------------------------------------------
// The game for `minimax`.

/// Positions `minimax` made (its `apply` calls) in a counting pass.
static APPLIES: AtomicU64 = AtomicU64::new(0);

/// Connect Four for `minimax`'s static traits. With `COUNT` every `apply` adds one to
/// [`APPLIES`]; the timed passes use `C4<false>`, where the counter compiles away.
struct C4<const COUNT: bool>;

impl<const COUNT: bool> minimax::Game for C4<COUNT> {
    type S = Board;
    type M = u8;

    fn generate_moves(board: &Board, moves: &mut Vec<u8>) -> Option<Winner> {
        if let Some(winner) = Self::get_winner(board) {
            return Some(winner);
        }
        // The same columns in the same order as `ConnectFour::moves`.
        let top = board.occupied();
        moves.extend(COLUMN_ORDER.iter().copied().filter(|&c| top & game::cell(c, game::ROWS - 1) == 0));
        None
    }

    fn apply(board: &mut Board, column: u8) -> Option<Board> {
        if COUNT {
            APPLIES.fetch_add(1, Ordering::Relaxed);
        }
        Some(board.after(column))
    }

    fn get_winner(board: &Board) -> Option<Winner> {
        if board.won {
            Some(Winner::PlayerJustMoved)
        } else if board.plies == game::CELLS {
            Some(Winner::Draw)
        } else {
            None
        }
    }

    fn zobrist_hash(board: &Board) -> u64 {
        board.hash
    }
}

/// The window-count evaluator for `minimax`, from the side to move (negamax style): the same
/// function as [`Windows::evaluate`].
#[derive(Clone, Copy)]
struct Eval<const COUNT: bool>;

impl<const COUNT: bool> minimax::Evaluator for Eval<COUNT> {
    type G = C4<COUNT>;

    fn evaluate(&self, board: &Board) -> minimax::Evaluation {
        // At most ±1,863: always fits.
        board.score(board.to_move()) as i16
    }
}

// ---------------------------------------------------------------------------------------------
// Positions.

/// `n` positions from `seed`: 6 to 12 uniformly random columns from the empty board, rejecting
/// sequences with an illegal column, finished games, and positions where the side to move wins
/// at once (their values would be trivial).
fn positions(n: usize, seed: u64) -> Vec<(Vec<u8>, Board)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let plies = rng.random_range(6..=12);
        let mut moves = Vec::with_capacity(plies);
        let mut board = Board::new();
        let mut legal = true;
        for _ in 0..plies {
            let column = rng.random_range(0..COLUMNS);
            if !board.can_play(column) {
                legal = false;
                break;
            }
            board = board.after(column);
            moves.push(column);
        }
        let win_in_one = || (0..COLUMNS).any(|c| board.can_play(c) && board.after(c).won);
        if legal && !board.is_over() && !win_in_one() {
            out.push((moves, board));
        }
    }
    out
}

/// Each player's reward at the end of a game: 1 the winner, 0 the loser, ½ each for a draw.
fn rewards(board: &Board) -> Rewards {
    match board.winner() {
        Some(winner) => win_for(winner),
        None => draw(),
    }
}

// ---------------------------------------------------------------------------------------------
// Rows 1–4: alpha-beta.

/// What a row searches.
#[derive(Clone, Copy)]
enum Kind {
    /// Fixed-depth alpha-beta, no table.
    Fixed(u32),
    /// Iterative deepening to a depth with a fresh table per position, on some threads.
    Iterative { depth: u32, threads: usize },
}

impl Kind {
    fn label(self) -> String {
        match self {
            Kind::Fixed(depth) => format!("fixed depth {depth}"),
            Kind::Iterative { depth, threads: 1 } => format!("iterative to {depth}, {TABLE_MIB} MiB table"),
            Kind::Iterative { depth, threads } => {
                format!("iterative to {depth}, {TABLE_MIB} MiB table, {threads} threads")
            }
        }
    }
}

/// Row 4's search: lazy parallel iterative deepening sharing `table`, the same result type as
/// `iterative::search`. (It builds its rayon pool inside the call, so that cost is timed; it is
/// small against a search of hundreds of milliseconds.)
fn our_parallel_iterative(
    board: &Board,
    config: &iterative::Config,
    threads: usize,
    table: &TranspositionTable<i32>,
) -> iterative::IterativeResult<u8, i32> {
    let config = parallel::IterativeConfig { search: *config, threads };
    parallel::iterative_search(&ConnectFour, &Windows, board, &config, table)
}

/// Our search of `board`: value, nodes, time of the search call alone.
fn ours(kind: Kind, board: &Board) -> (i32, u64, Duration) {
    match kind {
        Kind::Fixed(depth) => {
            let config = alphabeta::Config::depth(depth);
            let start = Instant::now();
            let found = alphabeta::search(&ConnectFour, &Windows, board, &config, NoTable);
            let time = start.elapsed();
            (found.value, found.stats.nodes, time)
        }
        Kind::Iterative { depth, threads } => {
            let table = TranspositionTable::<i32>::with_megabytes(TABLE_MIB);
            let config = iterative::Config { limits: Limits::depth(depth), ..Default::default() };
            let start = Instant::now();
            let found = if threads == 1 {
                iterative::search(&ConnectFour, &Windows, board, &config, &table)
            } else {
                our_parallel_iterative(board, &config, threads, &table)
            };
            let time = start.elapsed();
            (found.result.value, found.result.stats.nodes, time)
        }
    }
}

/// `minimax`'s table options: the same bytes as our table.
fn their_options() -> IterativeOptions {
    IterativeOptions::new().with_table_byte_size(TABLE_MIB << 20)
}

/// `minimax`'s search of `board`: its root value and the time of `choose_move` alone.
fn theirs<const COUNT: bool>(kind: Kind, board: &Board) -> (i16, Duration) {
    fn timed<S: Strategy<C4<C>>, const C: bool>(strategy: &mut S, board: &Board) -> Duration {
        let start = Instant::now();
        let best = strategy.choose_move(board);
        let time = start.elapsed();
        assert!(best.is_some(), "minimax found no move at {board:?}");
        time
    }
    match kind {
        Kind::Fixed(depth) => {
            let mut negamax = Negamax::new(Eval::<COUNT>, depth as u8);
            let time = timed(&mut negamax, board);
            (negamax.root_value(), time)
        }
        Kind::Iterative { depth, threads: 1 } => {
            let mut search = IterativeSearch::new(Eval::<COUNT>, their_options());
            search.set_max_depth(depth as u8);
            let time = timed(&mut search, board);
            (search.root_value(), time)
        }
        Kind::Iterative { depth, threads } => {
            let par = ParallelOptions::new().with_num_threads(threads);
            let mut search = ParallelSearch::new(Eval::<COUNT>, their_options(), par);
            search.set_max_depth(depth as u8);
            let time = timed(&mut search, board);
            (search.root_value(), time)
        }
    }
}

/// The positions `minimax` makes searching `board`, in an untimed pass.
fn their_nodes(kind: Kind, board: &Board) -> u64 {
    APPLIES.store(0, Ordering::Relaxed);
    theirs::<true>(kind, board);
    APPLIES.load(Ordering::Relaxed)
}

/// `minimax`'s `root_value` reports every win as `BEST_EVAL` and every loss as `WORST_EVAL`
/// (it undoes the one-a-ply shrinking that makes quicker wins score higher), so our
/// `WIN - ply` is mapped the same way before comparing.
fn on_their_scale(value: i32) -> i32 {
    let best = i32::from(minimax::BEST_EVAL);
    if value > best - 100 {
        best
    } else if value < -best + 100 {
        -best
    } else {
        value
    }
}

/// One row's measurements per position.
struct RowResult {
    kind: Kind,
    time_ours: Vec<Duration>,
    time_theirs: Vec<Duration>,
    nodes_ours: Vec<u64>,
    nodes_theirs: Vec<u64>,
    value_ours: Vec<i32>,
    value_theirs: Vec<i16>,
    /// Positions where a crate's value changed between runs.
    unstable: usize,
}

impl RowResult {
    fn total(times: &[Duration]) -> Duration {
        times.iter().sum()
    }

    /// Positions where the values are equal, ours mapped to their reporting scale.
    fn agree(&self) -> usize {
        self.value_ours
            .iter()
            .zip(&self.value_theirs)
            .filter(|&(&o, &t)| on_their_scale(o) == i32::from(t))
            .count()
    }

    /// Positions where the values are equal as they are.
    fn agree_exact(&self) -> usize {
        self.value_ours.iter().zip(&self.value_theirs).filter(|&(&o, &t)| o == i32::from(t)).count()
    }
}

/// Runs a row `runs` times over `boards`, alternating which crate goes first, keeping the
/// minimum time per position; values and our nodes from the first run, their nodes from a
/// counting pass after it.
fn run_row(kind: Kind, boards: &[Board], runs: usize) -> RowResult {
    let n = boards.len();
    let mut row = RowResult {
        kind,
        time_ours: vec![Duration::MAX; n],
        time_theirs: vec![Duration::MAX; n],
        nodes_ours: vec![0; n],
        nodes_theirs: vec![0; n],
        value_ours: vec![0; n],
        value_theirs: vec![0; n],
        unstable: 0,
    };
    for run in 0..runs {
        for (i, board) in boards.iter().enumerate() {
            // Ours first on positions 1, 3, …, theirs first on 2, 4, … (index 0 is position 1).
            let ((value_o, nodes_o, time_o), (value_t, time_t)) = if i % 2 == 0 {
                let o = ours(kind, board);
                (o, theirs::<false>(kind, board))
            } else {
                let t = theirs::<false>(kind, board);
                (ours(kind, board), t)
            };
            row.time_ours[i] = row.time_ours[i].min(time_o);
            row.time_theirs[i] = row.time_theirs[i].min(time_t);
            if run == 0 {
                row.value_ours[i] = value_o;
                row.value_theirs[i] = value_t;
                row.nodes_ours[i] = nodes_o;
            } else if value_o != row.value_ours[i] || value_t != row.value_theirs[i] {
                row.unstable += 1;
            }
        }
    }
    for (i, board) in boards.iter().enumerate() {
        row.nodes_theirs[i] = their_nodes(kind, board);
    }
    row
}

// ---------------------------------------------------------------------------------------------
// Row 5: MCTS.

/// Our MCTS settings: plain UCT (no RAVE), `minimax`'s exploration, and its expansion: a leaf
/// gets its children when an iteration reaches it a second time, and each iteration adds one
/// node and plays out from it (minimax's `rollouts_before_expanding` 0 is our `expand_after`
/// 1; our default 0 expands every node an iteration reaches, a whole line to the game's end).
fn our_mcts_config(seed: u64) -> mcts::Config {
    mcts::Config { exploration: uct_exploration(), seed, expand_after: 1, ..mcts::Config::default() }
}

/// Row 5's timing: total times and how often the two chose the same move.
struct MctsRow {
    iterations: u64,
    time_ours: Vec<Duration>,
    time_theirs: Vec<Duration>,
    same_move: usize,
    /// Our iterations per position (fewer than asked where the search proved the root).
    iterations_ours: Vec<u64>,
}

fn run_mcts(boards: &[Board], iterations: u64, runs: usize, seed: u64) -> MctsRow {
    let n = boards.len();
    let mut row = MctsRow {
        iterations,
        time_ours: vec![Duration::MAX; n],
        time_theirs: vec![Duration::MAX; n],
        same_move: 0,
        iterations_ours: vec![0; n],
    };
    let config = mcts::Config { iterations: Some(iterations), ..our_mcts_config(seed) };
    let rollouts = u32::try_from(iterations).unwrap_or(u32::MAX);
    for run in 0..runs {
        for (i, board) in boards.iter().enumerate() {
            let run_ours = || {
                let mut playout = RandomPlayout::new(rewards);
                let start = Instant::now();
                let found = mcts::search(&ConnectFour, board, &mut playout, &config);
                (start.elapsed(), found.best_move, found.iterations)
            };
            let run_theirs = || {
                let mut strategy =
                    MonteCarloTreeSearch::<C4<false>>::new(MCTSOptions::default().with_num_threads(1));
                strategy.set_max_rollouts(rollouts);
                let start = Instant::now();
                let best = strategy.choose_move(board);
                (start.elapsed(), best)
            };
            let ((time_o, move_o, iters), (time_t, move_t)) = if i % 2 == 0 {
                let o = run_ours();
                (o, run_theirs())
            } else {
                let t = run_theirs();
                (run_ours(), t)
            };
            row.time_ours[i] = row.time_ours[i].min(time_o);
            row.time_theirs[i] = row.time_theirs[i].min(time_t);
            if run == 0 {
                row.same_move += usize::from(move_o == move_t);
                row.iterations_ours[i] = iters;
            }
        }
    }
    row
}

/// `minimax`'s MCTS as an agent, with a fixed time per move, one thread.
struct TheirMcts {
    strategy: MonteCarloTreeSearch<C4<false>>,
}

impl TheirMcts {
    fn new(time: Duration) -> Self {
        let mut strategy = MonteCarloTreeSearch::new(MCTSOptions::default().with_num_threads(1));
        strategy.set_timeout(time);
        TheirMcts { strategy }
    }
}

impl Agent<ConnectFour> for TheirMcts {
    fn name(&self) -> String {
        "minimax MCTS".to_string()
    }

    fn choose(&mut self, _: &ConnectFour, board: &Board) -> u8 {
        self.strategy.choose_move(board).expect("minimax MCTS found no move")
    }

    fn set_time_limit(&mut self, time: Duration) -> bool {
        self.strategy.set_timeout(time);
        true
    }
}

/// A match at equal time per move: `games` games (pairs with seats swapped) from the empty board
/// with 4 random opening plies.
fn run_match(games: usize, per_move: Duration, seed: u64) -> arena::MatchResult<Board, u8> {
    let mut ours = MctsAgent::new(
        "search-core MCTS",
        RandomPlayout::new(rewards),
        mcts::Config { iterations: None, time: Some(per_move), ..our_mcts_config(seed) },
    );
    let mut theirs = TheirMcts::new(per_move);
    let starts = vec![Board::new(); games.div_ceil(2)];
    let config = MatchConfig { seed, opening_plies: 4, ..MatchConfig::default() };
    arena::play_match(&ConnectFour, &starts, &mut ours, &mut theirs, &config, |_, board| rewards(board))
}

// ---------------------------------------------------------------------------------------------
// Report.

/// The settings of one run.
struct Settings {
    positions: usize,
    rows: Vec<Kind>,
    runs: usize,
    iterations: u64,
    games: usize,
    per_move: Duration,
    seed: u64,
}

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

/// `YYYY-MM-DD HH:MM UTC` of the system clock (days to civil date after Howard Hinnant).
fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rest / 3_600, rest % 3_600 / 60)
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, model)| model.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// Runs everything in `settings`, prints the report and returns the rows (the smoke test checks
/// them).
fn compare(settings: &Settings) -> Vec<RowResult> {
    let started = Instant::now();
    let threads = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!("# search-core vs minimax 0.6 on Connect Four\n");
    println!("- machine: {threads} hardware threads (nproc), {}", cpu_model());
    println!("- date: {}", utc_now());
    println!("- command: {}", std::env::args().collect::<Vec<_>>().join(" "));
    println!(
        "- {} positions from seed {}; each row run {} time(s), both crates alternating position by \
         position; time per position = minimum over the runs; only the search call is timed (building \
         minimax's strategy objects and our tables excluded for both)",
        settings.positions, settings.seed, settings.runs
    );
    println!(
        "- nodes: ours `stats.nodes`; minimax's `apply` calls counted in a separate untimed pass (its \
         root moves are shuffled by a thread RNG, so its counts and times vary a little from run to run)\n"
    );

    let positions = positions(settings.positions, settings.seed);
    println!("## Positions (columns 0–6 from the left, from the empty board)\n");
    for (i, (moves, board)) in positions.iter().enumerate() {
        let list: Vec<String> = moves.iter().map(u8::to_string).collect();
        println!(
            "{:>2}. [{}] ({} plies, player {} to move)",
            i + 1,
            list.join(", "),
            moves.len(),
            board.to_move()
        );
    }
    println!();
    let boards: Vec<Board> = positions.iter().map(|(_, b)| *b).collect();

    let rows: Vec<RowResult> =
        settings.rows.iter().map(|&kind| run_row(kind, &boards, settings.runs)).collect();

    println!("## Alpha-beta (one thread unless stated)\n");
    println!(
        "| row | search | ours total ms | minimax total ms | ours/minimax | nodes ours | nodes minimax | values agree | agree exactly |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (r, row) in rows.iter().enumerate() {
        let (to, tt) = (RowResult::total(&row.time_ours), RowResult::total(&row.time_theirs));
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.2} | {} | {} | {}/{n} | {}/{n} |",
            r + 1,
            row.kind.label(),
            ms(to),
            ms(tt),
            to.as_secs_f64() / tt.as_secs_f64(),
            row.nodes_ours.iter().sum::<u64>(),
            row.nodes_theirs.iter().sum::<u64>(),
            row.agree(),
            row.agree_exact(),
            n = boards.len(),
        );
    }
    println!(
        "\n\"values agree\": equal after mapping our decisive values `±(32768 − ply)` to minimax's \
         `root_value` scale, which reports every win as +32767 and every loss as −32767; \"agree \
         exactly\": equal as returned."
    );
    for row in &rows {
        if row.unstable > 0 {
            println!("- {}: {} position(s) changed value between runs", row.kind.label(), row.unstable);
        }
    }
    // Row 4's speed-up over row 3, for each crate.
    if let (Some(serial), Some(par)) = (
        rows.iter().find(|r| matches!(r.kind, Kind::Iterative { threads: 1, .. })),
        rows.iter().find(|r| matches!(r.kind, Kind::Iterative { threads, .. } if threads > 1)),
    ) {
        let speedup = |a: &[Duration], b: &[Duration]| {
            RowResult::total(a).as_secs_f64() / RowResult::total(b).as_secs_f64()
        };
        println!(
            "\nTwo-thread speed-up over one thread (one-thread total / two-thread total): ours {:.2}×, minimax {:.2}×",
            speedup(&serial.time_ours, &par.time_ours),
            speedup(&serial.time_theirs, &par.time_theirs)
        );
    }

    // Per position values, to see any disagreement.
    println!("\n### Root values per position (ours / minimax)\n");
    let mut header = String::from("| pos |");
    let mut rule = String::from("|---|");
    for (r, _) in rows.iter().enumerate() {
        let _ = write!(header, " row {} |", r + 1);
        rule.push_str("---|");
    }
    println!("{header}\n{rule}");
    for i in 0..boards.len() {
        let mut line = format!("| {} |", i + 1);
        for row in &rows {
            let (o, t) = (row.value_ours[i], row.value_theirs[i]);
            let mark = if on_their_scale(o) == i32::from(t) { "" } else { " **≠**" };
            let _ = write!(line, " {o} / {t}{mark} |");
        }
        println!("{line}");
    }

    let mcts_row = run_mcts(&boards, settings.iterations, settings.runs, settings.seed);
    let (to, tt) = (RowResult::total(&mcts_row.time_ours), RowResult::total(&mcts_row.time_theirs));
    println!("\n## MCTS, random playouts, one thread\n");
    println!(
        "Ours: plain UCT, no RAVE, exploration c = √(2/ln 2) ≈ {:.3} on `mean + c·√(ln N / n)`, the same \
         term as minimax's `wins/n + 1.0·√(2·log₂ N / n)`; for both, a leaf gets its children when \
         reached a second time, one node added an iteration (`expand_after` 1, \
         `rollouts_before_expanding` 0).\n",
        uct_exploration()
    );
    println!("| row | iterations | ours total ms | minimax total ms | ours/minimax | same best move |");
    println!("|---|---:|---:|---:|---:|---:|");
    println!(
        "| 5 | {} a position | {:.1} | {:.1} | {:.2} | {}/{} |",
        mcts_row.iterations,
        ms(to),
        ms(tt),
        to.as_secs_f64() / tt.as_secs_f64(),
        mcts_row.same_move,
        boards.len()
    );
    let full: Vec<usize> =
        (0..boards.len()).filter(|&i| mcts_row.iterations_ours[i] == mcts_row.iterations).collect();
    if full.len() < boards.len() {
        // A proved root ends both searches early (ours stops; theirs returns at once from every
        // further simulation), so the totals mix full and cut-short searches.
        let sum = |times: &[Duration]| full.iter().map(|&i| times[i]).sum::<Duration>();
        let (fo, ft) = (sum(&mcts_row.time_ours), sum(&mcts_row.time_theirs));
        println!(
            "\nOn the {} positions where our search ran all its iterations (it stops early once it \
             proves the root; minimax's simulations return at once from a proved root): ours {:.1} ms, \
             minimax {:.1} ms, ratio {:.2}.",
            full.len(),
            ms(fo),
            ms(ft),
            fo.as_secs_f64() / ft.as_secs_f64()
        );
    }
    println!("\n| pos | ours ms | minimax ms | our iterations |\n|---|---:|---:|---:|");
    for i in 0..boards.len() {
        println!(
            "| {} | {:.1} | {:.1} | {} |",
            i + 1,
            ms(mcts_row.time_ours[i]),
            ms(mcts_row.time_theirs[i]),
            mcts_row.iterations_ours[i]
        );
    }

    let per_move = settings.per_move;
    println!(
        "\n### Match at equal time: {} games, {} ms a move each, 4 random opening plies, seats swapped per pair\n",
        settings.games,
        ms(per_move)
    );
    let result = run_match(settings.games, per_move, settings.seed);
    println!("| games | search-core wins | draws | minimax wins |");
    println!("|---:|---:|---:|---:|");
    println!("| {} | {} | {} | {} |", result.games.len(), result.wins_a(), result.draws(), result.losses_a());
    println!("\n{result}");
    println!("\nTotal bench time: {:.1} s", started.elapsed().as_secs_f64());
    rows
}

// ---------------------------------------------------------------------------------------------
// Entry point: bench, smoke test, or a list for the test runners.

/// The value of `--name N` in `args`, or `default`.
fn option<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    // `cargo nextest` lists tests first: one test, `smoke`, and no ignored ones.
    if has("--list") {
        if !has("--ignored") {
            println!("smoke: test");
        }
        return ExitCode::SUCCESS;
    }
    let seed = option(&args, "--seed", 2026);
    if has("--bench") {
        let settings = Settings {
            positions: 20,
            rows: vec![
                Kind::Fixed(8),
                Kind::Fixed(10),
                Kind::Iterative { depth: 12, threads: 1 },
                Kind::Iterative { depth: 12, threads: 2 },
            ],
            runs: option(&args, "--runs", 2).max(1),
            iterations: option(&args, "--iterations", 20_000),
            games: option(&args, "--games", 200),
            per_move: Duration::from_millis(option(&args, "--ms", 20)),
            seed,
        };
        compare(&settings);
        return ExitCode::SUCCESS;
    }
    // Test mode (`cargo test`, or nextest running `smoke`): a small version that must agree.
    let settings = Settings {
        positions: 2,
        rows: vec![
            Kind::Fixed(4),
            Kind::Iterative { depth: 6, threads: 1 },
            Kind::Iterative { depth: 6, threads: 2 },
        ],
        runs: 1,
        iterations: 500,
        games: 2,
        per_move: Duration::from_millis(2),
        seed,
    };
    let rows = compare(&settings);
    let fixed = &rows[0];
    assert_eq!(
        fixed.agree(),
        fixed.value_ours.len(),
        "fixed-depth values differ: ours {:?}, minimax {:?}",
        fixed.value_ours,
        fixed.value_theirs
    );
    ExitCode::SUCCESS
}
