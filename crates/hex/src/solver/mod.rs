//! An exact Hex solver: who wins a position with perfect play, and which moves win.
//!
//! The search is depth-first proof-number search (DFPN: Nagai's MID in negamax form, with
//! Pawlewicz's 1+ε threshold trick) over the solver's own `u128` bitboards (boards up to
//! [`MAX_SOLVER_SIZE`]), with
//! - a fixed-size transposition table keyed by a Zobrist hash, shared by each position and its
//!   180° rotation, and verified against the whole position (a collision never gives a wrong
//!   answer);
//! - **proof sets** and **must-play pruning**: each solved position names the empty cells its
//!   result depends on; once a move is refuted, every move outside its proof set is refuted
//!   too, and the opponent's threats narrow the moves before any is searched; a proof is
//!   shrunk before it is stored (cells that are dead or captured once the loser has every
//!   cell outside the proof are left out);
//! - **H-search** (Anshelevich's AND and OR rules over groups and empty cells, with edge
//!   templates as base connections; a cheap search for chains of bridges and templates runs
//!   first) for the opponent at every new position: its
//!   virtual connection between its edges is a loss for the mover, and its semi-connections
//!   between its edges confine the mover to the intersection of their carriers. The mover's
//!   own connections are not built there (half the cost of a node, a win in a few per cent
//!   of them): its win shows one move deeper, as the opponent's connection there.
//!   [`Solver::analyse`], a look at one position without search (the MCTS player's proofs
//!   inside its tree), builds both sides. The OR rule
//!   keeps every combination it finds (up to eight a new semi-connection), not only the
//!   first: the carriers differ, and a later AND needs the one that avoids its other half;
//! - **edge templates** found by the solver itself: the ziggurat and template IVa, two stones
//!   side by side on the fourth and fifth rows, and fourth- and fifth-row stones with a
//!   helping stone, each a minimal carrier proved by this solver on a board where the
//!   opponent holds everything else, and kept only where H-search does not derive it
//!   (`templates.txt` beside this module, with the command that finds them); a carrier
//!   cell holding one of the side's own stones does not spoil a template;
//! - **fill-in** after every move: dead cells (four neighbours in a row of one colour, an
//!   obtuse corner's outside diagonal counting for both colours, or a ring of both colours
//!   where neither side's stone could join anything not joined already, such as three of
//!   one colour and three of the other) and *captured* pairs (two
//!   adjacent empty cells where a stone of one colour on either kills the other, e.g. the two
//!   edge cells of a bridge to the edge, or, judged with the groups in view, makes the other
//!   useless to that colour: its stones around the cell are joined anyway, around the ring or
//!   through their groups) are filled with stones, which never changes the
//!   winner but removes moves and lets positions transpose; a result proved after the fill-in
//!   keeps the cells filled for its winner in its proof set (those filled for the loser can
//!   stay out: the loser may have them anyway);
//! - **decompositions** (Benzene's combinatorial decompositions, found here by a flood): when
//!   two of the opponent's groups (or a group and its edge) have a virtual connection whose
//!   carrier lies in a part of the board the two close off from the opponent's other edges,
//!   the position is worth the same with the carrier filled with the opponent's stones; the
//!   mover's moves are then those of the filled position, its connections built again;
//! - **vulnerable cells** left out of the moves: a cell that the opponent's reply on a
//!   neighbour would kill is never the only winning move (unless every move wins);
//! - **dominated cells** left out of the moves: when the mover's stone on `y` makes `x` dead
//!   or captured for the mover (captured pairs judged with the groups in view included), `x`
//!   is never better than `y`;
//! - **widening** (Benzene's focused DFPN): the moves are ordered by the sum of both sides'
//!   two-distance potentials (then nearness to the centre), and only the first quarter of
//!   them compete for the proof of a win at any time, while all count for its disproof.
//!
//! [`check_solver`] checks a solver's claim on a small board without trusting the solver: the
//! winner's moves are the solver's, the loser's are every reply, and every line must end in the
//! winner's connection by the board's own rules.
//!
//! Limits (nodes, time) make the solver answer [`Verdict::Unknown`] instead of running on.
//! [`SolverConfig::threads`] runs [`Solver::solve`] on several threads over one shared table
//! (each thread runs the whole search; a thread counts the children the others are in as
//! worse than they are, so the threads spread out, and the first to finish answers);
//! [`Solver::opening_map_threads`] solves a whole opening map on several threads, one opening
//! each.
//!
//! Several threads usually shorten a solve's wall time, but not by a fixed amount: parallel
//! runs vary from one run to the next, so time them over a few runs.
//!
//! Side by side with Benzene's DFPN, one thread each, the solver is faster on 7x7, on the
//! empty 8x8 board and on most 8x8 openings (27 of the 30 of its map both solved in one
//! run), and slower on a few. What Benzene has and this
//! solver lacks: pattern-based inferior cells (reversible moves, dominated cells found by
//! patterns, many more captured patterns), decompositions of the mover's own connections, and
//! its connection patterns away from the edges.
//!
//! Measured solve times beside Benzene's, and what each ingredient above bought, with the
//! commands that reproduce them: `docs/measurements.md` in the repository.
//!
//! # Examples
//!
//! ```
//! use hex::solver::{Solver, SolverConfig, Verdict};
//! use hex::{Cell, Color, Position};
//!
//! let mut solver = Solver::new(SolverConfig::default());
//! let solution = solver.solve(&Position::new(3).unwrap()).unwrap();
//! assert_eq!(solution.verdict.winner(), Some(Color::Black));
//! // The centre wins on 3x3.
//! let moves = solver.winning_moves(&Position::new(3).unwrap()).unwrap();
//! assert!(moves.contains(&hex::HexMove::Place(Cell::new(1, 1))));
//! ```

