//! H-search (Anshelevich): one side's virtual and semi-connections, built bottom-up.
//!
//! The nodes are the side's two edges (each merged with the stones that touch it), its other
//! groups of stones, and every empty cell; an empty cell as an end point stands for a stone
//! the side would put there. A *virtual connection* (VC) between two nodes with carrier `C`
//! (empty cells) holds even if the opponent moves first, a *semi-connection* (SC) needs the
//! side to move first, on its *key*. Adjacent nodes have a VC with an empty carrier, and the
//! edge templates (the ziggurat and template IVa) are VCs to an edge; then, to a fixpoint:
//! - AND: VC(x, z, C1) and VC(z, y, C2) with disjoint carriers that avoid x and y give a VC
//!   x–y with carrier C1 ∪ C2 when z is a group of the side, and an SC with key z and carrier
//!   C1 ∪ C2 ∪ {z} when z is empty;
//! - OR: SCs between x and y whose carriers have an empty intersection give a VC with the
//!   union of their carriers (whatever the opponent plays, one SC is untouched and its key is
//!   played).
//!
//! A VC between the edges is a win whoever moves; an SC between them a win for the side to
//! move, and for the opponent to move the intersection of all such carriers is where it must
//! play (the must-play region). Only minimal carriers are kept, at most 24 VCs and 64 SCs a
//! pair (the lists are bounded, as in every H-search: on 7x7 openings 16/32 took 30% fewer
//! nodes than 8/16, and bigger lists no fewer; on three 8x8 middle games 24/64 took 35% fewer
//! nodes and 20% less time than 16/32, and 32 VCs or 128 SCs no fewer), and one OR combines
//! at most four SCs (three took 2.7 times the nodes on those 8x8 positions). A
//! new SC gives up to 32 VCs by the OR rule, one for each set of SCs that works with it,
//! not only the first: the carriers differ, and a later AND needs the one disjoint from its
//! other half (a cell next to the edge with three SCs to it has three two-cell VCs, and each
//! serves a different chain). Stopping at the first VC took 6.8 times as many nodes on
//! eighteen 7x7 positions. A union that a kept VC's carrier is inside of takes no place
//! among the 32, and one OR looks at no more than 100 SCs in all (see [`OR_STEPS`]): with
//! eight places and no such check, on 8x8 middle games most places went to unions the list
//! then dropped, and builds missed edge-to-edge VCs that Benzene's engine found in the same
//! positions. So the search can miss connections but never invents one; and it is not a
//! true fixpoint: a build of a position with fewer empty cells can find a connection that a
//! build with more missed.
//!
//! Inside the search, builds are incremental ([`HSearch::build_at`]): a position's build starts
//! from the saved build of the same side two or four plies up, keeps what the new stones leave
//! standing and applies the rules only from what they changed. That took a third less time on
//! 7x7 and 8x8 positions (see `docs/benzene.md`).
//!
//! Carriers are sets of cells. On boards of at most 64 cells (8x8 and smaller) they are `u64`,
//! on larger boards `u128` (see `Carrier`): the builder's inner loops test and join carriers,
//! one instruction each on a `u64` and two on a `u128`, and its lists take half the memory.
//! Both widths find exactly the same connections (a test builds with both); on 7x7 and 8x8
//! positions the narrow one took 8–10 % less time for the same nodes.

use super::carrier::{Carrier, cells};
use super::geometry::{Geometry, bits};
use crate::board::Color;

/// Nodes are at most two edges and a hundred cells: a `u128` holds a set of them.
const MAX_NODES: usize = 128;

/// Carriers kept per pair of nodes (see the module docs).
const VC_CAP: usize = 24;
const SC_CAP: usize = 64;

/// The most SCs one OR combines.
const MAX_ORS: u32 = 4;

/// The most VCs one new SC makes by the OR rule: sets of SCs whose union no kept VC of the
/// pair (nor an earlier set) already covers.
const MAX_OR_RESULTS: usize = 32;

/// How many SCs one OR may look at, over all the sets it tries, before it stops with what it
/// found. Without a budget, 32 results took as long as 8 (the search enumerates the sets to
/// the end); with 100 steps, on the file's 8x8 openings a1, b2 and c3 the search took 35, 175
/// and 125 s against 76, 190 and 164 s with 8 results and no budget (see `docs/benzene.md`).
const OR_STEPS: u32 = 100;

/// How many AND combinations one build may try before it stops where it is (the fixpoint is
/// not needed for soundness: what was found holds).
const MAX_WORK: u32 = 200_000;

/// The end codes of the side's first and second edge in a [`Saved`] connection (cells are
/// below 128).
const EDGE_ENDS: [u8; 2] = [128, 129];

/// Builds kept per search depth for later builds to start from (see [`HSearch::build_at`]).
/// On seven 7x7 and 8x8 positions, with bases two or four plies up, 8 took 77 s, 32 took 74 s
/// and 128 took 68 s, against 110 s without incremental builds; each costs about 40 KB, so 32
/// keep a search 64 plies deep within 80 MB.
const SAVED_WAYS: usize = 32;

/// How many plies up a build looks for a saved build of the same side: two (the grandparent)
/// and four. On the positions above, two alone took 97 s (8 ways) and 79 s (32 ways), two or
/// four 77 s (8) and 74 s (32), two to eight 76 s (32): a base further up keeps fewer of the
/// connections a build from nothing would find.
const BASE_PLIES: usize = 4;

/// One build's connections, kept so that a later build on a position with more stones can
/// start from them instead of from nothing: ends are cells (a group's lowest cell, or
/// [`EDGE_ENDS`]), so they outlive the build's node numbering.
#[derive(Debug, Default)]
struct Saved<C> {
    /// The side whose connections these are (`None`: the slot is empty), and the board's
    /// size (a solver's builders serve every size it is given).
    color: Option<Color>,
    size: u8,
    own: u128,
    other: u128,
    /// The VCs' carriers and ends.
    vcs: Vec<C>,
    vc_ends: Vec<[u8; 2]>,
    /// The SCs' carriers (with the key), and their ends and key cell.
    scs: Vec<C>,
    sc_ends: Vec<[u8; 3]>,
}

/// The connections of one pair of nodes: the VCs' carriers, and the SCs' (key cell, carrier).
pub(crate) type PairLists = (Vec<u128>, Vec<(usize, u128)>);

/// What one build found between the side's two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EdgeLink {
    /// A VC: the side wins whoever moves; the carrier (empty if the stones already connect).
    Virtual(u128),
    /// No VC; [`HSearch::edge_semis`] lists the SCs, if any.
    Semis,
}

