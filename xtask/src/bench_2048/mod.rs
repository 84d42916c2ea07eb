//! `cargo xtask bench-2048`: our strong 2048 agent and nneonneo/2048-ai timed on the same boards,
//! in the same process, one thread, alternating board by board.
//!
//! nneonneo's program is not part of this repository. A user builds it from its public sources
//! in a scratch folder (see `docs/nneonneo.md`) and passes the path of its shared library,
//! `bin/2048.so`, with `--nneonneo`. Without it only our side runs.
//!
//! For every board of the boards file ([`parse_boards`]) and every repetition, each program
//! decides once: ours with [`StrongConfig`] at nneonneo's settings (cut-off `--cprob`, depth
//! `max(3, distinct − 2) + 1`, one thread), nneonneo through its exported `find_best_move`. Each
//! decision is timed by the CPU clock of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), so a
//! loaded machine slows both sides alike but does not bill one for the other's work; the median
//! over the repetitions is kept. nneonneo prints a few lines per decision; its standard output
//! goes to `/dev/null` while it runs.
//!
//! The raw move rate is measured the same way on every board of the file in the four
//! directions: ours through `Board::after`, theirs through `execute_move`, both called through a
//! function pointer that the compiler cannot see through (their library's function is reached
//! that way anyway, so ours is too, to compare like with like). A second rate counts the four
//! moves of a board as a search node needs them: ours in one call of `Board::afters` (which
//! transposes the board once for up and down), theirs in four calls of `execute_move` (which
//! is how its search gets them). Each rate is the best of five passes a program, the two
//! programs' passes alternating, so that the other core's work or the machine's clock changing
//! between passes reaches both rather than one.
//!
//! Into the output folder go `bench-2048.jsonl` (one [`BoardRow`] per board) and `summary.md`
//! (the per-board table, the agreement, the ratio of the totals and the median ratio), which is
//! printed too.

// Calling into a C++ library loaded at run time cannot be checked by the compiler. The unsafe
// blocks are confined to this file: loading the library, calling its three functions with the
// signatures its header declares, the thread CPU clock and the redirection of standard output.
#![allow(unsafe_code)]

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use game2048::agents::{Agent, Strong, StrongConfig};
use game2048::heuristics::LineTable;
use game2048::{Board, Direction, Rules};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use thiserror::Error;

pub mod games;

/// The JSON lines file in the output folder.
pub const RESULTS_FILE: &str = "bench-2048.jsonl";

/// The Markdown summary in the output folder.
pub const SUMMARY_FILE: &str = "summary.md";

/// The boards file the repository ships.
pub const DEFAULT_BOARDS: &str = "crates/game2048/tests/data/bench-boards.txt";

