//! `cargo xtask hex-decided`: where the games of a `hex-match` file were decided.
//!
//! For each game of a JSON lines file written by `hex-match --out`, the exact solver looks at
//! the positions of the game from the last one backwards, each within a time limit, until it
//! meets one it cannot decide. That gives, per game, the first ply from which the solver
//! proves the winner (and which engine held the win there), and every later move that threw a
//! proved win away: the side to move held a won position and moved into a lost one.
//!
//! A match against a stronger engine is usually decided before the solver can see it; then
//! the first proved ply says how early, and the engine that held the win there is the one
//! that had outplayed the other in the part of the game no proof reaches. Moves after it
//! that threw a win away are plain blunders, proved.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::time::Duration;

use hex::solver::{MAX_SOLVER_SIZE, Solver, SolverConfig, Verdict};
use hex::{Color, play_moves};
use serde::{Deserialize, Serialize};

use crate::hex_match::{EngineId, GameResult};

/// What `hex-decided` reads and how hard it looks.
#[derive(Clone, Debug, PartialEq)]
pub struct DecidedConfig {
    /// A `hex-match --out` file.
    pub games: PathBuf,
    /// The board side of its games (the file does not record it).
    pub size: u8,
    /// The solver's time limit per position.
    pub time_limit: Duration,
    /// The table size of the solver, in bits (one table per game, shared by its positions).
    pub table_bits: u32,
    /// Also write one JSON object per game here.
    pub out: Option<PathBuf>,
}

/// A move that threw a proved win away.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThrownWin {
    /// Its ply (0 is the opening stone).
    pub ply: usize,
    /// The engine that played it.
    pub engine: EngineId,
    /// The move.
    pub cell: String,
}

/// Where one game was decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameDecision {
    /// The game's number in the match.
    pub game: u64,
    /// The engine that played Black.
    pub black: EngineId,
    /// The engine that won.
    pub winner: EngineId,
    /// Moves in the game.
    pub moves: usize,
    /// The first ply (stones on the board) from which every position was proved, if any.
    pub first_proved: Option<usize>,
    /// The engine whose colour wins at that ply.
    pub held_by: Option<EngineId>,
    /// The moves after it that threw a proved win away.
    pub thrown: Vec<ThrownWin>,
}

/// Failures of `hex-decided`.
#[derive(Debug, thiserror::Error)]
pub enum DecidedError {
    /// The games file could not be read, or the output written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a `hex-match` game.
    #[error("{path}, line {line}: not a hex-match game: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// Its 1-based line.
        line: usize,
        /// Why.
        source: serde_json::Error,
    },
    /// A game's moves do not replay on the board.
    #[error("game {game}: {source} (is --size right?)")]
    Moves {
        /// The game's number.
        game: u64,
        /// Why.
        source: hex::MoveListError,
    },
    /// The board is larger than the solver takes.
    #[error("the solver takes boards up to {MAX_SOLVER_SIZE}x{MAX_SOLVER_SIZE}, not {0}x{0}")]
    TooLarge(u8),
}

/// The winner of `moves[..ply]` by the solver, or `None` if not decided within its limit.
fn winner_at(
    solver: &mut Solver,
    size: u8,
    game: &GameResult,
    ply: usize,
) -> Result<Option<Color>, DecidedError> {
    let (position, _) = play_moves(u32::from(size), game.moves[..ply].iter().map(String::as_str))
        .map_err(|source| DecidedError::Moves { game: game.game, source })?;
    Ok(solved_winner(solver, &position))
}

/// The winner of `position`: the connected side, else the solver's, or `None` if the solver
/// does not decide it within its limit.
pub(crate) fn solved_winner(solver: &mut Solver, position: &hex::Position) -> Option<Color> {
    if let Some(winner) = position.winner() {
        return Some(winner);
    }
    match solver.solve(position) {
        Ok(solution) => match solution.verdict {
            Verdict::Win { winner, .. } => Some(winner),
            Verdict::Unknown(_) => None,
        },
        Err(_) => None,
    }
}

