//! `cargo xtask hex-probe`: do engines keep a proved win? Positions where the exact solver
//! proves that the side to move wins are given to each engine (`genmove`), and the solver then
//! judges the move: it kept the win, it threw the win away (proved), or the solver could not
//! tell within its limit.
//!
//! A match against a stronger engine says who won, not where: `hex-decided` showed that our
//! 9×9 games against MoHex are decided before a dozen stones, out of reach of whole-game
//! proofs. The probe looks at exactly that border, position by position, with the same
//! positions for every engine in the same run, so two settings of ours, or ours and MoHex, are
//! compared on the moves that decide games, in minutes instead of the hours a 100-game match
//! takes. `cargo xtask hex-probe-positions` makes such positions from a `hex-match` file.
//!
//! Every position is first solved at the root; positions the solver does not prove won for
//! the side to move are skipped (and reported), so any positions file can be used. Each engine
//! is one process for the whole run, restarted after a failure; before each position it gets
//! `boardsize N`, `clear_board` and a `play` per move, then `genmove` (timed by the wall
//! clock). A `resign`, a crash, a timeout or an illegal answer counts as a failure.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hex::solver::{MAX_SOLVER_SIZE, Solver, SolverConfig, Verdict};
use hex::{Color, move_name, play_moves};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::hex_decided::solved_winner;
use crate::hex_match::engine::{Answer, EngineFailure, GtpProcess, split_command};
use crate::hex_match::{game_lines, judge};
use crate::hex_solve_vs::{PositionsError, SolvePosition, read_positions};
use crate::summary::wilson;

/// One engine of a probe: a name for the tables and its command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeEngine {
    /// Its name in the tables (unique in the run).
    pub name: String,
    /// Its command line, split with simple shell quoting as `hex-match` splits it.
    pub command: String,
}

impl std::str::FromStr for ProbeEngine {
    type Err = String;

    /// `NAME=COMMAND`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.split_once('=') {
            Some((name, command)) if !name.trim().is_empty() && !command.trim().is_empty() => {
                Ok(ProbeEngine { name: name.trim().to_string(), command: command.trim().to_string() })
            }
            _ => Err(format!("expected NAME=COMMAND, got {text:?}")),
        }
    }
}

/// What `hex-probe` runs.
#[derive(Clone, Debug)]
pub struct ProbeConfig {
    /// The positions file (`NAME SIZE MOVE...` a line, as `hex-solve-vs` reads it).
    pub positions: PathBuf,
    /// The engines, asked in this order at every position.
    pub engines: Vec<ProbeEngine>,
    /// The solver's time limit for each position it judges.
    pub solve_time: Duration,
    /// The solver's table, 2^BITS entries, shared by the whole run.
    pub table_bits: u32,
    /// Seconds an engine may take to answer any one command.
    pub timeout: Duration,
    /// The output folder: `probe.jsonl` and `summary.md`.
    pub out: PathBuf,
    /// Show the engines' standard error.
    pub engine_stderr: bool,
}

/// How a move fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The solver proves the position after the move won for the mover.
    Kept,
    /// The solver proves it lost: the move threw the win away.
    Lost,
    /// The solver could not decide within its limit.
    Unknown,
    /// The engine resigned, crashed, timed out or answered something that is not a legal move.
    Failed,
}

/// One engine's answer at one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProbeRow {
    /// The position's name.
    pub position: String,
    /// The engine's name.
    pub engine: String,
    /// The move it chose (`None` after a failure or a resignation).
    pub mv: Option<String>,
    /// Wall seconds of its `genmove`.
    pub seconds: f64,
    /// How the move fared.
    pub outcome: Outcome,
    /// What went wrong, for a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// One engine's totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Moves that kept the win.
    pub kept: u64,
    /// Moves that threw it away.
    pub lost: u64,
    /// Moves the solver could not judge.
    pub unknown: u64,
    /// Failures.
    pub failed: u64,
    /// Total wall seconds of the answered `genmove`s.
    pub seconds: f64,
}

impl Tally {
    fn add(&mut self, row: &ProbeRow) {
        match row.outcome {
            Outcome::Kept => self.kept += 1,
            Outcome::Lost => self.lost += 1,
            Outcome::Unknown => self.unknown += 1,
            Outcome::Failed => self.failed += 1,
        }
        if row.outcome != Outcome::Failed {
            self.seconds += row.seconds;
        }
    }

