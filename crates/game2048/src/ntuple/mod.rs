//! An n-tuple network: a board evaluator learned by temporal-difference learning from self-play
//! (Szubert & Jaśkowski 2014; Wu et al. 2014; Jaśkowski 2016).
//!
//! A network is a few *tuples*, each a short list of cells. For every tuple and each of the
//! board's 8 symmetries (rotations and reflections), the ranks on the tuple's cells form an index
//! into that tuple's weight table; the board's value is the sum of the weights found. The value
//! is of an **afterstate**: the board after a slide, before the spawn, the same board the search
//! values at its chance nodes. So a trained network is a [`Heuristic`] for
//! [`crate::agents::Strong`] as it is.
//!
//! [`NTupleNetwork::train`] plays games with the network's own greedy choice (the slide
//! maximising merge score plus the afterstate's value) and moves each afterstate's value towards
//! the next move's reward plus the next afterstate's value (TD(0)), towards 0 after the last move.
//! With [`LearningRule::Coherence`] each weight has its own step size, temporal coherence
//! learning (Beal & Smith 1999, for 2048 Jaśkowski 2016): the step shrinks as the weight's
//! errors stop agreeing in sign, so weights that have settled stop moving while the others
//! still learn at full speed.
//!
//! Self-play rarely gets far: while a network is young, few of its games reach the late stages,
//! so it learns least about the boards that decide its best games. With [`Restarts`], the board
//! on which a game first shows a given tile (8192, say) is kept in a pool, and a share of later
//! games start from a board of that pool instead of a new board (a restart strategy in the
//! spirit of Jaśkowski's carousel shaping), so the late stages get played again and again. The
//! pool is saved with the network; the rates training reports count only the games that started
//! from a new board. A run with a larger restart tile than the last drops the kept boards that
//! do not show it and fills the pool anew.
//!
//! A network may also split the game into [`Stages`], each with weights of its own, learned on
//! its own boards only; [`NTupleNetwork::into_stages`] splits a trained network, each new stage
//! starting from its weights.
//!
//! Weights are `f32` held in atomics, so several threads can train one network at once without
//! locks (each update is a load and a store that may race with another thread's, as in
//! Hogwild-style training). With one thread, training is deterministic: the same seed gives the
//! same network, bit for bit.
//!
//! # Examples
//!
//! ```
//! use game2048::ntuple::{NTupleNetwork, Shape, TrainConfig};
//! use game2048::{Board, Heuristic};
//!
//! let network = NTupleNetwork::new(Shape::Small);
//! assert_eq!(network.value(Board::EMPTY), 0.0);
//! let report = network.train(&TrainConfig { games: 20, seed: 1, ..TrainConfig::default() }, |_| {});
//! assert_eq!(report.games, 20);
//! assert!(network.games_trained() == 20);
//! ```

use std::io::{Read, Seek, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

use crate::board::{Board, Direction};
use crate::evaluation::Heuristic;
use crate::rules::Rules;

mod downgrade;
mod stages;

pub use downgrade::{Downgrade, Downgrading};
pub use stages::{MAX_STAGES, Stages};

/// Which tuples a network has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Four 4-tuples (two rows and two squares): 4 × 65,536 weights, 1 MiB. Learns in seconds;
    /// for tests and quick experiments.
    Small,
    /// Four 6-tuples (Wu et al.'s and Jaśkowski's: two 2×3 rectangles and two row-and-a-half
    /// shapes): 4 × 16,777,216 weights, 256 MiB. The strong one.
    Standard,
    /// Eight 6-tuples: the four of `Standard` and four more shapes that none of the board's
    /// symmetries turns into one of those (a row with the first cell of each of the two rows
    /// below it, a row with the two middle cells below it, a row of three over a row of three
    /// one cell to the right, and a staircase of three steps): 8 × 16,777,216 weights, 512 MiB.
    /// Eight 6-tuples is the size of the larger networks of the later 2048 papers (Matsuzaki
    /// 2016; Guei et al. 2021); each board reads twice the weights of `Standard`.
    Large,
}

impl Shape {
    /// The tuples, as cells `4·row + col`.
    pub fn tuples(self) -> &'static [&'static [u8]] {
        match self {
            Shape::Small => &[&[0, 1, 2, 3], &[4, 5, 6, 7], &[0, 1, 4, 5], &[4, 5, 8, 9]],
            Shape::Standard => {
                &[&[0, 1, 2, 3, 4, 5], &[4, 5, 6, 7, 8, 9], &[0, 1, 2, 4, 5, 6], &[4, 5, 6, 8, 9, 10]]
            }
            Shape::Large => &[
                &[0, 1, 2, 3, 4, 5],
                &[4, 5, 6, 7, 8, 9],
                &[0, 1, 2, 4, 5, 6],
                &[4, 5, 6, 8, 9, 10],
                &[0, 1, 2, 3, 4, 8],
                &[0, 1, 2, 3, 5, 6],
                &[0, 1, 2, 5, 6, 7],
                &[0, 1, 5, 6, 10, 11],
            ],
        }
    }

    /// The name used on command lines and in files: `small`, `standard` or `large`.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Small => "small",
            Shape::Standard => "standard",
            Shape::Large => "large",
        }
    }

    fn code(self) -> u8 {
        match self {
            Shape::Small => 0,
            Shape::Standard => 1,
            Shape::Large => 2,
        }
    }

    fn from_code(code: u8) -> Option<Shape> {
        match code {
            0 => Some(Shape::Small),
            1 => Some(Shape::Standard),
            2 => Some(Shape::Large),
            _ => None,
        }
    }
}

impl std::str::FromStr for Shape {
    type Err = NTupleError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "small" => Ok(Shape::Small),
            "standard" => Ok(Shape::Standard),
            "large" => Ok(Shape::Large),
            other => Err(NTupleError::UnknownShape(other.to_string())),
        }
    }
}

/// What went wrong reading or writing a network.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum NTupleError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a network this version wrote.
    #[error("{path}: not an n-tuple network file ({reason})")]
    BadFile {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A shape name that is neither `small` nor `standard`.
    #[error("unknown network shape {0:?} (expected small, standard or large)")]
    UnknownShape(String),
    /// A learning rule that is neither `td` nor `tc`.
    #[error("unknown learning rule {0:?} (expected td or tc)")]
    UnknownRule(String),
    /// A choice of step sizes that is neither `fresh` nor `carried`.
    #[error("unknown step sizes {0:?} (expected fresh or carried)")]
    UnknownStepSizes(String),
    /// Stages that do not parse (see [`Stages`]).
    #[error(
        "bad stages {text:?}: {reason} (expected sets of tiles joined by + and separated by commas, as 16384,16384+8192)"
    )]
    BadStages {
        /// What was given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A tile-downgrading setting that does not parse or makes no sense (see [`Downgrade`]).
    #[error("bad downgrade setting: {0} (expected FROM[,FLOOR[,SCALE]], as 16384,256,2)")]
    BadDowngrade(String),
    /// A network already split into stages was asked for other stages
    /// ([`NTupleNetwork::into_stages`] splits only a one-stage network).
    #[error("the network has stages {has}, not {asked}")]
    StagesDiffer {
        /// Its stages.
        has: Stages,
        /// The stages asked for.
        asked: Stages,
    },
}

/// The most tuples a shape has.
const MAX_TUPLES: usize = 8;

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"G2048NT1";

/// The first bytes of the file of a network with several stages; the stages follow the games.
const STAGED_MAGIC: &[u8; 8] = b"G2048NT2";

/// The bytes that start the optional temporal-coherence section after the weights.
const COHERENCE_MAGIC: &[u8; 8] = b"G2048TC1";

/// The bytes that start the optional section of the restart pool.
const STARTS_MAGIC: &[u8; 8] = b"G2048RS1";

/// Where training games start: a new board, or, for a share of them, a board kept from an
/// earlier game of the same training (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Restarts {
    /// A fresh game's board is kept when this tile first appears on it.
    pub tile: u32,
    /// The share of games, 0 to 1, that start from a kept board (once one is kept).
    pub share: f64,
    /// How many boards the pool keeps; a new one then replaces the oldest.
    pub capacity: usize,
}

