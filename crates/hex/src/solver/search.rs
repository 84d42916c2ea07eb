//! The depth-first proof search: boolean negamax with a transposition table, proof sets and
//! must-play pruning.
//!
//! Every result carries a *proof set*: empty cells such that the result stands if all the other
//! empty cells are filled with the loser's stones. Hex is monotone (an extra stone never hurts
//! its owner), so when a move `m` of the side to move loses with proof `P`, every move outside
//! `P` loses too (the loser's stone there is one of those "other" cells). The side to move is
//! therefore confined to the intersection of the proofs of its refuted moves (the must-play
//! region), and a loss's proof is their union. The same region starts out narrowed by the
//! opponent's threats: its winning cells and, optionally, its semi-connections (cells where its
//! stone would give it a virtual win, whose carriers the mover must intrude).

use std::time::Instant;

use super::geometry::{Geometry, bits, lowest};
use super::table::{Entry, Table};
use super::vc::{semi_wins, virtual_win};
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
}

/// A position inside the search: stones by colour (Black first), the side to move, the hash.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    pub(crate) stones: [u128; 2],
    pub(crate) to_move: Color,
    pub(crate) hash: u64,
}

impl State {
    /// The position after the side to move plays on bit `m`.
    fn play(&self, m: usize, keys: &Keys) -> State {
        let me = usize::from(self.to_move.index());
        let mut stones = self.stones;
        stones[me] |= 1 << m;
        State { stones, to_move: self.to_move.opponent(), hash: self.hash ^ keys.stones[me][m] ^ keys.white }
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
    pub(crate) table: &'a mut Table,
    pub(crate) keys: &'a Keys,
    pub(crate) limits: Limits,
    pub(crate) semis: bool,
    pub(crate) stats: SolverStats,
    pub(crate) aborted: Option<Limit>,
}

impl Search<'_> {
    /// Who wins `state` with perfect play, with a proof set.
    pub(crate) fn search(&mut self, state: &State) -> Outcome {
        if let Some(limit) = self.check_limits() {
            return Outcome::Unknown(limit);
        }
        self.stats.nodes += 1;
        let start_nodes = self.stats.nodes;
        let geo = self.geo;
        let me = state.to_move;
        let opp = me.opponent();
        let own = state.stones[usize::from(me.index())];
        let other = state.stones[usize::from(opp.index())];
        let empty = geo.cells & !own & !other;

        let wins = geo.winning_cells(me, own, empty);
        if wins != 0 {
            let best = lowest(wins);
            return Outcome::Win { proof: 1 << best, best };
        }
        let tag = u16::from(geo.size) * 2 + u16::from(me.index());
        if let Some(entry) = self.table.get(state.hash, [own, other], tag) {
            self.stats.table_hits += 1;
            return if entry.win {
                Outcome::Win { proof: entry.proof, best: usize::from(entry.best) }
            } else {
                Outcome::Loss { proof: entry.proof }
            };
        }
        if let Some(carrier) = virtual_win(geo, me, own, empty) {
            // Playing any carrier cell keeps the chain (it turns one link into adjacency).
            let outcome = Outcome::Win { proof: carrier, best: lowest(carrier) };
            return self.store(state, [own, other], tag, outcome, start_nodes);
        }

        // The opponent's threats narrow the moves worth trying.
        let threats = geo.winning_cells(opp, other, empty);
        if threats.count_ones() >= 2 {
            let a = lowest(threats);
            let proof = 1 << a | 1 << lowest(threats & !(1 << a));
            return self.store(state, [own, other], tag, Outcome::Loss { proof }, start_nodes);
        }
        if let Some(carrier) = virtual_win(geo, opp, other, empty) {
            return self.store(state, [own, other], tag, Outcome::Loss { proof: carrier }, start_nodes);
        }
        let (mut must, mut proof) = if threats != 0 { (threats, threats) } else { (empty, 0) };
        if self.semis && threats == 0 {
            // A move that makes a virtual win for the mover wins at once; finding it here saves
            // searching whatever the ordering would have tried first.
            if let Some((best, region)) = semi_wins(geo, me, own, empty, empty).next() {
                let outcome = Outcome::Win { proof: region, best };
                return self.store(state, [own, other], tag, outcome, start_nodes);
            }
            for key in bits(must) {
                if must >> key & 1 == 0 {
                    continue;
                }
                if let Some((_, region)) = semi_wins(geo, opp, other, empty, 1 << key).next() {
                    must &= region;
                    proof |= region;
                }
            }
            if must == 0 {
                return self.store(state, [own, other], tag, Outcome::Loss { proof }, start_nodes);
            }
        }

        for m in self.order(me, own, other, must) {
            if must >> m & 1 == 0 {
                continue; // refuted by the proof of a move tried earlier
            }
            match self.search(&state.play(m, self.keys)) {
                Outcome::Loss { proof: p } => {
                    let outcome = Outcome::Win { proof: p | 1 << m, best: m };
                    return self.store(state, [own, other], tag, outcome, start_nodes);
                }
                Outcome::Win { proof: p, .. } => {
                    must &= p;
                    proof |= p;
                }
                unknown @ Outcome::Unknown(_) => return unknown,
            }
        }
        self.store(state, [own, other], tag, Outcome::Loss { proof }, start_nodes)
    }

