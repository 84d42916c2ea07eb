//! Board heuristics: every one the seed document tried, and [`LineTable`], a strong per-line
//! table heuristic in the class of nneonneo's 2048-ai.
//!
//! # The seed's heuristics
//!
//! The seed document (a 2022 university assignment, written in Spanish) scores a board from its
//! **raw tile values** `g` (0 for an empty cell), with these quantities:
//!
//! | symbol | meaning |
//! |---|---|
//! | `N` | the number of tiles (non-empty cells) |
//! | `E` | the number of empty cells, `16 − N` |
//! | `S1` | `Σ g` |
//! | `S2` | `Σ g²` |
//! | `M` | `max g` |
//! | `Sm` | smoothness: `Σ |g − g'|` over the 24 pairs of side-by-side or stacked cells, empty cells as 0 |
//! | `⌊S2/N⌋` | the seed's "snoes", truncated as the seed's `int(sum_sq / count)` did |
//!
//! Each heuristic is a unit struct implementing [`Heuristic`]; [`SeedHeuristic`] lists them all
//! under stable names for command lines:
//!
//! | name | type | seed's name | formula |
//! |---|---|---|---|
//! | `mixed` | [`Mixed`] | `mixedHeuristic`, "Mixta", OldHeuristic | `⌊S2/N⌋ / Sm²` |
//! | `max-coef` | [`MaxCoef`] | `max_coef` | `⌊S2/N⌋ / Sm² + M/2048` |
//! | `max-sq-coef` | [`MaxSqCoef`] | `max_sq_coef` | `⌊S2/N⌋ / Sm² + M²/2048²` |
//! | `max-sq-coef-sum` | [`MaxSqCoefSum`] | `max_sq_coef_sum`, OldMaxSumSq (final) | `⌊S2/N⌋ / Sm² + M²/2048² + S1/4096` |
//! | `max-sq-coef-sum-col` | [`MaxSqCoefSumCol`] | OldMaxSumSqOrd | the previous `+ (monotone lines of 8)/64` |
//! | `snoes` | [`Snoes`] | the first function ("snoes") | `⌊S2/N⌋` |
//! | `smoothness` | [`Smoothness`] | "Favorecer Smooth" | `1 / Sm²` |
//! | `sum-sq-per-empty` | [`SumSqPerEmpty`] | "Suma\*\*2 / lugares vacíos" | `S2 / E` |
//! | `mixed-position` | [`MixedPosition`] | "Mixta + Valor por posición" | `⌊S2/N⌋ / Sm² + Σ g·pos²` |
//! | `position` | [`PositionOnly`] | "Sólo favorecer posición" | `Σ g·pos²`, snake weights [`SNAKE_WEIGHTS`] |
//!
//! Divisions by zero, which the seed left undefined, are given finite values: `Sm = 0` (an empty
//! board, or sixteen equal tiles) counts as `Sm = 1`, `⌊S2/N⌋` is 0 when `N = 0` (the empty
//! board), and `E = 0` (a full board) counts as `E = 1`. No heuristic here returns NaN or an
//! infinity.
//!
//! # Example
//!
//! ```
//! use game2048::heuristics::{LineTable, MaxSqCoefSum, SeedHeuristic};
//! use game2048::{Board, Heuristic};
//!
//! // One 2 in the corner: S2 = 4, N = 1, Sm = |2 − 0| + |2 − 0| = 4, M = 2, S1 = 2.
//! let board: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
//! let expected = 4.0 / 16.0 + 4.0 / (2048.0 * 2048.0) + 2.0 / 4096.0;
//! assert_eq!(MaxSqCoefSum.value(board), expected);
//!
//! // The same heuristic chosen by name, as a command line would.
//! let named: SeedHeuristic = "max-sq-coef-sum".parse()?;
//! assert_eq!(named.value(board), expected);
//!
//! // The strong heuristic prefers a board whose tiles line up.
//! let strong = LineTable::default();
//! let ordered: Board = "2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
//! let scattered: Board = "2 0 0 16/0 0 0 0/0 0 0 0/4 0 0 8".parse()?;
//! assert!(strong.value(ordered) > strong.value(scattered));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use thiserror::Error;

use crate::board::Board;
use crate::evaluation::Heuristic;

/// The largest tile a cell holds, 32768: the upper bounds below are reached by the full board of
/// these.
const MAX_TILE: u64 = 1 << 15;

/// The seed's smoothness exponent `w` (its `weight` argument, always 2).
const SMOOTHNESS_POWER: i32 = 2;

/// The seed's snake of position weights, row-major (`4·row + col`): the largest weight, 15, in the
/// bottom-right corner, and the weights falling along a snake through the rows.
///
/// ```text
///  3  2  1  0
///  4  5  6  7
/// 11 10  9  8
/// 12 13 14 15
/// ```
pub const SNAKE_WEIGHTS: [u64; 16] = [3, 2, 1, 0, 4, 5, 6, 7, 11, 10, 9, 8, 12, 13, 14, 15];

/// `Σ pos²` over [`SNAKE_WEIGHTS`] (0² + 1² + … + 15²).
const SNAKE_SQUARES_SUM: u64 = 1240;

/// The raw-value quantities the seed's heuristics are made of, gathered in one pass over the board.
///
/// # Examples
///
/// ```
/// use game2048::heuristics::SeedStats;
///
/// let stats = SeedStats::of("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?);
/// assert_eq!((stats.tiles, stats.sum, stats.sum_sq, stats.max), (2, 4, 8, 2));
/// // |2 − 2| + |2 − 0| across row 0, and |2 − 0| twice down columns 0 and 1.
/// assert_eq!(stats.smoothness, 6);
/// assert_eq!(stats.snoes(), 4);
/// # Ok::<(), game2048::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeedStats {
    /// `N`: the number of tiles.
    pub tiles: u64,
    /// `S1 = Σ g`.
    pub sum: u64,
    /// `S2 = Σ g²`.
    pub sum_sq: u64,
    /// `M = max g` (0 on the empty board).
    pub max: u64,
    /// `Sm`: `Σ |g − g'|` over the 24 side-by-side or stacked pairs, empty cells as 0.
    pub smoothness: u64,
}

impl SeedStats {
    /// The statistics of `board`.
    pub fn of(board: Board) -> Self {
        let g = board.values().map(u64::from);
        let mut stats = SeedStats::default();
        for (cell, &v) in g.iter().enumerate() {
            stats.tiles += u64::from(v != 0);
            stats.sum += v;
            stats.sum_sq += v * v;
            stats.max = stats.max.max(v);
            if cell % 4 < 3 {
                stats.smoothness += v.abs_diff(g[cell + 1]);
            }
            if cell < 12 {
                stats.smoothness += v.abs_diff(g[cell + 4]);
            }
        }
        stats
    }

    /// `E = 16 − N`: the number of empty cells.
    pub fn empty(self) -> u64 {
        16 - self.tiles
    }

