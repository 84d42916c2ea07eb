//! `cargo xtask hex-match "cmd A" "cmd B"`: a referee that plays two GTP Hex engines against
//! each other and keeps the score.
//!
//! Each game starts with `boardsize N` and `clear_board`, then an opening Black stone drawn
//! from the match seed, sent to both engines with `play`. Games `2k` and `2k + 1` share their
//! opening and swap the colours, so every engine meets every opening from both sides. The side
//! to move is asked `genmove <colour>`; its move is checked and played on the referee's own
//! [`Position`] and relayed to the other engine with `play <colour> <cell>`. The referee, not
//! the engines, decides legality and the winner.
//!
//! Before the first game each engine is started and asked `boardsize N` and `clear_board`
//! once; an engine that fails there stops the match with [`MatchError::Setup`] (a missing
//! configuration file would otherwise turn into a loss in every game).
//!
//! Once the match runs, an engine that ends (EOF, any exit), answers garbage, answers with
//! `?`, names no move or an illegal one, or does not answer within the time limit is killed
//! and loses the game, with the reason recorded; it is started afresh when next needed. `resign` loses too. Counting a
//! failure as a loss is the strict default; against a fragile anchor engine (stock MoHex
//! crashes in some decided endgames) [`MatchConfig::retries`] forgives a few failures per
//! game: the engine is restarted, told the game so far with `play`, and asked again, and the
//! forgiven failures are recorded with the game.
//!
//! With [`MatchConfig::adjudicate`] (`--adjudicate SECONDS`) a failure that is not forgiven
//! costs the game only if the position is not *proved* won for the failing engine's colour
//! (stock MoHex segfaults after its fill-in proves a win, and answers nonsense when fill-in
//! covers every empty cell). The proof is [`hex::bridge_chain::proved_win`] on any board (a
//! connecting move, or edge to edge by bridges with disjoint carriers), then on boards up to
//! [`MAX_SOLVER_SIZE`] the exact solver within that many seconds. A proved position is scored
//! as a win for the failing engine, [`GameEnd::Adjudicated`] with the proof; anything unproved
//! still loses. A resignation is never adjudicated: the engine chose it. A failure that loses
//! is then checked the other way, with the same budget: a position proved won for the winner
//! is recorded with the game (`lost` in [`GameEnd::Failed`]), so that wins handed over by a
//! crash can be told from wins the winner held anyway (stock MoHex also crashes in positions
//! it has lost).
//!
//! Each game records, per engine, how many `genmove` commands it answered and their total wall
//! time ([`GameResult::genmoves`]; the `play`s that bring it up to date are not counted), and
//! each answer's time in order ([`GameResult::move_seconds`]). The summary gives each engine's
//! mean seconds per move, over the game and over its first [`OPENING_ANSWERS`] answers of each
//! game. Compare engines on the second: a program that answers at once in positions it has
//! solved shows a low mean over the game while taking far more than its setting in the
//! opening, where the games are decided (MoHex at `max_time 1` takes about 1.5 s a move there,
//! as its search never gets less than one second after its pre-search).
//!
//! With [`MatchConfig::assist`] (`--assist COMMAND --assist-moves N`) a third engine plays
//! engine A's first N moves of every game and A plays on from there ([`Assist`]): a
//! diagnostic for whether A's games are lost in the opening, by comparing such a run with a
//! plain one on the same openings (`hex-match-report --beside`).
//!
//! Engine command lines are split into words by [`engine::split_command`] (simple shell
//! quoting, no shell features); use `sh -c '…'` for anything more.

pub(crate) mod engine;
#[cfg(test)]
mod tests;

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hex::bridge_chain::{ProvedWin, proved_win};
use hex::solver::{MAX_SOLVER_SIZE, Solution, Solver, SolverConfig, Verdict};
use hex::{Cell, Color, HexMove, Position, move_name, parse_move};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use engine::{Answer, GtpProcess, split_command};
pub use engine::{EngineFailure, SplitError};