impl Restarts {
    /// Every game starts from a new board.
    pub const NONE: Restarts = Restarts { tile: 0, share: 0.0, capacity: 0 };

    /// A share of games start from boards where `tile` first appeared, from a pool of 4,096.
    pub fn from_tile(tile: u32, share: f64) -> Self {
        Restarts { tile, share, capacity: 4096 }
    }

    fn active(&self) -> bool {
        self.share > 0.0 && self.capacity > 0 && self.tile > 0
    }
}

/// The restart pool: the boards kept so far, and how many have been offered (the next one
/// replaces `offered % capacity` once the pool is full).
#[derive(Debug, Default)]
struct Starts {
    boards: Vec<Board>,
    offered: u64,
}

impl Starts {
    fn offer(&mut self, board: Board, capacity: usize) {
        if self.boards.len() < capacity {
            self.boards.push(board);
        } else if capacity > 0 {
            let slot = (self.offered % capacity as u64) as usize;
            self.boards[slot] = board;
        }
        self.offered += 1;
    }
}

/// Where the later stages' step sizes start when [`NTupleNetwork::into_stages`] splits a network
/// trained by temporal coherence ([`LearningRule::Coherence`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StepSizes {
    /// With no sums: every weight of a later stage moves at the full rate at first, free to
    /// move away from the weight it starts from.
    #[default]
    Fresh,
    /// With the first stage's sums: a weight that had settled stays settled until its errors
    /// in the new stage agree in sign again.
    Carried,
}

impl std::str::FromStr for StepSizes {
    type Err = NTupleError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "fresh" => Ok(StepSizes::Fresh),
            "carried" => Ok(StepSizes::Carried),
            other => Err(NTupleError::UnknownStepSizes(other.to_string())),
        }
    }
}

/// How training moves the weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LearningRule {
    /// TD(0) with one step size for every weight (`learning_rate`, 0.1 in Jaśkowski's first
    /// stage).
    #[default]
    Td,
    /// Temporal coherence learning: weight `i` moves by `learning_rate · |E_i| / A_i` times
    /// its share of the error, where `E_i` sums the errors it has seen and `A_i` their absolute
    /// values (a weight not yet updated moves at the full rate). Jaśkowski's runs use a
    /// learning rate of 1 with it. It keeps two more numbers per weight while training (three
    /// times the memory) and saves them with the network, so that a resumed run goes on with
    /// the same step sizes.
    Coherence,
}

impl LearningRule {
    /// The name used on command lines: `td` or `tc`.
    pub fn name(self) -> &'static str {
        match self {
            LearningRule::Td => "td",
            LearningRule::Coherence => "tc",
        }
    }
}

impl std::str::FromStr for LearningRule {
    type Err = NTupleError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "td" => Ok(LearningRule::Td),
            "tc" => Ok(LearningRule::Coherence),
            other => Err(NTupleError::UnknownRule(other.to_string())),
        }
    }
}

/// The two sums temporal coherence learning keeps per weight: per tuple, one word per weight
/// with the sum of its errors (`f32` bits, low half) and the sum of their absolute values (high
/// half). One word, so that an update misses the cache once per weight for both.
#[derive(Debug)]
struct Coherence {
    sums: Vec<Box<[AtomicU64]>>,
}

impl Coherence {
    fn new(shape: Shape, stages: usize) -> Self {
        Coherence { sums: zeros(shape, stages) }
    }

    /// Writes the sums of errors, then the sums of absolute values, four bytes each.
    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        for half in [0, 32] {
            for w in self.sums.iter().flat_map(|table| table.iter()) {
                out.write_all(&((w.load(Ordering::Relaxed) >> half) as u32).to_le_bytes())?;
            }
        }
        Ok(())
    }

    /// Reads what [`Coherence::write`] wrote.
    fn read(&self, input: &mut impl Read) -> std::io::Result<()> {
        let mut word = [0u8; 4];
        for half in [0, 32] {
            for w in self.sums.iter().flat_map(|table| table.iter()) {
                input.read_exact(&mut word)?;
                let other = w.load(Ordering::Relaxed) & (0xFFFF_FFFF << (32 - half));
                w.store(other | u64::from(u32::from_le_bytes(word)) << half, Ordering::Relaxed);
            }
        }
        Ok(())
    }
}

/// An n-tuple network (see the [module documentation](self)).
#[derive(Debug)]
pub struct NTupleNetwork {
    shape: Shape,
    stages: Stages,
    /// One table per stage and tuple (table `tuples · stage + tuple`), each of `16^len`
    /// weights, stored as `f32` bits.
    weights: Vec<Box<[AtomicU32]>>,
    games: AtomicU64,
    /// Temporal coherence's sums, made the first time training asks for them.
    coherence: std::sync::OnceLock<Coherence>,
    /// The restart pool of training (empty unless training used [`Restarts`]).
    starts: std::sync::Mutex<Starts>,
    /// Each tuple's cells as runs of neighbouring cells (see [`Run`]); the first `tuples`
    /// are the shape's.
    runs: [[Run; MAX_RUNS]; MAX_TUPLES],
    /// The shape's number of tuples.
    tuples: usize,
}

/// What [`NTupleNetwork::features`] finds on a board.
#[derive(Clone, Copy)]
struct Features {
    stage: usize,
    indices: [u32; 8 * MAX_TUPLES],
}

impl Features {
    const EMPTY: Features = Features { stage: 0, indices: [0; 8 * MAX_TUPLES] };
}

/// The greedy move of [`NTupleNetwork::best_choice`]; its afterstate's features are in the
/// caller's scratch at `slot`.
struct Choice {
    direction: Direction,
    after: Board,
    reward: u32,
    /// The afterstate's value to come.
    value: f32,
    slot: usize,
}

/// The most runs of neighbouring cells a tuple has.
const MAX_RUNS: usize = 3;

/// A run of a tuple's cells that are neighbours both on the board and in the tuple's index:
/// one shift and one mask move them all. Working an index out run by run instead of cell by
/// cell makes it a few instructions (the tuples are rows and parts of rows); an unused run has
/// mask 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Run {
    /// The first cell's bit on the board.
    from: u32,
    /// Its bit in the index.
    to: u32,
    /// The run's bits, from bit 0.
    mask: u64,
}

impl Run {
    /// The runs of `tuple`.
    ///
    /// # Panics
    /// If the tuple has more than [`MAX_RUNS`] runs (a shape's tuples are fixed; a test checks
    /// every shape).
    fn of(tuple: &[u8]) -> [Run; MAX_RUNS] {
        let mut runs = [Run::default(); MAX_RUNS];
        let mut n = 0;
        for (i, &cell) in tuple.iter().enumerate() {
            let extends = i > 0 && cell == tuple[i - 1] + 1;
            if !extends {
                runs[n] = Run { from: 4 * u32::from(cell), to: 4 * i as u32, mask: 0 };
                n += 1;
            }
            runs[n - 1].mask = runs[n - 1].mask << 4 | 0xF;
        }
        runs
    }

    /// The run's bits of `board`, where they go in the index.
    #[inline(always)]
    fn gather(self, board: u64) -> u32 {
        (((board >> self.from) & self.mask) << self.to) as u32
    }
}

/// Calls the method `f::<N>` of a network with `N` its number of tuples, 4 or 8 (see
/// `NTupleNetwork::features_into`).
macro_rules! by_tuples {
    ($network:ident . $f:ident ( $($arg:expr),* )) => {
        if $network.tuples == 4 { $network.$f::<4>($($arg),*) } else { $network.$f::<8>($($arg),*) }
    };
}

/// The 8 symmetries of `board`: the board and its horizontal mirror, each upside down or not,
/// and the transposes of those four.
fn symmetries(board: Board) -> [u64; 8] {
    let b = board.raw();
    // Reverse the four cells of every row.
    let mirror = |x: u64| {
        ((x & 0x000F_000F_000F_000F) << 12)
            | ((x & 0x00F0_00F0_00F0_00F0) << 4)
            | ((x & 0x0F00_0F00_0F00_0F00) >> 4)
            | ((x & 0xF000_F000_F000_F000) >> 12)
    };
    // Reverse the order of the rows.
    let flip = |x: u64| (x >> 48) | ((x >> 16) & 0xFFFF_0000) | ((x << 16) & 0xFFFF_0000_0000) | (x << 48);
    let transpose = |x: u64| Board::from_raw(x).transpose().raw();
    let m = mirror(b);
    let f = flip(b);
    let mf = mirror(f);
    [b, m, f, mf, transpose(b), transpose(m), transpose(f), transpose(mf)]
}

