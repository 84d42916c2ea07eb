//! Evaluators for searching Hex with `search-core`, and the board knowledge the third seed adds
//! before any search: critical cells and bridges.
//!
//! Every evaluator implements [`Evaluator<HexGame>`] with `i32` values from the maximiser's view
//! (the `player` argument: 0 is Black, 1 is White), and scores finished games the same way:
//! a win is worth `WIN − ply` and a loss `−(WIN − ply)`, where `ply` counts the moves from the
//! root. [`WIN`] is far beyond every heuristic value, so a search always takes a win it sees,
//! prefers the quickest, and puts off a loss as long as it can. (The course framework of the seeds
//! scored the searcher's own win as 0, and its players missed wins in one; see `reference/hex.md`
//! §4.5.)
//!
//! | evaluator | heuristic value | seed |
//! |---|---|---|
//! | [`PathDistance`] | `1000·(1 − d/n²)`, rounded: the madeup seed's `1 − d/n²` in thousandths | madeup |
//! | [`PathDifference`] | `d_opp − d_own` | coolcow |
//! | [`ZeroOneBfs`] | `w_opp·d_opp − w_own·d_own`, weights 1 and 2 by default | third seed |
//! | [`TwoDistance`] | `p_opp − p_own`, Queenbee's potentials | beyond the seeds |
//!
//! Here d is a connection distance ([`crate::distances`]): the empty cells a colour still needs.
//! In a position nobody has won both colours have one, so the "no path" fallbacks documented on
//! each evaluator matter only for boards built by hand.
//!
//! The board knowledge: [`critical_cell`] (win now, else stop the opponent's win now: the
//! recommended `CriticalCells`) and [`forms_bridge`], [`bridge_repairs`] (the `BridgeAware` part:
//! bridge formation and repair).
//!
//! # Examples
//!
//! ```
//! use hex::heuristics::{PathDifference, WIN};
//! use hex::{Cell, HexGame, HexMove, Position};
//! use search_core::{alphabeta, NoTable};
//!
//! // 3x3: Black has b1 and b2 and wins at once with a3 or b3.
//! let mut pos = Position::new(3).unwrap();
//! for (r, c) in [(0, 1), (0, 0), (1, 1), (1, 0)] {
//!     pos = pos.play(HexMove::Place(Cell::new(r, c))).unwrap();
//! }
//! let found = alphabeta::search(&HexGame::new(3), &PathDifference, &pos, &alphabeta::Config::depth(3), NoTable);
//! assert_eq!(found.value, WIN - 1);
//! assert_eq!(found.best_move, Some(HexMove::Place(Cell::new(2, 0))));
//! ```

use search_core::{Evaluator, Player};

use crate::board::{Board, Cell, Color, Position};
use crate::distances::{bfs_distance, two_distance, ucs_distance, zero_one_bfs_distance};
use crate::rules::HexGame;

/// The value of a win found at the root; a win `ply` moves away is worth `WIN − ply`, a loss
/// `−(WIN − ply)`. Every heuristic value here (with [`ZeroOneBfs`]'s weights below 1000) lies
/// strictly between `−WIN / 2` and `WIN / 2`.
pub const WIN: i32 = 1_000_000;

/// The colour of `search-core` player `player`: 0 is Black, anything else White.
pub fn color_of(player: Player) -> Color {
    if player == 0 { Color::Black } else { Color::White }
}

