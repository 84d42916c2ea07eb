//! A small convolutional move policy: which cell the side to move plays, from the whole board.
//!
//! The learned patterns of [`crate::patterns`] read twelve cells around each candidate; a
//! convolutional network reads as far as its layers reach (one cell per layer), and learns from
//! whole-board targets, such as the visits a search gave each move. MoHex's successors took
//! their largest step this way (Gao, Hayward and Müller, "Move prediction using deep
//! convolutional neural networks in Hex", 2017): a network trained on a search's moves, as the
//! prior of that search, made it much stronger.
//!
//! # The input
//!
//! The board is seen by the side to move as if it connected top to bottom: when White is to
//! move, the board is transposed and the colours swapped, so one network serves both sides.
//! The grid is the board with a frame of one cell: the frame's top and bottom rows are the
//! mover's edges (stones of the mover), its left and right columns the opponent's. Each grid
//! cell has [`PLANES`] inputs: a stone of the mover, a stone of the opponent, an empty board
//! cell, the opponent's last stone. Beyond the grid every input is zero.
//!
//! # The network
//!
//! Layers of hexagonal convolutions (each cell and its six neighbours, seven taps) with ReLU,
//! the first from the planes to [`PolicyNet::channels`] channels, the others channel to
//! channel, then one weight per channel to a logit per cell. The policy is the softmax of the
//! logits over the empty cells. The same weights serve every board size.
//!
//! A second head reads the same last layer: one weight per channel and a bias give each cell
//! a value logit, whose logistic is the mover's win probability after playing there
//! ([`PolicyNet::move_values`]), so that one pass judges every move of a position (the
//! action-value head of Gao, Müller and Hayward's three-head network for MoHex, 2018). It
//! learns from a search's mean result of each root move ([`PolicyNet::learn_with_values`]);
//! a network file of the first version has none, and its values are all ½.
//!
//! # Example
//!
//! ```
//! use hex::net::PolicyNet;
//! use hex::{Cell, HexMove, Position};
//!
//! let net = PolicyNet::random(8, 3, 1);
//! let position = Position::new(5).unwrap().play(HexMove::Place(Cell::new(2, 2))).unwrap();
//! let policy = net.policy(&position, Some(Cell::new(2, 2)));
//! assert_eq!(policy.len(), 24); // one share per empty cell
//! let total: f32 = policy.iter().map(|&(_, p)| p).sum();
//! assert!((total - 1.0).abs() < 1e-4);
//! ```

use std::fmt::Write as _;
use std::path::Path;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

use crate::{Cell, Color, Position};

/// Inputs per grid cell: mover's stone, opponent's stone, empty board cell, opponent's last
/// stone.
pub const PLANES: usize = 4;

/// The seven taps of a hexagonal convolution as (row, column) offsets: the cell and its six
/// neighbours ([`Cell::neighbours`]). Closed under the half turn and the transposition, the
/// board's symmetries.
const TAPS: [(i8, i8); 7] = [(-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0)];

/// A board as the network reads it (see the module docs): the grid's inputs and where each
/// board cell lies on the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct NetInput {
    /// The grid's side: the board's plus two.
    width: usize,
    /// `PLANES` inputs per grid cell, row by row.
    planes: Vec<f32>,
    /// For each board cell by [`Cell::id`], its grid index.
    grid_of: Vec<usize>,
    /// Whether each board cell (by id) is empty.
    empty: Vec<bool>,
}