use crate::summary::wilson;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The command lines of engine A and engine B.
    pub engines: [String; 2],
    /// Games to play; engine A is Black in the even-numbered ones.
    pub games: u64,
    /// The board side.
    pub size: u8,
    /// The seed the openings are drawn from.
    pub seed: u64,
    /// How long an engine may take to answer any one command.
    pub timeout: Duration,
    /// Whether the engines' standard error is shown (otherwise it is discarded).
    pub engine_stderr: bool,
    /// How many times in one game an engine that fails is restarted, brought back to the
    /// position with `play` and asked again before the failure costs it the game. 0 (strict)
    /// scores every failure as a loss; a tournament against a fragile anchor engine may allow
    /// a few.
    pub retries: u32,
    /// `None` (strict): every failure that is not forgiven loses. `Some(budget)`: a failure in
    /// a position proved won for the failing engine's colour wins instead (see the module
    /// docs); `budget` is the exact solver's time limit on boards it takes.
    pub adjudicate: Option<Duration>,
    /// Another engine that plays engine A's first moves of every game (a diagnostic, see
    /// [`Assist`]); `None`: engine A plays all its moves.
    pub assist: Option<Assist>,
}

/// An assistant for engine A: it plays A's first [`Assist::moves`] moves of every game, and
/// A then plays on from the position they made, told those moves with `play` like the
/// opponent's.
///
/// A diagnostic for where A's games are lost: if A wins no more often when a stronger
/// program plays its first ten moves, its games are not lost in the opening. The assistant is
/// asked `genmove` like any engine and its answers are judged as A's; a failure of the
/// assistant is scored as A's failure (restarts and adjudication included). Its time is not
/// A's: [`GameResult::move_seconds`] and [`GameResult::genmoves`] hold A's own answers only,
/// and [`GameResult::assisted`] says how many of A's moves the assistant played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assist {
    /// The assistant's command line, split like the engines'.
    pub command: String,
    /// How many of engine A's moves of each game the assistant plays.
    pub moves: usize,
}

/// One of the two engines of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EngineId {
    /// The first command line.
    A,
    /// The second command line.
    B,
}

impl EngineId {
    /// Both engines, A first.
    pub const BOTH: [EngineId; 2] = [EngineId::A, EngineId::B];

    /// The other engine.
    pub fn other(self) -> EngineId {
        match self {
            EngineId::A => EngineId::B,
            EngineId::B => EngineId::A,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for EngineId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EngineId::A => "A",
            EngineId::B => "B",
        })
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum GameEnd {
    /// The winner connected its edges.
    Connected,
    /// The loser answered `genmove` with `resign`.
    Resigned,
    /// The loser broke the protocol or the rules.
    Failed {
        /// What went wrong.
        failure: EngineFailure,
        /// With [`MatchConfig::adjudicate`], a proof that the position was won for the winner
        /// when the loser failed (the loser had lost anyway); `None` when none was found (the
        /// failure decided the game) or the match did not adjudicate.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lost: Option<Proof>,
    },
    /// The *winner* broke the protocol or the rules, in a position proved won for it (see
    /// [`MatchConfig::adjudicate`]).
    Adjudicated {
        /// What went wrong.
        failure: EngineFailure,
        /// Why the position was won for it.
        proof: Proof,
    },
}

/// How a position was proved won for the colour of an engine that failed in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "kebab-case")]
pub enum Proof {
    /// The exact solver found a win.
    Solver {
        /// Positions it searched.
        nodes: u64,
        /// Its wall time, in seconds.
        seconds: f64,
    },
    /// [`hex::bridge_chain::proved_win`]: a move that connects at once, or a chain of bridges
    /// from edge to edge whose carriers do not overlap.
    VirtualConnection {
        /// The cell that connects, when the engine was to move and one did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        connecting_move: Option<String>,
        /// The two-cell carriers of the chain, from the colour's first edge.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        carriers: Vec<[String; 2]>,
    },
}

impl Proof {
    fn from_bridge_chain(win: ProvedWin) -> Proof {
        let name = |cell: Cell| move_name(HexMove::Place(cell));
        match win {
            // The referee asks for moves only while nobody has connected, so this does not
            // occur; an empty proof would still be true.
            ProvedWin::Connected => Proof::VirtualConnection { connecting_move: None, carriers: Vec::new() },
            ProvedWin::ConnectingMove(cell) => {
                Proof::VirtualConnection { connecting_move: Some(name(cell)), carriers: Vec::new() }
            }
            ProvedWin::BridgeChain(carriers) => Proof::VirtualConnection {
                connecting_move: None,
                carriers: carriers.into_iter().map(|pair| pair.map(name)).collect(),
            },
        }
    }
}

impl std::fmt::Display for Proof {
    /// `solver, 12 nodes`, `virtual connection, a5 connects` or `virtual connection, 3
    /// bridges`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Proof::Solver { nodes, .. } => {
                write!(f, "solver, {nodes} node{}", if *nodes == 1 { "" } else { "s" })
            }
            Proof::VirtualConnection { connecting_move: Some(cell), .. } => {
                write!(f, "virtual connection, {cell} connects")
            }
            Proof::VirtualConnection { carriers, .. } => {
                let plural = if carriers.len() == 1 { "" } else { "s" };
                write!(f, "virtual connection, {} bridge{plural}", carriers.len())
            }
        }
    }
}