/// The value of the finished game `state` for `player`, `ply` moves below the root: `WIN − ply`
/// if `player`'s colour has connected, `−(WIN − ply)` if the other has, `None` if nobody has.
///
/// # Examples
///
/// ```
/// use hex::heuristics::{terminal_value, WIN};
/// use hex::{Cell, HexMove, Position};
///
/// let pos = Position::new(1).unwrap().play(HexMove::Place(Cell::new(0, 0))).unwrap();
/// assert_eq!(terminal_value(&pos, 0, 3), Some(WIN - 3));
/// assert_eq!(terminal_value(&pos, 1, 3), Some(-(WIN - 3)));
/// assert_eq!(terminal_value(&Position::new(1).unwrap(), 0, 0), None);
/// ```
pub fn terminal_value(state: &Position, player: Player, ply: u32) -> Option<i32> {
    let winner = state.winner()?;
    let score = WIN - ply.min(WIN as u32 / 2) as i32;
    Some(if winner == color_of(player) { score } else { -score })
}

/// A distance with "no path" replaced by `cap`.
fn or_cap(d: Option<u32>, cap: u32) -> i32 {
    d.unwrap_or(cap) as i32
}

/// The n² cells of `state`'s board.
fn cells(state: &Position) -> u32 {
    u32::from(state.size()) * u32::from(state.size())
}

/// Implements the shared parts of [`Evaluator`]: terminal scoring and bounds.
macro_rules! hex_evaluator {
    ($ty:ty, |$self_:ident, $state:ident, $color:ident| $body:expr) => {
        impl Evaluator<HexGame> for $ty {
            type Value = i32;

            fn evaluate(&$self_, _: &HexGame, $state: &Position, player: Player) -> i32 {
                let $color = color_of(player);
                $body
            }

            fn terminal(&self, game: &HexGame, state: &Position, player: Player, ply: u32) -> i32 {
                terminal_value(state, player, ply).unwrap_or_else(|| self.evaluate(game, state, player))
            }

            fn bounds(&self) -> Option<(i32, i32)> {
                Some((-WIN, WIN))
            }
        }
    };
}

/// The madeup seed's evaluation `1 − d/n²` in thousandths: `1000 − round(1000·d/n²)`, with d the
/// maximiser's [`bfs_distance`] and n the board side. Only the maximiser's own distance counts.
///
/// Values run from 0 (no path left: d counts as n²) to 1000 (connected). On boards up to 31x31
/// one stone less always scores higher, since 1000/n² > 1; on 19x19 a stone is worth 2 or 3.
///
/// # Examples
///
/// ```
/// use hex::heuristics::PathDistance;
/// use hex::{HexGame, Position};
/// use search_core::Evaluator;
///
/// // Empty 7x7: 7 of 49 stones missing, 1 − 1/7 = 0.857…
/// let start = Position::new(7).unwrap();
/// assert_eq!(PathDistance.evaluate(&HexGame::new(7), &start, 0), 857);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathDistance;

impl PathDistance {
    /// Thousandths per whole evaluation: `1 − d/n²` is scaled by this.
    pub const SCALE: u32 = 1000;

    /// `1000 − round(1000·d/n²)` for `color` on `board`.
    pub fn value(board: &Board, color: Color) -> i32 {
        let cells = u32::from(board.size()) * u32::from(board.size());
        let d = bfs_distance(board, color).unwrap_or(cells);
        let lost = (2 * Self::SCALE * d + cells) / (2 * cells);
        (Self::SCALE - lost) as i32
    }
}

hex_evaluator!(PathDistance, |self, state, color| PathDistance::value(state.board(), color));

/// The coolcow seed's evaluation: the opponent's distance minus the maximiser's, both by
/// [`ucs_distance`]. Positive when the maximiser is closer to connecting.
///
/// Unlike the original it is not clamped at 0, and a missing path counts as n² (as coolcow's did).
///
/// # Examples
///
/// ```
/// use hex::heuristics::PathDifference;
/// use hex::{Cell, HexGame, HexMove, Position};
/// use search_core::Evaluator;
///
/// // 5x5 after Black c3: Black needs 4, White 5.
/// let pos = Position::new(5).unwrap().play(HexMove::Place(Cell::new(2, 2))).unwrap();
/// assert_eq!(PathDifference.evaluate(&HexGame::new(5), &pos, 0), 1);
/// assert_eq!(PathDifference.evaluate(&HexGame::new(5), &pos, 1), -1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathDifference;

