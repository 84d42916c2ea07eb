//! Playing games between [`Agent`]s: one game ([`play`]), or a match of pairs of games with the
//! seats swapped ([`play_match`]), with the score and its 95 % Wilson interval as data.
//!
//! Chance nodes are resolved by a random generator seeded from the game's seed, so the same
//! seed deals the same chance outcomes and, with seeded agents, plays the same game.
//!
//! # Examples
//!
//! A match on a two-leaf tree where player 0 wins by choosing the second leaf: the alpha-beta
//! agent wins every game it plays as player 0, the random agent about half of its.
//!
//! ```
//! use search_core::agent::{AlphaBetaAgent, RandomAgent};
//! use search_core::arena::{self, Seat};
//! use search_core::tree::{Tree, TreeEval};
//! use search_core::{alphabeta, mcts, NoTable};
//!
//! let mut tree = Tree::new();
//! let leaves = vec![tree.leaf(-1), tree.leaf(1)];
//! let root = tree.max(leaves, 0);
//! let mut a = AlphaBetaAgent::new("alphabeta", TreeEval::<i32>::new(), alphabeta::Config::depth(2), NoTable);
//! let mut b = RandomAgent::new(3);
//! // Player 0 wins at a positive leaf; the tree has only player 0 to move.
//! let result = |t: &Tree, s: &usize| mcts::win_for(if t.value(*s) > 0 { 0 } else { 1 });
//! let m = arena::play_match(&tree, &[root], &mut a, &mut b, 1, None, result);
//! assert_eq!(m.games.len(), 2);
//! assert_eq!(m.games[0].seat_a, Seat(0));
//! assert_eq!(m.games[0].score_a, 1.0); // a chose the winning leaf as player 0
//! ```

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::agent::Agent;
use crate::mcts::Rewards;
use crate::{Game, OutcomeList, Player, ToMove};

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959964;

/// One game played to its end (or to the ply limit).
#[derive(Clone, Debug, PartialEq)]
pub struct Played<S, M> {
    /// Every move and chance outcome, in order, with who made it (`None` for chance).
    pub moves: Vec<(Option<Player>, M)>,
    /// The last state.
    pub last: S,
    /// Whether the game ended (false when the ply limit stopped it).
    pub finished: bool,
}

/// Plays `start` to the end with `agents[p]` moving for player `p`, chance outcomes drawn from
/// `seed`, and at most `max_plies` moves and outcomes when given.
///
/// # Panics
/// If a player to move has no agent, or an agent answers a move that is not legal.
///
/// # Examples
///
/// ```
/// use search_core::agent::{Agent, RandomAgent};
/// use search_core::arena;
/// use search_core::tree::Tree;
///
/// let mut tree = Tree::new();
/// let leaves = vec![tree.leaf(0), tree.leaf(1)];
/// let root = tree.max(leaves, 0);
/// let mut agent = RandomAgent::new(1);
/// let played = arena::play(&tree, &root, &mut [&mut agent as &mut dyn Agent<Tree>], 9, None);
/// assert!(played.finished);
/// assert_eq!(played.moves.len(), 1);
/// ```
pub fn play<G: Game>(
    game: &G,
    start: &G::State,
    agents: &mut [&mut dyn Agent<G>],
    seed: u64,
    max_plies: Option<u32>,
) -> Played<G::State, G::Move> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut state = start.clone();
    let mut moves = Vec::new();
    let mut legal = crate::MoveList::new();
    let mut outcomes = OutcomeList::new();
    loop {
        if max_plies.is_some_and(|max| moves.len() >= max as usize) {
            return Played { moves, last: state, finished: false };
        }
        match game.to_move(&state) {
            ToMove::Terminal => return Played { moves, last: state, finished: true },
            ToMove::Player(p) => {
                let agent = agents
                    .get_mut(usize::from(p))
                    .unwrap_or_else(|| panic!("player {p} is to move but has no agent"));
                let mv = agent.choose(game, &state);
                legal.clear();
                game.moves(&state, &mut legal);
                assert!(legal.contains(&mv), "agent {} answered {mv:?}, not a legal move", agent.name());
                moves.push((Some(p), mv));
                state = game.play(&state, mv);
            }
            ToMove::Chance => {
                outcomes.clear();
                game.outcomes(&state, &mut outcomes);
                let mv = draw(&outcomes, rng.random::<f64>());
                moves.push((None, mv));
                state = game.play(&state, mv);
            }
        }
    }
}

/// The outcome that `u` in `[0, 1)` falls on, the probabilities laid end to end (the last one
/// takes any rounding left over).
fn draw<M: Copy>(outcomes: &OutcomeList<M>, u: f64) -> M {
    let mut acc = 0.0;
    for &(mv, p) in outcomes {
        acc += p;
        if u < acc {
            return mv;
        }
    }
    outcomes.last().expect("a chance node has an outcome").0
}

