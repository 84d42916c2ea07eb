//! Speed of the exact solver (`hex::solver`): the full opening maps of 4x4 and 5x5 (each
//! iteration with a fresh table), and one 6x6 position two moves in (Black b5, White c3, Black to
//! move: Black wins). The whole 6x6 map takes about half a minute: `hex-solve --size 6` measures
//! it.
//!
//! Run `cargo bench -p hex --bench solver -- --quick` for a fast estimate. The node counts of
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
    for size in [4u32, 5] {
        let map = Solver::new(config()).opening_map(size).unwrap();
        eprintln!("{size}x{size} map: {} nodes", map.total_stats().nodes);
        group.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| Solver::new(config()).opening_map(black_box(size)).unwrap())
        });
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
