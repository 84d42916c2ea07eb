//! The three seed players, as their documents describe them, searching with `search-core`.
//!
//! | player | what it does | evaluation |
//! |---|---|---|
//! | [`MadeupPlayer`] | minimax to a fixed depth (3 by default, as the course framework) | [`PathDistance`] |
//! | [`CoolcowPlayer`] | fail-hard alpha-beta, depth 3 | [`PathDifference`] |
//! | [`BridgesPlayer`] | critical cells, bridge repair, an opening of centre and bridges, then alpha-beta | [`ZeroOneBfs`] |
//!
//! Every one takes a win in one and stops the opponent's win in one. The first two get that
//! from the search itself, which scores a win above every heuristic value
//! ([`crate::heuristics::WIN`]): at depth 1 a win in one is seen, from depth 2 also the
//! opponent's reply. The bridges player checks both before anything else.
//!
//! Every choice is deterministic: the search keeps the first of equally good moves in its search
//! order (the empty cells row by row, unless killer and history ordering is switched on), and the
//! bridges player's own rules take the first best cell row by row.
//!
//! # Examples
//!
//! ```
//! use hex::players::{CoolcowPlayer, SearchConfig};
//! use hex::{Cell, Color, HexMove, HexPlayer, Position};
//!
//! // Black (b1, b2) wins at once at a3 or b3 on 3x3.
//! let mut pos = Position::new(3).unwrap();
//! for (r, c) in [(0, 1), (0, 0), (1, 1), (1, 0)] {
//!     pos = pos.play(HexMove::Place(Cell::new(r, c))).unwrap();
//! }
//! let mut player = CoolcowPlayer::new(SearchConfig::depth(3));
//! let mv = player.choose_move(&pos);
//! assert_eq!(pos.play(mv).unwrap().winner(), Some(Color::Black));
//! ```

use search_core::{Horizon, NoTable, SearchResult, TranspositionTable, alphabeta, minimax};

use crate::board::{Board, Cell, Color, HexMove, Position};
use crate::distances::zero_one_bfs_distance;
use crate::heuristics::{
    Critical, PathDifference, PathDistance, ZeroOneBfs, bridge_repairs, critical_cell, forms_bridge,
};
use crate::rules::{HexGame, centre};

/// How a searching player searches: the alpha-beta settings (depth included) and an optional
/// transposition table.
///
/// # Examples
///
/// ```
/// use hex::players::SearchConfig;
///
/// let config = SearchConfig::depth(2).with_table(1 << 16);
/// assert_eq!(config.alphabeta.horizon.depth, 2);
/// assert_eq!(config.table_entries, Some(65_536));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// The alpha-beta settings; `alphabeta.horizon.depth` is the depth in moves (a depth of 0
    /// is searched as 1, so that the search names a move).
    pub alphabeta: alphabeta::Config,
    /// The number of transposition-table slots (rounded up to a power of two), or `None` for no
    /// table. The table is kept from move to move.
    pub table_entries: Option<usize>,
}

impl SearchConfig {
    /// A search of `depth` moves in the order the game generates them (empty cells row by row),
    /// without killers, history or a table: the order of the course framework the seeds used,
    /// so equal moves are decided the same way as by plain minimax.
    pub fn depth(depth: u32) -> Self {
        SearchConfig {
            alphabeta: alphabeta::Config {
                killers: false,
                history: false,
                ..alphabeta::Config::depth(depth)
            },
            table_entries: None,
        }
    }

    /// The same with killer and history move ordering on (faster; ties may go another way).
    pub fn ordered(self) -> Self {
        SearchConfig {
            alphabeta: alphabeta::Config { killers: true, history: true, ..self.alphabeta },
            ..self
        }
    }

    /// The same with a transposition table of `entries` slots.
    pub fn with_table(self, entries: usize) -> Self {
        SearchConfig { table_entries: Some(entries), ..self }
    }

    /// The depth in moves.
    pub fn depth_moves(&self) -> u32 {
        self.alphabeta.horizon.depth
    }
}

impl Default for SearchConfig {
    /// Depth 3, as the course framework.
    fn default() -> Self {
        SearchConfig::depth(3)
    }
}

/// A search with its table and its last result: the part the searching players share.
#[derive(Debug)]
struct Search {
    config: SearchConfig,
    table: Option<TranspositionTable<i32>>,
    last: Option<SearchResult<HexMove, i32>>,
}