    /// Moves judged: kept, lost or failed (a failure in a won position gives the win away).
    pub fn judged(&self) -> u64 {
        self.kept + self.lost + self.failed
    }
}

/// Failures of `hex-probe` and `hex-probe-positions`.
#[derive(Debug, Error)]
pub enum ProbeError {
    /// The positions file is bad.
    #[error("{0}")]
    Positions(#[from] PositionsError),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An engine's command line is bad, or two engines share a name.
    #[error("engine {name}: {message}")]
    Engine {
        /// The engine's name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// No engine was given.
    #[error("give at least one --engine NAME=COMMAND")]
    NoEngine,
    /// A board the solver does not take.
    #[error(
        "position {name}: the solver takes boards up to {MAX_SOLVER_SIZE}x{MAX_SOLVER_SIZE}, not {size}x{size}"
    )]
    TooLarge {
        /// The position.
        name: String,
        /// Its board side.
        size: u8,
    },
    /// A line of a games file is not a `hex-match` game, or its moves do not replay.
    #[error("{path}, line {line}: {message}")]
    Game {
        /// The file.
        path: PathBuf,
        /// Its 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// An engine's process and whether it is running.
struct Seat {
    spec: ProbeEngine,
    argv: Vec<String>,
    process: Option<GtpProcess>,
}

impl Seat {
    /// Asks `command`, starting the engine first if needed; a failure stops it (it restarts
    /// at the next command).
    fn ask(&mut self, command: &str, config: &ProbeConfig) -> Result<String, String> {
        if self.process.is_none() {
            let process = GtpProcess::spawn(&self.argv, config.engine_stderr)
                .map_err(|e| format!("cannot start {:?}: {e}", self.spec.command))?;
            self.process = Some(process);
        }
        let process = self.process.as_mut().expect("started above");
        let failure = match process.ask(command, config.timeout) {
            Ok(Answer::Success(text)) => return Ok(text),
            Ok(Answer::Failure(message)) => EngineFailure::Refused { command: command.to_string(), message },
            Err(failure) => failure,
        };
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        Err(failure.to_string())
    }

    /// Sets up `position`'s moves and asks for a move: the answer's text and the wall seconds.
    fn genmove(
        &mut self,
        position: &SolvePosition,
        to_move: Color,
        config: &ProbeConfig,
    ) -> Result<(String, f64), String> {
        self.ask(&format!("boardsize {}", position.size), config)?;
        self.ask("clear_board", config)?;
        for (k, mv) in position.moves.iter().enumerate() {
            let colour = if k % 2 == 0 { Color::Black } else { Color::White };
            self.ask(&format!("play {colour} {mv}"), config)?;
        }
        let started = Instant::now();
        let answer = self.ask(&format!("genmove {to_move}"), config)?;
        Ok((answer, started.elapsed().as_secs_f64()))
    }
}

/// Runs the probe: every engine at every position won for the side to move. Returns the rows
/// and writes `probe.jsonl` and `summary.md` into the output folder.
pub fn run(config: &ProbeConfig) -> Result<Vec<ProbeRow>, ProbeError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ProbeError::Io { path, source }
    };
    if config.engines.is_empty() {
        return Err(ProbeError::NoEngine);
    }
    let mut seats = Vec::new();
    for spec in &config.engines {
        if seats.iter().any(|s: &Seat| s.spec.name == spec.name) {
            return Err(ProbeError::Engine {
                name: spec.name.clone(),
                message: "the name is used twice".into(),
            });
        }
        let argv = split_command(&spec.command)
            .map_err(|e| ProbeError::Engine { name: spec.name.clone(), message: e.to_string() })?;
        seats.push(Seat { spec: spec.clone(), argv, process: None });
    }
    let positions = read_positions(&config.positions)?;
    if let Some(p) = positions.iter().find(|p| p.size > MAX_SOLVER_SIZE) {
        return Err(ProbeError::TooLarge { name: p.name.clone(), size: p.size });
    }
    std::fs::create_dir_all(&config.out).map_err(io(&config.out))?;
    let jsonl = config.out.join("probe.jsonl");
    let mut lines = std::fs::File::create(&jsonl).map_err(io(&jsonl))?;
    let mut solver = Solver::new(SolverConfig {
        time_limit: Some(config.solve_time),
        table_bits: config.table_bits,
        ..SolverConfig::default()
    });
    // The solver's judgement of each (position, move), so that engines that agree cost one
    // solve.
    let mut judged: HashMap<(usize, String), Outcome> = HashMap::new();
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for (index, p) in positions.iter().enumerate() {
        let (start, _) = play_moves(u32::from(p.size), p.moves.iter().map(String::as_str))
            .expect("read_positions replayed the moves");
        let mover = start.to_move();
        match solved_winner(&mut solver, &start) {
            Some(w) if w == mover => {}
            found => {
                let why = match found {
                    Some(_) => "lost for the side to move",
                    None => "not decided within the solve time",
                };
                eprintln!("{}: skipped ({why})", p.name);
                skipped.push((p.name.clone(), why));
                continue;
            }
        }
        let mut line = format!("{:<16}", p.name);
        for seat in &mut seats {
            let (mv, seconds, outcome, failure) = match seat.genmove(p, mover, config) {
                Err(failure) => (None, 0.0, Outcome::Failed, Some(failure)),
                Ok((answer, seconds)) => match judge(&start, &format!("genmove {mover}"), &answer) {
                    Err(failure) => (None, seconds, Outcome::Failed, Some(failure.to_string())),
                    Ok(None) => (None, seconds, Outcome::Failed, Some("resigned".to_string())),
                    Ok(Some(mv)) => {
                        let name = move_name(mv);
                        let outcome = *judged.entry((index, name.clone())).or_insert_with(|| {
                            let after = start.play(mv).expect("judged legal");
                            match solved_winner(&mut solver, &after) {
                                Some(w) if w == mover => Outcome::Kept,
                                Some(_) => Outcome::Lost,
                                None => Outcome::Unknown,
                            }
                        });
                        (Some(name), seconds, outcome, None)
                    }
                },
            };
            let _ = write!(line, "  {}: {} {:?}", seat.spec.name, mv.as_deref().unwrap_or("-"), outcome);
            let row = ProbeRow {
                position: p.name.clone(),
                engine: seat.spec.name.clone(),
                mv,
                seconds,
                outcome,
                failure,
            };
            let json = serde_json::to_string(&row).expect("rows serialise");
            writeln!(lines, "{json}").map_err(io(&jsonl))?;
            rows.push(row);
        }
        eprintln!("{line}");
    }
    for seat in &mut seats {
        if let Some(process) = seat.process.take() {
            process.quit();
        }
    }
    let summary = markdown(config, &rows, &skipped);
    let path = config.out.join("summary.md");
    std::fs::write(&path, &summary).map_err(io(&path))?;
    println!("{summary}");
    println!("wrote {} and {}", jsonl.display(), path.display());
    Ok(rows)
}

