//! The Draw variant: drawing until playable, passing with an empty boneyard, blocked endings, and
//! the highest-double leader.

use domino::{BlockedScoring, Move, Outcome, Rules, State, Tile, TileSet};

fn tiles(s: &str) -> Vec<Tile> {
    s.split_whitespace().map(|t| t.parse().unwrap()).collect()
}

fn set(s: &str) -> TileSet {
    tiles(s).into_iter().collect()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// A deal for `rules` from two hands; the other tiles go to the boneyard, `first` drawn first.
fn deal(rules: Rules, h0: &str, h1: &str, first: &str) -> State {
    let hands = [set(h0), set(h1)];
    let mut stock = tiles(first);
    let rest = (hands[0] | hands[1] | stock.iter().copied().collect()).complement();
    stock.extend(rest.iter());
    State::from_hands(rules, hands, &stock).unwrap()
}

#[test]
fn a_player_draws_one_tile_at_a_time_until_able_to_play() {
    let mut s =
        deal(Rules::draw(), "6-6 0-0 0-1 0-2 0-3 0-4 0-5", "1-1 1-2 1-3 1-4 1-5 2-2 2-3", "2-4 3-3 5-6");
    assert_eq!(s.to_move(), 0, "the double six leads");
    s.play(mv("6-6")).unwrap();
    assert_eq!(s.to_move(), 1);
    for (drawn, left) in [("2-4", 13), ("3-3", 12)] {
        assert_eq!(s.legal_moves(), vec![Move::Draw]);
        s.play(Move::Draw).unwrap();
        assert!(s.hand(1).contains(drawn.parse().unwrap()));
        assert_eq!(s.boneyard_len(), left);
        assert_eq!(s.to_move(), 1, "the drawer keeps the turn");
    }
    assert_eq!(s.play(Move::Pass), Err(domino::MoveError::Illegal { mv: Move::Pass, player: 1 }));
    s.play(Move::Draw).unwrap();
    assert_eq!(s.legal_moves(), vec![mv("5-6@6")]);
    // The last drawn tile is unseen until it is played.
    assert_eq!(s.view(0).opponent_lacks(), 0);
    s.play(mv("5-6@6")).unwrap();
    assert_eq!(s.view(0).opponent_lacks(), 1 << 6);
    assert!(s.view(0).opponent_candidates().iter().all(|t| !t.has(6)));
    assert_eq!(s.ends(), Some((5, 6)));
    assert_eq!(s.to_move(), 0);
    assert_eq!(s.hand(1).len(), 9);
    assert!(s.is_partition());
}

/// Plays a game where all seven 0s are laid and both ends show 0, with an empty boneyard.
fn blocked_game(blocked: BlockedScoring) -> State {
    let rules = Rules { hand_size: 14, blocked, ..Rules::draw() };
    let mut s = deal(
        rules,
        "6-6 0-1 0-2 0-3 0-4 5-6 1-1 1-3 1-4 1-5 1-6 2-2 2-3 2-4",
        "1-2 0-0 3-4 0-5 0-6 2-5 2-6 3-3 3-5 3-6 4-4 4-5 4-6 5-5",
        "",
    );
    assert_eq!(s.boneyard_len(), 0);
    for m in ["0-1", "1-2@1", "0-2@2", "0-0@0", "0-3@0", "3-4@3", "0-4@4", "0-5@0", "5-6@5", "0-6@6"] {
        s.play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    assert_eq!(s.ends(), Some((0, 0)));
    s
}

#[test]
fn a_player_passes_only_with_an_empty_boneyard_and_two_passes_block() {
    let mut s = blocked_game(BlockedScoring::Draw);
    assert_eq!(s.legal_moves(), vec![Move::Pass]);
    s.play(Move::Pass).unwrap();
    assert!(!s.is_terminal());
    assert_eq!(s.to_move(), 1);
    assert_eq!(s.lacks(0), 1);
    assert_eq!(s.legal_moves(), vec![Move::Pass]);
    s.play(Move::Pass).unwrap();
    assert_eq!(s.outcome(), Some(Outcome::Blocked));
    assert_eq!(s.returns(), [0, 0], "a blocked Draw game is a draw");
    assert!(s.legal_moves().is_empty());
    assert_eq!(s.play(Move::Pass), Err(domino::MoveError::GameOver));
}

#[test]
fn other_blocked_scorings_use_the_pip_counts() {
    let finish = |b| {
        let mut s = blocked_game(b);
        s.play(Move::Pass).unwrap();
        s.play(Move::Pass).unwrap();
        (s.hand(0).pips() as i32, s.hand(1).pips() as i32, s.returns())
    };
    let (s0, s1, r) = finish(BlockedScoring::LoserPips);
    assert!(s0 < s1, "{s0} {s1}");
    assert_eq!(r, [s1, -s1]);
    let (_, _, r) = finish(BlockedScoring::Difference);
    assert_eq!(r, [s1 - s0, s0 - s1]);
}

#[test]
fn a_domino_scores_the_losers_pips() {
    let rules = Rules { hand_size: 1, ..Rules::draw() };
    let mut s = deal(rules, "2-3", "4-4", "");
    assert_eq!(s.to_move(), 1, "the only double leads");
    s.play(mv("4-4")).unwrap();
    assert_eq!(s.outcome(), Some(Outcome::Domino { winner: 1 }));
    assert_eq!(s.returns(), [-5, 5]);
}

#[test]
fn the_highest_double_leads_else_the_highest_tile() {
    let rules = |n| Rules { hand_size: n, ..Rules::draw() };
    assert_eq!(deal(rules(2), "0-0 1-2", "5-6 4-5", "").to_move(), 0);
    assert_eq!(deal(rules(2), "3-3 1-2", "5-5 4-5", "").to_move(), 1);
    assert_eq!(deal(rules(2), "1-2 3-6", "4-6 0-1", "").to_move(), 1);
    assert_eq!(deal(rules(2), "1-2 5-6", "4-6 0-1", "").to_move(), 0);
    // The leader may open with any tile.
    assert_eq!(deal(rules(2), "0-0 1-2", "5-6 4-5", "").legal_moves().len(), 2);
    // Block rules: player 0 always leads.
    let block = Rules { hand_size: 2, ..Rules::block() };
    assert_eq!(deal(block, "1-2 0-1", "6-6 5-5", "").to_move(), 0);
}
