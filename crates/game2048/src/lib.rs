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

//!
//! # Searching
//!
//! [`Game2048`] is the game as `search-core` sees it: a [`Position`] is a board and whose turn it
//! is, the player slides, and spawns are chance nodes ([`Spawns::Chance`]) or an adversary's
//! choice ([`Spawns::Adversary`], the seed document's minimax model). [`Evaluation`] turns any
//! [`Heuristic`] into an evaluator, scoring a lost position below every board.
//!
//! | agent | what it is |
//! |---|---|
//! | [`agents::RandomAgent`] | a uniformly random legal move |
//! | [`agents::Greedy`] | one ply: the best board after the move, before the spawn |
//! | [`agents::SeedMinimax`] | the seed's alpha-beta against an adversary that places 2s and 4s |
//! | [`agents::SeedExpectimax`] | the seed's expectimax with 0.9/n and 0.1/n chance nodes |
//! | [`agents::Strong`] | nneonneo's expectimax: probability cut-off, chance table, adaptive depth, parallel root |
//!
//! The seed agents run as the original program did ([`agents::SeedConfig::original`]: depth
//! counted in plies, partial pruning on, a lost board valued by the heuristic with no loss
//! penalty), which is what its published results measured ([`agents::SeedConfig::earlier`] for
//! its depth-6 minimax row, from an earlier version of its code), or as its document describes
//! them ([`agents::SeedConfig::described`]: depth in player moves, no pruning, a lost board below
//! every other).
//!
//! [`heuristics`] holds every heuristic the seed document tried and [`heuristics::LineTable`],
//! the strong per-line heuristic. [`play::play_game`] plays a seeded game and returns its record.
//!
//! ```
//! use game2048::agents::{Agent, SeedConfig, SeedExpectimax};
//! use game2048::heuristics::MaxSqCoefSum;
//! use game2048::play::play_game;
//! use game2048::Rules;
//!
//! let mut agent = SeedExpectimax::new(SeedConfig::original(3), MaxSqCoefSum);
//! let game = play_game(&mut agent, &Rules::seed(), 7, Some(50), |_| {});
//! assert_eq!(game.moves, 50);
//! assert!(game.score > 0);
//! ```
//!
//! # Command line
//!
//! The `g2048` binary plays games (`g2048 play --agent strong --seed 1`), advises on a board
//! (`g2048 best-move --board "2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2"`) and applies a move
//! (`g2048 apply --board "…" --move left`); `g2048 help` lists every option.
//!
//! # Feature flags
//!
//! - `cli` (default): the `g2048` command line, and with it the `clap` dependency. The library
//!   itself does not need it: `game2048 = { …, default-features = false }`.

#![forbid(unsafe_code)]

pub mod agents;
mod board;
mod evaluation;
pub mod heuristics;
mod notation;
pub mod ntuple;
pub mod play;
mod rules;

pub use board::{Board, Direction, MAX_RANK, Slide, SpawnError, TileOverflow, slide_line};
pub use evaluation::{Evaluation, Heuristic};
pub use notation::{ParseBoardError, ParseDirectionError};
pub use rules::{Action, Game2048, Position, Rules, Spawns, Turn};

/// The crate's README, compiled and run as a doctest so its example stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
