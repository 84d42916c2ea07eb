//! Monte Carlo tree search: UCT (Kocsis and Szepesvári, 2006) with optional RAVE (Gelly and
//! Silver, 2007), for games of any number of players without chance nodes.
//!
//! Each iteration walks down the tree choosing the child with the best upper confidence bound,
//! adds the children of the node it ends at (once that node has been reached often enough), lets
//! a [`Playout`] policy play the position to the end, and adds the result to every node on the
//! way. A node's statistics are kept for the player who made the move into it, so every player
//! maximises their own share of the result: two-player zero-sum games and n-player games alike.
//!
//! With RAVE ([`Config::rave`]), every node also keeps all-moves-as-first statistics: a move
//! counts as tried whenever the player to move played it at any later point of the iteration.
//! These are worth little each, but there are many of them early on, which is what makes MCTS
//! good at games like Hex where a good cell is good whenever it is played.
//!
//! # Knowledge
//!
//! A game may know that some moves are not worth searching (in Hex: dead, captured and dominated
//! cells, and the cells outside the opponent's threats that must be answered), and may prove who
//! wins without searching (in Hex: a virtual connection). A [`Knowledge`] passed to
//! [`search_with_knowledge`] is asked once about the root before the search, and, with
//! [`Config::knowledge_after`], once about every node the search reaches that often; the moves it
//! drops are never selected again and are left out of the result. Knowledge that costs too much
//! for every node pays at nodes visited often, which is why the threshold is a count of visits,
//! as in MoHex.
//!
//! Knowledge may also replace an analysed node's state by one with the same winner that the
//! playouts judge better ([`Knowledge::equivalent`]; in Hex, the position with its dead and
//! captured cells filled in): the search goes on from it below that node.
//!
//! A proved result ([`Insight::Solved`]) makes the search an MCTS-Solver (Winands, Björnsson
//! and Saito, 2008): the node's iterations score the proved result instead of a playout, and
//! proofs are backed up: a node where the player to move has a move proved to win is a win for
//! that player, and a node whose every move is proved to win for one same other player is won
//! by that player. Selection always takes a proved win and never a proved loss while another
//! move remains; the search stops as soon as the root is proved won, and the result names the
//! proved moves ([`MoveStats::winner`]). Terminal positions whose reward is a clean win count as
//! proved too.
//!
//! # Priors
//!
//! A [`Knowledge`] may also say, when a node gets its children, how promising each move looks
//! ([`Knowledge::priors`]: in Hex, learned local patterns, as in MoHex 2.0). With
//! [`Config::prior_weight`] `w` above zero, selection adds a progressive bias
//! `w · p / √(n + 1)` to a move's value, where `p` is its prior as a share of its siblings' and
//! `n` its visits: the bias steers the first visits and fades as the move's own statistics grow.
//!
//! # Chance nodes
//!
//! Not supported: [`search`] panics when it meets a [`ToMove::Chance`] state, in the tree or in
//! the default playout. For games with chance, search with [`crate::expectimax`], or with
//! [`crate::alphabeta`], which handles chance nodes exactly or with Star1.
//!
//! # Determinism
//!
//! Every random choice comes from one generator seeded with [`Config::seed`], so a search limited
//! by iterations alone gives the same result on every run and machine. A time limit makes the
//! number of iterations, and so the answer, depend on the machine's speed.
//!
//! # Example
//!
//! Nim with one pile: each player takes 1, 2 or 3 stones, and whoever takes the last stone wins.
//!
//! ```
//! use search_core::{Game, MoveList, ToMove};
//! use search_core::mcts::{self, RandomPlayout};
//!
//! struct Nim;
//!
//! impl Game for Nim {
//!     type State = (u32, u8); // (stones left, player to move)
//!     type Move = u32;        // stones taken
//!
//!     fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
//!         if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
//!     }
//!     fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
//!         moves.extend((1..=3).filter(|&take| take <= stones));
//!     }
//!     fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
//!         (stones - take, 1 - player)
//!     }
//! }
//!
//! // At an empty pile the player to move did not take the last stone: the other one won.
//! let mut playout = RandomPlayout::new(|&(_, to_move): &(u32, u8)| mcts::win_for(1 - to_move));
//! let found = mcts::search(&Nim, &(10, 0), &mut playout, &mcts::Config::iterations(2_000));
//! // Taking 2 leaves 8, a multiple of 4: a win. Nim's end states are exact, so the search can
//! // prove it (see "Knowledge" below) and stop before its budget.
//! assert_eq!(found.best_move, Some(2));
//! assert!(found.iterations <= 2_000);
//! assert!(found.value > 0.5);
//! ```

use std::collections::HashMap;
use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Game, MoveList, Player, ToMove};
use crate::limits::{Clock, WallClock};

mod parallel;
pub use parallel::{Worker, search_root_parallel};

/// The random number generator of a search, seeded from [`Config::seed`].
pub type McRng = Xoshiro256PlusPlus;

pub use crate::rewards::{MAX_PLAYERS, Rewards, draw, win_for};

/// A playout policy: plays a position to the end and says who won.
///
/// The state may already be terminal; then the policy only reports its result.
pub trait Playout<G: Game> {
    /// The result of playing `state` to the end. Every move played is appended to `trace` with
    /// the player who played it (RAVE learns from them); the trace already holds the moves from
    /// the root to `state`, so its last entry is the move that led here.
    fn playout(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut McRng,
        trace: &mut Vec<(Player, G::Move)>,
    ) -> Rewards;
}

/// The default policy: uniformly random moves until the game ends, then `result` of the final
/// state.
///
/// # Panics
/// At a chance node.
///
/// # Examples
///
/// ```
/// use rand::SeedableRng;
/// use search_core::mcts::{self, McRng, Playout, RandomPlayout};
/// use search_core::tree::Tree;
///
/// let mut tree = Tree::new();
/// let (a, b) = (tree.leaf(1), tree.leaf(1));
/// let root = tree.max(vec![a, b], 0);
/// // Player 0 wins at positive leaves.
/// let mut playout = RandomPlayout::new(|&leaf: &usize| mcts::win_for(if tree.value(leaf) > 0 { 0 } else { 1 }));
/// let mut trace = Vec::new();
/// let rewards = playout.playout(&tree, &root, &mut McRng::seed_from_u64(1), &mut trace);
/// assert_eq!(rewards, mcts::win_for(0));
/// assert_eq!(trace.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct RandomPlayout<F> {
    result: F,
}

impl<F> RandomPlayout<F> {
    /// A random playout that values terminal states with `result`, a function of the final
    /// state. The bound names the argument as a borrowed state, so a closure needs no
    /// annotation, and a closure of the wrong shape is reported here rather than where the
    /// playout is used.
    ///
    /// ```
    /// use search_core::mcts::RandomPlayout;
    /// use search_core::{win_for, Rewards};
    ///
    /// fn rewards(stones_left_and_mover: &(u32, u8)) -> Rewards {
    ///     win_for(1 - stones_left_and_mover.1)
    /// }
    /// let playout = RandomPlayout::new(|state| rewards(state));
    /// # let _ = playout;
    /// ```
    pub fn new<S>(result: F) -> Self
    where
        F: FnMut(&S) -> Rewards,
    {
        RandomPlayout { result }
    }
}

impl<G: Game, F: FnMut(&G::State) -> Rewards> Playout<G> for RandomPlayout<F> {
    fn playout(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut McRng,
        trace: &mut Vec<(Player, G::Move)>,
    ) -> Rewards {
        let mut state = state.clone();
        let mut moves = MoveList::new();
        loop {
            match game.to_move(&state) {
                ToMove::Terminal => return (self.result)(&state),
                ToMove::Chance => panic!("mcts does not support chance nodes"),
                ToMove::Player(player) => {
                    moves.clear();
                    game.moves(&state, &mut moves);
                    let mv = moves[rng.random_range(0..moves.len())];
                    trace.push((player, mv));
                    state = game.play(&state, mv);
                }
            }
        }
    }
}

