//! One way to plug a player into anything that plays games: the [`Agent`] trait, and agents
//! made from this crate's searches.
//!
//! An agent is given the game and a state where a player is to move, and answers a move. Every
//! player of the game crates implements it, and the match runner ([`crate::arena`]) takes any
//! implementor, so a game written against this crate alone plays through the same runner as
//! Hex, 2048 or dominoes.
//!
//! The adapters turn a search and its settings into an agent:
//!
//! | agent | search |
//! |---|---|
//! | [`AlphaBetaAgent`] | [`alphabeta::search`] at a fixed depth, with or without a table |
//! | [`IterativeAgent`] | [`iterative::search`] under depth, node and time limits |
//! | [`ExpectimaxAgent`] | [`expectimax::search`] (one-player games with chance) |
//! | [`MctsAgent`] | [`mcts::search`] with a playout policy |
//! | [`RandomAgent`] | a uniformly random legal move, from a seed |
//!
//! [`Tally`] wraps any agent and adds up what it spent: moves, wall time and nodes searched.
//!
//! # Examples
//!
//! Nim with one pile: the alpha-beta agent takes 2 of 10 stones, leaving a multiple of 4.
//!
//! ```
//! use search_core::agent::{Agent, AlphaBetaAgent};
//! use search_core::{alphabeta, Evaluator, Game, MoveList, NoTable, Player, ToMove};
//!
//! struct Nim;
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! struct Pile { stones: u32, to_move: Player }
//! impl Game for Nim {
//!     type State = Pile;
//!     type Move = u32;
//!     fn to_move(&self, p: &Pile) -> ToMove {
//!         if p.stones == 0 { ToMove::Terminal } else { ToMove::Player(p.to_move) }
//!     }
//!     fn moves(&self, p: &Pile, moves: &mut MoveList<u32>) {
//!         moves.extend((1..=3).filter(|&t| t <= p.stones));
//!     }
//!     fn play(&self, p: &Pile, t: u32) -> Pile { Pile { stones: p.stones - t, to_move: 1 - p.to_move } }
//! }
//! struct WinLoss;
//! impl Evaluator<Nim> for WinLoss {
//!     type Value = i32;
//!     fn evaluate(&self, _: &Nim, _: &Pile, _: Player) -> i32 { 0 }
//!     fn terminal(&self, _: &Nim, p: &Pile, player: Player, ply: u32) -> i32 {
//!         let score = 100 - ply as i32;
//!         if p.to_move == player { -score } else { score }
//!     }
//! }
//!
//! let mut agent = AlphaBetaAgent::new("alphabeta", WinLoss, alphabeta::Config::depth(10), NoTable);
//! assert_eq!(agent.choose(&Nim, &Pile { stones: 10, to_move: 0 }), 2);
//! assert!(agent.last_stats().unwrap().nodes > 0);
//! ```

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::expectimax::{self, ChanceTables};
use crate::mcts::{self, Playout};
use crate::{
    CutoffPolicy, Evaluator, Game, GameHash, MoveList, NoCutoff, SearchStats, TableAccess, ToMove, alphabeta,
    iterative,
};

/// A player of the game `G`: given a state where a player is to move, a legal move.
///
/// Implementations may keep what they learn between calls (a table, a tree, a random
/// generator), so `choose` takes `&mut self`; an agent that draws random numbers takes a seed,
/// so that the same seed plays the same game.
pub trait Agent<G: Game> {
    /// A short name for tables and logs.
    fn name(&self) -> String;

    /// A legal move for the player to move at `state`.
    ///
    /// # Panics
    /// Implementations may panic when no player is to move at `state` (the game is over or a
    /// chance node is next): the caller checks [`Game::to_move`] first, as [`crate::arena`] does.
    fn choose(&mut self, game: &G, state: &G::State) -> G::Move;

    /// What the last [`Agent::choose`] searched, for agents that search; `None` before the first
    /// call and for agents that do not search.
    fn last_stats(&self) -> Option<SearchStats> {
        None
    }

