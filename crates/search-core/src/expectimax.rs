//! Expectimax without windows: a probability cut-off and a table at chance nodes, the search the
//! strongest hand-written 2048 programs run, for any game with chance nodes.
//!
//! Every node is searched with nothing but its depth and path probability: the player to move at
//! the root takes the largest child value, every other player the smallest, a chance node the
//! probability-weighted mean. Without a table the result equals [`crate::minimax::search`] with
//! the same horizon to the last bit (the sums are formed in the same order). What makes it fast
//! is what it leaves out next to [`crate::alphabeta`]: no windows, no principal variation below
//! the root, no move ordering, and a chance node the cut-off turns into a leaf costs one
//! evaluation: with a policy that does not look at the node's width
//! ([`CutoffPolicy::uses_width`]) it is asked before the outcomes are generated or the table is
//! probed.
//!
//! The tables ([`ChanceTables`]) store the values of expanded chance nodes. Each root move starts
//! with an empty one (a new generation; nothing is cleared), so root moves do not depend on each
//! other, and searching them on several threads ([`Config::parallel`]) gives the serial result
//! exactly. With [`Reuse::Deeper`] a value found with at least the depth left is reused, whatever
//! the path probability it was found with (nneonneo/2048-ai's rule: values then depend on the
//! order of the search, but each costs one lookup); with [`Reuse::SameDepth`] only a value found
//! with exactly the depth left, which keeps the oracle's result when the cut-off depends only on
//! depth.

use crate::alphabeta::SearchResult;
use crate::eval::Evaluator;
use crate::game::{Game, GameHash, Player, ToMove};
use crate::horizon::{CutoffContext, CutoffPolicy, Horizon, NoCutoff};
use crate::limits::{Clock, WallClock};
use crate::stats::SearchStats;
use crate::value::{Value, checked};
use smallvec::SmallVec;

/// Which stored chance values a search may reuse.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reuse {
    /// A value found with at least the depth now left (nneonneo/2048-ai's rule). The default.
    #[default]
    Deeper,
    /// Only a value found with exactly the depth now left.
    SameDepth,
}

/// Settings of an expectimax search.
///
/// # Examples
///
/// ```
/// use search_core::expectimax::{self, Reuse};
/// use search_core::{DepthCount, Horizon, ProbabilityCutoff};
///
/// // nneonneo/2048-ai's search at depth 5 (in player moves), one thread.
/// let config = expectimax::Config {
///     horizon: Horizon { depth: 5, count: DepthCount::Moves, cutoff: ProbabilityCutoff { threshold: 1e-4 } },
///     reuse: Reuse::Deeper,
///     parallel: false,
/// };
/// assert_eq!(config.horizon.depth, 5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config<C = NoCutoff> {
    /// Where the search stops.
    pub horizon: Horizon<C>,
    /// Which table values are reused.
    pub reuse: Reuse,
    /// Search the root moves in parallel on the current rayon pool (run the search inside
    /// `pool.install` to choose the threads). Each root move has its own table, so the result is
    /// the serial one. Without the crate's `parallel` feature they are searched one by one.
    pub parallel: bool,
}

impl Default for Config<NoCutoff> {
    fn default() -> Self {
        Config { horizon: Horizon::depth(1), reuse: Reuse::Deeper, parallel: false }
    }
}

/// One stored chance value in 16 bytes: the value's bits, and a check word holding the state's
/// key above its low 16 bits (which the slot's index gives, as a table has at least 2^16
/// slots), the generation it was stored in (bits 8–15) and the depth it was found with (bits
/// 0–7). Two words rather than three: the table is the search's largest structure, and most
/// of its probes miss the cache.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    check: u64,
    value: u64,
}

/// The key bits a slot's check word keeps; the index holds the others.
const KEY_BITS: u64 = !0xFFFF;

/// The smallest table: its index covers the key bits the check word leaves out.
const MIN_CAPACITY: usize = 1 << 16;

