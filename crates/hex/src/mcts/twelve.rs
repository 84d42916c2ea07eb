//! Playouts weighted by each empty cell's twelve-cell pattern, as MoHex 2.0's playouts are.
//!
//! The six-cell weights of [`PlayoutPolicy`] see a cell's neighbours only. They miss what the
//! bridge cells show: a cell whose bridge partner is the opponent's stone on the player's own
//! edge, the carrier of an edge template, a cell two rows from a stone that blocks it. MoHex
//! reads the full twelve cells ([`crate::patterns::pattern`]) for every empty cell, keeps each
//! cell's weight for both players as the board fills (a stone changes the patterns of the twelve
//! cells around it only), and answers the last move with a second weight of the same patterns
//! for the cells around the opponent's last stone. [`TwelvePolicy`] holds both weights;
//! [`HexPlayout::with_twelve`] plays with them.

use std::collections::BTreeSet;
use std::sync::Arc;

use rand::RngExt;
use search_core::Player;
use search_core::mcts::{self, McRng, Rewards};

use super::{EMPTY, HexPlayout, LAST_PLACE, NONE, code_of, grid_colour};
use crate::board::{Cell, Color, HexMove, Position};
use crate::patterns::{PATTERN_CELLS, PatternCode, PatternWeights, half_turn};

/// The whole-number weight of a pattern of strength 1: strengths as small as MoHex's weights for
/// dead cells (10⁻⁴) keep a weight of their own, and a 13×13 board's sum stays within `u32`.
const TWELVE_UNIT: f32 = 65_536.0;

/// The largest global weight (γ = 256): 169 cells of it still sum within `u32`.
const MAX_GLOBAL: f32 = 16_777_216.0;

/// The largest answer weight (γ = 16,384); the answers are summed in `u64`.
const MAX_LOCAL: f32 = 1_073_741_824.0;

/// An empty slot's code (pattern codes use 24 bits).
const NO_CODE: u32 = u32::MAX;

/// Per place `k` of a pattern, the place it goes to when the board is mirrored in its long
/// diagonal (White's view): the neighbours `k → 5 − k`, the bridge cells `6 ↔ 10`, `7 ↔ 9`.
const TRANSPOSED: [usize; PATTERN_CELLS] = [5, 4, 3, 2, 1, 0, 10, 9, 8, 7, 6, 11];

/// The weights of a cell whose pattern reads `code` from Black's view: for Black to move and
/// for White (whose view is the board mirrored, the colours swapped), so that one look-up
/// serves both players.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    code: u32,
    global: [u32; 2],
    local: [u32; 2],
}

/// The weights by which twelve-cell playouts ([`HexPlayout::with_twelve`]) draw their cells.
///
/// Each pattern code ([`crate::patterns::pattern`]: the cell's twelve cells seen from the player
/// to move) has a **global** weight, the cell's chance anywhere on the board, and an **answer**
/// weight, added when the cell is one of the twelve around the opponent's last stone: a move
/// draws among the answers with probability `answers / (answers + global)`, the sums taken over
/// the answer cells and over the whole board. MoHex 2.0's playouts draw this way, and about half
/// of their moves are answers. A code the global table does not hold has strength 1 (as
/// [`PatternWeights::gamma`] says); a code the answer table does not hold adds nothing.
///
/// # Examples
///
/// ```
/// use hex::mcts::TwelvePolicy;
/// use hex::patterns::{PatternWeights, pattern};
/// use hex::{Cell, Position};
///
/// let start = Position::new(7).unwrap();
/// let centre = pattern(&start, Cell::new(3, 3));
/// let global = PatternWeights::from_pairs([(centre, 0.5)]);
/// let answers = PatternWeights::from_pairs([(centre, 20.0)]);
/// let policy = TwelvePolicy::new(&global, Some(&answers));
/// let (g, a) = policy.weights(centre);
/// assert_eq!(a, 40 * g);
/// // A pattern neither table holds: strength 1, no answer weight.
/// assert_eq!(policy.weights(pattern(&start, Cell::new(0, 0))), (2 * g, 0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TwelvePolicy {
    /// Open addressing by code; an empty slot holds the weights of an absent code.
    slots: Vec<Slot>,
    /// `64 − log2(slots.len())`.
    shift: u32,
}

