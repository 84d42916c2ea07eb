//! Speed of the domino solvers and players.
//!
//! Groups, each with a throughput so criterion reports operations per second:
//! - `solve/{wl,pts}`: exact alpha-beta solves ([`domino::solver::solve`]) of [`N_DEALS`] random
//!   fully known Block deals from the opening, no table.
//! - `pimc-samples/{block,draw}`: one PIMC decision of 50 samples on one thread at the first move
//!   of the second player (after one opening tile), per sample.
//! - `decision/<player>/{block,draw}`: one decision of each player at that position.
//!
//! Extra prints go to stderr (stdout belongs to criterion). Run
//! `cargo bench -p game-search-domino --bench domino -- --quick` for a fast estimate.

use domino::Agent;
use domino::game::DominoGame;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use domino::players::{ExpectimaxPlayer, Greedy, MinNode, Omniscient, PimcPlayer, RandomPlayer, SeedPlayer};
use domino::solver::{Objective, PerfectBlock, Position, solve};
use domino::{Rules, State};

/// Deals solved per iteration of the solve benchmark.
const N_DEALS: u64 = 32;

/// Decision positions per player benchmark: a few deals, after the opening tile.
const N_POSITIONS: u64 = 4;

fn solves(c: &mut Criterion) {
    let game = PerfectBlock::default();
    let positions: Vec<Position> =
        (0..N_DEALS).map(|s| Position::from_state(&State::deal(Rules::block(), s)).expect("block")).collect();
    let mut group = c.benchmark_group("solve");
    group.throughput(Throughput::Elements(N_DEALS));
    for (name, objective) in [("wl", Objective::WinLoss), ("pts", Objective::Points)] {
        group.bench_function(name, |b| {
            b.iter(|| positions.iter().map(|p| solve(&game, black_box(p), objective).0).sum::<i32>())
        });
    }
    group.finish();
}

/// States where the second player makes its first decision.
fn positions(rules: Rules) -> Vec<State> {
    (0..N_POSITIONS)
        .map(|seed| {
            let mut s = State::deal(rules, 1000 + seed);
            let mv = Greedy.choose(&DominoGame, &s);
            s.play(mv).expect("legal");
            s
        })
        .collect()
}

fn decisions(c: &mut Criterion) {
    for (variant, rules) in [("block", Rules::block()), ("draw", Rules::draw())] {
        let states = positions(rules);
        let mut group = c.benchmark_group("pimc-samples");
        group.throughput(Throughput::Elements(50 * N_POSITIONS));
        group.bench_function(variant, |b| {
            b.iter(|| {
                let mut p = PimcPlayer::new(50, Objective::WinLoss, 1, 7);
                p.exhaustive_threshold = 0;
                states.iter().map(|s| p.choose(&DominoGame, s)).count()
            })
        });
        group.finish();

        let mut group = c.benchmark_group("decision");
        group.throughput(Throughput::Elements(N_POSITIONS));
        let players: Vec<(&str, Box<dyn Agent<DominoGame>>)> = vec![
            ("random", Box::new(RandomPlayer::new(1))),
            ("greedy", Box::new(Greedy)),
            ("seed4", Box::new(SeedPlayer::new(4, MinNode::Paranoid))),
            ("seed4-avg", Box::new(SeedPlayer::new(4, MinNode::Average))),
            ("pimc50-wl", Box::new(PimcPlayer::new(50, Objective::WinLoss, 1, 7))),
            ("expectimax6", Box::new(ExpectimaxPlayer { depth: 6 })),
            ("omniscient-wl", Box::new(Omniscient::new(Objective::WinLoss))),
        ];
        for (name, mut player) in players {
            group.bench_function(BenchmarkId::new(name, variant), |b| {
                b.iter(|| states.iter().map(|s| player.choose(&DominoGame, black_box(s))).count())
            });
        }
        group.finish();
    }
    eprintln!("decision positions: {N_POSITIONS} per variant, the second player's first move");
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(300));
    targets = solves, decisions
}
criterion_main!(benches);
