//! Simulation balancing of the six-cell playout weights: [`balance()`].

use rand::RngExt;
use rand::SeedableRng;
use search_core::mcts::McRng;

use super::{EMPTY, HexPlayout, LAST_PLACE, NONE, grid_colour, local_keys, white_view};
use crate::board::{Cell, Position};
use crate::patterns::{LOCAL_CODES, PATTERN_CELLS, PatternCode, PatternWeights, RING_CODES, ring};

/// The largest |log γ| balancing gives a pattern: [`PlayoutPolicy`](super::PlayoutPolicy)
/// keeps γ between 1/1024 and 1024 (whole multiples of 1/1024), and e⁶ ≈ 403 stays inside.
const MAX_LOG_GAMMA: f64 = 6.0;

/// A position whose value is known, for [`balance()`].
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceTarget {
    /// The position; one nobody has won yet (a finished one teaches nothing and is skipped).
    pub position: Position,
    /// The cell of the last stone played, which a bridge reply answers; `None` if unknown.
    pub last: Option<Cell>,
    /// Black's chance to win with perfect play from here: 1 or 0 for a solved position.
    pub black_wins: f64,
}

/// How [`balance()`] runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BalanceConfig {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Playouts in each of the two sets per position and step (at least 2).
    pub playouts: u32,
    /// The step size `α`.
    pub rate: f64,
    /// Playouts per held-out position when the error is measured (at least 1).
    pub judge_playouts: u32,
    /// Whether the playouts answer bridge intrusions, as the engine's do.
    pub bridge_replies: bool,
    /// The seed of the playouts and of the positions' order.
    pub seed: u64,
}

impl Default for BalanceConfig {
    /// Ten passes of 32 + 32 playouts a position at step 0.05, held-out errors from 128
    /// playouts, bridge replies on (the engine's playouts), seed 1.
    fn default() -> Self {
        BalanceConfig {
            epochs: 10,
            playouts: 32,
            rate: 0.05,
            judge_playouts: 128,
            bridge_replies: true,
            seed: 1,
        }
    }
}

/// One pass of [`balance()`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BalanceEpoch {
    /// The pass, from 1.
    pub epoch: u32,
    /// The mean of `(V* − V̂)²` over the training positions, each `V̂` from the first set of
    /// its step (taken as the pass went, before each position's own step).
    pub train_error: f64,
    /// The same over the held-out positions after the pass, from
    /// [`BalanceConfig::judge_playouts`] playouts each; `None` without held-out positions.
    pub held_out_error: Option<f64>,
}

/// What [`balance()`] learned.
#[derive(Clone, Debug, PartialEq)]
pub struct Balanced {
    /// The balanced weights, for [`PlayoutPolicy::new`](super::PlayoutPolicy::new): every
    /// six-cell pattern whose γ is not 1.
    pub weights: PatternWeights,
    /// The balanced answer factors, for [`AnswerFactors::new`](super::AnswerFactors::new):
    /// every local-response code whose factor is not 1; `None` if they were not balanced.
    pub answers: Option<PatternWeights>,
    /// The held-out error of the starting weights; `None` without held-out positions.
    pub start_held_out_error: Option<f64>,
    /// Each pass.
    pub epochs: Vec<BalanceEpoch>,
}

/// Why [`balance()`] or [`playout_error`] cannot run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BalanceError {
    /// The starting weights or answer factors are not in the stones code.
    #[error("playout weights are read in the stones code; these weights are in the edge code")]
    EdgeCode,
    /// A target's value is not a probability.
    #[error("target {index}: Black's chance {value} is not between 0 and 1")]
    BadValue {
        /// The target's place in its list.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// A target's last stone is not a stone of its position.
    #[error("target {index}: the last stone {cell} is not on the board")]
    BadLast {
        /// The target's place in its list.
        index: usize,
        /// The cell named.
        cell: Cell,
    },
    /// No training position is left to learn from.
    #[error("no unfinished training position")]
    NoTargets,
    /// Too few playouts to estimate a mean and a gradient.
    #[error("{0} playouts a set is too few (at least 2)")]
    TooFewPlayouts(u32),
    /// The step size is not a finite positive number.
    #[error("step size {0} is not a positive number")]
    BadRate(f64),
}

