//! Expectimax over the opponent's hidden hand with exact hypergeometric counting (issue 6).
//!
//! The search is a small recursion of its own rather than `search-core`'s chance nodes: the
//! opponent's reply probabilities depend on the values of the replies (it plays its best held
//! tile), which a chance node with fixed outcome probabilities cannot express.

use super::{DominoPlayer, fitting, legal_moves, push_plays};
use crate::rules::{BlockedScoring, Rules};
use crate::state::Move;
use crate::tiles::{SUIT, Tile, TileSet};
use crate::view::PlayerView;

/// The searcher's belief at a node: our hand, the tiles we have not seen (`unknown`: the
/// opponent's hand and the boneyard, or the dead tiles in the Block game), the tiles among them
/// the opponent may hold (its hand is a uniformly random `opp_count`-subset of `candidates`), the
/// boneyard's size, the open ends and the passes in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Belief {
    hand: TileSet,
    unknown: TileSet,
    candidates: TileSet,
    opp_count: u32,
    boneyard: u32,
    ends: Option<(u8, u8)>,
    passes: u8,
}

impl Belief {
    /// The opponent's expected pips: each of the `U` candidates is held with probability `n / U`.
    fn expected_opp_pips(&self) -> f64 {
        let u = self.candidates.len();
        if u == 0 {
            0.0
        } else {
            f64::from(self.opp_count) * f64::from(self.candidates.pips()) / f64::from(u)
        }
    }

    /// The belief after `mv`, made by us or (`theirs`) by the opponent. A play by the opponent
    /// removes the tile from its candidates; a pass by the opponent removes both open suits.
    fn after(&self, mv: Move, theirs: bool) -> Belief {
        match mv {
            Move::Play { tile, end } => {
                let mut next = *self;
                if theirs {
                    next.candidates.remove(tile);
                    next.unknown.remove(tile);
                    next.opp_count = self.opp_count.saturating_sub(1);
                } else {
                    next.hand.remove(tile);
                }
                next.place(tile, end)
            }
            Move::Draw | Move::Pass => {
                let mut next = Belief { passes: self.passes + 1, ..*self };
                if let (true, Some((x, y))) = (theirs, self.ends) {
                    next.candidates = self.candidates & (SUIT[x as usize] | SUIT[y as usize]).complement();
                }
                next
            }
        }
    }

    /// The line after `tile` covers `end` (the hands are not touched).
    fn place(&self, tile: Tile, end: Option<u8>) -> Belief {
        let ends = Some(match (self.ends, end) {
            (Some((x, y)), Some(e)) => {
                let kept = if x == e { y } else { x };
                let new = tile.other(e);
                (kept.min(new), kept.max(new))
            }
            _ => (tile.low(), tile.high()),
        });
        Belief { ends, passes: 0, ..*self }
    }
}

/// `C(u − j, n) / C(u, n)`: the probability that a uniformly random `n`-subset of `u` tiles
/// misses `j` given tiles.
fn none_held(u: u32, j: u32, n: u32) -> f64 {
    if n > u.saturating_sub(j) {
        return 0.0;
    }
    (0..n).map(|i| f64::from(u - j - i) / f64::from(u - i)).product()
}

/// Our expected result of a blocked line, `P(win) − P(loss)` in `[−1, 1]`, when we hold
/// `ours` pips and the opponent a uniformly random `n`-subset of `candidates`: the lighter hand
/// wins, equal pips draw. Counted exactly over the subsets by pip sum.
fn blocked_value(ours: u32, candidates: TileSet, n: u32) -> f64 {
    // The heaviest 14 tiles of the set hold 111 pips, so 128 sums cover every hand.
    const SUMS: usize = 128;
    let n = n as usize;
    // counts[k][s]: the k-subsets of the tiles seen so far with s pips.
    let mut counts = vec![[0f64; SUMS]; n + 1];
    counts[0][0] = 1.0;
    for tile in candidates {
        let p = usize::from(tile.pips());
        for k in (1..=n).rev() {
            for s in (p..SUMS).rev() {
                counts[k][s] += counts[k - 1][s - p];
            }
        }
    }
    let (mut total, mut balance) = (0.0, 0.0);
    for (s, &c) in counts[n].iter().enumerate() {
        total += c;
        match (s as u32).cmp(&ours) {
            std::cmp::Ordering::Greater => balance += c,
            std::cmp::Ordering::Less => balance -= c,
            std::cmp::Ordering::Equal => {}
        }
    }
    if total == 0.0 { 0.0 } else { balance / total }
}