/// The settings of one search. At least one of `iterations` and `time` must be set.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use search_core::mcts::Config;
///
/// let config = Config::time(Duration::from_millis(100)).with_rave(1_000.0).with_seed(7);
/// assert_eq!((config.iterations, config.rave, config.seed), (None, Some(1_000.0), 7));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// The UCB1 exploration constant `c` in `value + c·√(ln N / n)`; RAVE needs much less
    /// exploration than plain UCT, since its statistics already spread the visits.
    pub exploration: f64,
    /// The most iterations (playouts).
    pub iterations: Option<u64>,
    /// The most time, as measured by the search's [`Clock`] (checked before every iteration).
    pub time: Option<Duration>,
    /// RAVE's equivalence parameter `k`, if RAVE is on: a move's value mixes its own mean and its
    /// all-moves-as-first mean with weight `β = √(k / (3n + k))` on the latter after `n` visits.
    /// RAVE needs [`Game::move_space`] to be positive; otherwise it stays off. With
    /// [`RaveWeight::Counts`] in [`Config::rave_weight`], `k` is not used.
    pub rave: Option<f64>,
    /// How RAVE's weight on a move's all-moves-as-first mean falls as the move is tried.
    pub rave_weight: RaveWeight,
    /// With RAVE, every new child starts with this many virtual all-moves-as-first visits,
    /// each half a win: an even prior, so that a move's first few all-moves-as-first results
    /// do not decide alone how often it is tried (Gelly and Silver, 2011, give RAVE prior
    /// knowledge this way). 0, the default: none. The virtual visits count in
    /// [`MoveStats::amaf_visits`].
    pub rave_prior: u32,
    /// A node gets children once it has been reached this many times; before that, iterations
    /// that reach it play out from it. 0, the default, expands every node an iteration
    /// reaches, so that each iteration adds a whole line down to the end of the game and
    /// hardly plays out: the tree proves small games quickly, but an iteration costs far more
    /// on long games. 1 is the usual scheme (and the Hex engine's): each iteration adds one
    /// node, the one it reached for the first time, and plays out from it. Higher values save
    /// memory on long searches.
    pub expand_after: u32,
    /// The seed of every random choice.
    pub seed: u64,
    /// With a [`Knowledge`], the visits after which a node's moves are pruned by it (the root's
    /// always are, before the search); `None`: the root only.
    pub knowledge_after: Option<u32>,
    /// The weight `w` of the progressive bias `w · p / √(n + 1)` of [`Knowledge::priors`] (see
    /// the [module docs](self)); `0.0`, the default, asks for no priors.
    pub prior_weight: f64,
    /// With priors on, among the children that have no statistics at all (no visits and no
    /// all-moves-as-first visits), selection tries the one with the highest prior first instead
    /// of the first in move order. Without a [`Config::rave_prior`], every new child of a node
    /// starts without statistics, so the order of these first tries is otherwise the moves'
    /// order, which the priors do not touch (MoHex, in the same case, picks the unvisited child
    /// of highest prior). `false`, the default: move order.
    pub fresh_by_prior: bool,
    /// With RAVE, the exploration term goes on the move's own mean *inside* RAVE's mix,
    /// `β·ã + (1 − β)·(mean + c·√(ln N / n))`, as Fuego's and MoHex's searches add it, so that
    /// it fades while RAVE's weight is high; the moves without own visits get none. `false`, the
    /// default: the term is added to the mixed value.
    pub exploration_in_mean: bool,
    /// With RAVE, one selection step in this many ignores the all-moves-as-first statistics and
    /// scores the children by their own means alone (a child without visits by
    /// [`Config::first_play_urgency`], or tried first without one), as MoHex does one step in
    /// thirty: a move that is good only when played now, whose all-moves-as-first mean is poor,
    /// still gets its visits. The steps are counted over the whole search, so the choice is
    /// deterministic. 0, the default: never.
    pub plain_every: u32,
    /// The value a child without any statistics scores in selection (before the progressive
    /// bias), instead of being tried before every other child. `None`, the default: tried first
    /// (by prior with [`Config::fresh_by_prior`], otherwise in move order).
    pub first_play_urgency: Option<f64>,
    /// With a [`Knowledge`], the visits after which a node gets a proof attempt
    /// ([`Knowledge::prove`], a costlier look than [`Knowledge::analyse`]); a node left open is
    /// asked again after four times as many visits, then sixteen, and so on, so the attempts go
    /// to the nodes the search keeps returning to. The root is never asked (a proved root
    /// would stop the search before it knows which move wins). `None`, the default: no
    /// attempts.
    pub prove_after: Option<u32>,
    /// With priors ([`Config::prior_weight`]), the visits after which a node's children get
    /// their priors again from [`Knowledge::late_priors`], once: a costlier judgement than
    /// [`Knowledge::priors`], spent only on the nodes the search keeps returning to. `None`,
    /// the default: never.
    pub late_priors_after: Option<u32>,
    /// With late priors ([`Config::late_priors_after`]), the visits that each child's value from
    /// [`Knowledge::late_values`] counts for: that many results of that mean are added to the
    /// child's own, once, so that a judgement of the whole position leads the search until
    /// enough real results outweigh it (Gelly and Silver's prior knowledge, 2007, given late).
    /// The virtual results count in the child's visits as reported ([`MoveStats::visits`]).
    /// `0`, the default: values are not asked.
    pub late_value_visits: u32,
    /// Progressive widening by prior: a node's children are ranked by their priors, and only
    /// the first few of them may be selected, more as the node's visits grow ([`Widening`]),
    /// so the visits go to the moves the priors favour until the node has enough visits to
    /// look further. MoHex's trees look like this: after `f6` on 11×11 its root tried six of
    /// its moves in 7,500 playouts. Only with priors ([`Config::prior_weight`]); `None`, the
    /// default: every child may be selected.
    pub widening: Option<Widening>,
}

/// How many of a node's children [`Config::widening`] lets selection consider: `start` at
/// first, one more once the node has `visits` visits, and one more each time its visits
/// grow by `factor` again (Chaslot et al.'s progressive unpruning): with `start` 5, `visits`
/// 40 and `factor` 1.4, the sixth child joins at 40 visits, the seventh at 56, the tenth at
/// about 154, the twentieth at about 4,400.
///
/// ```
/// use search_core::mcts::Widening;
///
/// let widening = Widening { start: 5, visits: 40.0, factor: 1.4 };
/// assert_eq!(widening.children(0), 5);
/// assert_eq!(widening.children(39), 5);
/// assert_eq!(widening.children(40), 6);
/// assert_eq!(widening.children(56), 7);
/// assert_eq!(widening.children(4_400), 19);
/// assert_eq!(widening.children(4_500), 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    /// The children considered from the first visit (at least one).
    pub start: u32,
    /// The visits after which one more child joins.
    pub visits: f64,
    /// The growth of the visits between two more children (above 1).
    pub factor: f64,
}

impl Widening {
    /// How many children (by prior rank) a node visited `visits` times lets selection consider.
    pub fn children(&self, visits: u32) -> u32 {
        let start = self.start.max(1);
        let n = f64::from(visits);
        // Settings out of range (no threshold above 0, no growth above 1) widen no further.
        if self.visits.is_nan() || self.visits <= 0.0 || n < self.visits {
            return start;
        }
        if self.factor.is_nan() || self.factor <= 1.0 {
            return start.saturating_add(1);
        }
        // Rounded a little up so that the thresholds themselves count (40 · 1.4 is 55.99...).
        let steps = ((n / self.visits).ln() / self.factor.ln() + 1e-9).floor();
        start.saturating_add(1).saturating_add(steps.min(f64::from(u32::MAX / 2)) as u32)
    }
}

impl Config {
    /// Plain UCT with `iterations` iterations.
    pub fn iterations(iterations: u64) -> Self {
        Config { iterations: Some(iterations), ..Config::default() }
    }

    /// Plain UCT for `time`.
    pub fn time(time: Duration) -> Self {
        Config { iterations: None, time: Some(time), ..Config::default() }
    }

    /// The same settings with RAVE's equivalence parameter `k`.
    pub fn with_rave(self, k: f64) -> Self {
        Config { rave: Some(k), ..self }
    }

    /// The same settings with another seed.
    pub fn with_seed(self, seed: u64) -> Self {
        Config { seed, ..self }
    }
}

impl Default for Config {
    /// 1,000 iterations of plain UCT with `c = 1.0`, expanding every node an iteration reaches.
    fn default() -> Self {
        Config {
            exploration: 1.0,
            iterations: Some(1_000),
            time: None,
            rave: None,
            rave_weight: RaveWeight::Equivalence,
            rave_prior: 0,
            expand_after: 0,
            seed: 0,
            knowledge_after: None,
            prior_weight: 0.0,
            fresh_by_prior: false,
            exploration_in_mean: false,
            plain_every: 0,
            first_play_urgency: None,
            prove_after: None,
            late_priors_after: None,
            late_value_visits: 0,
            widening: None,
        }
    }
}

