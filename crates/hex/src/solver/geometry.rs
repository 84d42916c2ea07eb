//! The solver's own compact board: both colours' stones on `u128` bitboards, with the same
//! guard-column layout as the crate's [`Bits`](crate::bits::Bits) (cell `(r, c)` is bit
//! `r·(n+1) + c`), so a neighbour set is six shifts and a mask.

use crate::board::{Cell, Color};

/// The largest board the solver takes: 10 rows of 11 bits fit in a `u128`.
pub const MAX_SOLVER_SIZE: u8 = 10;

/// The masks and shifts of one board size.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub(crate) size: u8,
    stride: u32,
    /// Every cell of the board (no guard bits).
    pub(crate) cells: u128,
    /// For each colour (Black = 0): the first edge's row or column, then the second's.
    pub(crate) edges: [[u128; 2]; 2],
    /// Hexagonal distance of each bit to the centre, times two (so both centres of an even
    /// board tie); the tie-break of move ordering.
    pub(crate) centre: [u8; 128],
    /// For each colour and each of its edges: the ziggurats (edge template IIIa) on the board,
    /// as (anchor bit, carrier): a stone on the anchor, third row from the edge, connects to
    /// the edge whenever the eight carrier cells are empty.
    pub(crate) templates: [[Vec<(usize, u128)>; 2]; 2],
    /// The bit of the last cell: the 180° rotation maps bit `i` to `last - i`.
    pub(crate) last: usize,
}

impl Geometry {
    /// The geometry of an n×n board, `1 <= n <= MAX_SOLVER_SIZE`.
    pub(crate) fn new(size: u8) -> Geometry {
        assert!((1..=MAX_SOLVER_SIZE).contains(&size));
        let stride = u32::from(size) + 1;
        let mut g = Geometry {
            size,
            stride,
            cells: 0,
            edges: [[0; 2]; 2],
            centre: [u8::MAX; 128],
            templates: Default::default(),
            last: 0,
        };
        g.last = g.index(Cell::new(size - 1, size - 1));
        let n = i32::from(size);
        for r in 0..size {
            for c in 0..size {
                let b = g.bit(Cell::new(r, c));
                g.cells |= b;
                if r == 0 {
                    g.edges[0][0] |= b;
                }
                if r == size - 1 {
                    g.edges[0][1] |= b;
                }
                if c == 0 {
                    g.edges[1][0] |= b;
                }
                if c == size - 1 {
                    g.edges[1][1] |= b;
                }
                // Axial coordinates doubled, measured from the centre (n−1)/2.
                let (dr, dc) = (2 * i32::from(r) - (n - 1), 2 * i32::from(c) - (n - 1));
                let dist = (dr.abs() + dc.abs() + (dr + dc).abs()) / 2;
                g.centre[g.index(Cell::new(r, c))] = dist as u8;
            }
        }
        g.templates = std::array::from_fn(|colour| std::array::from_fn(|edge| g.ziggurats(colour, edge)));
        g
    }

    /// The ziggurats of colour `colour` (0 Black) to its edge `edge` (0 first, 1 second).
    fn ziggurats(&self, colour: usize, edge: usize) -> Vec<(usize, u128)> {
        // Offsets (row, col) from the anchor at row 2 for the top edge, leaning right and
        // (mirrored by (r, c) -> (r, -c - r), which keeps rows and adjacency) leaning left.
        const RIGHT: [(i32, i32); 8] =
            [(0, 1), (-1, 0), (-1, 1), (-1, 2), (-2, 0), (-2, 1), (-2, 2), (-2, 3)];
        let n = i32::from(self.size);
        let mut out = Vec::new();
        for anchor_col in 0..n {
            for lean in [1, -1] {
                let mut carrier = 0u128;
                let mut fits = true;
                for (dr, dc) in RIGHT {
                    let (r, c) = (2 + dr, if lean == 1 { anchor_col + dc } else { anchor_col - dc - dr });
                    if !(0..n).contains(&r) || !(0..n).contains(&c) {
                        fits = false;
                        break;
                    }
                    carrier |= self.bit(self.orient(colour, edge, r, c));
                }
                if fits && n > 2 {
                    out.push((self.index(self.orient(colour, edge, 2, anchor_col)), carrier));
                }
            }
        }
        out
    }

    /// The cell that `(r, c)`, seen from Black's top edge, is for `colour`'s edge `edge`: the
    /// 180° rotation gives the bottom edge, the transpose gives White's edges.
    fn orient(&self, colour: usize, edge: usize, r: i32, c: i32) -> Cell {
        let n = i32::from(self.size);
        let (r, c) = if edge == 1 { (n - 1 - r, n - 1 - c) } else { (r, c) };
        let (r, c) = if colour == 1 { (c, r) } else { (r, c) };
        Cell::new(r as u8, c as u8)
    }

