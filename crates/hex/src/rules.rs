//! Hex as a game `search-core` can search.

use search_core::{Game, GameHash, MoveList, ToMove};

use crate::board::{Cell, HexMove, Position};

/// Hex for `search-core`: Black is player 0, White player 1; a position with a winner is terminal.
///
/// Moves are the empty cells row by row, then the swap when it is legal. The move index of a cell
/// is its OpenSpiel action number `row·n + col`, and the swap's is `n²`.
///
/// # Examples
///
/// ```
/// use hex::{HexGame, Position};
/// use search_core::{Game, MoveList, ToMove};
///
/// let game = HexGame::new(3);
/// let start = Position::new(3).unwrap();
/// assert_eq!(game.to_move(&start), ToMove::Player(0));
/// let mut moves = MoveList::new();
/// game.moves(&start, &mut moves);
/// assert_eq!(moves.len(), 9);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexGame {
    /// The board side.
    pub size: u8,
}

impl HexGame {
    /// Hex on an n×n board.
    pub fn new(size: u8) -> Self {
        HexGame { size }
    }
}

impl Game for HexGame {
    type State = Position;
    type Move = HexMove;

    fn to_move(&self, position: &Position) -> ToMove {
        to_move(position)
    }

    fn moves(&self, position: &Position, moves: &mut MoveList<HexMove>) {
        moves.extend(position.board().empty_cells().map(HexMove::Place));
        if position.can_swap() {
            moves.push(HexMove::Swap);
        }
    }

    fn play(&self, position: &Position, mv: HexMove) -> Position {
        position.play_unchecked(mv)
    }

    fn move_space(&self) -> usize {
        move_space(self.size)
    }

    fn move_index(&self, mv: HexMove) -> usize {
        move_index(self.size, mv)
    }
}

/// Whose turn it is in a Hex position for search-core: nobody once a side has connected.
/// Every Hex [`Game`] in the crate shares it.
pub(crate) fn to_move(position: &Position) -> ToMove {
    match position.winner() {
        Some(_) => ToMove::Terminal,
        None => ToMove::Player(position.to_move().index()),
    }
}

/// How many move indices an n×n board has for killer and history tables: every cell, then the
/// swap. Every Hex [`Game`] in the crate numbers its moves this way.
pub(crate) fn move_space(size: u8) -> usize {
    usize::from(size) * usize::from(size) + 1
}

/// The index of a move among [`move_space`]'s: the cell id, or the last index for the swap.
pub(crate) fn move_index(size: u8, mv: HexMove) -> usize {
    match mv {
        HexMove::Place(cell) => cell.id(size),
        HexMove::Swap => usize::from(size) * usize::from(size),
    }
}

impl GameHash for HexGame {
    fn hash(&self, position: &Position) -> u64 {
        position.hash()
    }
}

/// The centre cell of an n×n board (for even n, the one just above and left of the middle).
pub fn centre(size: u8) -> Cell {
    let mid = (size - 1) / 2;
    Cell::new(mid, mid)
}
