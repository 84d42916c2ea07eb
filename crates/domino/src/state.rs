//! The full game state (both hands, the line, the boneyard), moves and their notation, and the
//! turn rules of both variants.

use std::fmt;
use std::str::FromStr;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

use crate::rules::{Lead, Rules, Variant};
use crate::tiles::{ParseTileError, SUIT, Tile, TileSet};

/// A player: 0 or 1.
pub type Player = u8;

/// One move.
///
/// A play is canonical as in OpenSpiel: `end` is the pip value of the open end covered (`None`
/// for the opening tile), so equal ends give one move per tile, and (3,5) on ends `[3, 5]` gives
/// two. Notation: `3-5@3` (cover the 3), `3-5` (opening), `draw`, `pass`.
///
/// # Examples
///
/// ```
/// use domino::{Move, Tile};
/// let m: Move = "5-3@5".parse().unwrap();
/// assert_eq!(m, Move::Play { tile: Tile::new(3, 5), end: Some(5) });
/// assert_eq!(m.to_string(), "3-5@5");
/// assert_eq!("draw".parse::<Move>().unwrap(), Move::Draw);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place `tile` on the open end of value `end` (`None` for the opening tile).
    Play {
        /// The tile played.
        tile: Tile,
        /// The pip value of the open end covered; `None` for the opening.
        end: Option<u8>,
    },
    /// Draw one tile from the boneyard (Draw variant, no playable tile).
    Draw,
    /// Pass (no playable tile and nothing to draw).
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play { tile, end: None } => write!(f, "{tile}"),
            Move::Play { tile, end: Some(e) } => write!(f, "{tile}@{e}"),
            Move::Draw => f.write_str("draw"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move could not be read from text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The tile part is not a tile.
    #[error("bad tile in move: {0}")]
    Tile(#[from] ParseTileError),
    /// The end after `@` is not a pip value from 0 to 6.
    #[error("end `{0}` is not a pip value from 0 to 6")]
    End(String),
    /// The end after `@` is not a pip of the tile.
    #[error("tile {tile} cannot cover an end of {end}")]
    EndNotOnTile {
        /// The tile.
        tile: Tile,
        /// The end value given.
        end: u8,
    },
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let s = s.trim();
        match s {
            "draw" => return Ok(Move::Draw),
            "pass" => return Ok(Move::Pass),
            _ => {}
        }
        match s.split_once('@') {
            None => Ok(Move::Play { tile: s.parse()?, end: None }),
            Some((t, e)) => {
                let tile: Tile = t.parse()?;
                let end = match e.parse::<u8>() {
                    Ok(v) if v <= 6 => v,
                    _ => return Err(ParseMoveError::End(e.to_string())),
                };
                if !tile.has(end) {
                    return Err(ParseMoveError::EndNotOnTile { tile, end });
                }
                Ok(Move::Play { tile, end: Some(end) })
            }
        }
    }
}

/// One entry of the public history: who did what, and the open ends before it.
///
/// In the Block variant a pass is implicit (OpenSpiel has no pass action); the state records it
/// as a [`Move::Pass`] entry for the player who was skipped. A draw does not reveal the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// The player who moved (or passed).
    pub player: Player,
    /// The move.
    pub mv: Move,
    /// The open ends before the move (`None` before the opening).
    pub ends_before: Option<(u8, u8)>,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` emptied its hand.
    Domino {
        /// The player who went out.
        winner: Player,
    },
    /// Neither side can move.
    Blocked,
}

/// Why a deal given by the caller was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DealError {
    /// A hand does not hold `hand_size` tiles.
    #[error("hand {player} holds {len} tiles, the rules deal {expected}")]
    HandSize {
        /// The player.
        player: Player,
        /// Its number of tiles.
        len: u32,
        /// The rules' hand size.
        expected: u8,
    },
    /// The hands and the boneyard do not partition the 28 tiles.
    #[error("the hands and the boneyard must hold each of the 28 tiles exactly once")]
    NotAPartition,
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The move is not in the legal set of the side to move.
    #[error("{mv} is not legal for player {player}")]
    Illegal {
        /// The move refused.
        mv: Move,
        /// The side to move.
        player: Player,
    },
}

/// The complete state of one game: both hands, the line, the boneyard (Draw) or the dead tiles
/// (Block), the open ends, the side to move and the history.
///
/// # Examples
///
/// ```
/// use domino::{Rules, State};
/// let mut s = State::deal(Rules::block(), 7);
/// while !s.is_terminal() {
///     let mv = s.legal_moves()[0];
///     s.play(mv).unwrap();
/// }
/// let r = s.returns();
/// assert_eq!(r[0], -r[1]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    rules: Rules,
    hands: [TileSet; 2],
    played: TileSet,
    /// Draw variant: the boneyard, the next tile drawn last; Block: empty.
    boneyard: Vec<Tile>,
    /// Block variant: the tiles out of play; Draw: empty.
    dead: TileSet,
    ends: Option<(u8, u8)>,
    to_move: Player,
    outcome: Option<Outcome>,
    consecutive_passes: u8,
    lacks: [u8; 2],
    history: Vec<Record>,
}