impl NetInput {
    /// The input of `position` with the opponent's last stone at `last` (if known; a cell
    /// that is not an opponent's stone is ignored), turned by half a turn if `half_turn` (the
    /// board's symmetry that keeps each side's edges: for training on both).
    pub fn new(position: &Position, last: Option<Cell>, half_turn: bool) -> NetInput {
        let board = position.board();
        let n = usize::from(board.size());
        let width = n + 2;
        let me = position.to_move();
        let mut planes = vec![0.0; width * width * PLANES];
        let mut grid_of = vec![0; n * n];
        let mut empty = vec![false; n * n];
        // The mover's edges: the top and bottom rows of the frame; the opponent's: its sides.
        for k in 1..=n {
            for g in [k, (width - 1) * width + k] {
                planes[g * PLANES] = 1.0;
            }
            for g in [k * width, k * width + width - 1] {
                planes[g * PLANES + 1] = 1.0;
            }
        }
        for cell in board.cells() {
            let id = cell.id(board.size());
            // White sees the board transposed, so that it too connects top to bottom.
            let seen = if me == Color::White { cell.transpose() } else { cell };
            let (mut r, mut c) = (usize::from(seen.row), usize::from(seen.col));
            if half_turn {
                (r, c) = (n - 1 - r, n - 1 - c);
            }
            let g = (r + 1) * width + c + 1;
            grid_of[id] = g;
            match board.get(cell) {
                None => {
                    empty[id] = true;
                    planes[g * PLANES + 2] = 1.0;
                }
                Some(colour) if colour == me => planes[g * PLANES] = 1.0,
                Some(_) => {
                    planes[g * PLANES + 1] = 1.0;
                    if last == Some(cell) {
                        planes[g * PLANES + 3] = 1.0;
                    }
                }
            }
        }
        NetInput { width, planes, grid_of, empty }
    }

    /// The grid index of the board cell with id `id`.
    pub fn grid_index(&self, id: usize) -> usize {
        self.grid_of[id]
    }

    /// The board cells by id, with whether each is empty.
    pub fn cells(&self) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.empty.iter().copied().enumerate()
    }
}