/// How RAVE weighs a move's all-moves-as-first mean `ã` (over `ñ` visits) against its own
/// mean (over `n` visits): the move's value is `β·ã + (1 − β)·mean`.
///
/// # Examples
///
/// ```
/// use search_core::mcts::RaveWeight;
///
/// // With `initial` 2 and `late` 1,000: one own visit against 99 all-moves-as-first ones
/// // still leaves most of the weight on the latter, ten thousand own visits little.
/// let weight = RaveWeight::Counts { initial: 2.0, late: 1_000.0 };
/// assert!(weight.beta(1_000.0, 1, 99) > 0.9);
/// assert!(weight.beta(1_000.0, 10_000, 50_000) < 0.1);
/// // The default depends on the own visits alone: √(k / (3n + k)).
/// assert_eq!(RaveWeight::Equivalence.beta(500.0, 0, 10), 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RaveWeight {
    /// `β = √(k / (3n + k))`, with `k` from [`Config::rave`] (Gelly and Silver's equivalence
    /// parameter, 2007): the default.
    Equivalence,
    /// `β = ñ / (ñ + n·(1/initial + ñ/late))`, which also counts the all-moves-as-first
    /// visits (Silver's minimum-error schedule, as Fuego generalises it): with few own visits
    /// the ratio `ñ/n` weighs up to `initial` times as much as in a plain average, and the
    /// weight fades once `n` nears `late`.
    Counts {
        /// The weight of the all-moves-as-first visits against the own ones, early on.
        initial: f64,
        /// The own visits around which the all-moves-as-first mean stops counting.
        late: f64,
    },
}

impl RaveWeight {
    /// `β` for a move with `visits` own visits and `amaf_visits` all-moves-as-first ones;
    /// `k` is [`Config::rave`]'s equivalence parameter.
    pub fn beta(self, k: f64, visits: u32, amaf_visits: u32) -> f64 {
        match self {
            RaveWeight::Equivalence => rave_beta(k, f64::from(visits)),
            RaveWeight::Counts { initial, late } => counts_beta(initial, late, visits, amaf_visits),
        }
    }
}

/// [`RaveWeight::Counts`]'s `β`.
#[inline]
fn counts_beta(initial: f64, late: f64, visits: u32, amaf_visits: u32) -> f64 {
    let (n, amaf) = (f64::from(visits), f64::from(amaf_visits));
    if amaf == 0.0 { 0.0 } else { amaf / (amaf + n * (1.0 / initial + amaf / late)) }
}

/// What the search learnt about one root move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The move.
    pub mv: M,
    /// Iterations through it.
    pub visits: u32,
    /// Its mean result for the player to move at the root (`0.0` if never visited).
    pub value: f64,
    /// Its all-moves-as-first count (zero without RAVE).
    pub amaf_visits: u32,
    /// Its all-moves-as-first mean for the player to move at the root (`0.0` if none).
    pub amaf_value: f64,
    /// The winner after this move, if a [`Knowledge`] or a terminal state proved it.
    pub winner: Option<Player>,
    /// Its share of the root's priors ([`Knowledge::priors`]; 0 without priors).
    pub prior: f32,
}

/// The answer of a Monte Carlo search, as data: visit statistics per root move, where the
/// depth-first searches' [`crate::SearchResult`] holds a value and a principal variation.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// A root move proved to win, else the most visited root move not proved to lose (the
    /// first in generation order on a tie), else the most visited; `None` at a terminal state.
    pub best_move: Option<M>,
    /// The best move's mean result for the player to move at the root.
    pub value: f64,
    /// Every root move in generation order, less those a [`Knowledge`] pruned.
    pub moves: Vec<MoveStats<M>>,
    /// Iterations run.
    pub iterations: u64,
    /// Tree nodes allocated.
    pub nodes: usize,
    /// Time taken.
    pub elapsed: Duration,
}

/// What a [`Knowledge`] knows about a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Insight<M> {
    /// Nothing: every move is searched.
    Nothing,
    /// Only these moves are worth searching.
    Moves(Vec<M>),
    /// `winner` wins from this state with perfect play; `moves` are the ones still worth
    /// searching (a winning move when `winner` is to move; the moves that resist longest
    /// otherwise), empty for all.
    Solved {
        /// The player who wins.
        winner: Player,
        /// The moves kept, or empty for all.
        moves: Vec<M>,
    },
}

/// Knowledge of which moves of a state are worth searching, and of who wins it (see the
/// [module docs](self)).
///
/// # Examples
///
/// A knowledge that keeps only even moves of the Nim game of the [module docs](self):
///
/// ```
/// use search_core::Game;
/// use search_core::mcts::{Insight, Knowledge};
///
/// struct EvenOnly;
///
/// impl<G: Game<Move = u32>> Knowledge<G> for EvenOnly {
///     fn analyse(&mut self, _: &G, _: &G::State, moves: &[u32]) -> Insight<u32> {
///         Insight::Moves(moves.iter().copied().filter(|m| m % 2 == 0).collect())
///     }
/// }
/// ```
pub trait Knowledge<G: Game> {
    /// What is known about `state`, whose moves (as the game generates them) are `moves`. Kept
    /// moves not in `moves` are ignored, and keeping none of `moves` keeps them all (a search
    /// needs a move to answer with). A wrong proof makes the search wrong: prove only what is
    /// certain, and drop only moves that are no better than some kept move (the proofs backed
    /// up count a node lost when every kept move is lost).
    fn analyse(&mut self, game: &G, state: &G::State, moves: &[G::Move]) -> Insight<G::Move>;

    /// How promising each of `moves` looks at `state`, asked once per node when it gets its
    /// children if [`Config::prior_weight`] is above zero: write a weight (any number `>= 0`;
    /// the search divides each by their sum) into `priors[i]` for `moves[i]` and return `true`,
    /// or return `false` (the default) for no priors at this node. `last` is the move that led
    /// to `state` in the tree (`None` at the root of a fresh search): in games where the best
    /// answers lie near the last move, as in Hex and Go, it is what local-response patterns
    /// read.
    ///
    /// # Examples
    ///
    /// A knowledge that likes taking few stones:
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::mcts::{Insight, Knowledge};
    ///
    /// struct Modest;
    ///
    /// impl<G: Game<Move = u32>> Knowledge<G> for Modest {
    ///     fn analyse(&mut self, _: &G, _: &G::State, _: &[u32]) -> Insight<u32> {
    ///         Insight::Nothing
    ///     }
    ///     fn priors(&mut self, _: &G, _: &G::State, _: Option<&u32>, moves: &[u32], priors: &mut [f32]) -> bool {
    ///         for (prior, &take) in priors.iter_mut().zip(moves) {
    ///             *prior = 1.0 / take as f32;
    ///         }
    ///         true
    ///     }
    /// }
    /// ```
    fn priors(
        &mut self,
        game: &G,
        state: &G::State,
        last: Option<&G::Move>,
        moves: &[G::Move],
        priors: &mut [f32],
    ) -> bool {
        let _ = (game, state, last, moves, priors);
        false
    }

    /// Priors for the children of a node the search has reached [`Config::late_priors_after`]
    /// times, asked once per node, in place of those of [`Knowledge::priors`]: room for a
    /// costlier judgement than the search can afford at every new node. `moves` are every
    /// child's, pruned or not; write weights as in [`Knowledge::priors`] and return `true`, or
    /// return `false` (the default) to keep the node's priors.
    ///
    /// # Examples
    ///
    /// A knowledge whose second look prefers taking one stone:
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::mcts::{Insight, Knowledge};
    ///
    /// struct SecondLook;
    ///
    /// impl<G: Game<Move = u32>> Knowledge<G> for SecondLook {
    ///     fn analyse(&mut self, _: &G, _: &G::State, _: &[u32]) -> Insight<u32> {
    ///         Insight::Nothing
    ///     }
    ///     fn late_priors(&mut self, _: &G, _: &G::State, _: Option<&u32>, moves: &[u32], priors: &mut [f32]) -> bool {
    ///         for (prior, &take) in priors.iter_mut().zip(moves) {
    ///             *prior = if take == 1 { 9.0 } else { 1.0 };
    ///         }
    ///         true
    ///     }
    /// }
    /// # struct Pile;
    /// # impl Game for Pile {
    /// #     type State = u32;
    /// #     type Move = u32;
    /// #     fn to_move(&self, &n: &u32) -> search_core::ToMove {
    /// #         if n == 0 { search_core::ToMove::Terminal } else { search_core::ToMove::Player((n % 2) as u8) }
    /// #     }
    /// #     fn moves(&self, &n: &u32, moves: &mut search_core::MoveList<u32>) { moves.extend((1..=n.min(2)).rev()); }
    /// #     fn play(&self, &n: &u32, take: u32) -> u32 { n - take }
    /// # }
    /// let mut priors = [0.0; 2];
    /// assert!(SecondLook.late_priors(&Pile, &5, None, &[2, 1], &mut priors));
    /// assert_eq!(priors, [1.0, 9.0]);
    /// ```
    fn late_priors(
        &mut self,
        game: &G,
        state: &G::State,
        last: Option<&G::Move>,
        moves: &[G::Move],
        priors: &mut [f32],
    ) -> bool {
        let _ = (game, state, last, moves, priors);
        false
    }

