//! Captured pairs judged with the groups of stones in view.
//!
//! The ring rules of [`Geometry::fill_in`] read only the six neighbours of a cell, and call a
//! pair of adjacent empty cells captured by a colour when its stone on either makes the other
//! *dead* (four of its stones in a row around it). Two things make many more pairs captured:
//!
//! - **Useless to the owner is enough.** When the opponent takes one cell of the pair and the
//!   owner answers on the other, the intruding stone only has to be worth a stone of the
//!   owner there: on every filling of the board, the owner connects with it exactly when the
//!   owner would with its own stone there. That holds when a stone of the owner there would
//!   be *useless* to the owner, whatever it does for the opponent.
//! - **Groups join far from the cell.** Two stones of a colour on opposite sides of a cell are
//!   often one group already, joined elsewhere, and a stone touching its edge is joined to
//!   every other cell of that edge.
//!
//! **The rule.** A stone of colour `k` on an empty cell `c` is *useless* to `k` when, on
//! every filling of `c`'s empty neighbours, the neighbours of `c` that are then `k`'s (its
//! stones, empty ones given to it, its edges off the board) are joined without `c`: through
//! each other around the ring, or because they lie in one of `k`'s groups (a group touching
//! an edge counts as part of that edge). Then any path of `k` through `c` has a way round it,
//! so `c`'s colour never changes whether `k` connects. A pair of adjacent empty cells is
//! captured by `k` when a stone of `k` on either makes the other useless to `k`: if the
//! opponent takes one, `k` answers on the other, and the position is then worth what it
//! would be with both cells `k`'s, so `k` may be given both at once without changing who
//! wins, whoever is to move (the argument of the ring rules' captured pairs).
//!
//! The same reading does not find more dead cells (useless to both colours) than the ring
//! rules: with the groups joining around the cell, two stones of one colour and two of the
//! other would have to alternate around it, each pair joined by a path, and two such paths
//! cannot both exist on a flat board.

use super::{Geometry, RING, bits};

/// The label of the first and of the second edge of a colour; groups get labels from 2 on.
const EDGE: [u8; 2] = [0, 1];

/// For each colour and direction of [`RING`], the label of the colour's edge that lies that
/// way when the neighbour is off the board there: up or down for Black, left or right for
/// White (off an obtuse corner, each colour's own reading).
const EDGE_BEYOND: [[u8; 6]; 2] = [[0, 0, 0, 1, 1, 0], [0, 1, 1, 0, 0, 0]];

/// One colour's view of the ring of six neighbours of a cell.
#[derive(Clone, Copy, Debug, Default)]
struct Ring {
    /// The places (bit `d` for direction `d` of [`RING`]) holding the colour's stone or edge.
    own: u8,
    /// The empty places.
    empty: u8,
    /// For each own place, its component's label (a group joined with the edge it touches).
    label: [u8; 6],
}

impl Ring {
    /// Whether a stone of the colour in the middle would be useless to it (see the
    /// [module docs](self)): every filling of the empty places leaves the colour's places
    /// joined without the middle.
    ///
    /// With no own place, that holds when the empty places are at most two side by side.
    /// Otherwise an empty place given to the colour is joined to the rest only through an own
    /// place beside it, so each empty place needs one; then filling empty places only adds
    /// joins, and the filling that gives them all away decides: the own places must be joined
    /// around the ring or through their components.
    fn useless(&self) -> bool {
        let around = |set: u8| (set << 1 | set >> 5 | set >> 1 | set << 5) & 0x3f;
        if self.own == 0 {
            return self.empty.count_ones() <= 1
                || self.empty.count_ones() == 2 && around(self.empty) & self.empty != 0;
        }
        if self.empty & !around(self.own) != 0 {
            return false;
        }
        let mut reach = self.own & self.own.wrapping_neg();
        loop {
            let mut grown = reach | around(reach) & self.own;
            for i in 0..6 {
                if reach >> i & 1 == 1 {
                    for j in 0..6 {
                        if self.own >> j & 1 == 1 && self.label[j] == self.label[i] {
                            grown |= 1 << j;
                        }
                    }
                }
            }
            if grown == reach {
                return reach == self.own;
            }
            reach = grown;
        }
    }
}

