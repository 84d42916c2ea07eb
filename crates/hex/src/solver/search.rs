//! The proof-number search (DFPN) with proof sets and must-play pruning.
//!
//! Every solved position carries a *proof set*: empty cells such that the result stands if all
//! the other empty cells are filled with the loser's stones. Hex is monotone (an extra stone
//! never hurts its owner), so when a move `m` of the side to move loses with proof `P`, every
//! move outside `P` loses too (the loser's stone there is one of those "other" cells). The side
//! to move is therefore confined to the intersection of the proofs of its refuted moves (the
//! must-play region), and a loss's proof is their union. The region starts out narrowed by the
//! opponent's threats: its winning cells and its semi-connections between its edges, found by
//! H-search (or, with H-search off, cells where its stone would make a chain of templates),
//! whose carriers the mover must intrude.
//!
//! Widening: of the moves in the region, ordered by two-distance, only the first quarter (and
//! one more) compete for a proof at any time; all of them count towards a disproof.
//!
//! Cells that the fill-in (or a decomposition, or a captured region) gave to a side are empty
//! in the position as it was. A result proved with them filled holds there with the cells given
//! to the *winner* added to its proof: they are the winner's only by a judgement that needs them
//! empty. The cells given to the *loser* can stay out: where the loser is given every cell
//! outside the proof, they are the loser's as they were in the filled position, and the
//! judgements that gave the winner its cells still hold with more of the loser's stones round
//! them. (Adding the loser's cells too, as the search did until session 44, is sound but makes
//! proofs, and so must-play regions, larger: 9x9-s386-g4 took 158,115 nodes with them and
//! 58,660 without.)

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use super::geometry::{Geometry, bits, lowest};
use super::hsearch::{EdgeLink, HSearch};
use super::table::{Entry, Table};
use super::vc::{Semis, semi_wins, virtual_win};
use super::{Limit, SolverStats};
use crate::board::Color;

/// Zobrist keys for the solver's bit layout: one per (colour, bit) and one for White to move.
#[derive(Debug)]
pub(crate) struct Keys {
    stones: [[u64; 128]; 2],
    white: u64,
}

impl Keys {
    pub(crate) fn new() -> Keys {
        // SplitMix64 from a fixed seed: the same keys in every run, so runs are reproducible.
        let mut state = 0x005E_ED0F_4E58_u64;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let stones = std::array::from_fn(|_| std::array::from_fn(|_| next()));
        Keys { stones, white: next() }
    }

    /// The hash of a whole position, computed from scratch (the search updates it per move).
    pub(crate) fn hash(&self, stones: [u128; 2], to_move: Color) -> u64 {
        let mut h = if to_move == Color::White { self.white } else { 0 };
        for (colour, set) in stones.iter().enumerate() {
            for b in bits(*set) {
                h ^= self.stones[colour][b];
            }
        }
        h
    }

    /// The search state of a position: stones, side to move, and the hashes of the position
    /// and of its 180° rotation.
    pub(crate) fn state(&self, geo: &Geometry, stones: [u128; 2], to_move: Color) -> State {
        let rotated = stones.map(|s| geo.rotate(s));
        State {
            stones,
            to_move,
            hash: self.hash(stones, to_move),
            rotated_hash: self.hash(rotated, to_move),
            filled: 0,
            filled_in: false,
        }
    }
}

/// A position inside the search: stones by colour (Black first), the side to move, the hash.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    pub(crate) stones: [u128; 2],
    pub(crate) to_move: Color,
    pub(crate) hash: u64,
    /// The hash of the position turned by 180° (the same game, so the table keeps one entry
    /// for both: the one with the smaller hash).
    pub(crate) rotated_hash: u64,
    /// The cells [`Geometry::fill_in`] filled after the last move (0 at the root). A result
    /// proved on the filled position holds for the unfilled one only with the winner's cells
    /// among these in its proof set (see [`State::filled_for`]).
    pub(crate) filled: u128,
    /// Whether the fill-in has left nothing to fill here (true after [`State::play`]), so that
    /// the next move's fill-in only has to look near that move.
    pub(crate) filled_in: bool,
}

impl State {
    /// The cells the fill-in after the last move gave `colour`: a result `colour` won here
    /// holds in the position before the fill-in with them added to its proof (they are empty
    /// there, and only the fill-in makes them the winner's); the cells given to the loser need
    /// not be added (see the module's documentation).
    pub(crate) fn filled_for(&self, colour: Color) -> u128 {
        self.filled & self.stones[usize::from(colour.index())]
    }

    /// The position after the side to move plays on bit `m`, with dead and captured cells
    /// filled in.
    pub(crate) fn play(&self, m: usize, keys: &Keys, geo: &Geometry) -> State {
        let me = usize::from(self.to_move.index());
        let mut stones = self.stones;
        stones[me] |= 1 << m;
        let mut hash = self.hash ^ keys.stones[me][m] ^ keys.white;
        let mut rotated_hash = self.rotated_hash ^ keys.stones[me][geo.last - m] ^ keys.white;
        let filled_stones =
            if self.filled_in { geo.fill_in_after(stones, 1 << m) } else { geo.fill_in(stones) };
        let mut filled = 0;
        for colour in 0..2 {
            let new = filled_stones[colour] & !stones[colour];
            filled |= new;
            for b in bits(new) {
                hash ^= keys.stones[colour][b];
                rotated_hash ^= keys.stones[colour][geo.last - b];
            }
        }
        State {
            stones: filled_stones,
            to_move: self.to_move.opponent(),
            hash,
            rotated_hash,
            filled,
            filled_in: true,
        }
    }
}

/// A position as the table keeps it: of the position and its 180° rotation, the one with the
/// smaller hash.
pub(crate) struct Key {
    hash: u64,
    stones: [u128; 2],
    tag: u16,
    rotated: bool,
}

