//! Perfect-information Monte Carlo for both variants.

use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use search_core::{Evaluator, Game, NoTable, ToMove, alphabeta};

use super::draw_solver::{DRAW_FULL_DEPTH, DRAW_PIMC_DEPTH, DrawPosition, PerfectDraw};
use super::{DominoPlayer, legal_moves, mix};
use crate::rules::{Rules, Variant};
use crate::solver::{Objective, PerfectBlock, Position};
use crate::state::Move;
use crate::tiles::{Tile, TileSet};
use crate::view::PlayerView;

/// Perfect-information Monte Carlo (determinization) for both variants.
///
/// At each decision with more than one legal move it draws `samples` opponent hands uniformly
/// from the hands consistent with what it has seen (the right number of tiles, all from
/// [`PlayerView::opponent_candidates`], so never a tile of a suit the opponent passed on), solves
/// every legal move in each sample exactly with `search-core`'s alpha-beta on
/// [`PerfectBlock`], sums the values per move and plays the best sum (the first in legal-move
/// order on ties). When at most `exhaustive_threshold` hands are consistent it enumerates them
/// all instead (each counted once).
///
/// Sample `i` of decision `d` is drawn from a generator seeded with the player's seed, `d` and
/// `i`, so the moves depend on the seed only, never on `threads` (the samples run on a rayon
/// pool of that many threads when `threads > 1`).
///
/// **Draw game.** Each world also fixes a boneyard order: the unknown tiles outside the sampled
/// hand, shuffled uniformly, solved with [`PerfectDraw`](super::PerfectDraw). Two
/// approximations: the hand is drawn uniformly from the hands consistent with the voids the view
/// reports (those since the opponent's last draw; older, time-stamped voids are not used), and
/// each world's solve knows the draw order in advance (clairvoyance, on top of PIMC's usual
/// strategy fusion). The Draw-game solves are depth-limited to
/// [`PimcPlayer::draw_depth`] moves ([`DRAW_PIMC_DEPTH`](super::DRAW_PIMC_DEPTH) = 10 by
/// default) and valued by the pip difference beyond (a full solve from the deal can take a
/// second), so they are not exact. A deeper horizon costs much more time without a clear gain
/// in strength, so the default stays (measured: `docs/measurements.md` in the repository).
///
/// # Examples
///
/// ```
/// use domino::players::{DominoPlayer, PimcPlayer};
/// use domino::solver::Objective;
/// use domino::{Rules, State};
///
/// let s = State::deal(Rules::block(), 4);
/// let mut p = PimcPlayer::new(20, Objective::WinLoss, 1, 7);
/// let mv = p.choose(&s.view(0), s.rules());
/// assert!(s.legal_moves().contains(&mv));
/// ```
#[derive(Clone, Debug)]
pub struct PimcPlayer {
    /// Opponent hands sampled per decision.
    pub samples: usize,
    /// What each exact solve optimises.
    pub objective: Objective,
    /// Threads for the samples (1 = on the caller's thread).
    pub threads: usize,
    /// Enumerate every consistent hand when there are at most this many (0 = never).
    pub exhaustive_threshold: u64,
    /// The horizon of each Draw-game solve in moves, draws included
    /// ([`DRAW_PIMC_DEPTH`](super::DRAW_PIMC_DEPTH) by default; unused in the Block game, which
    /// is solved to the end).
    pub draw_depth: u32,
    seed: u64,
    decisions: u64,
    pool: Option<Arc<rayon::ThreadPool>>,
}

/// The number of ways to choose `k` of `n`, saturating.
fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u64 = 1;
    for i in 0..k {
        c = c.saturating_mul(u64::from(n - i)) / u64::from(i + 1);
    }
    c
}

/// A uniformly random `n`-tile subset of `from`.
pub(crate) fn sample_hand(from: TileSet, n: u32, rng: &mut Xoshiro256PlusPlus) -> TileSet {
    let mut tiles: Vec<Tile> = from.iter().collect();
    let n = (n as usize).min(tiles.len());
    for i in 0..n {
        let j = rng.random_range(i..tiles.len());
        tiles.swap(i, j);
    }
    tiles[..n].iter().copied().collect()
}

