//! Properties of the rules and the notation on random boards from 1×1 to 19×19: full boards have
//! exactly one winner, the winner depends only on the stones, the board's symmetries map winners
//! as they should, the flood fill agrees with the union-find, the incremental Zobrist hash depends
//! only on the stones and the side to move, and the notation round-trips and never panics.

use hex::{
    Board, Cell, Color, Connectivity, HexMove, MAX_SIZE, Position, move_name, parse_cell, parse_move,
    parse_position, position_to_text, showboard,
};
use proptest::prelude::*;

/// A board side from 1 to 19.
fn size() -> impl Strategy<Value = u8> {
    1..=MAX_SIZE
}

/// The cell with index `id` (row by row) on an n×n board.
fn cell(id: usize, n: u8) -> Cell {
    Cell::from_id(id, n)
}

/// A size and a random content for each of its cells: empty, Black or White.
fn any_board() -> impl Strategy<Value = Board> {
    size().prop_flat_map(|n| {
        let stone = prop_oneof![Just(None), Just(Some(Color::Black)), Just(Some(Color::White))];
        prop::collection::vec(stone, usize::from(n) * usize::from(n)).prop_map(move |stones| {
            let mut board = Board::new(u32::from(n)).unwrap();
            for (id, stone) in stones.into_iter().enumerate() {
                board.set(cell(id, n), stone);
            }
            board
        })
    })
}

/// A size and a full board of it, each cell Black or White at random.
fn full_board() -> impl Strategy<Value = Board> {
    size().prop_flat_map(|n| {
        prop::collection::vec(any::<bool>(), usize::from(n) * usize::from(n)).prop_map(move |blacks| {
            let mut board = Board::new(u32::from(n)).unwrap();
            for (id, black) in blacks.into_iter().enumerate() {
                board.set(cell(id, n), Some(if black { Color::Black } else { Color::White }));
            }
            board
        })
    })
}

/// A size and two independent random orders of its cells (as indices row by row).
fn size_and_two_orders() -> impl Strategy<Value = (u8, Vec<usize>, Vec<usize>)> {
    size().prop_flat_map(|n| {
        let cells: Vec<usize> = (0..usize::from(n) * usize::from(n)).collect();
        (Just(n), Just(cells.clone()).prop_shuffle(), Just(cells).prop_shuffle())
    })
}

/// Plays the cells of `order` alternately from Black until somebody connects; the final position.
fn play_until_won(n: u8, order: &[usize]) -> Position {
    let mut pos = Position::new(u32::from(n)).unwrap();
    for &id in order {
        pos = pos.play(HexMove::Place(cell(id, n))).unwrap();
        if pos.winner().is_some() {
            break;
        }
    }
    pos
}

/// The board turned half a turn: (r, c) goes to (n−1−r, n−1−c), colours kept.
fn rotated(board: &Board) -> Board {
    let n = board.size();
    let mut out = Board::new(u32::from(n)).unwrap();
    for c in board.cells() {
        out.set(Cell::new(n - 1 - c.row, n - 1 - c.col), board.get(c));
    }
    out
}

/// The board mirrored in the long diagonal, (r, c) to (c, r), with the colours swapped.
fn transposed_and_swapped(board: &Board) -> Board {
    let mut out = Board::new(u32::from(board.size())).unwrap();
    for c in board.cells() {
        out.set(c.transpose(), board.get(c).map(Color::opponent));
    }
    out
}

/// Both colours' connections: (Black connects, White connects).
fn connections(board: &Board) -> (bool, bool) {
    (board.connects(Color::Black), board.connects(Color::White))
}

