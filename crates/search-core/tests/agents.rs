//! The agent adapters answer what their searches answer, and the arena plays games and matches
//! by the rules: legal moves only, chance outcomes in proportion to their probabilities, seats
//! swapped, the same seed giving the same game.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::agent::{Agent, AlphaBetaAgent, ExpectimaxAgent, IterativeAgent, MctsAgent, RandomAgent};
use search_core::arena::{self, MatchConfig, Seat};
use search_core::expectimax::{self, Reuse};
use search_core::tree::{NodeId, Shape, Tree, TreeEval};
use search_core::{
    Game, Horizon, Limits, MoveList, NoTable, OutcomeList, Player, ToMove, TranspositionTable, alphabeta,
    iterative, mcts,
};

fn tree(seed: u64, shape: &Shape) -> (Tree, NodeId) {
    Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), shape)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The alpha-beta agent plays the search's move, with or without a table, and reports its
    /// statistics.
    #[test]
    fn alphabeta_agent_plays_the_searchs_move(seed in any::<u64>(), depth in 1u32..5) {
        let shape = Shape { depth, chance: 0.0, ..Shape::default() };
        let (tree, root) = tree(seed, &shape);
        prop_assume!(matches!(tree.to_move(&root), ToMove::Player(_)));
        let eval = TreeEval::<i32>::new();
        let config = alphabeta::Config::depth(depth);
        let direct = alphabeta::search(&tree, &eval, &root, &config, NoTable);
        let mut plain = AlphaBetaAgent::new("ab", eval, config, NoTable);
        prop_assert_eq!(Some(plain.choose(&tree, &root)), direct.best_move);
        prop_assert_eq!(plain.last_stats().map(|s| s.nodes), Some(direct.stats.nodes));
        let mut tabled = AlphaBetaAgent::new("ab-tt", eval, config, TranspositionTable::<i32>::with_capacity(1 << 10));
        let mv = tabled.choose(&tree, &root);
        let values = search_core::minimax::move_values(&tree, &eval, &root, &Horizon::depth(depth));
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let mine = values.iter().find(|&&(m, _)| m == mv).unwrap().1;
        // With a table the move may differ among equals, never in value.
        prop_assert_eq!(mine, best);
    }

    /// The iterative-deepening agent plays the move of its last completed iteration.
    #[test]
    fn iterative_agent_plays_the_searchs_move(seed in any::<u64>(), depth in 1u32..5) {
        let shape = Shape { depth, chance: 0.0, ..Shape::default() };
        let (tree, root) = tree(seed, &shape);
        prop_assume!(matches!(tree.to_move(&root), ToMove::Player(_)));
        let eval = TreeEval::<i32>::new();
        let config = iterative::Config { limits: Limits::depth(depth), ..iterative::Config::default() };
        let direct = iterative::search(&tree, &eval, &root, &config, NoTable);
        let mut agent = IterativeAgent::new("id", eval, config, NoTable);
        prop_assert_eq!(Some(agent.choose(&tree, &root)), direct.result.best_move);
    }

    /// The expectimax agent plays the search's move on one-player trees with chance.
    #[test]
    fn expectimax_agent_plays_the_searchs_move(seed in any::<u64>(), depth in 1u32..5) {
        let shape = Shape { depth, chance: 0.4, two_players: false, ..Shape::default() };
        let (tree, root) = tree(seed, &shape);
        prop_assume!(matches!(tree.to_move(&root), ToMove::Player(_)));
        let eval = TreeEval::<f64>::new();
        let config = expectimax::Config { horizon: Horizon::depth(depth), reuse: Reuse::SameDepth, parallel: false };
        let direct = expectimax::search(&tree, &eval, &root, &config, &mut expectimax::ChanceTables::none());
        let mut agent = ExpectimaxAgent::new("em", eval, config, 1 << 6);
        prop_assert_eq!(Some(agent.choose(&tree, &root)), direct.best_move);
    }

    /// A game from the arena lists only legal moves and outcomes that the game offers, ends at
    /// a terminal state, and is the same game for the same seed.
    #[test]
    fn arena_games_follow_the_rules(seed in any::<u64>(), depth in 1u32..6) {
        let shape = Shape { depth, chance: 0.3, ..Shape::default() };
        let (tree, root) = tree(seed, &shape);
        let play = |s: u64| {
            let (mut a, mut b) = (RandomAgent::new(s), RandomAgent::new(s ^ 1));
            arena::play(&tree, &root, &mut [&mut a as &mut dyn Agent<Tree>, &mut b], s, None)
        };
        let played = play(seed);
        prop_assert!(played.finished);
        prop_assert_eq!(tree.to_move(&played.last), ToMove::Terminal);
        let mut state = root;
        for &(who, mv) in &played.moves {
            match tree.to_move(&state) {
                ToMove::Player(p) => {
                    prop_assert_eq!(who, Some(p));
                    let mut moves = MoveList::new();
                    tree.moves(&state, &mut moves);
                    prop_assert!(moves.contains(&mv));
                }
                ToMove::Chance => {
                    prop_assert_eq!(who, None);
                    let mut outcomes = OutcomeList::new();
                    tree.outcomes(&state, &mut outcomes);
                    prop_assert!(outcomes.iter().any(|&(o, p)| o == mv && p > 0.0));
                }
                ToMove::Terminal => prop_assert!(false, "a move after the end"),
            }
            state = tree.play(&state, mv);
        }
        prop_assert_eq!(state, played.last);
        prop_assert_eq!(play(seed), played);
    }
}