    /// The seed's "snoes" `⌊S2/N⌋`, the mean square tile truncated; 0 on the empty board.
    pub fn snoes(self) -> u64 {
        self.sum_sq.checked_div(self.tiles).unwrap_or(0)
    }

    /// `⌊S2/N⌋ / Sm²` with `Sm = 0` counted as 1: the seed's mixed heuristic.
    pub fn mixed(self) -> f64 {
        let sm = self.smoothness.max(1) as f64;
        self.snoes() as f64 / sm.powi(SMOOTHNESS_POWER)
    }
}

/// How many of the 8 lines (4 rows, 4 columns) are monotone: their raw values, empty cells as 0,
/// never decrease along one of the line's two directions (ties allowed, so a line of four equal
/// values, empty or not, counts).
///
/// # Examples
///
/// ```
/// use game2048::heuristics::monotone_lines;
///
/// // Row 0 rises then falls, and so does column 0; the other six lines are monotone.
/// assert_eq!(monotone_lines("2 4 2 0/4 0 0 0/0 0 0 0/0 0 0 0".parse()?), 6);
/// # Ok::<(), game2048::ParseBoardError>(())
/// ```
pub fn monotone_lines(board: Board) -> u32 {
    // Ranks order the cells exactly as their values do (an empty cell is rank 0, value 0).
    let monotone =
        |line: [u8; 4]| line.windows(2).all(|p| p[0] <= p[1]) || line.windows(2).all(|p| p[0] >= p[1]);
    let ranks = board.ranks();
    let rows = (0..4).filter(|&r| monotone(std::array::from_fn(|c| ranks[4 * r + c])));
    let cols = (0..4).filter(|&c| monotone(std::array::from_fn(|r| ranks[4 * r + c])));
    (rows.count() + cols.count()) as u32
}

/// `Σ g·pos²` with `pos` from [`SNAKE_WEIGHTS`].
fn position_value(board: Board) -> u64 {
    board.values().iter().zip(SNAKE_WEIGHTS).map(|(&g, w)| u64::from(g) * w * w).sum()
}

/// The seed's first function, "snoes": the mean square tile, `⌊S2/N⌋`.
///
/// The seed describes it as "the sum of the tiles' score divided by the number of occupied
/// cells", which alone could mean `S1/N`; its code computes `int(sum_sq / count)`, i.e. `⌊S2/N⌋`,
/// and calls that "snoes", so that is the reading taken. The empty board (`N = 0`) scores 0.
///
/// Bounds `[0, 2³⁰]`, the upper one reached by sixteen 32768s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Snoes;

impl Heuristic for Snoes {
    fn value(&self, board: Board) -> f64 {
        SeedStats::of(board).snoes() as f64
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, (MAX_TILE * MAX_TILE) as f64))
    }
}

/// The seed's `mixedHeuristic` ("Mixta", OldHeuristic in its figures): `⌊S2/N⌋ / Sm²`.
///
/// The first heuristic that worked (7 wins of 10 at depth 4). `Sm = 0` counts as `Sm = 1`, and
/// `⌊S2/N⌋` is 0 on the empty board.
///
/// Bounds `[0, 2³⁰]`, the upper one reached by sixteen 32768s (`Sm = 0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mixed;

impl Heuristic for Mixed {
    fn value(&self, board: Board) -> f64 {
        SeedStats::of(board).mixed()
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, (MAX_TILE * MAX_TILE) as f64))
    }
}

/// The seed's `max_coef`: `⌊S2/N⌋ / Sm² + M/2048`, the mixed heuristic plus the largest tile
/// over 2048.
///
/// `Sm = 0` counts as `Sm = 1`, and `⌊S2/N⌋` is 0 on the empty board.
///
/// Bounds `[0, 2³⁰ + 16]`, the upper one reached by sixteen 32768s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MaxCoef;

impl Heuristic for MaxCoef {
    fn value(&self, board: Board) -> f64 {
        let s = SeedStats::of(board);
        s.mixed() + s.max as f64 / 2048.0
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, (MAX_TILE * MAX_TILE) as f64 + 16.0))
    }
}

/// The seed's `max_sq_coef`: `⌊S2/N⌋ / Sm² + M²/2048²`, the mixed heuristic plus the square of
/// the largest tile over 2048².
///
/// `Sm = 0` counts as `Sm = 1`, and `⌊S2/N⌋` is 0 on the empty board.
///
/// Bounds `[0, 2³⁰ + 256]`, the upper one reached by sixteen 32768s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MaxSqCoef;

impl Heuristic for MaxSqCoef {
    fn value(&self, board: Board) -> f64 {
        let s = SeedStats::of(board);
        s.mixed() + (s.max * s.max) as f64 / (2048.0 * 2048.0)
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, (MAX_TILE * MAX_TILE) as f64 + 256.0))
    }
}

/// The seed's final heuristic, `max_sq_coef_sum` (OldMaxSumSq in its figures), used by both of its
/// agents: `⌊S2/N⌋ / Sm² + M²/2048² + S1/4096`.
///
/// The 4096 was found by trial; the seed notes the sum term "very rarely exceeds 1". `Sm = 0`
/// counts as `Sm = 1`, and `⌊S2/N⌋` is 0 on the empty board.
///
/// Bounds `[0, 2³⁰ + 384]`, the upper one reached by sixteen 32768s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MaxSqCoefSum;

impl MaxSqCoefSum {
    fn of(s: SeedStats) -> f64 {
        s.mixed() + (s.max * s.max) as f64 / (2048.0 * 2048.0) + s.sum as f64 / 4096.0
    }
}

impl Heuristic for MaxSqCoefSum {
    fn value(&self, board: Board) -> f64 {
        MaxSqCoefSum::of(SeedStats::of(board))
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, (MAX_TILE * MAX_TILE) as f64 + 384.0))
    }
}

/// The seed's OldMaxSumSqOrd (`max_sq_coef_sum_col`): [`MaxSqCoefSum`] plus the number of
/// monotone rows and columns over 64,
/// `⌊S2/N⌋ / Sm² + M²/2048² + S1/4096 + monotone/64`.
///
/// The seed describes the term as rewarding "an increasing order in some direction" of the rows
/// and columns, and the reference as the number of the 8 lines that are monotone, with no code
/// left. Taken here as [`monotone_lines`]: a line counts when its raw values, empty cells as 0,
/// never decrease along one of its two directions, ties allowed. It scored 0 wins in the seed.
///
/// Bounds `[0, 2³⁰ + 384.125]`, the upper one reached by sixteen 32768s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MaxSqCoefSumCol;

impl Heuristic for MaxSqCoefSumCol {
    fn value(&self, board: Board) -> f64 {
        MaxSqCoefSum::of(SeedStats::of(board)) + f64::from(monotone_lines(board)) / 64.0
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, (MAX_TILE * MAX_TILE) as f64 + 384.125))
    }
}

