//! The solver's connection engine as a query: what H-search finds between two ends for one
//! side, the way Benzene's `vc-between-cells-full` and `vc-between-cells-semi` show its own.
//! Setting the two engines' answers side by side on one position shows which connections one
//! sees and the other does not (the solvers' speed depends on little else).

use thiserror::Error;

use super::geometry::bits;
use super::{SolveError, Solver};
use crate::board::{Cell, Color, Position};

/// One end of a connection for [`Solver::connections`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// A cell: one of the side's stones (its whole group), or an empty cell standing for a
    /// stone the side would put there.
    Cell(Cell),
    /// The side's first edge: the top (row 1) for Black, the left (column a) for White.
    First,
    /// The side's second edge: the bottom for Black, the right for White.
    Second,
}

/// A semi-connection: it holds if the side plays `key` first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Semi {
    /// The move that makes it a virtual connection.
    pub key: Cell,
    /// The empty cells it needs, the key among them, in cell order (row by row).
    pub carrier: Vec<Cell>,
}

/// What H-search found between two ends: the virtual connections (each a carrier of empty
/// cells, in cell order) and the semi-connections, each list with minimal carriers only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Connections {
    /// Virtual connections: they hold whoever moves first.
    pub full: Vec<Vec<Cell>>,
    /// Semi-connections.
    pub semi: Vec<Semi>,
}

/// Why [`Solver::connections`] cannot answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ConnectionError {
    /// The position itself: the game is over, or the board is too large for the solver.
    #[error(transparent)]
    Position(#[from] SolveError),
    /// An end cell is off the board.
    #[error("{0} is off the board")]
    OffBoard(Cell),
    /// An end cell holds the other side's stone (perhaps one the fill-in put there).
    #[error("{cell} holds a {owner} stone{}", if *.filled { " (filled in: dead or captured)" } else { "" })]
    Opponent {
        /// The cell.
        cell: Cell,
        /// The stone's colour.
        owner: Color,
        /// Whether the fill-in put it there.
        filled: bool,
    },
    /// The side's stones connect its edges once dead and captured cells are filled in: the
    /// game is decided, and the side's stones form one node with both edges.
    #[error("{0}'s edges are connected once dead and captured cells are filled in")]
    Decided(Color),
    /// Both ends are the same edge, the same group or the same cell.
    #[error("both ends are the same")]
    SameEnd,
}

impl Solver {
    /// The virtual and semi-connections H-search finds between `from` and `to` for `side`,
    /// on `position` after the fill-in (dead and captured cells filled, as the solver sees
    /// every position). The build runs to its end here: inside the search it stops at the
    /// first connection between the edges. Whose turn it is does not matter.
    ///
    /// ```
    /// use hex::solver::{Endpoint, Solver, SolverConfig};
    /// use hex::{play_moves, Cell, Color};
    ///
    /// // Black c3 and d4 on 7x7 (White's a7 far away): a bridge over d3 and c4.
    /// let (pos, _) = play_moves(7, ["c3", "a7", "d4"]).unwrap();
    /// let (c3, d4) = (Cell::new(2, 2), Cell::new(3, 3));
    /// let mut solver = Solver::new(SolverConfig::default());
    /// let found = solver.connections(&pos, Color::Black, Endpoint::Cell(c3), Endpoint::Cell(d4)).unwrap();
    /// assert!(found.full.contains(&vec![Cell::new(2, 3), Cell::new(3, 2)]));
    /// // c3, on the third row, reaches the top edge: its smallest carrier (the ziggurat, eight
    /// // cells) lies in its own row and the two above (others go round through d4).
    /// let top = solver.connections(&pos, Color::Black, Endpoint::Cell(c3), Endpoint::First).unwrap();
    /// let smallest = top.full.iter().min_by_key(|carrier| carrier.len()).unwrap();
    /// assert_eq!(smallest.len(), 8);
    /// assert!(smallest.iter().all(|cell| cell.row <= 2));
    /// // White's a7 is no end of a Black connection.
    /// assert!(solver.connections(&pos, Color::Black, Endpoint::Cell(Cell::new(6, 0)), Endpoint::First).is_err());
    /// ```
    pub fn connections(
        &mut self,
        position: &Position,
        side: Color,
        from: Endpoint,
        to: Endpoint,
    ) -> Result<Connections, ConnectionError> {
        let (stones, filled, empty) = self.filled(position)?;
        let geo = self.geometry.as_ref().expect("filled builds the geometry");
        let me = usize::from(side.index());
        let own = filled[me];
        let size = geo.size;
        let node_bit = |end: Endpoint| -> Result<Option<usize>, ConnectionError> {
            match end {
                Endpoint::First | Endpoint::Second => Ok(None),
                Endpoint::Cell(cell) => {
                    if cell.row >= size || cell.col >= size {
                        return Err(ConnectionError::OffBoard(cell));
                    }
                    let b = geo.index(cell);
                    if filled[1 - me] >> b & 1 == 1 {
                        let filled = stones[1 - me] >> b & 1 == 0;
                        return Err(ConnectionError::Opponent { cell, owner: side.opponent(), filled });
                    }
                    Ok(Some(b))
                }
            }
        };
        let (a, b) = (node_bit(from)?, node_bit(to)?);
        if geo.connects(side, own) {
            return Err(ConnectionError::Decided(side));
        }
        let hsearch = &mut self.hsearch[0];
        hsearch.build_all(geo, side, own, empty);
        let node = |end: Endpoint, bit: Option<usize>| match (end, bit) {
            (Endpoint::First, _) => 0,
            (Endpoint::Second, _) => 1,
            (Endpoint::Cell(_), Some(b)) => hsearch.node(b),
            (Endpoint::Cell(_), None) => unreachable!("a cell end has a bit"),
        };
        let (x, y) = (node(from, a), node(to, b));
        if x == y {
            return Err(ConnectionError::SameEnd);
        }
        let cells = |set: u128| bits(set).map(|i| geo.cell(i)).collect::<Vec<Cell>>();
        let (full, semi) = hsearch.between(x, y);
        Ok(Connections {
            full: full.iter().map(|&c| cells(c)).collect(),
            semi: semi.iter().map(|&(key, c)| Semi { key: geo.cell(key), carrier: cells(c) }).collect(),
        })
    }

