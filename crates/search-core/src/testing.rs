//! A conformance checker for [`Game`] implementations (feature `testing`): seeded random play
//! that checks, at every state it passes and at every successor of those states, the contract
//! the searches rely on.
//!
//! At every state (the walk's states and each successor they list):
//! - [`Game::to_move`] gives the same answer twice;
//! - a player's state has at least one move and a chance state at least one outcome (a state
//!   where the game is over must be `Terminal`: this catches a full board that is not);
//! - with [`check_hashed`], the state and its clone hash equal, and the state does not share
//!   its hash with a different state met before ([`Rule::HashCollision`]; the checker remembers
//!   up to [`Walk::remember`] states by hash). A correct 64-bit hash can collide too, but the
//!   odds are about n²/2⁶⁵ for n states, below 1 in 30 million for 2²⁰ states: a collision
//!   almost surely means a hash that leaves out part of the state.
//!
//! At every state the walk passes:
//! - [`Game::moves`] lists the same moves in the same order twice, [`Game::successors`] gives
//!   those moves with the states [`Game::play`] gives, no listed move leaves the state as it was
//!   (unless [`Walk::allow_no_op_moves`]), and `play` leaves its input as it was and gives the
//!   same state twice;
//! - a chance state's probabilities are positive and finite and sum to 1 (within 10⁻⁹),
//!   [`Game::outcomes`] lists the same outcomes twice, and [`Game::chance_successors`] gives
//!   them with the states `play` gives;
//! - with [`check_hashed`], the two states two identical `play` calls give hash equal, and
//!   transpositions hash equal: the walk replays its last moves in another order from the
//!   state they started at (the last two swapped, and the first and third of the last three
//!   swapped: `c, b, a` for `a, b, c`, the same player's two moves around the opponent's), and
//!   where every move is legal and the state reached is `==` to the walk's, the hashes must be
//!   equal ([`Rule::HashDependsOnPath`]).
//!
//! A walk starts at each start state in turn and goes on until a terminal state or the ply
//! limit. Most walks follow uniformly random moves and outcomes drawn by their probabilities;
//! every [`Walk::long_every`]-th walk is a *long walk*, which goes as deep as the game allows:
//! it plays only moves and outcomes whose successor is not terminal while there are any, and
//! follows the longest of the random rollouts (of such moves) it tries on the way, so that it
//! reaches the states where the game ends for lack of room. Random Connect Four play nearly
//! always ends in a win long before the board is full; a long walk nearly always fills it.
//! Terminal successors are still checked as successors. The same seed walks the same states.
//!
//! Only [`Game`], [`GameHash`], `PartialEq` and `Debug` are used, so the checker knows nothing
//! of a particular game: a bug it cannot reach by walking (a rule broken only in positions the
//! walks never meet) goes unseen, and more walks reach more.
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
//! let walk = Walk { walks: 20, max_plies: 100, seed: 1, ..Walk::default() };
//! let report = check(&Nim, &[(10, 0)], &walk).unwrap();
//! assert!(report.player_states > 0 && report.terminal_states == 20);
//! assert_eq!(report.long_walks, 10);
//! ```
//!
//! A broken rule comes back as a [`Violation`] whose message names the rule, the walk and ply,
//! and the state (as `Debug` prints it):
//!
//! ```
//! use search_core::testing::{check, Rule, Walk};
//! use search_core::{Game, MoveList, ToMove};
//!
//! /// Nim whose moves list "take 0", which changes nothing.
//! struct Nim;
//! impl Game for Nim {
//!     type State = (u32, u8);
//!     type Move = u32;
//!     fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
//!         if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
//!     }
//!     fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
//!         moves.extend((0..=2).filter(|&take| take <= stones));
//!     }
//!     fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
//!         if take == 0 { (stones, player) } else { (stones - take, 1 - player) }
//!     }
//! }
//!
//! let violation = check(&Nim, &[(10, 0)], &Walk::default()).unwrap_err();
//! assert_eq!(violation.rule, Rule::MoveChangesNothing { mv: "0".to_string() });
//! assert!(violation.to_string().starts_with("walk 0, ply 0: the listed move 0 leaves the state"));
//! ```

use std::collections::HashMap;
use std::fmt::{self, Debug};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Game, GameHash, MoveList, OutcomeList, ToMove};