/// The weights as a table of `θ = log γ` per canonical ring code, with the per-board-code
/// look-ups the playouts need.
#[derive(Clone)]
struct Table {
    /// Per canonical ring code, log γ.
    theta: Vec<f64>,
    /// Per side (Black, White) and ring code read on the board: the canonical code of the
    /// mover's view.
    index: [Vec<u16>; 2],
    /// Per side and ring code read on the board: γ for that side to move.
    gammas: [Vec<f64>; 2],
    /// The answer factors, if they are balanced too.
    answers: Option<Answers>,
}

/// The answer factors as a table of `φ = log factor` per local-response key, with the
/// per-board-code look-ups the playouts need.
#[derive(Clone)]
struct Answers {
    /// Per local-response key, log factor.
    phi: Vec<f64>,
    /// Per side and `place × RING_CODES + ring code read on the board`: the factor.
    factors: [Vec<f64>; 2],
    /// Per key, the `(side, place × RING_CODES + code)` entries of `factors` it gives.
    entries: Vec<Vec<(u8, u32)>>,
}

impl Answers {
    fn new(start: &PatternWeights) -> Answers {
        let phi: Vec<f64> = (0..LOCAL_CODES as u32).map(|key| f64::from(start.gamma(key)).ln()).collect();
        let mut entries = vec![Vec::new(); LOCAL_CODES];
        for (side, keys) in local_keys().iter().enumerate() {
            for (i, &key) in keys.iter().enumerate() {
                entries[usize::from(key)].push((side as u8, i as u32));
            }
        }
        let len = PATTERN_CELLS * RING_CODES;
        let mut answers = Answers { phi, factors: [vec![1.0; len], vec![1.0; len]], entries };
        let every: Vec<u16> = (0..LOCAL_CODES as u16).collect();
        answers.refresh(&every);
        answers
    }

    /// Reads the factors of these keys again from φ.
    fn refresh(&mut self, keys: &[u16]) {
        for &key in keys {
            let factor = self.phi[usize::from(key)].exp();
            for &(side, i) in &self.entries[usize::from(key)] {
                self.factors[usize::from(side)][i as usize] = factor;
            }
        }
    }

    /// The factors of φ: every key whose factor is not 1.
    fn weights(&self) -> PatternWeights {
        PatternWeights::from_pairs(
            self.phi
                .iter()
                .enumerate()
                .filter(|&(_, &p)| p.abs() > 1e-9)
                .map(|(key, &p)| (key as u32, p.exp() as f32)),
        )
    }
}

impl Table {
    fn new(weights: &PatternWeights, answers: Option<&PatternWeights>) -> Table {
        let theta = (0..RING_CODES as u32).map(|code| f64::from(weights.gamma(code)).ln()).collect();
        let black: Vec<u16> = (0..RING_CODES as u32).map(|code| ring(code) as u16).collect();
        let white: Vec<u16> = (0..RING_CODES as u32).map(|code| ring(white_view(code)) as u16).collect();
        let answers = answers.map(Answers::new);
        let mut table = Table { theta, index: [black, white], gammas: [Vec::new(), Vec::new()], answers };
        table.refresh();
        table
    }

    /// Reads γ again from θ.
    fn refresh(&mut self) {
        for side in 0..2 {
            self.gammas[side] = self.index[side].iter().map(|&c| self.theta[usize::from(c)].exp()).collect();
        }
    }

    /// The weights of θ: every canonical code whose γ is not 1.
    fn weights(&self) -> PatternWeights {
        PatternWeights::from_pairs(
            self.theta
                .iter()
                .enumerate()
                .filter(|&(code, &t)| ring(code as u32) as usize == code && t.abs() > 1e-9)
                .map(|(code, &t)| (code as u32, t.exp() as f32)),
        )
    }
}

/// A playout's `Σ_t ∇θ log π(a_t | s_t)`, per canonical code, with the codes it touched, so
/// that adding it up and clearing it cost what the playout touched rather than every code.
struct Score {
    values: Vec<f64>,
    touched: Vec<u16>,
    seen: Vec<bool>,
}

impl Score {
    fn new(len: usize) -> Score {
        Score { values: vec![0.0; len], touched: Vec::new(), seen: vec![false; len] }
    }

    #[inline]
    fn add(&mut self, code: u16, value: f64) {
        let i = usize::from(code);
        if !self.seen[i] {
            self.seen[i] = true;
            self.touched.push(code);
        }
        self.values[i] += value;
    }

    fn clear(&mut self) {
        for &code in &self.touched {
            self.values[usize::from(code)] = 0.0;
            self.seen[usize::from(code)] = false;
        }
        self.touched.clear();
    }

