//! The players: random and greedy baselines, the seed document's minimax and expectimax, and a
//! strong expectimax. Every one that searches does so through `search-core`, but for the earlier
//! code version of the seed's minimax ([`SeedPruning::FirstTen`]), whose nodes' values depend on
//! where an alpha-beta cut-off came, which no cut-off policy can express.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Mutex;

use search_core::expectimax::{self, ChanceTables, Reuse};
use search_core::{
    CutoffContext, CutoffPolicy, DepthCount, Horizon, NoTable, PartialCut, ProbabilityCutoff, SearchResult,
    SearchStats, alphabeta,
};

use crate::board::{Board, Direction};
use crate::evaluation::{Evaluation, Heuristic};
use crate::rules::{Action, Game2048, Position};

/// What an agent decided for one move.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The direction to slide: a legal move of the board it was asked about (only
    /// [`RandomAgent::any_direction`] plays directions that change nothing).
    pub direction: Direction,
    /// The search's value of the position, if the agent searched.
    pub value: Option<f64>,
    /// What the search did (all zero for agents that do not search).
    pub stats: SearchStats,
}

/// A 2048 player.
///
/// Every agent here is also the workspace's one agent trait, [`search_core::agent::Agent`] for
/// [`Game2048`], so any runner that takes agents (such as [`search_core::arena`], which deals
/// the spawns as chance outcomes) plays it: it slides the way [`Agent::decide`] says, and the
/// [`Decision`] (value and statistics) stays available through `decide`.
///
/// ```
/// use game2048::agents::Greedy;
/// use game2048::heuristics::MaxSqCoefSum;
/// use game2048::{Game2048, Position, Rules};
/// use rand::SeedableRng;
/// use search_core::agent::Agent;
/// use search_core::arena;
///
/// let game = Game2048::chance(0.1);
/// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
/// let start = Position::slide(Rules::seed().new_board(&mut rng));
/// let mut greedy = Greedy::new(MaxSqCoefSum);
/// let played = arena::play(&game, &start, &mut [&mut greedy as &mut dyn Agent<Game2048>], 7, Some(40));
/// assert_eq!(played.moves.len(), 40); // 20 slides and 20 spawns
/// ```
///
/// # Examples
///
/// ```
/// use game2048::agents::{Agent, RandomAgent};
/// use game2048::Board;
///
/// let board: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
/// let mut agent = RandomAgent::new(7);
/// let decision = agent.decide(board);
/// assert!(board.play(decision.direction).is_some());
/// ```
pub trait Agent {
    /// A short description, e.g. `expectimax d5 (seed) max-sq-coef-sum`.
    fn name(&self) -> String;

    /// The direction to play on `board`, which must have a legal move.
    ///
    /// # Panics
    /// If `board` has no legal move (check [`Board::is_terminal`] first).
    fn decide(&mut self, board: Board) -> Decision;
}

fn no_search(direction: Direction) -> Decision {
    Decision { direction, value: None, stats: SearchStats::default() }
}

fn decision(result: &SearchResult<Action, f64>, board: Board) -> Decision {
    let direction = match result.best_move {
        Some(Action::Slide(d)) => d,
        // A search always names a move at a slide root with a legal move; fall back to the first
        // legal one rather than play an illegal move if that ever fails.
        _ => board.legal_moves().next().expect("decide() needs a board with a legal move"),
    };
    Decision { direction, value: Some(result.value), stats: result.stats }
}

/// Plays a uniformly random legal move: the baseline every agent must beat.
///
/// [`RandomAgent::any_direction`] plays like the seed program's random agent instead: any of the
/// four directions, even one that changes nothing.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: Xoshiro256PlusPlus,
    any_direction: bool,
}

impl RandomAgent {
    /// A random agent whose choices follow from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: Xoshiro256PlusPlus::seed_from_u64(seed), any_direction: false }
    }

    /// A random agent that picks any of the four directions, legal or not.
    ///
    /// # Examples
    ///
    /// ```
    /// use game2048::agents::RandomAgent;
    /// use game2048::play::play_game;
    /// use game2048::Rules;
    ///
    /// // Under the standard rule a no-op spawns nothing; the seed program spawned anyway.
    /// let standard = play_game(&mut RandomAgent::any_direction(3), &Rules::default(), 5, None, |_| {});
    /// let original = Rules { spawn_after_noop: true, ..Rules::default() };
    /// let seed_like = play_game(&mut RandomAgent::any_direction(3), &original, 5, None, |_| {});
    /// assert!(standard.board.is_terminal() && seed_like.board.is_terminal());
    /// ```
    pub fn any_direction(seed: u64) -> Self {
        RandomAgent { rng: Xoshiro256PlusPlus::seed_from_u64(seed), any_direction: true }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        if self.any_direction { "random (any direction)".to_string() } else { "random".to_string() }
    }

    fn decide(&mut self, board: Board) -> Decision {
        if self.any_direction {
            return no_search(Direction::ALL[self.rng.random_range(0..4)]);
        }
        let legal: Vec<Direction> = board.legal_moves().collect();
        assert!(!legal.is_empty(), "decide() needs a board with a legal move");
        no_search(legal[self.rng.random_range(0..legal.len())])
    }
}

