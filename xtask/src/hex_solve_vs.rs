//! `cargo xtask hex-solve-vs`: two GTP Hex solvers on the same positions in the same run, with
//! each one's CPU time measured by the operating system.
//!
//! The positions come from a file ([`parse_positions`]; the format is described at the top of
//! `crates/hex/tests/data/solve-positions.txt`). For each position and each engine, a **fresh
//! process** is started and sent, one command at a time:
//!
//! 1. `boardsize N N`;
//! 2. `play black X`, `play white Y`, … for the moves, alternating from Black;
//! 3. the setup commands (`--ours-setup`, `--theirs-setup`: GTP commands separated by `;`);
//! 4. the solve command (`--ours-solve`, `solve-state` by default; `--theirs-solve`,
//!    `dfpn-solve-state` by default, Benzene's DFPN solver), whose answer must be `= black` or
//!    `= white` (an id after `=` is fine);
//! 5. `quit`; then the child is waited for.
//!
//! The CPU time of the child (user + system, its own waited-for children included) is the
//! difference of `getrusage(RUSAGE_CHILDREN)` before it starts and after it has been reaped,
//! which holds because exactly one engine runs at a time. Each engine's start-up cost is
//! measured once per board size, as the least of three processes that are sent only
//! `boardsize N N` and `quit` (a cold file cache or other work inflates single start-ups);
//! the net time of a solve is its CPU time less that start-up (at least 0). Both are recorded.
//! The wall time is that of the solve command alone. With `--repeat N` each engine solves
//! each position N times, the two alternating solve by solve, and the row keeps each engine's
//! least net time ([`least_of`]) with all N in `net_cpu_samples`: other work on the machine
//! only ever adds to a solve's time, and a position solved in milliseconds is otherwise within
//! the noise of the start-up that is taken off.
//!
//! Both engines must name the same winner: a disagreement is printed with `DISAGREEMENT`,
//! recorded in the position's row, and makes the command exit with status 1 once every position
//! has run. A solve command past `--timeout` is killed and recorded as `timeout`; a `?` answer as
//! `refused`. Neither is a disagreement.
//!
//! Into the output folder go `solve-vs.jsonl` (one [`Row`] per position, written as each one
//! finishes) and `summary.md` (a table of the net CPU times and their ratio, with totals over the
//! positions both engines solved), which is printed too.
//!
//! Engine command lines are split into words with simple shell quoting (as `hex-match` does: no
//! variables or pipes; use `sh -c '…'` or a wrapper script for those). Setup commands are split
//! at `;` and trimmed; empty pieces are dropped.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hex::{Color, HexMove, move_name};
use nix::sys::resource::{UsageWho, getrusage};
use nix::sys::time::TimeValLike;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::hex_match::engine::{Answer, EngineFailure, GtpProcess, SplitError, split_command};

/// The JSON lines file in the output folder.
pub const RESULTS_FILE: &str = "solve-vs.jsonl";

/// The Markdown summary in the output folder.
pub const SUMMARY_FILE: &str = "summary.md";

/// The limit of every command but the solve: the board, the moves, the setup and `quit`.
const SETUP_TIMEOUT: Duration = Duration::from_secs(120);

/// Start-up processes per engine and board size; the least CPU time of them is taken off.
const STARTUP_SAMPLES: usize = 3;

/// The solve command's limit when `--timeout` is not given: in effect none.
const NO_TIMEOUT: Duration = Duration::from_secs(365 * 24 * 3600);

/// One position of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvePosition {
    /// Its name, unique in the file.
    pub name: String,
    /// The board side.
    pub size: u8,
    /// The moves, Black first, as cell names (`d4`).
    pub moves: Vec<String>,
    /// The side to move after the moves.
    pub to_move: Color,
    /// The line of the file it is on, from 1.
    pub line: usize,
}

/// A bad positions file: what is wrong, and on which line.
#[derive(Debug, Error)]
pub enum PositionsError {
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line that is not a position.
    #[error("line {line}: {message}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// No position at all.
    #[error("the file lists no position")]
    Empty,
}

/// Reads a positions file: `NAME SIZE MOVE...` a line, `#` comments and blank lines ignored.
/// Every move is checked on a board: a cell that is not one, is off the board or is occupied,
/// a move after somebody has connected, or a finished game, is an error naming its line.
pub fn parse_positions(text: &str) -> Result<Vec<SolvePosition>, PositionsError> {
    let mut positions = Vec::new();
    let mut names = HashSet::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let fail = |message: String| PositionsError::Line { line, message };
        let content = raw.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let mut words = content.split_whitespace();
        let name = words.next().expect("a non-empty line has a word").to_string();
        let size_text = words.next().ok_or_else(|| fail(format!("{name}: no board size after the name")))?;
        let size: u8 =
            size_text.parse().ok().filter(|size| (1..=hex::MAX_SIZE).contains(size)).ok_or_else(|| {
                fail(format!("{name}: bad size {size_text:?} (a board side from 1 to {})", hex::MAX_SIZE))
            })?;
        let (position, cells) =
            hex::play_moves(u32::from(size), words).map_err(|e| fail(format!("{name}: {e}")))?;
        let moves: Vec<String> = cells.into_iter().map(|c| move_name(HexMove::Place(c))).collect();
        if let Some(winner) = position.winner() {
            return Err(fail(format!("{name}: the game is over ({winner} has connected): nothing to solve")));
        }
        if !names.insert(name.clone()) {
            return Err(fail(format!("{name}: the name is used by an earlier line")));
        }
        positions.push(SolvePosition { name, size, moves, to_move: position.to_move(), line });
    }
    if positions.is_empty() {
        return Err(PositionsError::Empty);
    }
    Ok(positions)
}