/// A coin: one chance node with outcomes 0 (probability 0.25) and 1 (0.75), then the end.
struct Coin;

impl Game for Coin {
    type State = Option<u32>;
    type Move = u32;
    fn to_move(&self, state: &Option<u32>) -> ToMove {
        if state.is_some() { ToMove::Terminal } else { ToMove::Chance }
    }
    fn moves(&self, _: &Option<u32>, _: &mut MoveList<u32>) {}
    fn outcomes(&self, _: &Option<u32>, outcomes: &mut OutcomeList<u32>) {
        outcomes.extend([(0, 0.25), (1, 0.75)]);
    }
    fn play(&self, _: &Option<u32>, mv: u32) -> Option<u32> {
        Some(mv)
    }
}

#[test]
fn chance_outcomes_come_in_proportion_to_their_probabilities() {
    let games = 4000;
    let ones: u32 = (0..games)
        .map(|seed| arena::play(&Coin, &None, &mut [], seed, None).last.expect("the coin fell"))
        .sum();
    let share = f64::from(ones) / f64::from(games as u32);
    // 0.75 ± 4 standard errors (0.0068 each) for 4,000 draws.
    assert!((share - 0.75).abs() < 0.03, "{share}");
}

#[test]
fn the_ply_limit_stops_a_game_unfinished() {
    let (tree, root) = Tree::perfectly_ordered(2, 6);
    let mut agent = RandomAgent::new(1);
    let played = arena::play(
        &tree,
        &root,
        &mut [&mut agent as &mut dyn Agent<Tree>, &mut RandomAgent::new(2)],
        0,
        Some(3),
    );
    assert!(!played.finished);
    assert_eq!(played.moves.len(), 3);
}

/// An agent that answers a move the game does not have.
struct Cheater;

impl Agent<Tree> for Cheater {
    fn name(&self) -> String {
        "cheater".into()
    }
    fn choose(&mut self, _: &Tree, _: &NodeId) -> u32 {
        99
    }
}

#[test]
#[should_panic(expected = "agent cheater answered 99, not a legal move")]
fn an_illegal_answer_is_refused() {
    let (tree, root) = Tree::perfectly_ordered(2, 2);
    arena::play(&tree, &root, &mut [&mut Cheater as &mut dyn Agent<Tree>, &mut Cheater], 0, None);
}

/// Nim with one pile of 1 to 3 stones taken a turn, whoever takes the last stone wins; the
/// tree has only the move counts, so the game is written here.
struct Nim;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Pile {
    stones: u32,
    to_move: Player,
}

impl Game for Nim {
    type State = Pile;
    type Move = u32;
    fn to_move(&self, p: &Pile) -> ToMove {
        if p.stones == 0 { ToMove::Terminal } else { ToMove::Player(p.to_move) }
    }
    fn moves(&self, p: &Pile, moves: &mut MoveList<u32>) {
        moves.extend((1..=3).filter(|&t| t <= p.stones));
    }
    fn play(&self, p: &Pile, t: u32) -> Pile {
        Pile { stones: p.stones - t, to_move: 1 - p.to_move }
    }
}

struct NimEval;

impl search_core::Evaluator<Nim> for NimEval {
    type Value = i32;
    fn evaluate(&self, _: &Nim, _: &Pile, _: Player) -> i32 {
        0
    }
    fn terminal(&self, _: &Nim, p: &Pile, player: Player, ply: u32) -> i32 {
        let score = 100 - ply as i32;
        if p.to_move == player { -score } else { score }
    }
}

/// The player who took the last stone (the one not to move at the empty pile) wins.
fn nim_result(_: &Nim, p: &Pile) -> mcts::Rewards {
    mcts::win_for(1 - p.to_move)
}

