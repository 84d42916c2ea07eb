//! Hex on bitboards: rules, shortest-path heuristics, the seed players and a GTP engine.
//!
//! Conventions (Benzene, HexGui, OpenSpiel): cell `c2` is column c, row 2, row 1 on top; Black
//! moves first and connects top to bottom; White connects left to right. Boards from 1x1 to
//! 19x19; the swap rule is an option.
//!
//! # Example
//!
//! ```
//! use hex::{Cell, Color, HexMove, Position};
//!
//! let mut pos = Position::new(3).unwrap();
//! // Black plays down the middle column; White plays elsewhere.
//! for (r, c) in [(0, 1), (0, 0), (1, 1), (1, 0), (2, 1)] {
//!     pos = pos.play(HexMove::Place(Cell::new(r, c))).unwrap();
//! }
//! assert_eq!(pos.winner(), Some(Color::Black));
//! ```
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`Board`], [`Position`] | stones on two bitboards; flood-fill win detection; the swap rule |
//! | [`Connectivity`] | incremental union-find with virtual edge nodes (a cross-check) |
//! | [`distances`] | BFS, uniform-cost and 0-1 BFS shortest paths, and Queenbee's two-distance |
//! | [`heuristics`] | the seeds' evaluations for `search-core`, wins above every heuristic value |
//! | [`players`] | the three seed players (madeup, coolcow, opening-and-bridges) |
//! | [`bridge_chain`] | a quick proof that a side has won: edge to edge by bridges with disjoint carriers |
//! | [`solver`] | an exact solver: proof-set DFS, must-play pruning, virtual connections |
//! | [`strong`] | the strong player: selective iterative-deepening alpha-beta on two-distance |
//! | [`mcts`] | the MCTS player: UCT with RAVE and bridge-aware random playouts |
//! | [`patterns`] | local patterns learned from self-play: move priors for the MCTS player |
//! | [`net`] | a small convolutional move policy, trained on the search's own moves |
//! | [`gtp`] | the GTP engine behind the `hex-gtp` binary (HexGui/Benzene dialect) |
//! | [`showboard`], [`parse_cell`], … | notation: cells `a1`, `swap-pieces`, Benzene's board |

#![forbid(unsafe_code)]

mod bits;
mod board;
pub mod bridge_chain;
pub mod distances;
pub mod gtp;
pub mod heuristics;
pub mod mcts;
pub mod net;
mod notation;
pub mod patterns;
mod player;
pub mod players;
mod rules;
pub mod solver;
pub mod strong;
mod union_find;

pub use board::{BadSize, Board, Cell, Color, HexMove, IllegalMove, MAX_SIZE, Position};
pub use notation::{
    MoveListError, NotationError, move_name, parse_cell, parse_move, parse_position, play_moves,
    position_to_text, showboard,
};
pub use player::{HexPlayer, RandomPlayer};
pub use rules::{HexGame, centre};
/// The one agent trait of the workspace, which every Hex player implements for [`HexGame`].
pub use search_core::agent::Agent;
pub use union_find::Connectivity;

/// The crate's README, compiled and run as a doctest so its example stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
