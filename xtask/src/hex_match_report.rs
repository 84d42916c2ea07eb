//! `cargo xtask hex-match-report FILE...`: the games of several `hex-match --out` files added up.
//!
//! Strength claims need a hundred games or more, and a match is usually played as several
//! 20-game files (one seed of openings each, so that an interrupted run loses little). This
//! reads the files, as they are, and prints one Markdown table: each file's games, engine A's
//! wins with their 95 % Wilson interval, its wins as Black and each engine's mean time over its
//! first five answers of each game (the time that counts at equal time, see
//! [`EngineSummary::opening_seconds_per_move`]), then the same over all the files, and how the
//! games ended (by connecting, by the loser resigning, by the loser failing in a position
//! proved lost for it or in one not proved lost, or by adjudication). Only matches played
//! with `--adjudicate` record whether a failing engine's position was lost; in the others (and
//! in records written before that was kept) every failure counts as not proved, and
//! `cargo xtask hex-decided` can check their positions afterwards. The records do not name the engines' command lines: the files given must be of the same two
//! engines in the same seats.

use std::path::{Path, PathBuf};

use crate::hex_match::{EngineId, EngineSummary, GameEnd, GameResult, MatchSummary, game_lines};

/// Why the files could not be reported.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file could not be read, or the report written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a `hex-match` game.
    #[error("{}, line {line}: not a hex-match game: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// Its 1-based line.
        line: usize,
        /// Why.
        source: serde_json::Error,
    },
    /// A file holds no game.
    #[error("{}: no games in the file", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// One match file, read and added up.
#[derive(Clone, Debug)]
pub struct MatchFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its games, added up.
    pub summary: MatchSummary,
}

/// Reads the games of one `hex-match --out` file.
pub fn read(path: &Path) -> Result<MatchFile, ReportError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| ReportError::Io { path: path.to_path_buf(), source })?;
    let games = game_lines(&text)
        .map(|(line, game)| {
            game.map_err(|source| ReportError::Json { path: path.to_path_buf(), line, source })
        })
        .collect::<Result<Vec<GameResult>, _>>()?;
    if games.is_empty() {
        return Err(ReportError::Empty { path: path.to_path_buf() });
    }
    Ok(MatchFile { path: path.to_path_buf(), summary: summarise(games) })
}

/// The records carry no command lines; the engines are named by their seat.
fn summarise(games: Vec<GameResult>) -> MatchSummary {
    MatchSummary::new(&EngineId::BOTH.map(|id| format!("engine {id}")), games)
}

