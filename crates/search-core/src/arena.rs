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
//! use search_core::arena::{self, MatchConfig, Seat};
//! use search_core::tree::{Tree, TreeEval};
//! use search_core::{alphabeta, win_for, NoTable};
//!
//! let mut tree = Tree::new();
//! let leaves = vec![tree.leaf(-1), tree.leaf(1)];
//! let root = tree.max(leaves, 0);
//! let mut a = AlphaBetaAgent::new("alphabeta", TreeEval::<i32>::new(), alphabeta::Config::depth(2), NoTable);
//! let mut b = RandomAgent::new(3);
//! // Player 0 wins at a positive leaf; the tree has only player 0 to move.
//! let result = |t: &Tree, s: &usize| win_for(if t.value(*s) > 0 { 0 } else { 1 });
//! let m = arena::play_match(&tree, &[root], &mut a, &mut b, &MatchConfig::default(), result);
//! assert_eq!(m.games.len(), 2);
//! assert_eq!(m.games[0].seat_a, Seat(0));
//! assert_eq!(m.games[0].score_a, 1.0); // a chose the winning leaf as player 0
//! assert!(m.wins_a() >= 1); // and the second game is the random agent's choice
//! println!("{m}"); // "alphabeta vs random: 2 won, 0 drawn, 0 lost (score 100.0 %, …)" or 1 and 1
//! ```

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use std::fmt;

use crate::agent::Agent;
use crate::{Game, MoveList, OutcomeList, Player, Rewards, ToMove};

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
                let mv = pick_outcome(&outcomes, rng.random::<f64>());
                moves.push((None, mv));
                state = game.play(&state, mv);
            }
        }
    }
}

/// The outcome that `u` in `[0, 1)` falls on, the probabilities laid end to end (the last one
/// takes any rounding left over).
fn pick_outcome<M: Copy>(outcomes: &OutcomeList<M>, u: f64) -> M {
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

/// How a match is played.
///
/// # Examples
///
/// ```
/// use search_core::arena::MatchConfig;
///
/// // Ten random plies before the agents take over, and no game longer than 200 plies.
/// let config = MatchConfig { opening_plies: 10, max_plies: Some(200), ..MatchConfig::default() };
/// assert_eq!(config.seed, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchConfig {
    /// The seed of the chance outcomes and of the random openings: start `k`'s pair of games
    /// uses `seed + k`. Default 0.
    pub seed: u64,
    /// The most plies (moves and chance outcomes, the opening included) in one game; a game
    /// stopped by it counts as a draw. Default `None`: no limit.
    pub max_plies: Option<u32>,
    /// Uniformly random plies played from each start state before the agents take over, the
    /// same for both games of the pair. Two deterministic agents replay the same game from the
    /// same start every time, so a match between them needs either many start states or random
    /// openings. A random ply avoids ending the game when another move is legal, and the
    /// opening stops early where the game ends anyway. Default 0.
    pub opening_plies: u32,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchGame<S, M> {
    /// Which start state of the list it began from.
    pub start: usize,
    /// The seat agent `a` played.
    pub seat_a: Seat,
    /// The seed of its chance outcomes and of its opening.
    pub seed: u64,
    /// Agent `a`'s result: 1 a win, 0 a loss, ½ a two-player draw (its entry of the rewards).
    pub score_a: f64,
    /// The moves and chance outcomes, the random opening's first.
    pub moves: Vec<(Option<Player>, M)>,
    /// How many of `moves` the random opening played (see [`MatchConfig::opening_plies`]).
    pub opening_plies: usize,
    /// The last state (for scores beyond win and loss, such as points).
    pub last: S,
    /// Whether it ended (false when the ply limit stopped it, and then it scores ½).
    pub finished: bool,
}

/// A match between two agents: its games and agent `a`'s score.
///
/// It prints as one line: the names, the games won, drawn and lost by `a`, and `a`'s score
/// with its 95 % interval.
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

    /// Games agent `a` won (scored 1).
    pub fn wins_a(&self) -> usize {
        self.games.iter().filter(|g| g.score_a >= 1.0).count()
    }

    /// Games agent `a` lost (scored 0).
    pub fn losses_a(&self) -> usize {
        self.games.iter().filter(|g| g.score_a <= 0.0).count()
    }

    /// Games neither won nor lost: draws, unfinished games, and shares between 0 and 1.
    pub fn draws(&self) -> usize {
        self.games.len() - self.wins_a() - self.losses_a()
    }
}

/// `a vs b: W won, D drawn, L lost (score 55.0 %, 95 % 40.1–69.0 %)`, from `a`'s side.
impl<S, M> fmt::Display for MatchResult<S, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (low, high) = self.interval_a();
        write!(
            f,
            "{} vs {}: {} won, {} drawn, {} lost (score {:.1} %, 95 % {:.1}–{:.1} %)",
            self.a,
            self.b,
            self.wins_a(),
            self.draws(),
            self.losses_a(),
            100.0 * self.score_a(),
            100.0 * low,
            100.0 * high
        )
    }
}