impl NTupleNetwork {
    /// A network of `shape` with every weight 0.
    pub fn new(shape: Shape) -> Self {
        Self::with_stages(shape, Stages::ONE)
    }

    /// A network of `shape` split into `stages`, every weight 0.
    ///
    /// ```
    /// use game2048::ntuple::{NTupleNetwork, Shape, Stages};
    ///
    /// let network = NTupleNetwork::with_stages(Shape::Small, "2048".parse().unwrap());
    /// assert_eq!(network.stages().count(), 2);
    /// ```
    pub fn with_stages(shape: Shape, stages: Stages) -> Self {
        NTupleNetwork {
            shape,
            weights: zeros(shape, stages.count()),
            stages,
            games: AtomicU64::new(0),
            coherence: std::sync::OnceLock::new(),
            starts: std::sync::Mutex::default(),
            runs: std::array::from_fn(|t| {
                shape.tuples().get(t).map_or([Run::default(); MAX_RUNS], |t| Run::of(t))
            }),
            tuples: shape.tuples().len(),
        }
    }

    /// Temporal coherence's sums, all zero the first time.
    fn coherence(&self) -> &Coherence {
        self.coherence.get_or_init(|| Coherence::new(self.shape, self.stages.count()))
    }

    /// Its stages.
    pub fn stages(&self) -> &Stages {
        &self.stages
    }

    /// This one-stage network split into `stages`, each stage starting from its weights
    /// (Jaśkowski's weight promotion: a new stage starts from what the network knows, not from
    /// zero). Temporal coherence's sums stay with the first stage; the later stages start
    /// with them too or with none ([`StepSizes`]). Games trained and the restart pool go with
    /// it. A network that already has `stages` comes back as it is.
    ///
    /// # Errors
    /// [`NTupleError::StagesDiffer`] if the network already has other stages.
    ///
    /// ```
    /// use game2048::ntuple::{NTupleNetwork, Shape, StepSizes, TrainConfig};
    /// use game2048::Board;
    ///
    /// let network = NTupleNetwork::new(Shape::Small);
    /// network.train(&TrainConfig { games: 20, ..TrainConfig::default() }, |_| {});
    /// let board: Board = "2048 4 2 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
    /// let before = network.value_to_come(board);
    /// let staged = network.into_stages("2048".parse().unwrap(), StepSizes::Fresh).unwrap();
    /// assert_eq!(staged.value_to_come(board), before);
    /// assert!(staged.into_stages("4096".parse().unwrap(), StepSizes::Fresh).is_err());
    /// ```
    pub fn into_stages(self, stages: Stages, step_sizes: StepSizes) -> Result<NTupleNetwork, NTupleError> {
        if self.stages == stages {
            return Ok(self);
        }
        if self.stages.count() > 1 {
            return Err(NTupleError::StagesDiffer { has: self.stages.clone(), asked: stages });
        }
        let staged = NTupleNetwork::with_stages(self.shape, stages);
        for (i, table) in staged.weights.iter().enumerate() {
            copy_table(&self.weights[i % self.tuples], table);
        }
        if let Some(coherence) = self.coherence.get() {
            let stages = match step_sizes {
                StepSizes::Fresh => 1,
                StepSizes::Carried => staged.stages.count(),
            };
            let to = &staged.coherence().sums[..self.tuples * stages];
            for (i, table) in to.iter().enumerate() {
                for (a, b) in coherence.sums[i % self.tuples].iter().zip(table.iter()) {
                    b.store(a.load(Ordering::Relaxed), Ordering::Relaxed);
                }
            }
        }
        staged.games.store(self.games_trained(), Ordering::Relaxed);
        *staged.pool() = std::mem::take(&mut *self.pool());
        Ok(staged)
    }

    /// Sets every weight so that every board, in every stage, is worth `value` points to come:
    /// optimistic initialisation (the idea of Guei et al.'s optimistic TD learning, 2021).
    /// Started high, the value of a board self-play has not met yet stays above what it has
    /// learned of the boards it knows, so the greedy player tries the new boards first
    /// instead of settling early on the moves that first worked.
    ///
    /// ```
    /// use game2048::ntuple::{NTupleNetwork, Shape};
    /// use game2048::Board;
    ///
    /// let network = NTupleNetwork::new(Shape::Small);
    /// network.fill(3200.0);
    /// let board: Board = "2 4 8 16/0 0 2 4/0 0 0 2/0 0 0 0".parse().unwrap();
    /// assert_eq!(network.value_to_come(board), 3200.0);
    /// ```
    pub fn fill(&self, value: f32) {
        let weight = value / (8 * self.tuples) as f32;
        for table in &self.weights {
            for w in table.iter() {
                w.store(weight.to_bits(), Ordering::Relaxed);
            }
        }
    }

    /// Whether it holds temporal coherence's sums (it has been trained with
    /// [`LearningRule::Coherence`]).
    pub fn has_coherence(&self) -> bool {
        self.coherence.get().is_some()
    }

    /// The boards its training keeps to restart games from ([`Restarts`]).
    pub fn restart_pool(&self) -> Vec<Board> {
        self.pool().boards.clone()
    }

    fn pool(&self) -> std::sync::MutexGuard<'_, Starts> {
        self.starts.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Its shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Games of training behind it (saved with it).
    pub fn games_trained(&self) -> u64 {
        self.games.load(Ordering::Relaxed)
    }

    /// The points the network expects from the afterstate `board` to the end of the game: the
    /// sum of its weights. (As a [`Heuristic`] the network adds the points already on the
    /// board; see the `impl Heuristic` below.)
    ///
    /// ```
    /// use game2048::ntuple::{NTupleNetwork, Shape};
    /// use game2048::{Board, Heuristic};
    ///
    /// let network = NTupleNetwork::new(Shape::Small);
    /// let board: Board = "4 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
    /// assert_eq!(network.value_to_come(board), 0.0); // untrained
    /// assert_eq!(network.value(board), 4.0); // the merge that made the 4
    /// ```
    pub fn value_to_come(&self, board: Board) -> f32 {
        by_tuples!(self.value_to_come_of(board))
    }

    fn value_to_come_of<const N: usize>(&self, board: Board) -> f32 {
        let mut features = Features::EMPTY;
        self.features_into::<N>(board, &mut features);
        self.value_at::<N>(&features)
    }

    /// The weights that make up `board`'s value: its stage, and the weight-table index of
    /// every tuple in every symmetry of `board`, in a fixed order (with `N` tuples, entry
    /// `N·s + t` is tuple `t` in symmetry `s`).
    #[cfg(test)]
    fn features(&self, board: Board) -> Features {
        let mut features = Features::EMPTY;
        by_tuples!(self.features_into(board, &mut features));
        features
    }

    /// `board`'s features (see `features`) written in place, for a network of `N` tuples.
    ///
    /// All the indices are worked out before any weight is read, and each weight's cache line
    /// is requested as soon as its index is known. The tables are far larger than the caches,
    /// so nearly every read misses: this way the misses of a board, and of the four
    /// afterstates a move compares, are all under way at once instead of one after another
    /// (training took 0.45 of the time with the requests, docs/ntuple.md).
    ///
    /// This and the other functions that walk the features take the number of tuples as a
    /// constant, so that their loops are unrolled; the public entry points choose `N` once
    /// (`by_tuples!`). With the count read at run time inside the loops, training ran 7 %
    /// slower.
    #[inline]
    fn features_into<const N: usize>(&self, board: Board, features: &mut Features) {
        features.stage = self.stages.of(board);
        let tables = &self.weights[N * features.stage..][..N];
        for (s, sym) in symmetries(board).into_iter().enumerate() {
            for (t, runs) in self.runs[..N].iter().enumerate() {
                let index = runs.iter().fold(0, |acc, run| acc | run.gather(sym));
                features.indices[N * s + t] = index;
                search_core::prefetch(&tables[t][index as usize]);
            }
        }
    }

