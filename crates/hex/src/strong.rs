//! The strong player: selective iterative-deepening alpha-beta on Queenbee's two-distance, with
//! a transposition table, under a time or node budget per move.
//!
//! # How it plays
//!
//! 1. **Critical cells** first ([`critical_cell`]): a cell that wins at once is played, else the
//!    cell where the opponent would win at once.
//! 2. **Bridge repair**: if the opponent holds one carrier cell of an own bridge whose ends are not
//!    yet joined, the other carrier cell is played ([`bridge_repairs`]; the best by the evaluation
//!    if several). Repair is almost always right in Hex, and playing it at once saves the search
//!    a move it would find anyway.
//! 3. **Search**: iterative deepening with `search-core`'s fail-hard alpha-beta, its
//!    transposition table (kept from move to move) and killer moves, over [`StrongGame`], which
//!    generates moves *selectively*, as Wolve does (`ply_width 15`): a side that can win at
//!    once has only its winning cell; a side facing a win in one has only the cells that stop
//!    it; otherwise the [`StrongConfig::width`] empty cells with the lowest sum of both colours'
//!    two-distance potentials (the cells on both players' best routes: Queenbee's move
//!    ordering), after any bridge repair. The leaves are valued by [`TwoDistance`], the
//!    opponent's best potential minus the own; a finished game is worth
//!    [`WIN`] minus its distance.
//!
//! # Why these choices
//!
//! - **Two-distance** rather than the seeds' shortest paths: a path the opponent can cut with
//!   one stone is worth little, and two-distance counts only routes with two ways forward,
//!   which is what bridges give. In matches between the evaluations (tier 1 of
//!   `cargo xtask eval --game hex`) it beat the madeup, coolcow and 0-1 BFS evaluations.
//!   Wolve's electrical resistance is not
//!   implemented: two-distance already beats every seed player.
//! - **Selective width 12**: at the same node budget a selective search reaches much deeper
//!   than a full-width one, and width 12 beat full width head to head; against widths 6 and
//!   20 the difference was within the noise, so 12 stays, close to Wolve's 15.
//! - **History ordering off**: it would reorder by history score and override the potential
//!   order the move generator gives; killers stay on.
//! - **Bridge repair as a rule**: about level with the same player without it; kept because it
//!   is the seed's rule and saves a search.
//! - **No call to the exact solver** ([`crate::solver`]): its search is slow next to this
//!   player's, so a probe big enough to matter costs more than a move's time, and in self-play
//!   it proved results only when the game was already decided and this player's own search
//!   plays it out.
//! - **MCTS plays better at equal time**: [`crate::mcts::MctsPlayer`] (UCT with RAVE and
//!   bridge-aware playouts) beats this player in matches at equal time, so the GTP engine plays
//!   MCTS by default; this player remains the deterministic one under a node budget, which is
//!   why the evaluation tiers use it.
//!
//! Against the seed players at their default depth 3 it wins almost every game on 9×9 and 11×11
//! with 20,000 nodes a move (`cargo xtask eval --game hex`).
//!
//! Measured strength, with the commands that reproduce it: `docs/measurements.md` in the
//! repository.
//!
//! # Examples
//!
//! ```
//! use hex::strong::{StrongConfig, StrongPlayer};
//! use hex::{HexPlayer, Position};
//!
//! let pos = Position::new(5).unwrap();
//! let mut player = StrongPlayer::new(StrongConfig::nodes(2_000));
//! let mv = player.choose_move(&pos);
//! assert!(pos.play(mv).is_ok());
//! ```

use std::time::Duration;

use search_core::{
    Evaluator, Limits, MoveList, MovePicker, Narrowed, Player, SearchResult, TranspositionTable, WallClock,
    alphabeta, iterative,
};

use crate::board::{Board, Cell, Color, HexMove, Position};
use crate::distances::{TwoDistances, two_distance};
use crate::heuristics::{Critical, TwoDistance, WIN, bridge_repairs, critical_cell, terminal_value};
use crate::rules::HexGame;

/// Settings of [`StrongPlayer`]: its budget per move and how selective it searches.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use hex::strong::StrongConfig;
///
/// let config = StrongConfig::time(Duration::from_millis(200));
/// assert_eq!(config.time, Some(Duration::from_millis(200)));
/// assert_eq!(config.nodes, None);
/// let fixed = StrongConfig::nodes(5_000);
/// assert_eq!((fixed.time, fixed.nodes), (None, Some(5_000)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrongConfig {
    /// The time per move (wall clock), if limited. A timed search depends on the machine's speed
    /// and load, so two runs may differ.
    pub time: Option<Duration>,
    /// The node budget per move over all iterations, if limited. A search limited only by nodes
    /// and depth is deterministic.
    pub nodes: Option<u64>,
    /// The deepest iteration.
    pub max_depth: u32,
    /// The number of transposition-table slots (rounded up to a power of two).
    pub table_entries: usize,
    /// How many cells each node searches when nothing is forced (Wolve's `ply_width`); `0`
    /// searches every empty cell.
    pub width: usize,
    /// Play the repair of an intruded bridge without searching.
    pub repair_bridges: bool,
}

