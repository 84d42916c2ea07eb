//! The conformance checker catches real game bugs: a correct Connect Four passes it, and four
//! copies with one planted bug each are caught with [`Walk::default`], with the rule named and a
//! message that says what is wrong.
//!
//! Each buggy game is a small wrapper over the example's [`ConnectFour`] and [`Board`] that
//! breaks exactly one thing.
#![cfg(feature = "testing")]

#[allow(dead_code)]
#[path = "../examples/connect_four/game.rs"]
mod connect_four;

use std::cell::Cell;

use connect_four::{Board, CELLS, COLUMN_ORDER, ConnectFour};
use search_core::testing::{Rule, Violation, Walk, check, check_hashed};
use search_core::{Game, GameHash, MoveList, ToMove};

/// The correct game passes, and the long walks fill the board: the longest game is 42 plies,
/// and some walks end in a draw.
#[test]
fn connect_four_passes_and_long_walks_fill_the_board() {
    let report = check_hashed(&ConnectFour, &[Board::new()], &Walk::default()).unwrap();
    println!("{report:?}");
    assert_eq!(report.terminal_states, 20, "every walk ends");
    assert_eq!(report.long_walks, 10);
    assert_eq!(report.longest_game, usize::from(CELLS), "a long walk filled the board");
    assert!(report.transpositions > 0, "transpositions were compared: {report:?}");
    assert!(report.remembered > 100, "{report:?}");

    // The same walks, watched: some ended on a full board with no four, a draw.
    let watched = Watched { draws: Cell::new(0) };
    assert_eq!(check_hashed(&watched, &[Board::new()], &Walk::default()).unwrap(), report);
    assert!(watched.draws.get() > 0, "no walk reached a drawn board");
}

/// [`ConnectFour`], counting the drawn boards it is asked about.
struct Watched {
    draws: Cell<u32>,
}

impl Game for Watched {
    type State = Board;
    type Move = u8;

    fn to_move(&self, board: &Board) -> ToMove {
        if board.plies == CELLS && !board.won {
            self.draws.set(self.draws.get() + 1);
        }
        ConnectFour.to_move(board)
    }
    fn moves(&self, board: &Board, moves: &mut MoveList<u8>) {
        ConnectFour.moves(board, moves);
    }
    fn play(&self, board: &Board, column: u8) -> Board {
        ConnectFour.play(board, column)
    }
}

impl GameHash for Watched {
    fn hash(&self, board: &Board) -> u64 {
        ConnectFour.hash(board)
    }
}

/// Checks `game` with the default walk from the empty board, expecting a violation.
fn caught<G>(game: &G) -> Violation
where
    G: GameHash,
    G::State: PartialEq + std::fmt::Debug + From<Board>,
{
    let violation = check_hashed(game, &[G::State::from(Board::new())], &Walk::default()).unwrap_err();
    println!("{violation}");
    violation
}

/// Bug 1: the incremental hash forgets stones dropped in column 3, so the empty board, the
/// board after columns `[3, 3]` and after `[3, 3, 3, 3]` all hash 0 (and so does the board after
/// `[3]`, which the checker meets first). A user sees:
///
/// ```text
/// walk 0, ply 1: two different states have the same hash 0x0000000000000000 (does the hash leave out part of the state? a good 64-bit hash almost never collides): Board(......./......./......./......./......./......., 0 to move, hash 0x0000000000000000), met before, and this one, at Board(......./......./......./......./......./...X..., 1 to move, hash 0x0000000000000000)
/// ```
#[test]
fn a_hash_that_ignores_a_column_is_a_collision() {
    let after =
        |columns: &[u8]| columns.iter().fold(Board::new(), |board, &c| HashIgnoresColumn3.play(&board, c));
    let game = HashIgnoresColumn3;
    assert_eq!(game.hash(&after(&[])), game.hash(&after(&[3, 3])));
    assert_eq!(game.hash(&after(&[])), game.hash(&after(&[3, 3, 3, 3])));
    let violation = caught(&HashIgnoresColumn3);
    assert!(matches!(violation.rule, Rule::HashCollision { hash: 0, .. }), "{violation}");
    let message = violation.to_string();
    assert!(message.contains("two different states have the same hash"), "{message}");
    assert!(message.contains("leave out part of the state"), "{message}");
}

struct HashIgnoresColumn3;

impl Game for HashIgnoresColumn3 {
    type State = Board;
    type Move = u8;