    /// The bit index of `cell`.
    pub(crate) fn index(&self, cell: Cell) -> usize {
        usize::from(cell.row) * self.stride as usize + usize::from(cell.col)
    }

    /// The one-bit mask of `cell`.
    pub(crate) fn bit(&self, cell: Cell) -> u128 {
        1u128 << self.index(cell)
    }

    /// The cell of bit index `index`.
    pub(crate) fn cell(&self, index: usize) -> Cell {
        let stride = self.stride as usize;
        Cell::new((index / stride) as u8, (index % stride) as u8)
    }

    /// `set` turned by 180°: cell `(r, c)` goes to `(n−1−r, n−1−c)`. With the guard layout
    /// this is bit `i` to bit `last − i`, a bit reversal and a shift.
    #[inline]
    pub(crate) fn rotate(&self, set: u128) -> u128 {
        set.reverse_bits() >> (127 - self.last)
    }

    /// Every cell next to a cell of `set` (and possibly cells of `set` itself).
    #[inline]
    pub(crate) fn neighbours(&self, set: u128) -> u128 {
        let s = self.stride;
        (set << 1 | set >> 1 | set << s | set >> s | set << (s - 1) | set >> (s - 1)) & self.cells
    }

    /// The cells of `within` reachable from `seed ∩ within` through `within`.
    #[inline]
    pub(crate) fn flood(&self, seed: u128, within: u128) -> u128 {
        let mut reached = seed & within;
        loop {
            let grown = (reached | self.neighbours(reached)) & within;
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }

    /// The edges `color` connects, first and second.
    pub(crate) fn edges_of(&self, color: Color) -> [u128; 2] {
        self.edges[usize::from(color.index())]
    }

    /// Whether `stones` of `color` connect its two edges.
    pub(crate) fn connects(&self, color: Color, stones: u128) -> bool {
        let [start, end] = self.edges_of(color);
        self.flood(stones & start, stones) & end != 0
    }

    /// The empty cells where one more stone of `color` would connect its edges.
    #[inline]
    pub(crate) fn winning_cells(&self, color: Color, stones: u128, empty: u128) -> u128 {
        let [start, end] = self.edges_of(color);
        let from_start = self.flood(stones & start, stones);
        let from_end = self.flood(stones & end, stones);
        (self.neighbours(from_start) | start) & (self.neighbours(from_end) | end) & empty
    }
}

/// The lowest set bit of `set`, as an index; `set` must not be empty.
#[inline]
pub(crate) fn lowest(set: u128) -> usize {
    set.trailing_zeros() as usize
}

/// The indices of the set bits of `set`, lowest first.
pub(crate) fn bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = lowest(set);
            set &= set - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_match_cell_neighbours() {
        for n in 1..=MAX_SOLVER_SIZE {
            let g = Geometry::new(n);
            for r in 0..n {
                for c in 0..n {
                    let cell = Cell::new(r, c);
                    let expected: u128 = cell.neighbours(n).map(|x| g.bit(x)).fold(0, |a, b| a | b);
                    assert_eq!(g.neighbours(g.bit(cell)) & !g.bit(cell), expected, "{n} {cell:?}");
                }
            }
        }
    }

    #[test]
    fn ziggurats_fit_the_board() {
        let g = Geometry::new(5);
        // Anchors on the third row from each edge; the carrier avoids the anchor.
        for colour in 0..2 {
            for edge in 0..2 {
                let list = &g.templates[colour][edge];
                // c3-style anchors: 5 columns, right-leaning needs col <= 1, left-leaning col >= 2.
                assert_eq!(list.len(), 4, "{colour} {edge}");
                for &(anchor, carrier) in list {
                    assert_eq!(carrier.count_ones(), 8);
                    assert_eq!(carrier >> anchor & 1, 0);
                }
            }
        }
    }

    #[test]
    fn rotation_maps_cells_to_their_opposites() {
        for n in 1..=MAX_SOLVER_SIZE {
            let g = Geometry::new(n);
            assert_eq!(g.rotate(g.cells), g.cells);
            for r in 0..n {
                for c in 0..n {
                    assert_eq!(g.rotate(g.bit(Cell::new(r, c))), g.bit(Cell::new(n - 1 - r, n - 1 - c)));
                }
            }
        }
    }

    #[test]
    fn winning_cells_on_two_by_two() {
        let g = Geometry::new(2);
        let b1 = g.bit(Cell::new(0, 1));
        let empty = g.cells & !b1;
        // Black b1 wins with a2 or b2 (both touch b1 and the bottom row).
        assert_eq!(g.winning_cells(Color::Black, b1, empty), g.bit(Cell::new(1, 0)) | g.bit(Cell::new(1, 1)));
        assert!(g.connects(Color::Black, b1 | g.bit(Cell::new(1, 0))));
        assert!(!g.connects(Color::Black, g.bit(Cell::new(0, 0)) | g.bit(Cell::new(1, 1))));
    }
}