/// What the rings of some cells look like to each colour, with the groups in view.
pub(super) struct Groups {
    /// The rings of the cells asked for in [`Groups::new`], for each colour.
    rings: [[Ring; 2]; 128],
    /// The step in bits to the neighbour in each direction of [`RING`].
    offsets: [isize; 6],
}

impl Groups {
    /// Reads the rings of the cells of `cells` as each of `colours` (0 Black) sees them,
    /// labelling the groups next to them.
    pub(super) fn new(geo: &Geometry, stones: [u128; 2], cells: u128, colours: &[usize]) -> Self {
        let mut labels = [[u8::MAX; 128]; 2];
        let around = geo.neighbours(cells);
        for &colour in colours {
            let own = stones[colour];
            let mut rest = own & around;
            let mut next = 2u8;
            while rest != 0 {
                let group = geo.flood(rest & rest.wrapping_neg(), own);
                rest &= !group;
                let label = if group & geo.edges[colour][0] != 0 {
                    EDGE[0]
                } else if group & geo.edges[colour][1] != 0 {
                    EDGE[1]
                } else {
                    next += 1;
                    next - 1
                };
                for b in bits(group & around) {
                    labels[colour][b] = label;
                }
            }
        }
        let mut rings = [[Ring::default(); 2]; 128];
        let empty = geo.cells & !stones[0] & !stones[1];
        let open: [u128; 6] = std::array::from_fn(|d| geo.toward(empty, d));
        let offsets: [isize; 6] =
            std::array::from_fn(|d| RING[d].0 as isize * geo.stride as isize + RING[d].1 as isize);
        for &colour in colours {
            let owned = geo.owned(colour, stones[colour]);
            for b in bits(cells) {
                let ring = &mut rings[b][colour];
                for d in 0..6 {
                    if owned[d] >> b & 1 == 1 {
                        ring.own |= 1 << d;
                        ring.label[d] = if geo.edge_side[colour][d] >> b & 1 == 1 {
                            EDGE_BEYOND[colour][d]
                        } else {
                            labels[colour][(b as isize + offsets[d]) as usize]
                        };
                    } else if open[d] >> b & 1 == 1 {
                        ring.empty |= 1 << d;
                    }
                }
            }
        }
        Groups { rings, offsets }
    }

    /// Whether a stone of `colour` on the empty neighbour of bit `x` in direction `d` of
    /// [`RING`] makes a stone of `colour` on `x` useless to it. The new stone joins every
    /// component it touches. Both cells must be among those whose rings [`Groups::new`] read.
    fn useless_beside(&self, x: usize, d: usize, colour: usize) -> bool {
        let mut ring = self.rings[x][colour];
        ring.empty &= !(1 << d);
        ring.own |= 1 << d;
        // Every empty place needs an own place beside it (see `Ring::useless`): most cells
        // fail here, before the labels are looked at.
        let around = (ring.own << 1 | ring.own >> 5 | ring.own >> 1 | ring.own << 5) & 0x3f;
        if ring.empty & !around != 0 {
            return false;
        }
        let y = (x as isize + self.offsets[d]) as usize;
        let theirs = self.rings[y][colour];
        // A label no component has: the merged component's.
        const MERGED: u8 = u8::MAX;
        for i in 0..6 {
            if ring.own >> i & 1 == 1 && i != d {
                let touched = (0..6).any(|j| theirs.own >> j & 1 == 1 && theirs.label[j] == ring.label[i]);
                if touched {
                    ring.label[i] = MERGED;
                }
            }
        }
        ring.label[d] = MERGED;
        ring.useless()
    }

