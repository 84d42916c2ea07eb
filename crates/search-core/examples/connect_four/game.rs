//! Connect Four on bitboards: the rules ([`ConnectFour`] for [`Game`]), a Zobrist hash
//! ([`GameHash`]) and a window-count evaluator ([`Windows`]).
//!
//! The board has 7 columns of 6 rows. Cell `(column, row)` is bit `7 * column + row` of a
//! `u64`, row 0 at the bottom; the seventh bit of each column stays empty, so that shifting a
//! board by 1 (vertical), 7 (horizontal), 6 or 8 (the diagonals) never carries a stone from one
//! column's top into the next column's bottom.
//!
//! The example (`main.rs`), the checker's regression tests and the comparison bench against the
//! `minimax` crate all use this one file.

use std::fmt;
use std::sync::LazyLock;

use search_core::{Evaluator, Game, GameHash, MoveList, Player, ToMove, ZobristKeys};

/// Columns on the board.
pub const COLUMNS: u8 = 7;
/// Rows on the board.
pub const ROWS: u8 = 6;
/// Bits per column: the rows and one empty guard bit.
const HEIGHT: u8 = ROWS + 1;
/// Cells on the board.
pub const CELLS: u8 = COLUMNS * ROWS;

/// The columns in the order moves are generated: the centre first, where most lines pass.
pub const COLUMN_ORDER: [u8; 7] = [3, 2, 4, 1, 5, 0, 6];

/// The bit of cell `(column, row)`.
pub const fn cell(column: u8, row: u8) -> u64 {
    1 << (HEIGHT * column + row)
}

/// The 69 lines of four cells a player can complete, as masks.
const WINDOWS: [u64; 69] = {
    let mut windows = [0u64; 69];
    let mut n = 0;
    // (column step, row step) of the four directions.
    let steps: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut d = 0;
    while d < 4 {
        let (dc, dr) = steps[d];
        let mut column = 0i8;
        while column < COLUMNS as i8 {
            let mut row = 0i8;
            while row < ROWS as i8 {
                let (end_c, end_r) = (column + 3 * dc, row + 3 * dr);
                if end_c >= 0 && end_c < COLUMNS as i8 && end_r >= 0 && end_r < ROWS as i8 {
                    let mut mask = 0;
                    let mut k = 0;
                    while k < 4 {
                        mask |= cell((column + k * dc) as u8, (row + k * dr) as u8);
                        k += 1;
                    }
                    windows[n] = mask;
                    n += 1;
                }
                row += 1;
            }
            column += 1;
        }
        d += 1;
    }
    assert!(n == 69);
    windows
};

/// Whether `stones` hold four in a line.
pub fn has_four(stones: u64) -> bool {
    [1, 7, 6, 8].iter().any(|&shift| {
        let pairs = stones & (stones >> shift);
        pairs & (pairs >> (2 * shift)) != 0
    })
}

/// The Zobrist keys: one per (player, cell). Seeded, so hashes are the same in every run.
static KEYS: LazyLock<ZobristKeys> = LazyLock::new(|| ZobristKeys::new(4, 2 * 64));

/// The key of a stone of `player` on bit `bit`.
fn key(player: Player, bit: u32) -> u64 {
    KEYS.key(usize::from(player) * 64 + bit as usize)
}

/// A position: each player's stones, the number of moves played, whether the last one made four,
/// and the Zobrist hash of the stones (kept up to date move by move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// The stones of player 0 (who moves first) and of player 1.
    pub stones: [u64; 2],
    /// Moves played so far; player `plies % 2` is to move.
    pub plies: u8,
    /// Whether the last move made four in a line.
    pub won: bool,
    /// The XOR of the keys of every stone on the board.
    pub hash: u64,
}

impl Board {
    /// The empty board, player 0 to move.
    pub fn new() -> Self {
        Board::default()
    }

    /// The board after playing `columns` in turn from the empty board.
    ///
    /// # Errors
    /// The first column that is not a legal move: off the board, full, or after the game ended.
    pub fn from_moves(columns: &[u8]) -> Result<Board, String> {
        let mut board = Board::new();
        for (i, &column) in columns.iter().enumerate() {
            if !board.can_play(column) {
                return Err(format!("move {} (column {column}) is not legal", i + 1));
            }
            board = board.after(column);
        }
        Ok(board)
    }

    /// Every stone on the board.
    pub fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// The player to move.
    pub fn to_move(self) -> Player {
        self.plies % 2
    }

    /// Whether a stone can be dropped in `column`: it is on the board, not full, and the game
    /// goes on.
    pub fn can_play(&self, column: u8) -> bool {
        column < COLUMNS && !self.is_over() && self.occupied() & cell(column, ROWS - 1) == 0
    }

    /// Whether the game is over: four in a line, or a full board.
    pub fn is_over(&self) -> bool {
        self.won || self.plies == CELLS
    }