    /// The value of the board whose features these are.
    fn value_at<const N: usize>(&self, features: &Features) -> f32 {
        let tables = &self.weights[N * features.stage..][..N];
        let mut v = 0.0f32;
        // Symmetry by symmetry, tuple by tuple: the order the indices are in, and the order of
        // the sum.
        for (k, &i) in features.indices[..8 * N].iter().enumerate() {
            v += load(&tables[k % N][i as usize]);
        }
        v
    }

    /// Calls `visit` with the table and weight index of every weight these features sum.
    fn weights_of<const N: usize>(features: &Features, mut visit: impl FnMut(usize, usize)) {
        let first = N * features.stage;
        for (k, &i) in features.indices[..8 * N].iter().enumerate() {
            visit(first + k % N, i as usize);
        }
    }

    /// Adds `delta` spread over the weights that make up the value of a board with these
    /// features.
    fn update<const N: usize>(&self, features: &Features, delta: f32) {
        Self::weights_of::<N>(features, |t, i| add(&self.weights[t][i], delta));
    }

    /// Adds `delta` spread over the weights of `board`'s value.
    #[cfg(test)]
    fn update_board(&self, board: Board, delta: f32) {
        let features = self.features(board);
        by_tuples!(self.update(&features, delta))
    }

    /// Asks the processor to bring the temporal-coherence sums of these features' weights
    /// into the cache.
    fn prefetch_coherence<const N: usize>(&self, features: &Features) {
        let coherence = self.coherence();
        Self::weights_of::<N>(features, |t, i| search_core::prefetch(&coherence.sums[t][i]));
    }

    /// Temporal coherence's update of the weights these features sum for the error `error`:
    /// each weight moves by `step · |E| / A · error` and then adds `error` to `E` and its size
    /// to `A`.
    fn update_coherent<const N: usize>(&self, features: &Features, step: f32, error: f32) {
        let coherence = self.coherence();
        Self::weights_of::<N>(features, |t, i| {
            let cell = &coherence.sums[t][i];
            let sums = cell.load(Ordering::Relaxed);
            let (sum, size) = (f32::from_bits(sums as u32), f32::from_bits((sums >> 32) as u32));
            let rate = if size > 0.0 { sum.abs() / size } else { 1.0 };
            add(&self.weights[t][i], step * rate * error);
            let (sum, size) = (sum + error, size + error.abs());
            cell.store(u64::from(sum.to_bits()) | u64::from(size.to_bits()) << 32, Ordering::Relaxed);
        });
    }

    /// The greedy move on `board` and its afterstate, by merge score plus the afterstate's
    /// value; `None` when no move is left.
    pub fn best_move(&self, board: Board) -> Option<(Direction, Board, u32)> {
        let mut scratch = [Features::EMPTY; 4];
        by_tuples!(self.best_choice(board, &mut scratch)).map(|c| (c.direction, c.after, c.reward))
    }

    /// [`NTupleNetwork::best_move`] with the afterstate's value, its features left in
    /// `scratch` (training updates the afterstate's weights a move later, and need not work
    /// its indices out again).
    fn best_choice<const N: usize>(&self, board: Board, scratch: &mut [Features; 4]) -> Option<Choice> {
        // Every afterstate's indices first, then their weights: the reads of all four moves
        // are under way together (see `features_into`).
        let slides = Direction::ALL.map(|d| board.play(d));
        for (slide, features) in slides.iter().zip(scratch.iter_mut()) {
            if let Some(slide) = slide {
                self.features_into::<N>(slide.board, features);
            }
        }
        let mut best: Option<(Choice, f64)> = None;
        for (slot, (direction, slide)) in Direction::ALL.into_iter().zip(slides).enumerate() {
            let Some(slide) = slide else { continue };
            let value = self.value_at::<N>(&scratch[slot]);
            let v = f64::from(slide.score) + f64::from(value);
            if best.as_ref().is_none_or(|(_, b)| v > *b) {
                best = Some((Choice { direction, after: slide.board, reward: slide.score, value, slot }, v));
            }
        }
        best.map(|(choice, _)| choice)
    }