/// The seed's smoothness-only variant ("Favorecer Smooth", 0 wins of 10): `1 / Sm²`.
///
/// The seed gives no formula, only that smoothness alone did worse than its first function and
/// that a larger `Sm` is worse. Taken as the mixed heuristic without its numerator, `1 / Sm²`,
/// which keeps the seed's 0-to-1 scale; under minimax any decreasing function of `Sm` (such as
/// `−Sm²`) would choose the same moves. `Sm = 0` counts as `Sm = 1`.
///
/// Bounds `[0, 1]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Smoothness;

impl Heuristic for Smoothness {
    fn value(&self, board: Board) -> f64 {
        let sm = SeedStats::of(board).smoothness.max(1) as f64;
        1.0 / sm.powi(SMOOTHNESS_POWER)
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }
}

/// The seed's "Suma\*\*2 / lugares vacíos" (sum squared over empty cells, 0 wins of 10):
/// `S2 / E`.
///
/// The seed gives only that name. `Suma**2` is read as its code's `sum_sq`, the sum of the
/// squares `S2` (rather than the square of the sum `S1²`), and the division is taken as written,
/// without truncation. `E = 0` (a full board) counts as `E = 1`.
///
/// Bounds `[0, 2³⁴]`, the upper one reached by sixteen 32768s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SumSqPerEmpty;

impl Heuristic for SumSqPerEmpty {
    fn value(&self, board: Board) -> f64 {
        let s = SeedStats::of(board);
        s.sum_sq as f64 / s.empty().max(1) as f64
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, (16 * MAX_TILE * MAX_TILE) as f64))
    }
}

/// The seed's "Mixta + Valor por posición" (1 win of 10): `⌊S2/N⌋ / Sm² + Σ g·pos²`, the mixed
/// heuristic plus [`PositionOnly`].
///
/// The seed says only that the position value was added to the mixed function; it is added
/// unscaled, so the position term (up to 4·10⁷) dominates the mixed one (mostly below 1).
/// `Sm = 0` counts as `Sm = 1`, and `⌊S2/N⌋` is 0 on the empty board.
///
/// Bounds `[0, 2³⁰ + 40,632,320]`, the upper one reached by sixteen 32768s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MixedPosition;

impl Heuristic for MixedPosition {
    fn value(&self, board: Board) -> f64 {
        SeedStats::of(board).mixed() + position_value(board) as f64
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, (MAX_TILE * MAX_TILE + MAX_TILE * SNAKE_SQUARES_SUM) as f64))
    }
}

/// The seed's "Sólo favorecer posición" (position only, 0 wins of 10): `Σ g·pos²` with the snake
/// weights [`SNAKE_WEIGHTS`], largest in the bottom-right corner.
///
/// Bounds `[0, 32768 · 1240 = 40,632,320]`, the upper one reached by sixteen 32768s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PositionOnly;

impl Heuristic for PositionOnly {
    fn value(&self, board: Board) -> f64 {
        position_value(board) as f64
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, (MAX_TILE * SNAKE_SQUARES_SUM) as f64))
    }
}

/// Every heuristic the seed document tried, chosen by name.
///
/// # Examples
///
/// ```
/// use game2048::heuristics::SeedHeuristic;
///
/// for h in SeedHeuristic::ALL {
///     assert_eq!(h.name().parse::<SeedHeuristic>(), Ok(h));
/// }
/// assert_eq!(SeedHeuristic::MaxSqCoefSum.to_string(), "max-sq-coef-sum");
/// assert!("best".parse::<SeedHeuristic>().unwrap_err().to_string().contains("mixed"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeedHeuristic {
    /// [`Mixed`]: `⌊S2/N⌋ / Sm²`.
    Mixed,
    /// [`MaxCoef`]: `⌊S2/N⌋ / Sm² + M/2048`.
    MaxCoef,
    /// [`MaxSqCoef`]: `⌊S2/N⌋ / Sm² + M²/2048²`.
    MaxSqCoef,
    /// [`MaxSqCoefSum`]: `⌊S2/N⌋ / Sm² + M²/2048² + S1/4096`, the seed's final choice.
    MaxSqCoefSum,
    /// [`MaxSqCoefSumCol`]: the previous plus the monotone lines over 64.
    MaxSqCoefSumCol,
    /// [`Snoes`]: `⌊S2/N⌋`.
    Snoes,
    /// [`Smoothness`]: `1 / Sm²`.
    Smoothness,
    /// [`SumSqPerEmpty`]: `S2 / E`.
    SumSqPerEmpty,
    /// [`MixedPosition`]: `⌊S2/N⌋ / Sm² + Σ g·pos²`.
    MixedPosition,
    /// [`PositionOnly`]: `Σ g·pos²`.
    PositionOnly,
}

impl SeedHeuristic {
    /// All of them, the seed's main line first (the order of [`SeedHeuristic`]'s variants).
    pub const ALL: [SeedHeuristic; 10] = [
        SeedHeuristic::Mixed,
        SeedHeuristic::MaxCoef,
        SeedHeuristic::MaxSqCoef,
        SeedHeuristic::MaxSqCoefSum,
        SeedHeuristic::MaxSqCoefSumCol,
        SeedHeuristic::Snoes,
        SeedHeuristic::Smoothness,
        SeedHeuristic::SumSqPerEmpty,
        SeedHeuristic::MixedPosition,
        SeedHeuristic::PositionOnly,
    ];

    /// The stable command-line name: `mixed`, `max-coef`, `max-sq-coef`, `max-sq-coef-sum`,
    /// `max-sq-coef-sum-col`, `snoes`, `smoothness`, `sum-sq-per-empty`, `mixed-position` or
    /// `position`.
    pub fn name(self) -> &'static str {
        match self {
            SeedHeuristic::Mixed => "mixed",
            SeedHeuristic::MaxCoef => "max-coef",
            SeedHeuristic::MaxSqCoef => "max-sq-coef",
            SeedHeuristic::MaxSqCoefSum => "max-sq-coef-sum",
            SeedHeuristic::MaxSqCoefSumCol => "max-sq-coef-sum-col",
            SeedHeuristic::Snoes => "snoes",
            SeedHeuristic::Smoothness => "smoothness",
            SeedHeuristic::SumSqPerEmpty => "sum-sq-per-empty",
            SeedHeuristic::MixedPosition => "mixed-position",
            SeedHeuristic::PositionOnly => "position",
        }
    }

    /// What the seed document (or its code and figures) calls this heuristic.
    pub fn seed_name(self) -> &'static str {
        match self {
            SeedHeuristic::Mixed => "mixedHeuristic (Mixta, OldHeuristic)",
            SeedHeuristic::MaxCoef => "max_coef",
            SeedHeuristic::MaxSqCoef => "max_sq_coef",
            SeedHeuristic::MaxSqCoefSum => "max_sq_coef_sum (OldMaxSumSq)",
            SeedHeuristic::MaxSqCoefSumCol => "max_sq_coef_sum_col (OldMaxSumSqOrd)",
            SeedHeuristic::Snoes => "snoes (the first function)",
            SeedHeuristic::Smoothness => "Favorecer Smooth",
            SeedHeuristic::SumSqPerEmpty => "Suma**2 / lugares vacíos",
            SeedHeuristic::MixedPosition => "Mixta + Valor por posición",
            SeedHeuristic::PositionOnly => "Sólo favorecer posición",
        }
    }
}