/// What went wrong.
#[derive(Debug, Error)]
pub enum BenchError {
    /// The boards file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line of the boards file is not a board.
    #[error("{path}, line {line}: {message}")]
    BadBoard {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The boards file has no board.
    #[error("{0}: no boards")]
    NoBoards(PathBuf),
    /// nneonneo's library could not be loaded or lacks a function.
    #[error("cannot use {path} as nneonneo's library: {message}")]
    Library {
        /// The library.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// nneonneo answered something that is not a legal move.
    #[error("nneonneo answered {answer} on {board}, not a legal move")]
    BadAnswer {
        /// The board.
        board: Board,
        /// What it answered.
        answer: i32,
    },
    /// A network file of our players could not be read.
    #[error("{path}: {message}")]
    Network {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

/// Reads a boards file: one board per line in the notation `2 4 8 16/0 0 0 0/…` (rows top to
/// bottom, `/` between rows), `#` starting a comment, blank lines skipped. A board without a legal
/// move is refused: there is nothing to decide on it.
pub fn parse_boards(path: &Path, text: &str) -> Result<Vec<Board>, BenchError> {
    let mut boards = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let bad =
            |message: String| BenchError::BadBoard { path: path.to_path_buf(), line: index + 1, message };
        let board: Board = content.parse().map_err(|e| bad(format!("{e}")))?;
        if board.is_terminal() {
            return Err(bad(format!("{board} has no legal move")));
        }
        boards.push(board);
    }
    if boards.is_empty() {
        return Err(BenchError::NoBoards(path.to_path_buf()));
    }
    Ok(boards)
}

/// The largest tiles the boards file groups its boards by.
pub const STAGES: [u32; 5] = [512, 1024, 2048, 4096, 8192];

/// Plays one game from `seed` with a quick strong agent (cut-off `1e-3`) and keeps `per_stage`
/// boards, evenly spaced, from each stretch of the game whose largest tile is one of [`STAGES`].
/// Returns the boards with the text of a boards file.
pub fn make_boards(seed: u64, per_stage: usize) -> String {
    let rules = Rules::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut agent = Strong::new(
        StrongConfig { probability_cutoff: 1e-3, ..StrongConfig::default() },
        LineTable::default(),
    );
    let mut board = rules.new_board(&mut rng);
    let mut by_stage: Vec<Vec<Board>> = vec![Vec::new(); STAGES.len()];
    let last = *STAGES.last().expect("stages");
    while !board.is_terminal() && board.max_tile() <= last {
        if let Some(stage) = STAGES.iter().position(|&s| s == board.max_tile()) {
            by_stage[stage].push(board);
        }
        let direction = agent.decide(board).direction;
        let moved = board.play(direction).expect("the agent plays legal moves").board;
        board = rules.spawn(moved, &mut rng).expect("a move leaves an empty cell");
    }
    let mut text = format!(
        "# Boards for `cargo xtask bench-2048`: {per_stage} per stage, evenly spaced, from one game the\n\
         # strong agent (cut-off 1e-3) played from seed {seed}. Regenerate with\n\
         # `cargo xtask bench-2048 --make-boards FILE --seed {seed} --per-stage {per_stage}`.\n"
    );
    for (stage, boards) in STAGES.iter().zip(&by_stage) {
        let _ = writeln!(text, "# largest tile {stage}: {} boards in the game", boards.len());
        let n = boards.len();
        for k in 0..per_stage.min(n) {
            let _ = writeln!(text, "{}", boards[(2 * k + 1) * n / (2 * per_stage.min(n))]);
        }
    }
    text
}

/// One board's measurements.
#[derive(Clone, Debug, Serialize)]
pub struct BoardRow {
    /// Its place in the file, from 1.
    pub index: usize,
    /// The board.
    pub board: String,
    /// Its largest tile.
    pub max_tile: u32,
    /// The search depth in player moves (both programs use it).
    pub depth: u32,
    /// Our move.
    pub ours_move: String,
    /// Our median CPU milliseconds per decision.
    pub ours_ms: f64,
    /// nneonneo's move, when it ran.
    pub theirs_move: Option<String>,
    /// nneonneo's median CPU milliseconds per decision, when it ran.
    pub theirs_ms: Option<f64>,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// The boards file.
    pub boards: PathBuf,
    /// nneonneo's shared library.
    pub nneonneo: Option<PathBuf>,
    /// Our cut-off (nneonneo's is compiled in: 1e-4).
    pub cprob: f64,
    /// Decisions per board and program; the median is kept.
    pub repeat: usize,
    /// The output folder.
    pub out: PathBuf,
}

/// The CPU seconds the calling thread has used.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec to write to, and the clock id is a constant libc defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "the thread CPU clock is not available");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// The CPU seconds `f` takes on this thread, and its result.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = thread_cpu_seconds();
    let out = f();
    (out, thread_cpu_seconds() - start)
}

type InitTables = unsafe extern "C" fn();
type FindBestMove = unsafe extern "C" fn(u64) -> i32;
type ExecuteMove = unsafe extern "C" fn(i32, u64) -> u64;

/// nneonneo's library, loaded, with its tables built.
struct Nneonneo {
    _library: libloading::Library,
    find_best_move: FindBestMove,
    execute_move: ExecuteMove,
}

impl Nneonneo {
    fn load(path: &Path) -> Result<Self, BenchError> {
        let err = |message: String| BenchError::Library { path: path.to_path_buf(), message };
        // SAFETY: loading runs the library's initialisers; nneonneo's has none beyond the C++
        // runtime's. The functions are looked up with the signatures its header declares.
        unsafe {
            let library = libloading::Library::new(path).map_err(|e| err(e.to_string()))?;
            let init: InitTables =
                *library.get::<InitTables>(b"init_tables\0").map_err(|e| err(e.to_string()))?;
            let find_best_move: FindBestMove =
                *library.get::<FindBestMove>(b"find_best_move\0").map_err(|e| err(e.to_string()))?;
            let execute_move: ExecuteMove =
                *library.get::<ExecuteMove>(b"execute_move\0").map_err(|e| err(e.to_string()))?;
            init();
            Ok(Nneonneo { _library: library, find_best_move, execute_move })
        }
    }

    /// nneonneo's move on `board`, with its standard output (a few lines per decision) sent to
    /// `/dev/null`.
    fn decide(&self, board: Board) -> Result<Direction, BenchError> {
        let answer = silenced(|| {
            // SAFETY: the function takes a board by value and touches only its own state.
            unsafe { (self.find_best_move)(board.raw()) }
        });
        usize::try_from(answer)
            .ok()
            .and_then(|i| Direction::ALL.get(i).copied())
            .filter(|&d| board.play(d).is_some())
            .ok_or(BenchError::BadAnswer { board, answer })
    }
}

/// Runs `f` with file descriptor 1 pointing at `/dev/null`, flushing C's buffers on both sides
/// so that nothing written inside comes out later.
fn silenced<T>(f: impl FnOnce() -> T) -> T {
    let _ = std::io::stdout().flush();
    // SAFETY: plain descriptor calls on descriptors this function opens and restores; fflush(NULL)
    // flushes every C stream.
    unsafe {
        let saved = libc::dup(1);
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
        if saved < 0 || null < 0 {
            return f();
        }
        libc::dup2(null, 1);
        let out = f();
        libc::fflush(std::ptr::null_mut());
        libc::dup2(saved, 1);
        libc::close(saved);
        libc::close(null);
        out
    }
}

/// Our slide ([`Board::after`], what the search uses), as nneonneo's `execute_move` is called: a
/// move number and a board through a function pointer, the board unchanged when the move is not
/// legal.
extern "C" fn our_execute_move(direction: i32, board: u64) -> u64 {
    let board = Board::from_raw(board);
    // A match rather than `Direction::ALL[i]`: the compiler reads the array (a load before the
    // jump to the direction's code) where the match is the number itself, as nneonneo's switch
    // is, so the call measures `after` and not the conversion (0.83–0.91× became 0.94–0.96×).
    let direction = match direction & 3 {
        0 => Direction::Up,
        1 => Direction::Down,
        2 => Direction::Left,
        _ => Direction::Right,
    };
    board.after(direction).unwrap_or(board).raw()
}

/// Our four slides of a board, one direction a call as [`move_rate_pair`] folds them.
fn one_at_a_time(execute: ExecuteMove) -> impl Fn(u64) -> u64 {
    let execute = std::hint::black_box(execute);
    // SAFETY: both functions take plain integers.
    move |board| (0..4).fold(0, |acc, d| acc ^ unsafe { execute(d, board) })
}

/// Our four moves of a board at once ([`Board::afters`], what the search calls at every node:
/// one transpose serves up and down), each the board unchanged when the move is not legal.
fn our_four_moves(board: u64) -> [u64; 4] {
    let board = Board::from_raw(board);
    board.afters().map(|after| after.unwrap_or(board).raw())
}

/// The four slides of a board from one call that gives all four (a node of a search), folded.
fn all_at_once(four: &dyn Fn(u64) -> [u64; 4]) -> impl Fn(u64) -> u64 + '_ {
    let four = std::hint::black_box(four);
    move |board| four(board).into_iter().fold(0, |acc, after| acc ^ after)
}

/// Slides per CPU-second of ours and, if given, of theirs, where each closure makes the four
/// slides of a board (and folds their results into one word, so none is optimised away): the
/// best of five passes each, of at least 0.2 s over every board, the two programs' passes
/// alternating so that a change in the machine's load between them reaches both.
fn move_rate_pair(
    boards: &[Board],
    ours: impl Fn(u64) -> u64,
    theirs: Option<impl Fn(u64) -> u64>,
) -> (f64, Option<f64>) {
    let (mut best_ours, mut best_theirs) = (0f64, 0f64);
    for _ in 0..5 {
        best_ours = best_ours.max(slide_pass(boards, &ours));
        if let Some(theirs) = &theirs {
            best_theirs = best_theirs.max(slide_pass(boards, theirs));
        }
    }
    (best_ours, theirs.is_some().then_some(best_theirs))
}

/// Slides per CPU-second of one pass of at least 0.2 s over every board.
fn slide_pass(boards: &[Board], slide_four: &impl Fn(u64) -> u64) -> f64 {
    let mut slides = 0u64;
    let mut acc = 0u64;
    let start = thread_cpu_seconds();
    let mut seconds = 0.0;
    while seconds < 0.2 {
        for _ in 0..50 {
            for board in boards {
                acc ^= slide_four(board.raw());
            }
        }
        slides += 50 * 4 * boards.len() as u64;
        seconds = thread_cpu_seconds() - start;
    }
    std::hint::black_box(acc);
    slides as f64 / seconds
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
}

/// Runs the comparison and writes its files; returns the rows.
pub fn run(config: &BenchConfig) -> Result<Vec<BoardRow>, BenchError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BenchError::Io { path, source }
    };
    let text = std::fs::read_to_string(&config.boards).map_err(io(&config.boards))?;
    let boards = parse_boards(&config.boards, &text)?;
    let theirs = config.nneonneo.as_deref().map(Nneonneo::load).transpose()?;
    std::fs::create_dir_all(&config.out).map_err(io(&config.out))?;
    let jsonl = config.out.join(RESULTS_FILE);
    let mut lines = std::fs::File::create(&jsonl).map_err(io(&jsonl))?;

    let strong = StrongConfig { probability_cutoff: config.cprob, ..StrongConfig::default() };
    let mut ours = Strong::new(strong, LineTable::default());
    // Build both sides' tables before any timing.
    let _ = ours.decide(boards[0]);
    let mut rows = Vec::new();
    for (i, &board) in boards.iter().enumerate() {
        let mut ours_times = Vec::new();
        let mut theirs_times = Vec::new();
        let mut ours_move = None;
        let mut theirs_move = None;
        for _ in 0..config.repeat.max(1) {
            let (decision, seconds) = timed(|| ours.decide(board));
            ours_times.push(seconds * 1e3);
            ours_move = Some(decision.direction);
            if let Some(theirs) = &theirs {
                let (answer, seconds) = timed(|| theirs.decide(board));
                theirs_times.push(seconds * 1e3);
                theirs_move = Some(answer?);
            }
        }
        let row = BoardRow {
            index: i + 1,
            board: board.to_string(),
            max_tile: board.max_tile(),
            depth: strong.depth_for(board),
            ours_move: ours_move.expect("at least one repetition").to_string(),
            ours_ms: median(ours_times),
            theirs_move: theirs_move.map(|d| d.to_string()),
            theirs_ms: (!theirs_times.is_empty()).then(|| median(theirs_times)),
        };
        eprintln!(
            "board {:>2}/{}: ours {:>8.2} ms {:<5}  nneonneo {}",
            row.index,
            boards.len(),
            row.ours_ms,
            row.ours_move,
            row.theirs_ms.map_or("-".to_string(), |t| format!(
                "{t:>8.2} ms {}",
                row.theirs_move.as_deref().unwrap_or("")
            )),
        );
        let line = serde_json::to_string(&row).expect("rows serialise");
        writeln!(lines, "{line}").map_err(io(&jsonl))?;
        rows.push(row);
    }
    let execute = theirs.as_ref().map(|t| t.execute_move);
    let (ours_one, theirs_one) =
        move_rate_pair(&boards, one_at_a_time(our_execute_move), execute.map(one_at_a_time));
    // SAFETY: the function takes plain integers.
    let four =
        execute.map(|execute| move |board: u64| std::array::from_fn(|d| unsafe { execute(d as i32, board) }));
    let (ours_four, theirs_four) =
        move_rate_pair(&boards, all_at_once(&our_four_moves), four.as_ref().map(|four| all_at_once(four)));
    let ours_rate = MoveRates { one: ours_one, four: ours_four };
    let theirs_rate = theirs_one.zip(theirs_four).map(|(one, four)| MoveRates { one, four });
    let summary = markdown(config, &rows, ours_rate, theirs_rate);
    let path = config.out.join(SUMMARY_FILE);
    std::fs::write(&path, &summary).map_err(io(&path))?;
    println!("{summary}");
    println!("wrote {} and {}", jsonl.display(), path.display());
    Ok(rows)
}

