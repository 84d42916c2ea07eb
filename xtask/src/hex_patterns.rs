//! `cargo xtask hex-patterns`: learns the Hex move-pattern weights ([`hex::patterns`]) from our
//! own MCTS player's self-play, and reports how well they predict held-out moves.
//!
//! Game `k` of size `n` opens with a cell drawn from the seed, `n` and `k` (so the games do not
//! all follow one line), then the MCTS player plays both sides with a fixed playout budget and a
//! seed of its own per game: the run is the same on every machine and with any `--threads`. Every
//! move the search chose becomes a sample (the cells that win or block at once are left out:
//! they are not shape). One game in ten (`k % 10 == 9`) is held out: the weights are learned on
//! the rest, and the share of held-out moves that the weights rank first is reported beside the
//! share a uniform guess would get, and the mean log-probability the weights give the chosen
//! cell (which falls below a uniform guess's when weights mislead, as the shipped ones do on the
//! solver's labels of small boards); `--compare FILE...` judges other weights files on the same
//! held-out moves. The weights file is written with a comment naming the command.
//!
//! Every sample is kept in both pattern codes ([`PatternCode`]), so that `--code edges` learns
//! the twelve-cell patterns with every cell off the board as one state of its own, and weights
//! of either code (learned, shipped or compared) are judged on the same moves, each read in
//! its own code. The six-cell and the local-response patterns are in the stones code only.
//!
//! With `--solver-labels N` the teacher is the exact solver instead of the search: the games are
//! played the same way, but every position with at most `N` empty cells is given to
//! [`hex::solver::Solver::winning_moves`] (a time limit each), and where some moves win and
//! others lose, each of up to [`WINNERS_PER_POSITION`] winning moves becomes a sample against
//! every losing move (the other winners left out). Positions the solver does not finish, and those
//! where every move wins or none does, teach nothing and are skipped. The held-out share ranked
//! first is then the share of positions where the weights rank a winning move above every losing one.
//!
//! A stronger teacher costs more self-play than one machine gives in a day, so the games can be
//! spread over machines: `--shard K/N` plays only the games whose index is `K` modulo `N` (per
//! board size, as numbered above) and `--samples-out FILE` writes their samples instead of
//! learning; `--samples-in FILE...` then learns from such files together. The files name the
//! settings that played them; every game of a run must be there once (a file named twice counts
//! once), and the weights written are the ones the same run in one piece writes. Files of
//! several runs (other settings, say a search's self-play and a solver's labels on smaller
//! boards) are learned from together too, each run complete: the weights fit every run's
//! training samples, the file names every run's command, and the report gives each run's
//! held-out share apart as well as all of them together.

use std::collections::BTreeMap;
use std::io::{BufRead, Write as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use hex::mcts::{MctsConfig, MctsPlayer, MctsReason};
use hex::patterns::{LearnConfig, PatternCode, PatternGrid, PatternWeights, Sample};
use hex::solver::{Solver, SolverConfig};
use hex::{Cell, HexMove, Position};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::run::Shard;

/// The weights file the crate ships.
pub const DEFAULT_OUT: &str = "crates/hex/data/patterns.txt";

/// The playout weights file the crate ships (`--cells 6`).
pub const DEFAULT_RING_OUT: &str = "crates/hex/data/playout-patterns.txt";

/// The local-response weights file of the priors the crate ships (`--local`).
pub const DEFAULT_LOCAL_OUT: &str = "crates/hex/data/local-patterns.txt";

/// The local-response weights file of the playouts the crate ships (`--local`).
pub const DEFAULT_LOCAL_PLAYOUT_OUT: &str = "crates/hex/data/local-playout-patterns.txt";

/// The default file of the playouts' local weights when the priors' go to `out` (not the
/// shipped file): `NAME-playout.txt` in `out`'s folder, for `NAME.txt`, so that a run written
/// elsewhere never overwrites the crate's data.
pub fn playout_file_beside(out: &Path) -> PathBuf {
    let stem = out.file_stem().map_or_else(|| "local".into(), |s| s.to_string_lossy().into_owned());
    out.with_file_name(format!("{stem}-playout.txt"))
}

/// The winning moves of one position that become samples with `--solver-labels` (spread over
/// the position's winners in cell order): a position with many winning moves says little about
/// each, and would otherwise outweigh the sharp positions with one or two.
pub const WINNERS_PER_POSITION: usize = 4;

/// The exact solver as the teacher (`--solver-labels`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverLabels {
    /// Positions with at most this many empty cells are labelled.
    pub max_empty: u32,
    /// The solver's time for one position's winning moves.
    pub time: Duration,
}

/// What to play and learn.
#[derive(Clone, Debug)]
pub struct PatternOptions {
    /// Board sizes.
    pub sizes: Vec<u8>,
    /// Games per size.
    pub games: u64,
    /// Playouts per move of the self-play player.
    pub iterations: u64,
    /// The seed of the openings and the players.
    pub seed: u64,
    /// Threads playing games at once.
    pub threads: usize,
    /// The self-play player's prior weight (`None`: no priors; `Some` plays with the weights
    /// the crate ships, to learn a second generation from).
    pub priors: Option<f64>,
    /// Learn the six-cell playout patterns ([`hex::patterns::ring`]) instead of the
    /// twelve-cell prior patterns.
    pub ring: bool,
    /// The code of the twelve-cell patterns learned ([`PatternCode`]; the six-cell and the
    /// local-response patterns are always in [`PatternCode::Stones`]).
    pub code: PatternCode,
    /// Learn the local-response weights ([`hex::patterns::local`]) with the shipped
    /// twelve-cell weights held fixed, instead of the pattern weights.
    pub local: bool,
    /// With `local`: also learn the playouts' local-response weights (every cell's pattern
    /// strength 1) and write them here.
    pub local_playout_out: Option<PathBuf>,
    /// Label positions by the exact solver instead of by the search's choice.
    pub solver_labels: Option<SolverLabels>,
    /// The learning's settings.
    pub learn: LearnConfig,
    /// The weights file to write.
    pub out: PathBuf,
    /// The games this run plays (all of them: [`Shard::ALL`]).
    pub shard: Shard,
    /// Weights files judged on every run's held-out samples beside the learned and the
    /// shipped weights, each in the learned weights' place (local weights with `local`).
    pub compare: Vec<PathBuf>,
    /// Learn from these sample files ([`save_samples`]) instead of playing: every shard of one
    /// run or of several; each run's settings replace the options' play settings (sizes,
    /// games, iterations, seed, priors, local codes, solver labels) for its games.
    pub samples_in: Vec<PathBuf>,
}