/// The children of each position: one for every empty cell, in cell order (row by row),
/// named `NAME+CELL`, with the cell played by the side to move; a cell that connects at once
/// is left out (the game is over there, nothing to solve). Solving the children of a position
/// with both engines shows where one engine spends its time, move by move: a position whose
/// total is far apart breaks into children that are close and one or two that are not.
pub fn children(positions: &[SolvePosition]) -> Vec<SolvePosition> {
    let mut out = Vec::new();
    for parent in positions {
        let (position, _) = hex::play_moves(u32::from(parent.size), parent.moves.iter().map(String::as_str))
            .expect("a parsed position replays");
        for cell in position.board().cells() {
            let Ok(child) = position.play(HexMove::Place(cell)) else { continue };
            if child.winner().is_some() {
                continue;
            }
            let name = move_name(HexMove::Place(cell));
            let mut moves = parent.moves.clone();
            moves.push(name.clone());
            out.push(SolvePosition {
                name: format!("{}+{name}", parent.name),
                size: parent.size,
                moves,
                to_move: child.to_move(),
                line: parent.line,
            });
        }
    }
    out
}

/// Reads and parses a positions file.
pub fn read_positions(path: &Path) -> Result<Vec<SolvePosition>, PositionsError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| PositionsError::Read { path: path.to_path_buf(), source })?;
    parse_positions(&text)
}

/// The winner named by an answer to a solve command: `black`/`b` or `white`/`w`, any case.
pub fn parse_winner(answer: &Answer) -> Result<Color, String> {
    match answer {
        Answer::Success(text) => match text.trim().to_ascii_lowercase().as_str() {
            "black" | "b" => Ok(Color::Black),
            "white" | "w" => Ok(Color::White),
            other => Err(format!("the answer {other:?} is not black or white")),
        },
        Answer::Failure(message) => Err(format!("refused: {message}")),
    }
}

/// The GTP commands of a `;`-separated list, trimmed, empty ones dropped.
pub fn split_setup(text: &str) -> Vec<String> {
    text.split(';').map(str::trim).filter(|c| !c.is_empty()).map(str::to_string).collect()
}

/// One engine of the comparison.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// `ours` or `theirs`.
    pub label: &'static str,
    /// The command line, as given.
    pub command: String,
    /// GTP commands sent after the moves, before the solve.
    pub setup: Vec<String>,
    /// The solve command.
    pub solve: String,
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct SolveVsConfig {
    /// Our engine.
    pub ours: EngineSpec,
    /// Theirs, if compared.
    pub theirs: Option<EngineSpec>,
    /// The positions file.
    pub positions: PathBuf,
    /// Only these positions, by name (all when empty).
    pub only: Vec<String>,
    /// Solve every child of each position (see [`children`]) instead of the position.
    pub children: bool,
    /// The solve command's limit per position and engine.
    pub timeout: Option<Duration>,
    /// Solves of each position by each engine (at least 1); each engine's least net time is
    /// kept (see [`least_of`]).
    pub repeat: u32,
    /// The output folder, created if needed.
    pub out: PathBuf,
    /// Show the engines' standard error.
    pub engine_stderr: bool,
}

/// A run that could not go on.
#[derive(Debug, Error)]
pub enum SolveVsError {
    /// The positions file.
    #[error("{path}: {source}")]
    Positions {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: PositionsError,
    },
    /// `--only` names a position the file does not have.
    #[error("--only: no position named {0:?} in the file")]
    UnknownName(String),
    /// An engine's command line cannot be split into words.
    #[error("the {label} command line: {source}")]
    Command {
        /// `ours` or `theirs`.
        label: &'static str,
        /// Why.
        source: SplitError,
    },
    /// An engine does not start, or fails the start-up measurement.
    #[error("the {label} engine ({command}) fails to start: {message}")]
    Startup {
        /// `ours` or `theirs`.
        label: &'static str,
        /// Its command line.
        command: String,
        /// What happened.
        message: String,
    },
    /// Writing the output.
    #[error("cannot write {path}: {source}")]
    Output {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// How one engine's solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// It named a winner.
    Solved,
    /// It did not answer the solve within the limit and was killed.
    Timeout,
    /// It answered the solve (or a command before it) with `?`.
    Refused,
    /// It ended, or answered something that is not a GTP response or not a colour.
    Failed,
}

/// One engine on one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineRun {
    /// How the solve ended.
    pub status: Status,
    /// The winner it named: `black` or `white`.
    pub winner: Option<String>,
    /// What went wrong, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The child's CPU time, user + system, start to exit, in seconds.
    pub cpu_s: f64,
    /// The engine's start-up CPU time on this board size, in seconds.
    pub startup_cpu_s: f64,
    /// `cpu_s - startup_cpu_s`, at least 0.
    pub net_cpu_s: f64,
    /// The wall time of the solve command, in seconds.
    pub wall_s: f64,
    /// With `--repeat`, the net CPU time of every solve, in the order they ran (the fields
    /// above are those of the least); empty for a single solve.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub net_cpu_samples: Vec<f64>,
}

