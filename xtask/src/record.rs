//! One JSON line per game: the record type, and reading and appending result files.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The name of the results file inside an output folder.
pub const RESULTS_FILE: &str = "games.jsonl";

/// The games the evaluation plays, named in the records as `2048`, `domino` and `hex`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum GameKind {
    /// 2048.
    #[serde(rename = "2048")]
    G2048,
    /// Two-player dominoes.
    #[serde(rename = "domino")]
    Domino,
    /// Hex.
    #[serde(rename = "hex")]
    Hex,
}

impl GameKind {
    /// The name in the records and summaries.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::G2048 => "2048",
            GameKind::Domino => "domino",
            GameKind::Hex => "hex",
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One finished game, as stored in `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game.
    pub game: GameKind,
    /// The evaluation tier (1, 2 or 3).
    pub tier: u8,
    /// The row's id, unique within the game (e.g. `minimax-d4-mixed`).
    pub row: String,
    /// The game's index within its row, from 0.
    pub index: u64,
    /// The agent (`minimax`, `expectimax`, `strong`, …).
    pub agent: String,
    /// The heuristic's name.
    pub heuristic: String,
    /// The search depth, for agents with a fixed one.
    pub depth: Option<u32>,
    /// Every other setting that shapes the game, by name.
    pub settings: BTreeMap<String, String>,
    /// The game's seed (derived from the run's seed and `index`).
    pub seed: u64,
    /// `won`, `lost`, `draw`, or another game-specific ending (2048: `overflow`, `move-limit`).
    pub result: String,
    /// The game's score (2048: the sum of merged tiles).
    pub score: f64,
    /// The highest tile (2048 only).
    pub max_tile: Option<u32>,
    /// Moves played.
    pub moves: u64,
    /// Wall time of the game in seconds.
    pub seconds: f64,
    /// Search nodes over the whole game.
    pub nodes: u64,
    /// A command that replays this game alone.
    pub replay: String,
}

impl GameLine {
    /// Whether the game counts as won.
    pub fn won(&self) -> bool {
        self.result == "won"
    }

    /// The key that identifies a game across runs: game, row and index.
    pub fn key(&self) -> (GameKind, String, u64) {
        (self.game, self.row.clone(), self.index)
    }
}

/// A problem with a results file.
#[derive(Debug, Error)]
pub enum RecordError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A complete line is not a game record.
    #[error("{path}, line {line}: not a game record ({source}); fix or remove the line")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// The parse error.
        source: serde_json::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> RecordError + '_ {
    move |source| RecordError::Io { path: path.to_path_buf(), source }
}

/// What reading a results file found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The complete records, in file order.
    pub games: Vec<GameLine>,
    /// Whether the file ended in a half-written line (no final newline), which was dropped.
    pub dropped_partial_line: bool,
}

/// Reads every record of `path`. A last line without its newline is a game interrupted while
/// being written: it is dropped (and reported), so the game runs again. Any other unreadable line
/// is an error naming the line.
pub fn read(path: &Path) -> Result<Loaded, RecordError> {
    let file = File::open(path).map_err(io_error(path))?;
    let mut reader = BufReader::new(file);
    let mut loaded = Loaded::default();
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(io_error(path))?;
        if n == 0 {
            break;
        }
        number += 1;
        if !line.ends_with('\n') {
            loaded.dropped_partial_line = true;
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let game = serde_json::from_str(&line).map_err(|source| RecordError::Corrupt {
            path: path.to_path_buf(),
            line: number,
            source,
        })?;
        loaded.games.push(game);
    }
    Ok(loaded)
}

/// Rewrites `path` to hold exactly `games` (used to cut off a half-written last line).
pub fn rewrite(path: &Path, games: &[GameLine]) -> Result<(), RecordError> {
    let mut text = String::new();
    for game in games {
        text.push_str(&serde_json::to_string(game).expect("a game record serialises"));
        text.push('\n');
    }
    std::fs::write(path, text).map_err(io_error(path))
}

/// Appends records to a results file, one whole line per write, flushed at once, so an
/// interruption loses at most the line being written.
pub struct Appender {
    path: PathBuf,
    file: File,
}

impl Appender {
    /// Opens `path` for appending, creating it if needed.
    pub fn open(path: &Path) -> Result<Self, RecordError> {
        let file = OpenOptions::new().create(true).append(true).open(path).map_err(io_error(path))?;
        Ok(Appender { path: path.to_path_buf(), file })
    }

    /// Appends one record.
    pub fn append(&mut self, game: &GameLine) -> Result<(), RecordError> {
        let mut line = serde_json::to_string(game).expect("a game record serialises");
        line.push('\n');
        self.file.write_all(line.as_bytes()).map_err(io_error(&self.path))?;
        self.file.flush().map_err(io_error(&self.path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample(row: &str, index: u64, won: bool) -> GameLine {
        GameLine {
            game: GameKind::G2048,
            tier: 1,
            row: row.into(),
            index,
            agent: "minimax".into(),
            heuristic: "mixed".into(),
            depth: Some(4),
            settings: BTreeMap::from([("model".into(), "original".into())]),
            seed: 10 + index,
            result: if won { "won".into() } else { "lost".into() },
            score: 20_000.0,
            max_tile: Some(if won { 2048 } else { 1024 }),
            moves: 950,
            seconds: 1.5,
            nodes: 12_345,
            replay: "g2048 play".into(),
        }
    }

    fn temp_file(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-record-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(RESULTS_FILE)
    }

    #[test]
    fn appended_records_read_back() {
        let path = temp_file("round-trip");
        let _ = std::fs::remove_file(&path);
        let mut out = Appender::open(&path).unwrap();
        out.append(&sample("a", 0, true)).unwrap();
        out.append(&sample("a", 1, false)).unwrap();
        let loaded = read(&path).unwrap();
        assert_eq!(loaded.games, vec![sample("a", 0, true), sample("a", 1, false)]);
        assert!(!loaded.dropped_partial_line);
    }

    #[test]
    fn a_half_written_last_line_is_dropped() {
        let path = temp_file("partial");
        let full = serde_json::to_string(&sample("a", 0, true)).unwrap();
        std::fs::write(&path, format!("{full}\n{}", &full[..full.len() / 2])).unwrap();
        let loaded = read(&path).unwrap();
        assert_eq!(loaded.games.len(), 1);
        assert!(loaded.dropped_partial_line);
        rewrite(&path, &loaded.games).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{full}\n"));
    }

    #[test]
    fn a_corrupt_line_is_an_error_naming_it() {
        let path = temp_file("corrupt");
        let full = serde_json::to_string(&sample("a", 0, true)).unwrap();
        std::fs::write(&path, format!("{full}\nnot json\n{full}\n")).unwrap();
        let err = read(&path).unwrap_err();
        assert!(matches!(err, RecordError::Corrupt { line: 2, .. }), "{err}");
        assert!(err.to_string().contains("line 2"));
    }
}