/// How big the exact solver's table is when it adjudicates: 2^18 entries of 80 bytes, 20 MiB,
/// plenty for the endgames it is asked about and small next to two engines.
const ADJUDICATION_TABLE_BITS: u32 = 18;

/// Who wins `position` as it stands (the failing engine to move, unless it failed while being
/// told the opening), with the proof, if one is found within `budget`: the bridge chain of
/// either colour first (instant, any size), then one run of the exact solver on the boards it
/// takes.
pub fn prove_winner(position: &Position, budget: Duration) -> Option<(Color, Proof)> {
    for color in [position.to_move(), position.to_move().opponent()] {
        if let Some(win) = proved_win(position, color) {
            return Some((color, Proof::from_bridge_chain(win)));
        }
    }
    if position.size() > MAX_SOLVER_SIZE {
        return None;
    }
    let config = SolverConfig {
        time_limit: Some(budget),
        table_bits: ADJUDICATION_TABLE_BITS,
        threads: 1,
        ..SolverConfig::default()
    };
    match Solver::new(config).solve(position) {
        Ok(Solution { verdict: Verdict::Win { winner, .. }, stats }) => {
            Some((winner, Proof::Solver { nodes: stats.nodes, seconds: stats.time.as_secs_f64() }))
        }
        // The time limit, or a position the solver does not take (over, or with the swap
        // available): not proved.
        _ => None,
    }
}

impl std::fmt::Display for GameEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameEnd::Connected => f.write_str("connected"),
            GameEnd::Resigned => f.write_str("resigned"),
            GameEnd::Failed { failure, lost: None } => write!(f, "{}: {failure}", failure.kind()),
            GameEnd::Failed { failure, lost: Some(proof) } => {
                write!(f, "{}: {failure}, in a position proved lost for it ({proof})", failure.kind())
            }
            GameEnd::Adjudicated { failure, proof } => {
                write!(f, "adjudicated after {}: {failure} ({proof})", failure.kind())
            }
        }
    }
}

/// An engine failure that did not cost the game: the engine was restarted and asked again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Restart {
    /// The engine that failed.
    pub engine: EngineId,
    /// How.
    pub failure: EngineFailure,
}

/// An engine's `genmove` answers in one game and the wall time they took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveTime {
    /// `genmove` commands answered: a move (legal or not), `resign` or a `?` refusal; not a
    /// crash, a timeout or garbage, which say nothing about the engine's thinking time.
    pub moves: u32,
    /// Their total wall time in seconds, from sending `genmove` to reading the answer.
    pub seconds: f64,
}

impl MoveTime {
    fn add(&mut self, elapsed: Duration) {
        self.moves += 1;
        self.seconds += elapsed.as_secs_f64();
    }
}

/// One finished game, as printed and as written to the JSON lines file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The game's number in the match, from 0.
    pub game: u64,
    /// The engine that played Black (moves first, connects top and bottom).
    pub black: EngineId,
    /// The engine that played White.
    pub white: EngineId,
    /// The opening Black stone the referee placed.
    pub opening: String,
    /// Every move of the game in order, the opening first.
    pub moves: Vec<String>,
    /// The winning engine.
    pub winner: EngineId,
    /// The winner's colour.
    #[serde(with = "color_name")]
    pub winner_color: Color,
    /// How the game ended.
    pub end: GameEnd,
    /// Wall time of the game, in seconds, engine restarts included.
    pub seconds: f64,
    /// The failures that were forgiven (see [`MatchConfig::retries`]), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restarts: Vec<Restart>,
    /// Engine A's and engine B's `genmove` answers and their time, in that order (all zero
    /// in records written before they were kept).
    #[serde(default)]
    pub genmoves: [MoveTime; 2],
    /// The wall time of each of engine A's and engine B's `genmove` answers, in seconds, in
    /// the order asked (empty in records written before they were kept). An engine's mean
    /// over a whole game hides where it spends its time: a program that answers at once in
    /// decided endgames can take far longer than its setting in the opening, where games are
    /// decided.
    #[serde(default, skip_serializing_if = "no_move_seconds")]
    pub move_seconds: [Vec<f64>; 2],
    /// How many of engine A's moves the assistant played ([`MatchConfig::assist`]); 0, and
    /// left out of the JSON, without one.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub assisted: usize,
}

