//! The whole game as `search-core` sees it, so that every player plugs into any runner that
//! takes `search-core`'s one agent trait ([`search_core::agent::Agent`]), such as
//! [`search_core::arena`].
//!
//! The deal fixes both hands and the order of the boneyard, so the full [`State`] has no chance
//! left in it: [`DominoGame`] is a two-player game of perfect information over it, which a
//! referee plays. The players do not see it: each [`DominoPlayer`] answers from the view of its
//! seat ([`State::view`]), as in [`crate::matches`]; only the [`Omniscient`] cheat reads the
//! state.
//!
//! # Examples
//!
//! ```
//! use domino::game::{DominoGame, rewards};
//! use domino::players::{Greedy, RandomPlayer};
//! use domino::{Rules, State};
//! use search_core::arena;
//!
//! let deals: Vec<State> = (0..10).map(|seed| State::deal(Rules::block(), seed)).collect();
//! let result = arena::play_match(&DominoGame, &deals, &mut Greedy, &mut RandomPlayer::new(1), &arena::MatchConfig::default(), rewards);
//! assert_eq!(result.games.len(), 20); // each deal twice, seats swapped
//! assert!(result.games.iter().all(|g| g.finished));
//! ```

use search_core::agent::Agent;
use search_core::mcts::{MAX_PLAYERS, Rewards};
use search_core::{Game, MoveList, ToMove};

use crate::players::{
    DominoPlayer, ExpectimaxPlayer, Greedy, Omniscient, PimcPlayer, RandomPlayer, SeedPlayer,
};
use crate::solver::Objective;
use crate::state::{Move, State};

/// The whole game, both hands and the boneyard known: the referee's side of the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DominoGame;

impl Game for DominoGame {
    type State = State;
    type Move = Move;

    fn to_move(&self, state: &State) -> ToMove {
        if state.is_terminal() { ToMove::Terminal } else { ToMove::Player(state.to_move()) }
    }

    fn moves(&self, state: &State, moves: &mut MoveList<Move>) {
        moves.extend(state.legal_moves());
    }

    fn play(&self, state: &State, mv: Move) -> State {
        let mut next = state.clone();
        next.play_unchecked(mv);
        next
    }
}

/// Each seat's result of a finished game: 1 to the seat with the higher return
/// ([`State::returns`]), 0 to the other, ½ each when the returns are equal.
///
/// ```
/// use domino::game::{DominoGame, rewards};
/// use domino::{Rules, State};
///
/// let mut state = State::deal(Rules::block(), 3);
/// while !state.is_terminal() {
///     let mv = state.legal_moves()[0];
///     state.play(mv).unwrap();
/// }
/// let r = rewards(&DominoGame, &state);
/// assert_eq!(r[0] + r[1], 1.0);
/// ```
pub fn rewards(_: &DominoGame, state: &State) -> Rewards {
    let [r0, r1] = state.returns();
    let mut rewards = [0.0; MAX_PLAYERS];
    match r0.cmp(&r1) {
        std::cmp::Ordering::Greater => rewards[0] = 1.0,
        std::cmp::Ordering::Less => rewards[1] = 1.0,
        std::cmp::Ordering::Equal => (rewards[0], rewards[1]) = (0.5, 0.5),
    }
    rewards
}

/// Every player is an agent of [`DominoGame`] that looks only at its seat's view.
macro_rules! seated_by_view {
    ($($player:ty),* $(,)?) => {$(
        impl Agent<DominoGame> for $player {
            fn name(&self) -> String {
                DominoPlayer::name(self)
            }

            fn choose(&mut self, _: &DominoGame, state: &State) -> Move {
                DominoPlayer::choose(self, &state.view(state.to_move()), state.rules())
            }
        }
    )*};
}

seated_by_view!(RandomPlayer, Greedy, PimcPlayer, ExpectimaxPlayer, SeedPlayer, dyn DominoPlayer);

/// The cheat reads the whole state, the one player that does.
impl Agent<DominoGame> for Omniscient {
    fn name(&self) -> String {
        match self.objective {
            Objective::WinLoss => "omniscient-wl (cheat)".to_string(),
            Objective::Points => "omniscient-pts (cheat)".to_string(),
        }
    }

    fn choose(&mut self, _: &DominoGame, state: &State) -> Move {
        self.choose_seeing_everything(state)
    }
}
