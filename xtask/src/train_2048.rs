//! `cargo xtask train-2048`: trains an n-tuple network for 2048 by TD learning from self-play
//! ([`game2048::ntuple`]), with checkpoints, a learning curve and a progress bar.
//!
//! The network is saved to `--out` every `--checkpoint-every` games (written to a temporary file
//! and renamed, so an interrupted run leaves the last good checkpoint). With `--resume` an
//! existing file is loaded and training goes on from its game count; the spawns of game `k`
//! depend only on the seed and `k`, so a resumed run plays the games an uninterrupted one would
//! have. After each batch a line goes to the learning curve, `<out>.curve.jsonl`: games trained,
//! the batch's mean score and tile rates, and the seconds it took. The progress bar shows the
//! last batch's mean score and 2048/8192/16384 rates.
//!
//! `--restart-tile T --restart-share S` starts a share `S` of the games from boards kept where
//! earlier games first showed tile `T` (the pool is saved with the network; the curve's scores
//! and rates are of the games that started from a new board). `--rule tc` trains by temporal coherence learning (a step size per weight; the file then also
//! holds the two sums per weight it needs, three times the size, so that `--resume` goes on
//! exactly). With `--threads 1` the run is deterministic; with more, threads update the weights at once
//! (see [`game2048::ntuple`]) and the network depends on their timing.

use std::io::Write as _;
use std::path::PathBuf;

use game2048::ntuple::{
    LearningRule, NTupleNetwork, REPORTED_TILES, Restarts, Shape, Stages, StepSizes, TrainConfig, TrainReport,
};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// What to train.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// The network's tuples.
    pub shape: Shape,
    /// Games to play in this run.
    pub games: u64,
    /// How the weights move.
    pub rule: LearningRule,
    /// The step size.
    pub learning_rate: f32,
    /// Where games start.
    pub restarts: Restarts,
    /// The stages of a new network, or those to split a resumed one-stage network into
    /// (`None`: one stage, or the resumed network's).
    pub stages: Option<Stages>,
    /// Where the later stages' step sizes start when a network is split.
    pub stage_step_sizes: StepSizes,
    /// The spawns' seed.
    pub seed: u64,
    /// Threads playing at once.
    pub threads: usize,
    /// The network file.
    pub out: PathBuf,
    /// Games between checkpoints (and curve lines).
    pub checkpoint_every: u64,
    /// Continue from `out` if it exists.
    pub resume: bool,
    /// A new network starts with every board worth this many points to come (optimistic
    /// initialisation); `None` starts it at zero.
    pub optimistic: Option<f32>,
}

/// One line of the learning curve.
#[derive(Clone, Debug, Serialize)]
pub struct CurvePoint {
    /// Games trained in all, after this batch.
    pub games: u64,
    /// How many games of the batch started from the restart pool (`--restart-tile`); the
    /// score and rates are of the others.
    pub restarted: u64,
    /// The batch's mean score.
    pub mean_score: f64,
    /// The share of the batch's games reaching 2048, 4096, 8192, 16384 and 32768.
    pub reached: [f64; 5],
    /// The batch's wall seconds.
    pub seconds: f64,
    /// Wall seconds since this run started.
    pub elapsed: f64,
}

/// The learning curve's path for a network file.
pub fn curve_path(out: &std::path::Path) -> PathBuf {
    let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".curve.jsonl");
    out.with_file_name(name)
}

fn rates(report: &TrainReport) -> String {
    let pct = |tile: u32| {
        let i = REPORTED_TILES.iter().position(|&t| t == tile).expect("a reported tile");
        100.0 * report.reached[i]
    };
    format!(
        "mean score {:.0}, 2048 {:.0}%, 8192 {:.0}%, 16384 {:.0}%",
        report.mean_score,
        pct(2048),
        pct(8192),
        pct(16384)
    )
}

