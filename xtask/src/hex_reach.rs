//! `cargo xtask hex-reach`: how far from the end of a game does the exact solver prove
//! positions in a share of a move?
//!
//! The MCTS player can give the solver a share of each move first
//! ([`hex::mcts::MctsConfig::solver_share`]), and only in positions with few enough empty cells
//! ([`hex::mcts::MctsConfig::solver_empty`]): where the solver cannot finish, its time is the
//! search's loss. This command measures where that border lies. It replays the games of
//! `hex-match` files move by move as the player meets them (one solver per colour, its table
//! kept from move to move, the player's table size, no solve while the swap is open) and gives
//! the solver the time asked on every position; the table counts, by the number of empty cells,
//! the positions it proved won or lost for the side to move and the seconds it took.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use hex::mcts::SOLVER_TABLE_BITS;
use hex::play_moves;
use hex::solver::{MAX_SOLVER_SIZE, Solver, SolverConfig, Verdict};
use thiserror::Error;

use crate::hex_match::game_lines;

/// What `hex-reach` reads and how long the solver gets.
#[derive(Clone, Debug)]
pub struct ReachConfig {
    /// `hex-match --out` files.
    pub games: Vec<PathBuf>,
    /// The board side of their games.
    pub size: u8,
    /// The solver's time on each position.
    pub solve_time: Duration,
    /// The width of a row of the table, in empty cells.
    pub band: u32,
}

/// What the solver made of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Proved won for the side to move.
    Won,
    /// Proved lost for the side to move.
    Lost,
    /// Not decided in the time.
    Open,
}

/// One position given to the solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReachRow {
    /// The empty cells of the position.
    pub empty: u32,
    /// What the solver proved.
    pub reach: Reach,
    /// The seconds it took.
    pub seconds: f64,
}

