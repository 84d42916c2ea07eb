//! Local patterns learned from games: how likely a strong player is to play an empty cell, judged
//! from the twelve cells around it (MoHex 2.0's move priors, learned here by our own code from
//! our own games).
//!
//! # The pattern of a cell
//!
//! [`pattern`] reads the six neighbours of an empty cell and the six cells that form a bridge
//! with it, each as empty, the mover's stone, the opponent's stone, or off the board. How a cell
//! off the board reads is the pattern's [`PatternCode`]: in [`PatternCode::Stones`] it counts as
//! a stone of the side whose edge it is (an edge connects like a row of stones) and a cell beyond
//! two edges at once, off a corner, has a state of its own; in [`PatternCode::Edges`] every cell
//! off the board has one state of its own, as in MoHex's patterns, so that a pattern beside an
//! edge does not share its strength with the same stones in the open. The board is first seen
//! from the player to move: when White is to move it is mirrored in the long diagonal with the
//! colours swapped ([`Position::mirrored`]), so a pattern means the same thing for both sides.
//! Hex is also symmetric under a half turn of the board, so a pattern and its half turn are one
//! code (the smaller of the two).
//!
//! # Weights
//!
//! [`PatternWeights`] gives each pattern a strength γ; a cell's prior is its γ over the sum of
//! the γ of every empty cell (the generalised Bradley–Terry model of Coulom's "Computing Elo
//! Ratings of Move Patterns in the Game of Go", 2007). [`PatternWeights::learn`] fits the γ to
//! samples of chosen moves by minorization–maximization, with one virtual win and one virtual
//! loss against a γ of 1 for each pattern, so a pattern seen rarely stays near 1, which is also
//! the strength of a pattern never seen. [`PatternWeights::shipped`] are weights learned from our
//! own MCTS player's self-play (`cargo xtask hex-patterns` regenerates them); the player uses them
//! as priors in its tree ([`crate::mcts::MctsConfig::prior_weight`]).
//!
//! # Answering the last move
//!
//! [`local`] gives the cells around the opponent's last stone a second code, read from the
//! cell's six neighbours and the stone's place among its twelve cells.
//! [`PatternWeights::learn_local`] fits their strengths with the pattern strengths held fixed
//! (a cell near the last stone is then worth its pattern's γ times its local code's γ), and the
//! same codes against a flat rest weigh the playouts' answers
//! ([`crate::mcts::LocalPolicy`]). On held-out moves of our own self-play (9×9 and 11×11), the
//! shipped patterns alone rank the move the search chose first 37.8 % of the time, and with
//! the local strengths 55.9 % ([`PatternWeights::shipped_local`]).
//!
//! # Examples
//!
//! ```
//! use hex::patterns::PatternWeights;
//! use hex::{Cell, HexMove, Position, parse_cell};
//!
//! // Black's bridge c3–d4 is cut at d3: saving it at c4 is among Black's likeliest cells.
//! let mut position = Position::new(9).unwrap();
//! for cell in ["c3", "a9", "d4", "d3"] {
//!     position = position.play(HexMove::Place(parse_cell(cell, 9).unwrap())).unwrap();
//! }
//! let cells: Vec<Cell> = position.board().empty_cells().collect();
//! let mut gammas = Vec::new();
//! PatternWeights::shipped().cell_gammas(&position, cells.iter().copied(), &mut gammas);
//! let save = gammas[cells.iter().position(|&c| c == Cell::new(3, 2)).unwrap()];
//! assert!(gammas.iter().filter(|&&g| g > save).count() < 3);
//! ```

use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::board::{Cell, Color, Position};

/// The cells a pattern reads.
pub const PATTERN_CELLS: usize = 12;

/// The offsets `(row, column)` of the cells a pattern reads: the six neighbours in ring order,
/// then the six bridge cells, the `k`-th between neighbours `k` and `k + 1`. A half turn maps
/// place `k` of each group to place `k + 3`.
pub(crate) const OFFSETS: [(i8, i8); PATTERN_CELLS] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-2, 1),
    (-1, 2),
    (1, 1),
    (2, -1),
    (1, -2),
    (-1, -1),
];

/// The state of a cell in a pattern: empty.
const EMPTY: u32 = 0;
/// The player to move's stone, or their edge.
const MINE: u32 = 1;
/// The opponent's stone, or their edge.
const THEIRS: u32 = 2;
/// Off the board beyond both edges (off a corner); in [`PatternCode::Edges`], off the board.
const CORNER: u32 = 3;
/// The flag a [`PatternGrid`] adds to the state of a cell off the board.
const OFF: u8 = 4;

/// How a pattern reads the cells off the board (see the [module docs](self)). Both codes give
/// two bits per cell read; a weights file says which code its patterns are in
/// ([`PatternWeights::code`]), and the priors read each table in its own code.
///
/// ```
/// use hex::patterns::{PatternCode, PatternGrid};
/// use hex::{Cell, Position};
///
/// // On the empty board a cell in the middle sees no edge: both codes agree.
/// let grid = PatternGrid::new(&Position::new(7).unwrap());
/// let (middle, side) = (Cell::new(3, 3), Cell::new(0, 3));
/// assert_eq!(grid.code_as(PatternCode::Stones, middle), grid.code_as(PatternCode::Edges, middle));
/// // Beside the top edge (Black's, and Black is to move) they differ.
/// assert_ne!(grid.code_as(PatternCode::Stones, side), grid.code_as(PatternCode::Edges, side));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PatternCode {
    /// An edge reads as a stone of its owner, a cell off a corner as a state of its own: the
    /// code of every weights file before the edge code (header `hex-patterns 1`), and the code
    /// of the local-response and playout patterns.
    #[default]
    Stones,
    /// Every cell off the board reads as one state of its own (header `hex-patterns 1 edges`).
    /// Which places fall off the board still tells whose edge a cell is beside, since the mover's
    /// edges run along the top and the bottom of its view; only the two kinds of corner merge.
    Edges,
}

impl PatternCode {
    /// The state a pattern of this code reads for a [`PatternGrid`] state.
    fn read(self, state: u8) -> u32 {
        match self {
            PatternCode::Stones => u32::from(state & 3),
            PatternCode::Edges if state & OFF != 0 => CORNER,
            PatternCode::Edges => u32::from(state),
        }
    }
}