/// Agent `a`'s seat in one game of a match: the player it moved for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat(pub Player);

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchGame<S, M> {
    /// Which start state of the list it began from.
    pub start: usize,
    /// The seat agent `a` played.
    pub seat_a: Seat,
    /// The seed of its chance outcomes.
    pub seed: u64,
    /// Agent `a`'s result: 1 a win, 0 a loss, ½ a two-player draw (its entry of the rewards).
    pub score_a: f64,
    /// The moves and chance outcomes.
    pub moves: Vec<(Option<Player>, M)>,
    /// The last state (for scores beyond win and loss, such as points).
    pub last: S,
    /// Whether it ended (false when the ply limit stopped it, and then it scores ½).
    pub finished: bool,
}

/// A match between two agents: its games and agent `a`'s score.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult<S, M> {
    /// Agent `a`'s name.
    pub a: String,
    /// Agent `b`'s name.
    pub b: String,
    /// Every game, in the order played.
    pub games: Vec<MatchGame<S, M>>,
}

impl<S, M> MatchResult<S, M> {
    /// Agent `a`'s points: 1 a win, ½ a draw or an unfinished game.
    pub fn points_a(&self) -> f64 {
        self.games.iter().map(|g| g.score_a).sum()
    }

    /// Agent `a`'s share of the points, in `[0, 1]` (½ for an empty match).
    pub fn score_a(&self) -> f64 {
        if self.games.is_empty() { 0.5 } else { self.points_a() / self.games.len() as f64 }
    }

    /// The 95 % Wilson interval of [`MatchResult::score_a`].
    pub fn interval_a(&self) -> (f64, f64) {
        wilson(self.points_a(), self.games.len() as u64)
    }
}

/// A two-player match: from each start state, two games with the same chance seed, agent `a`
/// moving for player 0 in the first and for player 1 in the second (so neither gains from the
/// start or the dealing). The seed of start `k`'s pair is `seed + k`. `result` gives each
/// player's reward at a finished game's last state, 0 to 1 (see [`crate::mcts::win_for`]).
///
/// # Panics
/// As [`play`].
pub fn play_match<G: Game>(
    game: &G,
    starts: &[G::State],
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    seed: u64,
    max_plies: Option<u32>,
    result: impl Fn(&G, &G::State) -> Rewards,
) -> MatchResult<G::State, G::Move> {
    let (name_a, name_b) = (a.name(), b.name());
    let mut games = Vec::with_capacity(starts.len() * 2);
    for (k, start) in starts.iter().enumerate() {
        let game_seed = seed.wrapping_add(k as u64);
        for seat in [0u8, 1] {
            let played = if seat == 0 {
                play(game, start, &mut [&mut *a, &mut *b], game_seed, max_plies)
            } else {
                play(game, start, &mut [&mut *b, &mut *a], game_seed, max_plies)
            };
            let score_a = if played.finished { result(game, &played.last)[usize::from(seat)] } else { 0.5 };
            games.push(MatchGame {
                start: k,
                seat_a: Seat(seat),
                seed: game_seed,
                score_a,
                moves: played.moves,
                last: played.last,
                finished: played.finished,
            });
        }
    }
    MatchResult { a: name_a, b: name_b, games }
}

/// The 95 % Wilson score interval of a success rate with `score` points in `n` trials (a win 1,
/// a draw ½), as fractions in `[0, 1]`. With no trials nothing is known: `(0, 1)`.
///
/// ```
/// let (low, high) = search_core::arena::wilson(21.0, 50);
/// assert!((low - 0.2938).abs() < 1e-3 && (high - 0.5577).abs() < 1e-3);
/// assert_eq!(search_core::arena::wilson(0.0, 0), (0.0, 1.0));
/// ```
pub fn wilson(score: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n_f = n as f64;
    let p = score / n_f;
    let z2 = Z95 * Z95;
    let scale = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / scale;
    let half = Z95 * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / scale;
    // At 0 or n points one end is exactly the boundary; rounding should not move it.
    let low = if score <= 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if score >= n_f { 1.0 } else { (centre + half).min(1.0) };
    (low, high)
}

/// The two-sided exact sign test of a paired comparison: the chance, if each of the
/// `only_a + only_b` pairs that the two sides split were equally likely to go either way, of a
/// split at least as uneven as this one. Two versions of a player measured on the same openings
/// against the same opponent are compared by it, game by game: the games both won or both lost
/// say nothing about which version is stronger, and are left out. With no split pairs it is 1.
///
/// ```
/// use search_core::arena::sign_test;
/// // 16 games won only by one version and 8 only by the other: not a clear difference.
/// assert!((sign_test(16, 8) - 0.1516).abs() < 1e-4);
/// assert_eq!(sign_test(8, 16), sign_test(16, 8));
/// assert!(sign_test(20, 2) < 0.001);
/// assert_eq!(sign_test(0, 0), 1.0);
/// ```
pub fn sign_test(only_a: u64, only_b: u64) -> f64 {
    let n = only_a + only_b;
    let k = only_a.min(only_b);
    // The binomial terms C(n, i) / 2^n in logarithms, so that long runs neither overflow nor
    // underflow to zero before they are added.
    let mut log_term = -(n as f64) * std::f64::consts::LN_2;
    let mut tail = 0.0;
    for i in 0..=k {
        tail += log_term.exp();
        log_term += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    (2.0 * tail).min(1.0)
}
