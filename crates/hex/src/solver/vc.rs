//! Virtual connections: has a side already won, whatever its opponent does?
//!
//! A side's stones fall into groups (connected components); its two edges are two more nodes,
//! each merged with the groups that touch it. Two nodes with at least two empty common
//! neighbours are virtually connected: if the opponent takes one of the cells, the side takes
//! the other. This covers the bridge (two stones with two empty common neighbours), the
//! bridge-to-edge template (a stone on the second row with its two edge cells empty) and any
//! larger pair of groups. A chain of such links from edge to edge whose two-cell carriers are
//! pairwise disjoint is a win for the side, even with the opponent to move: each intrusion is
//! answered inside the same carrier. The carrier union is the proof: what happens on other
//! cells never matters.

use super::geometry::{Geometry, Template, bits, lowest};
use crate::board::Color;

/// The most groups the search of a chain considers; more is a board the solver never sees.
const MAX_NODES: usize = 24;

/// How many steps the search for a chain with disjoint carriers may take. The search is a
/// heuristic shortcut (failing to find a chain only costs search), so it is bounded.
const MAX_STEPS: u32 = 400;

/// The nodes (edges and groups) of one side and the empty cells next to each.
#[derive(Clone)]
struct Graph {
    len: usize,
    /// Empty cells next to node `i` (for an edge node: its empty edge cells too).
    liberties: [u128; MAX_NODES],
    /// The stones of node `i`.
    stones: [u128; MAX_NODES],
    /// The empty cells.
    empty: u128,
}

/// If `color` (stones `own`) is virtually connected edge to edge through `empty` cells, the
/// union of the carriers of one such chain (empty if the stones already connect).
pub(crate) fn virtual_win(geo: &Geometry, color: Color, own: u128, empty: u128) -> Option<u128> {
    let graph = build(geo, color, own, empty)?;
    let mut steps = 0;
    let mut visited = 1u64; // node 0, the first edge
    let templates = &geo.templates[usize::from(color.index())];
    chain(&graph, templates, 0, &mut visited, 0, &mut steps)
}

/// The graph of `color`'s nodes; `None` when the stones already connect (then the carrier is
/// empty) is signalled by an edge node touching the other edge, handled by the caller.
fn build(geo: &Geometry, color: Color, own: u128, empty: u128) -> Option<Graph> {
    let [start, end] = geo.edges_of(color);
    let mut graph = Graph { len: 2, liberties: [0; MAX_NODES], stones: [0; MAX_NODES], empty };
    let first = geo.flood(own & start, own);
    let second = geo.flood(own & end, own);
    if first & second != 0 {
        // Already connected: a chain with an empty carrier. Mark it with an empty graph whose
        // two edge nodes share every cell; `chain` finds it at once.
        graph.liberties[0] = u128::MAX;
        graph.liberties[1] = u128::MAX;
        return Some(graph);
    }
    graph.liberties[0] = (geo.neighbours(first) | start) & empty;
    graph.liberties[1] = (geo.neighbours(second) | end) & empty;
    graph.stones[0] = first;
    graph.stones[1] = second;
    let mut rest = own & !first & !second;
    while rest != 0 {
        if graph.len == MAX_NODES {
            return None;
        }
        let group = geo.flood(rest & rest.wrapping_neg(), own);
        rest &= !group;
        graph.liberties[graph.len] = geo.neighbours(group) & empty;
        graph.stones[graph.len] = group;
        graph.len += 1;
    }
    Some(graph)
}

