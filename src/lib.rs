// Root package of the game-search workspace: it hosts `examples/` and `benches/`. Its crate
// documentation is the workspace README, so the README's Rust code runs as a doctest.
#![doc = include_str!("../README.md")]
