//! The solver's own compact board: both colours' stones on `u128` bitboards, row by row with no
//! guard column (cell `(r, c)` is bit `r·n + c`, so 11×11 fits), so a neighbour set is six
//! shifts, the four that change the column masked so that no cell wraps to the next row.

use super::carrier::Carrier;
use crate::board::{Cell, Color};

mod groups;
mod regions;

/// The largest board the solver takes: 11 rows of 11 bits fit in a `u128`.
pub const MAX_SOLVER_SIZE: u8 = 11;

/// The masks and shifts of one board size.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub(crate) size: u8,
    stride: u32,
    /// Every cell of the board.
    pub(crate) cells: u128,
    /// The cells not in the first column, then those not in the last: where a shift that
    /// moves one column left or right lands without wrapping round from the other side.
    columns: [u128; 2],
    /// For each colour (Black = 0): the first edge's row or column, then the second's.
    pub(crate) edges: [[u128; 2]; 2],
    /// Hexagonal distance of each bit to the centre, times two (so both centres of an even
    /// board tie); the tie-break of move ordering.
    pub(crate) centre: [u8; 128],
    /// For each colour and each of its edges: the edge templates of [`TEMPLATE_TABLE`] that fit on
    /// the board (a shape whose stones all touch the anchor once with each stone as the anchor).
    pub(crate) templates: [[Vec<Template>; 2]; 2],
    /// The bit of the last cell: the 180° rotation maps bit `i` to `last - i`.
    pub(crate) last: usize,
    /// For each colour and each direction of [`RING`]: the cells whose neighbour that way is
    /// off the board on that colour's edge (an obtuse corner's outside diagonal counts for both).
    edge_side: [[u128; 6]; 2],
}

/// An edge template, seen from Black's top edge (row 0) and leaning right: a stone on the
/// anchor, on row `row`, together with the stones at the offsets `stones`, connects to the
/// edge whenever the cells at the offsets `carrier` hold no opponent stone. Offsets are
/// (row, column) from the anchor; the left-leaning mirror is (r, c) -> (r, -c - r), which
/// keeps rows and adjacency.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EdgeTemplate {
    /// The anchor's row (0 is the edge row).
    pub(crate) row: i32,
    /// The other stones the template needs.
    pub(crate) stones: Vec<(i32, i32)>,
    /// The cells the opponent must not hold.
    pub(crate) carrier: Vec<(i32, i32)>,
}

/// The edge templates, with how each was found and checked: the ziggurat (template IIIa),
/// template IVa, two stones side by side on the fourth and fifth rows, and fourth- and
/// fifth-row stones with a helping stone, all that H-search does not derive by itself.
const TEMPLATE_TABLE: &str = include_str!("templates.txt");

/// The templates of [`TEMPLATE_TABLE`], read once.
pub(crate) fn edge_template_shapes() -> &'static [EdgeTemplate] {
    static SHAPES: std::sync::OnceLock<Vec<EdgeTemplate>> = std::sync::OnceLock::new();
    SHAPES.get_or_init(|| {
        parse_templates(TEMPLATE_TABLE).unwrap_or_else(|line| panic!("templates.txt: bad line {line:?}"))
    })
}

/// Reads the lines `ROW | STONES | CARRIER` of a template table (`#` starts a comment line);
/// the first bad line is the error.
fn parse_templates(text: &str) -> Result<Vec<EdgeTemplate>, String> {
    let offsets = |field: &str| -> Option<Vec<(i32, i32)>> {
        field
            .split_whitespace()
            .map(|pair| {
                let (r, c) = pair.split_once(',')?;
                Some((r.parse().ok()?, c.parse().ok()?))
            })
            .collect()
    };
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let parse = || {
                let mut fields = line.split('|');
                let row = fields.next()?.trim().parse().ok()?;
                let stones = offsets(fields.next()?)?;
                let carrier = offsets(fields.next()?)?;
                (fields.next().is_none() && !carrier.is_empty()).then_some(EdgeTemplate {
                    row,
                    stones,
                    carrier,
                })
            };
            parse().ok_or_else(|| line.to_string())
        })
        .collect()
}

/// One edge template placed on a board: a stone on `anchor` joined with the stones `stones`
/// connects to the edge whenever no cell of `carrier` holds an opponent stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Template {
    /// The anchor's bit.
    pub(crate) anchor: usize,
    /// The other stones needed (empty for a one-stone template).
    pub(crate) stones: u128,
    /// The cells the opponent must not hold.
    pub(crate) carrier: u128,
}

/// The six neighbour directions (row, column) in order around a cell: consecutive ones are
/// neighbours of each other.
const RING: [(i32, i32); 6] = [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)];

