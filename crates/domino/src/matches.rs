//! Duplicate-deal matches between two agents of [`DominoGame`] (every player is one): each deal is played twice with the seats
//! swapped, so both sides hold both hands.

use std::fmt;

use crate::game::{DominoGame, rewards};
use crate::players::mix;
use crate::rules::Rules;
use crate::state::{MoveError, State};
use search_core::agent::Agent;

/// The tally of a match, from the first contestant's side.
///
/// # Examples
///
/// ```
/// use domino::matches::MatchResult;
/// let r = MatchResult { games: 10, wins: 6, draws: 2, losses: 2, points: 25 };
/// assert_eq!(r.score(), 0.7);
/// assert_eq!(r.points_per_game(), 2.5);
/// let (lo, hi) = r.interval();
/// assert!(lo < 0.7 && 0.7 < hi);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games played (twice the deals).
    pub games: u32,
    /// Games the first contestant won.
    pub wins: u32,
    /// Drawn games (equal returns).
    pub draws: u32,
    /// Games the first contestant lost.
    pub losses: u32,
    /// The first contestant's total returns.
    pub points: i64,
}

impl MatchResult {
    /// Wins plus half the draws, per game.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games)
    }

    /// The 95% Wilson score interval of [`MatchResult::score`] (a draw counts as half a success).
    pub fn interval(&self) -> (f64, f64) {
        search_core::arena::wilson(self.score() * f64::from(self.games), u64::from(self.games))
    }

    /// The first contestant's mean return per game.
    pub fn points_per_game(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.points as f64 / f64::from(self.games) }
    }
}

impl fmt::Display for MatchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = self.interval();
        let n = f64::from(self.games.max(1));
        write!(
            f,
            "{} games: win {:.3} draw {:.3} loss {:.3}, score {:.3} [{:.3}, {:.3}], {:+.2} pts/game",
            self.games,
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
            self.score(),
            lo,
            hi,
            self.points_per_game()
        )
    }
}

/// Plays `state` to its end with `seats[p]` moving for player `p`, checking every move.
///
/// # Errors
///
/// The first illegal move a contestant returns.
pub fn play_game(seats: [&mut dyn Agent<DominoGame>; 2], mut state: State) -> Result<State, MoveError> {
    let [s0, s1] = seats;
    while !state.is_terminal() {
        let mv = if state.to_move() == 0 {
            s0.choose(&DominoGame, &state)
        } else {
            s1.choose(&DominoGame, &state)
        };
        state.play(mv)?;
    }
    Ok(state)
}

/// The seed of deal `i` of a match seeded with `seed`.
pub fn deal_seed(seed: u64, i: u32) -> u64 {
    mix(seed, u64::from(i))
}

/// Plays `deals` deals under `rules`, each twice (first `a` as player 0, then `b` as player 0
/// with the same hands), and tallies the games from `a`'s side. Deal `i` is
/// [`State::deal`]`(rules, `[`deal_seed`]`(seed, i))`, so a match is deterministic for a seed
/// and fresh contestants.
///
/// # Panics
///
/// Panics if a contestant returns an illegal move.
///
/// # Examples
///
/// ```
/// use domino::matches::play_match;
/// use domino::players::{Greedy, RandomPlayer};
/// use domino::Rules;
/// let r = play_match(&mut Greedy, &mut RandomPlayer::new(3), Rules::block(), 10, 1);
/// assert_eq!(r.games, 20);
/// assert_eq!(r.wins + r.draws + r.losses, 20);
/// ```
pub fn play_match(
    a: &mut dyn Agent<DominoGame>,
    b: &mut dyn Agent<DominoGame>,
    rules: Rules,
    deals: u32,
    seed: u64,
) -> MatchResult {
    // The arena plays the pairs (seats swapped on each deal) and checks every move; the deal
    // seeds are this module's, so a match is the one it has always been for a seed.
    let deals: Vec<State> = (0..deals).map(|i| State::deal(rules, deal_seed(seed, i))).collect();
    let played = search_core::arena::play_match(
        &DominoGame,
        &deals,
        a,
        b,
        &search_core::arena::MatchConfig::default(),
        rewards,
    );
    let mut result = MatchResult::default();
    for game in &played.games {
        let r = game.last.returns()[usize::from(game.seat_a.0)];
        result.games += 1;
        result.points += i64::from(r);
        match r.cmp(&0) {
            std::cmp::Ordering::Greater => result.wins += 1,
            std::cmp::Ordering::Equal => result.draws += 1,
            std::cmp::Ordering::Less => result.losses += 1,
        }
    }
    result
}
