//! The rules as a game `search-core` can search: whose turn it is, the slides, and the spawns,
//! either as chance (the real game) or as an adversary (the seed's minimax model).

use rand::{Rng, RngExt};
use search_core::{Game, GameHash, MoveList, OutcomeList, ToMove};

use crate::board::{Board, Direction};

/// The rule settings of a game.
///
/// # Examples
///
/// ```
/// use game2048::Rules;
///
/// assert_eq!(Rules::default().four_probability, 0.1);
/// assert_eq!(Rules::default().stop_at, None);
/// assert_eq!(Rules::seed().stop_at, Some(2048));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// The probability that a spawned tile is a 4 rather than a 2 (standard: 0.1).
    pub four_probability: f64,
    /// Stop the game as won when a tile of this value appears (the seed document stops at 2048);
    /// `None` plays on until no move is left.
    pub stop_at: Option<u32>,
    /// Spawn a tile even after a direction that changes nothing. Not the standard rule: the seed
    /// program did it (it matters only for an agent that plays no-ops, like its random agent).
    pub spawn_after_noop: bool,
}

impl Default for Rules {
    /// The standard game: 10% fours, play on past 2048, no spawn after a no-op.
    fn default() -> Self {
        Rules { four_probability: 0.1, stop_at: None, spawn_after_noop: false }
    }
}

impl Rules {
    /// The seed document's protocol: standard spawns, and a game is won and over when a 2048
    /// appears.
    pub fn seed() -> Self {
        Rules { stop_at: Some(2048), ..Rules::default() }
    }

    /// `board` with one tile spawned on a uniformly chosen empty cell (a 4 with
    /// `four_probability`, else a 2), or `None` if no cell is empty.
    ///
    /// The value is drawn first, then the cell, so a seeded RNG gives the same game everywhere.
    pub fn spawn<R: Rng + ?Sized>(&self, board: Board, rng: &mut R) -> Option<Board> {
        let empty = board.empty_mask();
        if empty == 0 {
            return None;
        }
        let rank = if rng.random_bool(self.four_probability.clamp(0.0, 1.0)) { 2 } else { 1 };
        let k = rng.random_range(0..empty.count_ones());
        let cell = nth_set_bit(empty, k);
        Some(board.with_rank(cell, rank))
    }

    /// A new game's board: two tiles spawned on the empty board.
    ///
    /// # Examples
    ///
    /// ```
    /// use game2048::Rules;
    /// use rand::SeedableRng;
    /// use rand_xoshiro::Xoshiro256PlusPlus;
    ///
    /// let board = Rules::default().new_board(&mut Xoshiro256PlusPlus::seed_from_u64(1));
    /// assert_eq!(board.empty_count(), 14);
    /// assert_eq!(board, Rules::default().new_board(&mut Xoshiro256PlusPlus::seed_from_u64(1)));
    /// ```
    pub fn new_board<R: Rng + ?Sized>(&self, rng: &mut R) -> Board {
        let one = self.spawn(Board::EMPTY, rng).expect("the empty board has room");
        self.spawn(one, rng).expect("a board with one tile has room")
    }
}

/// The index of the `k`-th set bit of `mask` (k = 0 for the lowest).
fn nth_set_bit(mut mask: u16, k: u32) -> usize {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

/// Whose turn it is in a [`Position`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The player slides.
    Slide,
    /// A tile spawns (chance, or the adversary in the seed's minimax model).
    Spawn,
}

/// A state for the searches: a board and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The tiles.
    pub board: Board,
    /// Whose turn it is.
    pub turn: Turn,
}

impl Position {
    /// The player to slide on `board`.
    pub fn slide(board: Board) -> Self {
        Position { board, turn: Turn::Slide }
    }
}

/// A move in the search: a slide, or a tile placed on an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The player slides this way.
    Slide(Direction),
    /// A tile of `rank` (1: a 2, 2: a 4) appears on `cell`.
    Spawn {
        /// The cell, `4·row + col`.
        cell: u8,
        /// The tile's rank.
        rank: u8,
    },
}

/// How the searches see the spawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spawns {
    /// Chance nodes: each (cell, 2) with probability `(1 − p4)/n` and each (cell, 4) with
    /// `p4/n` for `n` empty cells. The real game.
    Chance,
    /// An adversary (player 1) who places a 2 or a 4 on any empty cell to hurt most, ignoring
    /// the probabilities: the seed document's minimax model.
    Adversary,
}