/// The pattern code of an empty `cell` of `position` for the player to move (see the
/// [module docs](self)) in [`PatternCode::Stones`]: two bits per cell read, the same for a
/// pattern and its half turn.
///
/// # Panics
/// If `cell` is off the board.
///
/// # Examples
///
/// ```
/// use hex::patterns::pattern;
/// use hex::{Cell, Position};
///
/// // The half turn of the empty board maps the corner a1 to the corner opposite.
/// let start = Position::new(5).unwrap();
/// assert_eq!(pattern(&start, Cell::new(0, 0)), pattern(&start, Cell::new(4, 4)));
/// assert_ne!(pattern(&start, Cell::new(0, 0)), pattern(&start, Cell::new(2, 2)));
/// ```
pub fn pattern(position: &Position, cell: Cell) -> u32 {
    PatternGrid::new(position).code(cell)
}

/// A position seen from the player to move, with a border two cells wide standing for the
/// edges, so that [`PatternGrid::code`] reads any cell's pattern with twelve fixed offsets.
/// Build one per position when many cells' patterns are needed.
///
/// # Examples
///
/// ```
/// use hex::patterns::{PatternGrid, pattern};
/// use hex::{Cell, Position};
///
/// let start = Position::new(7).unwrap();
/// let grid = PatternGrid::new(&start);
/// assert_eq!(grid.code(Cell::new(2, 5)), pattern(&start, Cell::new(2, 5)));
/// ```
#[derive(Clone, Debug)]
pub struct PatternGrid {
    me: Color,
    size: u8,
    stride: usize,
    /// States ([`EMPTY`], [`MINE`], …) of the mover's view, border included, row by row; a
    /// border cell's state carries [`OFF`] beside its [`PatternCode::Stones`] state.
    states: Vec<u8>,
    /// The offsets of [`OFFSETS`] in `states`.
    offsets: [isize; PATTERN_CELLS],
}

impl PatternGrid {
    /// The grid of `position`, seen from its player to move.
    pub fn new(position: &Position) -> PatternGrid {
        let board = position.board();
        let me = position.to_move();
        let n = i16::from(board.size());
        let stride = usize::from(board.size()) + 4;
        let mut states = Vec::with_capacity(stride * stride);
        for r in -2..n + 2 {
            for c in -2..n + 2 {
                let state = match ((0..n).contains(&r), (0..n).contains(&c)) {
                    // Past the top or bottom of the mover's view: the mover's own edge.
                    (false, true) => MINE | u32::from(OFF),
                    (true, false) => THEIRS | u32::from(OFF),
                    (false, false) => CORNER | u32::from(OFF),
                    (true, true) => {
                        let real = match me {
                            Color::Black => Cell::new(r as u8, c as u8),
                            Color::White => Cell::new(c as u8, r as u8),
                        };
                        match board.get(real) {
                            None => EMPTY,
                            Some(colour) if colour == me => MINE,
                            Some(_) => THEIRS,
                        }
                    }
                };
                states.push(state as u8);
            }
        }
        let offsets = OFFSETS.map(|(dr, dc)| isize::from(dr) * stride as isize + isize::from(dc));
        PatternGrid { me, size: board.size(), stride, states, offsets }
    }

    /// The pattern code of `cell` in [`PatternCode::Stones`] (see [`pattern`]).
    ///
    /// # Panics
    /// If `cell` is off the board.
    pub fn code(&self, cell: Cell) -> u32 {
        self.code_as(PatternCode::Stones, cell)
    }

    /// The pattern code of `cell` in the code `kind`.
    ///
    /// # Panics
    /// If `cell` is off the board.
    pub fn code_as(&self, kind: PatternCode, cell: Cell) -> u32 {
        assert!(cell.row < self.size && cell.col < self.size, "{cell} is off a {0}x{0} board", self.size);
        // White's view is the board mirrored in the long diagonal.
        let (r, c) = match self.me {
            Color::Black => (cell.row, cell.col),
            Color::White => (cell.col, cell.row),
        };
        let centre = (usize::from(r) + 2) * self.stride + usize::from(c) + 2;
        let mut code = 0;
        for (k, &offset) in self.offsets.iter().enumerate() {
            code |= kind.read(self.states[centre.wrapping_add_signed(offset)]) << (2 * k);
        }
        code.min(half_turn(code))
    }

    /// The local-response code of the empty `cell` when the opponent's last stone is at `last`
    /// (see [`local`]), or `None` if `last` is not among the twelve cells `cell`'s pattern reads.
    ///
    /// # Panics
    /// If `cell` or `last` is off the board.
    pub fn local_code(&self, cell: Cell, last: Cell) -> Option<u32> {
        assert!(cell.row < self.size && cell.col < self.size, "{cell} is off a {0}x{0} board", self.size);
        assert!(last.row < self.size && last.col < self.size, "{last} is off a {0}x{0} board", self.size);
        let view = |cell: Cell| match self.me {
            Color::Black => (i16::from(cell.row), i16::from(cell.col)),
            Color::White => (i16::from(cell.col), i16::from(cell.row)),
        };
        let ((r, c), (lr, lc)) = (view(cell), view(last));
        let place =
            OFFSETS.iter().position(|&(dr, dc)| (i16::from(dr), i16::from(dc)) == (lr - r, lc - c))?;
        let centre = (r as usize + 2) * self.stride + c as usize + 2;
        let mut ring = 0;
        for (k, &offset) in self.offsets[..RING_CELLS].iter().enumerate() {
            ring |= PatternCode::Stones.read(self.states[centre.wrapping_add_signed(offset)]) << (2 * k);
        }
        Some(local_key(ring, place))
    }
}

/// The code of a pattern turned by half a turn: place `k` of each group of six goes to `k + 3`,
/// which rotates each 12-bit group by 6 bits.
pub(crate) fn half_turn(code: u32) -> u32 {
    let turn = |group: u32| ((group << 6) | (group >> 6)) & 0xFFF;
    turn(code & 0xFFF) | (turn(code >> 12) << 12)
}

/// The cells a playout pattern reads: the six neighbours, the first six of a full pattern.
pub const RING_CELLS: usize = 6;

/// The number of playout pattern codes: every [`ring`] code is below it.
pub const RING_CODES: usize = 1 << (2 * RING_CELLS);