impl StrongConfig {
    /// The default width.
    pub const DEFAULT_WIDTH: usize = 12;

    /// The default settings with `time` per move.
    pub fn time(time: Duration) -> Self {
        StrongConfig { time: Some(time), ..StrongConfig::default() }
    }

    /// The default settings with a node budget and no time limit: deterministic.
    pub fn nodes(nodes: u64) -> Self {
        StrongConfig { time: None, nodes: Some(nodes), ..StrongConfig::default() }
    }

    /// The default settings searching every move to exactly `depth` (no time or node limit):
    /// deterministic.
    pub fn depth(depth: u32) -> Self {
        StrongConfig { time: None, nodes: None, max_depth: depth, ..StrongConfig::default() }
    }

    /// The same with another width.
    pub fn with_width(self, width: usize) -> Self {
        StrongConfig { width, ..self }
    }
}

impl Default for StrongConfig {
    /// 0.2 s per move, up to depth 32, 2^18 table slots, width 12, bridge repair on.
    fn default() -> Self {
        StrongConfig {
            time: Some(Duration::from_millis(200)),
            nodes: None,
            max_depth: 32,
            table_entries: 1 << 18,
            width: StrongConfig::DEFAULT_WIDTH,
            repair_bridges: true,
        }
    }
}

/// The strong player's selective move generation, a [`MovePicker`] over [`HexGame`] (the
/// game searched is [`StrongGame`]).
///
/// The moves of a position, in search order:
///
/// - if the side to move can connect at once: its first winning cell only;
/// - else if the opponent could connect at once: the cells where it could (playing elsewhere
///   loses at once, and with two such cells the game is lost whatever is played);
/// - else the bridge repairs, then the empty cells with the lowest sum of both colours'
///   two-distance potentials, up to `width` cells in all (ties nearest the centre first, then
///   row by row), then the swap when it is legal.
///
/// A winning cell is one with potential 2: it touches both the colour's edges, directly or
/// through its groups. Positions, hashes and move indices stay [`HexGame`]'s.
///
/// # Examples
///
/// ```
/// use hex::strong::{StrongMoves, strong_game};
/// use hex::{Cell, HexMove, Position};
/// use search_core::{Game, MoveList};
///
/// // 3x3, Black to move with b1 and b2: only the winning cell a3 is generated.
/// let mut pos = Position::new(3).unwrap();
/// for (r, c) in [(0, 1), (0, 0), (1, 1), (1, 0)] {
///     pos = pos.play(HexMove::Place(Cell::new(r, c))).unwrap();
/// }
/// let mut moves = MoveList::new();
/// strong_game(3, 8).moves(&pos, &mut moves);
/// assert_eq!(moves.as_slice(), &[HexMove::Place(Cell::new(2, 0))]);
/// assert_eq!(StrongMoves::new(3, 8).ordered_moves(&pos), moves.to_vec());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrongMoves {
    /// The board side.
    pub size: u8,
    /// The most cells searched at a node where nothing is forced; `0` for all.
    pub width: usize,
}

impl StrongMoves {
    /// The picker for an n×n board, searching `width` cells per node (`0`: all).
    pub fn new(size: u8, width: usize) -> Self {
        StrongMoves { size, width }
    }

    /// The moves of `position` in search order, as the strong game's [`search_core::Game::moves`] gives them.
    pub fn ordered_moves(&self, position: &Position) -> Vec<HexMove> {
        let mut moves = MoveList::new();
        self.pick(&HexGame::new(self.size), position, &mut moves);
        moves.to_vec()
    }
}

/// Hex as the strong player searches it: [`HexGame`] with the moves [`StrongMoves`] picks.
pub type StrongGame = Narrowed<HexGame, StrongMoves>;

/// The strong game on an n×n board, searching `width` cells per node (`0`: all).
pub fn strong_game(size: u8, width: usize) -> StrongGame {
    Narrowed { game: HexGame::new(size), picker: StrongMoves::new(size, width) }
}