/// Whether a count is zero (it is then left out of the JSON).
fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// Whether a record has no per-move times (they are then left out of its JSON).
fn no_move_seconds(times: &[Vec<f64>; 2]) -> bool {
    times.iter().all(Vec::is_empty)
}

/// The answers of each game that [`EngineSummary::opening_seconds_per_move`] counts: an
/// engine's first five `genmove` answers of each game.
pub const OPENING_ANSWERS: usize = 5;

/// The games of a `hex-match --out` file's text, each with its 1-based line number (blank lines
/// skipped), for the tools that read match files back.
pub(crate) fn game_lines(
    text: &str,
) -> impl Iterator<Item = (usize, Result<GameResult, serde_json::Error>)> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| (index + 1, serde_json::from_str(line)))
}

impl GameResult {
    /// The losing engine.
    pub fn loser(&self) -> EngineId {
        self.winner.other()
    }

    /// The game as one line of text.
    pub fn line(&self) -> String {
        let mut line = format!(
            "game {}: black {}, white {}, opening {}, moves {}, winner {} ({}), {}",
            self.game,
            self.black,
            self.white,
            self.opening,
            self.moves.len(),
            self.winner,
            self.winner_color,
            match &self.end {
                GameEnd::Failed { .. } => format!("{} {}", self.loser(), self.end),
                GameEnd::Adjudicated { failure, proof } => format!(
                    "{winner} failed ({}: {failure}) in a position proved won for it: \
                     adjudicated to {winner} ({proof})",
                    failure.kind(),
                    winner = self.winner,
                ),
                end => end.to_string(),
            }
        );
        for restart in &self.restarts {
            line.push_str(&format!("; {} restarted after {}", restart.engine, restart.failure.kind()));
        }
        line
    }
}

/// Colours as `black` and `white` in the JSON records.
mod color_name {
    use hex::Color;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(color: &Color, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(color.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Color, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "black" => Ok(Color::Black),
            "white" => Ok(Color::White),
            other => Err(D::Error::custom(format!("not a colour: {other}"))),
        }
    }
}

/// One engine's record over a match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSummary {
    /// The engine.
    pub id: EngineId,
    /// Its command line.
    pub command: String,
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games played as Black, and won as Black.
    pub black: (u64, u64),
    /// Games lost by resigning.
    pub resignations: u64,
    /// Games lost by breaking the protocol or the rules.
    pub failures: u64,
    /// Failures forgiven by a restart.
    pub restarts: u64,
    /// Games won by adjudication: it failed in a position proved won for it.
    pub adjudications: u64,
    /// `genmove` commands answered over the match (see [`MoveTime`]).
    pub genmoves: u64,
    /// Their total wall time, in seconds.
    pub genmove_seconds: f64,
    /// Of those, the first [`OPENING_ANSWERS`] of each game with per-move times
    /// ([`GameResult::move_seconds`]): how many, and their total wall time in seconds.
    pub opening: (u64, f64),
    /// The 95% Wilson interval of the win rate.
    pub interval: (f64, f64),
}

impl EngineSummary {
    /// The mean wall time of a `genmove` answer, if there was one.
    pub fn seconds_per_move(&self) -> Option<f64> {
        (self.genmoves > 0).then(|| self.genmove_seconds / self.genmoves as f64)
    }

    /// The mean wall time of the first [`OPENING_ANSWERS`] answers of each game, if the
    /// records have per-move times: the time that counts when comparing engines at equal time.
    pub fn opening_seconds_per_move(&self) -> Option<f64> {
        (self.opening.0 > 0).then(|| self.opening.1 / self.opening.0 as f64)
    }