/// The totals of each engine, in the order the engines were given.
pub fn tallies<'a>(names: impl IntoIterator<Item = &'a str>, rows: &[ProbeRow]) -> Vec<(String, Tally)> {
    names
        .into_iter()
        .map(|name| {
            let mut tally = Tally::default();
            rows.iter().filter(|r| r.engine == name).for_each(|r| tally.add(r));
            (name.to_string(), tally)
        })
        .collect()
}

/// The summary: each engine's totals, then the positions where the engines differ.
pub fn markdown(config: &ProbeConfig, rows: &[ProbeRow], skipped: &[(String, &str)]) -> String {
    let mut text = String::new();
    let positions: Vec<&str> = {
        let mut seen = Vec::new();
        for r in rows {
            if !seen.contains(&r.position.as_str()) {
                seen.push(r.position.as_str());
            }
        }
        seen
    };
    let _ = writeln!(
        text,
        "# hex-probe: {} positions won for the side to move ({} skipped), solver {:.0} s a position\n",
        positions.len(),
        skipped.len(),
        config.solve_time.as_secs_f64()
    );
    for e in &config.engines {
        let _ = writeln!(text, "- {}: `{}`", e.name, e.command);
    }
    let _ = writeln!(
        text,
        "\n| engine | kept the win | threw it away | failed | not judged | kept, of judged | 95 % interval | s/move |"
    );
    let _ = writeln!(text, "|---|---:|---:|---:|---:|---:|---|---:|");
    for (name, t) in tallies(config.engines.iter().map(|e| e.name.as_str()), rows) {
        let judged = t.judged();
        let (low, high) = wilson(t.kept, judged);
        let share = if judged == 0 { 0.0 } else { t.kept as f64 / judged as f64 };
        let answered = t.kept + t.lost + t.unknown;
        let per_move = if answered == 0 { 0.0 } else { t.seconds / answered as f64 };
        let _ = writeln!(
            text,
            "| {name} | {} | {} | {} | {} | {:.1} % | {:.1}–{:.1} % | {per_move:.2} |",
            t.kept,
            t.lost,
            t.failed,
            t.unknown,
            100.0 * share,
            100.0 * low,
            100.0 * high
        );
    }
    let differing: Vec<&str> = positions
        .iter()
        .copied()
        .filter(|p| {
            let outcomes: Vec<Outcome> =
                rows.iter().filter(|r| r.position == *p).map(|r| r.outcome).collect();
            outcomes.windows(2).any(|w| w[0] != w[1])
        })
        .collect();
    if !differing.is_empty() {
        let _ = writeln!(text, "\nPositions where the engines fared differently:\n");
        for p in differing {
            let answers: Vec<String> = rows
                .iter()
                .filter(|r| r.position == p)
                .map(|r| format!("{} {} ({:?})", r.engine, r.mv.as_deref().unwrap_or("-"), r.outcome))
                .collect();
            let _ = writeln!(text, "- {p}: {}", answers.join(", "));
        }
    }
    if !skipped.is_empty() {
        let _ = writeln!(
            text,
            "\nSkipped: {}",
            skipped.iter().map(|(n, why)| format!("{n} ({why})")).collect::<Vec<_>>().join(", ")
        );
    }
    text
}

