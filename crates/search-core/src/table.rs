//! A lock-free transposition table with exact, lower and upper bound entries.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::game::{Game, GameHash};
use crate::value::Value;

/// What a stored value says about the true value of its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least the stored value (the search failed high).
    Lower,
    /// The true value is at most the stored value (the search failed low).
    Upper,
}

/// One remembered search result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry<V> {
    /// The value found, from the maximiser's point of view.
    pub value: V,
    /// The depth the state was searched to.
    pub depth: u32,
    /// How `value` relates to the true value.
    pub bound: Bound,
    /// The best (or cut-off) move's position in the state's move list, if there was one.
    pub best: Option<u16>,
}

/// One slot: three words written with the XOR trick, so that a torn read from a racing thread
/// shows up as a key mismatch instead of a wrong entry (no locks, no undefined behaviour).
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    value: AtomicU64,
    meta: AtomicU64,
}

const OCCUPIED: u64 = 1 << 63;
const NO_MOVE: u64 = 0xFFFF;

fn pack_meta(depth: u32, bound: Bound, best: Option<u16>, generation: u8) -> u64 {
    let depth = u64::from(depth.min(u32::from(u16::MAX)));
    let bound = match bound {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    let best = best.map_or(NO_MOVE, u64::from);
    OCCUPIED | depth | (bound << 16) | (u64::from(generation) << 24) | (best << 32)
}

fn unpack_meta(meta: u64) -> (u32, Bound, Option<u16>, u8) {
    let depth = (meta & 0xFFFF) as u32;
    let bound = match (meta >> 16) & 0xFF {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    };
    let generation = ((meta >> 24) & 0xFF) as u8;
    let best = (meta >> 32) & 0xFFFF;
    let best = if best == NO_MOVE { None } else { Some(best as u16) };
    (depth, bound, best, generation)
}

/// A fixed-size transposition table shared by any number of threads.
///
/// Keys are full 64-bit hashes (see [`crate::GameHash`]); the low bits pick the slot and the whole
/// key is checked on a probe. Replacement prefers deeper entries of the current search
/// ([`TranspositionTable::new_search`] starts a new one) and always replaces older ones.
/// A depth is stored up to 65,535 and a best move up to position 65,534.
///
/// # Examples
///
/// ```
/// use search_core::{Bound, Entry, TranspositionTable};
///
/// let table = TranspositionTable::<i32>::with_capacity(1024);
/// table.store(42, Entry { value: 7, depth: 3, bound: Bound::Lower, best: Some(2) });
/// assert_eq!(table.probe(42).map(|e| (e.value, e.bound, e.best)), Some((7, Bound::Lower, Some(2))));
/// assert_eq!(table.probe(43), None);
/// ```
pub struct TranspositionTable<V> {
    slots: Box<[Slot]>,
    mask: usize,
    generation: AtomicU8,
    _value: PhantomData<fn() -> V>,
}

impl<V: Value> TranspositionTable<V> {
    /// A table with at least `entries` slots (rounded up to a power of two, at least one).
    pub fn with_capacity(entries: usize) -> Self {
        let n = entries.max(1).next_power_of_two();
        TranspositionTable {
            slots: (0..n).map(|_| Slot::default()).collect(),
            mask: n - 1,
            generation: AtomicU8::new(0),
            _value: PhantomData,
        }
    }

    /// A table that takes about `megabytes` MiB (24 bytes a slot).
    pub fn with_megabytes(megabytes: usize) -> Self {
        let entries = (megabytes * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1);
        // Round down so the table never takes more than asked.
        let n = if entries.is_power_of_two() { entries } else { entries.next_power_of_two() / 2 };
        Self::with_capacity(n)
    }

    /// The number of slots.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Marks later stores as belonging to a new search, so they replace entries of older ones.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Empties the table. Searches running meanwhile on other threads may still store entries.
    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.meta.store(0, Ordering::Relaxed);
            slot.value.store(0, Ordering::Relaxed);
            slot.check.store(0, Ordering::Relaxed);
        }
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry<V>> {
        let slot = &self.slots[key as usize & self.mask];
        let meta = slot.meta.load(Ordering::Relaxed);
        let value = slot.value.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if meta & OCCUPIED == 0 || check ^ value ^ meta != key {
            return None;
        }
        let (depth, bound, best, _) = unpack_meta(meta);
        Some(Entry { value: V::from_bits(value), depth, bound, best })
    }

    /// Stores `entry` for `key`, unless the slot holds a deeper entry of another state from the
    /// current search.
    pub fn store(&self, key: u64, entry: Entry<V>) {
        let slot = &self.slots[key as usize & self.mask];
        let generation = self.generation.load(Ordering::Relaxed);
        let old_meta = slot.meta.load(Ordering::Relaxed);
        if old_meta & OCCUPIED != 0 {
            let old_key = slot.check.load(Ordering::Relaxed) ^ slot.value.load(Ordering::Relaxed) ^ old_meta;
            let (old_depth, _, _, old_generation) = unpack_meta(old_meta);
            if old_key != key && old_generation == generation && old_depth > entry.depth {
                return;
            }
        }
        let meta = pack_meta(entry.depth, entry.bound, entry.best, generation);
        let value = entry.value.to_bits();
        slot.meta.store(meta, Ordering::Relaxed);
        slot.value.store(value, Ordering::Relaxed);
        slot.check.store(key ^ value ^ meta, Ordering::Relaxed);
    }
}