impl EngineRun {
    fn winner_color(&self) -> Option<Color> {
        match self.winner.as_deref() {
            Some("black") => Some(Color::Black),
            Some("white") => Some(Color::White),
            _ => None,
        }
    }

    /// `black 1.234 s` or `timeout 3600.000 s`.
    fn short(&self) -> String {
        match (&self.winner, self.status) {
            (Some(winner), _) => format!("{winner} {:.3} s", self.net_cpu_s),
            (None, status) => format!("{} {:.3} s", status_name(status), self.net_cpu_s),
        }
    }
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Solved => "solved",
        Status::Timeout => "timeout",
        Status::Refused => "refused",
        Status::Failed => "failed",
    }
}

/// One position's line of `solve-vs.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The position's name.
    pub name: String,
    /// The board side.
    pub size: u8,
    /// The moves, Black first.
    pub moves: Vec<String>,
    /// The side to move: `black` or `white`.
    pub to_move: String,
    /// Our engine.
    pub ours: EngineRun,
    /// Theirs, when compared.
    pub theirs: Option<EngineRun>,
    /// Both named a winner and the winners differ.
    pub disagreement: bool,
    /// Our net CPU time over theirs, when both solved it and theirs is above 0.
    pub ratio: Option<f64>,
}

impl Row {
    /// The winner both named, or the one that named one; `DISAGREE` when they differ.
    fn winner_text(&self) -> String {
        if self.disagreement {
            return "DISAGREE".to_string();
        }
        self.ours
            .winner
            .clone()
            .or_else(|| self.theirs.as_ref().and_then(|t| t.winner.clone()))
            .unwrap_or_else(|| "?".to_string())
    }
}

/// The CPU time of every child reaped so far, user + system, in seconds.
fn children_cpu() -> Result<f64, String> {
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).map_err(|e| format!("getrusage failed: {e}"))?;
    let micros = usage.user_time().num_microseconds() + usage.system_time().num_microseconds();
    Ok(micros as f64 / 1e6)
}

/// What one session with a fresh engine gave.
struct Session {
    /// The solve's answer, or how it went wrong; `None` when no solve was asked.
    outcome: Option<Result<Color, (Status, String)>>,
    cpu: f64,
    wall: f64,
}

/// Starts the engine, sends `commands` (each must succeed), then `solve` if given, then `quit`;
/// waits for it and measures its CPU time. An error if it cannot be started or measured.
fn session(
    argv: &[String],
    commands: &[String],
    solve: Option<&str>,
    timeout: Duration,
    show_stderr: bool,
) -> Result<Session, String> {
    let before = children_cpu()?;
    let mut engine = GtpProcess::spawn(argv, show_stderr).map_err(|e| e.to_string())?;
    let mut outcome = None;
    let mut wall = 0.0;
    let failed = |failure: EngineFailure| {
        let status = match failure {
            EngineFailure::Timeout { .. } => Status::Timeout,
            EngineFailure::Refused { .. } => Status::Refused,
            _ => Status::Failed,
        };
        (status, failure.to_string())
    };
    let mut alive = true;
    for command in commands {
        match engine.ask(command, SETUP_TIMEOUT) {
            Ok(Answer::Success(_)) => {}
            Ok(Answer::Failure(message)) => {
                outcome = Some(Err((Status::Refused, format!("refused {command:?}: {message}"))));
                break;
            }
            Err(failure) => {
                outcome = Some(Err(failed(failure)));
                alive = false;
                break;
            }
        }
    }
    if outcome.is_none()
        && let Some(solve) = solve
    {
        let started = Instant::now();
        let answer = engine.ask(solve, timeout);
        wall = started.elapsed().as_secs_f64();
        outcome = Some(match answer {
            Ok(answer) => parse_winner(&answer).map_err(|message| {
                let status =
                    if matches!(answer, Answer::Failure(_)) { Status::Refused } else { Status::Failed };
                (status, format!("{solve:?}: {message}"))
            }),
            Err(failure) => {
                alive = false;
                Err(failed(failure))
            }
        });
    }
    if alive {
        engine.quit();
    } else {
        engine.kill();
        drop(engine);
    }
    let cpu = (children_cpu()? - before).max(0.0);
    Ok(Session { outcome, cpu, wall })
}

/// One engine, ready to run: its words and its start-up cost per board size.
struct Runner<'a> {
    spec: &'a EngineSpec,
    argv: Vec<String>,
    startup: BTreeMap<u8, f64>,
    show_stderr: bool,
}

