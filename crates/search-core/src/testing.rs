//! A conformance checker for [`Game`] implementations (feature `testing`): seeded random play
//! that checks, at every state it passes, the contract the searches rely on.
//!
//! At every state:
//! - [`Game::to_move`] gives the same answer twice;
//! - a player's state has at least one move, [`Game::moves`] lists the same moves in the same
//!   order twice, [`Game::successors`] gives those moves with the states [`Game::play`] gives,
//!   and `play` leaves its input as it was and gives the same state twice;
//! - a chance state has at least one outcome, every probability is positive and finite, they sum
//!   to 1 (within 10⁻⁹), [`Game::outcomes`] lists the same outcomes twice, and
//!   [`Game::chance_successors`] gives them with the states `play` gives;
//! - with [`check_hashed`], equal states hash equal: a state and its clone, and the two states
//!   two identical `play` calls give.
//!
//! The walk follows uniformly random moves and outcomes drawn by their probabilities, from each
//! start state in turn, until a terminal state or the ply limit. The same seed walks the same
//! states.
//!
//! # Examples
//!
//! ```
//! use search_core::testing::{check, Walk};
//! use search_core::{Game, MoveList, ToMove};
//!
//! /// Nim with one pile: take 1 or 2 stones.
//! struct Nim;
//! impl Game for Nim {
//!     type State = (u32, u8);
//!     type Move = u32;
//!     fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
//!         if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
//!     }
//!     fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
//!         moves.extend((1..=2).filter(|&take| take <= stones));
//!     }
//!     fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
//!         (stones - take, 1 - player)
//!     }
//! }
//!
//! let report = check(&Nim, &[(10, 0)], &Walk { walks: 20, max_plies: 100, seed: 1 }).unwrap();
//! assert!(report.player_states > 0 && report.terminal_states == 20);
//! ```

use std::fmt::{self, Debug};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Game, GameHash, MoveList, OutcomeList, ToMove};

/// How far to walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    /// Walks from each start state.
    pub walks: usize,
    /// The most plies (moves and chance outcomes) in one walk.
    pub max_plies: usize,
    /// The seed of the random choices.
    pub seed: u64,
}

impl Default for Walk {
    fn default() -> Self {
        Walk { walks: 20, max_plies: 500, seed: 0 }
    }
}

/// What a check visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// States where a player moves.
    pub player_states: u64,
    /// Chance states.
    pub chance_states: u64,
    /// Terminal states reached (walks that ended before the ply limit).
    pub terminal_states: u64,
}

/// A broken rule, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Which rule.
    pub rule: Rule,
    /// The state it was broken at, as `Debug` prints it.
    pub state: String,
    /// The walk (from 0) and the ply within it.
    pub walk: usize,
    /// See `walk`.
    pub ply: usize,
}

/// The rules [`check`] checks.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    /// `to_move` answered differently for the same state.
    ToMoveNotDeterministic,
    /// A player's state listed no move.
    NoMoves,
    /// `moves` listed different moves for the same state.
    MovesNotDeterministic,
    /// `successors` disagreed with `moves` and `play`, or `chance_successors` with `outcomes`
    /// and `play`.
    SuccessorsDiffer,
    /// `play` changed its input state.
    PlayMutatedItsInput,
    /// `play` gave different states for the same state and move.
    PlayNotDeterministic,
    /// A chance state listed no outcome.
    NoOutcomes,
    /// An outcome's probability is not positive and finite.
    BadProbability(f64),
    /// The probabilities do not sum to 1.
    ProbabilitiesSum(f64),
    /// `outcomes` listed different outcomes for the same state.
    OutcomesNotDeterministic,
    /// Equal states hashed differently.
    HashDiffers,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rule = match &self.rule {
            Rule::ToMoveNotDeterministic => "to_move answered differently for the same state".to_string(),
            Rule::NoMoves => "a player's state lists no move (a player who cannot move must be Terminal, or have a pass move)".to_string(),
            Rule::MovesNotDeterministic => "moves listed different moves for the same state".to_string(),
            Rule::SuccessorsDiffer => {
                "successors (or chance_successors) disagrees with moves (or outcomes) and play".to_string()
            }
            Rule::PlayMutatedItsInput => "play changed the state it was given".to_string(),
            Rule::PlayNotDeterministic => "play gave different states for the same state and move".to_string(),
            Rule::NoOutcomes => "a chance state lists no outcome".to_string(),
            Rule::BadProbability(p) => format!("an outcome has probability {p}, not a positive finite number"),
            Rule::ProbabilitiesSum(sum) => format!("the outcomes' probabilities sum to {sum}, not 1"),
            Rule::OutcomesNotDeterministic => "outcomes listed different outcomes for the same state".to_string(),
            Rule::HashDiffers => "equal states hash differently".to_string(),
        };
        write!(f, "walk {}, ply {}: {rule}, at {}", self.walk, self.ply, self.state)
    }
}

