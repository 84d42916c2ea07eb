//! The Hex evaluation: pairings of players from fixed openings, colours swapped.
//!
//! Every game starts from an opening of one Black stone on a cell drawn from the game's seed;
//! games `2k` and `2k + 1` of a row share the opening, with the row's player first as Black,
//! then as White (Black then White to move after the opening stone). Hex has no draws, and
//! every board is a first-player win, so only the swapped pair says who plays better.
//!
//! The strong player searches a fixed node budget per move, and the MCTS player a fixed number
//! of iterations, rather than a time limit, so a game replays exactly on any machine and the
//! results do not depend on the load of a shared one; the time those budgets took is recorded
//! with each game (`strong_s_per_move`, `mcts_s_per_move`).

use std::collections::BTreeMap;
use std::time::Instant;

use hex::heuristics::{PathDifference, PathDistance, TwoDistance, ZeroOneBfs};
use hex::mcts::{MctsConfig, MctsPlayer};
use hex::players::{BridgesConfig, BridgesPlayer, CoolcowPlayer, MadeupConfig, MadeupPlayer, SearchConfig};
use hex::strong::{StrongConfig, StrongPlayer};
use hex::{Cell, Color, HexGame, HexMove, HexPlayer, Position, RandomPlayer};
use search_core::agent::{Agent, Tally};
use search_core::{Evaluator, NoTable, alphabeta, arena};

use super::{Row, RowSpec, game_seed};
use crate::record::{GameKind, GameLine};

/// An evaluation for the tier-1 searcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexEval {
    /// The madeup seed's `1 − d/n²`.
    PathDistance,
    /// The coolcow seed's `d_opp − d_own`.
    PathDifference,
    /// The third seed's weighted 0-1 BFS distances.
    ZeroOneBfs,
    /// Queenbee's two-distance potentials.
    TwoDistance,
}

impl HexEval {
    /// Every evaluation, in the order the tier lists them.
    pub const ALL: [HexEval; 4] =
        [HexEval::PathDistance, HexEval::PathDifference, HexEval::ZeroOneBfs, HexEval::TwoDistance];

    /// A short name: `path-distance`, `path-difference`, `zero-one-bfs`, `two-distance`.
    pub fn name(self) -> &'static str {
        match self {
            HexEval::PathDistance => "path-distance",
            HexEval::PathDifference => "path-difference",
            HexEval::ZeroOneBfs => "zero-one-bfs",
            HexEval::TwoDistance => "two-distance",
        }
    }
}

/// A Hex player as a row names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexPlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The madeup seed at this depth.
    Madeup(u32),
    /// The coolcow seed at this depth.
    Coolcow(u32),
    /// The opening-and-bridges seed at this depth.
    Bridges(u32),
    /// Plain alpha-beta at this depth with one evaluation (tier 1: the same searcher for all).
    Searcher(HexEval, u32),
    /// The strong player with this node budget per move.
    Strong(u64),
    /// The MCTS player with this many iterations per move (deterministic, unlike a time limit).
    Mcts(u64),
}

impl HexPlayerSpec {
    /// A short name: `random`, `madeup-d3`, `two-distance-d3`, `strong-20000n`, …
    pub fn name(self) -> String {
        match self {
            HexPlayerSpec::Random => "random".into(),
            HexPlayerSpec::Madeup(d) => format!("madeup-d{d}"),
            HexPlayerSpec::Coolcow(d) => format!("coolcow-d{d}"),
            HexPlayerSpec::Bridges(d) => format!("bridges-d{d}"),
            HexPlayerSpec::Searcher(eval, d) => format!("{}-d{d}", eval.name()),
            HexPlayerSpec::Strong(nodes) => format!("strong-{nodes}n"),
            HexPlayerSpec::Mcts(iterations) => format!("mcts-{iterations}i"),
        }
    }

