//! Root package of the game-search workspace: it hosts `examples/` and `benches/`.