    fn to_move(&self, board: &Board) -> ToMove {
        ConnectFour.to_move(board)
    }
    fn moves(&self, board: &Board, moves: &mut MoveList<u8>) {
        ConnectFour.moves(board, moves);
    }
    fn play(&self, board: &Board, column: u8) -> Board {
        let mut next = board.after(column);
        if column == 3 {
            // The bug: the stone's key is not added.
            next.hash = board.hash;
        }
        next
    }
}

impl GameHash for HashIgnoresColumn3 {
    fn hash(&self, board: &Board) -> u64 {
        board.hash
    }
}

/// Bug 2: a full column is listed as a move, and playing it silently changes nothing. A user
/// sees:
///
/// ```text
/// walk 1, ply 11: the listed move 3 leaves the state as it was (an illegal move listed as legal, such as a full column? a game whose pass keeps the state sets Walk::allow_no_op_moves), at Board(...X.../...O.../...O.../...XO../...OX../..XXOX., 1 to move, hash 0xaf52bd946c8c4eec)
/// ```
#[test]
fn a_full_column_listed_as_a_move_changes_nothing() {
    let violation = caught(&ListsFullColumns);
    assert!(matches!(violation.rule, Rule::MoveChangesNothing { .. }), "{violation}");
    let message = violation.to_string();
    assert!(message.contains("leaves the state as it was"), "{message}");
    assert!(message.contains("full column"), "{message}");
}

struct ListsFullColumns;

impl Game for ListsFullColumns {
    type State = Board;
    type Move = u8;

    fn to_move(&self, board: &Board) -> ToMove {
        ConnectFour.to_move(board)
    }
    fn moves(&self, _: &Board, moves: &mut MoveList<u8>) {
        // The bug: every column, full or not.
        moves.extend(COLUMN_ORDER);
    }
    fn play(&self, board: &Board, column: u8) -> Board {
        if board.can_play(column) { board.after(column) } else { *board }
    }
}

impl GameHash for ListsFullColumns {
    fn hash(&self, board: &Board) -> u64 {
        board.hash
    }
}

/// Bug 3: the hash is updated incrementally as `h.rotate_left(1) ^ key`, which depends on the
/// order the stones came in, and kept in the state as a cache that `==` ignores. A user sees:
///
/// ```text
/// walk 0, ply 2: the hash depends on the order of the moves: from this state, moves [4, 3, 1] reach a state with hash 0xc28eac002e0a4d0e and moves [1, 3, 4] reach an equal state with hash 0x76ca0edd1ea48563, at Ordered(Board(......./......./......./......./....O../....X.., 0 to move, hash 0xaeee266160f3896f), ordered hash 0xe00b64a3f61d3d4b)
/// ```
#[test]
fn a_hash_that_depends_on_the_move_order_is_caught() {
    let violation = caught(&PathDependentHash);
    assert!(matches!(violation.rule, Rule::HashDependsOnPath { .. }), "{violation}");
    let message = violation.to_string();
    assert!(message.contains("the hash depends on the order of the moves"), "{message}");
    assert!(message.contains("reach an equal state"), "{message}");
}

/// A board with a hash that depends on the order its stones came in; `==` compares the boards.
#[derive(Clone, Copy)]
struct Ordered {
    board: Board,
    hash: u64,
}

impl std::fmt::Debug for Ordered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ordered({:?}, ordered hash {:#018x})", self.board, self.hash)
    }
}

impl PartialEq for Ordered {
    fn eq(&self, other: &Ordered) -> bool {
        self.board == other.board
    }
}

impl From<Board> for Ordered {
    fn from(board: Board) -> Ordered {
        Ordered { board, hash: board.hash }
    }
}

struct PathDependentHash;

impl Game for PathDependentHash {
    type State = Ordered;
    type Move = u8;

    fn to_move(&self, state: &Ordered) -> ToMove {
        ConnectFour.to_move(&state.board)
    }
    fn moves(&self, state: &Ordered, moves: &mut MoveList<u8>) {
        ConnectFour.moves(&state.board, moves);
    }
    fn play(&self, state: &Ordered, column: u8) -> Ordered {
        let board = state.board.after(column);
        // The stone's Zobrist key, folded in with a rotation: the bug.
        let key = board.hash ^ state.board.hash;
        Ordered { board, hash: state.hash.rotate_left(1) ^ key }
    }
}

impl GameHash for PathDependentHash {
    fn hash(&self, state: &Ordered) -> u64 {
        state.hash
    }
}