/// A two-player match: from each start state, two games with the same chance seed and the same
/// random opening, agent `a` moving for player 0 in the first and for player 1 in the second
/// (so neither gains from the start, the opening or the dealing). `result` gives each player's
/// reward at a finished game's last state, 0 to 1 ([`crate::win_for`], [`crate::draw`]).
///
/// Two agents that never draw a random number play the same game every time from the same
/// start: give them many starts, or random openings ([`MatchConfig::opening_plies`]).
///
/// # Panics
/// As [`play`].
///
/// # Examples
///
/// Nim with one pile of 7 stones: each takes 1 to 3, whoever takes the last stone wins. Ten
/// openings of one random ply each; a random agent plays itself.
///
/// ```
/// use search_core::agent::RandomAgent;
/// use search_core::arena::{self, MatchConfig};
/// use search_core::{win_for, Game, MoveList, ToMove};
///
/// struct Nim;
/// impl Game for Nim {
///     type State = (u32, u8);
///     type Move = u32;
///     fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
///         if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
///     }
///     fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
///         moves.extend((1..=3).filter(|&take| take <= stones));
///     }
///     fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
///         (stones - take, 1 - player)
///     }
/// }
///
/// let config = MatchConfig { seed: 7, opening_plies: 1, ..MatchConfig::default() };
/// let starts = vec![(7, 0); 10];
/// let m = arena::play_match(&Nim, &starts, &mut RandomAgent::new(1), &mut RandomAgent::new(2), &config, |_, &(_, p)| win_for(1 - p));
/// assert_eq!(m.games.len(), 20);
/// assert!(m.games.iter().all(|g| g.opening_plies == 1));
/// assert_eq!(m.wins_a() + m.draws() + m.losses_a(), 20);
/// ```
pub fn play_match<G: Game>(
    game: &G,
    starts: &[G::State],
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    config: &MatchConfig,
    result: impl Fn(&G, &G::State) -> Rewards,
) -> MatchResult<G::State, G::Move> {
    let (name_a, name_b) = (a.name(), b.name());
    let mut games = Vec::with_capacity(starts.len() * 2);
    for (k, start) in starts.iter().enumerate() {
        let game_seed = config.seed.wrapping_add(k as u64);
        let (opened, opening) = random_opening(game, start, config.opening_plies, game_seed);
        let max_plies = config.max_plies.map(|max| max.saturating_sub(opening.len() as u32));
        for seat in [0u8, 1] {
            let played = if seat == 0 {
                play(game, &opened, &mut [&mut *a, &mut *b], game_seed, max_plies)
            } else {
                play(game, &opened, &mut [&mut *b, &mut *a], game_seed, max_plies)
            };
            let score_a = if played.finished { result(game, &played.last)[usize::from(seat)] } else { 0.5 };
            let mut moves = opening.clone();
            moves.extend(played.moves);
            games.push(MatchGame {
                start: k,
                seat_a: Seat(seat),
                seed: game_seed,
                score_a,
                moves,
                opening_plies: opening.len(),
                last: played.last,
                finished: played.finished,
            });
        }
    }
    MatchResult { a: name_a, b: name_b, games }
}

/// Moves and chance outcomes in order, with who made each (`None` for chance).
type Plies<M> = Vec<(Option<Player>, M)>;

/// Up to `plies` random plies from `start`, from a generator of its own seeded by `seed`: a
/// player's move uniformly among those that do not end the game (among all when each does), a
/// chance outcome by its probability. It stops early at a terminal state.
fn random_opening<G: Game>(game: &G, start: &G::State, plies: u32, seed: u64) -> (G::State, Plies<G::Move>) {
    // A stream apart from the game's chance outcomes, which the same seed also draws.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x6f70_656e_696e_6773);
    let mut state = start.clone();
    let mut opening = Vec::new();
    let (mut moves, mut outcomes) = (MoveList::new(), OutcomeList::new());
    while opening.len() < plies as usize {
        match game.to_move(&state) {
            ToMove::Terminal => break,
            ToMove::Player(p) => {
                moves.clear();
                game.moves(&state, &mut moves);
                let mut open: MoveList<G::Move> = moves
                    .iter()
                    .copied()
                    .filter(|&mv| game.to_move(&game.play(&state, mv)) != ToMove::Terminal)
                    .collect();
                if open.is_empty() {
                    open = moves.clone();
                }
                let mv = open[rng.random_range(0..open.len())];
                opening.push((Some(p), mv));
                state = game.play(&state, mv);
            }
            ToMove::Chance => {
                outcomes.clear();
                game.outcomes(&state, &mut outcomes);
                let mv = pick_outcome(&outcomes, rng.random::<f64>());
                opening.push((None, mv));
                state = game.play(&state, mv);
            }
        }
    }
    (state, opening)
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