/// The Markdown report of `files` (see the module documentation).
pub fn report(files: &[MatchFile]) -> String {
    let all = summarise(files.iter().flat_map(|f| f.summary.games.iter().cloned()).collect());
    let mut out = String::from(
        "| file | games | A won | 95 % interval | A won as Black | A s/move, first 5 | B s/move, first 5 |\n\
         |---|---:|---:|---|---|---:|---:|\n",
    );
    let row = |name: &str, summary: &MatchSummary| {
        let [a, b] = &summary.engines;
        let seconds =
            |e: &EngineSummary| e.opening_seconds_per_move().map_or("–".to_string(), |s| format!("{s:.2}"));
        format!(
            "| {name} | {} | {} | {:.0}–{:.0} % | {} of {} | {} | {} |\n",
            summary.games.len(),
            a.wins,
            100.0 * a.interval.0,
            100.0 * a.interval.1,
            a.black.1,
            a.black.0,
            seconds(a),
            seconds(b),
        )
    };
    for file in files {
        let name = file
            .path
            .file_name()
            .map_or_else(|| file.path.display().to_string(), |n| n.to_string_lossy().into_owned());
        out.push_str(&row(&format!("`{name}`"), &file.summary));
    }
    if files.len() > 1 {
        out.push_str(&row("**all**", &all));
    }
    out.push_str(
        "\n| winner | by connecting | the other resigned | the other failed, proved lost for it | \
         the other failed, not proved lost | adjudicated (failed, but proved won) |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for id in EngineId::BOTH {
        let mut counts = [0u64; 5];
        for game in all.games.iter().filter(|g| g.winner == id) {
            let column = match game.end {
                GameEnd::Connected => 0,
                GameEnd::Resigned => 1,
                GameEnd::Failed { lost: Some(_), .. } => 2,
                GameEnd::Failed { lost: None, .. } => 3,
                GameEnd::Adjudicated { .. } => 4,
            };
            counts[column] += 1;
        }
        let [c, r, l, f, a] = counts;
        out.push_str(&format!("| {id} | {c} | {r} | {l} | {f} | {a} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex_match::{EngineFailure, MoveTime, Proof};
    use hex::Color;

    fn game(number: u64, winner: EngineId, end: GameEnd, seconds: [f64; 2]) -> GameResult {
        let black = if number.is_multiple_of(2) { EngineId::A } else { EngineId::B };
        GameResult {
            game: number,
            black,
            white: black.other(),
            opening: "c3".into(),
            moves: vec!["c3".into(), "a1".into()],
            winner,
            winner_color: if winner == black { Color::Black } else { Color::White },
            end,
            seconds: 1.0,
            restarts: Vec::new(),
            genmoves: seconds.map(|s| MoveTime { moves: 1, seconds: s }),
            move_seconds: seconds.map(|s| vec![s]),
        }
    }

    fn write(dir: &Path, name: &str, games: &[GameResult]) -> PathBuf {
        let path = dir.join(name);
        let text: String = games.iter().map(|g| serde_json::to_string(g).unwrap() + "\n").collect();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A fresh folder of this test process.
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hex-match-report-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn crash() -> EngineFailure {
        EngineFailure::Crashed { command: "genmove white".into(), exit_code: None }
    }

    #[test]
    fn files_are_added_up_with_the_interval_and_how_games_ended() {
        let dir = temp_dir("added");
        let first = write(
            dir.as_path(),
            "m-1.jsonl",
            &[
                game(0, EngineId::A, GameEnd::Connected, [1.0, 2.0]),
                game(1, EngineId::B, GameEnd::Failed { failure: crash(), lost: None }, [3.0, 2.0]),
            ],
        );
        let adjudicated =
            GameEnd::Adjudicated { failure: crash(), proof: Proof::Solver { nodes: 2, seconds: 0.1 } };
        let second = write(
            dir.as_path(),
            "m-2.jsonl",
            &[
                game(0, EngineId::B, adjudicated, [2.0, 1.0]),
                game(1, EngineId::A, GameEnd::Resigned, [2.0, 1.0]),
            ],
        );
        let files = [read(&first).unwrap(), read(&second).unwrap()];
        let text = report(&files);
        // Engine A won games 0 and 3 of four (Black in the first, White in the last); its
        // first answers took 1, 3, 2 and 2 s (2.00), engine B's 2, 2, 1 and 1 (1.50).
        let (lo, hi) = crate::summary::wilson(2, 4);
        let all =
            format!("| **all** | 4 | 2 | {:.0}–{:.0} % | 1 of 2 | 2.00 | 1.50 |", 100.0 * lo, 100.0 * hi);
        assert!(text.contains(&all), "{text}");
        assert!(text.contains("| `m-1.jsonl` | 2 | 1 |"), "{text}");
        assert!(text.contains("| `m-2.jsonl` | 2 | 1 |"), "{text}");
        // A won by connecting and by B resigning; B by A's failure and by adjudication.
        assert!(text.contains("| A | 1 | 1 | 0 | 0 | 0 |"), "{text}");
        assert!(text.contains("| B | 0 | 0 | 0 | 1 | 1 |"), "{text}");
    }

    #[test]
    fn wins_by_failures_are_split_by_whether_the_position_was_lost_anyway() {
        let dir = temp_dir("lost");
        let lost =
            GameEnd::Failed { failure: crash(), lost: Some(Proof::Solver { nodes: 40, seconds: 0.2 }) };
        let path = write(
            dir.as_path(),
            "m.jsonl",
            &[
                game(0, EngineId::A, lost.clone(), [1.0, 1.0]),
                game(1, EngineId::A, lost, [1.0, 1.0]),
                game(2, EngineId::A, GameEnd::Failed { failure: crash(), lost: None }, [1.0, 1.0]),
            ],
        );
        let text = report(&[read(&path).unwrap()]);
        assert!(
            text.contains("the other failed, proved lost for it | the other failed, not proved lost"),
            "{text}"
        );
        assert!(text.contains("| A | 0 | 0 | 2 | 1 | 0 |"), "{text}");
        assert!(text.contains("| B | 0 | 0 | 0 | 0 | 0 |"), "{text}");
    }

    #[test]
    fn one_file_has_no_total_row() {
        let dir = temp_dir("one");
        let path = write(dir.as_path(), "m.jsonl", &[game(0, EngineId::A, GameEnd::Connected, [1.0, 1.0])]);
        let text = report(&[read(&path).unwrap()]);
        assert!(!text.contains("**all**"), "{text}");
        assert!(text.contains("| `m.jsonl` | 1 | 1 |"), "{text}");
    }

    #[test]
    fn bad_files_are_named_with_the_line() {
        let dir = temp_dir("bad");
        let good = serde_json::to_string(&game(0, EngineId::A, GameEnd::Connected, [1.0, 1.0])).unwrap();
        let bad = dir.as_path().join("bad.jsonl");
        std::fs::write(&bad, format!("{good}\n\n{{\"game\": 1}}\n")).unwrap();
        let error = read(&bad).unwrap_err();
        assert!(matches!(error, ReportError::Json { line: 3, .. }), "{error}");
        assert!(error.to_string().contains("bad.jsonl, line 3: not a hex-match game"), "{error}");

        let empty = dir.as_path().join("empty.jsonl");
        std::fs::write(&empty, "\n").unwrap();
        assert!(matches!(read(&empty), Err(ReportError::Empty { .. })));
        let missing = dir.as_path().join("missing.jsonl");
        assert!(matches!(read(&missing), Err(ReportError::Io { .. })));
    }
}