/// Twice the hex distance from `cell` to the middle of an n×n board (doubled, so that the
/// middle of an even board, between cells, is exact).
fn centre_distance(cell: Cell, size: u8) -> u8 {
    let dr = 2 * i16::from(cell.row) - (i16::from(size) - 1);
    let dc = 2 * i16::from(cell.col) - (i16::from(size) - 1);
    dr.abs().max(dc.abs()).max((dr + dc).abs()) as u8
}

/// The empty cells with potential 2 (a stone there connects at once), row by row.
fn winning_cells(board: &Board, twod: &TwoDistances) -> impl Iterator<Item = Cell> {
    board.empty_cells().filter(move |&c| twod.potential(c) == Some(2))
}

impl MovePicker<HexGame> for StrongMoves {
    fn pick(&self, _: &HexGame, position: &Position, moves: &mut MoveList<HexMove>) {
        let board = position.board();
        let me = position.to_move();
        let mine = two_distance(board, me);
        if let Some(cell) = winning_cells(board, &mine).next() {
            moves.push(HexMove::Place(cell));
            return;
        }
        let theirs = two_distance(board, me.opponent());
        let blocks = moves.len();
        moves.extend(winning_cells(board, &theirs).map(HexMove::Place));
        if moves.len() > blocks {
            return;
        }
        let repairs = bridge_repairs(board, me);
        moves.extend(repairs.iter().map(|&c| HexMove::Place(c)));
        // A cell without a potential for a colour lies on none of its two-way routes; it counts
        // as far as the worst possible potential.
        let far = 4 * u32::from(self.size) * u32::from(self.size);
        // Equal sums are common (on the empty board the whole short diagonal ties); nearer the
        // centre comes first, since the search keeps the first of equal moves and a corner
        // stone is worth far less than a central one.
        let mut ranked: Vec<(u32, u8, Cell)> = board
            .empty_cells()
            .filter(|c| !repairs.contains(c))
            .map(|c| {
                let sum = mine.potential(c).unwrap_or(far) + theirs.potential(c).unwrap_or(far);
                (sum, centre_distance(c, self.size), c)
            })
            .collect();
        ranked.sort_unstable();
        let room = if self.width == 0 { ranked.len() } else { self.width.saturating_sub(repairs.len()) };
        moves.extend(ranked.iter().take(room.max(1)).map(|&(_, _, c)| HexMove::Place(c)));
        if position.can_swap() {
            moves.push(HexMove::Swap);
        }
    }
}

/// The strong player's leaf evaluation: [`TwoDistance`] (the opponent's best potential minus
/// the own), a finished game worth `±(WIN − ply)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrongEval;

impl Evaluator<StrongGame> for StrongEval {
    type Value = i32;

    fn evaluate(&self, _: &StrongGame, state: &Position, player: Player) -> i32 {
        let color = if player == 0 { Color::Black } else { Color::White };
        TwoDistance::value(state.board(), color)
    }

    fn terminal(&self, game: &StrongGame, state: &Position, player: Player, ply: u32) -> i32 {
        terminal_value(state, player, ply).unwrap_or_else(|| self.evaluate(game, state, player))
    }

    fn bounds(&self) -> Option<(i32, i32)> {
        Some((-WIN, WIN))
    }
}

/// Which rule gave [`StrongPlayer`]'s last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StrongReason {
    /// A stone that connects at once.
    Win,
    /// The cell where the opponent would connect at once.
    Block,
    /// The free carrier cell of an own bridge the opponent intruded into.
    BridgeRepair,
    /// The search.
    Search,
}

/// The strong player: critical cells, bridge repair, then selective iterative-deepening
/// alpha-beta on the two-distance evaluation (see the [module docs](self)).
///
/// With a node or depth budget ([`StrongConfig::nodes`], [`StrongConfig::depth`]) it is
/// deterministic; with a time budget its moves depend on the machine's speed.
///
/// # Examples
///
/// ```
/// use hex::strong::{StrongConfig, StrongPlayer, StrongReason};
/// use hex::{Cell, Color, HexMove, HexPlayer, Position};
///
/// // Black (b1, b2) wins at once on 3x3.
/// let mut pos = Position::new(3).unwrap();
/// for (r, c) in [(0, 1), (0, 0), (1, 1), (1, 0)] {
///     pos = pos.play(HexMove::Place(Cell::new(r, c))).unwrap();
/// }
/// let mut player = StrongPlayer::new(StrongConfig::depth(3));
/// let mv = player.choose_move(&pos);
/// assert_eq!(pos.play(mv).unwrap().winner(), Some(Color::Black));
/// assert_eq!(player.last_reason(), Some(StrongReason::Win));
/// ```
#[derive(Debug)]
pub struct StrongPlayer {
    config: StrongConfig,
    table: TranspositionTable<i32>,
    reason: Option<StrongReason>,
    last: Option<iterative::IterativeResult<HexMove, i32>>,
}

