//! Tile downgrading: a network values a board with a large tile as the same board one tile
//! lower, where it has learned far more (the idea of Guei, Chen and Wu's tile-downgrading
//! search; see [`Downgrade`]).

use std::ops::Deref;

use crate::board::Board;
use crate::evaluation::Heuristic;

use super::{NTupleError, NTupleNetwork};

/// How to look at a board with a large tile as a board one tile lower.
///
/// Training rarely sees the boards after a 16384: a game reaches them in a few per cent of its
/// self-play, against every game for the boards before 8192. But while a tile is missing
/// between the floor and the largest tile, the tiles above the gap never merge with anything
/// below it for many moves, and the board plays like the board with each of those tiles
/// halved: a 16384, 4096, 2048 (no 8192) is played like an 8192, 2048, 1024 (no 4096). So when
/// the largest tile is at least `from` and some tile from `floor` up to the largest is
/// missing, the lowest such gap is closed by halving every tile above it, and the network
/// values that board, its points to come multiplied by `scale` (a merge above the gap scores
/// twice the points of its downgraded twin).
///
/// The floor keeps the small tiles out: a 4 that is missing will soon be made, and
/// downgrading over it would make the next spawned 2 look like a partner for a tile it can
/// never merge with.
///
/// ```
/// use game2048::Board;
/// use game2048::ntuple::Downgrade;
///
/// let downgrade: Downgrade = "16384,256,2".parse().unwrap();
/// let board: Board = "16384 4096 2048 2/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
/// let lower: Board = "8192 2048 1024 2/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
/// assert_eq!(downgrade.board(board), Some(lower));
/// // Below the `from` tile, and with no gap above the floor, the board is left alone.
/// assert_eq!(downgrade.board(lower), None);
/// let full: Board = "16384 8192 4096 2048/1024 512 256 0/0 0 0 0/0 0 0 0".parse().unwrap();
/// assert_eq!(downgrade.board(full), None);
/// assert_eq!(downgrade.to_string(), "16384,256,2");
/// assert!("16384,300".parse::<Downgrade>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Downgrade {
    /// The rank (log2) of the smallest largest tile that downgrades.
    from: u8,
    /// The rank of the lowest tile whose absence counts as a gap.
    floor: u8,
    /// The factor on the downgraded board's points to come.
    scale: f32,
}

impl Default for Downgrade {
    /// From 16384, over gaps from 256 up, points to come doubled.
    fn default() -> Self {
        Downgrade { from: 14, floor: 8, scale: 2.0 }
    }
}

impl Downgrade {
    /// Downgrading from boards whose largest tile is at least `from`, over gaps from the tile
    /// `floor` up, with the downgraded points to come multiplied by `scale`.
    pub fn new(from: u32, floor: u32, scale: f32) -> Result<Downgrade, NTupleError> {
        let rank = |tile: u32| -> Result<u8, NTupleError> {
            if tile >= 4 && tile.is_power_of_two() && tile <= 1 << 15 {
                Ok(tile.trailing_zeros() as u8)
            } else {
                Err(NTupleError::BadDowngrade(format!("{tile} is not a tile from 4 to 32768")))
            }
        };
        let (from, floor) = (rank(from)?, rank(floor)?);
        if floor >= from {
            return Err(NTupleError::BadDowngrade(format!(
                "the floor {} must be below the largest tile {}",
                1u32 << floor,
                1u32 << from
            )));
        }
        if !(scale.is_finite() && scale > 0.0) {
            return Err(NTupleError::BadDowngrade(format!("the scale {scale} must be a positive number")));
        }
        Ok(Downgrade { from, floor, scale })
    }

    /// The factor on the downgraded board's points to come.
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// `board` with its lowest gap closed, or `None` when it is not downgraded (its largest
    /// tile is below `from`, or no tile from the floor up to the largest is missing).
    #[inline]
    pub fn board(&self, board: Board) -> Option<Board> {
        let raw = board.raw();
        let held = (0..16).fold(0u32, |held, cell| held | 1 << ((raw >> (4 * cell)) & 0xF));
        let top = 31 - held.leading_zeros();
        if top < u32::from(self.from) {
            return None;
        }
        let gaps = !held & ((1 << top) - 1) & !((1 << self.floor) - 1);
        if gaps == 0 {
            return None;
        }
        let gap = u64::from(gaps.trailing_zeros());
        let mut lower = raw;
        for cell in 0..16 {
            if (raw >> (4 * cell)) & 0xF > gap {
                lower -= 1 << (4 * cell);
            }
        }
        Some(Board::from_raw(lower))
    }
}

impl std::fmt::Display for Downgrade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", 1u32 << self.from, 1u32 << self.floor, self.scale)
    }
}

/// `FROM[,FLOOR[,SCALE]]`: the largest tile from which boards are downgraded, the lowest tile
/// whose absence counts as a gap (default 256) and the factor on the points to come (default 2).
impl std::str::FromStr for Downgrade {
    type Err = NTupleError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.len() > 3 {
            return Err(NTupleError::BadDowngrade(format!("`{s}`: at most FROM,FLOOR,SCALE")));
        }
        let tile = |text: &str| {
            text.parse::<u32>().map_err(|_| NTupleError::BadDowngrade(format!("`{text}` is not a tile")))
        };
        let from = tile(parts[0])?;
        let floor = parts.get(1).map_or(Ok(256), |t| tile(t))?;
        let scale = match parts.get(2) {
            Some(text) => text
                .parse::<f32>()
                .map_err(|_| NTupleError::BadDowngrade(format!("`{text}` is not a number")))?,
            None => 2.0,
        };
        Downgrade::new(from, floor, scale)
    }
}