    /// Keeps `outcome` in the table and returns it.
    fn store(&mut self, state: &State, stones: [u128; 2], tag: u16, outcome: Outcome, start: u64) -> Outcome {
        let work = (self.stats.nodes - start + 1).min(u64::from(u32::MAX)) as u32;
        let (win, best, proof) = match outcome {
            Outcome::Win { proof, best } => (true, best as u8, proof),
            Outcome::Loss { proof } => (false, u8::MAX, proof),
            Outcome::Unknown(_) => return outcome,
        };
        self.table.put(state.hash, Entry { stones, tag, win, best, proof, work });
        outcome
    }

    /// Whether a limit has been reached (and which), remembering it so the whole search stops.
    fn check_limits(&mut self) -> Option<Limit> {
        if self.aborted.is_some() {
            return self.aborted;
        }
        if self.limits.max_nodes.is_some_and(|max| self.stats.nodes >= max) {
            self.aborted = Some(Limit::Nodes);
        } else if self.stats.nodes.is_multiple_of(1024)
            && self.limits.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = Some(Limit::Time);
        }
        self.aborted
    }

    /// The cells of `must`, most promising first: cells on short paths of both sides (a
    /// 0-1 shortest path through the cell, own stones free, for each side), then nearer the
    /// centre.
    pub(crate) fn order(&self, me: Color, own: u128, other: u128, must: u128) -> Vec<usize> {
        let geo = self.geo;
        let empty = geo.cells & !own & !other;
        let mut score = [0u16; 128];
        path_lengths(geo, me, own, empty, &mut score);
        path_lengths(geo, me.opponent(), other, empty, &mut score);
        let mut moves: Vec<usize> = bits(must).collect();
        moves.sort_by_key(|&m| (u16::from(geo.centre[m]) + 2 * score[m], geo.centre[m]));
        moves
    }
}

/// Adds to `score[cell]`, for every empty cell, the length of `color`'s shortest path through
/// the cell (empty cells cost 1, own stones 0, opponent stones block; 64 per side unreachable).
fn path_lengths(geo: &Geometry, color: Color, own: u128, empty: u128, score: &mut [u16; 128]) {
    const FAR: u16 = 32;
    for edge in geo.edges_of(color) {
        let mut dist = [FAR; 128];
        let mut reached = geo.flood(own & edge, own);
        let mut seen = 0u128;
        let mut k = 1;
        let mut frontier = (geo.neighbours(reached) | edge) & empty;
        while frontier != 0 {
            for b in bits(frontier) {
                dist[b] = k;
            }
            seen |= frontier;
            reached = geo.flood(reached | frontier, reached | frontier | own);
            frontier = (geo.neighbours(reached) | edge) & empty & !seen;
            k += 1;
        }
        for b in bits(empty) {
            score[b] += dist[b];
        }
    }
}
