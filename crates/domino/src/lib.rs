//! Two-player dominoes with hidden hands: rules, information tracking and players.
//!
//! This crate is an empty library for now; the dominoes issue fills it on top of `search-core`.
