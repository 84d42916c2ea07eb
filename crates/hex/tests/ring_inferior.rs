//! The playouts' inferior cells by their six neighbours (`hex::mcts::ring_dead`,
//! `ring_inferior`): a cell the ring calls dead is dead on the board (whatever colour it takes,
//! every filling of the other cells has the same winner), and the tests are the same for both
//! colours once the board is mirrored with the colours swapped.

use hex::mcts::{ring_dead, ring_inferior};
use hex::{Board, Cell, Color};
use proptest::prelude::*;

/// The ring of `(row, column)` offsets a code reads, place `k` at bits `2k`.
const RING: [(i32, i32); 6] = [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)];

/// The ring code of `cell` on `board`: 0 empty, 1 Black's stone or edge (past the top or the
/// bottom), 2 White's (past a side), 3 off a corner.
fn ring_code(board: &Board, cell: Cell) -> u32 {
    let n = i32::from(board.size());
    let id = cell.id(board.size()) as i32;
    let (r, c) = (id / n, id % n);
    RING.iter().enumerate().fold(0, |code, (k, &(dr, dc))| {
        let (r, c) = (r + dr, c + dc);
        let state = match ((0..n).contains(&r), (0..n).contains(&c)) {
            (true, true) => match board.get(Cell::from_id((r * n + c) as usize, board.size())) {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            },
            (false, true) => 1,
            (true, false) => 2,
            (false, false) => 3,
        };
        code | state << (2 * k)
    })
}

/// The code with Black and White swapped (edges included: a mirrored board swaps them too).
fn swapped(code: u32) -> u32 {
    (0..6).fold(0, |out, k| {
        let state = match (code >> (2 * k)) & 3 {
            1 => 2,
            2 => 1,
            other => other,
        };
        out | state << (2 * k)
    })
}

/// The code of the board mirrored in its long diagonal: place `k` goes to place `5 − k`.
fn mirrored(code: u32) -> u32 {
    (0..6).fold(0, |out, k| out | ((code >> (2 * k)) & 3) << (2 * (5 - k)))
}

#[test]
fn the_tests_are_the_same_for_both_colours() {
    for code in 0..4096 {
        // White's view of a cell is Black's of the mirrored cell with the colours swapped.
        let view = swapped(mirrored(code));
        assert_eq!(ring_dead(code), ring_dead(view), "code {code:#o}");
        assert_eq!(ring_inferior(code, Color::White), ring_inferior(view, Color::Black), "code {code:#o}");
        // A dead cell is inferior for both; an inferior one is dead or has an empty neighbour.
        if ring_dead(code) {
            assert!(ring_inferior(code, Color::Black) && ring_inferior(code, Color::White));
        }
        if ring_inferior(code, Color::Black) {
            assert!(ring_dead(code) || (0..6).any(|k| (code >> (2 * k)) & 3 == 0));
        }
    }
}

#[test]
fn known_shapes() {
    // An empty ring is alive; a ring of one colour's stones is dead; two opposite stones of
    // one colour with the rest empty are joined only through the cell.
    assert!(!ring_dead(0) && !ring_inferior(0, Color::Black));
    assert!(ring_dead(0b01_01_01_01_01_01));
    assert!(!ring_dead(0b01 | 0b01 << 6));
    assert!(!ring_dead(0b10 << 2 | 0b10 << 8));
    // A Black and a White stone side by side with the rest empty: alive for both.
    assert!(!ring_dead(0b01 | 0b10 << 2));
    // Black's first row on its own edge (places 0 and 1 off the board): alive, though dominated.
    assert!(!ring_dead(0b01_01));
}

/// A board of side 3 to 6, each cell empty, Black or White, and fillings of it.
fn board_and_fillings() -> impl Strategy<Value = (Board, Vec<Vec<bool>>)> {
    (3u8..=6).prop_flat_map(|n| {
        let cells = usize::from(n) * usize::from(n);
        let stone =
            prop_oneof![2 => Just(None), 1 => Just(Some(Color::Black)), 1 => Just(Some(Color::White))];
        (
            prop::collection::vec(stone, cells),
            prop::collection::vec(prop::collection::vec(any::<bool>(), cells), 12),
        )
            .prop_map(move |(stones, fillings)| {
                let mut board = Board::new(u32::from(n)).unwrap();
                for (id, stone) in stones.into_iter().enumerate() {
                    board.set(Cell::from_id(id, n), stone);
                }
                (board, fillings)
            })
    })
}

proptest! {
    #[test]
    fn a_cell_the_ring_calls_dead_changes_no_winner((board, fillings) in board_and_fillings()) {
        let n = board.size();
        let cells: Vec<Cell> = (0..usize::from(n) * usize::from(n)).map(|id| Cell::from_id(id, n)).collect();
        for &dead in cells.iter().filter(|&&c| board.get(c).is_none()) {
            if !ring_dead(ring_code(&board, dead)) {
                continue;
            }
            for filling in &fillings {
                let mut full = board;
                for (&cell, &black) in cells.iter().zip(filling) {
                    if full.get(cell).is_none() {
                        full.set(cell, Some(if black { Color::Black } else { Color::White }));
                    }
                }
                let mut other = full;
                other.set(dead, Some(full.get(dead).unwrap().opponent()));
                prop_assert_eq!(full.winner(), other.winner(), "cell {} of {:?}", dead, board);
            }
        }
    }
}
