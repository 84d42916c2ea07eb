//! The board: sixteen 4-bit ranks in one `u64`, and moves as lookups in tables over all rows.

use std::fmt;
use std::sync::OnceLock;

use thiserror::Error;

/// A direction to slide the tiles.
///
/// The order of [`Direction::ALL`] (up, down, left, right) is the seed program's and
/// nneonneo's move numbering; agents that break ties by "first best" use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Towards row 0.
    Up,
    /// Towards row 3.
    Down,
    /// Towards column 0.
    Left,
    /// Towards column 3.
    Right,
}

impl Direction {
    /// All four directions in their canonical order.
    pub const ALL: [Direction; 4] = [Direction::Up, Direction::Down, Direction::Left, Direction::Right];

    /// The lower-case name: `up`, `down`, `left` or `right`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }

    /// The position of this direction in [`Direction::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest rank a cell can hold: 15, the 32768 tile.
pub const MAX_RANK: u8 = 15;

/// A move that would merge two 32768 tiles: their sum, 65536, does not fit in a 4-bit rank.
///
/// Such a merge is refused rather than stored wrongly: the direction is not a legal move (see
/// [`Board::slide`]), and a game where it is the only way on ends as [`crate::play::Outcome::Overflow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("moving {direction} would merge two 32768 tiles, and 65536 does not fit in a cell")]
pub struct TileOverflow {
    /// The direction that was refused.
    pub direction: Direction,
}

/// An error placing a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SpawnError {
    /// The cell index is not in `0..16`.
    #[error("cell {0} is outside the board (cells are 0 to 15)")]
    NoSuchCell(usize),
    /// The cell already holds a tile.
    #[error("cell {0} is not empty")]
    Occupied(usize),
    /// Only 2s and 4s spawn.
    #[error("a spawned tile is a 2 or a 4, not rank {0}")]
    NotASpawn(u8),
}

/// The result of a slide: the new board and the sum of the merged tiles' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slide {
    /// The board after the slide (before any spawn).
    pub board: Board,
    /// The value of every tile a merge created, summed: what the move adds to the score.
    pub score: u32,
}