#[cfg(test)]
mod brute;
mod carrier;
mod check;
mod connections;
mod geometry;
mod hsearch;
mod openings;
mod search;
mod table;
mod vc;

use std::time::{Duration, Instant};

use thiserror::Error;

pub use check::{CheckedProof, StrategyError, check_solver, check_strategy};
pub use connections::{ConnectionError, Connections, Endpoint, Semi};
pub use geometry::MAX_SOLVER_SIZE;
pub use openings::{Opening, OpeningMap};

use crate::board::{BadSize, Cell, Color, HexMove, Position};
use geometry::Geometry;
use hsearch::HSearch;
use search::{Insight, Keys, Limits, Outcome, Search, Shared, State};
use table::Table;

/// How the solver runs.
///
/// ```
/// use hex::solver::SolverConfig;
///
/// let config = SolverConfig { max_nodes: Some(10_000), ..SolverConfig::default() };
/// assert_eq!(config.table_bits, SolverConfig::default().table_bits);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// The transposition table has `2^table_bits` entries of 80 bytes (20: 80 MiB).
    pub table_bits: u32,
    /// Stop with [`Verdict::Unknown`] after this many nodes per call.
    pub max_nodes: Option<u64>,
    /// Stop with [`Verdict::Unknown`] after this much time per call.
    pub time_limit: Option<Duration>,
    /// Look for the opponent's semi-connections (cells where its stone would give it a virtual
    /// win) before trying moves. Slower nodes, far fewer of them.
    pub semi_connections: bool,
    /// Build the opponent's virtual and semi-connections by H-search (AND and OR rules over
    /// groups and empty cells) at every new position: losses found without search, and the
    /// must-play region from all the opponent's semi-connections between its edges. Much
    /// slower nodes, far fewer of them; replaces `semi_connections` when on.
    pub h_search: bool,
    /// Threads of [`Solver::solve`], on one shared table (1: no extra threads). The other
    /// calls search on one thread.
    pub threads: usize,
    /// At each new position, look for captured regions of three to five empty cells (a side
    /// answers every intrusion inside and keeps everything around them joined; see
    /// `Geometry::fill_regions`) and analyse the position with them filled. On the 9x9
    /// position `9x9-s385-g12` of the positions file that took the search from 14,435 nodes
    /// to 122 (1.9 CPU s to 0.03); over the file's 16 positions of 7x7 to 9x9 the time was
    /// about the same (0.99), the scan costing 1-2 % of a 9x9 node.
    pub captured_regions: bool,
}

impl Default for SolverConfig {
    /// A table of 2^20 entries, no limits, semi-connections, H-search and captured regions
    /// on, one thread.
    fn default() -> Self {
        SolverConfig {
            table_bits: 20,
            max_nodes: None,
            time_limit: None,
            semi_connections: true,
            h_search: true,
            threads: 1,
            captured_regions: true,
        }
    }
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`SolverConfig::max_nodes`].
    Nodes,
    /// [`SolverConfig::time_limit`].
    Time,
}

impl std::fmt::Display for Limit {
    /// `node limit` or `time limit`.
    ///
    /// ```
    /// assert_eq!(hex::solver::Limit::Nodes.to_string(), "node limit");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "node limit",
            Limit::Time => "time limit",
        })
    }
}