/// How a seed agent's search values a lost board (no slide is legal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LostBoard {
    /// By the heuristic, like any other board: the seed program's rule (its `maxi` returns the
    /// heuristic of a board without a move, with no loss penalty). With the seed's final
    /// heuristic a full board scores high (its tile sum counts), so the search can walk into a
    /// loss.
    Heuristic,
    /// Below every board the heuristic values ([`Evaluation::loss`], or the heuristic's own
    /// [`Heuristic::lost`]): what the seed document asks for ("a won position must score higher
    /// than a lost one").
    Penalty,
}

/// The seed program's pruning of spawn nodes, as its code versions had it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeedPruning {
    /// None: every spawn node is searched to the depth limit.
    Off,
    /// The final program's "partial pruning": a spawn node with at least 6 empty cells (12
    /// spawns) and at most 2 levels left, counted after the node's own decrement, is valued by
    /// the heuristic.
    PartialCut,
    /// The earlier version that played the published depth-6 minimax row: the partial cut
    /// commented out, and a minimax spawn node with at most 2 levels left searches its first 10
    /// spawns (by cell, a 2 before a 4) and then, unless one of them ended the node by an
    /// alpha-beta cut-off, returns the heuristic of its own board. More than 10 spawns means at
    /// least 6 empty cells, so the value differs from [`SeedPruning::PartialCut`]'s only where
    /// one of the first 10 spawns fails low. An expectimax spawn node has no cut-off, so there
    /// it is [`SeedPruning::PartialCut`].
    FirstTen,
}

/// How the seed agents count depth, prune and value lost boards.
///
/// ```
/// use game2048::agents::{LostBoard, SeedConfig, SeedPruning};
/// use game2048::heuristics::MaxSqCoefSum;
/// use game2048::{Board, Game2048, Heuristic, Position};
/// use search_core::Evaluator;
///
/// // A lost board: the seed program values it by its heuristic, the described agent below all.
/// let lost: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
/// let game = Game2048::adversary();
/// let position = Position::slide(lost);
/// let value = |config: SeedConfig| config.evaluation(MaxSqCoefSum).terminal(&game, &position, 0, 3);
/// assert_eq!(value(SeedConfig::original(4)), MaxSqCoefSum.value(lost));
/// assert!(value(SeedConfig::described(4)) < 0.0);
/// assert_eq!(SeedConfig::earlier(6).pruning, SeedPruning::FirstTen);
/// assert_eq!(SeedConfig::original(6).lost, LostBoard::Heuristic);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedConfig {
    /// The depth limit.
    pub depth: u32,
    /// How depth is counted: the original program counted every layer
    /// ([`DepthCount::Plies`]); the document describes player moves ([`DepthCount::Moves`]).
    /// (The minimax adversary's layer is a player's, so it counts either way.)
    pub count: DepthCount,
    /// The pruning of spawn nodes.
    pub pruning: SeedPruning,
    /// How a lost board is valued.
    pub lost: LostBoard,
}

impl SeedConfig {
    /// What the final original program did at `depth`: plies counted, the partial cut, a lost
    /// board valued by the heuristic. Its published results at depth 4 (both agents) and 5
    /// (expectimax) come from this; the depth-6 minimax row from [`SeedConfig::earlier`].
    pub fn original(depth: u32) -> Self {
        SeedConfig {
            depth,
            count: DepthCount::Plies,
            pruning: SeedPruning::PartialCut,
            lost: LostBoard::Heuristic,
        }
    }

    /// The earlier version of the original program that played the published depth-6 minimax
    /// row: as [`SeedConfig::original`] but with [`SeedPruning::FirstTen`].
    pub fn earlier(depth: u32) -> Self {
        SeedConfig { pruning: SeedPruning::FirstTen, ..SeedConfig::original(depth) }
    }

    /// What the document describes: `depth` player moves, no partial pruning, a lost board
    /// below every other.
    pub fn described(depth: u32) -> Self {
        SeedConfig { depth, count: DepthCount::Moves, pruning: SeedPruning::Off, lost: LostBoard::Penalty }
    }

    /// The evaluator the seed agents search with under this configuration: `heuristic`, and lost
    /// boards valued as [`SeedConfig::lost`] says.
    pub fn evaluation<H: Heuristic>(&self, heuristic: H) -> Evaluation<LostRule<H>> {
        Evaluation::new(LostRule { heuristic, lost: self.lost })
    }

    fn horizon(&self) -> Horizon<SeedCut> {
        // FirstTen is PartialCut wherever no alpha-beta cut-off can happen (expectimax); the
        // minimax searches it on its own (`seed_program`).
        let cut = self.pruning != SeedPruning::Off;
        Horizon { depth: self.depth, count: self.count, cutoff: SeedCut(cut) }
    }

    fn label(&self) -> String {
        let count = match self.count {
            DepthCount::Plies => "plies",
            DepthCount::Moves => "moves",
        };
        let cut = match self.pruning {
            SeedPruning::Off => "",
            SeedPruning::PartialCut => ", partial cut",
            SeedPruning::FirstTen => ", first ten spawns",
        };
        let lost = match self.lost {
            LostBoard::Heuristic => ", lost board by heuristic",
            LostBoard::Penalty => ", loss penalty",
        };
        format!("d{} {count}{cut}{lost}", self.depth)
    }
}