proptest! {
    #[test]
    fn a_full_board_has_exactly_one_winner(board in full_board()) {
        let (black, white) = connections(&board);
        prop_assert!(black != white, "{board:?}: black {black}, white {white}");
        prop_assert_eq!(Connectivity::from_board(&board).winner(), board.winner());
    }

    #[test]
    fn the_winner_does_not_depend_on_move_order((n, order, other) in size_and_two_orders()) {
        let game = play_until_won(n, &order);
        let board = *game.board();
        let winner = game.winner().expect("a game played to the end has a winner");
        prop_assert_eq!(board.winner(), Some(winner));
        // The same stones placed in another order, on a board and in a union-find.
        let mut again = Board::new(u32::from(n)).unwrap();
        let mut groups = Connectivity::new(n);
        for &id in &other {
            if let Some(color) = board.get(cell(id, n)) {
                again.set(cell(id, n), Some(color));
                groups.add(cell(id, n), color);
            }
        }
        prop_assert_eq!(again, board);
        prop_assert_eq!(again.winner(), Some(winner));
        prop_assert_eq!(groups.winner(), Some(winner));
        // Filling the rest of the board cannot change who has connected.
        let mut full = board;
        let mut color = game.to_move();
        for &id in &order {
            if full.get(cell(id, n)).is_none() {
                full.set(cell(id, n), Some(color));
                color = color.opponent();
            }
        }
        prop_assert_eq!(full.winner(), Some(winner));
    }

    #[test]
    fn a_half_turn_keeps_each_colours_connection(board in any_board()) {
        let turned = rotated(&board);
        prop_assert_eq!(connections(&turned), connections(&board));
        prop_assert_eq!(turned.winner(), board.winner());
        prop_assert_eq!(rotated(&turned), board);
    }

    #[test]
    fn the_transpose_with_colours_swapped_swaps_the_winner(board in any_board()) {
        let mirror = transposed_and_swapped(&board);
        let (black, white) = connections(&board);
        prop_assert_eq!(connections(&mirror), (white, black));
        prop_assert_eq!(mirror.winner(), board.winner().map(Color::opponent));
        prop_assert_eq!(transposed_and_swapped(&mirror), board);
    }

    #[test]
    fn the_transpose_swaps_the_winner_of_a_full_board(board in full_board()) {
        let mirror = transposed_and_swapped(&board);
        prop_assert_eq!(mirror.winner(), board.winner().map(Color::opponent));
    }

    #[test]
    fn flood_fill_and_union_find_agree_stone_by_stone(
        (board, order) in any_board().prop_flat_map(|b| {
            let cells: Vec<usize> = (0..usize::from(b.size()) * usize::from(b.size())).collect();
            (Just(b), Just(cells).prop_shuffle())
        })
    ) {
        let n = board.size();
        let mut growing = Board::new(u32::from(n)).unwrap();
        let mut groups = Connectivity::new(n);
        for id in order {
            let Some(color) = board.get(cell(id, n)) else { continue };
            growing.set(cell(id, n), Some(color));
            groups.add(cell(id, n), color);
            for side in [Color::Black, Color::White] {
                let (flood, union) = (growing.connects(side), groups.connects(side));
                prop_assert_eq!(union, flood, "{:?} after {:?}", side, cell(id, n));
            }
        }
        prop_assert_eq!(growing, board);
    }

    #[test]
    fn the_hash_depends_only_on_stones_and_side_to_move(
        (n, order, other) in size_and_two_orders(),
        moves in 0usize..400,
    ) {
        // Play up to `moves` moves, stopping before any move that would connect: then no subset of
        // the stones connects either, so replaying them in another order never ends the game.
        let mut pos = Position::new(u32::from(n)).unwrap();
        for &id in order.iter().take(moves) {
            let next = pos.play_unchecked(HexMove::Place(cell(id, n)));
            if next.winner().is_some() {
                break;
            }
            pos = next;
        }
        let stones_in_other_order = |color| {
            let cells = other.iter().map(|&id| cell(id, n));
            cells.filter(|&c| pos.board().get(c) == Some(color)).collect::<Vec<_>>()
        };
        let (blacks, whites) = (stones_in_other_order(Color::Black), stones_in_other_order(Color::White));
        let mut again = Position::new(u32::from(n)).unwrap();
        for (i, &b) in blacks.iter().enumerate() {
            again = again.play(HexMove::Place(b)).unwrap();
            if let Some(&w) = whites.get(i) {
                again = again.play(HexMove::Place(w)).unwrap();
            }
        }
        prop_assert_eq!(again.board(), pos.board());
        prop_assert_eq!(again.to_move(), pos.to_move());
        prop_assert_eq!(again.hash(), pos.hash());
        prop_assert_eq!(Position::from_board(*pos.board(), pos.to_move()).hash(), pos.hash());
        if pos.moves_played() > 0 {
            let other_side = Position::from_board(*pos.board(), pos.to_move().opponent());
            prop_assert_ne!(other_side.hash(), pos.hash());
        }
    }

    #[test]
    fn the_hash_after_a_swap_matches_the_stones((n, order, _) in size_and_two_orders(), moves in 0usize..40) {
        let mut pos = Position::with_swap(u32::from(n), true).unwrap();
        pos = pos.play(HexMove::Place(cell(order[0], n))).unwrap();
        if pos.can_swap() {
            pos = pos.play(HexMove::Swap).unwrap();
            prop_assert_eq!(pos.to_move(), Color::Black);
            let first = cell(order[0], n);
            prop_assert_eq!(pos.board().get(first.transpose()), Some(Color::White));
        }
        for &id in order.iter().take(moves) {
            if pos.winner().is_some() {
                break;
            }
            if pos.board().get(cell(id, n)).is_none() {
                pos = pos.play(HexMove::Place(cell(id, n))).unwrap();
            }
        }
        let from_stones = Position::from_board(*pos.board(), pos.to_move());
        prop_assert_eq!(from_stones.hash(), pos.hash());
        prop_assert_eq!(from_stones.winner(), pos.winner());
    }

    #[test]
    fn move_names_round_trip((n, r, c) in size().prop_flat_map(|n| (Just(n), 0..n, 0..n))) {
        let mv = HexMove::Place(Cell::new(r, c));
        let name = move_name(mv);
        prop_assert_eq!(parse_move(&name, n), Ok(mv));
        prop_assert_eq!(parse_move(&name.to_uppercase(), n), Ok(mv));
        prop_assert_eq!(parse_cell(&name, n), Ok(Cell::new(r, c)));
        prop_assert_eq!(name.clone(), name.to_lowercase());
        prop_assert_eq!(parse_move(&move_name(HexMove::Swap), n), Ok(HexMove::Swap));
        // The same name is off every smaller board.
        prop_assert!(parse_cell(&name, r.max(c)).is_err());
    }

    #[test]
    fn position_text_round_trips(board in any_board(), black_to_move in any::<bool>()) {
        let to_move = if black_to_move { Color::Black } else { Color::White };
        let pos = Position::from_board(board, to_move);
        let text = position_to_text(&pos);
        let back = parse_position(&text).unwrap();
        prop_assert_eq!(back.board(), pos.board());
        prop_assert_eq!(back.to_move(), to_move);
        prop_assert_eq!(back.hash(), pos.hash());
        prop_assert_eq!(back.winner(), pos.winner());
        prop_assert_eq!(position_to_text(&back), text.clone());
        prop_assert_eq!(*parse_position(&text.to_lowercase()).unwrap().board(), board);
    }

    #[test]
    fn showboard_draws_the_stones_of_each_row(board in any_board()) {
        let pos = Position::from_board(board, Color::Black);
        let drawing = showboard(&pos);
        let text = position_to_text(&pos);
        let (stones, _) = text.split_once(' ').unwrap();
        let rows: Vec<&str> = stones.split('/').collect();
        let lines: Vec<&str> = drawing.lines().collect();
        let n = usize::from(board.size());
        prop_assert_eq!(lines.len(), n + 2);
        for (r, row) in rows.iter().enumerate() {
            let line = lines[r + 1];
            let number = (r + 1).to_string();
            let cells: Vec<String> = row.chars().map(String::from).collect();
            let expected = format!("{number}\\{}\\{number}", cells.join("  "));
            prop_assert_eq!(line.trim_start(), expected.as_str());
            prop_assert_eq!(line.find('\\'), Some(r + 2));
        }
        prop_assert_eq!(lines[0].trim_start(), lines[n + 1].trim_start());
    }

    #[test]
    fn parsing_random_text_never_panics(text in any::<String>(), size in any::<u8>()) {
        let _ = parse_cell(&text, size);
        let _ = parse_move(&text, size);
        let _ = parse_position(&text);
    }

    #[test]
    fn parsing_nearly_valid_text_never_panics(
        text in "[a-uA-U0-9.BWbw/ -]{0,30}",
        position in "[.BWbwx/]{0,50} ?(b|w|black|white|x)?",
        size in 0u8..=25,
    ) {
        if let Ok(HexMove::Place(cell)) = parse_move(&text, size) {
            prop_assert!(cell.row < size && cell.col < size);
            prop_assert_eq!(parse_move(&move_name(HexMove::Place(cell)), size), Ok(HexMove::Place(cell)));
        }
        if let Ok(pos) = parse_position(&position) {
            prop_assert_eq!(parse_position(&position_to_text(&pos)).map(|p| *p.board()), Ok(*pos.board()));
        }
    }
}

/// Hex keeps search-core's `Game` contract on seeded random walks over every board size to 11.
#[test]
fn the_game_keeps_the_search_contract() {
    use search_core::testing::{Walk, check_hashed};
    for size in 1..=11u8 {
        let game = hex::HexGame::new(size);
        let start = hex::Position::new(u32::from(size)).unwrap();
        let walk = Walk { walks: 4, max_plies: 200, seed: u64::from(size), ..Walk::default() };
        let report = check_hashed(&game, std::slice::from_ref(&start), &walk).unwrap();
        // Every walk ends: a full board always has a winner.
        assert_eq!(report.terminal_states, 4, "size {size}");
        // The strong player's narrowed game too (it forwards everything but the moves).
        let strong = hex::strong::strong_game(size, 6);
        assert_eq!(check_hashed(&strong, &[start], &walk).unwrap().terminal_states, 4, "size {size}");
    }
}
