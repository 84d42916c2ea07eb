//! Text for cells, moves and positions: parsing and printing in the notation of HexGui and
//! Benzene, and their `showboard` drawing.
//!
//! A cell is a column letter (`a` on the left) followed by a 1-based row (`1` on top): `c2` is row
//! 1, column 2. Names parse case-insensitively and print in lowercase. The swap is `swap-pieces`
//! (`swap` is accepted too).
//!
//! # Examples
//!
//! ```
//! use hex::{Cell, HexMove, move_name, parse_cell, parse_move};
//!
//! assert_eq!(parse_cell("C2", 5), Ok(Cell::new(1, 2)));
//! assert_eq!(Cell::new(1, 2).to_string(), "c2");
//! assert_eq!(parse_move("swap", 5), Ok(HexMove::Swap));
//! assert_eq!(move_name(HexMove::Swap), "swap-pieces");
//! assert!(parse_cell("f1", 5).is_err());
//! ```

use std::fmt::{self, Write as _};

use thiserror::Error;

use crate::board::{BadSize, Board, Cell, Color, HexMove, IllegalMove, Position};

/// Why a cell, move or position text was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NotationError {
    /// The text is empty.
    #[error("the text is empty")]
    Empty,
    /// The text does not start with a column letter.
    #[error("{0:?} does not start with a column letter")]
    BadColumn(String),
    /// What follows the column letter is not a row number from 1 (digits only, no leading zero).
    #[error("{0:?} does not end in a row number (1, 2, …)")]
    BadRow(String),
    /// A well-formed cell name outside the board.
    #[error("{text} is off the {size}x{size} board")]
    OffBoard {
        /// The cell name as given.
        text: String,
        /// The board side.
        size: u8,
    },
    /// A position text without the side to move, or with more than one word after the board.
    #[error("a position is the rows of the board, a space, and the side to move (b or w)")]
    PositionLayout,
    /// The side to move is not `b`, `w`, `black` or `white`.
    #[error("{0:?} is not a side to move (b, w, black or white)")]
    BadSideToMove(String),
    /// A character in the board part that is not `.`, `B` or `W`.
    #[error("{0:?} is not a cell: expected '.', 'B' or 'W'")]
    BadStone(char),
    /// The rows do not form a square board.
    #[error("row {row} has {len} cells, but the board has {rows} rows")]
    NotSquare {
        /// The number of rows.
        rows: usize,
        /// The 1-based row that does not fit.
        row: usize,
        /// Its length.
        len: usize,
    },
    /// The board is larger than 19x19.
    #[error(transparent)]
    BadSize(#[from] BadSize),
}

/// Why a list of moves does not give a position: the first refused move, numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveListError {
    /// The board side is not one.
    #[error(transparent)]
    BadSize(#[from] BadSize),
    /// A move is not a cell name, or not a cell of the board.
    #[error("move {number}: {source}")]
    Notation {
        /// The move's number, from 1.
        number: usize,
        /// What was wrong with its text.
        source: NotationError,
    },
    /// A move's cell already holds a stone.
    #[error("move {number}: {cell} is already occupied")]
    Occupied {
        /// The move's number, from 1.
        number: usize,
        /// The cell's name.
        cell: String,
    },
    /// A move comes after somebody has connected.
    #[error("move {number}: {cell} comes after {winner} has connected")]
    AfterGameOver {
        /// The move's number, from 1.
        number: usize,
        /// The cell's name.
        cell: String,
        /// Who had connected.
        winner: Color,
    },
    /// Any other refusal of the rules.
    #[error("move {number}: {reason}")]
    Illegal {
        /// The move's number, from 1.
        number: usize,
        /// The rules' reason.
        reason: IllegalMove,
    },
}

/// The position after `moves` (cell names, alternating from Black) on an empty
/// `size`×`size` board, and the cells played; the first refused move is an error naming it.
///
/// ```
/// use hex::{Cell, Color, MoveListError, play_moves};
///
/// let (position, cells) = play_moves(4, ["a1", "B2"]).unwrap();
/// assert_eq!(position.to_move(), Color::Black);
/// assert_eq!(cells, vec![Cell::new(0, 0), Cell::new(1, 1)]);
/// let error = play_moves(4, ["a1", "b2", "a1"]).unwrap_err();
/// assert_eq!(error.to_string(), "move 3: a1 is already occupied");
/// assert!(matches!(play_moves(2, ["a1", "b1", "a2", "b2"]), Err(MoveListError::AfterGameOver { number: 4, .. })));
/// ```
pub fn play_moves<'a>(
    size: u32,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<(Position, Vec<Cell>), MoveListError> {
    let mut position = Position::new(size)?;
    let mut cells = Vec::new();
    for (index, text) in moves.into_iter().enumerate() {
        let number = index + 1;
        let cell =
            parse_cell(text, size as u8).map_err(|source| MoveListError::Notation { number, source })?;
        let name = move_name(HexMove::Place(cell));
        position = position.play(HexMove::Place(cell)).map_err(|e| match e {
            IllegalMove::Occupied(_) => MoveListError::Occupied { number, cell: name },
            IllegalMove::GameOver(winner) => MoveListError::AfterGameOver { number, cell: name, winner },
            reason => MoveListError::Illegal { number, reason },
        })?;
        cells.push(cell);
    }
    Ok((position, cells))
}