impl Search {
    fn new(config: SearchConfig) -> Self {
        let mut config = config;
        config.alphabeta.horizon.depth = config.alphabeta.horizon.depth.max(1);
        let table = config.table_entries.map(TranspositionTable::with_capacity);
        Search { config, table, last: None }
    }

    /// The best move by fail-hard alpha-beta with `eval`.
    fn alphabeta<E>(&mut self, eval: &E, position: &Position) -> HexMove
    where
        E: search_core::Evaluator<HexGame, Value = i32>,
    {
        let game = HexGame::new(position.size());
        let found = match &self.table {
            Some(table) => {
                table.new_search();
                alphabeta::search(&game, eval, position, &self.config.alphabeta, table)
            }
            None => alphabeta::search(&game, eval, position, &self.config.alphabeta, NoTable),
        };
        self.finish(found, position)
    }

    /// The best move by plain minimax with `eval`.
    fn minimax<E>(&mut self, eval: &E, position: &Position) -> HexMove
    where
        E: search_core::Evaluator<HexGame, Value = i32>,
    {
        let game = HexGame::new(position.size());
        let horizon = Horizon::depth(self.config.depth_moves());
        let found = minimax::search(&game, eval, position, &horizon);
        self.finish(found, position)
    }

    fn finish(&mut self, found: SearchResult<HexMove, i32>, position: &Position) -> HexMove {
        // A search of depth >= 1 at a position with moves always names one; the fallback only
        // keeps the player legal if that ever fails.
        let mv = found.best_move.unwrap_or_else(|| first_legal(position));
        self.last = Some(found);
        mv
    }
}

fn first_legal(position: &Position) -> HexMove {
    *position.legal_moves().first().expect("choose() needs a position where the game is not over")
}

fn assert_playable(position: &Position) {
    assert!(position.winner().is_none(), "choose() needs a position where the game is not over");
}

/// Settings of [`MadeupPlayer`].
///
/// # Examples
///
/// ```
/// use hex::players::{MadeupConfig, SearchConfig};
///
/// let oracle = MadeupConfig { plain_minimax: true, ..MadeupConfig::default() };
/// assert_eq!(oracle.search, SearchConfig::depth(3));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MadeupConfig {
    /// The depth and search settings (depth 3 by default, as the course framework).
    pub search: SearchConfig,
    /// Search with `search-core`'s plain minimax instead of alpha-beta. The value is the same;
    /// with the default move order (no killers, no history) so is the move; alpha-beta is much
    /// faster. Minimax ignores the table and ordering settings of `search`.
    pub plain_minimax: bool,
}

/// The madeup seed: minimax to a fixed depth with [`PathDistance`], `1 − d/n²` of the player's
/// own BFS distance.
///
/// # Examples
///
/// ```
/// use hex::players::MadeupPlayer;
/// use hex::{HexPlayer, Position};
///
/// let pos = Position::new(4).unwrap();
/// let mv = MadeupPlayer::default().choose_move(&pos);
/// assert!(pos.play(mv).is_ok());
/// ```
#[derive(Debug)]
pub struct MadeupPlayer {
    plain_minimax: bool,
    search: Search,
}

impl MadeupPlayer {
    /// A madeup player with `config`.
    pub fn new(config: MadeupConfig) -> Self {
        MadeupPlayer { plain_minimax: config.plain_minimax, search: Search::new(config.search) }
    }

    /// The result of the last search (value, principal variation, statistics).
    pub fn last_search(&self) -> Option<&SearchResult<HexMove, i32>> {
        self.search.last.as_ref()
    }
}

impl Default for MadeupPlayer {
    fn default() -> Self {
        MadeupPlayer::new(MadeupConfig::default())
    }
}

impl search_core::agent::Agent<HexGame> for MadeupPlayer {
    fn name(&self) -> String {
        let how = if self.plain_minimax { "minimax" } else { "ab" };
        format!("madeup {how} d{}", self.search.config.depth_moves())
    }

    fn choose(&mut self, _: &HexGame, position: &Position) -> HexMove {
        assert_playable(position);
        if self.plain_minimax {
            self.search.minimax(&PathDistance, position)
        } else {
            self.search.alphabeta(&PathDistance, position)
        }
    }
}

