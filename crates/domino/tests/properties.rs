//! Property tests: tiles are never lost or duplicated, and a view never shows the opponent's hand.

use domino::{BlockedScoring, Lead, Move, Rules, State, TileSet, Variant};
use proptest::prelude::*;

fn rules() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![Just(Variant::Block), Just(Variant::Draw)],
        1u8..=14,
        prop_oneof![Just(Lead::Player0AnyTile), Just(Lead::HighestDouble)],
        prop_oneof![
            Just(BlockedScoring::LoserPips),
            Just(BlockedScoring::Difference),
            Just(BlockedScoring::Draw)
        ],
    )
        .prop_map(|(variant, hand_size, lead, blocked)| Rules { variant, hand_size, lead, blocked })
}

proptest! {
    #[test]
    fn random_games_keep_the_partition_and_hide_the_opponent(
        rules in rules(),
        seed in any::<u64>(),
        picks in prop::collection::vec(any::<usize>(), 100),
    ) {
        let mut s = State::deal(rules, seed);
        let mut n_moves = 0;
        for pick in picks {
            prop_assert!(s.is_partition());
            for p in 0..2u8 {
                let v = s.view(p);
                let opp = s.hand(1 - p);
                prop_assert_eq!(v.hand(), s.hand(p));
                prop_assert_eq!(v.hand().0 & opp.0, 0);
                prop_assert_eq!(v.unknown().0 & opp.0, opp.0);
                prop_assert_eq!(v.opponent_candidates().0 & opp.0, opp.0);
                prop_assert_eq!(v.opponent_hand_len(), opp.len());
                prop_assert_eq!(v.unknown().len() as usize, opp.len() as usize + s.boneyard_len() + s.dead().len() as usize);
            }
            if s.is_terminal() {
                break;
            }
            let moves = s.legal_moves();
            prop_assert!(!moves.is_empty());
            let mv = moves[pick % moves.len()];
            if let Move::Play { tile, .. } = mv {
                prop_assert!(s.hand(s.to_move()).contains(tile));
            }
            prop_assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
            s.play(mv).unwrap();
            n_moves += 1;
        }
        prop_assert!(s.is_terminal(), "unfinished after {} moves", n_moves);
        let r = s.returns();
        prop_assert_eq!(r[0], -r[1]);
    }

    #[test]
    fn the_view_at_the_deal_does_not_depend_on_the_opponents_hand(
        seed in any::<u64>(),
        shift in 0usize..14,
    ) {
        let rules = Rules::block();
        let s = State::deal(rules, seed);
        // Give player 1 another hand drawn from the tiles player 0 cannot see.
        let unknown: Vec<_> = s.view(0).unknown().iter().collect();
        let h1: TileSet = (0..7).map(|i| unknown[(i + shift) % unknown.len()]).collect();
        let stock: Vec<_> = (s.hand(0) | h1).complement().iter().collect();
        let t = State::from_hands(rules, [s.hand(0), h1], &stock).unwrap();
        prop_assert_eq!(s.view(0), t.view(0));
    }
}