/// The answer about one position.
///
/// ```
/// use hex::solver::{Limit, Verdict};
/// use hex::Color;
///
/// assert_eq!(Verdict::Win { winner: Color::White, winning_move: None }.winner(), Some(Color::White));
/// assert_eq!(Verdict::Unknown(Limit::Time).winner(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// `winner` wins with perfect play; when it is the side to move, `winning_move` is one of
    /// its winning moves.
    Win {
        /// The side that wins.
        winner: Color,
        /// A winning move when the winner is to move, `None` otherwise.
        winning_move: Option<Cell>,
    },
    /// A limit stopped the search before it knew.
    Unknown(Limit),
}

impl Verdict {
    /// The winner, if known.
    ///
    /// ```
    /// use hex::solver::{Limit, Verdict};
    /// assert_eq!(Verdict::Unknown(Limit::Nodes).winner(), None);
    /// ```
    pub fn winner(&self) -> Option<Color> {
        match self {
            Verdict::Win { winner, .. } => Some(*winner),
            Verdict::Unknown(_) => None,
        }
    }
}

/// What a search cost.
///
/// ```
/// use hex::solver::SolverStats;
/// let mut total = SolverStats::default();
/// total += SolverStats { nodes: 3, table_hits: 1, ..SolverStats::default() };
/// total += SolverStats { nodes: 2, builds: 1, ..SolverStats::default() };
/// assert_eq!((total.nodes, total.builds), (5, 1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Positions searched (table hits included).
    pub nodes: u64,
    /// Positions answered by the transposition table.
    pub table_hits: u64,
    /// Builds of the opponent's connections by H-search (one per new position searched).
    pub builds: u64,
    /// Of those, the builds that started from a saved build of an ancestor's position.
    pub incremental_builds: u64,
    /// Decompositions found: carriers of the opponent's connections, in a part of the board
    /// two of its groups close off, filled with its stones (Benzene's combinatorial
    /// decompositions).
    pub decompositions: u64,
    /// Nodes whose analysis found captured regions (sets of empty cells a side holds by
    /// answering inside them) and went on with them filled.
    pub regions: u64,
    /// Wall-clock time.
    pub time: Duration,
}

impl std::ops::AddAssign for SolverStats {
    /// Adds the counts and times.
    fn add_assign(&mut self, rhs: SolverStats) {
        self.nodes += rhs.nodes;
        self.table_hits += rhs.table_hits;
        self.builds += rhs.builds;
        self.incremental_builds += rhs.incremental_builds;
        self.decompositions += rhs.decompositions;
        self.regions += rhs.regions;
        self.time += rhs.time;
    }
}

/// The result of [`Solver::solve`].
///
/// ```
/// use hex::solver::{Solver, SolverConfig};
/// use hex::{Color, Position};
///
/// let s = Solver::new(SolverConfig::default()).solve(&Position::new(2).unwrap()).unwrap();
/// assert_eq!(s.verdict.winner(), Some(Color::Black));
/// assert!(s.stats.nodes >= 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Who wins, or that a limit was hit.
    pub verdict: Verdict,
    /// What it cost.
    pub stats: SolverStats,
}

/// What [`Solver::analyse`] knows of a position without a search.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Analysis {
    /// The side to move wins: a threat or a virtual connection proves it.
    Win {
        /// A winning move, when one cell is known to win (a cell of the winning connection's
        /// carrier, or one that connects at once); `None` when dead and captured cells alone
        /// complete the connection, so that any move keeps the win.
        winning_move: Option<Cell>,
    },
    /// The side to move loses: the opponent has two winning cells or a virtual connection.
    Loss {
        /// The empty cells the opponent's connection needs (empty when dead and captured cells
        /// alone complete it): the moves that resist longest are among them.
        carrier: Vec<Cell>,
    },
    /// Not known without a search.
    Open {
        /// The cells worth playing, in cell order: inside every threat of the opponent, and not
        /// dead, captured, vulnerable or dominated. Never empty when the position has an empty
        /// cell.
        moves: Vec<Cell>,
        /// The empty cells the fill-in gave a colour (dead cells, and cells captured by their
        /// owner), in cell order: the position with these stones added has the same winner
        /// whoever is to move, and `moves` are empty there.
        filled: Vec<(Cell, Color)>,
    },
}

