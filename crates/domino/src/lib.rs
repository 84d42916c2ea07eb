//! Two-player double-six dominoes: tiles as bitsets, rules of OpenSpiel's Block game and the
//! seed's Draw game, the full game state, and the view each player may see.
//!
//! - Tiles: [`Tile`] (numbered as in OpenSpiel: (0,0)=0, (0,1)=1, …, (6,6)=27; notation `3-5`),
//!   [`TileSet`] (a 28-bit `u32` mask: a hand, the boneyard, the tiles a player cannot see),
//!   [`SUIT`] masks, [`PIPS`].
//! - Rules: [`Rules`] with [`Rules::block`] (OpenSpiel exactly, the default) and
//!   [`Rules::draw`] (the seed's game): variant, hand size, who leads, how a blocked game scores.
//! - The game: [`State`] (both hands, the line, the boneyard), [`Move`] (notation `3-5@3`, `3-5`,
//!   `draw`, `pass`), the turn rules of both variants, [`Outcome`] and [`Record`].
//! - [`PlayerView`]: what one player may know.
//! - [`players`]: [`players::DominoPlayer`] and the players (random, greedy, PIMC, expectimax, the
//!   seed, an omniscient cheat for measuring).
//! - [`game`]: the whole game as a `search_core::Game`, so every player is a
//!   `search_core::agent::Agent` and plays in any runner that takes one ([`search_core::arena`]).
//! - [`matches`](mod@crate::matches): duplicate-deal matches with scores and 95% Wilson intervals.
//! - [`solver`]: the Block game with both hands known as a `search_core::Game`, and an exact
//!   alpha-beta solve.
//!
//! # Examples
//!
//! ```
//! use domino::{Move, Rules, State, Tile, TileSet};
//!
//! let hand = |s: &str| s.split(' ').map(|t| t.parse::<Tile>().unwrap()).collect::<TileSet>();
//! let h0 = hand("0-3 1-1 1-6 2-2 3-3 3-5 4-5");
//! let h1 = hand("0-0 0-1 0-2 1-5 3-6 4-4 5-5");
//! let dead: Vec<Tile> = (h0 | h1).complement().iter().collect();
//! let mut s = State::from_hands(Rules::block(), [h0, h1], &dead).unwrap();
//!
//! s.play("2-2".parse().unwrap()).unwrap();
//! assert_eq!(s.ends(), Some((2, 2)));
//! assert_eq!(s.legal_moves(), vec!["0-2@2".parse::<Move>().unwrap()]);
//! s.play("0-2@2".parse().unwrap()).unwrap();
//! assert_eq!(s.ends(), Some((0, 2)));
//!
//! // Player 1 sees its own hand, never player 0's.
//! let v = s.view(1);
//! assert_eq!(v.opponent_hand_len(), 6);
//! assert!(v.unknown().0 & s.hand(0).0 == s.hand(0).0);
//! ```

#![forbid(unsafe_code)]

pub mod game;
pub mod matches;
pub mod players;
mod rules;
pub mod solver;
mod state;
mod tiles;
mod view;

pub use rules::{BlockedScoring, Lead, Rules, Variant};
/// The one agent trait of the workspace: every player here is an agent of [`game::DominoGame`].
pub use search_core::agent::Agent;
pub use state::{DealError, Move, MoveError, Outcome, ParseMoveError, Player, Record, State};
pub use tiles::{N_TILES, PIPS, ParseTileError, SUIT, Tile, TileIter, TileSet};
pub use view::PlayerView;

/// The crate's README, compiled and run as a doctest so its example stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
