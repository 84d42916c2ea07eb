//! Hex: bitboard rules, shortest-path heuristics, the seed players and a GTP engine.
//!
//! This crate is an empty library for now; the Hex issue fills it on top of `search-core`.