/// One hexagonal convolution: `weights[tap][input][output]`, a bias per output.
#[derive(Clone, Debug, PartialEq)]
struct Layer {
    inputs: usize,
    outputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Layer {
    /// A layer with He's initialisation for ReLU, from `rng`.
    fn random(inputs: usize, outputs: usize, rng: &mut Xoshiro256PlusPlus) -> Layer {
        use rand::RngExt;
        let scale = (2.0 / (inputs * TAPS.len()) as f32).sqrt();
        // A sum of uniforms is near enough to a normal draw for a starting point.
        let weights = (0..TAPS.len() * inputs * outputs)
            .map(|_| {
                let u: f32 = (0..4).map(|_| rng.random::<f32>() - 0.5).sum();
                u * scale * 3f32.sqrt()
            })
            .collect();
        Layer { inputs, outputs, weights, bias: vec![0.0; outputs] }
    }

    /// `out = relu(conv(input))` on a `width`-sided grid.
    fn forward(&self, width: usize, input: &[f32], out: &mut Vec<f32>) {
        let (cin, cout) = (self.inputs, self.outputs);
        out.clear();
        out.resize(width * width * cout, 0.0);
        for r in 0..width {
            for c in 0..width {
                let p = r * width + c;
                let acc = &mut out[p * cout..(p + 1) * cout];
                acc.copy_from_slice(&self.bias);
                for (t, &(dr, dc)) in TAPS.iter().enumerate() {
                    let Some(q) = neighbour(width, r, c, dr, dc) else { continue };
                    let x = &input[q * cin..(q + 1) * cin];
                    let w = &self.weights[t * cin * cout..(t + 1) * cin * cout];
                    for (i, &xi) in x.iter().enumerate() {
                        // Inputs after a ReLU are often zero: skip them.
                        if xi != 0.0 {
                            for (a, &wi) in acc.iter_mut().zip(&w[i * cout..(i + 1) * cout]) {
                                *a += xi * wi;
                            }
                        }
                    }
                }
                for a in acc.iter_mut() {
                    *a = a.max(0.0);
                }
            }
        }
    }

    /// Given the layer's `input`, its output `out` (after the ReLU) and the loss's gradient
    /// `d_out` with respect to `out`, adds the weights' gradients to `grad` and, if asked,
    /// writes the gradient with respect to the input into `d_in`.
    fn backward(
        &self,
        width: usize,
        input: &[f32],
        out: &[f32],
        d_out: &mut [f32],
        grad: &mut Layer,
        d_in: Option<&mut Vec<f32>>,
    ) {
        let (cin, cout) = (self.inputs, self.outputs);
        // Through the ReLU.
        for (d, &o) in d_out.iter_mut().zip(out) {
            if o <= 0.0 {
                *d = 0.0;
            }
        }
        let mut d_in = d_in;
        if let Some(d_in) = d_in.as_deref_mut() {
            d_in.clear();
            d_in.resize(width * width * cin, 0.0);
        }
        for r in 0..width {
            for c in 0..width {
                let p = r * width + c;
                let d = &d_out[p * cout..(p + 1) * cout];
                if d.iter().all(|&v| v == 0.0) {
                    continue;
                }
                for (b, &v) in grad.bias.iter_mut().zip(d) {
                    *b += v;
                }
                for (t, &(dr, dc)) in TAPS.iter().enumerate() {
                    let Some(q) = neighbour(width, r, c, dr, dc) else { continue };
                    let x = &input[q * cin..(q + 1) * cin];
                    let base = t * cin * cout;
                    for (i, &xi) in x.iter().enumerate() {
                        let row = base + i * cout..base + (i + 1) * cout;
                        if xi != 0.0 {
                            for (g, &v) in grad.weights[row.clone()].iter_mut().zip(d) {
                                *g += xi * v;
                            }
                        }
                        if let Some(d_in) = d_in.as_deref_mut() {
                            let w = &self.weights[row];
                            d_in[q * cin + i] += w.iter().zip(d).map(|(&wi, &v)| wi * v).sum::<f32>();
                        }
                    }
                }
            }
        }
    }
}

/// The grid index of the neighbour at `(dr, dc)` of `(r, c)`, if on the grid.
fn neighbour(width: usize, r: usize, c: usize, dr: i8, dc: i8) -> Option<usize> {
    let rr = r.checked_add_signed(isize::from(dr)).filter(|&v| v < width)?;
    let cc = c.checked_add_signed(isize::from(dc)).filter(|&v| v < width)?;
    Some(rr * width + cc)
}

/// Why a network file was refused.
#[derive(Debug, Error)]
pub enum NetError {
    /// The file could not be read or written.
    #[error("cannot read or write {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The text is not a network: the line and what is wrong.
    #[error("line {line}: {message}")]
    Format {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// The convolutional move policy (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyNet {
    layers: Vec<Layer>,
    /// The weight of each channel of the last layer in a cell's logit.
    head: Vec<f32>,
    /// The move-value head: the weight of each channel of the last layer in a cell's value
    /// logit, then a bias (see [`PolicyNet::move_values`]). All zero in a network without one.
    values: Vec<f32>,
}

/// The first line of a network file with a move-value head.
const HEADER: &str = "hex-policy-net 2";

/// The first line of a network file without one (read as a network whose values are all ½).
const HEADER_V1: &str = "hex-policy-net 1";

/// The logistic function: a value logit to a win probability.
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A move-value target for [`PolicyNet::learn_with_values`]: a board cell by id, the mover's
/// win probability after playing there, and how much the sample counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueTarget {
    /// The board cell, by [`Cell::id`].
    pub id: usize,
    /// The mover's win probability after playing there, in `[0, 1]`.
    pub value: f32,
    /// The sample's weight in the loss.
    pub weight: f32,
}

impl PolicyNet {
    /// A network of `layers` convolutions (at least 1) of `channels` channels each, its
    /// weights drawn from `seed`: the starting point of training.
    ///
    /// # Panics
    ///
    /// If `layers` or `channels` is 0.
    pub fn random(channels: usize, layers: usize, seed: u64) -> PolicyNet {
        assert!(channels > 0 && layers > 0, "a network needs channels and layers");
        use rand::RngExt;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let layers = (0..layers)
            .map(|k| Layer::random(if k == 0 { PLANES } else { channels }, channels, &mut rng))
            .collect();
        let head = (0..channels).map(|_| (rng.random::<f32>() - 0.5) / channels as f32).collect();
        PolicyNet { layers, head, values: vec![0.0; channels + 1] }
    }

    /// Channels per layer.
    pub fn channels(&self) -> usize {
        self.head.len()
    }

    /// Convolution layers.
    pub fn depth(&self) -> usize {
        self.layers.len()
    }