/// 2048 as a [`search_core::Game`]: the player (player 0) slides, then the spawn happens as
/// [`Spawns`] says.
///
/// A slide turn with no legal move is terminal. Spawns are listed by cell, then value (a 2 before
/// a 4), the order in which the seed program's minimax tried them.
///
/// # Examples
///
/// ```
/// use game2048::{Action, Board, Direction, Game2048, Position};
/// use search_core::{Game, MoveList, OutcomeList, ToMove};
///
/// let game = Game2048::chance(0.1);
/// let start = Position::slide("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse::<Board>().unwrap());
/// let mut moves = MoveList::new();
/// game.moves(&start, &mut moves);
/// assert_eq!(moves.len(), 4);
/// let after = game.play(&start, Action::Slide(Direction::Left));
/// assert_eq!(game.to_move(&after), ToMove::Chance);
/// let mut outcomes = OutcomeList::new();
/// game.outcomes(&after, &mut outcomes);
/// assert_eq!(outcomes.len(), 2 * 14);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game2048 {
    /// The probability of a 4 at a chance spawn.
    pub four_probability: f64,
    /// Chance or adversary.
    pub spawns: Spawns,
}

impl Game2048 {
    /// The real game: spawns are chance with a 4 of probability `four_probability`.
    pub fn chance(four_probability: f64) -> Self {
        Game2048 { four_probability, spawns: Spawns::Chance }
    }

    /// The seed's minimax model: spawns are an adversary's choice.
    pub fn adversary() -> Self {
        Game2048 { four_probability: 0.1, spawns: Spawns::Adversary }
    }
}

impl Game2048 {
    /// The probability of each spawn of a 2 and of a 4 on `board`'s empty cells (infinite for
    /// a full board, which has no spawn).
    pub(crate) fn spawn_probabilities(&self, board: Board) -> (f64, f64) {
        let n = f64::from(board.empty_mask().count_ones());
        ((1.0 - self.four_probability) / n, self.four_probability / n)
    }
}

impl Game for Game2048 {
    type State = Position;
    type Move = Action;

    // Asked at every node of a search, most of them leaves: always inlined.
    #[inline(always)]
    fn to_move(&self, position: &Position) -> ToMove {
        match position.turn {
            Turn::Slide if position.board.is_terminal() => ToMove::Terminal,
            Turn::Slide => ToMove::Player(0),
            Turn::Spawn if !position.board.has_empty() => ToMove::Terminal,
            Turn::Spawn => match self.spawns {
                Spawns::Chance => ToMove::Chance,
                Spawns::Adversary => ToMove::Player(1),
            },
        }
    }

    fn moves(&self, position: &Position, moves: &mut MoveList<Action>) {
        match position.turn {
            Turn::Slide => moves.extend(position.board.legal_moves().map(Action::Slide)),
            Turn::Spawn => {
                let mut empty = position.board.empty_mask();
                while empty != 0 {
                    let cell = empty.trailing_zeros() as u8;
                    empty &= empty - 1;
                    moves.push(Action::Spawn { cell, rank: 1 });
                    moves.push(Action::Spawn { cell, rank: 2 });
                }
            }
        }
    }

    fn outcomes(&self, position: &Position, outcomes: &mut OutcomeList<Action>) {
        // One list of spawns for both: setting a tile costs less than a second copy of the loop.
        self.chance_successors(position, |spawn, q, _| outcomes.push((spawn, q)));
    }

    fn chance_successors(&self, position: &Position, mut visit: impl FnMut(Action, f64, Position)) {
        // By cell, then a 2 before a 4; an outcome of probability 0 (no 4s) is left out.
        let mut empty = position.board.empty_mask();
        let (two, four) = self.spawn_probabilities(position.board);
        while empty != 0 {
            let cell = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            for (rank, q) in [(1, two), (2, four)] {
                if q > 0.0 {
                    let board = position.board.with_rank(usize::from(cell), rank);
                    visit(Action::Spawn { cell, rank }, q, Position { board, turn: Turn::Slide });
                }
            }
        }
    }

    fn play(&self, position: &Position, action: Action) -> Position {
        match action {
            Action::Slide(direction) => {
                let board = position.board.slide(direction).map_or(position.board, |s| s.board);
                Position { board, turn: Turn::Spawn }
            }
            Action::Spawn { cell, rank } => {
                Position { board: position.board.with_rank(cell as usize, rank), turn: Turn::Slide }
            }
        }
    }

