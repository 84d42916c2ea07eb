//! Text notation: boards as `2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2`, directions as `up`, `down`, `left`,
//! `right`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::board::{Board, Direction, MAX_RANK};

/// Why a board's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// The text does not have four rows separated by `/`.
    #[error("a board has 4 rows separated by '/', found {0}")]
    RowCount(usize),
    /// A row does not have four cells.
    #[error("row {row} has {count} cells, not 4")]
    CellCount {
        /// The row (0 on top).
        row: usize,
        /// How many cells it had.
        count: usize,
    },
    /// A cell is not a number.
    #[error("row {row}, column {col}: '{text}' is not a number")]
    NotANumber {
        /// The row.
        row: usize,
        /// The column.
        col: usize,
        /// What was there.
        text: String,
    },
    /// A cell is neither 0 nor a power of two from 2 up.
    #[error("row {row}, column {col}: {value} is not a tile (0 or a power of two from 2)")]
    NotATile {
        /// The row.
        row: usize,
        /// The column.
        col: usize,
        /// The value given.
        value: u64,
    },
    /// A tile above 32768 does not fit in a cell.
    #[error("row {row}, column {col}: {value} is larger than 32768, the largest tile a cell holds")]
    TooLarge {
        /// The row.
        row: usize,
        /// The column.
        col: usize,
        /// The value given.
        value: u64,
    },
}

/// The tile value as a rank, or why it is not one.
fn rank_of(value: u64, row: usize, col: usize) -> Result<u8, ParseBoardError> {
    if value == 0 {
        return Ok(0);
    }
    if value < 2 || !value.is_power_of_two() {
        return Err(ParseBoardError::NotATile { row, col, value });
    }
    let rank = value.trailing_zeros();
    if rank > u32::from(MAX_RANK) {
        return Err(ParseBoardError::TooLarge { row, col, value });
    }
    Ok(rank as u8)
}

impl Board {
    /// The board with these tile values (row-major, 0 for empty), checked like parsed text.
    ///
    /// # Examples
    ///
    /// ```
    /// use game2048::Board;
    ///
    /// let mut values = [0; 16];
    /// values[5] = 8;
    /// assert_eq!(Board::from_values(values).unwrap().value(5), 8);
    /// values[0] = 3;
    /// assert!(Board::from_values(values).is_err());
    /// ```
    pub fn from_values(values: [u64; 16]) -> Result<Board, ParseBoardError> {
        let mut ranks = [0u8; 16];
        for (cell, &value) in values.iter().enumerate() {
            ranks[cell] = rank_of(value, cell / 4, cell % 4)?;
        }
        Ok(Board::from_ranks(ranks))
    }
}

/// Reads `r0/r1/r2/r3`, each row four tile values separated by spaces, row 0 on top.
impl FromStr for Board {
    type Err = ParseBoardError;

    fn from_str(text: &str) -> Result<Board, ParseBoardError> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != 4 {
            return Err(ParseBoardError::RowCount(rows.len()));
        }
        let mut ranks = [0u8; 16];
        for (row, line) in rows.iter().enumerate() {
            let cells: Vec<&str> = line.split_whitespace().collect();
            if cells.len() != 4 {
                return Err(ParseBoardError::CellCount { row, count: cells.len() });
            }
            for (col, cell) in cells.iter().enumerate() {
                let value: u64 = cell.parse().map_err(|_| ParseBoardError::NotANumber {
                    row,
                    col,
                    text: (*cell).to_string(),
                })?;
                ranks[4 * row + col] = rank_of(value, row, col)?;
            }
        }
        Ok(Board::from_ranks(ranks))
    }
}

/// Writes the notation [`Board::from_str`] reads.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..4 {
            if row > 0 {
                f.write_str("/")?;
            }
            for col in 0..4 {
                if col > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{}", self.value(4 * row + col))?;
            }
        }
        Ok(())
    }
}

impl Board {
    /// The board as a grid for a terminal, one row a line, columns right-aligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use game2048::Board;
    ///
    /// let board: Board = "2 0 0 4/0 0 0 0/0 2048 0 0/0 0 0 2".parse().unwrap();
    /// assert_eq!(board.grid().lines().nth(2).unwrap(), "    .  2048     .     .");
    /// ```
    pub fn grid(self) -> String {
        let mut out = String::new();
        for row in 0..4 {
            let cells: Vec<String> = (0..4)
                .map(|col| match self.value(4 * row + col) {
                    0 => format!("{:>5}", "."),
                    v => format!("{v:>5}"),
                })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }
}

/// A direction name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{0}' is not a direction (up, down, left or right)")]
pub struct ParseDirectionError(pub String);

/// Reads `up`, `down`, `left` or `right` (any case, or their first letter).
impl FromStr for Direction {
    type Err = ParseDirectionError;

    fn from_str(text: &str) -> Result<Direction, ParseDirectionError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "up" | "u" => Ok(Direction::Up),
            "down" | "d" => Ok(Direction::Down),
            "left" | "l" => Ok(Direction::Left),
            "right" | "r" => Ok(Direction::Right),
            _ => Err(ParseDirectionError(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text = "2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 32768";
        let board: Board = text.parse().unwrap();
        assert_eq!(board.to_string(), text);
        assert_eq!(board.rank(15), 15);
        // Extra spaces are fine.
        assert_eq!("  2 0 0 4 / 0 0 0 0/0 8 0 0/0 0 0 32768 ".parse::<Board>().unwrap(), board);
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!("2 0 0 4/0 0 0 0/0 8 0 0".parse::<Board>(), Err(ParseBoardError::RowCount(3)));
        assert_eq!(
            "2 0 0/0 0 0 0/0 8 0 0/0 0 0 2".parse::<Board>(),
            Err(ParseBoardError::CellCount { row: 0, count: 3 })
        );
        assert_eq!(
            "2 0 0 4/0 x 0 0/0 8 0 0/0 0 0 2".parse::<Board>(),
            Err(ParseBoardError::NotANumber { row: 1, col: 1, text: "x".into() })
        );
        assert_eq!(
            "2 0 0 4/0 0 0 0/0 6 0 0/0 0 0 2".parse::<Board>(),
            Err(ParseBoardError::NotATile { row: 2, col: 1, value: 6 })
        );
        assert_eq!(
            "1 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2".parse::<Board>(),
            Err(ParseBoardError::NotATile { row: 0, col: 0, value: 1 })
        );
        assert_eq!(
            "2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 65536".parse::<Board>(),
            Err(ParseBoardError::TooLarge { row: 3, col: 3, value: 65536 })
        );
        assert!("-2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2".parse::<Board>().is_err());
    }

    #[test]
    fn directions() {
        for d in Direction::ALL {
            assert_eq!(d.name().parse::<Direction>(), Ok(d));
            assert_eq!(d.to_string().to_uppercase().parse::<Direction>(), Ok(d));
        }
        assert_eq!("L".parse::<Direction>(), Ok(Direction::Left));
        assert_eq!("north".parse::<Direction>(), Err(ParseDirectionError("north".into())));
    }
}
