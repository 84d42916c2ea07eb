//! The dominoes evaluation: pairings of players on duplicate deals, in both rule variants.

use domino::Agent;
use domino::game::DominoGame;
use std::collections::BTreeMap;
use std::time::Instant;

use domino::matches::{deal_seed, play_game};
use domino::players::{ExpectimaxPlayer, Greedy, MinNode, Omniscient, PimcPlayer, RandomPlayer, SeedPlayer};
use domino::solver::Objective;
use domino::{Rules, State, Variant};

use super::{Row, RowSpec};
use crate::record::{GameKind, GameLine};

/// A dominoes player as a row names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DominoPlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The heaviest playable tile.
    Greedy,
    /// The seed document's minimax at this depth.
    Seed(u32),
    /// Perfect-information Monte Carlo with this many samples (win/loss objective).
    Pimc(usize),
    /// Expectimax over the opponent's hidden hand at this depth.
    Expectimax(u32),
    /// The exact solver that sees both hands: a labelled cheat, the ceiling.
    Omniscient,
}

impl DominoPlayerSpec {
    /// A short name: `random`, `greedy`, `seed-d3`, `pimc50`, `expectimax-d6`, `omniscient`.
    pub fn name(self) -> String {
        match self {
            DominoPlayerSpec::Random => "random".into(),
            DominoPlayerSpec::Greedy => "greedy".into(),
            DominoPlayerSpec::Seed(depth) => format!("seed-d{depth}"),
            DominoPlayerSpec::Pimc(samples) => format!("pimc{samples}"),
            DominoPlayerSpec::Expectimax(depth) => format!("expectimax-d{depth}"),
            DominoPlayerSpec::Omniscient => "omniscient".into(),
        }
    }

    fn build(self, seed: u64) -> Box<dyn Agent<DominoGame>> {
        match self {
            DominoPlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            DominoPlayerSpec::Greedy => Box::new(Greedy),
            DominoPlayerSpec::Seed(depth) => Box::new(SeedPlayer::new(depth, MinNode::Paranoid)),
            DominoPlayerSpec::Pimc(samples) => {
                Box::new(PimcPlayer::new(samples, Objective::WinLoss, 1, seed))
            }
            DominoPlayerSpec::Expectimax(depth) => Box::new(ExpectimaxPlayer { depth }),
            DominoPlayerSpec::Omniscient => Box::new(Omniscient::new(Objective::WinLoss)),
        }
    }

    fn depth(self) -> Option<u32> {
        match self {
            DominoPlayerSpec::Seed(depth) | DominoPlayerSpec::Expectimax(depth) => Some(depth),
            _ => None,
        }
    }
}

/// A pairing: player `a` against player `b` under one rule variant. Game `2k` and `2k + 1` play
/// deal `k` with `a` first as player 0, then as player 1 (duplicate deals).
#[derive(Clone, Debug, PartialEq)]
pub struct DominoRow {
    /// The player the row scores.
    pub a: DominoPlayerSpec,
    /// Its opponent.
    pub b: DominoPlayerSpec,
    /// Block (OpenSpiel) or Draw (the seed's game).
    pub variant: Variant,
}

impl DominoRow {
    fn rules(&self) -> Rules {
        match self.variant {
            Variant::Block => Rules::block(),
            Variant::Draw => Rules::draw(),
        }
    }