/// The rings of neighbours (for each direction of [`RING`]: 0 Black's, 1 White's, 2 empty)
/// that make a cell dead without four of one colour in a row, each with the colour the
/// fill-in gives the cell (the one with more neighbours; Black on a tie). A ring is dead when
/// a stone of either colour there is *useless* to it ([`useless_to`]); up to rotation,
/// reflection and the swap of colours these are three of one colour and three of the other,
/// three and two with one empty, three and one between two empty, and two and two with an
/// empty cell between them on each side (48 rings in all). In the positions of our search of
/// the 8x8 opening b2 that we showed Benzene's engine, its fill-in gave Black the corner a1
/// and a2 beside Black's b1, c1 and b2; four in a row does not reach them, these rings do (on
/// the 19 positions of `tests/data/solve-positions.txt`: 0.8 % fewer nodes, 2 % less time,
/// one run each).
static MIXED_DEAD: std::sync::LazyLock<Vec<([u8; 6], usize)>> = std::sync::LazyLock::new(|| {
    (0..729)
        .filter_map(|code: u32| {
            let ring: [u8; 6] = std::array::from_fn(|d| (code / 3u32.pow(d as u32) % 3) as u8);
            let four = |c: u8| (0..6).any(|k| (0..4).all(|j| ring[(k + j) % 6] == c));
            let count = |c: u8| ring.iter().filter(|&&k| k == c).count();
            (useless_to(&ring, 0) && useless_to(&ring, 1) && !four(0) && !four(1))
                .then(|| (ring, usize::from(count(1) > count(0))))
        })
        .collect()
});

/// Whether a stone of colour `c` on a cell with this ring of neighbours (as in
/// [`MIXED_DEAD`]) could never be needed by `c`: every two neighbours it could use (its own or
/// empty) are next to each other, or joined by `c`'s own neighbours along one side of the
/// ring, so a path through the cell has a way round it.
fn useless_to(ring: &[u8; 6], c: u8) -> bool {
    let usable = |d: usize| ring[d] == c || ring[d] == 2;
    let owned_between = |from: usize, to: usize| (from + 1..to).all(|d| ring[d % 6] == c);
    (0..6).all(|u| {
        (u + 1..6).all(|v| !usable(u) || !usable(v) || owned_between(u, v) || owned_between(v, u + 6))
    })
}