impl std::error::Error for Violation {}

/// Checks `game`'s contract by random walks from `starts` (see the [module documentation](self)).
pub fn check<G>(game: &G, starts: &[G::State], walk: &Walk) -> Result<Report, Violation>
where
    G: Game,
    G::State: PartialEq + Debug,
{
    walk_all(game, starts, walk, |_, _| true)
}

/// [`check`], and equal states hash equal.
pub fn check_hashed<G>(game: &G, starts: &[G::State], walk: &Walk) -> Result<Report, Violation>
where
    G: GameHash,
    G::State: PartialEq + Debug,
{
    walk_all(game, starts, walk, |a, b| game.hash(a) == game.hash(b))
}

fn walk_all<G>(
    game: &G,
    starts: &[G::State],
    walk: &Walk,
    same_hash: impl Fn(&G::State, &G::State) -> bool,
) -> Result<Report, Violation>
where
    G: Game,
    G::State: PartialEq + Debug,
{
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(walk.seed);
    let mut report = Report::default();
    for (w, start) in (0..walk.walks).flat_map(|w| starts.iter().map(move |s| (w, s))) {
        let mut state = start.clone();
        for ply in 0..walk.max_plies {
            let fail =
                |rule: Rule, state: &G::State| Violation { rule, state: format!("{state:?}"), walk: w, ply };
            let kind = game.to_move(&state);
            if game.to_move(&state) != kind {
                return Err(fail(Rule::ToMoveNotDeterministic, &state));
            }
            if !same_hash(&state, &state.clone()) {
                return Err(fail(Rule::HashDiffers, &state));
            }
            let chosen = match kind {
                ToMove::Terminal => {
                    report.terminal_states += 1;
                    break;
                }
                ToMove::Player(_) => {
                    report.player_states += 1;
                    let (mut moves, mut again) = (MoveList::new(), MoveList::new());
                    game.moves(&state, &mut moves);
                    game.moves(&state, &mut again);
                    if moves.is_empty() {
                        return Err(fail(Rule::NoMoves, &state));
                    }
                    if moves != again {
                        return Err(fail(Rule::MovesNotDeterministic, &state));
                    }
                    let mut successors = Vec::new();
                    game.successors(&state, |mv, child| successors.push((mv, child)));
                    let expected: Vec<(G::Move, G::State)> =
                        moves.iter().map(|&mv| (mv, game.play(&state, mv))).collect();
                    if successors != expected {
                        return Err(fail(Rule::SuccessorsDiffer, &state));
                    }
                    moves[rng.random_range(0..moves.len())]
                }
                ToMove::Chance => {
                    report.chance_states += 1;
                    let (mut outcomes, mut again) = (OutcomeList::new(), OutcomeList::new());
                    game.outcomes(&state, &mut outcomes);
                    game.outcomes(&state, &mut again);
                    if outcomes.is_empty() {
                        return Err(fail(Rule::NoOutcomes, &state));
                    }
                    if let Some(&(_, q)) = outcomes.iter().find(|&&(_, q)| !(q > 0.0 && q.is_finite())) {
                        return Err(fail(Rule::BadProbability(q), &state));
                    }
                    let sum: f64 = outcomes.iter().map(|&(_, q)| q).sum();
                    if (sum - 1.0).abs() > 1e-9 {
                        return Err(fail(Rule::ProbabilitiesSum(sum), &state));
                    }
                    if outcomes != again {
                        return Err(fail(Rule::OutcomesNotDeterministic, &state));
                    }
                    let mut successors = Vec::new();
                    game.chance_successors(&state, |mv, q, child| successors.push((mv, q, child)));
                    let expected: Vec<(G::Move, f64, G::State)> =
                        outcomes.iter().map(|&(mv, q)| (mv, q, game.play(&state, mv))).collect();
                    if successors != expected {
                        return Err(fail(Rule::SuccessorsDiffer, &state));
                    }
                    let mut x = rng.random_range(0.0..sum);
                    let mut chosen = outcomes[outcomes.len() - 1].0;
                    for &(mv, q) in &outcomes {
                        if x < q {
                            chosen = mv;
                            break;
                        }
                        x -= q;
                    }
                    chosen
                }
            };
            let before = state.clone();
            let next = game.play(&state, chosen);
            if state != before {
                return Err(fail(Rule::PlayMutatedItsInput, &before));
            }
            let twice = game.play(&state, chosen);
            if next != twice {
                return Err(fail(Rule::PlayNotDeterministic, &state));
            }
            if !same_hash(&next, &twice) {
                return Err(fail(Rule::HashDiffers, &next));
            }
            state = next;
        }
    }
    Ok(report)
}
