//! The seed player (TumbaFichas as its document describes it), on `search-core`.

use search_core::{Evaluator, Game, MoveList, NoTable, OutcomeList, Player, ToMove, alphabeta};

use super::{DominoPlayer, legal_moves, push_plays};
use crate::rules::{Rules, Variant};
use crate::state::Move;
use crate::tiles::TileSet;
use crate::view::PlayerView;

/// How the seed's search values the opponent's nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinNode {
    /// Paranoid minimum over every unknown tile the opponent could play (the seed's document).
    Paranoid,
    /// The unweighted average of those children (the seed's final program).
    Average,
}

/// How deep the seed searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthRule {
    /// A fixed number of plies.
    Fixed(u32),
    /// The final program's rule: 7 plies on the opening move, otherwise 24 − unknown tiles.
    TwentyFourMinusUnknown,
}

/// The seed's belief state: our hand, the unknown tiles (the opponent's hand and the stock), the
/// opponent's tile count, the ends, who moves (0 = us, 1 = the opponent), the passes in a row and
/// the plies left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Belief {
    hand: TileSet,
    unknown: TileSet,
    opp_count: u32,
    boneyard: usize,
    ends: Option<(u8, u8)>,
    side: Player,
    passes: u8,
    depth_left: u32,
}

/// The seed's search game over [`Belief`]s.
#[derive(Clone, Copy, Debug)]
struct SeedGame {
    min_node: MinNode,
    draw_variant: bool,
}

impl SeedGame {
    /// The opponent's paranoid replies: every unknown tile on every end it fits, else a pass.
    fn opponent_moves(&self, b: &Belief) -> Vec<Move> {
        let mut out = Vec::new();
        push_plays(b.unknown, b.ends, &mut out);
        if out.is_empty() {
            out.push(Move::Pass);
        }
        out
    }
}

impl Game for SeedGame {
    type State = Belief;
    type Move = Move;

    fn to_move(&self, b: &Belief) -> ToMove {
        if b.hand.is_empty() || b.opp_count == 0 || b.passes >= 2 || b.depth_left == 0 {
            ToMove::Terminal
        } else if b.side == 0 {
            ToMove::Player(0)
        } else {
            match self.min_node {
                MinNode::Paranoid => ToMove::Player(1),
                MinNode::Average => ToMove::Chance,
            }
        }
    }

    fn moves(&self, b: &Belief, moves: &mut MoveList<Move>) {
        if b.side == 1 {
            moves.extend(self.opponent_moves(b));
            return;
        }
        let mut out = Vec::new();
        push_plays(b.hand, b.ends, &mut out);
        if out.is_empty() && self.draw_variant && b.boneyard > 0 {
            // A forced draw: one child per unknown tile that fits, placed at once.
            push_plays(b.unknown, b.ends, &mut out);
        }
        if out.is_empty() {
            out.push(Move::Pass);
        }
        moves.extend(out);
    }

    fn outcomes(&self, b: &Belief, outcomes: &mut OutcomeList<Move>) {
        let replies = self.opponent_moves(b);
        let p = 1.0 / replies.len() as f64;
        outcomes.extend(replies.into_iter().map(|m| (m, p)));
    }

    fn play(&self, b: &Belief, mv: Move) -> Belief {
        let mut next = *b;
        next.depth_left = b.depth_left.saturating_sub(1);
        next.side = 1 - b.side;
        match mv {
            Move::Play { tile, end } => {
                next.passes = 0;
                if b.side == 1 {
                    next.unknown.remove(tile);
                    next.opp_count -= 1;
                } else if b.hand.contains(tile) {
                    next.hand.remove(tile);
                } else {
                    // Drawn and placed at once: our hand size is unchanged.
                    next.unknown.remove(tile);
                    next.boneyard = b.boneyard.saturating_sub(1);
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
            Move::Draw | Move::Pass => next.passes = b.passes + 1,
        }
        next
    }
}

/// The seed's values: ±1000 for an emptied hand, 0 for a blocked line, and the hand-count leaf
/// `10 · (opponent tiles − our tiles)` at the depth limit, always from our side.
#[derive(Clone, Copy, Debug)]
struct SeedEval;

impl Evaluator<SeedGame> for SeedEval {
    type Value = f64;

    fn evaluate(&self, _: &SeedGame, b: &Belief, _: Player) -> f64 {
        if b.hand.is_empty() {
            1000.0
        } else if b.opp_count == 0 {
            -1000.0
        } else if b.passes >= 2 {
            0.0
        } else {
            10.0 * (f64::from(b.opp_count) - f64::from(b.hand.len()))
        }
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-1000.0, 1000.0))
    }
}