/// Where `game`, played on a `size`×`size` board, was decided (see the [module docs](self)).
pub fn decide(
    game: &GameResult,
    size: u8,
    time_limit: Duration,
    table_bits: u32,
) -> Result<GameDecision, DecidedError> {
    if size > MAX_SOLVER_SIZE {
        return Err(DecidedError::TooLarge(size));
    }
    let config =
        SolverConfig { time_limit: Some(time_limit), table_bits, threads: 1, ..SolverConfig::default() };
    let mut solver = Solver::new(config);
    let engine_of = |colour: Color| if colour == Color::Black { game.black } else { game.white };
    // winners[k]: the winner of the position after k moves, from the end back to the first
    // position the solver cannot decide.
    let n = game.moves.len();
    let mut winners: Vec<Option<Color>> = vec![None; n + 1];
    let mut first = None;
    for ply in (1..=n).rev() {
        match winner_at(&mut solver, size, game, ply)? {
            Some(winner) => {
                winners[ply] = Some(winner);
                first = Some(ply);
            }
            None => break,
        }
    }
    let mut thrown = Vec::new();
    if let Some(first) = first {
        for ply in first..n {
            // After `ply` stones, Black is to move when `ply` is even.
            let mover = if ply % 2 == 0 { Color::Black } else { Color::White };
            if winners[ply] == Some(mover) && winners[ply + 1] == Some(mover.opponent()) {
                thrown.push(ThrownWin { ply, engine: engine_of(mover), cell: game.moves[ply].clone() });
            }
        }
    }
    Ok(GameDecision {
        game: game.game,
        black: game.black,
        winner: game.winner,
        moves: n,
        first_proved: first,
        held_by: first.and_then(|ply| winners[ply]).map(engine_of),
        thrown,
    })
}

/// Reads the games file, decides every game, prints a line per game and a summary.
pub fn run(config: &DecidedConfig) -> Result<Vec<GameDecision>, DecidedError> {
    let io = |path: &PathBuf| {
        let path = path.clone();
        move |source| DecidedError::Io { path: path.clone(), source }
    };
    if config.size > MAX_SOLVER_SIZE {
        return Err(DecidedError::TooLarge(config.size));
    }
    let file = fs::File::open(&config.games).map_err(io(&config.games))?;
    let mut out = match &config.out {
        Some(path) => Some(fs::File::create(path).map_err(io(path))?),
        None => None,
    };
    let mut decisions = Vec::new();
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io(&config.games))?;
        if line.trim().is_empty() {
            continue;
        }
        let game: GameResult = serde_json::from_str(&line).map_err(|source| DecidedError::Json {
            path: config.games.clone(),
            line: index + 1,
            source,
        })?;
        let decision = decide(&game, config.size, config.time_limit, config.table_bits)?;
        println!("{}", describe(&decision));
        if let (Some(file), Some(path)) = (&mut out, &config.out) {
            let json = serde_json::to_string(&decision).expect("a decision serialises");
            writeln!(file, "{json}").map_err(io(path))?;
        }
        decisions.push(decision);
    }
    println!("{}", summary(&decisions));
    Ok(decisions)
}

/// One game in a line.
fn describe(d: &GameDecision) -> String {
    let proved = match (d.first_proved, d.held_by) {
        (Some(ply), Some(engine)) => format!("proved from ply {ply} for {engine}"),
        _ => "never proved".to_string(),
    };
    let thrown: Vec<String> = d
        .thrown
        .iter()
        .map(|t| format!("{} threw a win away at ply {} ({})", t.engine, t.ply, t.cell))
        .collect();
    let thrown = if thrown.is_empty() { String::new() } else { format!("; {}", thrown.join("; ")) };
    format!("game {}: {} moves, won by {} (black {}), {proved}{thrown}", d.game, d.moves, d.winner, d.black)
}