    /// Adds `weight` times the score into `into` and clears the score.
    fn drain_into(&mut self, weight: f64, into: &mut Score) {
        for &code in &self.touched {
            into.add(code, weight * self.values[usize::from(code)]);
        }
        self.clear();
    }
}

/// The scores of the six-cell weights and of the answer factors.
struct Scores {
    global: Score,
    local: Score,
}

impl Scores {
    fn new() -> Scores {
        Scores { global: Score::new(RING_CODES), local: Score::new(LOCAL_CODES) }
    }

    fn drain_into(&mut self, weight: f64, into: &mut Scores) {
        self.global.drain_into(weight, &mut into.global);
        self.local.drain_into(weight, &mut into.local);
    }

    fn clear(&mut self) {
        self.global.clear();
        self.local.clear();
    }
}

/// Checks the targets and keeps the unfinished ones.
fn usable(targets: &[BalanceTarget]) -> Result<Vec<&BalanceTarget>, BalanceError> {
    for (index, target) in targets.iter().enumerate() {
        if !(0.0..=1.0).contains(&target.black_wins) {
            return Err(BalanceError::BadValue { index, value: target.black_wins });
        }
        if let Some(cell) = target.last {
            let board = target.position.board();
            if !board.contains(cell) || board.get(cell).is_none() {
                return Err(BalanceError::BadLast { index, cell });
            }
        }
    }
    Ok(targets.iter().filter(|t| t.position.winner().is_none()).collect())
}

