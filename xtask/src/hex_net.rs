//! `cargo xtask hex-net`: training the convolutional move policy ([`hex::net`]) on self-play
//! games ([`crate::hex_net_games`]).
//!
//! Besides the root's means, `hex-net --labels` trains the move-value head on the exact
//! solver's labels of positions of such games ([`crate::hex_net_labels`]).

use std::path::PathBuf;

use hex::{Cell, HexMove, Position};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;

use crate::hex_net_games::{NetGame, load_games};

/// What `hex-net` trains.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Files of [`NetGame`] lines.
    pub games: Vec<PathBuf>,
    /// Channels per layer.
    pub channels: usize,
    /// Convolution layers.
    pub layers: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size (halved for the last third of the epochs).
    pub rate: f32,
    /// The seed of the starting weights and of the order of the positions.
    pub seed: u64,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Where the network goes (written after every epoch).
    pub out: PathBuf,
    /// Start from this network instead of random weights.
    pub start: Option<PathBuf>,
    /// The weight of the move-value loss beside the policy's (0: the value head is left as
    /// it is).
    pub value_weight: f32,
    /// Which root moves are value targets, and of what.
    pub value_targets: ValueTargets,
    /// Files of the solver's exact move values ([`crate::hex_net_labels`]): more value
    /// targets, each labelled position a training position without a policy target.
    pub labels: Vec<PathBuf>,
    /// The weight of each label's loss (as `value_weight` is the means').
    pub label_weight: f32,
}

/// Which root moves of the games are the move-value head's targets, and of what.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueTargets {
    /// The visits a root move needs to be a target (its mean over fewer is noise).
    pub visits: u32,
    /// The share `λ` of the game's outcome in the played move's target: `(1 − λ)·mean + λ·z`,
    /// with `z` 1 if the side that played it won the game, else 0 (the other moves keep their
    /// means). A search's means are squeezed towards ½ by its playouts; the outcome is not.
    pub outcome: f32,
}

/// One position to learn from or judge on.
struct Example {
    input: hex::net::NetInput,
    /// The root's visits as shares, by board cell id.
    target: Vec<(usize, f32)>,
    /// The cell played, by id.
    played: usize,
    /// The root moves' values, for the move-value head.
    values: Vec<hex::net::ValueTarget>,
}

/// How well a policy predicts held-out moves.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Judged {
    /// Positions judged.
    pub positions: usize,
    /// The share where the policy's first choice is the move played.
    pub top1: f64,
    /// The mean log-probability of the move played.
    pub log_prob: f64,
    /// The mean cross-entropy against the root's visits.
    pub visit_loss: f64,
    /// Value targets judged (root moves with enough visits; 0 for a policy without values).
    pub value_targets: usize,
    /// The mean cross-entropy of the move values against the root's means (weighted as in
    /// training).
    pub value_loss: f64,
    /// The mean absolute error of the move values.
    pub value_error: f64,
}

/// A searched position of a game: the position, the opponent's last stone, the root's visits
/// as shares by board cell id, the cell played (by id), and the root moves' value targets.
struct Searched<'a> {
    position: &'a Position,
    last: Option<Cell>,
    target: Vec<(usize, f32)>,
    played: usize,
    values: Vec<hex::net::ValueTarget>,
}