    /// Gives an agent that searches on a time limit a new limit per move, keeping everything
    /// else it holds (its table, its tree); `false` when it has no time limit to change (the
    /// default), and the caller should then build a new agent with the limit instead. A game
    /// clock that runs low changes the limit from move to move.
    fn set_time_limit(&mut self, _time: std::time::Duration) -> bool {
        false
    }
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for &mut A {
    fn name(&self) -> String {
        (**self).name()
    }
    fn choose(&mut self, game: &G, state: &G::State) -> G::Move {
        (**self).choose(game, state)
    }
    fn last_stats(&self) -> Option<SearchStats> {
        (**self).last_stats()
    }
    fn set_time_limit(&mut self, time: std::time::Duration) -> bool {
        (**self).set_time_limit(time)
    }
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn choose(&mut self, game: &G, state: &G::State) -> G::Move {
        (**self).choose(game, state)
    }
    fn last_stats(&self) -> Option<SearchStats> {
        (**self).last_stats()
    }
    fn set_time_limit(&mut self, time: std::time::Duration) -> bool {
        (**self).set_time_limit(time)
    }
}

/// Any agent, with what it spent added up: its moves, their wall time and the nodes its
/// searches reported ([`Agent::last_stats`]). It plays exactly as the agent does.
///
/// ```
/// use search_core::agent::{Agent, RandomAgent, Tally};
/// use search_core::tree::Tree;
///
/// let mut tree = Tree::new();
/// let leaves = vec![tree.leaf(1), tree.leaf(2)];
/// let root = tree.max(leaves, 0);
/// let mut tally = Tally::new(RandomAgent::new(1));
/// tally.choose(&tree, &root);
/// tally.choose(&tree, &root);
/// assert_eq!((tally.moves, tally.nodes), (2, 0)); // a random agent searches nothing
/// ```
#[derive(Debug)]
pub struct Tally<A> {
    /// The agent.
    pub agent: A,
    /// Moves chosen.
    pub moves: u64,
    /// Wall-clock seconds spent choosing them.
    pub seconds: f64,
    /// Nodes the agent's searches reported for them.
    pub nodes: u64,
}

impl<A> Tally<A> {
    /// `agent`, nothing spent yet.
    pub fn new(agent: A) -> Self {
        Tally { agent, moves: 0, seconds: 0.0, nodes: 0 }
    }

    /// Mean seconds a move (0 before the first).
    pub fn seconds_per_move(&self) -> f64 {
        if self.moves == 0 { 0.0 } else { self.seconds / self.moves as f64 }
    }
}

impl<G: Game, A: Agent<G>> Agent<G> for Tally<A> {
    fn name(&self) -> String {
        self.agent.name()
    }
    fn choose(&mut self, game: &G, state: &G::State) -> G::Move {
        let start = std::time::Instant::now();
        let mv = self.agent.choose(game, state);
        self.seconds += start.elapsed().as_secs_f64();
        self.moves += 1;
        self.nodes += self.agent.last_stats().map_or(0, |stats| stats.nodes);
        mv
    }
    fn last_stats(&self) -> Option<SearchStats> {
        self.agent.last_stats()
    }
}

/// Checks that a player is to move at `state`: the searches answer no move elsewhere.
///
/// # Panics
/// If no player is to move there.
fn expect_player<G: Game>(game: &G, state: &G::State) {
    assert!(
        matches!(game.to_move(state), ToMove::Player(_)),
        "an agent was asked for a move where no player is to move"
    );
}

/// The legal moves of the player to move at `state`.
///
/// # Panics
/// If no player is to move there.
fn legal_moves<G: Game>(game: &G, state: &G::State) -> MoveList<G::Move> {
    expect_player(game, state);
    let mut moves = MoveList::new();
    game.moves(state, &mut moves);
    moves
}

/// The search's move, or the first legal move when the search names none (it names one
/// wherever a player has a move, so this is only a guard).
fn or_first<G: Game>(game: &G, state: &G::State, best: Option<G::Move>) -> G::Move {
    best.unwrap_or_else(|| legal_moves(game, state)[0])
}

/// Plays a uniformly random legal move; its choices follow from its seed.
///
/// ```
/// use search_core::agent::{Agent, RandomAgent};
/// use search_core::tree::Tree;
///
/// let mut tree = Tree::new();
/// let leaves = vec![tree.leaf(1), tree.leaf(2), tree.leaf(3)];
/// let root = tree.max(leaves, 0);
/// let first = RandomAgent::new(7).choose(&tree, &root);
/// assert_eq!(RandomAgent::new(7).choose(&tree, &root), first);
/// ```
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: Xoshiro256PlusPlus,
}

impl RandomAgent {
    /// A random agent whose choices follow from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: Xoshiro256PlusPlus::seed_from_u64(seed) }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }
    fn choose(&mut self, game: &G, state: &G::State) -> G::Move {
        let moves = legal_moves(game, state);
        moves[self.rng.random_range(0..moves.len())]
    }
}

/// A depth-first search with a table as an agent: the evaluator, the settings and a table,
/// which is [`NoTable`](crate::NoTable) or a [`TranspositionTable`](crate::TranspositionTable)
/// kept from one move to the next, owned by the agent or borrowed (`&table`) from its caller. The settings choose the search: see [`AlphaBetaAgent`] and
/// [`IterativeAgent`].
#[derive(Debug)]
pub struct TableSearchAgent<E, S, T> {
    name: String,
    /// The evaluator.
    pub evaluator: E,
    /// The search settings.
    pub config: S,
    /// The table the searches share.
    pub table: T,
    last: Option<SearchStats>,
}

/// [`alphabeta::search`] to the settings' depth (with Star1 and cut-offs as they say).
pub type AlphaBetaAgent<E, C = NoCutoff, T = crate::NoTable> = TableSearchAgent<E, alphabeta::Config<C>, T>;

/// [`iterative::search`]: iterative deepening under the settings' depth, node and time limits,
/// the time measured on the wall clock from each call.
pub type IterativeAgent<E, C = NoCutoff, T = crate::NoTable> = TableSearchAgent<E, iterative::Config<C>, T>;

