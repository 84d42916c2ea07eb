//! 2048 agents through the workspace's match runner: `search_core::arena` deals the spawns as
//! chance outcomes, and the game it plays keeps every rule (slides that change the board, a
//! spawn after each, on an empty cell), the same seed giving the same game.

use game2048::agents::{Greedy, RandomAgent, Strong, StrongConfig};
use game2048::heuristics::{LineTable, MaxSqCoefSum};
use game2048::{Action, Game2048, Position, Rules, Turn};
use rand::SeedableRng;
use search_core::agent::Agent;
use search_core::{Game, ToMove, arena};

fn start(seed: u64) -> Position {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    Position::slide(Rules::seed().new_board(&mut rng))
}

#[test]
fn every_agent_plays_a_legal_game_through_the_arena() {
    let game = Game2048::chance(0.1);
    let strong_config = StrongConfig { max_depth: 2, min_depth: 1, ..StrongConfig::default() };
    let agents: Vec<Box<dyn Agent<Game2048>>> = vec![
        Box::new(RandomAgent::new(3)),
        Box::new(Greedy::new(MaxSqCoefSum)),
        Box::new(Strong::new(strong_config, LineTable::default())),
    ];
    for mut agent in agents {
        let played =
            arena::play(&game, &start(5), &mut [&mut agent as &mut dyn Agent<Game2048>], 11, Some(200));
        let mut position = start(5);
        for (i, &(who, action)) in played.moves.iter().enumerate() {
            match (position.turn, action) {
                (Turn::Slide, Action::Slide(d)) => {
                    assert_eq!(who, Some(0), "{}: move {i}", agent.name());
                    assert!(position.board.play(d).is_some(), "{}: move {i} changes nothing", agent.name());
                }
                (Turn::Spawn, Action::Spawn { cell, .. }) => {
                    assert_eq!(who, None);
                    assert_eq!(position.board.rank(usize::from(cell)), 0, "a spawn on an empty cell");
                }
                other => panic!("{}: move {i} out of turn: {other:?}", agent.name()),
            }
            position = game.play(&position, action);
        }
        assert_eq!(position, played.last);
        assert!(played.finished || played.moves.len() == 200);
        if played.finished {
            assert_eq!(game.to_move(&played.last), ToMove::Terminal);
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let game = Game2048::chance(0.1);
    let play = |seed: u64| {
        let mut greedy = Greedy::new(MaxSqCoefSum);
        arena::play(&game, &start(1), &mut [&mut greedy as &mut dyn Agent<Game2048>], seed, Some(100))
    };
    assert_eq!(play(4), play(4));
    assert_ne!(play(4).moves, play(5).moves);
}