/// One side's connections, built and kept between builds so the memory is reused: an
/// [`HSearch`] holds one of these for boards of at most 64 cells and one for larger boards.
///
/// Aligned to 128 bytes (two cache lines, as the CPU fetches them in pairs) because the
/// threads of a parallel solve keep their builders side by side in one `Vec`: unaligned, the
/// counter one thread bumps in its innermost loop shared a line with the fields the next
/// thread reads in its own, and every node cost 1.7 times as much CPU on two threads as on
/// one (the 8x8 empty board took longer on two threads than on one; aligned, 1.9 times less).
#[repr(align(128))]
pub(crate) struct HSearch {
    /// For boards of at most 64 cells.
    narrow: Builder<u64>,
    /// For larger boards.
    wide: Builder<u128>,
    /// Whether the last build was on a larger board.
    last_wide: bool,
    /// Whether the last [`HSearch::build_at`] started from a saved build.
    pub(crate) last_incremental: bool,
}

/// The connection tables of one build. The lists of the pair (a, b), a < b, sit at
/// `a * n + b`: lengths in one array and carriers in another, so a new build only clears the
/// lengths.
struct Builder<C: Carrier> {
    /// Nodes in this build.
    n: usize,
    /// The cell of an empty-cell node (0 for edges and groups).
    cell: [C; MAX_NODES],
    /// The node of each empty cell or own stone (`u8::MAX` otherwise).
    node_of: [u8; 128],
    /// Each node's end code in a [`Saved`] connection.
    rep: [u8; MAX_NODES],
    /// Builds saved by search depth (see [`HSearch::build_at`]).
    saved: Vec<Saved<C>>,
    /// Per depth, the way of `saved` the next build there replaces.
    next_way: Vec<usize>,
    vc_len: Vec<u8>,
    vc: Vec<C>,
    sc_len: Vec<u8>,
    sc: Vec<C>,
    sc_key: Vec<u8>,
    /// For each node, the nodes it has at least one VC with.
    linked: [u128; MAX_NODES],
    /// For each node, the nodes next to it (a VC with an empty carrier, which makes every
    /// other connection of the pair useless).
    adjacent: [u128; MAX_NODES],
    /// New VCs whose AND combinations are still to try.
    queue: Vec<(u8, u8, C)>,
    /// Scratch for [`HSearch::restore`]: the saved VCs (ends, carrier) and SCs (ends,
    /// carrier, key) that changed, to go through the rules once the rest is in.
    changed_vcs: Vec<(u8, u8, C)>,
    changed_scs: Vec<(u8, u8, C, u8)>,
    /// Scratch for the OR rule: the other SCs of the pair, and their suffix intersections.
    or_others: [C; SC_CAP],
    or_suffix: [C; SC_CAP + 1],
    work: u32,
    won: Option<C>,
    /// Whether a VC between the edges ends the build (inside the search, where nothing else
    /// is needed then); [`HSearch::build_all`] runs to the end.
    stop_at_win: bool,
}

impl std::fmt::Debug for HSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nodes = if self.last_wide { self.wide.n } else { self.narrow.n };
        f.debug_struct("HSearch").field("nodes", &nodes).finish_non_exhaustive()
    }
}

/// Calls `$body` with `$b` bound to the builder for `$geo`'s board, marking which one built.
macro_rules! for_board {
    ($self:ident, $geo:expr, |$b:ident| $body:expr) => {{
        $self.last_wide = $geo.cells >> 64 != 0;
        if $self.last_wide {
            let $b = &mut $self.wide;
            $body
        } else {
            let $b = &mut $self.narrow;
            $body
        }
    }};
}

/// Calls `$body` with `$b` bound to the builder of the last build.
macro_rules! last {
    ($self:ident, |$b:ident| $body:expr) => {{
        if $self.last_wide {
            let $b = &$self.wide;
            $body
        } else {
            let $b = &$self.narrow;
            $body
        }
    }};
}

impl HSearch {
    /// Empty tables.
    pub(crate) fn new() -> HSearch {
        HSearch { narrow: Builder::new(), wide: Builder::new(), last_wide: false, last_incremental: false }
    }

    /// Builds `color`'s connections (stones `own`, `empty` cells) and says whether its edges
    /// are virtually connected.
    pub(crate) fn build(&mut self, geo: &Geometry, color: Color, own: u128, empty: u128) -> EdgeLink {
        for_board!(self, geo, |b| b.build(geo, color, own, empty))
    }

    /// [`HSearch::build`] without stopping at a VC between the edges, so that every pair's
    /// lists are as complete as the rules and bounds make them ([`HSearch::between`]). The
    /// side's stones must not connect its edges already (there are no nodes to list then).
    pub(crate) fn build_all(&mut self, geo: &Geometry, color: Color, own: u128, empty: u128) {
        for_board!(self, geo, |b| b.build_all(geo, color, own, empty))
    }

    /// The node of a cell (an own stone's group, or an empty cell) after a build.
    pub(crate) fn node(&self, bit: usize) -> usize {
        last!(self, |b| usize::from(b.node_of[bit]))
    }

    /// The VC carriers and the SCs (key bit, carrier) between nodes `a` and `b` after a build.
    pub(crate) fn between(&self, a: usize, b: usize) -> PairLists {
        last!(self, |h| h.between(a, b))
    }

    /// Builds `color`'s connections for the search at `depth` (plies below its root), like
    /// [`HSearch::build`], and saves them there. When a build saved two or four plies up is
    /// of the same side on a position this one only adds stones to (the grandparent's, or a
    /// transposition of it), this one starts from its connections: those whose carriers the
    /// opponent's new stones miss still hold, with the side's new stones out of their
    /// carriers and ends that the new stones join merged, and the AND and OR rules run only
    /// from what changed. What was derived once is not derived again, and what a build from
    /// nothing would miss (its lists are bounded) can survive from the saved one, so the
    /// results differ from [`HSearch::build`]'s but are as sound.
    pub(crate) fn build_at(
        &mut self,
        geo: &Geometry,
        color: Color,
        own: u128,
        empty: u128,
        depth: usize,
    ) -> EdgeLink {
        let (link, incremental) = for_board!(self, geo, |b| b.build_at(geo, color, own, empty, depth));
        self.last_incremental = incremental;
        link
    }

    /// The SCs between the edges found by the last build: (key cell, carrier with the key).
    pub(crate) fn edge_semis(&self) -> impl Iterator<Item = (usize, u128)> + '_ {
        // One of the two is empty: the iterator's type stays the same whichever built.
        let narrow = (!self.last_wide).then(|| self.narrow.edge_semis());
        let wide = self.last_wide.then(|| self.wide.edge_semis());
        narrow.into_iter().flatten().chain(wide.into_iter().flatten())
    }

    /// A *decomposition* of the last build's side (see [`Builder::decomposition`]).
    pub(crate) fn decomposition(&self, geo: &Geometry, color: Color, own: u128, empty: u128) -> Option<u128> {
        last!(self, |b| b.decomposition(geo, color, own, empty))
    }

    /// The VC carriers found between the node of `cell` (an empty cell or a stone) and the
    /// side's edge `edge` (0 first, 1 second).
    #[cfg(test)]
    fn to_edge(&self, cell: usize, edge: usize) -> Vec<u128> {
        self.between(self.node(cell), edge).0
    }
}

