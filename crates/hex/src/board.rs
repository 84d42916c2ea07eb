//! Stones, cells, moves and positions; win detection by a bit-parallel flood fill.

use std::fmt;
use std::sync::OnceLock;

use thiserror::Error;

use crate::bits::Bits;

/// The largest board side supported.
pub const MAX_SIZE: u8 = 19;

/// A side. Black moves first and connects the top edge to the bottom; White connects left to
/// right (the convention of Benzene, HexGui and OpenSpiel).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; connects top and bottom.
    Black,
    /// Moves second; connects left and right.
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// 0 for Black, 1 for White: the colour's player number in `search-core`.
    pub fn index(self) -> u8 {
        self as u8
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A cell by row and column, both from 0: `a1` is `(0, 0)`, `c2` is row 1, column 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// The row, 0 on top.
    pub row: u8,
    /// The column, 0 on the left.
    pub col: u8,
}

impl Cell {
    /// The cell at `row`, `col`.
    pub const fn new(row: u8, col: u8) -> Cell {
        Cell { row, col }
    }

    /// OpenSpiel's action number on an n×n board: `row·n + col`.
    pub fn id(self, size: u8) -> usize {
        usize::from(self.row) * usize::from(size) + usize::from(self.col)
    }

    /// The cell with OpenSpiel's action number `id` on an n×n board.
    pub fn from_id(id: usize, size: u8) -> Cell {
        let n = usize::from(size);
        Cell::new((id / n) as u8, (id % n) as u8)
    }

    /// The mirror image in the long diagonal: `(r, c)` becomes `(c, r)`.
    pub fn transpose(self) -> Cell {
        Cell::new(self.col, self.row)
    }

    /// The six neighbours of the cell on an n×n board (fewer at edges and corners).
    pub fn neighbours(self, size: u8) -> impl Iterator<Item = Cell> {
        const OFFSETS: [(i8, i8); 6] = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)];
        let n = size as i8;
        OFFSETS.into_iter().filter_map(move |(dr, dc)| {
            let (r, c) = (self.row as i8 + dr, self.col as i8 + dc);
            (0..n).contains(&r).then_some(())?;
            (0..n).contains(&c).then_some(Cell::new(r as u8, c as u8))
        })
    }
}

/// A move: a stone on a cell, or the swap (the second player takes over the first stone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexMove {
    /// A stone of the side to move on this cell.
    Place(Cell),
    /// The swap: legal only as the second move with the swap rule on. The first (Black) stone at
    /// `(r, c)` becomes a White stone at `(c, r)`, and Black moves next.
    Swap,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// The cell is outside the board.
    #[error("{cell} is off a {size}x{size} board")]
    OffBoard {
        /// The cell.
        cell: Cell,
        /// The board side.
        size: u8,
    },
    /// The cell already holds a stone.
    #[error("{0} is occupied")]
    Occupied(Cell),
    /// Somebody has already connected.
    #[error("the game is over: {0} has connected")]
    GameOver(Color),
    /// The swap is allowed only as the second move, with the swap rule on.
    #[error("swap is allowed only as the second move, with the swap rule on")]
    SwapNotAllowed,
}

/// A board side outside `1..=19`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("a board side must be from 1 to {MAX_SIZE}, not {0}")]
pub struct BadSize(pub u32);

/// Bit masks of one board size: every cell, and each edge.
#[derive(Debug)]
struct Masks {
    cells: Bits,
    top: Bits,
    bottom: Bits,
    left: Bits,
    right: Bits,
}

fn masks(size: u8) -> &'static Masks {
    static MASKS: OnceLock<Vec<Masks>> = OnceLock::new();
    let all = MASKS.get_or_init(|| {
        (0..=MAX_SIZE)
            .map(|n| {
                let mut m = Masks {
                    cells: Bits::EMPTY,
                    top: Bits::EMPTY,
                    bottom: Bits::EMPTY,
                    left: Bits::EMPTY,
                    right: Bits::EMPTY,
                };
                for r in 0..n {
                    for c in 0..n {
                        let bit = bit_of(Cell::new(r, c), n);
                        m.cells.set(bit);
                        if r == 0 {
                            m.top.set(bit);
                        }
                        if r == n - 1 {
                            m.bottom.set(bit);
                        }
                        if c == 0 {
                            m.left.set(bit);
                        }
                        if c == n - 1 {
                            m.right.set(bit);
                        }
                    }
                }
                m
            })
            .collect()
    });
    &all[usize::from(size)]
}