    fn variant_name(&self) -> &'static str {
        match self.variant {
            Variant::Block => "block",
            Variant::Draw => "draw",
        }
    }

    /// The deal seed of game `index` in a run seeded with `base`: both seatings share it.
    pub fn deal_seed(&self, base: u64, index: u64) -> u64 {
        deal_seed(base, (index / 2) as u32)
    }

    /// Plays game `index` (deal seed `seed`) and returns its record line, from `a`'s side.
    pub fn run(&self, tier: u8, row: &str, index: u64, seed: u64) -> GameLine {
        let rules = self.rules();
        let a_seat = (index % 2) as usize;
        let mut a = self.a.build(seed ^ 0xA);
        let mut b = self.b.build(seed ^ 0xB);
        let start = Instant::now();
        let deal = State::deal(rules, seed);
        let seats: [&mut dyn Agent<DominoGame>; 2] =
            if a_seat == 0 { [a.as_mut(), b.as_mut()] } else { [b.as_mut(), a.as_mut()] };
        let end = play_game(seats, deal).unwrap_or_else(|e| panic!("{row} game {index}: illegal move: {e}"));
        let seconds = start.elapsed().as_secs_f64();
        let points = end.returns()[a_seat];
        let result = match points.cmp(&0) {
            std::cmp::Ordering::Greater => "won",
            std::cmp::Ordering::Equal => "draw",
            std::cmp::Ordering::Less => "lost",
        };
        let settings = BTreeMap::from([
            ("variant".to_string(), self.variant_name().to_string()),
            ("opponent".to_string(), self.b.name()),
            ("seat".to_string(), a_seat.to_string()),
        ]);
        GameLine {
            game: GameKind::Domino,
            tier,
            row: row.into(),
            index,
            agent: self.a.name(),
            heuristic: format!("vs {}", self.b.name()),
            depth: self.a.depth(),
            settings,
            seed,
            result: result.into(),
            score: f64::from(points),
            max_tile: None,
            moves: end.history().len() as u64,
            seconds,
            nodes: 0,
            replay: format!(
                "domino::State::deal(Rules::{}(), {seed}) with {} as player {a_seat} against {}",
                self.variant_name(),
                self.a.name(),
                self.b.name()
            ),
        }
    }
}

fn pairing(
    tier: u8,
    games: u64,
    a: DominoPlayerSpec,
    b: DominoPlayerSpec,
    variant: Variant,
    prefix: &str,
) -> Row {
    let spec = DominoRow { a, b, variant };
    let id = format!("{prefix}{}-vs-{}-{}", a.name(), b.name(), spec.variant_name());
    Row { tier, id, games, spec: RowSpec::Domino(spec) }
}

/// The dominoes rows, on duplicate deals: tier 1, each player against random and greedy (50
/// games); tier 2, the search players against each other (50 games); tier 3, the deepest
/// settings against greedy (20 games), with the omniscient ceiling (Block only). The deepest
/// expectimax is depth 8 in the Block game and 7 in the Draw game, where its tree also branches
/// over our draws (about 0.2 s a game at depth 7, 1.6 s at 8).
///
/// `quick` plays 4 games per row (2 deals) at reduced settings.
pub fn rows_domino(quick: bool) -> Vec<Row> {
    use DominoPlayerSpec::*;
    let prefix = if quick { "quick-" } else { "" };
    let games = |n: u64| if quick { 4 } else { n };
    let (seed_depth, pimc, deep_pimc) = if quick { (2, 5, 10) } else { (4, 50, 200) };
    let expectimax = Expectimax(if quick { 2 } else { 6 });
    let deep_expectimax = |variant| match (quick, variant) {
        (true, _) => Expectimax(3),
        (false, Variant::Block) => Expectimax(8),
        (false, Variant::Draw) => Expectimax(7),
    };
    let mut rows = Vec::new();
    for variant in [Variant::Block, Variant::Draw] {
        // The deepest PIMC and the omniscient ceiling are Block-only: in the Draw game each
        // sampled world also fixes a boneyard order and is searched to a depth limit, so neither
        // is exact there (see `domino::players`).
        let block = variant == Variant::Block;
        for a in [Greedy, Seed(seed_depth), Pimc(pimc), expectimax] {
            rows.push(pairing(1, games(50), a, Random, variant, prefix));
            if a != Greedy {
                rows.push(pairing(1, games(50), a, Greedy, variant, prefix));
            }
        }
        rows.push(pairing(2, games(50), Pimc(pimc), Seed(seed_depth), variant, prefix));
        rows.push(pairing(2, games(50), expectimax, Seed(seed_depth), variant, prefix));
        rows.push(pairing(2, games(50), Pimc(pimc), expectimax, variant, prefix));
        if block {
            rows.push(pairing(3, games(20), Pimc(deep_pimc), Greedy, variant, prefix));
        }
        rows.push(pairing(3, games(20), deep_expectimax(variant), Greedy, variant, prefix));
        if block {
            rows.push(pairing(3, games(20), Omniscient, Greedy, variant, prefix));
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_seatings_share_a_deal_and_score_from_a() {
        let rows = rows_domino(true);
        let row = &rows[0];
        let (first, second) = (row.run(0, 9), row.run(1, 9));
        assert_eq!(first.seed, second.seed);
        assert_eq!(first.settings["seat"], "0");
        assert_eq!(second.settings["seat"], "1");
        assert_eq!(first.game, GameKind::Domino);
        let ids: std::collections::HashSet<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids.len(), rows.len());
    }
}
