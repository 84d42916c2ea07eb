//! What a finished game gives each player: the result type matches ([`crate::arena`]) and Monte
//! Carlo playouts ([`crate::mcts`]) share.

use crate::game::Player;

/// The most players a game may have.
pub const MAX_PLAYERS: usize = 4;

/// The result of a finished game for each player, `0.0` (loss) to `1.0` (win); a two-player draw
/// is `0.5` each ([`draw`]). Entries past the game's players are ignored.
pub type Rewards = [f64; MAX_PLAYERS];

/// The result where `player` wins and everybody else loses.
///
/// # Examples
///
/// ```
/// assert_eq!(search_core::win_for(1), [0.0, 1.0, 0.0, 0.0]);
/// ```
pub fn win_for(player: Player) -> Rewards {
    let mut rewards = [0.0; MAX_PLAYERS];
    rewards[usize::from(player)] = 1.0;
    rewards
}

/// The result of a draw: half a point each.
///
/// # Examples
///
/// ```
/// assert_eq!(search_core::draw()[..2], [0.5, 0.5]);
/// ```
pub fn draw() -> Rewards {
    [0.5; MAX_PLAYERS]
}