/// The bit of `cell`: rows have `size + 1` bits, the last one a guard that never holds a stone.
fn bit_of(cell: Cell, size: u8) -> usize {
    usize::from(cell.row) * (usize::from(size) + 1) + usize::from(cell.col)
}

/// The stones on an n×n board: two bitsets, so a copy is a few dozen words.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    black: Bits,
    white: Bits,
}

impl Board {
    /// An empty n×n board, `1 <= n <= 19`.
    pub fn new(size: u32) -> Result<Board, BadSize> {
        if !(1..=u32::from(MAX_SIZE)).contains(&size) {
            return Err(BadSize(size));
        }
        Ok(Board { size: size as u8, black: Bits::EMPTY, white: Bits::EMPTY })
    }

    /// The side length.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Whether `cell` is on the board.
    pub fn contains(&self, cell: Cell) -> bool {
        cell.row < self.size && cell.col < self.size
    }

    /// The stone on `cell`, if any (`None` also for cells off the board).
    pub fn get(&self, cell: Cell) -> Option<Color> {
        if !self.contains(cell) {
            return None;
        }
        let bit = bit_of(cell, self.size);
        if self.black.get(bit) {
            Some(Color::Black)
        } else if self.white.get(bit) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Puts a stone of `color` on `cell`, replacing whatever was there.
    ///
    /// # Panics
    /// If `cell` is off the board (a stone there would join cells that are not neighbours).
    pub fn set(&mut self, cell: Cell, color: Option<Color>) {
        assert!(self.contains(cell), "{cell} is off a {0}x{0} board", self.size);
        let bit = bit_of(cell, self.size);
        self.black.clear(bit);
        self.white.clear(bit);
        match color {
            Some(Color::Black) => self.black.set(bit),
            Some(Color::White) => self.white.set(bit),
            None => {}
        }
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let n = self.size;
        (0..n).flat_map(move |r| (0..n).map(move |c| Cell::new(r, c)))
    }

    /// The empty cells, row by row.
    pub fn empty_cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let n = self.size;
        let stride = usize::from(n) + 1;
        let empty = masks(n).cells.and_not(&self.black.or(&self.white));
        empty.iter().map(move |bit| Cell::new((bit / stride) as u8, (bit % stride) as u8))
    }

    /// The number of stones of `color`.
    pub fn count(&self, color: Color) -> u32 {
        self.stones(color).count()
    }

    /// The number of stones on the board.
    pub fn stones_on_board(&self) -> u32 {
        self.black.count() + self.white.count()
    }

    /// The board mirrored in the long diagonal with the colours swapped: the same game seen by
    /// the other colour (Black's top-bottom connection becomes White's left-right one).
    ///
    /// ```
    /// use hex::{Board, Cell, Color};
    ///
    /// let mut board = Board::new(3).unwrap();
    /// board.set(Cell::new(0, 2), Some(Color::Black));
    /// let mirror = board.mirrored();
    /// assert_eq!(mirror.get(Cell::new(2, 0)), Some(Color::White));
    /// assert_eq!(mirror.mirrored(), board);
    /// ```
    pub fn mirrored(&self) -> Board {
        let mut mirror = Board::new(u32::from(self.size())).expect("the same size");
        for cell in self.cells() {
            mirror.set(cell.transpose(), self.get(cell).map(Color::opponent));
        }
        mirror
    }