hex_evaluator!(PathDifference, |self, state, color| {
    let board = state.board();
    or_cap(ucs_distance(board, color.opponent()), cells(state))
        - or_cap(ucs_distance(board, color), cells(state))
});

/// The third seed's leaf evaluation: shortening the maximiser's own path comes first, lengthening
/// the opponent's earns a bonus. Both by [`zero_one_bfs_distance`]:
/// `opponent_weight · d_opp − own_weight · d_own`.
///
/// The seed gives no weights. The default, own 2 and opponent 1, keeps its order of priorities:
/// a stone off the own path is worth two on the opponent's, so the player builds before it
/// blocks, yet a block that costs nothing of the own path still counts. A missing path counts
/// as n².
///
/// # Examples
///
/// ```
/// use hex::heuristics::ZeroOneBfs;
/// use hex::{Cell, HexGame, HexMove, Position};
/// use search_core::Evaluator;
///
/// // 5x5 after Black c3: 1·5 − 2·4 for Black, 1·4 − 2·5 for White.
/// let pos = Position::new(5).unwrap().play(HexMove::Place(Cell::new(2, 2))).unwrap();
/// let eval = ZeroOneBfs::default();
/// assert_eq!(eval.evaluate(&HexGame::new(5), &pos, 0), -3);
/// assert_eq!(eval.evaluate(&HexGame::new(5), &pos, 1), -6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroOneBfs {
    /// What one stone of the maximiser's own distance costs.
    pub own_weight: i32,
    /// What one stone of the opponent's distance earns.
    pub opponent_weight: i32,
}

impl Default for ZeroOneBfs {
    /// Own 2, opponent 1.
    fn default() -> Self {
        ZeroOneBfs { own_weight: 2, opponent_weight: 1 }
    }
}

impl ZeroOneBfs {
    /// `opponent_weight · d_opp − own_weight · d_own` for `color` on `board`.
    pub fn value(&self, board: &Board, color: Color) -> i32 {
        let cap = u32::from(board.size()) * u32::from(board.size());
        self.opponent_weight * or_cap(zero_one_bfs_distance(board, color.opponent()), cap)
            - self.own_weight * or_cap(zero_one_bfs_distance(board, color), cap)
    }
}

hex_evaluator!(ZeroOneBfs, |self, state, color| self.value(state.board(), color));

/// Queenbee's evaluation: the opponent's best [`two_distance`] potential minus the maximiser's.
/// Positive when the maximiser's best cell is closer to both its edges, counting only routes the
/// opponent cannot cut with one stone.
///
/// A colour without any potential (every route can be cut) counts as 2n² + 1, more than any
/// real potential.
///
/// # Examples
///
/// ```
/// use hex::heuristics::TwoDistance;
/// use hex::{HexGame, Position};
/// use search_core::Evaluator;
///
/// // The empty board is symmetric: 0 for both.
/// let start = Position::new(6).unwrap();
/// assert_eq!(TwoDistance.evaluate(&HexGame::new(6), &start, 0), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TwoDistance;

impl TwoDistance {
    /// `p_opp − p_own` for `color` on `board`.
    pub fn value(board: &Board, color: Color) -> i32 {
        let cap = 2 * u32::from(board.size()) * u32::from(board.size()) + 1;
        let potential = |c: Color| or_cap(two_distance(board, c).best_potential(), cap);
        potential(color.opponent()) - potential(color)
    }
}

hex_evaluator!(TwoDistance, |self, state, color| TwoDistance::value(state.board(), color));

