//! What one player may know about a game: [`PlayerView`].

use crate::state::{Player, Record, State};
use crate::tiles::TileSet;

/// The part of a [`State`] that `player` may see: its own hand, the line and its ends, the public
/// history (who played what, who drew, who passed — never which tile was drawn), the opponent's
/// hand size, the boneyard size, and the pip values the opponent is known to lack.
///
/// The view holds no reference to the state and no field with the opponent's tiles, so an agent
/// given a view cannot see them.
///
/// # Examples
///
/// ```
/// use domino::{Rules, State};
/// let s = State::deal(Rules::block(), 3);
/// let v = s.view(1);
/// assert_eq!(v.hand(), s.hand(1));
/// assert_eq!(v.opponent_hand_len(), 7);
/// assert_eq!(v.unknown().len(), 21);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    player: Player,
    hand: TileSet,
    played: TileSet,
    ends: Option<(u8, u8)>,
    to_move: Player,
    terminal: bool,
    opponent_hand_len: u32,
    boneyard_len: usize,
    opponent_lacks: u8,
    history: Vec<Record>,
}

impl State {
    /// What `player` may know of this state.
    pub fn view(&self, player: Player) -> PlayerView {
        let opp = 1 - player;
        PlayerView {
            player,
            hand: self.hand(player),
            played: self.played(),
            ends: self.ends(),
            to_move: self.to_move(),
            terminal: self.is_terminal(),
            opponent_hand_len: self.hand(opp).len(),
            boneyard_len: self.boneyard_len(),
            opponent_lacks: self.lacks(opp),
            history: self.history().to_vec(),
        }
    }
}

impl PlayerView {
    /// The player whose view this is.
    pub fn player(&self) -> Player {
        self.player
    }

    /// The player's own hand.
    pub fn hand(&self) -> TileSet {
        self.hand
    }

    /// The tiles on the table.
    pub fn played(&self) -> TileSet {
        self.played
    }

    /// The open ends, sorted; `None` before the opening.
    pub fn ends(&self) -> Option<(u8, u8)> {
        self.ends
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.terminal
    }

    /// Number of tiles in the opponent's hand.
    pub fn opponent_hand_len(&self) -> u32 {
        self.opponent_hand_len
    }

    /// Number of tiles left to draw (0 in the Block variant).
    pub fn boneyard_len(&self) -> usize {
        self.boneyard_len
    }

    /// The 7-bit mask of pip values the opponent is known to lack.
    pub fn opponent_lacks(&self) -> u8 {
        self.opponent_lacks
    }

    /// The public history.
    pub fn history(&self) -> &[Record] {
        &self.history
    }

    /// The tiles played by `player`, in order, with the end each covered.
    pub fn plays_by(&self, player: Player) -> impl Iterator<Item = crate::Move> + '_ {
        self.history
            .iter()
            .filter(move |r| r.player == player && matches!(r.mv, crate::Move::Play { .. }))
            .map(|r| r.mv)
    }

    /// The tiles neither in this player's hand nor on the table: the opponent's hand plus the
    /// boneyard or dead tiles.
    pub fn unknown(&self) -> TileSet {
        (self.hand | self.played).complement()
    }

    /// The unknown tiles the opponent may hold: those showing no pip value it is known to lack.
    pub fn opponent_candidates(&self) -> TileSet {
        self.unknown() & TileSet::of_suits(self.opponent_lacks).complement()
    }
}