    pub(crate) fn stones(&self, color: Color) -> &Bits {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// Whether `color`'s stones connect its two edges, by a bit-parallel flood fill from its
    /// first edge through its own stones.
    pub fn connects(&self, color: Color) -> bool {
        let n = self.size;
        let m = masks(n);
        let (start, end) = match color {
            Color::Black => (&m.top, &m.bottom),
            Color::White => (&m.left, &m.right),
        };
        let stones = self.stones(color);
        let stride = usize::from(n) + 1;
        let mut reached = stones.and(start);
        loop {
            // The six neighbours of (r, c) are ±1, ±stride and ±(stride − 1) bits away; the
            // guard bit at the end of each row is never a stone, so nothing leaks between rows.
            let grown = reached
                .or(&reached.shl(1))
                .or(&reached.shr(1))
                .or(&reached.shl(stride))
                .or(&reached.shr(stride))
                .or(&reached.shl(stride - 1))
                .or(&reached.shr(stride - 1))
                .and(stones);
            if grown == reached {
                return reached.intersects(end);
            }
            reached = grown;
        }
    }

    /// The colour that connects its edges, if either does.
    pub fn winner(&self) -> Option<Color> {
        [Color::Black, Color::White].into_iter().find(|&c| self.connects(c))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}x{}:", self.size, self.size)?;
        for r in 0..self.size {
            f.write_str(" ")?;
            for c in 0..self.size {
                f.write_str(match self.get(Cell::new(r, c)) {
                    Some(Color::Black) => "B",
                    Some(Color::White) => "W",
                    None => ".",
                })?;
            }
        }
        f.write_str(")")
    }
}

/// A game in progress: the board, whose turn it is, and whether somebody has connected.
///
/// # Examples
///
/// ```
/// use hex::{Cell, Color, HexMove, Position};
///
/// // On 2x2, Black a1 and a2 connect top to bottom.
/// let mut pos = Position::new(2).unwrap();
/// for cell in [Cell::new(0, 0), Cell::new(0, 1), Cell::new(1, 0)] {
///     pos = pos.play(HexMove::Place(cell)).unwrap();
/// }
/// assert_eq!(pos.winner(), Some(Color::Black));
/// assert!(pos.play(HexMove::Place(Cell::new(1, 1))).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    to_move: Color,
    moves_played: u16,
    swap_rule: bool,
    winner: Option<Color>,
    /// Zobrist hash of the stones and the side to move, kept up to date by every move.
    hash: u64,
}

/// Zobrist keys: one per (colour, bit) and one for White to move.
fn zobrist() -> &'static search_core::ZobristKeys {
    static KEYS: OnceLock<search_core::ZobristKeys> = OnceLock::new();
    KEYS.get_or_init(|| search_core::ZobristKeys::new(0x0048_4558, 2 * crate::bits::WORDS * 64 + 1))
}

fn stone_key(color: Color, cell: Cell, size: u8) -> u64 {
    zobrist().key(usize::from(color.index()) * crate::bits::WORDS * 64 + bit_of(cell, size))
}

fn turn_key(color: Color) -> u64 {
    match color {
        Color::Black => 0,
        Color::White => zobrist().key(2 * crate::bits::WORDS * 64),
    }
}

/// The Zobrist hash of `board` with `to_move` to play, computed from scratch.
fn full_hash(board: &Board, to_move: Color) -> u64 {
    board
        .cells()
        .filter_map(|c| board.get(c).map(|color| stone_key(color, c, board.size)))
        .fold(turn_key(to_move), |h, k| h ^ k)
}

impl Position {
    /// The start of a game on an n×n board without the swap rule.
    pub fn new(size: u32) -> Result<Position, BadSize> {
        let board = Board::new(size)?;
        Ok(Position {
            board,
            to_move: Color::Black,
            moves_played: 0,
            swap_rule: false,
            winner: None,
            hash: 0,
        })
    }

    /// The start of a game with the swap rule on or off.
    pub fn with_swap(size: u32, swap_rule: bool) -> Result<Position, BadSize> {
        Ok(Position { swap_rule, ..Position::new(size)? })
    }

    /// A position with these stones and `to_move` to play (the winner is computed). It has no
    /// move history, so the swap is not available.
    pub fn from_board(board: Board, to_move: Color) -> Position {
        let moves_played = board.stones_on_board() as u16;
        Position {
            board,
            to_move,
            moves_played,
            swap_rule: false,
            winner: board.winner(),
            hash: full_hash(&board, to_move),
        }
    }

