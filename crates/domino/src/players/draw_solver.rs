//! The Draw game with both hands and the boneyard order known, as a [`search_core::Game`]: the
//! inner loop of PIMC in the Draw game.

use search_core::{Evaluator, Game, MoveList, Player, ToMove};

use super::push_plays;
use crate::rules::BlockedScoring;
use crate::solver::Objective;
use crate::state::Move;
use crate::tiles::{Tile, TileSet};

/// A fully known Draw-game position: both hands, the boneyard in drawing order, the ends, the
/// side to move and the passes in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawPosition {
    /// The two hands.
    pub hands: [TileSet; 2],
    /// The boneyard; `stock[stock_len - 1]` is drawn next.
    pub stock: [Tile; 28],
    /// Tiles left in the boneyard.
    pub stock_len: u8,
    /// The open ends, sorted; `None` before the opening.
    pub ends: Option<(u8, u8)>,
    /// The side to move.
    pub to_move: Player,
    /// Passes in a row (two end the game).
    pub passes: u8,
}

impl DrawPosition {
    /// A position from the hands, the boneyard with the next tile drawn first, the ends and the
    /// side to move.
    pub fn new(
        hands: [TileSet; 2],
        boneyard: &[Tile],
        ends: Option<(u8, u8)>,
        to_move: Player,
    ) -> DrawPosition {
        let mut stock = [Tile::new(0, 0); 28];
        for (slot, t) in stock.iter_mut().zip(boneyard.iter().rev()) {
            *slot = *t;
        }
        DrawPosition { hands, stock, stock_len: boneyard.len() as u8, ends, to_move, passes: 0 }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.hands[0].is_empty() || self.hands[1].is_empty() || self.passes >= 2
    }

    /// Returns `[r0, r1]` of a finished position, as [`crate::State::returns`] scores them.
    pub fn returns(&self, blocked: BlockedScoring) -> [i32; 2] {
        let was_blocked = !self.hands[0].is_empty() && !self.hands[1].is_empty();
        blocked.returns(self.hands, was_blocked)
    }
}

/// The perfect-information Draw game (draw one tile at a time until able to play, pass only with
/// an empty boneyard, two passes block the game), scoring blocked games with `blocked`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerfectDraw {
    /// How a blocked game is scored.
    pub blocked: BlockedScoring,
}

impl Game for PerfectDraw {
    type State = DrawPosition;
    type Move = Move;

    fn to_move(&self, p: &DrawPosition) -> ToMove {
        if p.is_over() { ToMove::Terminal } else { ToMove::Player(p.to_move) }
    }

    fn moves(&self, p: &DrawPosition, moves: &mut MoveList<Move>) {
        let mut out = Vec::new();
        push_plays(p.hands[p.to_move as usize], p.ends, &mut out);
        if out.is_empty() {
            out.push(if p.stock_len > 0 { Move::Draw } else { Move::Pass });
        }
        moves.extend(out);
    }

    fn play(&self, p: &DrawPosition, mv: Move) -> DrawPosition {
        let mut next = *p;
        let me = p.to_move as usize;
        match mv {
            Move::Play { tile, end } => {
                next.hands[me].remove(tile);
                next.passes = 0;
                next.ends = Some(match (p.ends, end) {
                    (Some((a, b)), Some(e)) => {
                        let kept = if a == e { b } else { a };
                        let new = tile.other(e);
                        (kept.min(new), kept.max(new))
                    }
                    _ => (tile.low(), tile.high()),
                });
                next.to_move = 1 - p.to_move;
            }
            Move::Draw => {
                next.stock_len -= 1;
                next.hands[me].insert(p.stock[next.stock_len as usize]);
            }
            Move::Pass => {
                next.passes += 1;
                next.to_move = 1 - p.to_move;
            }
        }
        next
    }

    fn order_moves(&self, _: &DrawPosition, moves: &mut [Move]) {
        moves.sort_by_key(|m| match m {
            Move::Play { tile, .. } => std::cmp::Reverse(tile.pips()),
            _ => std::cmp::Reverse(0),
        });
    }
}

impl Evaluator<PerfectDraw> for Objective {
    type Value = i32;

    /// At a depth limit: the pip difference (Points) or its sign (WinLoss), as if the game
    /// were blocked with the lighter hand winning the difference.
    fn evaluate(&self, game: &PerfectDraw, p: &DrawPosition, player: Player) -> i32 {
        if p.is_over() {
            return self.terminal(game, p, player, 0);
        }
        let me = p.hands[player as usize].pips() as i32;
        let opp = p.hands[1 - player as usize].pips() as i32;
        self.of_return(opp - me)
    }

    fn terminal(&self, game: &PerfectDraw, p: &DrawPosition, player: Player, _ply: u32) -> i32 {
        self.of_return(p.returns(game.blocked)[player as usize])
    }

    fn bounds(&self) -> Option<(i32, i32)> {
        Some(self.value_bounds())
    }
}

/// A horizon that never cuts a Draw game short: 28 plays, 26 draws and the passes.
pub const DRAW_FULL_DEPTH: u32 = 64;

/// The default horizon of the Draw-game solves inside PIMC (moves, draws included): a full solve
/// from the deal can take a second, so the Draw game is searched to this depth and valued by
/// the pip difference beyond it.
pub const DRAW_PIMC_DEPTH: u32 = 10;

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use search_core::{Horizon, NoTable, alphabeta, minimax};

    use super::*;
    use crate::rules::Rules;
    use crate::state::State;

    #[test]
    fn follows_the_state_and_alphabeta_matches_minimax() {
        for seed in 0..6u64 {
            // A short game (4 tiles each) keeps plain minimax cheap.
            let rules = Rules { hand_size: 4, ..Rules::draw() };
            let mut s = State::deal(rules, seed);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let stock: Vec<Tile> = {
                let mut v: Vec<Tile> = s.boneyard().iter().collect();
                crate::players::pimc::shuffle(&mut v, &mut rng);
                v
            };
            let game = PerfectDraw { blocked: rules.blocked };
            let p = DrawPosition::new([s.hand(0), s.hand(1)], &stock, None, s.to_move());
            let cfg = alphabeta::Config::depth(DRAW_FULL_DEPTH);
            let ab = alphabeta::search(&game, &Objective::Points, &p, &cfg, NoTable).value;
            let mm = minimax::search(&game, &Objective::Points, &p, &Horizon::depth(DRAW_FULL_DEPTH)).value;
            assert_eq!(ab, mm);
            // Playing the first legal move each turn: legal sets agree while no draw happens
            // (the state's own boneyard order differs from ours).
            let mut q = p;
            while !s.is_terminal() {
                let mut moves = MoveList::new();
                game.moves(&q, &mut moves);
                let legal = s.legal_moves();
                if legal.contains(&Move::Draw) {
                    break;
                }
                assert_eq!(moves.to_vec(), legal);
                s.play(legal[0]).unwrap();
                q = game.play(&q, legal[0]);
            }
        }
    }
}