/// The format version of a samples file.
const SAMPLES_FORMAT: u32 = 1;

/// The first line of a samples file: the settings that decide the samples (the shard aside).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SamplesHeader {
    hex_pattern_samples: u32,
    sizes: Vec<u8>,
    games: u64,
    iterations: u64,
    seed: u64,
    priors: Option<f64>,
    /// Whether the samples carry the local-response codes (played for `--local`).
    local: bool,
    /// `--solver-labels` and `--solve-time` (seconds).
    solver_labels: Option<(u32, f64)>,
    /// The shard written, `K/N` (not compared between files).
    shard: String,
}

impl SamplesHeader {
    fn new(options: &PatternOptions) -> Self {
        SamplesHeader {
            hex_pattern_samples: SAMPLES_FORMAT,
            sizes: options.sizes.clone(),
            games: options.games,
            iterations: options.iterations,
            seed: options.seed,
            priors: options.priors,
            local: options.local,
            solver_labels: options.solver_labels.map(|l| (l.max_empty, l.time.as_secs_f64())),
            shard: format!("{}/{}", options.shard.k, options.shard.n),
        }
    }

    /// Whether two files come from the same run (their shards aside).
    fn same_run(&self, other: &SamplesHeader) -> bool {
        SamplesHeader { shard: String::new(), ..self.clone() }
            == SamplesHeader { shard: String::new(), ..other.clone() }
    }

    /// `options` with this run's play settings.
    fn apply(&self, options: &PatternOptions) -> PatternOptions {
        PatternOptions {
            sizes: self.sizes.clone(),
            games: self.games,
            iterations: self.iterations,
            seed: self.seed,
            priors: self.priors,
            solver_labels: self
                .solver_labels
                .map(|(max_empty, time)| SolverLabels { max_empty, time: Duration::from_secs_f64(time) }),
            ..options.clone()
        }
    }
}

/// The samples of one self-play game: game `game` of size `size`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GameSamples {
    size: u8,
    game: u64,
    held_out: bool,
    /// The samples, the patterns in [`PatternCode::Stones`].
    #[serde(with = "sample_list")]
    samples: Vec<Sample>,
    /// The same samples in [`PatternCode::Edges`] (empty in files written before that code).
    #[serde(default, with = "sample_list")]
    edges: Vec<Sample>,
}

/// Samples of the same moves in both pattern codes, so that weights of either code are judged
/// on the same moves.
#[derive(Clone, Debug, Default, PartialEq)]
struct Coded {
    stones: Vec<Sample>,
    edges: Vec<Sample>,
}

impl Coded {
    /// The samples in `code`.
    fn get(&self, code: PatternCode) -> &[Sample] {
        match code {
            PatternCode::Stones => &self.stones,
            PatternCode::Edges => &self.edges,
        }
    }

    /// The samples of `game` added.
    fn extend(&mut self, game: GameSamples) {
        self.append(Coded { stones: game.samples, edges: game.edges });
    }

    /// The samples of `other` added.
    fn append(&mut self, other: Coded) {
        self.stones.extend(other.stones);
        self.edges.extend(other.edges);
    }

    fn len(&self) -> usize {
        self.stones.len()
    }
}

/// [`Sample`]s in a samples file (the hex crate keeps serde out of its dependencies).
mod sample_list {
    use hex::patterns::Sample;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// A sample's fields, as [`Sample`] names them.
    #[derive(Serialize, Deserialize)]
    struct Fields {
        candidates: Vec<u32>,
        chosen: usize,
        locals: Vec<Option<u32>>,
    }

    pub fn serialize<S: Serializer>(samples: &[Sample], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(samples.iter().map(|s| Fields {
            candidates: s.candidates.clone(),
            chosen: s.chosen,
            locals: s.locals.clone(),
        }))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Sample>, D::Error> {
        let fields = Vec::<Fields>::deserialize(deserializer)?;
        fields
            .into_iter()
            .map(|f| {
                if f.chosen >= f.candidates.len()
                    || !(f.locals.is_empty() || f.locals.len() == f.candidates.len())
                {
                    return Err(serde::de::Error::custom(format!(
                        "a sample of {} candidates with chosen {} and {} local codes",
                        f.candidates.len(),
                        f.chosen,
                        f.locals.len()
                    )));
                }
                Ok(Sample { candidates: f.candidates, chosen: f.chosen, locals: f.locals })
            })
            .collect()
    }
}

/// What [`save_samples`] wrote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SavedSamples {
    /// Games played.
    pub games: usize,
    /// Their samples.
    pub samples: usize,
    /// Seconds of self-play (wall).
    pub play_seconds: f64,
}

/// How well the weights rank one run's held-out moves (see [`PatternReport`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RunTop1 {
    /// The command that played the run.
    pub command: String,
    /// Its held-out samples.
    pub test_samples: usize,
    /// The share the learned weights rank first.
    pub top1: f64,
    /// The share the shipped weights rank first.
    pub shipped_top1: f64,
    /// The share a uniform guess ranks first.
    pub uniform: f64,
    /// The mean log-probability the learned weights give the chosen cells.
    pub log_likelihood: f64,
    /// The same for the shipped weights.
    pub shipped_log_likelihood: f64,
    /// The same for a uniform guess.
    pub uniform_log_likelihood: f64,
    /// The weights files of [`PatternOptions::compare`], each in the learned weights' place.
    pub compared: Vec<Judged>,
}

/// How well a weights file ranks a run's held-out moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The file.
    pub file: PathBuf,
    /// The share it ranks first.
    pub top1: f64,
    /// The mean log-probability it gives the chosen cells.
    pub log_likelihood: f64,
}