/// A table of chance-node values for [`search`], direct-mapped on the state's hash and owned by
/// one thread at a time (no atomics).
///
/// Starting a root move bumps its generation rather than clearing it, so reusing one table over
/// many searches costs nothing per search (a real clear every 255 root moves). A parallel search
/// uses one table per root move, created the first time it needs them.
///
/// # Examples
///
/// ```
/// use search_core::expectimax::ChanceTables;
///
/// let tables = ChanceTables::with_capacity(1 << 17);
/// assert_eq!(tables.capacity(), 1 << 17);
/// assert_eq!(ChanceTables::with_capacity(100).capacity(), 1 << 16);
/// assert_eq!(ChanceTables::none().capacity(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct ChanceTables {
    capacity: usize,
    tables: Vec<ChanceTable>,
}

#[derive(Clone, Debug)]
struct ChanceTable {
    slots: Vec<Slot>,
    /// The current generation, 1 to 255 (0 marks a slot never written).
    generation: u64,
}

impl ChanceTable {
    fn new(capacity: usize) -> Self {
        ChanceTable { slots: vec![Slot::default(); capacity], generation: 0 }
    }

    fn index(&self, key: u64) -> usize {
        key as usize & self.slots.len().wrapping_sub(1)
    }

    /// Forgets every entry: a new generation, or a real clear when the 8-bit counter wraps.
    fn reset(&mut self) {
        self.generation += 1;
        if self.generation > 0xFF {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// The value bits and depth stored for `key` in this generation.
    #[inline(always)]
    fn probe(&self, key: u64) -> Option<(u64, u32)> {
        let slot = self.slots.get(self.index(key))?;
        let want = (key & KEY_BITS) | self.generation << 8;
        (slot.check & !0xFF == want).then_some((slot.value, (slot.check & 0xFF) as u32))
    }

    /// Starts loading the slot of `key` into the cache, so that a probe soon after finds it
    /// there.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        if let Some(slot) = self.slots.get(self.index(key)) {
            crate::prefetch::prefetch(slot);
        }
    }

    /// Stores `value` for `key`, found with `depth` left; a depth above 255 does not fit the
    /// check word and is not stored (a later probe then searches the node again).
    fn store(&mut self, key: u64, value: u64, depth: u32) {
        let Ok(depth) = u8::try_from(depth) else { return };
        let check = (key & KEY_BITS) | self.generation << 8 | u64::from(depth);
        let index = self.index(key);
        if let Some(slot) = self.slots.get_mut(index) {
            *slot = Slot { check, value };
        }
    }
}

impl ChanceTables {
    /// Tables of `capacity` entries each, rounded up to a power of two and to at least 2^16
    /// (16 bytes an entry: a table of the smallest size takes 1 MiB).
    pub fn with_capacity(capacity: usize) -> Self {
        ChanceTables { capacity: capacity.max(MIN_CAPACITY).next_power_of_two(), tables: Vec::new() }
    }

    /// No table: every chance node is searched.
    pub fn none() -> Self {
        ChanceTables { capacity: 0, tables: Vec::new() }
    }

    /// Entries per table (0 for [`ChanceTables::none`]).
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The first `n` tables, created if missing, each emptied.
    fn take(&mut self, n: usize) -> &mut [ChanceTable] {
        while self.tables.len() < n {
            self.tables.push(ChanceTable::new(self.capacity));
        }
        let tables = &mut self.tables[..n];
        tables.iter_mut().for_each(ChanceTable::reset);
        tables
    }
}