    /// The summary as one line of text.
    pub fn line(&self) -> String {
        let games = self.wins + self.losses;
        let rate = if games == 0 { 0.0 } else { self.wins as f64 / games as f64 };
        format!(
            "{}: won {}, lost {} of {games} games ({:.1}%, 95% Wilson interval {:.1}%–{:.1}%); \
             won {} of {} as black; lost {} by resigning, {} by failing; won {} by adjudication; \
             restarted {} times; {} — {}",
            self.id,
            self.wins,
            self.losses,
            100.0 * rate,
            100.0 * self.interval.0,
            100.0 * self.interval.1,
            self.black.1,
            self.black.0,
            self.resignations,
            self.failures,
            self.adjudications,
            self.restarts,
            match (self.seconds_per_move(), self.opening_seconds_per_move()) {
                (Some(mean), Some(opening)) => format!(
                    "{mean:.3} s/move over {} moves ({opening:.3} s/move over the first {OPENING_ANSWERS} of each game)",
                    self.genmoves
                ),
                (Some(mean), None) => format!("{mean:.3} s/move over {} moves", self.genmoves),
                (None, _) => "no moves".to_string(),
            },
            self.command,
        )
    }
}

/// What a match adds up to.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// Every game, in order.
    pub games: Vec<GameResult>,
    /// Engine A's and engine B's records.
    pub engines: [EngineSummary; 2],
}

impl MatchSummary {
    /// Adds up `games` for the engines with these command lines.
    pub fn new(commands: &[String; 2], games: Vec<GameResult>) -> MatchSummary {
        let engines = EngineId::BOTH.map(|id| {
            let mut summary = EngineSummary {
                id,
                command: commands[id.index()].clone(),
                wins: 0,
                losses: 0,
                black: (0, 0),
                resignations: 0,
                failures: 0,
                restarts: 0,
                adjudications: 0,
                genmoves: 0,
                genmove_seconds: 0.0,
                opening: (0, 0.0),
                interval: (0.0, 1.0),
            };
            for game in &games {
                let won = game.winner == id;
                if won {
                    summary.wins += 1;
                    if let GameEnd::Adjudicated { .. } = game.end {
                        summary.adjudications += 1;
                    }
                } else {
                    summary.losses += 1;
                    match game.end {
                        GameEnd::Resigned => summary.resignations += 1,
                        GameEnd::Failed { .. } => summary.failures += 1,
                        // The loser of an adjudicated game did nothing wrong.
                        GameEnd::Connected | GameEnd::Adjudicated { .. } => {}
                    }
                }
                let times = game.genmoves[id.index()];
                summary.genmoves += u64::from(times.moves);
                summary.genmove_seconds += times.seconds;
                let first = &game.move_seconds[id.index()]
                    [..game.move_seconds[id.index()].len().min(OPENING_ANSWERS)];
                summary.opening.0 += first.len() as u64;
                summary.opening.1 += first.iter().sum::<f64>();
                summary.restarts += game.restarts.iter().filter(|r| r.engine == id).count() as u64;
                if game.black == id {
                    summary.black.0 += 1;
                    summary.black.1 += u64::from(won);
                }
            }
            summary.interval = wilson(summary.wins, summary.wins + summary.losses);
            summary
        });
        MatchSummary { games, engines }
    }
}