/// What `hex-probe-positions` reads and keeps.
#[derive(Clone, Debug)]
pub struct PositionsConfig {
    /// A `hex-match --out` file.
    pub games: PathBuf,
    /// The board side of its games.
    pub size: u8,
    /// The first and last ply (stones on the board) to look at, both included.
    pub plies: (usize, usize),
    /// The solver's time limit per position.
    pub solve_time: Duration,
    /// The solver's table, 2^BITS entries.
    pub table_bits: u32,
    /// Keep only positions whose proof took at least this many nodes: 1 keeps every proved
    /// position, 2 drops those the position's connections decide without a search (a side
    /// with a virtual connection wins whatever it plays next, so they test nothing).
    pub min_nodes: u64,
    /// Where to write the positions file.
    pub out: PathBuf,
}

/// Writes a positions file of every position of the games, at the plies asked, that the
/// solver proves won for the side to move (each distinct position once, named `gGAME-pPLY`,
/// with a comment line giving the nodes and seconds of its proof, the table already holding
/// the proofs of the game's later positions). Returns how many were written.
pub fn make_positions(config: &PositionsConfig) -> Result<usize, ProbeError> {
    if config.size > MAX_SOLVER_SIZE {
        return Err(ProbeError::TooLarge { name: config.games.display().to_string(), size: config.size });
    }
    let text = std::fs::read_to_string(&config.games)
        .map_err(|source| ProbeError::Io { path: config.games.clone(), source })?;
    let mut solver = Solver::new(SolverConfig {
        time_limit: Some(config.solve_time),
        table_bits: config.table_bits,
        ..SolverConfig::default()
    });
    let mut out = format!(
        "# Positions for `cargo xtask hex-probe`, made by `cargo xtask hex-probe-positions` from {}:\n\
         # plies {} to {}, each proved won for the side to move within {:.0} s and {} nodes or more.\n",
        config.games.display(),
        config.plies.0,
        config.plies.1,
        config.solve_time.as_secs_f64(),
        config.min_nodes
    );
    let mut seen = std::collections::HashSet::new();
    let mut count = 0;
    for (line, game) in game_lines(&text) {
        let bad = |message: String| ProbeError::Game { path: config.games.clone(), line, message };
        let game = game.map_err(|e| bad(e.to_string()))?;
        // From the end of the game backwards, as `hex-decided` scans: each proof fills the
        // table for the position before it, so positions near the border of what the solver
        // decides are proved at all; the scan stops at the first position it cannot decide.
        let mut kept = Vec::new();
        for ply in (config.plies.0..game.moves.len()).rev() {
            let moves = &game.moves[..ply];
            let (position, _) = play_moves(u32::from(config.size), moves.iter().map(String::as_str))
                .map_err(|e| bad(format!("{e} (is --size right?)")))?;
            if position.winner().is_some() {
                continue;
            }
            let started = Instant::now();
            let Ok(solution) = solver.solve(&position) else { break };
            let Verdict::Win { winner, .. } = solution.verdict else { break };
            if ply <= config.plies.1
                && winner == position.to_move()
                && solution.stats.nodes >= config.min_nodes
                && seen.insert(moves.to_vec())
            {
                let mut text = format!(
                    "# game {}, ply {ply}: {} to move wins ({} nodes, {:.1} s)\ng{}-p{ply} {}",
                    game.game,
                    winner,
                    solution.stats.nodes,
                    started.elapsed().as_secs_f64(),
                    game.game,
                    config.size
                );
                moves.iter().for_each(|m| {
                    let _ = write!(text, " {m}");
                });
                kept.push(text);
            }
        }
        count += kept.len();
        for text in kept.iter().rev() {
            out.push_str(text);
            out.push('\n');
        }
    }
    std::fs::write(&config.out, out).map_err(|source| ProbeError::Io { path: config.out.clone(), source })?;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex_match::{EngineId, GameEnd, GameResult, MoveTime};
    use crate::hex_solve_vs::parse_positions;
    use hex::{Cell, HexMove};

    /// An engine that accepts every command and answers `genmove` with `answer`.
    fn answering(answer: &str) -> String {
        format!(
            r#"sh -c 'while read c rest; do case $c in genmove) printf "= {answer}\n\n";; *) printf "=\n\n";; esac; done'"#
        )
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hex-probe-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// 3x3 after b2 c1, Black to move and winning: one Black reply that keeps the win and
    /// one that throws it away, by the solver.
    fn keep_and_throw() -> (String, String) {
        let mut solver = Solver::new(SolverConfig { table_bits: 12, ..SolverConfig::default() });
        let (start, _) = play_moves(3, ["b2", "c1"]).unwrap();
        assert_eq!(solved_winner(&mut solver, &start), Some(Color::Black));
        let mut keep = None;
        let mut throw = None;
        for id in 0..9 {
            let mv = HexMove::Place(Cell::from_id(id, 3));
            let Ok(after) = start.play(mv) else { continue };
            match solved_winner(&mut solver, &after) {
                Some(Color::Black) => keep = keep.or(Some(move_name(mv))),
                Some(Color::White) => throw = throw.or(Some(move_name(mv))),
                None => panic!("3x3 is always decided"),
            }
        }
        (keep.expect("a winning reply"), throw.expect("a losing reply"))
    }

    #[test]
    fn moves_are_judged_kept_lost_or_failed() {
        let (keep, throw) = keep_and_throw();
        let dir = temp_dir("judge");
        let positions = dir.join("positions.txt");
        // The second position is lost for the side to move (on 3x3 Black's centre wins), so
        // it is skipped.
        std::fs::write(&positions, "won 3 b2 c1\nlost 3 b2\n").unwrap();
        let engine = |name: &str, command: String| ProbeEngine { name: name.into(), command };
        let config = ProbeConfig {
            positions,
            engines: vec![
                engine("keeper", answering(&keep)),
                engine("thrower", answering(&throw)),
                engine("resigner", answering("resign")),
                engine("occupier", answering("b2")),
            ],
            solve_time: Duration::from_secs(5),
            table_bits: 12,
            timeout: Duration::from_secs(5),
            out: dir.join("out"),
            engine_stderr: false,
        };
        let rows = run(&config).unwrap();
        let outcomes: Vec<(&str, Outcome)> = rows.iter().map(|r| (r.engine.as_str(), r.outcome)).collect();
        assert_eq!(
            outcomes,
            vec![
                ("keeper", Outcome::Kept),
                ("thrower", Outcome::Lost),
                ("resigner", Outcome::Failed),
                ("occupier", Outcome::Failed)
            ]
        );
        assert!(rows.iter().all(|r| r.position == "won"));
        assert_eq!(rows[0].mv.as_deref(), Some(keep.as_str()));
        let summary = std::fs::read_to_string(dir.join("out").join("summary.md")).unwrap();
        assert!(summary.contains("| keeper | 1 | 0 | 0 | 0 | 100.0 % |"), "{summary}");
        assert!(summary.contains("| thrower | 0 | 1 | 0 | 0 | 0.0 % |"), "{summary}");
        assert!(summary.contains("lost (lost for the side to move)"), "{summary}");
        let lines = std::fs::read_to_string(dir.join("out").join("probe.jsonl")).unwrap();
        let back: Vec<ProbeRow> = lines.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(back, rows);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_engines_and_files_are_errors() {
        assert!("keeper".parse::<ProbeEngine>().is_err());
        assert!("=cmd".parse::<ProbeEngine>().is_err());
        assert_eq!(
            "a = target/release/hex-gtp --param time=1".parse::<ProbeEngine>(),
            Ok(ProbeEngine { name: "a".into(), command: "target/release/hex-gtp --param time=1".into() })
        );
        let dir = temp_dir("bad");
        let base = ProbeConfig {
            positions: dir.join("missing.txt"),
            engines: vec![],
            solve_time: Duration::from_secs(1),
            table_bits: 10,
            timeout: Duration::from_secs(1),
            out: dir.join("out"),
            engine_stderr: false,
        };
        assert!(matches!(run(&base), Err(ProbeError::NoEngine)));
        let one = ProbeEngine { name: "a".into(), command: answering("a1") };
        let twice = ProbeConfig { engines: vec![one.clone(), one.clone()], ..base.clone() };
        assert!(matches!(run(&twice), Err(ProbeError::Engine { .. })));
        let missing = ProbeConfig { engines: vec![one.clone()], ..base.clone() };
        assert!(matches!(run(&missing), Err(ProbeError::Positions(_))));
        let big = dir.join("big.txt");
        std::fs::write(&big, "p 13 a1\n").unwrap();
        let too_large = ProbeConfig { engines: vec![one], positions: big, ..base };
        assert!(matches!(run(&too_large), Err(ProbeError::TooLarge { size: 13, .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn positions_from_games_are_won_for_the_side_to_move() {
        let dir = temp_dir("make");
        let games = dir.join("games.jsonl");
        let moves = ["a1", "b2", "c1", "b1", "a2", "a3", "c2"];
        let game = GameResult {
            game: 4,
            black: EngineId::A,
            white: EngineId::B,
            opening: moves[0].to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            winner: EngineId::A,
            winner_color: Color::Black,
            end: GameEnd::Connected,
            seconds: 1.0,
            restarts: Vec::new(),
            genmoves: [MoveTime::default(); 2],
            move_seconds: Default::default(),
            assisted: 0,
        };
        // The same game twice: each position is written once.
        let line = serde_json::to_string(&game).unwrap();
        std::fs::write(&games, format!("{line}\n{line}\n")).unwrap();
        let out = dir.join("positions.txt");
        let config = PositionsConfig {
            games: games.clone(),
            size: 3,
            plies: (0, 6),
            solve_time: Duration::from_secs(5),
            table_bits: 12,
            min_nodes: 1,
            out: out.clone(),
        };
        let count = make_positions(&config).unwrap();
        let positions = parse_positions(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(positions.len(), count);
        assert!(count >= 1, "the empty 3x3 board is won for Black to move");
        let mut solver = Solver::new(SolverConfig { table_bits: 12, ..SolverConfig::default() });
        let mut expected = 0;
        for ply in 0..=6 {
            let (p, _) = play_moves(3, moves[..ply].iter().copied()).unwrap();
            if p.winner().is_none() && solved_winner(&mut solver, &p) == Some(p.to_move()) {
                expected += 1;
                assert!(positions.iter().any(|q| q.name == format!("g4-p{ply}")), "ply {ply} missing");
            }
        }
        assert_eq!(count, expected);
        std::fs::write(&games, "{\"game\": 1}\n").unwrap();
        assert!(matches!(make_positions(&config), Err(ProbeError::Game { line: 1, .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
