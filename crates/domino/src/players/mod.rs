//! Players: the [`DominoPlayer`] trait that sees only a [`PlayerView`], the baselines
//! ([`RandomPlayer`], [`Greedy`]), the perfect-information Monte Carlo player ([`PimcPlayer`]),
//! expectimax over the opponent's hidden hand ([`ExpectimaxPlayer`]), the seed's paranoid minimax
//! ([`SeedPlayer`]), and a cheating reference, [`Omniscient`], that is given the full [`State`]
//! and exists only to measure the others against.
//!
//! A match referee drives every entrant through `search-core`'s one agent trait,
//! [`search_core::agent::Agent`] for [`crate::game::DominoGame`]: each [`DominoPlayer`] is an
//! agent that receives the view of the side to move, and only [`Omniscient`] reads the state.
//!
//! # Choosing a player
//!
//! [`PimcPlayer`] (with the win/loss objective) and [`ExpectimaxPlayer`] are the strongest
//! players that see only their own view: each beats [`Greedy`] and [`SeedPlayer`] in
//! duplicate-deal matches in both variants, and the two are level with each other. [`Greedy`]
//! and [`RandomPlayer`] are baselines; [`Omniscient`] reads both hands, so it is a yardstick,
//! not a fair opponent. [`matches`](mod@crate::matches) plays the duplicate-deal matches that
//! compare two players, with a 95% interval on the score.
//!
//! Measured strength, with the commands that reproduce it: `docs/measurements.md` in the
//! repository.
//!
//! # Examples
//!
//! ```
//! use domino::players::{DominoPlayer, Greedy, RandomPlayer};
//! use domino::{Rules, State};
//!
//! let mut s = State::deal(Rules::block(), 5);
//! let mut players: [Box<dyn DominoPlayer>; 2] = [Box::new(Greedy), Box::new(RandomPlayer::new(1))];
//! while !s.is_terminal() {
//!     let p = s.to_move() as usize;
//!     let mv = players[p].choose(&s.view(s.to_move()), s.rules());
//!     s.play(mv).unwrap();
//! }
//! ```

mod draw_solver;
mod expectimax;
pub(crate) mod pimc;
mod seed;

pub use draw_solver::{DRAW_FULL_DEPTH, DRAW_PIMC_DEPTH, DrawPosition, PerfectDraw};
pub use expectimax::ExpectimaxPlayer;
pub use pimc::PimcPlayer;
pub use seed::{DepthRule, MinNode, SeedPlayer};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::rules::{Rules, Variant};
use crate::solver::{Objective, PerfectBlock, Position, solve};
use crate::state::{Move, State};
use crate::tiles::{SUIT, TileSet};
use crate::view::PlayerView;

/// A domino player that decides from what its seat may see.
pub trait DominoPlayer {
    /// A short label for tables, e.g. `greedy` or `pimc50-wl`.
    fn name(&self) -> String;

    /// The move to play for the side to move of `view` (which is this player's seat); it must be
    /// one of [`legal_moves`]`(view)`.
    fn choose(&mut self, view: &PlayerView, rules: &Rules) -> Move;
}

/// The tiles of `hand` that fit `ends` (all of them before the opening).
pub(crate) fn fitting(hand: TileSet, ends: Option<(u8, u8)>) -> TileSet {
    match ends {
        None => hand,
        Some((a, b)) => hand & (SUIT[a as usize] | SUIT[b as usize]),
    }
}

/// Appends the plays of `hand` on `ends` in the state's order (tile id, then end).
pub(crate) fn push_plays(hand: TileSet, ends: Option<(u8, u8)>, out: &mut Vec<Move>) {
    match ends {
        None => out.extend(hand.iter().map(|tile| Move::Play { tile, end: None })),
        Some((a, b)) => {
            for tile in fitting(hand, ends) {
                let (x, y) = (tile.low(), tile.high());
                if x == a || x == b {
                    out.push(Move::Play { tile, end: Some(x) });
                }
                if x != y && (y == a || y == b) {
                    out.push(Move::Play { tile, end: Some(y) });
                }
            }
        }
    }
}

/// The legal moves of the viewer when it is to move, in the order of [`State::legal_moves`]:
/// its plays, else `draw` while the boneyard has tiles, else `pass`.
///
/// # Examples
///
/// ```
/// use domino::players::legal_moves;
/// use domino::{Rules, State};
/// let s = State::deal(Rules::block(), 9);
/// assert_eq!(legal_moves(&s.view(0)), s.legal_moves());
/// ```
pub fn legal_moves(view: &PlayerView) -> Vec<Move> {
    let mut out = Vec::new();
    push_plays(view.hand(), view.ends(), &mut out);
    if out.is_empty() {
        out.push(if view.boneyard_len() > 0 { Move::Draw } else { Move::Pass });
    }
    out
}

