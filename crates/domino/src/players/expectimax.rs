//! Expectimax over the opponent's hidden hand with exact hypergeometric counting (issue 6).

use search_core::{Evaluator, Game, MoveList, NoTable, OutcomeList, Player, ToMove, alphabeta};

use super::{DominoPlayer, Greedy, fitting, legal_moves, push_plays};
use crate::rules::{Rules, Variant};
use crate::state::Move;
use crate::tiles::{SUIT, TileSet};
use crate::view::PlayerView;

/// The belief state: our hand, the tiles the opponent may hold (the unknown tiles showing no suit
/// it is known to lack), its tile count, the ends, who moves (0 = us, 1 = the opponent), the
/// passes in a row and the plies left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Belief {
    hand: TileSet,
    candidates: TileSet,
    opp_count: u32,
    ends: Option<(u8, u8)>,
    side: Player,
    passes: u8,
    depth_left: u32,
}

impl Belief {
    /// The opponent's expected pips: `n · pips(A) / |A|`, each candidate held with probability
    /// `n / |A|`.
    fn expected_opp_pips(&self) -> f64 {
        let u = self.candidates.len();
        if u == 0 {
            0.0
        } else {
            f64::from(self.opp_count) * f64::from(self.candidates.pips()) / f64::from(u)
        }
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

/// The opponent's replies on `ends` when it holds `n` tiles drawn uniformly from `candidates`,
/// with their probabilities (see [`ExpectimaxPlayer`]).
fn replies(candidates: TileSet, n: u32, ends: Option<(u8, u8)>) -> Vec<(Move, f64)> {
    let playable = fitting(candidates, ends);
    let (u, j) = (candidates.len(), playable.len());
    if j == 0 || n == 0 {
        return vec![(Move::Pass, 1.0)];
    }
    let q = none_held(u, j, n);
    let per_tile = (1.0 - q) / f64::from(j);
    let mut out = Vec::new();
    for tile in playable {
        let mut plays = Vec::new();
        push_plays(tile.set(), ends, &mut plays);
        let p = per_tile / plays.len() as f64;
        out.extend(plays.into_iter().map(|m| (m, p)));
    }
    if q > 0.0 {
        out.push((Move::Pass, q));
    }
    out
}

/// The expectimax search game over [`Belief`]s.
#[derive(Clone, Copy, Debug)]
struct ExpectimaxGame;

impl Game for ExpectimaxGame {
    type State = Belief;
    type Move = Move;

    fn to_move(&self, b: &Belief) -> ToMove {
        if b.hand.is_empty() || b.opp_count == 0 || b.passes >= 2 || b.depth_left == 0 {
            ToMove::Terminal
        } else if b.side == 0 {
            ToMove::Player(0)
        } else {
            ToMove::Chance
        }
    }

    fn moves(&self, b: &Belief, moves: &mut MoveList<Move>) {
        let mut out = Vec::new();
        push_plays(b.hand, b.ends, &mut out);
        if out.is_empty() {
            out.push(Move::Pass);
        }
        moves.extend(out);
    }

    fn outcomes(&self, b: &Belief, outcomes: &mut OutcomeList<Move>) {
        outcomes.extend(replies(b.candidates, b.opp_count, b.ends));
    }

    fn play(&self, b: &Belief, mv: Move) -> Belief {
        let mut next = *b;
        next.depth_left = b.depth_left.saturating_sub(1);
        next.side = 1 - b.side;
        match mv {
            Move::Play { tile, end } => {
                next.passes = 0;
                if b.side == 1 {
                    next.candidates.remove(tile);
                    next.opp_count = b.opp_count.saturating_sub(1);
                } else {
                    next.hand.remove(tile);
                }
                next.ends = Some(match (b.ends, end) {
                    (Some((x, y)), Some(e)) => {
                        let kept = if x == e { y } else { x };
                        let new = tile.other(e);
                        (kept.min(new), kept.max(new))
                    }
                    _ => (tile.low(), tile.high()),
                });
            }
            Move::Draw | Move::Pass => {
                next.passes = b.passes + 1;
                // After a pass the opponent lacks both open suits.
                if let (1, Some((x, y))) = (b.side, b.ends) {
                    next.candidates = b.candidates & (SUIT[x as usize] | SUIT[y as usize]).complement();
                }
            }
        }
        next
    }
}

/// Values from our side: ±(1000 − ply) for a won or lost game, the pip-and-count estimate at the
/// depth limit.
#[derive(Clone, Copy, Debug)]
struct ExpectimaxEval;

impl ExpectimaxEval {
    fn value(b: &Belief, ply: u32) -> f64 {
        let win = 1000.0 - f64::from(ply.min(999));
        let ours = f64::from(b.hand.pips());
        let theirs = b.expected_opp_pips();
        if b.hand.is_empty() {
            win
        } else if b.opp_count == 0 {
            -win
        } else if b.passes >= 2 {
            if ours < theirs {
                win
            } else if ours > theirs {
                -win
            } else {
                0.0
            }
        } else {
            10.0 * (f64::from(b.opp_count) - f64::from(b.hand.len())) + (theirs - ours)
        }
    }
}

impl Evaluator<ExpectimaxGame> for ExpectimaxEval {
    type Value = f64;

    fn evaluate(&self, _: &ExpectimaxGame, b: &Belief, _: Player) -> f64 {
        ExpectimaxEval::value(b, 0)
    }

    fn terminal(&self, _: &ExpectimaxGame, b: &Belief, _: Player, ply: u32) -> f64 {
        ExpectimaxEval::value(b, ply)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-1000.0, 1000.0))
    }
}

