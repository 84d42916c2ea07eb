//! `cargo xtask hex-balance`: six-cell playout weights balanced on the exact solver's labels
//! ([`hex::mcts::balance`]).
//!
//! The labels are `hex-net-labels` files. A labelled position is a target when its value for
//! the side to move is known: won if some labelled move wins, lost if every empty cell is
//! labelled and none wins (the labeller labels every cell of a lost position). A position
//! with only its played move labelled, and that move losing, is left out: another move may
//! win. The positions of held-out games judge the weights after each pass.

use std::path::{Path, PathBuf};

use hex::Color;
use hex::mcts::{BalanceConfig, BalanceEpoch, BalanceTarget, balance};
use hex::patterns::PatternWeights;
use serde::Serialize;

use crate::hex_net_labels::{Labelled, load_labels};

/// What `hex-balance` does.
#[derive(Clone, Debug)]
pub struct BalanceOptions {
    /// The label files.
    pub labels: Vec<PathBuf>,
    /// Weights to start from; `None`: every γ 1 (the uniform playouts).
    pub start: Option<PathBuf>,
    /// The balancing itself.
    pub config: BalanceConfig,
    /// Where the weights go.
    pub out: PathBuf,
    /// Where the answer factors go, if they are balanced too.
    pub answers_out: Option<PathBuf>,
    /// Answer factors to start from (with `answers_out`); `None`: every factor 1.
    pub start_answers: Option<PathBuf>,
}

/// What `hex-balance` prints: the targets it used and each pass's errors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalanceReport {
    /// Training targets.
    pub train: usize,
    /// Held-out targets.
    pub held_out: usize,
    /// Labelled positions left out, their value unknown.
    pub unknown: usize,
    /// The held-out error of the starting weights.
    pub start_held_out_error: Option<f64>,
    /// Per pass: the training error as the pass went, the held-out error after it.
    pub epochs: Vec<EpochLine>,
    /// Patterns whose γ is not 1 in the weights written.
    pub patterns: usize,
    /// Local-response codes whose factor is not 1 in the answer factors written, if any.
    pub answers: Option<usize>,
}

/// One pass, as printed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EpochLine {
    /// The pass, from 1.
    pub epoch: u32,
    /// The training error as the pass went.
    pub train_error: f64,
    /// The held-out error after it.
    pub held_out_error: Option<f64>,
}

impl From<BalanceEpoch> for EpochLine {
    fn from(e: BalanceEpoch) -> Self {
        EpochLine { epoch: e.epoch, train_error: e.train_error, held_out_error: e.held_out_error }
    }
}

/// The target of a labelled position, if its value is known (see the [module docs](self)).
pub fn target_of(labelled: &Labelled) -> Result<Option<BalanceTarget>, String> {
    let (position, last) = labelled.position()?;
    let empty = position.board().empty_cells().count();
    let mover_wins = if labelled.values.iter().any(|&(_, v)| v >= 0.5) {
        1.0
    } else if labelled.values.len() == empty {
        0.0
    } else {
        return Ok(None);
    };
    let black_wins = if position.to_move() == Color::Black { mover_wins } else { 1.0 - mover_wins };
    Ok(Some(BalanceTarget { position, last, black_wins }))
}

/// Reads the labels, balances, writes the weights and returns the report.
pub fn run(options: &BalanceOptions) -> Result<BalanceReport, String> {
    let read = |path: &Option<PathBuf>| match path {
        Some(path) => PatternWeights::read(path).map_err(|e| e.to_string()),
        None => Ok(PatternWeights::default()),
    };
    let start = read(&options.start)?;
    let start_answers = match &options.answers_out {
        Some(_) => Some(read(&options.start_answers)?),
        None if options.start_answers.is_some() => {
            return Err("answer factors to start from need a file to write them to".to_string());
        }
        None => None,
    };
    let labels = load_labels(&options.labels)?;
    let (mut train, mut held_out, mut unknown) = (Vec::new(), Vec::new(), 0);
    for labelled in &labels {
        match target_of(labelled)? {
            Some(target) if labelled.held_out => held_out.push(target),
            Some(target) => train.push(target),
            None => unknown += 1,
        }
    }
    let balanced = balance(&start, start_answers.as_ref(), &train, &held_out, &options.config)
        .map_err(|e| e.to_string())?;
    write(&options.out, &balanced.weights)?;
    if let (Some(path), Some(answers)) = (&options.answers_out, &balanced.answers) {
        write(path, answers)?;
    }
    Ok(BalanceReport {
        train: train.len(),
        held_out: held_out.len(),
        unknown,
        start_held_out_error: balanced.start_held_out_error,
        epochs: balanced.epochs.into_iter().map(EpochLine::from).collect(),
        patterns: balanced.weights.len(),
        answers: balanced.answers.as_ref().map(PatternWeights::len),
    })
}