/// A heuristic with the seed agents' rule for lost boards ([`SeedConfig::evaluation`]).
///
/// With [`LostBoard::Heuristic`] a lost board is worth what the heuristic gives it, so the
/// values stay within the heuristic's bounds; with [`LostBoard::Penalty`] the heuristic's own
/// rule applies (by default, below every board).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LostRule<H> {
    /// The heuristic.
    pub heuristic: H,
    /// How lost boards are valued.
    pub lost: LostBoard,
}

impl<H: Heuristic> Heuristic for LostRule<H> {
    fn value(&self, board: Board) -> f64 {
        self.heuristic.value(board)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        self.heuristic.bounds()
    }

    fn lost(&self, board: Board) -> Option<f64> {
        match self.lost {
            LostBoard::Heuristic => Some(self.heuristic.value(board)),
            LostBoard::Penalty => self.heuristic.lost(board),
        }
    }

    fn best_afterstate(&self, board: Board) -> Option<f64> {
        self.heuristic.best_afterstate(board)
    }

    fn expected_best_afterstate(&self, board: Board, two: f64, four: f64, lost: f64) -> f64 {
        match self.lost {
            LostBoard::Penalty => self.heuristic.expected_best_afterstate(board, two, four, lost),
            // `lost` is one value for every spawn; here each lost board has its own.
            LostBoard::Heuristic => {
                let mut sum = 0.0;
                let mut empty = board.empty_mask();
                while empty != 0 {
                    let cell = empty.trailing_zeros() as usize;
                    empty &= empty - 1;
                    for (rank, q) in [(1, two), (2, four)] {
                        if rank == 1 || four > 0.0 {
                            let spawned = board.with_rank(cell, rank);
                            let v = self.heuristic.best_afterstate(spawned);
                            sum += q * v.unwrap_or_else(|| self.heuristic.value(spawned));
                        }
                    }
                }
                sum
            }
        }
    }
}

/// The seed's partial cut, switchable: six empty cells are twelve spawns (a 2 and a 4 each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SeedCut(bool);

const SEED_PARTIAL_CUT: PartialCut = PartialCut { min_width: 12, max_remaining: 2 };

impl CutoffPolicy<Game2048> for SeedCut {
    fn cut(&self, game: &Game2048, state: &Position, ctx: &CutoffContext) -> bool {
        self.0 && SEED_PARTIAL_CUT.cut(game, state, ctx)
    }
}

/// Searches settings shared by the seed agents: no move ordering (moves in the seed's order, the
/// first of equal values kept) and no Star1 (the seed pruned nothing at chance nodes).
fn seed_search(config: &SeedConfig) -> alphabeta::Config<SeedCut> {
    alphabeta::Config { star1: false, killers: false, history: false, ..alphabeta::Config::depth(0) }
        .with_horizon(config.horizon())
}

/// The seed program's minimax as its code reads (`maxi` and `mini` of `MiniMax_Agent.py`), for
/// [`SeedPruning::FirstTen`], which is no cut-off policy: a node's value depends on whether a
/// cut-off came among its first children. Fail-soft alpha-beta, moves in [`Direction::ALL`]
/// order (the seed's ids sorted), spawns by cell then value, the first of equal moves kept.
/// Also the test oracle for the `search-core` minimax under the other settings.
mod seed_program {
    use super::{SeedConfig, SeedPruning};
    use crate::Heuristic;
    use crate::board::{Board, Direction};
    use crate::evaluation::Evaluation;

    pub(super) struct Search<'a, H> {
        pub(super) config: &'a SeedConfig,
        pub(super) eval: &'a Evaluation<super::LostRule<H>>,
        pub(super) nodes: u64,
    }

    impl<H: Heuristic> Search<'_, H> {
        /// A leaf: a lost board as [`SeedConfig::lost`] says, any other by the heuristic.
        fn leaf(&self, board: Board) -> f64 {
            if board.is_terminal() {
                self.eval.heuristic.lost(board).unwrap_or(self.eval.loss)
            } else {
                self.eval.heuristic.value(board)
            }
        }

        /// `maxi`: the value of `board` with the player to move and its best move.
        pub(super) fn maxi(&mut self, board: Board, mut a: f64, b: f64, d: u32) -> (f64, Option<Direction>) {
            self.nodes += 1;
            if d == 0 || board.is_terminal() {
                return (self.leaf(board), None);
            }
            let d = d - 1;
            let (mut best, mut best_move) = (f64::NEG_INFINITY, None);
            for (direction, after) in Direction::ALL.into_iter().zip(board.afters()) {
                let Some(after) = after else { continue };
                let v = self.mini(after, a, b, d);
                if v > best {
                    (best, best_move) = (v, Some(direction));
                }
                if best >= b {
                    break;
                }
                if best > a {
                    a = best;
                }
            }
            (best, best_move)
        }

        /// `mini`: the value of `board` with the adversary to place a tile.
        fn mini(&mut self, board: Board, a: f64, mut b: f64, d: u32) -> f64 {
            self.nodes += 1;
            if d == 0 || !board.has_empty() {
                return self.eval.heuristic.value(board);
            }
            let d = d - 1;
            let empty = board.empty_count();
            if self.config.pruning == SeedPruning::PartialCut && empty >= 6 && d <= 2 {
                return self.eval.heuristic.value(board);
            }
            let mut best = f64::INFINITY;
            let mut count = 0;
            let mut cells = board.empty_mask();
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                for rank in [1, 2] {
                    if self.config.pruning == SeedPruning::FirstTen && d <= 2 {
                        if count == 10 {
                            return self.eval.heuristic.value(board);
                        }
                        count += 1;
                    }
                    let (v, _) = self.maxi(board.with_rank(cell, rank), a, b, d);
                    if v < best {
                        best = v;
                    }
                    if best <= a {
                        return best;
                    }
                    if best < b {
                        b = best;
                    }
                }
            }
            best
        }
    }
}