/// How far to walk, and what to allow.
///
/// Add new settings to a literal with `..Walk::default()`:
/// `Walk { walks: 4, max_plies: 100, seed: 2, ..Walk::default() }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    /// Walks from each start state. Default 20.
    pub walks: usize,
    /// The most plies (moves and chance outcomes) in one walk. Default 500.
    pub max_plies: usize,
    /// The seed of the random choices. Default 0.
    pub seed: u64,
    /// Every `long_every`-th walk from each start (the second, fourth, … with the default 2) is
    /// a long walk, which goes as deep as the game allows and so reaches the states where the
    /// game ends for lack of room (a full board) that random play, which usually ends the game
    /// early, almost never reaches. It plays only moves (and outcomes) whose successor is not
    /// terminal while there are any, choosing them by random rollouts of up to 64 such moves
    /// and keeping the longest (a chance state's outcome, too, is then the rollout's, not drawn
    /// afresh). The other walks pick uniformly (outcomes by their probabilities). `1` makes
    /// every walk long, `0` none. Default 2, which makes the default walk fill a Connect Four
    /// board in its first long walk nearly always.
    ///
    /// In a game where a player can always put off the end (a pass, a repetition), long walks
    /// run to [`Walk::max_plies`].
    pub long_every: usize,
    /// Whether a listed move may leave the state as it was. Off by default: most games' pass
    /// changes at least the player to move, and a move whose `play` changes nothing is usually
    /// an illegal move listed as legal (a full column), reported as
    /// [`Rule::MoveChangesNothing`]. Turn it on for a game whose pass keeps the state (a
    /// one-player game, or a state that does not record whose turn it is).
    pub allow_no_op_moves: bool,
    /// With [`check_hashed`], how many states (walk states and successors) the checker
    /// remembers by hash to find [`Rule::HashCollision`]s; once full, new states are still
    /// compared with the remembered ones but no more are added. Memory grows with it (a state
    /// and a hash each). Default 2²⁰ (1,048,576).
    pub remember: usize,
}

impl Default for Walk {
    fn default() -> Self {
        Walk {
            walks: 20,
            max_plies: 500,
            seed: 0,
            long_every: 2,
            allow_no_op_moves: false,
            remember: 1 << 20,
        }
    }
}

/// What a check visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// States where a player moves, on the walks.
    pub player_states: u64,
    /// Chance states, on the walks.
    pub chance_states: u64,
    /// Terminal states reached (walks that ended before the ply limit).
    pub terminal_states: u64,
    /// Successors checked (every move's and outcome's state at each state of the walks).
    pub successors: u64,
    /// Long walks walked (see [`Walk::long_every`]).
    pub long_walks: u64,
    /// The most plies a walk took to reach a terminal state: in Connect Four 42 is a full board.
    pub longest_game: usize,
    /// States remembered by hash ([`check_hashed`] only; at most [`Walk::remember`]).
    pub remembered: usize,
    /// Transpositions replayed whose state and the walk's were equal, so their hashes were
    /// compared ([`check_hashed`] only).
    pub transpositions: u64,
}

/// A broken rule, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Which rule.
    pub rule: Rule,
    /// The state it was broken at, as `Debug` prints it.
    pub state: String,
    /// The walk (from 0) and the ply of `state` within it (a successor of the walk's state at
    /// ply `n` is at ply `n + 1`).
    pub walk: usize,
    /// See `walk`.
    pub ply: usize,
}