/// The playout pattern of a full pattern `code` (as [`pattern`] gives it): its six neighbours
/// alone, the same for a ring and its half turn. Playouts read these small patterns because a
/// stone changes them in six cells only, and a table of [`RING_CODES`] entries holds them all
/// ([`crate::mcts::PlayoutPolicy`]).
///
/// # Examples
///
/// ```
/// use hex::patterns::{RING_CODES, pattern, ring};
/// use hex::{Cell, Position};
///
/// // On the empty board, a cell away from the edges sees six empty neighbours: code 0.
/// let start = Position::new(7).unwrap();
/// assert_eq!(ring(pattern(&start, Cell::new(3, 3))), 0);
/// // Two cells two rows apart see different bridge cells but the same neighbours.
/// assert_eq!(ring(pattern(&start, Cell::new(2, 3))), ring(pattern(&start, Cell::new(4, 3))));
/// assert!((ring(pattern(&start, Cell::new(0, 0))) as usize) < RING_CODES);
/// ```
pub fn ring(code: u32) -> u32 {
    // The full code is canonical under the half turn, which turns the neighbours too: its low
    // twelve bits are the ring or the ring's half turn, and either gives the same minimum.
    let group = code & 0xFFF;
    group.min(((group << 6) | (group >> 6)) & 0xFFF)
}

/// The number of local-response codes: every [`PatternGrid::local_code`] is below it.
pub const LOCAL_CODES: usize = PATTERN_CELLS << (2 * RING_CELLS);

/// The local-response code of an empty `cell` of `position` after the opponent's stone at
/// `last`, or `None` if `last` is not one of the twelve cells around `cell` (its six neighbours
/// and the six cells that form a bridge with it).
///
/// MoHex 2.0 answers the last move with patterns of their own: a cell near the opponent's last
/// stone is judged by its shape *and* by where that stone lies, because most good moves answer
/// the last one (saving a bridge it intrudes on, blocking the stone it adds to a chain). The
/// code is the cell's six neighbours as [`ring`] reads them, seen from the player to move, and
/// the place of the last stone among the twelve (0–5 the neighbours in ring order, 6–11 the
/// bridge cells), the same for a pattern and its half turn. Its strength multiplies the cell's
/// pattern strength ([`PatternWeights::shipped_local`]).
///
/// # Examples
///
/// ```
/// use hex::patterns::{LOCAL_CODES, local};
/// use hex::{Cell, HexMove, Position};
///
/// let position = Position::new(7).unwrap().play(HexMove::Place(Cell::new(3, 3))).unwrap();
/// // The six neighbours of the stone and the six cells bridged to it are local; others not.
/// assert!(local(&position, Cell::new(3, 4), Cell::new(3, 3)).is_some());
/// assert!(local(&position, Cell::new(1, 4), Cell::new(3, 3)).is_some());
/// assert_eq!(local(&position, Cell::new(3, 5), Cell::new(3, 3)), None);
/// assert!((local(&position, Cell::new(2, 3), Cell::new(3, 3)).unwrap() as usize) < LOCAL_CODES);
/// ```
pub fn local(position: &Position, cell: Cell, last: Cell) -> Option<u32> {
    PatternGrid::new(position).local_code(cell, last)
}

/// Whether `cell` is one of the twelve cells around `last` (its six neighbours and the six
/// cells that form a bridge with it), which is also whether `last` is one of `cell`'s twelve:
/// the cells whose priors answer a stone at `last`.
///
/// ```
/// use hex::Cell;
/// use hex::patterns::within_twelve;
///
/// assert!(within_twelve(Cell::new(3, 4), Cell::new(3, 3)));
/// assert!(within_twelve(Cell::new(1, 4), Cell::new(3, 3)));
/// assert!(!within_twelve(Cell::new(3, 5), Cell::new(3, 3)));
/// assert!(!within_twelve(Cell::new(3, 3), Cell::new(3, 3)));
/// ```
pub fn within_twelve(cell: Cell, last: Cell) -> bool {
    let (dr, dc) = (i16::from(cell.row) - i16::from(last.row), i16::from(cell.col) - i16::from(last.col));
    OFFSETS.iter().any(|&(r, c)| (i16::from(r), i16::from(c)) == (dr, dc))
}

/// The local-response code of a cell whose six neighbours read `ring` from the mover's view
/// (place `k` at bits `2k`: empty, mine, theirs, off a corner) when the last stone is at place
/// `place` of its twelve: the smaller of the pair and its half turn.
pub(crate) fn local_key(ring: u32, place: usize) -> u32 {
    // The half turn moves place k of each group of six to k + 3.
    let turned_place = place / 6 * 6 + (place % 6 + 3) % 6;
    let turned = ((ring << 6) | (ring >> 6)) & 0xFFF;
    let (ring, place) = (ring, place as u32).min((turned, turned_place as u32));
    ring | (place << (2 * RING_CELLS))
}

/// One move of a game: the patterns of every empty cell (the candidates) and which was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The pattern of each empty cell.
    pub candidates: Vec<u32>,
    /// The index in `candidates` of the cell played.
    pub chosen: usize,
    /// The local-response code ([`local`]) of each candidate near the opponent's last stone,
    /// `None` for the others; empty when the last move is not known.
    pub locals: Vec<Option<u32>>,
}

impl Sample {
    /// The sample of `cell` played at `position`, or `None` if `cell` is not an empty cell of
    /// the board.
    pub fn new(position: &Position, cell: Cell) -> Option<Sample> {
        Sample::after(position, cell, None)
    }

    /// The sample of `cell` played at `position` after the opponent's stone at `last` (if
    /// known), with the candidates' local-response codes; `None` if `cell` is not an empty
    /// cell of the board or `last` is off it.
    pub fn after(position: &Position, cell: Cell, last: Option<Cell>) -> Option<Sample> {
        Sample::after_as(PatternCode::Stones, position, cell, last)
    }

    /// [`Sample::after`] with the candidates' patterns in the code `kind` (the local-response
    /// codes are the same in every code).
    ///
    /// ```
    /// use hex::patterns::{PatternCode, PatternGrid, Sample};
    /// use hex::{Cell, Position};
    ///
    /// let start = Position::new(5).unwrap();
    /// let sample = Sample::after_as(PatternCode::Edges, &start, Cell::new(0, 2), None).unwrap();
    /// let grid = PatternGrid::new(&start);
    /// assert_eq!(sample.candidates[sample.chosen], grid.code_as(PatternCode::Edges, Cell::new(0, 2)));
    /// ```
    pub fn after_as(
        kind: PatternCode,
        position: &Position,
        cell: Cell,
        last: Option<Cell>,
    ) -> Option<Sample> {
        let board = position.board();
        if last.is_some_and(|last| !board.contains(last)) {
            return None;
        }
        if !board.contains(cell) || board.get(cell).is_some() {
            return None;
        }
        let grid = PatternGrid::new(position);
        let mut chosen = 0;
        let candidates = board
            .empty_cells()
            .enumerate()
            .map(|(i, empty)| {
                if empty == cell {
                    chosen = i;
                }
                grid.code_as(kind, empty)
            })
            .collect();
        let locals = match last {
            Some(last) => board.empty_cells().map(|empty| grid.local_code(empty, last)).collect(),
            None => Vec::new(),
        };
        Some(Sample { candidates, chosen, locals })
    }
}