/// One ply: the move whose resulting board (before the spawn) the heuristic likes best.
#[derive(Clone, Debug)]
pub struct Greedy<H> {
    eval: Evaluation<H>,
}

impl<H: Heuristic> Greedy<H> {
    /// A greedy agent with `heuristic`.
    pub fn new(heuristic: H) -> Self {
        Greedy { eval: Evaluation::new(heuristic) }
    }
}

impl<H: Heuristic> Agent for Greedy<H> {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn decide(&mut self, board: Board) -> Decision {
        let config =
            alphabeta::Config { star1: false, killers: false, history: false, ..alphabeta::Config::depth(1) };
        let result =
            alphabeta::search(&Game2048::chance(0.1), &self.eval, &Position::slide(board), &config, NoTable);
        decision(&result, board)
    }
}

/// The seed document's minimax: the game is an adversary that puts a 2 or a 4 on the empty cell
/// that hurts most, and the player maximises against it with alpha-beta.
///
/// ```
/// use game2048::agents::{Agent, SeedConfig, SeedMinimax};
/// use game2048::heuristics::MaxSqCoefSum;
/// use game2048::Board;
///
/// let board: Board = "2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
/// // The earlier code version of the published depth-6 row and the final one.
/// let earlier = SeedMinimax::new(SeedConfig::earlier(6), MaxSqCoefSum).decide(board);
/// let original = SeedMinimax::new(SeedConfig::original(6), MaxSqCoefSum).decide(board);
/// assert!(board.play(earlier.direction).is_some() && board.play(original.direction).is_some());
/// ```
#[derive(Clone, Debug)]
pub struct SeedMinimax<H> {
    /// Depth counting, pruning and the value of lost boards, read at every decision.
    pub config: SeedConfig,
    heuristic: H,
}

impl<H: Heuristic> SeedMinimax<H> {
    /// The seed's minimax with `heuristic`.
    pub fn new(config: SeedConfig, heuristic: H) -> Self {
        SeedMinimax { config, heuristic }
    }
}

impl<H: Heuristic> Agent for SeedMinimax<H> {
    fn name(&self) -> String {
        format!("minimax {}", self.config.label())
    }

    fn decide(&mut self, board: Board) -> Decision {
        let eval = self.config.evaluation(&self.heuristic);
        if self.config.pruning == SeedPruning::FirstTen {
            let started = std::time::Instant::now();
            let mut search = seed_program::Search { config: &self.config, eval: &eval, nodes: 0 };
            let (value, direction) = search.maxi(board, f64::NEG_INFINITY, f64::INFINITY, self.config.depth);
            let direction = direction
                .or_else(|| board.legal_moves().next())
                .expect("decide() needs a board with a legal move");
            let mut stats = SearchStats::default();
            (stats.nodes, stats.elapsed) = (search.nodes, started.elapsed());
            return Decision { direction, value: Some(value), stats };
        }
        let result = alphabeta::search(
            &Game2048::adversary(),
            &eval,
            &Position::slide(board),
            &seed_search(&self.config),
            NoTable,
        );
        decision(&result, board)
    }
}

/// The seed document's expectimax: spawns are chance nodes, each (cell, 2) with probability
/// 0.9/n and each (cell, 4) with 0.1/n.
///
/// The original program shuffled moves and spawns, so it broke ties at random; this one keeps the
/// first of equal moves in [`Direction::ALL`] order, so a game depends only on its seed.
#[derive(Clone, Debug)]
pub struct SeedExpectimax<H> {
    /// Depth counting, pruning and the value of lost boards, read at every decision.
    pub config: SeedConfig,
    /// The probability of a 4 the search assumes.
    pub four_probability: f64,
    heuristic: H,
}

impl<H: Heuristic> SeedExpectimax<H> {
    /// The seed's expectimax with `heuristic` and the standard spawn probabilities.
    pub fn new(config: SeedConfig, heuristic: H) -> Self {
        SeedExpectimax { config, four_probability: 0.1, heuristic }
    }
}

impl<H: Heuristic> Agent for SeedExpectimax<H> {
    fn name(&self) -> String {
        format!("expectimax {}", self.config.label())
    }

    fn decide(&mut self, board: Board) -> Decision {
        let game = Game2048::chance(self.four_probability);
        let eval = self.config.evaluation(&self.heuristic);
        let result =
            alphabeta::search(&game, &eval, &Position::slide(board), &seed_search(&self.config), NoTable);
        decision(&result, board)
    }
}