/// Prints a cell as its name: `c2` for row 1, column 2. Columns past `z` (never on a board of
/// at most 19×19) print as `(row, col)`, which no parser accepts.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col < 26 {
            write!(f, "{}{}", char::from(b'a' + self.col), u32::from(self.row) + 1)
        } else {
            write!(f, "({}, {})", self.row, self.col)
        }
    }
}

/// The cell named `text` on an n×n board: a column letter (any case) then a 1-based row with no
/// leading zero and nothing else around it.
///
/// # Examples
///
/// ```
/// use hex::{Cell, NotationError, parse_cell};
///
/// assert_eq!(parse_cell("a1", 3), Ok(Cell::new(0, 0)));
/// assert_eq!(parse_cell("K11", 11), Ok(Cell::new(10, 10)));
/// assert_eq!(parse_cell("", 3), Err(NotationError::Empty));
/// assert_eq!(parse_cell("1a", 3), Err(NotationError::BadColumn("1a".into())));
/// assert_eq!(parse_cell("a0", 3), Err(NotationError::BadRow("a0".into())));
/// assert_eq!(parse_cell("d1", 3), Err(NotationError::OffBoard { text: "d1".into(), size: 3 }));
/// ```
pub fn parse_cell(text: &str, size: u8) -> Result<Cell, NotationError> {
    let first = *text.as_bytes().first().ok_or(NotationError::Empty)?;
    if !first.is_ascii_alphabetic() {
        return Err(NotationError::BadColumn(text.to_string()));
    }
    let col = first.to_ascii_lowercase() - b'a';
    // The first byte is ASCII, so the row starts on a character boundary.
    let digits = &text[1..];
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotationError::BadRow(text.to_string()));
    }
    // Too many digits to fit is simply a row far off the board.
    let row: u32 = digits.parse().unwrap_or(u32::MAX);
    if col >= size || row > u32::from(size) {
        return Err(NotationError::OffBoard { text: text.to_string(), size });
    }
    Ok(Cell::new((row - 1) as u8, col))
}

/// The move named `text` on an n×n board: a cell name, or `swap-pieces` / `swap` (any case) for
/// the swap. Whether the move is legal now is for [`Position::play`] to say.
///
/// # Examples
///
/// ```
/// use hex::{Cell, HexMove, parse_move};
///
/// assert_eq!(parse_move("b3", 4), Ok(HexMove::Place(Cell::new(2, 1))));
/// assert_eq!(parse_move("Swap-Pieces", 4), Ok(HexMove::Swap));
/// assert!(parse_move("resign", 4).is_err());
/// ```
pub fn parse_move(text: &str, size: u8) -> Result<HexMove, NotationError> {
    if text.eq_ignore_ascii_case("swap-pieces") || text.eq_ignore_ascii_case("swap") {
        Ok(HexMove::Swap)
    } else {
        parse_cell(text, size).map(HexMove::Place)
    }
}

/// The name of a move: the cell's name (`c2`), or `swap-pieces` for the swap.
///
/// # Examples
///
/// ```
/// use hex::{Cell, HexMove, move_name};
///
/// assert_eq!(move_name(HexMove::Place(Cell::new(1, 2))), "c2");
/// assert_eq!(move_name(HexMove::Swap), "swap-pieces");
/// ```
pub fn move_name(mv: HexMove) -> String {
    match mv {
        HexMove::Place(cell) => cell.to_string(),
        HexMove::Swap => "swap-pieces".to_string(),
    }
}

fn stone_char(stone: Option<Color>) -> char {
    match stone {
        Some(Color::Black) => 'B',
        Some(Color::White) => 'W',
        None => '.',
    }
}

