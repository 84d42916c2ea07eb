//! Connection distances: how many more stones a colour needs to join its two edges.
//!
//! The *distance* of a colour is the number of empty cells on its cheapest chain from its first
//! edge to its second: its own stones cost 0, empty cells 1, and the opponent's stones cannot be
//! crossed. It is 0 once the colour has connected and `None` when the opponent's stones cut every
//! chain (which, by the Hex theorem, happens exactly when the opponent has connected).
//!
//! Three searches compute it, one for each seed player, and they agree on every board (a
//! proptest in `tests/distances.rs` checks it on random boards up to 13x13):
//!
//! | function | method | seed |
//! |---|---|---|
//! | [`bfs_distance`] | breadth-first search layer by layer, own stones joined to the layer that reaches them | madeup (`hex-bfs-minimax`) |
//! | [`ucs_distance`] | uniform-cost search (Dijkstra, binary heap) between two virtual edge nodes | coolcow (`hex-alphabeta-ucs`) |
//! | [`zero_one_bfs_distance`] | 0-1 BFS on a deque, cost-0 cells pushed in front | third seed (`hex-opening-bridges`) |
//!
//! [`two_distance`] goes one step beyond the seeds: Queenbee's two-distance, which counts a
//! cell as close to an edge only when it has two ways to get there.
//!
//! All of them work on a copy of the board in fixed arrays (at most 361 cells, plus two
//! virtual edge nodes for [`ucs_distance`]); the uniform-cost and 0-1 searches allocate one queue
//! per call, the others nothing.
//!
//! White's board is searched transposed, `(r, c)` as `(c, r)`: the transpose keeps the hex
//! adjacency and turns White's left and right edges into a top and bottom one, so every search
//! here is written once, from the top row to the bottom row.
//!
//! # Examples
//!
//! ```
//! use hex::distances::{bfs_distance, two_distance, ucs_distance, zero_one_bfs_distance};
//! use hex::{Board, Cell, Color};
//!
//! // 5x5 with one white stone in the centre: Black goes around it in 5 moves, White needs 4.
//! let mut board = Board::new(5).unwrap();
//! board.set(Cell::new(2, 2), Some(Color::White));
//! assert_eq!(bfs_distance(&board, Color::Black), Some(5));
//! assert_eq!(ucs_distance(&board, Color::White), Some(4));
//! assert_eq!(zero_one_bfs_distance(&board, Color::White), Some(4));
//! // Two-distance: the best White cells sit next to the centre stone.
//! let white = two_distance(&board, Color::White);
//! assert_eq!(white.best_potential(), Some(5));
//! ```

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::board::{Board, Cell, Color, MAX_SIZE};

/// The most cells a board has: 19 × 19.
const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// A cell the colour may enter for free.
const OWN: u8 = 1;
/// A cell the colour may enter for one stone.
const EMPTY: u8 = 0;
/// A cell the colour may not enter.
const BLOCKED: u8 = 2;

/// "No distance": a cell not reached.
const FAR: u16 = u16::MAX;

/// The board as one colour sees it, in *view* coordinates: the colour always runs from row 0 to
/// row n − 1 (White's board is transposed). Cell `(r, c)` of the view has id `r·n + c`.
struct View {
    n: usize,
    kind: [u8; MAX_CELLS],
}

impl View {
    fn new(board: &Board, color: Color) -> View {
        let n = usize::from(board.size());
        let stride = n + 1;
        let mut kind = [EMPTY; MAX_CELLS];
        for (stones, k) in [(board.stones(color), OWN), (board.stones(color.opponent()), BLOCKED)] {
            for bit in stones.iter() {
                let (r, c) = (bit / stride, bit % stride);
                kind[view_id(r, c, n, color)] = k;
            }
        }
        View { n, kind }
    }

    /// The cells of the view, `n²` of them.
    fn cells(&self) -> usize {
        self.n * self.n
    }

    /// What entering cell `id` costs, or `None` if it cannot be entered.
    fn cost(&self, id: usize) -> Option<u32> {
        match self.kind[id] {
            EMPTY => Some(1),
            OWN => Some(0),
            _ => None,
        }
    }