impl Key {
    fn new(geo: &Geometry, state: &State, tag: u16, stones: [u128; 2]) -> Key {
        if state.rotated_hash < state.hash {
            Key { hash: state.rotated_hash, stones: stones.map(|s| geo.rotate(s)), tag, rotated: true }
        } else {
            Key { hash: state.hash, stones, tag, rotated: false }
        }
    }

    /// A set of cells between the position's orientation and the table's (the rotation is its
    /// own inverse, so one function serves both ways).
    fn unorient(&self, geo: &Geometry, set: u128) -> u128 {
        if self.rotated { geo.rotate(set) } else { set }
    }

    /// One cell between the two orientations.
    fn unorient_bit(&self, geo: &Geometry, bit: usize) -> usize {
        if self.rotated { geo.last - bit } else { bit }
    }
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The side to move wins, e.g. by playing on bit `best`.
    Win { proof: u128, best: usize },
    /// The side to move loses.
    Loss { proof: u128 },
    /// A limit stopped the search.
    Unknown(Limit),
}

/// What stops a search early.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Limits {
    pub(crate) max_nodes: Option<u64>,
    pub(crate) deadline: Option<Instant>,
}

/// One search run: the board, the shared table, the counters.
pub(crate) struct Search<'a> {
    pub(crate) geo: &'a Geometry,
    pub(crate) table: &'a Table,
    pub(crate) keys: &'a Keys,
    pub(crate) limits: Limits,
    pub(crate) semis: bool,
    pub(crate) hsearch: Option<&'a mut HSearch>,
    pub(crate) stats: SolverStats,
    pub(crate) aborted: Option<Limit>,
    /// What the threads of a parallel search share besides the table; `None` alone.
    pub(crate) shared: Option<&'a Shared>,
    /// How many moves below the root the node being searched is (H-search keeps its builds by
    /// depth, to start the next ones from).
    pub(crate) depth: usize,
    /// [`SolverConfig::captured_regions`](super::SolverConfig::captured_regions).
    pub(crate) regions: bool,
}

#[cfg(test)]
impl<'a> Search<'a> {
    /// A one-thread search without limits, for tests: semi-connections on, H-search when given.
    pub(crate) fn for_test(
        geo: &'a Geometry,
        table: &'a Table,
        keys: &'a Keys,
        hsearch: Option<&'a mut HSearch>,
        regions: bool,
    ) -> Search<'a> {
        Search {
            geo,
            table,
            keys,
            limits: Limits::default(),
            semis: true,
            hsearch,
            stats: SolverStats::default(),
            aborted: None,
            shared: None,
            depth: 0,
            regions,
        }
    }
}

/// The threads of one parallel search: the table is shared too (see [`Table`]), and each
/// thread runs the whole DFPN from the root. A thread marks the children it is searching as
/// busy, and the others, choosing a child, count a busy child's numbers as if they were
/// larger (Pawlewicz and Hayward's virtual proof numbers, in a simple form), so they spread
/// over different children instead of repeating one another's work; what one thread solves,
/// the others find in the table.
#[derive(Debug)]
pub(crate) struct Shared {
    /// Set when the root is solved (or a limit hit): every thread stops.
    pub(crate) stop: AtomicBool,
    /// Nodes of all the threads, for the node limit.
    pub(crate) nodes: AtomicU64,
    /// How many threads are inside each position, by hash (collisions only blur the hint).
    busy: Vec<AtomicU8>,
}

impl Shared {
    /// Room for `2^bits` busy counters.
    pub(crate) fn new(bits: u32) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            busy: (0..1usize << bits).map(|_| AtomicU8::new(0)).collect(),
        }
    }

    fn counter(&self, hash: u64) -> &AtomicU8 {
        &self.busy[hash as usize & (self.busy.len() - 1)]
    }

    fn is_busy(&self, hash: u64) -> bool {
        self.counter(hash).load(Ordering::Relaxed) > 0
    }
}

/// Proof and disproof numbers at or above this are infinite.
const INF: u32 = u32::MAX / 4;

/// What a node is worth to the proof-number search: `phi` = 0 is a win for the side to move
/// (with `proof` and `best`), `delta` = 0 a loss (with `proof`).
#[derive(Clone, Copy, Debug)]
struct Value {
    phi: u32,
    delta: u32,
    proof: u128,
    best: usize,
}

impl Value {
    fn win(proof: u128, best: usize) -> Value {
        Value { phi: 0, delta: INF, proof, best }
    }

    fn loss(proof: u128) -> Value {
        Value { phi: INF, delta: 0, proof, best: usize::MAX }
    }
}

/// [`Search::insight`]'s answer, in bits of the solver's layout.
pub(crate) enum Insight {
    /// The side to move wins; with this move, when one cell of the filled-in position is known
    /// to win (otherwise any move inside the winning connection's carrier keeps it).
    Win(Option<usize>),
    /// The side to move loses; the opponent's winning connection needs these cells.
    Loss(u128),
    /// Not known: the cells worth playing (the must-play region less inferior cells), and
    /// both colours' stones after the fill-in (Black's, then White's).
    Open(u128, [u128; 2]),
}

/// How a position is decided before any analysis ([`settled`]).
enum Settled {
    /// The opponent's stones connect its edges.
    Lost,
    /// The mover's stones connect its edges.
    Connected,
    /// The mover connects by playing this cell (the lowest such).
    WinAt(usize),
}

/// Whether the position (the mover `me`'s stones `own`, the opponent's `other`, the cells
/// `empty`) is decided already: a connection, checked only when cells were `filled` since the
/// last move (a move alone never completes one: a node with a winning cell is solved before
/// its children), or a cell where the mover's stone connects.
fn settled(geo: &Geometry, me: Color, own: u128, other: u128, empty: u128, filled: bool) -> Option<Settled> {
    if filled && geo.connects(me.opponent(), other) {
        return Some(Settled::Lost);
    }
    if filled && geo.connects(me, own) {
        return Some(Settled::Connected);
    }
    let wins = geo.winning_cells(me, own, empty);
    (wins != 0).then(|| Settled::WinAt(lowest(wins)))
}