    /// Values for the children of a node reached [`Config::late_priors_after`] times, asked right
    /// after [`Knowledge::late_priors`] at the same node when [`Config::late_value_visits`] is
    /// above zero: write into `values[i]` the probability that the player making `moves[i]`
    /// wins after it (in `[0, 1]`) and return `true`, or return `false` (the default) for none.
    /// Each child not yet proved gets [`Config::late_value_visits`] results of that mean.
    ///
    /// # Examples
    ///
    /// A knowledge that judges taking the last stones a sure win:
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::mcts::{Insight, Knowledge};
    ///
    /// struct Judge;
    ///
    /// impl<G: Game<State = u32, Move = u32>> Knowledge<G> for Judge {
    ///     fn analyse(&mut self, _: &G, _: &u32, _: &[u32]) -> Insight<u32> {
    ///         Insight::Nothing
    ///     }
    ///     fn late_values(&mut self, _: &G, &pile: &u32, _: Option<&u32>, moves: &[u32], values: &mut [f32]) -> bool {
    ///         for (value, &take) in values.iter_mut().zip(moves) {
    ///             *value = if take == pile { 1.0 } else { 0.5 };
    ///         }
    ///         true
    ///     }
    /// }
    /// # struct Pile;
    /// # impl Game for Pile {
    /// #     type State = u32;
    /// #     type Move = u32;
    /// #     fn to_move(&self, &n: &u32) -> search_core::ToMove {
    /// #         if n == 0 { search_core::ToMove::Terminal } else { search_core::ToMove::Player((n % 2) as u8) }
    /// #     }
    /// #     fn moves(&self, &n: &u32, moves: &mut search_core::MoveList<u32>) { moves.extend((1..=n.min(2)).rev()); }
    /// #     fn play(&self, &n: &u32, take: u32) -> u32 { n - take }
    /// # }
    /// let mut values = [0.0; 2];
    /// assert!(Judge.late_values(&Pile, &2, None, &[2, 1], &mut values));
    /// assert_eq!(values, [1.0, 0.5]);
    /// ```
    fn late_values(
        &mut self,
        game: &G,
        state: &G::State,
        last: Option<&G::Move>,
        moves: &[G::Move],
        values: &mut [f32],
    ) -> bool {
        let _ = (game, state, last, moves, values);
        false
    }

    /// Whether an analysis can change the priors below the analysed node: `true` has the
    /// search ask [`Knowledge::priors`] again, right after each [`Knowledge::analyse`], for
    /// every child of the analysed node that already has children (in Hex: the answers to an
    /// intrusion into a virtual connection, which the analysis of the parent finds, raise
    /// the priors of the child's answers). `false` (the default): priors are asked once per
    /// node.
    ///
    /// # Examples
    ///
    /// A knowledge whose analyses teach its priors: each analysed state's moves become
    /// favourites wherever they are played next.
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::mcts::{Insight, Knowledge};
    ///
    /// #[derive(Default)]
    /// struct Learner {
    ///     favourites: Vec<u32>,
    /// }
    ///
    /// impl<G: Game<Move = u32>> Knowledge<G> for Learner {
    ///     fn analyse(&mut self, _: &G, _: &G::State, moves: &[u32]) -> Insight<u32> {
    ///         self.favourites.extend(moves.first());
    ///         Insight::Nothing
    ///     }
    ///     fn priors(&mut self, _: &G, _: &G::State, _: Option<&u32>, moves: &[u32], priors: &mut [f32]) -> bool {
    ///         for (prior, mv) in priors.iter_mut().zip(moves) {
    ///             *prior = if self.favourites.contains(mv) { 4.0 } else { 1.0 };
    ///         }
    ///         true
    ///     }
    ///     fn analysis_changes_priors(&self) -> bool {
    ///         true
    ///     }
    /// }
    /// # struct Pile;
    /// # impl Game for Pile {
    /// #     type State = u32;
    /// #     type Move = u32;
    /// #     fn to_move(&self, &n: &u32) -> search_core::ToMove {
    /// #         if n == 0 { search_core::ToMove::Terminal } else { search_core::ToMove::Player((n % 2) as u8) }
    /// #     }
    /// #     fn moves(&self, &n: &u32, moves: &mut search_core::MoveList<u32>) { moves.extend((1..=n.min(2)).rev()); }
    /// #     fn play(&self, &n: &u32, take: u32) -> u32 { n - take }
    /// # }
    /// assert!(<Learner as Knowledge<Pile>>::analysis_changes_priors(&Learner::default()));
    /// ```
    fn analysis_changes_priors(&self) -> bool {
        false
    }

    /// The moves of `state` that a quick look shows are never better than another of
    /// `moves`, asked once per node when it gets its children, long before the node is
    /// visited often enough for [`Knowledge::analyse`]: set `inferior[i]` (all `false` on
    /// entry) for each such `moves[i]` and return `true`, or return `false` (the default) to
    /// keep every move. The search leaves the inferior moves out of the node's selection, as
    /// if an analysis had dropped them, unless that would leave nothing; a later
    /// [`Knowledge::analyse`] of the node decides afresh. The same rule as there holds: drop
    /// only moves that some kept move is at least as good as.
    ///
    /// # Examples
    ///
    /// A knowledge that drops taking one stone wherever taking two is possible:
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::mcts::{Insight, Knowledge};
    ///
    /// struct Greedy;
    ///
    /// impl<G: Game<Move = u32>> Knowledge<G> for Greedy {
    ///     fn analyse(&mut self, _: &G, _: &G::State, _: &[u32]) -> Insight<u32> {
    ///         Insight::Nothing
    ///     }
    ///     fn inferior(&mut self, _: &G, _: &G::State, moves: &[u32], inferior: &mut [bool]) -> bool {
    ///         let two = moves.contains(&2);
    ///         for (drop, &take) in inferior.iter_mut().zip(moves) {
    ///             *drop = two && take == 1;
    ///         }
    ///         two
    ///     }
    /// }
    /// ```
    fn inferior(&mut self, game: &G, state: &G::State, moves: &[G::Move], inferior: &mut [bool]) -> bool {
        let _ = (game, state, moves, inferior);
        false
    }

    /// A state to go on from below a node instead of `state`, asked right after
    /// [`Knowledge::analyse`] answered [`Insight::Moves`] with `kept` for it: a state with the
    /// same winner under perfect play, from which the playouts judge the node's moves better (in
    /// Hex: the position with its dead and captured cells filled in, as MoHex plays its playouts
    /// on). Every move of `kept` must be legal there; the search then drops what it had grown
    /// below the node's children, since their moves were generated from `state`, and plays the
    /// node's later iterations from the new state. A replacement lasts one search: a tree kept
    /// for the next ([`SearchTree`]) drops what grew below the replaced nodes' children and
    /// asks again. `None` (the default): `state` itself.
    ///
    /// # Examples
    ///
    /// In the Nim game of the [module docs](self), a pile of `n` stones plays like a pile of
    /// `n mod 4` as far as who wins goes (the moves kept must stay legal: here 1, 2 and 3 take
    /// stones from a pile of at least 4):
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::mcts::{Insight, Knowledge};
    ///
    /// struct Small;
    ///
    /// impl<G: Game<Move = u32, State = (u32, u8)>> Knowledge<G> for Small {
    ///     fn analyse(&mut self, _: &G, _: &(u32, u8), moves: &[u32]) -> Insight<u32> {
    ///         Insight::Moves(moves.to_vec())
    ///     }
    ///     fn equivalent(&mut self, _: &G, &(stones, player): &(u32, u8), _: &[u32]) -> Option<(u32, u8)> {
    ///         (stones >= 8).then_some((4 + stones % 4, player))
    ///     }
    /// }
    /// ```
    fn equivalent(&mut self, game: &G, state: &G::State, kept: &[G::Move]) -> Option<G::State> {
        let _ = (game, state, kept);
        None
    }

    /// The winner of `state` under perfect play, if a proof attempt finds it: asked of the
    /// nodes the search reaches [`Config::prove_after`] times (and again at four times as many
    /// visits while it stays open), so it may cost far more than [`Knowledge::analyse`] (in
    /// Hex: a small proof search of the exact solver). A proved node is then played as a win
    /// for its winner, and the proof backs up as any other. `None` (the default): not known.
    /// As with [`Knowledge::analyse`], a wrong proof makes the search wrong.
    ///
    /// # Examples
    ///
    /// In the Nim game of the [module docs](self) (take one to three stones, whoever takes
    /// the last wins), the player to move loses exactly when the pile is a multiple of four:
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::mcts::{Insight, Knowledge};
    ///
    /// struct Theory;
    ///
    /// impl<G: Game<Move = u32, State = (u32, u8)>> Knowledge<G> for Theory {
    ///     fn analyse(&mut self, _: &G, _: &(u32, u8), _: &[u32]) -> Insight<u32> {
    ///         Insight::Nothing
    ///     }
    ///     fn prove(&mut self, _: &G, &(stones, player): &(u32, u8)) -> Option<u8> {
    ///         Some(if stones % 4 == 0 { 1 - player } else { player })
    ///     }
    /// }
    /// ```
    fn prove(&mut self, game: &G, state: &G::State) -> Option<Player> {
        let _ = (game, state);
        None
    }
}