#[test]
fn a_match_swaps_seats_and_perfect_play_wins_every_won_start() {
    // Piles that are not multiples of 4 are won for the player to move: perfect play wins as
    // player 0 from them, and as player 1 from the multiples of 4.
    let starts: Vec<Pile> = (5..=12).map(|stones| Pile { stones, to_move: 0 }).collect();
    let mut perfect = AlphaBetaAgent::new("alphabeta", NimEval, alphabeta::Config::depth(20), NoTable);
    let mut random = RandomAgent::new(5);
    let m = arena::play_match(
        &Nim,
        &starts,
        &mut perfect,
        &mut random,
        &MatchConfig { seed: 100, ..MatchConfig::default() },
        nim_result,
    );
    assert_eq!((m.a.as_str(), m.b.as_str()), ("alphabeta", "random"));
    assert_eq!(m.games.len(), 16);
    for (i, g) in m.games.iter().enumerate() {
        assert_eq!(g.start, i / 2);
        assert_eq!(g.seat_a, Seat((i % 2) as u8));
        assert_eq!(g.seed, 100 + (i / 2) as u64);
        assert!(g.finished);
        let won_for_mover = !starts[g.start].stones.is_multiple_of(4);
        if won_for_mover == (g.seat_a == Seat(0)) {
            assert_eq!(g.score_a, 1.0, "game {i}: perfect play loses a won start");
        }
    }
    assert!(m.score_a() > 0.75, "{}", m.score_a());
    let (low, high) = m.interval_a();
    assert!(low < m.score_a() && m.score_a() <= high);
}

#[test]
fn the_mcts_agent_finds_the_nim_win_and_reports_its_iterations() {
    let config = mcts::Config::iterations(2_000).with_seed(3);
    let mut agent =
        MctsAgent::new("mcts", mcts::RandomPlayout::new(|p: &Pile| mcts::win_for(1 - p.to_move)), config);
    let mv = agent.choose(&Nim, &Pile { stones: 6, to_move: 0 });
    assert_eq!(mv, 2, "taking 2 leaves a multiple of 4");
    assert!(agent.last_stats().expect("it searched").nodes > 0);
}

#[test]
fn wilson_matches_known_intervals() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-3;
    let (low, high) = arena::wilson(21.0, 50);
    assert!(close(low, 0.2938) && close(high, 0.5577), "{low} {high}");
    let (low, high) = arena::wilson(14.0, 50);
    assert!(close(low, 0.1747) && close(high, 0.4167), "{low} {high}");
    assert_eq!(arena::wilson(0.0, 10).0, 0.0);
    assert!(close(arena::wilson(0.0, 10).1, 0.2775));
    assert!(close(arena::wilson(10.0, 10).0, 0.7225));
    assert_eq!(arena::wilson(10.0, 10).1, 1.0);
    assert_eq!(arena::wilson(0.0, 0), (0.0, 1.0));
    let (low, high) = arena::wilson(1.0, 2);
    assert!(close(low + high, 1.0), "symmetric at one half");
}

/// The sign test's tail, counted exactly in integers: twice the number of ways to split `n`
/// pairs at least as unevenly, over 2^n.
fn exact_sign_test(a: u64, b: u64) -> f64 {
    let n = a + b;
    let mut choose = 1u128;
    let mut ways = 0u128;
    for i in 0..=a.min(b) {
        ways += choose;
        choose = choose * u128::from(n - i) / u128::from(i + 1);
    }
    (2.0 * ways as f64 / (1u128 << n) as f64).min(1.0)
}

#[test]
fn sign_test_matches_known_values() {
    // Values quoted in the repository's match notes, and the exact binomial tails.
    assert!((arena::sign_test(16, 8) - 0.1516).abs() < 1e-4);
    assert!((arena::sign_test(44, 29) - 0.1007).abs() < 1e-3);
    assert!((arena::sign_test(24, 10) - 0.0243).abs() < 1e-3);
    assert_eq!(arena::sign_test(5, 5), 1.0);
    assert_eq!(arena::sign_test(0, 0), 1.0);
    assert!((arena::sign_test(0, 1) - 1.0).abs() < 1e-12);
    assert!((arena::sign_test(0, 10) - 2.0 / 1024.0).abs() < 1e-12);
    // Long runs stay finite and tiny rather than underflowing to nothing or overflowing.
    // 2^-1100 is below the smallest f64, but the tail is not: about 0.0028 (normal approximation).
    let long = arena::sign_test(600, 500);
    assert!(long > 0.002 && long < 0.004, "{long}");
    assert!(arena::sign_test(2000, 100) < 1e-100);
    assert!((arena::sign_test(1000, 1000) - 1.0).abs() < 1e-12);
}

proptest! {
    /// The logarithmic sum equals the integer count, is symmetric, and never leaves [0, 1].
    #[test]
    fn sign_test_equals_the_exact_count(a in 0u64..60, b in 0u64..60) {
        let p = arena::sign_test(a, b);
        prop_assert!((0.0..=1.0).contains(&p));
        prop_assert_eq!(p, arena::sign_test(b, a));
        let exact = exact_sign_test(a, b);
        prop_assert!((p - exact).abs() <= 1e-9 * exact.max(1e-300) + 1e-12, "{} against {}", p, exact);
    }
}
