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
//!
//! With `--beside FILE...`, the files of a second run on the same openings (engine A another
//! version of the same player, engine B the same opponent, one file beside each file given, in
//! the same order) are compared game by game ([`pair`]): the games won in both runs, in
//! neither, and in only one of them, with the two-sided sign test of the last two
//! ([`search_core::arena::sign_test`]). Two runs side by side on the same openings tell two
//! versions apart with fewer games than their win rates alone, since the openings that both win
//! or both lose drop out.

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
    /// The files to compare game by game are not as many as the files beside them.
    #[error("{files} files against {beside} beside them: give one file beside each, in the same order")]
    Unmatched {
        /// How many files.
        files: usize,
        /// How many files beside them.
        beside: usize,
    },
    /// Two games of the same number in files compared game by game did not start alike.
    #[error(
        "game {game} of {} opened {first} and game {game} of {} opened {second}: \
         not the same openings and colours",
        path.display(),
        beside.display()
    )]
    NotPaired {
        /// The file.
        path: PathBuf,
        /// The file beside it.
        beside: PathBuf,
        /// The game's number.
        game: u64,
        /// How the game of `path` started: its opening and engine A's colour.
        first: String,
        /// How the game of `beside` started.
        second: String,
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

/// Engine A of two runs on the same openings and colours, game by game: the same games of the
/// same files played by two versions of a player against the same opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paired {
    /// Won by engine A in both runs.
    pub both: u64,
    /// Lost by engine A in both runs.
    pub neither: u64,
    /// Won by engine A only in the first run.
    pub only_first: u64,
    /// Won by engine A only in the run beside it.
    pub only_beside: u64,
}

impl Paired {
    /// The games present in both runs (a run cut short has fewer).
    pub fn games(&self) -> u64 {
        self.both + self.neither + self.only_first + self.only_beside
    }

    /// The two-sided exact sign test of the games won in one run only
    /// ([`search_core::arena::sign_test`]).
    pub fn sign_test(&self) -> f64 {
        search_core::arena::sign_test(self.only_first, self.only_beside)
    }
}

/// How a game started: its opening and engine A's colour, the two things a paired game shares.
fn start(game: &GameResult) -> String {
    let colour = if game.black == EngineId::A { "black" } else { "white" };
    format!("{} with engine A {colour}", game.opening)
}

/// Pairs the games of `files` with those of `beside` (the first file with the first, and so
/// on; games by their number, those missing from either file left out) and counts who won
/// them. Games of the same number must share their opening and colours: the files must come
/// from `hex-match` runs with the same seeds and seats.
pub fn pair(files: &[MatchFile], beside: &[MatchFile]) -> Result<Paired, ReportError> {
    if files.len() != beside.len() {
        return Err(ReportError::Unmatched { files: files.len(), beside: beside.len() });
    }
    let mut paired = Paired::default();
    for (file, other) in files.iter().zip(beside) {
        for game in &file.summary.games {
            let Some(twin) = other.summary.games.iter().find(|g| g.game == game.game) else {
                continue;
            };
            if game.opening != twin.opening || game.black != twin.black {
                return Err(ReportError::NotPaired {
                    path: file.path.clone(),
                    beside: other.path.clone(),
                    game: game.game,
                    first: start(game),
                    second: start(twin),
                });
            }
            match (game.winner == EngineId::A, twin.winner == EngineId::A) {
                (true, true) => paired.both += 1,
                (false, false) => paired.neither += 1,
                (true, false) => paired.only_first += 1,
                (false, true) => paired.only_beside += 1,
            }
        }
    }
    Ok(paired)
}

/// The Markdown table of a game-by-game comparison, with each run's wins over the paired games.
pub fn paired_report(paired: &Paired) -> String {
    format!(
        "\n| game by game | paired games | A won in the files | A won beside | both | neither | \
         only in the files | only beside | sign test p |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n\
         | engine A | {} | {} | {} | {} | {} | {} | {} | {:.3} |\n",
        paired.games(),
        paired.both + paired.only_first,
        paired.both + paired.only_beside,
        paired.both,
        paired.neither,
        paired.only_first,
        paired.only_beside,
        paired.sign_test(),
    )
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
            assisted: 0,
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

    /// Two runs of engine A on the same openings: game 0 won by both, game 1 by the first run
    /// only, game 2 by the run beside only, game 3 by neither; a game missing beside is left out.
    #[test]
    fn runs_on_the_same_openings_are_compared_game_by_game() {
        let dir = temp_dir("paired");
        let won = |n, w| game(n, w, GameEnd::Connected, [1.0, 1.0]);
        use EngineId::{A, B};
        let first =
            write(dir.as_path(), "new-1.jsonl", &[won(0, A), won(1, A), won(2, B), won(3, B), won(4, A)]);
        let beside = write(dir.as_path(), "old-1.jsonl", &[won(0, A), won(1, B), won(2, A), won(3, B)]);
        let paired = pair(&[read(&first).unwrap()], &[read(&beside).unwrap()]).unwrap();
        assert_eq!(paired, Paired { both: 1, neither: 1, only_first: 1, only_beside: 1 });
        assert_eq!(paired.games(), 4);
        assert_eq!(paired.sign_test(), 1.0);
        let text = paired_report(&paired);
        assert!(text.contains("| engine A | 4 | 2 | 2 | 1 | 1 | 1 | 1 | 1.000 |"), "{text}");

        // Eight games won only in the first run of eight split: p = 2 / 2^8.
        let all_first: Vec<_> = (0..8).map(|n| won(n, A)).collect();
        let all_lost: Vec<_> = (0..8).map(|n| won(n, B)).collect();
        let a = write(dir.as_path(), "a.jsonl", &all_first);
        let b = write(dir.as_path(), "b.jsonl", &all_lost);
        let paired = pair(&[read(&a).unwrap()], &[read(&b).unwrap()]).unwrap();
        assert_eq!((paired.only_first, paired.only_beside), (8, 0));
        assert!((paired.sign_test() - 2.0 / 256.0).abs() < 1e-12);
        assert!(paired_report(&paired).contains("| 0.008 |"));
    }

    #[test]
    fn runs_that_did_not_start_alike_are_refused() {
        let dir = temp_dir("unpaired");
        let first = game(0, EngineId::A, GameEnd::Connected, [1.0, 1.0]);
        let mut other_opening = first.clone();
        other_opening.opening = "d4".into();
        let mut other_colour = first.clone();
        other_colour.black = EngineId::B;
        other_colour.white = EngineId::A;
        let path = write(dir.as_path(), "first.jsonl", std::slice::from_ref(&first));
        let file = read(&path).unwrap();
        for (name, twin) in [("opening.jsonl", other_opening), ("colour.jsonl", other_colour)] {
            let beside = read(&write(dir.as_path(), name, &[twin])).unwrap();
            let error = pair(std::slice::from_ref(&file), &[beside]).unwrap_err();
            assert!(matches!(error, ReportError::NotPaired { game: 0, .. }), "{error}");
            assert!(error.to_string().contains("c3 with engine A black"), "{error}");
        }
        let error = pair(std::slice::from_ref(&file), &[]).unwrap_err();
        assert!(matches!(error, ReportError::Unmatched { files: 1, beside: 0 }), "{error}");
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