    fn agent(self) -> String {
        match self {
            HexPlayerSpec::Searcher(..) => "alphabeta".into(),
            HexPlayerSpec::Strong(_) => "strong".into(),
            HexPlayerSpec::Mcts(_) => "mcts".into(),
            other => other.name().split('-').next().unwrap_or_default().into(),
        }
    }

    fn depth(self) -> Option<u32> {
        match self {
            HexPlayerSpec::Madeup(d)
            | HexPlayerSpec::Coolcow(d)
            | HexPlayerSpec::Bridges(d)
            | HexPlayerSpec::Searcher(_, d) => Some(d),
            _ => None,
        }
    }

    fn build(self, seed: u64) -> Box<dyn HexPlayer> {
        match self {
            HexPlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            HexPlayerSpec::Madeup(d) => Box::new(MadeupPlayer::new(MadeupConfig {
                search: SearchConfig::depth(d),
                ..Default::default()
            })),
            HexPlayerSpec::Coolcow(d) => Box::new(CoolcowPlayer::new(SearchConfig::depth(d))),
            HexPlayerSpec::Bridges(d) => Box::new(BridgesPlayer::new(BridgesConfig {
                search: SearchConfig::depth(d),
                ..Default::default()
            })),
            HexPlayerSpec::Searcher(eval, depth) => Box::new(EvalSearcher { eval, depth }),
            HexPlayerSpec::Mcts(iterations) => {
                Box::new(MctsPlayer::new(MctsConfig { seed, ..MctsConfig::iterations(iterations) }))
            }
            HexPlayerSpec::Strong(nodes) => Box::new(StrongPlayer::new(StrongConfig::nodes(nodes))),
        }
    }
}

/// Tier 1's searcher: fail-hard alpha-beta to a fixed depth, cells row by row (no killers, no
/// history, no table, as the seed players search), with one of the evaluations. A win in one
/// is seen at depth 1 and the opponent's at depth 2, so no rules are added.
struct EvalSearcher {
    eval: HexEval,
    depth: u32,
}

impl EvalSearcher {
    fn search<E: Evaluator<HexGame, Value = i32>>(&self, eval: &E, position: &Position) -> Option<HexMove> {
        let config =
            alphabeta::Config { killers: false, history: false, ..alphabeta::Config::depth(self.depth) };
        alphabeta::search(&HexGame::new(position.size()), eval, position, &config, NoTable).best_move
    }
}

impl search_core::agent::Agent<HexGame> for EvalSearcher {
    fn name(&self) -> String {
        format!("{}-d{}", self.eval.name(), self.depth)
    }

    fn choose(&mut self, _: &HexGame, position: &Position) -> HexMove {
        let found = match self.eval {
            HexEval::PathDistance => self.search(&PathDistance, position),
            HexEval::PathDifference => self.search(&PathDifference, position),
            HexEval::ZeroOneBfs => self.search(&ZeroOneBfs::default(), position),
            HexEval::TwoDistance => self.search(&TwoDistance, position),
        };
        found.unwrap_or_else(|| position.legal_moves()[0])
    }
}

/// A pairing on an n×n board: `a` against `b`, colours alternating on shared openings.
#[derive(Clone, Debug, PartialEq)]
pub struct HexRow {
    /// The player the row scores.
    pub a: HexPlayerSpec,
    /// Its opponent.
    pub b: HexPlayerSpec,
    /// The board side.
    pub size: u8,
}

impl HexRow {
    /// The opening seed of game `index` in a run seeded with `base`: both colourings share it.
    pub fn opening_seed(&self, base: u64, index: u64) -> u64 {
        game_seed(base, index / 2)
    }

    /// The opening stone (Black's first move) for `seed`: any cell, uniformly.
    pub fn opening(&self, seed: u64) -> Cell {
        let cells = u64::from(self.size) * u64::from(self.size);
        Cell::from_id((seed % cells) as usize, self.size)
    }

