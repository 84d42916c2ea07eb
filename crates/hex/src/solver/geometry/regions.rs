//! Captured regions: small sets of empty cells that a colour can hold by answering inside.
//!
//! A connected set `R` of empty cells is *captured* by a colour `k` when `k`, moving second
//! inside `R` (answering every stone of the opponent there with one of its own there), can
//! always end with a filling of `R` that is worth, on every filling of the rest of the board,
//! what `R` filled with `k`'s stones alone is worth. Then `k` may be given all of `R` at once
//! without changing who wins, whoever is to move: the side that wins the filled position
//! keeps winning by its strategy there, with `k` answering intrusions into `R` locally (an
//! extra stone never hurts in Hex). Captured pairs ([`Geometry::fill_in`]) are the two-cell
//! case; this finds larger ones, such as five cells under a stone on the second row and a
//! stone of the same colour below them, none of whose pairs is captured on its own.
//!
//! **When a filling is as good as `R` filled by `k`.** Filled by `k`, the connected `R`
//! joins everything of `k`'s that could touch it: `k`'s groups next to `R` (its stones joined
//! through each other, and each of its edges on its own: stricter than joining a group to the
//! edge it touches, and it keeps the test local) and the empty cells around `R` (the *boundary*), should they
//! become `k`'s. A filling `F` does as well when `k`'s stones in `F` join all those groups into
//! one group `K`, and every boundary cell touches `K`. Any chain of `k` through `R` enters and
//! leaves it from a group or a boundary cell of `k`'s, and `K` joins the two; so `k` connects
//! with `F` whenever it does with `R` filled, and the converse holds because `F` has fewer of
//! `k`'s stones. The boundary cells that touch one of those groups already touch `K`; the
//! others (the *demands*) must touch one of `k`'s stones in `F` that is joined to `K`.
//!
//! **The local game.** The opponent moves first inside `R`, `k` answers inside `R`, until
//! `R` is full; `R` is captured when `k` has answers that end, against every sequence of the
//! opponent's, in a filling that passes the test above. The test only gets easier with more
//! of `k`'s stones, which prunes the game: a filling that passes with every open cell given to
//! the opponent is won, one that fails with every open cell given to `k` is lost. Regions of
//! three to [`MAX_REGION`] cells are tried, each cell touching one of `k`'s stones or edges.

use super::{Geometry, bits};

/// The largest region tried (a region of five costs at most 5·4·3·2 fillings).
const MAX_REGION: u32 = 5;

/// The most boundary cells touching none of the colour's stones or edges that a region may
/// have: of the regions found on 7x7 openings with no such limit, none had more than one.
const MAX_UNTOUCHED: u32 = 1;

/// The most groups of one colour that [`Geometry::captured_region`] tells apart; a position
/// with more is left without regions (it never happens below 11x11 in practice).
const MAX_GROUPS: usize = 32;

/// The most boundary cells a region of [`MAX_REGION`] cells can have (each cell has six
/// neighbours, and the region is connected).
const MAX_DEMANDS: usize = 6 * MAX_REGION as usize;

/// One colour's groups, and which of them each empty cell touches.
struct Groups {
    /// The empty cells.
    empty: u128,
    /// The empty cells that touch none of the colour's stones or edges.
    untouched: u128,
    /// For each empty cell, the groups it touches (bit `g` for group `g`).
    touches: [u32; 128],
}

/// A region under test, its cells numbered in the order of their bits.
struct Region {
    /// The groups next to the region.
    groups: u32,
    /// For each cell of the region, the groups it touches.
    touches: [u32; MAX_REGION as usize],
    /// For each cell of the region, its neighbours in the region.
    beside: [u8; MAX_REGION as usize],
    /// For each demand (a boundary cell touching none of the groups next to the region), its
    /// neighbours in the region; the first `demand_count`.
    demands: [u8; MAX_DEMANDS],
    /// How many demands there are.
    demand_count: usize,
}