impl State {
    /// Deals a new game with a seeded shuffle: the first `hand_size` tiles of the shuffled set go
    /// to player 0, the next to player 1, and the rest form the boneyard (or the dead tiles).
    pub fn deal(rules: Rules, seed: u64) -> State {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut tiles: Vec<Tile> = Tile::all().collect();
        for i in (1..tiles.len()).rev() {
            let j = rng.random_range(0..=i);
            tiles.swap(i, j);
        }
        let n = rules.hand_size as usize;
        let h0 = tiles[..n].iter().copied().collect();
        let h1 = tiles[n..2 * n].iter().copied().collect();
        State::from_hands(rules, [h0, h1], &tiles[2 * n..]).expect("a shuffle is a partition")
    }

    /// A game from given hands and the undealt tiles; in the Draw variant `boneyard[0]` is drawn
    /// first.
    pub fn from_hands(rules: Rules, hands: [TileSet; 2], boneyard: &[Tile]) -> Result<State, DealError> {
        for (p, h) in hands.iter().enumerate() {
            if h.len() != u32::from(rules.hand_size) {
                return Err(DealError::HandSize {
                    player: p as Player,
                    len: h.len(),
                    expected: rules.hand_size,
                });
            }
        }
        let stock: TileSet = boneyard.iter().copied().collect();
        if hands[0].0 & hands[1].0 != 0
            || (hands[0] | hands[1]).0 & stock.0 != 0
            || stock.len() as usize != boneyard.len()
            || (hands[0] | hands[1] | stock) != TileSet::ALL
        {
            return Err(DealError::NotAPartition);
        }
        let (boneyard, dead) = match rules.variant {
            Variant::Draw => (boneyard.iter().rev().copied().collect(), TileSet::EMPTY),
            Variant::Block => (Vec::new(), stock),
        };
        let to_move = match rules.lead {
            Lead::Player0AnyTile => 0,
            Lead::HighestDouble => leader(hands),
        };
        let state = State {
            rules,
            hands,
            played: TileSet::EMPTY,
            boneyard,
            dead,
            ends: None,
            to_move,
            outcome: None,
            consecutive_passes: 0,
            lacks: [0; 2],
            history: Vec::new(),
        };
        state.check_partition();
        Ok(state)
    }

    /// The rules of this game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The hand of `player`.
    pub fn hand(&self, player: Player) -> TileSet {
        self.hands[player as usize]
    }

    /// The tiles on the table.
    pub fn played(&self) -> TileSet {
        self.played
    }

    /// The boneyard (Draw) as a set; empty in the Block variant.
    pub fn boneyard(&self) -> TileSet {
        self.boneyard.iter().copied().collect()
    }

    /// Number of tiles left to draw (0 in the Block variant).
    pub fn boneyard_len(&self) -> usize {
        self.boneyard.len()
    }

    /// The tiles out of play (Block); empty in the Draw variant.
    pub fn dead(&self) -> TileSet {
        self.dead
    }

    /// The two open end values, sorted; `None` before the opening.
    pub fn ends(&self) -> Option<(u8, u8)> {
        self.ends
    }