    /// Trains the network by self-play (see the [module documentation](self)). `progress` is
    /// called after each game with that game's result, from the thread that played it.
    pub fn train(&self, config: &TrainConfig, progress: impl Fn(&TrainedGame) + Sync) -> TrainReport {
        let start = std::time::Instant::now();
        let first = self.games_trained();
        if config.restarts.active() {
            // Boards kept for a smaller restart tile (an earlier run's) do not show this one.
            self.pool().boards.retain(|b| b.max_tile() >= config.restarts.tile);
        }
        let play = |k: u64| {
            let game = self.train_one(config, first + k);
            progress(&game);
            game
        };
        let games: Vec<TrainedGame> = if config.threads > 1 {
            use rayon::prelude::*;
            let pool = rayon::ThreadPoolBuilder::new().num_threads(config.threads).build();
            match pool {
                Ok(pool) => pool.install(|| (0..config.games).into_par_iter().map(play).collect()),
                Err(_) => (0..config.games).map(play).collect(),
            }
        } else {
            (0..config.games).map(play).collect()
        };
        let fresh: Vec<&TrainedGame> = games.iter().filter(|g| !g.restarted).collect();
        let n = fresh.len().max(1) as f64;
        TrainReport {
            games: config.games,
            restarted: (games.len() - fresh.len()) as u64,
            mean_score: fresh.iter().map(|g| g.score as f64).sum::<f64>() / n,
            reached: std::array::from_fn(|i| {
                fresh.iter().filter(|g| g.max_tile >= REPORTED_TILES[i]).count() as f64 / n
            }),
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// One game of TD(0) afterstate learning, its spawns drawn from `config.seed` and its number.
    fn train_one(&self, config: &TrainConfig, number: u64) -> TrainedGame {
        by_tuples!(self.train_game(config, number))
    }

    /// [`Self::train_one`] for a network of `N` tuples.
    fn train_game<const N: usize>(&self, config: &TrainConfig, number: u64) -> TrainedGame {
        let rules = Rules::default();
        let mut rng =
            Xoshiro256PlusPlus::seed_from_u64(config.seed ^ number.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let restarts = config.restarts;
        let restart = if restarts.active() {
            use rand::RngExt;
            let pick: f64 = rng.random();
            let pool = self.pool();
            let index = rng.random_range(0..pool.boards.len().max(1));
            (pick < restarts.share).then(|| pool.boards.get(index).copied()).flatten()
        } else {
            None
        };
        let mut board = restart.unwrap_or_else(|| rules.new_board(&mut rng));
        // A fresh game offers its board to the pool when the tile first appears.
        let mut keep = restart.is_none() && restarts.active();
        // Two sets of scratch, used in turn: a move's features are written into one while the
        // last afterstate's, whose weights learn once the next move is known, stay in the
        // other (`previous`: which set, which slot), so no features are copied.
        let mut scratch = [[Features::EMPTY; 4]; 2];
        let mut current = 0;
        let mut previous: Option<(usize, usize)> = None;
        let mut score = 0u64;
        let mut moves = 0u64;
        let alpha = config.learning_rate / (self.shape.tuples().len() * 8) as f32;
        // The value is read again at the update: the updates since the move was chosen may
        // have moved weights it shares.
        let learn = |prev: &Features, target: f32| {
            let error = target - self.value_at::<N>(prev);
            match config.rule {
                LearningRule::Td => self.update::<N>(prev, alpha * error),
                LearningRule::Coherence => self.update_coherent::<N>(prev, alpha, error),
            }
        };
        while let Some(Choice { after, reward, value, slot, .. }) =
            self.best_choice::<N>(board, &mut scratch[current])
        {
            if let Some((set, prev)) = previous {
                learn(&scratch[set][prev], reward as f32 + value);
            }
            score += u64::from(reward);
            moves += 1;
            // These weights learn a move from now: their step sizes start on their way to the
            // cache now, behind the next move's reads, instead of stalling the update (the
            // sums are read nowhere else, so nearly every read of them missed).
            if config.rule == LearningRule::Coherence {
                self.prefetch_coherence::<N>(&scratch[current][slot]);
            }
            previous = Some((current, slot));
            current ^= 1;
            board = rules.spawn(after, &mut rng).expect("a move leaves an empty cell");
            if keep && board.max_tile() >= restarts.tile {
                self.pool().offer(board, restarts.capacity);
                keep = false;
            }
        }
        if let Some((set, prev)) = previous {
            learn(&scratch[set][prev], 0.0);
        }
        self.games.fetch_add(1, Ordering::Relaxed);
        TrainedGame { number, score, moves, max_tile: board.max_tile(), restarted: restart.is_some() }
    }

    /// Writes the network to `path`: a header (magic, shape, games trained, and for a network
    /// of several stages their count less one and each stage's tiles as a 16-bit rank mask) and
    /// every weight, stage by stage, as
    /// a little-endian `f32`; then, if it holds temporal coherence's sums, a second magic and
    /// those sums in the same form (players ignore them; a resumed training reads them).
    pub fn save(&self, path: &Path) -> Result<(), NTupleError> {
        let io = |source| NTupleError::Io { path: path.display().to_string(), source };
        // Written to a temporary file first and renamed, so an interrupted save never leaves a
        // half-written checkpoint where a good one was.
        let tmp = path.with_extension("tmp");
        let file = std::fs::File::create(&tmp).map_err(io)?;
        let mut out = std::io::BufWriter::new(file);
        let staged = self.stages.count() > 1;
        out.write_all(if staged { STAGED_MAGIC } else { MAGIC }).map_err(io)?;
        out.write_all(&[self.shape.code()]).map_err(io)?;
        out.write_all(&self.games_trained().to_le_bytes()).map_err(io)?;
        if staged {
            let masks = self.stages.masks();
            out.write_all(&[masks.len() as u8]).map_err(io)?;
            for mask in masks {
                out.write_all(&mask.to_le_bytes()).map_err(io)?;
            }
        }
        write_tables(&mut out, &self.weights).map_err(io)?;
        if let Some(coherence) = self.coherence.get() {
            out.write_all(COHERENCE_MAGIC).map_err(io)?;
            coherence.write(&mut out).map_err(io)?;
        }
        let starts = self.pool();
        if !starts.boards.is_empty() {
            out.write_all(STARTS_MAGIC).map_err(io)?;
            out.write_all(&(starts.boards.len() as u64).to_le_bytes()).map_err(io)?;
            out.write_all(&starts.offered.to_le_bytes()).map_err(io)?;
            for board in &starts.boards {
                out.write_all(&board.raw().to_le_bytes()).map_err(io)?;
            }
        }
        drop(starts);
        out.flush().map_err(io)?;
        drop(out);
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads a network [`NTupleNetwork::save`] wrote, with its temporal coherence sums if the
    /// file has them.
    pub fn load(path: &Path) -> Result<Self, NTupleError> {
        Self::read(path, true)
    }

    /// Reads a network to play with: as [`NTupleNetwork::load`], but temporal coherence's sums
    /// are skipped (checked to be there, not read). A player never reads them, and they are
    /// two thirds of a file trained with them, so this reads a third of the bytes and holds a
    /// third of the memory. A network read this way trains on with every weight at the full
    /// step size, not where its training left them: resume training with `load`.
    ///
    /// ```
    /// use game2048::ntuple::{LearningRule, NTupleNetwork, Shape, TrainConfig};
    /// use game2048::Board;
    ///
    /// let network = NTupleNetwork::new(Shape::Small);
    /// network.train(&TrainConfig { games: 20, rule: LearningRule::Coherence, ..TrainConfig::default() }, |_| {});
    /// let path = std::env::temp_dir().join("load-to-play-doc.bin");
    /// network.save(&path).unwrap();
    /// let player = NTupleNetwork::load_to_play(&path).unwrap();
    /// assert!(!player.has_coherence());
    /// let board: Board = "2 4 8 16/0 0 2 4/0 0 0 2/0 0 0 0".parse().unwrap();
    /// assert_eq!(player.value_to_come(board), network.value_to_come(board));
    /// # std::fs::remove_file(&path).ok();
    /// ```
    pub fn load_to_play(path: &Path) -> Result<Self, NTupleError> {
        Self::read(path, false)
    }

    /// [`NTupleNetwork::load`], with or without temporal coherence's sums.
    fn read(path: &Path, with_sums: bool) -> Result<Self, NTupleError> {
        let name = path.display().to_string();
        let io = |source| NTupleError::Io { path: name.clone(), source };
        let bad = |reason: &str| NTupleError::BadFile { path: name.clone(), reason: reason.to_string() };
        let file = std::fs::File::open(path).map_err(io)?;
        let file_len = file.metadata().map_err(io)?.len();
        let mut input = std::io::BufReader::new(file);
        let mut header = [0u8; 17];
        input.read_exact(&mut header).map_err(|_| bad("shorter than its header"))?;
        let staged = match &header[..8] {
            m if m == MAGIC => false,
            m if m == STAGED_MAGIC => true,
            _ => return Err(bad("wrong magic bytes")),
        };
        let shape = Shape::from_code(header[8]).ok_or_else(|| bad("unknown shape"))?;
        let games = u64::from_le_bytes(header[9..17].try_into().expect("8 bytes"));
        let stages = if staged {
            let short = |_| bad("shorter than its stages");
            let mut count = [0u8; 1];
            input.read_exact(&mut count).map_err(short)?;
            let mut masks = Vec::new();
            for _ in 0..count[0] {
                let mut mask = [0u8; 2];
                input.read_exact(&mut mask).map_err(short)?;
                masks.push(u16::from_le_bytes(mask));
            }
            Stages::from_masks(masks).ok_or_else(|| bad("impossible stages"))?
        } else {
            Stages::ONE
        };
        let network = NTupleNetwork::with_stages(shape, stages);
        read_tables(&mut input, &network.weights).map_err(|_| bad("fewer weights than its shape has"))?;
        // Then the optional sections, each after its magic bytes: temporal coherence's sums,
        // the restart pool.
        let mut magic = [0u8; 8];
        let mut skipped_sums = false;
        while input.read(&mut magic[..1]).map_err(io)? != 0 {
            input.read_exact(&mut magic[1..]).map_err(|_| bad("more bytes than its shape has weights"))?;
            if &magic == COHERENCE_MAGIC && !network.has_coherence() && !skipped_sums {
                let short = "a temporal coherence section shorter than its shape";
                if with_sums {
                    network.coherence().read(&mut input).map_err(|_| bad(short))?;
                } else {
                    // Two `f32` per weight.
                    let weights: u64 = network.weights.iter().map(|t| t.len() as u64).sum();
                    input.seek_relative(8 * weights as i64).map_err(io)?;
                    if input.stream_position().map_err(io)? > file_len {
                        return Err(bad(short));
                    }
                    skipped_sums = true;
                }
            } else if &magic == STARTS_MAGIC && network.pool().boards.is_empty() {
                let short = |_| bad("a restart pool section shorter than it says");
                let mut word = [0u8; 8];
                input.read_exact(&mut word).map_err(short)?;
                let len = u64::from_le_bytes(word);
                input.read_exact(&mut word).map_err(short)?;
                let offered = u64::from_le_bytes(word);
                if len == 0 || len > 1 << 24 || offered < len {
                    return Err(bad("a restart pool section with impossible counts"));
                }
                let mut boards = Vec::with_capacity(len as usize);
                for _ in 0..len {
                    input.read_exact(&mut word).map_err(short)?;
                    boards.push(Board::from_raw(u64::from_le_bytes(word)));
                }
                *network.pool() = Starts { boards, offered };
            } else {
                return Err(bad("more bytes than its shape has weights, and not a known section"));
            }
        }
        network.games.store(games, Ordering::Relaxed);
        Ok(network)
    }
}

/// One table of zeros per stage and tuple of `shape`, a value per weight.
fn zeros<T: Default>(shape: Shape, stages: usize) -> Vec<Box<[T]>> {
    let tuples = shape.tuples();
    (0..stages * tuples.len())
        .map(|i| (0..1usize << (4 * tuples[i % tuples.len()].len())).map(|_| T::default()).collect())
        .collect()
}

/// Copies the weights of `from` into `to`, a table of the same size.
fn copy_table(from: &[AtomicU32], to: &[AtomicU32]) {
    for (a, b) in from.iter().zip(to) {
        b.store(a.load(Ordering::Relaxed), Ordering::Relaxed);
    }
}

/// Writes every value of `tables` as four little-endian bytes.
fn write_tables(out: &mut impl Write, tables: &[Box<[AtomicU32]>]) -> std::io::Result<()> {
    for w in tables.iter().flat_map(|table| table.iter()) {
        out.write_all(&w.load(Ordering::Relaxed).to_le_bytes())?;
    }
    Ok(())
}

/// Fills `tables` from four little-endian bytes a value.
fn read_tables(input: &mut impl Read, tables: &[Box<[AtomicU32]>]) -> std::io::Result<()> {
    let mut word = [0u8; 4];
    for w in tables.iter().flat_map(|table| table.iter()) {
        input.read_exact(&mut word)?;
        w.store(u32::from_le_bytes(word), Ordering::Relaxed);
    }
    Ok(())
}

/// An `f32` held as bits in an atomic.
fn load(cell: &AtomicU32) -> f32 {
    f32::from_bits(cell.load(Ordering::Relaxed))
}

/// Adds `delta` to an `f32` held as bits: a load and a store, not one atomic step, so two
/// threads adding at once may lose one of the additions (see the [module documentation](self)).
fn add(cell: &AtomicU32, delta: f32) {
    cell.store((load(cell) + delta).to_bits(), Ordering::Relaxed);
}

/// As a heuristic, a network values an afterstate as the final score it expects: the points
/// already on the board ([`Board::tile_points`]) plus the points the network expects from here
/// ([`NTupleNetwork::value_to_come`]); a lost board is worth its points alone. The network
/// alone values only what is still to come, so a search comparing leaves by it would count
/// every merge on the path to a leaf as lost, and leaves cut off at different depths would not
/// compare. With the board's points added, a leaf is worth the merges on its path plus its
/// network value, as TD learning estimates it (a spawned 4 adds 4 points no merge scored, 0.4
/// per spawn in expectation on every path alike), and one ply plays the move
/// [`NTupleNetwork::train`] plays.
///
/// The value of a loss matters most. Below every board (the default of [`Heuristic::lost`]),
/// any path to a loss, however unlikely, outweighed everything the network knows, and the
/// search played for survival alone on crowded boards; valued at its points, a loss costs what
/// the network expects the game still to score. Over the same 100 seeded games of the
/// shallow search (docs/ntuple.md) 16384 was reached in 92 games instead of 80.
impl Heuristic for NTupleNetwork {
    fn value(&self, board: Board) -> f64 {
        board.tile_points() as f64 + f64::from(self.value_to_come(board))
    }

    /// A lost game ends with the points on its board: nothing more to come.
    fn lost(&self, board: Board) -> Option<f64> {
        Some(board.tile_points() as f64)
    }

    /// The four afterstates' indices first, then their weights, as training chooses a move:
    /// the reads of all four are under way together (the search spends half its time here).
    /// The same values, and the same maximum, as the default.
    fn best_afterstate(&self, board: Board) -> Option<f64> {
        self.best_afterstate_through(board, |after| (after, 1.0))
    }
}

impl NTupleNetwork {
    /// [`Heuristic::best_afterstate`] for a heuristic that values an afterstate at its points
    /// plus `scale` times the points this network expects from `view` (`view` gives the board
    /// to read and the scale), batched: every afterstate's indices first, then the weights.
    fn best_afterstate_through(&self, board: Board, view: impl Fn(Board) -> (Board, f32)) -> Option<f64> {
        by_tuples!(self.best_afterstate_of(board, &view))
    }

    /// [`Self::best_afterstate_through`] for a network of `N` tuples.
    fn best_afterstate_of<const N: usize>(
        &self,
        board: Board,
        view: &impl Fn(Board) -> (Board, f32),
    ) -> Option<f64> {
        let afters = board.afters();
        let mut scratch = [Features::EMPTY; 4];
        let mut scales = [1.0f32; 4];
        for ((after, features), scale) in afters.iter().zip(scratch.iter_mut()).zip(scales.iter_mut()) {
            if let Some(after) = after {
                let (read, factor) = view(*after);
                self.features_into::<N>(read, features);
                *scale = factor;
            }
        }
        afters
            .iter()
            .zip(scratch.iter().zip(scales))
            .filter_map(|(after, (features, scale))| {
                after
                    .map(|after| after.tile_points() as f64 + f64::from(scale * self.value_at::<N>(features)))
            })
            .reduce(|a, b| if b > a || b.is_nan() { b } else { a })
    }
}

/// The tiles whose rates training reports.
pub const REPORTED_TILES: [u32; 5] = [2048, 4096, 8192, 16384, 32768];

/// Settings of [`NTupleNetwork::train`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// Games to play.
    pub games: u64,
    /// The step size of a whole board's value (spread over its tuples and symmetries);
    /// Jaśkowski uses 0.1 for the first stage of TD, and 1 with temporal coherence.
    pub learning_rate: f32,
    /// The seed of the spawns; game `k` of a network trained `g` games uses `seed` and `g + k`,
    /// so a resumed training continues the same sequence.
    pub seed: u64,
    /// Threads playing games at once (1: deterministic).
    pub threads: usize,
    /// How the weights move.
    pub rule: LearningRule,
    /// Where games start.
    pub restarts: Restarts,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            games: 1000,
            learning_rate: 0.1,
            seed: 2048,
            threads: 1,
            rule: LearningRule::Td,
            restarts: Restarts::NONE,
        }
    }
}

/// One training game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainedGame {
    /// Its number in the network's whole training.
    pub number: u64,
    /// Its score.
    pub score: u64,
    /// Its moves.
    pub moves: u64,
    /// Its largest tile.
    pub max_tile: u32,
    /// Whether it started from a board of the restart pool rather than a new board.
    pub restarted: bool,
}