impl fmt::Display for SeedHeuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`SeedHeuristic::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown heuristic '{name}'; the seed heuristics are: {}", valid_names())]
pub struct ParseHeuristicError {
    /// The name given.
    pub name: String,
}

/// The valid names, comma-separated.
fn valid_names() -> String {
    SeedHeuristic::ALL.map(SeedHeuristic::name).join(", ")
}

impl FromStr for SeedHeuristic {
    type Err = ParseHeuristicError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SeedHeuristic::ALL
            .into_iter()
            .find(|h| h.name() == s)
            .ok_or_else(|| ParseHeuristicError { name: s.to_owned() })
    }
}

impl Heuristic for SeedHeuristic {
    fn value(&self, board: Board) -> f64 {
        match self {
            SeedHeuristic::Mixed => Mixed.value(board),
            SeedHeuristic::MaxCoef => MaxCoef.value(board),
            SeedHeuristic::MaxSqCoef => MaxSqCoef.value(board),
            SeedHeuristic::MaxSqCoefSum => MaxSqCoefSum.value(board),
            SeedHeuristic::MaxSqCoefSumCol => MaxSqCoefSumCol.value(board),
            SeedHeuristic::Snoes => Snoes.value(board),
            SeedHeuristic::Smoothness => Smoothness.value(board),
            SeedHeuristic::SumSqPerEmpty => SumSqPerEmpty.value(board),
            SeedHeuristic::MixedPosition => MixedPosition.value(board),
            SeedHeuristic::PositionOnly => PositionOnly.value(board),
        }
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        match self {
            SeedHeuristic::Mixed => Mixed.bounds(),
            SeedHeuristic::MaxCoef => MaxCoef.bounds(),
            SeedHeuristic::MaxSqCoef => MaxSqCoef.bounds(),
            SeedHeuristic::MaxSqCoefSum => MaxSqCoefSum.bounds(),
            SeedHeuristic::MaxSqCoefSumCol => MaxSqCoefSumCol.bounds(),
            SeedHeuristic::Snoes => Snoes.bounds(),
            SeedHeuristic::Smoothness => Smoothness.bounds(),
            SeedHeuristic::SumSqPerEmpty => SumSqPerEmpty.bounds(),
            SeedHeuristic::MixedPosition => MixedPosition.bounds(),
            SeedHeuristic::PositionOnly => PositionOnly.bounds(),
        }
    }
}

/// The weights of [`LineTable`]'s per-line score, over a line of four ranks `r₀..r₃` (0 for an
/// empty cell, `r` for a tile of 2^r):
///
/// `H(line) = base + empty·#empty + merges·#merges − monotonicity·min(L, R) − sum·Σ rᵢ^sum_power`
///
/// - `#empty`: the empty cells of the line.
/// - `#merges`: scanning the line's tiles in order, skipping empty cells, every run of `k ≥ 2`
///   equal ranks adds `k` (a pair adds 2, three in a row add 3).
/// - `L = Σ (r_{i−1}^p − r_i^p)` over the steps where the rank falls (`r_{i−1} > r_i`), and
///   `R = Σ (r_i^p − r_{i−1}^p)` over the others, with `p = monotonicity_power` and empty cells
///   as rank 0: the line's total descent and ascent; `min(L, R)` is 0 for a monotone line.
///
/// [`LineWeights::NNEONNEO`] (the [`Default`]) holds nneonneo/2048-ai's constants.
///
/// # Examples
///
/// ```
/// use game2048::heuristics::LineWeights;
///
/// let w = LineWeights::default();
/// // 2 0 2 0: two empty cells, one pair (2 merges), L = 1 + 1, R = 1, Σ rᵢ^3.5 = 2.
/// assert_eq!(w.line_value([1, 0, 1, 0]), 200_000.0 + 2.0 * 270.0 + 2.0 * 700.0 - 47.0 - 2.0 * 11.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineWeights {
    /// The constant per line (nneonneo's `SCORE_LOST_PENALTY`, 200,000), which keeps a live
    /// board's value far above the 0 nneonneo gives a lost one.
    pub base: f64,
    /// Per empty cell (`SCORE_EMPTY_WEIGHT`, 270).
    pub empty: f64,
    /// Per merge counted as above (`SCORE_MERGES_WEIGHT`, 700).
    pub merges: f64,
    /// The penalty on `min(L, R)` (`SCORE_MONOTONICITY_WEIGHT`, 47).
    pub monotonicity: f64,
    /// The power of the ranks in `L` and `R` (`SCORE_MONOTONICITY_POWER`, 4).
    pub monotonicity_power: f64,
    /// The penalty on `Σ rᵢ^sum_power` (`SCORE_SUM_WEIGHT`, 11).
    pub sum: f64,
    /// The power of the ranks in the sum (`SCORE_SUM_POWER`, 3.5).
    pub sum_power: f64,
}

impl LineWeights {
    /// nneonneo/2048-ai's constants: 200,000 + 270·empty + 700·merges − 47·min(L, R) with power 4
    /// − 11·Σ rᵢ^3.5.
    pub const NNEONNEO: LineWeights = LineWeights {
        base: 200_000.0,
        empty: 270.0,
        merges: 700.0,
        monotonicity: 47.0,
        monotonicity_power: 4.0,
        sum: 11.0,
        sum_power: 3.5,
    };

    /// The score of one line of four ranks, computed directly (the table holds this for every
    /// line).
    pub fn line_value(&self, line: [u8; 4]) -> f64 {
        let mut empty = 0u32;
        let mut merges = 0u32;
        // The rank of the last tile seen, and how many tiles after the first of its run matched it.
        let mut last = 0u8;
        let mut matched = 0u32;
        let mut rank_sum = 0.0;
        for &r in &line {
            rank_sum += f64::from(r).powf(self.sum_power);
            if r == 0 {
                empty += 1;
            } else if r == last {
                matched += 1;
            } else {
                if matched > 0 {
                    merges += matched + 1;
                }
                matched = 0;
                last = r;
            }
        }
        if matched > 0 {
            merges += matched + 1;
        }
        let (mut descent, mut ascent) = (0.0, 0.0);
        for step in line.windows(2) {
            let (a, b) = (f64::from(step[0]), f64::from(step[1]));
            let (pa, pb) = (a.powf(self.monotonicity_power), b.powf(self.monotonicity_power));
            if step[0] > step[1] {
                descent += pa - pb;
            } else {
                ascent += pb - pa;
            }
        }
        self.base + self.empty * f64::from(empty) + self.merges * f64::from(merges)
            - self.monotonicity * f64::min(descent, ascent)
            - self.sum * rank_sum
    }
}

impl Default for LineWeights {
    /// [`LineWeights::NNEONNEO`].
    fn default() -> Self {
        LineWeights::NNEONNEO
    }
}

/// The number of possible lines: four 4-bit ranks.
const LINES: usize = 1 << 16;