impl TwelvePolicy {
    /// The policy of these global strengths and, if given, answer strengths (both by
    /// [`crate::patterns::pattern`] code).
    ///
    /// # Panics
    /// If a table is not in [`PatternCode::Stones`]: the playouts keep every cell's code in
    /// that code as the board fills. (`param_hex playout_table` and `playout_answers` refuse
    /// such a file with an error.)
    pub fn new(global: &PatternWeights, answers: Option<&PatternWeights>) -> TwelvePolicy {
        for table in std::iter::once(global).chain(answers) {
            assert_eq!(
                table.code(),
                PatternCode::Stones,
                "twelve-cell playouts read patterns in the stones code"
            );
        }
        // A code read from Black's view is White's code `canonical(white_view(code))`: the
        // table holds every code the files name as either.
        let codes: BTreeSet<u32> = global
            .pairs()
            .map(|(code, _)| code)
            .chain(answers.into_iter().flat_map(|a| a.pairs().map(|(code, _)| code)))
            .flat_map(|code| [code, canonical(white_view(code))])
            .collect();
        let global_weight =
            |code: u32| (global.gamma(code) * TWELVE_UNIT).round().clamp(1.0, MAX_GLOBAL) as u32;
        let local_weight = |code: u32| {
            let gamma = answers.and_then(|a| a.get(code)).unwrap_or(0.0);
            (gamma * TWELVE_UNIT).round().clamp(0.0, MAX_LOCAL) as u32
        };
        let one = (TWELVE_UNIT as u32).min(MAX_GLOBAL as u32);
        let absent = Slot { code: NO_CODE, global: [one; 2], local: [0; 2] };
        // Codes whose weights are those of an absent code stay out: a smaller table stays in
        // the cache, and the look-ups are most of a twelve-cell playout's cost.
        let codes: Vec<u32> = codes
            .into_iter()
            .filter(|&code| {
                let white = canonical(white_view(code));
                let weights =
                    ([global_weight(code), global_weight(white)], [local_weight(code), local_weight(white)]);
                weights != (absent.global, absent.local)
            })
            .collect();
        let capacity = (codes.len() * 2).next_power_of_two().max(16);
        let mut policy =
            TwelvePolicy { slots: vec![absent; capacity], shift: 64 - capacity.trailing_zeros() };
        for code in codes {
            let white = canonical(white_view(code));
            let slot = policy.slot(code);
            policy.slots[slot] = Slot {
                code,
                global: [global_weight(code), global_weight(white)],
                local: [local_weight(code), local_weight(white)],
            };
        }
        policy
    }