/// Why `hex-reach` could not run.
#[derive(Debug, Error)]
pub enum ReachError {
    /// The solver does not go on boards this large.
    #[error("the solver goes up to {MAX_SOLVER_SIZE}x{MAX_SOLVER_SIZE}, not {0}x{0}")]
    TooLarge(u8),
    /// No games file was given.
    #[error("no games file given")]
    NoGames,
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a game of this board.
    #[error("{path}, line {line}: {message}")]
    Game {
        /// The file.
        path: PathBuf,
        /// Its line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Gives the solver every position of the games (see the [module docs](self)).
pub fn run(config: &ReachConfig) -> Result<Vec<ReachRow>, ReachError> {
    if config.size > MAX_SOLVER_SIZE {
        return Err(ReachError::TooLarge(config.size));
    }
    if config.games.is_empty() {
        return Err(ReachError::NoGames);
    }
    let solver_config = SolverConfig {
        time_limit: Some(config.solve_time),
        table_bits: SOLVER_TABLE_BITS,
        ..SolverConfig::default()
    };
    let mut rows = Vec::new();
    for path in &config.games {
        let text =
            std::fs::read_to_string(path).map_err(|source| ReachError::Io { path: path.clone(), source })?;
        for (line, game) in game_lines(&text) {
            let bad = |message: String| ReachError::Game { path: path.clone(), line, message };
            let game = game.map_err(|e| bad(e.to_string()))?;
            // One solver a colour, as each player keeps its own from move to move.
            let mut solvers = [Solver::new(solver_config), Solver::new(solver_config)];
            for ply in 0..game.moves.len() {
                let (position, _) =
                    play_moves(u32::from(config.size), game.moves[..ply].iter().map(String::as_str))
                        .map_err(|e| bad(format!("{e} (is --size right?)")))?;
                if position.winner().is_some() || position.can_swap() {
                    continue;
                }
                let started = Instant::now();
                let solved = solvers[ply % 2].solve(&position);
                let seconds = started.elapsed().as_secs_f64();
                let reach = match solved.map(|s| s.verdict) {
                    Ok(Verdict::Win { winner, .. }) if winner == position.to_move() => Reach::Won,
                    Ok(Verdict::Win { .. }) => Reach::Lost,
                    _ => Reach::Open,
                };
                let empty = u32::from(config.size).pow(2) - position.board().stones_on_board();
                rows.push(ReachRow { empty, reach, seconds });
            }
        }
    }
    Ok(rows)
}

/// The rows as a Markdown table, one line per band of empty cells, fewest first.
pub fn markdown(config: &ReachConfig, rows: &[ReachRow]) -> String {
    let band = config.band.max(1);
    let mut out = format!(
        "# hex-reach: {} positions on {}x{}, the solver {:.2} s a position\n\n\
         | empty cells | positions | proved won | proved lost | proved | mean s |\n\
         |---|---:|---:|---:|---:|---:|\n",
        rows.len(),
        config.size,
        config.size,
        config.solve_time.as_secs_f64()
    );
    let mut bands: Vec<u32> = rows.iter().map(|r| r.empty / band).collect();
    bands.sort_unstable();
    bands.dedup();
    for b in bands {
        let inside: Vec<&ReachRow> = rows.iter().filter(|r| r.empty / band == b).collect();
        let count = |reach| inside.iter().filter(|r| r.reach == reach).count();
        let (won, lost) = (count(Reach::Won), count(Reach::Lost));
        let seconds: f64 = inside.iter().map(|r| r.seconds).sum();
        let _ = writeln!(
            out,
            "| {}–{} | {} | {won} | {lost} | {:.0} % | {:.3} |",
            b * band,
            b * band + band - 1,
            inside.len(),
            100.0 * (won + lost) as f64 / inside.len() as f64,
            seconds / inside.len() as f64
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games_file(name: &str, lines: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hex-reach-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        std::fs::write(&path, lines.join("\n")).unwrap();
        path
    }

    /// A 3×3 game Black wins down the middle: b2, a2, b1, c1, b3.
    const GAME: &str = r#"{"game":0,"black":"A","white":"B","opening":"b2","moves":["b2","a2","b1","c1","b3"],"winner":"A","winner_color":"black","end":{"reason":"connected"},"seconds":1.0}"#;

    #[test]
    fn every_position_before_the_end_is_given_to_the_solver() {
        let path = games_file("small", &[GAME]);
        let config = ReachConfig { games: vec![path], size: 3, solve_time: Duration::from_secs(5), band: 2 };
        let rows = run(&config).unwrap();
        // Plies 0 to 4 (the finished position is not asked), empty cells 9 down to 5.
        assert_eq!(rows.iter().map(|r| r.empty).collect::<Vec<_>>(), [9, 8, 7, 6, 5]);
        // Small boards are solved outright: the first player wins the empty 3x3 board, and each
        // verdict agrees with a fresh solver's.
        for (ply, row) in rows.iter().enumerate() {
            let moves = ["b2", "a2", "b1", "c1"];
            let (position, _) = play_moves(3, moves[..ply].iter().copied()).unwrap();
            let fresh = Solver::new(SolverConfig::default()).solve(&position).unwrap().verdict;
            let expected = match fresh {
                Verdict::Win { winner, .. } if winner == position.to_move() => Reach::Won,
                Verdict::Win { .. } => Reach::Lost,
                Verdict::Unknown(_) => Reach::Open,
            };
            assert_eq!(row.reach, expected, "ply {ply}");
        }
        assert_eq!(rows[0].reach, Reach::Won);
        let table = markdown(&config, &rows);
        assert!(table.contains("| 4–5 | 1 |") && table.contains("| 8–9 | 2 |"), "{table}");
    }

    #[test]
    fn bad_input_is_an_error() {
        let config = |games, size| ReachConfig { games, size, solve_time: Duration::from_secs(1), band: 5 };
        assert!(matches!(run(&config(vec![], 3)), Err(ReachError::NoGames)));
        assert!(matches!(
            run(&config(vec![PathBuf::from("/nonexistent/g.jsonl")], 3)),
            Err(ReachError::Io { .. })
        ));
        assert!(matches!(run(&config(vec![PathBuf::from("x")], 12)), Err(ReachError::TooLarge(12))));
        let path = games_file("bad", &[GAME, "{not json"]);
        assert!(matches!(run(&config(vec![path.clone()], 3)), Err(ReachError::Game { line: 2, .. })));
        // A cell off a 2x2 board.
        let path = games_file("size", &[GAME]);
        let error = run(&config(vec![path], 2)).unwrap_err();
        assert!(error.to_string().contains("is --size right?"), "{error}");
    }
}