/// Why a match could not be played to the end.
#[derive(Debug, Error)]
pub enum MatchError {
    /// An engine's command line cannot be split into words.
    #[error("engine {id}'s command {command:?}: {source}")]
    BadCommand {
        /// The engine.
        id: EngineId,
        /// Its command line.
        command: String,
        /// What is wrong with it.
        source: SplitError,
    },
    /// An engine's program cannot be started.
    #[error("cannot start engine {id} ({command:?}): {source}")]
    Spawn {
        /// The engine.
        id: EngineId,
        /// Its command line.
        command: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A freshly started engine failed `boardsize` or `clear_board` before the first game:
    /// it cannot play this match (a missing configuration file, an unsupported size), and
    /// counting each of its games as a loss would only hide that.
    #[error("engine {id} ({command:?}) cannot set up a board before the first game: {failure}")]
    Setup {
        /// The engine.
        id: EngineId,
        /// Its command line.
        command: String,
        /// How it failed.
        failure: EngineFailure,
    },
    /// The board side is not one the referee plays on.
    #[error("the board side must be from 2 to {max}, not {size}", max = hex::MAX_SIZE)]
    BadSize {
        /// The side asked for.
        size: u8,
    },
    /// The JSON lines file cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Output {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

/// One engine of the match: how to start it, and the running process if there is one.
struct Seat {
    id: EngineId,
    command: String,
    argv: Vec<String>,
    process: Option<GtpProcess>,
    show_stderr: bool,
    /// How many moves of the current game the engine has been told (or has played itself);
    /// `None` before `boardsize` and `clear_board`.
    known: Option<usize>,
}

impl Seat {
    fn new(id: EngineId, command: &str, show_stderr: bool) -> Result<Seat, MatchError> {
        let argv = split_command(command).map_err(|source| MatchError::BadCommand {
            id,
            command: command.to_string(),
            source,
        })?;
        Ok(Seat { id, command: command.to_string(), argv, process: None, show_stderr, known: None })
    }

    /// The running engine, started if it is not running.
    fn process(&mut self) -> Result<&mut GtpProcess, MatchError> {
        if self.process.is_none() {
            let process = GtpProcess::spawn(&self.argv, self.show_stderr)
                .map_err(|source| MatchError::Spawn { id: self.id, command: self.command.clone(), source })?;
            self.process = Some(process);
        }
        Ok(self.process.as_mut().expect("started above"))
    }

    /// Asks `command`; a `?` answer is a failure too.
    fn expect_success(
        &mut self,
        command: &str,
        timeout: Duration,
    ) -> Result<Result<String, EngineFailure>, MatchError> {
        Ok(match self.process()?.ask(command, timeout) {
            Ok(Answer::Success(text)) => Ok(text),
            Ok(Answer::Failure(message)) => {
                Err(EngineFailure::Refused { command: command.to_string(), message })
            }
            Err(failure) => Err(failure),
        })
    }

    /// Brings the engine to the current game: `boardsize` and `clear_board` if it has not
    /// had them, then a `play` for each move it has not been told.
    fn sync(
        &mut self,
        moves: &[String],
        config: &MatchConfig,
    ) -> Result<Result<(), EngineFailure>, MatchError> {
        let mut known = match self.known {
            Some(known) => known,
            None => {
                for command in [format!("boardsize {}", config.size), "clear_board".to_string()] {
                    if let Err(failure) = self.expect_success(&command, config.timeout)? {
                        return Ok(Err(failure));
                    }
                }
                0
            }
        };
        self.known = Some(known);
        while let Some(mv) = moves.get(known) {
            // Without the swap, colours alternate from Black.
            let color = if known % 2 == 0 { Color::Black } else { Color::White };
            if let Err(failure) = self.expect_success(&format!("play {color} {mv}"), config.timeout)? {
                return Ok(Err(failure));
            }
            known += 1;
            self.known = Some(known);
        }
        Ok(Ok(()))
    }

    /// Stops the engine after a failure; it is started afresh when next needed.
    fn discard(&mut self) {
        self.known = None;
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }
}

/// Runs `op` on the engine; if the engine fails, stops it and, while `budget` lasts, restarts
/// it and runs `op` again (`op` must bring the fresh engine up to date itself).
fn attempt<T>(
    seat: &mut Seat,
    budget: &mut u32,
    restarts: &mut Vec<Restart>,
    mut op: impl FnMut(&mut Seat) -> Result<Result<T, EngineFailure>, MatchError>,
) -> Result<Result<T, EngineFailure>, MatchError> {
    loop {
        match op(seat)? {
            Ok(value) => return Ok(Ok(value)),
            Err(failure) => {
                // Whatever state a failed engine is in, it is not to be trusted.
                seat.discard();
                if *budget == 0 {
                    return Ok(Err(failure));
                }
                *budget -= 1;
                restarts.push(Restart { engine: seat.id, failure });
            }
        }
    }
}

/// The referee's reading of a `genmove` answer in `position`: the move, `None` for `resign`,
/// or the failure.
pub(crate) fn judge(
    position: &Position,
    command: &str,
    answer: &str,
) -> Result<Option<HexMove>, EngineFailure> {
    // Some engines answer in capitals; only the first word is the move.
    let word = answer.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
    if word == "resign" {
        return Ok(None);
    }
    let mv = parse_move(&word, position.size())
        .map_err(|_| EngineFailure::NotAMove { command: command.to_string(), answer: answer.to_string() })?;
    position.check(mv).map_err(|why| EngineFailure::IllegalMove {
        command: command.to_string(),
        mv: word,
        why: why.to_string(),
    })?;
    Ok(Some(mv))
}

/// The opening cell of games `2·pair` and `2·pair + 1`: uniform over the board, from the seed.
pub fn opening_cell(seed: u64, pair: u64, size: u8) -> Cell {
    let cells = u64::from(size) * u64::from(size);
    let draw = splitmix64(seed ^ splitmix64(pair.wrapping_add(0x6865_782d_6d61_7463)));
    Cell::from_id((draw % cells) as usize, size)
}

/// Sebastiano Vigna's SplitMix64 finaliser: a good 64-bit mix, enough to draw openings.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A game's end as the board or the engines decide it, before it is written up.
enum Ending {
    /// This colour won on the board.
    Connected(Color),
    /// This engine resigned or failed.
    Lost(EngineId, Option<EngineFailure>),
}

/// Plays the match, calling `on_game` after each game (to print it or record it), and adds it
/// up. Fails only when an engine cannot be started or `on_game` fails; everything an engine
/// does once running is scored as a game.
pub fn play_match(
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameResult) -> Result<(), MatchError>,
) -> Result<MatchSummary, MatchError> {
    if !(2..=hex::MAX_SIZE).contains(&config.size) {
        return Err(MatchError::BadSize { size: config.size });
    }
    let mut seats = [
        Seat::new(EngineId::A, &config.engines[0], config.engine_stderr)?,
        Seat::new(EngineId::B, &config.engines[1], config.engine_stderr)?,
    ];
    // The assistant plays for A, so its errors are reported as A's.
    let mut assistant = match &config.assist {
        Some(assist) if assist.moves > 0 => {
            Some(Seat::new(EngineId::A, &assist.command, config.engine_stderr)?)
        }
        _ => None,
    };
    // Start every engine and set up a board before the first game, so a wrong program name, a
    // missing configuration file or an unsupported board size fails the match at once instead
    // of losing every game for that engine.
    for seat in seats.iter_mut().chain(assistant.as_mut()) {
        seat.process()?;
        if let Err(failure) = seat.sync(&[], config)? {
            return Err(MatchError::Setup { id: seat.id, command: seat.command.clone(), failure });
        }
    }
    let mut games = Vec::new();
    for game in 0..config.games {
        let result = play_game(config, game, &mut seats, &mut assistant)?;
        on_game(&result)?;
        games.push(result);
    }
    for seat in seats.iter_mut().chain(assistant.as_mut()) {
        if let Some(process) = seat.process.take() {
            process.quit();
        }
    }
    Ok(MatchSummary::new(&config.engines, games))
}

/// Plays game number `game`, the assistant (if any) playing engine A's first moves.
fn play_game(
    config: &MatchConfig,
    game: u64,
    seats: &mut [Seat; 2],
    assistant: &mut Option<Seat>,
) -> Result<GameResult, MatchError> {
    let started = Instant::now();
    let black = if game.is_multiple_of(2) { EngineId::A } else { EngineId::B };
    let engine_of = |color: Color| if color == Color::Black { black } else { black.other() };
    let color_of = |id: EngineId| if id == black { Color::Black } else { Color::White };
    let opening = HexMove::Place(opening_cell(config.seed, game / 2, config.size));
    let mut position = Position::new(u32::from(config.size)).expect("the size is checked before");
    position = position.play(opening).expect("the opening is on an empty board");
    let mut moves = vec![move_name(opening)];
    let mut budgets = [config.retries; 2];
    let mut restarts = Vec::new();
    let mut genmoves = [MoveTime::default(); 2];
    let mut move_seconds = [Vec::new(), Vec::new()];
    // The assistant is started only when it plays a move at all.
    let assist_moves = config.assist.as_ref().map_or(0, |assist| assist.moves);
    let mut assisted = 0;
    for seat in seats.iter_mut().chain(assistant.as_mut()) {
        seat.known = None;
    }
    let ending = 'game: {
        // Both engines get the new game and the opening before anyone moves.
        for id in [black, black.other()] {
            let (seat, budget) = (&mut seats[id.index()], &mut budgets[id.index()]);
            if let Err(failure) = attempt(seat, budget, &mut restarts, |seat| seat.sync(&moves, config))? {
                break 'game Ending::Lost(id, Some(failure));
            }
        }
        loop {
            if let Some(winner) = position.winner() {
                break 'game Ending::Connected(winner);
            }
            let color = position.to_move();
            let mover = engine_of(color);
            let command = format!("genmove {color}");
            let assisting = mover == EngineId::A && assisted < assist_moves;
            let budget = &mut budgets[mover.index()];
            let seat = match assistant.as_mut() {
                Some(helper) if assisting => helper,
                _ => &mut seats[mover.index()],
            };
            // The mover hears the opponent's last move with `play` just before it is asked.
            let asked = attempt(seat, budget, &mut restarts, |seat| {
                if let Err(failure) = seat.sync(&moves, config)? {
                    return Ok(Err(failure));
                }
                // Only the `genmove` is timed: the `play`s above are the referee's relaying.
                let asked = Instant::now();
                let answer = seat.expect_success(&command, config.timeout)?;
                let answered = !matches!(
                    answer,
                    Err(EngineFailure::Crashed { .. }
                        | EngineFailure::Timeout { .. }
                        | EngineFailure::Garbage { .. })
                );
                // The assistant's time is not the mover's.
                if answered && !assisting {
                    let elapsed = asked.elapsed();
                    genmoves[mover.index()].add(elapsed);
                    move_seconds[mover.index()].push(elapsed.as_secs_f64());
                }
                Ok(match answer {
                    Ok(answer) => judge(&position, &command, &answer),
                    Err(failure) => Err(failure),
                })
            })?;
            match asked {
                Err(failure) => break 'game Ending::Lost(mover, Some(failure)),
                Ok(None) => break 'game Ending::Lost(mover, None),
                Ok(Some(mv)) => {
                    position = position.play(mv).expect("judged legal");
                    moves.push(move_name(mv));
                    // `genmove` played the move on the board of the engine that chose it; an
                    // assisted engine hears it with `play` before its next answer.
                    seat.known = Some(moves.len());
                    assisted += usize::from(assisting);
                }
            }
        }
    };
    let (winner, end) = match ending {
        Ending::Connected(color) => (engine_of(color), GameEnd::Connected),
        Ending::Lost(loser, None) => (loser.other(), GameEnd::Resigned),
        // Retries are used up by now: the failure stands, and only a proof can save the game.
        Ending::Lost(failed, Some(failure)) => {
            match config.adjudicate.and_then(|budget| prove_winner(&position, budget)) {
                Some((winner, proof)) if winner == color_of(failed) => {
                    (failed, GameEnd::Adjudicated { failure, proof })
                }
                // The failure only ended a game the failing engine had lost anyway: a report of
                // wins by failures needs to tell these from the failures that decided a game.
                Some((_, proof)) => (failed.other(), GameEnd::Failed { failure, lost: Some(proof) }),
                None => (failed.other(), GameEnd::Failed { failure, lost: None }),
            }
        }
    };
    Ok(GameResult {
        game,
        black,
        white: black.other(),
        opening: move_name(opening),
        moves,
        winner,
        winner_color: if winner == black { Color::Black } else { Color::White },
        end,
        seconds: started.elapsed().as_secs_f64(),
        restarts,
        genmoves,
        move_seconds,
        assisted,
    })
}