/// What went wrong reading a weights file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// The first line is not the format's header.
    #[error("not a pattern weights file: the first line must be {HEADER:?} or {EDGES_HEADER:?}")]
    Header,
    /// A line is not `CODE GAMMA` with a hexadecimal code below 2^24 and a positive, finite γ.
    #[error("line {line}: expected a hexadecimal pattern code and a positive strength, not {text:?}")]
    Line {
        /// The line number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// A code appears twice.
    #[error("line {line}: pattern {code:06x} appears twice")]
    Duplicate {
        /// The line number, from 1.
        line: usize,
        /// The code.
        code: u32,
    },
}

/// What went wrong reading a weights file from disk ([`PatternWeights::read`]).
#[derive(Debug, thiserror::Error)]
pub enum PatternFileError {
    /// The file could not be read.
    #[error("cannot read the pattern weights file {path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a weights file.
    #[error("the pattern weights file {path}: {source}")]
    Parse {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong in it.
        source: PatternError,
    },
}

/// The first line of a weights file in [`PatternCode::Stones`].
const HEADER: &str = "hex-patterns 1";

/// The first line of a weights file in [`PatternCode::Edges`].
const EDGES_HEADER: &str = "hex-patterns 1 edges";

/// The weights shipped with the crate (see [`PatternWeights::shipped`]).
const SHIPPED: &str = include_str!("../data/patterns.txt");

/// The playout weights shipped with the crate (see [`PatternWeights::shipped_playout`]).
const SHIPPED_PLAYOUT: &str = include_str!("../data/playout-patterns.txt");

/// The local-response weights shipped with the crate (see [`PatternWeights::shipped_local`]).
const SHIPPED_LOCAL: &str = include_str!("../data/local-patterns.txt");

/// The playouts' local-response weights shipped with the crate (see
/// [`PatternWeights::shipped_local_playout`]).
const SHIPPED_LOCAL_PLAYOUT: &str = include_str!("../data/local-playout-patterns.txt");

/// The settings of [`PatternWeights::learn`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnConfig {
    /// Minorization–maximization rounds.
    pub rounds: usize,
    /// Patterns seen as a candidate fewer times than this are left out of the result (their γ
    /// stays the default 1).
    pub min_count: u32,
}

impl Default for LearnConfig {
    /// 30 rounds; patterns seen at least 5 times are kept.
    fn default() -> Self {
        LearnConfig { rounds: 30, min_count: 5 }
    }
}

/// Pattern strengths γ (see the [module docs](self)), in an open-addressing table.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternWeights {
    /// `(code, γ)` slots; an empty slot has the code [`NO_CODE`].
    slots: Vec<(u32, f32)>,
    /// `64 − log2(slots.len())`.
    shift: u32,
    len: usize,
    /// The code the patterns are in.
    code: PatternCode,
}

/// The code of an empty slot (pattern codes use 24 bits).
const NO_CODE: u32 = u32::MAX;

impl PatternWeights {
    /// Weights with these `(code, γ)` pairs; codes are taken as given (canonical codes are the
    /// ones [`pattern`] gives).
    pub fn from_pairs(pairs: impl IntoIterator<Item = (u32, f32)>) -> PatternWeights {
        let pairs: Vec<(u32, f32)> = pairs.into_iter().collect();
        let capacity = (pairs.len() * 2).next_power_of_two().max(16);
        let mut weights = PatternWeights {
            slots: vec![(NO_CODE, 1.0); capacity],
            shift: 64 - capacity.trailing_zeros(),
            len: 0,
            code: PatternCode::Stones,
        };
        for (code, gamma) in pairs {
            let slot = weights.slot(code);
            if weights.slots[slot].0 == NO_CODE {
                weights.len += 1;
            }
            weights.slots[slot] = (code, gamma);
        }
        weights
    }