/// The empty cells where a stone of `color` connects its edges at once, row by row.
///
/// # Examples
///
/// ```
/// use hex::heuristics::winning_cells;
/// use hex::{Board, Cell, Color};
///
/// let mut board = Board::new(3).unwrap();
/// board.set(Cell::new(0, 1), Some(Color::Black));
/// board.set(Cell::new(1, 1), Some(Color::Black));
/// assert_eq!(winning_cells(&board, Color::Black), vec![Cell::new(2, 0), Cell::new(2, 1)]);
/// assert!(winning_cells(&board, Color::White).is_empty());
/// ```
pub fn winning_cells(board: &Board, color: Color) -> Vec<Cell> {
    if board.winner().is_some() || bfs_distance(board, color) != Some(1) {
        return Vec::new();
    }
    board
        .empty_cells()
        .filter(|&cell| {
            let mut after = *board;
            after.set(cell, Some(color));
            after.connects(color)
        })
        .collect()
}

/// Why [`critical_cell`] names a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Critical {
    /// A stone here wins at once.
    Win(Cell),
    /// The opponent would win at once here: the only way not to lose next move (if the opponent
    /// has more than one such cell, the first, and the game is lost anyway).
    Block(Cell),
}

impl Critical {
    /// The cell to play.
    pub fn cell(self) -> Cell {
        match self {
            Critical::Win(cell) | Critical::Block(cell) => cell,
        }
    }
}

/// The third seed's "critical cells" (`fichas críticas`), checked before any search: a cell that
/// wins at once for the side to move, else one where the opponent would win at once. The first
/// such cell row by row; `None` when there is neither, or the game is over.
///
/// # Examples
///
/// ```
/// use hex::heuristics::{critical_cell, Critical};
/// use hex::{Board, Cell, Color, Position};
///
/// // White to move on 3x3; Black threatens to win at a3 or b3 and White cannot stop both.
/// let mut board = Board::new(3).unwrap();
/// board.set(Cell::new(0, 1), Some(Color::Black));
/// board.set(Cell::new(1, 1), Some(Color::Black));
/// board.set(Cell::new(0, 0), Some(Color::White));
/// let pos = Position::from_board(board, Color::White);
/// assert_eq!(critical_cell(&pos), Some(Critical::Block(Cell::new(2, 0))));
/// ```
pub fn critical_cell(position: &Position) -> Option<Critical> {
    if position.winner().is_some() {
        return None;
    }
    let board = position.board();
    let me = position.to_move();
    if let Some(&cell) = winning_cells(board, me).first() {
        return Some(Critical::Win(cell));
    }
    winning_cells(board, me.opponent()).first().map(|&cell| Critical::Block(cell))
}

/// A step `(dr, dc)` from one cell to another.
type Offset = (i8, i8);

/// The six bridge offsets `(dr, dc)` from a cell, each with its two carrier offsets: the two
/// common neighbours of the cell and its bridge partner (two neighbour offsets next to each other
/// around the hexagon, and their sum).
const BRIDGES: [(Offset, [Offset; 2]); 6] = [
    ((-2, 1), [(-1, 0), (-1, 1)]),
    ((-1, 2), [(-1, 1), (0, 1)]),
    ((1, 1), [(0, 1), (1, 0)]),
    ((2, -1), [(1, 0), (1, -1)]),
    ((1, -2), [(1, -1), (0, -1)]),
    ((-1, -1), [(0, -1), (-1, 0)]),
];

fn offset(cell: Cell, (dr, dc): Offset, size: u8) -> Option<Cell> {
    let r = cell.row.checked_add_signed(dr)?;
    let c = cell.col.checked_add_signed(dc)?;
    (r < size && c < size).then_some(Cell::new(r, c))
}

/// The bridges around `cell` on `board`: each bridge partner on the board with its two carrier
/// cells, whatever holds them.
fn bridges_at(board: &Board, cell: Cell) -> impl Iterator<Item = (Cell, [Cell; 2])> + '_ {
    let n = board.size();
    BRIDGES.iter().filter_map(move |&(to, [a, b])| {
        Some((offset(cell, to, n)?, [offset(cell, a, n)?, offset(cell, b, n)?]))
    })
}