/// The totals: how early the games were proved, who held them there, and the wins thrown away.
pub fn summary(decisions: &[GameDecision]) -> String {
    let proved: Vec<usize> = decisions.iter().filter_map(|d| d.first_proved).collect();
    let mut plies = proved.clone();
    plies.sort_unstable();
    let median = plies.get(plies.len() / 2).map_or("-".to_string(), |p| p.to_string());
    let held = |e: EngineId| decisions.iter().filter(|d| d.held_by == Some(e)).count();
    let thrown = |e: EngineId| decisions.iter().flat_map(|d| &d.thrown).filter(|t| t.engine == e).count();
    format!(
        "{} games, {} proved before their end (median first proved ply {median}); held at that ply by A {} / B {}; wins thrown away after it by A {} / B {}",
        decisions.len(),
        proved.len(),
        held(EngineId::A),
        held(EngineId::B),
        thrown(EngineId::A),
        thrown(EngineId::B)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex_match::{GameEnd, MoveTime};

    fn game(black: EngineId, moves: &[&str], winner: EngineId) -> GameResult {
        GameResult {
            game: 3,
            black,
            white: black.other(),
            opening: moves[0].to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            winner,
            winner_color: if winner == black { Color::Black } else { Color::White },
            end: GameEnd::Connected,
            seconds: 1.0,
            restarts: Vec::new(),
            genmoves: [MoveTime::default(); 2],
            move_seconds: Default::default(),
            assisted: 0,
        }
    }

    #[test]
    fn the_scan_agrees_with_each_position_solved_alone() {
        // A 3x3 game with wins changing hands; every position of it is solved at once.
        let moves = ["a1", "b2", "c1", "b1", "a2", "a3", "c2"];
        let g = game(EngineId::A, &moves, EngineId::A);
        let d = decide(&g, 3, Duration::from_secs(5), 12).unwrap();
        assert_eq!(d.first_proved, Some(1));
        let mut solver = Solver::new(SolverConfig { table_bits: 12, ..SolverConfig::default() });
        let winners: Vec<Color> =
            (1..=moves.len()).map(|k| winner_at(&mut solver, 3, &g, k).unwrap().unwrap()).collect();
        // Ply k (k stones down, Black to move when k is even) throws a win away when its mover
        // wins before it and loses after it.
        let expected: Vec<usize> = (1..moves.len())
            .filter(|&k| {
                let mover = if k % 2 == 0 { Color::Black } else { Color::White };
                winners[k - 1] == mover && winners[k] != mover
            })
            .collect();
        assert!(!expected.is_empty(), "the test game should change hands: {winners:?}");
        assert_eq!(d.thrown.iter().map(|t| t.ply).collect::<Vec<_>>(), expected);
        assert_eq!(d.held_by, Some(if winners[0] == Color::Black { EngineId::A } else { EngineId::B }));
    }

    #[test]
    fn a_blunder_after_a_won_opening_is_named() {
        // 3x3: Black's centre b2 wins; after White c1 some Black reply loses, found by trying
        // every cell; the game with that reply is then held by Black (A) and thrown at ply 2.
        let mut solver = Solver::new(SolverConfig { table_bits: 12, ..SolverConfig::default() });
        let mut after = |moves: &[&str]| {
            let g = game(EngineId::A, moves, EngineId::A);
            winner_at(&mut solver, 3, &g, moves.len()).unwrap().unwrap()
        };
        assert_eq!(after(&["b2"]), Color::Black);
        assert_eq!(after(&["b2", "c1"]), Color::Black);
        let blunder = ["a1", "b1", "a2", "c2", "a3", "b3", "c3"]
            .into_iter()
            .find(|c| after(&["b2", "c1", c]) == Color::White)
            .expect("some reply to c1 loses");
        let g = game(EngineId::A, &["b2", "c1", blunder], EngineId::B);
        let d = decide(&g, 3, Duration::from_secs(5), 12).unwrap();
        assert_eq!(d.first_proved, Some(1));
        assert_eq!(d.held_by, Some(EngineId::A));
        assert_eq!(d.thrown, vec![ThrownWin { ply: 2, engine: EngineId::A, cell: blunder.to_string() }]);
        assert!(summary(&[d]).contains("wins thrown away after it by A 1 / B 0"));
    }

    #[test]
    fn bad_input_is_an_error() {
        let g = game(EngineId::A, &["b2", "b2"], EngineId::A);
        assert!(matches!(
            decide(&g, 3, Duration::from_secs(1), 10),
            Err(DecidedError::Moves { game: 3, .. })
        ));
        assert!(matches!(decide(&g, 12, Duration::from_secs(1), 10), Err(DecidedError::TooLarge(12))));
        let dir = std::env::temp_dir().join(format!("hex-decided-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.jsonl");
        fs::write(&path, "{\"game\": 1}\n").unwrap();
        let config = DecidedConfig {
            games: path.clone(),
            size: 3,
            time_limit: Duration::from_secs(1),
            table_bits: 10,
            out: None,
        };
        assert!(matches!(run(&config), Err(DecidedError::Json { line: 1, .. })));
        let missing = DecidedConfig { games: dir.join("missing.jsonl"), ..config };
        assert!(matches!(run(&missing), Err(DecidedError::Io { .. })));
        fs::remove_dir_all(&dir).unwrap();
    }
}