/// The rules [`check`] and [`check_hashed`] check.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    /// `to_move` answered differently for the same state.
    ToMoveNotDeterministic,
    /// A player's state listed no move. A state where the game is over (a full board) must be
    /// `Terminal`; a player who cannot move while the game goes on needs a pass move.
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
    /// A listed move's `play` gave a state `==` to the one it was played at, which usually
    /// means an illegal move listed as legal (see [`Walk::allow_no_op_moves`]). Checked for
    /// players' moves, not chance outcomes.
    MoveChangesNothing {
        /// The move, as `Debug` prints it.
        mv: String,
    },
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
    /// Two states that are not `==` have the same hash: the violation's state and one met
    /// before. A correct 64-bit hash can collide too, but with odds of about n²/2⁶⁵ for n
    /// states (below 1 in 30 million for the 2²⁰ states remembered by default), so a collision
    /// almost surely means the hash leaves out part of the state.
    HashCollision {
        /// The state met before, as `Debug` prints it.
        other: String,
        /// The hash both have.
        hash: u64,
    },
    /// The same moves played in two orders from the violation's state reached equal (`==`)
    /// states with different hashes: a hash that depends on the path (an incremental hash that
    /// is not an XOR of per-feature keys, or a cached field that `==` ignores).
    HashDependsOnPath {
        /// The walk's moves from the violation's state, as `Debug` prints them.
        path: String,
        /// Its hash at the end.
        hash: u64,
        /// The same moves in the other order.
        other_path: String,
        /// The hash at the end of `other_path`.
        other_hash: u64,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rule = match &self.rule {
            Rule::ToMoveNotDeterministic => "to_move answered differently for the same state".to_string(),
            Rule::NoMoves => "a player's state lists no move (a state where the game is over, such as a \
                              full board, must be Terminal; a player who cannot move while the game goes on \
                              needs a pass move)"
                .to_string(),
            Rule::MovesNotDeterministic => "moves listed different moves for the same state".to_string(),
            Rule::SuccessorsDiffer => {
                "successors (or chance_successors) disagrees with moves (or outcomes) and play".to_string()
            }
            Rule::PlayMutatedItsInput => "play changed the state it was given".to_string(),
            Rule::PlayNotDeterministic => {
                "play gave different states for the same state and move".to_string()
            }
            Rule::MoveChangesNothing { mv } => format!(
                "the listed move {mv} leaves the state as it was (an illegal move listed as legal, such as a \
                 full column? a game whose pass keeps the state sets Walk::allow_no_op_moves)"
            ),
            Rule::NoOutcomes => "a chance state lists no outcome".to_string(),
            Rule::BadProbability(p) => {
                format!("an outcome has probability {p}, not a positive finite number")
            }
            Rule::ProbabilitiesSum(sum) => format!("the outcomes' probabilities sum to {sum}, not 1"),
            Rule::OutcomesNotDeterministic => {
                "outcomes listed different outcomes for the same state".to_string()
            }
            Rule::HashDiffers => "equal states hash differently".to_string(),
            Rule::HashCollision { other, hash } => format!(
                "two different states have the same hash {hash:#018x} (does the hash leave out part of the \
                 state? a good 64-bit hash almost never collides): {other}, met before, and this one"
            ),
            Rule::HashDependsOnPath { path, hash, other_path, other_hash } => format!(
                "the hash depends on the order of the moves: from this state, moves {path} reach a state \
                 with hash {hash:#018x} and moves {other_path} reach an equal state with hash \
                 {other_hash:#018x}"
            ),
        };
        write!(f, "walk {}, ply {}: {rule}, at {}", self.walk, self.ply, self.state)
    }
}

impl std::error::Error for Violation {}

/// Checks `game`'s contract by random walks from `starts` (see the [module documentation](self)).
///
/// # Errors
/// The first rule found broken.
pub fn check<G>(game: &G, starts: &[G::State], walk: &Walk) -> Result<Report, Violation>
where
    G: Game,
    G::State: PartialEq + Debug,
{
    walk_all(game, starts, walk, None)
}

/// [`check`], and the hash: equal states hash equal (a state and its clone, the results of two
/// identical `play` calls, transpositions), and different states hash differently.
///
/// # Errors
/// The first rule found broken.
pub fn check_hashed<G>(game: &G, starts: &[G::State], walk: &Walk) -> Result<Report, Violation>
where
    G: GameHash,
    G::State: PartialEq + Debug,
{
    walk_all(game, starts, walk, Some(&|state: &G::State| game.hash(state)))
}

/// The most moves in a long walk's rollout (see [`Checker::plan`]).
const ROLLOUT_PLIES: usize = 64;

/// [`GameHash::hash`], for [`check_hashed`].
type Hasher<'a, S> = &'a dyn Fn(&S) -> u64;

/// Where a walk is: which walk, which ply.
#[derive(Clone, Copy)]
struct At {
    walk: usize,
    ply: usize,
}

impl At {
    fn fail<S: Debug>(self, rule: Rule, state: &S) -> Violation {
        Violation { rule, state: format!("{state:?}"), walk: self.walk, ply: self.ply }
    }

    fn next(self) -> At {
        At { ply: self.ply + 1, ..self }
    }
}