/// No knowledge: every move is searched.
impl<G: Game> Knowledge<G> for () {
    fn analyse(&mut self, _: &G, _: &G::State, _: &[G::Move]) -> Insight<G::Move> {
        Insight::Nothing
    }
}

/// One tree node; the statistics belong to `mover`, who played `mv` to get here.
#[derive(Clone, Debug)]
struct Node<M> {
    mv: Option<M>,
    mover: Player,
    first_child: u32,
    children: u32,
    expanded: bool,
    /// Whether the knowledge has pruned this node's children (or was asked and kept them).
    refined: bool,
    /// Whether the knowledge of the parent dropped this node's move.
    pruned: bool,
    /// Whether the search goes on from [`Knowledge::equivalent`]'s state below this node
    /// (kept in [`Search::equivalents`]).
    replaced: bool,
    /// Whether this node's children have had their late priors ([`Config::late_priors_after`]).
    late: bool,
    /// The proof attempts made at this node ([`Config::prove_after`]).
    proof_tries: u8,
    /// The winner of this node's state, once proved.
    solved: Option<Player>,
    /// The move's share of its siblings' priors (0 without priors).
    prior: f32,
    /// The move's place among its unpruned siblings by prior, 0 for the highest
    /// ([`Config::widening`]; 0 for every child without priors).
    rank: u32,
    visits: u32,
    wins: f64,
    amaf_visits: u32,
    amaf_wins: f64,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Player) -> Self {
        Node {
            mv,
            mover,
            first_child: 0,
            children: 0,
            expanded: false,
            refined: false,
            pruned: false,
            replaced: false,
            late: false,
            proof_tries: 0,
            solved: None,
            prior: 0.0,
            rank: 0,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 { 0.0 } else { self.wins / f64::from(self.visits) }
    }

    fn amaf_mean(&self) -> f64 {
        if self.amaf_visits == 0 { 0.0 } else { self.amaf_wins / f64::from(self.amaf_visits) }
    }
}

/// UCT (with RAVE if configured) from `state`, timed by the wall clock.
///
/// # Panics
/// If neither `config.iterations` nor `config.time` is set, if a chance node is reached, or if
/// a player number is `MAX_PLAYERS` or more.
pub fn search<G: Game, P: Playout<G>>(
    game: &G,
    state: &G::State,
    playout: &mut P,
    config: &Config,
) -> MctsResult<G::Move> {
    search_with_clock(game, state, playout, config, &WallClock::start())
}

/// [`search`] with the time measured by `clock` (tests inject a fake one).
///
/// # Panics
/// As [`search`].
pub fn search_with_clock<G: Game, P: Playout<G>, C: Clock + ?Sized>(
    game: &G,
    state: &G::State,
    playout: &mut P,
    config: &Config,
    clock: &C,
) -> MctsResult<G::Move> {
    search_with_knowledge(game, state, playout, &mut (), config, clock)
}

/// [`search_with_clock`] that searches only the moves `knowledge` keeps: at the root, and at
/// every node reached [`Config::knowledge_after`] times (see the [module docs](self)).
///
/// # Panics
/// As [`search`].
///
/// # Examples
///
/// ```
/// use search_core::{Game, MoveList, ToMove, WallClock};
/// use search_core::mcts::{self, Insight, Knowledge, RandomPlayout};
///
/// # struct Nim;
/// # impl Game for Nim {
/// #     type State = (u32, u8);
/// #     type Move = u32;
/// #     fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
/// #         if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
/// #     }
/// #     fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
/// #         moves.extend((1..=3).filter(|&take| take <= stones));
/// #     }
/// #     fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
/// #         (stones - take, 1 - player)
/// #     }
/// # }
/// // Knowing Nim's theory: the player to move wins unless the pile is a multiple of four, by
/// // taking what leaves one.
/// struct Theory;
/// impl Knowledge<Nim> for Theory {
///     fn analyse(&mut self, _: &Nim, &(stones, player): &(u32, u8), moves: &[u32]) -> Insight<u32> {
///         let good: Vec<u32> = moves.iter().copied().filter(|take| (stones - take) % 4 == 0).collect();
///         let winner = if good.is_empty() { 1 - player } else { player };
///         Insight::Solved { winner, moves: good }
///     }
/// }
///
/// let mut playout = RandomPlayout::new(|&(_, to_move): &(u32, u8)| mcts::win_for(1 - to_move));
/// let config = mcts::Config { knowledge_after: Some(10), ..mcts::Config::iterations(500) };
/// let found = mcts::search_with_knowledge(&Nim, &(10, 0), &mut playout, &mut Theory, &config, &WallClock::start());
/// // Only the move the theory keeps is reported, and the root, proved won, needs no search.
/// assert_eq!(found.moves.len(), 1);
/// assert_eq!(found.best_move, Some(2));
/// assert_eq!(found.iterations, 0);
/// ```
pub fn search_with_knowledge<G: Game, P: Playout<G>, K: Knowledge<G> + ?Sized, C: Clock + ?Sized>(
    game: &G,
    state: &G::State,
    playout: &mut P,
    knowledge: &mut K,
    config: &Config,
    clock: &C,
) -> MctsResult<G::Move> {
    search_in_tree(game, state, &mut SearchTree::new(), playout, knowledge, config, clock)
}

/// A search tree kept from one search to the next, so that a player can go on from the part of
/// its last tree that its move and the opponent's reply lead to (MoHex and Fuego do the same)
/// instead of starting again from nothing.
///
/// [`search_in_tree`] grows it; [`SearchTree::advance`] keeps the subtree below a sequence of moves.
/// The statistics, proofs and pruning of the kept nodes stay valid because they describe the
/// same states.
///
/// # Examples
///
/// ```
/// use search_core::{Game, MoveList, ToMove, WallClock};
/// use search_core::mcts::{self, RandomPlayout, SearchTree};
///
/// # struct Nim;
/// # impl Game for Nim {
/// #     type State = (u32, u8);
/// #     type Move = u32;
/// #     fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
/// #         if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
/// #     }
/// #     fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
/// #         moves.extend((1..=3).filter(|&take| take <= stones));
/// #     }
/// #     fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
/// #         (stones - take, 1 - player)
/// #     }
/// # }
/// let mut playout = RandomPlayout::new(|&(_, to_move): &(u32, u8)| mcts::win_for(1 - to_move));
/// let config = mcts::Config::iterations(2_000);
/// let mut tree = SearchTree::new();
/// let first = mcts::search_in_tree(&Nim, &(15, 0), &mut tree, &mut playout, &mut (), &config, &WallClock::start());
/// assert_eq!(first.best_move, Some(3)); // leave 12, a multiple of four
///
/// // Player 0 took 3, player 1 took 1: go on from what the tree knows about (11, 0).
/// let kept = tree.advance(&[3, 1]);
/// assert!(kept > 0 && kept == tree.root_visits() as usize);
/// let second = mcts::search_in_tree(&Nim, &(11, 0), &mut tree, &mut playout, &mut (), &config, &WallClock::start());
/// assert_eq!(second.best_move, Some(3));
/// // The new iterations add to the kept ones (the search stops early once it proves the root).
/// assert_eq!(tree.root_visits() as usize, kept + second.iterations as usize);
/// ```
#[derive(Clone, Debug)]
pub struct SearchTree<M> {
    /// Node 0 is the root; a node's children are contiguous.
    nodes: Vec<Node<M>>,
}

impl<M> Default for SearchTree<M> {
    fn default() -> Self {
        SearchTree { nodes: Vec::new() }
    }
}

impl<M: Copy + PartialEq> SearchTree<M> {
    /// An empty tree: the next search starts from nothing.
    pub fn new() -> Self {
        SearchTree::default()
    }

    /// The nodes held.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree holds no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The iterations that went through the root.
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |root| root.visits)
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.nodes.clear();
    }

    /// Keeps only the subtree that `moves`, played from the root in order, lead to, with its
    /// node as the new root, and returns the iterations that had gone through it (its
    /// statistics now start from those). A path the tree has not expanded leaves it empty.
    pub fn advance(&mut self, moves: &[M]) -> usize {
        let mut node = 0;
        for mv in moves {
            let Some(n) = self.nodes.get(node) else { break };
            let children = n.first_child as usize..(n.first_child + n.children) as usize;
            match self.nodes[children].iter().position(|c| c.mv.as_ref() == Some(mv)) {
                Some(i) => node = n.first_child as usize + i,
                None => {
                    self.nodes.clear();
                    return 0;
                }
            }
        }
        if node >= self.nodes.len() {
            self.nodes.clear();
            return 0;
        }
        if node == 0 {
            return self.nodes[0].visits as usize;
        }
        // Copy the subtree breadth first, so that each node's children stay contiguous.
        let mut kept = Vec::new();
        let mut root = self.nodes[node].clone();
        root.mv = None;
        kept.push(root);
        let mut next = 0;
        while next < kept.len() {
            let (first, count) = (kept[next].first_child as usize, kept[next].children as usize);
            if count > 0 {
                kept[next].first_child = kept.len() as u32;
                kept.extend_from_slice(&self.nodes[first..first + count]);
            } else {
                // A leaf's first child pointed past the old arena's end, beyond the new one's.
                kept[next].first_child = 0;
            }
            next += 1;
        }
        self.nodes = kept;
        self.nodes[0].visits as usize
    }
}