    /// Weights in all (the biases included).
    pub fn parameters(&self) -> usize {
        self.layers.iter().map(|l| l.weights.len() + l.bias.len()).sum::<usize>()
            + self.head.len()
            + self.values.len()
    }

    /// Whether the network has a trained move-value head (any value weight not zero).
    pub fn has_values(&self) -> bool {
        self.values.iter().any(|&w| w != 0.0)
    }

    /// Each layer's output (after its ReLU) for `input`, the last layer's last.
    fn activations(&self, input: &NetInput) -> Vec<Vec<f32>> {
        let mut outs: Vec<Vec<f32>> = Vec::with_capacity(self.layers.len());
        for layer in &self.layers {
            let mut out = Vec::new();
            layer.forward(input.width, outs.last().map_or(&input.planes, |v| v), &mut out);
            outs.push(out);
        }
        outs
    }

    /// The logit of each board cell (by id) for `input`; only the empty cells' mean anything.
    pub fn logits(&self, input: &NetInput) -> Vec<f32> {
        let outs = self.activations(input);
        let last = outs.last().expect("at least one layer");
        self.cell_logits(input, last)
    }

    /// Each board cell's (by id) value logit from the last layer's output `last`.
    fn value_logits(&self, input: &NetInput, last: &[f32]) -> Vec<f32> {
        let c = self.channels();
        let bias = self.values[c];
        input
            .grid_of
            .iter()
            .map(|&g| {
                last[g * c..(g + 1) * c].iter().zip(&self.values).map(|(a, w)| a * w).sum::<f32>() + bias
            })
            .collect()
    }

    /// The policy and the move values at `position` (the opponent's last stone at `last`, if
    /// known), from one pass of the network: each empty cell in [`Cell::id`] order with its
    /// share of the policy (as [`PolicyNet::policy`]) and the mover's win probability after
    /// playing there (½ everywhere for a network without a move-value head).
    ///
    /// ```
    /// use hex::net::PolicyNet;
    /// use hex::Position;
    ///
    /// let net = PolicyNet::random(4, 2, 1);
    /// let judged = net.evaluate(&Position::new(3).unwrap(), None);
    /// assert_eq!(judged.len(), 9);
    /// assert!(judged.iter().all(|&(_, _, value)| value == 0.5)); // no value head yet
    /// ```
    pub fn evaluate(&self, position: &Position, last: Option<Cell>) -> Vec<(Cell, f32, f32)> {
        let input = NetInput::new(position, last, false);
        let outs = self.activations(&input);
        let top = outs.last().expect("at least one layer");
        let shares = softmax_empty(&input, &self.cell_logits(&input, top));
        let values = self.value_logits(&input, top);
        let size = position.size();
        input
            .cells()
            .filter(|&(_, empty)| empty)
            .map(|(id, _)| (Cell::from_id(id, size), shares[id], sigmoid(values[id])))
            .collect()
    }

    /// The mover's win probability after playing each board cell (by id) of `input`: the
    /// move-value head, trained on a search's root values ([`PolicyNet::learn_with_values`]);
    /// only the empty cells' mean anything.
    pub fn move_values(&self, input: &NetInput) -> Vec<f32> {
        let outs = self.activations(input);
        self.value_logits(input, outs.last().expect("at least one layer")).into_iter().map(sigmoid).collect()
    }

    fn cell_logits(&self, input: &NetInput, last: &[f32]) -> Vec<f32> {
        let c = self.channels();
        input
            .grid_of
            .iter()
            .map(|&g| last[g * c..(g + 1) * c].iter().zip(&self.head).map(|(a, w)| a * w).sum())
            .collect()
    }

    /// The policy at `position` (the opponent's last stone at `last`, if known): each empty
    /// cell with its share, the shares summing to 1, in [`Cell::id`] order.
    pub fn policy(&self, position: &Position, last: Option<Cell>) -> Vec<(Cell, f32)> {
        let input = NetInput::new(position, last, false);
        let logits = self.logits(&input);
        let size = position.size();
        let shares = softmax_empty(&input, &logits);
        input
            .cells()
            .filter(|&(_, empty)| empty)
            .map(|(id, _)| (Cell::from_id(id, size), shares[id]))
            .collect()
    }