impl Geometry {
    /// `stones` (Black's, then White's, filled in) with every captured region found given
    /// to its colour and filled in again, until none is left; `None` when there is none.
    pub(crate) fn fill_regions(&self, mut stones: [u128; 2]) -> Option<[u128; 2]> {
        let mut found = false;
        'again: loop {
            for colour in 0..2 {
                if let Some(region) = self.captured_region(colour, stones) {
                    stones[colour] |= region;
                    stones = self.fill_in(stones);
                    found = true;
                    continue 'again;
                }
            }
            return found.then_some(stones);
        }
    }

    /// The cells with at least two neighbours in `set`.
    fn twice_beside(&self, set: u128) -> u128 {
        let (mut once, mut twice) = (0, 0);
        for d in 0..6 {
            let t = self.toward(set, d);
            twice |= once & t;
            once |= t;
        }
        twice
    }

    /// Colour `colour`'s groups (its stones joined through each other and its edges, an edge
    /// a group of its own when no stone touches it), and which of them each empty cell
    /// touches; `None` with more than [`MAX_GROUPS`].
    #[inline(never)]
    fn groups_of(&self, colour: usize, stones: [u128; 2]) -> Option<Groups> {
        let own = stones[colour];
        let empty = self.cells & !stones[0] & !stones[1];
        let mut touches = [0u32; 128];
        let mut add = |g: usize, cells: u128| {
            for b in bits(cells & empty) {
                touches[b] |= 1 << g;
            }
        };
        // The two edges first, then the groups of stones.
        add(0, self.edges[colour][0]);
        add(1, self.edges[colour][1]);
        let (mut rest, mut count) = (own, 2);
        while rest != 0 {
            let group = self.flood(rest & rest.wrapping_neg(), own);
            if count == MAX_GROUPS {
                return None;
            }
            add(count, self.neighbours(group));
            count += 1;
            rest &= !group;
        }
        let rows = self.edges[colour][0] | self.edges[colour][1];
        Some(Groups { empty, untouched: empty & !self.neighbours(own) & !rows, touches })
    }

    /// One region of empty cells that colour `colour` (0 Black) captures (see the
    /// [module docs](self)), or `None`.
    fn captured_region(&self, colour: usize, stones: [u128; 2]) -> Option<u128> {
        let groups = self.groups_of(colour, stones)?;
        let mut allowed = groups.empty & !groups.untouched;
        for s in bits(allowed) {
            let start = 1u128 << s;
            let ext = self.neighbours(start) & allowed & !start;
            if let Some(r) = self.grow_region(&groups, start, ext, allowed) {
                return Some(r);
            }
            allowed &= !start;
        }
        None
    }

    /// The connected regions of `allowed` that contain `sub` and grow from it through `ext`,
    /// each once (Wernicke's ESU enumeration: a cell joins only as a neighbour of the last one
    /// added that is not next to the region before it), up to [`MAX_REGION`] cells; the first
    /// captured one.
    fn grow_region(&self, groups: &Groups, sub: u128, mut ext: u128, allowed: u128) -> Option<u128> {
        // An empty cell next to the region that touches none of the colour's stones or edges
        // stays on the boundary of every larger region, where it is a demand: more than
        // [`MAX_UNTOUCHED`] of them and nothing larger is tried.
        if (self.neighbours(sub) & groups.untouched).count_ones() > MAX_UNTOUCHED {
            return None;
        }
        if sub.count_ones() >= 3 && self.region_captured(groups, sub) {
            return Some(sub);
        }
        if sub.count_ones() == MAX_REGION {
            return None;
        }
        let closed = sub | self.neighbours(sub);
        while ext != 0 {
            let w = ext & ext.wrapping_neg();
            ext &= !w;
            let next = ext | self.neighbours(w) & allowed & !closed;
            if let Some(r) = self.grow_region(groups, sub | w, next, allowed) {
                return Some(r);
            }
        }
        None
    }

    /// Whether the colour of `groups` captures the connected region `region` of empty cells.
    #[inline(never)]
    fn region_captured(&self, groups: &Groups, region: u128) -> bool {
        let mut cells = [0usize; MAX_REGION as usize];
        let n = region.count_ones() as usize;
        for (slot, c) in cells.iter_mut().zip(bits(region)) {
            *slot = c;
        }
        // The cheap tests first, on the groups each cell touches.
        let (mut next_to, mut twice) = (0u32, 0u32);
        for &c in &cells[..n] {
            twice |= next_to & groups.touches[c];
            next_to |= groups.touches[c];
        }
        // With two groups or more to join, each must touch two cells of the region: the
        // opponent takes a lone one first.
        if next_to == 0 || next_to.count_ones() >= 2 && next_to & !twice != 0 {
            return false;
        }
        let boundary = self.neighbours(region) & groups.empty & !region;
        let demands =
            bits(boundary).filter(|&b| groups.touches[b] & next_to == 0).fold(0u128, |acc, b| acc | 1 << b);
        // A demand needs two neighbours in the region, for the same reason.
        if demands & !self.twice_beside(region) != 0 {
            return false;
        }
        let index = |set: u128| {
            cells[..n].iter().enumerate().fold(0u8, |acc, (i, &c)| acc | u8::from(set >> c & 1 == 1) << i)
        };
        let mut r = Region {
            groups: next_to,
            touches: [0; MAX_REGION as usize],
            beside: [0; MAX_REGION as usize],
            demands: [0; MAX_DEMANDS],
            demand_count: 0,
        };
        for (i, &c) in cells[..n].iter().enumerate() {
            r.touches[i] = groups.touches[c];
            r.beside[i] = index(self.neighbours(1 << c));
        }
        for b in bits(demands) {
            r.demands[r.demand_count] = index(self.neighbours(1 << b));
            r.demand_count += 1;
        }
        let all = (1u8 << n) - 1;
        region_passes(&r, all) && (region_passes(&r, 0) || region_holds(&r, 0, all))
    }
}