/// Balances the six-cell playout weights `start` on `train` (Silver and Tesauro, "Monte-Carlo
/// simulation balancing", ICML 2009), measuring the squared error on `held_out` after each
/// pass. The same inputs give the same weights.
///
/// The weights of [`PlayoutPolicy`](super::PlayoutPolicy) were learned to predict the moves of good play, as MoHex
/// 2.0's were. A playout does not need to play well, though: the search only reads its mean
/// result, and a policy that plays well can still be biased (session 61 of `docs/benzene.md` in
/// the repository: our uniform playouts rate a block next to the opponent's stone well below
/// moves across the board). Balancing learns the weights for the mean result directly: on
/// positions whose value the exact solver knows, each step moves the weights along an estimate
/// of the gradient of the squared error between the playouts' mean and that value.
///
/// For a position of value `V*` (1 if Black wins with perfect play, else 0), a first set of
/// playouts gives their mean `V̂`, a second set
/// `g = (1/M) Σ (z − V̂) Σ_t ∇θ log π(a_t | s_t)`, where `z` is a playout's result (1 if Black
/// connected) and the inner sum runs over the moves the weights drew (a bridge reply does not
/// depend on them). Then `θ ← θ + α (V* − V̂) g`. The two sets are independent, so the
/// product estimates the gradient of `−½ (V* − V)²` without bias; `V̂` in `g` is a baseline,
/// which lowers the estimate's variance and does not bias it. `θ` is each six-cell pattern's
/// log γ, seen from the player to move as [`PlayoutPolicy`](super::PlayoutPolicy) reads it,
/// shared by both players.
///
/// The playouts are [`HexPlayout`]'s weighted playouts, bridge replies included: the process
/// the weights are balanced for is the one they play in.
///
/// With `answers` given, the playouts also answer the last move by factors
/// ([`HexPlayout::with_answers`]), and the factors are balanced from these, beside the
/// six-cell weights: each draw is still one log-linear choice, a cell near the opponent's last
/// stone weighted by `γ · e^φ`, so `φ`, the log factor of each local-response code, gets its
/// score the same way. `None`: playouts without answers, only the weights balanced.
///
/// ```
/// use hex::mcts::{BalanceConfig, BalanceTarget, balance};
/// use hex::patterns::PatternWeights;
/// use hex::{Position, play_moves};
///
/// // Black (top to bottom) with a stone on each edge row of a 3x3 board and the middle
/// // cell free: Black to move wins.
/// let (position, cells) = play_moves(3, ["b1", "a2", "b3", "c2"]).unwrap();
/// let target = BalanceTarget { position, last: Some(cells[3]), black_wins: 1.0 };
/// let config = BalanceConfig { epochs: 2, playouts: 8, judge_playouts: 16, ..BalanceConfig::default() };
/// let balanced = balance(&PatternWeights::default(), None, &[target.clone()], &[target], &config).unwrap();
/// assert_eq!(balanced.epochs.len(), 2);
/// assert!(balanced.epochs[1].held_out_error.unwrap() <= 1.0);
/// assert_eq!(balanced.answers, None);
/// ```
pub fn balance(
    start: &PatternWeights,
    answers: Option<&PatternWeights>,
    train: &[BalanceTarget],
    held_out: &[BalanceTarget],
    config: &BalanceConfig,
) -> Result<Balanced, BalanceError> {
    if start.code() != PatternCode::Stones || answers.is_some_and(|a| a.code() != PatternCode::Stones) {
        return Err(BalanceError::EdgeCode);
    }
    if config.playouts < 2 {
        return Err(BalanceError::TooFewPlayouts(config.playouts));
    }
    if !(config.rate.is_finite() && config.rate > 0.0) {
        return Err(BalanceError::BadRate(config.rate));
    }
    let train = usable(train)?;
    let held_out = usable(held_out)?;
    if train.is_empty() {
        return Err(BalanceError::NoTargets);
    }
    let mut table = Table::new(start, answers);
    let mut rng = McRng::seed_from_u64(config.seed);
    let mut playout = HexPlayout::new(config.bridge_replies);
    let judge = |table: &Table, playout: &mut HexPlayout, rng: &mut McRng| {
        (!held_out.is_empty())
            .then(|| mean_error(&held_out, table, config.judge_playouts.max(1), playout, rng))
    };
    let start_held_out_error = judge(&table, &mut playout, &mut rng);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut gradient = Scores::new();
    let mut score = Scores::new();
    let mut epochs = Vec::new();
    for epoch in 1..=config.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let mut error = 0.0;
        for &t in &order {
            let target = train[t];
            let mean = playout_mean(target, &table, config.playouts, &mut playout, &mut rng);
            error += (target.black_wins - mean).powi(2);
            for _ in 0..config.playouts {
                let won = playout.scored_playout(target, &table, &mut rng, Some(&mut score));
                score.drain_into(f64::from(u8::from(won)) - mean, &mut gradient);
            }
            let step = config.rate * (target.black_wins - mean) / f64::from(config.playouts);
            if step != 0.0 {
                for &code in &gradient.global.touched {
                    let theta = &mut table.theta[usize::from(code)];
                    *theta = (*theta + step * gradient.global.values[usize::from(code)])
                        .clamp(-MAX_LOG_GAMMA, MAX_LOG_GAMMA);
                }
                table.refresh();
                if let Some(answers) = table.answers.as_mut() {
                    for &key in &gradient.local.touched {
                        let phi = &mut answers.phi[usize::from(key)];
                        *phi = (*phi + step * gradient.local.values[usize::from(key)])
                            .clamp(-MAX_LOG_GAMMA, MAX_LOG_GAMMA);
                    }
                    answers.refresh(&gradient.local.touched);
                }
            }
            gradient.clear();
        }
        let train_error = error / train.len() as f64;
        let held_out_error = judge(&table, &mut playout, &mut rng);
        epochs.push(BalanceEpoch { epoch, train_error, held_out_error });
    }
    let answers = table.answers.as_ref().map(Answers::weights);
    Ok(Balanced { weights: table.weights(), answers, start_held_out_error, epochs })
}

/// The mean of `(V* − V̂)²` over the unfinished `targets`, each `V̂` the mean result of
/// `playouts` weighted playouts with `weights` ([`PlayoutPolicy::new`](super::PlayoutPolicy::new)'s
/// draw, as exact numbers rather than whole multiples of 1/1024) and, if given, the factors
/// of `answers` ([`HexPlayout::with_answers`]), seeded by `seed`; 0 if none is unfinished.
///
/// ```
/// use hex::mcts::{BalanceTarget, playout_error};
/// use hex::patterns::PatternWeights;
/// use hex::play_moves;
///
/// // White (left to right) holds b2 and c2, and b2 touches the left edge's a2 and a3: Black
/// // to move cannot take both, so White wins. Random playouts let Black take both now and
/// // then, so their mean is off the value.
/// let (position, cells) = play_moves(3, ["a1", "b2", "c3", "c2"]).unwrap();
/// let target = BalanceTarget { position, last: Some(cells[3]), black_wins: 0.0 };
/// let error = playout_error(&PatternWeights::default(), None, &[target], 64, 1, true).unwrap();
/// assert!(error > 0.0 && error < 1.0);
/// ```
pub fn playout_error(
    weights: &PatternWeights,
    answers: Option<&PatternWeights>,
    targets: &[BalanceTarget],
    playouts: u32,
    seed: u64,
    bridge_replies: bool,
) -> Result<f64, BalanceError> {
    if weights.code() != PatternCode::Stones || answers.is_some_and(|a| a.code() != PatternCode::Stones) {
        return Err(BalanceError::EdgeCode);
    }
    let targets = usable(targets)?;
    if targets.is_empty() {
        return Ok(0.0);
    }
    let table = Table::new(weights, answers);
    let mut rng = McRng::seed_from_u64(seed);
    Ok(mean_error(&targets, &table, playouts.max(1), &mut HexPlayout::new(bridge_replies), &mut rng))
}