/// The board drawn as Benzene's `showboard` draws it (and HexGui shows it): column letters above
/// and below, the row number on both sides of each row, row r shifted r places to the right so
/// the board is a rhombus, `.` for an empty cell, `B` and `W` for stones.
///
/// Each row is its number right-aligned in two characters, a `\`, the cells two spaces apart,
/// another `\` and the number again. The letters on top start two columns in, one place left of
/// the first row's cells; those below start one place right of the last row's cells. Benzene also
/// prints a hash line above the letters and trailing spaces after them; this drawing has neither,
/// and no final newline. A GTP engine answers `= ` followed by a newline and this text, so the
/// board starts on a line of its own.
///
/// # Examples
///
/// ```
/// use hex::{Cell, HexMove, Position, showboard};
///
/// let pos = Position::new(3).unwrap();
/// let pos = pos.play(HexMove::Place(Cell::new(1, 1))).unwrap(); // Black b2
/// let pos = pos.play(HexMove::Place(Cell::new(0, 2))).unwrap(); // White c1
/// let expected = [
///     r"  a  b  c",
///     r" 1\.  .  W\1",
///     r"  2\.  B  .\2",
///     r"   3\.  .  .\3",
///     r"      a  b  c",
/// ];
/// assert_eq!(showboard(&pos), expected.join("\n"));
/// ```
pub fn showboard(position: &Position) -> String {
    let board = position.board();
    let n = board.size();
    let letters: Vec<String> = (0..n).map(|c| char::from(b'a' + c).to_string()).collect();
    let letters = letters.join("  ");
    let mut out = String::new();
    let _ = writeln!(out, "  {letters}");
    for r in 0..n {
        let cells: Vec<String> = (0..n).map(|c| stone_char(board.get(Cell::new(r, c))).to_string()).collect();
        let number = u32::from(r) + 1;
        let indent = usize::from(r);
        let _ = writeln!(out, "{:indent$}{number:>2}\\{}\\{number}", "", cells.join("  "));
    }
    let _ = write!(out, "{:width$}{letters}", "", width = usize::from(n) + 3);
    out
}

/// A position as one line of text: the rows from top to bottom, each a string of `.` (empty),
/// `B` and `W` over the columns from left to right, separated by `/`; then a space and the side
/// to move, `b` or `w`.
///
/// The text holds the stones and the side to move only: the number of moves played, the swap
/// rule and the history are not recorded. [`parse_position`] reads it back.
///
/// # Examples
///
/// ```
/// use hex::{Cell, HexMove, Position, parse_position, position_to_text};
///
/// let pos = Position::new(3).unwrap().play(HexMove::Place(Cell::new(1, 1))).unwrap();
/// assert_eq!(position_to_text(&pos), ".../.B./... w");
/// let back = parse_position(".../.B./... w").unwrap();
/// assert_eq!(back.board(), pos.board());
/// assert_eq!(back.hash(), pos.hash());
/// ```
pub fn position_to_text(position: &Position) -> String {
    let board = position.board();
    let n = board.size();
    let rows: Vec<String> =
        (0..n).map(|r| (0..n).map(|c| stone_char(board.get(Cell::new(r, c)))).collect()).collect();
    let side = match position.to_move() {
        Color::Black => 'b',
        Color::White => 'w',
    };
    format!("{} {side}", rows.join("/"))
}