    /// The same board turned by 180°: row 0 becomes row n − 1, and the adjacency is kept.
    fn rotated(&self) -> View {
        let cells = self.cells();
        let mut kind = [EMPTY; MAX_CELLS];
        for (id, k) in kind.iter_mut().enumerate().take(cells) {
            *k = self.kind[cells - 1 - id];
        }
        View { n: self.n, kind }
    }
}

/// The view id of board cell `(r, c)` for `color`.
fn view_id(r: usize, c: usize, n: usize, color: Color) -> usize {
    match color {
        Color::Black => r * n + c,
        Color::White => c * n + r,
    }
}

/// Calls `f` with each of the (up to six) neighbours of cell `id` on an n×n board: `(r−1, c)`,
/// `(r−1, c+1)`, `(r, c−1)`, `(r, c+1)`, `(r+1, c−1)`, `(r+1, c)`.
#[inline]
fn for_each_neighbour(id: usize, n: usize, mut f: impl FnMut(usize)) {
    let (r, c) = (id / n, id % n);
    if r > 0 {
        f(id - n);
        if c + 1 < n {
            f(id - n + 1);
        }
    }
    if c > 0 {
        f(id - 1);
    }
    if c + 1 < n {
        f(id + 1);
    }
    if r + 1 < n {
        if c > 0 {
            f(id + n - 1);
        }
        f(id + n);
    }
}

/// The distance of `color` by a breadth-first search, the way the madeup seed describes it: start
/// from every cell of the first edge (distance 1 if empty, 0 if own), step onto an empty
/// neighbour for +1 and onto an own stone for +0, never onto the opponent's, and stop at the far
/// edge.
///
/// Done right, that is a 0-1 shortest path, and this function keeps it one by searching in
/// layers: all cells at distance k are expanded before any at k + 1, and an own stone reached
/// from layer k joins layer k itself (cost 0) instead of waiting behind the cells of layer k + 1.
/// A cell is marked when first reached, which is safe here because layers never mix. (The
/// original program kept one FIFO queue for both costs and so overestimated; see
/// `reference/hex.md` §4.5.)
///
/// Returns `None` when no chain exists. No allocation: two stacks of at most n² cells.
///
/// # Examples
///
/// ```
/// use hex::distances::bfs_distance;
/// use hex::{Board, Cell, Color};
///
/// let mut board = Board::new(4).unwrap();
/// assert_eq!(bfs_distance(&board, Color::Black), Some(4));
/// board.set(Cell::new(1, 2), Some(Color::Black));
/// board.set(Cell::new(2, 1), Some(Color::Black));
/// assert_eq!(bfs_distance(&board, Color::Black), Some(2));
/// // A white wall across the board cuts Black off.
/// for c in 0..4 {
///     board.set(Cell::new(3, c), Some(Color::White));
/// }
/// assert_eq!(bfs_distance(&board, Color::Black), None);
/// ```
pub fn bfs_distance(board: &Board, color: Color) -> Option<u32> {
    let view = View::new(board, color);
    let n = view.n;
    let mut dist = [FAR; MAX_CELLS];
    // The current layer and the next, as stacks: the order within a layer does not matter.
    let (mut a, mut b) = ([0u16; MAX_CELLS], [0u16; MAX_CELLS]);
    let (mut layer, mut next) = (&mut a, &mut b);
    let (mut layer_len, mut next_len) = (0, 0);
    for (id, &kind) in view.kind[..n].iter().enumerate() {
        match kind {
            OWN => {
                dist[id] = 0;
                layer[layer_len] = id as u16;
                layer_len += 1;
            }
            EMPTY => {
                dist[id] = 1;
                next[next_len] = id as u16;
                next_len += 1;
            }
            _ => {}
        }
    }
    let last_row = n * (n - 1);
    let mut k: u16 = 0;
    loop {
        while layer_len > 0 {
            layer_len -= 1;
            let id = usize::from(layer[layer_len]);
            if id >= last_row {
                return Some(u32::from(k));
            }
            for_each_neighbour(id, n, |m| {
                if dist[m] != FAR {
                    return;
                }
                match view.kind[m] {
                    OWN => {
                        dist[m] = k;
                        layer[layer_len] = m as u16;
                        layer_len += 1;
                    }
                    EMPTY => {
                        dist[m] = k + 1;
                        next[next_len] = m as u16;
                        next_len += 1;
                    }
                    _ => {}
                }
            });
        }
        if next_len == 0 {
            return None;
        }
        (layer, next) = (next, layer);
        layer_len = next_len;
        next_len = 0;
        k += 1;
    }
}