/// What a call of [`NTupleNetwork::train`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainReport {
    /// Games played.
    pub games: u64,
    /// How many of them started from the restart pool.
    pub restarted: u64,
    /// The mean score of the games that started from a new board.
    pub mean_score: f64,
    /// The share of the games that started from a new board that reached each of
    /// [`REPORTED_TILES`].
    pub reached: [f64; 5],
    /// Wall seconds.
    pub seconds: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_batched_best_afterstate_is_the_default_one() {
        use crate::evaluation::best_afterstate_by_value;
        let network = NTupleNetwork::new(Shape::Small);
        network.train(&TrainConfig { games: 30, ..TrainConfig::default() }, |_| {});
        let rules = Rules::default();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut board = rules.new_board(&mut rng);
        let mut checked = 0;
        // The boards of one greedy game, to its end (where neither has an afterstate).
        loop {
            let batched = network.best_afterstate(board);
            assert_eq!(
                batched.map(f64::to_bits),
                best_afterstate_by_value(&network, board).map(f64::to_bits)
            );
            checked += 1;
            let Some((_, after, _)) = network.best_move(board) else { break };
            board = rules.spawn(after, &mut rng).expect("a move leaves an empty cell");
        }
        assert!(checked > 50, "{checked}");
        assert_eq!(network.best_afterstate(board), None);
    }

    #[test]
    fn every_shape_fits_the_index_array() {
        for shape in [Shape::Small, Shape::Standard, Shape::Large] {
            // The hot loops are compiled for these two counts (see `by_tuples!`).
            assert!([4, 8].contains(&shape.tuples().len()), "{}", shape.name());
            assert_eq!(shape.name().parse::<Shape>().unwrap(), shape);
            assert_eq!(Shape::from_code(shape.code()), Some(shape));
        }
    }

    /// The large shape's tuples are eight different shapes: no symmetry of the board turns
    /// one into another (a copy would only repeat weights), and each is six cells.
    #[test]
    fn the_large_shapes_tuples_are_different_under_every_symmetry() {
        let tuples = Shape::Large.tuples();
        assert_eq!(tuples.len(), 8);
        // A tuple's cells as a board with a 1 on each of them, seen in all 8 symmetries.
        let images = |tuple: &[u8]| {
            let board = Board::from_ranks(std::array::from_fn(|i| u8::from(tuple.contains(&(i as u8)))));
            symmetries(board)
        };
        for (i, a) in tuples.iter().enumerate() {
            assert_eq!(a.len(), 6);
            for b in &tuples[i + 1..] {
                let b_board = images(b)[0];
                assert!(!images(a).contains(&b_board), "{a:?} and {b:?} are the same shape");
            }
        }
        // The standard shape's tuples come first, so its weights have the same places.
        assert_eq!(&tuples[..4], Shape::Standard.tuples());
    }

    #[test]
    fn indices_by_runs_are_the_cells_one_by_one() {
        // The rectangle 0 1 2 / 4 5 6: two runs, the second at index bit 12.
        assert_eq!(
            Run::of(&[0, 1, 2, 4, 5, 6])[..2],
            [Run { from: 0, to: 0, mask: 0xFFF }, Run { from: 16, to: 12, mask: 0xFFF }]
        );
        let board = Board::from_ranks(std::array::from_fn(|i| (i as u8 * 7) % 16));
        let by_cells = |sym: u64, tuple: &[u8]| {
            tuple
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, &cell)| acc | (((sym >> (4 * cell)) & 0xF) as u32) << (4 * i))
        };
        for shape in [Shape::Small, Shape::Standard, Shape::Large] {
            for sym in symmetries(board) {
                for tuple in shape.tuples() {
                    let by_runs = Run::of(tuple).iter().fold(0, |acc, run| acc | run.gather(sym));
                    assert_eq!(by_runs, by_cells(sym, tuple), "{} tuple {tuple:?}", shape.name());
                }
            }
        }
        // And the network's own array, in its order (symmetry by symmetry, then tuple), for a
        // shape of four tuples and one of eight; a board's value reads every one of them.
        for shape in [Shape::Small, Shape::Large] {
            let network = NTupleNetwork::new(shape);
            let n = shape.tuples().len();
            let indices = network.features(board).indices;
            for (s, sym) in symmetries(board).into_iter().enumerate() {
                for (t, tuple) in shape.tuples().iter().enumerate() {
                    assert_eq!(indices[n * s + t], by_cells(sym, tuple), "{}", shape.name());
                }
            }
            network.update_board(board, 1.0);
            assert_eq!(network.value_to_come(board), (8 * n) as f32, "{}", shape.name());
        }
    }

    #[test]
    fn symmetries_are_the_eight_of_the_square() {
        let board = Board::from_ranks(std::array::from_fn(|i| i as u8));
        let syms = symmetries(board);
        let distinct: std::collections::HashSet<u64> = syms.iter().copied().collect();
        assert_eq!(distinct.len(), 8);
        // Cell (r, c) of the upside-down board is cell (3 − r, c) of the board.
        let flipped = Board::from_raw(syms[2]);
        for r in 0..4 {
            for c in 0..4 {
                assert_eq!(flipped.rank(4 * r + c), board.rank(4 * (3 - r) + c));
                assert_eq!(Board::from_raw(syms[1]).rank(4 * r + c), board.rank(4 * r + 3 - c));
            }
        }
        // A symmetric value: every symmetry of a board has the same value.
        let network = NTupleNetwork::new(Shape::Small);
        network.update_board(board, 1.0);
        let v = network.value(board);
        for sym in syms {
            assert_eq!(network.value(Board::from_raw(sym)), v);
        }
    }

    #[test]
    fn training_is_seeded_and_learns() {
        let config = TrainConfig { games: 300, seed: 7, ..TrainConfig::default() };
        let a = NTupleNetwork::new(Shape::Small);
        let first = a.train(&TrainConfig { games: 100, ..config }, |_| {});
        let later = a.train(&TrainConfig { games: 200, ..config }, |_| {});
        // The same seed gives the same network, bit for bit, whether resumed or in one go.
        let b = NTupleNetwork::new(Shape::Small);
        b.train(&config, |_| {});
        let board: Board = "2 4 8 16/0 2 4 8/0 0 2 4/0 0 0 2".parse().unwrap();
        assert_eq!(a.value(board), b.value(board));
        assert_eq!(a.games_trained(), 300);
        // Learning moved it: later games score better than the first ones (an untrained
        // network plays the greedy merge-score move).
        assert!(later.mean_score > 1.5 * first.mean_score, "{} then {}", first.mean_score, later.mean_score);
    }

    #[test]
    fn coherence_learns_and_a_resumed_run_goes_on_with_its_step_sizes() {
        let dir = std::env::temp_dir().join(format!("ntuple-tc-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = TrainConfig {
            games: 300,
            seed: 5,
            learning_rate: 1.0,
            rule: LearningRule::Coherence,
            ..TrainConfig::default()
        };
        let a = NTupleNetwork::new(Shape::Small);
        let first = a.train(&TrainConfig { games: 100, ..config }, |_| {});
        assert!(a.has_coherence());
        let path = dir.join("tc.bin");
        a.save(&path).unwrap();
        // To play, the sums are skipped and the weights, the games and the pool are the same.
        let player = NTupleNetwork::load_to_play(&path).unwrap();
        let a = NTupleNetwork::load(&path).unwrap();
        assert!(a.has_coherence(), "the sums come back with the weights");
        assert!(!player.has_coherence());
        assert_eq!(player.games_trained(), a.games_trained());
        assert_eq!(player.restart_pool(), a.restart_pool());
        for (p, w) in player.weights.iter().zip(&a.weights) {
            assert!(
                p.iter().zip(w.iter()).all(|(p, w)| p.load(Ordering::Relaxed) == w.load(Ordering::Relaxed))
            );
        }
        let later = a.train(&TrainConfig { games: 200, ..config }, |_| {});
        let b = NTupleNetwork::new(Shape::Small);
        b.train(&config, |_| {});
        let board: Board = "2 4 8 16/0 2 4 8/0 0 2 4/0 0 0 2".parse().unwrap();
        assert_eq!(a.value(board).to_bits(), b.value(board).to_bits(), "resumed = uninterrupted");
        assert!(later.mean_score > 1.5 * first.mean_score, "{} then {}", first.mean_score, later.mean_score);
        // A plain TD network of the same games is a different network: the rule matters.
        let td = NTupleNetwork::new(Shape::Small);
        td.train(&TrainConfig { rule: LearningRule::Td, learning_rate: 0.1, ..config }, |_| {});
        assert!(!td.has_coherence());
        assert_ne!(td.value(board), b.value(board));
        // A cut temporal coherence section is refused.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        for load in [NTupleNetwork::load, NTupleNetwork::load_to_play] {
            let err = load(&path).unwrap_err();
            assert!(err.to_string().contains("temporal coherence"), "{err}");
        }
        for rule in [LearningRule::Td, LearningRule::Coherence] {
            assert_eq!(rule.name().parse::<LearningRule>().unwrap(), rule);
        }
        assert!("sgd".parse::<LearningRule>().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn restarts_replay_kept_boards_and_the_pool_survives_a_checkpoint() {
        let dir = std::env::temp_dir().join(format!("ntuple-restart-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let restarts = Restarts { tile: 256, share: 0.5, capacity: 16 };
        let config = TrainConfig { games: 200, seed: 9, restarts, ..TrainConfig::default() };
        let a = NTupleNetwork::new(Shape::Small);
        let first = a.train(&TrainConfig { games: 120, ..config }, |_| {});
        let pool = a.restart_pool();
        assert_eq!(pool.len(), 16, "the pool fills up to its capacity");
        assert!(pool.iter().all(|b| b.max_tile() >= 256), "kept boards show the tile");
        assert!(first.restarted > 20 && first.restarted < 100, "about half restart: {}", first.restarted);
        let path = dir.join("restarts.bin");
        a.save(&path).unwrap();
        let a = NTupleNetwork::load(&path).unwrap();
        assert_eq!(a.restart_pool(), pool);
        a.train(&TrainConfig { games: 80, ..config }, |_| {});
        // The same 200 games in one go: the same network and the same pool.
        let b = NTupleNetwork::new(Shape::Small);
        b.train(&config, |_| {});
        let board: Board = "2 4 8 16/0 2 4 8/0 0 2 4/0 0 0 2".parse().unwrap();
        assert_eq!(a.value(board).to_bits(), b.value(board).to_bits());
        assert_eq!(a.restart_pool(), b.restart_pool());
        // Without restarts nothing is kept, and nothing restarts.
        let c = NTupleNetwork::new(Shape::Small);
        let plain = c.train(&TrainConfig { restarts: Restarts::NONE, ..config }, |_| {});
        assert!(c.restart_pool().is_empty() && plain.restarted == 0);
        // A pool section that claims more boards than the file has is refused.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 8]).unwrap();
        let err = NTupleNetwork::load(&path).unwrap_err();
        assert!(err.to_string().contains("restart pool"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn as_a_heuristic_it_values_the_final_score_and_one_ply_plays_the_training_move() {
        let network = NTupleNetwork::new(Shape::Small);
        network.train(&TrainConfig { games: 200, seed: 3, ..TrainConfig::default() }, |_| {});
        let mut greedy = crate::agents::Greedy::new(&network);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let rules = Rules::default();
        let mut board = rules.new_board(&mut rng);
        let mut moves = 0;
        while let Some((direction, after, _)) = network.best_move(board) {
            let expected = after.tile_points() as f64 + f64::from(network.value_to_come(after));
            assert_eq!(network.value(after), expected);
            assert_eq!(crate::agents::Agent::decide(&mut greedy, board).direction, direction, "{board}");
            board = rules.spawn(after, &mut rng).unwrap();
            moves += 1;
        }
        assert!(moves > 100, "a whole game: {moves} moves");
        // The lost board is worth its points to a search, not less than every board.
        let eval = crate::evaluation::Evaluation::new(&network);
        let lost = crate::rules::Position::slide(board);
        let value =
            search_core::Evaluator::terminal(&eval, &crate::rules::Game2048::chance(0.1), &lost, 0, 0);
        assert_eq!(value, board.tile_points() as f64);
        assert!(value > 0.0);
    }

    #[test]
    fn stages_learn_apart_and_survive_a_checkpoint() {
        let dir = std::env::temp_dir().join(format!("ntuple-stages-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = TrainConfig {
            games: 150,
            seed: 11,
            learning_rate: 1.0,
            rule: LearningRule::Coherence,
            restarts: Restarts { tile: 256, share: 0.5, capacity: 16 },
            ..TrainConfig::default()
        };
        // Weight promotion: split after 100 games, every board keeps its value.
        let n = Shape::Small.tuples().len();
        let one = NTupleNetwork::new(Shape::Small);
        one.train(&TrainConfig { games: 100, ..config }, |_| {});
        let boards: Vec<Board> = one.restart_pool();
        let low: Board = "2 4 8 16/0 2 4 8/0 0 2 4/0 0 0 2".parse().unwrap();
        let values: Vec<f32> = boards.iter().chain([&low]).map(|&b| one.value_to_come(b)).collect();
        let pool = one.restart_pool();
        // Split twice, once with the sums carried to the second stage.
        let carried = NTupleNetwork::new(Shape::Small);
        carried.train(&TrainConfig { games: 100, ..config }, |_| {});
        let carried = carried.into_stages("256".parse().unwrap(), StepSizes::Carried).unwrap();
        let sums = &carried.coherence().sums;
        for t in 0..n {
            let same = sums[t].iter().zip(sums[n + t].iter());
            assert!(same.clone().all(|(a, b)| a.load(Ordering::Relaxed) == b.load(Ordering::Relaxed)));
        }
        assert!("carried".parse::<StepSizes>().is_ok() && "both".parse::<StepSizes>().is_err());
        let staged = one.into_stages("256".parse().unwrap(), StepSizes::Fresh).unwrap();
        assert_eq!(staged.stages().count(), 2);
        assert_eq!(staged.games_trained(), 100);
        assert_eq!(staged.restart_pool(), pool);
        assert!(boards.iter().all(|&b| staged.stages().of(b) == 1));
        assert_eq!(staged.stages().of(low), 0);
        let promoted: Vec<f32> = boards.iter().chain([&low]).map(|&b| staged.value_to_come(b)).collect();
        assert_eq!(promoted, values);
        // The sums of the first stage came along; the second starts afresh (a staged network
        // that kept training moves the second stage's weights more than the first's).
        assert!(staged.has_coherence());
        let sums = &staged.coherence().sums;
        assert!(sums[0].iter().any(|w| w.load(Ordering::Relaxed) != 0));
        assert!(sums[n..].iter().all(|t| t.iter().all(|w| w.load(Ordering::Relaxed) == 0)));

        // Trained on, from a checkpoint or not, the same network; both stages learn.
        let path = dir.join("staged.bin");
        staged.train(&TrainConfig { games: 20, ..config }, |_| {});
        staged.save(&path).unwrap();
        let resumed = NTupleNetwork::load(&path).unwrap();
        assert_eq!(resumed.stages(), staged.stages());
        resumed.train(&TrainConfig { games: 30, ..config }, |_| {});
        staged.train(&TrainConfig { games: 30, ..config }, |_| {});
        for &b in boards.iter().chain([&low]) {
            assert_eq!(
                resumed.value_to_come(b).to_bits(),
                staged.value_to_come(b).to_bits(),
                "resumed = uninterrupted"
            );
        }
        let changed = |i: usize| {
            (0..n).any(|t| {
                let now = &staged.weights[n * i + t];
                let then = NTupleNetwork::load(&path).unwrap();
                let then = &then.weights[n * i + t];
                now.iter()
                    .zip(then.iter())
                    .any(|(a, b)| a.load(Ordering::Relaxed) != b.load(Ordering::Relaxed))
            })
        };
        assert!(changed(0) && changed(1), "both stages learn");
        // Another split of a staged network is refused; the same one is a no-op.
        let err = NTupleNetwork::load(&path)
            .unwrap()
            .into_stages("512".parse().unwrap(), StepSizes::Fresh)
            .unwrap_err();
        assert!(err.to_string().contains("has stages 256, not 512"), "{err}");
        assert!(
            NTupleNetwork::load(&path)
                .unwrap()
                .into_stages("256".parse().unwrap(), StepSizes::Carried)
                .is_ok()
        );
        // A cut stage header and impossible stages are refused.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..18]).unwrap();
        let err = NTupleNetwork::load(&path).unwrap_err();
        assert!(err.to_string().contains("shorter than its stages"), "{err}");
        let mut bad = bytes.clone();
        bad[18..20].copy_from_slice(&1u16.to_le_bytes());
        std::fs::write(&path, &bad).unwrap();
        let err = NTupleNetwork::load(&path).unwrap_err();
        assert!(err.to_string().contains("impossible stages"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn several_threads_train_one_network() {
        let network = NTupleNetwork::new(Shape::Small);
        let played = std::sync::atomic::AtomicU64::new(0);
        let report = network.train(&TrainConfig { games: 40, threads: 2, ..TrainConfig::default() }, |_| {
            played.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!((report.games, network.games_trained(), played.into_inner()), (40, 40, 40));
        let board: Board = "2 4 8 16/0 2 4 8/0 0 2 4/0 0 0 2".parse().unwrap();
        assert_ne!(network.value(board), 0.0, "the games moved the weights");
    }

    #[test]
    fn save_and_load_round_trip_and_bad_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("ntuple-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let network = NTupleNetwork::new(Shape::Small);
        network.train(&TrainConfig { games: 5, ..TrainConfig::default() }, |_| {});
        let path = dir.join("net.bin");
        network.save(&path).unwrap();
        let loaded = NTupleNetwork::load(&path).unwrap();
        assert_eq!(loaded.games_trained(), 5);
        let board: Board = "2 4 0 0/0 2 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(loaded.value(board), network.value(board));
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(matches!(NTupleNetwork::load(&path), Err(NTupleError::BadFile { .. })));
        std::fs::write(&path, b"not a network at all").unwrap();
        let err = NTupleNetwork::load(&path).unwrap_err();
        assert!(err.to_string().contains("magic"), "{err}");
        assert!(matches!(NTupleNetwork::load(&dir.join("missing")), Err(NTupleError::Io { .. })));
        assert!("huge".parse::<Shape>().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