/// The expectimax value of `state` to the configured horizon and its best move (the first of the
/// best in the game's order).
///
/// The player to move at the root (player 0 at a chance root) maximises; the result's `pv` holds
/// the best move alone.
///
/// # Examples
///
/// A chance node worth `0.5·4 + 0.5·0 = 2` against a sure 1:
///
/// ```
/// use search_core::expectimax::{self, ChanceTables};
/// use search_core::tree::{Tree, TreeEval};
/// use search_core::{minimax, Horizon};
///
/// let mut tree = Tree::new();
/// let (four, zero, one) = (tree.leaf(4), tree.leaf(0), tree.leaf(1));
/// let gamble = tree.chance(vec![(four, 0.5), (zero, 0.5)], 0);
/// let root = tree.max(vec![one, gamble], 0);
/// let config = expectimax::Config { horizon: Horizon::depth(2), ..expectimax::Config::default() };
/// let eval = TreeEval::<f64>::new();
/// let result = expectimax::search(&tree, &eval, &root, &config, &mut ChanceTables::with_capacity(64));
/// assert_eq!((result.value, result.best_move), (2.0, Some(1)));
/// let oracle = minimax::search(&tree, &eval, &root, &config.horizon);
/// assert_eq!(result.value, oracle.value);
/// ```
pub fn search<G, E, C>(
    game: &G,
    eval: &E,
    state: &G::State,
    config: &Config<C>,
    tables: &mut ChanceTables,
) -> SearchResult<G::Move, E::Value>
where
    G: GameHash + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
    C: CutoffPolicy<G>,
{
    let clock = WallClock::start();
    let maximizer = crate::game::maximizer(game, state);
    let depth = config.horizon.depth;
    let new_run = || Run { game, eval, config, maximizer, stats: SearchStats::default() };
    let mut root_successors = Vec::new();
    let is_player_root = matches!(game.to_move(state), ToMove::Player(_)) && depth > 0;
    if is_player_root {
        game.successors(state, |mv, child| root_successors.push((mv, child)));
    }
    let child_depth = config.horizon.child_depth(depth, false);
    let (value, best_move, stats) = if root_successors.is_empty() {
        let table = tables.take(usize::from(tables.capacity > 0)).first_mut();
        let mut run = new_run();
        let value = run.value(state, depth, 0, 1.0, table);
        (value, None, run.stats)
    } else {
        let n = root_successors.len();
        let with_table = tables.capacity > 0;
        let values: Vec<(E::Value, SearchStats)> = if config.parallel && n > 1 {
            let slots: Vec<Option<&mut ChanceTable>> = if with_table {
                tables.take(n).iter_mut().map(Some).collect()
            } else {
                (0..n).map(|_| None).collect()
            };
            on_threads(&root_successors, slots, |(_, child), table| {
                let mut run = new_run();
                let v = run.value(child, child_depth, 1, 1.0, table);
                (v, run.stats)
            })
        } else {
            let mut table = tables.take(usize::from(with_table)).first_mut();
            root_successors
                .iter()
                .map(|(_, child)| {
                    // Each root move starts with an empty table, as on several threads.
                    if let Some(t) = table.as_deref_mut() {
                        t.reset();
                    }
                    let mut run = new_run();
                    let v = run.value(child, child_depth, 1, 1.0, table.as_deref_mut());
                    (v, run.stats)
                })
                .collect()
        };
        let mut stats = SearchStats { nodes: 1, ..SearchStats::default() };
        let mut best: Option<(G::Move, E::Value)> = None;
        for ((mv, _), (v, s)) in root_successors.iter().zip(values) {
            stats += s;
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((*mv, v));
            }
        }
        let (mv, v) = best.expect("a player root with successors has a best move");
        (v, Some(mv), stats)
    };
    let stats = SearchStats { depth_reached: depth, elapsed: clock.elapsed(), ..stats };
    SearchResult { value, best_move, pv: best_move.into_iter().collect(), stats }
}

/// `f` of every item with its table, on the current rayon pool.
#[cfg(feature = "parallel")]
fn on_threads<T: Sync, V: Send>(
    items: &[T],
    tables: Vec<Option<&mut ChanceTable>>,
    f: impl Fn(&T, Option<&mut ChanceTable>) -> V + Sync,
) -> Vec<V> {
    use rayon::prelude::*;
    items.par_iter().zip(tables).map(|(item, table)| f(item, table)).collect()
}

/// `f` of every item with its table, one after the other: without the `parallel` feature a
/// parallel search runs serially, each root move still with its own table.
#[cfg(not(feature = "parallel"))]
fn on_threads<T: Sync, V: Send>(
    items: &[T],
    tables: Vec<Option<&mut ChanceTable>>,
    f: impl Fn(&T, Option<&mut ChanceTable>) -> V + Sync,
) -> Vec<V> {
    items.iter().zip(tables).map(|(item, table)| f(item, table)).collect()
}

/// One root move's search: the settings and its statistics.
struct Run<'a, G: Game, E, C> {
    game: &'a G,
    eval: &'a E,
    config: &'a Config<C>,
    maximizer: Player,
    stats: SearchStats,
}

