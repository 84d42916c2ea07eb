//! The `g2048` command line (filled in next).

fn main() {}
