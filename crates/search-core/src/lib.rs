//! Game-agnostic search: minimax, fail-hard alpha-beta, expectimax (with Star1 pruning, or
//! windowless with a probability cut-off and a table of chance values), and what
//! strong engines add (iterative deepening, transposition tables, move ordering, time limits,
//! parallel root search, statistics as data).
//!
//! A game implements [`Game`] (and [`GameHash`] for transposition tables); an [`Evaluator`]
//! values the states where a search stops. The same searches then work for two-player zero-sum
//! games, one-player games with chance (like 2048) and games with both.
//!
//! # Example
//!
//! Nim with one pile: each player takes 1, 2 or 3 stones, and whoever takes the last stone wins.
//! A pile that is a multiple of 4 is lost for the player to move.
//!
//! ```
//! use search_core::{alphabeta, minimax, Evaluator, Game, Horizon, MoveList, NoTable, Player, ToMove};
//!
//! struct Nim;
//!
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! struct Pile { stones: u32, to_move: Player }
//!
//! impl Game for Nim {
//!     type State = Pile;
//!     type Move = u32; // stones taken
//!
//!     fn to_move(&self, pile: &Pile) -> ToMove {
//!         if pile.stones == 0 { ToMove::Terminal } else { ToMove::Player(pile.to_move) }
//!     }
//!     fn moves(&self, pile: &Pile, moves: &mut MoveList<u32>) {
//!         moves.extend((1..=3).filter(|&take| take <= pile.stones));
//!     }
//!     fn play(&self, pile: &Pile, take: u32) -> Pile {
//!         Pile { stones: pile.stones - take, to_move: 1 - pile.to_move }
//!     }
//! }
//!
//! /// +100 for a win, -100 for a loss (a quicker win scores higher), 0 when unsure.
//! struct WinLoss;
//!
//! impl Evaluator<Nim> for WinLoss {
//!     type Value = i32;
//!     fn evaluate(&self, _: &Nim, _: &Pile, _: Player) -> i32 { 0 }
//!     fn terminal(&self, _: &Nim, pile: &Pile, player: Player, ply: u32) -> i32 {
//!         // The player to move at an empty pile is the one who did not take the last stone.
//!         let score = 100 - ply as i32;
//!         if pile.to_move == player { -score } else { score }
//!     }
//! }
//!
//! let start = Pile { stones: 10, to_move: 0 };
//! let config = alphabeta::Config::depth(10);
//! let found = alphabeta::search(&Nim, &WinLoss, &start, &config, NoTable);
//! // Taking 2 leaves 8, a multiple of 4: a win.
//! assert_eq!(found.best_move, Some(2));
//! assert!(found.value > 0);
//! // The plain oracle agrees and looks at more positions.
//! let oracle = minimax::search(&Nim, &WinLoss, &start, &Horizon::depth(10));
//! assert_eq!(oracle.value, found.value);
//! assert!(found.stats.nodes < oracle.stats.nodes);
//! ```
//!
//! # The modules
//!
//! | module | what | tested against |
//! |---|---|---|
//! | [`minimax`] | plain minimax / expectiminimax, the oracle | hand-made trees |
//! | [`alphabeta`] | fail-hard alpha-beta with principal variation search; Star1 at chance nodes; table, killers, history | [`minimax`] |
//! | [`iterative`] | iterative deepening under depth, node and time limits; stops at a decided game | [`alphabeta`] |
//! | [`parallel`] | root split, and iterative deepening with threads sharing a table, on rayon (feature `parallel`) | [`alphabeta`], [`minimax`] |
//! | [`expectimax`] | windowless expectimax: cut-off before expansion, chance tables per root move, root moves on rayon | [`minimax`]; its own serial search |
//! | [`mcts`] | Monte Carlo tree search: UCT with optional RAVE, pluggable playouts | [`minimax`] on win/loss trees |
//! | [`agent`] | the [`agent::Agent`] trait (a player: a state in, a move out) and agents made from each search | the searches |
//! | [`arena`] | games and matches between agents, seats swapped, seeded random openings, scores with intervals | hand-checked matches |
//! | [`testing`] | a conformance checker for a game's [`Game`] and [`GameHash`] (feature `testing`) | games with planted bugs |
//! | [`tree`] | explicit game trees, random or hand-made, for tests | |
//!
//! Where a search stops is a [`Horizon`]: a depth, how it is counted ([`DepthCount`]) and a
//! [`CutoffPolicy`] at chance and opponent nodes ([`ProbabilityCutoff`], [`PartialCut`]).
//!
//! # Conventions
//!
//! - Values are always from the point of view of the player to move at the root, the maximiser;
//!   every other player minimises it (exact for two-player zero-sum games). A chance node is
//!   worth the probability-weighted mean of its outcomes.
//! - Nothing here draws random numbers of its own but [`mcts`], from its config's seed;
//!   [`tree::Tree::random`] takes the caller's RNG.
//! - Searches return plain data ([`SearchResult`], [`SearchStats`]); they never print.
//!
//! # Feature flags
//!
//! - `parallel` (default): the module [`parallel`] (the alpha-beta root split and parallel
//!   iterative deepening) and parallel root moves in [`expectimax`], on rayon. Without it the crate does not depend on rayon, and an
//!   expectimax search asked to run in parallel runs serially, with the same result.
//! - `testing`: the module [`testing`], a conformance checker any game's tests can run (random
//!   walks that check the contract of [`Game`] and [`GameHash`]). Enable it in
//!   `[dev-dependencies]`: `game-search-core = { version = "…", features = ["testing"] }`.

// `deny` rather than `forbid`: the module `prefetch` allows its one intrinsic call.
#![deny(unsafe_code)]

pub mod agent;
pub mod alphabeta;
pub mod arena;
mod eval;
pub mod expectimax;
mod game;
mod horizon;
pub mod iterative;
mod limits;
pub mod mcts;
pub mod minimax;
mod narrowed;
mod ordering;
#[cfg(feature = "parallel")]
pub mod parallel;
mod prefetch;
mod rewards;
mod stats;
mod table;
// Documented in every build, so a plain `cargo doc` shows it; compiled for use only with the
// feature.
#[cfg(any(feature = "testing", doc))]
pub mod testing;
pub mod tree;
mod value;
mod zobrist;

pub use alphabeta::SearchResult;
pub use eval::Evaluator;
pub use game::{Game, GameHash, MoveList, OutcomeList, Player, ToMove};
pub use horizon::{
    CutoffContext, CutoffPolicy, DepthCount, Horizon, NoCutoff, PartialCut, ProbabilityCutoff,
};
pub use limits::{CLOCK_INTERVAL, Clock, Limits, WallClock};
pub use narrowed::{MovePicker, Narrowed};
pub use ordering::MoveOrdering;
pub use prefetch::prefetch;
pub use rewards::{MAX_PLAYERS, Rewards, draw, win_for};
pub use stats::SearchStats;
pub use table::{Bound, Entry, NoTable, TableAccess, TranspositionTable};
pub use value::Value;
pub use zobrist::ZobristKeys;

/// The crate's README, compiled and run as a doctest so its example stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