/// [`search_with_knowledge`] that goes on from `tree`, whose root must be `state` (an empty
/// tree starts afresh), and leaves the grown tree there for the next search (see [`SearchTree`]).
///
/// # Panics
/// As [`search`].
pub fn search_in_tree<G: Game, P: Playout<G>, K: Knowledge<G> + ?Sized, C: Clock + ?Sized>(
    game: &G,
    state: &G::State,
    tree: &mut SearchTree<G::Move>,
    playout: &mut P,
    knowledge: &mut K,
    config: &Config,
    clock: &C,
) -> MctsResult<G::Move> {
    assert!(
        config.iterations.is_some() || config.time.is_some(),
        "an MCTS search needs an iteration or a time limit"
    );
    let mut nodes = std::mem::take(&mut tree.nodes);
    if nodes.is_empty() {
        nodes.push(Node::new(None, 0));
    }
    let mut search = Search {
        game,
        config,
        nodes,
        rng: McRng::seed_from_u64(config.seed),
        path: Vec::new(),
        trace: Vec::new(),
        marks: Vec::new(),
        stamp: 0,
        priors: Vec::new(),
        inferior: Vec::new(),
        terms: VisitTerms::new(config),
        equivalents: HashMap::new(),
        steps: 0,
    };
    // The states that replaced nodes' states belonged to the last search (see `equivalents`):
    // what grew below them goes, and the knowledge is asked again on the next visit.
    for node in 0..search.nodes.len() {
        if search.nodes[node].replaced {
            search.regrow_children(node);
            let n = &mut search.nodes[node];
            n.replaced = false;
            n.refined = false;
        }
    }
    let rave = config.rave.is_some() && game.move_space() > 0;
    if rave {
        search.marks = vec![0; MAX_PLAYERS * game.move_space()];
    }
    // A kept root without children is grown again from `state`: below a node whose state the
    // knowledge replaced (see `Knowledge::equivalent`) it may have been a finished game, and
    // its proof stops every iteration at the root, though `state` itself has moves.
    if !search.nodes[0].expanded || search.nodes[0].children == 0 {
        search.nodes[0].solved = None;
        search.expand(0, state, knowledge);
    }
    search.refine(0, state, knowledge);
    let mut iterations = 0;
    if search.nodes[0].children > 0 {
        loop {
            // A root proved won needs no more search (a proved loss still looks for the move
            // that resists longest).
            let to_move = search.nodes[search.nodes[0].first_child as usize].mover;
            let root_won = search.nodes[0].solved == Some(to_move);
            if root_won
                || config.iterations.is_some_and(|max| iterations >= max)
                || config.time.is_some_and(|limit| clock.elapsed() >= limit)
            {
                break;
            }
            search.iterate(state, playout, knowledge, rave);
            iterations += 1;
        }
    }
    let result = search.result(iterations, clock.elapsed());
    tree.nodes = search.nodes;
    result
}

/// The state of one running search.
struct Search<'a, G: Game> {
    game: &'a G,
    config: &'a Config,
    nodes: Vec<Node<G::Move>>,
    rng: McRng,
    /// The nodes of the current iteration, root first.
    path: Vec<u32>,
    /// The moves of the current iteration: `trace[i]` leads from `path[i]` to `path[i + 1]`, and
    /// the playout's moves follow.
    trace: Vec<(Player, G::Move)>,
    /// `marks[player · move_space + move_index] == stamp` when the player played the move in
    /// the part of the current iteration seen so far (RAVE only).
    marks: Vec<u32>,
    stamp: u32,
    /// Scratch for the priors of a node's moves.
    priors: Vec<f32>,
    /// Scratch for the inferior moves of a node ([`Knowledge::inferior`]).
    inferior: Vec<bool>,
    /// The score terms that depend on a child's visits alone.
    terms: VisitTerms,
    /// The states the search goes on from below the nodes marked `replaced`, by node
    /// ([`Knowledge::equivalent`]); this search's only: a kept tree drops what grew below them
    /// and asks the knowledge again.
    equivalents: HashMap<u32, G::State>,
    /// Selection steps so far, counted only with [`Config::plain_every`].
    steps: u32,
}

/// How many visit counts [`VisitTerms`] tables: most children of a node are visited fewer
/// times than this, and the tables (8 KiB each) stay in the first-level cache beside the
/// children being scanned.
const TABLED_VISITS: usize = 1024;

/// The parts of a child's score in [`Search::select`] that depend on its visits alone,
/// tabled for the smaller counts: RAVE's `β = sqrt(k / (3n + k))` and the progressive bias
/// factor `prior_weight / sqrt(n + 1)`. Selection scans every child of every node on the
/// path, and these square roots were most of its time.
struct VisitTerms {
    prior_weight: f64,
    beta: Vec<f64>,
    bias: Vec<f64>,
}