/// The madeup seed's evaluation `1 − d/n²` for `color`, with d its [`bfs_distance`]: 1 once
/// connected, lower the more stones are missing, and 0 when no chain is left (d counts as n²,
/// which no real distance reaches on a board that is not full).
///
/// # Examples
///
/// ```
/// use hex::distances::madeup_value;
/// use hex::{Board, Color};
///
/// // An empty 4x4 board: 4 stones of 16 missing.
/// assert_eq!(madeup_value(&Board::new(4).unwrap(), Color::White), 0.75);
/// ```
pub fn madeup_value(board: &Board, color: Color) -> f64 {
    let cells = f64::from(board.size()) * f64::from(board.size());
    let d = bfs_distance(board, color).map_or(cells, f64::from);
    1.0 - d / cells
}

/// The distance of `color` by uniform-cost search (Dijkstra's algorithm on a binary heap), the
/// way the coolcow seed describes it: a virtual node before the first edge is joined to every
/// edge cell the opponent does not hold, the far edge's cells are joined to a second virtual node
/// at no cost, and the cheapest route between the two virtual nodes is the distance. Entering an
/// own stone costs 0, an empty cell 1; the opponent's stones are not nodes at all.
///
/// Returns `None` when the far virtual node cannot be reached. One heap allocation per call.
///
/// # Examples
///
/// ```
/// use hex::distances::ucs_distance;
/// use hex::{Board, Cell, Color};
///
/// let mut board = Board::new(3).unwrap();
/// board.set(Cell::new(1, 0), Some(Color::White));
/// board.set(Cell::new(1, 2), Some(Color::White));
/// assert_eq!(ucs_distance(&board, Color::White), Some(1));
/// assert_eq!(ucs_distance(&board, Color::Black), Some(3));
/// ```
pub fn ucs_distance(board: &Board, color: Color) -> Option<u32> {
    let view = View::new(board, color);
    let n = view.n;
    let cells = view.cells();
    let (source, target) = (cells, cells + 1);
    let last_row = n * (n - 1);
    let mut dist = [u32::MAX; MAX_CELLS + 2];
    let mut heap = BinaryHeap::with_capacity(4 * n);
    dist[source] = 0;
    heap.push(Reverse((0u32, source as u16)));
    while let Some(Reverse((d, node))) = heap.pop() {
        let node = usize::from(node);
        if d > dist[node] {
            continue; // a stale entry: the node was reached more cheaply since
        }
        if node == target {
            return Some(d);
        }
        let mut relax = |m: usize, step: u32| {
            let nd = d + step;
            if nd < dist[m] {
                dist[m] = nd;
                heap.push(Reverse((nd, m as u16)));
            }
        };
        if node == source {
            for id in 0..n {
                if let Some(step) = view.cost(id) {
                    relax(id, step);
                }
            }
            continue;
        }
        if node >= last_row {
            relax(target, 0);
        }
        for_each_neighbour(node, n, |m| {
            if let Some(step) = view.cost(m) {
                relax(m, step);
            }
        });
    }
    None
}