fn mean_error(
    targets: &[&BalanceTarget],
    table: &Table,
    playouts: u32,
    playout: &mut HexPlayout,
    rng: &mut McRng,
) -> f64 {
    let total: f64 = targets
        .iter()
        .map(|target| (target.black_wins - playout_mean(target, table, playouts, playout, rng)).powi(2))
        .sum();
    total / targets.len() as f64
}

/// Black's share of wins over `playouts` weighted playouts from the target.
fn playout_mean(
    target: &BalanceTarget,
    table: &Table,
    playouts: u32,
    playout: &mut HexPlayout,
    rng: &mut McRng,
) -> f64 {
    let wins = (0..playouts).filter(|_| playout.scored_playout(target, table, rng, None)).count();
    wins as f64 / f64::from(playouts)
}

impl HexPlayout {
    /// One playout from the target's position, drawing every move that is not a bridge reply
    /// in proportion to the table's γ (times the answer factors of the cells around the last
    /// stone, if the table has them), and with `score`, adding each drawn move's
    /// `∇ log π(a | s)` to it (per canonical code and per local-response key: 1 for the drawn
    /// cell's, less each empty cell's chance for its own). Whether Black connected.
    fn scored_playout(
        &mut self,
        target: &BalanceTarget,
        table: &Table,
        rng: &mut McRng,
        mut score: Option<&mut Scores>,
    ) -> bool {
        let position = &target.position;
        let size = position.size();
        self.prepare(size);
        let board = position.board();
        self.grid.clear();
        self.grid.extend(board.cells().map(|cell| board.get(cell).map_or(EMPTY, grid_colour)));
        self.read_codes();
        let cells = self.grid.len();
        // Per cell, its answer factor for the current draw (1 away from the last stone).
        let mut factor = vec![1.0; cells];
        let keys = local_keys();
        let mut last = target.last.map(|cell| cell.id(size) as u16);
        let mut me = position.to_move();
        for _ in 0..board.empty_cells().count() {
            let side = usize::from(me.index());
            let reply = match last {
                Some(intruder) if self.bridge_replies => self.bridge_reply(intruder, grid_colour(me), rng),
                _ => None,
            };
            let cell = match reply {
                Some(cell) => cell,
                None => {
                    // The empty cells near the last stone with their keys and factors.
                    let mut near = [(NONE, 0u16); PATTERN_CELLS];
                    if let (Some(answers), Some(last)) = (table.answers.as_ref(), last) {
                        for (k, &c) in self.around[usize::from(last)].iter().enumerate() {
                            if c == NONE || self.grid[usize::from(c)] != EMPTY {
                                continue;
                            }
                            let i = LAST_PLACE[k] * RING_CODES + usize::from(self.codes[usize::from(c)]);
                            factor[usize::from(c)] = answers.factors[side][i];
                            near[k] = (c, keys[side][i]);
                        }
                    }
                    let gammas = &table.gammas[side];
                    let index = &table.index[side];
                    let weight = |id: usize, codes: &[u16]| gammas[usize::from(codes[id])] * factor[id];
                    let total: f64 = (0..cells)
                        .filter(|&id| self.grid[id] == EMPTY)
                        .map(|id| weight(id, &self.codes))
                        .sum();
                    let mut x = rng.random_range(0.0..total);
                    let mut chosen = NONE;
                    let mut fallback = NONE;
                    for id in 0..cells {
                        if self.grid[id] != EMPTY {
                            continue;
                        }
                        let w = weight(id, &self.codes);
                        if let Some(score) = score.as_deref_mut() {
                            score.global.add(index[usize::from(self.codes[id])], -w / total);
                        }
                        fallback = id as u16;
                        if chosen == NONE {
                            if x < w {
                                chosen = id as u16;
                            } else {
                                x -= w;
                            }
                        }
                    }
                    // Rounding can leave the draw past the last cell: it is the last cell's.
                    let chosen = if chosen == NONE { fallback } else { chosen };
                    if let Some(score) = score.as_deref_mut() {
                        for (c, key) in near.into_iter().filter(|&(c, _)| c != NONE) {
                            let w = weight(usize::from(c), &self.codes);
                            score.local.add(key, if c == chosen { 1.0 } else { 0.0 } - w / total);
                        }
                        score.global.add(index[usize::from(self.codes[usize::from(chosen)])], 1.0);
                    }
                    for (c, _) in near.into_iter().filter(|&(c, _)| c != NONE) {
                        factor[usize::from(c)] = 1.0;
                    }
                    chosen
                }
            };
            self.place(cell, grid_colour(me), None, true);
            last = Some(cell);
            me = me.opponent();
        }
        self.black_connects()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, HexMove};
    use crate::play_moves;