/// What a run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternReport {
    /// Samples learned from.
    pub train_samples: usize,
    /// Held-out samples.
    pub test_samples: usize,
    /// Patterns in the weights written.
    pub patterns: usize,
    /// Share of held-out moves the weights rank first (ties shared).
    pub top1: f64,
    /// Share a uniform guess ranks first.
    pub uniform: f64,
    /// With `--local`: the share the shipped pattern weights alone rank first.
    pub patterns_alone: Option<f64>,
    /// With `--local`: the share the playouts' local weights rank first (every other cell of
    /// strength 1).
    pub playout_top1: Option<f64>,
    /// The share the weights the crate ships rank first in place of the learned ones (the
    /// shipped patterns, six-cell with `--cells 6`, times the shipped local weights with
    /// `--local`): a teacher that played with the shipped priors may choose as they do, and
    /// new weights differ from them in play only as far as they predict its moves better.
    pub shipped_top1: f64,
    /// The same shares for each run's held-out samples apart, in the order the runs were
    /// played or their files named (one run unless several runs' files were learned from).
    pub runs: Vec<RunTop1>,
    /// Seconds of self-play (wall).
    pub play_seconds: f64,
}

/// Game `k` of `size` in a self-play run of seed `run_seed`: the game's own seed (for its
/// players) and its random first stone.
pub fn self_play_start(run_seed: u64, size: u8, k: u64) -> (u64, Cell) {
    let seed = run_seed ^ (u64::from(size) << 40) ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let n = usize::from(size);
    (seed, Cell::from_id(rng.random_range(0..n * n), size))
}

/// The samples of one self-play game in both codes, and whether it is held out.
fn play_game(options: &PatternOptions, size: u8, k: u64) -> (bool, Coded) {
    let (seed, first) = self_play_start(options.seed, size, k);
    let mut position = Position::new(u32::from(size)).expect("a board size the options checked");
    position = position.play(HexMove::Place(first)).expect("an empty board takes any cell");
    let mut player = MctsPlayer::new(MctsConfig {
        seed,
        knowledge_after: (size <= hex::solver::MAX_SOLVER_SIZE).then_some(hex::gtp::DEFAULT_KNOWLEDGE),
        prior_weight: options.priors,
        ..MctsConfig::iterations(options.iterations)
    });
    let mut solver = options.solver_labels.map(|labels| {
        Solver::new(SolverConfig { table_bits: 18, time_limit: Some(labels.time), ..SolverConfig::default() })
    });
    let mut samples = Coded::default();
    let mut last = Some(first);
    while position.winner().is_none() {
        let (mv, reason) = player.decide(&position);
        match (&mut solver, options.solver_labels) {
            (Some(solver), Some(labels)) => {
                if position.board().empty_cells().count() <= labels.max_empty as usize {
                    samples.append(solver_samples(solver, &position));
                }
            }
            _ => {
                if let (HexMove::Place(cell), MctsReason::Search | MctsReason::Solved) = (mv, reason) {
                    let last = last.filter(|_| options.local);
                    let coded = |code| Sample::after_as(code, &position, cell, last);
                    if let (Some(stones), Some(edges)) =
                        (coded(PatternCode::Stones), coded(PatternCode::Edges))
                    {
                        samples.stones.push(stones);
                        samples.edges.push(edges);
                    }
                }
            }
        }
        last = match mv {
            HexMove::Place(cell) => Some(cell),
            HexMove::Swap => None,
        };
        position = position.play(mv).expect("the player plays legal moves");
    }
    (k % 10 == 9, samples)
}

/// The samples the solver teaches at `position` (see the module docs), in both codes: each of
/// up to [`WINNERS_PER_POSITION`] winning moves against every losing move; none if the solver
/// does not finish or if every move wins or none does.
fn solver_samples(solver: &mut Solver, position: &Position) -> Coded {
    let Ok(winners) = solver.winning_moves(position) else { return Coded::default() };
    let winners: Vec<Cell> = winners
        .into_iter()
        .filter_map(|mv| if let HexMove::Place(c) = mv { Some(c) } else { None })
        .collect();
    let grid = PatternGrid::new(position);
    let coded = |code| labelled(&grid, position, &winners, code);
    Coded { stones: coded(PatternCode::Stones), edges: coded(PatternCode::Edges) }
}

/// [`solver_samples`] in one code, the position's winning moves known.
fn labelled(grid: &PatternGrid, position: &Position, winners: &[Cell], code: PatternCode) -> Vec<Sample> {
    let losers: Vec<u32> = position
        .board()
        .empty_cells()
        .filter(|c| !winners.contains(c))
        .map(|c| grid.code_as(code, c))
        .collect();
    if winners.is_empty() || losers.is_empty() {
        return Vec::new();
    }
    let step = winners.len().div_ceil(WINNERS_PER_POSITION);
    winners
        .iter()
        .step_by(step)
        .map(|&winner| {
            let mut candidates = Vec::with_capacity(losers.len() + 1);
            candidates.push(grid.code_as(code, winner));
            candidates.extend_from_slice(&losers);
            Sample { candidates, chosen: 0, locals: Vec::new() }
        })
        .collect()
}

/// The candidates' strengths in `sample`: the pattern's γ, times the local code's with `local`
/// weights.
fn gammas(weights: &PatternWeights, local: Option<&PatternWeights>, sample: &Sample) -> Vec<f32> {
    let near = |i: usize| match (local, sample.locals.get(i)) {
        (Some(local), Some(Some(code))) => local.gamma(*code),
        _ => 1.0,
    };
    sample.candidates.iter().enumerate().map(|(i, &code)| weights.gamma(code) * near(i)).collect()
}

/// The share of `samples` whose chosen cell has the highest γ (a tie of `t` cells counts `1/t`),
/// and the share a uniform guess would get; with `local` weights, a candidate's γ is its
/// pattern's times its local code's.
fn predict(weights: &PatternWeights, local: Option<&PatternWeights>, samples: &Coded) -> (f64, f64) {
    let samples = samples.get(weights.code());
    let (mut hits, mut uniform) = (0.0, 0.0);
    for sample in samples {
        let gammas = gammas(weights, local, sample);
        let best = gammas.iter().copied().fold(f32::MIN, f32::max);
        if gammas[sample.chosen] == best {
            hits += 1.0 / gammas.iter().filter(|&&g| g == best).count() as f64;
        }
        uniform += 1.0 / sample.candidates.len() as f64;
    }
    let n = samples.len().max(1) as f64;
    (hits / n, uniform / n)
}