/// The distance of `color` by 0-1 BFS, as the third seed computes it: cell costs `C = 1` empty,
/// `0` own, `∞` the opponent's; a double-ended queue takes a cell reached at no extra cost at its
/// front and one reached for +1 at its back, so cells leave the queue in order of distance
/// without a heap. The first far-edge cell to leave it gives the distance.
///
/// Returns `None` when no chain exists. One deque allocation per call.
///
/// # Examples
///
/// ```
/// use hex::distances::zero_one_bfs_distance;
/// use hex::{Board, Cell, Color};
///
/// // 1x1: the single cell is both edges.
/// let mut board = Board::new(1).unwrap();
/// assert_eq!(zero_one_bfs_distance(&board, Color::Black), Some(1));
/// board.set(Cell::new(0, 0), Some(Color::Black));
/// assert_eq!(zero_one_bfs_distance(&board, Color::Black), Some(0));
/// assert_eq!(zero_one_bfs_distance(&board, Color::White), None);
/// ```
pub fn zero_one_bfs_distance(board: &Board, color: Color) -> Option<u32> {
    let view = View::new(board, color);
    let n = view.n;
    let last_row = n * (n - 1);
    let mut dist = [u32::MAX; MAX_CELLS];
    // Entries are (cell, its distance when pushed): an entry whose distance is above the cell's
    // current one is stale, a cheaper route having been found after it was pushed.
    let mut deque: VecDeque<(u16, u16)> = VecDeque::with_capacity(2 * view.cells());
    for (id, d) in dist[..n].iter_mut().enumerate() {
        match view.cost(id) {
            Some(0) => {
                *d = 0;
                deque.push_front((id as u16, 0));
            }
            Some(step) => {
                *d = step;
                deque.push_back((id as u16, step as u16));
            }
            None => {}
        }
    }
    while let Some((id, d)) = deque.pop_front() {
        let (id, d) = (usize::from(id), u32::from(d));
        if d > dist[id] {
            continue;
        }
        if id >= last_row {
            return Some(d);
        }
        for_each_neighbour(id, n, |m| {
            if let Some(step) = view.cost(m) {
                let nd = d + step;
                if nd < dist[m] {
                    dist[m] = nd;
                    if step == 0 {
                        deque.push_front((m as u16, nd as u16));
                    } else {
                        deque.push_back((m as u16, nd as u16));
                    }
                }
            }
        });
    }
    None
}

/// Queenbee's two-distances of one colour to its two edges, per cell, and the potentials they
/// give. Made by [`two_distance`].
///
/// The *first* edge is the top for Black and the left for White; the *second* is the bottom or
/// the right.
#[derive(Clone)]
pub struct TwoDistances {
    size: u8,
    color: Color,
    /// Two-distance to the first edge, by board cell id `row·n + col`; [`FAR`] for none.
    first: [u16; MAX_CELLS],
    /// Two-distance to the second edge, by board cell id.
    second: [u16; MAX_CELLS],
    connected: bool,
}

impl TwoDistances {
    /// The colour these distances are for.
    pub fn color(&self) -> Color {
        self.color
    }

    fn get(&self, table: &[u16; MAX_CELLS], cell: Cell) -> Option<u32> {
        if cell.row >= self.size || cell.col >= self.size {
            return None;
        }
        let d = table[cell.id(self.size)];
        (d != FAR).then_some(u32::from(d))
    }

    /// The two-distance of an empty `cell` to the colour's first edge (top for Black, left for
    /// White); `None` for stones, cells off the board and cells with fewer than two ways there.
    pub fn to_first_edge(&self, cell: Cell) -> Option<u32> {
        self.get(&self.first, cell)
    }

    /// The two-distance of an empty `cell` to the colour's second edge (bottom for Black, right
    /// for White).
    pub fn to_second_edge(&self, cell: Cell) -> Option<u32> {
        self.get(&self.second, cell)
    }

    /// The potential of an empty `cell`: the sum of its two two-distances, when both exist.
    /// Lower is better; a cell that wins at once has potential 2.
    pub fn potential(&self, cell: Cell) -> Option<u32> {
        Some(self.to_first_edge(cell)? + self.to_second_edge(cell)?)
    }

    /// The colour's potential: the lowest potential of any empty cell, 0 when the colour has
    /// already connected, `None` when no empty cell has a potential.
    pub fn best_potential(&self) -> Option<u32> {
        if self.connected {
            return Some(0);
        }
        let n = self.size;
        (0..n).flat_map(|r| (0..n).map(move |c| Cell::new(r, c))).filter_map(|c| self.potential(c)).min()
    }