    /// The side to move (meaningless once the game is over).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.outcome.is_some()
    }

    /// The public history, in order.
    pub fn history(&self) -> &[Record] {
        &self.history
    }

    /// The 7-bit mask of pip values `player` is known to lack, learned from its passes and draws.
    ///
    /// A pass at ends (a, b) adds a and b. A draw forgets everything (the drawn tile is unseen);
    /// the play that ends a run of draws at ends (a, b) shows that the hand left lacks a and b.
    pub fn lacks(&self, player: Player) -> u8 {
        self.lacks[player as usize]
    }

    /// The tiles of `hand` that can be played on the current ends (all of them before the opening).
    pub fn playable(&self, hand: TileSet) -> TileSet {
        match self.ends {
            None => hand,
            Some((a, b)) => hand & (SUIT[a as usize] | SUIT[b as usize]),
        }
    }

    /// Appends the plays of `player`'s tiles in OpenSpiel action order (tile id, then end
    /// `None`, 0, …, 6).
    fn push_plays(&self, player: Player, out: &mut Vec<Move>) {
        let hand = self.hands[player as usize];
        match self.ends {
            None => out.extend(hand.iter().map(|tile| Move::Play { tile, end: None })),
            Some((a, b)) => {
                for tile in self.playable(hand) {
                    let (x, y) = (tile.low(), tile.high());
                    if x == a || x == b {
                        out.push(Move::Play { tile, end: Some(x) });
                    }
                    if x != y && (y == a || y == b) {
                        out.push(Move::Play { tile, end: Some(y) });
                    }
                }
            }
        }
    }

    /// Fills `out` (cleared first) with the legal moves of the side to move: its plays in
    /// OpenSpiel order, else `draw` while the boneyard has tiles (Draw variant), else `pass`.
    /// Empty once the game is over.
    pub fn moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_terminal() {
            return;
        }
        self.push_plays(self.to_move, out);
        if out.is_empty() {
            out.push(if self.boneyard.is_empty() { Move::Pass } else { Move::Draw });
        }
    }

    /// The legal moves of the side to move (see [`State::moves_into`]).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.moves_into(&mut out);
        out
    }

    /// Plays `mv` for the side to move after checking that it is legal.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        if self.is_terminal() {
            return Err(MoveError::GameOver);
        }
        if !self.legal_moves().contains(&mv) {
            return Err(MoveError::Illegal { mv, player: self.to_move });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` for the side to move without checking legality; an illegal move leaves the
    /// state meaningless.
    pub fn play_unchecked(&mut self, mv: Move) {
        let p = self.to_move;
        let opp = 1 - p;
        self.history.push(Record { player: p, mv, ends_before: self.ends });
        let ends_mask = self.ends.map_or(0, |(a, b)| (1u8 << a) | (1u8 << b));
        match mv {
            Move::Play { tile, end } => {
                let n = self.history.len();
                if n >= 2 && self.history[n - 2].player == p && self.history[n - 2].mv == Move::Draw {
                    // It drew at these ends until the tile it now plays: the rest lack both ends.
                    self.lacks[p as usize] = ends_mask;
                }
                self.hands[p as usize].remove(tile);
                self.played.insert(tile);
                self.consecutive_passes = 0;
                self.ends = Some(match (self.ends, end) {
                    (None, _) | (_, None) => (tile.low(), tile.high()),
                    (Some((a, b)), Some(e)) => {
                        let kept = if a == e { b } else { a };
                        let new = tile.other(e);
                        (kept.min(new), kept.max(new))
                    }
                });
                if self.hands[p as usize].is_empty() {
                    self.outcome = Some(Outcome::Domino { winner: p });
                } else {
                    match self.rules.variant {
                        Variant::Draw => self.to_move = opp,
                        Variant::Block => self.block_turn(p),
                    }
                }
            }
            Move::Draw => {
                let tile = self.boneyard.pop().expect("draw from an empty boneyard");
                self.hands[p as usize].insert(tile);
                // The newest tile may match an end, and the older voids may be broken: nothing is
                // known until the player plays or passes.
                self.lacks[p as usize] = 0;
            }
            Move::Pass => {
                self.lacks[p as usize] |= ends_mask;
                self.consecutive_passes += 1;
                if self.consecutive_passes >= 2 {
                    self.outcome = Some(Outcome::Blocked);
                } else {
                    self.to_move = opp;
                }
            }
        }
        self.check_partition();
    }

    /// The Block turn rule after a play by `p` that did not empty its hand.
    fn block_turn(&mut self, p: Player) {
        let opp = 1 - p;
        if !self.playable(self.hands[opp as usize]).is_empty() {
            self.to_move = opp;
        } else if !self.playable(self.hands[p as usize]).is_empty() {
            let (a, b) = self.ends.expect("ends exist after a play");
            self.lacks[opp as usize] |= (1 << a) | (1 << b);
            self.history.push(Record { player: opp, mv: Move::Pass, ends_before: self.ends });
            self.to_move = p;
        } else {
            self.outcome = Some(Outcome::Blocked);
        }
    }

    /// Final returns `[r0, r1]` (zero-sum) once the game is over; `[0, 0]` before.
    ///
    /// With pip sums s0, s1 of the hands left: equal sums give `[0, 0]`; otherwise the lighter
    /// hand wins the heavier hand's pips (`[s1, −s1]` or `[−s0, s0]`), as OpenSpiel scores. A
    /// blocked game follows [`crate::BlockedScoring`]: the difference `|s0 − s1|`, or a draw.
    pub fn returns(&self) -> [i32; 2] {
        match self.outcome {
            None => [0, 0],
            Some(outcome) => self.rules.blocked.returns(self.hands, outcome == Outcome::Blocked),
        }
    }

    /// Asserts (in debug builds) that the 28 tiles are partitioned between the hands, the line
    /// and the boneyard or dead set.
    fn check_partition(&self) {
        debug_assert!(self.is_partition(), "tiles lost or duplicated: {self:?}");
    }

    /// Whether the hands, the line and the boneyard or dead set hold each tile exactly once.
    pub fn is_partition(&self) -> bool {
        let parts = [self.hands[0], self.hands[1], self.played, self.boneyard(), self.dead];
        let total: u32 = parts.iter().map(|s| s.len()).sum();
        let union = parts.iter().fold(TileSet::EMPTY, |acc, &s| acc | s);
        total == 28 && union == TileSet::ALL && self.boneyard().len() as usize == self.boneyard.len()
    }
}

/// The leader under [`Lead::HighestDouble`]: the holder of the highest double, else of the
/// highest tile by (high pip, low pip).
fn leader(hands: [TileSet; 2]) -> Player {
    let key = |t: Tile| (t.is_double(), t.high(), t.low());
    let best = |h: TileSet| h.iter().map(key).max();
    if best(hands[1]) > best(hands[0]) { 1 } else { 0 }
}