    /// The cross-entropy of the policy at `input` against `target` (board cell ids with their
    /// weights, summing to 1, on empty cells), and its gradient added to `grad` (a network of
    /// the same shape, such as [`PolicyNet::zeros_like`]).
    pub fn learn(&self, input: &NetInput, target: &[(usize, f32)], grad: &mut PolicyNet) -> f32 {
        self.learn_with_values(input, target, &[], grad).0
    }

    /// As [`PolicyNet::learn`], and the move-value head learns `values` too: returns the
    /// policy's cross-entropy and the values' weighted cross-entropy (each target a win
    /// probability), both of whose gradients go into `grad`.
    pub fn learn_with_values(
        &self,
        input: &NetInput,
        target: &[(usize, f32)],
        values: &[ValueTarget],
        grad: &mut PolicyNet,
    ) -> (f32, f32) {
        let outs = self.activations(input);
        let c = self.channels();
        let last = outs.last().expect("at least one layer");
        let width = input.width;
        let mut d_out = vec![0.0; width * width * c];
        let mut loss = 0.0;
        if !target.is_empty() {
            let logits = self.cell_logits(input, last);
            let shares = softmax_empty(input, &logits);
            let mut d_logit = shares.clone();
            for &(id, t) in target {
                loss -= t * shares[id].max(1e-30).ln();
                d_logit[id] -= t;
            }
            // The gradient at the last layer's output, through the head.
            for (id, &g) in input.grid_of.iter().enumerate() {
                let d = d_logit[id];
                if d == 0.0 || !input.empty[id] {
                    continue;
                }
                for k in 0..c {
                    grad.head[k] += d * last[g * c + k];
                    d_out[g * c + k] += d * self.head[k];
                }
            }
        }
        let mut value_loss = 0.0;
        if !values.is_empty() {
            let logits = self.value_logits(input, last);
            for t in values {
                let q = sigmoid(logits[t.id]);
                value_loss -=
                    t.weight * (t.value * q.max(1e-7).ln() + (1.0 - t.value) * (1.0 - q).max(1e-7).ln());
                let d = t.weight * (q - t.value);
                let g = input.grid_of[t.id];
                for k in 0..c {
                    grad.values[k] += d * last[g * c + k];
                    d_out[g * c + k] += d * self.values[k];
                }
                grad.values[c] += d;
            }
        }
        let mut d_in = Vec::new();
        for k in (0..self.layers.len()).rev() {
            let input_k = if k == 0 { &input.planes } else { &outs[k - 1] };
            let want = (k > 0).then_some(&mut d_in);
            self.layers[k].backward(width, input_k, &outs[k], &mut d_out, &mut grad.layers[k], want);
            if k > 0 {
                std::mem::swap(&mut d_out, &mut d_in);
            }
        }
        (loss, value_loss)
    }

    /// A network of the same shape with every weight 0: a gradient's accumulator.
    pub fn zeros_like(&self) -> PolicyNet {
        let mut zero = self.clone();
        zero.for_each_weight(|w| *w = 0.0);
        zero
    }

    /// Calls `f` on every weight, in a fixed order.
    fn for_each_weight(&mut self, mut f: impl FnMut(&mut f32)) {
        for layer in &mut self.layers {
            layer.weights.iter_mut().chain(&mut layer.bias).for_each(&mut f);
        }
        self.head.iter_mut().chain(&mut self.values).for_each(f);
    }

    /// Every weight, in the order of [`PolicyNet::set_weights`].
    pub fn weights(&self) -> Vec<f32> {
        let mut all = Vec::with_capacity(self.parameters());
        let mut copy = self.clone();
        copy.for_each_weight(|w| all.push(*w));
        all
    }

    /// Sets every weight from `values` (in the order of [`PolicyNet::weights`]).
    ///
    /// # Panics
    ///
    /// If `values` does not hold [`PolicyNet::parameters`] numbers.
    pub fn set_weights(&mut self, values: &[f32]) {
        assert_eq!(values.len(), self.parameters(), "one value per weight");
        let mut it = values.iter();
        self.for_each_weight(|w| *w = *it.next().expect("counted"));
    }