/// The checks' shared state: the game, the settings, the remembered hashes and the report.
struct Checker<'a, G: Game> {
    game: &'a G,
    walk: &'a Walk,
    hash: Option<Hasher<'a, G::State>>,
    seen: HashMap<u64, G::State>,
    report: Report,
    /// A long walk's plan: the moves it will play next, last first. Every move leads to a
    /// state that is not terminal. While it is shorter than half of [`ROLLOUT_PLIES`], at each
    /// player's state the walk plays a random rollout from a random successor that is not
    /// terminal, and adopts it when it goes on longer than the plan (a nested Monte Carlo
    /// search for depth: random play that avoids ending the game still ends it early more often
    /// than not, filling the board in some 1 in 12 Connect Four games; keeping the deepest
    /// rollout seen fills it in nearly every long walk).
    plan: Vec<G::Move>,
}

fn walk_all<G>(
    game: &G,
    starts: &[G::State],
    walk: &Walk,
    hash: Option<Hasher<'_, G::State>>,
) -> Result<Report, Violation>
where
    G: Game,
    G::State: PartialEq + Debug,
{
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(walk.seed);
    let mut checker =
        Checker { game, walk, hash, seen: HashMap::new(), report: Report::default(), plan: Vec::new() };
    for (w, start) in (0..walk.walks).flat_map(|w| starts.iter().map(move |s| (w, s))) {
        let long = walk.long_every > 0 && (w + 1) % walk.long_every == 0;
        checker.report.long_walks += u64::from(long);
        let mut state = start.clone();
        checker.plan.clear();
        // The last (up to) three states of the walk and the moves played at them.
        let mut path: Vec<(G::State, G::Move)> = Vec::with_capacity(4);
        for ply in 0..walk.max_plies {
            let at = At { walk: w, ply };
            let chosen = match checker.node(&state, at)? {
                ToMove::Terminal => {
                    checker.report.terminal_states += 1;
                    checker.report.longest_game = checker.report.longest_game.max(ply);
                    break;
                }
                ToMove::Player(_) => checker.player(&state, at, long, &mut rng)?,
                ToMove::Chance => checker.chance(&state, at, long, &mut rng)?,
            };
            let before = state.clone();
            let next = game.play(&state, chosen);
            if state != before {
                return Err(at.fail(Rule::PlayMutatedItsInput, &before));
            }
            let twice = game.play(&state, chosen);
            if next != twice {
                return Err(at.fail(Rule::PlayNotDeterministic, &state));
            }
            if let Some(hash) = hash
                && hash(&next) != hash(&twice)
            {
                return Err(at.next().fail(Rule::HashDiffers, &next));
            }
            if path.len() == 3 {
                path.remove(0);
            }
            path.push((state, chosen));
            checker.transpositions(&path, &next, at.next())?;
            state = next;
        }
    }
    Ok(checker.report)
}