/// Settings of the strong expectimax.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrongConfig {
    /// Chance nodes reached with a smaller path probability are valued by the heuristic
    /// (nneonneo's program uses 1e-4).
    pub probability_cutoff: f64,
    /// The depth in player moves is `max(min_depth, distinct tiles − depth_offset) + 1`: deeper as
    /// the board fills with different tiles, where mistakes cost most. nneonneo's program uses
    /// 3 and 2.
    pub min_depth: u32,
    /// See `min_depth`.
    pub depth_offset: u32,
    /// A cap on the depth in player moves.
    pub max_depth: u32,
    /// Root moves searched in parallel on this many threads (`0`: rayon's default pool, `1`:
    /// serial). Each root move has its own table, so every setting gives the serial result.
    pub threads: usize,
    /// Slots of each root move's table of chance values (a power of two, at least 2^16; 16 bytes each; 0 for
    /// none). Each root move starts with an empty one, as in nneonneo's program.
    pub table_slots: usize,
    /// The probability of a 4 the search assumes.
    pub four_probability: f64,
    /// Another cut-off and depth cap for the late game, from the first board holding a given
    /// tile (`None`: one setting all game): the stage after a large tile is the hardest, and a
    /// search can spend its time there rather than on the early boards, which a shallow
    /// search plays well. (With a network after about a million games, the deep setting from
    /// the first 16384 on scored more in 51 of 85 games and less in 34; docs/ntuple.md.)
    pub late: Option<LateSearch>,
}

/// The search setting of [`StrongConfig::late`]: boards holding `from_tile` or a larger tile
/// are searched with `probability_cutoff` and `max_depth` instead of the configuration's own.
///
/// Written `TILE,CUTOFF,DEPTH` on command lines:
///
/// ```
/// use game2048::agents::LateSearch;
///
/// let late: LateSearch = "16384,0.001,4".parse().unwrap();
/// assert_eq!(late, LateSearch { from_tile: 16384, probability_cutoff: 0.001, max_depth: 4 });
/// assert_eq!(late.to_string(), "16384,0.001,4");
/// assert!("16384,2,4".parse::<LateSearch>().is_err()); // a cut-off is a probability
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LateSearch {
    /// The smallest tile that switches the setting (a power of two from 4 to 65536).
    pub from_tile: u32,
    /// The probability cut-off on those boards.
    pub probability_cutoff: f64,
    /// The depth cap on those boards, in player moves (at least 1).
    pub max_depth: u32,
}

/// Why a [`LateSearch`] could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad late search {text:?}: {reason} (expected TILE,CUTOFF,DEPTH, e.g. 16384,0.001,4)")]
pub struct ParseLateSearchError {
    text: String,
    reason: &'static str,
}

impl std::str::FromStr for LateSearch {
    type Err = ParseLateSearchError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = |reason| ParseLateSearchError { text: text.to_string(), reason };
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let [tile, cutoff, depth] = parts[..] else { return Err(error("not three values")) };
        let from_tile = tile
            .parse::<u32>()
            .ok()
            .filter(|t| t.is_power_of_two() && (4..=1 << 16).contains(t))
            .ok_or_else(|| error("the tile is not a power of two from 4 to 65536"))?;
        let probability_cutoff = cutoff
            .parse::<f64>()
            .ok()
            .filter(|c| (0.0..=1.0).contains(c))
            .ok_or_else(|| error("the cut-off is not a probability"))?;
        let max_depth = depth
            .parse::<u32>()
            .ok()
            .filter(|&d| d >= 1)
            .ok_or_else(|| error("the depth is not a whole number of at least 1"))?;
        Ok(LateSearch { from_tile, probability_cutoff, max_depth })
    }
}

impl std::fmt::Display for LateSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", self.from_tile, self.probability_cutoff, self.max_depth)
    }
}

impl Default for StrongConfig {
    fn default() -> Self {
        StrongConfig {
            probability_cutoff: 1e-4,
            min_depth: 3,
            depth_offset: 2,
            max_depth: 12,
            threads: 1,
            table_slots: 1 << 17,
            four_probability: 0.1,
            late: None,
        }
    }
}

impl StrongConfig {
    /// The depth in player moves this configuration searches `board` to.
    pub fn depth_for(&self, board: Board) -> u32 {
        self.setting_for(board).1
    }

    /// The probability cut-off and the depth in player moves this configuration searches
    /// `board` with ([`StrongConfig::late`] on late boards).
    pub fn setting_for(&self, board: Board) -> (f64, u32) {
        let (cutoff, cap) = match self.late {
            Some(late) if board.max_tile() >= late.from_tile => (late.probability_cutoff, late.max_depth),
            _ => (self.probability_cutoff, self.max_depth),
        };
        let by_tiles = board.distinct_tiles().saturating_sub(self.depth_offset);
        (cutoff, (by_tiles.max(self.min_depth) + 1).min(cap))
    }
}

/// A strong expectimax in the class of the strongest public hand-written 2048 programs: a
/// probability cut-off, a table of chance values, a depth chosen from the number of distinct
/// tiles, parallel root moves on rayon and a loss penalty (lost positions score below every
/// board). It runs [`search_core::expectimax`], nneonneo/2048-ai's search: at its settings
/// ([`StrongConfig::default`]) it picks the same moves.
#[derive(Debug)]
pub struct Strong<H> {
    /// The settings.
    pub config: StrongConfig,
    eval: Evaluation<H>,
    tables: Mutex<ChanceTables>,
    pool: Option<rayon::ThreadPool>,
}