/// Mixes two words into a seed (SplitMix64's finaliser over their combination).
pub(crate) fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_add(0x9e37_79b9_7f4a_7c15).wrapping_mul(0xd6e8_feb8_6659_fd93);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays a uniformly random legal move, from a seeded generator.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: Xoshiro256PlusPlus::seed_from_u64(seed) }
    }
}

impl DominoPlayer for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, view: &PlayerView, _: &Rules) -> Move {
        let moves = legal_moves(view);
        moves[self.rng.random_range(0..moves.len())]
    }
}

/// "Heaviest" (bota gorda): plays the legal tile with the most pips.
///
/// Ties are broken deterministically: among the heaviest plays, the first in legal-move order
/// (lowest tile id, then the lower end covered). Draws and passes are played when forced.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Greedy {
    /// The heaviest play of `moves` (the first on ties), or `moves[0]` when none is a play.
    pub(crate) fn pick(moves: &[Move]) -> Move {
        let weight = |m: &Move| match m {
            Move::Play { tile, .. } => i32::from(tile.pips()),
            _ => -1,
        };
        let mut best = moves[0];
        for m in &moves[1..] {
            if weight(m) > weight(&best) {
                best = *m;
            }
        }
        best
    }
}

impl DominoPlayer for Greedy {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, view: &PlayerView, _: &Rules) -> Move {
        Greedy::pick(&legal_moves(view))
    }
}

/// A **cheat** for measurement only: it reads both hands from the full [`State`] and plays the
/// exact best move of the perfect-information game.
///
/// In the Block game it plays [`solve`]'s move. In the Draw game it knows both hands and the
/// boneyard's tiles but not their order (the state does not show it): it sums exact values over
/// `orders` uniformly shuffled boneyard orders ([`PerfectDraw`], to [`DRAW_PIMC_DEPTH`] moves), seeded from `seed` and the
/// decision count.
///
/// It is not a [`DominoPlayer`]; it plays only as an agent of [`crate::game::DominoGame`] or
/// [`Omniscient::choose_seeing_everything`].
///
/// # Examples
///
/// ```
/// use domino::players::Omniscient;
/// use domino::solver::Objective;
/// use domino::{Rules, State};
/// let s = State::deal(Rules::block(), 2);
/// let mv = Omniscient::new(Objective::WinLoss).choose_seeing_everything(&s);
/// assert!(s.legal_moves().contains(&mv));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Omniscient {
    /// What the solve optimises.
    pub objective: Objective,
    /// Boneyard orders per decision in the Draw game.
    pub orders: usize,
    /// Seed of the boneyard orders.
    pub seed: u64,
    decisions: u64,
}

impl Omniscient {
    /// The cheat optimising `objective`, with 16 boneyard orders and seed 0.
    pub fn new(objective: Objective) -> Omniscient {
        Omniscient { objective, orders: 16, seed: 0, decisions: 0 }
    }

    /// The move for the side to move of `state`, seeing the opponent's hand.
    pub fn choose_seeing_everything(&mut self, state: &State) -> Move {
        let moves = state.legal_moves();
        if moves.len() == 1 {
            return moves[0];
        }
        if state.rules().variant == Variant::Draw {
            let decision = self.decisions;
            self.decisions += 1;
            let me = state.to_move();
            let worlds: Vec<pimc::World> = (0..self.orders as u64)
                .map(|i| {
                    let mut stock: Vec<_> = state.boneyard().iter().collect();
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(mix(self.seed, decision), i));
                    pimc::shuffle(&mut stock, &mut rng);
                    pimc::World { opponent: state.hand(1 - me), stock }
                })
                .collect();
            let view = state.view(me);
            let totals = pimc::world_totals(
                &view,
                state.rules(),
                &worlds,
                &moves,
                self.objective,
                DRAW_PIMC_DEPTH,
                None,
            );
            return pimc::best_total(&totals);
        }
        let game = PerfectBlock { blocked: state.rules().blocked };
        let p = Position::from_state(state).expect("a Block state");
        solve(&game, &p, self.objective).1.unwrap_or(moves[0])
    }
}
