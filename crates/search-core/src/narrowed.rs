//! A game whose player moves a selective search chooses: [`Narrowed`] plays exactly as the game
//! it wraps, but lists the moves a [`MovePicker`] picks.

use crate::game::{Game, GameHash, MoveList, OutcomeList, ToMove};

/// Picks the moves a selective search considers at a player's state: some of the game's legal
/// moves (at least one), in the order to search them.
pub trait MovePicker<G: Game> {
    /// Appends the moves to search at `state`, a state where a player moves in `game`.
    fn pick(&self, game: &G, state: &G::State, moves: &mut MoveList<G::Move>);
}

/// `game` with the player moves `picker` picks; its states, turns, chance outcomes, play, move
/// indices and hashes are the game's own, forwarded here once for every picker.
///
/// # Examples
///
/// ```
/// use search_core::{Game, MoveList, MovePicker, Narrowed, ToMove};
///
/// /// Take 1 to 3 stones; whoever takes the last wins.
/// struct Nim;
/// impl Game for Nim {
///     type State = u32;
///     type Move = u32;
///     fn to_move(&self, &n: &u32) -> ToMove { if n == 0 { ToMove::Terminal } else { ToMove::Player(0) } }
///     fn moves(&self, &n: &u32, moves: &mut MoveList<u32>) { moves.extend((1..=3).filter(|&t| t <= n)) }
///     fn play(&self, &n: &u32, take: u32) -> u32 { n - take }
/// }
///
/// /// Only ever take the most stones.
/// struct Greedy;
/// impl MovePicker<Nim> for Greedy {
///     fn pick(&self, game: &Nim, state: &u32, moves: &mut MoveList<u32>) {
///         let mut all = MoveList::new();
///         game.moves(state, &mut all);
///         moves.extend(all.last().copied());
///     }
/// }
///
/// let narrowed = Narrowed { game: Nim, picker: Greedy };
/// let mut moves = MoveList::new();
/// narrowed.moves(&5, &mut moves);
/// assert_eq!(moves.as_slice(), &[3]);
/// assert_eq!(narrowed.play(&5, 3), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Narrowed<G, P> {
    /// The game played.
    pub game: G,
    /// What chooses the moves to search.
    pub picker: P,
}

impl<G: Game, P: MovePicker<G>> Game for Narrowed<G, P> {
    type State = G::State;
    type Move = G::Move;

    fn to_move(&self, state: &G::State) -> ToMove {
        self.game.to_move(state)
    }

    fn moves(&self, state: &G::State, moves: &mut MoveList<G::Move>) {
        self.picker.pick(&self.game, state, moves);
    }

    fn outcomes(&self, state: &G::State, outcomes: &mut OutcomeList<G::Move>) {
        self.game.outcomes(state, outcomes);
    }

    fn play(&self, state: &G::State, mv: G::Move) -> G::State {
        self.game.play(state, mv)
    }

    fn move_space(&self) -> usize {
        self.game.move_space()
    }

    fn move_index(&self, mv: G::Move) -> usize {
        self.game.move_index(mv)
    }
}

impl<G: GameHash, P: MovePicker<G>> GameHash for Narrowed<G, P> {
    fn hash(&self, state: &G::State) -> u64 {
        self.game.hash(state)
    }
}