/// A network that values boards through a [`Downgrade`]: a [`Heuristic`] like the network
/// itself (points on the board plus points to come), with the points to come of a
/// downgraded board read from its downgraded twin.
///
/// ```
/// use std::sync::Arc;
/// use game2048::ntuple::{Downgrade, Downgrading, NTupleNetwork, Shape};
/// use game2048::{Board, Heuristic};
///
/// let network = Arc::new(NTupleNetwork::new(Shape::Small));
/// let player = Downgrading::new(Arc::clone(&network), Downgrade::default());
/// let board: Board = "16384 4096 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
/// // An untrained network expects no more points: the value is the points on the board.
/// assert_eq!(player.value(board), board.tile_points() as f64);
/// ```
#[derive(Clone, Debug)]
pub struct Downgrading<N> {
    network: N,
    downgrade: Downgrade,
}

impl<N: Deref<Target = NTupleNetwork>> Downgrading<N> {
    /// `network` valuing boards through `downgrade`.
    pub fn new(network: N, downgrade: Downgrade) -> Self {
        Downgrading { network, downgrade }
    }

    /// The points the network expects from the afterstate `board` on, read from the
    /// downgraded board when there is one.
    pub fn value_to_come(&self, board: Board) -> f32 {
        match self.downgrade.board(board) {
            Some(lower) => self.downgrade.scale * self.network.value_to_come(lower),
            None => self.network.value_to_come(board),
        }
    }
}

impl<N: Deref<Target = NTupleNetwork> + Sync> Heuristic for Downgrading<N> {
    fn value(&self, board: Board) -> f64 {
        board.tile_points() as f64 + f64::from(self.value_to_come(board))
    }

    /// As the network's: the points on the board, nothing more to come.
    fn lost(&self, board: Board) -> Option<f64> {
        self.network.lost(board)
    }

    /// Batched as the network's own (the same values as valuing each afterstate).
    fn best_afterstate(&self, board: Board) -> Option<f64> {
        let downgrade = self.downgrade;
        self.network.best_afterstate_through(board, |after| match downgrade.board(after) {
            Some(lower) => (lower, downgrade.scale),
            None => (after, 1.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    #[test]
    fn the_lowest_gap_above_the_floor_closes() {
        let d = Downgrade::default();
        // Gaps at 512 and 8192: the lowest, 512, closes, and every tile above it halves.
        let b = board("16384 4096 2048 1024/256 128 2 0/0 0 0 0/0 0 0 0");
        assert_eq!(d.board(b), Some(board("8192 2048 1024 512/256 128 2 0/0 0 0 0/0 0 0 0")));
        // Missing small tiles do not count: 2 to 128 are absent here, the gap is at 8192.
        let b = board("16384 4096 2048 1024/512 256 0 0/0 0 0 0/0 0 0 0");
        assert_eq!(d.board(b), Some(board("8192 4096 2048 1024/512 256 0 0/0 0 0 0/0 0 0 0")));
        // Two equal tiles above the gap stay equal, and nothing merges that could not.
        let b = board("32768 32768 4 2/0 0 0 0/0 0 0 0/0 0 0 0");
        assert_eq!(d.board(b), Some(board("16384 16384 4 2/0 0 0 0/0 0 0 0/0 0 0 0")));
    }

    #[test]
    fn boards_below_from_or_without_a_gap_stay() {
        let d = Downgrade::default();
        assert_eq!(d.board(board("8192 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0")), None);
        assert_eq!(d.board(Board::EMPTY), None);
        let full = board("16384 8192 4096 2048/1024 512 256 2/0 0 0 0/0 0 0 0");
        assert_eq!(d.board(full), None);
        // A lower `from` reaches the 8192 boards.
        let d: Downgrade = "8192,256".parse().unwrap();
        assert_eq!(
            d.board(board("8192 2048 0 0/0 0 0 0/0 0 0 0/0 0 0 0")),
            Some(board("4096 1024 0 0/0 0 0 0/0 0 0 0/0 0 0 0"))
        );
    }

    #[test]
    fn bad_settings_are_refused() {
        for bad in [
            "",
            "16384,256,2,1",
            "1000",
            "16384,3",
            "256,256",
            "256,16384",
            "16384,256,0",
            "16384,256,x",
            "65536",
        ] {
            assert!(bad.parse::<Downgrade>().is_err(), "{bad}");
        }
        let d: Downgrade = " 16384 , 512 , 1.5 ".parse().unwrap();
        assert_eq!(d.to_string(), "16384,512,1.5");
        assert_eq!(d.to_string().parse::<Downgrade>().unwrap(), d);
    }

    #[test]
    fn values_come_from_the_downgraded_board_scaled() {
        let network = NTupleNetwork::new(super::super::Shape::Small);
        // Teach the untrained network a value for one board only, through the training update.
        let lower = board("8192 2048 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
        network.update_board(lower, 100.0);
        let learned = network.value_to_come(lower);
        assert!(learned > 0.0);
        let high = board("16384 4096 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
        let d = Downgrading::new(&network, "16384,256,3".parse().unwrap());
        assert_eq!(d.value_to_come(high), 3.0 * learned);
        assert_eq!(d.value(high), high.tile_points() as f64 + f64::from(3.0 * learned));
        // A board that is not downgraded reads the network as it is.
        assert_eq!(d.value_to_come(lower), learned);
        assert_eq!(d.lost(high), Some(high.tile_points() as f64));
        // The batched best afterstate values each afterstate as `value` does.
        for b in [high, lower, board("16384 4096 2 2/2 0 0 0/0 0 0 0/0 0 0 4")] {
            let one_by_one = b.afters().into_iter().flatten().map(|a| d.value(a)).reduce(f64::max);
            assert_eq!(d.best_afterstate(b), one_by_one);
        }
    }
}
