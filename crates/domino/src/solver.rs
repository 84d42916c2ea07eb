//! The Block game with both hands known, as a [`search_core::Game`], and an exact solver.
//!
//! A [`Position`] is the few words alpha-beta needs: both hands, the open ends and the side to
//! move. Its turn rule is OpenSpiel's (see [`crate::State`]); passes are implicit, so every
//! move is a play.

use search_core::{Evaluator, Game, GameHash, Horizon, MoveList, NoTable, Player, ToMove, alphabeta};

use crate::rules::{BlockedScoring, Variant};
use crate::state::{Move, State};
use crate::tiles::{SUIT, TileSet};

/// A fully known Block position: both hands, the open ends and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The two hands.
    pub hands: [TileSet; 2],
    /// The open ends, sorted; `None` before the opening.
    pub ends: Option<(u8, u8)>,
    /// The side to move.
    pub to_move: Player,
    /// Whether the game is over (a hand is empty or neither side can move).
    pub over: bool,
}

impl Position {
    /// The position of a Block-variant `state`, or `None` for the Draw variant.
    pub fn from_state(state: &State) -> Option<Position> {
        (state.rules().variant == Variant::Block).then(|| Position {
            hands: [state.hand(0), state.hand(1)],
            ends: state.ends(),
            to_move: state.to_move(),
            over: state.is_terminal(),
        })
    }

    /// The tiles of `hand` that fit the open ends.
    fn playable(&self, hand: TileSet) -> TileSet {
        match self.ends {
            None => hand,
            Some((a, b)) => hand & (SUIT[a as usize] | SUIT[b as usize]),
        }
    }

    /// Returns `[r0, r1]` of a finished position under `scoring` for blocked games.
    pub fn returns(&self, scoring: BlockedScoring) -> [i32; 2] {
        let blocked = !self.hands[0].is_empty() && !self.hands[1].is_empty();
        scoring.returns(self.hands, blocked)
    }
}

/// The perfect-information Block game for `search-core`, scoring blocked games with `blocked`.
///
/// # Examples
///
/// ```
/// use domino::solver::{PerfectBlock, Position};
/// use domino::{Rules, State};
/// use search_core::{Game, MoveList, ToMove};
///
/// let game = PerfectBlock::default();
/// let p = Position::from_state(&State::deal(Rules::block(), 1)).unwrap();
/// assert_eq!(game.to_move(&p), ToMove::Player(0));
/// let mut moves = MoveList::new();
/// game.moves(&p, &mut moves);
/// assert_eq!(moves.len(), 7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerfectBlock {
    /// How a blocked game is scored.
    pub blocked: BlockedScoring,
}

impl Default for PerfectBlock {
    /// OpenSpiel's scoring.
    fn default() -> PerfectBlock {
        PerfectBlock { blocked: BlockedScoring::LoserPips }
    }
}

impl Game for PerfectBlock {
    type State = Position;
    type Move = Move;

    fn to_move(&self, p: &Position) -> ToMove {
        if p.over { ToMove::Terminal } else { ToMove::Player(p.to_move) }
    }

    fn moves(&self, p: &Position, moves: &mut MoveList<Move>) {
        let hand = p.hands[p.to_move as usize];
        let Some((a, b)) = p.ends else {
            moves.extend(hand.iter().map(|tile| Move::Play { tile, end: None }));
            return;
        };
        for tile in p.playable(hand) {
            let (x, y) = (tile.low(), tile.high());
            if x == a || x == b {
                moves.push(Move::Play { tile, end: Some(x) });
            }
            if x != y && (y == a || y == b) {
                moves.push(Move::Play { tile, end: Some(y) });
            }
        }
    }

    fn play(&self, p: &Position, mv: Move) -> Position {
        let Move::Play { tile, end } = mv else {
            panic!("only plays occur in the Block game, not {mv}");
        };
        let mover = p.to_move;
        let opp = 1 - mover;
        let mut next = *p;
        next.hands[mover as usize].remove(tile);
        next.ends = Some(match (p.ends, end) {
            (Some((a, b)), Some(e)) => {
                let kept = if a == e { b } else { a };
                let new = tile.other(e);
                (kept.min(new), kept.max(new))
            }
            _ => (tile.low(), tile.high()),
        });
        if next.hands[mover as usize].is_empty() {
            next.over = true;
        } else if !next.playable(next.hands[opp as usize]).is_empty() {
            next.to_move = opp;
        } else if next.playable(next.hands[mover as usize]).is_empty() {
            next.over = true;
        }
        next
    }