impl<G> Checker<'_, G>
where
    G: Game,
    G::State: PartialEq + Debug,
{
    /// The checks at every state, the walk's and successors: `to_move`, the hash, and at least
    /// one move or outcome where the game goes on.
    fn node(&mut self, state: &G::State, at: At) -> Result<ToMove, Violation> {
        let kind = self.game.to_move(state);
        if self.game.to_move(state) != kind {
            return Err(at.fail(Rule::ToMoveNotDeterministic, state));
        }
        if let Some(hash) = self.hash {
            let h = hash(state);
            if hash(&state.clone()) != h {
                return Err(at.fail(Rule::HashDiffers, state));
            }
            match self.seen.get(&h) {
                Some(other) if other != state => {
                    return Err(at.fail(Rule::HashCollision { other: format!("{other:?}"), hash: h }, state));
                }
                Some(_) => {}
                None if self.seen.len() < self.walk.remember => {
                    self.seen.insert(h, state.clone());
                    self.report.remembered = self.seen.len();
                }
                None => {}
            }
        }
        match kind {
            ToMove::Player(_) => {
                let mut moves = MoveList::new();
                self.game.moves(state, &mut moves);
                if moves.is_empty() {
                    return Err(at.fail(Rule::NoMoves, state));
                }
            }
            ToMove::Chance => {
                let mut outcomes = OutcomeList::new();
                self.game.outcomes(state, &mut outcomes);
                if outcomes.is_empty() {
                    return Err(at.fail(Rule::NoOutcomes, state));
                }
            }
            ToMove::Terminal => {}
        }
        Ok(kind)
    }

    /// Checks a player's state of the walk and its successors; picks the walk's move.
    fn player(
        &mut self,
        state: &G::State,
        at: At,
        long: bool,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Result<G::Move, Violation> {
        self.report.player_states += 1;
        let (mut moves, mut again) = (MoveList::new(), MoveList::new());
        self.game.moves(state, &mut moves);
        self.game.moves(state, &mut again);
        if moves.is_empty() {
            return Err(at.fail(Rule::NoMoves, state));
        }
        if moves != again {
            return Err(at.fail(Rule::MovesNotDeterministic, state));
        }
        let mut successors = Vec::new();
        self.game.successors(state, |mv, child| successors.push((mv, child)));
        let expected: Vec<(G::Move, G::State)> =
            moves.iter().map(|&mv| (mv, self.game.play(state, mv))).collect();
        if successors != expected {
            return Err(at.fail(Rule::SuccessorsDiffer, state));
        }
        if !self.walk.allow_no_op_moves
            && let Some((mv, _)) = successors.iter().find(|(_, child)| child == state)
        {
            return Err(at.fail(Rule::MoveChangesNothing { mv: format!("{mv:?}") }, state));
        }
        let mut open = Vec::new();
        for (i, (_, child)) in successors.iter().enumerate() {
            self.report.successors += 1;
            if self.node(child, at.next())? != ToMove::Terminal {
                open.push(i);
            }
        }
        if !long || open.is_empty() {
            self.plan.clear();
            return Ok(moves[rng.random_range(0..moves.len())]);
        }
        if self.plan.len() < ROLLOUT_PLIES / 2 {
            let (mv, child) = &successors[open[rng.random_range(0..open.len())]];
            let mut rollout = vec![*mv];
            self.rollout(child, &mut rollout, rng);
            if rollout.len() > self.plan.len() {
                rollout.reverse();
                self.plan = rollout;
            }
        }
        Ok(self.plan.pop().expect("a plan of at least one move"))
    }

    /// Checks a chance state of the walk and its successors; draws the walk's outcome.
    fn chance(
        &mut self,
        state: &G::State,
        at: At,
        long: bool,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Result<G::Move, Violation> {
        self.report.chance_states += 1;
        let (mut outcomes, mut again) = (OutcomeList::new(), OutcomeList::new());
        self.game.outcomes(state, &mut outcomes);
        self.game.outcomes(state, &mut again);
        if outcomes.is_empty() {
            return Err(at.fail(Rule::NoOutcomes, state));
        }
        if let Some(&(_, q)) = outcomes.iter().find(|&&(_, q)| !(q > 0.0 && q.is_finite())) {
            return Err(at.fail(Rule::BadProbability(q), state));
        }
        let sum: f64 = outcomes.iter().map(|&(_, q)| q).sum();
        if (sum - 1.0).abs() > 1e-9 {
            return Err(at.fail(Rule::ProbabilitiesSum(sum), state));
        }
        if outcomes != again {
            return Err(at.fail(Rule::OutcomesNotDeterministic, state));
        }
        let mut successors = Vec::new();
        self.game.chance_successors(state, |mv, q, child| successors.push((mv, q, child)));
        let expected: Vec<(G::Move, f64, G::State)> =
            outcomes.iter().map(|&(mv, q)| (mv, q, self.game.play(state, mv))).collect();
        if successors != expected {
            return Err(at.fail(Rule::SuccessorsDiffer, state));
        }
        let mut open = Vec::new();
        for (i, (_, _, child)) in successors.iter().enumerate() {
            self.report.successors += 1;
            if self.node(child, at.next())? != ToMove::Terminal {
                open.push(i);
            }
        }
        if long && let Some(planned) = self.plan.pop() {
            return Ok(planned);
        }
        let pool: Vec<usize> = if long && !open.is_empty() { open } else { (0..outcomes.len()).collect() };
        let total: f64 = pool.iter().map(|&i| outcomes[i].1).sum();
        let mut x = rng.random_range(0.0..total);
        let mut chosen = outcomes[pool[pool.len() - 1]].0;
        for &i in &pool {
            let (mv, q) = outcomes[i];
            if x < q {
                chosen = mv;
                break;
            }
            x -= q;
        }
        Ok(chosen)
    }

    /// A random continuation of the game after `state` (not terminal) that avoids terminal
    /// states while it can, appended to `moves` until it holds [`ROLLOUT_PLIES`] moves: each
    /// move it adds leads to a state that is not terminal.
    fn rollout(&self, state: &G::State, moves: &mut Vec<G::Move>, rng: &mut Xoshiro256PlusPlus) {
        let mut state = state.clone();
        while moves.len() < ROLLOUT_PLIES {
            let mut listed: OutcomeList<G::Move> = OutcomeList::new();
            match self.game.to_move(&state) {
                ToMove::Terminal => return,
                ToMove::Player(_) => {
                    let mut player_moves = MoveList::new();
                    self.game.moves(&state, &mut player_moves);
                    listed.extend(player_moves.into_iter().map(|mv| (mv, 1.0)));
                }
                ToMove::Chance => self.game.outcomes(&state, &mut listed),
            }
            // Draw by probability (uniformly for a player's moves) until a successor goes on.
            let next = loop {
                let total: f64 = listed.iter().map(|&(_, q)| q).sum();
                if listed.is_empty() || !(total > 0.0 && total.is_finite()) {
                    break None;
                }
                let mut x = rng.random_range(0.0..total);
                let mut i = listed.len() - 1;
                for (j, &(_, q)) in listed.iter().enumerate() {
                    if x < q {
                        i = j;
                        break;
                    }
                    x -= q;
                }
                let (mv, _) = listed.swap_remove(i);
                let child = self.game.play(&state, mv);
                if self.game.to_move(&child) != ToMove::Terminal {
                    break Some((mv, child));
                }
            };
            let Some((mv, child)) = next else { return };
            moves.push(mv);
            state = child;
        }
    }

    /// Whether `mv` is listed at `state` (as a move or an outcome).
    fn is_listed(&self, state: &G::State, mv: G::Move) -> bool {
        match self.game.to_move(state) {
            ToMove::Player(_) => {
                let mut moves = MoveList::new();
                self.game.moves(state, &mut moves);
                moves.contains(&mv)
            }
            ToMove::Chance => {
                let mut outcomes = OutcomeList::new();
                self.game.outcomes(state, &mut outcomes);
                outcomes.iter().any(|&(listed, _)| listed == mv)
            }
            ToMove::Terminal => false,
        }
    }

    /// Replays the walk's last moves in another order from the state they started at: the last
    /// two swapped, and the first and third of the last three. Where each move is listed and the
    /// state reached is `==` to `reached` (the walk's), the hashes must be equal.
    fn transpositions(
        &mut self,
        path: &[(G::State, G::Move)],
        reached: &G::State,
        at: At,
    ) -> Result<(), Violation> {
        let n = path.len();
        if n >= 2 {
            let ((from, a), (_, b)) = (&path[n - 2], &path[n - 1]);
            if a != b {
                self.transposition(from, &[*a, *b], &[*b, *a], reached, At { ply: at.ply - 2, ..at })?;
            }
        }
        if n >= 3 {
            let ((from, a), (_, b), (_, c)) = (&path[n - 3], &path[n - 2], &path[n - 1]);
            if a != c {
                self.transposition(
                    from,
                    &[*a, *b, *c],
                    &[*c, *b, *a],
                    reached,
                    At { ply: at.ply - 3, ..at },
                )?;
            }
        }
        Ok(())
    }

    /// Plays `other` from `from` (at `at`); where each move is listed and the state reached is
    /// `==` to `reached`, which `walked` reached, the two hashes must be equal.
    fn transposition(
        &mut self,
        from: &G::State,
        walked: &[G::Move],
        other: &[G::Move],
        reached: &G::State,
        at: At,
    ) -> Result<(), Violation> {
        let Some(hash) = self.hash else { return Ok(()) };
        let mut state = from.clone();
        for &mv in other {
            if !self.is_listed(&state, mv) {
                return Ok(());
            }
            state = self.game.play(&state, mv);
        }
        if state != *reached {
            return Ok(());
        }
        self.report.transpositions += 1;
        let (h, other_hash) = (hash(reached), hash(&state));
        if h != other_hash {
            let rule = Rule::HashDependsOnPath {
                path: format!("{walked:?}"),
                hash: h,
                other_path: format!("{other:?}"),
                other_hash,
            };
            return Err(at.fail(rule, from));
        }
        Ok(())
    }
}