impl<E, S, T> TableSearchAgent<E, S, T> {
    /// An agent named `name` searching with `evaluator`, `config` and `table`.
    pub fn new(name: impl Into<String>, evaluator: E, config: S, table: T) -> Self {
        TableSearchAgent { name: name.into(), evaluator, config, table, last: None }
    }

    /// What the last move's search did (`None` before the first move); the same as
    /// [`Agent::last_stats`], without naming the game.
    pub fn last_stats(&self) -> Option<SearchStats> {
        self.last
    }
}

/// Settings that run a search with a table: [`alphabeta::Config`] and [`iterative::Config`].
pub trait TableSearch<G: Game, E: Evaluator<G>, T> {
    /// The best move the search finds at `state`, and what it did.
    fn run(&self, game: &G, evaluator: &E, state: &G::State, table: &T) -> (Option<G::Move>, SearchStats);
}

impl<G, E, C, T> TableSearch<G, E, T> for alphabeta::Config<C>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value>,
{
    fn run(&self, game: &G, evaluator: &E, state: &G::State, table: &T) -> (Option<G::Move>, SearchStats) {
        let found = alphabeta::search(game, evaluator, state, self, table);
        (found.best_move, found.stats)
    }
}

impl<G, E, C, T> TableSearch<G, E, T> for iterative::Config<C>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value>,
{
    fn run(&self, game: &G, evaluator: &E, state: &G::State, table: &T) -> (Option<G::Move>, SearchStats) {
        let found = iterative::search(game, evaluator, state, self, table);
        (found.result.best_move, found.result.stats)
    }
}

impl<G: Game, E: Evaluator<G>, S: TableSearch<G, E, T>, T> Agent<G> for TableSearchAgent<E, S, T> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, game: &G, state: &G::State) -> G::Move {
        expect_player(game, state);
        let (best, stats) = self.config.run(game, &self.evaluator, state, &self.table);
        self.last = Some(stats);
        or_first(game, state, best)
    }
    fn last_stats(&self) -> Option<SearchStats> {
        self.last
    }
}

/// [`expectimax::search`] as an agent, with its chance tables kept between moves.
#[derive(Debug)]
pub struct ExpectimaxAgent<E, C = NoCutoff> {
    name: String,
    /// The evaluator.
    pub evaluator: E,
    /// The search settings.
    pub config: expectimax::Config<C>,
    tables: ChanceTables,
    last: Option<SearchStats>,
}

impl<E, C> ExpectimaxAgent<E, C> {
    /// An agent named `name` searching with `evaluator` and `config`, with chance tables of
    /// `table_slots` entries per root move (0 for none).
    pub fn new(
        name: impl Into<String>,
        evaluator: E,
        config: expectimax::Config<C>,
        table_slots: usize,
    ) -> Self {
        let tables =
            if table_slots == 0 { ChanceTables::none() } else { ChanceTables::with_capacity(table_slots) };
        ExpectimaxAgent { name: name.into(), evaluator, config, tables, last: None }
    }

    /// What the last move's search did (`None` before the first move); the same as
    /// [`Agent::last_stats`], without naming the game.
    pub fn last_stats(&self) -> Option<SearchStats> {
        self.last
    }
}

impl<G, E, C> Agent<G> for ExpectimaxAgent<E, C>
where
    G: GameHash + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
    C: CutoffPolicy<G>,
{
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, game: &G, state: &G::State) -> G::Move {
        expect_player(game, state);
        let found = expectimax::search(game, &self.evaluator, state, &self.config, &mut self.tables);
        self.last = Some(found.stats);
        or_first(game, state, found.best_move)
    }
    fn last_stats(&self) -> Option<SearchStats> {
        self.last
    }
}

/// [`mcts::search`] as an agent: the playout policy and the settings (iterations or time,
/// RAVE, seed). Its statistics report the tree's iterations as nodes and the time taken.
#[derive(Debug)]
pub struct MctsAgent<P> {
    name: String,
    /// The playout policy.
    pub playout: P,
    /// The search settings.
    pub config: mcts::Config,
    last: Option<SearchStats>,
}

impl<P> MctsAgent<P> {
    /// An agent named `name` searching with `playout` and `config`.
    pub fn new(name: impl Into<String>, playout: P, config: mcts::Config) -> Self {
        MctsAgent { name: name.into(), playout, config, last: None }
    }

    /// What the last move's search did (`None` before the first move); the same as
    /// [`Agent::last_stats`], without naming the game.
    pub fn last_stats(&self) -> Option<SearchStats> {
        self.last
    }
}

impl<G: Game, P: Playout<G>> Agent<G> for MctsAgent<P> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, game: &G, state: &G::State) -> G::Move {
        expect_player(game, state);
        let found = mcts::search(game, state, &mut self.playout, &self.config);
        self.last =
            Some(SearchStats { nodes: found.iterations, elapsed: found.elapsed, ..SearchStats::default() });
        or_first(game, state, found.best_move)
    }
    fn last_stats(&self) -> Option<SearchStats> {
        self.last
    }
}