/// Bug 4: a full board with no four is not terminal (only a win ends the game), so the player
/// to move has no move. Random play almost never fills the board; the long walks do. A user
/// sees:
///
/// ```text
/// walk 1, ply 42: a player's state lists no move (a state where the game is over, such as a full board, must be Terminal; a player who cannot move while the game goes on needs a pass move), at Board(XXOXXOO/OXOOXXX/OOXXOOO/OXOOOXX/XOXXXOO/OXXXOOX, 0 to move, hash 0xa19e0c060c0b03ab)
/// ```
#[test]
fn a_full_board_that_goes_on_is_caught() {
    let violation = caught(&FullBoardGoesOn);
    assert_eq!(violation.rule, Rule::NoMoves, "{violation}");
    assert_eq!(violation.ply, usize::from(CELLS), "{violation}");
    let message = violation.to_string();
    assert!(message.contains("lists no move"), "{message}");
    assert!(message.contains("must be Terminal"), "{message}");
}

struct FullBoardGoesOn;

impl Game for FullBoardGoesOn {
    type State = Board;
    type Move = u8;

    fn to_move(&self, board: &Board) -> ToMove {
        // The bug: a full board is not over.
        if board.won { ToMove::Terminal } else { ToMove::Player(board.to_move()) }
    }
    fn moves(&self, board: &Board, moves: &mut MoveList<u8>) {
        ConnectFour.moves(board, moves);
    }
    fn play(&self, board: &Board, column: u8) -> Board {
        board.after(column)
    }
}

impl GameHash for FullBoardGoesOn {
    fn hash(&self, board: &Board) -> u64 {
        board.hash
    }
}

/// A solitaire counter: add 1 or pass until 10. The pass leaves the state as it is, which is
/// right here (one player, nothing else to record).
struct Solitaire;

impl Game for Solitaire {
    type State = u8;
    type Move = u8;

    fn to_move(&self, &count: &u8) -> ToMove {
        if count >= 10 { ToMove::Terminal } else { ToMove::Player(0) }
    }
    fn moves(&self, _: &u8, moves: &mut MoveList<u8>) {
        moves.extend([1, 0]);
    }
    fn play(&self, &count: &u8, add: u8) -> u8 {
        count + add
    }
}

impl GameHash for Solitaire {
    fn hash(&self, &count: &u8) -> u64 {
        u64::from(count).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

/// A pass that keeps the state is a [`Rule::MoveChangesNothing`] by default, and accepted with
/// [`Walk::allow_no_op_moves`].
#[test]
fn a_pass_that_keeps_the_state_is_allowed_when_asked() {
    let violation = check_hashed(&Solitaire, &[0], &Walk::default()).unwrap_err();
    assert_eq!(violation.rule, Rule::MoveChangesNothing { mv: "0".to_string() });
    let walk = Walk { allow_no_op_moves: true, max_plies: 100, ..Walk::default() };
    let report = check_hashed(&Solitaire, &[0], &walk).unwrap();
    assert!(report.player_states > 0 && report.terminal_states > 0, "{report:?}");
    assert!(check(&Solitaire, &[0], &walk).is_ok());
}

/// The bugs are caught with any seed, not only the default one (and the first long walk
/// nearly always fills the board).
#[test]
fn each_bug_is_caught_with_other_seeds() {
    for seed in 1..40 {
        let walk = Walk { seed, ..Walk::default() };
        let start = [Board::new()];
        let rule = |result: Result<_, Violation>| result.expect_err("a bug went unseen").rule;
        assert!(
            matches!(rule(check_hashed(&HashIgnoresColumn3, &start, &walk)), Rule::HashCollision { .. }),
            "seed {seed}"
        );
        assert!(
            matches!(rule(check_hashed(&ListsFullColumns, &start, &walk)), Rule::MoveChangesNothing { .. }),
            "seed {seed}"
        );
        let ordered = [Ordered::from(Board::new())];
        assert!(
            matches!(rule(check_hashed(&PathDependentHash, &ordered, &walk)), Rule::HashDependsOnPath { .. }),
            "seed {seed}"
        );
        assert_eq!(rule(check_hashed(&FullBoardGoesOn, &start, &walk)), Rule::NoMoves, "seed {seed}");
        // The checker without the hash still sees the bugs that are not about the hash.
        assert!(matches!(rule(check(&ListsFullColumns, &start, &walk)), Rule::MoveChangesNothing { .. }));
        assert_eq!(rule(check(&FullBoardGoesOn, &start, &walk)), Rule::NoMoves, "seed {seed}");
    }
}