/// Runs the training; returns the curve points of this run.
pub fn run(options: &TrainOptions) -> Result<Vec<CurvePoint>, String> {
    if options.checkpoint_every == 0 {
        return Err("--checkpoint-every must be at least 1".to_string());
    }
    let resuming = options.resume && options.out.exists();
    if resuming && options.optimistic.is_some() {
        return Err(format!(
            "--optimistic sets the weights of a new network, and {} is resumed: drop one of the two",
            options.out.display()
        ));
    }
    let network = if resuming {
        let network = NTupleNetwork::load(&options.out).map_err(|e| e.to_string())?;
        if network.shape() != options.shape {
            return Err(format!(
                "{} holds a {} network, not {}: pass --shape {} or another --out",
                options.out.display(),
                network.shape().name(),
                options.shape.name(),
                network.shape().name()
            ));
        }
        eprintln!("resuming {} after {} games", options.out.display(), network.games_trained());
        match &options.stages {
            Some(stages) if stages != network.stages() => {
                eprintln!("splitting it into stages {stages}");
                network
                    .into_stages(stages.clone(), options.stage_step_sizes)
                    .map_err(|e| format!("{}: {e}", options.out.display()))?
            }
            _ => network,
        }
    } else {
        let network = NTupleNetwork::with_stages(options.shape, options.stages.clone().unwrap_or_default());
        if let Some(value) = options.optimistic {
            network.fill(value);
        }
        network
    };
    if let Some(dir) = options.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let curve = curve_path(&options.out);
    let mut curve_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&curve)
        .map_err(|e| format!("cannot open {}: {e}", curve.display()))?;

    let bar = ProgressBar::new(options.games);
    bar.set_style(
        ProgressStyle::with_template(
            "[{bar:30}] {pos}/{len} games  {elapsed_precise}, about {eta} left  {msg}",
        )
        .expect("a valid progress template")
        .progress_chars("=> "),
    );
    let start = std::time::Instant::now();
    let mut points = Vec::new();
    let mut left = options.games;
    while left > 0 {
        let batch = left.min(options.checkpoint_every);
        let config = TrainConfig {
            games: batch,
            learning_rate: options.learning_rate,
            seed: options.seed,
            threads: options.threads,
            rule: options.rule,
            restarts: options.restarts,
        };
        let report = network.train(&config, |_| bar.inc(1));
        left -= batch;
        network.save(&options.out).map_err(|e| e.to_string())?;
        bar.set_message(rates(&report));
        let point = CurvePoint {
            games: network.games_trained(),
            restarted: report.restarted,
            mean_score: report.mean_score,
            reached: report.reached,
            seconds: report.seconds,
            elapsed: start.elapsed().as_secs_f64(),
        };
        let line = serde_json::to_string(&point).expect("curve points serialise");
        writeln!(curve_file, "{line}").map_err(|e| format!("cannot write {}: {e}", curve.display()))?;
        points.push(point);
    }
    bar.finish();
    println!(
        "trained {} games ({} in all, rule {}) in {:.1} s; last batch: {}",
        options.games,
        network.games_trained(),
        options.rule.name(),
        start.elapsed().as_secs_f64(),
        points.last().map_or(String::new(), |p| format!("mean score {:.0}", p.mean_score))
    );
    println!("network: {}\ncurve:   {}", options.out.display(), curve.display());
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trains_checkpoints_and_resumes() {
        let dir = std::env::temp_dir().join(format!("train-2048-test-{}", std::process::id()));
        let out = dir.join("net.bin");
        let options = TrainOptions {
            shape: Shape::Small,
            games: 6,
            rule: LearningRule::Td,
            learning_rate: 0.1,
            restarts: Restarts::NONE,
            stages: None,
            stage_step_sizes: StepSizes::Fresh,
            seed: 3,
            threads: 1,
            out: out.clone(),
            checkpoint_every: 4,
            resume: true,
            optimistic: None,
        };
        let points = run(&options).unwrap();
        assert_eq!(points.iter().map(|p| p.games).collect::<Vec<_>>(), vec![4, 6]);
        // Resumed: the counts go on, and the curve file has every batch.
        let points = run(&TrainOptions { games: 2, ..options.clone() }).unwrap();
        assert_eq!(points[0].games, 8);
        let curve = std::fs::read_to_string(curve_path(&out)).unwrap();
        assert_eq!(curve.lines().count(), 3);
        // The same 8 games in one run give the same network.
        let again = dir.join("again.bin");
        run(&TrainOptions { games: 8, out: again.clone(), resume: false, ..options.clone() }).unwrap();
        let (a, b) = (NTupleNetwork::load(&out).unwrap(), NTupleNetwork::load(&again).unwrap());
        let board: game2048::Board = "2 4 8 0/0 2 4 0/0 0 2 0/0 0 0 0".parse().unwrap();
        use game2048::Heuristic;
        assert_eq!(a.value(board), b.value(board));
        // A shape that does not match the file is refused with a clear message.
        let err = run(&TrainOptions { shape: Shape::Standard, ..options.clone() }).unwrap_err();
        assert!(err.contains("small network"), "{err}");
        // Resumed with stages: the network is split and trained on; once split, other stages
        // are refused and the same ones (or none) go on.
        let stages: Stages = "16".parse().unwrap();
        run(&TrainOptions { games: 2, stages: Some(stages.clone()), ..options.clone() }).unwrap();
        assert_eq!(NTupleNetwork::load(&out).unwrap().stages(), &stages);
        run(&TrainOptions { games: 2, ..options.clone() }).unwrap();
        let other = Some("32".parse().unwrap());
        let err = run(&TrainOptions { games: 2, stages: other, ..options.clone() }).unwrap_err();
        assert!(err.contains("has stages 16, not 32"), "{err}");
        assert_eq!(NTupleNetwork::load(&out).unwrap().games_trained(), 12);
        // Optimistic values start a new network only.
        let err = run(&TrainOptions { optimistic: Some(1000.0), ..options.clone() }).unwrap_err();
        assert!(err.contains("--optimistic") && err.contains("resumed"), "{err}");
        let fresh = dir.join("optimistic.bin");
        run(&TrainOptions { games: 1, out: fresh.clone(), optimistic: Some(3200.0), ..options.clone() })
            .unwrap();
        let optimistic = NTupleNetwork::load(&fresh).unwrap();
        // One game moved the weights of the boards it met, not those of a board of tiles it
        // never made.
        let unseen: game2048::Board =
            "32768 16384 8192 4096/2048 1024 512 256/128 64 32 16/8 4 2 4096".parse().unwrap();
        assert_eq!(optimistic.value_to_come(unseen), 3200.0);
        assert!(run(&TrainOptions { checkpoint_every: 0, ..options }).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn curve_sits_beside_the_network() {
        assert_eq!(curve_path(std::path::Path::new("a/b/net.bin")), PathBuf::from("a/b/net.bin.curve.jsonl"));
    }
}