impl Geometry {
    /// The geometry of an n×n board, `1 <= n <= MAX_SOLVER_SIZE`.
    pub(crate) fn new(size: u8) -> Geometry {
        assert!((1..=MAX_SOLVER_SIZE).contains(&size));
        let stride = u32::from(size);
        let mut g = Geometry {
            size,
            stride,
            cells: 0,
            columns: [0; 2],
            edges: [[0; 2]; 2],
            centre: [u8::MAX; 128],
            templates: Default::default(),
            last: 0,
            edge_side: [[0; 6]; 2],
        };
        g.last = g.index(Cell::new(size - 1, size - 1));
        let n = i32::from(size);
        for r in 0..n {
            for c in 0..n {
                let bit = g.bit(Cell::new(r as u8, c as u8));
                for (d, (dr, dc)) in RING.into_iter().enumerate() {
                    let (nr, nc) = (r + dr, c + dc);
                    let (row_in, col_in) = ((0..n).contains(&nr), (0..n).contains(&nc));
                    if !row_in && col_in {
                        g.edge_side[0][d] |= bit;
                    } else if row_in && !col_in {
                        g.edge_side[1][d] |= bit;
                    } else if !row_in && !col_in {
                        // The outside diagonal of an obtuse corner (g1 and a7 on 7x7: the one
                        // slot between a Black and a White edge) counts for both colours: four
                        // in a row through it are the slot, the colour's edge and two of its
                        // stones along that edge, and the two neighbours left, the other edge
                        // and the cell beside it, already touch each other, so a stone in the
                        // corner joins nothing new for either side.
                        g.edge_side[0][d] |= bit;
                        g.edge_side[1][d] |= bit;
                    }
                }
            }
        }
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
                if c > 0 {
                    g.columns[0] |= b;
                }
                if c < size - 1 {
                    g.columns[1] |= b;
                }
                // Axial coordinates doubled, measured from the centre (n−1)/2.
                let (dr, dc) = (2 * i32::from(r) - (n - 1), 2 * i32::from(c) - (n - 1));
                let dist = (dr.abs() + dc.abs() + (dr + dc).abs()) / 2;
                g.centre[g.index(Cell::new(r, c))] = dist as u8;
            }
        }
        g.templates =
            std::array::from_fn(|colour| std::array::from_fn(|edge| g.edge_templates(colour, edge)));
        g
    }

    /// The edge templates of colour `colour` (0 Black) to its edge `edge` (0 first, 1 second)
    /// that fit on the board: every shape of [`TEMPLATE_TABLE`] at every column, in both leans,
    /// and, when its stones all touch the anchor, with each of them as the anchor.
    fn edge_templates(&self, colour: usize, edge: usize) -> Vec<Template> {
        let n = i32::from(self.size);
        let mut out = Vec::new();
        for t in edge_template_shapes() {
            for anchor_col in 0..n {
                for lean in [1, -1] {
                    // The set of the offsets placed, or None where one falls off the board.
                    let place = |offsets: &[(i32, i32)]| {
                        let mut set = 0u128;
                        for &(dr, dc) in offsets {
                            let (r, c) =
                                (t.row + dr, if lean == 1 { anchor_col + dc } else { anchor_col - dc - dr });
                            if !(0..n).contains(&r) || !(0..n).contains(&c) {
                                return None;
                            }
                            set |= self.bit(self.orient(colour, edge, r, c));
                        }
                        Some(set)
                    };
                    let (Some(stones), Some(carrier), Some(anchor)) =
                        (place(&t.stones), place(&t.carrier), place(&[(0, 0)]))
                    else {
                        continue;
                    };
                    // Stones next to the anchor make one chain with it, and any of them can
                    // be the anchor; a stone further away only helps the anchor.
                    let all = stones | anchor;
                    let anchors = if self.neighbours(anchor) & stones == stones { all } else { anchor };
                    for b in bits(anchors) {
                        out.push(Template { anchor: b, stones: all & !(1 << b), carrier });
                    }
                }
            }
        }
        // A placement is useless where another with the same anchor needs no more stones and
        // no more cells: whenever it holds the other holds too, with a smaller carrier. Every
        // build checks every placement, so the list is kept short.
        out.sort_unstable_by_key(|t| (t.anchor, t.carrier.count_ones(), t.carrier, t.stones));
        out.dedup();
        let mut kept: Vec<Template> = Vec::with_capacity(out.len());
        for t in out {
            let dominated = kept
                .iter()
                .rev()
                .take_while(|k| k.anchor == t.anchor)
                .any(|k| k.stones & !t.stones == 0 && k.carrier & !t.carrier == 0);
            if !dominated {
                kept.push(t);
            }
        }
        kept
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

    /// `set` turned by 180°: cell `(r, c)` goes to `(n−1−r, n−1−c)`: bit `i` to bit
    /// `last − i`, a bit reversal and a shift.
    #[inline]
    pub(crate) fn rotate(&self, set: u128) -> u128 {
        set.reverse_bits() >> (127 - self.last)
    }

    /// The empty cells that are dead: four neighbours in a row around the cell belong to one
    /// colour (its stones, or its edge off the board), or the ring of its neighbours is one of
    /// [`MIXED_DEAD`]'s. A stone there could only join cells that are already joined, for
    /// either side, so no move there ever changes the winner. `stones` are Black's, then
    /// White's (the edges differ).
    pub(crate) fn dead_cells(&self, stones: [u128; 2], empty: u128) -> u128 {
        let owned = [self.owned(0, stones[0]), self.owned(1, stones[1])];
        let mixed = self.mixed_dead(&owned, empty);
        (Self::four_in_a_row(&owned[0]) | Self::four_in_a_row(&owned[1]) | mixed[0] | mixed[1]) & empty
    }

    /// The empty cells whose ring of neighbours is one of [`MIXED_DEAD`]'s, for each colour
    /// the fill-in gives them (Black's, then White's). `owned` is [`Geometry::owned`] of both
    /// colours.
    fn mixed_dead(&self, owned: &[[u128; 6]; 2], empty: u128) -> [u128; 2] {
        let open: [u128; 6] = std::array::from_fn(|d| self.toward(empty, d));
        let mut out = [0; 2];
        for (ring, colour) in MIXED_DEAD.iter() {
            let mut cells = empty;
            for (d, &kind) in ring.iter().enumerate() {
                cells &= match kind {
                    0 | 1 => owned[usize::from(kind)][d],
                    _ => open[d],
                };
                if cells == 0 {
                    break;
                }
            }
            out[*colour] |= cells;
        }
        out
    }

    /// For one colour (0 Black) and stones `own`: for each direction of [`RING`], the cells
    /// whose neighbour that way is one of the stones or the colour's edge off the board.
    fn owned(&self, colour: usize, own: u128) -> [u128; 6] {
        std::array::from_fn(|d| self.toward(own, d) | self.edge_side[colour][d])
    }

    /// Whether every cell is below bit 64 (boards up to 8x8): shifts are then done on `u64`,
    /// one instruction where a `u128` shift by a run-time amount takes several.
    #[inline]
    fn narrow(&self) -> bool {
        self.cells >> 64 == 0
    }

    /// The cells whose neighbour in direction `d` of [`RING`] is in `set`.
    #[inline]
    fn toward(&self, set: u128, d: usize) -> u128 {
        let (dr, dc) = RING[d];
        let off = dr * self.stride as i32 + dc;
        // A cell has a neighbour one column left only if it is not in the first column.
        let within = match dc {
            -1 => self.columns[0],
            1 => self.columns[1],
            _ => self.cells,
        };
        fn on<C: Carrier>(set: C, off: i32, within: C) -> C {
            let shifted = if off > 0 { set >> off.unsigned_abs() } else { set << off.unsigned_abs() };
            shifted & within
        }
        if self.narrow() {
            on(u64::narrow(set), off, u64::narrow(within)).wide()
        } else {
            on(set, off, within)
        }
    }

    /// The cells with four neighbours in a row (around the ring) in `owned`.
    #[inline]
    fn four_in_a_row(owned: &[u128; 6]) -> u128 {
        (0..6).fold(0, |acc, k| acc | owned[k] & owned[(k + 1) % 6] & owned[(k + 2) % 6] & owned[(k + 3) % 6])
    }

    /// Fill-in: the stones (Black's, then White's) with dead and captured cells filled, until
    /// none is left. A dead cell takes the colour of the four stones that kill it, or the one
    /// [`MIXED_DEAD`] names (its colour never matters). Two adjacent empty cells are *captured*
    /// by a colour when a stone of that colour on either makes the other dead: if the opponent
    /// takes one, the owner answers on the other and the intruding stone is dead, as good as
    /// the owner's, so the owner may be given both at once without changing who wins,
    /// whoever is to move. The bridge to the edge (a stone on the second row and its two empty
    /// edge cells) is the common case. When these ring rules find nothing more, pairs are
    /// looked for again with the groups in view ([`groups`]): there the intruding stone only
    /// has to be useless to the owner, and the owner's stones around it may be joined through
    /// their groups.
    pub(crate) fn fill_in(&self, stones: [u128; 2]) -> [u128; 2] {
        self.fill_in_rules(stones, true, self.cells)
    }

    /// [`Geometry::fill_in`] of a position the fill-in had left nothing to fill in, plus the
    /// stones `added` (of one colour): the same result, with the pairs judged with the groups
    /// in view first looked for only where the new stones changed a ring or joined groups.
    pub(crate) fn fill_in_after(&self, stones: [u128; 2], added: u128) -> [u128; 2] {
        let colour = usize::from(added & stones[1] != 0);
        self.fill_in_rules(stones, true, self.neighbours(self.flood(added, stones[colour]) | added))
    }

    /// [`Geometry::fill_in`], with the rules that look at whole groups ([`groups`]) or
    /// without them (the ring rules alone, for tests that tell the two apart); the group
    /// rules look first at pairs with a cell in `near` (see [`Geometry::fill_in_after`]).
    fn fill_in_rules(&self, mut stones: [u128; 2], with_groups: bool, mut near: u128) -> [u128; 2] {
        'again: loop {
            let empty = self.cells & !stones[0] & !stones[1];
            if empty == 0 {
                return stones;
            }
            let owned = [self.owned(0, stones[0]), self.owned(1, stones[1])];
            let mut any_dead = false;
            let mixed = self.mixed_dead(&owned, empty);
            for colour in 0..2 {
                let dead = (Self::four_in_a_row(&owned[colour]) | mixed[colour]) & empty;
                if dead != 0 {
                    // Several dead cells at once: each stays dead whatever the others become
                    // (an empty neighbour of a dead cell, filled with either colour, leaves
                    // a ring that is still dead).
                    stones[colour] |= dead & !stones[1 - colour];
                    any_dead = true;
                }
            }
            if any_dead {
                near = self.cells;
                continue;
            }
            for colour in 0..2 {
                if let Some(pair) = self.captured_pair(&owned[colour], empty) {
                    stones[colour] |= pair;
                    near = self.cells;
                    continue 'again;
                }
            }
            if !with_groups {
                return stones;
            }
            // The ring rules found nothing: look for captured pairs again with the groups in
            // view, among the cells with few empty neighbours.
            if let Some((colour, pair)) = self.group_captured_pair(stones, empty, near, &[0, 1]) {
                stones[colour] |= pair;
                near = self.cells;
                continue;
            }
            return stones;
        }
    }

    /// One pair that one of `colours` captures by the group rules ([`groups`]), with a cell
    /// in `near` and both among the cells with few empty neighbours, as the colour and the two
    /// cells.
    fn group_captured_pair(
        &self,
        stones: [u128; 2],
        empty: u128,
        near: u128,
        colours: &[usize],
    ) -> Option<(usize, u128)> {
        let within = empty & (near | self.neighbours(near));
        let paired =
            colours.iter().fold(0, |acc, &c| acc | self.pair_candidates(c, stones[c], empty, within));
        if paired & near == 0 {
            return None;
        }
        let few = self.few_empty_neighbours(empty, paired);
        let first = few & near;
        if first == 0 {
            return None;
        }
        groups::Groups::new(self, stones, few, colours).captured_pair(first, few, colours)
    }

    /// The cells of `within` that may form a pair with an empty neighbour that colour
    /// `colour` captures by the group rules, on a test of the rings alone that every such pair
    /// passes (see `Groups::useless_beside`): with the partner given to the colour, every
    /// other empty neighbour of the cell touches one of the colour's places around it. Done
    /// for all cells at once on the bitboards, it leaves the group labels to be read for a few
    /// cells only.
    fn pair_candidates(&self, colour: usize, own: u128, empty: u128, within: u128) -> u128 {
        let owned = self.owned(colour, own);
        let open: [u128; 6] = std::array::from_fn(|d| self.toward(empty, d));
        // loose[e]: cells whose empty neighbour in direction e has no own place on either side.
        let loose: [u128; 6] = std::array::from_fn(|e| open[e] & !owned[(e + 5) % 6] & !owned[(e + 1) % 6]);
        // good[d]: cells whose empty neighbour in direction d, given to the colour, leaves no
        // loose empty neighbour (the places on either side of `d` are then beside an own one).
        let good: [u128; 6] = std::array::from_fn(|d| {
            let bad = (0..6)
                .filter(|&e| e != d && e != (d + 1) % 6 && e != (d + 5) % 6)
                .fold(0, |acc, e| acc | loose[e]);
            within & open[d] & !bad
        });
        (0..6).fold(0, |acc, d| acc | good[d] & self.toward(good[(d + 3) % 6], d))
    }

    /// The cells of `within` with at most four neighbours in `empty`.
    fn few_empty_neighbours(&self, empty: u128, within: u128) -> u128 {
        bits(within)
            .filter(|&b| (self.neighbours(1 << b) & empty).count_ones() <= 4)
            .fold(0, |acc, b| acc | 1 << b)
    }

    /// One pair of adjacent empty cells that the colour whose neighbours are `owned` captures
    /// (its stone on either makes the other dead), as a set of two cells; one at a time,
    /// because two overlapping pairs are not captured together.
    fn captured_pair(&self, owned: &[u128; 6], empty: u128) -> Option<u128> {
        // dead_if(d): empty cells whose empty neighbour in direction d, if it were this
        // colour's, would make them dead.
        let dead_if = |d: usize| {
            let next_empty = self.toward(empty, d) & empty;
            let mut with = *owned;
            with[d] |= next_empty;
            Self::four_in_a_row(&with) & next_empty
        };
        (0..3).find_map(|d| {
            let pairs = dead_if(d) & self.toward(dead_if(d + 3), d);
            (pairs != 0).then(|| {
                let a = pairs & pairs.wrapping_neg();
                a | self.toward(a, d + 3)
            })
        })
    }

    /// The cells that colour `colour` (0 Black) alone fills in `stones`: its dead cells (four
    /// of its stones or edges in a row around them) and the pairs it captures, one pair at a
    /// time, until none is left. The other colour's fill-in never takes part, so the result
    /// only grows when `colour` gets more stones: that monotonicity is what lets a domination
    /// found with it stand in a proof.
    ///
    /// `stones` must be a position the fill-in has nothing left to fill in, plus the stones
    /// `added` of `colour`: the pairs judged with the groups in view ([`groups`]) are first
    /// looked for only where the new stones changed a ring or joined groups (elsewhere there
    /// are none), which is most of this function's work saved.
    pub(crate) fn colour_fill(&self, colour: usize, mut stones: [u128; 2], added: u128) -> u128 {
        let before = stones[colour];
        // The cells whose rings the added stones, or the groups they joined, are in.
        let mut near = self.neighbours(self.flood(added, stones[colour]) | added);
        loop {
            let empty = self.cells & !stones[0] & !stones[1];
            if empty == 0 {
                break;
            }
            let owned = self.owned(colour, stones[colour]);
            let dead = Self::four_in_a_row(&owned) & empty;
            if dead != 0 {
                stones[colour] |= dead;
                near = self.cells;
                continue;
            }
            if let Some(pair) = self.captured_pair(&owned, empty) {
                stones[colour] |= pair;
                near = self.cells;
                continue;
            }
            if let Some((_, pair)) = self.group_captured_pair(stones, empty, near, &[colour]) {
                stones[colour] |= pair;
                near = self.cells;
                continue;
            }
            break;
        }
        stones[colour] & !before
    }

    /// The cells of `moves` worth trying for colour `mover` (0 Black), with dominated cells
    /// left out, and the cells the choice depends on (the dropped cells and their
    /// dominators). A stone of the mover on `y` dominates the cell `x` when the mover's own
    /// fill-in ([`Geometry::colour_fill`]) then fills `x`: the position after `y` is the one
    /// after `x` with `y` added too, so `x` never wins where `y` loses. A cell is dropped only
    /// for a dominator still kept, so each dropped cell has a kept one at the end of its chain
    /// of dominators, and a winning move stays among the kept ones.
    pub(crate) fn undominated(&self, mover: usize, stones: [u128; 2], moves: u128) -> (u128, u128) {
        if moves.count_ones() < 2 {
            return (moves, 0);
        }
        let mut dominated_by = [0u128; 128];
        for y in bits(moves) {
            let mut with = stones;
            with[mover] |= 1 << y;
            dominated_by[y] = self.colour_fill(mover, with, 1 << y) & moves;
        }
        let (mut kept, mut reasons) = (moves, 0);
        for x in bits(moves) {
            if let Some(y) = bits(kept & !(1 << x)).find(|&y| dominated_by[y] >> x & 1 == 1) {
                kept &= !(1 << x);
                reasons |= 1 << x | 1 << y;
            }
        }
        (kept, reasons)
    }

    /// The cells of `within` that a stone of colour `killer` (0 Black) on an empty neighbour
    /// would make dead (*vulnerable* cells), and those neighbours (the killers).
    ///
    /// The other side should not play a vulnerable cell `c` (killer `d`): after the reply on
    /// `d` it is as if the killer's side had both stones, so a win by `c` implies another win
    /// on a cell outside `{c, d}`, and repeating the argument in the fuller position (where
    /// the other winning moves stay vulnerable or become dead) ends with a winning move that
    /// is not vulnerable, unless every move wins.
    pub(crate) fn vulnerable(&self, killer: usize, stones: [u128; 2], within: u128) -> (u128, u128) {
        let empty = self.cells & !stones[0] & !stones[1];
        let owned = self.owned(killer, stones[killer]);
        let (mut cells, mut killers) = (0, 0);
        for d in 0..6 {
            let next_empty = self.toward(empty, d) & empty;
            let mut with = owned;
            with[d] |= next_empty;
            let dying = Self::four_in_a_row(&with) & next_empty & within;
            cells |= dying;
            killers |= self.toward(dying, (d + 3) % 6);
        }
        (cells, killers)
    }

    /// Every cell next to a cell of `set` (and possibly cells of `set` itself).
    #[inline]
    pub(crate) fn neighbours(&self, set: u128) -> u128 {
        // A cell whose neighbour is one column right (a shift down by 1, or the row above and
        // one column right) must not be in the last column; one column left, not in the first.
        fn on<C: Carrier>(set: C, s: u32, columns: [C; 2], cells: C) -> C {
            ((set >> 1 | set << (s - 1)) & columns[1]
                | (set << 1 | set >> (s - 1)) & columns[0]
                | set << s
                | set >> s)
                & cells
        }
        if self.narrow() {
            on(u64::narrow(set), self.stride, self.columns.map(u64::narrow), u64::narrow(self.cells)).wide()
        } else {
            on(set, self.stride, self.columns, self.cells)
        }
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

    /// Every size, so both the `u64` shifts of boards up to 8x8 and the `u128` ones above.
    #[test]
    fn neighbours_match_cell_neighbours() {
        for n in 1..=MAX_SOLVER_SIZE {
            let g = Geometry::new(n);
            assert_eq!(g.narrow(), n <= 8);
            for r in 0..n {
                for c in 0..n {
                    let cell = Cell::new(r, c);
                    let expected: u128 = cell.neighbours(n).map(|x| g.bit(x)).fold(0, |a, b| a | b);
                    assert_eq!(g.neighbours(g.bit(cell)) & !g.bit(cell), expected, "{n} {cell:?}");
                    // `toward(set, d)`: the cells whose neighbour in direction d is in `set`.
                    for (d, (dr, dc)) in RING.into_iter().enumerate() {
                        let (fr, fc) = (i32::from(r) - dr, i32::from(c) - dc);
                        let on_board = (0..i32::from(n)).contains(&fr) && (0..i32::from(n)).contains(&fc);
                        let from = if on_board { g.bit(Cell::new(fr as u8, fc as u8)) } else { 0 };
                        assert_eq!(g.toward(g.bit(cell), d), from, "{n} {cell:?} direction {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_template_table_parses_and_bad_lines_are_named() {
        let shapes = edge_template_shapes();
        assert!(shapes.len() > 100);
        assert_eq!((shapes[0].row, shapes[0].stones.len(), shapes[0].carrier.len()), (2, 0, 8));
        let ok = parse_templates("# a comment\n\n3 | 0,1 | -1,0 -1,1\n").unwrap();
        assert_eq!(ok, [EdgeTemplate { row: 3, stones: vec![(0, 1)], carrier: vec![(-1, 0), (-1, 1)] }]);
        for bad in ["3 | 0,1", "x | | 0,1", "3 | | 0;1", "3 | 0,1 | ", "3 | | 0,1 | 2,2"] {
            assert_eq!(parse_templates(bad), Err(bad.trim().to_string()), "{bad:?}");
        }
    }

    #[test]
    fn ziggurats_fit_the_board() {
        let g = Geometry::new(5);
        // Anchors on the third row from each edge; the carrier avoids the anchor.
        for colour in 0..2 {
            for edge in 0..2 {
                let list: Vec<_> =
                    g.templates[colour][edge].iter().filter(|t| t.carrier.count_ones() == 8).collect();
                // c3-style anchors: 5 columns, right-leaning needs col <= 1, left-leaning col >= 2.
                assert_eq!(list.len(), 4, "{colour} {edge}");
                for t in list {
                    assert_eq!(t.carrier.count_ones(), 8);
                    assert_eq!(t.carrier >> t.anchor & 1, 0);
                    assert_eq!(t.stones, 0);
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
    fn dead_cells_need_four_neighbours_in_a_row_or_a_mixed_ring() {
        let g = Geometry::new(4);
        let b = |r, c| g.bit(Cell::new(r, c));
        // a1 = (0,0): up and up-right are Black's edge, left and down-left White's, then b1
        // (right) and a2 (down). On the empty board it is live.
        assert_eq!(g.dead_cells([0, 0], g.cells) & b(0, 0), 0);
        // With Black on b1: three Black neighbours in a row, a2 empty, White's edge twice. A
        // Black stone on a1 joins nothing b1 does not (b1 touches the edge and a2), a White
        // one nothing the edge does not (a2 touches it): dead, by a mixed ring.
        let empty = g.cells & !b(0, 1);
        assert_eq!(g.dead_cells([b(0, 1), 0], empty) & b(0, 0), b(0, 0));
        assert_eq!(g.fill_in([b(0, 1), 0])[0] & b(0, 0), b(0, 0));
        // With White on b1 instead, a1 is live: Black's a1 would join its edge to a2.
        assert_eq!(g.dead_cells([0, b(0, 1)], empty) & b(0, 0), 0);
        assert_eq!(MIXED_DEAD.len(), 48);
        // With Black on b1 and White on a2, three Black and three White around a1: dead too.
        let (black, white) = (b(0, 1), b(1, 0));
        assert_eq!(g.dead_cells([black, white], g.cells & !black & !white) & b(0, 0), b(0, 0));
        // Black on b1 and a2 (down): top, top-right, right, down: four in a row.
        let black = b(0, 1) | b(1, 0);
        assert_eq!(g.dead_cells([black, 0], g.cells & !black) & b(0, 0), b(0, 0));
        // An interior cell with four Black stones around it in a row is dead; with three, not.
        let four = b(1, 1) | b(1, 2) | b(2, 2) | b(3, 1);
        let centre = b(2, 1); // ring: (1,1) (1,2) (2,2) (3,1) (3,0) (2,0)
        assert_eq!(g.dead_cells([four, 0], g.cells & !four) & centre, centre);
        let three = b(1, 1) | b(1, 2) | b(3, 1);
        assert_eq!(g.dead_cells([three, 0], g.cells & !three) & centre, 0);
        // a3 with White on a2 and a4 and White's left edge: dead; the same stones Black's: not.
        let (a3, pair) = (b(2, 0), b(1, 0) | b(3, 0));
        assert_eq!(g.dead_cells([0, pair], g.cells & !pair) & a3, a3);
        assert_eq!(g.dead_cells([pair, 0], g.cells & !pair) & a3, 0);
        // The obtuse corners d1 and a4: the outside diagonal counts for both colours. d1 with
        // Black on c1 and c2 (with the top edge and the diagonal, four in a row), or White on
        // c2 and d2 (with the right edge); a4 with Black on b3 and b4.
        let (d1, a4) = (b(0, 3), b(3, 0));
        for (stones, dead) in
            [([b(0, 2) | b(1, 2), 0], d1), ([0, b(1, 2) | b(1, 3)], d1), ([b(2, 1) | b(3, 1), 0], a4)]
        {
            assert_eq!(g.dead_cells(stones, g.cells & !stones[0] & !stones[1]) & dead, dead, "{stones:?}");
        }
        // One stone is not enough.
        assert_eq!(g.dead_cells([b(0, 2), 0], g.cells & !b(0, 2)) & d1, 0);
    }

    /// Every dead cell of many random positions, checked against its definition: on every
    /// filling of the other empty cells, the winner does not depend on the cell's colour.
    #[test]
    fn dead_cells_are_dead_on_every_filling() {
        let mut next = xorshift(12345);
        for n in 2..=6u8 {
            let g = Geometry::new(n);
            for _ in 0..400 {
                let stones = random_stones(&g, &mut next, 2, 5);
                let empty = g.cells & !stones[0] & !stones[1];
                if empty.count_ones() > 16 {
                    continue;
                }
                for c in bits(g.dead_cells(stones, empty)) {
                    let rest: Vec<usize> = bits(empty & !(1 << c)).collect();
                    for fill in 0..1u32 << rest.len() {
                        let mut black = stones[0];
                        for (i, &b) in rest.iter().enumerate() {
                            if fill >> i & 1 == 1 {
                                black |= 1 << b;
                            }
                        }
                        let with = g.connects(Color::Black, black | 1 << c);
                        let without = g.connects(Color::Black, black);
                        assert_eq!(with, without, "{n}x{n} {stones:?} dead {c}");
                    }
                }
            }
        }
    }

    /// Whether `mover` (0 Black) wins with perfect play from `stones`, by plain negamax.
    fn negamax(g: &Geometry, stones: [u128; 2], mover: usize) -> bool {
        let colour = |i: usize| if i == 0 { Color::Black } else { Color::White };
        if g.connects(colour(mover), stones[mover]) {
            return true;
        }
        if g.connects(colour(1 - mover), stones[1 - mover]) {
            return false;
        }
        bits(g.cells & !stones[0] & !stones[1]).any(|b| {
            let mut next = stones;
            next[mover] |= 1 << b;
            !negamax(g, next, 1 - mover)
        })
    }

    /// The cells of `within` where `mover` (0 Black) wins by playing, by plain negamax.
    fn winning_moves(g: &Geometry, stones: [u128; 2], mover: usize, within: u128) -> u128 {
        bits(within)
            .filter(|&b| {
                let mut next = stones;
                next[mover] |= 1 << b;
                !negamax(g, next, 1 - mover)
            })
            .fold(0, |acc, b| acc | 1 << b)
    }

    /// A xorshift generator of 64-bit numbers from `seed` (not zero): the tests' random
    /// positions, the same on every run.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// A random position on `g`'s board: each cell Black with probability `each / of`, White
    /// with the same, empty otherwise (one number of `next` a cell).
    fn random_stones(g: &Geometry, next: &mut impl FnMut() -> u64, each: u64, of: u64) -> [u128; 2] {
        let mut stones = [0u128; 2];
        for b in bits(g.cells) {
            match next() % of {
                r if r < each => stones[0] |= 1 << b,
                r if r < 2 * each => stones[1] |= 1 << b,
                _ => {}
            }
        }
        stones
    }

    /// Calls `check` on random positions of 2×2 to 5×5 boards with at most 9 empty cells (few
    /// enough for plain negamax), drawn from `seed`: each cell Black, White or empty with
    /// probabilities 3/7, 3/7 and 1/7.
    fn late_positions(seed: u64, mut check: impl FnMut(&Geometry, [u128; 2])) {
        let mut next = xorshift(seed);
        for n in 2..=5u8 {
            let g = Geometry::new(n);
            for _ in 0..2500 {
                let stones = random_stones(&g, &mut next, 3, 7);
                if (g.cells & !stones[0] & !stones[1]).count_ones() <= 9 {
                    check(&g, stones);
                }
            }
        }
    }

    /// Captured regions ([`regions`]) never change the winner, whoever is to move: on random
    /// 4x4 to 6x6 positions with a third of the cells empty, filled in, the regions found are
    /// given to their colours and plain negamax compares the two positions (those left with
    /// at most ten empty cells).
    #[test]
    fn captured_regions_keep_the_winner() {
        let mut next = xorshift(77);
        let mut found = [0usize; 2];
        for n in 4..=6u8 {
            let g = Geometry::new(n);
            for _ in 0..3000 {
                let stones = random_stones(&g, &mut next, 1, 3);
                let before = g.fill_in(stones);
                if (g.cells & !before[0] & !before[1]).count_ones() > 10 {
                    continue;
                }
                let Some(after) = g.fill_regions(before) else { continue };
                found[usize::from(n == 6)] += 1;
                for mover in 0..2 {
                    assert_eq!(
                        negamax(&g, before, mover),
                        negamax(&g, after, mover),
                        "{n}x{n} {before:?} with regions {after:?} mover {mover}"
                    );
                }
            }
        }
        assert!(found[0] + found[1] > 100 && found[1] > 20, "regions found (4x4 and 5x5, 6x6): {found:?}");
    }

    /// Fill-in never changes the winner, whoever is to move, on many random small positions
    /// (checked by plain negamax on both the position and its filled version).
    #[test]
    fn fill_in_keeps_the_winner() {
        let (mut filled_some, mut by_groups) = (0, 0);
        late_positions(4242, |g, stones| {
            let filled = g.fill_in(stones);
            assert_eq!(filled[0] & stones[1], 0);
            assert_eq!(filled[1] & stones[0], 0);
            if filled == stones {
                return;
            }
            filled_some += 1;
            by_groups += usize::from(filled != g.fill_in_rules(stones, false, g.cells));
            for mover in 0..2 {
                assert_eq!(
                    negamax(g, stones, mover),
                    negamax(g, filled, mover),
                    "{n}x{n} {stones:?} filled {filled:?} mover {mover}",
                    n = g.size
                );
            }
        });
        assert!(filled_some > 100, "only {filled_some} positions had anything to fill");
        assert!(by_groups > 100, "only {by_groups} positions where the group rules filled more");
    }

    /// The bitboard test that picks the cells worth labelling (`pair_candidates`) drops no pair
    /// the group rules find: on random small positions, the pair search over every cell with
    /// few empty neighbours finds the same pair as the search over the candidates, for each
    /// colour and for both.
    #[test]
    fn pair_candidates_keep_every_captured_pair() {
        let mut found = 0;
        late_positions(77, |g, stones| {
            let empty = g.cells & !stones[0] & !stones[1];
            let few = g.few_empty_neighbours(empty, empty);
            for colours in [&[0usize][..], &[1], &[0, 1]] {
                let every = (few != 0)
                    .then(|| groups::Groups::new(g, stones, few, colours).captured_pair(few, few, colours))
                    .flatten();
                let candidates = g.group_captured_pair(stones, empty, g.cells, colours);
                assert_eq!(every, candidates, "{stones:?} colours {colours:?}");
                found += usize::from(candidates.is_some());
            }
        });
        assert!(found > 100, "only {found} pairs found");
    }

    /// After one more stone on a filled position, the fill-in that looks near the stone first
    /// leaves nothing for the whole fill-in to fill, and keeps the winner.
    #[test]
    fn fill_in_after_a_move_finishes_the_fill_in() {
        let mut checked = 0;
        late_positions(515, |g, stones| {
            let filled = g.fill_in(stones);
            let empty = g.cells & !filled[0] & !filled[1];
            for m in bits(empty) {
                for colour in 0..2 {
                    let mut next = filled;
                    next[colour] |= 1 << m;
                    let after = g.fill_in_after(next, 1 << m);
                    assert_eq!(g.fill_in(after), after, "{next:?} after {m}");
                    if checked % 7 == 0 {
                        for mover in 0..2 {
                            assert_eq!(
                                negamax(g, next, mover),
                                negamax(g, after, mover),
                                "{next:?} after {m}"
                            );
                        }
                    }
                    checked += 1;
                }
            }
        });
        assert!(checked > 1000, "{checked}");
    }

    /// The claim behind pruning vulnerable cells, on many random small positions: if the side
    /// to move wins, it wins with a move that is not vulnerable, or with every move.
    #[test]
    fn vulnerable_cells_are_never_the_only_wins() {
        let mut pruned_some = 0;
        late_positions(99, |g, stones| {
            let empty = g.cells & !stones[0] & !stones[1];
            for mover in 0..2 {
                let (vulnerable, _) = g.vulnerable(1 - mover, stones, g.cells);
                if vulnerable == 0 {
                    continue;
                }
                let wins = winning_moves(g, stones, mover, empty);
                pruned_some += 1;
                assert!(
                    wins == 0 || wins == empty || wins & !vulnerable != 0,
                    "{stones:?} mover {mover} wins {wins:x} vulnerable {vulnerable:x}"
                );
            }
        });
        assert!(pruned_some > 100, "only {pruned_some} positions had vulnerable cells");
    }

    /// The claim behind leaving dominated cells out, on many random small positions: if the
    /// side to move wins, one of the kept moves wins.
    #[test]
    fn a_kept_move_wins_whenever_any_move_wins() {
        let mut pruned_some = 0;
        late_positions(7, |g, stones| {
            let empty = g.cells & !stones[0] & !stones[1];
            for mover in 0..2 {
                let (kept, reasons) = g.undominated(mover, stones, empty);
                assert_eq!(kept & !empty, 0);
                if kept == empty {
                    continue;
                }
                assert_eq!(empty & !kept & !reasons, 0, "every dropped cell is a reason");
                pruned_some += 1;
                let wins = |set: u128| winning_moves(g, stones, mover, set) != 0;
                assert_eq!(wins(kept), wins(empty), "{stones:?} mover {mover} kept {kept:x}");
            }
        });
        assert!(pruned_some > 100, "only {pruned_some} positions had dominated cells");
    }

    #[test]
    fn bridge_to_edge_cells_are_captured() {
        // 4x4: Black b2 with a1? b2 = (1, 1) touches (0, 1) and (0, 2) on Black's top edge.
        let g = Geometry::new(4);
        let b = |r, c| g.bit(Cell::new(r, c));
        let filled = g.fill_in([b(1, 1), 0]);
        assert_eq!(filled[0] & (b(0, 1) | b(0, 2)), b(0, 1) | b(0, 2));
        // The same stone is White's: White's edges are the columns, so nothing on row 0.
        let filled = g.fill_in([0, b(1, 1)]);
        assert_eq!(filled[1] & (b(0, 1) | b(0, 2)), 0);
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