/// Depth-first search for a chain from `node` to node 1 whose links' two-cell carriers avoid
/// `used` and each other; returns the union of `used` and the chain's carriers.
fn chain(
    graph: &Graph,
    templates: &[Vec<Template>; 2],
    node: usize,
    visited: &mut u64,
    used: u128,
    steps: &mut u32,
) -> Option<u128> {
    if graph.liberties[0] == u128::MAX {
        return Some(0);
    }
    // Try the goal first: it ends the chain.
    for next in std::iter::once(1).chain(2..graph.len) {
        if *visited >> next & 1 == 1 {
            continue;
        }
        *steps += 1;
        if *steps > MAX_STEPS {
            return None;
        }
        let Some(link) = link(graph, templates, node, next, used) else { continue };
        let carrier = used | link;
        if next == 1 {
            return Some(carrier);
        }
        *visited |= 1 << next;
        if let Some(found) = chain(graph, templates, next, visited, carrier, steps) {
            return Some(found);
        }
        // A node that led nowhere stays visited: the search is then linear in the links, at
        // the price of missing a chain that would reach it again with other carriers.
    }
    None
}

/// A carrier avoiding `used` that virtually connects nodes `a` and `b`: two empty common
/// neighbours, or a ziggurat between a group and an edge.
fn link(graph: &Graph, templates: &[Vec<Template>; 2], a: usize, b: usize, used: u128) -> Option<u128> {
    let free = graph.liberties[a] & graph.liberties[b] & !used;
    if free.count_ones() >= 2 {
        let x = lowest(free);
        return Some(1 << x | 1 << lowest(free & !(1 << x)));
    }
    // An edge node and any other node (the other edge's group included): a ziggurat from a
    // stone of the other node to the edge.
    let zig = |edge: usize, other: usize| {
        let stones = graph.stones[other];
        templates[edge]
            .iter()
            .find(|t| {
                stones >> t.anchor & 1 == 1
                    && t.stones & !stones == 0
                    && t.carrier & !graph.empty == 0
                    && t.carrier & used == 0
            })
            .map(|t| t.carrier)
    };
    match (a, b) {
        (0 | 1, _) => zig(a, b).or_else(|| if b < 2 { zig(b, a) } else { None }),
        (_, 0 | 1) => zig(b, a),
        _ => None,
    }
}

/// The cells `z` of `candidates` where a stone of `color` would make a virtual win, each with
/// that win's carrier plus `z`: the opponent, to move, must play inside every such set.
pub(crate) fn semi_wins(
    geo: &Geometry,
    color: Color,
    own: u128,
    empty: u128,
    candidates: u128,
) -> impl Iterator<Item = (usize, u128)> + '_ {
    let mut semis = Semis::new(geo, color, own, empty);
    bits(candidates & empty).filter_map(move |z| semis.at(z).map(|carrier| (z, carrier)))
}

/// One side's semi-connection finder for one position: the side's graph is built once, and
/// each candidate stone merges the nodes it touches into one, which is all that changes.
pub(crate) struct Semis<'a> {
    geo: &'a Geometry,
    color: Color,
    base: Option<Graph>,
    /// One scratch graph for all candidates: each copies only the base's nodes into it.
    scratch: Graph,
}