impl<C: Carrier> Builder<C> {
    /// Empty tables.
    fn new() -> Builder<C> {
        Builder {
            n: 0,
            cell: [C::ZERO; MAX_NODES],
            node_of: [u8::MAX; 128],
            rep: [0; MAX_NODES],
            saved: Vec::new(),
            next_way: Vec::new(),
            vc_len: Vec::new(),
            vc: Vec::new(),
            sc_len: Vec::new(),
            sc: Vec::new(),
            sc_key: Vec::new(),
            linked: [0; MAX_NODES],
            adjacent: [0; MAX_NODES],
            queue: Vec::new(),
            changed_vcs: Vec::new(),
            changed_scs: Vec::new(),
            or_others: [C::ZERO; SC_CAP],
            or_suffix: [C::ZERO; SC_CAP + 1],
            work: 0,
            won: None,
            stop_at_win: true,
        }
    }

    fn build(&mut self, geo: &Geometry, color: Color, own: u128, empty: u128) -> EdgeLink {
        self.stop_at_win = true;
        self.build_from_scratch(geo, color, own, empty)
    }

    fn build_all(&mut self, geo: &Geometry, color: Color, own: u128, empty: u128) {
        self.stop_at_win = false;
        self.build_from_scratch(geo, color, own, empty);
    }

    fn between(&self, a: usize, b: usize) -> PairLists {
        let pair = self.index(a, b);
        let full = self.vc[pair * VC_CAP..pair * VC_CAP + usize::from(self.vc_len[pair])]
            .iter()
            .map(|c| c.wide())
            .collect();
        let semi = (0..usize::from(self.sc_len[pair]))
            .map(|i| (usize::from(self.sc_key[pair * SC_CAP + i]), self.sc[pair * SC_CAP + i].wide()))
            .collect();
        (full, semi)
    }

    /// [`HSearch::build_at`], and whether it started from a saved build.
    fn build_at(
        &mut self,
        geo: &Geometry,
        color: Color,
        own: u128,
        empty: u128,
        depth: usize,
    ) -> (EdgeLink, bool) {
        self.stop_at_win = true;
        let other = geo.cells & !own & !empty;
        let base = (0..depth.saturating_sub(1))
            .rev()
            .step_by(2)
            .take(BASE_PLIES / 2)
            .flat_map(|d| d * SAVED_WAYS..(d + 1) * SAVED_WAYS)
            .find(|&i| {
                self.saved.get(i).is_some_and(|s| {
                    s.color == Some(color) && s.size == geo.size && s.own & !own == 0 && s.other & !other == 0
                })
            });
        let incremental = base.is_some();
        if !self.setup(geo, color, own, empty) {
            return (EdgeLink::Virtual(0), incremental);
        }
        if let Some(slot) = base {
            let saved = std::mem::take(&mut self.saved[slot]);
            self.restore(&saved, own, other, empty);
            self.saved[slot] = saved;
        }
        if self.won.is_none() {
            self.seed(geo, color, own, empty);
            self.run();
        }
        if self.won.is_none() {
            self.save(depth, geo.size, color, own, other);
        }
        (self.link(), incremental)
    }

    fn build_from_scratch(&mut self, geo: &Geometry, color: Color, own: u128, empty: u128) -> EdgeLink {
        if !self.setup(geo, color, own, empty) {
            return EdgeLink::Virtual(0);
        }
        self.seed(geo, color, own, empty);
        self.run();
        self.link()
    }

    /// What the last build found between the edges.
    fn link(&self) -> EdgeLink {
        match self.won {
            Some(carrier) => EdgeLink::Virtual(carrier.wide()),
            None => EdgeLink::Semis,
        }
    }

    /// Numbers the nodes of the position and clears the tables; false if the side's stones
    /// already join its edges (there is nothing to build then).
    fn setup(&mut self, geo: &Geometry, color: Color, own: u128, empty: u128) -> bool {
        let [start, end] = geo.edges_of(color);
        let first = geo.flood(own & start, own);
        let second = geo.flood(own & end, own);
        if first & second != 0 {
            return false;
        }
        self.node_of = [u8::MAX; 128];
        self.cell[0] = C::ZERO;
        self.cell[1] = C::ZERO;
        self.rep[0] = EDGE_ENDS[0];
        self.rep[1] = EDGE_ENDS[1];
        for b in bits(first) {
            self.node_of[b] = 0;
        }
        for b in bits(second) {
            self.node_of[b] = 1;
        }
        let mut n = 2;
        let mut rest = own & !first & !second;
        while rest != 0 {
            let group = geo.flood(rest & rest.wrapping_neg(), own);
            rest &= !group;
            for b in bits(group) {
                self.node_of[b] = n as u8;
            }
            self.cell[n] = C::ZERO;
            self.rep[n] = group.trailing_zeros() as u8;
            n += 1;
        }
        for b in bits(empty) {
            self.node_of[b] = n as u8;
            self.cell[n] = C::bit(b);
            self.rep[n] = b as u8;
            n += 1;
        }
        self.n = n;
        if self.vc_len.len() < n * n {
            self.vc_len.resize(n * n, 0);
            self.vc.resize(n * n * VC_CAP, C::ZERO);
            self.sc_len.resize(n * n, 0);
            self.sc.resize(n * n * SC_CAP, C::ZERO);
            self.sc_key.resize(n * n * SC_CAP, 0);
        }
        self.vc_len[..n * n].fill(0);
        self.sc_len[..n * n].fill(0);
        self.linked[..n].fill(0);
        self.adjacent[..n].fill(0);
        self.queue.clear();
        self.work = 0;
        self.won = None;
        true
    }

    /// The connections every build starts from: adjacent nodes, and the edge templates.
    fn seed(&mut self, geo: &Geometry, color: Color, own: u128, empty: u128) {
        let [start, end] = geo.edges_of(color);
        // Adjacent nodes: VCs with empty carriers.
        for b in bits(empty) {
            let i = usize::from(self.node_of[b]);
            for nb in bits(geo.neighbours(1 << b) & (empty | own)) {
                let j = usize::from(self.node_of[nb]);
                if j != i {
                    self.add_vc(i, j, C::ZERO);
                }
            }
            if start >> b & 1 == 1 {
                self.add_vc(i, 0, C::ZERO);
            }
            if end >> b & 1 == 1 {
                self.add_vc(i, 1, C::ZERO);
            }
        }
        // Own stones in a carrier only help: the template holds while the opponent has none
        // of its cells, and its carrier is then the empty ones.
        let opponent = geo.cells & !own & !empty;
        for (edge, list) in geo.templates[usize::from(color.index())].iter().enumerate() {
            for t in list {
                let node = usize::from(self.node_of[t.anchor]);
                if node != usize::from(u8::MAX)
                    && node != edge
                    && t.stones & !own == 0
                    && t.carrier & opponent == 0
                {
                    self.add_vc(node, edge, C::narrow(t.carrier & empty));
                }
            }
        }
    }