/// Whether the filling with the colour's stones on the region's cells `mine` passes the
/// test of the [module docs](self): they join all the groups next to the region into one,
/// and every demand touches one of them that is joined to it.
fn region_passes(r: &Region, mine: u8) -> bool {
    let mut joined_groups = r.groups & r.groups.wrapping_neg();
    let mut joined_cells = 0u8;
    loop {
        let mut grown = joined_cells;
        for i in bits(u128::from(mine & !joined_cells)) {
            if r.touches[i] & joined_groups != 0 || r.beside[i] & joined_cells != 0 {
                grown |= 1 << i;
            }
        }
        if grown == joined_cells {
            break;
        }
        for i in bits(u128::from(grown & !joined_cells)) {
            joined_groups |= r.touches[i];
        }
        joined_cells = grown;
    }
    joined_groups == r.groups && r.demands[..r.demand_count].iter().all(|&d| d & joined_cells != 0)
}

/// Whether the colour, with its stones on the region's cells `mine` and the cells `open`
/// still empty, the opponent to move there, can answer every move inside the region so that
/// the full region passes. The filling with every open cell the colour's must pass, and the
/// one with none of them must not (else there is nothing to play for).
fn region_holds(r: &Region, mine: u8, open: u8) -> bool {
    // The colour can do no better than every cell the opponent leaves: a move after which
    // that fails loses at once, and is looked for first.
    let open_cells = || bits(u128::from(open)).map(|o| o as u8);
    if open_cells().any(|o| !region_passes(r, mine | open & !(1 << o))) {
        return false;
    }
    open_cells().all(|o| {
        let rest = open & !(1 << o);
        bits(u128::from(rest)).any(|s| {
            let with = mine | 1 << s;
            region_passes(r, with) || rest != 1 << s && region_holds(r, with, rest & !(1 << s))
        })
    })
}