fn write(path: &Path, weights: &PatternWeights) -> Result<(), String> {
    std::fs::write(path, weights.to_text()).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labelled(moves: &[&str], values: &[(&str, f32)]) -> Labelled {
        let (position, cells) = hex::play_moves(3, moves.iter().copied()).unwrap();
        let id = |name: &str| hex::parse_cell(name, 3).unwrap().id(3) as u16;
        assert!(position.winner().is_none());
        Labelled {
            size: 3,
            held_out: false,
            moves: cells.iter().map(|c| c.id(3) as u16).collect(),
            values: values.iter().map(|&(c, v)| (id(c), v)).collect(),
        }
    }

    #[test]
    fn a_winning_label_makes_a_won_target_for_the_side_to_move() {
        // White to move, b2 touching both its edges twice over: a2 wins for White.
        let t = target_of(&labelled(&["a1", "b2", "c3"], &[("a2", 1.0)])).unwrap().unwrap();
        assert_eq!(t.black_wins, 0.0);
        assert_eq!(t.last, Some(hex::parse_cell("c3", 3).unwrap()));
    }

    #[test]
    fn a_lost_position_needs_every_empty_cell_labelled() {
        // White to move; Black's b1-b2 reaches the bottom through a3 or b3: every move loses.
        let moves = ["b1", "a2", "b2"];
        let every: Vec<(&str, f32)> =
            ["a1", "c1", "c2", "a3", "b3", "c3"].iter().map(|&c| (c, 0.0)).collect();
        let lost = target_of(&labelled(&moves, &every)).unwrap().unwrap();
        assert_eq!(lost.black_wins, 1.0);
        // Only the played move labelled, and losing: unknown.
        assert_eq!(target_of(&labelled(&moves, &[("c1", 0.0)])).unwrap(), None);
    }

    /// A run writes the weights and, when asked, the answer factors in files the engine reads
    /// (`param_hex answer_factors`); start factors without an output file are refused.
    #[test]
    fn a_run_writes_the_weights_and_the_answer_factors() {
        let dir = std::env::temp_dir().join(format!("xtask-hex-balance-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let labels = dir.join("labels.jsonl");
        let won = labelled(&["a1", "b2", "c3"], &[("a2", 1.0)]);
        let mut held = labelled(&["b1", "a2"], &[("b2", 1.0)]);
        held.held_out = true;
        let lines: Vec<String> = [won, held].iter().map(|l| serde_json::to_string(l).unwrap()).collect();
        std::fs::write(&labels, lines.join("\n")).unwrap();
        let config = BalanceConfig {
            epochs: 2,
            playouts: 4,
            rate: 0.5,
            judge_playouts: 8,
            ..BalanceConfig::default()
        };
        let options = BalanceOptions {
            labels: vec![labels],
            start: None,
            config,
            out: dir.join("weights.txt"),
            answers_out: Some(dir.join("answers.txt")),
            start_answers: None,
        };
        let report = run(&options).unwrap();
        assert_eq!((report.train, report.held_out, report.epochs.len()), (1, 1, 2));
        assert!(report.answers.is_some_and(|n| n > 0), "{report:?}");
        let answers = hex::gtp::PatternsFile::load(dir.join("answers.txt").to_str().unwrap()).unwrap();
        assert_eq!(Some(answers.weights.len()), report.answers);
        let weights = PatternWeights::read(&dir.join("weights.txt")).unwrap();
        assert_eq!(weights.len(), report.patterns);
        let stray =
            BalanceOptions { answers_out: None, start_answers: Some(dir.join("answers.txt")), ..options };
        assert!(run(&stray).unwrap_err().contains("need a file"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
