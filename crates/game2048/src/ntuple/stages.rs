//! Stages: a network may split the game into stages, each with weights of its own (multi-stage
//! TD learning, Wu et al. 2014 and Yeh et al. 2016; Jaśkowski 2016's weight promotion); see
//! [`Stages`].

use crate::board::Board;

use super::NTupleError;

/// The most stages a network has.
pub const MAX_STAGES: usize = 8;

/// How a network splits the game into stages, each with weights of its own (multi-stage TD
/// learning, Wu et al. 2014 and Yeh et al. 2016; Jaśkowski 2016's weight promotion).
///
/// One set of weights must value the opening and the boards around a 16384 tile alike, though
/// what a good board looks like differs: a 16384 in the corner frees the rest of the board
/// for the next climb, and one table learns a compromise. With stages, each stage is learned on
/// its own boards only. A stage begins where the board holds every tile of a set of tiles:
/// `16384,16384+8192` makes three stages, boards without a 16384, boards with one, and boards
/// with a 16384 and an 8192 (Yeh et al.'s split for reaching 32768). When several sets match,
/// the last one listed decides.
///
/// ```
/// use game2048::Board;
/// use game2048::ntuple::Stages;
///
/// let stages: Stages = "16384,16384+8192".parse().unwrap();
/// assert_eq!(stages.count(), 3);
/// let board: Board = "16384 8192 2 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
/// assert_eq!(stages.of(board), 2);
/// assert_eq!(stages.to_string(), "16384,16384+8192");
/// assert_eq!(Stages::ONE.of(board), 0);
/// assert!("16384,3".parse::<Stages>().is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stages {
    /// Per stage after the first, the ranks its board holds, one bit per rank.
    starts: Vec<u16>,
}

impl Stages {
    /// One stage: the same weights for every board.
    pub const ONE: Stages = Stages { starts: Vec::new() };

    /// How many stages (weight sets) there are.
    pub fn count(&self) -> usize {
        self.starts.len() + 1
    }

    /// The stage of `board`: 0 unless it holds every tile of one of the sets, else the last
    /// set it holds all of, counted from 1.
    #[inline]
    pub fn of(&self, board: Board) -> usize {
        if self.starts.is_empty() {
            return 0;
        }
        let held = ranks_held(board);
        self.starts.iter().rposition(|&set| held & set == set).map_or(0, |i| i + 1)
    }

    /// The sets as rank masks, for the file format.
    pub(super) fn masks(&self) -> &[u16] {
        &self.starts
    }

    /// Stages from the rank masks a file holds.
    pub(super) fn from_masks(masks: Vec<u16>) -> Option<Stages> {
        let valid = masks.len() < MAX_STAGES && masks.iter().all(|&m| m != 0 && m & 1 == 0);
        valid.then_some(Stages { starts: masks })
    }
}

/// One bit per rank present on `board` (bit 0 for the empty cells).
#[inline]
fn ranks_held(board: Board) -> u16 {
    let raw = board.raw();
    (0..16).fold(0u16, |held, cell| held | 1 << ((raw >> (4 * cell)) & 0xF))
}

impl std::fmt::Display for Stages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.starts.is_empty() {
            return f.write_str("one");
        }
        for (i, &set) in self.starts.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            // Larger tiles first, as a player names them.
            let tiles: Vec<String> =
                (1..16).rev().filter(|r| set >> r & 1 == 1).map(|r| (1u32 << r).to_string()).collect();
            f.write_str(&tiles.join("+"))?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Stages {
    type Err = NTupleError;

    /// `one` (or an empty string) for a single stage, else comma-separated sets of tiles joined
    /// by `+`, each set starting a stage: `16384,16384+8192`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |why: &str| NTupleError::BadStages { text: text.to_string(), reason: why.to_string() };
        let text_trimmed = text.trim();
        if text_trimmed.is_empty() || text_trimmed == "one" {
            return Ok(Stages::ONE);
        }
        let mut starts = Vec::new();
        for set in text_trimmed.split(',') {
            let mut mask = 0u16;
            for tile in set.split('+') {
                let tile: u32 =
                    tile.trim().parse().map_err(|_| bad(&format!("{:?} is not a number", tile.trim())))?;
                if !tile.is_power_of_two() || !(2..=32768).contains(&tile) {
                    return Err(bad(&format!("{tile} is not a tile (2, 4, …, 32768)")));
                }
                mask |= 1 << tile.trailing_zeros();
            }
            starts.push(mask);
        }
        if starts.len() >= MAX_STAGES {
            return Err(bad(&format!("at most {} stages", MAX_STAGES)));
        }
        Ok(Stages { starts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_matching_set_decides_and_every_tile_of_a_set_is_needed() {
        let stages: Stages = "8192,16384,16384+8192".parse().unwrap();
        let board = |text: &str| text.parse::<Board>().unwrap();
        assert_eq!(stages.of(board("4096 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0")), 0);
        assert_eq!(stages.of(board("8192 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0")), 1);
        // A 16384 without an 8192: the second set, though the first does not match.
        assert_eq!(stages.of(board("16384 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0")), 2);
        assert_eq!(stages.of(board("16384 8192 0 0/0 0 0 0/0 0 0 0/0 0 0 0")), 3);
        // The empty cells count for nothing: a full board is read the same way.
        assert_eq!(stages.of(board("16384 8192 2 4/2 4 2 4/4 2 4 2/2 4 2 4")), 3);
        assert_eq!(Stages::ONE.count(), 1);
        assert_eq!(stages.count(), 4);
    }

    #[test]
    fn names_round_trip_and_bad_ones_are_refused_with_the_reason() {
        for text in ["one", "16384", "16384,16384+8192", "8192,16384,32768+16384"] {
            let stages: Stages = text.parse().unwrap();
            assert_eq!(stages.to_string(), text);
            assert_eq!(Stages::from_masks(stages.masks().to_vec()), Some(stages));
        }
        assert_eq!("".parse::<Stages>().unwrap(), Stages::ONE);
        for (text, why) in [
            ("16384,1000", "not a tile"),
            ("16384,", "not a number"),
            ("65536", "not a tile"),
            ("1", "not a tile"),
            ("2,4,8,16,32,64,128,256", "at most 8"),
        ] {
            let err = text.parse::<Stages>().unwrap_err().to_string();
            assert!(err.contains(why), "{text}: {err}");
        }
        assert_eq!(Stages::from_masks(vec![1]), None, "the empty cell is not a tile");
        assert_eq!(Stages::from_masks(vec![0]), None);
    }
}