/// Positions the solver does not take, and searches that hit a limit where no partial answer
/// makes sense.
///
/// ```
/// use hex::solver::{SolveError, Solver, SolverConfig};
/// use hex::Position;
///
/// let big = Position::new(12).unwrap();
/// assert_eq!(Solver::new(SolverConfig::default()).solve(&big), Err(SolveError::TooLarge(12)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SolveError {
    /// Somebody has connected already.
    #[error("the game is over: {0} has connected")]
    GameOver(Color),
    /// The board is larger than [`MAX_SOLVER_SIZE`].
    #[error("the solver takes boards up to {MAX_SOLVER_SIZE}x{MAX_SOLVER_SIZE}, not {0}x{0}")]
    TooLarge(u8),
    /// The side to move may swap: the solver knows only stone placements.
    #[error("the swap is available: the solver does not play the swap rule")]
    SwapAvailable,
    /// Not a board size at all.
    #[error(transparent)]
    BadSize(#[from] BadSize),
    /// A limit stopped a search whose partial answer would be wrong.
    #[error("unknown: the {0} was reached")]
    Unknown(Limit),
}

/// The exact solver; it keeps its transposition table between calls.
///
/// ```
/// use hex::solver::{Solver, SolverConfig};
///
/// let mut solver = Solver::new(SolverConfig { table_bits: 12, ..SolverConfig::default() });
/// let map = solver.opening_map(3).unwrap();
/// assert_eq!(map.winning_cells().len(), 5);
/// ```
#[derive(Debug)]
pub struct Solver {
    config: SolverConfig,
    table: Table,
    keys: Keys,
    geometry: Option<Geometry>,
    /// One H-search workspace per thread.
    hsearch: Vec<HSearch>,
}

impl Solver {
    /// A solver with an empty table.
    ///
    /// ```
    /// let solver = hex::solver::Solver::new(hex::solver::SolverConfig::default());
    /// assert_eq!(solver.config().table_bits, 20);
    /// ```
    pub fn new(config: SolverConfig) -> Solver {
        Solver {
            config,
            table: Table::new(config.table_bits),
            keys: Keys::new(),
            geometry: None,
            hsearch: (0..config.threads.max(1)).map(|_| HSearch::new()).collect(),
        }
    }

