//! `cargo xtask hex-patterns`: learns the Hex move-pattern weights ([`hex::patterns`]) from our
//! own MCTS player's self-play, and reports how well they predict held-out moves.
//!
//! Game `k` of size `n` opens with a cell drawn from the seed, `n` and `k` (so the games do not
//! all follow one line), then the MCTS player plays both sides with a fixed playout budget and a
//! seed of its own per game: the run is the same on every machine and with any `--threads`. Every
//! move the search chose becomes a sample (the cells that win or block at once are left out:
//! they are not shape). One game in ten (`k % 10 == 9`) is held out: the weights are learned on
//! the rest, and the share of held-out moves that the weights rank first is reported beside the
//! share a uniform guess would get. The weights file is written with a comment naming the command.
//!
//! With `--solver-labels N` the teacher is the exact solver instead of the search: the games are
//! played the same way, but every position with at most `N` empty cells is given to
//! [`hex::solver::Solver::winning_moves`] (a time limit each), and where some moves win and
//! others lose, each of up to [`WINNERS_PER_POSITION`] winning moves becomes a sample against
//! every losing move (the other winners left out). Positions the solver does not finish, and those
//! where every move wins or none does, teach nothing and are skipped. The held-out share ranked
//! first is then the share of positions where the weights rank a winning move above every losing one.

use std::path::{Path, PathBuf};

use std::time::Duration;

use hex::mcts::{MctsConfig, MctsPlayer, MctsReason};
use hex::patterns::{LearnConfig, PatternGrid, PatternWeights, Sample};
use hex::solver::{Solver, SolverConfig};
use hex::{Cell, HexMove, Position};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

/// The weights file the crate ships.
pub const DEFAULT_OUT: &str = "crates/hex/data/patterns.txt";

/// The playout weights file the crate ships (`--cells 6`).
pub const DEFAULT_RING_OUT: &str = "crates/hex/data/playout-patterns.txt";

/// The local-response weights file of the priors the crate ships (`--local`).
pub const DEFAULT_LOCAL_OUT: &str = "crates/hex/data/local-patterns.txt";

/// The local-response weights file of the playouts the crate ships (`--local`).
pub const DEFAULT_LOCAL_PLAYOUT_OUT: &str = "crates/hex/data/local-playout-patterns.txt";

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
    /// Seconds of self-play (wall).
    pub play_seconds: f64,
}

