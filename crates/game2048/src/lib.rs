//! 2048 on a `u64` bitboard: the rules, the seed document's heuristics and agents, and a strong
//! expectimax player, all searching with `search-core`.
//!
//! # Example
//!
//! ```
//! use game2048::{Board, Direction};
//!
//! let board: Board = "2 2 0 0/0 4 0 4/0 0 0 0/0 0 0 0".parse()?;
//! let slide = board.play(Direction::Left).expect("left changes the board");
//! assert_eq!(slide.board.to_string(), "4 0 0 0/8 0 0 0/0 0 0 0/0 0 0 0");
//! assert_eq!(slide.score, 12);
//! # Ok::<(), game2048::ParseBoardError>(())
//! ```
//!
//! # The rules
//!
//! - Each move slides every tile as far as it goes; two equal tiles merge into one of double the
//!   value, the pair nearest the wall first, and a merged tile does not merge again in the same move.
//! - A direction that changes nothing is not a move, and nothing spawns after it.
//! - After a move a tile spawns on a uniformly chosen empty cell: a 2, or a 4 with probability
//!   [`Rules::four_probability`] (0.1). A game starts with two spawned tiles.
//! - The score is the sum of the values of merged tiles. The game ends when no move is left, or,
//!   with [`Rules::stop_at`], when a tile of that value appears.
//! - Two 32768 tiles never merge: 65536 does not fit in a cell. The direction is refused with
//!   [`TileOverflow`] and a game left with no other move ends as [`play::Outcome::Overflow`].

pub mod agents;
mod board;
mod evaluation;
pub mod heuristics;
mod notation;
pub mod play;
mod rules;

pub use board::{Board, Direction, MAX_RANK, Slide, SpawnError, TileOverflow, slide_line};
pub use evaluation::{Evaluation, Heuristic};
pub use notation::{ParseBoardError, ParseDirectionError};
pub use rules::{Action, Game2048, Position, Rules, Spawns, Turn};