/// The mean natural logarithm of the probability the weights give the chosen cell (its γ over
/// the sum of the candidates'), and a uniform guess's. Unlike the share ranked first it counts
/// how far down the weights put a chosen cell they do not rank first, so weights that mislead
/// score below the uniform guess.
fn log_likelihood(weights: &PatternWeights, local: Option<&PatternWeights>, samples: &Coded) -> (f64, f64) {
    let samples = samples.get(weights.code());
    let (mut sum, mut uniform) = (0.0, 0.0);
    for sample in samples {
        let gammas = gammas(weights, local, sample);
        let total: f64 = gammas.iter().map(|&g| f64::from(g)).sum();
        sum += (f64::from(gammas[sample.chosen]) / total).ln();
        uniform -= (sample.candidates.len() as f64).ln();
    }
    let n = samples.len().max(1) as f64;
    (sum / n, uniform / n)
}

/// Plays the games of the options' shard, in order of size (as the options list them) and
/// game, and the seconds it took.
fn play_games(options: &PatternOptions) -> Result<(Vec<GameSamples>, f64), String> {
    if let Some(&bad) = options.sizes.iter().find(|&&s| !(3..=hex::MAX_SIZE).contains(&s)) {
        return Err(format!("board sizes go from 3 to {}, not {bad}", hex::MAX_SIZE));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", options.threads))?;
    let started = std::time::Instant::now();
    let jobs: Vec<(u8, u64)> = options
        .sizes
        .iter()
        .flat_map(|&size| (0..options.games).filter(|&k| options.shard.has(k)).map(move |k| (size, k)))
        .collect();
    let games = pool.install(|| {
        jobs.par_iter()
            .map(|&(size, game)| {
                let (held_out, coded) = play_game(options, size, game);
                GameSamples { size, game, held_out, samples: coded.stones, edges: coded.edges }
            })
            .collect()
    });
    Ok((games, started.elapsed().as_secs_f64()))
}

/// Plays the games of the options' shard and writes their samples to `out` (one JSON line
/// naming the settings, then one per game), for [`PatternOptions::samples_in`].
pub fn save_samples(options: &PatternOptions, out: &Path) -> Result<SavedSamples, String> {
    let (games, play_seconds) = play_games(options)?;
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", out.display());
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(cannot)?;
    }
    let mut file = std::io::BufWriter::new(std::fs::File::create(out).map_err(cannot)?);
    writeln!(file, "{}", json_line(&SamplesHeader::new(options))).map_err(cannot)?;
    for game in &games {
        writeln!(file, "{}", json_line(game)).map_err(cannot)?;
    }
    file.flush().map_err(cannot)?;
    Ok(SavedSamples {
        games: games.len(),
        samples: games.iter().map(|g| g.samples.len()).sum(),
        play_seconds,
    })
}

/// One run's games, read from its sample files.
#[derive(Clone, Debug)]
struct LoadedRun {
    /// The settings that played it.
    header: SamplesHeader,
    /// Every game of the run once, in the order [`play_games`] gives.
    games: Vec<GameSamples>,
}

/// The runs of the sample files, in the order their first files are named: the files of one
/// run (the same settings, shards aside) are merged, and every run must have all its games.
fn load_samples(paths: &[PathBuf]) -> Result<Vec<LoadedRun>, String> {
    // Per run: its settings, its first file, its games by (size index, game).
    type Games = BTreeMap<(usize, u64), GameSamples>;
    let mut runs: Vec<(SamplesHeader, &Path, Games)> = Vec::new();
    for path in paths {
        let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
        let reader = std::io::BufReader::new(std::fs::File::open(path).map_err(cannot)?);
        let mut lines = reader.lines().enumerate();
        let first = match lines.next() {
            Some((_, line)) => line.map_err(cannot)?,
            None => return Err(format!("{} is empty, not a samples file", path.display())),
        };
        let this: SamplesHeader = serde_json::from_str(&first)
            .map_err(|e| format!("{}:1 is not a samples file's first line: {e}", path.display()))?;
        if this.hex_pattern_samples != SAMPLES_FORMAT {
            return Err(format!(
                "{} is in samples format {}; this xtask reads format {SAMPLES_FORMAT}",
                path.display(),
                this.hex_pattern_samples
            ));
        }
        let index = match runs.iter().position(|(header, _, _)| header.same_run(&this)) {
            Some(index) => index,
            None => {
                runs.push((this, path, BTreeMap::new()));
                runs.len() - 1
            }
        };
        let (header, _, games) = &mut runs[index];
        for (index, line) in lines {
            let line = line.map_err(cannot)?;
            let game: GameSamples = serde_json::from_str(&line)
                .map_err(|e| format!("{}:{}: not a game's samples: {e}", path.display(), index + 1))?;
            let Some(size_index) =
                header.sizes.iter().position(|&s| s == game.size).filter(|_| game.game < header.games)
            else {
                return Err(format!(
                    "{}:{}: game {} of size {} is not in the run (sizes {:?}, {} games each)",
                    path.display(),
                    index + 1,
                    game.game,
                    game.size,
                    header.sizes,
                    header.games
                ));
            };
            match games.get(&(size_index, game.game)) {
                Some(known) if *known != game => {
                    return Err(format!(
                        "{}:{}: game {} of size {} differs from the same game in an earlier file",
                        path.display(),
                        index + 1,
                        game.game,
                        game.size
                    ));
                }
                Some(_) => {}
                None => {
                    games.insert((size_index, game.game), game);
                }
            }
        }
    }
    if runs.is_empty() {
        return Err("no sample files given".into());
    }
    runs.into_iter()
        .map(|(header, first, games)| {
            let expected = header.sizes.len() as u64 * header.games;
            if games.len() as u64 != expected {
                return Err(format!(
                    "the sample files of the run of {} hold {} of its {expected} games (sizes {}, {} games each, seed {}): is a shard missing?",
                    first.display(),
                    games.len(),
                    header.sizes.iter().map(u8::to_string).collect::<Vec<_>>().join(","),
                    header.games,
                    header.seed
                ));
            }
            Ok(LoadedRun { header, games: games.into_values().collect() })
        })
        .collect()
}