    /// The network as text: a header, its shape, then every weight.
    pub fn to_text(&self) -> String {
        let mut text = format!("{HEADER}\n{} {}\n", self.channels(), self.depth());
        for w in self.weights() {
            let _ = writeln!(text, "{w:e}");
        }
        text
    }

    /// A network from the text of [`PolicyNet::to_text`].
    ///
    /// # Errors
    ///
    /// [`NetError::Format`] for a wrong header or shape, a number that does not parse, or too
    /// few or too many weights.
    pub fn from_text(text: &str) -> Result<PolicyNet, NetError> {
        let bad = |line: usize, message: String| NetError::Format { line, message };
        let mut lines = text.lines();
        let with_values = match lines.next().map(str::trim) {
            Some(HEADER) => true,
            Some(HEADER_V1) => false,
            other => {
                return Err(bad(
                    1,
                    format!("expected {HEADER:?} or {HEADER_V1:?}, found {:?}", other.unwrap_or("")),
                ));
            }
        };
        let shape = lines.next().ok_or_else(|| bad(2, "expected the channels and layers".into()))?;
        let parts: Vec<usize> = shape
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|e| bad(2, format!("expected the channels and layers, found {shape:?}: {e}")))?;
        let [channels, depth] = parts[..] else {
            return Err(bad(2, format!("expected two numbers, found {shape:?}")));
        };
        if channels == 0 || depth == 0 || channels > 1024 || depth > 64 {
            return Err(bad(2, format!("no network has {channels} channels and {depth} layers here")));
        }
        let mut net = PolicyNet::random(channels, depth, 0);
        let mut values = Vec::with_capacity(net.parameters());
        for (k, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let v: f32 = line.trim().parse().map_err(|e| bad(k + 3, format!("{line:?}: {e}")))?;
            if !v.is_finite() {
                return Err(bad(k + 3, format!("{line:?} is not a finite weight")));
            }
            values.push(v);
        }
        // A first-version file has no move-value head: its weights are all zero.
        let expected = net.parameters() - if with_values { 0 } else { net.values.len() };
        if values.len() != expected {
            return Err(bad(0, format!("expected {expected} weights, found {}", values.len())));
        }
        values.resize(net.parameters(), 0.0);
        net.set_weights(&values);
        Ok(net)
    }

    /// Reads a network file.
    ///
    /// # Errors
    ///
    /// [`NetError::Io`] if the file cannot be read, else as [`PolicyNet::from_text`].
    pub fn read(path: &Path) -> Result<PolicyNet, NetError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| NetError::Io { path: path.display().to_string(), source })?;
        PolicyNet::from_text(&text)
    }

    /// Writes the network to a file.
    ///
    /// # Errors
    ///
    /// [`NetError::Io`] if the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), NetError> {
        std::fs::write(path, self.to_text())
            .map_err(|source| NetError::Io { path: path.display().to_string(), source })
    }
}

/// The softmax of `logits` over the empty cells of `input` (0 elsewhere).
fn softmax_empty(input: &NetInput, logits: &[f32]) -> Vec<f32> {
    let top = logits.iter().zip(&input.empty).filter(|(_, e)| **e).map(|(l, _)| *l).fold(f32::MIN, f32::max);
    let mut shares: Vec<f32> =
        logits.iter().zip(&input.empty).map(|(&l, &e)| if e { (l - top).exp() } else { 0.0 }).collect();
    let total: f32 = shares.iter().sum();
    if total > 0.0 {
        shares.iter_mut().for_each(|s| *s /= total);
    }
    shares
}

/// Adam's optimiser over a network's weights (Kingma and Ba, 2015).
#[derive(Clone, Debug)]
pub struct Adam {
    /// The step size.
    pub rate: f32,
    first: Vec<f32>,
    second: Vec<f32>,
    steps: i32,
}

impl Adam {
    /// An optimiser for `net` with step size `rate`.
    pub fn new(net: &PolicyNet, rate: f32) -> Adam {
        let n = net.parameters();
        Adam { rate, first: vec![0.0; n], second: vec![0.0; n], steps: 0 }
    }