/// The seed player TumbaFichas as its document describes it: depth-limited minimax over its own
/// belief state, searched with `search-core`'s alpha-beta.
///
/// - Our nodes: one child per (our tile, end it covers). With no playable tile in the Draw game,
///   one child per unknown tile that fits (drawn and placed at once, our count unchanged); with
///   nothing to draw, a pass.
/// - The opponent's nodes: one child per unknown tile on each end it fits, the opponent's count
///   falling by one ([`MinNode::Paranoid`]: the minimum; [`MinNode::Average`]: the unweighted
///   mean, the final program's "expected value"); with no such tile, a pass.
/// - Values: +1000 when our hand empties, −1000 when the opponent's count reaches 0, 0 after two
///   passes in a row (a blocked line; the seed does not model pips), and `10 · (opponent tiles −
///   our tiles)` at the depth limit.
///
/// A single legal move is played without search. Ties go to the first best move in legal-move
/// order.
///
/// # Examples
///
/// ```
/// use domino::players::{DominoPlayer, MinNode, SeedPlayer};
/// use domino::{Rules, State};
/// let s = State::deal(Rules::draw(), 3);
/// let mut p = SeedPlayer::new(4, MinNode::Paranoid);
/// let mv = p.choose(&s.view(s.to_move()), s.rules());
/// assert!(s.legal_moves().contains(&mv));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SeedPlayer {
    /// The search depth in plies.
    pub depth: DepthRule,
    /// How the opponent's nodes are valued.
    pub min_node: MinNode,
}

impl SeedPlayer {
    /// The seed with a fixed `depth` in plies.
    pub fn new(depth: u32, min_node: MinNode) -> SeedPlayer {
        SeedPlayer { depth: DepthRule::Fixed(depth), min_node }
    }

    /// The plies to search from `view`.
    fn plies(&self, view: &PlayerView) -> u32 {
        match self.depth {
            DepthRule::Fixed(d) => d,
            DepthRule::TwentyFourMinusUnknown if view.ends().is_none() => 7,
            DepthRule::TwentyFourMinusUnknown => 24u32.saturating_sub(view.unknown().len()).max(1),
        }
    }
}

impl DominoPlayer for SeedPlayer {
    fn name(&self) -> String {
        let depth = match self.depth {
            DepthRule::Fixed(d) => d.to_string(),
            DepthRule::TwentyFourMinusUnknown => "24-u".to_string(),
        };
        match self.min_node {
            MinNode::Paranoid => format!("seed{depth}"),
            MinNode::Average => format!("seed{depth}-avg"),
        }
    }

    fn choose(&mut self, view: &PlayerView, rules: &Rules) -> Move {
        let moves = legal_moves(view);
        if moves.len() == 1 {
            return moves[0];
        }
        let depth = self.plies(view);
        let game = SeedGame { min_node: self.min_node, draw_variant: rules.variant == Variant::Draw };
        let root = Belief {
            hand: view.hand(),
            unknown: view.unknown(),
            opp_count: view.opponent_hand_len(),
            boneyard: view.boneyard_len(),
            ends: view.ends(),
            side: 0,
            passes: 0,
            depth_left: depth,
        };
        let config = alphabeta::Config::depth(depth + 1);
        let found = alphabeta::search(&game, &SeedEval, &root, &config, NoTable);
        found.best_move.filter(|m| moves.contains(m)).unwrap_or(moves[0])
    }
}
