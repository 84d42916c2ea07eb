//! A proof checker for small boards: plays a claimed winning strategy against every reply of
//! the loser, and accepts the claim only if every line ends with the winner's connection, as
//! the board's own rules (not the solver) see it.

use std::collections::HashSet;

use thiserror::Error;

use crate::board::{Board, Cell, Color, HexMove, Position};

use super::{SolveError, Solver, Verdict};

/// What a successful check covered.
///
/// ```
/// use hex::solver::{Solver, SolverConfig, check_solver};
/// use hex::{Color, Position};
///
/// let mut solver = Solver::new(SolverConfig::default());
/// let checked = check_solver(&mut solver, &Position::new(3).unwrap(), 10_000).unwrap();
/// assert_eq!(checked.winner, Color::Black);
/// assert!(checked.positions > 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckedProof {
    /// The side whose strategy won every line.
    pub winner: Color,
    /// Distinct positions visited (transpositions are checked once).
    pub positions: usize,
}

/// Why a claimed win does not stand.
///
/// ```
/// use hex::solver::{StrategyError, check_strategy};
/// use hex::{Cell, Color, Position};
///
/// // On 2x2 Black wins, but not by playing the first empty cell every time (a1, then b1
/// // after White's a2 answer, which connects nothing).
/// let pos = Position::new(2).unwrap();
/// let first_empty = |p: &Position| p.board().empty_cells().next();
/// let error = check_strategy(&pos, Color::Black, first_empty, 100).unwrap_err();
/// assert!(matches!(error, StrategyError::LoserConnected { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum StrategyError {
    /// The strategy gave no move (or an occupied cell) where the winner is to move.
    #[error("no legal winning move given after {moves}")]
    NoMove {
        /// The moves from the checked position, as cell names.
        moves: String,
    },
    /// A line ended with the loser's connection, or a full board without the winner's.
    #[error("the loser connects after {moves}")]
    LoserConnected {
        /// The moves from the checked position, as cell names.
        moves: String,
    },
    /// The solver failed, or named the other side as the winner, somewhere in the tree.
    #[error("the solver does not claim the win after {moves}: {reason}")]
    Solver {
        /// The moves from the checked position, as cell names.
        moves: String,
        /// What the solver said.
        reason: String,
    },
    /// More positions than the limit: the tree is too big to check here.
    #[error("more than {0} positions: too big to check")]
    TooBig(usize),
}

/// Checks that `winner` wins `position` by following `strategy` (a cell for the winner to
/// play in each position where it is to move): every reply of the other side, at every
/// turn, is tried, and each line must end with the winner connected. `limit` bounds the
/// distinct positions visited.
///
/// ```
/// use hex::solver::check_strategy;
/// use hex::{Cell, Color, Position};
///
/// // 1x1: Black's only move wins.
/// let checked = check_strategy(&Position::new(1).unwrap(), Color::Black, |_| Some(Cell::new(0, 0)), 10);
/// assert_eq!(checked.unwrap().positions, 1);
/// ```
pub fn check_strategy(
    position: &Position,
    winner: Color,
    mut strategy: impl FnMut(&Position) -> Option<Cell>,
    limit: usize,
) -> Result<CheckedProof, StrategyError> {
    let mut seen = HashSet::new();
    let mut line = Vec::new();
    walk(position, winner, &mut |p| Ok(strategy(p)), &mut seen, &mut line, limit)?;
    Ok(CheckedProof { winner, positions: seen.len() })
}

/// [`check_strategy`] with the solver's own claim: the winner it names for `position`, and
/// the winning moves it gives ([`Solver::solve`]) wherever that side is to move.
///
/// ```
/// use hex::solver::{Solver, SolverConfig, check_solver};
/// use hex::{Cell, Color, HexMove, Position};
///
/// let mut solver = Solver::new(SolverConfig::default());
/// let opening = Position::new(4).unwrap().play(HexMove::Place(Cell::new(0, 0))).unwrap();
/// assert_eq!(check_solver(&mut solver, &opening, 100_000).unwrap().winner, Color::White);
/// ```
pub fn check_solver(
    solver: &mut Solver,
    position: &Position,
    limit: usize,
) -> Result<CheckedProof, StrategyError> {
    let claim = |e: SolveError| StrategyError::Solver { moves: String::new(), reason: e.to_string() };
    let winner = match solver.solve(position).map_err(claim)?.verdict {
        Verdict::Win { winner, .. } => winner,
        Verdict::Unknown(limit) => return Err(claim(SolveError::Unknown(limit))),
    };
    let mut seen = HashSet::new();
    let mut line = Vec::new();
    let mut strategy = |p: &Position| match solver.solve(p).map_err(|e| e.to_string())?.verdict {
        Verdict::Win { winner: w, winning_move } if w == winner => Ok(winning_move),
        other => Err(format!("{other:?}")),
    };
    walk(position, winner, &mut strategy, &mut seen, &mut line, limit)?;
    Ok(CheckedProof { winner, positions: seen.len() })
}

/// The depth-first walk: `line` holds the moves from the root, for the error messages.
fn walk(
    position: &Position,
    winner: Color,
    strategy: &mut dyn FnMut(&Position) -> Result<Option<Cell>, String>,
    seen: &mut HashSet<Board>,
    line: &mut Vec<Cell>,
    limit: usize,
) -> Result<(), StrategyError> {
    let moves = |line: &[Cell]| {
        line.iter().map(|&c| crate::move_name(HexMove::Place(c))).collect::<Vec<_>>().join(" ")
    };
    match position.winner() {
        Some(w) if w == winner => return Ok(()),
        Some(_) => return Err(StrategyError::LoserConnected { moves: moves(line) }),
        None => {}
    }
    if !seen.insert(*position.board()) {
        return Ok(());
    }
    if seen.len() > limit {
        return Err(StrategyError::TooBig(limit));
    }
    let replies: Vec<Cell> = if position.to_move() == winner {
        let cell =
            strategy(position).map_err(|reason| StrategyError::Solver { moves: moves(line), reason })?;
        match cell {
            Some(cell) if position.board().get(cell).is_none() && cell_on(position, cell) => vec![cell],
            _ => return Err(StrategyError::NoMove { moves: moves(line) }),
        }
    } else {
        position.board().empty_cells().collect()
    };
    if replies.is_empty() {
        // A full board always has a winner in Hex; this is only reached if it had none.
        return Err(StrategyError::LoserConnected { moves: moves(line) });
    }
    for cell in replies {
        let next =
            position.play(HexMove::Place(cell)).map_err(|_| StrategyError::NoMove { moves: moves(line) })?;
        line.push(cell);
        walk(&next, winner, strategy, seen, line, limit)?;
        line.pop();
    }
    Ok(())
}

/// Whether `cell` lies on the board of `position`.
fn cell_on(position: &Position, cell: Cell) -> bool {
    cell.row < position.size() && cell.col < position.size()
}