/// Calls `f` on every searched position of `games`; a root move is a value target as `targets`
/// says, weighted by `visits / (visits + 32)` (few visits, a noisy mean).
fn for_each_searched(games: &[&NetGame], targets: ValueTargets, mut f: impl FnMut(Searched<'_>)) {
    for game in games {
        // The last stone wins: its player, by the parity of its move.
        let winner_parity = (game.moves.len() + 1) % 2;
        let size = game.size;
        let mut position = Position::new(u32::from(size)).expect("a size that was played");
        let mut last: Option<Cell> = None;
        for (k, (&mv, visits)) in game.moves.iter().zip(&game.visits).enumerate() {
            let cell = Cell::from_id(usize::from(mv), size);
            if let Some(visits) = visits.as_ref().filter(|v| !v.is_empty()) {
                let total: u32 = visits.iter().map(|&(_, v)| v).sum();
                let target =
                    visits.iter().map(|&(id, v)| (usize::from(id), v as f32 / total as f32)).collect();
                let means = game.values.get(k).and_then(Option::as_ref);
                let z = f32::from(u8::from(k % 2 == winner_parity));
                let values = means
                    .into_iter()
                    .flat_map(|means| visits.iter().zip(means))
                    .filter(|&(&(_, v), _)| v >= targets.visits)
                    .map(|(&(id, v), &mean)| hex::net::ValueTarget {
                        id: usize::from(id),
                        value: if id == mv {
                            (1.0 - targets.outcome) * mean + targets.outcome * z
                        } else {
                            mean
                        },
                        weight: v as f32 / (v as f32 + 32.0),
                    })
                    .collect();
                f(Searched { position: &position, last, target, played: usize::from(mv), values });
            }
            position = position.play(HexMove::Place(cell)).expect("a game's moves are legal");
            last = Some(cell);
        }
    }
}

/// The positions of `games` with a search's visits, as examples (both half turns of each when
/// `both_turns`).
fn examples(games: &[&NetGame], both_turns: bool, targets: ValueTargets) -> Vec<Example> {
    let mut out = Vec::new();
    for_each_searched(games, targets, |s| {
        for half_turn in [false, true].into_iter().take(if both_turns { 2 } else { 1 }) {
            let input = hex::net::NetInput::new(s.position, s.last, half_turn);
            out.push(Example { input, target: s.target.clone(), played: s.played, values: s.values.clone() });
        }
    });
    out
}

/// The shipped pattern priors (with their answers to the last stone, as the engine's default)
/// judged on the held-out positions of `games`.
fn judge_patterns(games: &[&NetGame]) -> Judged {
    use hex::patterns::{PatternGrid, PatternWeights};
    let weights = PatternWeights::shipped();
    let local = PatternWeights::shipped_local();
    let mut judged = Judged::default();
    for_each_searched(
        games,
        ValueTargets { visits: u32::MAX, outcome: 0.0 },
        |Searched { position, last, target, played, .. }| {
            let size = position.size();
            let grid = PatternGrid::new(position);
            let mut shares = vec![0f32; usize::from(size) * usize::from(size)];
            for empty in position.board().empty_cells() {
                let near = last.and_then(|l| grid.local_code(empty, l)).map_or(1.0, |c| local.gamma(c));
                shares[empty.id(size)] = weights.gamma(grid.code_as(weights.code(), empty)) * near;
            }
            let total: f32 = shares.iter().sum();
            shares.iter_mut().for_each(|s| *s /= total);
            tally(&mut judged, &shares, played, &target);
        },
    );
    finish(judged)
}

/// Adds one position's shares to `judged` (sums; [`finish`] makes them means).
fn tally(judged: &mut Judged, shares: &[f32], played: usize, target: &[(usize, f32)]) {
    let best = (0..shares.len()).max_by(|&a, &b| shares[a].total_cmp(&shares[b])).expect("cells");
    judged.positions += 1;
    judged.top1 += f64::from(u8::from(best == played));
    judged.log_prob += f64::from(shares[played].max(1e-30)).ln();
    judged.visit_loss -=
        target.iter().map(|&(id, t)| f64::from(t) * f64::from(shares[id].max(1e-30)).ln()).sum::<f64>();
}

fn finish(mut judged: Judged) -> Judged {
    let n = judged.positions.max(1) as f64;
    judged.top1 /= n;
    judged.log_prob /= n;
    judged.visit_loss /= n;
    let v = judged.value_targets.max(1) as f64;
    judged.value_loss /= v;
    judged.value_error /= v;
    judged
}

/// The network judged on `examples`.
fn judge_net(net: &hex::net::PolicyNet, examples: &[Example]) -> Judged {
    let sums = examples
        .par_iter()
        .fold(Judged::default, |mut judged, ex| {
            if net.has_values() {
                let values = net.move_values(&ex.input);
                for t in &ex.values {
                    let q = f64::from(values[t.id]).clamp(1e-7, 1.0 - 1e-7);
                    let (v, w) = (f64::from(t.value), f64::from(t.weight));
                    judged.value_targets += 1;
                    judged.value_loss -= w * (v * q.ln() + (1.0 - v) * (1.0 - q).ln());
                    judged.value_error += (q - v).abs();
                }
            }
            if ex.target.is_empty() {
                // A labelled position: values only.
                return judged;
            }
            let logits = net.logits(&ex.input);
            let top = ex.input.cells().filter(|c| c.1).map(|(id, _)| logits[id]).fold(f32::MIN, f32::max);
            let mut shares: Vec<f32> =
                ex.input.cells().map(|(id, e)| if e { (logits[id] - top).exp() } else { 0.0 }).collect();
            let total: f32 = shares.iter().sum();
            shares.iter_mut().for_each(|s| *s /= total);
            tally(&mut judged, &shares, ex.played, &ex.target);
            judged
        })
        .reduce(Judged::default, |a, b| Judged {
            positions: a.positions + b.positions,
            top1: a.top1 + b.top1,
            log_prob: a.log_prob + b.log_prob,
            visit_loss: a.visit_loss + b.visit_loss,
            value_targets: a.value_targets + b.value_targets,
            value_loss: a.value_loss + b.value_loss,
            value_error: a.value_error + b.value_error,
        });
    finish(sums)
}

/// What a training run measured (printed by `hex-net` as one JSON line).
#[derive(Clone, Debug, Serialize)]
pub struct TrainReport {
    /// The network after the last epoch, judged on the held-out positions.
    pub net: Judged,
    /// The shipped patterns judged on the same positions.
    pub patterns: Judged,
    /// Each epoch's mean training loss.
    pub losses: Vec<f64>,
    /// The value loss on the held-out targets of a guess that gives every move the targets'
    /// mean: the value head's baseline.
    pub value_baseline: f64,
    /// With `--labels`: the network's values judged on the held-out labels (its `positions`,
    /// `top1`, `log_prob` and `visit_loss` are 0), and the same constant guess's loss there.
    pub labels: Option<(Judged, f64)>,
}

/// The labelled positions of `labels` as examples without a policy target (both half turns
/// of each when `both_turns`), each label weighted `weight`.
fn label_examples(
    labels: &[&crate::hex_net_labels::Labelled],
    both_turns: bool,
    weight: f32,
) -> Vec<Example> {
    let mut out = Vec::new();
    for labelled in labels {
        let (position, last) = labelled.position().expect("labels are checked when loaded");
        let values: Vec<hex::net::ValueTarget> = labelled
            .values
            .iter()
            .map(|&(id, value)| hex::net::ValueTarget { id: usize::from(id), value, weight })
            .collect();
        for half_turn in [false, true].into_iter().take(if both_turns { 2 } else { 1 }) {
            let input = hex::net::NetInput::new(&position, last, half_turn);
            out.push(Example { input, target: Vec::new(), played: 0, values: values.clone() });
        }
    }
    out
}

/// The weighted cross-entropy, per target, of giving every value target of `examples` their
/// weighted mean.
fn value_baseline(examples: &[Example]) -> f64 {
    let targets = || examples.iter().flat_map(|ex| &ex.values);
    let weight: f64 = targets().map(|t| f64::from(t.weight)).sum();
    let mean = (targets().map(|t| f64::from(t.weight * t.value)).sum::<f64>() / weight.max(1e-9))
        .clamp(1e-7, 1.0 - 1e-7);
    let loss: f64 = targets()
        .map(|t| {
            -f64::from(t.weight)
                * (f64::from(t.value) * mean.ln() + (1.0 - f64::from(t.value)) * (1.0 - mean).ln())
        })
        .sum();
    loss / targets().count().max(1) as f64
}

/// Trains the network and reports, epoch by epoch on stderr, its held-out scores beside the
/// shipped patterns'.
pub fn train(options: &TrainOptions) -> Result<TrainReport, String> {
    use hex::net::{Adam, PolicyNet, ValueTarget, add_into};
    use rand::seq::SliceRandom;
    let games = load_games(&options.games)?;
    let (held, kept): (Vec<&NetGame>, Vec<&NetGame>) = games.iter().partition(|g| g.held_out);
    let labels = crate::hex_net_labels::load_labels(&options.labels)?;
    let (held_labels, kept_labels): (Vec<_>, Vec<_>) = labels.iter().partition(|l| l.held_out);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", options.threads))?;
    pool.install(|| {
        let mut train_set = examples(&kept, true, options.value_targets);
        let label_train = label_examples(&kept_labels, true, options.label_weight);
        let held_set = examples(&held, false, options.value_targets);
        let label_held = label_examples(&held_labels, false, 1.0);
        if !labels.is_empty() {
            eprintln!(
                "hex-net: {} labelled positions ({} held out), label baseline {:.4}",
                labels.len(),
                held_labels.len(),
                value_baseline(&label_held)
            );
        }
        train_set.extend(label_train);
        let patterns = judge_patterns(&held);
        eprintln!(
            "hex-net: {} games ({} held out), {} training positions (both half turns), {} held out; shipped patterns: top-1 {:.3}, log-prob {:.3}, visit loss {:.3}; value baseline {:.4}",
            games.len(),
            held.len(),
            train_set.len(),
            held_set.len(),
            patterns.top1,
            patterns.log_prob,
            patterns.visit_loss,
            value_baseline(&held_set)
        );
        let mut net = match &options.start {
            Some(path) => PolicyNet::read(path).map_err(|e| e.to_string())?,
            None => PolicyNet::random(options.channels, options.layers, options.seed),
        };
        let mut adam = Adam::new(&net, options.rate);
        let mut order: Vec<usize> = (0..train_set.len()).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed);
        let mut judged = judge_net(&net, &held_set);
        let mut losses = Vec::new();
        for epoch in 0..options.epochs {
            let started = std::time::Instant::now();
            if epoch * 3 >= options.epochs * 2 {
                adam.rate = options.rate / 2.0;
            }
            order.shuffle(&mut rng);
            let mut loss = 0.0;
            for batch in order.chunks(options.batch) {
                let chunk = batch.len().div_ceil(options.threads);
                let (grad, l) = batch
                    .par_chunks(chunk)
                    .map(|part| {
                        let mut grad = net.zeros_like();
                        let l: f32 = part
                            .iter()
                            .map(|&i| {
                                let ex = &train_set[i];
                                // Labels carry their own weight; the means are scaled here.
                                let scale = if ex.target.is_empty() { 1.0 } else { options.value_weight };
                                let values: Vec<ValueTarget> = ex
                                    .values
                                    .iter()
                                    .filter(|_| scale > 0.0)
                                    .map(|t| ValueTarget { weight: t.weight * scale, ..*t })
                                    .collect();
                                let (policy, value) = net.learn_with_values(&ex.input, &ex.target, &values, &mut grad);
                                policy + value
                            })
                            .sum();
                        (grad, l)
                    })
                    .reduce_with(|(mut a, la), (b, lb)| {
                        add_into(&mut a, &b);
                        (a, la + lb)
                    })
                    .expect("a batch is not empty");
                loss += f64::from(l);
                adam.step(&mut net, &grad, batch.len());
            }
            judged = judge_net(&net, &held_set);
            let on_labels = (!label_held.is_empty()).then(|| judge_net(&net, &label_held));
            losses.push(loss / train_set.len() as f64);
            net.write(&options.out).map_err(|e| e.to_string())?;
            eprintln!(
                "epoch {}: training loss {:.3}; held out: top-1 {:.3}, log-prob {:.3}, visit loss {:.3}, value loss {:.4}, value error {:.4} ({:.0} s)",
                epoch + 1,
                loss / train_set.len() as f64,
                judged.top1,
                judged.log_prob,
                judged.visit_loss,
                judged.value_loss,
                judged.value_error,
                started.elapsed().as_secs_f64()
            );
            if let Some(l) = on_labels {
                eprintln!(
                    "epoch {}: held-out labels: value loss {:.4}, value error {:.4}",
                    epoch + 1,
                    l.value_loss,
                    l.value_error
                );
            }
        }
        let labels = (!label_held.is_empty()).then(|| (judge_net(&net, &label_held), value_baseline(&label_held)));
        Ok(TrainReport { net: judged, patterns, losses, value_baseline: value_baseline(&held_set), labels })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex_net_games::tests::{options, scratch};
    use crate::hex_net_games::{GamesOptions, load_games, save_games};

    #[test]
    fn the_played_moves_value_target_takes_its_share_of_the_outcome() {
        // Black a1, White b1, Black c1 (the last stone: Black is taken to win); 3x3 ids.
        let game = NetGame {
            size: 3,
            game: 0,
            held_out: false,
            moves: vec![0, 1, 2],
            visits: vec![None, Some(vec![(1, 20), (4, 40), (5, 3)]), Some(vec![(2, 20)])],
            values: vec![None, Some(vec![0.6, 0.3, 0.9]), Some(vec![0.4])],
        };
        let mut seen = Vec::new();
        for_each_searched(&[&game], ValueTargets { visits: 16, outcome: 0.5 }, |s| {
            seen.push(s.values.iter().map(|t| (t.id, t.value, t.weight)).collect::<Vec<_>>());
        });
        // White's b1 lost: half its mean; e2 keeps its mean; f2 had too few visits.
        assert_eq!(seen[0], vec![(1, 0.3, 20.0 / 52.0), (4, 0.3, 40.0 / 72.0)]);
        // Black's c1 won: halfway from its mean to 1.
        assert_eq!(seen[1], vec![(2, 0.7, 20.0 / 52.0)]);
    }

    #[test]
    fn training_lowers_its_loss_and_writes_the_network() {
        let dir = scratch("train");
        let games = dir.join("games.jsonl");
        save_games(&GamesOptions { sizes: vec![5], games: 30, ..options(5) }, &games).unwrap();
        let out = dir.join("net.txt");
        let train_options = TrainOptions {
            games: vec![games.clone()],
            channels: 8,
            layers: 2,
            epochs: 0,
            batch: 16,
            rate: 0.01,
            seed: 1,
            threads: 2,
            out: out.clone(),
            start: None,
            value_weight: 1.0,
            value_targets: ValueTargets { visits: 4, outcome: 0.5 },
            labels: Vec::new(),
            label_weight: 1.0,
        };
        let untrained = train(&train_options).unwrap();
        assert!(!out.exists() && untrained.losses.is_empty(), "no epoch, no network written");
        let trained = train(&TrainOptions { epochs: 6, ..train_options }).unwrap();
        assert_eq!(untrained.patterns.positions, trained.patterns.positions);
        assert_eq!(trained.net.positions, trained.patterns.positions, "both judged on the same positions");
        assert!(trained.net.positions > 0);
        let (first, last) = (trained.losses[0], trained.losses[5]);
        assert!(last < first, "training loss {first} then {last}");
        assert!((0.0..=1.0).contains(&trained.net.top1) && trained.net.log_prob < 0.0);
        // The value head learned too, judged on the held-out root moves beside its baseline.
        assert_eq!(untrained.net.value_targets, 0, "an untrained head is not judged");
        assert!(trained.net.value_targets > 0);
        assert!(trained.net.value_loss.is_finite() && trained.value_baseline > 0.0);
        assert!((0.0..1.0).contains(&trained.net.value_error));
        assert_eq!(hex::net::PolicyNet::read(&out).unwrap().channels(), 8);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_network_learns_the_labels_and_judges_the_held_out_ones_apart() {
        let dir = scratch("labels-train");
        let (games_file, labels_file) = (dir.join("games.jsonl"), dir.join("labels.jsonl"));
        save_games(&GamesOptions { sizes: vec![5], games: 20, ..options(9) }, &games_file).unwrap();
        let games = load_games(std::slice::from_ref(&games_file)).unwrap();
        crate::hex_net_labels::save_labels(
            &games,
            &crate::hex_net_labels::tests::label_options(100_000, 4),
            &labels_file,
        )
        .unwrap();
        let labels = crate::hex_net_labels::load_labels(std::slice::from_ref(&labels_file)).unwrap();
        let held: usize = labels.iter().filter(|l| l.held_out).map(|l| l.values.len()).sum();
        assert!(held > 0 && labels.iter().any(|l| !l.held_out));
        let options = TrainOptions {
            games: vec![games_file],
            channels: 8,
            layers: 2,
            epochs: 6,
            batch: 16,
            rate: 0.01,
            seed: 1,
            threads: 2,
            out: dir.join("net.txt"),
            start: None,
            // The root's means are left out: the labels alone train the value head.
            value_weight: 0.0,
            value_targets: ValueTargets { visits: 4, outcome: 0.0 },
            labels: vec![labels_file],
            label_weight: 1.0,
        };
        let report = train(&options).unwrap();
        let (judged, baseline) = report.labels.expect("held-out labels are judged");
        assert_eq!(
            (judged.value_targets, judged.positions),
            (held, 0),
            "values only, on every held-out label"
        );
        assert!(baseline > 0.0 && judged.value_error > 0.0 && judged.value_error < 1.0);
        assert!(report.losses[5] < report.losses[0], "the training loss falls: {:?}", report.losses);
        let plain = train(&TrainOptions { labels: Vec::new(), ..options }).unwrap();
        assert!(plain.labels.is_none());
        assert_eq!(plain.net.positions, report.net.positions, "labelled positions are not policy positions");
    }
}