    fn successors(&self, position: &Position, mut visit: impl FnMut(Action, Position)) {
        match position.turn {
            // A slide is legal when it changes the board: finding the legal ones computes them.
            Turn::Slide => {
                for (d, after) in Direction::ALL.into_iter().zip(position.board.afters()) {
                    if let Some(board) = after {
                        visit(Action::Slide(d), Position { board, turn: Turn::Spawn });
                    }
                }
            }
            Turn::Spawn => {
                let mut moves = MoveList::new();
                self.moves(position, &mut moves);
                for mv in moves {
                    visit(mv, self.play(position, mv));
                }
            }
        }
    }

    fn move_space(&self) -> usize {
        4 + 32
    }

    fn move_index(&self, action: Action) -> usize {
        match action {
            Action::Slide(direction) => direction.index(),
            Action::Spawn { cell, rank } => 4 + 2 * cell as usize + (rank as usize - 1).min(1),
        }
    }
}

impl GameHash for Game2048 {
    fn hash(&self, position: &Position) -> u64 {
        // A 64-bit finaliser (MurmurHash3's) so that the low bits, which pick the table slot,
        // depend on every cell.
        let mut h =
            position.board.raw() ^ if position.turn == Turn::Spawn { 0x5555_5555_5555_5555 } else { 0 };
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn outcome_probabilities() {
        let game = Game2048::chance(0.1);
        let board: Board = "2 4 8 16/32 64 128 256/2 4 8 16/0 0 0 2".parse().unwrap();
        let mut outcomes = OutcomeList::new();
        game.outcomes(&Position { board, turn: Turn::Spawn }, &mut outcomes);
        assert_eq!(outcomes.len(), 6);
        assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((outcomes[0].1 - 0.3).abs() < 1e-12 && (outcomes[1].1 - 0.1 / 3.0).abs() < 1e-12);
        // Without fours only 2s spawn.
        let mut outcomes = OutcomeList::new();
        Game2048::chance(0.0).outcomes(&Position { board, turn: Turn::Spawn }, &mut outcomes);
        assert_eq!(outcomes.len(), 3);
    }

    #[test]
    fn adversary_lists_cells_then_values() {
        let board: Board = "2 4 8 16/32 64 128 256/2 4 8 16/0 0 4 2".parse().unwrap();
        let position = Position { board, turn: Turn::Spawn };
        let game = Game2048::adversary();
        assert_eq!(game.to_move(&position), ToMove::Player(1));
        let mut moves = MoveList::new();
        game.moves(&position, &mut moves);
        assert_eq!(
            moves.as_slice(),
            &[
                Action::Spawn { cell: 12, rank: 1 },
                Action::Spawn { cell: 12, rank: 2 },
                Action::Spawn { cell: 13, rank: 1 },
                Action::Spawn { cell: 13, rank: 2 }
            ]
        );
    }

    #[test]
    fn spawns_are_seeded_and_uniform_enough() {
        let rules = Rules::default();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut fours = 0;
        let mut cells = [0u32; 16];
        for _ in 0..20_000 {
            let b = rules.spawn(Board::EMPTY, &mut rng).unwrap();
            let cell = (0..16).find(|&c| b.rank(c) != 0).unwrap();
            cells[cell] += 1;
            fours += u32::from(b.rank(cell) == 2);
        }
        assert!((1_700..2_300).contains(&fours), "{fours} fours in 20,000 spawns");
        assert!(cells.iter().all(|&n| (1_000..1_500).contains(&n)), "{cells:?}");
        assert_eq!(rules.spawn("2 2 2 2/2 2 2 2/2 2 2 2/2 2 2 2".parse().unwrap(), &mut rng), None);
    }

    #[test]
    fn terminal_positions() {
        let game = Game2048::chance(0.1);
        let full: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
        assert_eq!(game.to_move(&Position::slide(full)), ToMove::Terminal);
        assert_eq!(game.to_move(&Position { board: full, turn: Turn::Spawn }), ToMove::Terminal);
        assert_eq!(game.to_move(&Position::slide(Board::EMPTY)), ToMove::Terminal);
    }

    #[test]
    fn fast_terminal_test_matches_the_moves() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..20_000 {
            let ranks: [u8; 16] =
                std::array::from_fn(|_| rng.random_range(0..4u8) * rng.random_range(0..2u8));
            let board = Board::from_ranks(ranks);
            assert_eq!(board.is_terminal(), board.legal_moves().next().is_none(), "{board}");
            let full = Board::from_ranks(std::array::from_fn(|_| rng.random_range(1..5u8)));
            assert_eq!(full.is_terminal(), full.legal_moves().next().is_none(), "{full}");
        }
    }
}