/// A strong heuristic in the class of nneonneo/2048-ai: the sum of a per-line score (see
/// [`LineWeights`]) over the 4 rows and the 4 columns, each read from a table over all 65,536
/// lines.
///
/// The table is built once per set of weights: [`LineTable::default`] shares one process-wide
/// table (built on first use), and clones share their table. [`Heuristic::value`] is a transpose
/// and 8 lookups, with no allocation. Line scores are stored and summed as `f32`, as in
/// nneonneo's program: half the cache of `f64` for a search that spends much of its time here,
/// and values within a few `f32` roundings (about 10⁻⁶ relative) of [`LineWeights::line_value`].
///
/// With the default weights a line scores in [about −2,609,292.5 (line `15 15 1 15`, i.e. 32768
/// 32768 2 32768), 202,756 (`2 2 2 2`)], so [`Heuristic::bounds`] is 8 times that, about
/// [−20,874,340, 1,622,048]: exact for single lines, loose for boards.
///
/// # Examples
///
/// ```
/// use game2048::heuristics::{LineTable, LineWeights};
/// use game2048::{Board, Heuristic};
///
/// let table = LineTable::default();
/// // Every line of the empty board: 200,000 + 4·270.
/// assert_eq!(table.value(Board::EMPTY), 8.0 * 201_080.0);
///
/// let (lo, hi) = table.bounds().unwrap();
/// assert_eq!(hi, 8.0 * 202_756.0);
/// assert!(lo < -20.8e6);
///
/// // Other weights build their own table.
/// let no_sum = LineTable::new(LineWeights { sum: 0.0, ..LineWeights::default() });
/// let board: Board = "2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert!(no_sum.value(board) > table.value(board));
/// # Ok::<(), game2048::ParseBoardError>(())
/// ```
#[derive(Clone)]
pub struct LineTable {
    weights: LineWeights,
    table: Arc<[f32; LINES]>,
    /// The move tables: each line slid towards its first cell, and towards its last (the
    /// board's own, shared by every table).
    towards_first: &'static [u16; LINES],
    towards_last: &'static [u16; LINES],
    line_bounds: (f64, f64),
}

/// A line after a slide and its score.
#[derive(Clone, Copy, Debug, Default)]
struct SlidLine {
    line: u16,
    score: f32,
}

impl LineTable {
    /// The heuristic with these weights; builds a table (a few milliseconds) unless the weights
    /// are the default ones, whose table is shared.
    pub fn new(weights: LineWeights) -> Self {
        if weights == LineWeights::NNEONNEO { LineTable::default() } else { LineTable::build(weights) }
    }

    fn build(weights: LineWeights) -> Self {
        let values: Vec<f32> = (0..LINES)
            .map(|line| weights.line_value(std::array::from_fn(|i| ((line >> (4 * i)) & 0xF) as u8)) as f32)
            .collect();
        let table: Arc<[f32]> = values.into();
        let table: Arc<[f32; LINES]> = table.try_into().expect("one value per line");
        let line_bounds = table.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(f64::from(v)), hi.max(f64::from(v)))
        });
        let (towards_first, towards_last) = crate::board::line_slides();
        LineTable { weights, table, towards_first, towards_last, line_bounds }
    }

    /// The weights the table was built with.
    pub fn weights(&self) -> LineWeights {
        self.weights
    }

    /// The score of one line from the table: `line` holds the ranks of four cells, the first in
    /// the low nibble (as [`Board::row`] returns them).
    pub fn line(&self, line: u16) -> f64 {
        f64::from(self.table[usize::from(line)])
    }

    /// The lowest and highest score of a line, over all 65,536 lines.
    pub fn line_bounds(&self) -> (f64, f64) {
        self.line_bounds
    }

    /// The four directions in [`Direction::ALL`](crate::Direction::ALL) order, each as the
    /// board's lines along the slide (its columns for up and down, its rows for left and right)
    /// and the table that slides them.
    #[inline(always)]
    fn directions(&self, rows: u64, cols: u64) -> [(u64, &'static [u16; LINES]); 4] {
        [
            (cols, self.towards_first),
            (cols, self.towards_last),
            (rows, self.towards_first),
            (rows, self.towards_last),
        ]
    }

    /// The four lines of `lines` slid with `slides`, with their scores, and packed again.
    #[inline(always)]
    fn slid_lines(&self, slides: &[u16; LINES], lines: u64) -> ([SlidLine; 4], u64) {
        let at = |k: u32| self.slid(slides, (lines >> (16 * k)) as u16);
        let slid = [at(0), at(1), at(2), at(3)];
        let after = u64::from(slid[0].line)
            | u64::from(slid[1].line) << 16
            | u64::from(slid[2].line) << 32
            | u64::from(slid[3].line) << 48;
        (slid, after)
    }

    /// `line` slid with `slides`, and its score.
    #[inline(always)]
    fn slid(&self, slides: &[u16; LINES], line: u16) -> SlidLine {
        let line = slides[usize::from(line)];
        SlidLine { line, score: self.table[usize::from(line)] }
    }

    /// The value of the afterstate whose lines along the slide are `after` (slid from `lines`)
    /// and score `along` in all: `None` when the slide changes nothing. The lines across are the
    /// rows of the transpose of `after`. `LineTable::value` sums rows and columns in pairs and
    /// then adds the two; `f32` addition commutes, so the sum is the same whichever of `along`
    /// and `across` the rows are.
    #[inline(always)]
    fn afterstate(&self, lines: u64, after: u64, along: f32) -> Option<f32> {
        if after == lines {
            return None;
        }
        let table = &*self.table;
        let line = |raw: u64, r: u32| table[usize::from((raw >> (16 * r)) as u16)];
        let across = Board::from_raw(after).transpose().raw();
        Some(along + ((line(across, 0) + line(across, 1)) + (line(across, 2) + line(across, 3))))
    }
}

/// The four cells of `line` spread to the low nibbles of four 16-bit lines (cell `j` to bits
/// `16·j..16·j + 4`): a line of a board as a column of its transpose.
#[inline(always)]
fn spread_line(line: u16) -> u64 {
    let x = u64::from(line);
    let x = (x | x << 24) & 0x0000_00FF_0000_00FF;
    (x | x << 12) & 0x000F_000F_000F_000F
}

/// The largest of a board's afterstate values as they come, the first of the largest kept (NaN
/// too), as [`Heuristic::best_afterstate`]'s default finds it. Kept in registers: an array of
/// options costs a stall on every call. (A form without branches was slower: the first
/// direction that moves is usually the best, which the predictor learns.)
#[derive(Clone, Copy, Default)]
struct Best(Option<f32>);

impl Best {
    #[inline(always)]
    fn consider(&mut self, v: f32) {
        if self.0.is_none_or(|b| v > b || v.is_nan()) {
            self.0 = Some(v);
        }
    }

    fn value(self) -> Option<f64> {
        self.0.map(f64::from)
    }
}

