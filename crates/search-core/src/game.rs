//! The contract a game implements to be searched: node kinds, moves, chance outcomes, copy-make play.

use std::fmt::Debug;

use smallvec::SmallVec;

/// A player's number, `0` for the first player. Two-player games use `0` and `1`.
pub type Player = u8;

/// A list of moves; searches reuse one per ply, so generation allocates nothing for up to 32 moves.
pub type MoveList<M> = SmallVec<[M; 32]>;

/// A list of chance outcomes with their probabilities, reused per ply like [`MoveList`].
pub type OutcomeList<M> = SmallVec<[(M, f64); 32]>;

/// What happens at a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToMove {
    /// The given player chooses a move.
    Player(Player),
    /// Chance picks an outcome with the probabilities of [`Game::outcomes`].
    Chance,
    /// The game is over.
    Terminal,
}

/// A sequential game: the one trait a game implements for every search in this crate.
///
/// Methods take `&self` so a game value can hold settings (board size, rule variant). States are
/// copy-make: [`Game::play`] returns a new state and leaves the old one untouched, which for
/// bitboard states costs a few words.
///
/// A game may mix player nodes and chance nodes freely: a two-player zero-sum game (Hex), a
/// one-player game with chance (2048) and a two-player game with chance all fit. Searches maximise
/// for the player to move at the root and treat every other player as an opponent who minimises
/// that value (exact for two-player zero-sum games).
///
/// # Contract
/// - [`Game::moves`] is called only where [`Game::to_move`] says `Player`; it appends at least one
///   move (a player who must pass has a pass move; a player who cannot move at all is `Terminal`).
/// - [`Game::outcomes`] is called only at `Chance` states; it appends at least one outcome, every
///   probability is positive and they sum to 1.
/// - Both are deterministic: the same state gives the same list in the same order (transposition
///   tables remember a best move by its position in the list).
///
/// # Examples
///
/// A one-pile Nim where each player takes 1 or 2 stones and whoever takes the last stone wins:
///
/// ```
/// use search_core::{Game, MoveList, ToMove};
///
/// struct Nim;
///
/// impl Game for Nim {
///     type State = (u32, u8); // (stones left, player to move)
///     type Move = u32;        // stones taken
///
///     fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
///         if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
///     }
///     fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
///         moves.extend((1..=2).filter(|&take| take <= stones));
///     }
///     fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
///         (stones - take, 1 - player)
///     }
/// }
///
/// let mut moves = MoveList::new();
/// Nim.moves(&(1, 0), &mut moves);
/// assert_eq!(moves.as_slice(), &[1]);
/// assert_eq!(Nim.to_move(&Nim.play(&(1, 0), 1)), ToMove::Terminal);
/// ```
pub trait Game {
    /// A position, including whose turn it is.
    type State: Clone;
    /// A player's move or a chance outcome. Keep it small: searches copy it freely.
    type Move: Copy + PartialEq + Debug;

    /// Who acts at `state`, or whether it is over.
    fn to_move(&self, state: &Self::State) -> ToMove;

    /// Appends the legal moves of the player to move at `state`.
    fn moves(&self, state: &Self::State, moves: &mut MoveList<Self::Move>);

    /// Appends the outcomes of the chance node `state` with their probabilities. Searches call it
    /// only where [`Game::to_move`] says [`ToMove::Chance`], so games without chance nodes keep
    /// the default, which appends nothing.
    fn outcomes(&self, state: &Self::State, outcomes: &mut OutcomeList<Self::Move>) {
        let _ = (state, outcomes);
    }

    /// The state after `mv` (a move or a chance outcome) is applied to `state`.
    fn play(&self, state: &Self::State, mv: Self::Move) -> Self::State;

    /// Calls `visit` with every legal move at `state` and the state it leads to, in the order of
    /// [`Game::moves`], under the same contract.
    ///
    /// The default plays each move [`Game::moves`] lists. Override it when finding the legal
    /// moves already computes where they lead (a 2048 slide is legal when it changes the board),
    /// so that searches which use it ([`crate::expectimax`]) do the work once and keep no list.
    ///
    /// # Examples
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::tree::Tree;
    ///
    /// let mut tree = Tree::new();
    /// let leaves = vec![tree.leaf(1), tree.leaf(2)];
    /// let root = tree.max(leaves.clone(), 0);
    /// let mut seen = Vec::new();
    /// tree.successors(&root, |mv, child| seen.push((mv, child)));
    /// assert_eq!(seen, vec![(0, leaves[0]), (1, leaves[1])]);
    /// ```
    fn successors(&self, state: &Self::State, mut visit: impl FnMut(Self::Move, Self::State)) {
        let mut moves = MoveList::new();
        self.moves(state, &mut moves);
        for mv in moves {
            visit(mv, self.play(state, mv));
        }
    }

    /// Calls `visit` with every outcome of the chance node `state`, its probability and the
    /// state it leads to, in the order of [`Game::outcomes`], under the same contract.
    ///
    /// The default plays each outcome [`Game::outcomes`] lists. Override it when the outcomes'
    /// states are cheaper made directly (a 2048 spawn is one tile set), so that searches which
    /// use it ([`crate::expectimax`]) keep no list of outcomes.
    ///
    /// # Examples
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::tree::Tree;
    ///
    /// let mut tree = Tree::new();
    /// let (a, b) = (tree.leaf(1), tree.leaf(2));
    /// let root = tree.chance(vec![(a, 0.25), (b, 0.75)], 0);
    /// let mut seen = Vec::new();
    /// tree.chance_successors(&root, |mv, q, child| seen.push((mv, q, child)));
    /// assert_eq!(seen, vec![(0, 0.25, a), (1, 0.75, b)]);
    /// ```
    fn chance_successors(&self, state: &Self::State, mut visit: impl FnMut(Self::Move, f64, Self::State)) {
        let mut outcomes = OutcomeList::new();
        self.outcomes(state, &mut outcomes);
        for (mv, q) in outcomes {
            visit(mv, q, self.play(state, mv));
        }
    }

    /// Reorders freshly generated moves, most promising first. Alpha-beta prunes more when the
    /// best move comes early; the default keeps generation order.
    fn order_moves(&self, _state: &Self::State, _moves: &mut [Self::Move]) {}

    /// The number of distinct move indices, for the killer and history tables; `0` (the default)
    /// turns both off for this game.
    fn move_space(&self) -> usize {
        0
    }

    /// A number in `0..move_space()` that names `mv` the same way in every position (for
    /// example a board cell).
    fn move_index(&self, _mv: Self::Move) -> usize {
        0
    }
}

/// A game whose states have a 64-bit hash, which transposition tables need.
///
/// It is a separate trait so that a game without a hash still gets every other search, and a
/// table search on such a game is a compile error rather than a run-time panic.
pub trait GameHash: Game {
    /// A hash of `state` that includes the player to move. Equal states must hash equal; a
    /// Zobrist hash updated incrementally is the usual choice.
    fn hash(&self, state: &Self::State) -> u64;
}

/// The player a search from `state` maximises for: the one to move, or player 0 at a chance or
/// terminal root.
pub(crate) fn maximizer<G: Game>(game: &G, state: &G::State) -> Player {
    match game.to_move(state) {
        ToMove::Player(p) => p,
        _ => 0,
    }
}