/// Raw moves per CPU-second, measured two ways.
#[derive(Clone, Copy, Debug)]
pub struct MoveRates {
    /// One direction a call (`Board::after`, `execute_move`).
    pub one: f64,
    /// All four directions of a board, as a search node needs them: ours in one call
    /// (`Board::afters`), theirs in four calls of `execute_move`.
    pub four: f64,
}

/// The summary: the per-board table, then the totals.
pub fn markdown(
    config: &BenchConfig,
    rows: &[BoardRow],
    ours_rate: MoveRates,
    theirs_rate: Option<MoveRates>,
) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# 2048: our strong agent and nneonneo/2048-ai on the same boards\n\n\
         Boards: `{}`; our cut-off {}; one thread; median of {} decisions per board and program, \
         in CPU milliseconds of the deciding thread.\n",
        config.boards.display(),
        config.cprob,
        config.repeat.max(1)
    );
    let _ = writeln!(
        text,
        "| # | largest tile | depth | ours ms | nneonneo ms | ours / nneonneo | ours | nneonneo |"
    );
    let _ = writeln!(text, "|---:|---:|---:|---:|---:|---:|---|---|");
    for row in rows {
        let ratio = row.theirs_ms.map_or("-".to_string(), |t| format!("{:.2}", row.ours_ms / t));
        let _ = writeln!(
            text,
            "| {} | {} | {} | {:.2} | {} | {} | {} | {} |",
            row.index,
            row.max_tile,
            row.depth,
            row.ours_ms,
            row.theirs_ms.map_or("-".to_string(), |t| format!("{t:.2}")),
            ratio,
            row.ours_move,
            row.theirs_move.as_deref().unwrap_or("-"),
        );
    }
    let ours_total: f64 = rows.iter().map(|r| r.ours_ms).sum();
    let _ = writeln!(text);
    match rows.iter().map(|r| r.theirs_ms).collect::<Option<Vec<f64>>>() {
        Some(theirs) => {
            let theirs_total: f64 = theirs.iter().sum();
            let agree =
                rows.iter().filter(|r| r.theirs_move.as_deref() == Some(r.ours_move.as_str())).count();
            let ratios = rows.iter().zip(&theirs).map(|(r, t)| r.ours_ms / t).collect();
            let _ = writeln!(
                text,
                "Totals: ours {ours_total:.1} ms, nneonneo {theirs_total:.1} ms: ours takes **{:.2}×** nneonneo's \
                 time (median per-board ratio {:.2}). Same move on **{agree} / {}** boards.\n",
                ours_total / theirs_total,
                median(ratios),
                rows.len()
            );
        }
        None => {
            let _ = writeln!(
                text,
                "Total: ours {ours_total:.1} ms (nneonneo not run: pass `--nneonneo PATH/2048.so`).\n"
            );
        }
    }
    let _ = write!(
        text,
        "Raw moves per CPU-second, every board in the four directions through a function pointer: \
         one direction a call, ours (`Board::after`) {:.0} M",
        ours_rate.one / 1e6
    );
    match theirs_rate {
        Some(t) => {
            let _ = writeln!(
                text,
                ", nneonneo's `execute_move` {:.0} M: **{:.2}×**; the four moves of a board (a search \
                 node), ours in one call (`Board::afters`) {:.0} M, theirs in four calls {:.0} M: **{:.2}×**.",
                t.one / 1e6,
                ours_rate.one / t.one,
                ours_rate.four / 1e6,
                t.four / 1e6,
                ours_rate.four / t.four
            );
        }
        None => {
            let _ = writeln!(
                text,
                "; the four moves of a board in one call (`Board::afters`) {:.0} M.",
                ours_rate.four / 1e6
            );
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_files_are_checked() {
        let path = Path::new("boards.txt");
        let ok = parse_boards(path, "# a comment\n\n2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0  # trailing\n").unwrap();
        assert_eq!(ok.len(), 1);
        let err = parse_boards(path, "2 4 0/0 0 0 0/0 0 0 0/0 0 0 0\n").unwrap_err();
        assert!(err.to_string().contains("line 1"), "{err}");
        let err = parse_boards(path, "\n2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2\n").unwrap_err();
        assert!(err.to_string().contains("line 2") && err.to_string().contains("no legal move"), "{err}");
        assert!(matches!(parse_boards(path, "# nothing\n"), Err(BenchError::NoBoards(_))));
    }

    #[test]
    fn the_shipped_boards_file_parses() {
        let path = crate::workspace_root().join(DEFAULT_BOARDS);
        let text = std::fs::read_to_string(&path).unwrap();
        let boards = parse_boards(&path, &text).unwrap();
        assert!(boards.len() >= 32, "{} boards", boards.len());
    }

    #[test]
    fn our_execute_move_matches_slide() {
        let board: Board = "2 2 0 4/0 0 0 4/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(
            Board::from_raw(our_execute_move(2, board.raw())),
            board.slide(Direction::Left).unwrap().board
        );
        assert_eq!(
            Board::from_raw(our_execute_move(0, board.raw())),
            board.slide(Direction::Up).unwrap().board
        );
        // A move that changes nothing leaves the board as it was, as execute_move does.
        let still: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(our_execute_move(0, still.raw()), still.raw());
    }

    #[test]
    fn runs_our_side_alone_and_refuses_a_bad_library() {
        let dir = std::env::temp_dir().join(format!("bench-2048-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let boards = dir.join("boards.txt");
        std::fs::write(&boards, "2 4 0 0/0 2 0 0/0 0 0 0/0 0 0 0\n4 0 0 0/2 0 0 0/0 0 0 0/0 0 0 2\n")
            .unwrap();
        let config = BenchConfig { boards, nneonneo: None, cprob: 0.05, repeat: 1, out: dir.join("out") };
        let rows = run(&config).unwrap();
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.theirs_ms.is_none() && r.ours_ms >= 0.0));
        let summary = std::fs::read_to_string(dir.join("out").join(SUMMARY_FILE)).unwrap();
        assert!(summary.contains("nneonneo not run"), "{summary}");
        let lines = std::fs::read_to_string(dir.join("out").join(RESULTS_FILE)).unwrap();
        assert_eq!(lines.lines().count(), 2);
        let bad = BenchConfig { nneonneo: Some(dir.join("no-such-library.so")), ..config };
        let err = run(&bad).unwrap_err();
        assert!(matches!(err, BenchError::Library { .. }), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn summary_without_nneonneo_says_so() {
        let config = BenchConfig {
            boards: PathBuf::from("b.txt"),
            nneonneo: None,
            cprob: 1e-4,
            repeat: 1,
            out: PathBuf::from("out"),
        };
        let row = BoardRow {
            index: 1,
            board: "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".to_string(),
            max_tile: 2,
            depth: 4,
            ours_move: "up".to_string(),
            ours_ms: 1.5,
            theirs_move: None,
            theirs_ms: None,
        };
        let text = markdown(&config, &[row], MoveRates { one: 1e8, four: 2e8 }, None);
        assert!(text.contains("nneonneo not run") && text.contains("| 1 | 2 | 4 | 1.50 | - |"), "{text}");
        assert!(text.contains("`Board::after`) 100 M") && text.contains("`Board::afters`) 200 M"), "{text}");
    }

    #[test]
    fn our_four_moves_are_the_four_slides() {
        let board: Board = "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 4".parse().unwrap();
        let four = our_four_moves(board.raw());
        for (d, raw) in four.into_iter().enumerate() {
            assert_eq!(raw, our_execute_move(d as i32, board.raw()), "direction {d}");
        }
        // Up is not legal on a board whose tiles are all on the top row: the board comes back.
        let top: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(our_four_moves(top.raw())[0], top.raw());
    }
}