impl<H: Heuristic> Strong<H> {
    /// A strong agent with `heuristic` (use [`crate::heuristics::LineTable`] for full strength).
    pub fn new(config: StrongConfig, heuristic: H) -> Self {
        let pool = (config.threads > 1)
            .then(|| rayon::ThreadPoolBuilder::new().num_threads(config.threads).build().ok())
            .flatten();
        let tables = match config.table_slots {
            0 => ChanceTables::none(),
            slots => ChanceTables::with_capacity(slots),
        };
        Strong { config, eval: Evaluation::new(heuristic), tables: Mutex::new(tables), pool }
    }

    /// The full search result for `board` (value, move, statistics).
    pub fn search(&self, board: Board) -> SearchResult<Action, f64> {
        let (threshold, depth) = self.config.setting_for(board);
        let horizon = Horizon { depth, count: DepthCount::Moves, cutoff: ProbabilityCutoff { threshold } };
        // Any setting but 1 thread runs the root moves on a pool: this agent's, or with 0 the
        // current one.
        let parallel = self.config.threads != 1;
        let config = expectimax::Config { horizon, reuse: Reuse::Deeper, parallel };
        let game = Game2048::chance(self.config.four_probability);
        let root = Position::slide(board);
        // A poisoned lock only means another thread panicked mid-search; the tables hold no
        // invariant a new search relies on (each root move starts a new generation).
        let mut guard = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let tables: &mut ChanceTables = &mut guard;
        let search =
            |tables: &mut ChanceTables| expectimax::search(&game, &self.eval, &root, &config, tables);
        match &self.pool {
            Some(pool) => pool.install(|| search(tables)),
            None => search(tables),
        }
    }
}

impl<H: Heuristic> Agent for Strong<H> {
    fn name(&self) -> String {
        let late = match self.config.late {
            Some(late) => format!(
                ", from {} cprob {} depth {}",
                late.from_tile, late.probability_cutoff, late.max_depth
            ),
            None => String::new(),
        };
        format!(
            "strong expectimax (cprob {}, {} threads{late})",
            self.config.probability_cutoff, self.config.threads
        )
    }

    fn decide(&mut self, board: Board) -> Decision {
        let result = self.search(board);
        decision(&result, board)
    }
}

// Every agent here is also the workspace's one agent trait (see `Agent`'s docs).
macro_rules! plays_in_any_runner {
    ($(impl[$($generics:tt)*] $agent:ty;)*) => {$(
        impl<$($generics)*> search_core::agent::Agent<Game2048> for $agent {
            fn name(&self) -> String {
                Agent::name(self)
            }

            fn choose(&mut self, _: &Game2048, position: &Position) -> Action {
                assert!(position.turn == crate::rules::Turn::Slide, "a 2048 agent slides; the spawn is chance's");
                Action::Slide(self.decide(position.board).direction)
            }
        }
    )*};
}