/// Whether a stone of `color` on `cell` would form a bridge: a stone of `color` two steps away
/// with both cells between them (the carrier) empty.
///
/// # Examples
///
/// ```
/// use hex::heuristics::forms_bridge;
/// use hex::{Board, Cell, Color};
///
/// let mut board = Board::new(5).unwrap();
/// board.set(Cell::new(2, 2), Some(Color::Black));
/// assert!(forms_bridge(&board, Cell::new(0, 3), Color::Black)); // carrier c2, d2
/// assert!(!forms_bridge(&board, Cell::new(1, 2), Color::Black)); // adjacent, not a bridge
/// board.set(Cell::new(1, 3), Some(Color::White));
/// assert!(!forms_bridge(&board, Cell::new(0, 3), Color::Black)); // carrier broken
/// ```
pub fn forms_bridge(board: &Board, cell: Cell, color: Color) -> bool {
    bridges_at(board, cell).any(|(partner, carrier)| {
        board.get(partner) == Some(color) && carrier.iter().all(|&c| board.get(c).is_none())
    })
}

/// Group labels for `color`'s stones: `labels[id]` is the same for two stones exactly when a
/// chain of `color`'s stones joins them.
fn group_labels(board: &Board, color: Color) -> Vec<usize> {
    let n = board.size();
    let mut labels = vec![usize::MAX; usize::from(n) * usize::from(n)];
    let mut stack = Vec::new();
    for cell in board.cells() {
        if board.get(cell) != Some(color) || labels[cell.id(n)] != usize::MAX {
            continue;
        }
        let label = cell.id(n);
        labels[label] = label;
        stack.push(cell);
        while let Some(s) = stack.pop() {
            for m in s.neighbours(n) {
                if board.get(m) == Some(color) && labels[m.id(n)] == usize::MAX {
                    labels[m.id(n)] = label;
                    stack.push(m);
                }
            }
        }
    }
    labels
}

/// The third seed's bridge repair (`une-puentes`): the cells that restore a bridge of `color`
/// the opponent has intruded into. A bridge needs repair when the opponent holds one carrier cell,
/// the other is empty, and no chain of `color`'s stones joins the two ends already; the empty
/// carrier cell is the answer. Row by row, without repeats.
///
/// The board alone tells an intrusion, so a player needs no move history: the opponent's last
/// move shows up here, and so does an older intrusion left unanswered.
///
/// # Examples
///
/// ```
/// use hex::heuristics::bridge_repairs;
/// use hex::{Board, Cell, Color};
///
/// // Black's bridge c3–d1 has the carrier c2, d2; White intrudes at c2, Black answers d2.
/// let mut board = Board::new(5).unwrap();
/// board.set(Cell::new(2, 2), Some(Color::Black));
/// board.set(Cell::new(0, 3), Some(Color::Black));
/// assert!(bridge_repairs(&board, Color::Black).is_empty());
/// board.set(Cell::new(1, 2), Some(Color::White));
/// assert_eq!(bridge_repairs(&board, Color::Black), vec![Cell::new(1, 3)]);
/// ```
pub fn bridge_repairs(board: &Board, color: Color) -> Vec<Cell> {
    let n = board.size();
    let labels = group_labels(board, color);
    let mut repairs: Vec<Cell> = Vec::new();
    for cell in board.cells().filter(|&c| board.get(c) == Some(color)) {
        for (partner, [a, b]) in bridges_at(board, cell) {
            if board.get(partner) != Some(color) || labels[cell.id(n)] == labels[partner.id(n)] {
                continue;
            }
            let repair = match (board.get(a), board.get(b)) {
                (Some(x), None) if x != color => b,
                (None, Some(x)) if x != color => a,
                _ => continue,
            };
            if !repairs.contains(&repair) {
                repairs.push(repair);
            }
        }
    }
    repairs.sort();
    repairs
}
