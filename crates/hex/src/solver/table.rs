//! The transposition table: a fixed number of slots, indexed by the Zobrist hash and verified
//! against the whole position, so a hash collision can cost a lookup but never a wrong answer.

use std::sync::{Mutex, OnceLock};

/// What the table knows about one position: proof and disproof numbers while it is open, the
/// result and its proof set once solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The stones of the side to move, then of the other side.
    pub(crate) stones: [u128; 2],
    /// Open: the moves still worth trying (the must-play region). Solved: unused.
    pub(crate) must: u128,
    /// Solved: the empty cells the result depends on (filling the others with the loser's
    /// stones keeps the result). Open: the union of the proofs that narrowed `must`.
    pub(crate) proof: u128,
    /// Proof number of "the side to move wins": 0 when it does.
    pub(crate) phi: u32,
    /// Disproof number: 0 when the side to move loses.
    pub(crate) delta: u32,
    /// Nodes spent on the entry: the bigger, the more it is worth keeping.
    pub(crate) work: u32,
    /// The board side and the colour to move (`size * 2 + colour`), so positions of different
    /// sizes or turns with the same stones never match.
    pub(crate) tag: u16,
    /// A winning move (a bit index) when the side to move wins; `u8::MAX` otherwise.
    pub(crate) best: u8,
}

/// A two-way set-associative table: slot 0 of a pair keeps the entry that cost more work,
/// slot 1 takes whatever comes. Each pair sits behind its own lock, so the threads of a
/// parallel search share one table; a lock is held only to copy an entry in or out, and one
/// thread never waits on another for long (an uncontended lock costs a few nanoseconds, next
/// to the tens of microseconds of a node's H-search).
///
/// The slots come in chunks allocated when first written, so a large table costs nothing
/// until it is used: a solve of a small position in a fresh process does not pay for zeroing
/// hundreds of megabytes (2^21 slots took 0.09 s of a 0.2 s solve when allocated up front).
#[derive(Debug)]
pub(crate) struct Table {
    chunks: Vec<OnceLock<Chunk>>,
    /// Pairs per chunk, minus one (a power of two).
    chunk_mask: usize,
    chunk_bits: u32,
    /// Pairs in the whole table, minus one.
    mask: usize,
}

/// A run of slot pairs, each behind its lock.
type Chunk = Box<[Mutex<[Entry; 2]>]>;

/// At most 2^5 pairs (about 6 KiB) a chunk: small enough that the scattered positions of a
/// short search touch little memory, large enough that the chunk table stays small.
const CHUNK_BITS: u32 = 5;

impl Table {
    /// A table of `2^bits` slots (`bits` ≥ 1).
    pub(crate) fn new(bits: u32) -> Table {
        let pair_bits = bits.max(1) - 1;
        let chunk_bits = pair_bits.min(CHUNK_BITS);
        let chunks = 1usize << (pair_bits - chunk_bits);
        Table {
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            chunk_mask: (1 << chunk_bits) - 1,
            chunk_bits,
            mask: (1 << pair_bits) - 1,
        }
    }

    /// The pair of slots of `hash`, if its chunk exists (or always, with `create`). A panic
    /// while a lock was held cannot leave an entry half written (entries are copied whole),
    /// so a poisoned lock is used as it is.
    fn pair(&self, hash: u64, create: bool) -> Option<std::sync::MutexGuard<'_, [Entry; 2]>> {
        let index = (hash >> 1) as usize & self.mask;
        let cell = &self.chunks[index >> self.chunk_bits];
        let chunk = if create {
            cell.get_or_init(|| (0..=self.chunk_mask).map(|_| Mutex::new([Entry::default(); 2])).collect())
        } else {
            cell.get()?
        };
        Some(chunk[index & self.chunk_mask].lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Forgets everything (and gives the memory back).
    pub(crate) fn clear(&mut self) {
        for chunk in &mut self.chunks {
            *chunk = OnceLock::new();
        }
    }

    /// The entry of this position, if kept.
    pub(crate) fn get(&self, hash: u64, stones: [u128; 2], tag: u16) -> Option<Entry> {
        self.pair(hash, false)?.iter().find(|e| e.tag == tag && e.stones == stones && e.work > 0).copied()
    }

    /// Keeps `entry`, replacing the same position or the cheaper of the pair's entries. A
    /// solved entry is never replaced by open numbers for the same position: another thread
    /// may have solved it since this one read it.
    pub(crate) fn put(&self, hash: u64, entry: Entry) {
        let Some(mut pair) = self.pair(hash, true) else { return };
        if let Some(same) = pair.iter_mut().find(|e| e.tag == entry.tag && e.stones == entry.stones) {
            let solved = |e: &Entry| e.phi == 0 || e.delta == 0;
            if !solved(same) || solved(&entry) {
                *same = entry;
            }
        } else if entry.work >= pair[0].work {
            pair[1] = pair[0];
            pair[0] = entry;
        } else {
            pair[1] = entry;
        }
    }
}