/// A line of a samples file.
fn json_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("samples and their settings always serialize")
}

/// Plays (or reads the sample files of [`PatternOptions::samples_in`]), learns and writes the
/// weights.
pub fn run(options: &PatternOptions) -> Result<PatternReport, String> {
    if options.shard != Shard::ALL && options.samples_in.is_empty() {
        return Err("one shard's games alone are not learned from: write them with --samples-out".into());
    }
    // The files to compare are read first: a bad one stops the run before its play.
    let compared: Vec<(PathBuf, PatternWeights)> = options
        .compare
        .iter()
        .map(|file| PatternWeights::read(file).map(|w| (file.clone(), w)).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    // Each run with the options that played it (the learning settings are this run's).
    let (runs, play_seconds) = if options.samples_in.is_empty() {
        let (games, seconds) = play_games(options)?;
        (vec![(options.clone(), games)], seconds)
    } else {
        let runs = load_samples(&options.samples_in)?;
        if options.local && runs.iter().any(|run| !run.header.local) {
            return Err(
                "--local needs samples played for it (saved with --local): these have no local codes".into(),
            );
        }
        (runs.into_iter().map(|run| (run.header.apply(options), run.games)).collect(), 0.0)
    };
    if options.code != PatternCode::Stones && (options.ring || options.local) {
        return Err(format!(
            "the six-cell and the local-response patterns are in the stones code, not {:?}",
            options.code
        ));
    }
    let mut train = Coded::default();
    // Each run's held-out samples, judged apart: a solver's labels and a search's moves are
    // not ranked first equally often.
    let mut tests: Vec<(String, Coded)> = Vec::new();
    for (run_options, games) in runs {
        let mut test = Coded::default();
        for game in games {
            if game.held_out { test.extend(game) } else { train.extend(game) }
        }
        tests.push((command_line(&run_options), test));
    }
    // Every weights file judged reads its samples in its own code: files written before the
    // edge code have no samples in it.
    let codes = [options.code, PatternWeights::shipped().code()]
        .into_iter()
        .chain(compared.iter().map(|(_, w)| w.code()));
    let lacking = |coded: &Coded| coded.edges.len() != coded.stones.len();
    if codes.into_iter().any(|code| code == PatternCode::Edges)
        && (lacking(&train) || tests.iter().any(|(_, t)| lacking(t)))
    {
        return Err("these sample files were written before the edges code and hold no samples in it: play them again".into());
    }
    if options.ring {
        for sample in
            train.stones.iter_mut().chain(tests.iter_mut().flat_map(|(_, test)| test.stones.iter_mut()))
        {
            sample.candidates.iter_mut().for_each(|code| *code = hex::patterns::ring(*code));
        }
    }
    let mut test = Coded::default();
    for (_, run) in &tests {
        test.append(run.clone());
    }
    let (weights, local) = if options.local {
        let shipped = PatternWeights::shipped();
        (shipped, Some(PatternWeights::learn_local(train.get(shipped.code()), shipped, &options.learn)))
    } else {
        (&PatternWeights::learn(train.get(options.code), &options.learn).with_code(options.code), None)
    };
    // The weights judged: the learned ones, and the shipped ones in their place.
    let learned_top1 = |samples: &Coded| predict(weights, local.as_ref(), samples);
    // The shipped weights of the same kind: the patterns times the local weights with `local`,
    // the six-cell playout patterns with `ring`, else the twelve-cell patterns.
    let (shipped, shipped_local) = match (options.local, options.ring) {
        (true, _) => (PatternWeights::shipped(), Some(PatternWeights::shipped_local())),
        (false, true) => (PatternWeights::shipped_playout(), None),
        (false, false) => (PatternWeights::shipped(), None),
    };
    let shipped_top1 = |samples: &Coded| predict(shipped, shipped_local, samples).0;
    let (top1, uniform) = learned_top1(&test);
    let patterns_alone = options.local.then(|| predict(PatternWeights::shipped(), None, &test).0);
    let alone =
        patterns_alone.map_or(String::new(), |alone| format!("; patterns alone {:.1} %", 100.0 * alone));
    let learned = format!(
        "{} training samples; held-out top-1 {:.1} % (uniform {:.1} %){alone}",
        train.len(),
        100.0 * top1,
        100.0 * uniform
    );
    let commands: Vec<String> = tests.iter().map(|(command, _)| command.clone()).collect();
    write_weights(&commands, &options.out, local.as_ref().unwrap_or(weights), &learned)?;
    let mut playout_top1 = None;
    if let (true, Some(out)) = (options.local, &options.local_playout_out) {
        // The playouts weigh the cells near the last stone against a flat rest.
        let flat = PatternWeights::default();
        let local = PatternWeights::learn_local(&train.stones, &flat, &options.learn);
        let (top1, _) = predict(&flat, Some(&local), &test);
        playout_top1 = Some(top1);
        let learned = format!(
            "{} training samples, every cell's pattern strength 1 (the playouts'); held-out top-1 {:.1} % (uniform {:.1} %)",
            train.len(),
            100.0 * top1,
            100.0 * uniform
        );
        write_weights(&commands, out, &local, &learned)?;
    }
    // A compared file takes the learned weights' place: the local ones beside the shipped
    // patterns with `local`, else the patterns alone.
    let place = |w: &PatternWeights, samples: &Coded| {
        let (patterns, near) = if options.local { (PatternWeights::shipped(), Some(w)) } else { (w, None) };
        (predict(patterns, near, samples).0, log_likelihood(patterns, near, samples).0)
    };
    let shipped_log_likelihood = |samples: &Coded| log_likelihood(shipped, shipped_local, samples).0;
    let runs = tests
        .iter()
        .map(|(command, test)| {
            let (top1, uniform) = learned_top1(test);
            let (learned_ll, uniform_ll) = log_likelihood(weights, local.as_ref(), test);
            RunTop1 {
                command: command.clone(),
                test_samples: test.len(),
                top1,
                shipped_top1: shipped_top1(test),
                uniform,
                log_likelihood: learned_ll,
                shipped_log_likelihood: shipped_log_likelihood(test),
                uniform_log_likelihood: uniform_ll,
                compared: compared
                    .iter()
                    .map(|(file, w)| {
                        let (top1, log_likelihood) = place(w, test);
                        Judged { file: file.clone(), top1, log_likelihood }
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(PatternReport {
        train_samples: train.len(),
        test_samples: test.len(),
        patterns: local.as_ref().unwrap_or(weights).len(),
        top1,
        uniform,
        patterns_alone,
        playout_top1,
        shipped_top1: shipped_top1(&test),
        runs,
        play_seconds,
    })
}

/// The command that plays a run with these settings (the learning settings and the output
/// left out: they are the learning run's).
fn command_line(options: &PatternOptions) -> String {
    let sizes: Vec<String> = options.sizes.iter().map(u8::to_string).collect();
    let priors = options.priors.map_or(String::new(), |w| format!(" --priors {w}"));
    let cells = match (options.ring, options.local, options.code) {
        (true, _, _) => " --cells 6",
        (_, true, _) => " --local",
        (_, _, PatternCode::Edges) => " --code edges",
        _ => "",
    };
    let labels = options.solver_labels.map_or(String::new(), |l| {
        format!(" --solver-labels {} --solve-time {}", l.max_empty, l.time.as_secs_f64())
    });
    format!(
        "cargo xtask hex-patterns --sizes {} --games {} --iterations {} --seed {} --rounds {} --min-count {}{priors}{cells}{labels}",
        sizes.join(","),
        options.games,
        options.iterations,
        options.seed,
        options.learn.rounds,
        options.learn.min_count,
    )
}

/// Writes `weights` to `out` with comments naming the commands that played the games (one a
/// run) and what they learned from.
fn write_weights(
    commands: &[String],
    out: &Path,
    weights: &PatternWeights,
    learned: &str,
) -> Result<(), String> {
    let text = weights.to_text();
    let (header, body) = text.split_once('\n').expect("the text starts with its header");
    let commands: String = commands.iter().map(|command| format!("# {command}\n")).collect();
    let file = format!("{header}\n{commands}# {learned}\n{body}");
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(out, file).map_err(|e| format!("cannot write {}: {e}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Self-play options for the tests: `games` games per size at 200 playouts a move, two
    /// threads, ten learning rounds, every pattern kept, the weights written to `out`.
    fn small(sizes: Vec<u8>, games: u64, seed: u64, out: PathBuf) -> PatternOptions {
        PatternOptions {
            sizes,
            games,
            iterations: 200,
            seed,
            threads: 2,
            priors: None,
            ring: false,
            code: PatternCode::Stones,
            local: false,
            local_playout_out: None,
            solver_labels: None,
            learn: LearnConfig { rounds: 10, min_count: 1 },
            out,
            shard: Shard::ALL,
            compare: Vec::new(),
            samples_in: Vec::new(),
        }
    }

    #[test]
    fn learns_from_a_few_small_games_and_is_seeded() {
        let dir = std::env::temp_dir().join(format!("hex-patterns-test-{}", std::process::id()));
        let options = small(vec![5], 10, 4, dir.join("patterns.txt"));
        let report = run(&options).unwrap();
        assert!(report.train_samples > 20 && report.test_samples > 0, "{report:?}");
        let text = std::fs::read_to_string(&options.out).unwrap();
        let weights = PatternWeights::parse(&text).unwrap();
        assert_eq!(weights.len(), report.patterns);
        // The learned weights predict the training moves better than a uniform guess does.
        let mut train = Coded::default();
        (0..10).for_each(|k| train.append(play_game(&options, 5, k).1));
        let (top1, uniform) = predict(&weights, None, &train);
        assert!(top1 > uniform, "{top1} {uniform}");
        // Game 9 of 10 is the held-out one; the shipped weights are judged on it too.
        let (held_out, test) = play_game(&options, 5, 9);
        assert!(held_out);
        assert_eq!(report.shipped_top1, predict(PatternWeights::shipped(), None, &test).0);
        // Weights files judged beside them: a flat file scores as a uniform guess, the shipped
        // file as the shipped weights; a missing file stops the run before it plays.
        let flat = dir.join("flat.txt");
        std::fs::write(&flat, "hex-patterns 1\n").unwrap();
        let shipped_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(DEFAULT_OUT);
        let judged = run(&PatternOptions {
            compare: vec![flat.clone(), shipped_file],
            out: dir.join("judged.txt"),
            ..options.clone()
        })
        .unwrap();
        let [only] = &judged.runs[..] else { panic!("one run: {judged:?}") };
        assert_eq!(only.test_samples, judged.test_samples);
        assert!((only.compared[0].log_likelihood - only.uniform_log_likelihood).abs() < 1e-6, "{only:?}");
        assert!((only.compared[0].top1 - only.uniform).abs() < 1e-9, "{only:?}");
        assert_eq!(only.compared[1].top1, only.shipped_top1);
        assert!((only.compared[1].log_likelihood - only.shipped_log_likelihood).abs() < 1e-6, "{only:?}");
        assert!(only.log_likelihood > only.uniform_log_likelihood && only.log_likelihood < 0.0, "{only:?}");
        let missing = dir.join("no-such-weights.txt");
        let message = run(&PatternOptions { compare: vec![missing], ..options.clone() }).unwrap_err();
        assert!(message.contains("no-such-weights.txt"), "{message}");
        // The same options give the same file, whatever the threads.
        run(&PatternOptions { threads: 1, out: dir.join("again.txt"), ..options.clone() }).unwrap();
        assert_eq!(text, std::fs::read_to_string(dir.join("again.txt")).unwrap());
        // The edge code: the same moves, each sample with the same candidates in the same order
        // and the same choice; the file says its code and the command; the learned file, judged
        // beside, scores as the learned weights (each read in its own code).
        let edges =
            PatternOptions { code: PatternCode::Edges, out: dir.join("edges.txt"), ..options.clone() };
        let report = run(&edges).unwrap();
        let text = std::fs::read_to_string(&edges.out).unwrap();
        assert!(text.starts_with("hex-patterns 1 edges\n"), "{text}");
        assert!(text.lines().nth(1).unwrap().ends_with("--code edges"), "{text}");
        assert_eq!(PatternWeights::parse(&text).unwrap().code(), PatternCode::Edges);
        assert!(report.top1 > report.uniform, "{report:?}");
        assert_eq!((train.stones.len(), !train.edges.is_empty()), (train.edges.len(), true));
        for (stones, edges) in train.stones.iter().zip(&train.edges) {
            assert_eq!((stones.candidates.len(), stones.chosen), (edges.candidates.len(), edges.chosen));
        }
        assert!(train.stones.iter().zip(&train.edges).any(|(a, b)| a.candidates != b.candidates));
        let judged = run(&PatternOptions { compare: vec![edges.out.clone()], ..options.clone() }).unwrap();
        assert_eq!(judged.runs[0].compared[0].top1, report.top1);
        // The six-cell and local patterns have no edge code.
        assert!(run(&PatternOptions { ring: true, ..edges.clone() }).is_err());
        // Six-cell patterns: every code a ring code, the command named in the file.
        let ring = PatternOptions { ring: true, out: dir.join("ring.txt"), ..options.clone() };
        let report = run(&ring).unwrap();
        let text = std::fs::read_to_string(&ring.out).unwrap();
        assert!(text.lines().nth(1).unwrap().ends_with("--cells 6"), "{text}");
        let weights = PatternWeights::parse(&text).unwrap();
        assert!(report.patterns > 10 && report.top1 > report.uniform, "{report:?}");
        assert!(weights.to_text().lines().skip(1).all(|line| {
            u32::from_str_radix(line.split(' ').next().unwrap(), 16).unwrap()
                < hex::patterns::RING_CODES as u32
        }));
        // Local-response weights: local codes only, the command named in the file, and on the
        // games they were learned from they rank the chosen cell first more often than the
        // pattern weights alone do.
        let local = PatternOptions {
            local: true,
            out: dir.join("local.txt"),
            local_playout_out: Some(dir.join("local-playout.txt")),
            ..options.clone()
        };
        let report = run(&local).unwrap();
        let text = std::fs::read_to_string(&local.out).unwrap();
        assert!(text.lines().nth(1).unwrap().ends_with("--local"), "{text}");
        let weights = PatternWeights::parse(&text).unwrap();
        assert!(report.patterns > 10, "{report:?}");
        assert!(weights.to_text().lines().skip(1).all(|line| {
            u32::from_str_radix(line.split(' ').next().unwrap(), 16).unwrap()
                < hex::patterns::LOCAL_CODES as u32
        }));
        let mut samples = Coded::default();
        (0..10).for_each(|k| samples.append(play_game(&local, 5, k).1));
        assert!(samples.stones.iter().chain(&samples.edges).all(|s| s.locals.len() == s.candidates.len()));
        let shipped = PatternWeights::shipped();
        let (alone, _) = predict(shipped, None, &samples);
        let (with_local, _) = predict(shipped, Some(&weights), &samples);
        assert!(with_local > alone, "{with_local} {alone}");
        // The playouts' local weights, against a flat rest, rank the chosen cell first more
        // often than a uniform guess.
        let text = std::fs::read_to_string(dir.join("local-playout.txt")).unwrap();
        let playout = PatternWeights::parse(&text).unwrap();
        let (top1, uniform) = predict(&PatternWeights::default(), Some(&playout), &samples);
        assert!(top1 > 2.0 * uniform && report.playout_top1.is_some(), "{top1} {uniform}");
        assert!(run(&PatternOptions { sizes: vec![2], ..options }).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A run that writes its weights elsewhere writes its playout weights beside them, never
    /// over the crate's file.
    #[test]
    fn playout_weights_go_beside_the_output() {
        assert_eq!(
            playout_file_beside(Path::new("/tmp/run/local.txt")),
            Path::new("/tmp/run/local-playout.txt")
        );
        assert_eq!(playout_file_beside(Path::new("w")), Path::new("w-playout.txt"));
    }

    /// Each sample the solver teaches puts one winning move (checked by solving the position
    /// after it) against exactly the losing moves (each checked the same way).
    #[test]
    fn solver_samples_put_a_winning_move_against_every_losing_one() {
        let mut solver = Solver::new(SolverConfig::default());
        let mut taught = 0;
        for moves in [vec!["b2"], vec!["a1", "c3"], vec!["d1", "b3", "c2"], vec!["a4", "b2", "c3", "b3"]] {
            for code in [PatternCode::Stones, PatternCode::Edges] {
                let (position, _) = hex::play_moves(5, moves.iter().copied()).unwrap();
                let grid = PatternGrid::new(&position);
                let me = position.to_move();
                let mut wins = Vec::new();
                let mut loses = Vec::new();
                for cell in position.board().empty_cells() {
                    let child = position.play(HexMove::Place(cell)).unwrap();
                    let won = child.winner() == Some(me)
                        || solver.solve(&child).unwrap().verdict.winner() == Some(me);
                    let pattern = grid.code_as(code, cell);
                    if won { wins.push(pattern) } else { loses.push(pattern) }
                }
                let samples = solver_samples(&mut solver, &position).get(code).to_vec();
                if wins.is_empty() || loses.is_empty() {
                    assert!(samples.is_empty(), "{moves:?}");
                    continue;
                }
                // Winners spread over the list: every ⌈w / 4⌉-th, so at most four.
                assert_eq!(samples.len(), wins.len().div_ceil(wins.len().div_ceil(WINNERS_PER_POSITION)));
                assert!(samples.len() <= WINNERS_PER_POSITION && (wins.len() < 4 || samples.len() >= 3));
                for sample in &samples {
                    assert_eq!(sample.chosen, 0);
                    assert!(wins.contains(&sample.candidates[0]), "{moves:?}");
                    let mut others = sample.candidates[1..].to_vec();
                    others.sort_unstable();
                    let mut expected = loses.clone();
                    expected.sort_unstable();
                    assert_eq!(others, expected, "{moves:?}");
                }
                taught += 1;
            }
        }
        assert!(taught >= 4, "only {taught} of the positions had both winning and losing moves");
    }

    /// A run with the solver as the teacher learns from its samples and names its settings in
    /// the file.
    #[test]
    fn learns_from_the_solver_and_says_so() {
        let dir = std::env::temp_dir().join(format!("hex-patterns-solver-test-{}", std::process::id()));
        let options = PatternOptions {
            solver_labels: Some(SolverLabels { max_empty: 20, time: Duration::from_secs(5) }),
            ..small(vec![5], 10, 9, dir.join("patterns.txt"))
        };
        let report = run(&options).unwrap();
        assert!(report.train_samples > 20, "{report:?}");
        let text = std::fs::read_to_string(&options.out).unwrap();
        assert!(text.lines().nth(1).unwrap().ends_with("--solver-labels 20 --solve-time 5"), "{text}");
        assert_eq!(PatternWeights::parse(&text).unwrap().len(), report.patterns);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Shards played apart and learned from together give the weights of the run in one
    /// piece, and sample files that do not make up one run are refused with a reason.
    #[test]
    fn shards_learned_together_give_the_run_in_one_piece() {
        let dir = std::env::temp_dir().join(format!("hex-patterns-shards-test-{}", std::process::id()));
        let options = PatternOptions {
            iterations: 100,
            local: true,
            local_playout_out: Some(dir.join("whole-playout.txt")),
            ..small(vec![4, 5], 10, 6, dir.join("whole.txt"))
        };
        let whole = run(&options).unwrap();
        let files: Vec<PathBuf> = (0..3).map(|k| dir.join(format!("shard-{k}.jsonl"))).collect();
        let mut played = 0;
        for (k, file) in files.iter().enumerate() {
            let shard = Shard { k: k as u64, n: 3 };
            // A shard alone is not learned from.
            assert!(run(&PatternOptions { shard, ..options.clone() }).is_err());
            let saved = save_samples(&PatternOptions { shard, ..options.clone() }, file).unwrap();
            assert_eq!(saved.games, (0..10).filter(|&g| shard.has(g)).count() * 2);
            played += saved.samples;
        }
        assert_eq!(played, whole.train_samples + whole.test_samples);
        // The learning run's own play settings do not matter: the files' do. A file named
        // twice counts once.
        let merged = PatternOptions {
            sizes: vec![9],
            games: 1,
            seed: 99,
            out: dir.join("merged.txt"),
            local_playout_out: Some(dir.join("merged-playout.txt")),
            samples_in: vec![files[2].clone(), files[0].clone(), files[1].clone(), files[0].clone()],
            ..options.clone()
        };
        let report = run(&merged).unwrap();
        assert_eq!((report.train_samples, report.top1), (whole.train_samples, whole.top1));
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        assert_eq!(read("merged.txt"), read("whole.txt"));
        assert_eq!(read("merged-playout.txt"), read("whole-playout.txt"));
        // A missing shard, another run's file, a broken line, and --local without local codes.
        let refused = |samples_in: Vec<PathBuf>, local: bool| {
            run(&PatternOptions { samples_in, local, ..merged.clone() }).unwrap_err()
        };
        assert!(refused(files[..2].to_vec(), true).contains("is a shard missing"));
        let other = dir.join("other.jsonl");
        save_samples(&PatternOptions { seed: 7, shard: Shard { k: 0, n: 3 }, ..options.clone() }, &other)
            .unwrap();
        // Another run's file is a run of its own, which must be complete too.
        let message =
            refused(vec![files[0].clone(), files[1].clone(), files[2].clone(), other.clone()], true);
        assert!(
            message.contains("run of") && message.contains("other.jsonl") && message.contains("seed 7"),
            "{message}"
        );
        // Two complete runs learn together: every run's training samples, each run's held-out
        // share apart, both commands in the file.
        let whole_other = dir.join("other-whole.jsonl");
        let other_options = PatternOptions { seed: 7, shard: Shard::ALL, ..options.clone() };
        let other_saved = save_samples(&other_options, &whole_other).unwrap();
        let both = run(&PatternOptions {
            samples_in: vec![files[0].clone(), whole_other.clone(), files[1].clone(), files[2].clone()],
            out: dir.join("both.txt"),
            local_playout_out: Some(dir.join("both-playout.txt")),
            ..merged.clone()
        })
        .unwrap();
        assert_eq!(both.train_samples + both.test_samples, played + other_saved.samples);
        assert_eq!(both.runs.len(), 2);
        assert_eq!(both.runs[0].test_samples, whole.test_samples);
        assert_eq!(both.runs[0].command, command_line(&options));
        assert_eq!(both.runs[1].command, command_line(&other_options));
        assert_eq!(both.runs.iter().map(|r| r.test_samples).sum::<usize>(), both.test_samples);
        assert!(both.runs.iter().all(|r| r.top1 > r.uniform), "{both:?}");
        let text = read("both.txt");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[1].contains("--seed 6 ") && lines[2].contains("--seed 7 "), "{text}");
        assert_ne!(text, read("whole.txt"));
        assert_eq!(whole.runs.len(), 1);
        assert_eq!((whole.runs[0].top1, whole.runs[0].shipped_top1), (whole.top1, whole.shipped_top1));
        let broken = dir.join("broken.jsonl");
        let text = read("shard-1.jsonl");
        std::fs::write(&broken, format!("{}{{\"size\": 4}}\n", text)).unwrap();
        let message = refused(vec![files[0].clone(), broken, files[2].clone()], true);
        assert!(message.contains("broken.jsonl:") && message.contains("not a game's samples"), "{message}");
        let plain = dir.join("plain.jsonl");
        save_samples(&PatternOptions { local: false, shard: Shard::ALL, ..options.clone() }, &plain).unwrap();
        assert!(refused(vec![plain.clone()], true).contains("no local codes"));
        assert!(
            run(&PatternOptions { samples_in: vec![plain], local: false, local_playout_out: None, ..merged })
                .is_ok()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
