//! Win detection by incremental union-find: an independent check of the flood fill in
//! [`Board::connects`].
//!
//! Every cell is a node, and four virtual nodes stand for the edges. A stone is joined to the
//! stones of its colour next to it and to the edges of its colour that it touches; a colour has
//! connected when its two edge nodes are in the same set.

use crate::board::{Board, Cell, Color};

/// The stones of an n×n board as disjoint sets of connected groups, with the four edges as
/// extra nodes; stones are only ever added.
///
/// # Examples
///
/// ```
/// use hex::{Cell, Color, Connectivity};
///
/// let mut groups = Connectivity::new(3);
/// groups.add(Cell::new(0, 2), Color::Black); // c1
/// groups.add(Cell::new(1, 1), Color::Black); // b2
/// assert_eq!(groups.winner(), None);
/// groups.add(Cell::new(2, 0), Color::Black); // a3: c1-b2-a3 joins top and bottom
/// assert_eq!(groups.winner(), Some(Color::Black));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connectivity {
    size: u8,
    /// The parent of each node: the n² cells row by row, then top, bottom, left, right.
    parent: Vec<u16>,
    /// For a root, the number of nodes in its set.
    set_size: Vec<u16>,
    /// The stone on each cell.
    stones: Vec<Option<Color>>,
}

impl Connectivity {
    /// No stones on an n×n board.
    ///
    /// # Panics
    /// If `size` is 0 or more than 19 (a board [`Board::new`] refuses).
    pub fn new(size: u8) -> Connectivity {
        assert!(Board::new(u32::from(size)).is_ok(), "a board side must be from 1 to 19, not {size}");
        let cells = usize::from(size) * usize::from(size);
        Connectivity {
            size,
            parent: (0..cells as u16 + 4).collect(),
            set_size: vec![1; cells + 4],
            stones: vec![None; cells],
        }
    }

    /// The groups of the stones on `board`, added row by row.
    pub fn from_board(board: &Board) -> Connectivity {
        let mut groups = Connectivity::new(board.size());
        for cell in board.cells() {
            if let Some(color) = board.get(cell) {
                groups.add(cell, color);
            }
        }
        groups
    }

    /// The board side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The stone on `cell`, if any (`None` also off the board).
    pub fn get(&self, cell: Cell) -> Option<Color> {
        self.on_board(cell).then(|| self.stones[self.index(cell)]).flatten()
    }

    /// Puts a stone of `color` on the empty cell `cell` and joins it to its neighbours of the
    /// same colour and to the edges of that colour it touches.
    ///
    /// # Panics
    /// If the cell is off the board or already holds a stone.
    pub fn add(&mut self, cell: Cell, color: Color) {
        assert!(self.on_board(cell), "{cell:?} is off the {0}x{0} board", self.size);
        let node = self.index(cell);
        assert!(self.stones[node].is_none(), "{cell:?} already holds a stone");
        self.stones[node] = Some(color);
        let last = self.size - 1;
        let (first_edge, second_edge, line) = match color {
            Color::Black => (Edge::Top, Edge::Bottom, cell.row),
            Color::White => (Edge::Left, Edge::Right, cell.col),
        };
        if line == 0 {
            self.union(node, self.edge(first_edge));
        }
        if line == last {
            self.union(node, self.edge(second_edge));
        }
        for next in cell.neighbours(self.size) {
            let other = self.index(next);
            if self.stones[other] == Some(color) {
                self.union(node, other);
            }
        }
    }

    /// Whether `color`'s stones join its two edges.
    pub fn connects(&self, color: Color) -> bool {
        let (a, b) = match color {
            Color::Black => (Edge::Top, Edge::Bottom),
            Color::White => (Edge::Left, Edge::Right),
        };
        self.root(self.edge(a)) == self.root(self.edge(b))
    }

    /// The colour that has connected its edges, if either has (Black is asked first, as
    /// [`Board::winner`] does).
    pub fn winner(&self) -> Option<Color> {
        [Color::Black, Color::White].into_iter().find(|&c| self.connects(c))
    }

    fn on_board(&self, cell: Cell) -> bool {
        cell.row < self.size && cell.col < self.size
    }

    fn index(&self, cell: Cell) -> usize {
        cell.id(self.size)
    }

    fn edge(&self, edge: Edge) -> usize {
        self.stones.len() + edge as usize
    }

    /// The representative of `node`'s set, without changing anything.
    fn root(&self, mut node: usize) -> usize {
        while usize::from(self.parent[node]) != node {
            node = usize::from(self.parent[node]);
        }
        node
    }

    /// The representative of `node`'s set, pointing every other node on the way at its
    /// grandparent (path halving).
    fn find(&mut self, mut node: usize) -> usize {
        while usize::from(self.parent[node]) != node {
            let grandparent = self.parent[usize::from(self.parent[node])];
            self.parent[node] = grandparent;
            node = usize::from(grandparent);
        }
        node
    }

    /// Joins the sets of `a` and `b`, the smaller under the larger.
    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        let (big, small) = if self.set_size[a] >= self.set_size[b] { (a, b) } else { (b, a) };
        self.parent[small] = big as u16;
        self.set_size[big] += self.set_size[small];
    }
}

/// The virtual edge nodes, in the order they follow the cells.
#[derive(Clone, Copy)]
enum Edge {
    Top,
    Bottom,
    Left,
    Right,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_stone_wins_on_one_by_one() {
        for color in [Color::Black, Color::White] {
            let mut groups = Connectivity::new(1);
            groups.add(Cell::new(0, 0), color);
            assert_eq!(groups.winner(), Some(color));
        }
    }

    #[test]
    fn rows_and_columns_connect_only_their_own_colour() {
        let mut groups = Connectivity::new(4);
        for c in 0..4 {
            groups.add(Cell::new(2, c), Color::Black);
        }
        assert_eq!(groups.winner(), None);
        let mut groups = Connectivity::new(4);
        for c in 0..4 {
            groups.add(Cell::new(2, c), Color::White);
        }
        assert_eq!(groups.winner(), Some(Color::White));
        assert!(!groups.connects(Color::Black));
    }

    #[test]
    fn the_main_diagonal_is_not_a_chain() {
        let mut groups = Connectivity::new(3);
        for i in 0..3 {
            groups.add(Cell::new(i, i), Color::Black);
        }
        assert_eq!(groups.winner(), None);
        groups.add(Cell::new(0, 1), Color::Black);
        assert_eq!(groups.winner(), None);
        groups.add(Cell::new(1, 2), Color::Black);
        assert_eq!(groups.winner(), Some(Color::Black));
        assert_eq!(Connectivity::from_board(&Board::new(3).unwrap()).winner(), None);
    }

    #[test]
    #[should_panic(expected = "already holds a stone")]
    fn a_stone_on_a_stone_panics() {
        let mut groups = Connectivity::new(2);
        groups.add(Cell::new(0, 0), Color::Black);
        groups.add(Cell::new(0, 0), Color::White);
    }
}