/// The position written by [`position_to_text`]: rows of `.`, `B`, `W` separated by `/`, a space,
/// and the side to move (`b`, `w`, `black` or `white`). Stones and the side to move parse in any
/// case, and whitespace around the two parts is ignored. The board must be square, 1×1 to
/// 19×19. Stone counts are not checked (Benzene does not enforce alternation either), and both
/// colours can never connect at once (filling the empty cells would give a full board with two
/// winners). The position has no history, so the swap is not available.
///
/// # Examples
///
/// ```
/// use hex::{Color, NotationError, parse_position};
///
/// let pos = parse_position("B./B. w").unwrap();
/// assert_eq!(pos.winner(), Some(Color::Black));
/// assert_eq!(parse_position("B./B."), Err(NotationError::PositionLayout));
/// assert_eq!(parse_position("B./B x"), Err(NotationError::BadSideToMove("x".into())));
/// assert!(matches!(parse_position("B./B w"), Err(NotationError::NotSquare { .. })));
/// ```
pub fn parse_position(text: &str) -> Result<Position, NotationError> {
    let mut words = text.split_whitespace();
    let (Some(stones), Some(side), None) = (words.next(), words.next(), words.next()) else {
        return Err(if text.trim().is_empty() {
            NotationError::Empty
        } else {
            NotationError::PositionLayout
        });
    };
    let to_move = match side.to_ascii_lowercase().as_str() {
        "b" | "black" => Color::Black,
        "w" | "white" => Color::White,
        _ => return Err(NotationError::BadSideToMove(side.to_string())),
    };
    let rows: Vec<&str> = stones.split('/').collect();
    let mut board = Board::new(u32::try_from(rows.len()).unwrap_or(u32::MAX))?;
    for (r, row) in rows.iter().enumerate() {
        let len = row.chars().count();
        if len != rows.len() {
            return Err(NotationError::NotSquare { rows: rows.len(), row: r + 1, len });
        }
        for (c, ch) in row.chars().enumerate() {
            let stone = match ch {
                '.' => None,
                'B' | 'b' => Some(Color::Black),
                'W' | 'w' => Some(Color::White),
                other => return Err(NotationError::BadStone(other)),
            };
            board.set(Cell::new(r as u8, c as u8), stone);
        }
    }
    Ok(Position::from_board(board, to_move))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MAX_SIZE;

    #[test]
    fn every_cell_name_round_trips_on_every_size() {
        for n in 1..=MAX_SIZE {
            for r in 0..n {
                for c in 0..n {
                    let cell = Cell::new(r, c);
                    let name = cell.to_string();
                    assert_eq!(parse_cell(&name, n), Ok(cell));
                    assert_eq!(parse_cell(&name.to_uppercase(), n), Ok(cell));
                }
            }
        }
        assert_eq!(Cell::new(18, 18).to_string(), "s19");
        assert_eq!(Cell::new(9, 0).to_string(), "a10");
    }

    #[test]
    fn bad_names_are_typed_errors() {
        let off = |text: &str, size| NotationError::OffBoard { text: text.into(), size };
        assert_eq!(parse_cell("t1", 19), Err(off("t1", 19)));
        assert_eq!(parse_cell("a20", 19), Err(off("a20", 19)));
        assert_eq!(parse_cell("a99999999999999999999", 19), Err(off("a99999999999999999999", 19)));
        assert_eq!(parse_cell("a1", 0), Err(off("a1", 0)));
        for bad_row in ["a", "a01", "a-1", "a+1", "a1 ", "aa1", "a1b", "a１"] {
            assert_eq!(parse_cell(bad_row, 19), Err(NotationError::BadRow(bad_row.into())), "{bad_row}");
        }
        for bad_col in [" a1", "11", "é1", "-", "\u{0}"] {
            assert_eq!(parse_cell(bad_col, 19), Err(NotationError::BadColumn(bad_col.into())), "{bad_col}");
        }
        assert_eq!(parse_move("", 5), Err(NotationError::Empty));
        assert_eq!(parse_move("swapx", 5), Err(NotationError::BadRow("swapx".into())));
        let message = parse_cell("f1", 5).unwrap_err().to_string();
        assert!(message.contains("5x5"), "{message}");
    }

    #[test]
    fn showboard_of_a_ten_by_ten_keeps_the_rhombus() {
        let pos = Position::new(10).unwrap().play(HexMove::Place(Cell::new(9, 9))).unwrap();
        let text = showboard(&pos);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 12);
        assert_eq!(lines[0], "  a  b  c  d  e  f  g  h  i  j");
        assert_eq!(lines[9], r"         9\.  .  .  .  .  .  .  .  .  .\9");
        assert_eq!(lines[10], r"         10\.  .  .  .  .  .  .  .  .  B\10");
        assert_eq!(lines[11], "             a  b  c  d  e  f  g  h  i  j");
        // The row's opening backslash sits one place further right on each row.
        for (r, line) in lines[1..=10].iter().enumerate() {
            assert_eq!(line.find('\\'), Some(r + 2), "{line}");
        }
    }

    #[test]
    fn position_text_round_trips_and_rejects_bad_boards() {
        let pos = parse_position("  .BW/W../..B   black ").unwrap();
        assert_eq!(position_to_text(&pos), ".BW/W../..B b");
        assert_eq!(pos.board().get(Cell::new(0, 1)), Some(Color::Black));
        assert_eq!(pos.board().get(Cell::new(1, 0)), Some(Color::White));
        assert_eq!(parse_position("bw/.. W").map(|p| position_to_text(&p)), Ok("BW/.. w".to_string()));
        assert_eq!(parse_position(""), Err(NotationError::Empty));
        assert_eq!(parse_position(". b w"), Err(NotationError::PositionLayout));
        assert_eq!(parse_position(".x/.. b"), Err(NotationError::BadStone('x')));
        assert_eq!(parse_position(".../... b"), Err(NotationError::NotSquare { rows: 2, row: 1, len: 3 }));
        assert_eq!(parse_position(" b"), Err(NotationError::PositionLayout));
        assert_eq!(parse_position("/ b"), Err(NotationError::NotSquare { rows: 2, row: 1, len: 0 }));
        let big = vec!["."; 20].join("");
        let big = vec![big.as_str(); 20].join("/");
        assert_eq!(parse_position(&format!("{big} b")), Err(NotationError::BadSize(BadSize(20))));
    }
}
