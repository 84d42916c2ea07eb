//! Tile and move notation, typed parse errors, and OpenSpiel's canonical moves.

use domino::{Move, ParseMoveError, ParseTileError, Rules, State, Tile, TileSet};

#[test]
fn moves_round_trip_and_errors_are_typed() {
    for text in ["3-5@3", "3-5@5", "0-0@0", "2-6", "draw", "pass"] {
        assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
    }
    assert_eq!("5-3@3".parse::<Move>().unwrap().to_string(), "3-5@3");
    assert!(matches!("3-5@4".parse::<Move>(), Err(ParseMoveError::EndNotOnTile { end: 4, .. })));
    assert!(matches!("3-5@x".parse::<Move>(), Err(ParseMoveError::End(_))));
    assert!(matches!("3-9@3".parse::<Move>(), Err(ParseMoveError::Tile(ParseTileError::Pip(_)))));
    assert!(matches!("dra".parse::<Move>(), Err(ParseMoveError::Tile(ParseTileError::Syntax(_)))));
}

fn deal(h0: &str, h1: &str) -> State {
    let set = |s: &str| s.split(' ').map(|t| t.parse::<Tile>().unwrap()).collect::<TileSet>();
    let hands = [set(h0), set(h1)];
    let dead: Vec<Tile> = (hands[0] | hands[1]).complement().iter().collect();
    State::from_hands(Rules::block(), hands, &dead).unwrap()
}

fn names(s: &State) -> Vec<String> {
    s.legal_moves().iter().map(Move::to_string).collect()
}

#[test]
fn equal_ends_give_one_move_per_tile() {
    let mut s = deal("3-3 0-1 0-2 0-4 0-5 0-6 1-2", "3-5 3-4 1-1 1-3 1-5 1-6 2-2");
    s.play("3-3".parse().unwrap()).unwrap();
    assert_eq!(s.ends(), Some((3, 3)));
    assert_eq!(names(&s), ["1-3@3", "3-4@3", "3-5@3"]);
}

#[test]
fn a_tile_matching_both_ends_gives_two_moves() {
    let mut s = deal("3-4 3-5 0-0 0-1 0-2 0-4 0-6", "4-5 1-1 1-2 1-4 1-6 2-2 2-4");
    s.play("3-4".parse().unwrap()).unwrap();
    s.play("4-5@4".parse().unwrap()).unwrap();
    assert_eq!(s.ends(), Some((3, 5)));
    assert_eq!(names(&s), ["3-5@3", "3-5@5"]);
    s.play("3-5@5".parse().unwrap()).unwrap();
    assert_eq!(s.ends(), Some((3, 3)));
}
