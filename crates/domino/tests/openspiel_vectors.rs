//! Replays OpenSpiel's block-dominoes games under `Rules::block()`.

use std::collections::BTreeSet;

use domino::{Move, Outcome, Rules, State, Tile, TileSet};
use serde::Deserialize;

/// One recorded game.
#[derive(Deserialize)]
struct Game {
    hands: [Vec<[u8; 2]>; 2],
    moves: Vec<(u8, u8, u8, Option<u8>)>,
    legal: Vec<Vec<(u8, u8, Option<u8>)>>,
    passes: Vec<usize>,
    ends: Vec<[u8; 2]>,
    result: String,
    returns: [i32; 2],
}

fn play(a: u8, b: u8, end: Option<u8>) -> Move {
    Move::Play { tile: Tile::new(a, b), end }
}

fn replay(game: &Game) -> Result<(), String> {
    let hand = |h: &[[u8; 2]]| h.iter().map(|&[a, b]| Tile::new(a, b)).collect::<TileSet>();
    let hands = [hand(&game.hands[0]), hand(&game.hands[1])];
    let dead: Vec<Tile> = (hands[0] | hands[1]).complement().iter().collect();
    let mut s = State::from_hands(Rules::block(), hands, &dead).map_err(|e| e.to_string())?;
    let mut passes = Vec::new();
    for (i, &(p, a, b, edge)) in game.moves.iter().enumerate() {
        if s.is_terminal() {
            return Err(format!("terminal before move {i}"));
        }
        if s.to_move() != p {
            return Err(format!("move {i}: to move {} not {p}", s.to_move()));
        }
        let ours: BTreeSet<String> = s.legal_moves().iter().map(Move::to_string).collect();
        let theirs: BTreeSet<String> =
            game.legal[i].iter().map(|&(a, b, e)| play(a, b, e).to_string()).collect();
        if ours != theirs {
            return Err(format!("move {i}: legal {ours:?} != {theirs:?}"));
        }
        s.play(play(a, b, edge)).map_err(|e| format!("move {i}: {e}"))?;
        let ends = s.ends().map(|(x, y)| [x, y]);
        if ends != Some(game.ends[i]) {
            return Err(format!("move {i}: ends {ends:?} != {:?}", game.ends[i]));
        }
        if !s.is_terminal() && s.to_move() == p {
            passes.push(i);
        }
    }
    if passes != game.passes {
        return Err(format!("passes {passes:?} != {:?}", game.passes));
    }
    let kind = match s.outcome() {
        Some(Outcome::Domino { .. }) => "domino",
        Some(Outcome::Blocked) => "blocked",
        None => return Err("not terminal at the end".into()),
    };
    if kind != game.result {
        return Err(format!("result {kind} != {}", game.result));
    }
    if s.returns() != game.returns {
        return Err(format!("returns {:?} != {:?}", s.returns(), game.returns));
    }
    Ok(())
}

/// Replays every line of `text`, naming the first failing line; returns the number of games.
fn replay_all(text: &str) -> Result<usize, String> {
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game: Game = serde_json::from_str(line).map_err(|e| format!("line {}: malformed: {e}", i + 1))?;
        replay(&game).map_err(|e| format!("line {}: {e}", i + 1))?;
        n += 1;
    }
    Ok(n)
}

#[test]
fn replays_every_openspiel_game() {
    let custom = std::env::var("DOMINO_VECTORS").ok();
    let path = custom.clone().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/block-dominoes-openspiel.jsonl").to_string()
    });
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let n = replay_all(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    if custom.is_none() {
        assert_eq!(n, 500);
    }
}

#[test]
fn a_malformed_line_is_named() {
    let good = include_str!("data/block-dominoes-openspiel.jsonl").lines().next().unwrap();
    let text = format!("{good}\n{{\"hands\": 3}}\n");
    let err = replay_all(&text).unwrap_err();
    assert!(err.starts_with("line 2: malformed"), "{err}");
}

#[test]
fn a_wrong_record_is_named() {
    let good = include_str!("data/block-dominoes-openspiel.jsonl").lines().next().unwrap();
    let bad = good.replace("\"returns\": [-25, 25]", "\"returns\": [25, -25]");
    let err = replay_all(&format!("{good}\n{bad}\n")).unwrap_err();
    assert!(err.starts_with("line 2: returns"), "{err}");
}