/// The coolcow seed: fail-hard alpha-beta with [`PathDifference`], the opponent's uniform-cost
/// distance minus the player's own. Depth 3 by default.
///
/// # Examples
///
/// ```
/// use hex::players::{CoolcowPlayer, SearchConfig};
/// use hex::{Agent, HexPlayer, Position};
///
/// let pos = Position::new(4).unwrap();
/// let mut player = CoolcowPlayer::new(SearchConfig::depth(2).with_table(1 << 12));
/// assert!(pos.play(player.choose_move(&pos)).is_ok());
/// assert_eq!(player.name(), "coolcow d2");
/// ```
#[derive(Debug)]
pub struct CoolcowPlayer {
    search: Search,
}

impl CoolcowPlayer {
    /// A coolcow player searching as `config` says.
    pub fn new(config: SearchConfig) -> Self {
        CoolcowPlayer { search: Search::new(config) }
    }

    /// The result of the last search.
    pub fn last_search(&self) -> Option<&SearchResult<HexMove, i32>> {
        self.search.last.as_ref()
    }
}

impl Default for CoolcowPlayer {
    fn default() -> Self {
        CoolcowPlayer::new(SearchConfig::default())
    }
}

impl search_core::agent::Agent<HexGame> for CoolcowPlayer {
    fn name(&self) -> String {
        format!("coolcow d{}", self.search.config.depth_moves())
    }

    fn choose(&mut self, _: &HexGame, position: &Position) -> HexMove {
        assert_playable(position);
        self.search.alphabeta(&PathDifference, position)
    }
}

/// How [`BridgesPlayer`] scores a cell in its opening: the weights of its three criteria.
///
/// A cell scores `bridge` if a stone there forms a bridge with an own stone, plus `own` for each
/// stone it takes off the player's 0-1 BFS distance, plus `opponent` for each it adds to the
/// opponent's. The default (2, 2, 1) puts bridges and the own path first, as the seed lists them;
/// blocking is the tie-break between equally good building moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningWeights {
    /// For forming a bridge with an own stone (both carrier cells empty).
    pub bridge: i32,
    /// Per stone taken off the own distance.
    pub own: i32,
    /// Per stone added to the opponent's distance.
    pub opponent: i32,
}

impl Default for OpeningWeights {
    fn default() -> Self {
        OpeningWeights { bridge: 2, own: 2, opponent: 1 }
    }
}

/// Settings of [`BridgesPlayer`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BridgesConfig {
    /// The search after the opening (depth 3 by default).
    pub search: SearchConfig,
    /// The search's leaf evaluation (own 2, opponent 1 by default).
    pub eval: ZeroOneBfs,
    /// How opening moves are scored.
    pub opening: OpeningWeights,
}

/// Which of its rules gave [`BridgesPlayer`]'s last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A stone that connects at once.
    Win,
    /// The cell where the opponent would connect at once.
    Block,
    /// The free carrier cell of an own bridge the opponent intruded into.
    BridgeRepair,
    /// The first stone: the centre, or the best free neighbour of it.
    Centre,
    /// The best-scoring cell of the opening (fewer than half the cells filled).
    Opening,
    /// Alpha-beta on the 0-1 BFS evaluation.
    Search,
}

/// The third seed: rules first, search last. In order:
///
/// 1. **Critical cells**: win at once if it can, else take the cell where the opponent would win
///    at once ([`critical_cell`]).
/// 2. **Bridge repair**, all game long: if the opponent holds one carrier cell of an own bridge
///    whose ends are not yet joined, take the other ([`bridge_repairs`]; the best by the 0-1 BFS
///    evaluation if there are several).
/// 3. **Opening**, while fewer than half the cells hold a stone: the first stone goes on the
///    centre ([`centre`]), or if that is taken on the best free neighbour of it; later stones on
///    the empty cell with the best [`OpeningWeights`] score.
/// 4. **Search**: fail-hard alpha-beta with [`ZeroOneBfs`].
///
/// Ties go to the first cell row by row. The opening never swaps; the search may.
///
/// # Examples
///
/// ```
/// use hex::players::{BridgesPlayer, Reason};
/// use hex::{centre, HexMove, HexPlayer, Position};
///
/// let pos = Position::new(7).unwrap();
/// let mut player = BridgesPlayer::default();
/// assert_eq!(player.choose_move(&pos), HexMove::Place(centre(7)));
/// assert_eq!(player.last_reason(), Some(Reason::Centre));
/// ```
#[derive(Debug)]
pub struct BridgesPlayer {
    eval: ZeroOneBfs,
    opening: OpeningWeights,
    search: Search,
    reason: Option<Reason>,
}