    /// Where `side` answers intrusions into its virtual connections: for every pair of its
    /// groups (its edges among them, each merged with the stones that touch it) that H-search
    /// connects virtually, the cells inside every one of the pair's VC carriers (an opponent
    /// stone there breaks all of them) and, for each, the keys of the pair's semi-connections
    /// that avoid it (a `side` stone there connects the pair again). One entry per intruding
    /// cell, the answers of all its pairs together, both in cell order; on `position` after the
    /// fill-in, as [`Solver::connections`] sees it. The two edges are a pair too: a virtual
    /// connection between them (a won game) has its intrusions and answers like any other.
    /// Empty when `side`'s stones already join its edges or nothing is connected. MoHex gives
    /// such answers a prior bonus in its tree ("VC maintenance").
    ///
    /// ```
    /// use hex::solver::{Solver, SolverConfig};
    /// use hex::{play_moves, Cell, Color};
    ///
    /// // Black c3 and d4 on 7x7: a bridge over d3 and c4. White taking one, Black takes the other.
    /// let (pos, _) = play_moves(7, ["c3", "a7", "d4"]).unwrap();
    /// let answers = Solver::new(SolverConfig::default()).intrusion_answers(&pos, Color::Black).unwrap();
    /// let (d3, c4) = (Cell::new(2, 3), Cell::new(3, 2));
    /// let of = |cell| answers.iter().find(|(probe, _)| *probe == cell).map(|(_, a)| a.clone());
    /// assert!(of(d3).is_some_and(|a| a.contains(&c4)));
    /// assert!(of(c4).is_some_and(|a| a.contains(&d3)));
    /// ```
    pub fn intrusion_answers(
        &mut self,
        position: &Position,
        side: Color,
    ) -> Result<Vec<(Cell, Vec<Cell>)>, SolveError> {
        let (_, filled, empty) = self.filled(position)?;
        let geo = self.geometry.as_ref().expect("filled builds the geometry");
        let own = filled[usize::from(side.index())];
        if geo.connects(side, own) {
            return Ok(Vec::new());
        }
        let hsearch = &mut self.hsearch[0];
        hsearch.build_all(geo, side, own, empty);
        // The group nodes: the two edges, then one per group of stones.
        let mut groups: Vec<usize> = vec![0, 1];
        for b in bits(own) {
            let node = hsearch.node(b);
            if !groups.contains(&node) {
                groups.push(node);
            }
        }
        // answers[cell] for each intruding cell, as sets of cells.
        let mut answers = vec![0u128; 128];
        let mut intruding = 0u128;
        for (i, &x) in groups.iter().enumerate() {
            for &y in &groups[i + 1..] {
                let (full, semi) = hsearch.between(x, y);
                let Some(common) = full.iter().copied().reduce(|a, b| a & b) else { continue };
                for probe in bits(common & empty) {
                    let restoring = semi.iter().filter(|(_, carrier)| carrier >> probe & 1 == 0);
                    let keys = restoring.fold(0u128, |keys, &(key, _)| keys | 1 << key);
                    if keys != 0 {
                        answers[probe] |= keys;
                        intruding |= 1 << probe;
                    }
                }
            }
        }
        let cells = |set: u128| bits(set).map(|i| geo.cell(i)).collect::<Vec<Cell>>();
        let mut found: Vec<(Cell, Vec<Cell>)> =
            bits(intruding).map(|b| (geo.cell(b), cells(answers[b]))).collect();
        found.sort();
        Ok(found)
    }

    /// `position` as H-search sees it: both colours' stones as placed and after the fill-in,
    /// and the empty cells left. A finished game is an error.
    fn filled(&mut self, position: &Position) -> Result<([u128; 2], [u128; 2], u128), SolveError> {
        if let Some(winner) = position.winner() {
            return Err(SolveError::GameOver(winner));
        }
        let stones = self.stones(position)?;
        let geo = self.geometry.as_ref().expect("stones builds the geometry");
        let filled = geo.fill_in(stones);
        Ok((stones, filled, geo.cells & !filled[0] & !filled[1]))
    }
}