    /// Plays game `index` (opening seed `seed`) and returns its record line, from `a`'s side.
    pub fn run(&self, tier: u8, row: &str, index: u64, seed: u64) -> GameLine {
        let a_color = if index.is_multiple_of(2) { Color::Black } else { Color::White };
        // Each side with what it spends counted (time, and the nodes its searches report).
        let mut a = Tally::new(self.a.build(seed ^ 0xA));
        let mut b = Tally::new(self.b.build(seed ^ 0xB));
        let opening = self.opening(seed);
        let start = Instant::now();
        let empty = Position::new(u32::from(self.size)).expect("row sizes are valid");
        let position = empty.play(HexMove::Place(opening)).expect("the first stone is legal");
        let game = HexGame::new(self.size);
        // The arena plays the game (Hex has no chance, so its seed does not matter) and checks
        // every move; Black is player 0.
        let mut seats: [&mut dyn Agent<HexGame>; 2] =
            if a_color == Color::Black { [&mut a, &mut b] } else { [&mut b, &mut a] };
        let played = arena::play(&game, &position, &mut seats, seed, None);
        let position = played.last;
        let moves = 1 + played.moves.len() as u64;
        // Thinking time of the budgeted players (strong, MCTS): seconds and moves, by agent.
        let mut thinking_time: BTreeMap<String, (f64, u64)> = BTreeMap::new();
        for (spec, tally) in [(self.a, &a), (self.b, &b)] {
            if matches!(spec, HexPlayerSpec::Strong(_) | HexPlayerSpec::Mcts(_)) {
                let entry = thinking_time.entry(spec.agent()).or_default();
                entry.0 += tally.seconds;
                entry.1 += tally.moves;
            }
        }
        let a_nodes = a.nodes;
        let seconds = start.elapsed().as_secs_f64();
        let won = position.winner() == Some(a_color);
        let mut settings = BTreeMap::from([
            ("size".to_string(), self.size.to_string()),
            ("opponent".to_string(), self.b.name()),
            ("colour".to_string(), a_color.name().to_string()),
            ("opening".to_string(), hex::move_name(HexMove::Place(opening))),
        ]);
        for (agent, (time, moves)) in thinking_time {
            settings.insert(format!("{agent}_s_per_move"), format!("{:.4}", time / moves as f64));
        }
        if let HexPlayerSpec::Strong(nodes) = self.a {
            settings.insert("nodes_per_move".into(), nodes.to_string());
        }
        GameLine {
            game: GameKind::Hex,
            tier,
            row: row.into(),
            index,
            agent: self.a.agent(),
            heuristic: format!("vs {}", self.b.name()),
            depth: self.a.depth(),
            settings,
            seed,
            result: if won { "won" } else { "lost" }.into(),
            score: if won { 1.0 } else { 0.0 },
            max_tile: None,
            moves,
            seconds,
            nodes: a_nodes,
            replay: format!(
                "{0}x{0} Hex from Black {1} (seed {seed}): {2} as {3} against {4}",
                self.size,
                hex::move_name(HexMove::Place(opening)),
                self.a.name(),
                a_color.name(),
                self.b.name()
            ),
        }
    }
}

fn pairing(tier: u8, games: u64, a: HexPlayerSpec, b: HexPlayerSpec, size: u8, prefix: &str) -> Row {
    let id = format!("{prefix}{}-vs-{}-{size}x{size}", a.name(), b.name());
    Row { tier, id, games, spec: RowSpec::Hex(HexRow { a, b, size }) }
}

/// The strong player's node budget per move in the full tiers (about 0.1–0.2 s a move on 9×9
/// and 11×11 on one core: see the recorded `strong_s_per_move`).
pub const STRONG_NODES: u64 = 20_000;

/// The MCTS player's iterations per move in the full tiers (about 0.2 s a move on 9×9 on one
/// core, the time at which it was compared with the strong player).
pub const MCTS_ITERATIONS: u64 = 30_000;