/// A node before any child is searched: solved already, or the moves worth trying.
enum Quick {
    Solved(Value),
    Open { must: u128, proof: u128 },
}

/// One child of a node in the proof-number search.
struct Child {
    m: usize,
    state: State,
    value: Value,
}

impl Search<'_> {
    /// Who wins `state` with perfect play: depth-first proof-number search from the root with
    /// infinite thresholds, until it is solved or a limit stops it.
    pub(crate) fn search(&mut self, state: &State) -> Outcome {
        loop {
            let v = self.mid(state, INF, INF);
            if let Some(limit) = self.aborted {
                return Outcome::Unknown(limit);
            }
            if v.phi == 0 {
                return Outcome::Win { proof: v.proof, best: v.best };
            }
            if v.delta == 0 {
                return Outcome::Loss { proof: v.proof };
            }
        }
    }

    /// One multiple-iterative-deepening visit (Nagai's MID, in negamax form): searches below
    /// `state` until its proof number reaches `th_phi` or its disproof number `th_delta`, or it
    /// is solved. A node's proof number is the least disproof number of its children; its
    /// disproof number the sum of their proof numbers.
    fn mid(&mut self, state: &State, th_phi: u32, th_delta: u32) -> Value {
        let unknown = Value { phi: 1, delta: 1, proof: 0, best: usize::MAX };
        if self.check_limits().is_some() {
            return unknown;
        }
        self.stats.nodes += 1;
        let start_nodes = self.stats.nodes;
        let geo = self.geo;
        let me = state.to_move;
        let own = state.stones[usize::from(me.index())];
        let other = state.stones[usize::from(me.opponent().index())];
        let empty = geo.cells & !own & !other;
        // The fill-in after the last move may have completed a connection for either side (a
        // move alone never does: a node with a winning cell is solved before its children).
        match settled(geo, me, own, other, empty, state.filled != 0) {
            Some(Settled::Lost) => return Value::loss(0),
            Some(Settled::Connected) => return Value::win(0, lowest(empty | geo.cells)),
            Some(Settled::WinAt(best)) => return Value::win(1 << best, best),
            None => {}
        }
        let tag = u16::from(geo.size) * 2 + u16::from(me.index());
        let key = Key::new(geo, state, tag, [own, other]);
        let (mut must, mut proof, prior_work) = match self.table.get(key.hash, key.stones, tag) {
            Some(e) => {
                self.stats.table_hits += 1;
                let proof = key.unorient(geo, e.proof);
                if e.phi == 0 {
                    return Value::win(proof, key.unorient_bit(geo, usize::from(e.best)));
                }
                if e.delta == 0 {
                    return Value::loss(proof);
                }
                (key.unorient(geo, e.must), proof, e.work)
            }
            None => match self.quick(me, own, other, empty, false, self.regions) {
                Quick::Solved(v) => return self.store(&key, v, v.proof, start_nodes, 0),
                Quick::Open { must, proof } => {
                    // Delayed expansion: estimate the numbers as if every child were new,
                    // (1, moves), and stop here if that already reaches a threshold, as it
                    // usually does on a first visit; the children are built on the next one.
                    let v = Value { phi: 1, delta: must.count_ones(), proof, best: usize::MAX };
                    if v.phi >= th_phi || v.delta >= th_delta {
                        return self.store(&key, v, must, start_nodes, 0);
                    }
                    (must, proof, 0)
                }
            },
        };

        let mut children: Vec<Child> = self
            .order(me, own, other, must)
            .into_iter()
            .map(|m| {
                let child = state.play(m, self.keys, geo);
                let value = self.lookup(&child);
                Child { m, state: child, value }
            })
            .collect();
        loop {
            // Children won by the opponent narrow the region to their proofs; a child lost by
            // the opponent wins the node.
            for c in &children {
                if c.value.phi == 0 {
                    let won = c.value.proof | c.state.filled_for(me.opponent());
                    must &= won;
                    proof |= won;
                } else if c.value.delta == 0 {
                    let won = c.value.proof | c.state.filled_for(me) | 1 << c.m;
                    let proof = self.shrink(won, me.opponent(), state.stones);
                    let v = Value::win(proof, c.m);
                    return self.store(&key, v, 0, start_nodes, prior_work);
                }
            }
            children.retain(|c| must >> c.m & 1 == 1 && c.value.phi != 0);
            if children.is_empty() {
                let proof = self.shrink(proof, me, state.stones);
                return self.store(&key, Value::loss(proof), 0, start_nodes, prior_work);
            }
            let mut phi = INF;
            let mut delta = 0u32;
            let mut best = 0;
            let mut second = INF;
            // Widening (Benzene's focused DFPN): only the first quarter of the moves, in the
            // order above, compete for the proof; the disproof still counts them all.
            let focus = if children.len() < 2 { children.len() } else { 1 + children.len().div_ceil(4) };
            for (i, c) in children.iter().enumerate() {
                delta = delta.saturating_add(c.value.phi).min(INF - 1);
                if i < focus {
                    phi = phi.min(c.value.delta);
                }
            }
            // Threads spread out only where the node looks lost for the mover (its disproof
            // number is the smaller): there every child has to be refuted, and a second thread
            // on another child is work the first needs anyway. Where it looks won, one child
            // suffices and all threads go for the best; spreading there made the second thread
            // prove other openings of the empty 8x8 board instead of helping (2 threads took
            // 98 s for 1 thread's 68 s).
            let spread = self.shared.filter(|_| delta <= phi);
            let mut best_rank = INF;
            for (i, c) in children.iter().enumerate().take(focus) {
                // A child another thread is in looks half as bad again as it is, for the choice
                // only (on five 7x7 openings, factors of 1, 2 and 4 did about as well).
                let rank = match spread {
                    Some(shared) if shared.is_busy(c.state.hash) => {
                        c.value.delta.saturating_add(c.value.delta / 2).saturating_add(1).min(INF)
                    }
                    _ => c.value.delta,
                };
                if rank < best_rank {
                    second = best_rank;
                    best_rank = rank;
                    best = i;
                } else if rank < second {
                    second = rank;
                }
            }
            // Alone, `best_rank` is `phi`. With other threads in some children, this thread
            // judges the node by the inflated numbers (so it leaves a node whose children are
            // all busy rather than wait on them) and says so to its parent, but the table
            // keeps the true ones.
            if best_rank >= th_phi || delta >= th_delta || self.aborted.is_some() {
                let v = Value { phi, delta, proof, best: usize::MAX };
                self.store(&key, v, must, start_nodes, prior_work);
                return Value { phi: best_rank.max(phi), ..v };
            }
            // The 1+ε trick: let the best child run a little past the second best, so the
            // search does not flip between two near-equal children.
            let child_th_delta = th_phi.min(second.saturating_add(second / 2).saturating_add(1)).min(INF);
            let child_th_phi = th_delta - delta + children[best].value.phi;
            let child_state = children[best].state;
            if let Some(shared) = self.shared {
                shared.counter(child_state.hash).fetch_add(1, Ordering::Relaxed);
            }
            self.depth += 1;
            children[best].value = self.mid(&child_state, child_th_phi, child_th_delta);
            self.depth -= 1;
            if let Some(shared) = self.shared {
                shared.counter(child_state.hash).fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    /// A smaller proof for a loss of `loser` (stones Black's, then White's): with every empty
    /// cell outside `proof` given to the loser, the proof's cells that are then dead or
    /// captured by the loser can be the loser's too without changing the result (Benzene's
    /// proof shrinking). Cells the fill-in gives the winner stay: the winner may need them.
    fn shrink(&self, proof: u128, loser: Color, stones: [u128; 2]) -> u128 {
        let geo = self.geo;
        let l = usize::from(loser.index());
        let mut filled = stones;
        filled[l] |= geo.cells & !stones[0] & !stones[1] & !proof;
        let before = filled[l];
        proof & !(geo.fill_in(filled)[l] & !before)
    }

    /// The table's numbers for `state`, or (1, 1) for a position not seen yet.
    fn lookup(&self, state: &State) -> Value {
        let geo = self.geo;
        let me = state.to_move;
        let own = state.stones[usize::from(me.index())];
        let other = state.stones[usize::from(me.opponent().index())];
        let tag = u16::from(geo.size) * 2 + u16::from(me.index());
        let key = Key::new(geo, state, tag, [own, other]);
        match self.table.get(key.hash, key.stones, tag) {
            Some(e) => Value {
                phi: e.phi,
                delta: e.delta,
                proof: key.unorient(geo, e.proof),
                best: if e.phi == 0 { key.unorient_bit(geo, usize::from(e.best)) } else { usize::MAX },
            },
            None => Value { phi: 1, delta: 1, proof: 0, best: usize::MAX },
        }
    }

    /// What the solver knows of `state` without searching it: the position is filled in
    /// (dead and captured cells), then [`Search::quick`] looks for wins, losses and the
    /// must-play region.
    pub(crate) fn insight(&mut self, state: &State) -> Insight {
        let geo = self.geo;
        let me = state.to_move;
        let stones = geo.fill_in(state.stones);
        let own = stones[usize::from(me.index())];
        let other = stones[usize::from(me.opponent().index())];
        let empty = geo.cells & !own & !other;
        match settled(geo, me, own, other, empty, true) {
            Some(Settled::Lost) => return Insight::Loss(0),
            Some(Settled::Connected) => return Insight::Win(None),
            Some(Settled::WinAt(best)) => return Insight::Win(Some(best)),
            None => {}
        }
        match self.quick(me, own, other, empty, true, self.regions) {
            Quick::Solved(v) if v.phi == 0 => Insight::Win((empty >> v.best & 1 == 1).then_some(v.best)),
            Quick::Solved(v) => Insight::Loss(v.proof),
            Quick::Open { must, .. } => Insight::Open(must, stones),
        }
    }

    /// What a node is known to be before searching its children: wins and losses found by
    /// threats and virtual connections, otherwise the region the mover must play in.
    ///
    /// With `mover_build` false, H-search builds only the opponent's connections (the loss
    /// and the must-play region), not the mover's (a semi-connection between the mover's
    /// edges, a win). The proof-number search passes false: the mover's win is then found
    /// one move deeper, where it is the opponent's virtual connection, at the cost of a few
    /// more nodes, and the mover's build, half of a node's cost, found a win in only 2 to 7 %
    /// of the nodes. On seven 7x7 and 8x8 positions the search took 4 % more nodes and 32 %
    /// less time without it.
    fn quick(
        &mut self,
        me: Color,
        own: u128,
        other: u128,
        empty: u128,
        mover_build: bool,
        regions: bool,
    ) -> Quick {
        let geo = self.geo;
        let opp = me.opponent();
        if let Some(carrier) = virtual_win(geo, me, own, empty) {
            // Playing any carrier cell keeps the chain (it turns one link into adjacency).
            return Quick::Solved(Value::win(carrier, lowest(carrier)));
        }
        let threats = geo.winning_cells(opp, other, empty);
        if threats.count_ones() >= 2 {
            let a = lowest(threats);
            return Quick::Solved(Value::loss(1 << a | 1 << lowest(threats & !(1 << a))));
        }
        if let Some(carrier) = virtual_win(geo, opp, other, empty) {
            return Quick::Solved(Value::loss(carrier));
        }
        if threats != 0 {
            return Quick::Open { must: threats, proof: threats };
        }
        let by_colour = if me == Color::Black { [own, other] } else { [other, own] };
        // Captured regions (see `SolverConfig::captured_regions`): the position with them
        // filled is worth the same, and its connections often decide more.
        if regions && let Some(filled) = geo.fill_regions(by_colour) {
            self.stats.regions += 1;
            return self.refilled(me, own, empty, filled, mover_build);
        }
        // Dead cells are never better than any other move (a stone there changes nothing), so
        // they are left out while anything else remains.
        let live = empty & !geo.dead_cells(by_colour, empty);
        let (mut must, mut proof) = (if live != 0 { live } else { empty }, 0);
        if let Some(h) = self.hsearch.as_deref_mut() {
            // The opponent's connections first: when they prove a loss, the mover cannot have
            // a winning semi-connection, and its build is saved.
            let link = h.build_at(geo, opp, other, empty, self.depth);
            self.stats.builds += 1;
            self.stats.incremental_builds += u64::from(h.last_incremental);
            if let EdgeLink::Virtual(carrier) = link {
                return Quick::Solved(Value::loss(carrier));
            }
            for (_, carrier) in h.edge_semis() {
                must &= carrier;
                proof |= carrier;
            }
            // A loss the opponent's semi-connections prove already is kept as it is: its proof
            // (their carriers) is usually smaller than a decomposition's, which carries the
            // carrier and the cells filled for the opponent too, and it costs no second build.
            // (Looking for the decomposition first, with proofs as they are now, took 5 % more
            // nodes on 22 positions of the file: 8x8 a1 +22 %, b3 +11 %, e2 -8 %.)
            if must == 0 {
                return Quick::Solved(Value::loss(proof));
            }
            if let Some(carrier) = h.decomposition(geo, opp, other, empty) {
                return self.decomposed(me, [own, other], empty, carrier, mover_build);
            }
            if mover_build {
                match h.build(geo, me, own, empty) {
                    EdgeLink::Virtual(carrier) => {
                        return Quick::Solved(Value::win(carrier, lowest(carrier | empty)));
                    }
                    EdgeLink::Semis => {
                        // The smallest carrier: it is the proof of the win, and rules out the
                        // opponent's moves outside it one level up.
                        if let Some((key, carrier)) = h.edge_semis().min_by_key(|(_, c)| c.count_ones()) {
                            return Quick::Solved(Value::win(carrier, key));
                        }
                    }
                }
            }
        } else if self.semis {
            // A move that makes a virtual win for the mover wins at once.
            if let Some((best, region)) = semi_wins(geo, me, own, empty, live).next() {
                return Quick::Solved(Value::win(region, best));
            }
            let mut semis = Semis::new(geo, opp, other, empty);
            for key in bits(must) {
                if must >> key & 1 == 0 {
                    continue;
                }
                if let Some(region) = semis.at(key) {
                    must &= region;
                    proof |= region;
                }
            }
            if must == 0 {
                return Quick::Solved(Value::loss(proof));
            }
        }
        // Vulnerable cells (the opponent's reply next to them kills them) are left out while
        // anything else remains; the result then depends on them and their killers staying
        // empty, so both join the proof.
        let (vulnerable, killers) = geo.vulnerable(usize::from(opp.index()), by_colour, must);
        if vulnerable != 0 && must & !vulnerable != 0 {
            must &= !vulnerable;
            proof |= vulnerable | killers;
        }
        // Dominated cells (see `Geometry::undominated`): the domination holds with more of
        // the mover's stones, so it still holds where the loser's stones fill the cells
        // outside a loss's proof; the dropped cells and their dominators join the proof so
        // they stay empty there.
        let (kept, reasons) = geo.undominated(usize::from(me.index()), by_colour, must);
        must = kept;
        proof |= reasons;
        Quick::Open { must, proof }
    }

    /// [`Search::quick`] of the position with `carrier`, a decomposition of the opponent's
    /// ([`HSearch::decomposition`]), filled with the opponent's stones and filled in again:
    /// it is worth the same, and its connections, built again, often leave the mover fewer
    /// moves (on 1,998 decompositions of one 9x9 search, 85 nodes solved at once instead of
    /// 29, and of the others 1,406 left fewer moves and 12 more: a median of 2 against 5).
    /// The children are still built from the position as it was: building them from the
    /// filled one (and keeping the carrier in the table for that) took more nodes on the
    /// test positions.
    /// A loss needs the carrier and the cells the fill-in gave the opponent in its proof; a
    /// win the cells the fill-in gave the mover.
    fn decomposed(
        &mut self,
        me: Color,
        sides: [u128; 2],
        before: u128,
        carrier: u128,
        mover_build: bool,
    ) -> Quick {
        let geo = self.geo;
        let m = usize::from(me.index());
        let [own, other] = sides;
        let mut stones = [0; 2];
        stones[m] = own;
        stones[1 - m] = other | carrier;
        self.stats.decompositions += 1;
        self.refilled(me, own, before, geo.fill_in(stones), mover_build)
    }

    /// [`Search::quick`] of `filled` (Black's stones, then White's): the position where the
    /// mover has the stones `own` and `before` is empty, with cells given to either side that
    /// do not change the winner, filled in. A result needs the cells given to its winner in its
    /// proof (they are the winner's because they were empty), not those given to the loser
    /// (see the module's documentation).
    fn refilled(
        &mut self,
        me: Color,
        own: u128,
        before: u128,
        filled: [u128; 2],
        mover_build: bool,
    ) -> Quick {
        let geo = self.geo;
        let m = usize::from(me.index());
        let theirs = before & filled[1 - m];
        let mine = filled[m] & !own;
        let (own, other) = (filled[m], filled[1 - m]);
        let empty = geo.cells & !own & !other;
        match settled(geo, me, own, other, empty, true) {
            Some(Settled::Lost) => return Quick::Solved(Value::loss(theirs)),
            // Won whatever the mover plays: any empty cell of the position as it was.
            Some(Settled::Connected) => return Quick::Solved(Value::win(mine, lowest(before))),
            Some(Settled::WinAt(best)) => return Quick::Solved(Value::win(mine | 1 << best, best)),
            None => {}
        }
        match self.quick(me, own, other, empty, mover_build, false) {
            Quick::Solved(v) if v.phi == 0 => Quick::Solved(Value { proof: v.proof | mine, ..v }),
            Quick::Solved(v) => Quick::Solved(Value { proof: v.proof | theirs, ..v }),
            Quick::Open { must, proof } => Quick::Open { must, proof: proof | theirs },
        }
    }

    /// Keeps `value` (with `must` for an open node) in the table and returns it.
    fn store(&mut self, key: &Key, value: Value, must: u128, start: u64, prior_work: u32) -> Value {
        if self.aborted.is_some() && value.phi != 0 && value.delta != 0 {
            return value; // numbers from an interrupted search are not worth keeping
        }
        let geo = self.geo;
        let work = (self.stats.nodes - start + 1).min(u64::from(u32::MAX)) as u32;
        let best = if value.phi == 0 { key.unorient_bit(geo, value.best) as u8 } else { u8::MAX };
        let entry = Entry {
            stones: key.stones,
            must: key.unorient(geo, must),
            proof: key.unorient(geo, value.proof),
            phi: value.phi,
            delta: value.delta,
            work: prior_work.saturating_add(work),
            tag: key.tag,
            best,
        };
        self.table.put(key.hash, entry);
        value
    }

    /// Whether a limit has been reached (and which), remembering it so the whole search stops.
    fn check_limits(&mut self) -> Option<Limit> {
        if self.aborted.is_some() {
            return self.aborted;
        }
        let nodes = match self.shared {
            Some(shared) => {
                if shared.stop.load(Ordering::Relaxed) {
                    // Another thread finished: this thread's answer is not needed.
                    self.aborted = Some(Limit::Nodes);
                    return self.aborted;
                }
                shared.nodes.fetch_add(1, Ordering::Relaxed) + 1
            }
            None => self.stats.nodes,
        };
        if self.limits.max_nodes.is_some_and(|max| nodes >= max) {
            self.aborted = Some(Limit::Nodes);
        } else if nodes.is_multiple_of(64) && self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = Some(Limit::Time);
        }
        self.aborted
    }

    /// The cells of `must`, most promising first: the lowest sum of both sides' two-distance
    /// potentials (Wolve's and Queenbee's measure of a cell's worth to both players), the
    /// distance to the centre added and breaking ties. With widening (see `mid`) this order
    /// decides which moves are tried for a proof, so it matters: against shortest-path sums
    /// it took the 7x7 opening d1 from 33,000 nodes to 13,000.
    pub(crate) fn order(&self, me: Color, own: u128, other: u128, must: u128) -> Vec<usize> {
        let geo = self.geo;
        let empty = geo.cells & !own & !other;
        let mut score = [0u16; 128];
        two_distances(geo, me, own, empty, &mut score);
        two_distances(geo, me.opponent(), other, empty, &mut score);
        let mut moves: Vec<usize> = bits(must).collect();
        moves.sort_by_key(|&m| (u16::from(geo.centre[m]) + 2 * score[m], geo.centre[m]));
        moves
    }
}

/// Adds to `score[cell]`, for every empty cell, `color`'s two-distance potential there: the
/// sum of the cell's two-distances to the colour's edges (Queenbee's measure: a cell next to
/// the edge is at 1, any other at one more than its second-nearest neighbour; adjacency passes
/// through the colour's stones). Unreachable counts as 40 per edge.
fn two_distances(geo: &Geometry, color: Color, own: u128, empty: u128, score: &mut [u16; 128]) {
    const FAR: u16 = 40;
    // Each empty cell's neighbourhood through own groups, and the groups next to each edge.
    let mut around = [0u128; 128];
    let mut groups: [(u128, u128); 64] = [(0, 0); 64];
    let mut count = 0;
    let mut rest = own;
    while rest != 0 && count < groups.len() {
        let g = geo.flood(rest & rest.wrapping_neg(), own);
        rest &= !g;
        groups[count] = (g, geo.neighbours(g) & empty);
        count += 1;
    }
    for b in bits(empty) {
        let key = 1u128 << b;
        let mut set = geo.neighbours(key);
        for &(_, libs) in &groups[..count] {
            if libs & key != 0 {
                set |= libs;
            }
        }
        around[b] = set & empty & !key;
    }
    for edge in geo.edges_of(color) {
        let mut touching = edge;
        for &(g, libs) in &groups[..count] {
            if g & edge != 0 {
                touching |= libs;
            }
        }
        let mut dist = [FAR; 128];
        let mut reached = touching & empty;
        for b in bits(reached) {
            dist[b] = 1;
        }
        let mut k = 1;
        loop {
            let mut next = 0u128;
            for b in bits(empty & !reached) {
                let near = around[b] & reached;
                if near & near.wrapping_sub(1) != 0 {
                    next |= 1 << b;
                }
            }
            if next == 0 || k >= FAR - 1 {
                break;
            }
            k += 1;
            for b in bits(next) {
                dist[b] = k;
            }
            reached |= next;
        }
        for b in bits(empty) {
            score[b] += dist[b];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::geometry::{Template, edge_template_shapes};
    use super::*;
    use crate::board::Cell;

    /// Every edge template beyond the ziggurat holds: on a 10x10 board where Black has the
    /// template's stones and a column from the anchor down to the bottom edge, and White has
    /// every cell outside the carrier, Black wins with White to move; and White breaks
    /// through wherever one carrier cell is taken from Black, so each carrier is minimal.
    /// Below the anchor's row the column touches only cells next to the anchor, so it lends
    /// the anchor no reach. The solver proves it on a geometry that has only the ziggurats,
    /// so no template proves itself. Each shape is checked once in each lean and with each
    /// of its anchors, as the geometry places it on Black's top edge.
    /// Every proof set the search returns means what the module says: with every empty cell
    /// outside it given to the loser, the winner still wins (plain negamax), and a winning move
    /// wins. Random 4x4 to 6x6 positions with few empty cells, either side to move, captured
    /// regions on, each from a fresh table. It fails when the cells the fill-in gave the loser
    /// are kept out of a child's proof in place of the winner's.
    #[test]
    fn proof_sets_hold_against_brute_force() {
        use super::super::brute::{RandomStones, wins_defending};
        let mut random = RandomStones::new(4444);
        let keys = Keys::new();
        let (mut checked, mut smaller) = (0, 0);
        for n in 4..=6u8 {
            let geo = Geometry::new(n);
            for _ in 0..1500 {
                let stones = random.position(&geo);
                let empty = geo.cells & !stones[0] & !stones[1];
                if !(3..=9).contains(&empty.count_ones())
                    || geo.connects(Color::Black, stones[0])
                    || geo.connects(Color::White, stones[1])
                {
                    continue;
                }
                for me in [Color::Black, Color::White] {
                    let table = Table::new(12);
                    let mut hsearch = HSearch::new();
                    let mut search = Search::for_test(&geo, &table, &keys, Some(&mut hsearch), true);
                    let (winner, proof) = match search.search(&keys.state(&geo, stones, me)) {
                        Outcome::Win { proof, best } => {
                            if empty >> best & 1 == 1 {
                                let own = stones[usize::from(me.index())] | 1 << best;
                                let free = empty & !(1 << best);
                                assert!(
                                    wins_defending(&geo, me, own, free, true),
                                    "{n}x{n} {stones:?} {me:?} best {best}"
                                );
                            }
                            (me, proof)
                        }
                        Outcome::Loss { proof } => (me.opponent(), proof),
                        Outcome::Unknown(limit) => panic!("no limits were set: {limit:?}"),
                    };
                    let (w, l) = (usize::from(winner.index()), usize::from(winner.opponent().index()));
                    let mut given = stones;
                    given[l] |= empty & !proof;
                    let free = empty & proof;
                    assert!(
                        wins_defending(&geo, winner, given[w], free, winner != me),
                        "{n}x{n} {stones:?} {me:?} to move: {winner:?} wins, proof {proof:#x} does not hold"
                    );
                    checked += 1;
                    smaller += usize::from(empty & !proof != 0);
                }
            }
        }
        assert!(
            checked > 1000 && smaller * 2 > checked,
            "proofs checked {checked}, smaller than the empty cells {smaller}"
        );
    }

    #[test]
    fn edge_templates_hold_and_are_minimal() {
        let full = Geometry::new(10);
        let mut geo = Geometry::new(10);
        let zig_len = edge_template_shapes()[0].carrier.len() as u32;
        let is_zig = |t: &Template| t.stones == 0 && t.carrier.count_ones() == zig_len;
        geo.templates = std::array::from_fn(|c| {
            std::array::from_fn(|e| geo.templates[c][e].iter().copied().filter(is_zig).collect())
        });
        let solve = |stones: [u128; 2]| super::template_search::white_to_move(&geo, stones);
        // Each placement as offsets from its anchor, to check each shape once.
        let relative = |anchor: usize, set: u128| -> Vec<(i32, i32)> {
            let a = full.cell(anchor);
            bits(set)
                .map(|b| {
                    let c = full.cell(b);
                    (i32::from(c.row) - i32::from(a.row), i32::from(c.col) - i32::from(a.col))
                })
                .collect()
        };
        let mut seen = std::collections::HashSet::new();
        for t in full.templates[0][0].iter().filter(|t| !is_zig(t)) {
            if !seen.insert((relative(t.anchor, t.stones), relative(t.anchor, t.carrier))) {
                continue;
            }
            let cell = full.cell(t.anchor);
            let column: u128 = (cell.row..10).map(|r| full.bit(Cell::new(r, cell.col))).fold(0, |a, b| a | b);
            let black = column | t.stones;
            let white = full.cells & !black & !t.carrier;
            assert!(
                matches!(solve([black, white]), Outcome::Loss { .. }),
                "the template at {cell:?} with stones {:?} does not hold",
                relative(t.anchor, t.stones)
            );
            for b in bits(t.carrier) {
                assert!(
                    matches!(solve([black, white | 1 << b]), Outcome::Win { .. }),
                    "{cell:?} with stones {:?}: not minimal without {:?}",
                    relative(t.anchor, t.stones),
                    full.cell(b)
                );
            }
        }
        // Every shape but the ziggurat was checked in at least one lean.
        for shape in &edge_template_shapes()[1..] {
            let lean = |mirror: bool| {
                let turn = |v: &[(i32, i32)]| {
                    let mut v: Vec<_> =
                        v.iter().map(|&(r, c)| if mirror { (r, -c - r) } else { (r, c) }).collect();
                    v.sort_unstable();
                    v
                };
                (turn(&shape.stones), turn(&shape.carrier))
            };
            assert!(seen.contains(&lean(false)) || seen.contains(&lean(true)), "{shape:?} was not checked");
        }
    }
}

/// The search that found the carriers of the solver's `templates.txt`, kept so that the
/// table can be checked and extended: `cargo test --release -p game-search-hex --lib
/// template_search -- --ignored --nocapture`.
#[cfg(test)]
mod template_search {
    use super::super::hsearch::{EdgeLink, HSearch};
    use super::*;
    use crate::board::Cell;

    /// The board the carriers are found on: wide enough for the fifth row's templates.
    const SIZE: u8 = 10;

    /// The outcome for White, to move, with these stones, from a fresh table.
    pub(super) fn white_to_move(geo: &Geometry, stones: [u128; 2]) -> Outcome {
        let keys = Keys::new();
        let table = Table::new(16);
        let mut hsearch = HSearch::new();
        let mut search = Search::for_test(geo, &table, &keys, Some(&mut hsearch), false);
        search.search(&keys.state(geo, stones, Color::White))
    }

    /// A minimal carrier, as offsets from the anchor `(row, col)`, that connects the anchor
    /// (with Black's `stones` at those offsets) to the top edge with White to move, or `None`
    /// if even the whole band of rows `0..=row` does not. Black's column from the anchor down
    /// to the bottom edge stands for the rest of its group; below the anchor's row it touches
    /// only cells next to the anchor, and White holds every other cell there, so the column
    /// lends the anchor no reach. The cells at the offsets `forbidden` are White's from the
    /// start. Cells are dropped farthest from the anchor first, ties to the right first or
    /// (with `left`) to the left first.
    fn minimal_carrier(
        geo: &Geometry,
        row: u8,
        col: u8,
        stones: &[(i32, i32)],
        forbidden: &[(i32, i32)],
        left: bool,
    ) -> Option<Vec<(i32, i32)>> {
        let at = |dr: i32, dc: i32| {
            let (r, c) = (i32::from(row) + dr, i32::from(col) + dc);
            let n = i32::from(SIZE);
            ((0..n).contains(&r) && (0..n).contains(&c)).then(|| geo.bit(Cell::new(r as u8, c as u8)))
        };
        let mut black: u128 = (row..SIZE).map(|r| geo.bit(Cell::new(r, col))).fold(0, |a, b| a | b);
        for &(dr, dc) in stones {
            black |= at(dr, dc)?;
        }
        let mut carrier: u128 = (0..=row)
            .flat_map(|r| (0..SIZE).map(move |c| (r, c)))
            .fold(0, |a, (r, c)| a | geo.bit(Cell::new(r, c)));
        carrier &= !black;
        for &(dr, dc) in forbidden {
            carrier &= !at(dr, dc).unwrap_or(0);
        }
        let holds = |carrier: u128| {
            matches!(white_to_move(geo, [black, geo.cells & !black & !carrier]), Outcome::Loss { .. })
        };
        if !holds(carrier) {
            return None;
        }
        let offset = |b: usize| {
            let c = geo.cell(b);
            (i32::from(c.row) - i32::from(row), i32::from(c.col) - i32::from(col))
        };
        let mut order: Vec<usize> = bits(carrier).collect();
        order.sort_by_key(|&b| {
            let (dr, dc) = offset(b);
            (std::cmp::Reverse((dr.abs() + dc.abs() + (dr + dc).abs()) / 2), if left { dc } else { -dc }, dr)
        });
        for b in order {
            if holds(carrier & !(1 << b)) {
                carrier &= !(1 << b);
            }
        }
        Some(bits(carrier).map(offset).collect())
    }

    /// Prints, as lines of `templates.txt`, the distinct minimal carriers of each shape over
    /// every column of the board that H-search with the table as it is does not derive.
    #[test]
    #[ignore = "finds edge-template carriers (minutes); run by hand"]
    fn generate() {
        let geo = Geometry::new(SIZE);
        let mut hsearch = HSearch::new();
        // The shapes (anchor row, other stones): a lone stone on the third and fourth rows, two
        // side by side on the fourth and fifth, then a fourth- or fifth-row stone with one
        // helping stone on its row or nearer the edge.
        let mut shapes: Vec<(u8, Vec<(i32, i32)>)> =
            vec![(2, vec![]), (3, vec![]), (3, vec![(0, 1)]), (4, vec![(0, 1)])];
        for row in [3u8, 4] {
            for dr in -2..=0i32 {
                for dc in -3..=3i32 {
                    if (dr, dc) != (0, 0) && !(dr == 0 && dc.abs() == 1) {
                        shapes.push((row, vec![(dr, dc)]));
                    }
                }
            }
        }
        let list = |v: &[(i32, i32)]| v.iter().map(|(r, c)| format!("{r},{c}")).collect::<Vec<_>>().join(" ");
        for (row, stones) in shapes {
            let mut found: Vec<Vec<(i32, i32)>> = Vec::new();
            for col in 0..SIZE {
                for left in [false, true] {
                    let Some(first) = minimal_carrier(&geo, row, col, &stones, &[], left) else { continue };
                    // Other minimal carriers: each avoids one cell of the first.
                    let others =
                        first.iter().filter_map(|&x| minimal_carrier(&geo, row, col, &stones, &[x], left));
                    for carrier in std::iter::once(first.clone()).chain(others.collect::<Vec<_>>()) {
                        if found.contains(&carrier) {
                            continue;
                        }
                        let at = |&(dr, dc): &(i32, i32)| {
                            geo.bit(Cell::new((i32::from(row) + dr) as u8, (i32::from(col) + dc) as u8))
                        };
                        let column: u128 =
                            (row..SIZE).map(|r| geo.bit(Cell::new(r, col))).fold(0, |a, b| a | b);
                        let black = stones.iter().map(at).fold(column, |a, b| a | b);
                        let empty = carrier.iter().map(at).fold(0, |a, b| a | b);
                        if !matches!(hsearch.build(&geo, Color::Black, black, empty), EdgeLink::Virtual(_)) {
                            println!("{row} | {} | {}", list(&stones), list(&carrier));
                        }
                        found.push(carrier);
                    }
                }
            }
        }
    }
}