impl<'a> Runner<'a> {
    fn new(spec: &'a EngineSpec, show_stderr: bool) -> Result<Runner<'a>, SolveVsError> {
        let argv = split_command(&spec.command)
            .map_err(|source| SolveVsError::Command { label: spec.label, source })?;
        Ok(Runner { spec, argv, startup: BTreeMap::new(), show_stderr })
    }

    fn startup_error(&self, message: String) -> SolveVsError {
        SolveVsError::Startup { label: self.spec.label, command: self.spec.command.clone(), message }
    }

    /// The start-up CPU time on an n×n board, measured the first time: the least of
    /// [`STARTUP_SAMPLES`] processes, since a start-up is a fixed cost that only a cold file
    /// cache or other work on the machine makes larger.
    fn startup_cpu(&mut self, size: u8) -> Result<f64, SolveVsError> {
        if let Some(&cpu) = self.startup.get(&size) {
            return Ok(cpu);
        }
        let commands = [format!("boardsize {size} {size}")];
        let mut samples = Vec::with_capacity(STARTUP_SAMPLES);
        for _ in 0..STARTUP_SAMPLES {
            let measured = session(&self.argv, &commands, None, SETUP_TIMEOUT, self.show_stderr)
                .map_err(|e| self.startup_error(e))?;
            if let Some(Err((_, message))) = measured.outcome {
                return Err(self.startup_error(message));
            }
            samples.push(measured.cpu);
        }
        let cpu = samples.iter().copied().fold(f64::INFINITY, f64::min);
        let all: Vec<String> = samples.iter().map(|s| format!("{s:.3}")).collect();
        println!(
            "{}: start-up on {size}x{size}: {cpu:.3} s CPU (least of {})",
            self.spec.label,
            all.join(", ")
        );
        self.startup.insert(size, cpu);
        Ok(cpu)
    }

    /// Solves one position in a fresh process.
    fn solve(&mut self, position: &SolvePosition, timeout: Duration) -> Result<EngineRun, SolveVsError> {
        let startup = self.startup_cpu(position.size)?;
        let size = position.size;
        let mut commands = vec![format!("boardsize {size} {size}")];
        let mut color = Color::Black;
        for mv in &position.moves {
            commands.push(format!("play {} {mv}", color.name()));
            color = color.opponent();
        }
        commands.extend(self.spec.setup.iter().cloned());
        let done = session(&self.argv, &commands, Some(&self.spec.solve), timeout, self.show_stderr)
            .map_err(|e| self.startup_error(e))?;
        let (status, winner, error) = match done.outcome {
            Some(Ok(winner)) => (Status::Solved, Some(winner.name().to_string()), None),
            Some(Err((status, message))) => (status, None, Some(message)),
            None => (Status::Failed, None, Some("no answer".to_string())),
        };
        Ok(EngineRun {
            status,
            winner,
            error,
            cpu_s: done.cpu,
            startup_cpu_s: startup,
            net_cpu_s: (done.cpu - startup).max(0.0),
            wall_s: done.wall,
            net_cpu_samples: Vec::new(),
        })
    }
}

/// One engine's repeated solves of a position as one run: the solve with the least net CPU
/// time, with every solve's net time in [`EngineRun::net_cpu_samples`]. A solve that did not
/// name a winner (a timeout, a refusal, a failure) stands for the whole (the first such one),
/// and so do solves that named different winners, which is a bug in the engine: the run is
/// then `failed` and says so. `runs` must not be empty.
pub fn least_of(runs: Vec<EngineRun>) -> EngineRun {
    assert!(!runs.is_empty(), "at least one solve");
    let samples: Vec<f64> = runs.iter().map(|r| r.net_cpu_s).collect();
    let with_samples = |mut run: EngineRun| {
        if samples.len() > 1 {
            run.net_cpu_samples.clone_from(&samples);
        }
        run
    };
    if let Some(unsolved) = runs.iter().find(|r| r.status != Status::Solved) {
        return with_samples(unsolved.clone());
    }
    let winners: HashSet<Option<&str>> = runs.iter().map(|r| r.winner.as_deref()).collect();
    if winners.len() > 1 {
        let named: Vec<&str> = runs.iter().map(|r| r.winner.as_deref().unwrap_or("?")).collect();
        return with_samples(EngineRun {
            status: Status::Failed,
            winner: None,
            error: Some(format!("named different winners in its solves: {}", named.join(", "))),
            ..runs[0].clone()
        });
    }
    let least = runs.into_iter().min_by(|a, b| a.net_cpu_s.total_cmp(&b.net_cpu_s)).expect("not empty");
    with_samples(least)
}

/// The row of a position from both engines' runs.
pub fn make_row(position: &SolvePosition, ours: EngineRun, theirs: Option<EngineRun>) -> Row {
    let (disagreement, ratio) = match &theirs {
        Some(theirs) => {
            let both = ours.winner_color().zip(theirs.winner_color());
            let disagreement = both.is_some_and(|(a, b)| a != b);
            let ratio = (both.is_some() && theirs.net_cpu_s > 0.0).then(|| ours.net_cpu_s / theirs.net_cpu_s);
            (disagreement, ratio)
        }
        None => (false, None),
    };
    Row {
        name: position.name.clone(),
        size: position.size,
        moves: position.moves.clone(),
        to_move: position.to_move.name().to_string(),
        ours,
        theirs,
        disagreement,
        ratio,
    }
}

/// A time cell of the table: the net CPU seconds, or what happened instead.
fn time_cell(run: Option<&EngineRun>) -> String {
    match run {
        None => "–".to_string(),
        Some(run) if run.status == Status::Solved => format!("{:.3}", run.net_cpu_s),
        Some(run) => format!("{} ({:.1})", status_name(run.status), run.net_cpu_s),
    }
}

/// A wall-time cell: the solve command's wall seconds when the engine solved the position.
fn wall_cell(run: Option<&EngineRun>) -> String {
    match run {
        Some(run) if run.status == Status::Solved => format!("{:.3}", run.wall_s),
        _ => "–".to_string(),
    }
}

/// `ours / theirs` to two places, or a dash.
fn ratio_cell(ours: f64, theirs: Option<f64>) -> String {
    match theirs {
        Some(theirs) if theirs > 0.0 => format!("{:.2}", ours / theirs),
        _ => "–".to_string(),
    }
}

/// The Markdown summary: one row per position, then the totals over the positions both
/// engines solved (or ours solved, without theirs). Beside the CPU seconds, the solve command's
/// wall seconds: with several threads the CPU time adds the threads up, and only the wall time
/// shows a speed-up.
pub fn markdown(rows: &[Row], config_lines: &[String]) -> String {
    let mut text = String::from("# hex-solve-vs\n\n");
    for line in config_lines {
        let _ = writeln!(text, "- {line}");
    }
    text.push_str(
        "\nCPU seconds of each engine's process (user + system), less its start-up on that board size; wall seconds of the solve command alone.\n\n",
    );
    text.push_str(
        "| position | size | winner | theirs CPU s | ours CPU s | ours/theirs | theirs wall s | ours wall s | wall ours/theirs |\n",
    );
    text.push_str("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    let (mut ours_total, mut theirs_total, mut counted) = (0.0, 0.0, 0);
    let (mut ours_wall, mut theirs_wall) = (0.0, 0.0);
    for row in rows {
        let ratio = row.ratio.map_or_else(|| "–".to_string(), |r| format!("{r:.2}"));
        let solved = |run: &EngineRun| run.status == Status::Solved;
        let wall_ratio = if solved(&row.ours) && row.theirs.as_ref().is_some_and(solved) && !row.disagreement
        {
            ratio_cell(row.ours.wall_s, row.theirs.as_ref().map(|t| t.wall_s))
        } else {
            "–".to_string()
        };
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {ratio} | {} | {} | {wall_ratio} |",
            row.name,
            row.size,
            row.winner_text(),
            time_cell(row.theirs.as_ref()),
            time_cell(Some(&row.ours)),
            wall_cell(row.theirs.as_ref()),
            wall_cell(Some(&row.ours)),
        );
        let both = solved(&row.ours) && row.theirs.as_ref().is_none_or(solved) && !row.disagreement;
        if both {
            counted += 1;
            ours_total += row.ours.net_cpu_s;
            theirs_total += row.theirs.as_ref().map_or(0.0, |t| t.net_cpu_s);
            ours_wall += row.ours.wall_s;
            theirs_wall += row.theirs.as_ref().map_or(0.0, |t| t.wall_s);
        }
    }
    let compared = rows.iter().any(|r| r.theirs.is_some());
    let ratio = if compared && theirs_total > 0.0 {
        format!("{:.2}", ours_total / theirs_total)
    } else {
        "–".into()
    };
    let theirs = if compared { format!("{theirs_total:.3}") } else { "–".to_string() };
    let (theirs_wall_cell, wall_ratio) = if compared {
        (format!("{theirs_wall:.3}"), ratio_cell(ours_wall, Some(theirs_wall)))
    } else {
        ("–".to_string(), "–".to_string())
    };
    let _ = writeln!(
        text,
        "| **total** ({counted} of {} solved{}) | | | {theirs} | {ours_total:.3} | {ratio} | {theirs_wall_cell} | {ours_wall:.3} | {wall_ratio} |",
        rows.len(),
        if compared { " by both" } else { "" }
    );
    let disagreements: Vec<&str> = rows.iter().filter(|r| r.disagreement).map(|r| r.name.as_str()).collect();
    if !disagreements.is_empty() {
        let _ = writeln!(text, "\n**DISAGREEMENT** on {}.", disagreements.join(", "));
    }
    text
}

/// Runs the comparison; `Ok(true)` when no two engines disagreed.
pub fn run(config: &SolveVsConfig) -> Result<bool, SolveVsError> {
    let mut positions = read_positions(&config.positions)
        .map_err(|source| SolveVsError::Positions { path: config.positions.clone(), source })?;
    if !config.only.is_empty() {
        if let Some(unknown) = config.only.iter().find(|name| !positions.iter().any(|p| &&p.name == name)) {
            return Err(SolveVsError::UnknownName(unknown.clone()));
        }
        positions.retain(|p| config.only.contains(&p.name));
    }
    if config.children {
        positions = children(&positions);
    }
    std::fs::create_dir_all(&config.out)
        .map_err(|source| SolveVsError::Output { path: config.out.clone(), source })?;
    let results = config.out.join(RESULTS_FILE);
    let mut writer = std::fs::File::create(&results)
        .map(std::io::BufWriter::new)
        .map_err(|source| SolveVsError::Output { path: results.clone(), source })?;
    let timeout = config.timeout.unwrap_or(NO_TIMEOUT);

    let mut config_lines = Vec::new();
    for spec in std::iter::once(&config.ours).chain(config.theirs.as_ref()) {
        config_lines.push(format!(
            "{}: `{}`, setup `{}`, solve `{}`",
            spec.label,
            spec.command,
            spec.setup.join("; "),
            spec.solve
        ));
    }
    config_lines.push(format!(
        "positions: {} ({} run), timeout {}{}",
        config.positions.display(),
        positions.len(),
        config.timeout.map_or_else(|| "none".to_string(), |t| format!("{} s", t.as_secs_f64())),
        if config.repeat > 1 {
            format!(", each solved {} times by each engine (the least net CPU time kept)", config.repeat)
        } else {
            String::new()
        }
    ));
    for line in &config_lines {
        println!("{line}");
    }

    let mut ours = Runner::new(&config.ours, config.engine_stderr)?;
    let mut theirs =
        config.theirs.as_ref().map(|spec| Runner::new(spec, config.engine_stderr)).transpose()?;
    let mut rows = Vec::new();
    for position in &positions {
        // The engines alternate solve by solve, so that a slow spell of the machine falls on
        // both.
        let (mut theirs_runs, mut ours_runs) = (Vec::new(), Vec::new());
        for _ in 0..config.repeat.max(1) {
            if let Some(runner) = &mut theirs {
                theirs_runs.push(runner.solve(position, timeout)?);
            }
            ours_runs.push(ours.solve(position, timeout)?);
        }
        let theirs_run = (!theirs_runs.is_empty()).then(|| least_of(theirs_runs));
        let row = make_row(position, least_of(ours_runs), theirs_run);
        let mut line = format!(
            "{} ({}x{}, {} to move): ours {}",
            row.name,
            row.size,
            row.size,
            row.to_move,
            row.ours.short()
        );
        if let Some(theirs) = &row.theirs {
            let _ = write!(line, ", theirs {}", theirs.short());
        }
        if let Some(ratio) = row.ratio {
            let _ = write!(line, ", ours/theirs {ratio:.2}");
        }
        println!("{line}");
        for run in std::iter::once(&row.ours).chain(row.theirs.as_ref()) {
            if let Some(error) = &run.error {
                println!("    {error}");
            }
        }
        if row.disagreement {
            eprintln!(
                "DISAGREEMENT on {}: ours says {}, theirs says {}",
                row.name,
                row.ours.winner.as_deref().unwrap_or("?"),
                row.theirs.as_ref().and_then(|t| t.winner.as_deref()).unwrap_or("?")
            );
        }
        let json = serde_json::to_string(&row).expect("rows serialise");
        writeln!(writer, "{json}")
            .and_then(|()| writer.flush())
            .map_err(|source| SolveVsError::Output { path: results.clone(), source })?;
        rows.push(row);
    }
    let text = markdown(&rows, &config_lines);
    let summary = config.out.join(SUMMARY_FILE);
    std::fs::write(&summary, &text)
        .map_err(|source| SolveVsError::Output { path: summary.clone(), source })?;
    println!("\n{text}");
    println!("wrote {} and {}", results.display(), summary.display());
    let unsolved: Vec<String> = rows
        .iter()
        .flat_map(|row| {
            let ours = std::iter::once(("ours", &row.ours));
            ours.chain(row.theirs.as_ref().map(|t| ("theirs", t)))
                .filter(|(_, run)| run.status != Status::Solved)
                .map(move |(label, run)| format!("{} {label} {}", row.name, status_name(run.status)))
        })
        .collect();
    if !unsolved.is_empty() {
        println!("not solved ({}): {}", unsolved.len(), unsolved.join(", "));
    }
    let agreed = rows.iter().all(|r| !r.disagreement);
    if !agreed {
        eprintln!("DISAGREEMENT: the engines named different winners; see above");
    }
    Ok(agreed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex_match::engine::parse_response;

    fn line_error(text: &str) -> (usize, String) {
        match parse_positions(text) {
            Err(PositionsError::Line { line, message }) => (line, message),
            other => panic!("expected a line error, got {other:?}"),
        }
    }

    #[test]
    fn positions_parse_with_comments_blank_lines_and_no_moves() {
        let text = "# a comment\n\n7x7-empty 7\n  7x7-d1 7 d1 \n5x5 5 c3 b4\n";
        let positions = parse_positions(text).unwrap();
        assert_eq!(positions.len(), 3);
        assert_eq!(positions[0].name, "7x7-empty");
        assert_eq!(positions[0].moves, Vec::<String>::new());
        assert_eq!(positions[0].to_move, Color::Black);
        assert_eq!(positions[0].line, 3);
        assert_eq!(positions[1].moves, ["d1"]);
        assert_eq!(positions[1].to_move, Color::White);
        assert_eq!((positions[2].size, positions[2].moves.clone()), (5, vec!["c3".into(), "b4".into()]));
        assert_eq!(positions[2].to_move, Color::Black);
    }

    #[test]
    fn bad_lines_are_named_with_their_number() {
        let (line, message) = line_error("# x\nok 4 a1\nbad 4 a1 e9\n");
        assert_eq!(line, 3);
        assert!(message.contains("move 2") && message.contains("e9 is off the 4x4 board"), "{message}");
        let (line, message) = line_error("bad 4 a1 zz\n");
        assert_eq!(line, 1);
        assert!(message.contains("\"zz\""), "{message}");
        let (line, message) = line_error("\n\nbad 4 a1 b2 a1\n");
        assert_eq!(line, 3);
        assert!(message.contains("move 3: a1 is already occupied"), "{message}");
        for size in ["0", "20", "x", "-1"] {
            let (line, message) = line_error(&format!("a 4\nbad {size} a1\n"));
            assert_eq!(line, 2);
            assert!(message.contains(&format!("bad size {size:?}")), "{message}");
        }
        let (line, message) = line_error("nosize\n");
        assert_eq!(line, 1);
        assert!(message.contains("no board size"), "{message}");
        let (line, message) = line_error("over 2 a1 b1 a2\n");
        assert_eq!(line, 1);
        assert!(message.contains("the game is over (black has connected)"), "{message}");
        let (line, message) = line_error("after 2 a1 b1 a2 b2\n");
        assert_eq!(line, 1);
        assert!(message.contains("move 4: b2 comes after black has connected"), "{message}");
        let (line, message) = line_error("twice 4\ntwice 5\n");
        assert_eq!(line, 2);
        assert!(message.contains("used by an earlier line"), "{message}");
        assert!(matches!(parse_positions("# only comments\n\n"), Err(PositionsError::Empty)));
    }

    #[test]
    fn the_shipped_position_files_parse() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let data = root.join("crates/hex/tests/data");
        let full = read_positions(&data.join("solve-positions.txt")).unwrap();
        let names: Vec<&str> = full.iter().map(|p| p.name.as_str()).collect();
        for name in ["7x7-empty", "7x7-d1", "7x7-c3", "7x7-a2", "7x7-g2", "7x7-a4", "8x8-empty", "6x6-f3"] {
            assert!(names.contains(&name), "{name} is missing");
        }
        assert_eq!(full.iter().filter(|p| p.size == 6).count(), 18);
        // No two 6x6 openings are rotations of each other.
        let sixes: HashSet<(u8, u8)> = full
            .iter()
            .filter(|p| p.size == 6)
            .map(|p| {
                let cell = hex::parse_cell(&p.moves[0], 6).unwrap();
                let turned = (5 - cell.row, 5 - cell.col);
                (cell.row, cell.col).min(turned)
            })
            .collect();
        assert_eq!(sixes.len(), 18);
        let ci = read_positions(&data.join("solve-positions-ci.txt")).unwrap();
        assert!((3..=4).contains(&ci.len()));
        assert!(ci.iter().all(|p| p.size <= 6));
        // The 8x8 map: 32 openings, none the rotation of another, so with their rotations
        // they are the 64 cells of the board.
        let map = read_positions(&data.join("solve-positions-8x8-map.txt")).unwrap();
        assert_eq!(map.len(), 32);
        let mut cells = HashSet::new();
        for p in &map {
            assert_eq!((p.size, p.moves.len()), (8, 1), "{}", p.name);
            let cell = hex::parse_cell(&p.moves[0], 8).unwrap();
            cells.insert((cell.row, cell.col));
            cells.insert((7 - cell.row, 7 - cell.col));
        }
        assert_eq!(cells.len(), 64);
    }

    #[test]
    fn winners_are_read_from_gtp_answers_with_or_without_ids() {
        let winner = |block: &str| parse_winner(&parse_response(block).expect("a GTP response"));
        assert_eq!(winner("= black"), Ok(Color::Black));
        assert_eq!(winner("=12 white"), Ok(Color::White));
        assert_eq!(winner("= W"), Ok(Color::White));
        assert_eq!(winner("= b"), Ok(Color::Black));
        assert_eq!(winner("=  Black  "), Ok(Color::Black));
        assert!(winner("= unknown").unwrap_err().contains("not black or white"));
        assert!(winner("= ").is_err());
        assert_eq!(
            winner("? unknown: the solver reached its time limit").unwrap_err(),
            "refused: unknown: the solver reached its time limit"
        );
        assert!(parse_response("black").is_none());
    }

    #[test]
    fn children_are_every_empty_cell_but_a_winning_one() {
        let positions = parse_positions("p 3 b2 a1\nq 2 a1 b1\n").unwrap();
        let kids = children(&positions);
        // 3x3 after b2 a1: seven empty cells, none connects Black at once.
        let p: Vec<_> = kids.iter().filter(|k| k.name.starts_with("p+")).collect();
        assert_eq!(p.len(), 7);
        assert_eq!(p[0].name, "p+b1");
        assert_eq!(p[0].moves, ["b2", "a1", "b1"]);
        assert_eq!(p[0].to_move, Color::White);
        assert_eq!(p[0].size, 3);
        // 2x2 after a1 b1, Black to move: a2 connects a1 to the bottom (left out), b2 does not.
        let q: Vec<_> = kids.iter().filter(|k| k.name.starts_with("q+")).map(|k| k.name.as_str()).collect();
        assert_eq!(q, ["q+b2"]);
        // Every child parses back as a position of its own.
        let text: String =
            kids.iter().map(|k| format!("{} {} {}\n", k.name, k.size, k.moves.join(" "))).collect();
        assert_eq!(
            parse_positions(&text).unwrap(),
            kids.iter()
                .map(|k| SolvePosition { line: 0, ..k.clone() })
                .zip(1..)
                .map(|(k, line)| SolvePosition { line, ..k })
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn setup_lists_split_at_semicolons() {
        assert_eq!(
            split_setup("param_solver time 0; param_hex seed 2 ;;"),
            ["param_solver time 0", "param_hex seed 2"]
        );
        assert!(split_setup(" ; ").is_empty());
    }

    fn run_of(winner: Option<&str>, net: f64) -> EngineRun {
        EngineRun {
            status: if winner.is_some() { Status::Solved } else { Status::Timeout },
            winner: winner.map(str::to_string),
            error: None,
            cpu_s: net + 0.5,
            startup_cpu_s: 0.5,
            net_cpu_s: net,
            wall_s: net + 0.25,
            net_cpu_samples: Vec::new(),
        }
    }

    #[test]
    fn repeated_solves_keep_the_least_and_every_sample() {
        let least = least_of(vec![
            run_of(Some("black"), 2.0),
            run_of(Some("black"), 1.5),
            run_of(Some("black"), 3.0),
        ]);
        assert_eq!((least.status, least.net_cpu_s, least.wall_s), (Status::Solved, 1.5, 1.75));
        assert_eq!(least.net_cpu_samples, [2.0, 1.5, 3.0]);
        let json = serde_json::to_string(&least).unwrap();
        assert!(json.contains("\"net_cpu_samples\":[2.0,1.5,3.0]"), "{json}");
        let back: EngineRun = serde_json::from_str(&json).unwrap();
        assert_eq!(back, least);

        // One solve: no samples, and the line is as without --repeat.
        let single = least_of(vec![run_of(Some("white"), 0.7)]);
        assert!(single.net_cpu_samples.is_empty());
        assert!(!serde_json::to_string(&single).unwrap().contains("samples"));

        // A solve that named no winner stands for the whole, however fast the others were.
        let late = least_of(vec![run_of(Some("black"), 0.1), run_of(None, 9.0)]);
        assert_eq!((late.status, late.net_cpu_s), (Status::Timeout, 9.0));
        assert_eq!(late.net_cpu_samples, [0.1, 9.0]);

        // Different winners from one engine are its failure, not a choice of the least.
        let unsure = least_of(vec![run_of(Some("black"), 1.0), run_of(Some("white"), 0.5)]);
        assert_eq!((unsure.status, unsure.winner.as_deref()), (Status::Failed, None));
        assert!(unsure.error.as_deref().is_some_and(|e| e.contains("black, white")), "{unsure:?}");
        let row = make_row(
            &SolvePosition { name: "u".into(), size: 5, moves: vec![], to_move: Color::Black, line: 1 },
            unsure,
            Some(run_of(Some("black"), 1.0)),
        );
        assert_eq!((row.disagreement, row.ratio), (false, None));
    }

    #[test]
    fn rows_flag_disagreements_and_ratios_and_the_summary_totals_them() {
        let position = |name: &str| SolvePosition {
            name: name.to_string(),
            size: 7,
            moves: vec!["d1".to_string()],
            to_move: Color::White,
            line: 1,
        };
        let agree = make_row(&position("a"), run_of(Some("white"), 2.0), Some(run_of(Some("white"), 1.0)));
        assert!(!agree.disagreement);
        assert_eq!(agree.ratio, Some(2.0));
        let differ = make_row(&position("b"), run_of(Some("white"), 1.0), Some(run_of(Some("black"), 1.0)));
        assert!(differ.disagreement);
        let late = make_row(&position("c"), run_of(None, 9.0), Some(run_of(Some("black"), 1.0)));
        assert!(!late.disagreement);
        assert_eq!(late.ratio, None);
        let alone = make_row(&position("d"), run_of(Some("black"), 3.0), None);
        assert_eq!((alone.disagreement, alone.ratio), (false, None));

        let text = markdown(&[agree.clone(), differ, late], &[]);
        assert!(text.contains("| a | 7 | white | 1.000 | 2.000 | 2.00 | 1.250 | 2.250 | 1.80 |"), "{text}");
        assert!(text.contains("| b | 7 | DISAGREE |"), "{text}");
        assert!(text.contains("| c | 7 | black | 1.000 | timeout (9.0) | – | 1.250 | – | – |"), "{text}");
        assert!(
            text.contains(
                "| **total** (1 of 3 solved by both) | | | 1.000 | 2.000 | 2.00 | 1.250 | 2.250 | 1.80 |"
            ),
            "{text}"
        );
        assert!(text.contains("**DISAGREEMENT** on b."), "{text}");
        let json = serde_json::to_string(&agree).unwrap();
        assert!(json.contains("\"net_cpu_s\":2.0") && json.contains("\"ratio\":2.0"), "{json}");

        let ours_only = markdown(&[alone], &[]);
        assert!(ours_only.contains("| d | 7 | black | – | 3.000 | – | – | 3.250 | – |"), "{ours_only}");
        assert!(
            ours_only.contains("| **total** (1 of 1 solved) | | | – | 3.000 | – | – | 3.250 | – |"),
            "{ours_only}"
        );
    }
}