    /// The slot holding `code`, or the empty slot where it would go.
    fn slot(&self, code: u32) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = ((u64::from(code).wrapping_mul(0x9E37_79B9_7F4A_7C15)) >> self.shift) as usize;
        loop {
            let here = self.slots[i].0;
            if here == code || here == NO_CODE {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// These weights, their patterns read as codes of `code` (weights are in
    /// [`PatternCode::Stones`] unless said).
    ///
    /// ```
    /// use hex::patterns::{PatternCode, PatternWeights};
    ///
    /// let weights = PatternWeights::from_pairs([(0xa4, 2.5)]).with_code(PatternCode::Edges);
    /// assert_eq!(weights.code(), PatternCode::Edges);
    /// assert!(weights.to_text().starts_with("hex-patterns 1 edges\n"));
    /// ```
    pub fn with_code(self, code: PatternCode) -> PatternWeights {
        PatternWeights { code, ..self }
    }

    /// The code the patterns are in.
    pub fn code(&self) -> PatternCode {
        self.code
    }

    /// The strength of pattern `code`: 1 for a pattern the weights do not hold.
    pub fn gamma(&self, code: u32) -> f32 {
        self.slots[self.slot(code)].1
    }

    /// The strength of pattern `code` if the weights hold it: for a table whose absent
    /// patterns mean "nothing", as [`crate::mcts::MctsConfig::answer_patterns`] adds its γ.
    ///
    /// ```
    /// use hex::patterns::PatternWeights;
    ///
    /// let weights = PatternWeights::from_pairs([(0xa4, 2.5)]);
    /// assert_eq!(weights.get(0xa4), Some(2.5));
    /// assert_eq!(weights.get(0xa5), None);
    /// ```
    pub fn get(&self, code: u32) -> Option<f32> {
        let (here, gamma) = self.slots[self.slot(code)];
        (here == code).then_some(gamma)
    }

    /// The number of patterns held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no pattern is held (every γ is 1).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The weights learned from our own self-play and shipped with the crate, read once.
    pub fn shipped() -> &'static PatternWeights {
        static WEIGHTS: OnceLock<PatternWeights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            PatternWeights::parse(SHIPPED).expect("the shipped pattern weights are well formed")
        })
    }

    /// The six-cell playout pattern weights ([`ring`] codes) learned from our own self-play
    /// and shipped with the crate (`cargo xtask hex-patterns --cells 6` regenerates them), read
    /// once; [`crate::mcts::PlayoutPolicy`] turns them into a playout's table.
    pub fn shipped_playout() -> &'static PatternWeights {
        static WEIGHTS: OnceLock<PatternWeights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            PatternWeights::parse(SHIPPED_PLAYOUT).expect("the shipped playout weights are well formed")
        })
    }

    /// The local-response weights ([`local`] codes) learned from our own self-play with the
    /// pattern weights of [`PatternWeights::shipped`] held fixed, shipped with the crate
    /// (`cargo xtask hex-patterns --local` regenerates them), read once.
    pub fn shipped_local() -> &'static PatternWeights {
        static WEIGHTS: OnceLock<PatternWeights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            PatternWeights::parse(SHIPPED_LOCAL).expect("the shipped local weights are well formed")
        })
    }

    /// The playouts' local-response weights ([`local`] codes, learned against a flat rest of
    /// the board: every cell's pattern strength 1), shipped with the crate (`cargo xtask
    /// hex-patterns --local` regenerates them), read once; [`crate::mcts::LocalPolicy`] turns
    /// them into a playout's table.
    pub fn shipped_local_playout() -> &'static PatternWeights {
        static WEIGHTS: OnceLock<PatternWeights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            PatternWeights::parse(SHIPPED_LOCAL_PLAYOUT)
                .expect("the shipped local playout weights are well formed")
        })
    }

    /// Reads weights from the text of a weights file: the header line `hex-patterns 1` (patterns
    /// in [`PatternCode::Stones`]) or `hex-patterns 1 edges` ([`PatternCode::Edges`]), then one
    /// pattern a line as a hexadecimal code and its γ; `#` starts a comment.
    ///
    /// # Errors
    /// A missing header, a malformed line or a code given twice.
    ///
    /// ```
    /// use hex::patterns::{PatternError, PatternWeights};
    ///
    /// let weights = PatternWeights::parse("hex-patterns 1\n# a comment\n00a4 2.5\n").unwrap();
    /// assert_eq!(weights.gamma(0xa4), 2.5);
    /// assert_eq!(weights.gamma(0xa5), 1.0);
    /// assert_eq!(PatternWeights::parse("00a4 2.5"), Err(PatternError::Header));
    /// assert!(PatternWeights::parse("hex-patterns 1\n00a4 -1\n").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<PatternWeights, PatternError> {
        let mut lines = text.lines().enumerate();
        let code = match lines.next().map(|(_, first)| first.trim()) {
            Some(HEADER) => PatternCode::Stones,
            Some(EDGES_HEADER) => PatternCode::Edges,
            _ => return Err(PatternError::Header),
        };
        let mut pairs = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (i, raw) in lines {
            let text = raw.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                continue;
            }
            let bad = || PatternError::Line { line: i + 1, text: raw.to_string() };
            let mut fields = text.split_whitespace();
            let (Some(code), Some(gamma), None) = (fields.next(), fields.next(), fields.next()) else {
                return Err(bad());
            };
            let code = u32::from_str_radix(code, 16).ok().filter(|&c| c < 1 << 24).ok_or_else(bad)?;
            let gamma = gamma.parse::<f32>().ok().filter(|g| g.is_finite() && *g > 0.0).ok_or_else(bad)?;
            if !seen.insert(code) {
                return Err(PatternError::Duplicate { line: i + 1, code });
            }
            pairs.push((code, gamma));
        }
        Ok(PatternWeights::from_pairs(pairs).with_code(code))
    }

    /// Reads weights from a file in the format [`PatternWeights::parse`] reads, as
    /// `cargo xtask hex-patterns` writes them: to try weights without building them in.
    ///
    /// # Errors
    /// The file cannot be read, or is not a weights file; the error names it.
    ///
    /// ```
    /// use hex::patterns::{PatternFileError, PatternWeights};
    ///
    /// let path = std::env::temp_dir().join(format!("hex-read-doc-{}.txt", std::process::id()));
    /// std::fs::write(&path, "hex-patterns 1\n00a4 2.5\n").unwrap();
    /// assert_eq!(PatternWeights::read(&path).unwrap().gamma(0xa4), 2.5);
    /// std::fs::write(&path, "00a4 2.5\n").unwrap();
    /// assert!(matches!(PatternWeights::read(&path), Err(PatternFileError::Parse { .. })));
    /// std::fs::remove_file(&path).unwrap();
    /// assert!(matches!(PatternWeights::read(&path), Err(PatternFileError::Io { .. })));
    /// ```
    pub fn read(path: &std::path::Path) -> Result<PatternWeights, PatternFileError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| PatternFileError::Io { path: path.to_path_buf(), source })?;
        PatternWeights::parse(&text)
            .map_err(|source| PatternFileError::Parse { path: path.to_path_buf(), source })
    }

    /// The `(code, γ)` pairs held, in no particular order.
    ///
    /// ```
    /// use hex::patterns::PatternWeights;
    ///
    /// let weights = PatternWeights::from_pairs([(0xa4, 2.5), (0x10, 0.5)]);
    /// let mut pairs: Vec<(u32, f32)> = weights.pairs().collect();
    /// pairs.sort_by_key(|&(code, _)| code);
    /// assert_eq!(pairs, [(0x10, 0.5), (0xa4, 2.5)]);
    /// ```
    pub fn pairs(&self) -> impl Iterator<Item = (u32, f32)> + '_ {
        self.slots.iter().copied().filter(|&(code, _)| code != NO_CODE)
    }

    /// The weights as the text [`PatternWeights::parse`] reads, patterns in code order.
    pub fn to_text(&self) -> String {
        let mut pairs: Vec<(u32, f32)> = self.pairs().collect();
        pairs.sort_unstable_by_key(|&(code, _)| code);
        let header = match self.code {
            PatternCode::Stones => HEADER,
            PatternCode::Edges => EDGES_HEADER,
        };
        let mut text = format!("{header}\n");
        for (code, gamma) in pairs {
            writeln!(text, "{code:06x} {gamma:.4}").expect("writing to a string");
        }
        text
    }

    /// The γ of every empty cell of `cells` at `position`, into `out` (one each), its pattern
    /// read in the weights' code.
    pub fn cell_gammas(
        &self,
        position: &Position,
        cells: impl IntoIterator<Item = Cell>,
        out: &mut Vec<f32>,
    ) {
        let grid = PatternGrid::new(position);
        out.clear();
        out.extend(cells.into_iter().map(|cell| self.gamma(grid.code_as(self.code, cell))));
    }

    /// Fits the γ of every pattern to `samples` by minorization–maximization (see the
    /// [module docs](self)); the weights are in [`PatternCode::Stones`] (give others their code
    /// with [`PatternWeights::with_code`]).
    ///
    /// ```
    /// use hex::patterns::{LearnConfig, PatternWeights, Sample};
    ///
    /// // Pattern 7 is chosen over pattern 9 three times out of four.
    /// let mut samples = vec![Sample { candidates: vec![7, 9], chosen: 0, locals: vec![] }; 30];
    /// samples.extend(vec![Sample { candidates: vec![7, 9], chosen: 1, locals: vec![] }; 10]);
    /// let weights = PatternWeights::learn(&samples, &LearnConfig { rounds: 50, min_count: 1 });
    /// let ratio = weights.gamma(7) / weights.gamma(9);
    /// assert!((2.5..3.1).contains(&ratio), "{ratio}");
    /// ```
    pub fn learn(samples: &[Sample], config: &LearnConfig) -> PatternWeights {
        let teams = samples.iter().map(|sample| {
            let members = sample.candidates.iter().map(|&code| (Some(code), 1.0)).collect();
            (members, sample.chosen)
        });
        fit(teams, config)
    }

    /// Fits the γ of the local-response codes ([`local`]) to `samples`, each candidate's
    /// strength the product of its pattern's γ in `patterns` (held fixed) and its local code's
    /// γ (1 for a candidate away from the last stone): the same minorization–maximization as
    /// [`PatternWeights::learn`], with the pattern strengths as fixed teammates. Samples without
    /// local codes teach nothing.
    ///
    /// ```
    /// use hex::patterns::{LearnConfig, PatternWeights, Sample};
    ///
    /// // Two cells of the same pattern: the one next to the last stone (local code 5) is
    /// // chosen three times out of four.
    /// let near = Sample { candidates: vec![1, 1], chosen: 0, locals: vec![Some(5), None] };
    /// let far = Sample { chosen: 1, ..near.clone() };
    /// let mut samples = vec![near; 30];
    /// samples.extend(vec![far; 10]);
    /// let local = PatternWeights::learn_local(&samples, &PatternWeights::default(), &LearnConfig { rounds: 50, min_count: 1 });
    /// assert!((2.5..3.1).contains(&local.gamma(5)), "{}", local.gamma(5));
    /// ```
    pub fn learn_local(
        samples: &[Sample],
        patterns: &PatternWeights,
        config: &LearnConfig,
    ) -> PatternWeights {
        let teams =
            samples.iter().filter(|sample| sample.locals.len() == sample.candidates.len()).map(|sample| {
                let members = sample
                    .candidates
                    .iter()
                    .zip(&sample.locals)
                    .map(|(&code, &local)| (local, f64::from(patterns.gamma(code))))
                    .collect();
                (members, sample.chosen)
            });
        fit(teams, config)
    }
}