    /// One pair of adjacent empty cells, one in `first` and the other in `second`, that one of
    /// `colours` (0 Black) captures, as the colour and the two cells; `None` if there is none.
    /// Both sets must be among the cells whose rings [`Groups::new`] read for those colours.
    pub(super) fn captured_pair(
        &self,
        first: u128,
        second: u128,
        colours: &[usize],
    ) -> Option<(usize, u128)> {
        for x in bits(first) {
            for &colour in colours {
                let empty = self.rings[x][colour].empty;
                for d in (0..6).filter(|&d| empty >> d & 1 == 1) {
                    let y = (x as isize + self.offsets[d]) as usize;
                    // A pair inside `first` is looked at once, from its lower cell.
                    if second >> y & 1 == 0 || first >> y & 1 == 1 && y < x {
                        continue;
                    }
                    if self.useless_beside(x, d, colour) && self.useless_beside(y, (d + 3) % 6, colour) {
                        return Some((colour, 1 << x | 1 << y));
                    }
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(own: &[(usize, u8)], empty: &[usize]) -> Ring {
        let mut r = Ring::default();
        for &(d, label) in own {
            r.own |= 1 << d;
            r.label[d] = label;
        }
        for &d in empty {
            r.empty |= 1 << d;
        }
        r
    }

    /// The definition itself: every filling of the empty places leaves the colour's places
    /// joined around the ring or through shared labels.
    fn useless_by_every_filling(r: &Ring) -> bool {
        let mut filled = r.empty;
        loop {
            let k = r.own | filled;
            let mut reach = k & k.wrapping_neg();
            loop {
                let mut grown = reach | (reach << 1 | reach >> 5 | reach >> 1 | reach << 5) & 0x3f & k;
                for i in 0..6 {
                    for j in 0..6 {
                        if reach >> i & 1 == 1
                            && r.own >> i & 1 == 1
                            && r.own >> j & 1 == 1
                            && r.label[i] == r.label[j]
                        {
                            grown |= 1 << j;
                        }
                    }
                }
                if grown == reach {
                    break;
                }
                reach = grown;
            }
            if reach != k {
                return false;
            }
            if filled == 0 {
                return true;
            }
            filled = (filled - 1) & r.empty;
        }
    }

    /// The fast test agrees with the definition on every ring: each place own, the other
    /// colour's or empty, and the own places' labels drawn from three components.
    #[test]
    fn useless_agrees_with_every_filling() {
        let mut useless = 0;
        for code in 0..729u32 {
            let kinds: [u32; 6] = std::array::from_fn(|d| code / 3u32.pow(d as u32) % 3);
            let own: Vec<usize> = (0..6).filter(|&d| kinds[d] == 0).collect();
            for labels in 0..3u32.pow(own.len() as u32) {
                let mut r = Ring::default();
                for (i, &d) in own.iter().enumerate() {
                    r.own |= 1 << d;
                    r.label[d] = (labels / 3u32.pow(i as u32) % 3) as u8;
                }
                r.empty = (0..6).filter(|&d| kinds[d] == 2).fold(0, |acc, d| acc | 1 << d);
                assert_eq!(r.useless(), useless_by_every_filling(&r), "{r:?}");
                useless += usize::from(r.useless());
            }
        }
        assert!(useless > 1000, "{useless}");
    }

    #[test]
    fn two_stones_of_one_group_across_a_cell_are_joined() {
        // Own stones on opposite sides, nothing else usable: useless only if one group.
        assert!(ring(&[(0, 2), (3, 2)], &[]).useless());
        assert!(!ring(&[(0, 2), (3, 3)], &[]).useless());
        // An empty place between two own places of different groups is not enough: left
        // to the opponent, the two stay apart.
        assert!(!ring(&[(0, 2), (2, 3)], &[1]).useless());
        // Three in a row with an empty place beside them: joined on every filling.
        assert!(ring(&[(0, 2), (1, 2), (2, 2)], &[3]).useless());
        // An empty place with no own place beside it is cut off when given to the colour.
        assert!(!ring(&[(0, 2), (1, 2)], &[4]).useless());
        // Nothing own and one empty place, or none: nothing to join.
        assert!(ring(&[], &[2]).useless());
        assert!(ring(&[], &[]).useless());
        // Two empty places not next to each other, nothing own: cut off from each other.
        assert!(!ring(&[], &[1, 4]).useless());
    }
}