/// A 2048 board: sixteen cells of 4 bits, cell `(row, col)` in nibble `4·row + col`, row 0 on top,
/// column 0 on the left. A nibble holds a rank: 0 for an empty cell, `r` for a tile of value 2^r.
///
/// ```text
///  bits  0..15 : row 0   nibble 0 = (0,0) … nibble 3 = (0,3)
///  bits 16..31 : row 1
///  bits 32..47 : row 2
///  bits 48..63 : row 3   nibble 15 = (3,3)
/// ```
///
/// Boards are `Copy`; every operation returns a new board.
///
/// # Examples
///
/// ```
/// use game2048::{Board, Direction};
///
/// let board: Board = "2 2 4 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
/// let slide = board.slide(Direction::Left).unwrap();
/// assert_eq!(slide.board.to_string(), "4 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
/// assert_eq!(slide.score, 4);
/// assert_eq!(board.value(2), 4);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board(u64);

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board(0);

    /// The board with these raw nibbles.
    pub const fn from_raw(raw: u64) -> Self {
        Board(raw)
    }

    /// The raw nibbles.
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// The board with the given ranks, row-major. Every rank must be at most 15.
    ///
    /// # Panics
    /// If a rank is above [`MAX_RANK`]; parse text with [`str::parse`] for a checked conversion.
    pub fn from_ranks(ranks: [u8; 16]) -> Self {
        let mut raw = 0;
        for (cell, &rank) in ranks.iter().enumerate() {
            assert!(rank <= MAX_RANK, "rank {rank} does not fit in a cell");
            raw |= u64::from(rank) << (4 * cell);
        }
        Board(raw)
    }

    /// The rank at `cell` (`4·row + col`): 0 for empty, `r` for a tile of 2^r.
    pub fn rank(self, cell: usize) -> u8 {
        ((self.0 >> (4 * cell)) & 0xF) as u8
    }

    /// The tile value at `cell`, 0 for an empty cell.
    pub fn value(self, cell: usize) -> u32 {
        match self.rank(cell) {
            0 => 0,
            r => 1 << r,
        }
    }

    /// The sixteen ranks, row-major.
    pub fn ranks(self) -> [u8; 16] {
        std::array::from_fn(|cell| self.rank(cell))
    }

    /// The sixteen tile values, row-major, 0 for empty cells.
    pub fn values(self) -> [u32; 16] {
        std::array::from_fn(|cell| self.value(cell))
    }

    /// The board with `cell` set to `rank` (no checks; `rank` is masked to 4 bits).
    pub fn with_rank(self, cell: usize, rank: u8) -> Self {
        let shift = 4 * cell;
        Board((self.0 & !(0xF << shift)) | (u64::from(rank & 0xF) << shift))
    }

    /// Row `r` as 16 bits: nibble `c` is column `c`.
    pub fn row(self, r: usize) -> u16 {
        (self.0 >> (16 * r)) as u16
    }

    /// The board mirrored in its main diagonal: cell `(r, c)` goes to `(c, r)`.
    #[inline]
    pub fn transpose(self) -> Self {
        let x = self.0;
        let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
        let a2 = x & 0x0000_F0F0_0000_F0F0;
        let a3 = x & 0x0F0F_0000_0F0F_0000;
        let a = a1 | (a2 << 12) | (a3 >> 12);
        let b1 = a & 0xFF00_FF00_00FF_00FF;
        let b2 = a & 0x00FF_00FF_0000_0000;
        let b3 = a & 0x0000_0000_FF00_FF00;
        Board(b1 | (b2 >> 24) | (b3 << 24))
    }

    /// A bit per empty cell (bit `cell` set when the cell is empty).
    pub fn empty_mask(self) -> u16 {
        // One bit per empty cell at the bottom of its nibble, then gathered: each step folds
        // the bits at one distance onto the ones below and masks the rest away.
        let mut m = !self.occupied_bits() & 0x1111_1111_1111_1111;
        m = (m | m >> 3) & 0x0303_0303_0303_0303;
        m = (m | m >> 6) & 0x000F_000F_000F_000F;
        m = (m | m >> 12) & 0x0000_00FF_0000_00FF;
        m = (m | m >> 24) & 0xFFFF;
        m as u16
    }

    /// A bit at the lowest bit of every non-empty cell's nibble.
    #[inline]
    fn occupied_bits(self) -> u64 {
        let mut x = self.0;
        x |= x >> 2;
        x |= x >> 1;
        x & 0x1111_1111_1111_1111
    }

    /// Whether some cell is empty (cheaper than counting them: no population count).
    #[inline]
    pub fn has_empty(self) -> bool {
        self.occupied_bits() != 0x1111_1111_1111_1111
    }

    /// The number of empty cells.
    pub fn empty_count(self) -> u32 {
        let mut x = self.0;
        x |= x >> 2;
        x |= x >> 1;
        16 - (x & 0x1111_1111_1111_1111).count_ones()
    }

    /// The highest rank on the board (0 on an empty board).
    pub fn max_rank(self) -> u8 {
        (0..16).map(|cell| self.rank(cell)).max().unwrap_or(0)
    }

    /// The highest tile value on the board (0 on an empty board).
    pub fn max_tile(self) -> u32 {
        match self.max_rank() {
            0 => 0,
            r => 1 << r,
        }
    }

    /// The number of distinct tile values on the board.
    pub fn distinct_tiles(self) -> u32 {
        let seen = (0..16).fold(0u16, |seen, cell| seen | (1 << self.rank(cell)));
        (seen & !1).count_ones()
    }

    /// The sum of the tile values.
    pub fn tile_sum(self) -> u64 {
        (0..16).map(|cell| u64::from(self.value(cell))).sum()
    }

    /// The points a game scores building this board's tiles from 2s: a tile `2^k` took `k - 1`
    /// merges, one into each of `4, 8, …, 2^k`, worth `(k - 1) · 2^k` in all. A slide raises it
    /// by exactly the slide's merge score, so two boards reached from one board by a slide each
    /// differ by their merge scores. (A spawned 4 adds 4 points no merge scored.)
    ///
    /// ```
    /// use game2048::{Board, Direction};
    ///
    /// let board = Board::from_ranks([1, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    /// assert_eq!(board.tile_points(), 4 + 16);
    /// let slide = board.play(Direction::Left).unwrap();
    /// assert_eq!(slide.board.tile_points(), board.tile_points() + u64::from(slide.score));
    /// ```
    pub fn tile_points(self) -> u64 {
        (0..16)
            .map(|cell| match self.rank(cell) {
                0 | 1 => 0,
                rank => u64::from(rank - 1) << rank,
            })
            .sum()
    }

    /// Slides the tiles towards `direction`, merging equal neighbours once each, the merges
    /// nearest the wall first. Returns the new board (equal to `self` when nothing moves) and the
    /// merge score, or [`TileOverflow`] if two 32768 tiles would merge.
    pub fn slide(self, direction: Direction) -> Result<Slide, TileOverflow> {
        let t = tables();
        let lines = self.lines(direction);
        let mut score = 0u32;
        for r in 0..4 {
            let line = usize::from((lines >> (16 * r)) as u16);
            if t.overflow[line] {
                return Err(TileOverflow { direction });
            }
            score += t.score[line];
        }
        Ok(Slide { board: Board(slid(direction, lines)), score })
    }

    /// The board as the tables see a slide towards `direction`: itself for left and right, its
    /// transpose (whose rows are our columns) for up and down.
    #[inline(always)]
    fn lines(self, direction: Direction) -> u64 {
        match direction {
            Direction::Left | Direction::Right => self.0,
            Direction::Up | Direction::Down => self.transpose().0,
        }
    }

    /// The board after sliding towards `direction`, if that is a legal move (it changes the
    /// board and merges no two 32768s), without the merge score.
    ///
    /// # Examples
    ///
    /// ```
    /// use game2048::{Board, Direction};
    ///
    /// let board: Board = "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
    /// assert_eq!(board.after(Direction::Left), Some("4 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap()));
    /// assert_eq!(board.after(Direction::Up), None);
    /// ```
    #[inline(always)]
    pub fn after(self, direction: Direction) -> Option<Board> {
        if self.has_max_rank() {
            return self.after_checked(direction);
        }
        // One match on the direction, each arm its own table: sharing the row path between
        // left and right (and the transpose between up and down) put a second branch before
        // the table reads, and a call took about a fifth longer.
        let raw = match direction {
            Direction::Up => columns_slid(&UP, self.transpose().0),
            Direction::Down => columns_slid(&DOWN, self.transpose().0),
            Direction::Left => rows_slid(&LEFT, self.0),
            Direction::Right => rows_slid(&RIGHT, self.0),
        };
        (raw != self.0).then_some(Board(raw))
    }

    /// [`Board::after`] for all four directions, in [`Direction::ALL`] order: what a search
    /// needs at every node, with the board transposed once.
    ///
    /// # Examples
    ///
    /// ```
    /// use game2048::{Board, Direction};
    ///
    /// let board: Board = "2 0 0 0/2 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
    /// let afters = board.afters();
    /// for (i, d) in Direction::ALL.into_iter().enumerate() {
    ///     assert_eq!(afters[i], board.after(d));
    /// }
    /// assert_eq!(afters[2], None); // left changes nothing
    /// ```
    #[inline]
    pub fn afters(self) -> [Option<Board>; 4] {
        if self.has_max_rank() {
            return Direction::ALL.map(|d| self.after_checked(d));
        }
        let transposed = self.transpose().0;
        let legal = |raw: u64| (raw != self.0).then_some(Board(raw));
        [
            legal(columns_slid(&UP, transposed)),
            legal(columns_slid(&DOWN, transposed)),
            legal(rows_slid(&LEFT, self.0)),
            legal(rows_slid(&RIGHT, self.0)),
        ]
    }

    /// [`Board::after`] through [`Board::slide`], which refuses an overflowing merge: the rare
    /// path for boards with a 32768.
    #[cold]
    #[inline(never)]
    fn after_checked(self, direction: Direction) -> Option<Board> {
        self.play(direction).map(|s| s.board)
    }

    /// The board after sliding towards `direction`, if that changes it and needs no overflowing
    /// merge: `Some` exactly for the legal moves.
    pub fn play(self, direction: Direction) -> Option<Slide> {
        self.slide(direction).ok().filter(|s| s.board != self)
    }

    /// The legal directions in canonical order.
    pub fn legal_moves(self) -> impl Iterator<Item = Direction> {
        Direction::ALL.into_iter().filter(move |&d| self.after(d).is_some())
    }

    /// Whether no direction is a legal move.
    #[inline]
    pub fn is_terminal(self) -> bool {
        // Fast path for boards without a 32768 (where refused merges cannot occur): a board
        // with tiles and an empty cell always has a move, and a full one has one exactly when
        // two neighbours are equal.
        if !self.has_max_rank() {
            if self.0 == 0 {
                return true;
            }
            return !self.has_empty() && !self.has_equal_neighbours();
        }
        self.is_terminal_checked()
    }

    /// [`Board::is_terminal`] by trying every direction: the rare path for boards with a 32768.
    #[cold]
    #[inline(never)]
    fn is_terminal_checked(self) -> bool {
        self.legal_moves().next().is_none()
    }

    /// Whether some cell holds a 32768 (rank 15, all four bits of its nibble set).
    #[inline]
    pub(crate) fn has_max_rank(self) -> bool {
        // A nibble of 15 is a zero nibble of `!x`, and `(y - 0x1…1) & !y & 0x8…8` is non-zero
        // exactly when some nibble of `y` is zero (a borrow only starts at a zero nibble):
        // four operations where testing the four bits of each nibble took seven, on the path
        // of every `after`.
        let x = self.0;
        (!x).wrapping_sub(0x1111_1111_1111_1111) & x & 0x8888_8888_8888_8888 != 0
    }

    /// Whether two side-by-side or stacked cells hold equal tiles.
    #[inline]
    fn has_equal_neighbours(self) -> bool {
        let x = self.0;
        let t = self.transpose().0;
        // In each row, compare columns c and c+1: a zero nibble in x ^ (x >> 4) at columns 0..2.
        let same = |w: u64| {
            let d = w ^ (w >> 4);
            (0..4).any(|r| (0..3).any(|c| (d >> (16 * r + 4 * c)) & 0xF == 0))
        };
        same(x) || same(t)
    }

    /// Whether the only moves that would change the board are refused merges of two 32768s.
    pub fn is_blocked_by_overflow(self) -> bool {
        self.is_terminal() && Direction::ALL.iter().any(|&d| self.slide(d).is_err())
    }

    /// The board with a tile of `rank` (1 for a 2, 2 for a 4) placed on the empty `cell`.
    pub fn spawn(self, cell: usize, rank: u8) -> Result<Board, SpawnError> {
        if cell >= 16 {
            return Err(SpawnError::NoSuchCell(cell));
        }
        if !(1..=2).contains(&rank) {
            return Err(SpawnError::NotASpawn(rank));
        }
        if self.rank(cell) != 0 {
            return Err(SpawnError::Occupied(cell));
        }
        Ok(self.with_rank(cell, rank))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

/// Slides one line of four ranks towards its start (index 0): the plain definition the tables
/// are built from, and the reference the tests check the tables against.
///
/// Returns the new line, the merge score and whether two 32768s (rank 15) would merge; in that
/// case the two are left unmerged in the returned line.
///
/// # Examples
///
/// ```
/// use game2048::slide_line;
///
/// assert_eq!(slide_line([1, 1, 1, 1]), ([2, 2, 0, 0], 8, false));
/// assert_eq!(slide_line([2, 2, 3, 0]), ([3, 3, 0, 0], 8, false)); // no chain merge
/// assert_eq!(slide_line([15, 15, 0, 0]).2, true);
/// ```
pub const fn slide_line(line: [u8; 4]) -> ([u8; 4], u32, bool) {
    // A `const fn` (loops, no iterators), so that the move tables are built by the compiler.
    let mut tiles = [0u8; 4];
    let mut count = 0;
    let mut i = 0;
    while i < 4 {
        if line[i] != 0 {
            tiles[count] = line[i];
            count += 1;
        }
        i += 1;
    }
    let mut out = [0u8; 4];
    let mut n = 0;
    let mut score = 0;
    let mut overflow = false;
    i = 0;
    while i < count {
        if i + 1 < count && tiles[i] == tiles[i + 1] {
            if tiles[i] == MAX_RANK {
                overflow = true;
                out[n] = tiles[i];
                n += 1;
                i += 1;
                continue;
            }
            out[n] = tiles[i] + 1;
            score += 1u32 << (tiles[i] + 1);
            n += 1;
            i += 2;
        } else {
            out[n] = tiles[i];
            n += 1;
            i += 1;
        }
    }
    (out, score, overflow)
}

fn unpack(line: u16) -> [u8; 4] {
    std::array::from_fn(|i| ((line >> (4 * i)) & 0xF) as u8)
}

const LINES: usize = 1 << 16;

/// The move tables of lines (four ranks, the first cell in the low nibble) slid towards their
/// first cell and towards their last, as in a legal slide: a line with a 32768 merges it like
/// any other rank, so callers rule those out first (see [`Board::after`]).
pub(crate) fn line_slides() -> (&'static [u16; LINES], &'static [u16; LINES]) {
    (&LEFT, &RIGHT)
}

/// A line slid towards its first cell (`towards_last` false) or its last, packed as
/// [`Board::row`] gives it.
const fn slid_line_packed(line: u16, towards_last: bool) -> u16 {
    let mut ranks = [0u8; 4];
    let mut i = 0;
    while i < 4 {
        let cell = if towards_last { 3 - i } else { i };
        ranks[i] = ((line >> (4 * cell)) & 0xF) as u8;
        i += 1;
    }
    let (slid, _, _) = slide_line(ranks);
    let mut packed = 0u16;
    i = 0;
    while i < 4 {
        let cell = if towards_last { 3 - i } else { i };
        packed |= (slid[i] as u16) << (4 * cell);
        i += 1;
    }
    packed
}

/// Every line slid one way: see [`slid_line_packed`].
const fn line_table(towards_last: bool) -> [u16; LINES] {
    let mut table = [0u16; LINES];
    let mut line = 0;
    while line < LINES {
        table[line] = slid_line_packed(line as u16, towards_last);
        line += 1;
    }
    table
}

/// `lines` put back as columns: a line's cells at bits 0, 16, 32 and 48.
const fn column_table(lines: &[u16; LINES]) -> [u64; LINES] {
    let mut table = [0u64; LINES];
    let mut line = 0;
    while line < LINES {
        let slid = lines[line] as u64;
        table[line] =
            (slid & 0xF) | (slid >> 4 & 0xF) << 16 | (slid >> 8 & 0xF) << 32 | (slid >> 12 & 0xF) << 48;
        line += 1;
    }
    table
}

/// The move tables, built by the compiler: a slide reads them at a fixed address, with no
/// check that they exist. Arrays of exactly 65,536 entries, so that indexing by a `u16` needs
/// no bounds check. Up and down slide the rows of the transposed board.
///
/// A row slid left (towards column 0).
static LEFT: [u16; LINES] = line_table(false);
/// A row slid right.
static RIGHT: [u16; LINES] = line_table(true);
/// A column (a row of the transposed board) slid up, put back as a column: its cells at bits 0,
/// 16, 32 and 48. Only [`Board::after`] reads these.
static UP: [u64; LINES] = column_table(&LEFT);
/// The same, slid down.
static DOWN: [u64; LINES] = column_table(&RIGHT);

/// The tables a plain slide needs besides the moves, built once per process; boxed, so that
/// building them never puts megabytes on a thread's stack.
struct Tables {
    /// The merge score of a line; the same in both directions (runs of equal tiles pair up the
    /// same number of times from either end).
    score: Box<[u32; LINES]>,
    overflow: Box<[bool; LINES]>,
}

/// The raw board after sliding towards `direction`, from [`Board::lines`] of the board before.
/// An overflowing merge must have been ruled out.
#[inline(always)]
fn slid(direction: Direction, lines: u64) -> u64 {
    {
        let table = match direction {
            Direction::Left | Direction::Up => &LEFT,
            Direction::Right | Direction::Down => &RIGHT,
        };
        let rows = rows_slid(table, lines);
        match direction {
            Direction::Left | Direction::Right => rows,
            Direction::Up | Direction::Down => Board(rows).transpose().0,
        }
    }
}

/// The raw board whose rows are the rows of `rows` slid by `table` ([`LEFT`] or [`RIGHT`]).
#[inline(always)]
fn rows_slid(table: &[u16; LINES], rows: u64) -> u64 {
    (0..4).fold(0, |acc, r| acc | u64::from(table[usize::from((rows >> (16 * r)) as u16)]) << (16 * r))
}

/// The raw board whose columns are the rows of `transposed` slid by `table` ([`UP`] or
/// [`DOWN`]), put back in place as columns.
#[inline(always)]
fn columns_slid(table: &[u64; LINES], transposed: u64) -> u64 {
    (0..4).fold(0, |acc, i| acc | table[usize::from((transposed >> (16 * i)) as u16)] << (4 * i))
}

/// A zeroed array built on the heap.
fn boxed<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    vec![T::default(); N].into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("the length is N"))
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let (mut score, mut overflow) = (boxed::<u32, LINES>(), boxed::<bool, LINES>());
        for line in 0..=u16::MAX {
            let (_, line_score, line_overflow) = slide_line(unpack(line));
            score[usize::from(line)] = line_score;
            overflow[usize::from(line)] = line_overflow;
        }
        Tables { score, overflow }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(line: [u8; 4]) -> u16 {
        line.iter().enumerate().fold(0, |acc, (i, &r)| acc | (u16::from(r) << (4 * i)))
    }

    /// The borrow test for a 32768 agrees with reading every cell: each rank in each cell
    /// beside every other rank (in the other cells, the two ranks around a zero nibble of
    /// `!x` that a borrow could cross), and many pseudo-random boards.
    #[test]
    fn max_rank_test_agrees_with_the_cells() {
        let by_cells = |b: Board| (0..16).any(|c| b.rank(c) == 15);
        let mut boards = Vec::new();
        for cell in 0..16 {
            for rank in 0..16u64 {
                for rest in [0u64, 0xEEEE_EEEE_EEEE_EEEE, 0x1111_1111_1111_1111, 0x7777_7777_7777_7777] {
                    boards.push((rest & !(0xF << (4 * cell))) | rank << (4 * cell));
                }
            }
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            boards.push(x);
        }
        for raw in boards {
            let board = Board(raw);
            assert_eq!(board.has_max_rank(), by_cells(board), "{raw:016x}");
        }
    }

    /// The tables the compiler builds are the plain definition, on every line: left as
    /// `slide_line`, right as it on the reversed line, up and down as columns of those.
    #[test]
    fn move_tables_are_slide_line_on_every_line() {
        for line in 0..=u16::MAX {
            let i = usize::from(line);
            let ranks = unpack(line);
            assert_eq!(LEFT[i], pack(slide_line(ranks).0), "{line:04x}");
            let mut reversed = ranks;
            reversed.reverse();
            let mut right = slide_line(reversed).0;
            right.reverse();
            assert_eq!(RIGHT[i], pack(right), "{line:04x}");
            let column =
                |l: u16| (0..4).fold(0u64, |acc, k| acc | u64::from((l >> (4 * k)) & 0xF) << (16 * k));
            assert_eq!((UP[i], DOWN[i]), (column(LEFT[i]), column(RIGHT[i])), "{line:04x}");
        }
    }

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    #[test]
    fn canonical_line_cases() {
        // The reference's table of cases, identical in OpenSpiel, nneonneo and the seed program.
        let cases = [
            ("2 2 2 2", Direction::Left, "4 4 0 0", 8),
            ("2 2 2 0", Direction::Left, "4 2 0 0", 4),
            ("2 2 2 0", Direction::Right, "0 0 2 4", 4),
            ("4 4 8 0", Direction::Left, "8 8 0 0", 8),
            ("2 0 2 4", Direction::Left, "4 4 0 0", 4),
            ("4 2 2 0", Direction::Left, "4 4 0 0", 4),
            ("8 8 16 16", Direction::Right, "0 0 16 32", 48),
        ];
        for (before, dir, after, score) in cases {
            let b = board(&format!("{before}/0 0 0 0/0 0 0 0/0 0 0 0"));
            let s = b.slide(dir).unwrap();
            assert_eq!(s.board, board(&format!("{after}/0 0 0 0/0 0 0 0/0 0 0 0")), "{before} {dir}");
            assert_eq!(s.score, score);
        }
    }

    #[test]
    fn columns_merge_once_per_move() {
        // A column (top to bottom) 0 2 2 2 moved down.
        let b = board("0 0 0 0/2 0 0 0/2 0 0 0/2 0 0 0");
        let s = b.slide(Direction::Down).unwrap();
        assert_eq!(s.board, board("0 0 0 0/0 0 0 0/2 0 0 0/4 0 0 0"));
        assert_eq!(s.score, 4);
        // OpenSpiel's OneMergePerTurnTest: the new 4 does not merge with the 4 below it.
        let b = board("2 4 0 4/0 2 0 2/0 0 0 0/0 2 0 0");
        let s = b.slide(Direction::Down).unwrap();
        assert_eq!((s.board.value(9), s.board.value(13), s.board.value(5), s.board.value(1)), (4, 4, 0, 0));
        assert_eq!(s.score, 4);
    }

    #[test]
    fn no_change_is_not_a_move() {
        let b = board("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0");
        assert!(b.play(Direction::Left).is_none());
        assert!(b.play(Direction::Up).is_none());
        assert!(b.play(Direction::Down).is_some());
        assert_eq!(b.legal_moves().collect::<Vec<_>>(), vec![Direction::Down]);
    }

    #[test]
    fn terminal_boards() {
        let full = board("2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2");
        assert!(full.is_terminal());
        assert!(!full.is_blocked_by_overflow());
        let mergeable = board("2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 4");
        assert!(!mergeable.is_terminal());
    }

    #[test]
    fn two_32768s_do_not_merge() {
        let b = board("32768 32768 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
        assert_eq!(b.slide(Direction::Left), Err(TileOverflow { direction: Direction::Left }));
        assert_eq!(b.slide(Direction::Right), Err(TileOverflow { direction: Direction::Right }));
        // Up and down do not merge them, so they are ordinary moves.
        assert!(b.play(Direction::Down).is_some());
        let blocked = board("32768 32768 2 4/4 2 4 2/2 4 2 4/4 2 4 2");
        assert!(blocked.is_terminal());
        assert!(blocked.is_blocked_by_overflow());
    }

    #[test]
    fn counts_and_spawns() {
        let b = board("2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2");
        assert_eq!((b.empty_count(), b.max_tile(), b.distinct_tiles(), b.tile_sum()), (12, 8, 3, 16));
        assert_eq!(b.empty_mask().count_ones(), 12);
        assert_eq!(b.empty_mask() & 1, 0);
        assert_eq!(b.spawn(0, 1), Err(SpawnError::Occupied(0)));
        assert_eq!(b.spawn(16, 1), Err(SpawnError::NoSuchCell(16)));
        assert_eq!(b.spawn(1, 3), Err(SpawnError::NotASpawn(3)));
        assert_eq!(b.spawn(1, 2).unwrap().value(1), 4);
        assert_eq!(Board::EMPTY.empty_count(), 16);
        assert_eq!(Board::EMPTY.max_tile(), 0);
    }

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let b = Board::from_ranks(std::array::from_fn(|i| i as u8));
        let t = b.transpose();
        for r in 0..4 {
            for c in 0..4 {
                assert_eq!(t.rank(4 * r + c), b.rank(4 * c + r));
            }
        }
        assert_eq!(t.transpose(), b);
    }
}
