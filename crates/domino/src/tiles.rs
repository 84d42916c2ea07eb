//! Tiles of the double-six set and `u32` bitsets of tiles.
//!
//! A tile is numbered as in OpenSpiel: (0,0)=0, (0,1)=1, …, (0,6)=6, (1,1)=7, …, (6,6)=27, so a
//! set of tiles (a hand, the played tiles, the boneyard, the tiles unknown to a player) is a
//! 28-bit mask.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Number of tiles in the double-six set.
pub const N_TILES: usize = 28;

/// Low pip of every tile, by id.
const LOW: [u8; N_TILES] = tile_table(true);
/// High pip of every tile, by id.
const HIGH: [u8; N_TILES] = tile_table(false);

/// Builds the low or high pip of every tile id in OpenSpiel order.
const fn tile_table(low: bool) -> [u8; N_TILES] {
    let mut table = [0u8; N_TILES];
    let mut id = 0;
    let mut a = 0;
    while a < 7 {
        let mut b = a;
        while b < 7 {
            table[id] = if low { a } else { b };
            id += 1;
            b += 1;
        }
        a += 1;
    }
    table
}

/// Pip total of every tile, by id.
pub const PIPS: [u8; N_TILES] = {
    let mut table = [0u8; N_TILES];
    let mut id = 0;
    while id < N_TILES {
        table[id] = LOW[id] + HIGH[id];
        id += 1;
    }
    table
};

/// `SUIT[s]` is the set of the seven tiles that show the pip value `s`.
pub const SUIT: [TileSet; 7] = {
    let mut suits = [TileSet::EMPTY; 7];
    let mut id = 0;
    while id < N_TILES {
        suits[LOW[id] as usize].0 |= 1 << id;
        suits[HIGH[id] as usize].0 |= 1 << id;
        id += 1;
    }
    suits
};

/// One domino, identified by its OpenSpiel id (0–27); its pips are `low() ≤ high()`.
///
/// # Examples
///
/// ```
/// use domino::Tile;
/// let t: Tile = "5-3".parse().unwrap();
/// assert_eq!((t.low(), t.high()), (3, 5));
/// assert_eq!(t.to_string(), "3-5");
/// assert_eq!(Tile::new(0, 0).id(), 0);
/// assert_eq!(Tile::new(6, 6).id(), 27);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(u8);

impl Tile {
    /// The tile with pips `a` and `b` in either order.
    ///
    /// # Panics
    ///
    /// Panics if a pip is above 6.
    pub const fn new(a: u8, b: u8) -> Tile {
        assert!(a <= 6 && b <= 6, "pip values run from 0 to 6");
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        // Tiles with a low pip below `lo` come first: 7 + 6 + … + (8 − lo) of them.
        let before = (lo as usize * (15 - lo as usize)) / 2;
        Tile((before + (hi - lo) as usize) as u8)
    }

    /// The tile with OpenSpiel id `id`, or `None` when `id` is 28 or more.
    pub const fn from_id(id: u8) -> Option<Tile> {
        if (id as usize) < N_TILES { Some(Tile(id)) } else { None }
    }

    /// The OpenSpiel id of the tile.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The smaller pip.
    pub const fn low(self) -> u8 {
        LOW[self.0 as usize]
    }

    /// The larger pip.
    pub const fn high(self) -> u8 {
        HIGH[self.0 as usize]
    }

    /// The sum of both pips.
    pub const fn pips(self) -> u8 {
        PIPS[self.0 as usize]
    }

    /// Whether both pips are equal.
    pub const fn is_double(self) -> bool {
        self.low() == self.high()
    }

    /// Whether the tile shows the pip value `pip`.
    pub const fn has(self, pip: u8) -> bool {
        self.low() == pip || self.high() == pip
    }

    /// The pip left open when this tile covers an end of value `pip` (itself for a double).
    pub const fn other(self, pip: u8) -> u8 {
        if self.low() == pip { self.high() } else { self.low() }
    }

    /// The set holding only this tile.
    pub const fn set(self) -> TileSet {
        TileSet(1 << self.0)
    }

    /// All 28 tiles in id order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..N_TILES as u8).map(Tile)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.low(), self.high())
    }
}

/// Why a tile could not be read from text such as `3-5`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseTileError {
    /// The text is not two pips joined by `-`.
    #[error("expected a tile such as `3-5`, found `{0}`")]
    Syntax(String),
    /// A pip is not a value from 0 to 6.
    #[error("pip `{0}` is not a value from 0 to 6")]
    Pip(String),
}

impl FromStr for Tile {
    type Err = ParseTileError;