    /// One step of `net` down the mean gradient `grad` (a sum over `batch` samples).
    pub fn step(&mut self, net: &mut PolicyNet, grad: &PolicyNet, batch: usize) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.steps += 1;
        let g = grad.weights();
        let mut w = net.weights();
        let c1 = 1.0 - B1.powi(self.steps);
        let c2 = 1.0 - B2.powi(self.steps);
        let scale = 1.0 / batch.max(1) as f32;
        for (k, wk) in w.iter_mut().enumerate() {
            let gk = g[k] * scale;
            self.first[k] = B1 * self.first[k] + (1.0 - B1) * gk;
            self.second[k] = B2 * self.second[k] + (1.0 - B2) * gk * gk;
            *wk -= self.rate * (self.first[k] / c1) / ((self.second[k] / c2).sqrt() + 1e-8);
        }
        net.set_weights(&w);
    }
}

/// Adds `other`'s weights to `sum`'s, weight by weight (gradients of two halves of a batch).
///
/// # Panics
///
/// If the two differ in shape.
pub fn add_into(sum: &mut PolicyNet, other: &PolicyNet) {
    let b = other.weights();
    let mut a = sum.weights();
    assert_eq!(a.len(), b.len(), "networks of one shape");
    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
    sum.set_weights(&a);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HexMove;

    fn position(moves: &[(u8, u8)], size: u32) -> Position {
        let mut p = Position::new(size).unwrap();
        for &(r, c) in moves {
            p = p.play(HexMove::Place(Cell::new(r, c))).unwrap();
        }
        p
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let mut net = PolicyNet::random(5, 3, 7);
        // A head larger than the starting one, so that every layer's gradient is well above
        // the finite differences' noise.
        net.head.iter_mut().enumerate().for_each(|(k, h)| *h = 0.3 - 0.17 * k as f32);
        net.values.iter_mut().enumerate().for_each(|(k, h)| *h = 0.2 * k as f32 - 0.4);
        let p = position(&[(1, 1), (2, 2), (0, 3)], 4);
        let input = NetInput::new(&p, Some(Cell::new(0, 3)), false);
        let target = [(input_id(&p, 4), 0.7), (input_id(&p, 11), 0.3)];
        let values = [
            ValueTarget { id: input_id(&p, 4), value: 0.9, weight: 1.0 },
            ValueTarget { id: input_id(&p, 7), value: 0.2, weight: 0.5 },
        ];
        let mut grad = net.zeros_like();
        net.learn_with_values(&input, &target, &values, &mut grad);
        let analytic = grad.weights();
        let base = net.weights();
        let loss = |w: &[f32]| {
            let mut n = net.clone();
            n.set_weights(w);
            let mut g = n.zeros_like();
            let (policy, value) = n.learn_with_values(&input, &target, &values, &mut g);
            f64::from(policy + value)
        };
        let mut checked = 0;
        for k in (0..base.len()).step_by(7) {
            let h = 1e-2;
            let (mut up, mut down) = (base.clone(), base.clone());
            up[k] += h;
            down[k] -= h;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * f64::from(h));
            let a = f64::from(analytic[k]);
            assert!((numeric - a).abs() <= 2e-2 * (1.0 + a.abs()), "weight {k}: {numeric} against {a}");
            checked += usize::from(a.abs() > 1e-4);
        }
        assert!(checked > 20, "only {checked} weights had a gradient");
    }

    fn input_id(p: &Position, id: usize) -> usize {
        assert!(p.board().get(Cell::from_id(id, p.size())).is_none());
        id
    }

    #[test]
    fn white_sees_the_board_transposed_with_the_colours_swapped() {
        let net = PolicyNet::random(6, 2, 3);
        let black = position(&[(0, 2), (1, 1)], 4); // Black to move
        let mirrored = Position::from_board(black.board().mirrored(), Color::White);
        let a = net.policy(&black, None);
        let b = net.policy(&mirrored, None);
        for (cell, share) in a {
            let other = b.iter().find(|(c, _)| *c == cell.transpose()).unwrap().1;
            assert!((share - other).abs() < 1e-5, "{cell:?}");
        }
    }

    #[test]
    fn the_text_round_trips_and_bad_text_is_refused() {
        let net = PolicyNet::random(4, 2, 9);
        let back = PolicyNet::from_text(&net.to_text()).unwrap();
        assert_eq!(back, net);
        assert!(PolicyNet::from_text("hex-policy-net 2\n4 2\n").is_err());
        assert!(PolicyNet::from_text("hex-policy-net 3\n4 2\n").is_err());
        // A first-version file (no value head) is read with every value weight zero.
        let mut v1 = net.clone();
        v1.values.iter_mut().for_each(|w| *w = 0.0);
        let old: String = v1.to_text().replacen("hex-policy-net 2", "hex-policy-net 1", 1);
        let old: String =
            old.lines().take(old.lines().count() - v1.values.len()).map(|l| format!("{l}\n")).collect();
        let back = PolicyNet::from_text(&old).unwrap();
        assert_eq!(back, v1);
        assert!(!back.has_values());
        assert!(
            PolicyNet::from_text(&v1.to_text().replacen("hex-policy-net 2", "hex-policy-net 1", 1)).is_err()
        );
        assert!(PolicyNet::from_text("hex-policy-net 1\n4\n").is_err());
        let short: String = net.to_text().lines().take(10).map(|l| format!("{l}\n")).collect();
        assert!(matches!(PolicyNet::from_text(&short), Err(NetError::Format { .. })));
        let nan = net.to_text().replacen("\n0e0\n", "\nNaN\n", 1);
        assert!(PolicyNet::from_text(&nan).is_err());
    }

    #[test]
    fn training_learns_a_fixed_answer() {
        let mut net = PolicyNet::random(8, 2, 5);
        let mut adam = Adam::new(&net, 0.01);
        let p = position(&[(2, 2)], 5);
        let input = NetInput::new(&p, Some(Cell::new(2, 2)), false);
        let answer = Cell::new(1, 2).id(5);
        let before = net.policy(&p, Some(Cell::new(2, 2)));
        for _ in 0..200 {
            let mut grad = net.zeros_like();
            net.learn(&input, &[(answer, 1.0)], &mut grad);
            adam.step(&mut net, &grad, 1);
        }
        let after = net.policy(&p, Some(Cell::new(2, 2)));
        let share = |pol: &[(Cell, f32)]| pol.iter().find(|(c, _)| c.id(5) == answer).unwrap().1;
        assert!(share(&before) < 0.2 && share(&after) > 0.9, "{} → {}", share(&before), share(&after));
    }

    #[test]
    fn the_value_head_learns_each_moves_value() {
        let mut net = PolicyNet::random(8, 2, 6);
        let mut adam = Adam::new(&net, 0.01);
        let p = position(&[(2, 2)], 5);
        let input = NetInput::new(&p, Some(Cell::new(2, 2)), false);
        let (good, bad) = (Cell::new(1, 2).id(5), Cell::new(0, 0).id(5));
        let targets = [
            ValueTarget { id: good, value: 0.9, weight: 1.0 },
            ValueTarget { id: bad, value: 0.1, weight: 1.0 },
        ];
        assert!(!net.has_values());
        for _ in 0..300 {
            let mut grad = net.zeros_like();
            let (policy, _) = net.learn_with_values(&input, &[], &targets, &mut grad);
            assert_eq!(policy, 0.0, "no policy target, no policy loss");
            adam.step(&mut net, &grad, 1);
        }
        assert!(net.has_values());
        let values = net.move_values(&input);
        assert!((values[good] - 0.9).abs() < 0.05 && (values[bad] - 0.1).abs() < 0.05, "{values:?}");
        // evaluate gives the same values beside the policy.
        let judged = net.evaluate(&p, Some(Cell::new(2, 2)));
        let policy = net.policy(&p, Some(Cell::new(2, 2)));
        for ((cell, share, value), (c, s)) in judged.iter().zip(&policy) {
            assert_eq!((cell, share), (c, s));
            assert!((value - values[cell.id(5)]).abs() < 1e-6);
        }
    }
}
