//! Rule settings: which variant, hand size, who leads and how a blocked game is scored.

/// Whether a player who cannot play passes or draws from the boneyard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The undealt tiles are out of play; a player who cannot play passes (OpenSpiel).
    Block,
    /// The undealt tiles form the boneyard; a player who cannot play draws one tile at a time
    /// until able to play, and passes only when the boneyard is empty.
    Draw,
}

/// Who plays the first tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lead {
    /// Player 0 leads with any tile of its hand (OpenSpiel).
    Player0AnyTile,
    /// The holder of the highest double leads, with any tile; when neither hand holds a double,
    /// the holder of the highest tile (by high pip, then low pip) leads.
    HighestDouble,
}

/// How a blocked game (neither side can move) is scored. A domino (an emptied hand) always
/// gives the winner the loser's remaining pips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockedScoring {
    /// The lighter hand wins the heavier hand's pips; equal pips score 0 (OpenSpiel).
    LoserPips,
    /// The lighter hand wins the difference of the pip counts.
    Difference,
    /// A blocked game is a draw, scored 0 for both (the seed's tournament).
    Draw,
}

impl BlockedScoring {
    /// The zero-sum returns `[r0, r1]` of a finished game with `hands` left: equal pip sums give
    /// `[0, 0]`; otherwise the lighter hand wins the heavier hand's pips, or, when the game was
    /// `blocked`, what this scoring gives.
    ///
    /// # Examples
    ///
    /// ```
    /// use domino::{BlockedScoring, Tile, TileSet};
    ///
    /// let hands = ["1-2".parse::<Tile>().unwrap(), "3-4".parse().unwrap()].map(|t| [t].into_iter().collect::<TileSet>());
    /// assert_eq!(BlockedScoring::LoserPips.returns(hands, true), [7, -7]);
    /// assert_eq!(BlockedScoring::Difference.returns(hands, true), [4, -4]);
    /// assert_eq!(BlockedScoring::Draw.returns(hands, true), [0, 0]);
    /// assert_eq!(BlockedScoring::Draw.returns(hands, false), [7, -7]);
    /// ```
    pub fn returns(self, hands: [crate::TileSet; 2], blocked: bool) -> [i32; 2] {
        let s0 = hands[0].pips() as i32;
        let s1 = hands[1].pips() as i32;
        let gain = match (blocked, self) {
            (false, _) | (true, BlockedScoring::LoserPips) => s0.max(s1),
            (true, BlockedScoring::Difference) => (s0 - s1).abs(),
            (true, BlockedScoring::Draw) => 0,
        };
        match s0.cmp(&s1) {
            std::cmp::Ordering::Equal => [0, 0],
            std::cmp::Ordering::Less => [gain, -gain],
            std::cmp::Ordering::Greater => [-gain, gain],
        }
    }
}

/// A complete rule set.
///
/// # Examples
///
/// ```
/// use domino::{BlockedScoring, Lead, Rules, Variant};
/// assert_eq!(Rules::default(), Rules::block());
/// let r = Rules::draw();
/// assert_eq!((r.variant, r.hand_size, r.lead), (Variant::Draw, 7, Lead::HighestDouble));
/// assert_eq!(r.blocked, BlockedScoring::Draw);
/// assert_eq!(r.stock_size(), 14);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Block or Draw.
    pub variant: Variant,
    /// Tiles dealt to each player (1–14); 7 by default.
    pub hand_size: u8,
    /// Who leads.
    pub lead: Lead,
    /// How a blocked game is scored.
    pub blocked: BlockedScoring,
}

impl Rules {
    /// OpenSpiel's `python_block_dominoes` exactly: Block, 7 tiles each, player 0 leads with any
    /// tile, a blocked game gives the lighter hand the heavier hand's pips.
    pub const fn block() -> Rules {
        Rules {
            variant: Variant::Block,
            hand_size: 7,
            lead: Lead::Player0AnyTile,
            blocked: BlockedScoring::LoserPips,
        }
    }

    /// The seed's Draw game: 7 tiles each and a 14-tile boneyard, the highest double leads,
    /// draw one tile at a time until able to play, pass only when the boneyard is empty, and a
    /// blocked game is a draw.
    pub const fn draw() -> Rules {
        Rules {
            variant: Variant::Draw,
            hand_size: 7,
            lead: Lead::HighestDouble,
            blocked: BlockedScoring::Draw,
        }
    }

    /// Number of tiles left undealt (the boneyard or the dead tiles).
    pub const fn stock_size(&self) -> usize {
        28 - 2 * self.hand_size as usize
    }
}

impl Default for Rules {
    /// [`Rules::block`].
    fn default() -> Rules {
        Rules::block()
    }
}