    /// Puts back the connections of `saved` (a build of the same side on a position with a
    /// subset of these stones) that still hold: those whose carriers miss the opponent's new
    /// stones, with the side's new stones out of the carriers (an own stone in a carrier only
    /// helps), an SC whose key the side now holds as a VC, and ends mapped to this build's
    /// nodes (a cell the side now holds is its group's node). What changed (a carrier that
    /// lost cells, an end in a group with a new stone) goes through the AND and OR rules
    /// again; the rest was combined in the saved build already.
    fn restore(&mut self, saved: &Saved<C>, own: u128, other: u128, empty: u128) {
        let lost = C::narrow(other & !saved.other);
        let gained_cells = own & !saved.own;
        let gained = C::narrow(gained_cells);
        let empty = C::narrow(empty);
        let mut changed = 0u128;
        for b in bits(gained_cells) {
            changed |= 1 << self.node_of[b];
        }
        // Each saved end's node in this build (`u8::MAX`: the opponent's stone now), and
        // whether the node holds a new stone.
        let mut node = [u8::MAX; 130];
        node[..128].copy_from_slice(&self.node_of);
        node[128] = 0;
        node[129] = 1;
        let moved = |x: u8| changed >> x & 1 == 1;
        let pair_of = |e: [u8; 2]| {
            let (a, b) = (node[usize::from(e[0])], node[usize::from(e[1])]);
            // `then`, not `then_some`: `moved` must not see `u8::MAX`.
            (a != b && a != u8::MAX && b != u8::MAX)
                .then(|| (usize::from(a), usize::from(b), moved(a) || moved(b)))
        };
        // First what nothing touched: no new stone in its carrier or at its ends. Untouched
        // ends map one to one, so each pair's lists are the saved ones less what the
        // opponent's new stones cut, already free of carriers that contain others: they go
        // in without the checks. What changed is set aside in the same pass.
        let (mut changed_vcs, mut changed_scs) =
            (std::mem::take(&mut self.changed_vcs), std::mem::take(&mut self.changed_scs));
        changed_vcs.clear();
        changed_scs.clear();
        for (&carrier, &e) in saved.vcs.iter().zip(&saved.vc_ends) {
            let Some((a, b, moved)) = pair_of(e) else { continue };
            if carrier & lost != C::ZERO {
                continue;
            }
            if moved || carrier & gained != C::ZERO {
                changed_vcs.push((a as u8, b as u8, carrier));
                continue;
            }
            let pair = self.index(a, b);
            let len = usize::from(self.vc_len[pair]);
            self.vc[pair * VC_CAP + len] = carrier;
            self.vc_len[pair] += 1;
            self.linked[a] |= 1 << b;
            self.linked[b] |= 1 << a;
            if carrier == C::ZERO {
                self.adjacent[a] |= 1 << b;
                self.adjacent[b] |= 1 << a;
            }
        }
        for (&carrier, &[ea, eb, key]) in saved.scs.iter().zip(&saved.sc_ends) {
            let Some((a, b, moved)) = pair_of([ea, eb]) else { continue };
            if carrier & lost != C::ZERO {
                continue;
            }
            // A key the side now holds is a new stone in the carrier.
            if moved || carrier & gained != C::ZERO {
                changed_scs.push((a as u8, b as u8, carrier, key));
                continue;
            }
            let pair = self.index(a, b);
            let len = usize::from(self.sc_len[pair]);
            self.sc[pair * SC_CAP + len] = carrier;
            self.sc_key[pair * SC_CAP + len] = key;
            self.sc_len[pair] += 1;
        }
        // Then what changed, through the rules again: a VC or SC with a new end can join
        // others through it; a carrier that lost a cell can now miss another's; an SC whose
        // key the side holds is a VC.
        'rules: {
            for &(a, b, carrier) in &changed_vcs {
                self.add_vc(usize::from(a), usize::from(b), carrier & empty);
                if self.won.is_some() {
                    break 'rules;
                }
            }
            for &(a, b, carrier, key) in &changed_scs {
                let (a, b) = (usize::from(a), usize::from(b));
                if own >> key & 1 == 1 {
                    self.add_vc(a, b, carrier & empty);
                    if self.won.is_some() {
                        break 'rules;
                    }
                } else {
                    self.insert_sc(a, b, carrier & empty, key);
                }
            }
        }
        self.changed_vcs = changed_vcs;
        self.changed_scs = changed_scs;
    }

    /// Keeps this build's connections at `depth`, in place of the oldest build there.
    fn save(&mut self, depth: usize, size: u8, color: Color, own: u128, other: u128) {
        if self.next_way.len() <= depth {
            self.next_way.resize(depth + 1, 0);
            self.saved.resize_with((depth + 1) * SAVED_WAYS, Saved::default);
        }
        let slot = depth * SAVED_WAYS + self.next_way[depth];
        self.next_way[depth] = (self.next_way[depth] + 1) % SAVED_WAYS;
        let s = &mut self.saved[slot];
        s.color = Some(color);
        s.size = size;
        s.own = own;
        s.other = other;
        s.vcs.clear();
        s.vc_ends.clear();
        s.scs.clear();
        s.sc_ends.clear();
        let n = self.n;
        for a in 0..n {
            for b in a + 1..n {
                let pair = a * n + b;
                let (ra, rb) = (self.rep[a], self.rep[b]);
                let vcs = usize::from(self.vc_len[pair]);
                s.vcs.extend_from_slice(&self.vc[pair * VC_CAP..pair * VC_CAP + vcs]);
                s.vc_ends.extend(std::iter::repeat_n([ra, rb], vcs));
                let scs = usize::from(self.sc_len[pair]);
                s.scs.extend_from_slice(&self.sc[pair * SC_CAP..pair * SC_CAP + scs]);
                s.sc_ends
                    .extend(self.sc_key[pair * SC_CAP..pair * SC_CAP + scs].iter().map(|&k| [ra, rb, k]));
            }
        }
    }

    /// [`HSearch::edge_semis`].
    fn edge_semis(&self) -> impl Iterator<Item = (usize, u128)> + '_ {
        // The pair (0, 1) is at index 1.
        (0..usize::from(self.sc_len[1]))
            .map(|i| (usize::from(self.sc_key[SC_CAP + i]), self.sc[SC_CAP + i].wide()))
    }

    /// A *decomposition* of the last build's side (stones `own`, `empty` cells): the carrier
    /// of a VC between two of its groups (or a group and an edge) that lies in a part of the
    /// board the two close off, as the smallest such carrier. The position is then worth
    /// exactly what it is worth with the carrier filled with the side's stones, whoever moves.
    ///
    /// "Closed off" means that the cells reachable from the carrier through empty cells and
    /// the side's other stones, without crossing the two groups, touch none of the side's
    /// edges but those the two groups are (Benzene's combinatorial decomposition, here with a
    /// flood instead of its miai patterns). Why it holds: the side answers every intrusion
    /// into the carrier inside it and keeps the two groups joined. Any chain of the side that
    /// the filled position would have, in and out of that closed part, goes in and out
    /// through the two groups (the opponent's stones and edges do not carry it), so the
    /// joined groups stand in for each piece of it, and the side connects exactly when it
    /// would with the carrier filled. The opponent's stones added later only shrink the
    /// closed part, so a decomposition holds in every position below, as long as its carrier
    /// stays empty.
    fn decomposition(&self, geo: &Geometry, color: Color, own: u128, empty: u128) -> Option<u128> {
        let groups = self.n - empty.count_ones() as usize;
        if groups < 3 {
            return None;
        }
        let mut stones_of = [0u128; MAX_NODES];
        for b in bits(own) {
            stones_of[usize::from(self.node_of[b])] |= 1 << b;
        }
        let rows = geo.edges_of(color);
        let mut best: Option<u128> = None;
        for a in 0..groups {
            for b in (a + 1).max(2)..groups {
                let pair = self.index(a, b);
                let carriers = &self.vc[pair * VC_CAP..pair * VC_CAP + usize::from(self.vc_len[pair])];
                if carriers
                    .iter()
                    .all(|&c| c == C::ZERO || best.is_some_and(|k| c.count_ones() >= k.count_ones()))
                {
                    continue;
                }
                let passable = (empty | own) & !stones_of[a] & !stones_of[b];
                // The side's edges other than the pair's own: a chain could come in from them.
                let free = (0..2).filter(|&e| e != a).fold(0, |acc, e| acc | rows[e]);
                let closed = passable & !geo.flood(free & passable, passable);
                for c in carriers.iter().map(|c| c.wide()) {
                    if c != 0 && c & !closed == 0 && best.is_none_or(|k| c.count_ones() < k.count_ones()) {
                        best = Some(c);
                    }
                }
            }
        }
        best
    }

    /// The AND rule over every new VC until none is left (or the work bound is reached).
    fn run(&mut self) {
        let mut head = 0;
        while head < self.queue.len() && self.won.is_none() {
            let (a, b, c1) = self.queue[head];
            head += 1;
            // The nodes of the carrier's cells: no connection through it can end there.
            let inside = cells(c1).fold(0u128, |acc, cell| acc | 1 << self.node_of[cell]);
            for (x, z) in [(usize::from(a), usize::from(b)), (usize::from(b), usize::from(a))] {
                // Edges are not midpoints: two nodes joined to the same edge are not joined to
                // each other in a way that matters for the goal.
                if z < 2 {
                    continue;
                }
                let key = self.cell[z];
                let x_cell = self.cell[x];
                // Pairs already adjacent gain nothing from another connection.
                for y in bits(self.linked[z] & !(1 << x) & !self.adjacent[x] & !inside) {
                    let zy = self.index(z, y);
                    // Only the pair (x, y) changes below, never (z, y).
                    let len = usize::from(self.vc_len[zy]);
                    for k in 0..len {
                        let c2 = self.vc[zy * VC_CAP + k];
                        self.work += 1;
                        if c1 & c2 != C::ZERO || c2 & x_cell != C::ZERO {
                            continue;
                        }
                        if key == C::ZERO {
                            self.add_vc(x, y, c1 | c2);
                        } else {
                            self.add_sc(x, y, c1 | c2 | key, z);
                        }
                        if self.won.is_some() {
                            return;
                        }
                    }
                }
                if self.work > MAX_WORK {
                    return;
                }
            }
        }
    }

    fn index(&self, a: usize, b: usize) -> usize {
        if a < b { a * self.n + b } else { b * self.n + a }
    }

    /// Adds VC(a, b, carrier) unless a kept one's carrier is a subset; drops kept VCs and SCs
    /// whose carriers contain it; queues it for the AND rule.
    fn add_vc(&mut self, a: usize, b: usize, carrier: C) {
        let pair = self.index(a, b);
        let list = &mut self.vc[pair * VC_CAP..(pair + 1) * VC_CAP];
        let len = usize::from(self.vc_len[pair]);
        if covered(&list[..len], carrier) {
            return;
        }
        let mut kept = 0;
        for i in 0..len {
            let c = list[i];
            if carrier & !c != C::ZERO {
                list[kept] = c;
                kept += 1;
            }
        }
        if kept == VC_CAP {
            // Full: the new carrier replaces the largest if it is smaller.
            let (i, &largest) =
                list.iter().enumerate().max_by_key(|(_, c)| c.count_ones()).expect("full list");
            if largest.count_ones() <= carrier.count_ones() {
                return;
            }
            list[i] = carrier;
        } else {
            list[kept] = carrier;
            kept += 1;
        }
        self.vc_len[pair] = kept as u8;
        let sc_len = usize::from(self.sc_len[pair]);
        if sc_len > 0 {
            let base = pair * SC_CAP;
            let mut kept_sc = 0;
            for i in 0..sc_len {
                if carrier & !self.sc[base + i] != C::ZERO {
                    self.sc[base + kept_sc] = self.sc[base + i];
                    self.sc_key[base + kept_sc] = self.sc_key[base + i];
                    kept_sc += 1;
                }
            }
            self.sc_len[pair] = kept_sc as u8;
        }
        self.linked[a] |= 1 << b;
        self.linked[b] |= 1 << a;
        if carrier == C::ZERO {
            self.adjacent[a] |= 1 << b;
            self.adjacent[b] |= 1 << a;
        }
        if a.min(b) == 0 && a.max(b) == 1 && self.stop_at_win {
            self.won = Some(carrier);
        }
        self.queue.push((a as u8, b as u8, carrier));
    }

    /// Adds SC(a, b, carrier, key) unless a kept VC or SC has a carrier inside it, then tries
    /// the OR rule with it (`key` is the key's node).
    fn add_sc(&mut self, a: usize, b: usize, carrier: C, key: usize) {
        self.insert_sc(a, b, carrier, self.cell[key].trailing_zeros() as u8);
    }

    /// [`HSearch::add_sc`] with the key as a cell.
    fn insert_sc(&mut self, a: usize, b: usize, carrier: C, key: u8) {
        let pair = self.index(a, b);
        let vcs = &self.vc[pair * VC_CAP..pair * VC_CAP + usize::from(self.vc_len[pair])];
        if covered(vcs, carrier) {
            return;
        }
        let base = pair * SC_CAP;
        let len = usize::from(self.sc_len[pair]);
        let list = &mut self.sc[base..base + SC_CAP];
        // One pass over the kept SCs: one inside the new carrier makes it useless, and those
        // containing it go (the first is noted; most new SCs contain none).
        let mut first_containing = None;
        for (i, &c) in list[..len].iter().enumerate() {
            if c & !carrier == C::ZERO {
                return;
            }
            if first_containing.is_none() && carrier & !c == C::ZERO {
                first_containing = Some(i);
            }
        }
        let keys = &mut self.sc_key[base..base + SC_CAP];
        let mut kept = len;
        if let Some(first) = first_containing {
            kept = first;
            for i in first + 1..len {
                if carrier & !list[i] != C::ZERO {
                    list[kept] = list[i];
                    keys[kept] = keys[i];
                    kept += 1;
                }
            }
        }
        let slot = if kept == SC_CAP {
            let (i, &largest) =
                list.iter().enumerate().max_by_key(|(_, c)| c.count_ones()).expect("full list");
            if largest.count_ones() <= carrier.count_ones() {
                self.sc_len[pair] = kept as u8;
                return;
            }
            i
        } else {
            kept += 1;
            kept - 1
        };
        list[slot] = carrier;
        keys[slot] = key;
        self.sc_len[pair] = kept as u8;
        // OR: the new SC with up to MAX_ORS − 1 others whose carriers cut the intersection.
        // The scratch arrays live in `self` so that no call clears half a kilobyte of stack.
        // Every other kept SC misses a cell of the new one (those containing it went above).
        // The new one is usually last, and the others are then the list before it as it is.
        let suffix = &mut self.or_suffix;
        let others: &[C] = if slot + 1 == kept {
            &list[..slot]
        } else {
            let mut count = 0;
            for (i, &c) in list[..kept].iter().enumerate() {
                if i != slot {
                    self.or_others[count] = c;
                    count += 1;
                }
            }
            &self.or_others[..count]
        };
        let count = others.len();
        // suffix[i]: the intersection of others[i..]; when it meets the intersection so far,
        // no set of those SCs can empty it, and the search of that branch stops at once.
        suffix[count] = C::ALL;
        for i in (0..count).rev() {
            suffix[i] = suffix[i + 1] & others[i];
        }
        if carrier & suffix[0] != C::ZERO {
            // Every other SC shares a cell with the new one: no OR can empty the
            // intersection (the usual case, settled before the results array is set up).
            return;
        }
        let mut found = [C::ZERO; MAX_OR_RESULTS];
        let mut n_found = 0;
        let known = &self.vc[pair * VC_CAP..pair * VC_CAP + usize::from(self.vc_len[pair])];
        let mut sets = OrSets { others, suffix: &suffix[..=count], known, steps: OR_STEPS };
        sets.search(0, carrier, carrier, 1, &mut found, &mut n_found);
        for &union in &found[..n_found] {
            self.add_vc(a, b, union);
        }
    }
}

