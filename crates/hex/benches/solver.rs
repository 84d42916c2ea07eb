//! Speed of the exact solver (`hex::solver`): the full opening maps of 4x4, 5x5 and 6x6 (each
//! iteration with a fresh table, one thread), the 5x5 map again without H-search (the baseline
//! that shows what it buys), and one 6x6 position two moves in (Black b5, White c3, Black to
//! move: Black wins). The 7x7 map takes minutes: `cargo xtask hex-openings --sizes 7` measures
//! it.
//!
//! Run `cargo bench -p game-search-hex --bench solver -- --quick` for a fast estimate. The node counts of
//! one pass go to stderr (stdout belongs to criterion).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use hex::solver::{Solver, SolverConfig};
use hex::{Cell, HexMove, Position};

fn config() -> SolverConfig {
    SolverConfig { table_bits: 18, ..SolverConfig::default() }
}

fn opening_maps(c: &mut Criterion) {
    let mut group = c.benchmark_group("opening-map");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    let plain = SolverConfig { h_search: false, ..config() };
    for (name, size, config) in
        [("4x4", 4u32, config()), ("5x5", 5, config()), ("5x5-no-h-search", 5, plain), ("6x6", 6, config())]
    {
        let map = Solver::new(config).opening_map(size).unwrap();
        eprintln!("{name} map: {} nodes", map.total_stats().nodes);
        group.bench_function(name, |b| b.iter(|| Solver::new(config).opening_map(black_box(size)).unwrap()));
    }
    group.finish();
}

fn six_by_six(c: &mut Criterion) {
    let pos = [(4, 1), (2, 2)]
        .into_iter()
        .fold(Position::new(6).unwrap(), |p, (r, c)| p.play(HexMove::Place(Cell::new(r, c))).unwrap());
    let solution = Solver::new(config()).solve(&pos).unwrap();
    eprintln!("6x6 after b5 c3: {:?}, {} nodes", solution.verdict, solution.stats.nodes);
    let mut group = c.benchmark_group("position");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    group.bench_function("6x6-b5-c3", |b| b.iter(|| Solver::new(config()).solve(black_box(&pos)).unwrap()));
    group.finish();
}

criterion_group!(benches, opening_maps, six_by_six);
criterion_main!(benches);