/// Expectimax over the opponent's hidden hand with exact counting, for the Block game (issue 6).
///
/// The belief: the opponent's hand is a uniformly random `n`-subset of its candidates `A`
/// ([`PlayerView::opponent_candidates`]: the unknown tiles showing no suit it is known to lack),
/// `U = |A|`, `n` = its hand size. So it holds a given candidate with probability `n / U` (the
/// seed's `p`), and holds none of the `J` candidates that fit an open end with probability
/// `q = C(U − J, n) / C(U, n)`.
///
/// - Our nodes (max): one child per (our tile, end it covers), else a pass.
/// - The opponent's nodes (chance): a pass with probability `q`, after which the opponent lacks
///   both open suits (they leave `A`); otherwise it plays one of its playable tiles, **each held
///   playable tile with equal probability** (the modelling choice), which by symmetry gives every
///   playable candidate probability `(1 − q) / J`, split evenly over the ends it covers. The
///   played tile leaves `A` and `n` falls by one.
/// - Values, from our side: `+(1000 − ply)` when our hand empties, `−(1000 − ply)` when the
///   opponent's does; a blocked line (two passes in a row) is won or lost by comparing our pips
///   with the opponent's **expected** pips `n · pips(A) / U` (0 on equality); at the depth limit
///   `10 · (opponent tiles − our tiles) + (expected opponent pips − our pips)`. The bounds
///   ±1000 enable Star1 pruning at chance nodes.
///
/// In the Draw game it does not search: it plays [`Greedy`]'s move. A single legal move is played
/// without search; ties go to the first best move in legal-move order.
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
    /// The search depth in plies (our moves and the opponent's chance nodes).
    pub depth: u32,
}

impl ExpectimaxPlayer {
    /// The chance node's outcomes for the opponent's reply on `view`'s line: each move with
    /// the probability that the opponent makes it, summing to 1 (a lone pass when it has no
    /// candidate that fits).
    ///
    /// # Examples
    ///
    /// ```
    /// use domino::players::ExpectimaxPlayer;
    /// use domino::{Rules, State};
    /// let mut s = State::deal(Rules::block(), 3);
    /// s.play(s.legal_moves()[0]).unwrap();
    /// let total: f64 = ExpectimaxPlayer::opponent_replies(&s.view(0)).iter().map(|(_, p)| p).sum();
    /// assert!((total - 1.0).abs() < 1e-9);
    /// ```
    pub fn opponent_replies(view: &PlayerView) -> Vec<(Move, f64)> {
        replies(view.opponent_candidates(), view.opponent_hand_len(), view.ends())
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
        if rules.variant == Variant::Draw {
            return Greedy::pick(&moves);
        }
        let depth = self.depth.max(1);
        let root = Belief {
            hand: view.hand(),
            candidates: view.opponent_candidates(),
            opp_count: view.opponent_hand_len(),
            ends: view.ends(),
            side: 0,
            passes: 0,
            depth_left: depth,
        };
        let config = alphabeta::Config::depth(depth + 1);
        let found = alphabeta::search(&ExpectimaxGame, &ExpectimaxEval, &root, &config, NoTable);
        found.best_move.filter(|m| moves.contains(m)).unwrap_or(moves[0])
    }
}