/// The Hex rows: tier 1, the depth-3 alpha-beta searcher with each pair of evaluations on 7×7
/// (50 games); tier 2, every pair of players on 9×9 (random, the three seeds at depth 3, the
/// strong and MCTS players; 50 games); tier 3, the strong player against each seed on 11×11,
/// and MCTS against the strong player and each seed (20 games).
///
/// `quick` plays 2 games per row on 5×5 boards (6×6 in tier 3, so that its row ids differ from
/// tier 2's), the searchers at depth 2 and the strong player with 1,000 nodes a move.
pub fn rows_hex(quick: bool) -> Vec<Row> {
    use HexPlayerSpec::*;
    let prefix = if quick { "quick-" } else { "" };
    let games = |n: u64| if quick { 2 } else { n };
    let (depth, strong, sizes) = if quick { (2, 1_000, [5, 5, 6]) } else { (3, STRONG_NODES, [7, 9, 11]) };
    let mcts = if quick { 500 } else { MCTS_ITERATIONS };
    let mut rows = Vec::new();
    for (i, &x) in HexEval::ALL.iter().enumerate() {
        for &y in &HexEval::ALL[i + 1..] {
            rows.push(pairing(1, games(50), Searcher(x, depth), Searcher(y, depth), sizes[0], prefix));
        }
    }
    let players = [Mcts(mcts), Strong(strong), Bridges(depth), Coolcow(depth), Madeup(depth), Random];
    for (i, &a) in players.iter().enumerate() {
        for &b in &players[i + 1..] {
            rows.push(pairing(2, games(50), a, b, sizes[1], prefix));
        }
    }
    for seed_player in [Madeup(depth), Coolcow(depth), Bridges(depth)] {
        rows.push(pairing(3, games(20), Strong(strong), seed_player, sizes[2], prefix));
    }
    for opponent in [Strong(strong), Madeup(depth), Coolcow(depth), Bridges(depth)] {
        rows.push(pairing(3, games(20), Mcts(mcts), opponent, sizes[2], prefix));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_colourings_share_an_opening_and_score_from_a() {
        let rows = rows_hex(true);
        let ids: std::collections::HashSet<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids.len(), rows.len());
        assert_eq!(rows.iter().filter(|r| r.tier == 1).count(), 6);
        assert_eq!(rows.iter().filter(|r| r.tier == 2).count(), 15);
        assert_eq!(rows.iter().filter(|r| r.tier == 3).count(), 7);
        let row = rows.iter().find(|r| r.tier == 3).unwrap();
        let (first, second) = (row.run(0, 5), row.run(1, 5));
        assert_eq!(first.seed, second.seed);
        assert_eq!(first.settings["opening"], second.settings["opening"]);
        assert_eq!(
            (first.settings["colour"].as_str(), second.settings["colour"].as_str()),
            ("black", "white")
        );
        assert_eq!(first.game, GameKind::Hex);
        assert!(first.settings.contains_key("strong_s_per_move"));
        assert!(first.nodes > 0, "the strong player's search nodes are recorded");
        // A node budget makes a game replay exactly.
        assert_eq!(row.run(0, 5).moves, first.moves);
        // So does an iteration budget for MCTS; both budgeted players' times are recorded.
        let row =
            rows.iter().find(|r| r.id.starts_with("quick-mcts-") && r.id.contains("-vs-strong-")).unwrap();
        let game = row.run(3, 7);
        assert!(game.settings.contains_key("mcts_s_per_move"));
        assert!(game.settings.contains_key("strong_s_per_move"));
        assert_eq!(row.run(3, 7).moves, game.moves);
    }

    #[test]
    fn full_rows_use_the_tier_boards() {
        let rows = rows_hex(false);
        let size = |tier: u8| match &rows.iter().find(|r| r.tier == tier).unwrap().spec {
            RowSpec::Hex(row) => row.size,
            _ => unreachable!(),
        };
        assert_eq!((size(1), size(2), size(3)), (7, 9, 11));
        assert!(
            rows.iter()
                .filter(|r| r.tier == 3)
                .all(|r| r.games == 20 && (r.id.starts_with("strong-") || r.id.starts_with("mcts-")))
        );
    }
}
