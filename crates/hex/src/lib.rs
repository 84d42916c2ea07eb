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

mod bits;
mod board;
mod player;
mod rules;

pub use board::{BadSize, Board, Cell, Color, HexMove, IllegalMove, MAX_SIZE, Position};
pub use player::{HexPlayer, RandomPlayer};
pub use rules::{HexGame, centre};
