//! Opening maps: every first move of the empty board, solved.

use std::fmt;

use super::{SolverStats, Verdict};
use crate::board::{Cell, Color};

/// One opening: Black's first stone, and who wins after it with White to move.
///
/// ```
/// use hex::solver::{Solver, SolverConfig};
///
/// let map = Solver::new(SolverConfig::default()).opening_map(2).unwrap();
/// assert_eq!(map.openings()[1].black_wins(), Some(true)); // b1
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Black's first stone.
    pub cell: Cell,
    /// The solution of the position after it (White to move).
    pub verdict: Verdict,
    /// What solving it cost.
    pub stats: SolverStats,
}

impl Opening {
    /// Whether the opening wins for Black; `None` if a limit stopped the search.
    ///
    /// ```
    /// use hex::solver::{Solver, SolverConfig};
    /// let map = Solver::new(SolverConfig::default()).opening_map(2).unwrap();
    /// assert_eq!(map.openings()[0].black_wins(), Some(false)); // a1
    /// ```
    pub fn black_wins(&self) -> Option<bool> {
        self.verdict.winner().map(|w| w == Color::Black)
    }
}

/// Every opening of an n×n board, in cell order (row by row). Its `Display` draws the board
/// the way the crate's reference does: `W` for a winning opening, `.` for a losing one, `?`
/// for one a limit left unsolved.
///
/// ```
/// use hex::solver::{Solver, SolverConfig};
///
/// let map = Solver::new(SolverConfig::default()).opening_map(2).unwrap();
/// assert_eq!(map.to_string(), "   a b\n 1 . W\n 2  W .\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningMap {
    size: u8,
    openings: Vec<Opening>,
}

impl OpeningMap {
    pub(crate) fn new(size: u8, openings: Vec<Opening>) -> OpeningMap {
        OpeningMap { size, openings }
    }

    /// The board side.
    ///
    /// ```
    /// let map = hex::solver::Solver::new(Default::default()).opening_map(2).unwrap();
    /// assert_eq!(map.size(), 2);
    /// ```
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Every opening, row by row.
    ///
    /// ```
    /// let map = hex::solver::Solver::new(Default::default()).opening_map(2).unwrap();
    /// assert_eq!(map.openings().len(), 4);
    /// ```
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// The openings that win for Black, row by row.
    ///
    /// ```
    /// let map = hex::solver::Solver::new(Default::default()).opening_map(3).unwrap();
    /// assert_eq!(map.winning_cells().len(), 5);
    /// ```
    pub fn winning_cells(&self) -> Vec<Cell> {
        self.openings.iter().filter(|o| o.black_wins() == Some(true)).map(|o| o.cell).collect()
    }

    /// Whether a limit left some opening unsolved.
    ///
    /// ```
    /// let map = hex::solver::Solver::new(Default::default()).opening_map(3).unwrap();
    /// assert!(map.is_complete());
    /// ```
    pub fn is_complete(&self) -> bool {
        self.openings.iter().all(|o| o.black_wins().is_some())
    }

    /// The cost of all openings together.
    ///
    /// ```
    /// let map = hex::solver::Solver::new(Default::default()).opening_map(3).unwrap();
    /// assert!(map.total_stats().nodes >= 9);
    /// ```
    pub fn total_stats(&self) -> SolverStats {
        let mut total = SolverStats::default();
        for o in &self.openings {
            total += o.stats;
        }
        total
    }
}

impl fmt::Display for OpeningMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = usize::from(self.size);
        f.write_str("  ")?;
        for c in 0..self.size {
            write!(f, " {}", char::from(b'a' + c))?;
        }
        writeln!(f)?;
        for (r, row) in self.openings.chunks(n).enumerate() {
            write!(f, "{:>2}{}", r + 1, " ".repeat(r))?;
            for o in row {
                let mark = match o.black_wins() {
                    Some(true) => 'W',
                    Some(false) => '.',
                    None => '?',
                };
                write!(f, " {mark}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