/// Every `n`-tile subset of `from`, in lexicographic order of tile ids.
fn all_hands(from: TileSet, n: u32) -> Vec<TileSet> {
    let tiles: Vec<Tile> = from.iter().collect();
    let (k, m) = (n as usize, tiles.len());
    let mut out = Vec::new();
    if k > m {
        return out;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        out.push(idx.iter().map(|&i| tiles[i]).collect());
        // The rightmost index that can still move right.
        let mut i = k;
        while i > 0 && idx[i - 1] == m - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        idx[i - 1] += 1;
        for j in i..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// Fisher–Yates shuffle of `v` with `rng`.
pub(crate) fn shuffle<T>(v: &mut [T], rng: &mut Xoshiro256PlusPlus) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

/// The exact value for `me` (to move in `p`) of each of `moves`, by alpha-beta on each child.
pub(crate) fn move_values<G>(
    game: &G,
    p: &G::State,
    moves: &[Move],
    objective: Objective,
    me: u8,
    depth: u32,
) -> Vec<i32>
where
    G: Game<Move = Move>,
    Objective: Evaluator<G, Value = i32>,
{
    let config = alphabeta::Config::depth(depth);
    moves
        .iter()
        .map(|&m| {
            let child = game.play(p, m);
            match game.to_move(&child) {
                ToMove::Player(q) => {
                    let v = alphabeta::search(game, &objective, &child, &config, NoTable).value;
                    if q == me { v } else { -v }
                }
                _ => objective.terminal(game, &child, me, 0),
            }
        })
        .collect()
}

/// One sampled world: the opponent's hand and, in the Draw game, the boneyard in drawing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct World {
    pub(crate) opponent: TileSet,
    pub(crate) stock: Vec<Tile>,
}

impl PimcPlayer {
    /// A PIMC player with `samples` samples per decision, the given objective and threads, and
    /// an exhaustive threshold of 2,000 hands.
    pub fn new(samples: usize, objective: Objective, threads: usize, seed: u64) -> PimcPlayer {
        PimcPlayer {
            samples,
            objective,
            threads: threads.max(1),
            exhaustive_threshold: 2_000,
            draw_depth: DRAW_PIMC_DEPTH,
            seed,
            decisions: 0,
            pool: None,
        }
    }

    /// The opponent hands this decision looks at: every consistent hand when there are few,
    /// otherwise `samples` uniform draws seeded by the player's seed, `decision` and the index.
    pub fn worlds(&self, view: &PlayerView, decision: u64) -> Vec<TileSet> {
        let from = view.opponent_candidates();
        let n = view.opponent_hand_len();
        if binomial(from.len(), n) <= self.exhaustive_threshold {
            return all_hands(from, n);
        }
        (0..self.samples as u64)
            .map(|i| {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(mix(self.seed, decision), i));
                sample_hand(from, n, &mut rng)
            })
            .collect()
    }

    /// The worlds of this decision: the hands of [`PimcPlayer::worlds`], each with a boneyard
    /// order (the unknown tiles outside that hand, shuffled by the sample's own generator) in the
    /// Draw game.
    fn sample_worlds(&self, view: &PlayerView, rules: &Rules, decision: u64) -> Vec<World> {
        let unknown = view.unknown();
        self.worlds(view, decision)
            .into_iter()
            .enumerate()
            .map(|(i, opponent)| {
                let mut stock = Vec::new();
                if rules.variant == Variant::Draw {
                    stock = (unknown & !opponent).iter().collect();
                    let seed = mix(mix(mix(self.seed, decision), i as u64), 0x5eed);
                    shuffle(&mut stock, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
                }
                World { opponent, stock }
            })
            .collect()
    }

    /// The summed value of every legal move over `worlds`, in legal-move order.
    pub(crate) fn move_totals(
        &mut self,
        view: &PlayerView,
        rules: &Rules,
        worlds: &[World],
    ) -> Vec<(Move, i64)> {
        let moves = legal_moves(view);
        let objective = self.objective;
        let threads = self.threads;
        let pool = if threads > 1 {
            let pool = self.pool.get_or_insert_with(|| {
                Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool"))
            });
            Some(Arc::clone(pool))
        } else {
            None
        };
        world_totals(view, rules, worlds, &moves, objective, self.draw_depth, pool.as_deref())
    }
}

/// Sums, over `worlds`, the exact value of each of `moves` for the viewer, on `pool` if given.
pub(crate) fn world_totals(
    view: &PlayerView,
    rules: &Rules,
    worlds: &[World],
    moves: &[Move],
    objective: Objective,
    draw_depth: u32,
    pool: Option<&rayon::ThreadPool>,
) -> Vec<(Move, i64)> {
    let me = view.player();
    let hands = |opp: TileSet| {
        let mut hands = [TileSet::EMPTY; 2];
        hands[me as usize] = view.hand();
        hands[1 - me as usize] = opp;
        hands
    };
    let solve_one = |w: &World| match rules.variant {
        Variant::Block => {
            let game = PerfectBlock { blocked: rules.blocked };
            let p = Position { hands: hands(w.opponent), ends: view.ends(), to_move: me, over: false };
            move_values(&game, &p, moves, objective, me, DRAW_FULL_DEPTH)
        }
        Variant::Draw => {
            let game = PerfectDraw { blocked: rules.blocked };
            let p = DrawPosition::new(hands(w.opponent), &w.stock, view.ends(), me);
            move_values(&game, &p, moves, objective, me, draw_depth)
        }
    };
    let per_world: Vec<Vec<i32>> = match pool {
        Some(pool) => pool.install(|| worlds.par_iter().map(solve_one).collect()),
        None => worlds.iter().map(solve_one).collect(),
    };
    let mut totals: Vec<(Move, i64)> = moves.iter().map(|&m| (m, 0)).collect();
    for values in &per_world {
        for (t, v) in totals.iter_mut().zip(values) {
            t.1 += i64::from(*v);
        }
    }
    totals
}

/// The move with the largest total, the first in legal-move order on ties.
pub(crate) fn best_total(totals: &[(Move, i64)]) -> Move {
    let mut best = totals[0];
    for t in &totals[1..] {
        if t.1 > best.1 {
            best = *t;
        }
    }
    best.0
}

impl DominoPlayer for PimcPlayer {
    fn name(&self) -> String {
        let obj = match self.objective {
            Objective::WinLoss => "wl",
            Objective::Points => "pts",
        };
        format!("pimc{}-{obj}", self.samples)
    }

    fn choose(&mut self, view: &PlayerView, rules: &Rules) -> Move {
        let moves = legal_moves(view);
        if moves.len() == 1 {
            return moves[0];
        }
        let decision = self.decisions;
        self.decisions += 1;
        let worlds = self.sample_worlds(view, rules, decision);
        best_total(&self.move_totals(view, rules, &worlds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_all_there() {
        let from = TileSet(0b11_1111);
        let hands = all_hands(from, 3);
        assert_eq!(hands.len(), 20);
        assert!(hands.iter().all(|h| h.len() == 3 && (*h & from) == *h));
        let unique: std::collections::HashSet<u32> = hands.iter().map(|h| h.0).collect();
        assert_eq!(unique.len(), 20);
        assert_eq!(all_hands(from, 0).len(), 1);
        assert_eq!(binomial(21, 7), 116_280);
    }
}