impl<'a> Semis<'a> {
    /// The finder for `color` (stones `own`) with `empty` cells.
    pub(crate) fn new(geo: &'a Geometry, color: Color, own: u128, empty: u128) -> Semis<'a> {
        let base = build(geo, color, own, empty);
        let scratch = Graph { len: 0, liberties: [0; MAX_NODES], stones: [0; MAX_NODES], empty };
        Semis { geo, color, base, scratch }
    }

    /// If a stone of the side on the empty cell `z` would make a virtual win: that win's
    /// carrier plus `z`.
    pub(crate) fn at(&mut self, z: usize) -> Option<u128> {
        let (geo, color) = (self.geo, self.color);
        let (base, graph) = (self.base.as_ref()?, &mut self.scratch);
        let key = 1u128 << z;
        if base.empty & key == 0 {
            return None;
        }
        if base.liberties[0] == u128::MAX {
            return Some(key);
        }
        let empty = base.empty;
        graph.len = base.len;
        graph.liberties[..base.len].copy_from_slice(&base.liberties[..base.len]);
        graph.stones[..base.len].copy_from_slice(&base.stones[..base.len]);
        graph.empty = empty & !key;
        let around = geo.neighbours(key);
        let [start, end] = geo.edges_of(color);
        let touches = |i: usize, g: &Graph| match i {
            0 => key & start != 0 || around & g.stones[0] != 0,
            1 => key & end != 0 || around & g.stones[1] != 0,
            _ => around & g.stones[i] != 0,
        };
        let touching: u32 = (0..graph.len).filter(|&i| touches(i, graph)).fold(0, |set, i| set | 1 << i);
        if touching & 3 == 3 {
            return Some(key);
        }
        // The node that absorbs the stone: an edge it touches, else the first group, else a
        // new node of its own.
        let target = if touching == 0 {
            graph.len += 1;
            graph.len - 1
        } else {
            touching.trailing_zeros() as usize
        };
        if target >= MAX_NODES {
            return None;
        }
        let mut stones = key;
        let mut liberties = around & empty;
        for i in bits(u128::from(touching)) {
            stones |= graph.stones[i];
            liberties |= graph.liberties[i];
            if i != target {
                graph.stones[i] = 0;
                graph.liberties[i] = 0;
            }
        }
        graph.stones[target] = stones;
        graph.liberties[target] = liberties;
        for lib in &mut graph.liberties[..graph.len] {
            *lib &= !key;
        }
        let templates = &geo.templates[usize::from(color.index())];
        let mut steps = 0;
        let mut visited = 1u64;
        chain(graph, templates, 0, &mut visited, 0, &mut steps).map(|carrier| carrier | key)
    }
}

#[cfg(test)]
mod tests {
    use super::super::brute::stones;
    use super::*;

    #[test]
    fn bridge_chain_is_a_win() {
        // 3x3: Black b2 has bridges to both edges (a1? no: b1/c1 above, a3/b3 below).
        let geo = Geometry::new(3);
        let own = stones(&geo, &[(1, 1)]);
        let carrier = virtual_win(&geo, Color::Black, own, geo.cells & !own).unwrap();
        assert_eq!(carrier.count_ones(), 4);
        // With White on b1, the top link is a single cell (c1): no virtual win.
        let white = stones(&geo, &[(0, 1)]);
        assert!(virtual_win(&geo, Color::Black, own, geo.cells & !own & !white).is_none());
    }

    #[test]
    fn overlapping_carriers_do_not_count() {
        // 4x4 White stones a2? Black stones b2 and b3 are adjacent: one group; a lone stone on
        // row 1 of a 4x4 board is no win.
        let geo = Geometry::new(4);
        let own = stones(&geo, &[(1, 1)]);
        assert!(virtual_win(&geo, Color::Black, own, geo.cells & !own).is_none());
        let own = stones(&geo, &[(1, 2), (2, 1)]);
        assert!(virtual_win(&geo, Color::Black, own, geo.cells & !own).is_some());
    }
}

#[cfg(test)]
mod soundness {
    use super::super::brute::{RandomStones, wins_defending};
    use super::*;

    #[test]
    fn virtual_wins_and_semi_wins_hold_on_their_carriers() {
        let mut random = RandomStones::new(777);
        for n in 3..=6u8 {
            let geo = Geometry::new(n);
            for _ in 0..3000 {
                let stones = random.position(&geo);
                let empty = geo.cells & !stones[0] & !stones[1];
                for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
                    if let Some(carrier) = virtual_win(&geo, color, stones[i], empty) {
                        assert!(carrier.count_ones() <= 14);
                        assert!(
                            wins_defending(&geo, color, stones[i], carrier, true),
                            "{n} {color:?} {stones:?} carrier {carrier:x}"
                        );
                    }
                    for (z, region) in semi_wins(&geo, color, stones[i], empty, empty) {
                        if region.count_ones() > 14 {
                            continue;
                        }
                        assert!(
                            wins_defending(&geo, color, stones[i] | 1 << z, region & !(1 << z), true),
                            "{n} {color:?} {stones:?} key {z} region {region:x}"
                        );
                    }
                }
            }
        }
    }
}