    fn order_moves(&self, _: &Position, moves: &mut [Move]) {
        // Heaviest tile first: shedding pips is usually best.
        moves.sort_by_key(|m| match m {
            Move::Play { tile, .. } => std::cmp::Reverse(tile.pips()),
            _ => std::cmp::Reverse(0),
        });
    }

    fn move_space(&self) -> usize {
        28 * 8
    }

    fn move_index(&self, mv: Move) -> usize {
        match mv {
            Move::Play { tile, end } => tile.id() as usize * 8 + end.map_or(7, usize::from),
            _ => 0,
        }
    }
}

impl GameHash for PerfectBlock {
    fn hash(&self, p: &Position) -> u64 {
        // Hands (56 bits), ends (7 bits) and the side to move (1 bit) determine the position.
        let ends = p.ends.map_or(0x7f, |(a, b)| u64::from(a) * 7 + u64::from(b));
        let packed =
            u64::from(p.hands[0].0) | u64::from(p.hands[1].0) << 28 | ends << 56 | u64::from(p.to_move) << 63;
        // SplitMix64's finaliser spreads the bits over the table index.
        let mut z = packed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// What a solve optimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// The game's returns (points) for the searching player.
    Points,
    /// +1 for a win, 0 for a draw, −1 for a loss.
    WinLoss,
}

impl Objective {
    /// The value of a finished game whose return to the searching player is `points`.
    pub(crate) fn of_return(self, points: i32) -> i32 {
        match self {
            Objective::Points => points,
            Objective::WinLoss => points.signum(),
        }
    }

    /// The least and greatest values: 168 pips is every tile's pips, the most a game can return.
    pub(crate) fn value_bounds(self) -> (i32, i32) {
        match self {
            Objective::Points => (-168, 168),
            Objective::WinLoss => (-1, 1),
        }
    }
}

impl Evaluator<PerfectBlock> for Objective {
    type Value = i32;

    fn evaluate(&self, game: &PerfectBlock, p: &Position, player: Player) -> i32 {
        // Only reached at the horizon, which an exact solve never hits before the game ends.
        self.terminal(game, p, player, 0)
    }

    fn terminal(&self, game: &PerfectBlock, p: &Position, player: Player, _ply: u32) -> i32 {
        self.of_return(p.returns(game.blocked)[player as usize])
    }

    fn bounds(&self) -> Option<(i32, i32)> {
        Some(self.value_bounds())
    }
}

/// Plays in a Block game last at most 28 moves: a horizon that never cuts a game short.
pub const FULL_DEPTH: u32 = 30;

/// The exact value of `p` for the side to move under `objective` and a best move (the first
/// best in heaviest-first order; `None` when the game is over), by alpha-beta without a table.
///
/// # Examples
///
/// ```
/// use domino::solver::{Objective, PerfectBlock, Position, solve};
/// use domino::{Rules, State};
///
/// let s = State::deal(Rules::block(), 11);
/// let p = Position::from_state(&s).unwrap();
/// let (value, best) = solve(&PerfectBlock::default(), &p, Objective::Points);
/// assert!((-69..=69).contains(&value));
/// assert!(s.legal_moves().contains(&best.unwrap()));
/// ```
pub fn solve(game: &PerfectBlock, p: &Position, objective: Objective) -> (i32, Option<Move>) {
    let config = alphabeta::Config::depth(FULL_DEPTH);
    let found = alphabeta::search(game, &objective, p, &config, NoTable);
    (found.value, found.best_move)
}

/// The plain minimax value of `p` for the side to move (the oracle [`solve`] is tested against).
pub fn minimax_value(game: &PerfectBlock, p: &Position, objective: Objective) -> i32 {
    search_core::minimax::search(game, &objective, p, &Horizon::depth(FULL_DEPTH)).value
}