impl Default for LineTable {
    /// The table with nneonneo's weights, [`LineWeights::NNEONNEO`], built once per process.
    fn default() -> Self {
        static DEFAULT: OnceLock<LineTable> = OnceLock::new();
        DEFAULT.get_or_init(|| LineTable::build(LineWeights::NNEONNEO)).clone()
    }
}

impl fmt::Debug for LineTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineTable")
            .field("weights", &self.weights)
            .field("line_bounds", &self.line_bounds)
            .finish_non_exhaustive()
    }
}

impl Heuristic for LineTable {
    #[inline]
    fn value(&self, board: Board) -> f64 {
        let table = &*self.table;
        let rows = board.raw();
        // The columns of the board are the rows of its transpose.
        let cols = board.transpose().raw();
        let line = |raw: u64, r: u32| table[usize::from((raw >> (16 * r)) as u16)];
        // Summed pairwise rather than in one chain: the eight loads overlap instead of each
        // add waiting for the one before.
        let rows = (line(rows, 0) + line(rows, 1)) + (line(rows, 2) + line(rows, 3));
        let cols = (line(cols, 0) + line(cols, 1)) + (line(cols, 2) + line(cols, 3));
        f64::from(rows + cols)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        let (lo, hi) = self.line_bounds;
        Some((8.0 * lo, 8.0 * hi))
    }

    /// The afterstates' values without sliding the boards first: the lines along a slide come
    /// with their scores from one table, so each afterstate needs only its lines across (one
    /// transpose and four loads) besides. Bit for bit [`LineTable::value`] of each afterstate.
    #[inline]
    fn best_afterstate(&self, board: Board) -> Option<f64> {
        if board.has_max_rank() {
            // A 32768 may not merge with another: the rare boards go the plain way.
            return crate::evaluation::best_afterstate_by_value(self, board);
        }
        let (rows, cols) = (board.raw(), board.transpose().raw());
        let mut best = Best::default();
        for (lines, table) in self.directions(rows, cols) {
            let ([a, b, c, d], after) = self.slid_lines(table, lines);
            if let Some(v) = self.afterstate(lines, after, (a.score + b.score) + (c.score + d.score)) {
                best.consider(v);
            }
        }
        best.value()
    }