impl StrongPlayer {
    /// A strong player with `config`.
    pub fn new(config: StrongConfig) -> Self {
        StrongPlayer {
            config,
            table: TranspositionTable::with_capacity(config.table_entries.max(1)),
            reason: None,
            last: None,
        }
    }

    /// Its settings.
    pub fn config(&self) -> &StrongConfig {
        &self.config
    }

    /// Which rule gave the last move.
    pub fn last_reason(&self) -> Option<StrongReason> {
        self.reason
    }

    /// The last search (value, iterations, statistics), if the last move came from one.
    pub fn last_search(&self) -> Option<&iterative::IterativeResult<HexMove, i32>> {
        if self.reason == Some(StrongReason::Search) { self.last.as_ref() } else { None }
    }

    /// The move and the rule that gave it.
    ///
    /// # Panics
    /// If the game is over.
    pub fn decide(&mut self, position: &Position) -> (HexMove, StrongReason) {
        assert!(position.winner().is_none(), "choose() needs a position where the game is not over");
        let (mv, reason) =
            self.rules(position).unwrap_or_else(|| (self.search(position), StrongReason::Search));
        self.reason = Some(reason);
        (mv, reason)
    }

    fn rules(&self, position: &Position) -> Option<(HexMove, StrongReason)> {
        match critical_cell(position) {
            Some(Critical::Win(cell)) => return Some((HexMove::Place(cell), StrongReason::Win)),
            Some(Critical::Block(cell)) => return Some((HexMove::Place(cell), StrongReason::Block)),
            None => {}
        }
        if !self.config.repair_bridges {
            return None;
        }
        let board = position.board();
        let me = position.to_move();
        let repairs = bridge_repairs(board, me);
        let value = |cell: Cell| {
            let mut after = *board;
            after.set(cell, Some(me));
            TwoDistance::value(&after, me)
        };
        // The first of the best, row by row.
        let best =
            repairs.iter().copied().map(|c| (value(c), c)).fold(None, |best: Option<(i32, Cell)>, x| {
                match best {
                    Some(b) if b.0 >= x.0 => Some(b),
                    _ => Some(x),
                }
            });
        best.map(|(_, cell)| (HexMove::Place(cell), StrongReason::BridgeRepair))
    }

    fn search(&mut self, position: &Position) -> HexMove {
        let game = strong_game(position.size(), self.config.width);
        // No game lasts longer than the empty cells: deeper iterations would only repeat the last.
        let empty = position.board().empty_cells().count() as u32;
        let config = iterative::Config {
            search: alphabeta::Config { history: false, ..alphabeta::Config::depth(1) },
            limits: Limits {
                depth: self.config.max_depth.min(empty).max(1),
                nodes: self.config.nodes,
                time: self.config.time,
            },
        };
        self.table.new_search();
        let clock = WallClock::start();
        let found = iterative::search_with_clock(&game, &StrongEval, position, &config, &self.table, &clock);
        let mv = found.result.best_move.unwrap_or_else(|| {
            *position.legal_moves().first().expect("choose() needs a position where the game is not over")
        });
        self.last = Some(found);
        mv
    }

    /// The value, best move and statistics of the last search, if the last move came from one.
    pub fn last_result(&self) -> Option<&SearchResult<HexMove, i32>> {
        self.last_search().map(|found| &found.result)
    }
}

impl Default for StrongPlayer {
    fn default() -> Self {
        StrongPlayer::new(StrongConfig::default())
    }
}

impl search_core::agent::Agent<HexGame> for StrongPlayer {
    fn name(&self) -> String {
        let budget = match (self.config.time, self.config.nodes) {
            (Some(t), _) => format!("{}ms", t.as_millis()),
            (None, Some(n)) => format!("{n}n"),
            (None, None) => format!("d{}", self.config.max_depth),
        };
        format!("strong {budget} w{}", self.config.width)
    }

    fn choose(&mut self, _: &HexGame, position: &Position) -> HexMove {
        self.decide(position).0
    }

    /// The last move's search, when a search chose it (`None` for a move a rule gave).
    fn last_stats(&self) -> Option<search_core::SearchStats> {
        self.last_search().map(|found| found.result.stats)
    }

    /// A player with a time limit takes the new one and keeps its table.
    fn set_time_limit(&mut self, time: std::time::Duration) -> bool {
        if self.config.time.is_none() {
            return false;
        }
        self.config.time = Some(time);
        true
    }
}