/// The recursion's constants: the depth-limit estimate `0.9 · tanh(a · tiles + b · pips)`.
const TILE_WEIGHT: f64 = 0.5;
const PIP_WEIGHT: f64 = 0.05;
/// Being to move at the depth limit is worth half a tile.
const TEMPO: f64 = 0.5;

/// The search over [`Belief`]s under one rule set.
#[derive(Clone, Copy, Debug)]
struct Search {
    /// Whether a blocked line is a draw (else the lighter hand wins it).
    blocked_is_draw: bool,
}

impl Search {
    fn new(rules: &Rules) -> Search {
        Search { blocked_is_draw: rules.blocked == BlockedScoring::Draw }
    }

    /// The value of `b` to us if the game is over: `±(1 − ply/1000)` when a hand is empty
    /// (sooner wins score higher), the [`blocked_value`] of a blocked line.
    fn terminal(&self, b: &Belief, ply: u32) -> Option<f64> {
        let win = 1.0 - 0.001 * f64::from(ply.min(999));
        if b.hand.is_empty() {
            Some(win)
        } else if b.opp_count == 0 {
            Some(-win)
        } else if b.passes >= 2 {
            if self.blocked_is_draw {
                Some(0.0)
            } else {
                Some(win * blocked_value(b.hand.pips(), b.candidates, b.opp_count))
            }
        } else {
            None
        }
    }

    /// Our node: the best of our plays; else a draw (a chance node over the tile drawn) while
    /// the boneyard has tiles; else a pass.
    fn ours(&self, b: &Belief, depth: u32, ply: u32) -> (f64, Option<Move>) {
        if let Some(v) = self.terminal(b, ply) {
            return (v, None);
        }
        if depth == 0 {
            return (estimate(b, true), None);
        }
        let mut moves = Vec::new();
        push_plays(b.hand, b.ends, &mut moves);
        if moves.is_empty() {
            if b.boneyard > 0 {
                return (self.our_draw(b, depth, ply), Some(Move::Draw));
            }
            let v = self.theirs(&b.after(Move::Pass, false), depth - 1, ply + 1);
            return (v, Some(Move::Pass));
        }
        let mut best = (f64::NEG_INFINITY, None);
        for mv in moves {
            let v = self.theirs(&b.after(mv, false), depth - 1, ply + 1);
            if v > best.0 {
                best = (v, Some(mv));
            }
        }
        best
    }

    /// We draw one tile: a tile the opponent cannot hold is in the boneyard for sure, a
    /// candidate only when the opponent does not hold it (probability `1 − n / U`); each is the
    /// one drawn with its chance of being in the boneyard over the boneyard's size. Drawing a
    /// candidate shows the opponent does not hold it, so its hand stays uniform over the rest.
    fn our_draw(&self, b: &Belief, depth: u32, ply: u32) -> f64 {
        let mut total = 0.0;
        for (tile, p) in draw_odds(b) {
            let mut next = *b;
            next.hand.insert(tile);
            next.unknown.remove(tile);
            next.candidates.remove(tile);
            next.boneyard -= 1;
            total += p * self.ours(&next, depth - 1, ply + 1).0;
        }
        total
    }

    /// The opponent's node: it plays the best tile it holds (see [`ExpectimaxPlayer`]); holding
    /// none, it passes, or in the Draw game draws until a tile fits.
    fn theirs(&self, b: &Belief, depth: u32, ply: u32) -> f64 {
        if let Some(v) = self.terminal(b, ply) {
            return v;
        }
        if depth == 0 {
            return estimate(b, false);
        }
        let playable = fitting(b.candidates, b.ends);
        let mut values = Vec::with_capacity(playable.len() as usize);
        for tile in playable {
            let mut held = *b;
            held.candidates.remove(tile);
            held.unknown.remove(tile);
            held.opp_count -= 1;
            values.push(self.their_play(&held, tile, depth, ply));
        }
        // Best for the opponent first: it plays the i-th only if it holds none of the better ones.
        values.sort_by(f64::total_cmp);
        let (weights, none) =
            ExpectimaxPlayer::rank_probabilities(b.candidates.len(), playable.len(), b.opp_count);
        let mut total: f64 = weights.iter().zip(&values).map(|(w, v)| w * v).sum();
        if none > 0.0 {
            total += none * self.their_draw_or_pass(b, depth, ply);
        }
        total
    }