    /// The settings.
    ///
    /// ```
    /// let solver = hex::solver::Solver::new(hex::solver::SolverConfig::default());
    /// assert!(solver.config().max_nodes.is_none());
    /// ```
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// Changes the time limit of later calls, keeping the table (a player that gives the solver
    /// a share of each move's time does this before every call).
    ///
    /// ```
    /// use std::time::Duration;
    /// use hex::solver::{Solver, SolverConfig};
    ///
    /// let mut solver = Solver::new(SolverConfig::default());
    /// solver.set_time_limit(Some(Duration::from_millis(300)));
    /// assert_eq!(solver.config().time_limit, Some(Duration::from_millis(300)));
    /// ```
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.config.time_limit = limit;
    }

    /// Forgets every position the table keeps.
    ///
    /// ```
    /// let mut solver = hex::solver::Solver::new(hex::solver::SolverConfig::default());
    /// solver.clear_table();
    /// ```
    pub fn clear_table(&mut self) {
        self.table.clear();
    }

    /// Who wins `position` with perfect play, and a winning move if it is the side to move.
    ///
    /// ```
    /// use hex::solver::{Solver, SolverConfig, Verdict};
    /// use hex::{Cell, Color, HexMove, Position};
    ///
    /// // 2x2 after Black a1: White must block at a2, which then has two ways to the right.
    /// let pos = Position::new(2).unwrap().play(HexMove::Place(Cell::new(0, 0))).unwrap();
    /// let s = Solver::new(SolverConfig::default()).solve(&pos).unwrap();
    /// assert_eq!(s.verdict, Verdict::Win { winner: Color::White, winning_move: Some(Cell::new(1, 0)) });
    /// ```
    pub fn solve(&mut self, position: &Position) -> Result<Solution, SolveError> {
        let started = Instant::now();
        let state = self.prepare(position)?;
        let (outcome, stats) = if self.config.threads > 1 {
            self.solve_threads(&state, started)
        } else {
            let mut search = self.search(started);
            let outcome = search.search(&state);
            (outcome, search.stats)
        };
        let stats = SolverStats { time: started.elapsed(), ..stats };
        let geo = self.geometry.as_ref().expect("prepare builds the geometry");
        let me = position.to_move();
        let verdict = match outcome {
            Outcome::Win { best, .. } => Verdict::Win { winner: me, winning_move: Some(geo.cell(best)) },
            Outcome::Loss { .. } => Verdict::Win { winner: me.opponent(), winning_move: None },
            Outcome::Unknown(limit) => Verdict::Unknown(limit),
        };
        Ok(Solution { verdict, stats })
    }

    /// [`Solver::solve`]'s search on `config.threads` threads sharing the table: the first
    /// thread to finish stops the others, and its answer is the answer. The counts are the
    /// sums over the threads.
    fn solve_threads(&mut self, state: &State, started: Instant) -> (Outcome, SolverStats) {
        let limits = self.limits(started);
        let shared = Shared::new(16);
        let geo = self.geometry.as_ref().expect("prepare builds the geometry");
        let (table, keys, semis) = (&self.table, &self.keys, self.config.semi_connections);
        let (h_search, regions) = (self.config.h_search, self.config.captured_regions);
        let results: Vec<(Outcome, SolverStats)> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .hsearch
                .iter_mut()
                .map(|hsearch| {
                    let shared = &shared;
                    scope.spawn(move || {
                        let mut search = Search {
                            geo,
                            table,
                            keys,
                            limits,
                            semis,
                            hsearch: h_search.then_some(hsearch),
                            stats: SolverStats::default(),
                            aborted: None,
                            shared: Some(shared),
                            depth: 0,
                            regions,
                        };
                        let outcome = search.search(state);
                        shared.stop.store(true, std::sync::atomic::Ordering::Relaxed);
                        (outcome, search.stats)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a solver thread panicked")).collect()
        });
        let mut stats = SolverStats::default();
        for (_, s) in &results {
            stats += *s;
        }
        // A solved answer from any thread; the threads stopped by another report a limit.
        let outcome = results
            .iter()
            .map(|(o, _)| *o)
            .find(|o| !matches!(o, Outcome::Unknown(_)))
            .unwrap_or_else(|| limit_reached(limits, shared.nodes.into_inner()));
        (outcome, stats)
    }

    /// The empty cells of `position` that the cheapest rules of [`Solver::analyse`] drop,
    /// without H-search, in microseconds: the cells the fill-in fills (dead, or captured by
    /// either side), and then the mover's vulnerable cells (a reply next to one kills it),
    /// while another cell remains. Some cell the position keeps is at least as good as each
    /// of them, so a search may leave them out (the MCTS player does at every node it grows,
    /// with [`crate::mcts::MctsConfig::inferior_on_expand`]). In cell order (row by row).
    ///
    /// ```
    /// use hex::solver::{Solver, SolverConfig};
    /// use hex::{Cell, play_moves};
    ///
    /// let mut solver = Solver::new(SolverConfig::default());
    /// // Black's b2 on 4x4 and the empty b1 and c1 above it: the bridge to Black's top edge
    /// // is captured, and the fill-in gives Black both of its cells.
    /// let (pos, _) = play_moves(4, ["b2", "d4"]).unwrap();
    /// let inferior = solver.inferior_cells(&pos).unwrap();
    /// assert!(inferior.contains(&Cell::new(0, 1)) && inferior.contains(&Cell::new(0, 2)));
    /// assert!(!inferior.contains(&Cell::new(2, 2)));
    /// ```
    pub fn inferior_cells(&mut self, position: &Position) -> Result<Vec<Cell>, SolveError> {
        self.cheap_inferior(position, false)
    }

    /// [`Solver::inferior_cells`] and then the mover's dominated cells among those left: a cell
    /// `x` that the mover's own stone on another kept cell `y` would fill in (dead or captured
    /// for the mover), so that `x` never wins where `y` loses. MoHex prunes such cells by
    /// pattern at every node it expands; this finds them with one fill-in of the position per
    /// kept cell, so it costs several times what [`Solver::inferior_cells`] costs.
    /// Every dropped cell has a kept one at the end of its chain of dominators, so a winning
    /// move stays whenever there is one. In cell order.
    ///
    /// ```
    /// use hex::solver::{Solver, SolverConfig};
    /// use hex::play_moves;
    ///
    /// let mut solver = Solver::new(SolverConfig::default());
    /// let (pos, _) = play_moves(7, ["d4", "c5", "e2", "b6", "f2"]).unwrap();
    /// let inferior = solver.inferior_cells(&pos).unwrap();
    /// let with_dominated = solver.inferior_and_dominated_cells(&pos).unwrap();
    /// assert!(inferior.iter().all(|cell| with_dominated.contains(cell)));
    /// assert!(with_dominated.len() < pos.board().empty_cells().count());
    /// ```
    ///
    /// # Errors
    /// As [`Solver::inferior_cells`].
    pub fn inferior_and_dominated_cells(&mut self, position: &Position) -> Result<Vec<Cell>, SolveError> {
        self.cheap_inferior(position, true)
    }

    /// The cells [`Solver::inferior_cells`] drops, and with `dominated` the dominated cells of
    /// the rest too.
    fn cheap_inferior(&mut self, position: &Position, dominated: bool) -> Result<Vec<Cell>, SolveError> {
        let state = self.prepare(position)?;
        let geo = self.geometry.as_ref().expect("prepare builds the geometry");
        let empty = geo.cells & !state.stones[0] & !state.stones[1];
        let filled = geo.fill_in(state.stones);
        let open = geo.cells & !filled[0] & !filled[1];
        if open == 0 {
            return Ok(Vec::new());
        }
        let opponent = usize::from(state.to_move.opponent().index());
        let (vulnerable, _) = geo.vulnerable(opponent, filled, open);
        let mut kept = if open & !vulnerable != 0 { open & !vulnerable } else { open };
        if dominated {
            // As the solver's own move generation does: domination judged on the filled
            // position, among the cells the rules above kept.
            kept = geo.undominated(usize::from(state.to_move.index()), filled, kept).0;
        }
        Ok(geometry::bits(empty & !kept).map(|b| geo.cell(b)).collect())
    }

    /// What the solver knows of `position` without a search, in a few milliseconds at most: a
    /// win or a loss that threats and virtual connections prove, otherwise the cells worth
    /// playing. Dead and captured cells are filled in first; then the opponent's winning cells
    /// and semi-connections narrow the moves to the must-play region, less dead, vulnerable and
    /// dominated cells. The limits of the configuration do not apply (there is no search).
    ///
    /// A player can search only these cells (the MCTS player does, at its root and at nodes it
    /// visits often).
    ///
    /// ```
    /// use hex::solver::{Analysis, Solver, SolverConfig};
    /// use hex::play_moves;
    ///
    /// let mut solver = Solver::new(SolverConfig::default());
    /// // Black's centre stone on 3x3 touches two empty cells of each of its edges: a virtual win.
    /// let (pos, _) = play_moves(3, ["b2", "a1"]).unwrap();
    /// assert!(matches!(solver.analyse(&pos).unwrap(), Analysis::Win { .. }));
    /// // Black's centre stone on 5x5 is a virtual win too: White to move loses, and its
    /// // longest resistance is inside the connection's carrier.
    /// let (pos, _) = play_moves(5, ["c3"]).unwrap();
    /// assert!(matches!(solver.analyse(&pos).unwrap(), Analysis::Loss { .. }));
    /// // White to move after a1 on 9x9: not known, but not every cell is worth a search.
    /// let (pos, _) = play_moves(9, ["a1"]).unwrap();
    /// match solver.analyse(&pos).unwrap() {
    ///     Analysis::Open { moves, .. } => assert!(!moves.is_empty() && moves.len() < 80),
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    pub fn analyse(&mut self, position: &Position) -> Result<Analysis, SolveError> {
        let state = self.prepare(position)?;
        let mut search = self.search(Instant::now());
        let insight = search.insight(&state);
        let geo = self.geometry.as_ref().expect("prepare builds the geometry");
        let cells = |set: u128| geometry::bits(set).map(|b| geo.cell(b)).collect::<Vec<Cell>>();
        Ok(match insight {
            Insight::Win(best) => Analysis::Win { winning_move: best.map(|b| geo.cell(b)) },
            Insight::Loss(carrier) => Analysis::Loss { carrier: cells(carrier) },
            Insight::Open(moves, stones) => {
                let mut filled: Vec<(Cell, Color)> = [Color::Black, Color::White]
                    .into_iter()
                    .flat_map(|colour| {
                        let added =
                            stones[usize::from(colour.index())] & !state.stones[usize::from(colour.index())];
                        cells(added).into_iter().map(move |cell| (cell, colour))
                    })
                    .collect();
                filled.sort();
                Analysis::Open { moves: cells(moves), filled }
            }
        })
    }

    /// Every winning move of the side to move, in cell order (row by row); empty if it loses.
    /// The limits apply to the whole call.
    ///
    /// ```
    /// use hex::solver::{Solver, SolverConfig};
    /// use hex::{Cell, HexMove, Position};
    ///
    /// let moves = Solver::new(SolverConfig::default()).winning_moves(&Position::new(2).unwrap()).unwrap();
    /// assert_eq!(moves, vec![HexMove::Place(Cell::new(0, 1)), HexMove::Place(Cell::new(1, 0))]);
    /// ```
    pub fn winning_moves(&mut self, position: &Position) -> Result<Vec<HexMove>, SolveError> {
        let started = Instant::now();
        let state = self.prepare(position)?;
        let mut search = self.search(started);
        let me = usize::from(state.to_move.index());
        let empty = search.geo.cells & !state.stones[0] & !state.stones[1];
        // A move outside the proof set of a losing move loses too: no need to search it.
        let mut candidates = empty;
        let mut winners = Vec::new();
        for m in search.order(state.to_move, state.stones[me], state.stones[1 - me], empty) {
            if candidates >> m & 1 == 0 {
                continue;
            }
            let child = state.play(m, search.keys, search.geo);
            if search.geo.connects(state.to_move, child.stones[me]) {
                winners.push(m);
                continue;
            }
            match search.search(&child) {
                Outcome::Loss { .. } => winners.push(m),
                Outcome::Win { proof, .. } => {
                    candidates &= proof | child.filled_for(state.to_move.opponent()) | !empty;
                }
                Outcome::Unknown(limit) => return Err(SolveError::Unknown(limit)),
            }
        }
        let geo = search.geo;
        let mut cells: Vec<Cell> = winners.into_iter().map(|m| geo.cell(m)).collect();
        cells.sort();
        Ok(cells.into_iter().map(HexMove::Place).collect())
    }

    /// Solves every opening of the empty n×n board: for each cell, whether Black's first stone
    /// there wins (White to move, no swap). The limits apply to each opening separately.
    ///
    /// ```
    /// use hex::solver::{Solver, SolverConfig};
    /// use hex::Cell;
    ///
    /// let map = Solver::new(SolverConfig::default()).opening_map(2).unwrap();
    /// assert_eq!(map.winning_cells(), vec![Cell::new(0, 1), Cell::new(1, 0)]);
    /// ```
    pub fn opening_map(&mut self, size: u32) -> Result<OpeningMap, SolveError> {
        self.opening_map_with(size, |_| {})
    }

    /// [`Solver::opening_map`], calling `progress` with each opening as soon as it is solved.
    ///
    /// ```
    /// use hex::solver::{Solver, SolverConfig};
    ///
    /// let mut solved = 0;
    /// Solver::new(SolverConfig::default()).opening_map_with(3, |_| solved += 1).unwrap();
    /// assert_eq!(solved, 9);
    /// ```
    pub fn opening_map_with(
        &mut self,
        size: u32,
        mut progress: impl FnMut(&Opening),
    ) -> Result<OpeningMap, SolveError> {
        let empty = Position::new(size)?;
        let mut openings = Vec::new();
        for cell in empty.board().cells() {
            let position = empty.play(HexMove::Place(cell)).expect("an empty cell of a fresh board");
            let solution = if let Some(winner) = position.winner() {
                Solution {
                    verdict: Verdict::Win { winner, winning_move: None },
                    stats: SolverStats::default(),
                }
            } else {
                self.solve(&position)?
            };
            let opening = Opening { cell, verdict: solution.verdict, stats: solution.stats };
            progress(&opening);
            openings.push(opening);
        }
        Ok(OpeningMap::new(size as u8, openings))
    }

    /// [`Solver::opening_map_with`] on `threads` threads, each with its own solver built from
    /// `config` (so each has its own table: mind the memory). An opening and its 180° rotation
    /// are the same game, so only one of each pair is searched and the other is copied, with
    /// no nodes of its own. `progress` sees each opening as it is solved, in no fixed order.
    ///
    /// ```
    /// use hex::solver::{Solver, SolverConfig};
    ///
    /// let config = SolverConfig { table_bits: 12, ..SolverConfig::default() };
    /// let map = Solver::opening_map_threads(config, 4, 2, |_| {}).unwrap();
    /// let one_thread = Solver::new(config).opening_map(4).unwrap();
    /// assert_eq!(map.winning_cells(), one_thread.winning_cells());
    /// ```
    pub fn opening_map_threads(
        config: SolverConfig,
        size: u32,
        threads: usize,
        progress: impl Fn(&Opening) + Sync,
    ) -> Result<OpeningMap, SolveError> {
        let empty = Position::new(size)?;
        let n = size as u8;
        let rotate = |c: Cell| Cell::new(n - 1 - c.row, n - 1 - c.col);
        let cells: Vec<Cell> = empty.board().cells().collect();
        // One of each rotation pair, the one that comes first row by row.
        let canonical: Vec<Cell> = cells.iter().copied().filter(|&c| c <= rotate(c)).collect();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results = std::sync::Mutex::new(Vec::new());
        let failure = std::sync::Mutex::new(None);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let mut solver = Solver::new(config);
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&cell) = canonical.get(i) else { break };
                        if failure.lock().expect("no panics while held").is_some() {
                            break;
                        }
                        let position =
                            empty.play(HexMove::Place(cell)).expect("an empty cell of a fresh board");
                        let solution = match position.winner() {
                            Some(winner) => Ok(Solution {
                                verdict: Verdict::Win { winner, winning_move: None },
                                stats: SolverStats::default(),
                            }),
                            None => solver.solve(&position),
                        };
                        match solution {
                            Ok(s) => {
                                let opening = Opening { cell, verdict: s.verdict, stats: s.stats };
                                progress(&opening);
                                results.lock().expect("no panics while held").push(opening);
                            }
                            Err(e) => {
                                failure.lock().expect("no panics while held").get_or_insert(e);
                            }
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().expect("threads are done") {
            return Err(e);
        }
        let solved = results.into_inner().expect("threads are done");
        let mut openings = Vec::with_capacity(cells.len());
        for cell in cells {
            let twin = rotate(cell);
            if let Some(o) = solved.iter().find(|o| o.cell == cell) {
                openings.push(*o);
            } else {
                let o = solved.iter().find(|o| o.cell == twin).expect("every pair has a solved opening");
                let verdict = match o.verdict {
                    Verdict::Win { winner, winning_move } => {
                        Verdict::Win { winner, winning_move: winning_move.map(rotate) }
                    }
                    unknown => unknown,
                };
                let opening = Opening { cell, verdict, stats: SolverStats::default() };
                progress(&opening);
                openings.push(opening);
            }
        }
        Ok(OpeningMap::new(n, openings))
    }

    /// Checks `position` and turns it into the search's state, rebuilding the geometry for a
    /// new board size.
    fn prepare(&mut self, position: &Position) -> Result<State, SolveError> {
        if let Some(winner) = position.winner() {
            return Err(SolveError::GameOver(winner));
        }
        let stones = self.stones(position)?;
        if position.can_swap() {
            return Err(SolveError::SwapAvailable);
        }
        let geo = self.geometry.as_ref().expect("stones builds the geometry");
        Ok(self.keys.state(geo, stones, position.to_move()))
    }

    /// The stones of `position` in the solver's layout (Black's, then White's), rebuilding
    /// the geometry for a new board size.
    fn stones(&mut self, position: &Position) -> Result<[u128; 2], SolveError> {
        let size = position.size();
        if size > MAX_SOLVER_SIZE {
            return Err(SolveError::TooLarge(size));
        }
        if self.geometry.as_ref().is_none_or(|g| g.size != size) {
            self.geometry = Some(Geometry::new(size));
        }
        let geo = self.geometry.as_ref().expect("just built");
        let mut stones = [0u128; 2];
        for cell in position.board().cells() {
            if let Some(color) = position.board().get(cell) {
                stones[usize::from(color.index())] |= geo.bit(cell);
            }
        }
        Ok(stones)
    }

    /// This call's limits, counted from `started`.
    fn limits(&self, started: Instant) -> Limits {
        Limits { max_nodes: self.config.max_nodes, deadline: self.config.time_limit.map(|t| started + t) }
    }

    /// A one-thread search run with this call's limits.
    fn search(&mut self, started: Instant) -> Search<'_> {
        Search {
            geo: self.geometry.as_ref().expect("prepare builds the geometry"),
            table: &self.table,
            keys: &self.keys,
            limits: self.limits(started),
            semis: self.config.semi_connections,
            hsearch: if self.config.h_search { self.hsearch.first_mut() } else { None },
            stats: SolverStats::default(),
            aborted: None,
            shared: None,
            depth: 0,
            regions: self.config.captured_regions,
        }
    }
}

/// The limit that stopped threads none of which solved the position.
fn limit_reached(limits: Limits, nodes: u64) -> Outcome {
    if limits.max_nodes.is_some_and(|max| nodes >= max) {
        Outcome::Unknown(Limit::Nodes)
    } else {
        Outcome::Unknown(Limit::Time)
    }
}