impl BridgesPlayer {
    /// A bridges player with `config`.
    pub fn new(config: BridgesConfig) -> Self {
        BridgesPlayer {
            eval: config.eval,
            opening: config.opening,
            search: Search::new(config.search),
            reason: None,
        }
    }

    /// Which rule gave the last move.
    pub fn last_reason(&self) -> Option<Reason> {
        self.reason
    }

    /// The result of the last search, if the last move came from one.
    pub fn last_search(&self) -> Option<&SearchResult<HexMove, i32>> {
        if self.reason == Some(Reason::Search) { self.search.last.as_ref() } else { None }
    }

    /// The move and the rule that gave it.
    ///
    /// # Panics
    /// If the game is over.
    pub fn decide(&mut self, position: &Position) -> (HexMove, Reason) {
        assert_playable(position);
        let (mv, reason) = self.rules(position).unwrap_or_else(|| {
            let mv = self.search.alphabeta(&self.eval, position);
            (mv, Reason::Search)
        });
        self.reason = Some(reason);
        (mv, reason)
    }

    fn rules(&self, position: &Position) -> Option<(HexMove, Reason)> {
        let board = position.board();
        let me = position.to_move();
        match critical_cell(position) {
            Some(Critical::Win(cell)) => return Some((HexMove::Place(cell), Reason::Win)),
            Some(Critical::Block(cell)) => return Some((HexMove::Place(cell), Reason::Block)),
            None => {}
        }
        let repairs = bridge_repairs(board, me);
        if let Some(cell) = best_by(&repairs, |cell| self.eval.value(&with_stone(board, cell, me), me)) {
            return Some((HexMove::Place(cell), Reason::BridgeRepair));
        }
        let cells = u32::from(board.size()) * u32::from(board.size());
        if 2 * board.stones_on_board() >= cells {
            return None;
        }
        let before = (distance(board, me), distance(board, me.opponent()));
        let score = |cell: Cell| self.opening_score(board, cell, me, before);
        if board.count(me) == 0 {
            let middle = centre(board.size());
            if board.get(middle).is_none() {
                return Some((HexMove::Place(middle), Reason::Centre));
            }
            let around: Vec<Cell> =
                middle.neighbours(board.size()).filter(|&c| board.get(c).is_none()).collect();
            if let Some(cell) = best_by(&around, score) {
                return Some((HexMove::Place(cell), Reason::Centre));
            }
        }
        let empty: Vec<Cell> = board.empty_cells().collect();
        best_by(&empty, score).map(|cell| (HexMove::Place(cell), Reason::Opening))
    }

    /// The opening score of a stone of `me` on `cell`; `before` holds the own and opponent
    /// distances without it.
    fn opening_score(&self, board: &Board, cell: Cell, me: Color, before: (i32, i32)) -> i32 {
        let after = with_stone(board, cell, me);
        let w = self.opening;
        let bridge = if forms_bridge(board, cell, me) { w.bridge } else { 0 };
        bridge
            + w.own * (before.0 - distance(&after, me))
            + w.opponent * (distance(&after, me.opponent()) - before.1)
    }
}

/// The 0-1 BFS distance of `color`, with "no path" as n² (worse than any path).
fn distance(board: &Board, color: Color) -> i32 {
    let cells = u32::from(board.size()) * u32::from(board.size());
    zero_one_bfs_distance(board, color).unwrap_or(cells) as i32
}

fn with_stone(board: &Board, cell: Cell, color: Color) -> Board {
    let mut after = *board;
    after.set(cell, Some(color));
    after
}

/// The first cell of `cells` with the highest `score`.
fn best_by(cells: &[Cell], mut score: impl FnMut(Cell) -> i32) -> Option<Cell> {
    let mut best: Option<(Cell, i32)> = None;
    for &cell in cells {
        let s = score(cell);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((cell, s));
        }
    }
    best.map(|(cell, _)| cell)
}

impl Default for BridgesPlayer {
    fn default() -> Self {
        BridgesPlayer::new(BridgesConfig::default())
    }
}

impl search_core::agent::Agent<HexGame> for BridgesPlayer {
    fn name(&self) -> String {
        format!("bridges d{}", self.search.config.depth_moves())
    }

    fn choose(&mut self, _: &HexGame, position: &Position) -> HexMove {
        self.decide(position).0
    }
}