    /// The value after the opponent plays `tile` on the end worst for us; `held` is the belief
    /// with the tile already out of its hand, before the play.
    fn their_play(&self, held: &Belief, tile: Tile, depth: u32, ply: u32) -> f64 {
        let mut plays = Vec::new();
        push_plays(tile.set(), held.ends, &mut plays);
        plays
            .iter()
            .map(|mv| match *mv {
                Move::Play { end, .. } => self.ours(&held.place(tile, end), depth - 1, ply + 1).0,
                _ => unreachable!("push_plays gives plays"),
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// The opponent holds no tile that fits. With an empty boneyard it passes and so lacks both
    /// open suits. Otherwise every unknown tile that fits is in the boneyard, and it draws until
    /// the first of them: `(k + 1) / (f + 1)` tiles on average from a boneyard of `k` holding
    /// `f` that fit (taken as that many, rounded, to keep the tree small), then plays the tile
    /// that fits, each of the `f` equally likely. Its hand then holds the tiles it drew that do
    /// not fit, and lacks both suits: it is taken as uniform over the unknown tiles that do not
    /// fit, as its view shows.
    fn their_draw_or_pass(&self, b: &Belief, depth: u32, ply: u32) -> f64 {
        let pass = |b: &Belief| self.ours(&b.after(Move::Pass, true), depth - 1, ply + 1).0;
        if b.boneyard == 0 {
            return pass(b);
        }
        let fits = fitting(b.unknown, b.ends);
        let (k, f) = (b.boneyard, fits.len());
        let rest = Belief { candidates: b.unknown & fits.complement(), ..*b };
        if f == 0 {
            // It draws the whole boneyard, then passes.
            let drawn = Belief { opp_count: b.opp_count + k, boneyard: 0, candidates: b.unknown, ..*b };
            return self.ours(&Belief { passes: b.passes + 1, ..drawn }, depth - 1, ply + 1).0;
        }
        let draws = ((k + 1) as f64 / (f + 1) as f64).round().clamp(1.0, (k - f + 1) as f64) as u32;
        let drawn = Belief { opp_count: b.opp_count + draws - 1, boneyard: k - draws, ..rest };
        let share = 1.0 / f64::from(f);
        fits.iter()
            .map(|tile| {
                let mut held = drawn;
                held.unknown.remove(tile);
                share * self.their_play(&held, tile, depth, ply)
            })
            .sum()
    }
}

/// The unknown tiles we may draw from `b`'s boneyard, each with its probability (see
/// `Search::our_draw`); they sum to 1 when the boneyard has tiles.
fn draw_odds(b: &Belief) -> Vec<(Tile, f64)> {
    let k = f64::from(b.boneyard);
    let u = f64::from(b.candidates.len());
    let in_boneyard_if_candidate = 1.0 - f64::from(b.opp_count) / u.max(1.0);
    b.unknown
        .iter()
        .map(|tile| {
            let p = if b.candidates.contains(tile) { in_boneyard_if_candidate } else { 1.0 };
            (tile, p / k)
        })
        .filter(|&(_, p)| p > 0.0)
        .collect()
}

/// The depth-limit estimate of our expected result, on the same `[−1, 1]` scale as the
/// terminal values (strictly inside it, so a sure result always counts for more).
fn estimate(b: &Belief, our_turn: bool) -> f64 {
    let tempo = if our_turn { TEMPO } else { 0.0 };
    let tiles = f64::from(b.opp_count) - f64::from(b.hand.len()) + tempo;
    let pips = b.expected_opp_pips() - f64::from(b.hand.pips());
    0.9 * (TILE_WEIGHT * tiles + PIP_WEIGHT * pips).tanh()
}

/// Expectimax over the opponent's hidden hand with exact counting, in both variants (issue 6).
///
/// The belief: the opponent's hand is a uniformly random `n`-subset of its candidates `A`
/// ([`PlayerView::opponent_candidates`]: the unknown tiles showing no suit it is known to lack),
/// `U = |A|`, `n` = its hand size. So it holds a given candidate with probability `n / U` (the
/// seed's `p`), and none of `j` given candidates with probability `C(U − j, n) / C(U, n)`.
///
/// - Our nodes (max): one child per (our tile, end it covers). With none: in the Draw game a
///   chance node over the tile drawn (a tile the opponent cannot hold is in the boneyard for
///   sure, a candidate with probability `1 − n / U`), else a pass.
/// - The opponent's nodes: each of the `J` candidates that fit is valued by the end worst for
///   us, and the candidates are ranked from the opponent's best to its worst. The opponent
///   **plays the best tile it holds**, so it plays the `i`-th with the probability that it holds
///   it and none of the `i − 1` before it, `[C(U − i + 1, n) − C(U − i, n)] / C(U, n)`
///   ([`ExpectimaxPlayer::rank_probabilities`]). A played tile leaves `A` and `n` falls by one.
///   It holds none with probability `C(U − J, n) / C(U, n)`: it then passes and lacks both open
///   suits; or, in the Draw game with `k` tiles in the boneyard, every unknown tile that fits
///   (`f` of them) is in the boneyard, and it draws `(k + 1) / (f + 1)` tiles (the mean, rounded)
///   and plays the last, each of the `f` equally likely, keeping the others: its hand is then
///   taken as uniform over the unknown tiles that do not fit, as its view will show.
/// - Values are our expected result in `[−1, 1]` (win 1, draw 0, loss −1): `±(1 − ply/1000)`
///   for an emptied hand; a blocked line (two passes in a row) is 0 when the rules score it as a
///   draw, else counted exactly, over the opponent's possible hands, as how often our pips are
///   lighter or heavier; at the depth limit
///   `0.9 · tanh(0.5 · (tile lead + ½ if we move) + 0.05 · (expected opponent pips − our pips))`.
///
/// The values of all three kinds must share one scale. The first version scored the depth
/// limit in raw tiles and pips (`10 · tile lead + pip lead`, tens) beside ±1000 for a finished
/// game, so any small chance of the game ending inside the horizon outweighed every position
/// at the horizon; in the Block game it played clearly worse against [`Greedy`](super::Greedy)
/// than it does with the values on one scale.
///
/// A single legal move is played without search; ties go to the first best move in legal-move
/// order. The search has no pruning, so its time grows quickly with the depth, and a Draw game,
/// with its chance nodes over the tiles drawn, costs far more than a Block game at the same
/// depth.
///
/// Measured strength and speed, with the commands that reproduce them: `docs/measurements.md`
/// in the repository.
///
/// # Examples
///
/// ```
/// use domino::players::{DominoPlayer, ExpectimaxPlayer};
/// use domino::{Rules, State};
/// let s = State::deal(Rules::block(), 3);
/// let mut p = ExpectimaxPlayer { depth: 4 };
/// let mv = p.choose(&s.view(s.to_move()), s.rules());
/// assert!(s.legal_moves().contains(&mv));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ExpectimaxPlayer {
    /// The search depth in plies (our moves and the opponent's replies).
    pub depth: u32,
}

impl ExpectimaxPlayer {
    /// The opponent's reply distribution at a node where it holds `hand` tiles drawn uniformly
    /// from `candidates` tiles, `playable` of which fit the line: entry `i` of the first value
    /// is the probability that it plays its `i`-th best playable tile (it holds that tile and
    /// none of the better ones), the second value the probability that it holds none and
    /// passes. They sum to 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use domino::players::ExpectimaxPlayer;
    /// // 3 unknown tiles, 2 of them fit, the opponent holds 1: each tile is held with chance ⅓.
    /// let (ranks, pass) = ExpectimaxPlayer::rank_probabilities(3, 2, 1);
    /// assert!((ranks[0] - 1.0 / 3.0).abs() < 1e-12 && (ranks[1] - 1.0 / 3.0).abs() < 1e-12);
    /// assert!((pass - 1.0 / 3.0).abs() < 1e-12);
    /// // Holding 2 of the 3, it has the best fitting tile with chance ⅔, else the second.
    /// let (ranks, pass) = ExpectimaxPlayer::rank_probabilities(3, 2, 2);
    /// assert!((ranks[0] - 2.0 / 3.0).abs() < 1e-12 && (ranks[1] - 1.0 / 3.0).abs() < 1e-12);
    /// assert_eq!(pass, 0.0);
    /// ```
    pub fn rank_probabilities(candidates: u32, playable: u32, hand: u32) -> (Vec<f64>, f64) {
        let mut ranks = Vec::with_capacity(playable as usize);
        let mut before = 1.0;
        for i in 1..=playable {
            let none = none_held(candidates, i, hand);
            ranks.push(before - none);
            before = none;
        }
        (ranks, before)
    }

    /// The value of each legal move of `view` under `rules` to the searcher, our expected
    /// result in `[−1, 1]` at this player's depth, in [`legal_moves`] order.
    ///
    /// # Examples
    ///
    /// ```
    /// use domino::players::{ExpectimaxPlayer, legal_moves};
    /// use domino::{Rules, State};
    /// let s = State::deal(Rules::block(), 3);
    /// let view = s.view(s.to_move());
    /// let values = ExpectimaxPlayer { depth: 2 }.move_values(&view, s.rules());
    /// assert_eq!(values.len(), legal_moves(&view).len());
    /// assert!(values.iter().all(|(_, v)| (-1.0..=1.0).contains(v)));
    /// ```
    pub fn move_values(&self, view: &PlayerView, rules: &Rules) -> Vec<(Move, f64)> {
        let search = Search::new(rules);
        let root = root(view);
        let depth = self.depth.max(1);
        legal_moves(view)
            .into_iter()
            .map(|mv| {
                let v = match mv {
                    Move::Draw => search.ours(&root, depth, 0).0,
                    _ => search.theirs(&root.after(mv, false), depth - 1, 1),
                };
                (mv, v)
            })
            .collect()
    }
}

/// The belief at the root: the opponent's hand uniform over the candidates its view allows.
fn root(view: &PlayerView) -> Belief {
    Belief {
        hand: view.hand(),
        unknown: view.unknown(),
        candidates: view.opponent_candidates(),
        opp_count: view.opponent_hand_len(),
        boneyard: view.boneyard_len() as u32,
        ends: view.ends(),
        passes: 0,
    }
}

impl DominoPlayer for ExpectimaxPlayer {
    fn name(&self) -> String {
        format!("expectimax{}", self.depth)
    }

    fn choose(&mut self, view: &PlayerView, rules: &Rules) -> Move {
        let moves = legal_moves(view);
        if moves.len() == 1 {
            return moves[0];
        }
        let (_, mv) = Search::new(rules).ours(&root(view), self.depth.max(1), 0);
        mv.filter(|m| moves.contains(m)).unwrap_or(moves[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_value_counts_every_hand() {
        // Candidates 0-1, 0-2, 0-3 (1, 2, 3 pips), the opponent holds one; we hold 2 pips:
        // it is heavier once, lighter once, equal once.
        let candidates: TileSet =
            ["0-1", "0-2", "0-3"].iter().map(|t| t.parse::<crate::Tile>().unwrap()).collect();
        assert_eq!(blocked_value(2, candidates, 1), 0.0);
        assert!((blocked_value(1, candidates, 1) - 2.0 / 3.0).abs() < 1e-12);
        // Holding two of them (3, 4 or 5 pips) against our 4: one heavier, one lighter.
        assert_eq!(blocked_value(4, candidates, 2), 0.0);
        assert_eq!(blocked_value(0, candidates, 2), 1.0);
    }

    /// The bug of the first version: the horizon was scored in raw tiles and pips beside ±1000
    /// for a finished game, so a 2-tile lead at the horizon weighed less than a 2% chance of the
    /// game ending. The horizon and the ends must share one scale.
    #[test]
    fn a_lead_at_the_horizon_outweighs_a_small_chance_of_an_ending() {
        let tiles =
            |names: &[&str]| -> TileSet { names.iter().map(|t| t.parse::<crate::Tile>().unwrap()).collect() };
        let unknown = TileSet::ALL.0 & !tiles(&["0-1", "2-3", "6-6"]).0;
        let ahead = Belief {
            hand: tiles(&["0-1", "2-3"]),
            unknown: TileSet(unknown),
            candidates: TileSet(unknown),
            opp_count: 4,
            boneyard: 0,
            ends: Some((6, 6)),
            passes: 0,
        };
        let search = Search { blocked_is_draw: false };
        let lead = estimate(&ahead, false);
        let win = search.terminal(&Belief { hand: TileSet::EMPTY, ..ahead }, 1).unwrap();
        assert!(lead > 0.1 * win, "{lead} vs {win}");
        assert!(lead < win);
        // A lost game is below every horizon value, a won one above.
        let behind = Belief { hand: ahead.hand, opp_count: 1, ..ahead };
        let loss = search.terminal(&Belief { opp_count: 0, ..ahead }, 1).unwrap();
        assert!(loss < estimate(&behind, true) && estimate(&behind, true) < 0.0);
    }

    #[test]
    fn draw_odds_sum_to_one_on_draw_game_views() {
        for seed in 0..20u64 {
            let mut s = crate::State::deal(Rules::draw(), seed);
            let mut greedy = super::super::Greedy;
            while !s.is_terminal() {
                let view = s.view(s.to_move());
                if view.boneyard_len() > 0 {
                    let odds = draw_odds(&root(&view));
                    let total: f64 = odds.iter().map(|(_, p)| p).sum();
                    assert!((total - 1.0).abs() < 1e-9, "seed {seed}: {total}");
                    // The opponent's tiles lie within the unknown tiles we may draw.
                    let unknown: TileSet = odds.iter().map(|(t, _)| *t).collect();
                    assert_eq!(s.boneyard().0 & !unknown.0, 0);
                }
                let mv = DominoPlayer::choose(&mut greedy, &view, s.rules());
                s.play(mv).unwrap();
            }
        }
    }
}
