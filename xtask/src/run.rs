//! Running the rows of an evaluation: seeds, shards, resuming, parallel games and progress.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use thiserror::Error;

use crate::record::{self, Appender, GameKind, GameLine, RESULTS_FILE, RecordError};
use crate::tiers::Row;
use crate::tiers::domino::rows_domino;
use crate::tiers::g2048::rows_2048;
use crate::tiers::hex::rows_hex;

/// Which part of the games this machine runs: those whose index is `k` modulo `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard's number, `0..n`.
    pub k: u64,
    /// The number of shards.
    pub n: u64,
}

impl Shard {
    /// Every game.
    pub const ALL: Shard = Shard { k: 0, n: 1 };

    /// Whether the game of this index is this shard's.
    pub fn has(self, index: u64) -> bool {
        index % self.n == self.k
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Reads `K/N` with `0 <= K < N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let (k, n) = text.split_once('/').ok_or_else(|| format!("'{text}' is not K/N (for example 0/4)"))?;
        let k: u64 = k.trim().parse().map_err(|_| format!("'{k}' in '{text}' is not a shard number"))?;
        let n: u64 = n.trim().parse().map_err(|_| format!("'{n}' in '{text}' is not a shard count"))?;
        if n == 0 || k >= n {
            return Err(format!("shard {k}/{n}: K must be at least 0 and below N"));
        }
        Ok(Shard { k, n })
    }
}

/// The games the evaluation covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    /// 2048.
    G2048,
    /// Hex.
    Hex,
    /// Dominoes (its tiers come with the dominoes crate).
    Domino,
    /// Every game that has tiers.
    All,
}

/// The settings of one `cargo xtask eval`.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// The games.
    pub game: GameChoice,
    /// The tiers to run (1, 2, 3).
    pub tiers: Vec<u8>,
    /// Games per row, replacing each row's default.
    pub games: Option<u64>,
    /// The run's seed; game `i` of every row plays spawn seed `game_seed(seed, i)`.
    pub seed: u64,
    /// Worker threads (games in parallel).
    pub jobs: usize,
    /// The output folder.
    pub out: PathBuf,
    /// A handful of games at reduced depth.
    pub quick: bool,
    /// The part of the games to run here.
    pub shard: Shard,
    /// An n-tuple network file: adds the 2048 rows that play with it.
    pub network: Option<PathBuf>,
    /// The tile downgrade of the n-tuple row that downgrades (`ntuple-strong-dg`).
    pub downgrade: game2048::ntuple::Downgrade,
    /// Run only the rows whose id contains one of these (all rows when empty).
    pub rows: Vec<String>,
}

/// Why an evaluation could not run.
#[derive(Debug, Error)]
pub enum EvalError {
    /// The output folder cannot be created or written.
    #[error("cannot use {path} as the output folder: {source}")]
    OutputFolder {
        /// The folder.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The results file is unreadable, corrupt or was made by another run.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The results file holds games of another seed.
    #[error(
        "{path} holds game {index} of row {row} with seed {found}, but --seed gives {expected}: \
         resume with the seed that run used, or choose another --out"
    )]
    SeedMismatch {
        /// The results file.
        path: PathBuf,
        /// The row.
        row: String,
        /// The game's index.
        index: u64,
        /// The seed on file.
        found: u64,
        /// The seed this run would use.
        expected: u64,
    },
    /// The n-tuple network file cannot be used.
    #[error("--network: {0}")]
    Network(String),
    /// The thread pool could not start.
    #[error("cannot start {jobs} worker threads: {message}")]
    Threads {
        /// Threads asked for.
        jobs: usize,
        /// rayon's message.
        message: String,
    },
}

/// The rows the options select.
pub fn plan(options: &EvalOptions) -> Result<Vec<Row>, EvalError> {
    let network = options.network.as_deref();
    if let Some(path) = network {
        // Read before any game starts: a bad file fails the run at once, with its reason.
        crate::tiers::g2048::load_network(path).map_err(EvalError::Network)?;
    }
    let rows = match options.game {
        GameChoice::G2048 => rows_2048(options.quick, network, options.downgrade),
        GameChoice::Domino => rows_domino(options.quick),
        GameChoice::Hex => rows_hex(options.quick),
        GameChoice::All => rows_2048(options.quick, network, options.downgrade)
            .into_iter()
            .chain(rows_domino(options.quick))
            .chain(rows_hex(options.quick))
            .collect(),
    };
    Ok(rows
        .into_iter()
        .filter(|row| options.tiers.contains(&row.tier))
        .filter(|row| {
            options.rows.is_empty() || options.rows.iter().any(|part| row.id.contains(part.as_str()))
        })
        .map(|mut row| {
            if let Some(n) = options.games {
                row.games = n;
            }
            row
        })
        .collect())
}

/// Runs the evaluation into `options.out`, skipping games already recorded there, and returns
/// every record in the results file afterwards.
pub fn eval(options: &EvalOptions) -> Result<Vec<GameLine>, EvalError> {
    let rows = plan(options)?;
    let out = &options.out;
    std::fs::create_dir_all(out).map_err(|source| EvalError::OutputFolder { path: out.clone(), source })?;
    let path = out.join(RESULTS_FILE);
    let done = resume(&path, &rows, options.seed)?;
    let appender = Mutex::new(Appender::open(&path)?);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .build()
        .map_err(|e| EvalError::Threads { jobs: options.jobs, message: e.to_string() })?;
    let failure: Mutex<Option<RecordError>> = Mutex::new(None);
    let terminal = std::io::stderr().is_terminal();
    for row in &rows {
        let mine: Vec<u64> = (0..row.games).filter(|&i| options.shard.has(i)).collect();
        let todo: Vec<u64> =
            mine.iter().copied().filter(|&i| !done.contains(&(row.game(), row.id.clone(), i))).collect();
        let progress = Progress::start(row, mine.len() as u64, (mine.len() - todo.len()) as u64, terminal);
        pool.install(|| {
            todo.par_iter().for_each(|&index| {
                let line = row.run(index, options.seed);
                let written = appender.lock().unwrap_or_else(|e| e.into_inner()).append(&line);
                if let Err(e) = written {
                    failure.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                }
                progress.game_done();
            })
        });
        progress.finish();
        if let Some(e) = failure.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(e.into());
        }
    }
    Ok(record::read(&path)?.games)
}

/// Reads what an earlier run left in `path`: drops a half-written last line, checks the seeds, and
/// returns the games already done.
fn resume(path: &Path, rows: &[Row], seed: u64) -> Result<HashSet<(GameKind, String, u64)>, EvalError> {
    if !path.exists() {
        return Ok(HashSet::new());
    }
    let loaded = record::read(path)?;
    if loaded.dropped_partial_line {
        eprintln!("{}: the last line was half-written; that game runs again", path.display());
        record::rewrite(path, &loaded.games)?;
    }
    for game in &loaded.games {
        let planned = rows.iter().find(|row| row.id == game.row && row.game() == game.game);
        let Some(row) = planned else { continue };
        let expected = row.seed(seed, game.index);
        if game.seed != expected {
            return Err(EvalError::SeedMismatch {
                path: path.to_path_buf(),
                row: game.row.clone(),
                index: game.index,
                found: game.seed,
                expected,
            });
        }
    }
    Ok(loaded.games.iter().map(GameLine::key).collect())
}

/// A row's progress: a bar on a terminal, plain lines otherwise.
struct Progress {
    bar: Option<ProgressBar>,
    row: String,
    total: u64,
    done: Mutex<u64>,
    started: Instant,
}

impl Progress {
    fn start(row: &Row, total: u64, already: u64, terminal: bool) -> Self {
        let bar = terminal.then(|| {
            let bar = ProgressBar::new(total);
            let style = ProgressStyle::with_template(
                "{prefix:>32} [{bar:30}] {pos}/{len} games  {elapsed_precise} elapsed, about {eta} left",
            )
            .expect("a valid progress template")
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_prefix(row.id.clone());
            bar.set_position(already);
            bar
        });
        if bar.is_none() {
            eprintln!("tier {} row {}: {already}/{total} games already recorded", row.tier, row.id);
        }
        Progress { bar, row: row.id.clone(), total, done: Mutex::new(already), started: Instant::now() }
    }

    fn game_done(&self) {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        *done += 1;
        match &self.bar {
            Some(bar) => bar.set_position(*done),
            None => eprintln!(
                "  {}: {}/{} games, {:.1} s elapsed",
                self.row,
                *done,
                self.total,
                self.started.elapsed().as_secs_f64()
            ),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(out: PathBuf) -> EvalOptions {
        EvalOptions {
            game: GameChoice::G2048,
            tiers: vec![2],
            games: Some(2),
            seed: 3,
            jobs: 2,
            out,
            quick: true,
            shard: Shard::ALL,
            network: None,
            downgrade: game2048::ntuple::Downgrade::default(),
            rows: Vec::new(),
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-run-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn shards_parse_and_partition() {
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { k: 1, n: 4 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("x/4".parse::<Shard>().is_err());
        assert!("1".parse::<Shard>().is_err());
        let shards: Vec<Shard> = (0..3).map(|k| Shard { k, n: 3 }).collect();
        for i in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.has(i)).count(), 1);
        }
    }

    #[test]
    fn results_do_not_depend_on_jobs_and_a_rerun_skips_done_games() {
        let one = eval(&EvalOptions { jobs: 1, ..options(temp_dir("jobs1")) }).unwrap();
        let dir = temp_dir("jobs2");
        let two = eval(&options(dir.clone())).unwrap();
        let key = |g: &GameLine| (g.row.clone(), g.index, g.seed, g.moves, g.score as u64, g.max_tile);
        let mut a: Vec<_> = one.iter().map(key).collect();
        let mut b: Vec<_> = two.iter().map(key).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // Running again into the same folder plays nothing new.
        let again = eval(&options(dir)).unwrap();
        assert_eq!(again, two);
    }

    #[test]
    fn an_interrupted_line_is_redone_and_a_wrong_seed_refused() {
        let dir = temp_dir("interrupted");
        let full = eval(&options(dir.clone())).unwrap();
        let path = dir.join(RESULTS_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        // Cut the file in the middle of its last line, as a kill during a write would.
        std::fs::write(&path, &text[..text.len() - 20]).unwrap();
        let redone = eval(&options(dir.clone())).unwrap();
        assert_eq!(redone.len(), full.len());
        let err = eval(&EvalOptions { seed: 4, ..options(dir) }).unwrap_err();
        assert!(matches!(err, EvalError::SeedMismatch { .. }), "{err}");
    }

    #[test]
    fn shards_together_cover_the_run() {
        let whole = eval(&options(temp_dir("whole"))).unwrap();
        let mut parts = Vec::new();
        for k in 0..2 {
            parts.extend(
                eval(&EvalOptions { shard: Shard { k, n: 2 }, ..options(temp_dir(&format!("part{k}"))) })
                    .unwrap(),
            );
        }
        let key = |g: &GameLine| (g.row.clone(), g.index, g.seed, g.moves);
        let mut a: Vec<_> = whole.iter().map(key).collect();
        let mut b: Vec<_> = parts.iter().map(key).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn every_game_has_tiers_and_bad_folders_are_clear_errors() {
        for game in [GameChoice::G2048, GameChoice::Hex, GameChoice::Domino] {
            let rows =
                plan(&EvalOptions { game, tiers: vec![1, 2, 3], ..options(temp_dir("plan")) }).unwrap();
            assert!(!rows.is_empty(), "{game:?}");
        }
        let all =
            plan(&EvalOptions { game: GameChoice::All, tiers: vec![1, 2, 3], ..options(temp_dir("plan")) });
        assert!(all.unwrap().iter().any(|row| row.game() == GameKind::Hex));
        let file = temp_dir("file-not-folder");
        std::fs::write(&file, "x").unwrap();
        let err = eval(&options(file)).unwrap_err();
        assert!(matches!(err, EvalError::OutputFolder { .. }), "{err}");
    }

    #[test]
    fn rows_are_chosen_by_id_and_a_bad_network_is_refused_before_any_game() {
        let chosen = plan(&EvalOptions {
            tiers: vec![1, 2, 3],
            rows: vec!["greedy".into(), "random".into()],
            ..options(temp_dir("rows"))
        })
        .unwrap();
        let ids: Vec<&str> = chosen.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, vec!["quick-random", "quick-greedy"]);
        let missing = temp_dir("network").join("missing.bin");
        let err = plan(&EvalOptions { network: Some(missing), ..options(temp_dir("network")) }).unwrap_err();
        assert!(matches!(err, EvalError::Network(_)), "{err}");
    }
}
