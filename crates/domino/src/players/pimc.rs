//! Perfect-information Monte Carlo for the Block game.

use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use search_core::{Game, NoTable, ToMove, alphabeta};

use super::{DominoPlayer, Greedy, legal_moves, mix};
use crate::rules::{Rules, Variant};
use crate::solver::{FULL_DEPTH, Objective, PerfectBlock, Position};
use crate::state::Move;
use crate::tiles::{Tile, TileSet};
use crate::view::PlayerView;

/// Perfect-information Monte Carlo (determinization) for the Block game.
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
/// **Block only.** In the Draw game it plays as [`Greedy`]: determinizing the boneyard order is
/// not implemented.
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

/// The value for the mover of each of `moves` in the fully known position `p`.
fn move_values(game: &PerfectBlock, p: &Position, moves: &[Move], objective: Objective) -> Vec<i32> {
    let me = p.to_move;
    let config = alphabeta::Config::depth(FULL_DEPTH);
    moves
        .iter()
        .map(|&m| {
            let child = game.play(p, m);
            match game.to_move(&child) {
                ToMove::Player(q) => {
                    let v = alphabeta::search(game, &objective, &child, &config, NoTable).value;
                    if q == me { v } else { -v }
                }
                _ => {
                    let r = child.returns(game.blocked)[me as usize];
                    match objective {
                        Objective::Points => r,
                        Objective::WinLoss => r.signum(),
                    }
                }
            }
        })
        .collect()
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

    /// The summed value of every legal move over `worlds`, in legal-move order.
    pub fn move_totals(&mut self, view: &PlayerView, rules: &Rules, worlds: &[TileSet]) -> Vec<(Move, i64)> {
        let moves = legal_moves(view);
        let game = PerfectBlock { blocked: rules.blocked };
        let me = view.player();
        let position = |opp: TileSet| {
            let mut hands = [TileSet::EMPTY; 2];
            hands[me as usize] = view.hand();
            hands[1 - me as usize] = opp;
            Position { hands, ends: view.ends(), to_move: me, over: false }
        };
        let objective = self.objective;
        let solve_one = |w: &TileSet| move_values(&game, &position(*w), &moves, objective);
        let per_world: Vec<Vec<i32>> = if self.threads > 1 {
            let threads = self.threads;
            let pool = self.pool.get_or_insert_with(|| {
                Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool"))
            });
            pool.install(|| worlds.par_iter().map(solve_one).collect())
        } else {
            worlds.iter().map(solve_one).collect()
        };
        let mut totals: Vec<(Move, i64)> = moves.iter().map(|&m| (m, 0)).collect();
        for values in &per_world {
            for (t, v) in totals.iter_mut().zip(values) {
                t.1 += i64::from(*v);
            }
        }
        totals
    }
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
        if moves.len() == 1 || rules.variant == Variant::Draw {
            return Greedy::pick(&moves);
        }
        let decision = self.decisions;
        self.decisions += 1;
        let worlds = self.worlds(view, decision);
        let totals = self.move_totals(view, rules, &worlds);
        let mut best = totals[0];
        for t in &totals[1..] {
            if t.1 > best.1 {
                best = *t;
            }
        }
        best.0
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