impl VisitTerms {
    fn new(config: &Config) -> Self {
        let visits = (0..TABLED_VISITS).map(|n| n as f64);
        VisitTerms {
            prior_weight: config.prior_weight,
            beta: config.rave.map_or_else(Vec::new, |k| visits.clone().map(|n| rave_beta(k, n)).collect()),
            bias: if config.prior_weight > 0.0 {
                visits.map(|n| prior_bias(config.prior_weight, n)).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// RAVE's β for a child visited `n` times (RAVE on).
    #[inline]
    fn beta(&self, k: f64, n: u32) -> f64 {
        match self.beta.get(n as usize) {
            Some(&beta) => beta,
            None => rave_beta(k, f64::from(n)),
        }
    }

    /// The progressive bias factor for a child visited `n` times (priors on).
    #[inline]
    fn bias(&self, n: u32) -> f64 {
        match self.bias.get(n as usize) {
            Some(&bias) => bias,
            None => prior_bias(self.prior_weight, f64::from(n)),
        }
    }
}

/// A prior as a key that sorts like the number (priors are finite and at least 0).
fn ordered(prior: f32) -> u32 {
    prior.max(0.0).to_bits()
}

/// RAVE's weight of the all-moves-as-first mean for a child visited `n` times:
/// `sqrt(k / (3n + k))` (Gelly and Silver's equivalence parameter `k`).
fn rave_beta(k: f64, n: f64) -> f64 {
    (k / (3.0 * n + k)).sqrt()
}

/// The progressive bias of a prior for a child visited `n` times, per unit of prior.
fn prior_bias(prior_weight: f64, n: f64) -> f64 {
    prior_weight / (n + 1.0).sqrt()
}

impl<G: Game> Search<'_, G> {
    /// Gives `node`, at `state`, its children (none at a terminal state), with their priors if
    /// the search asks for them.
    fn expand<K: Knowledge<G> + ?Sized>(&mut self, node: usize, state: &G::State, knowledge: &mut K) {
        let mut moves = MoveList::new();
        let mover = match self.game.to_move(state) {
            ToMove::Terminal => 0,
            ToMove::Chance => panic!("mcts does not support chance nodes"),
            ToMove::Player(player) => {
                assert!(usize::from(player) < MAX_PLAYERS, "mcts supports at most {MAX_PLAYERS} players");
                self.game.moves(state, &mut moves);
                player
            }
        };
        let first = self.nodes.len() as u32;
        let prior = if self.config.rave.is_some() { self.config.rave_prior } else { 0 };
        self.nodes.extend(moves.iter().map(|&mv| Node {
            amaf_visits: prior,
            amaf_wins: f64::from(prior) / 2.0,
            ..Node::new(Some(mv), mover)
        }));
        let n = &mut self.nodes[node];
        n.first_child = first;
        n.children = moves.len() as u32;
        n.expanded = true;
        if moves.len() > 1 {
            self.inferior.clear();
            self.inferior.resize(moves.len(), false);
            if knowledge.inferior(self.game, state, &moves, &mut self.inferior)
                && self.inferior.contains(&false)
            {
                let children = &mut self.nodes[first as usize..first as usize + moves.len()];
                for (child, &drop) in children.iter_mut().zip(&self.inferior) {
                    child.pruned = drop;
                }
            }
        }
        if self.config.prior_weight > 0.0 && !moves.is_empty() {
            self.assign_priors(node, state, &moves, knowledge, false);
        }
    }

    /// Asks `knowledge` for the priors of the children of `node` (at `state`), whose moves are
    /// `moves` ([`Knowledge::late_priors`] if `late`, else [`Knowledge::priors`]), and
    /// stores each child's share; a knowledge that gives none leaves them as they were.
    fn assign_priors<K: Knowledge<G> + ?Sized>(
        &mut self,
        node: usize,
        state: &G::State,
        moves: &[G::Move],
        knowledge: &mut K,
        late: bool,
    ) {
        self.priors.clear();
        self.priors.resize(moves.len(), 0.0);
        let last = self.nodes[node].mv;
        let given = if late {
            knowledge.late_priors(self.game, state, last.as_ref(), moves, &mut self.priors)
        } else {
            knowledge.priors(self.game, state, last.as_ref(), moves, &mut self.priors)
        };
        if given {
            let total: f32 = self.priors.iter().map(|p| p.max(0.0)).sum();
            if total > 0.0 && total.is_finite() {
                let first = self.nodes[node].first_child as usize;
                let children = &mut self.nodes[first..first + moves.len()];
                for (child, prior) in children.iter_mut().zip(&self.priors) {
                    child.prior = prior.max(0.0) / total;
                }
            }
        }
        self.rank_children(node);
    }

    /// Ranks the unpruned children of `node` by prior for [`Config::widening`], the highest 0
    /// (the first in move order among equals); pruned children go last.
    fn rank_children(&mut self, node: usize) {
        if self.config.widening.is_none() {
            return;
        }
        let n = &self.nodes[node];
        let first = n.first_child as usize;
        let mut order: Vec<usize> = (first..first + n.children as usize).collect();
        let key = |i: &usize| (self.nodes[*i].pruned, std::cmp::Reverse(ordered(self.nodes[*i].prior)));
        order.sort_by_key(key);
        for (rank, i) in order.into_iter().enumerate() {
            self.nodes[i].rank = rank as u32;
        }
    }

    /// Asks `knowledge` again for the priors of the grandchildren of `node` (at `state`) below
    /// its kept children that have children ([`Knowledge::analysis_changes_priors`]).
    fn refresh_priors<K: Knowledge<G> + ?Sized>(&mut self, node: usize, state: &G::State, knowledge: &mut K) {
        let n = &self.nodes[node];
        for child in n.first_child as usize..(n.first_child + n.children) as usize {
            let c = &self.nodes[child];
            if c.pruned || c.children == 0 {
                continue;
            }
            let grandchildren = c.first_child as usize..(c.first_child + c.children) as usize;
            let moves: MoveList<G::Move> =
                self.nodes[grandchildren].iter().map(|g| g.mv.expect("a child has a move")).collect();
            let child_state = self.game.play(state, c.mv.expect("a child has a move"));
            self.assign_priors(child, &child_state, &moves, knowledge, false);
        }
    }

    /// Asks `knowledge` for the late priors of the children of `node`, at `state`
    /// ([`Config::late_priors_after`]); once per node.
    fn late_priors<K: Knowledge<G> + ?Sized>(&mut self, node: usize, state: &G::State, knowledge: &mut K) {
        let n = &mut self.nodes[node];
        if n.late || n.children == 0 || self.config.prior_weight <= 0.0 {
            return;
        }
        n.late = true;
        let children = n.first_child as usize..(n.first_child + n.children) as usize;
        let moves: MoveList<G::Move> =
            self.nodes[children.clone()].iter().map(|c| c.mv.expect("a child has a move")).collect();
        self.assign_priors(node, state, &moves, knowledge, true);
        let weight = self.config.late_value_visits;
        if weight == 0 {
            return;
        }
        self.priors.clear();
        self.priors.resize(moves.len(), 0.0);
        let last = self.nodes[node].mv;
        if knowledge.late_values(self.game, state, last.as_ref(), &moves, &mut self.priors) {
            for (child, &value) in self.nodes[children].iter_mut().zip(&self.priors) {
                if child.solved.is_none() && value.is_finite() {
                    child.visits += weight;
                    child.wins += f64::from(weight) * f64::from(value.clamp(0.0, 1.0));
                }
            }
        }
    }

    /// Asks `knowledge` for the moves of `node`, at `state`, worth searching, and marks the
    /// others pruned; once per node.
    fn refine<K: Knowledge<G> + ?Sized>(&mut self, node: usize, state: &G::State, knowledge: &mut K) {
        let n = &mut self.nodes[node];
        if n.refined || n.children == 0 {
            return;
        }
        n.refined = true;
        let children = n.first_child as usize..(n.first_child + n.children) as usize;
        let moves: Vec<G::Move> =
            self.nodes[children.clone()].iter().map(|c| c.mv.expect("a child has a move")).collect();
        let kept = match knowledge.analyse(self.game, state, &moves) {
            Insight::Nothing => return,
            Insight::Moves(kept) => kept,
            Insight::Solved { winner, moves: kept } => {
                self.nodes[node].solved = Some(winner);
                kept
            }
        };
        let keeps = |mv: &G::Move| kept.contains(mv);
        // An answer that keeps nothing the game knows is no answer: the search needs a move.
        if !moves.iter().any(keeps) {
            return;
        }
        for child in &mut self.nodes[children] {
            child.pruned = !keeps(&child.mv.expect("a child has a move"));
        }
        self.rank_children(node);
        if self.nodes[node].solved.is_some() {
            return;
        }
        if self.config.prior_weight > 0.0 && knowledge.analysis_changes_priors() {
            self.refresh_priors(node, state, knowledge);
        }
        let kept: Vec<G::Move> = moves.into_iter().filter(|mv| keeps(mv)).collect();
        let Some(equivalent) = knowledge.equivalent(self.game, state, &kept) else { return };
        self.regrow_children(node);
        self.nodes[node].replaced = true;
        self.equivalents.insert(node as u32, equivalent);
    }

    /// Drops what grew below the kept children of `node` (their own statistics stay), to be
    /// grown again from another state of `node`: moves generated from one state need not be
    /// legal in the other.
    fn regrow_children(&mut self, node: usize) {
        let n = &self.nodes[node];
        let children = n.first_child as usize..(n.first_child + n.children) as usize;
        for child in &mut self.nodes[children] {
            if !child.pruned {
                child.expanded = false;
                child.refined = false;
                child.late = false;
                child.replaced = false;
                child.first_child = 0;
                child.children = 0;
            }
        }
    }

    /// The child of `node` with the best upper confidence bound (the first of equals): a
    /// proved win at once, never a proved loss while another move remains.
    fn select(&mut self, node: usize) -> usize {
        // MoHex's plain steps: one in `plain_every` leaves RAVE out (a counter, not a draw, so
        // that the random stream and the other steps stay as they were).
        let plain = self.config.plain_every > 0 && {
            self.steps = self.steps.wrapping_add(1);
            self.steps.is_multiple_of(self.config.plain_every)
        };
        let rave = if plain { None } else { self.config.rave };
        let parent = &self.nodes[node];
        let log_n = f64::from(parent.visits.max(1)).ln();
        let first = parent.first_child as usize;
        let exploration = self.config.exploration;
        let in_mean = self.config.exploration_in_mean && rave.is_some();
        // The best open move, and the best proved loss in case every move is one; one pass,
        // since this is the hottest loop of the search.
        let mut best: Option<(usize, f64)> = None;
        let mut best_lost = (first, f64::NEG_INFINITY);
        // The child without any statistics to try first, and its prior (by prior, if asked).
        let by_prior = self.config.fresh_by_prior && self.config.prior_weight > 0.0;
        let mut fresh: Option<(usize, f32)> = None;
        // With widening, the children ranked past this many by prior wait (a proved win among
        // them is still taken).
        let eligible = match self.config.widening {
            Some(widening) if self.config.prior_weight > 0.0 => widening.children(parent.visits),
            _ => u32::MAX,
        };
        let mut waiting: Option<(usize, u32)> = None;
        for i in first..first + parent.children as usize {
            let child = &self.nodes[i];
            if child.pruned {
                continue;
            }
            if child.rank >= eligible && child.solved.is_none_or(|winner| winner != child.mover) {
                // The highest ranked open one waiting, should every eligible move be lost.
                if child.solved.is_none() && waiting.is_none_or(|(_, rank)| child.rank < rank) {
                    waiting = Some((i, child.rank));
                }
                continue;
            }
            let lost = match child.solved {
                Some(winner) if winner == child.mover => return i,
                Some(_) => true,
                None => false,
            };
            let n = f64::from(child.visits);
            let mut value = match rave {
                Some(k) if child.amaf_visits > 0 => {
                    let beta = match self.config.rave_weight {
                        RaveWeight::Equivalence => self.terms.beta(k, child.visits),
                        RaveWeight::Counts { initial, late } => {
                            counts_beta(initial, late, child.visits, child.amaf_visits)
                        }
                    };
                    let mut own = child.mean();
                    if in_mean && child.visits > 0 {
                        own += exploration * (log_n / n).sqrt();
                    }
                    (1.0 - beta) * own + beta * child.amaf_mean()
                }
                // Without any statistics, try the move before any move already tried (a move
                // never visited is never proved), unless it has a first-play value.
                _ if child.visits == 0 => match self.config.first_play_urgency {
                    Some(urgency) => urgency,
                    None => {
                        if !by_prior {
                            return i;
                        }
                        if fresh.is_none_or(|(_, top)| child.prior > top) {
                            fresh = Some((i, child.prior));
                        }
                        continue;
                    }
                },
                // Visited but without all-moves-as-first results: the own mean is the whole value,
                // so the term inside the mix goes on it too (MoHex's `GetValueEstimateRave`).
                _ if in_mean => child.mean() + exploration * (log_n / n).sqrt(),
                _ => child.mean(),
            };
            if exploration != 0.0 && !in_mean {
                value += exploration * (log_n / n.max(1.0)).sqrt();
            }
            if self.config.prior_weight > 0.0 {
                value += f64::from(child.prior) * self.terms.bias(child.visits);
            }
            if lost {
                if value > best_lost.1 {
                    best_lost = (i, value);
                }
            } else if best.is_none_or(|(_, top)| value > top) {
                best = Some((i, value));
            }
        }
        if let Some((i, _)) = fresh {
            return i;
        }
        match (best, waiting) {
            (Some((i, _)), _) | (None, Some((i, _))) => i,
            (None, None) => best_lost.0,
        }
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate<P: Playout<G>, K: Knowledge<G> + ?Sized>(
        &mut self,
        root: &G::State,
        playout: &mut P,
        knowledge: &mut K,
        rave: bool,
    ) {
        self.path.clear();
        self.trace.clear();
        self.path.push(0);
        let mut state = root.clone();
        let mut node = 0;
        loop {
            if !self.nodes[node].expanded {
                if self.nodes[node].visits < self.config.expand_after {
                    break;
                }
                self.expand(node, &state, knowledge);
            }
            if self.nodes[node].solved.is_some() || self.nodes[node].children == 0 {
                break;
            }
            if self.config.knowledge_after.is_some_and(|after| self.nodes[node].visits >= after) {
                self.refine(node, &state, knowledge);
                if self.nodes[node].solved.is_some() {
                    break;
                }
            }
            if self.config.late_priors_after.is_some_and(|after| self.nodes[node].visits >= after) {
                self.late_priors(node, &state, knowledge);
            }
            if self.try_proof(node, &state, knowledge) {
                break;
            }
            if self.nodes[node].replaced {
                state = self.equivalents[&(node as u32)].clone();
            }
            node = self.select(node);
            let (mover, mv) = (self.nodes[node].mover, self.nodes[node].mv.expect("a child has a move"));
            state = self.game.play(&state, mv);
            self.trace.push((mover, mv));
            self.path.push(node as u32);
        }
        let rewards = match self.nodes[node].solved {
            Some(winner) => win_for(winner),
            None => {
                let rewards = playout.playout(self.game, &state, &mut self.rng, &mut self.trace);
                let n = &self.nodes[node];
                if n.expanded && n.children == 0 {
                    // A terminal state: a clean win is a proof.
                    self.nodes[node].solved = clean_winner(&rewards);
                }
                rewards
            }
        };
        self.back_up_proofs();
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.wins += rewards[usize::from(n.mover)];
        }
        if rave {
            self.update_amaf(&rewards);
        }
    }

    /// Asks the knowledge for a proof of `node` if it is due one ([`Config::prove_after`]);
    /// whether it is now proved.
    fn try_proof<K: Knowledge<G> + ?Sized>(
        &mut self,
        node: usize,
        state: &G::State,
        knowledge: &mut K,
    ) -> bool {
        let Some(after) = self.config.prove_after else { return false };
        // The root is the caller's to prove: a proved root would stop the search before it
        // knows which move wins.
        if node == 0 {
            return false;
        }
        let n = &self.nodes[node];
        // After, 4 × after, 16 × after, ... visits (saturating: a node past the last
        // threshold is not asked again).
        let due = u64::from(after.max(1)) << (2 * u32::from(n.proof_tries));
        if u64::from(n.visits) < due || n.proof_tries >= 16 {
            return false;
        }
        self.nodes[node].proof_tries += 1;
        let Some(winner) = knowledge.prove(self.game, state) else { return false };
        self.nodes[node].solved = Some(winner);
        true
    }

    /// Backs a proof at the end of the current path up towards the root: a node is won by the
    /// player to move there if one of its moves is proved to win for that player, and by a
    /// player who wins after every one of its (unpruned) moves.
    fn back_up_proofs(&mut self) {
        for d in (0..self.path.len().saturating_sub(1)).rev() {
            let parent = self.path[d] as usize;
            let child = self.path[d + 1] as usize;
            let Some(winner) = self.nodes[child].solved else { return };
            if self.nodes[parent].solved.is_some() {
                return;
            }
            let mover = self.nodes[child].mover;
            if winner != mover {
                let p = &self.nodes[parent];
                let first = p.first_child as usize;
                let all = self.nodes[first..first + p.children as usize]
                    .iter()
                    .filter(|c| !c.pruned)
                    .all(|c| c.solved == Some(winner));
                if !all {
                    return;
                }
            }
            self.nodes[parent].solved = Some(winner);
        }
    }

    /// Adds the iteration to the all-moves-as-first statistics: at every node of the path, each
    /// child whose move its player made at that node or later counts as tried.
    fn update_amaf(&mut self, rewards: &Rewards) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After four billion iterations the stamps wrap: start the marks afresh.
            self.marks.fill(0);
            self.stamp = 1;
        }
        let space = self.game.move_space();
        let depth = self.path.len() - 1;
        for i in depth..self.trace.len() {
            let (player, mv) = self.trace[i];
            self.marks[usize::from(player) * space + self.game.move_index(mv)] = self.stamp;
        }
        for d in (0..=depth).rev() {
            if d < depth {
                let (player, mv) = self.trace[d];
                self.marks[usize::from(player) * space + self.game.move_index(mv)] = self.stamp;
            }
            let node = &self.nodes[self.path[d] as usize];
            let first = node.first_child as usize;
            for i in first..first + node.children as usize {
                let child = &mut self.nodes[i];
                let mv = child.mv.expect("a child has a move");
                if self.marks[usize::from(child.mover) * space + self.game.move_index(mv)] == self.stamp {
                    child.amaf_visits += 1;
                    child.amaf_wins += rewards[usize::from(child.mover)];
                }
            }
        }
    }