impl Default for PatternWeights {
    /// No patterns: every γ is 1.
    fn default() -> Self {
        PatternWeights::from_pairs([])
    }
}

/// Minorization–maximization for the generalised Bradley–Terry model: each competition offers
/// candidates, each a feature (or none) times a fixed strength, and names the one chosen. The
/// strength of a candidate is its fixed part times its feature's γ (1 without a feature); each
/// γ gets one virtual win and one virtual loss against a γ of 1. Features seen as a candidate
/// fewer than `config.min_count` times are left out of the result.
fn fit(
    competitions: impl Iterator<Item = (Vec<(Option<u32>, f64)>, usize)>,
    config: &LearnConfig,
) -> PatternWeights {
    // Features by dense index, with their win and candidate counts.
    let mut index = std::collections::HashMap::new();
    let mut codes = Vec::new();
    let mut flat: Vec<(Vec<(u32, f64)>, usize)> = Vec::new();
    for (members, chosen) in competitions {
        if chosen >= members.len() {
            continue;
        }
        let ids = members
            .into_iter()
            .map(|(code, fixed)| {
                let id = code.map_or(NO_CODE, |code| {
                    *index.entry(code).or_insert_with(|| {
                        codes.push(code);
                        codes.len() as u32 - 1
                    })
                });
                (id, fixed)
            })
            .collect();
        flat.push((ids, chosen));
    }
    let mut wins = vec![0.0f64; codes.len()];
    let mut seen = vec![0u32; codes.len()];
    for (ids, chosen) in &flat {
        if ids[*chosen].0 != NO_CODE {
            wins[ids[*chosen].0 as usize] += 1.0;
        }
        for &(id, _) in ids.iter().filter(|(id, _)| *id != NO_CODE) {
            seen[id as usize] += 1;
        }
    }
    let mut gamma = vec![1.0f64; codes.len()];
    let mut denominators = vec![0.0f64; codes.len()];
    let strength = |gamma: &[f64], (id, fixed): (u32, f64)| {
        if id == NO_CODE { fixed } else { fixed * gamma[id as usize] }
    };
    for _ in 0..config.rounds {
        denominators.fill(0.0);
        for (ids, _) in &flat {
            let total: f64 = ids.iter().map(|&member| strength(&gamma, member)).sum();
            for &(id, fixed) in ids.iter().filter(|(id, _)| *id != NO_CODE) {
                denominators[id as usize] += fixed / total;
            }
        }
        for (g, (&w, &d)) in gamma.iter_mut().zip(wins.iter().zip(&denominators)) {
            // One virtual win and one virtual loss against a feature of strength 1.
            *g = (w + 1.0) / (d + 2.0 / (*g + 1.0));
        }
    }
    PatternWeights::from_pairs(
        codes
            .iter()
            .zip(&gamma)
            .zip(&seen)
            .filter(|&(_, &count)| count >= config.min_count)
            .map(|((&code, &g), _)| (code, g as f32)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::HexMove;

    fn play(position: &Position, moves: &[&str]) -> Position {
        moves.iter().fold(*position, |p, m| {
            let cell = crate::parse_cell(m, p.size()).unwrap();
            p.play(HexMove::Place(cell)).unwrap()
        })
    }

    /// The pattern read cell by cell from the board, as the module docs say: the oracle of the
    /// grid.
    fn pattern_by_hand(position: &Position, cell: Cell, kind: PatternCode) -> u32 {
        let board = position.board();
        let me = position.to_move();
        let n = i16::from(board.size());
        let view = |cell: Cell| match me {
            Color::Black => cell,
            Color::White => cell.transpose(),
        };
        let centre = view(cell);
        let mut code = 0;
        for (k, &(dr, dc)) in OFFSETS.iter().enumerate() {
            let (r, c) = (i16::from(centre.row) + i16::from(dr), i16::from(centre.col) + i16::from(dc));
            let state = match ((0..n).contains(&r), (0..n).contains(&c)) {
                (true, true) => match board.get(view(Cell::new(r as u8, c as u8))) {
                    None => EMPTY,
                    Some(colour) if colour == me => MINE,
                    Some(_) => THEIRS,
                },
                _ if kind == PatternCode::Edges => CORNER,
                (false, true) => MINE,
                (true, false) => THEIRS,
                (false, false) => CORNER,
            };
            code |= state << (2 * k);
        }
        code.min(half_turn(code))
    }

    #[test]
    fn the_grid_reads_what_the_board_shows() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for size in [1u8, 2, 3, 5, 8, 11] {
            for _ in 0..20 {
                let mut position = Position::new(u32::from(size)).unwrap();
                let stones = rng.random_range(0..=usize::from(size) * usize::from(size) / 2);
                for _ in 0..stones {
                    let empty: Vec<Cell> = position.board().empty_cells().collect();
                    let cell = empty[rng.random_range(0..empty.len())];
                    position = position.play_unchecked(HexMove::Place(cell));
                }
                let grid = PatternGrid::new(&position);
                for cell in position.board().cells() {
                    let by_hand = |kind| pattern_by_hand(&position, cell, kind);
                    assert_eq!(grid.code(cell), by_hand(PatternCode::Stones), "{cell} of {position:?}");
                    for kind in [PatternCode::Stones, PatternCode::Edges] {
                        assert_eq!(grid.code_as(kind, cell), by_hand(kind), "{cell} of {position:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn half_turn_is_an_involution_and_matches_the_board() {
        for code in [0u32, 1, 0x123456, 0xFFFFFF, 0xA5A5A5] {
            assert_eq!(half_turn(half_turn(code)), code);
        }
        // The board turned by half a turn gives every cell the code of its image.
        let position = play(&Position::new(7).unwrap(), &["c3", "d5", "e2", "b6"]);
        let mut turned = hex::Board::new(7).unwrap();
        for cell in position.board().cells() {
            turned.set(Cell::new(6 - cell.row, 6 - cell.col), position.board().get(cell));
        }
        let turned = Position::from_board(turned, position.to_move());
        for cell in position.board().empty_cells() {
            assert_eq!(
                pattern(&position, cell),
                pattern(&turned, Cell::new(6 - cell.row, 6 - cell.col)),
                "{cell}"
            );
        }
    }

    use crate as hex;

    #[test]
    fn both_colours_see_the_same_pattern_in_the_mirror() {
        let position = play(&Position::new(6).unwrap(), &["b2", "c4", "e3"]);
        let mirror = position.mirrored();
        assert_ne!(position.to_move(), mirror.to_move());
        for cell in position.board().empty_cells() {
            assert_eq!(pattern(&position, cell), pattern(&mirror, cell.transpose()), "{cell}");
        }
    }

    /// The local code is found exactly for the twelve cells around the last stone, is the same
    /// under the half turn and for the other colour in the mirror, and tells the twelve places
    /// of the last stone apart on an empty ring.
    #[test]
    fn local_codes_find_the_twelve_cells_and_keep_the_symmetries() {
        let position = play(&Position::new(7).unwrap(), &["c3", "d5", "e2", "d3"]);
        let last = Cell::new(2, 3);
        let mut turned = hex::Board::new(7).unwrap();
        for cell in position.board().cells() {
            turned.set(Cell::new(6 - cell.row, 6 - cell.col), position.board().get(cell));
        }
        let turned = Position::from_board(turned, position.to_move());
        let mirror = position.mirrored();
        let mut near = 0;
        for cell in position.board().empty_cells() {
            let code = local(&position, cell, last);
            let (dr, dc) =
                (i16::from(last.row) - i16::from(cell.row), i16::from(last.col) - i16::from(cell.col));
            let twelve = OFFSETS.iter().any(|&(r, c)| (i16::from(r), i16::from(c)) == (dr, dc));
            assert_eq!(code.is_some(), twelve, "{cell}");
            near += usize::from(twelve);
            let image = |c: Cell| Cell::new(6 - c.row, 6 - c.col);
            assert_eq!(code, local(&turned, image(cell), image(last)), "{cell} turned");
            assert_eq!(code, local(&mirror, cell.transpose(), last.transpose()), "{cell} mirrored");
        }
        assert!(near >= 8, "{near}");
        // In the middle of an empty board, the last stone's twelve places give at most two
        // codes each (a place and its half turn), so at least six distinct codes.
        let open = play(&Position::new(9).unwrap(), &["e5"]);
        let codes: std::collections::HashSet<u32> =
            open.board().empty_cells().filter_map(|cell| local(&open, cell, Cell::new(4, 4))).collect();
        assert!(codes.len() >= 6, "{codes:?}");
        assert!(codes.iter().all(|&c| (c as usize) < LOCAL_CODES));
    }

    #[test]
    fn edges_belong_to_their_owner() {
        // On the top row, Black (to move) sees its own edge above; White sees it on its left.
        let start = Position::new(5).unwrap();
        let code = pattern(&start, Cell::new(0, 2));
        let above = |code: u32| code & 3;
        let turned = half_turn(code);
        // The neighbour above (place 0) is the mover's edge, in the code or its half turn.
        assert!(above(code) == MINE || above(turned) == MINE);
        let white = play(&start, &["a1"]);
        let code = pattern(&white, Cell::new(2, 0)); // Column 0 is White's own edge.
        assert!(above(code) == MINE || above(half_turn(code)) == MINE);
        // A corner cell reads the cell off both edges as a corner.
        let corner = pattern(&start, Cell::new(0, 0));
        assert!((0..PATTERN_CELLS).any(|k| (corner >> (2 * k)) & 3 == CORNER));
    }

    /// In the edge code every cell off the board reads alike, yet a cell beside the mover's
    /// edge and one beside the opponent's still differ (other places fall off), the code keeps
    /// the half turn and the mirror, and a stone never reads as an edge.
    #[test]
    fn the_edge_code_tells_edges_from_stones_and_keeps_the_symmetries() {
        let position = play(&Position::new(9).unwrap(), &["e1", "a5"]);
        let grid = PatternGrid::new(&position);
        let edges = |cell| grid.code_as(PatternCode::Edges, cell);
        // Black to move: e1 is beside Black's top edge, a5 beside White's left edge.
        let (top, left) = (Cell::new(0, 6), Cell::new(6, 0));
        assert_ne!(edges(top), edges(left));
        // In the stones code an edge is a stone; in the edge code the top edge is not a row of
        // Black stones: the cell below a Black stone on the top row reads its neighbour as mine.
        let below = Cell::new(1, 4);
        let states = |code: u32| (0..PATTERN_CELLS).map(|k| (code >> (2 * k)) & 3).collect::<Vec<_>>();
        assert_eq!(states(edges(below)).iter().filter(|&&s| s == MINE).count(), 1);
        assert!(states(grid.code(below)).iter().filter(|&&s| s == MINE).count() > 1);
        assert!(states(edges(top)).contains(&CORNER) && !states(edges(top)).contains(&MINE));
        let mirror = position.mirrored();
        let mirrored = PatternGrid::new(&mirror);
        let mut turned = hex::Board::new(9).unwrap();
        for cell in position.board().cells() {
            turned.set(Cell::new(8 - cell.row, 8 - cell.col), position.board().get(cell));
        }
        let turned = PatternGrid::new(&Position::from_board(turned, position.to_move()));
        for cell in position.board().empty_cells() {
            assert_eq!(edges(cell), mirrored.code_as(PatternCode::Edges, cell.transpose()), "{cell}");
            let image = Cell::new(8 - cell.row, 8 - cell.col);
            assert_eq!(edges(cell), turned.code_as(PatternCode::Edges, image), "{cell}");
            // Local codes do not change with the code.
            assert_eq!(grid.local_code(cell, Cell::new(0, 4)), local(&position, cell, Cell::new(0, 4)));
        }
    }

    #[test]
    fn stones_are_read_as_mine_or_theirs() {
        // Black at d4; White to move looks at e4, far enough from every edge to see none.
        let position = play(&Position::new(7).unwrap(), &["d4"]);
        let states = |position: &Position| {
            let code = pattern(position, Cell::new(3, 4));
            (0..PATTERN_CELLS).map(|k| (code >> (2 * k)) & 3).collect::<Vec<u32>>()
        };
        assert_eq!(states(&position).iter().filter(|&&s| s == THEIRS).count(), 1);
        assert_eq!(states(&position).iter().filter(|&&s| s != THEIRS).count(), 11);
        assert!(states(&position).iter().all(|&s| s == THEIRS || s == EMPTY));
        // White plays far away; now Black is to move and sees its own stone.
        let black = play(&position, &["a7"]);
        assert_eq!(states(&black).iter().filter(|&&s| s == MINE).count(), 1);
        assert!(states(&black).iter().all(|&s| s == MINE || s == EMPTY));
    }

    #[test]
    fn samples_name_the_cell_played() {
        let position = play(&Position::new(4).unwrap(), &["b2"]);
        let sample = Sample::new(&position, Cell::new(1, 2)).unwrap();
        assert_eq!(sample.candidates.len(), 15);
        assert_eq!(sample.candidates[sample.chosen], pattern(&position, Cell::new(1, 2)));
        assert_eq!(Sample::new(&position, Cell::new(1, 1)), None);
        assert_eq!(Sample::new(&position, Cell::new(4, 0)), None);
    }

    #[test]
    fn text_round_trips_and_bad_files_are_refused() {
        let weights = PatternWeights::from_pairs([(0x12, 0.5), (0xabcdef, 3.25), (0, 1.5)]);
        let text = weights.to_text();
        assert_eq!(PatternWeights::parse(&text).unwrap(), PatternWeights::parse(&text).unwrap());
        let back = PatternWeights::parse(&text).unwrap();
        assert_eq!((back.gamma(0x12), back.gamma(0xabcdef), back.gamma(0), back.len()), (0.5, 3.25, 1.5, 3));
        assert_eq!(PatternWeights::parse(""), Err(PatternError::Header));
        for bad in ["zz 1", "12", "12 1 3", "1000000 1", "12 0", "12 nan", "12 inf"] {
            let err = PatternWeights::parse(&format!("{HEADER}\n{bad}\n")).unwrap_err();
            assert_eq!(err, PatternError::Line { line: 2, text: bad.to_string() });
        }
        assert_eq!(
            PatternWeights::parse(&format!("{HEADER}\n12 1\n12 2\n")),
            Err(PatternError::Duplicate { line: 3, code: 0x12 })
        );
        // The header names the code; the code survives the round trip and weighs in equality.
        assert_eq!(back.code(), PatternCode::Stones);
        let edges = weights.clone().with_code(PatternCode::Edges);
        assert!(edges.to_text().starts_with("hex-patterns 1 edges\n"));
        assert_eq!(PatternWeights::parse(&edges.to_text()).unwrap().code(), PatternCode::Edges);
        assert_ne!(PatternWeights::parse(&edges.to_text()).unwrap(), back);
        for bad in ["hex-patterns 1 edge", "hex-patterns 2", "hex-patterns 1 stones"] {
            assert_eq!(PatternWeights::parse(&format!("{bad}\n12 1\n")), Err(PatternError::Header), "{bad}");
        }
    }

    #[test]
    fn learning_orders_patterns_by_how_often_they_are_chosen() {
        // Three patterns always offered together, chosen 60, 30 and 10 times: the γ follow.
        let offer = vec![1, 2, 3];
        let mut samples = Vec::new();
        for (chosen, times) in [(0, 60), (1, 30), (2, 10)] {
            samples.extend(std::iter::repeat_n(
                Sample { candidates: offer.clone(), chosen, locals: Vec::new() },
                times,
            ));
        }
        let weights = PatternWeights::learn(&samples, &LearnConfig { rounds: 100, min_count: 1 });
        let (a, b, c) = (weights.gamma(1), weights.gamma(2), weights.gamma(3));
        assert!(a > b && b > c, "{a} {b} {c}");
        // The shares are the maximum-likelihood ones, pulled a little towards 1 by the prior.
        let share = a / (a + b + c);
        assert!((0.55..0.62).contains(&share), "{share}");
        // A pattern seen too rarely is left out.
        let weights = PatternWeights::learn(&samples, &LearnConfig { rounds: 5, min_count: 101 });
        assert!(weights.is_empty());
    }

    #[test]
    fn shipped_weights_load_and_prefer_saving_a_bridge() {
        let weights = PatternWeights::shipped();
        assert!(weights.len() > 1_000, "{}", weights.len());
        // Black's bridge c3–d4 has the carrier d3 and c4; White takes d3, and saving the
        // bridge at c4 is among Black's three likeliest cells.
        let position = play(&Position::new(9).unwrap(), &["c3", "a9", "d4", "d3"]);
        let mut gammas = Vec::new();
        let cells: Vec<Cell> = position.board().empty_cells().collect();
        weights.cell_gammas(&position, cells.iter().copied(), &mut gammas);
        let save = gammas[cells.iter().position(|&c| c == Cell::new(3, 2)).unwrap()];
        let better = gammas.iter().filter(|&&g| g > save).count();
        assert!(better < 3, "{better} cells look better than the save");
    }
}