    /// The slot holding `code`, or the empty slot where it would go.
    fn slot(&self, code: u32) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = ((u64::from(code).wrapping_mul(0x9E37_79B9_7F4A_7C15)) >> self.shift) as usize;
        loop {
            let here = self.slots[i].code;
            if here == code || here == NO_CODE {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The global and the answer weight of pattern `code` (as [`crate::patterns::pattern`]
    /// gives it), in units of 1/65,536 of a strength of 1.
    pub fn weights(&self, code: u32) -> (u32, u32) {
        let slot = self.slots[self.slot(code)];
        (slot.global[0], slot.local[0])
    }

    /// The slot of a raw code read on the board from Black's view, not yet canonical.
    fn read(&self, raw: u32) -> Slot {
        self.slots[self.slot(canonical(raw))]
    }
}

/// The code of a pattern or its half turn, whichever is smaller (as
/// [`crate::patterns::pattern`] gives it).
fn canonical(raw: u32) -> u32 {
    raw.min(half_turn(raw))
}

/// A pattern state with Black's and White's stones swapped (empty and off a corner stay).
fn swapped(state: u32) -> u32 {
    match state {
        1 => 2,
        2 => 1,
        other => other,
    }
}

/// A raw code read from Black's view (board colours: 1 Black, 2 White) as White sees it: the
/// board mirrored in its long diagonal, the colours swapped.
fn white_view(black: u32) -> u32 {
    (0..PATTERN_CELLS).fold(0, |view, k| view | (swapped((black >> (2 * TRANSPOSED[k])) & 3) << (2 * k)))
}

impl HexPlayout {
    /// The same playouts drawn by twelve-cell pattern weights ([`TwelvePolicy`]), instead of the
    /// six-cell weights or the local answers of [`HexPlayout::with_policy`] and
    /// [`HexPlayout::with_local`] (bridge replies, if on, still come first).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rand::SeedableRng;
    /// use search_core::mcts::{McRng, Playout};
    /// use hex::mcts::{HexPlayout, TwelvePolicy};
    /// use hex::patterns::PatternWeights;
    /// use hex::{HexGame, Position};
    ///
    /// let table = PatternWeights::from_pairs([(0, 2.0)]);
    /// let policy = TwelvePolicy::new(&table, Some(&table));
    /// let mut playout = HexPlayout::new(true).with_twelve(Arc::new(policy));
    /// let mut trace = Vec::new();
    /// let start = Position::new(9).unwrap();
    /// let rewards = playout.playout(&HexGame::new(9), &start, &mut McRng::seed_from_u64(3), &mut trace);
    /// assert_eq!(rewards[0] + rewards[1], 1.0);
    /// assert_eq!(trace.len(), 81);
    /// ```
    pub fn with_twelve(self, policy: Arc<TwelvePolicy>) -> Self {
        HexPlayout { twelve: Some(policy), ..self }
    }

    /// Reads every empty cell's code and both players' weights from the grid.
    fn weigh_twelve(&mut self, policy: &TwelvePolicy) {
        let n = usize::from(self.size);
        self.views.clear();
        self.views.resize(n * n, 0);
        for side in 0..2 {
            self.answer_weights[side].clear();
            self.answer_weights[side].resize(n * n, 0);
        }
        self.clear_weights();
        for id in 0..n * n {
            if self.grid[id] != EMPTY {
                continue;
            }
            self.views[id] = code_of(&self.grid, self.edge_twelve[id], &self.around[id]);
            self.reweigh_twelve(id, policy);
        }
    }

    /// Puts a stone of grid colour `colour` on the empty `cell` and re-reads the patterns of
    /// the twelve cells around it.
    fn place_twelve(&mut self, cell: u16, colour: u8, policy: &TwelvePolicy) {
        let id = usize::from(cell);
        self.grid[id] = colour;
        self.set_weights(id, [0, 0]);
        let around = self.around[id];
        for (k, &m) in around.iter().enumerate() {
            let m = usize::from(m);
            if m == usize::from(NONE) || self.grid[m] != EMPTY {
                continue;
            }
            // The new stone is at place `LAST_PLACE[k]` of its neighbour's pattern.
            self.views[m] |= u32::from(colour) << (2 * LAST_PLACE[k]);
            self.reweigh_twelve(m, policy);
        }
    }

    /// Reads the weights of the empty cell `id` from its kept code.
    fn reweigh_twelve(&mut self, id: usize, policy: &TwelvePolicy) {
        let slot = policy.read(self.views[id]);
        self.answer_weights[0][id] = slot.local[0];
        self.answer_weights[1][id] = slot.local[1];
        self.set_weights(id, slot.global);
    }

    /// An answer among the twelve cells around the opponent's last stone `last`, drawn by the
    /// cells' answer weights for `side` against the global weights of the whole board; `None`
    /// if the draw falls on the board.
    fn twelve_reply(&self, last: u16, side: usize, rng: &mut McRng) -> Option<u16> {
        let mut cells = [NONE; PATTERN_CELLS];
        let mut weights = [0u64; PATTERN_CELLS];
        let mut total = 0u64;
        for (k, &cell) in self.around[usize::from(last)].iter().enumerate() {
            if cell == NONE || self.grid[usize::from(cell)] != EMPTY {
                continue;
            }
            let weight = u64::from(self.answer_weights[side][usize::from(cell)]);
            cells[k] = cell;
            weights[k] = weight;
            total += weight;
        }
        if total == 0 {
            return None;
        }
        let global: u64 = self.row_sums[side].iter().map(|&sum| u64::from(sum)).sum();
        let mut x = rng.random_range(0..total + global);
        for (cell, weight) in cells.into_iter().zip(weights) {
            if x < weight {
                return Some(cell);
            }
            x -= weight;
        }
        None
    }

    /// The playout of [`HexPlayout::play_out`] with twelve-cell weights, from the grid as
    /// `play_out` filled it.
    pub(super) fn play_out_twelve(
        &mut self,
        policy: &TwelvePolicy,
        position: &Position,
        rng: &mut McRng,
        trace: &mut Vec<(Player, HexMove)>,
    ) -> Rewards {
        let size = position.size();
        self.weigh_twelve(policy);
        let empty = position.board().empty_cells().count();
        let mut last = match trace.last() {
            Some(&(_, HexMove::Place(cell))) => Some(cell.id(size) as u16),
            _ => None,
        };
        let mut me = position.to_move();
        for _ in 0..empty {
            let side = usize::from(me.index());
            let reply = match last {
                Some(intruder) if self.bridge_replies => self.bridge_reply(intruder, grid_colour(me), rng),
                _ => None,
            };
            let reply = reply.or_else(|| last.and_then(|last| self.twelve_reply(last, side, rng)));
            let cell = reply.unwrap_or_else(|| self.draw(side, rng));
            self.place_twelve(cell, grid_colour(me), policy);
            trace.push((me.index(), HexMove::Place(Cell::from_id(usize::from(cell), size))));
            last = Some(cell);
            me = me.opponent();
        }
        let winner = if self.black_connects() { Color::Black } else { Color::White };
        mcts::win_for(winner.index())
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::patterns::{OFFSETS, PatternGrid};

    #[test]
    fn the_mirror_of_the_places_matches_the_offsets() {
        for (k, &(dr, dc)) in OFFSETS.iter().enumerate() {
            assert_eq!(OFFSETS[TRANSPOSED[k]], (dc, dr), "place {k}");
        }
    }

    /// Plays random moves with the twelve-cell codes kept in step, and checks every empty cell's
    /// code, and its mirror for White, against the codes a fresh [`PatternGrid`] reads for each
    /// player.
    #[test]
    fn kept_views_are_the_patterns_on_the_board() {
        let policy = TwelvePolicy::new(&PatternWeights::default(), None);
        for size in [3u8, 5, 8] {
            let mut playout = HexPlayout::new(false).with_twelve(Arc::new(policy.clone()));
            playout.prepare(size);
            let mut rng = McRng::seed_from_u64(u64::from(size));
            let mut board = crate::board::Board::new(u32::from(size)).unwrap();
            playout.grid = vec![EMPTY; usize::from(size) * usize::from(size)];
            playout.weigh_twelve(&policy);
            let mut mover = Color::Black;
            while board.empty_cells().count() > 1 {
                let cells: Vec<Cell> = board.empty_cells().collect();
                let cell = cells[rng.random_range(0..cells.len())];
                board.set(cell, Some(mover));
                playout.place_twelve(cell.id(size) as u16, grid_colour(mover), &policy);
                mover = mover.opponent();
                let black = PatternGrid::new(&Position::from_board(board, Color::Black));
                let white = PatternGrid::new(&Position::from_board(board, Color::White));
                for empty in board.empty_cells() {
                    let raw = playout.views[empty.id(size)];
                    assert_eq!(canonical(raw), black.code(empty), "{empty} for Black");
                    assert_eq!(canonical(white_view(raw)), white.code(empty), "{empty} for White");
                }
            }
        }
    }

    /// Weights that differ from code to code, so that a mix-up shows.
    fn distinct() -> PatternWeights {
        PatternWeights::from_pairs(
            (0..4096u32).map(|code| (code * 4099 % (1 << 24), 0.01 + (code % 97) as f32)),
        )
    }

    /// One look-up gives both players' weights: White's are the weights of the code White reads.
    #[test]
    fn a_slot_holds_the_weights_of_both_views() {
        let (global, answers) =
            (distinct(), PatternWeights::from_pairs(distinct().pairs().map(|(c, g)| (c, g * 3.0))));
        let policy = TwelvePolicy::new(&global, Some(&answers));
        for (code, _) in global.pairs().take(500) {
            for raw in [code, half_turn(code), white_view(code)] {
                let slot = policy.read(raw);
                let white = canonical(white_view(raw));
                assert_eq!((slot.global[0], slot.local[0]), policy.weights(canonical(raw)));
                assert_eq!((slot.global[1], slot.local[1]), policy.weights(white));
                let expected = (global.gamma(white) * TWELVE_UNIT).round() as u32;
                assert_eq!(slot.global[1], expected.max(1));
            }
        }
    }

    /// The answer draw picks a cell near the last stone with its answer weight's share of the
    /// answers plus the whole board's global weights, and otherwise leaves the move to the rest.
    #[test]
    fn answers_are_drawn_in_proportion_to_their_weights() {
        let (position, _) = crate::play_moves(5, ["c3"]).unwrap();
        let board = position.board();
        let policy = TwelvePolicy::new(&distinct(), Some(&distinct()));
        let mut playout = HexPlayout::new(false).with_twelve(Arc::new(policy.clone()));
        playout.prepare(5);
        playout.grid = board.cells().map(|cell| board.get(cell).map_or(EMPTY, grid_colour)).collect();
        playout.weigh_twelve(&policy);
        let last = Cell::new(2, 2).id(5) as u16;
        let side = usize::from(Color::White.index());
        let grid = PatternGrid::new(&position);
        let answers: Vec<(u16, f64)> = playout.around[usize::from(last)]
            .iter()
            .map(|&cell| (cell, f64::from(policy.weights(grid.code(Cell::from_id(usize::from(cell), 5))).1)))
            .collect();
        let global: f64 = board.empty_cells().map(|cell| f64::from(policy.weights(grid.code(cell)).0)).sum();
        let total = answers.iter().map(|(_, w)| w).sum::<f64>() + global;
        let mut rng = McRng::seed_from_u64(8);
        let draws = 40_000;
        let mut counts = std::collections::HashMap::new();
        for _ in 0..draws {
            *counts.entry(playout.twelve_reply(last, side, &mut rng)).or_insert(0u32) += 1;
        }
        let share = |key| f64::from(counts.get(&key).copied().unwrap_or(0)) / f64::from(draws);
        for &(cell, weight) in &answers {
            assert!((share(Some(cell)) - weight / total).abs() < 0.012, "{cell}: {counts:?}");
        }
        assert!((share(None) - global / total).abs() < 0.012, "{counts:?}");
    }

    /// Cells the global table weighs 10⁻⁴ are (almost) never drawn while others are left.
    #[test]
    fn cells_of_tiny_weight_are_passed_over() {
        let start = Position::new(6).unwrap();
        // a1 and f6, the two acute corners, read the same pattern on the empty board.
        let corner = crate::patterns::pattern(&start, Cell::new(0, 0));
        let game = crate::HexGame::new(6);
        let first_in_corner = |policy: TwelvePolicy| {
            let mut playout = HexPlayout::new(false).with_twelve(Arc::new(policy));
            (0..300)
                .filter(|&seed| {
                    let mut trace = Vec::new();
                    let mut rng = McRng::seed_from_u64(seed);
                    search_core::mcts::Playout::playout(&mut playout, &game, &start, &mut rng, &mut trace);
                    [Cell::new(0, 0), Cell::new(5, 5)].iter().any(|&c| trace[0].1 == HexMove::Place(c))
                })
                .count()
        };
        // Uniformly, one first move in 18 is an acute corner: about 17 of 300.
        let flat = first_in_corner(TwelvePolicy::new(&PatternWeights::default(), None));
        assert!((8..=30).contains(&flat), "{flat}");
        let tiny = first_in_corner(TwelvePolicy::new(&PatternWeights::from_pairs([(corner, 1e-4)]), None));
        assert_eq!(tiny, 0);
    }
}