    fn result(&self, iterations: u64, elapsed: Duration) -> MctsResult<G::Move> {
        let root = &self.nodes[0];
        let first = root.first_child as usize;
        let moves: Vec<MoveStats<G::Move>> = self.nodes[first..first + root.children as usize]
            .iter()
            .filter(|child| !child.pruned)
            .map(|child| MoveStats {
                mv: child.mv.expect("a child has a move"),
                visits: child.visits,
                value: child.mean(),
                amaf_visits: child.amaf_visits,
                amaf_value: child.amaf_mean(),
                winner: child.solved,
                prior: child.prior,
            })
            .collect();
        let best = best_of(&moves, self.nodes.get(first).map(|c| c.mover));
        MctsResult {
            best_move: best.map(|m| m.mv),
            value: best.map_or(0.0, |m| m.value),
            moves,
            iterations,
            nodes: self.nodes.len(),
            elapsed,
        }
    }
}

/// The move a search answers with, of the root moves `moves` of `mover`: a proved win first;
/// else the most visited of the moves not proved lost, if any; the first on a tie.
fn best_of<M>(moves: &[MoveStats<M>], mover: Option<Player>) -> Option<&MoveStats<M>> {
    let rank = |m: &MoveStats<M>| match m.winner {
        Some(w) if Some(w) == mover => 2,
        Some(_) => 0,
        None => 1,
    };
    moves.iter().fold(None, |best: Option<&MoveStats<M>>, m| match best {
        Some(b) if (rank(b), b.visits) >= (rank(m), m.visits) => Some(b),
        _ => Some(m),
    })
}

/// The player a reward vector names as the only winner: `1.0` for them, `0.0` for the rest.
fn clean_winner(rewards: &Rewards) -> Option<Player> {
    let winner = rewards.iter().position(|&r| r == 1.0)?;
    let clean = rewards.iter().enumerate().all(|(i, &r)| i == winner || r == 0.0);
    clean.then_some(winner as Player)
}