/// Whether a carrier of `list` lies inside `carrier`: a connection with `carrier` would then
/// add nothing to the list (the one inside holds whenever it does). Every list keeps only
/// minimal carriers this way.
#[inline]
fn covered<'a, C: Carrier>(list: impl IntoIterator<Item = &'a C>, carrier: C) -> bool {
    list.into_iter().any(|&c| c & !carrier == C::ZERO)
}

/// The SCs an OR rule may combine with a new one, the suffix intersections of their
/// carriers, the pair's VCs so far, and the steps left.
struct OrSets<'a, C> {
    others: &'a [C],
    suffix: &'a [C],
    /// A union that contains one of these carriers adds nothing, so it takes no slot of
    /// `found`: with 8 slots and no such check, most slots went to unions `add_vc` then
    /// dropped, and on 8x8 middle games a build missed 41 of the 47 edge-to-edge VCs
    /// Benzene's engine found in the same positions (17 of 47 missed with the check and 32
    /// slots).
    known: &'a [C],
    /// SCs left to look at (see [`OR_STEPS`]).
    steps: u32,
}

impl<C: Carrier> OrSets<'_, C> {
    /// Sets of `others[from..]` whose carriers, with `inter` so far (`used` SCs), intersect in
    /// nothing: the union of each set's carriers goes into `found` (up to its length). A set
    /// is not extended once it works, SCs that do not cut the intersection are skipped, and
    /// unions that contain a known carrier are not kept.
    fn search(&mut self, from: usize, inter: C, union: C, used: u32, found: &mut [C], n_found: &mut usize) {
        // The caller stops as soon as `found` is full, so it is not full here.
        let (others, suffix) = (&self.others[from..], &self.suffix[from..self.others.len()]);
        for (k, (&c, &rest)) in others.iter().zip(suffix).enumerate() {
            if inter & rest != C::ZERO || self.steps == 0 {
                return;
            }
            self.steps -= 1;
            let next = inter & c;
            if next == inter {
                continue;
            }
            if next == C::ZERO {
                let u = union | c;
                if !covered(self.known.iter().chain(&found[..*n_found]), u) {
                    found[*n_found] = u;
                    *n_found += 1;
                }
            } else if used + 1 < MAX_ORS {
                self.search(from + k + 1, next, union | c, used + 1, found, n_found);
            }
            if *n_found == found.len() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::brute::stones;
    use super::*;
    use crate::board::Cell;

    /// Calls `visit(geo, stones, empty, side, colour)` for both sides of `count` random
    /// positions of each size in `sizes` (Black's and White's stones drawn by [`RandomStones`]
    /// from `seed`, in a stream that does not depend on what `visit` does).
    fn for_random_sides(
        seed: u64,
        sizes: std::ops::RangeInclusive<u8>,
        count: usize,
        mut visit: impl FnMut(&Geometry, [u128; 2], u128, usize, Color),
    ) {
        let mut random = super::super::brute::RandomStones::new(seed);
        for n in sizes {
            let geo = Geometry::new(n);
            for _ in 0..count {
                let stones = random.position(&geo);
                let empty = geo.cells & !stones[0] & !stones[1];
                for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
                    visit(&geo, stones, empty, i, color);
                }
            }
        }
    }

    /// Whether the side `to_move` loses with these stones (Black's, then White's), by the
    /// solver without H-search: an oracle for connections H-search claims.
    fn loses_without_hsearch(geo: &Geometry, stones: [u128; 2], to_move: Color) -> bool {
        use super::super::search::{Keys, Outcome, Search};
        let keys = Keys::new();
        let table = super::super::table::Table::new(16);
        let mut plain = Search::for_test(geo, &table, &keys, None, false);
        matches!(plain.search(&keys.state(geo, stones, to_move)), Outcome::Loss { .. })
    }

    /// A decomposition's carrier filled with the side's stones leaves the winner unchanged,
    /// whoever moves: random positions of 4x4 to 6x6 with at most eight empty cells, checked by
    /// plain negamax on both.
    #[test]
    fn decompositions_keep_the_winner() {
        use super::super::brute::wins_defending;
        let mut h = HSearch::new();
        let mut found = [0usize; 2];
        for_random_sides(4747, 4..=6, 3000, |geo, stones, empty, i, color| {
            if empty.count_ones() > 8
                || geo.connects(color, stones[i])
                || geo.connects(color.opponent(), stones[1 - i])
            {
                return;
            }
            h.build_all(geo, color, stones[i], empty);
            let Some(carrier) = h.decomposition(geo, color, stones[i], empty) else { return };
            assert_eq!(carrier & !empty, 0);
            found[usize::from(carrier.count_ones() > 2)] += 1;
            for opp_to_move in [false, true] {
                assert_eq!(
                    wins_defending(geo, color, stones[i], empty, opp_to_move),
                    wins_defending(geo, color, stones[i] | carrier, empty & !carrier, opp_to_move),
                    "{0}x{0} {stones:?} {color:?} carrier {carrier:#x} opponent to move {opp_to_move}",
                    geo.size
                );
            }
        });
        assert!(found[0] > 50 && found[1] > 20, "decompositions found (2 cells, more): {found:?}");
    }

    #[test]
    fn bridge_to_both_edges_is_a_virtual_win() {
        let geo = Geometry::new(3);
        let own = stones(&geo, &[(1, 1)]);
        let mut h = HSearch::new();
        match h.build(&geo, Color::Black, own, geo.cells & !own) {
            EdgeLink::Virtual(carrier) => assert_eq!(carrier.count_ones(), 4),
            EdgeLink::Semis => panic!("b2 on 3x3 is connected"),
        }
    }

    /// Every VC and SC between the edges holds on its carrier (brute force where the carrier
    /// is small enough), on random positions of 3x3 to 6x6.
    #[test]
    fn edge_connections_hold_on_their_carriers() {
        use super::super::brute::wins_defending;
        let mut h = HSearch::new();
        let mut checked = 0;
        for_random_sides(4242, 3..=6, 1000, |geo, stones, empty, i, color| {
            let n = geo.size;
            match h.build(geo, color, stones[i], empty) {
                EdgeLink::Virtual(carrier) if carrier.count_ones() <= 12 => {
                    checked += 1;
                    assert!(
                        wins_defending(geo, color, stones[i], carrier, true),
                        "VC: {n} {color:?} {stones:?} carrier {carrier:x}"
                    );
                }
                EdgeLink::Virtual(_) => {}
                EdgeLink::Semis => {
                    for (z, carrier) in h.edge_semis() {
                        assert_eq!(carrier >> z & 1, 1, "the key is in the carrier");
                        if carrier.count_ones() <= 12 {
                            checked += 1;
                            assert!(
                                wins_defending(geo, color, stones[i] | 1 << z, carrier & !(1 << z), true),
                                "SC: {n} {color:?} {stones:?} key {z} carrier {carrier:x}"
                            );
                        }
                    }
                }
            }
        });
        assert!(checked > 1000, "only {checked} connections checked");
    }

    /// Whether `own` (with `from` among them) joins `from` to `to` (a cell set: an edge's row,
    /// or one cell) when the opponent moves first and both sides play only inside `carrier`.
    fn joins_defending(geo: &Geometry, own: u128, from: u128, to: u128, carrier: u128) -> bool {
        if geo.flood(from, own) & to != 0 {
            return true;
        }
        bits(carrier).all(|taken| {
            let left = carrier & !(1 << taken);
            bits(left).any(|answer| joins_defending(geo, own | 1 << answer, from, to, left & !(1 << answer)))
        })
    }

    /// Checks by brute force every VC and SC of at most nine cells that the last build lists
    /// between a cell (a group of `stones` away from the edges, or an empty cell taken by the
    /// side) and one of the side's edges or another cell: the VC joins the two ends, and the SC does once the
    /// side has its key. Returns how many it checked.
    fn check_listed(h: &HSearch, geo: &Geometry, color: Color, stones: u128, empty: u128) -> usize {
        let mut checked = 0;
        let ends: Vec<usize> = bits(stones | empty).collect();
        for &a in &ends {
            let targets = geo.edges_of(color).into_iter().enumerate();
            let cells = ends.iter().filter(|&&b| b > a).map(|&b| (usize::MAX - b, 1u128 << b));
            for (target, to) in targets.chain(cells) {
                let y = if target < 2 { target } else { h.node(usize::MAX - target) };
                let x = h.node(a);
                // A stone in an edge's group is that edge's node: its connections are the
                // edge's, checked from their other ends.
                if x == y || x < 2 || (target >= 2 && y < 2) {
                    continue;
                }
                let own = stones | 1 << a | if target < 2 { 0 } else { to };
                let (full, semi) = h.between(x, y);
                let semi = semi.into_iter().map(|(key, carrier)| {
                    assert_eq!(carrier >> key & 1, 1, "the key is in the carrier");
                    (1u128 << key, carrier & !(1 << key))
                });
                for (key, carrier) in full.into_iter().map(|c| (0, c)).chain(semi) {
                    if carrier.count_ones() > 9 {
                        continue;
                    }
                    assert_eq!((carrier | key) & !empty, 0, "a carrier holds only empty cells");
                    checked += 1;
                    assert!(
                        joins_defending(geo, own | key, 1 << a, to, carrier),
                        "{color:?} {stones:x}: {a} to {target} key {key:x} carrier {carrier:x}"
                    );
                }
            }
        }
        checked
    }

    /// `build_all` keeps going past a connection between the edges, and every connection it
    /// lists between two ends holds on its carrier, on random positions of 3x3 to 5x5.
    #[test]
    fn connections_between_any_two_ends_hold_on_their_carriers() {
        let mut h = HSearch::new();
        let mut checked = 0;
        for_random_sides(99, 3..=5, 150, |geo, stones, empty, i, color| {
            if !geo.connects(color, stones[i]) {
                h.build_all(geo, color, stones[i], empty);
                checked += check_listed(&h, geo, color, stones[i], empty);
            }
        });
        assert!(checked > 2000, "only {checked} connections checked");
    }

    /// The `u64` builder (boards of at most 64 cells) finds exactly what the `u128` one finds,
    /// from nothing and from saved builds along a game: a cell lost in narrowing a carrier, or
    /// a test done on the wrong width, would show here as a list that differs.
    #[test]
    fn narrow_and_wide_builders_agree() {
        fn lists<C: Carrier>(b: &Builder<C>) -> Vec<PairLists> {
            (0..b.n).flat_map(|x| (x + 1..b.n).map(move |y| (x, y))).map(|(x, y)| b.between(x, y)).collect()
        }
        let (mut narrow, mut wide) = (Builder::<u64>::new(), Builder::<u128>::new());
        let mut compared = 0;
        for_random_sides(4545, 4..=8, 20, |geo, stones, empty, i, color| {
            if geo.connects(color, stones[i]) {
                return;
            }
            narrow.build_all(geo, color, stones[i], empty);
            wide.build_all(geo, color, stones[i], empty);
            assert_eq!(lists(&narrow), lists(&wide), "{stones:?} {color:?}");
            assert_eq!(
                narrow.decomposition(geo, color, stones[i], empty),
                wide.decomposition(geo, color, stones[i], empty)
            );
            compared += 1;
        });
        // Games of random moves, each position built from the saved builds above it.
        let mut random = super::super::brute::RandomStones::new(4545);
        for n in 4..=8u8 {
            let geo = Geometry::new(n);
            let mut stones = [0u128; 2];
            for ply in 0..usize::from(n) * usize::from(n) {
                let empty = geo.cells & !stones[0] & !stones[1];
                let cell = bits(empty).nth(random.below(u64::from(empty.count_ones())) as usize).unwrap();
                stones[ply % 2] |= 1 << cell;
                let empty = empty & !(1 << cell);
                let color = [Color::Black, Color::White][ply % 2];
                if geo.connects(color, stones[ply % 2]) {
                    break;
                }
                let a = narrow.build_at(&geo, color, stones[ply % 2], empty, ply);
                let b = wide.build_at(&geo, color, stones[ply % 2], empty, ply);
                assert_eq!(a, b, "{n}x{n} ply {ply}");
                assert_eq!(narrow.edge_semis().collect::<Vec<_>>(), wide.edge_semis().collect::<Vec<_>>());
                if a.1 && a.0 == EdgeLink::Semis {
                    assert_eq!(lists(&narrow), lists(&wide), "{n}x{n} ply {ply}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 150, "only {compared} builds compared");
    }

    /// A build that starts from a saved one (`build_at` two plies below a position with fewer
    /// stones of each side) lists only connections that hold: random positions of 3x3 to 5x5,
    /// each built after the same position with a third of its stones taken away.
    #[test]
    fn builds_from_saved_builds_list_only_connections_that_hold() {
        use super::super::brute::RandomStones;
        let mut random = RandomStones::new(7);
        let mut h = HSearch::new();
        let (mut checked, mut incremental) = (0, 0);
        for n in 3..=5u8 {
            let geo = Geometry::new(n);
            for _ in 0..300 {
                let stones = random.position(&geo);
                let mut base = stones;
                for side in &mut base {
                    for b in bits(*side) {
                        if random.below(3) == 0 {
                            *side &= !(1 << b);
                        }
                    }
                }
                for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
                    let base_empty = geo.cells & !base[0] & !base[1];
                    if h.build_at(&geo, color, base[i], base_empty, 0) != EdgeLink::Semis {
                        continue;
                    }
                    let empty = geo.cells & !stones[0] & !stones[1];
                    if h.build_at(&geo, color, stones[i], empty, 2) != EdgeLink::Semis {
                        continue;
                    }
                    assert!(h.last_incremental, "the build two plies up is a base");
                    incremental += 1;
                    checked += check_listed(&h, &geo, color, stones[i], empty);
                }
            }
        }
        assert!(incremental > 300, "only {incremental} builds from a saved one");
        assert!(checked > 2000, "only {checked} connections checked");
    }

    #[test]
    fn second_and_third_row_stones_reach_their_edge() {
        let geo = Geometry::new(7);
        let mut h = HSearch::new();
        // Black d2: the bridge to the top edge (two cells); Black c5 (third row from the
        // bottom): a ziggurat or an H-search VC to the bottom edge.
        let own = geo.bit(Cell::new(1, 3)) | geo.bit(Cell::new(4, 2));
        // Between them, two rows apart, Black is connected even with White to move: a VC
        // between the edges (found since the OR rule keeps every combination; Benzene's DFPN
        // and this solver without H-search agree that White to move loses).
        let EdgeLink::Virtual(carrier) = h.build(&geo, Color::Black, own, geo.cells & !own) else {
            panic!("no VC between Black's edges");
        };
        assert_eq!(carrier & own, 0);
        assert!(loses_without_hsearch(&geo, [own, 0], Color::White));
        // The parts: d2's bridge to the top, c5's ziggurat to the bottom (the build stops at
        // the first VC between the edges, so build the stones one at a time).
        let d2 = geo.bit(Cell::new(1, 3));
        h.build(&geo, Color::Black, d2, geo.cells & !d2);
        let top = h.to_edge(geo.index(Cell::new(1, 3)), 0);
        assert!(top.iter().any(|c| c.count_ones() == 2), "{top:x?}");
        let c5 = geo.bit(Cell::new(4, 2));
        h.build(&geo, Color::Black, c5, geo.cells & !c5);
        let bottom = h.to_edge(geo.index(Cell::new(4, 2)), 1);
        assert!(bottom.iter().any(|c| c.count_ones() <= 8), "{bottom:x?}");
    }

    /// A stone with three SCs to its edge (f5 on 7x7 for White, next to f4, which touches the
    /// edge group, and to the edge cells g4 and g5) has all three two-cell VCs; so the White
    /// stone e5 beside it has the four-cell VC {f4, f5, g4, g5}, which needs the one that
    /// avoids f4. Only the first OR result (f4 with g4) was kept before.
    #[test]
    fn the_or_rule_keeps_every_combination() {
        let geo = Geometry::new(7);
        let at = |cells: &[&str]| -> u128 {
            cells.iter().map(|c| geo.bit(crate::parse_cell(c, 7).unwrap())).fold(0, |a, b| a | b)
        };
        let black = at(&["d1", "e4", "f2", "d5", "e3"]);
        let white = at(&["c5", "d3", "e5", "f3", "c7", "g2", "g3"]);
        let empty = geo.cells & !black & !white;
        let mut h = HSearch::new();
        // With up to 32 OR results White's edges are virtually connected here; `build_all`
        // goes on past that, so that every pair's lists are complete.
        // The solver without H-search agrees: Black, to move with every cell outside the
        // carrier, loses.
        if let EdgeLink::Virtual(carrier) = h.build(&geo, Color::White, white, empty) {
            assert_eq!(carrier & !empty, 0);
            assert!(loses_without_hsearch(&geo, [black | (empty & !carrier), white], Color::Black));
        }
        h.build_all(&geo, Color::White, white, empty);
        let f5 = h.to_edge(geo.index(Cell::new(4, 5)), 1);
        for pair in [["f4", "g4"], ["f4", "g5"], ["g4", "g5"]] {
            assert!(f5.contains(&at(&pair)), "{pair:?} missing from {f5:x?}");
        }
        let e5 = h.to_edge(geo.index(Cell::new(4, 4)), 1);
        assert!(e5.contains(&at(&["f4", "f5", "g4", "g5"])), "{e5:x?}");
    }

    /// The builders of a parallel solve sit side by side in one `Vec`: each must start on its
    /// own pair of cache lines, or the threads slow each other down (see [`HSearch`]).
    #[test]
    fn builders_of_different_threads_share_no_cache_line() {
        assert!(std::mem::align_of::<HSearch>() >= 128);
        let builders: Vec<HSearch> = (0..3).map(|_| HSearch::new()).collect();
        for pair in builders.windows(2) {
            let gap = std::ptr::from_ref(&pair[1]) as usize - std::ptr::from_ref(&pair[0]) as usize;
            assert_eq!(gap % 128, 0);
            assert_eq!(std::ptr::from_ref(&pair[0]) as usize % 128, 0);
        }
    }

    #[test]
    fn the_empty_3x3_board_has_the_centre_as_a_semi() {
        let geo = Geometry::new(3);
        let mut h = HSearch::new();
        assert_eq!(h.build(&geo, Color::Black, 0, geo.cells), EdgeLink::Semis);
        let keys: Vec<usize> = h.edge_semis().map(|(k, _)| k).collect();
        assert!(keys.contains(&geo.index(Cell::new(1, 1))), "{keys:?}");
    }
}
