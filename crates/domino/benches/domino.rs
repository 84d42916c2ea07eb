//! Benchmarks of the domino players (filled in below).

fn main() {}