plays_in_any_runner! {
    impl[] RandomAgent;
    impl[H: Heuristic] Greedy<H>;
    impl[H: Heuristic] SeedMinimax<H>;
    impl[H: Heuristic] SeedExpectimax<H>;
    impl[H: Heuristic] Strong<H>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::{Outcome, play_game};
    use crate::rules::Rules;

    /// Tile sum: enough to tell moves apart in these tests.
    struct Sum;
    impl Heuristic for Sum {
        fn value(&self, board: Board) -> f64 {
            // Prefer boards with few tiles (merges), then a big corner tile.
            f64::from(board.empty_count()) * 100.0 + f64::from(board.value(0))
        }
        fn bounds(&self) -> Option<(f64, f64)> {
            Some((0.0, 1600.0 + 32768.0))
        }
    }

    fn open_board() -> Board {
        "2 0 0 0/0 4 0 0/0 0 2 0/0 0 0 8".parse().unwrap()
    }

    /// The reference's reading of the original program at depth 4: on an open board every spawn
    /// node below the root has ≥ 6 empty cells and 2 levels left, so the search is one ply of
    /// afterstates: the greedy agent's choice, with one partial cut per root move.
    #[test]
    fn original_depth_4_is_greedy_on_an_open_board() {
        let board = open_board();
        let mut seed = SeedExpectimax::new(SeedConfig::original(4), Sum);
        let mut greedy = Greedy::new(Sum);
        let (a, b) = (seed.decide(board), greedy.decide(board));
        assert_eq!((a.direction, a.value), (b.direction, b.value));
        assert_eq!(a.stats.policy_cutoffs, board.legal_moves().count() as u64);
        let mut minimax = SeedMinimax::new(SeedConfig::original(4), Sum);
        let m = minimax.decide(board);
        assert_eq!((m.direction, m.value), (b.direction, b.value));
    }

    /// At depth 5 the original expectimax goes move, spawn, move, then cuts the second spawn
    /// layer on an open board: two own moves, as the described search at depth 2.
    #[test]
    fn original_depth_5_cuts_the_second_spawn_layer() {
        let board = open_board();
        let mut original = SeedExpectimax::new(SeedConfig::original(5), Sum);
        let mut described = SeedExpectimax::new(SeedConfig::described(2), Sum);
        let (a, b) = (original.decide(board), described.decide(board));
        assert_eq!((a.direction, a.value), (b.direction, b.value));
        assert!(a.stats.policy_cutoffs > 0);
        // Without the cut, depth 5 in plies searches one more own move.
        let mut uncut =
            SeedExpectimax::new(SeedConfig { pruning: SeedPruning::Off, ..SeedConfig::original(5) }, Sum);
        let c = uncut.decide(board);
        assert_eq!(c.stats.policy_cutoffs, 0);
        assert!(c.stats.leaves > a.stats.leaves);
    }

    /// The original minimax at depth 6: move, spawn, move, cut spawn layer (3 → 2 left).
    #[test]
    fn original_minimax_depth_6_cuts_at_the_second_spawn_layer() {
        let board = open_board();
        let a = SeedMinimax::new(SeedConfig::original(6), Sum).decide(board);
        let b = SeedMinimax::new(SeedConfig::described(2), Sum).decide(board);
        assert_eq!((a.direction, a.value), (b.direction, b.value));
        assert!(a.stats.policy_cutoffs > 0);
    }

    /// The minimax adversary puts the worst tile in the worst place: the value of a move is the
    /// heuristic of its worst spawn, never more than the expectimax value of the same move.
    #[test]
    fn minimax_is_pessimistic() {
        let board = open_board();
        let m = SeedMinimax::new(SeedConfig::described(2), Sum).decide(board);
        let e = SeedExpectimax::new(SeedConfig::described(2), Sum).decide(board);
        assert!(m.value.unwrap() <= e.value.unwrap());
    }

    /// A lost position scores below every board the heuristic can value, and the bounds Star1
    /// relies on include it.
    #[test]
    fn loss_is_below_every_board() {
        use search_core::Evaluator;
        let eval = Evaluation::new(Sum);
        let lost: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
        let game = Game2048::chance(0.1);
        let v = eval.terminal(&game, &Position::slide(lost), 0, 5);
        assert!(v < Sum.bounds().unwrap().0);
        assert_eq!(eval.bounds().unwrap().0, v);
    }

    /// The seed program values a lost board by its heuristic; the described agents put it below
    /// every board. On this position Up leaves one empty cell whose every spawn loses (the
    /// tiles are all different), Left leaves the 2 and the 4 beside it; the seed's final
    /// heuristic likes the lost boards after Up better (by 0.004), so the original agents walk
    /// into the loss and the described ones do not.
    #[test]
    fn lost_board_by_heuristic_or_penalty() {
        use crate::heuristics::MaxSqCoefSum;
        use search_core::Evaluator;
        let lost: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
        let (game, position) = (Game2048::adversary(), Position::slide(lost));
        let original = SeedConfig::original(4).evaluation(MaxSqCoefSum);
        let described = SeedConfig::described(4).evaluation(MaxSqCoefSum);
        assert_eq!(original.terminal(&game, &position, 0, 3), MaxSqCoefSum.value(lost));
        let penalty = Evaluation::new(MaxSqCoefSum).loss;
        assert_eq!(described.terminal(&game, &position, 0, 3), penalty);
        assert!(penalty < MaxSqCoefSum.bounds().unwrap().0);
        // The earlier code version values it as the final one.
        assert_eq!(
            SeedConfig::earlier(6).evaluation(MaxSqCoefSum).terminal(&game, &position, 0, 3),
            MaxSqCoefSum.value(lost)
        );

        let board: Board = "0 8192 1024 2/32768 4096 64 4/16384 256 512 8/2048 32 16 128".parse().unwrap();
        let up = board.play(Direction::Up).unwrap().board;
        assert!(up.empty_count() == 1 && [1, 2].iter().all(|&r| up.with_rank(12, r).is_terminal()));
        assert_eq!(board.legal_moves().collect::<Vec<_>>(), [Direction::Up, Direction::Left]);
        let penalised = SeedConfig { lost: LostBoard::Penalty, ..SeedConfig::original(2) };
        for (config, expected) in [
            (SeedConfig::original(2), Direction::Up),
            (penalised, Direction::Left),
            (SeedConfig::described(2), Direction::Left),
        ] {
            let m = SeedMinimax::new(config, MaxSqCoefSum).decide(board);
            let e = SeedExpectimax::new(config, MaxSqCoefSum).decide(board);
            assert_eq!((m.direction, e.direction), (expected, expected), "{config:?}");
        }
        let m = SeedMinimax::new(SeedConfig::original(2), MaxSqCoefSum).decide(board);
        assert_eq!(
            m.value,
            Some(MaxSqCoefSum.value(up.with_rank(12, 1)).min(MaxSqCoefSum.value(up.with_rank(12, 2))))
        );
    }

    /// Boards from seeded games of the original minimax, in every stage of a game.
    fn played_boards(games: u64, every: u64) -> Vec<Board> {
        use crate::heuristics::MaxSqCoefSum;
        let mut boards = Vec::new();
        for seed in 0..games {
            let mut agent = SeedMinimax::new(SeedConfig::original(4), MaxSqCoefSum);
            play_game(&mut agent, &Rules::seed(), seed, None, |report| {
                if report.number % every == 0 && !report.after.is_terminal() {
                    boards.push(report.after);
                }
            });
        }
        boards
    }

    /// The `search-core` minimax under the original settings and a line-by-line port of the
    /// seed program's `maxi`/`mini` choose the same move with the same value on boards from
    /// whole games, lost boards below the horizon included, with the seed's rule for them and
    /// with the penalty; and the earlier code version (first ten spawns) is another search.
    #[test]
    fn original_minimax_is_the_seed_programs() {
        use crate::heuristics::{MaxSqCoefSum, Mixed};
        let boards = played_boards(3, 7);
        assert!(boards.len() > 200, "{}", boards.len());
        let mut differ = 0;
        for (i, &board) in boards.iter().enumerate() {
            let depth = if i % 3 == 0 { 6 } else { 4 };
            for config in [
                SeedConfig::original(depth),
                SeedConfig { lost: LostBoard::Penalty, ..SeedConfig::original(depth) },
            ] {
                let ours = SeedMinimax::new(config, MaxSqCoefSum).decide(board);
                let eval = config.evaluation(MaxSqCoefSum);
                let mut port = seed_program::Search { config: &config, eval: &eval, nodes: 0 };
                let (value, direction) = port.maxi(board, f64::NEG_INFINITY, f64::INFINITY, depth);
                assert_eq!(
                    (ours.direction, ours.value),
                    (direction.unwrap(), Some(value)),
                    "{board} {config:?}"
                );
            }
            let mixed = SeedMinimax::new(SeedConfig::original(depth), Mixed).decide(board);
            let eval = SeedConfig::original(depth).evaluation(Mixed);
            let mut port =
                seed_program::Search { config: &SeedConfig::original(depth), eval: &eval, nodes: 0 };
            assert_eq!(port.maxi(board, f64::NEG_INFINITY, f64::INFINITY, depth).1, Some(mixed.direction));
            if depth == 6 {
                let final_ = SeedMinimax::new(SeedConfig::original(6), MaxSqCoefSum).decide(board);
                let earlier = SeedMinimax::new(SeedConfig::earlier(6), MaxSqCoefSum).decide(board);
                differ += usize::from(final_.direction != earlier.direction);
            }
        }
        // Not the same search: it changes some moves.
        assert!(differ > 0, "the earlier version chose as the final one on every board");
    }

    #[test]
    fn strong_depth_grows_with_distinct_tiles() {
        let config = StrongConfig::default();
        assert_eq!(config.depth_for(open_board()), 4);
        let varied: Board = "2 4 8 16/32 64 128 256/512 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(config.depth_for(varied), 8);
        assert_eq!(StrongConfig { max_depth: 5, ..config }.depth_for(varied), 5);
    }

    /// A late setting applies from its tile on (its cut-off and its cap), and the search on a
    /// late board is the search of the late setting alone; before it, the plain one.
    #[test]
    fn strong_switches_to_the_late_setting_at_its_tile() {
        let late = LateSearch { from_tile: 512, probability_cutoff: 0.05, max_depth: 2 };
        let plain =
            StrongConfig { probability_cutoff: 0.01, max_depth: 3, threads: 1, ..StrongConfig::default() };
        let switching = StrongConfig { late: Some(late), ..plain };
        let as_late = StrongConfig { probability_cutoff: 0.05, max_depth: 2, ..plain };
        let early: Board = "2 4 8 0/0 4 16 0/0 2 256 0/0 0 0 2".parse().unwrap();
        let at_tile: Board = "2 4 8 0/0 4 16 0/0 2 512 0/0 0 0 2".parse().unwrap();
        assert_eq!(switching.setting_for(early), (0.01, 3));
        assert_eq!(switching.setting_for(at_tile), (0.05, 2));
        let search = |config: StrongConfig, board| {
            let result = Strong::new(config, Sum).search(board);
            (result.best_move, result.value.to_bits(), result.stats.nodes)
        };
        assert_eq!(search(switching, early), search(plain, early));
        assert_eq!(search(switching, at_tile), search(as_late, at_tile));
        assert_ne!(search(plain, at_tile).2, search(as_late, at_tile).2, "the settings differ");
        // Written and read back; bad text is refused with its reason.
        assert_eq!(late.to_string().parse::<LateSearch>(), Ok(late));
        for (bad, reason) in [
            ("512,0.05", "three values"),
            ("500,0.05,2", "power of two"),
            ("2,0.05,2", "power of two"),
            ("512,-1,2", "probability"),
            ("512,0.05,0", "at least 1"),
            ("512,0.05,x", "at least 1"),
        ] {
            let err = bad.parse::<LateSearch>().unwrap_err().to_string();
            assert!(err.contains(reason) && err.contains(bad), "{bad}: {err}");
        }
        assert!(Strong::new(switching, Sum).name().contains("from 512"));
    }

    #[test]
    fn strong_parallel_equals_serial() {
        let board: Board = "2 4 8 0/0 4 16 0/0 2 32 0/0 0 0 2".parse().unwrap();
        let config = StrongConfig { probability_cutoff: 0.01, ..StrongConfig::default() };
        let serial = Strong::new(config, Sum).search(board);
        let parallel = Strong::new(StrongConfig { threads: 2, ..config }, Sum).search(board);
        assert_eq!((serial.value, serial.best_move), (parallel.value, parallel.best_move));
        assert_eq!(serial.stats.nodes, parallel.stats.nodes);
    }

    #[test]
    fn games_are_reproducible() {
        let rules = Rules::default();
        let mut agent = SeedExpectimax::new(SeedConfig::original(3), Sum);
        let a = play_game(&mut agent, &rules, 11, Some(60), |_| {});
        let b = play_game(&mut agent, &rules, 11, Some(60), |_| {});
        assert_eq!((a.board, a.score, a.moves), (b.board, b.score, b.moves));
        assert_eq!(a.outcome, Outcome::MoveLimit);
        let c = play_game(&mut agent, &rules, 12, Some(60), |_| {});
        assert_ne!(a.board, c.board);
    }
}