    /// How many empty cells have the best potential (Queenbee's tie-break: more is better).
    pub fn best_count(&self) -> usize {
        let Some(best) = self.best_potential() else { return 0 };
        let n = self.size;
        (0..n)
            .flat_map(|r| (0..n).map(move |c| Cell::new(r, c)))
            .filter(|&c| self.potential(c) == Some(best))
            .count()
    }
}

impl std::fmt::Debug for TwoDistances {
    /// The potentials row by row, `.` for cells without one.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TwoDistances({} {}x{}:", self.color, self.size, self.size)?;
        for r in 0..self.size {
            f.write_str(" [")?;
            for c in 0..self.size {
                match self.potential(Cell::new(r, c)) {
                    Some(p) => write!(f, " {p}")?,
                    None => f.write_str(" .")?,
                }
            }
            f.write_str(" ]")?;
        }
        f.write_str(")")
    }
}

/// Queenbee's two-distance for `color` (reference `hex.md` §5.2): for each empty cell, how far
/// it is from each of the colour's edges when the opponent always cuts the best route.
///
/// The definition, for one edge:
///
/// - The colour's own stones are contracted: two empty cells are *neighbours* if they touch, or
///   if both touch one group of the colour's stones. An empty cell touches the edge if it lies
///   on it or touches a group that does. The opponent's stones link nothing.
/// - An empty cell that touches the edge has two-distance 1.
/// - Any other empty cell has two-distance 1 + the *second-smallest* two-distance among its
///   neighbours: the opponent can block the best neighbour, so the second one counts. With fewer
///   than two neighbours of known distance it has none (`None`).
///
/// Distances are assigned in rounds: round k + 1 gives k + 1 to every cell that has at least
/// two neighbours of distance ≤ k. The *potential* of a cell is the sum of its two
/// two-distances; the colour's potential is the lowest over all empty cells (lower is better).
///
/// Benzene's `eval-twod` prints the same per-cell potentials; its scalar score is not comparable
/// (see the reference).
///
/// # Examples
///
/// ```
/// use hex::distances::two_distance;
/// use hex::{Board, Cell, Color};
///
/// // Empty 3x3, Black (top to bottom): the short diagonal a3-b2-c1 has potential 4.
/// let twod = two_distance(&Board::new(3).unwrap(), Color::Black);
/// assert_eq!(twod.to_first_edge(Cell::new(2, 2)), Some(5));
/// assert_eq!(twod.potential(Cell::new(1, 1)), Some(4));
/// assert_eq!(twod.potential(Cell::new(0, 0)), Some(6));
/// assert_eq!(twod.best_potential(), Some(4));
/// assert_eq!(twod.best_count(), 3);
/// ```
pub fn two_distance(board: &Board, color: Color) -> TwoDistances {
    let view = View::new(board, color);
    let n = view.n;
    let cells = view.cells();
    let rotated = view.rotated();
    let mut down = [FAR; MAX_CELLS];
    let mut up = [FAR; MAX_CELLS];
    two_distance_to_top(&view, &mut down);
    // The distance to the bottom edge is the distance to the top of the board turned by 180°.
    two_distance_to_top(&rotated, &mut up);
    let mut first = [FAR; MAX_CELLS];
    let mut second = [FAR; MAX_CELLS];
    for r in 0..n {
        for c in 0..n {
            let id = view_id(r, c, n, color);
            first[r * n + c] = down[id];
            second[r * n + c] = up[cells - 1 - id];
        }
    }
    TwoDistances { size: board.size(), color, first, second, connected: board.connects(color) }
}