    /// Black's exact chance to win from `position` after the stone at `last` when every move
    /// is drawn by the table's γ and, if it has them, the answer factors of the cells around
    /// the last stone, read by [`crate::patterns::local`] (no bridge replies): the sum over
    /// every order of the empty cells, by recursion.
    fn exact(position: &Position, last: Option<Cell>, table: &Table) -> f64 {
        if let Some(winner) = position.winner() {
            return f64::from(u8::from(winner == Color::Black));
        }
        let board = position.board();
        let empty: Vec<Cell> = board.empty_cells().collect();
        if empty.is_empty() {
            unreachable!("a full board has a winner");
        }
        let side = usize::from(position.to_move().index());
        let weight = |cell: Cell| {
            let gamma = table.gammas[side][ring_code(position, cell) as usize];
            let key = last.and_then(|last| crate::patterns::local(position, cell, last));
            match (table.answers.as_ref(), key) {
                (Some(answers), Some(key)) => gamma * answers.phi[key as usize].exp(),
                _ => gamma,
            }
        };
        let total: f64 = empty.iter().map(|&c| weight(c)).sum();
        empty
            .iter()
            .map(|&c| weight(c) / total * exact(&position.play(HexMove::Place(c)).unwrap(), Some(c), table))
            .sum()
    }

    /// A table of uneven weights, and with `answers` uneven answer factors too, so that the
    /// draw is far from uniform.
    fn uneven(answers: bool) -> Table {
        let none = PatternWeights::default();
        let mut table = Table::new(&none, answers.then_some(&none));
        for (code, t) in table.theta.iter_mut().enumerate() {
            *t = ((code * 7919) % 11) as f64 / 5.0 - 1.0;
        }
        table.refresh();
        if let Some(answers) = table.answers.as_mut() {
            for (key, phi) in answers.phi.iter_mut().enumerate() {
                *phi = ((key * 104_729) % 13) as f64 / 4.0 - 1.5;
            }
            let all: Vec<u16> = (0..LOCAL_CODES as u16).collect();
            answers.refresh(&all);
        }
        table
    }

    /// The ring code of an empty cell as the playouts read it, computed afresh: place `k` of
    /// the ring holds 0 empty, 1 a Black stone or the top or bottom edge, 2 a White stone or a
    /// side edge, 3 beyond a corner.
    fn ring_code(position: &Position, cell: Cell) -> u32 {
        let n = i32::from(position.size());
        let (r, c) = (i32::from(cell.row), i32::from(cell.col));
        super::super::RING.iter().enumerate().fold(0, |code, (k, &(dr, dc))| {
            let (r, c) = (r + i32::from(dr), c + i32::from(dc));
            let state = match ((0..n).contains(&r), (0..n).contains(&c)) {
                (true, true) => match position.board().get(Cell::new(r as u8, c as u8)) {
                    None => 0,
                    Some(Color::Black) => 1,
                    Some(Color::White) => 2,
                },
                (false, true) => 1,
                (true, false) => 2,
                (false, false) => 3,
            };
            code | state << (2 * k)
        })
    }

    fn target(moves: &[&str], black_wins: f64) -> BalanceTarget {
        let (position, cells) = play_moves(3, moves.iter().copied()).unwrap();
        BalanceTarget { position, last: cells.last().copied(), black_wins }
    }