    /// The stones.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board side.
    pub fn size(&self) -> u8 {
        self.board.size
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Moves played so far (a swap counts as one).
    pub fn moves_played(&self) -> u16 {
        self.moves_played
    }

    /// Whether the swap rule is on.
    pub fn swap_rule(&self) -> bool {
        self.swap_rule
    }

    /// The side that has connected its edges, if any: then the game is over.
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// The same game for the other colour: the board [mirrored](Board::mirrored), the other side
    /// to move. Like [`Position::from_board`], it has no move history.
    pub fn mirrored(&self) -> Position {
        Position::from_board(self.board.mirrored(), self.to_move.opponent())
    }

    /// A 64-bit Zobrist hash of the stones and the side to move, updated incrementally.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether the swap is a legal move now.
    pub fn can_swap(&self) -> bool {
        self.swap_rule && self.moves_played == 1 && self.winner.is_none()
    }

    /// Whether `mv` is legal now.
    pub fn check(&self, mv: HexMove) -> Result<(), IllegalMove> {
        if let Some(winner) = self.winner {
            return Err(IllegalMove::GameOver(winner));
        }
        match mv {
            HexMove::Swap if self.can_swap() => Ok(()),
            HexMove::Swap => Err(IllegalMove::SwapNotAllowed),
            HexMove::Place(cell) if !self.board.contains(cell) => {
                Err(IllegalMove::OffBoard { cell, size: self.size() })
            }
            HexMove::Place(cell) if self.board.get(cell).is_some() => Err(IllegalMove::Occupied(cell)),
            HexMove::Place(_) => Ok(()),
        }
    }

    /// The position after `mv`, or why it is illegal (the position itself is unchanged).
    pub fn play(&self, mv: HexMove) -> Result<Position, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// The position after `mv`, which must be legal (checked only by `debug_assert!`).
    pub fn play_unchecked(&self, mv: HexMove) -> Position {
        debug_assert_eq!(self.check(mv), Ok(()));
        let mut next = *self;
        match mv {
            HexMove::Place(cell) => {
                next.board.set(cell, Some(self.to_move));
                next.hash ^= stone_key(self.to_move, cell, self.size());
                if next.board.connects(self.to_move) {
                    next.winner = Some(self.to_move);
                }
                next.to_move = self.to_move.opponent();
            }
            HexMove::Swap => {
                let first = self.board.cells().find(|&c| self.board.get(c) == Some(Color::Black));
                if let Some(first) = first {
                    next.board.set(first, None);
                    next.board.set(first.transpose(), Some(Color::White));
                    next.hash ^= stone_key(Color::Black, first, self.size())
                        ^ stone_key(Color::White, first.transpose(), self.size());
                }
                if next.board.connects(Color::White) {
                    next.winner = Some(Color::White);
                }
                next.to_move = Color::Black;
            }
        }
        next.hash ^= turn_key(self.to_move) ^ turn_key(next.to_move);
        next.moves_played += 1;
        debug_assert_eq!(next.hash, full_hash(&next.board, next.to_move), "incremental hash drifted");
        next
    }

    /// The legal moves, cells row by row, then the swap when it is allowed.
    pub fn legal_moves(&self) -> Vec<HexMove> {
        if self.winner.is_some() {
            return Vec::new();
        }
        let mut moves: Vec<HexMove> = self.board.empty_cells().map(HexMove::Place).collect();
        if self.can_swap() {
            moves.push(HexMove::Swap);
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(size: u32, cells: &[(u8, u8)]) -> Position {
        cells
            .iter()
            .fold(Position::new(size).unwrap(), |p, &(r, c)| p.play(HexMove::Place(Cell::new(r, c))).unwrap())
    }

    #[test]
    fn one_by_one_is_won_by_the_first_stone() {
        let p = play_all(1, &[(0, 0)]);
        assert_eq!(p.winner(), Some(Color::Black));
    }

    #[test]
    fn each_colour_connects_its_own_edges() {
        // A black column a1-a3 on 3x3 connects top to bottom…
        let mut b = Board::new(3).unwrap();
        for r in 0..3 {
            b.set(Cell::new(r, 0), Some(Color::Black));
        }
        assert!(b.connects(Color::Black));
        assert!(!b.connects(Color::White));
        // …and the same stones White's connect left to right only along a row.
        let mut w = Board::new(3).unwrap();
        for c in 0..3 {
            w.set(Cell::new(1, c), Some(Color::White));
        }
        assert!(w.connects(Color::White) && !w.connects(Color::Black));
        // (r, c) and (r+1, c-1) are neighbours: a black anti-diagonal c1 b2 a3 connects.
        let mut d = Board::new(3).unwrap();
        for (r, c) in [(0, 2), (1, 1), (2, 0)] {
            d.set(Cell::new(r, c), Some(Color::Black));
        }
        assert!(d.connects(Color::Black));
        // (r, c) and (r+1, c+1) are not: a main diagonal does not connect.
        let mut e = Board::new(3).unwrap();
        for i in 0..3 {
            e.set(Cell::new(i, i), Some(Color::Black));
        }
        assert!(!e.connects(Color::Black));
    }

    #[test]
    fn no_leak_between_rows() {
        // A stone at the end of row 0 and one at the start of row 1 are not neighbours.
        let mut b = Board::new(4).unwrap();
        b.set(Cell::new(0, 3), Some(Color::White));
        b.set(Cell::new(1, 0), Some(Color::White));
        for c in 1..4 {
            b.set(Cell::new(1, c), Some(Color::White));
        }
        assert!(b.connects(Color::White));
        let mut b = Board::new(4).unwrap();
        for r in 0..4 {
            b.set(Cell::new(r, 3), Some(Color::Black));
        }
        b.set(Cell::new(3, 3), None);
        b.set(Cell::new(3, 0), Some(Color::Black));
        assert!(!b.connects(Color::Black));
    }

    #[test]
    fn illegal_moves_are_refused() {
        let p = play_all(3, &[(1, 1)]);
        assert_eq!(p.play(HexMove::Place(Cell::new(1, 1))), Err(IllegalMove::Occupied(Cell::new(1, 1))));
        assert_eq!(
            p.play(HexMove::Place(Cell::new(3, 0))),
            Err(IllegalMove::OffBoard { cell: Cell::new(3, 0), size: 3 })
        );
        assert_eq!(p.play(HexMove::Swap), Err(IllegalMove::SwapNotAllowed));
        let won = play_all(2, &[(0, 0), (0, 1), (1, 0)]);
        assert_eq!(won.play(HexMove::Place(Cell::new(1, 1))), Err(IllegalMove::GameOver(Color::Black)));
        assert!(won.legal_moves().is_empty());
        assert_eq!(Board::new(0), Err(BadSize(0)));
        assert_eq!(Board::new(20), Err(BadSize(20)));
    }

    #[test]
    fn swap_mirrors_the_first_stone_and_black_moves_next() {
        let p = Position::with_swap(5, true).unwrap().play(HexMove::Place(Cell::new(1, 3))).unwrap();
        assert!(p.can_swap());
        assert!(p.legal_moves().contains(&HexMove::Swap));
        let s = p.play(HexMove::Swap).unwrap();
        assert_eq!(s.board().get(Cell::new(1, 3)), None);
        assert_eq!(s.board().get(Cell::new(3, 1)), Some(Color::White));
        assert_eq!(s.to_move(), Color::Black);
        assert!(!s.can_swap());
        assert_eq!(s.play(HexMove::Swap), Err(IllegalMove::SwapNotAllowed));
    }

    #[test]
    fn neighbours_and_ids() {
        let n: Vec<Cell> = Cell::new(0, 0).neighbours(3).collect();
        assert_eq!(n, vec![Cell::new(0, 1), Cell::new(1, 0)]);
        assert_eq!(Cell::new(1, 1).neighbours(3).count(), 6);
        assert_eq!(Cell::new(0, 2).neighbours(3).count(), 3);
        assert_eq!(Cell::new(1, 2).id(3), 5);
        assert_eq!(Cell::from_id(5, 3), Cell::new(1, 2));
    }

    #[test]
    fn nineteen_by_nineteen_works() {
        let mut b = Board::new(19).unwrap();
        for r in 0..19 {
            b.set(Cell::new(r, 18), Some(Color::Black));
        }
        assert!(b.connects(Color::Black));
        assert_eq!(b.empty_cells().count(), 19 * 18);
    }
}