/// Fills `out` (by view id) with the two-distance of every empty cell of `view` to its top row.
fn two_distance_to_top(view: &View, out: &mut [u16; MAX_CELLS]) {
    let n = view.n;
    let cells = view.cells();
    // Label the own groups; list each group's stones contiguously (`members[start[g]..start[g+1]]`).
    let mut group = [u16::MAX; MAX_CELLS];
    let mut members = [0u16; MAX_CELLS];
    let mut start = [0u16; MAX_CELLS + 1];
    let mut on_top = [false; MAX_CELLS];
    let mut groups = 0usize;
    let mut filled = 0usize;
    for id in 0..cells {
        if view.kind[id] != OWN || group[id] != u16::MAX {
            continue;
        }
        start[groups] = filled as u16;
        group[id] = groups as u16;
        members[filled] = id as u16;
        filled += 1;
        let mut next = start[groups] as usize;
        while next < filled {
            let s = usize::from(members[next]);
            next += 1;
            on_top[groups] |= s < n;
            for_each_neighbour(s, n, |m| {
                if view.kind[m] == OWN && group[m] == u16::MAX {
                    group[m] = groups as u16;
                    members[filled] = m as u16;
                    filled += 1;
                }
            });
        }
        groups += 1;
    }
    start[groups] = filled as u16;

    // The empty cells that touch the top edge, directly or through a group, have distance 1.
    out[..cells].fill(FAR);
    let (mut a, mut b) = ([0u16; MAX_CELLS], [0u16; MAX_CELLS]);
    let (mut layer, mut next) = (&mut a, &mut b);
    let mut layer_len = 0;
    for (id, &kind) in view.kind[..cells].iter().enumerate() {
        if kind != EMPTY {
            continue;
        }
        let mut touches = id < n;
        for_each_neighbour(id, n, |m| touches |= view.kind[m] == OWN && on_top[usize::from(group[m])]);
        if touches {
            out[id] = 1;
            layer[layer_len] = id as u16;
            layer_len += 1;
        }
    }

    // Rounds: expand every cell of distance k once, counting it as a neighbour of each cell it
    // links to; a cell's second count in round k gives it k + 1.
    let mut count = [0u8; MAX_CELLS];
    let mut seen = [0u32; MAX_CELLS]; // the expansion that last listed a cell
    let mut group_seen = [0u32; MAX_CELLS];
    let mut stamp = 0u32;
    let mut k: u16 = 1;
    while layer_len > 0 {
        let mut next_len = 0;
        for &c in &layer[..layer_len] {
            let c = usize::from(c);
            stamp += 1;
            seen[c] = stamp;
            let mut visit = |m: usize| {
                if view.kind[m] != EMPTY || seen[m] == stamp {
                    return;
                }
                seen[m] = stamp;
                if out[m] == FAR {
                    count[m] += 1;
                    if count[m] == 2 {
                        out[m] = k + 1;
                        next[next_len] = m as u16;
                        next_len += 1;
                    }
                }
            };
            for_each_neighbour(c, n, |m| match view.kind[m] {
                EMPTY => visit(m),
                OWN => {
                    let g = usize::from(group[m]);
                    if group_seen[g] == stamp {
                        return;
                    }
                    group_seen[g] = stamp;
                    for &s in &members[usize::from(start[g])..usize::from(start[g + 1])] {
                        for_each_neighbour(usize::from(s), n, &mut visit);
                    }
                }
                _ => {}
            });
        }
        (layer, next) = (next, layer);
        layer_len = next_len;
        k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(size: u32, stones: &[(u8, u8, Color)]) -> Board {
        let mut b = Board::new(size).unwrap();
        for &(r, c, color) in stones {
            b.set(Cell::new(r, c), Some(color));
        }
        b
    }

    #[test]
    fn neighbours_match_the_board() {
        for n in 1..=5u8 {
            for id in 0..usize::from(n) * usize::from(n) {
                let mut mine = Vec::new();
                for_each_neighbour(id, usize::from(n), |m| mine.push(m));
                let theirs: Vec<usize> = Cell::from_id(id, n).neighbours(n).map(|c| c.id(n)).collect();
                assert_eq!(mine, theirs, "n = {n}, id = {id}");
            }
        }
    }

    #[test]
    fn white_is_searched_transposed() {
        // A white stone at a2 (row 1, col 0) lies on White's first edge.
        let b = board(3, &[(1, 0, Color::White)]);
        let view = View::new(&b, Color::White);
        assert_eq!(view.kind[1], OWN); // view (0, 1): the top row
        assert_eq!(bfs_distance(&b, Color::White), Some(2));
    }
}