/// Plays the match for the command line: a header, one line per game and one per engine on
/// standard output, and one JSON object per game in `out` if given.
pub fn run(config: &MatchConfig, out: Option<&Path>) -> Result<MatchSummary, MatchError> {
    let mut writer = match out {
        Some(path) => {
            let file = File::create(path)
                .map_err(|source| MatchError::Output { path: path.to_path_buf(), source })?;
            Some((path, BufWriter::new(file)))
        }
        None => None,
    };
    println!(
        "hex-match: {} games on {size}x{size}, seed {}, {} s per command",
        config.games,
        config.seed,
        config.timeout.as_secs_f64(),
        size = config.size,
    );
    if let Some(budget) = config.adjudicate {
        println!(
            "adjudication: a failure in a position proved won for the failing engine wins it \
             (bridge chains; the solver for up to {} s on boards up to {MAX_SOLVER_SIZE}x{MAX_SOLVER_SIZE})",
            budget.as_secs_f64()
        );
    }
    for id in EngineId::BOTH {
        println!("engine {id}: {}", config.engines[id.index()]);
    }
    if let Some(assist) = config.assist.as_ref().filter(|assist| assist.moves > 0) {
        println!("assistant: {} plays engine A's first {} moves of each game", assist.command, assist.moves);
    }
    let summary = play_match(config, |game| {
        println!("{}", game.line());
        if let Some((path, writer)) = &mut writer {
            let json = serde_json::to_string(game).expect("game results serialise");
            writeln!(writer, "{json}")
                .and_then(|()| writer.flush())
                .map_err(|source| MatchError::Output { path: path.to_path_buf(), source })?;
        }
        Ok(())
    })?;
    for engine in &summary.engines {
        println!("{}", engine.line());
    }
    if let Some((path, _)) = writer {
        println!("wrote {}", path.display());
    }
    Ok(summary)
}