/// The samples of one self-play game, and whether it is held out.
fn play_game(options: &PatternOptions, size: u8, k: u64) -> (bool, Vec<Sample>) {
    let seed = options.seed ^ (u64::from(size) << 40) ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut position = Position::new(u32::from(size)).expect("a board size the options checked");
    let n = usize::from(size);
    let first = Cell::from_id(rng.random_range(0..n * n), size);
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
    let mut samples = Vec::new();
    let mut last = Some(first);
    while position.winner().is_none() {
        let (mv, reason) = player.decide(&position);
        match (&mut solver, options.solver_labels) {
            (Some(solver), Some(labels)) => {
                if position.board().empty_cells().count() <= labels.max_empty as usize {
                    samples.extend(solver_samples(solver, &position));
                }
            }
            _ => {
                if let (HexMove::Place(cell), MctsReason::Search | MctsReason::Solved) = (mv, reason)
                    && let Some(sample) = Sample::after(&position, cell, last.filter(|_| options.local))
                {
                    samples.push(sample);
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

/// The samples the solver teaches at `position` (see the module docs): each of up to
/// [`WINNERS_PER_POSITION`] winning moves against every losing move; none if the solver does
/// not finish or if every move wins or none does.
fn solver_samples(solver: &mut Solver, position: &Position) -> Vec<Sample> {
    let Ok(winners) = solver.winning_moves(position) else { return Vec::new() };
    let winners: Vec<Cell> = winners
        .into_iter()
        .filter_map(|mv| if let HexMove::Place(c) = mv { Some(c) } else { None })
        .collect();
    let grid = PatternGrid::new(position);
    let losers: Vec<u32> =
        position.board().empty_cells().filter(|c| !winners.contains(c)).map(|c| grid.code(c)).collect();
    if winners.is_empty() || losers.is_empty() {
        return Vec::new();
    }
    let step = winners.len().div_ceil(WINNERS_PER_POSITION);
    winners
        .iter()
        .step_by(step)
        .map(|&winner| {
            let mut candidates = Vec::with_capacity(losers.len() + 1);
            candidates.push(grid.code(winner));
            candidates.extend_from_slice(&losers);
            Sample { candidates, chosen: 0, locals: Vec::new() }
        })
        .collect()
}

/// The share of `samples` whose chosen cell has the highest γ (a tie of `t` cells counts `1/t`),
/// and the share a uniform guess would get; with `local` weights, a candidate's γ is its
/// pattern's times its local code's.
fn predict(weights: &PatternWeights, local: Option<&PatternWeights>, samples: &[Sample]) -> (f64, f64) {
    let (mut hits, mut uniform) = (0.0, 0.0);
    for sample in samples {
        let near = |i: usize| match (local, sample.locals.get(i)) {
            (Some(local), Some(Some(code))) => local.gamma(*code),
            _ => 1.0,
        };
        let gammas: Vec<f32> =
            sample.candidates.iter().enumerate().map(|(i, &code)| weights.gamma(code) * near(i)).collect();
        let best = gammas.iter().copied().fold(f32::MIN, f32::max);
        if gammas[sample.chosen] == best {
            hits += 1.0 / gammas.iter().filter(|&&g| g == best).count() as f64;
        }
        uniform += 1.0 / sample.candidates.len() as f64;
    }
    let n = samples.len().max(1) as f64;
    (hits / n, uniform / n)
}

/// Plays, learns and writes the weights.
pub fn run(options: &PatternOptions) -> Result<PatternReport, String> {
    if let Some(&bad) = options.sizes.iter().find(|&&s| !(3..=hex::MAX_SIZE).contains(&s)) {
        return Err(format!("board sizes go from 3 to {}, not {bad}", hex::MAX_SIZE));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", options.threads))?;
    let started = std::time::Instant::now();
    let jobs: Vec<(u8, u64)> =
        options.sizes.iter().flat_map(|&size| (0..options.games).map(move |k| (size, k))).collect();
    let games: Vec<(bool, Vec<Sample>)> =
        pool.install(|| jobs.par_iter().map(|&(size, k)| play_game(options, size, k)).collect());
    let play_seconds = started.elapsed().as_secs_f64();
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (held_out, samples) in games {
        if held_out { test.extend(samples) } else { train.extend(samples) }
    }
    if options.ring {
        for sample in train.iter_mut().chain(test.iter_mut()) {
            sample.candidates.iter_mut().for_each(|code| *code = hex::patterns::ring(*code));
        }
    }
    let (weights, (top1, uniform), patterns_alone) = if options.local {
        let patterns = PatternWeights::shipped();
        let local = PatternWeights::learn_local(&train, patterns, &options.learn);
        let predicted = predict(patterns, Some(&local), &test);
        (local, predicted, Some(predict(patterns, None, &test).0))
    } else {
        let weights = PatternWeights::learn(&train, &options.learn);
        let predicted = predict(&weights, None, &test);
        (weights, predicted, None)
    };
    let alone =
        patterns_alone.map_or(String::new(), |alone| format!("; patterns alone {:.1} %", 100.0 * alone));
    let learned = format!(
        "{} training samples; held-out top-1 {:.1} % (uniform {:.1} %){alone}",
        train.len(),
        100.0 * top1,
        100.0 * uniform
    );
    write_weights(options, &options.out, &weights, &learned)?;
    let mut playout_top1 = None;
    if let (true, Some(out)) = (options.local, &options.local_playout_out) {
        // The playouts weigh the cells near the last stone against a flat rest.
        let flat = PatternWeights::default();
        let local = PatternWeights::learn_local(&train, &flat, &options.learn);
        let (top1, _) = predict(&flat, Some(&local), &test);
        playout_top1 = Some(top1);
        let learned = format!(
            "{} training samples, every cell's pattern strength 1 (the playouts'); held-out top-1 {:.1} % (uniform {:.1} %)",
            train.len(),
            100.0 * top1,
            100.0 * uniform
        );
        write_weights(options, out, &local, &learned)?;
    }
    Ok(PatternReport {
        train_samples: train.len(),
        test_samples: test.len(),
        patterns: weights.len(),
        top1,
        uniform,
        patterns_alone,
        playout_top1,
        play_seconds,
    })
}

/// Writes `weights` to `out` with comments naming the command that made them and what they
/// learned from.
fn write_weights(
    options: &PatternOptions,
    out: &Path,
    weights: &PatternWeights,
    learned: &str,
) -> Result<(), String> {
    let sizes: Vec<String> = options.sizes.iter().map(u8::to_string).collect();
    let text = weights.to_text();
    let (header, body) = text.split_once('\n').expect("the text starts with its header");
    let priors = options.priors.map_or(String::new(), |w| format!(" --priors {w}"));
    let cells = match (options.ring, options.local) {
        (true, _) => " --cells 6",
        (_, true) => " --local",
        _ => "",
    };
    let labels = options.solver_labels.map_or(String::new(), |l| {
        format!(" --solver-labels {} --solve-time {}", l.max_empty, l.time.as_secs_f64())
    });
    let file = format!(
        "{header}\n# cargo xtask hex-patterns --sizes {} --games {} --iterations {} --seed {} \
         --rounds {} --min-count {}{priors}{cells}{labels}\n# {learned}\n{body}",
        sizes.join(","),
        options.games,
        options.iterations,
        options.seed,
        options.learn.rounds,
        options.learn.min_count,
    );
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(out, file).map_err(|e| format!("cannot write {}: {e}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_from_a_few_small_games_and_is_seeded() {
        let dir = std::env::temp_dir().join(format!("hex-patterns-test-{}", std::process::id()));
        let options = PatternOptions {
            sizes: vec![5],
            games: 10,
            iterations: 200,
            seed: 4,
            threads: 2,
            priors: None,
            ring: false,
            local: false,
            local_playout_out: None,
            solver_labels: None,
            learn: LearnConfig { rounds: 10, min_count: 1 },
            out: dir.join("patterns.txt"),
        };
        let report = run(&options).unwrap();
        assert!(report.train_samples > 20 && report.test_samples > 0, "{report:?}");
        let text = std::fs::read_to_string(&options.out).unwrap();
        let weights = PatternWeights::parse(&text).unwrap();
        assert_eq!(weights.len(), report.patterns);
        // The learned weights predict the training moves better than a uniform guess does.
        let (_, train): (Vec<_>, Vec<_>) = (0..10).map(|k| play_game(&options, 5, k)).unzip();
        let train: Vec<Sample> = train.into_iter().flatten().collect();
        let (top1, uniform) = predict(&weights, None, &train);
        assert!(top1 > uniform, "{top1} {uniform}");
        // The same options give the same file, whatever the threads.
        run(&PatternOptions { threads: 1, out: dir.join("again.txt"), ..options.clone() }).unwrap();
        assert_eq!(text, std::fs::read_to_string(dir.join("again.txt")).unwrap());
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
        let samples: Vec<Sample> = (0..10).flat_map(|k| play_game(&local, 5, k).1).collect();
        assert!(samples.iter().all(|s| s.locals.len() == s.candidates.len()));
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

    /// Each sample the solver teaches puts one winning move (checked by solving the position
    /// after it) against exactly the losing moves (each checked the same way).
    #[test]
    fn solver_samples_put_a_winning_move_against_every_losing_one() {
        let mut solver = Solver::new(SolverConfig::default());
        let mut taught = 0;
        for moves in [vec!["b2"], vec!["a1", "c3"], vec!["d1", "b3", "c2"], vec!["a4", "b2", "c3", "b3"]] {
            let (position, _) = hex::play_moves(5, moves.iter().copied()).unwrap();
            let grid = PatternGrid::new(&position);
            let me = position.to_move();
            let mut wins = Vec::new();
            let mut loses = Vec::new();
            for cell in position.board().empty_cells() {
                let child = position.play(HexMove::Place(cell)).unwrap();
                let won =
                    child.winner() == Some(me) || solver.solve(&child).unwrap().verdict.winner() == Some(me);
                if won { wins.push(grid.code(cell)) } else { loses.push(grid.code(cell)) }
            }
            let samples = solver_samples(&mut solver, &position);
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
        assert!(taught >= 2, "only {taught} of the positions had both winning and losing moves");
    }

    /// A run with the solver as the teacher learns from its samples and names its settings in
    /// the file.
    #[test]
    fn learns_from_the_solver_and_says_so() {
        let dir = std::env::temp_dir().join(format!("hex-patterns-solver-test-{}", std::process::id()));
        let options = PatternOptions {
            sizes: vec![5],
            games: 10,
            iterations: 200,
            seed: 9,
            threads: 2,
            priors: None,
            ring: false,
            local: false,
            local_playout_out: None,
            solver_labels: Some(SolverLabels { max_empty: 20, time: Duration::from_secs(5) }),
            learn: LearnConfig { rounds: 10, min_count: 1 },
            out: dir.join("patterns.txt"),
        };
        let report = run(&options).unwrap();
        assert!(report.train_samples > 20, "{report:?}");
        let text = std::fs::read_to_string(&options.out).unwrap();
        assert!(text.lines().nth(1).unwrap().ends_with("--solver-labels 20 --solve-time 5"), "{text}");
        assert_eq!(PatternWeights::parse(&text).unwrap().len(), report.patterns);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
