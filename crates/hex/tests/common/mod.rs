//! Position builders shared by the player tests (each test file is its own crate, so they reach
//! this module with `mod common;`).

use hex::{Board, Cell, Color, HexMove, Position};

/// A position on an n×n board with these stones (row, column) and `to_move` to play.
pub fn position(size: u32, black: &[(u8, u8)], white: &[(u8, u8)], to_move: Color) -> Position {
    let mut board = Board::new(size).unwrap();
    for &(r, c) in black {
        board.set(Cell::new(r, c), Some(Color::Black));
    }
    for &(r, c) in white {
        board.set(Cell::new(r, c), Some(Color::White));
    }
    Position::from_board(board, to_move)
}

/// The move that places a stone on (row, column).
pub fn place(r: u8, c: u8) -> HexMove {
    HexMove::Place(Cell::new(r, c))
}