impl<G, E, C> Run<'_, G, E, C>
where
    G: GameHash,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
{
    fn leaf(&mut self, state: &G::State) -> E::Value {
        self.stats.leaves += 1;
        checked(self.eval.evaluate(self.game, state, self.maximizer))
    }

    fn cut(
        &mut self,
        state: &G::State,
        remaining: u32,
        width: usize,
        prob: f64,
        ply: u32,
        chance: bool,
    ) -> bool {
        let ctx = CutoffContext { remaining, width, path_probability: prob, ply, chance };
        self.config.horizon.cuts(self.game, state, ctx, &mut self.stats)
    }

    /// The value of `state` with `depth` left, `ply` below the root, reached with path
    /// probability `prob`; `table` is this root move's, when there is one.
    ///
    /// Most nodes are leaves, so the tests that make one are inlined into the parent's loop and
    /// only a node that is expanded pays for a call.
    #[inline(always)]
    fn value(
        &mut self,
        state: &G::State,
        depth: u32,
        ply: u32,
        prob: f64,
        table: Option<&mut ChanceTable>,
    ) -> E::Value {
        self.stats.nodes += 1;
        let kind = self.game.to_move(state);
        if kind == ToMove::Terminal {
            self.stats.leaves += 1;
            return checked(self.eval.terminal(self.game, state, self.maximizer, ply));
        }
        if depth == 0 {
            return self.leaf(state);
        }
        if kind == ToMove::Chance
            && !self.config.horizon.cutoff.uses_width()
            && self.cut(state, self.config.horizon.child_depth(depth, true), 0, prob, ply, true)
        {
            return self.leaf(state);
        }
        self.expand(state, kind, depth, ply, prob, table)
    }

    /// [`Run::value`] of a node that is neither terminal nor at the horizon, nor cut before
    /// its outcomes are generated.
    #[inline(never)]
    fn expand(
        &mut self,
        state: &G::State,
        kind: ToMove,
        depth: u32,
        ply: u32,
        prob: f64,
        table: Option<&mut ChanceTable>,
    ) -> E::Value {
        match kind {
            ToMove::Chance => {
                let child_depth = self.config.horizon.child_depth(depth, true);
                let early = !self.config.horizon.cutoff.uses_width();
                let mut table = table;
                let key = match &table {
                    Some(t) => {
                        let key = self.game.hash(state);
                        self.stats.tt_probes += 1;
                        if let Some((value, found_depth)) = t.probe(key) {
                            let reuse = match self.config.reuse {
                                Reuse::Deeper => found_depth >= depth,
                                Reuse::SameDepth => found_depth == depth,
                            };
                            if reuse {
                                self.stats.tt_hits += 1;
                                self.stats.tt_cutoffs += 1;
                                return E::Value::from_bits(value);
                            }
                        }
                        key
                    }
                    None => 0,
                };
                let game = self.game;
                if !early {
                    // A policy that reads the width sees the outcomes counted first.
                    let mut width = 0;
                    game.chance_successors(state, |_, _, _| width += 1);
                    if self.cut(state, child_depth, width, prob, ply, true) {
                        return self.leaf(state);
                    }
                }
                // Every outcome a node whose children are valued statically: the evaluator may
                // value them all in one go, sharing what the siblings have in common.
                if child_depth > 0 {
                    let grandchild_depth = self.config.horizon.child_depth(child_depth, false);
                    let horizon = &self.config.horizon;
                    let bottom = |q: f64| {
                        grandchild_depth == 0
                            || horizon.cutoff.cuts_every_chance_node(grandchild_depth, prob * q, ply + 2)
                    };
                    if let Some((value, children)) =
                        self.eval.chance_value(game, state, self.maximizer, ply + 1, &bottom)
                    {
                        // Each child counts as the node and the leaf it would have been.
                        self.stats.nodes += children;
                        self.stats.leaves += children;
                        let value = checked(value);
                        if let Some(t) = table {
                            t.store(key, value.to_bits(), depth);
                        }
                        return value;
                    }
                }
                let mut sum = 0.0;
                game.chance_successors(state, |_, q, child| {
                    sum +=
                        q * self.value(&child, child_depth, ply + 1, prob * q, table.as_deref_mut()).to_f64();
                });
                let value = E::Value::from_f64(sum);
                if let Some(t) = table {
                    t.store(key, value.to_bits(), depth);
                }
                value
            }
            _ => {
                let is_max = kind == ToMove::Player(self.maximizer);
                let child_depth = self.config.horizon.child_depth(depth, false);
                let game = self.game;
                if !is_max {
                    // Only an opponent's node may be cut, and only a policy that reads the width
                    // needs the moves counted first.
                    let mut width = 0;
                    if self.config.horizon.cutoff.uses_width() {
                        game.successors(state, |_, _| width += 1);
                    }
                    if self.cut(state, child_depth, width, prob, ply, false) {
                        return self.leaf(state);
                    }
                }
                // Every child a chance node valued statically: the evaluator may value them
                // all in one go.
                if is_max
                    && (child_depth == 0
                        || self.config.horizon.cutoff.cuts_every_chance_node(child_depth, prob, ply + 1))
                    && let Some(v) = self.eval.best_chance_child(game, state, self.maximizer)
                {
                    self.stats.leaves += 1;
                    return checked(v);
                }
                let mut table = table;
                let mut best = None;
                let mut consider = |v: E::Value| {
                    if best.is_none_or(|b| (is_max && v > b) || (!is_max && v < b)) {
                        best = Some(v);
                    }
                };
                if let Some(t) = table.as_deref() {
                    // The children's table slots are prefetched all at once before any child
                    // is searched: their cache misses then overlap with each other and with the
                    // first child's work instead of coming one by one. (A plain read of each
                    // slot, which this replaced, made the search wait for all of them.)
                    let mut children: SmallVec<[G::State; 8]> = SmallVec::new();
                    game.successors(state, |_, child| children.push(child));
                    for child in &children {
                        t.prefetch(game.hash(child));
                    }
                    for child in &children {
                        consider(self.value(child, child_depth, ply + 1, prob, table.as_deref_mut()));
                    }
                } else {
                    game.successors(state, |_, child| {
                        consider(self.value(&child, child_depth, ply + 1, prob, None));
                    });
                }
                // A player node without moves breaks the game's contract; value it as a leaf.
                let Some(best) = best else { return self.leaf(state) };
                best
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> ChanceTable {
        let mut t = ChanceTable::new(MIN_CAPACITY);
        t.reset();
        t
    }

    #[test]
    fn a_slot_keeps_the_value_and_depth_of_its_key_only() {
        let mut t = table();
        let key = 0x0123_4567_89AB_CDEF;
        assert_eq!(t.probe(key), None);
        t.store(key, 42, 7);
        assert_eq!(t.probe(key), Some((42, 7)));
        // Same slot (the same low 16 bits), another key: a miss, also in every single key bit
        // the check word keeps.
        for bit in 16..64 {
            assert_eq!(t.probe(key ^ 1 << bit), None, "bit {bit}");
        }
        // Another key in the same slot replaces it.
        t.store(key ^ 1 << 40, 5, 3);
        assert_eq!((t.probe(key), t.probe(key ^ 1 << 40)), (None, Some((5, 3))));
    }

    #[test]
    fn depths_up_to_255_are_stored_and_deeper_ones_are_not() {
        let mut t = table();
        t.store(1, 10, 255);
        assert_eq!(t.probe(1), Some((10, 255)));
        t.store(2, 20, 256);
        assert_eq!(t.probe(2), None);
    }

    #[test]
    fn a_new_generation_forgets_everything_also_when_the_counter_wraps() {
        let mut t = table();
        let (old, key) = (0x7_0000, 0xABCD);
        t.store(old, 99, 1);
        for round in 0..600u64 {
            // `old` was stored once, in the first generation: when the 8-bit counter comes
            // back to it, the real clear has removed it.
            assert_eq!(t.probe(old), if round == 0 { Some((99, 1)) } else { None }, "round {round}");
            assert_eq!(t.probe(key), None, "round {round}");
            t.store(key, round, 2);
            assert_eq!(t.probe(key), Some((round, 2)));
            t.reset();
            assert!((1..=0xFF).contains(&t.generation));
        }
    }

    #[test]
    fn tables_have_at_least_the_smallest_capacity() {
        assert_eq!(ChanceTables::with_capacity(1).capacity(), MIN_CAPACITY);
        assert_eq!(ChanceTables::with_capacity(MIN_CAPACITY + 1).capacity(), 2 * MIN_CAPACITY);
    }
}