impl<V> std::fmt::Debug for TranspositionTable<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable").field("capacity", &self.slots.len()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: i32, depth: u32) -> Entry<i32> {
        Entry { value, depth, bound: Bound::Exact, best: None }
    }

    #[test]
    fn meta_round_trips() {
        for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
            for best in [None, Some(0), Some(65_534)] {
                let meta = pack_meta(70_000, bound, best, 200);
                assert_eq!(unpack_meta(meta), (65_535, bound, best, 200));
            }
        }
    }

    #[test]
    fn colliding_keys_prefer_depth_within_a_search() {
        let table = TranspositionTable::<i32>::with_capacity(4);
        table.store(1, entry(10, 5));
        table.store(5, entry(20, 3)); // same slot, shallower: kept out
        assert_eq!(table.probe(1).map(|e| e.value), Some(10));
        assert_eq!(table.probe(5), None);
        table.store(5, entry(20, 6)); // deeper: replaces
        assert_eq!(table.probe(5).map(|e| e.value), Some(20));
        assert_eq!(table.probe(1), None);
        table.new_search();
        table.store(1, entry(30, 1)); // older generation: replaced whatever its depth
        assert_eq!(table.probe(1).map(|e| e.value), Some(30));
    }

    #[test]
    fn same_key_always_updates_and_clear_empties() {
        let table = TranspositionTable::<f64>::with_capacity(8);
        table.store(9, Entry { value: 1.5, depth: 9, bound: Bound::Upper, best: Some(1) });
        table.store(9, Entry { value: -0.25, depth: 1, bound: Bound::Exact, best: None });
        assert_eq!(table.probe(9).map(|e| (e.value, e.depth)), Some((-0.25, 1)));
        table.clear();
        assert_eq!(table.probe(9), None);
        // The all-zero key must not match an empty slot.
        assert_eq!(table.probe(0), None);
    }

    #[test]
    fn megabyte_sizing_stays_within_budget() {
        let table = TranspositionTable::<i32>::with_megabytes(1);
        assert!(table.capacity() * std::mem::size_of::<Slot>() <= 1024 * 1024);
        assert!(table.capacity() * std::mem::size_of::<Slot>() > 512 * 1024);
    }
}

/// Access to a transposition table for a search: [`NoTable`] for none, or a
/// [`TranspositionTable`] for games that implement [`GameHash`], owned or borrowed.
///
/// Searches take it as a generic argument, so asking for a table search on a game without a hash
/// does not compile, and a search without a table pays nothing for the option. Every reference
/// to a table access is one too (`&table`, `&&table`, an `Arc`), so agents can own a table or
/// borrow one that outlives them.
///
/// # Examples
///
/// ```
/// use search_core::agent::{Agent, AlphaBetaAgent};
/// use search_core::tree::{Tree, TreeEval};
/// use search_core::{alphabeta, TranspositionTable};
///
/// let mut tree = Tree::new();
/// let leaves = vec![tree.leaf(1), tree.leaf(2)];
/// let root = tree.max(leaves, 0);
/// // One table, borrowed by an agent and still the caller's.
/// let table = TranspositionTable::<i32>::with_capacity(1 << 10);
/// let mut agent = AlphaBetaAgent::new("ab", TreeEval::<i32>::new(), alphabeta::Config::depth(1), &table);
/// assert_eq!(agent.choose(&tree, &root), 1);
/// table.clear();
/// ```
pub trait TableAccess<G: Game, V> {
    /// Whether this is a real table; a search without one skips hashing altogether.
    const ENABLED: bool;
    /// The key of `state`.
    fn key(&self, game: &G, state: &G::State) -> u64;
    /// The entry stored for `key`, if any.
    fn probe(&self, key: u64) -> Option<Entry<V>>;
    /// Remembers `entry` for `key`.
    fn store(&self, key: u64, entry: Entry<V>);
}

/// No transposition table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoTable;

impl<G: Game, V> TableAccess<G, V> for NoTable {
    const ENABLED: bool = false;
    fn key(&self, _: &G, _: &G::State) -> u64 {
        0
    }
    fn probe(&self, _: u64) -> Option<Entry<V>> {
        None
    }
    fn store(&self, _: u64, _: Entry<V>) {}
}

impl<G: GameHash, V: Value> TableAccess<G, V> for TranspositionTable<V> {
    const ENABLED: bool = true;
    fn key(&self, game: &G, state: &G::State) -> u64 {
        game.hash(state)
    }
    fn probe(&self, key: u64) -> Option<Entry<V>> {
        TranspositionTable::probe(self, key)
    }
    fn store(&self, key: u64, entry: Entry<V>) {
        TranspositionTable::store(self, key, entry)
    }
}

/// A reference to a table access, or a shared one, is the same table access: `&table` for a
/// search that borrows it, an `Arc` for agents on several threads that search one table.
macro_rules! same_table {
    ($($pointer:ty),*) => {$(
        impl<G: Game, V, T: TableAccess<G, V> + ?Sized> TableAccess<G, V> for $pointer {
            const ENABLED: bool = T::ENABLED;
            fn key(&self, game: &G, state: &G::State) -> u64 {
                (**self).key(game, state)
            }
            fn probe(&self, key: u64) -> Option<Entry<V>> {
                (**self).probe(key)
            }
            fn store(&self, key: u64, entry: Entry<V>) {
                (**self).store(key, entry)
            }
        }
    )*};
}

same_table!(&T, std::sync::Arc<T>);
