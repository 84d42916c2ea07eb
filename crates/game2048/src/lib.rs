//! 2048: a `u64` bitboard with row tables, the seed document's heuristics and agents, and a strong
//! expectimax player.
//!
//! This crate is an empty library for now; the 2048 issue fills it on top of `search-core`.
