//! Playing whole games: an agent, the rules and a seed in, a record of the game out.

use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::agents::{Agent, Decision};
use crate::board::{Board, Direction};
use crate::rules::Rules;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A tile of [`Rules::stop_at`] appeared.
    Won,
    /// No move was left.
    Lost,
    /// The only moves left would have merged two 32768 tiles, which a cell cannot hold.
    Overflow,
    /// The move limit given to [`play_game`] was reached.
    MoveLimit,
}

impl Outcome {
    /// `won`, `lost`, `overflow` or `move-limit`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Overflow => "overflow",
            Outcome::MoveLimit => "move-limit",
        }
    }
}

/// One move of a game, as [`play_game`] reports it to its observer.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The move's number, from 1.
    pub number: u64,
    /// The board the agent saw.
    pub before: Board,
    /// The agent's decision.
    pub decision: Decision,
    /// The board after the slide and the spawn.
    pub after: Board,
    /// The merge score of the move.
    pub score: u32,
}

/// The record of a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The seed of the spawns.
    pub seed: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// The sum of the merged tiles' values.
    pub score: u64,
    /// The highest tile.
    pub max_tile: u32,
    /// Moves played.
    pub moves: u64,
    /// Wall time of the whole game, in seconds.
    pub seconds: f64,
    /// Search nodes over all decisions.
    pub nodes: u64,
    /// For each rank `r`, the move after which a tile of 2^r first stood on the board (0 when it
    /// was there from the start), or `None` if it never appeared.
    pub first_reached: [Option<u64>; 16],
    /// The last board.
    pub board: Board,
}

impl GameRecord {
    /// Whether a tile of `value` (a power of two) appeared during the game.
    pub fn reached(&self, value: u32) -> bool {
        value.is_power_of_two()
            && self.first_reached.get(value.trailing_zeros() as usize).is_some_and(Option::is_some)
    }

    /// Moves per second of wall time.
    pub fn moves_per_second(&self) -> f64 {
        if self.seconds > 0.0 { self.moves as f64 / self.seconds } else { 0.0 }
    }
}

/// Plays one game of `agent` from a new board, with spawns drawn from `seed`.
///
/// The same agent, rules and seed give the same game. `max_moves` stops a game early (as
/// [`Outcome::MoveLimit`]); `observe` sees every move (for progress lines or a live board).
///
/// # Examples
///
/// ```
/// use game2048::agents::RandomAgent;
/// use game2048::play::{play_game, Outcome};
/// use game2048::Rules;
///
/// let one = play_game(&mut RandomAgent::new(1), &Rules::default(), 42, None, |_| {});
/// let two = play_game(&mut RandomAgent::new(1), &Rules::default(), 42, None, |_| {});
/// assert_eq!((one.score, one.moves, one.board), (two.score, two.moves, two.board));
/// assert_eq!(one.outcome, Outcome::Lost);
/// assert!(one.board.is_terminal());
/// ```
pub fn play_game<A: Agent + ?Sized>(
    agent: &mut A,
    rules: &Rules,
    seed: u64,
    max_moves: Option<u64>,
    mut observe: impl FnMut(&MoveReport),
) -> GameRecord {
    let start = Instant::now();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut board = rules.new_board(&mut rng);
    let mut first_reached = [None; 16];
    mark_reached(&mut first_reached, board, 0);
    let (mut score, mut moves, mut nodes) = (0u64, 0u64, 0u64);
    let won = |b: Board| rules.stop_at.is_some_and(|target| b.max_tile() >= target);
    let outcome = loop {
        if won(board) {
            break Outcome::Won;
        }
        if board.is_terminal() {
            break if board.is_blocked_by_overflow() { Outcome::Overflow } else { Outcome::Lost };
        }
        if max_moves.is_some_and(|max| moves >= max) {
            break Outcome::MoveLimit;
        }
        let decision = agent.decide(board);
        nodes += decision.stats.nodes;
        let slide = board
            .play(decision.direction)
            .unwrap_or_else(|| panic!("{} played an illegal move", agent.name()));
        let after = rules.spawn(slide.board, &mut rng).expect("a legal move leaves an empty cell");
        moves += 1;
        score += u64::from(slide.score);
        mark_reached(&mut first_reached, after, moves);
        observe(&MoveReport { number: moves, before: board, decision, after, score: slide.score });
        board = after;
    };
    GameRecord {
        seed,
        outcome,
        score,
        max_tile: board.max_tile(),
        moves,
        seconds: start.elapsed().as_secs_f64(),
        nodes,
        first_reached,
        board,
    }
}

fn mark_reached(first: &mut [Option<u64>; 16], board: Board, moves: u64) {
    let present = (0..16).fold(0u32, |seen, cell| seen | (1 << board.rank(cell)));
    for (rank, slot) in first.iter_mut().enumerate().skip(1) {
        if slot.is_none() && present & (1 << rank) != 0 {
            *slot = Some(moves);
        }
    }
}

/// Plays the seed program's random agent's way: any of the four directions, legal or not, with a
/// spawn after every one when `rules.spawn_after_noop` is set (the original program's loop), and
/// no spawn after a no-op otherwise (the standard rule).
///
/// Returns the record; a no-op counts as a move only when it spawned.
///
/// # Examples
///
/// ```
/// use game2048::play::play_any_direction;
/// use game2048::Rules;
///
/// let standard = play_any_direction(&Rules::default(), 5, 7);
/// let original = play_any_direction(&Rules { spawn_after_noop: true, ..Rules::default() }, 5, 7);
/// assert!(standard.board.is_terminal() && original.board.is_terminal());
/// ```
pub fn play_any_direction(rules: &Rules, seed: u64, agent_seed: u64) -> GameRecord {
    use rand::RngExt;
    let start = Instant::now();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut choices = Xoshiro256PlusPlus::seed_from_u64(agent_seed);
    let mut board = rules.new_board(&mut rng);
    let mut first_reached = [None; 16];
    mark_reached(&mut first_reached, board, 0);
    let (mut score, mut moves) = (0u64, 0u64);
    let outcome = loop {
        if rules.stop_at.is_some_and(|target| board.max_tile() >= target) {
            break Outcome::Won;
        }
        if board.is_terminal() {
            break if board.is_blocked_by_overflow() { Outcome::Overflow } else { Outcome::Lost };
        }
        let direction = Direction::ALL[choices.random_range(0..4)];
        let (slid, gained) = match board.play(direction) {
            Some(slide) => (slide.board, slide.score),
            None if rules.spawn_after_noop => (board, 0),
            // The standard rule: a direction that changes nothing is not a move; nothing spawns.
            None => continue,
        };
        // A no-op on a full board has nowhere to spawn, and so is no move either.
        let Some(after) = rules.spawn(slid, &mut rng) else { continue };
        board = after;
        moves += 1;
        score += u64::from(gained);
        mark_reached(&mut first_reached, board, moves);
    };
    GameRecord {
        seed,
        outcome,
        score,
        max_tile: board.max_tile(),
        moves,
        seconds: start.elapsed().as_secs_f64(),
        nodes: 0,
        first_reached,
        board,
    }
}