    /// The spawns' boards differ from `board` in one line along each slide: the other three
    /// lines, slid, and their scores are looked up once for all spawns.
    fn expected_best_afterstate(&self, board: Board, two: f64, four: f64, lost: f64) -> f64 {
        if board.has_max_rank() {
            return crate::evaluation::expected_best_afterstate_one_by_one(self, board, two, four, lost);
        }
        let (rows, cols) = (board.raw(), board.transpose().raw());
        // For each direction and each line `k` a spawn may change: whether the other lines
        // move, the score of the line paired with `k` in `LineTable::value`'s sum, the sum of
        // the other pair, and the lines across with line `k`'s cells left zero. Plain arrays of
        // one type each, written once and read with loads of the same width.
        let mut others_move = [[false; 4]; 4];
        let mut partner = [[0f32; 4]; 4];
        let mut other_pair = [[0f32; 4]; 4];
        let mut across_others = [[0u64; 4]; 4];
        for (d, (lines, table)) in self.directions(rows, cols).into_iter().enumerate() {
            let (slid, after) = self.slid_lines(table, lines);
            let across = Board::from_raw(after).transpose().raw();
            let pairs = [slid[0].score + slid[1].score, slid[2].score + slid[3].score];
            for k in 0..4 {
                others_move[d][k] = (after ^ lines) & !(0xFFFF << (16 * k)) != 0;
                partner[d][k] = slid[k ^ 1].score;
                other_pair[d][k] = pairs[1 - k / 2];
                across_others[d][k] = across & !(0x000F_000F_000F_000F << (4 * k));
            }
        }
        let table = &*self.table;
        let line = |raw: u64, r: u32| table[usize::from((raw >> (16 * r)) as u16)];
        let mut sum = 0.0;
        let mut empty = board.empty_mask();
        while empty != 0 {
            let cell = empty.trailing_zeros();
            empty &= empty - 1;
            let (r, c) = (cell / 4, cell % 4);
            for (rank, q) in [(1u8, two), (2, four)].into_iter().take(if four > 0.0 { 2 } else { 1 }) {
                let rows = rows | u64::from(rank) << (4 * cell);
                let cols = cols | u64::from(rank) << (4 * (4 * c + r));
                let mut best = Best::default();
                // Up and down slide the columns, where column `c` changed; left and right the
                // rows, where row `r` did.
                for (d, (lines, slides)) in self.directions(rows, cols).into_iter().enumerate() {
                    let k = if d < 2 { c } else { r };
                    let old = (lines >> (16 * k)) as u16;
                    let e = self.slid(slides, old);
                    let k_shift = k;
                    let k = k as usize;
                    if e.line == old && !others_move[d][k] {
                        continue;
                    }
                    // `(a + b) + (c + d)` with one term replaced: `f32` addition commutes, so
                    // the pair and the order of the two pairs do not change the bits.
                    let along = (e.score + partner[d][k]) + other_pair[d][k];
                    // Line `k` of the slid lines is cell `k` of each line across.
                    let across = across_others[d][k] | spread_line(e.line) << (4 * k_shift);
                    let across = (line(across, 0) + line(across, 1)) + (line(across, 2) + line(across, 3));
                    best.consider(along + across);
                }
                sum += q * best.value().unwrap_or(lost);
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    fn all_seed(b: Board) -> [f64; 10] {
        SeedHeuristic::ALL.map(|h| h.value(b))
    }

    /// Values in the order of [`SeedHeuristic::ALL`]: mixed, max-coef, max-sq-coef,
    /// max-sq-coef-sum, max-sq-coef-sum-col, snoes, smoothness, sum-sq-per-empty,
    /// mixed-position, position.
    fn assert_seed(b: Board, expected: [f64; 10]) {
        for ((h, got), want) in SeedHeuristic::ALL.into_iter().zip(all_seed(b)).zip(expected) {
            assert!((got - want).abs() <= 1e-12 * want.abs().max(1.0), "{h} on {b}: {got} != {want}");
        }
    }

    #[test]
    fn seed_heuristics_on_two_tiles() {
        // 2 2 0 0 / 0 … : N = 2, E = 14, S1 = 4, S2 = 8, M = 2, ⌊S2/N⌋ = 4.
        // Sm: row 0 gives |2−2| + |2−0| + |0−0| = 2; columns 0 and 1 give |2−0| each: Sm = 6.
        // Every line is monotone (2 2 0 0, 2 0 0 0 and lines of zeros): 8 of 8.
        // Position: (0,0) has weight 3, (0,1) weight 2: 2·9 + 2·4 = 26.
        let b = board("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
        let mixed = 4.0 / 36.0;
        let sum = mixed + 4.0 / 2048.0 / 2048.0 + 4.0 / 4096.0;
        assert_seed(
            b,
            [
                mixed,
                mixed + 2.0 / 2048.0,
                mixed + 4.0 / 2048.0 / 2048.0,
                sum,
                sum + 8.0 / 64.0,
                4.0,
                1.0 / 36.0,
                8.0 / 14.0,
                mixed + 26.0,
                26.0,
            ],
        );
    }

    #[test]
    fn seed_heuristics_on_a_mixed_board() {
        // 2 4 2 0 / 4 0 0 0 / 0 0 0 8 / 0 0 2 16
        // Tiles 2 4 2 4 8 2 16: N = 7, E = 9, S1 = 38, S2 = 4+16+4+16+64+4+256 = 364, M = 16,
        // ⌊364/7⌋ = 52.
        // Sm, rows: (2+2+2) + (4+0+0) + (0+0+8) + (0+2+14) = 34;
        //     columns: 2 4 0 0 → 2+4+0, 4 0 0 0 → 4, 2 0 0 2 → 2+0+2, 0 0 8 16 → 0+8+8: 30.
        //     Sm = 64, Sm² = 4096.
        // Monotone: rows 1, 2, 3 and columns 1, 3 (row 0 and columns 0, 2 rise and fall): 5.
        // Position: 2·3² + 4·2² + 2·1² + 4·4² + 8·8² + 2·14² + 16·15²
        //         = 18 + 16 + 2 + 64 + 512 + 392 + 3600 = 4604.
        let b = board("2 4 2 0/4 0 0 0/0 0 0 8/0 0 2 16");
        let mixed = 52.0 / 4096.0;
        // M²/2048² = 256/2048² = 0.25/4096; S1/4096 = 38/4096.
        let sum = (52.0 + 0.25 + 38.0) / 4096.0;
        assert_seed(
            b,
            [
                mixed,
                (52.0 + 32.0) / 4096.0,
                (52.0 + 0.25) / 4096.0,
                sum,
                sum + 5.0 / 64.0,
                52.0,
                1.0 / 4096.0,
                364.0 / 9.0,
                mixed + 4604.0,
                4604.0,
            ],
        );
    }

    #[test]
    fn seed_heuristics_where_the_seed_divides_by_zero() {
        // Sixteen 2s: Sm = 0 (taken as 1), E = 0 (taken as 1), N = 16, S1 = 32, S2 = 64,
        // ⌊64/16⌋ = 4, all 8 lines monotone, position 2·1240 = 2480.
        let full = board("2 2 2 2/2 2 2 2/2 2 2 2/2 2 2 2");
        let sum = 4.0 + 4.0 / 2048.0 / 2048.0 + 32.0 / 4096.0;
        assert_seed(
            full,
            [
                4.0,
                4.0 + 2.0 / 2048.0,
                4.0 + 4.0 / 2048.0 / 2048.0,
                sum,
                sum + 0.125,
                4.0,
                1.0,
                64.0,
                4.0 + 2480.0,
                2480.0,
            ],
        );
        // The empty board: N = 0 (⌊S2/N⌋ taken as 0), Sm = 0, every line monotone.
        assert_seed(Board::EMPTY, [0.0, 0.0, 0.0, 0.0, 0.125, 0.0, 1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn seed_upper_bounds_are_reached_by_sixteen_32768s() {
        let top = Board::from_ranks([15; 16]);
        for h in SeedHeuristic::ALL {
            assert_eq!(Some(h.value(top)), h.bounds().map(|b| b.1), "{h}");
        }
    }

    #[test]
    fn seed_heuristics_are_finite_and_within_bounds() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..5_000 {
            let top = rng.random_range(1..=15u8);
            let b = Board::from_ranks(std::array::from_fn(|_| rng.random_range(0..=top)));
            for h in SeedHeuristic::ALL {
                let v = h.value(b);
                let (lo, hi) = h.bounds().unwrap();
                assert!(v.is_finite() && lo <= v && v <= hi, "{h} on {b}: {v}");
            }
        }
    }

    #[test]
    fn names_round_trip_and_errors_list_them() {
        for h in SeedHeuristic::ALL {
            assert_eq!(h.name().parse::<SeedHeuristic>(), Ok(h));
            assert_eq!(h.to_string(), h.name());
            assert!(!h.seed_name().is_empty());
        }
        let names: std::collections::HashSet<_> = SeedHeuristic::ALL.map(SeedHeuristic::name).into();
        assert_eq!(names.len(), SeedHeuristic::ALL.len());
        let err = "Mixed".parse::<SeedHeuristic>().unwrap_err();
        assert_eq!(err, ParseHeuristicError { name: "Mixed".into() });
        let message = err.to_string();
        assert!(message.contains("'Mixed'"), "{message}");
        for h in SeedHeuristic::ALL {
            assert!(message.contains(h.name()), "{message}");
        }
    }

    #[test]
    fn line_values_by_hand() {
        let w = LineWeights::default();
        // Empty line: 200000 + 4·270.
        assert_eq!(w.line_value([0, 0, 0, 0]), 201_080.0);
        // 2 2 2 2: one run of four → 4 merges; monotone; Σ rᵢ^3.5 = 4.
        assert_eq!(w.line_value([1, 1, 1, 1]), 200_000.0 + 4.0 * 700.0 - 4.0 * 11.0);
        assert_eq!(w.line_value([1, 1, 1, 1]), 202_756.0);
        // 4 4 8 8: two pairs → 2 + 2 merges; rising, so min(L, R) = 0; Σ = 2·2^3.5 + 2·3^3.5.
        let sum = 2.0 * 8.0 * 2f64.sqrt() + 2.0 * 27.0 * 3f64.sqrt();
        assert_close(w.line_value([2, 2, 3, 3]), 200_000.0 + 4.0 * 700.0 - 11.0 * sum);
        // 8 _ 8 8: the empty cell is skipped, so one run of three → 3 merges; one empty.
        // L = 3⁴ − 0 = 81 (8 → _), R = 81 (_ → 8) + 0 (8 → 8): min 81. Σ = 3·3^3.5.
        let sum = 3.0 * 27.0 * 3f64.sqrt();
        assert_close(w.line_value([3, 0, 3, 3]), 200_000.0 + 270.0 + 3.0 * 700.0 - 47.0 * 81.0 - 11.0 * sum);
        // 2 4 8 16: rising (L = 0), no merges, Σ = 1 + 2^3.5 + 3^3.5 + 4^3.5 = 1 + 8√2 + 27√3 + 128.
        let sum = 1.0 + 8.0 * 2f64.sqrt() + 27.0 * 3f64.sqrt() + 128.0;
        assert_close(w.line_value([1, 2, 3, 4]), 200_000.0 - 11.0 * sum);
        // 32768 32768 2 32768: a pair (2 merges); L = 15⁴ − 1 = 50624, R = 0 + 50624;
        // Σ = 3·15^3.5 + 1 = 3·3375·√15 + 1.
        let sum = 3.0 * 3375.0 * 15f64.sqrt() + 1.0;
        assert_close(w.line_value([15, 15, 1, 15]), 200_000.0 + 1400.0 - 47.0 * 50_624.0 - 11.0 * sum);
        // The table stores the same values, first cell in the low nibble.
        let t = LineTable::default();
        // The table stores the same values, first cell in the low nibble, rounded to `f32`.
        assert_eq!(t.line(0x3303), f64::from(w.line_value([3, 0, 3, 3]) as f32));
        assert_eq!(t.line(0x4321), f64::from(w.line_value([1, 2, 3, 4]) as f32));
    }

    fn assert_close(got: f64, want: f64) {
        assert!((got - want).abs() <= 1e-9 * want.abs().max(1.0), "{got} != {want}");
    }

    #[test]
    fn line_table_bounds_match_the_reference() {
        let t = LineTable::default();
        let (lo, hi) = t.line_bounds();
        // Reference: per line [−2,609,292.5 (row f1ff), 202,756 (row 1111)].
        assert_eq!(hi, 202_756.0);
        assert_eq!(hi, t.line(0x1111));
        assert_eq!(lo, t.line(0xF1FF));
        // Stored as an `f32`, whose spacing near 2.6 M is 0.25.
        assert!((lo - -2_609_292.5).abs() < 0.25, "{lo}");
        let first_low = (0..=u16::MAX).find(|&l| t.line(l) == lo);
        assert_eq!(first_low, Some(0xF1FF));
        // Reference: a board lies in [−20.9 M, 1.622 M].
        let (board_lo, board_hi) = t.bounds().unwrap();
        assert_eq!((board_lo, board_hi), (8.0 * lo, 8.0 * hi));
        assert_eq!(board_hi, 1_622_048.0);
        assert_eq!((board_lo / 1e5).round(), -209.0);
        assert!((board_lo - -20_874_340.16).abs() < 2.0, "{board_lo}");
    }

    #[test]
    fn custom_weights_build_their_own_table() {
        let flat = LineTable::new(LineWeights {
            empty: 0.0,
            merges: 0.0,
            monotonicity: 0.0,
            sum: 0.0,
            ..LineWeights::default()
        });
        assert_eq!(flat.line_bounds(), (200_000.0, 200_000.0));
        assert_eq!(flat.value(board("2 4 8 16/0 0 0 0/0 0 0 0/4 0 0 2")), 1_600_000.0);
        assert_eq!(LineTable::new(LineWeights::default()).weights(), LineWeights::NNEONNEO);
    }

    /// A second, plain implementation of the per-line score with nneonneo's weights, written
    /// differently from [`LineWeights::line_value`]: runs found with `chunk_by`.
    fn direct_line(line: [u8; 4]) -> f64 {
        let empty = line.iter().filter(|&&r| r == 0).count() as f64;
        let tiles: Vec<u8> = line.iter().copied().filter(|&r| r != 0).collect();
        let merges: usize = tiles.chunk_by(|a, b| a == b).map(|run| run.len()).filter(|&k| k >= 2).sum();
        let p4 = |r: u8| f64::from(r).powi(4);
        let falls: f64 = line.windows(2).filter(|s| s[0] > s[1]).map(|s| p4(s[0]) - p4(s[1])).sum();
        let rises: f64 = line.windows(2).filter(|s| s[0] <= s[1]).map(|s| p4(s[1]) - p4(s[0])).sum();
        let sum: f64 = line.iter().map(|&r| f64::from(r).powf(3.5)).sum();
        200_000.0 + 270.0 * empty + 700.0 * merges as f64 - 47.0 * falls.min(rises) - 11.0 * sum
    }

    /// The board's value from its cells: 4 rows and 4 columns, read with `Board::rank`.
    fn direct_board(b: Board) -> f64 {
        let rows: f64 = (0..4).map(|r| direct_line(std::array::from_fn(|c| b.rank(4 * r + c)))).sum();
        let cols: f64 = (0..4).map(|c| direct_line(std::array::from_fn(|r| b.rank(4 * r + c)))).sum();
        rows + cols
    }

    /// How far the table's value may be from [`direct_board`]: each line is stored and summed as
    /// an `f32`, so a few `f32` roundings of the largest magnitude involved.
    fn f32_tolerance(b: Board) -> f64 {
        let lines = (0..4)
            .map(|r| direct_line(std::array::from_fn(|c| b.rank(4 * r + c))).abs())
            .chain((0..4).map(|c| direct_line(std::array::from_fn(|r| b.rank(4 * r + c))).abs()));
        16.0 * f64::from(f32::EPSILON) * lines.sum::<f64>()
    }

    proptest! {
        /// The shared-lines shortcut gives the plain maximum over the slid boards to the bit,
        /// on boards with and without a 32768 (which takes the plain path) and with other
        /// weights.
        #[test]
        fn best_afterstate_is_the_plain_maximum_to_the_bit(
            ranks in prop::array::uniform16(prop_oneof![4 => Just(0u8), 6 => 1u8..12, 1 => 12u8..16]),
            other_weights in any::<bool>(),
        ) {
            let b = Board::from_ranks(ranks);
            let table = if other_weights {
                LineTable::new(LineWeights { sum: 0.0, ..LineWeights::default() })
            } else {
                LineTable::default()
            };
            let plain = crate::evaluation::best_afterstate_by_value(&table, b);
            prop_assert_eq!(table.best_afterstate(b).map(f64::to_bits), plain.map(f64::to_bits), "{}", b);
        }

        /// The expected best afterstate with the shared lines equals each spawn valued on its
        /// own, to the bit, with and without 4s.
        #[test]
        fn expected_best_afterstate_is_each_spawn_valued_alone(
            ranks in prop::array::uniform16(prop_oneof![5 => Just(0u8), 6 => 1u8..12, 1 => 12u8..16]),
            four in prop_oneof![Just(0.0), Just(0.1), 0.0..1.0f64],
        ) {
            let b = Board::from_ranks(ranks);
            let table = LineTable::default();
            let empty = f64::from(b.empty_count().max(1));
            let (two, four) = ((1.0 - four) / empty, four / empty);
            let shared = table.expected_best_afterstate(b, two, four, -1e9);
            let alone = crate::evaluation::expected_best_afterstate_one_by_one(&table, b, two, four, -1e9);
            prop_assert_eq!(shared.to_bits(), alone.to_bits(), "{}", b);
        }

        #[test]
        fn table_matches_direct_computation(raw in any::<u64>()) {
            let b = Board::from_raw(raw);
            let (got, want) = (LineTable::default().value(b), direct_board(b));
            prop_assert!((got - want).abs() <= f32_tolerance(b), "{b}: {got} != {want}");
        }

        #[test]
        fn table_matches_direct_computation_on_game_like_boards(
            ranks in prop::array::uniform16(prop_oneof![3 => Just(0u8), 5 => 1u8..12])
        ) {
            let b = Board::from_ranks(ranks);
            let (got, want) = (LineTable::default().value(b), direct_board(b));
            prop_assert!((got - want).abs() <= f32_tolerance(b), "{b}: {got} != {want}");
            let (lo, hi) = LineTable::default().bounds().unwrap();
            prop_assert!(lo <= got && got <= hi);
        }
    }
}