    #[test]
    fn the_playouts_draw_as_the_exact_process_does() {
        for (answers, moves) in [(false, &["b2"][..]), (true, &["b2"][..]), (true, &["a1", "c2"][..])] {
            let table = uneven(answers);
            let t = target(moves, 0.0);
            let want = exact(&t.position, t.last, &table);
            let mut rng = McRng::seed_from_u64(5);
            let mut playout = HexPlayout::new(false);
            let n = 40_000;
            let got = playout_mean(&t, &table, n, &mut playout, &mut rng);
            let sigma = (want * (1.0 - want) / f64::from(n)).sqrt();
            assert!(
                (got - want).abs() < 5.0 * sigma,
                "{moves:?}, answers {answers}: playouts {got}, exact {want}"
            );
        }
    }

    /// The engine's playouts with these weights and factors ([`HexPlayout::with_policy`],
    /// [`HexPlayout::with_answers`]) draw as the balanced process does: their mean is the
    /// exact value of the table they were written from.
    #[test]
    fn the_engine_plays_the_balanced_process() {
        use crate::mcts::{AnswerFactors, PlayoutPolicy};
        use crate::rules::HexGame;
        use search_core::mcts::Playout;
        use std::sync::Arc;

        let table = uneven(true);
        let (weights, answers) = (table.weights(), table.answers.as_ref().unwrap().weights());
        for moves in [&["b2"][..], &["a1", "c2"][..]] {
            let t = target(moves, 0.0);
            let want = exact(&t.position, t.last, &table);
            let mut playout = HexPlayout::new(false)
                .with_policy(Arc::new(PlayoutPolicy::new(&weights)))
                .with_answers(Arc::new(AnswerFactors::new(&answers)));
            let mut rng = McRng::seed_from_u64(7);
            let last = (t.position.to_move().opponent().index(), HexMove::Place(t.last.unwrap()));
            let n = 40_000;
            let mut black = 0.0;
            for _ in 0..n {
                let mut trace = vec![last];
                black += playout.playout(&HexGame::new(3), &t.position, &mut rng, &mut trace)[0];
            }
            let got = black / f64::from(n);
            let sigma = (want * (1.0 - want) / f64::from(n)).sqrt();
            assert!((got - want).abs() < 5.0 * sigma + 1e-3, "{moves:?}: engine {got}, exact {want}");
        }
    }

    /// The answers change the exact value, so the tests above can tell the factors from none.
    #[test]
    fn the_answer_factors_change_the_exact_value() {
        let t = target(&["a1", "c2"], 0.0);
        let (plain, answered) =
            (exact(&t.position, t.last, &uneven(false)), exact(&t.position, t.last, &uneven(true)));
        assert!((plain - answered).abs() > 0.03, "{plain} against {answered}");
    }

    #[test]
    fn the_score_estimates_the_gradient_of_the_exact_value() {
        let table = uneven(true);
        // Six empty cells: the exact value sums 720 orders.
        let t = target(&["a1", "b2", "c3"], 0.0);
        let mut rng = McRng::seed_from_u64(9);
        let mut playout = HexPlayout::new(false);
        let n = 20_000;
        let mut score = Scores::new();
        type Sums = std::collections::HashMap<u16, (f64, f64)>;
        let (mut global, mut local) = (Sums::new(), Sums::new());
        let add = |sums: &mut Sums, score: &Score, z: f64| {
            for &code in &score.touched {
                let v = z * score.values[usize::from(code)];
                let entry = sums.entry(code).or_default();
                entry.0 += v;
                entry.1 += v * v;
            }
        };
        for _ in 0..n {
            let z = f64::from(u8::from(playout.scored_playout(&t, &table, &mut rng, Some(&mut score))));
            add(&mut global, &score.global, z);
            add(&mut local, &score.local, z);
            score.clear();
        }
        // The eight patterns and the eight answer keys whose scores vary most, each against a
        // finite difference of the exact value.
        for (answers, sums) in [(false, global), (true, local)] {
            let mut codes: Vec<(u16, (f64, f64))> = sums.into_iter().collect();
            codes.sort_by(|a, b| b.1.1.total_cmp(&a.1.1).then(a.0.cmp(&b.0)));
            codes.truncate(8);
            assert_eq!(codes.len(), 8, "answers {answers}");
            for (code, (sum, sum_sq)) in codes {
                let code = usize::from(code);
                if !answers {
                    assert_eq!(ring(code as u32) as usize, code, "scores go to canonical codes only");
                }
                let mean = sum / f64::from(n);
                let sigma = ((sum_sq / f64::from(n) - mean * mean) / f64::from(n)).sqrt();
                let h = 1e-4;
                let at = |delta: f64| {
                    let mut moved = table.clone();
                    match moved.answers.as_mut().filter(|_| answers) {
                        Some(a) => {
                            a.phi[code] += delta;
                            a.refresh(&[code as u16]);
                        }
                        None => {
                            moved.theta[code] += delta;
                            moved.refresh();
                        }
                    }
                    exact(&t.position, t.last, &moved)
                };
                let derivative = (at(h) - at(-h)) / (2.0 * h);
                assert!(
                    (mean - derivative).abs() < 5.0 * sigma + 1e-3,
                    "answers {answers}, code {code:04x}: estimate {mean} ± {sigma}, exact {derivative}"
                );
            }
        }
    }