    /// The winner, if the game ended with four in a line (the player who made the last move).
    pub fn winner(&self) -> Option<Player> {
        self.won.then(|| 1 - self.to_move())
    }

    /// The board after the player to move drops a stone in `column`, which must be legal.
    pub fn after(&self, column: u8) -> Board {
        let occupied = self.occupied();
        // Adding the column's bottom bit to its stones carries up to the first empty cell.
        let column_mask = ((1u64 << ROWS) - 1) << (HEIGHT * column);
        let drop = (occupied & column_mask) + cell(column, 0);
        let player = self.to_move();
        let mut next = *self;
        next.stones[usize::from(player)] |= drop;
        next.plies += 1;
        next.won = has_four(next.stones[usize::from(player)]);
        next.hash ^= key(player, drop.trailing_zeros());
        next
    }

    /// The hash computed from the stones alone (what [`Board::hash`] holds when kept right).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for player in 0..2u8 {
            let mut stones = self.stones[usize::from(player)];
            while stones != 0 {
                hash ^= key(player, stones.trailing_zeros());
                stones &= stones - 1;
            }
        }
        hash
    }

    /// The window-count score for `player`: for each line of four holding stones of one player
    /// only, [`WEIGHTS`] of their number, counted for `player` and against the opponent.
    pub fn score(&self, player: Player) -> i32 {
        let (mine, theirs) = (self.stones[usize::from(player)], self.stones[usize::from(1 - player)]);
        let mut score = 0;
        for &window in &WINDOWS {
            let (m, t) = (mine & window, theirs & window);
            if t == 0 {
                score += WEIGHTS[m.count_ones() as usize];
            } else if m == 0 {
                score -= WEIGHTS[t.count_ones() as usize];
            }
        }
        score
    }
}

/// What a line of four is worth to a player with 0, 1, 2 or 3 stones in it and no opposing one.
/// At most 69 · 27 = 1,863 either way, far from a win.
pub const WEIGHTS: [i32; 5] = [0, 1, 4, 27, 0];

/// Rows from the top, `X` for player 0, `O` for player 1, `.` for empty.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..ROWS).rev() {
            let line: String = (0..COLUMNS)
                .map(|column| {
                    let bit = cell(column, row);
                    if self.stones[0] & bit != 0 {
                        'X'
                    } else if self.stones[1] & bit != 0 {
                        'O'
                    } else {
                        '.'
                    }
                })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// One line, rows from the top separated by `/`, so a failing check names the board readably.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.to_string().trim_end().replace('\n', "/");
        write!(f, "Board({rows}, {} to move, hash {:#018x})", self.to_move(), self.hash)
    }
}

/// The rules of Connect Four: drop a stone in a column that is not full; four in a line (across,
/// up or diagonally) wins; a full board with no four is a draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConnectFour;

impl Game for ConnectFour {
    type State = Board;
    /// A column, 0 to 6 from the left.
    type Move = u8;

    fn to_move(&self, board: &Board) -> ToMove {
        if board.is_over() { ToMove::Terminal } else { ToMove::Player(board.to_move()) }
    }

    fn moves(&self, board: &Board, moves: &mut MoveList<u8>) {
        let top = board.occupied();
        moves.extend(COLUMN_ORDER.iter().copied().filter(|&column| top & cell(column, ROWS - 1) == 0));
    }

    fn play(&self, board: &Board, column: u8) -> Board {
        board.after(column)
    }

    // Naming each move by its column turns on the killer and history tables.
    fn move_space(&self) -> usize {
        usize::from(COLUMNS)
    }

    fn move_index(&self, column: u8) -> usize {
        usize::from(column)
    }
}

impl GameHash for ConnectFour {
    /// The stones' Zobrist hash. The player to move follows from the number of stones, so the
    /// stones alone name the position.
    fn hash(&self, board: &Board) -> u64 {
        board.hash
    }
}

/// A win scores `WIN - ply` for the winner (a quicker win scores higher), a loss the negation;
/// the same scale as the `minimax` crate's, so the two crates' values compare directly.
pub const WIN: i32 = 32_768;

/// The window-count evaluator: [`Board::score`] at the search's horizon, `±(WIN − ply)` at a won
/// board, 0 at a drawn one.
#[derive(Clone, Copy, Debug, Default)]
pub struct Windows;

impl Evaluator<ConnectFour> for Windows {
    type Value = i32;

    fn evaluate(&self, _: &ConnectFour, board: &Board, player: Player) -> i32 {
        board.score(player)
    }

    fn terminal(&self, _: &ConnectFour, board: &Board, player: Player, ply: u32) -> i32 {
        match board.winner() {
            Some(winner) if winner == player => WIN - ply as i32,
            Some(_) => -(WIN - ply as i32),
            None => 0,
        }
    }

    // A win or loss lies within 42 plies of `WIN`; window counts stay below 2,000. Iterative
    // deepening stops at such a value.
    fn is_decisive(&self, value: i32) -> bool {
        value.abs() > WIN - 100
    }
}