    fn from_str(s: &str) -> Result<Tile, ParseTileError> {
        let (a, b) = s.trim().split_once('-').ok_or_else(|| ParseTileError::Syntax(s.to_string()))?;
        let pip = |p: &str| -> Result<u8, ParseTileError> {
            match p.parse::<u8>() {
                Ok(v) if v <= 6 => Ok(v),
                _ => Err(ParseTileError::Pip(p.to_string())),
            }
        };
        Ok(Tile::new(pip(a)?, pip(b)?))
    }
}

/// A set of tiles as a 28-bit mask over tile ids.
///
/// # Examples
///
/// ```
/// use domino::{SUIT, Tile, TileSet};
/// let hand: TileSet = [Tile::new(3, 5), Tile::new(6, 6)].into_iter().collect();
/// assert_eq!(hand.len(), 2);
/// assert_eq!(hand.pips(), 20);
/// assert_eq!(hand & SUIT[5], Tile::new(3, 5).set());
/// assert_eq!(hand.to_string(), "[3-5 6-6]");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TileSet(pub u32);

impl TileSet {
    /// The empty set.
    pub const EMPTY: TileSet = TileSet(0);
    /// All 28 tiles.
    pub const ALL: TileSet = TileSet((1 << N_TILES) - 1);

    /// Whether `tile` is in the set.
    pub const fn contains(self, tile: Tile) -> bool {
        self.0 & (1 << tile.0) != 0
    }

    /// Adds `tile`.
    pub fn insert(&mut self, tile: Tile) {
        self.0 |= 1 << tile.0;
    }

    /// Removes `tile`.
    pub fn remove(&mut self, tile: Tile) {
        self.0 &= !(1 << tile.0);
    }

    /// Number of tiles in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Sum of the pips of all tiles in the set.
    pub fn pips(self) -> u32 {
        self.iter().map(|t| u32::from(t.pips())).sum()
    }

    /// The tiles of the set in id order.
    pub fn iter(self) -> TileIter {
        TileIter(self.0)
    }

    /// The tiles of all 28 that are not in the set.
    pub const fn complement(self) -> TileSet {
        TileSet(!self.0 & TileSet::ALL.0)
    }

    /// The tiles that show any of the pip values in the 7-bit mask `suits`.
    pub fn of_suits(suits: u8) -> TileSet {
        (0..7).filter(|s| suits & (1 << s) != 0).fold(TileSet::EMPTY, |acc, s| acc | SUIT[s])
    }
}

impl std::ops::BitOr for TileSet {
    type Output = TileSet;
    fn bitor(self, rhs: TileSet) -> TileSet {
        TileSet(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for TileSet {
    type Output = TileSet;
    fn bitand(self, rhs: TileSet) -> TileSet {
        TileSet(self.0 & rhs.0)
    }
}

impl std::ops::Not for TileSet {
    type Output = TileSet;
    fn not(self) -> TileSet {
        self.complement()
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> TileSet {
        let mut set = TileSet::EMPTY;
        for t in iter {
            set.insert(t);
        }
        set
    }
}

impl IntoIterator for TileSet {
    type Item = Tile;
    type IntoIter = TileIter;
    fn into_iter(self) -> TileIter {
        self.iter()
    }
}

impl fmt::Display for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, t) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{t}")?;
        }
        f.write_str("]")
    }
}

/// Iterator over the tiles of a [`TileSet`] in id order.
#[derive(Clone, Debug)]
pub struct TileIter(u32);

impl Iterator for TileIter {
    type Item = Tile;
    fn next(&mut self) -> Option<Tile> {
        if self.0 == 0 {
            return None;
        }
        let id = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Tile(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_openspiel_order() {
        let mut id = 0;
        for a in 0..7 {
            for b in a..7 {
                let t = Tile::new(a, b);
                assert_eq!(t.id(), id);
                assert_eq!((t.low(), t.high()), (a, b));
                assert_eq!(Tile::new(b, a), t);
                id += 1;
            }
        }
        assert_eq!(TileSet::ALL.pips(), 168);
        for suit in SUIT {
            assert_eq!(suit.len(), 7);
        }
    }

    #[test]
    fn parse_errors_are_typed() {
        assert_eq!("6-2".parse::<Tile>(), Ok(Tile::new(2, 6)));
        assert!(matches!("35".parse::<Tile>(), Err(ParseTileError::Syntax(_))));
        assert!(matches!("3-7".parse::<Tile>(), Err(ParseTileError::Pip(_))));
        assert!(matches!("x-1".parse::<Tile>(), Err(ParseTileError::Pip(_))));
    }
}