    #[test]
    fn balancing_brings_the_playouts_toward_the_known_values() {
        // Positions of a 3x3 board with their exact values, won for Black or for White.
        let wins = [
            target(&["b1", "a2", "b3", "c2"], 1.0),
            target(&["a1", "b2", "c3", "c2"], 0.0),
            target(&["c1", "a2"], 1.0),
            target(&["b2", "a1", "a3"], 1.0),
        ];
        let config = BalanceConfig {
            epochs: 20,
            playouts: 16,
            rate: 0.5,
            judge_playouts: 200,
            bridge_replies: true,
            seed: 3,
        };
        let none = PatternWeights::default();
        let before = playout_error(&none, None, &wins, 2000, 4, true).unwrap();
        // The weights alone, then the weights and the answer factors together.
        for answers in [None, Some(&none)] {
            let balanced = balance(&none, answers, &wins, &wins[..1], &config).unwrap();
            assert_eq!(balanced.epochs.len(), 20);
            assert!(
                balanced.start_held_out_error.is_some()
                    && balanced.epochs.iter().all(|e| e.held_out_error.is_some())
            );
            assert_eq!(balanced.answers.is_some(), answers.is_some());
            assert!(balanced.answers.as_ref().is_none_or(|a| !a.is_empty()), "the factors moved");
            let after =
                playout_error(&balanced.weights, balanced.answers.as_ref(), &wins, 2000, 4, true).unwrap();
            assert!(
                after < 0.8 * before,
                "answers {}: error {before} before, {after} after",
                answers.is_some()
            );
        }
    }

    #[test]
    fn the_same_inputs_give_the_same_weights() {
        let targets = [target(&["b1", "a2", "b3", "c2"], 1.0), target(&["c1", "a2"], 1.0)];
        let config = BalanceConfig {
            epochs: 3,
            playouts: 8,
            rate: 0.5,
            judge_playouts: 16,
            bridge_replies: true,
            seed: 11,
        };
        let once = balance(&PatternWeights::default(), None, &targets, &targets, &config).unwrap();
        assert_eq!(once, balance(&PatternWeights::default(), None, &targets, &targets, &config).unwrap());
        assert!(!once.weights.is_empty(), "three passes moved some weights");
        let other = BalanceConfig { seed: 12, ..config };
        assert_ne!(once, balance(&PatternWeights::default(), None, &targets, &targets, &other).unwrap());
    }

    #[test]
    fn bad_inputs_are_refused() {
        let good = target(&["b2"], 1.0);
        let config = BalanceConfig::default();
        let mut bad = good.clone();
        bad.black_wins = 1.5;
        assert_eq!(
            balance(&PatternWeights::default(), None, &[bad], &[], &config),
            Err(BalanceError::BadValue { index: 0, value: 1.5 })
        );
        let mut bad = good.clone();
        bad.last = Some(Cell::new(0, 0));
        assert!(matches!(
            balance(&PatternWeights::default(), None, &[bad], &[], &config),
            Err(BalanceError::BadLast { .. })
        ));
        let few = BalanceConfig { playouts: 1, ..config };
        assert_eq!(
            balance(&PatternWeights::default(), None, std::slice::from_ref(&good), &[], &few),
            Err(BalanceError::TooFewPlayouts(1))
        );
        let rate = BalanceConfig { rate: f64::NAN, ..config };
        assert!(matches!(
            balance(&PatternWeights::default(), None, std::slice::from_ref(&good), &[], &rate),
            Err(BalanceError::BadRate(_))
        ));
        let (done, _) = play_moves(2, ["a1", "b1", "a2"]).unwrap();
        assert!(done.winner().is_some());
        let finished = BalanceTarget { position: done, last: None, black_wins: 1.0 };
        assert_eq!(
            balance(&PatternWeights::default(), None, &[finished], &[], &config),
            Err(BalanceError::NoTargets)
        );
    }
}
