//! Playing whole games: an agent, the rules and a seed in, a record of the game out.

use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::agents::{Agent, Decision};
use crate::board::Board;
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

/// How many directions in a row that change nothing a game tolerates before it decides the agent
/// is stuck (a bug in the agent, reported by a panic).
const MAX_NOOPS: u64 = 100_000;

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
/// The same agent, rules and seed give the same game. A direction that changes nothing (only
/// [`crate::agents::RandomAgent::any_direction`] plays them) spawns nothing and is not a move,
/// unless [`Rules::spawn_after_noop`] asks for the seed program's behaviour. `max_moves` stops a game early (as
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
    let (mut score, mut moves, mut nodes, mut noops) = (0u64, 0u64, 0u64, 0u64);
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
        let (slid, gained) = match board.play(decision.direction) {
            Some(slide) => (slide.board, slide.score),
            // The seed program's loop spawned even after a direction that changed nothing.
            None if rules.spawn_after_noop => (board, 0),
            // The standard rule: a direction that changes nothing is not a move and spawns
            // nothing; the agent is asked again.
            None => {
                noops += 1;
                assert!(noops < MAX_NOOPS, "{} keeps playing directions that change nothing", agent.name());
                continue;
            }
        };
        // A no-op on a full board has nowhere to spawn, and so is no move either.
        let Some(after) = rules.spawn(slid, &mut rng) else { continue };
        noops = 0;
        moves += 1;
        score += u64::from(gained);
        mark_reached(&mut first_reached, after, moves);
        observe(&MoveReport { number: moves, before: board, decision, after, score: gained });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::RandomAgent;

    /// Under the standard rule a direction that changes nothing spawns nothing: the tile count
    /// grows by exactly one per move, whatever the agent tried in between.
    #[test]
    fn no_spawn_after_a_noop() {
        let mut moves_seen = 0;
        let record = play_game(&mut RandomAgent::any_direction(8), &Rules::default(), 4, None, |m| {
            moves_seen += 1;
            assert_ne!(m.before, m.after);
            assert!(m.before.play(m.decision.direction).is_some(), "a no-op was reported as a move");
        });
        assert_eq!(record.moves, moves_seen);
        assert_eq!(record.outcome, Outcome::Lost);
    }

    /// The seed program's loop spawns after a no-op, so its games differ from standard ones.
    #[test]
    fn spawn_after_noop_is_the_seed_programs_rule() {
        let original = Rules { spawn_after_noop: true, ..Rules::default() };
        let mut noop_moves = 0;
        play_game(&mut RandomAgent::any_direction(8), &original, 4, Some(300), |m| {
            if m.before.play(m.decision.direction).is_none() {
                noop_moves += 1;
                assert_eq!(m.after.empty_count() + 1, m.before.empty_count(), "a no-op move spawns one tile");
            }
        });
        assert!(noop_moves > 0);
    }

    #[test]
    fn stop_at_ends_the_game_as_won() {
        let rules = Rules { stop_at: Some(64), ..Rules::default() };
        let record = play_game(
            &mut crate::agents::Greedy::new(crate::heuristics::LineTable::default()),
            &rules,
            1,
            None,
            |_| {},
        );
        assert_eq!(record.outcome, Outcome::Won);
        assert_eq!(record.max_tile, 64);
        assert!(record.reached(64) && !record.reached(128));
        assert_eq!(record.first_reached[6], Some(record.moves));
    }
}
