//! Monte Carlo tree search against the minimax oracle on small win/loss trees, wins in one, and
//! determinism for a seed.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::mcts::{self, Config, Insight, Knowledge, RandomPlayout, RaveWeight, Rewards, Widening};
use search_core::tree::{NodeId, Shape, Tree, TreeEval};
use search_core::{Game, Horizon, MoveList, ToMove, WallClock, minimax};

/// A leaf worth more than 0 is a win for player 0, less a win for player 1, 0 a draw.
fn result(tree: &Tree, leaf: NodeId) -> Rewards {
    match tree.value(leaf).signum() {
        1 => mcts::win_for(0),
        -1 => mcts::win_for(1),
        _ => [0.5, 0.5, 0.0, 0.0],
    }
}

/// The minimax value of `node` for player 0, with every leaf read as its sign.
fn value_for_player0(tree: &Tree, node: NodeId) -> i32 {
    let found = minimax::search(tree, &TreeEval::<i32>::new(), &node, &Horizon::depth(64));
    // The oracle answers for the player to move (player 0 at a leaf).
    match tree.to_move(&node) {
        ToMove::Player(1) => -found.value,
        _ => found.value,
    }
}

/// Whether a move of `state` keeps its minimax value (the oracle's own moves), as a test.
fn keeps_value(tree: &Tree, state: NodeId) -> impl Fn(u32) -> bool + '_ {
    let value = value_for_player0(tree, state);
    move |mv| value_for_player0(tree, tree.play(&state, mv)) == value
}

/// A random two-player tree without chance whose leaves are wins, losses and draws.
fn win_loss_tree(seed: u64) -> (Tree, NodeId) {
    let shape = Shape {
        depth: 4,
        branching: 2..=4,
        chance: 0.0,
        early_leaf: 0.15,
        values: -1..=1,
        ..Shape::default()
    };
    Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &shape)
}

#[test]
fn uct_and_rave_agree_with_minimax_on_random_trees() {
    for seed in 0..60 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let root_value = value_for_player0(&tree, root);
        let counts = Config {
            rave_weight: RaveWeight::Counts { initial: 2.0, late: 500.0 },
            rave_prior: 5,
            ..Config::iterations(3_000).with_rave(50.0)
        };
        for config in [Config::iterations(3_000), Config::iterations(3_000).with_rave(50.0), counts] {
            let found = mcts::search(&tree, &root, &mut playout, &config.with_seed(seed));
            let mv = found.best_move.expect("the root is not a leaf");
            let child_value = value_for_player0(&tree, tree.play(&root, mv));
            assert_eq!(child_value, root_value, "seed {seed}, {config:?}: {found:?}");
        }
    }
}

#[test]
fn takes_a_win_in_one() {
    // Player 0 can win at once (third move) or go into a subtree where player 1 wins.
    let mut tree = Tree::new();
    let (win, loss, draw) = (tree.leaf(1), tree.leaf(-1), tree.leaf(0));
    let risky = tree.min(vec![draw, loss], 0);
    let lost = tree.min(vec![loss, loss], 0);
    let root = tree.max(vec![risky, lost, win, draw], 0);
    let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
    let found = mcts::search(&tree, &root, &mut playout, &Config::iterations(300));
    assert_eq!(found.best_move, Some(2));
    assert_eq!(found.moves.len(), 4);
    assert!(found.value > 0.9, "{found:?}");
    // The win is a terminal state: once reached it proves the root, and the search stops.
    assert_eq!(found.moves[2].winner, Some(0));
    assert!(found.iterations < 300, "{found:?}");
    assert_eq!(found.moves.iter().map(|m| u64::from(m.visits)).sum::<u64>(), found.iterations);
}

#[test]
fn deterministic_for_a_seed() {
    let (tree, root) = win_loss_tree(99);
    let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
    let config = Config::iterations(500).with_rave(20.0).with_seed(5);
    let a = mcts::search(&tree, &root, &mut playout, &config);
    let b = mcts::search(&tree, &root, &mut playout, &config);
    assert_eq!(
        (a.best_move, &a.moves, a.iterations, a.nodes),
        (b.best_move, &b.moves, b.iterations, b.nodes)
    );
    assert!(a.iterations > 0 && a.iterations <= 500);
}

#[test]
fn a_terminal_root_has_no_move() {
    let mut tree = Tree::new();
    let leaf = tree.leaf(1);
    let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
    let found = mcts::search(&tree, &leaf, &mut playout, &Config::iterations(10));
    assert_eq!((found.best_move, found.iterations, found.nodes), (None, 0, 1));
}

/// Three players in turn take 1 or 2 from a pile of 4; whoever takes the last stone wins.
struct ThreeNim;

impl Game for ThreeNim {
    type State = (u32, u8);
    type Move = u32;

    fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
        if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
    }
    fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
        moves.extend((1..=2).filter(|&take| take <= stones));
    }
    fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
        (stones - take, (player + 1) % 3)
    }
    // Moves numbered for RAVE: take 1 or 2.
    fn move_space(&self) -> usize {
        3
    }
    fn move_index(&self, take: u32) -> usize {
        take as usize
    }
}

#[test]
fn three_players_each_play_for_themselves() {
    // Two stones left: the player to move takes both and wins.
    let mut playout = RandomPlayout::new(|&(_, to_move): &(u32, u8)| mcts::win_for((to_move + 2) % 3));
    let found = mcts::search(&ThreeNim, &(2, 1), &mut playout, &Config::iterations(200));
    assert_eq!(found.best_move, Some(2));
}

/// The root moves' all-moves-as-first visits after one iteration of three-player Nim.
fn amaf_after_one_iteration(config: Config) -> Vec<(u32, u32, f64)> {
    let mut playout = RandomPlayout::new(|&(_, to_move): &(u32, u8)| mcts::win_for((to_move + 2) % 3));
    let found = mcts::search(&ThreeNim, &(9, 0), &mut playout, &Config { iterations: Some(1), ..config });
    found.moves.iter().map(|m| (m.mv, m.amaf_visits, m.amaf_value)).collect()
}

#[test]
fn a_rave_prior_starts_every_move_at_half_a_win() {
    let plain = amaf_after_one_iteration(Config::default().with_rave(100.0));
    let primed = amaf_after_one_iteration(Config { rave_prior: 8, ..Config::default().with_rave(100.0) });
    assert_eq!(plain.len(), primed.len());
    // The same seed plays the same iteration: each move has eight visits more, at one half.
    for (&(mv, visits, value), &(primed_mv, primed_visits, primed_value)) in plain.iter().zip(&primed) {
        assert_eq!((mv, visits + 8), (primed_mv, primed_visits));
        let wins = value * f64::from(visits) + 4.0;
        assert!((primed_value - wins / f64::from(primed_visits)).abs() < 1e-12, "{plain:?} {primed:?}");
    }
    // The one iteration played at least one root move as first.
    assert!(plain.iter().any(|&(_, visits, _)| visits == 1));
    // Without RAVE there are no all-moves-as-first statistics to start.
    let no_rave = amaf_after_one_iteration(Config { rave_prior: 8, ..Config::default() });
    assert!(no_rave.iter().all(|&(_, visits, _)| visits == 0), "{no_rave:?}");
}

#[test]
fn counted_rave_weights_fall_with_visits_and_rise_with_amaf_visits() {
    let weight = RaveWeight::Counts { initial: 2.5, late: 800.0 };
    let counts = [0_u32, 1, 2, 5, 10, 50, 100, 500, 1_000, 10_000, 100_000];
    for &amaf in &counts {
        for pair in counts.windows(2) {
            let (fewer, more) = (weight.beta(0.0, pair[0], amaf), weight.beta(0.0, pair[1], amaf));
            assert!((0.0..=1.0).contains(&fewer) && more <= fewer, "visits {pair:?}, amaf {amaf}");
        }
    }
    for &visits in &counts {
        for pair in counts.windows(2) {
            let (fewer, more) = (weight.beta(0.0, visits, pair[0]), weight.beta(0.0, visits, pair[1]));
            assert!((0.0..=1.0).contains(&more) && fewer <= more, "visits {visits}, amaf {pair:?}");
        }
    }
    // No own visit yet: the all-moves-as-first mean is all there is; none of those: nothing.
    assert_eq!(weight.beta(0.0, 0, 3), 1.0);
    assert_eq!(weight.beta(0.0, 3, 0), 0.0);
    // Gelly and Silver's schedule ignores the all-moves-as-first count.
    assert_eq!(RaveWeight::Equivalence.beta(300.0, 100, 1), RaveWeight::Equivalence.beta(300.0, 100, 9_999));
    assert!((RaveWeight::Equivalence.beta(300.0, 100, 1) - 0.5_f64.sqrt()).abs() < 1e-12);
}

#[test]
#[should_panic(expected = "chance")]
fn chance_nodes_panic() {
    let mut tree = Tree::new();
    let (a, b) = (tree.leaf(1), tree.leaf(-1));
    let root = tree.chance(vec![(a, 0.5), (b, 0.5)], 0);
    let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
    mcts::search(&tree, &root, &mut playout, &Config::iterations(10));
}

/// Knowledge that keeps every move: the search must be exactly the plain one.
struct KeepAll;

impl<G: Game> mcts::Knowledge<G> for KeepAll {
    fn analyse(&mut self, _: &G, _: &G::State, moves: &[G::Move]) -> Insight<G::Move> {
        Insight::Moves(moves.to_vec())
    }
}

/// Knowledge that keeps the moves of a state whose value is the state's minimax value (the
/// oracle's own moves), counting its calls; with `prove`, it names the winner too when there is
/// one (a draw proves nothing).
struct Oracle<'a> {
    tree: &'a Tree,
    calls: u32,
    prove: bool,
}

impl mcts::Knowledge<Tree> for Oracle<'_> {
    fn analyse(&mut self, tree: &Tree, state: &NodeId, moves: &[u32]) -> Insight<u32> {
        self.calls += 1;
        let value = value_for_player0(self.tree, *state);
        let kept: Vec<u32> = moves.iter().copied().filter(|&mv| keeps_value(tree, *state)(mv)).collect();
        match value.signum() {
            1 if self.prove => Insight::Solved { winner: 0, moves: kept },
            -1 if self.prove => Insight::Solved { winner: 1, moves: kept },
            _ => Insight::Moves(kept),
        }
    }
}

/// Knowledge that answers with no move at all, or with moves the state does not have.
struct Nonsense;

impl mcts::Knowledge<Tree> for Nonsense {
    fn analyse(&mut self, _: &Tree, state: &NodeId, _: &[u32]) -> Insight<u32> {
        // Moves are child numbers; none has a number this large.
        Insight::Moves(if state.is_multiple_of(2) { Vec::new() } else { vec![u32::MAX] })
    }
}

#[test]
fn knowledge_that_keeps_everything_changes_nothing() {
    for seed in 0..20 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        for after in [None, Some(0), Some(5)] {
            let config =
                Config { knowledge_after: after, ..Config::iterations(500).with_rave(50.0).with_seed(seed) };
            let plain = mcts::search(&tree, &root, &mut playout, &config);
            let clock = search_core::WallClock::start();
            let kept = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut KeepAll, &config, &clock);
            assert_eq!(
                (plain.best_move, &plain.moves, plain.iterations),
                (kept.best_move, &kept.moves, kept.iterations)
            );
        }
    }
}

#[test]
fn pruned_moves_are_never_searched_nor_reported() {
    for seed in 0..40 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let root_value = value_for_player0(&tree, root);
        let mut oracle = Oracle { tree: &tree, calls: 0, prove: false };
        let config = Config { knowledge_after: Some(3), ..Config::iterations(300).with_seed(seed) };
        let clock = search_core::WallClock::start();
        let found = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut oracle, &config, &clock);
        let Some(best) = found.best_move else { continue };
        // Every reported move is one the oracle kept, so any of them, the best too, is right.
        for stats in &found.moves {
            assert_eq!(value_for_player0(&tree, tree.play(&root, stats.mv)), root_value, "seed {seed}");
        }
        assert_eq!(value_for_player0(&tree, tree.play(&root, best)), root_value);
        // The kept moves are reported in generation order (the children are numbered in it).
        assert!(found.moves.windows(2).all(|w| w[0].mv < w[1].mv), "seed {seed}: {:?}", found.moves);
        // The root was asked, and so were nodes below it once visited three times.
        assert!(oracle.calls >= 1);
        let mut root_only = Oracle { tree: &tree, calls: 0, prove: false };
        let config = Config { knowledge_after: None, ..config };
        mcts::search_with_knowledge(&tree, &root, &mut playout, &mut root_only, &config, &clock);
        assert_eq!(root_only.calls, 1, "seed {seed}: without a threshold only the root is asked");
    }
}

/// Knowledge that analyses nothing but, when a node grows, marks inferior the moves whose
/// minimax value is worse for the mover than the node's (with `all`, every move), counting its
/// calls.
struct InferiorOracle<'a> {
    tree: &'a Tree,
    calls: u32,
    all: bool,
}

impl mcts::Knowledge<Tree> for InferiorOracle<'_> {
    fn analyse(&mut self, _: &Tree, _: &NodeId, _: &[u32]) -> Insight<u32> {
        Insight::Nothing
    }

    fn inferior(&mut self, _: &Tree, state: &NodeId, moves: &[u32], inferior: &mut [bool]) -> bool {
        self.calls += 1;
        let keeps = keeps_value(self.tree, *state);
        for (drop, &mv) in inferior.iter_mut().zip(moves) {
            *drop = self.all || !keeps(mv);
        }
        true
    }
}

#[test]
fn inferior_moves_are_left_out_from_the_start_and_all_inferior_means_none() {
    for seed in 0..40 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let root_value = value_for_player0(&tree, root);
        let config = Config::iterations(300).with_rave(50.0).with_seed(seed);
        let clock = search_core::WallClock::start();
        let mut oracle = InferiorOracle { tree: &tree, calls: 0, all: false };
        let found = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut oracle, &config, &clock);
        if let Some(best) = found.best_move {
            // Only the moves as good as the root's value are searched and reported.
            for stats in &found.moves {
                assert_eq!(value_for_player0(&tree, tree.play(&root, stats.mv)), root_value, "seed {seed}");
            }
            assert_eq!(value_for_player0(&tree, tree.play(&root, best)), root_value, "seed {seed}");
            assert!(oracle.calls >= 1, "seed {seed}: the knowledge was never asked");
        }
        // Dropping every move would leave a node nothing to search: the search keeps them all.
        let plain = mcts::search(&tree, &root, &mut playout, &config);
        let mut everything = InferiorOracle { tree: &tree, calls: 0, all: true };
        let all = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut everything, &config, &clock);
        assert_eq!((plain.best_move, &plain.moves), (all.best_move, &all.moves), "seed {seed}");
    }
}

#[test]
fn knowledge_that_keeps_no_real_move_is_ignored() {
    for seed in 0..20 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let config = Config { knowledge_after: Some(0), ..Config::iterations(300).with_seed(seed) };
        let plain = mcts::search(&tree, &root, &mut playout, &config);
        let clock = search_core::WallClock::start();
        let found = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut Nonsense, &config, &clock);
        assert_eq!(found.moves.len(), plain.moves.len(), "seed {seed}");
        assert_eq!(found.best_move, plain.best_move, "seed {seed}");
    }
}

#[test]
fn proofs_back_up_to_the_root_and_pick_a_winning_move() {
    let mut proved_roots = 0;
    for seed in 0..60 {
        let (tree, root) = win_loss_tree(seed);
        let root_value = value_for_player0(&tree, root);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let mut oracle = Oracle { tree: &tree, calls: 0, prove: true };
        let config = Config { knowledge_after: Some(2), ..Config::iterations(2_000).with_seed(seed) };
        let clock = search_core::WallClock::start();
        let found = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut oracle, &config, &clock);
        let Some(best) = found.best_move else { continue };
        assert_eq!(value_for_player0(&tree, tree.play(&root, best)), root_value, "seed {seed}: {found:?}");
        // Every proof reported is the minimax truth.
        for stats in &found.moves {
            if let Some(winner) = stats.winner {
                let value = value_for_player0(&tree, tree.play(&root, stats.mv));
                assert_eq!(value, if winner == 0 { 1 } else { -1 }, "seed {seed}: {stats:?}");
            }
        }
        if root_value != 0 && found.iterations < 2_000 {
            proved_roots += 1;
        }
    }
    // A root the oracle proves stops the search at once.
    assert!(proved_roots >= 5, "{proved_roots}");
}

#[test]
fn terminal_wins_alone_prove_small_trees_exactly() {
    // Without any knowledge, terminal states are proofs: enough iterations prove every root of
    // these small trees that is not a draw, and the search then stops.
    for seed in 0..40 {
        let (tree, root) = win_loss_tree(seed);
        let root_value = value_for_player0(&tree, root);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let config = Config::iterations(20_000).with_seed(seed);
        let found = mcts::search(&tree, &root, &mut playout, &config);
        let Some(best) = found.best_move else { continue };
        assert_eq!(value_for_player0(&tree, tree.play(&root, best)), root_value, "seed {seed}");
        let to_move = match tree.to_move(&root) {
            ToMove::Player(p) => p,
            _ => unreachable!("the root has moves"),
        };
        let root_wins = (root_value > 0) == (to_move == 0) && root_value != 0;
        if root_wins {
            assert!(found.iterations < 20_000, "seed {seed}: a won root was not proved");
            let stats = found.moves.iter().find(|m| m.mv == best).unwrap();
            assert_eq!(stats.winner, Some(to_move), "seed {seed}");
        }
    }
}

/// Priors from the minimax oracle: a move keeping the state's value gets `good`, the others 1;
/// counts its calls, and gives no priors unless `give`. It prunes nothing.
struct OraclePriors<'a> {
    tree: &'a Tree,
    good: f32,
    give: bool,
    calls: u32,
    /// Every state asked about, with the move said to have led to it.
    asked: Vec<(NodeId, Option<u32>)>,
}

impl mcts::Knowledge<Tree> for OraclePriors<'_> {
    fn analyse(&mut self, _: &Tree, _: &NodeId, _: &[u32]) -> Insight<u32> {
        Insight::Nothing
    }

    fn priors(
        &mut self,
        _: &Tree,
        state: &NodeId,
        last: Option<&u32>,
        moves: &[u32],
        priors: &mut [f32],
    ) -> bool {
        self.calls += 1;
        self.asked.push((*state, last.copied()));
        if !self.give {
            return false;
        }
        let keeps = keeps_value(self.tree, *state);
        for (prior, &mv) in priors.iter_mut().zip(moves) {
            *prior = if keeps(mv) { self.good } else { 1.0 };
        }
        true
    }
}

#[test]
fn priors_are_asked_only_with_a_weight_and_none_given_change_nothing() {
    for seed in 0..20 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let clock = search_core::WallClock::start();
        let config = Config::iterations(400).with_rave(50.0).with_seed(seed);
        let plain = mcts::search(&tree, &root, &mut playout, &config);
        // Without a weight the priors are never asked for.
        let mut priors = OraclePriors { tree: &tree, good: 5.0, give: true, calls: 0, asked: Vec::new() };
        let found = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut priors, &config, &clock);
        assert_eq!(priors.calls, 0);
        assert_eq!((plain.best_move, &plain.moves), (found.best_move, &found.moves));
        // A knowledge that declines to give priors leaves the search as it was.
        let mut flat = OraclePriors { tree: &tree, good: 5.0, give: false, calls: 0, asked: Vec::new() };
        let weighted = Config { prior_weight: 2.0, ..config };
        let found = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut flat, &weighted, &clock);
        assert!(flat.calls >= 1, "seed {seed}: the root's priors are asked for");
        assert_eq!((plain.best_move, &plain.moves), (found.best_move, &found.moves), "seed {seed}");
    }
}

#[test]
fn good_priors_steer_the_first_visits_to_the_right_moves() {
    // With few iterations, priors naming the minimax moves put more of the root's visits on
    // them than the plain search does, summed over many trees.
    let (mut plain_share, mut prior_share) = (0.0, 0.0);
    for seed in 0..40 {
        let (tree, root) = win_loss_tree(seed);
        let root_value = value_for_player0(&tree, root);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let clock = search_core::WallClock::start();
        let config = Config::iterations(30).with_seed(seed);
        let share = |found: &mcts::MctsResult<u32>| {
            let good: u32 = found
                .moves
                .iter()
                .filter(|m| value_for_player0(&tree, tree.play(&root, m.mv)) == root_value)
                .map(|m| m.visits)
                .sum();
            f64::from(good) / f64::from(found.moves.iter().map(|m| m.visits).sum::<u32>().max(1))
        };
        plain_share += share(&mcts::search(&tree, &root, &mut playout, &config));
        let mut priors = OraclePriors { tree: &tree, good: 20.0, give: true, calls: 0, asked: Vec::new() };
        let weighted = Config { prior_weight: 5.0, ..config };
        prior_share +=
            share(&mcts::search_with_knowledge(&tree, &root, &mut playout, &mut priors, &weighted, &clock));
    }
    assert!(
        prior_share > plain_share + 2.0,
        "with priors {prior_share:.2}, without {plain_share:.2} (of 40)"
    );
}

/// Priors in an order unrelated to the moves' order (a hash of the state and the move), with
/// ties, so that "highest prior first" and "first in move order" differ.
struct ShuffledPriors;

fn shuffled_prior(state: NodeId, mv: u32) -> f32 {
    let hash = (state as u64 ^ u64::from(mv)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60;
    1.0 + (hash % 5) as f32
}

impl mcts::Knowledge<Tree> for ShuffledPriors {
    fn analyse(&mut self, _: &Tree, _: &NodeId, moves: &[u32]) -> Insight<u32> {
        Insight::Moves(moves.to_vec())
    }

    fn priors(
        &mut self,
        _: &Tree,
        state: &NodeId,
        _: Option<&u32>,
        moves: &[u32],
        priors: &mut [f32],
    ) -> bool {
        for (prior, &mv) in priors.iter_mut().zip(moves) {
            *prior = shuffled_prior(*state, mv);
        }
        true
    }
}

#[test]
fn fresh_children_are_tried_by_prior_when_asked_and_in_move_order_otherwise() {
    let shape = Shape {
        depth: 3,
        branching: 5..=9,
        chance: 0.0,
        early_leaf: 0.0,
        values: -1..=1,
        ..Shape::default()
    };
    for seed in 0..20 {
        let (tree, root) = Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &shape);
        let mut moves = MoveList::new();
        tree.moves(&root, &mut moves);
        let moves: Vec<u32> = moves.iter().copied().collect();
        // Highest prior first, the first in move order among equals.
        let mut by_prior = moves.clone();
        by_prior.sort_by(|&a, &b| shuffled_prior(root, b).total_cmp(&shuffled_prior(root, a)));
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let clock = WallClock::start();
        for k in 1..=moves.len() {
            let mut visited = |fresh_by_prior: bool| {
                let config = Config {
                    prior_weight: 1.0,
                    fresh_by_prior,
                    ..Config::iterations(k as u64).with_seed(seed)
                };
                let found = mcts::search_with_knowledge(
                    &tree,
                    &root,
                    &mut playout,
                    &mut ShuffledPriors,
                    &config,
                    &clock,
                );
                let mut visited: Vec<u32> =
                    found.moves.iter().filter(|m| m.visits > 0).map(|m| m.mv).collect();
                visited.sort_unstable();
                visited
            };
            let mut expected = by_prior[..k].to_vec();
            expected.sort_unstable();
            assert_eq!(visited(true), expected, "seed {seed}, {k} iterations");
            let mut first = moves[..k].to_vec();
            first.sort_unstable();
            assert_eq!(visited(false), first, "seed {seed}, {k} iterations");
        }
        // With a RAVE prior no child is ever without statistics: the setting changes nothing.
        let config = Config {
            prior_weight: 1.0,
            rave_prior: 4,
            ..Config::iterations(300).with_rave(100.0).with_seed(seed)
        };
        let plain =
            mcts::search_with_knowledge(&tree, &root, &mut playout, &mut ShuffledPriors, &config, &clock);
        let config = Config { fresh_by_prior: true, ..config };
        let fresh =
            mcts::search_with_knowledge(&tree, &root, &mut playout, &mut ShuffledPriors, &config, &clock);
        assert_eq!((plain.best_move, &plain.moves), (fresh.best_move, &fresh.moves), "seed {seed}");
    }
}

#[test]
fn priors_are_told_the_move_that_led_to_each_node() {
    use search_core::WallClock;
    use search_core::mcts::SearchTree;
    let mut kept_asked = 0;
    for seed in 0..20 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let config = Config { prior_weight: 1.0, ..Config::iterations(500).with_seed(seed) };
        let mut priors = OraclePriors { tree: &tree, good: 2.0, give: true, calls: 0, asked: Vec::new() };
        let mut kept = SearchTree::new();
        mcts::search_in_tree(
            &tree,
            &root,
            &mut kept,
            &mut playout,
            &mut priors,
            &config,
            &WallClock::start(),
        );
        // The root of a fresh search has no move; every other node was reached from a node
        // expanded before it by the move it is told.
        assert_eq!(priors.asked[0], (root, None), "seed {seed}");
        for (i, &(state, last)) in priors.asked.iter().enumerate().skip(1) {
            let mv = last.unwrap_or_else(|| panic!("seed {seed}: no move for a node below the root"));
            let from_earlier = priors.asked[..i].iter().any(|&(parent, _)| {
                let mut moves = MoveList::new();
                tree.moves(&parent, &mut moves);
                moves.contains(&mv) && tree.play(&parent, mv) == state
            });
            assert!(from_earlier, "seed {seed}: node {state:?} told {mv}");
        }
        // A kept tree's new root was reached by the last move of the path.
        let mut path = Vec::new();
        let mut at = root;
        while path.len() < 2 && matches!(tree.to_move(&at), ToMove::Player(_)) {
            let mut moves = MoveList::new();
            tree.moves(&at, &mut moves);
            path.push(moves[0]);
            at = tree.play(&at, moves[0]);
        }
        if path.len() < 2 || !matches!(tree.to_move(&at), ToMove::Player(_)) || kept.advance(&path) == 0 {
            continue;
        }
        let mut again = OraclePriors { tree: &tree, good: 2.0, give: true, calls: 0, asked: Vec::new() };
        mcts::search_in_tree(&tree, &at, &mut kept, &mut playout, &mut again, &config, &WallClock::start());
        assert!(again.asked.iter().all(|&(_, last)| last.is_some()), "seed {seed}");
        kept_asked += again.asked.len();
    }
    assert!(kept_asked > 0, "no kept tree grew new nodes");
}

#[test]
fn a_kept_subtree_goes_on_where_the_moves_lead() {
    use search_core::WallClock;
    use search_core::mcts::SearchTree;
    let mut kept_some = 0;
    for seed in 0..40 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let config = Config::iterations(2_000).with_rave(50.0).with_seed(seed);
        let mut kept = SearchTree::new();
        let first = mcts::search_in_tree(
            &tree,
            &root,
            &mut kept,
            &mut playout,
            &mut (),
            &config,
            &WallClock::start(),
        );
        assert_eq!(u64::from(kept.root_visits()), first.iterations);
        // Our best move and the opponent's first reply, if the game goes on two more moves.
        let mine = first.best_move.expect("the root is not a leaf");
        let after = tree.play(&root, mine);
        let mut replies = MoveList::new();
        if !matches!(tree.to_move(&after), ToMove::Player(_)) {
            continue;
        }
        tree.moves(&after, &mut replies);
        let there = tree.play(&after, replies[0]);
        if !matches!(tree.to_move(&there), ToMove::Player(_)) {
            continue;
        }
        let visits = kept.advance(&[mine, replies[0]]);
        assert_eq!(visits, kept.root_visits() as usize);
        kept_some += usize::from(visits > 0);
        // Going on from the kept statistics still finds a move of the minimax value, and every
        // new iteration adds to the kept ones.
        let config = Config::iterations(3_000).with_rave(50.0).with_seed(seed + 1);
        let second = mcts::search_in_tree(
            &tree,
            &there,
            &mut kept,
            &mut playout,
            &mut (),
            &config,
            &WallClock::start(),
        );
        let mv = second.best_move.expect("not a leaf");
        assert_eq!(
            value_for_player0(&tree, tree.play(&there, mv)),
            value_for_player0(&tree, there),
            "seed {seed}"
        );
        assert_eq!(kept.root_visits() as usize, visits + second.iterations as usize, "seed {seed}");
        // A search from nothing on the same position sees only its own iterations.
        let fresh = mcts::search(&tree, &there, &mut playout, &config);
        let total = |r: &mcts::MctsResult<_>| r.moves.iter().map(|m| u64::from(m.visits)).sum::<u64>();
        if !second.moves.iter().any(|m| m.winner.is_some()) && visits > 0 {
            assert!(total(&second) > total(&fresh), "seed {seed}: {second:?} vs {fresh:?}");
        }
    }
    assert!(kept_some > 20, "the subtree was kept in only {kept_some} of 40 trees");
}

#[test]
fn advancing_off_the_tree_empties_it() {
    use search_core::WallClock;
    use search_core::mcts::SearchTree;
    let (tree, root) = win_loss_tree(7);
    let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
    let mut kept = SearchTree::new();
    mcts::search_in_tree(
        &tree,
        &root,
        &mut kept,
        &mut playout,
        &mut (),
        &Config::iterations(200),
        &WallClock::start(),
    );
    assert!(!kept.is_empty());
    let nodes = kept.len();
    // No moves: the same root, nothing lost.
    assert_eq!(kept.advance(&[]), 200);
    assert_eq!(kept.len(), nodes);
    // A move the root does not have.
    assert_eq!(kept.advance(&[999]), 0);
    assert!(kept.is_empty());
    assert_eq!(kept.root_visits(), 0);
    // An empty tree searches afresh.
    let found = mcts::search_in_tree(
        &tree,
        &root,
        &mut kept,
        &mut playout,
        &mut (),
        &Config::iterations(100),
        &WallClock::start(),
    );
    assert_eq!(u64::from(kept.root_visits()), found.iterations);
}

/// Nim (two players in turn take 1, 2 or 3 stones; whoever takes the last stone wins) whose
/// piles remember whether they descend from a state [`Marking`] replaced: such a pile names
/// its moves 11 to 13 instead of 1 to 3, and only the replacing state itself (its kept moves
/// were generated before it) may still be played with the old names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pile {
    stones: u32,
    player: u8,
    marked: bool,
    fresh: bool,
}

impl Pile {
    fn new(stones: u32) -> Pile {
        Pile { stones, player: 0, marked: false, fresh: false }
    }
}

struct MarkedNim;

impl Game for MarkedNim {
    type State = Pile;
    type Move = u32;

    fn to_move(&self, pile: &Pile) -> ToMove {
        if pile.stones == 0 { ToMove::Terminal } else { ToMove::Player(pile.player) }
    }
    fn moves(&self, pile: &Pile, moves: &mut MoveList<u32>) {
        let name = if pile.marked { 10 } else { 0 };
        moves.extend((1..=3).filter(|&take| take <= pile.stones).map(|take| take + name));
    }
    fn play(&self, pile: &Pile, mv: u32) -> Pile {
        assert!(
            mv > 10 || !pile.marked || pile.fresh,
            "move {mv} generated from an old state played at {pile:?}"
        );
        assert!(mv < 10 || pile.marked, "move {mv} generated from a marked state played at {pile:?}");
        let take = mv % 10;
        assert!(take <= pile.stones);
        Pile { stones: pile.stones - take, player: 1 - pile.player, marked: pile.marked, fresh: false }
    }
}

/// Knowledge that keeps every move and replaces an unmarked pile of `piles` stones by the
/// marked pile of 4 to 7 with the same remainder mod 4, which has the same winner.
struct Marking {
    piles: std::ops::RangeInclusive<u32>,
    replaced: u32,
}

impl Knowledge<MarkedNim> for Marking {
    fn analyse(&mut self, _: &MarkedNim, _: &Pile, moves: &[u32]) -> Insight<u32> {
        Insight::Moves(moves.to_vec())
    }
    fn equivalent(&mut self, _: &MarkedNim, pile: &Pile, _: &[u32]) -> Option<Pile> {
        (!pile.marked && self.piles.contains(&pile.stones)).then(|| {
            self.replaced += 1;
            Pile { stones: 4 + pile.stones % 4, marked: true, fresh: true, ..*pile }
        })
    }
}

/// A random Nim playout that records the largest pile it started from.
struct Recording {
    largest: u32,
}

impl mcts::Playout<MarkedNim> for Recording {
    fn playout(
        &mut self,
        game: &MarkedNim,
        pile: &Pile,
        rng: &mut mcts::McRng,
        trace: &mut Vec<(u8, u32)>,
    ) -> Rewards {
        self.largest = self.largest.max(pile.stones);
        // At an empty pile the player to move is the one who did not take the last stone.
        RandomPlayout::new(|pile: &Pile| mcts::win_for(1 - pile.player)).playout(game, pile, rng, trace)
    }
}

/// A search of `stones` with `knowledge` after `after` visits: its result, and the largest
/// pile a playout started from.
fn marked_search(
    stones: u32,
    knowledge: &mut Marking,
    after: u32,
    seed: u64,
) -> (mcts::MctsResult<u32>, u32) {
    let config = Config {
        knowledge_after: Some(after),
        expand_after: 1,
        ..Config::iterations(3_000).with_rave(100.0).with_seed(seed)
    };
    let mut playout = Recording { largest: 0 };
    let clock = search_core::WallClock::start();
    let found =
        mcts::search_with_knowledge(&MarkedNim, &Pile::new(stones), &mut playout, knowledge, &config, &clock);
    (found, playout.largest)
}

#[test]
fn an_equivalent_state_replaces_the_node_state_below_it() {
    // 21 stones: taking 1 leaves a multiple of 4, the only winning move. The root, analysed
    // before the search, becomes a pile of 5 at once, so every playout starts from at most 4.
    for after in [0, 3] {
        let mut knowledge = Marking { piles: 8..=u32::MAX, replaced: 0 };
        let (found, largest) = marked_search(21, &mut knowledge, after, 3);
        assert_eq!(found.best_move, Some(1), "{after}");
        assert_eq!(knowledge.replaced, 1, "only the root's pile is 8 or more");
        assert!(largest <= 4, "a playout started from {largest} stones");
    }
    // Without the replacement, playouts start from the real piles.
    let (_, largest) = marked_search(21, &mut Marking { piles: 0..=0, replaced: 0 }, 0, 3);
    assert!(largest >= 18);
}

#[test]
fn a_node_replaced_late_drops_the_subtrees_grown_from_its_old_state() {
    // The root's children, 21, 20 and 19 stones, grow subtrees before the knowledge comes
    // (after 50 visits); then each becomes a marked pile of 4 to 7, whose descendants name
    // their moves differently: the subtrees grown below its children must be dropped and
    // grown again, or the game refuses their moves.
    for seed in 0..5 {
        let mut knowledge = Marking { piles: 19..=21, replaced: 0 };
        let (found, _) = marked_search(22, &mut knowledge, 50, seed);
        // 22 stones: take 2 (the search ends early once the small piles prove the root won).
        assert_eq!(found.best_move, Some(2));
        assert_eq!(found.moves.iter().find(|m| m.mv == 2).and_then(|m| m.winner), Some(0));
        assert!(knowledge.replaced >= 1);
    }
}

#[test]
fn a_kept_tree_drops_what_grew_below_replaced_nodes_and_asks_again() {
    // The replacements belong to one search: a second search on the kept tree starts from the
    // unmarked piles again, so the marked moves grown below them must go, and the knowledge
    // is asked again on the next visit.
    let mut tree = mcts::SearchTree::new();
    let mut knowledge = Marking { piles: 21..=21, replaced: 0 };
    let mut playout = Recording { largest: 0 };
    // Few iterations a search, so that the root is not yet proved won and the next search
    // goes on through the replaced nodes.
    let config =
        Config { knowledge_after: Some(20), expand_after: 1, ..Config::iterations(60).with_rave(100.0) };
    let clock = search_core::WallClock::start();
    let root = Pile::new(22);
    let mut replaced = vec![0];
    for _ in 0..4 {
        mcts::search_in_tree(&MarkedNim, &root, &mut tree, &mut playout, &mut knowledge, &config, &clock);
        replaced.push(knowledge.replaced);
        tree.advance(&[]);
    }
    // The pile of 21 (after taking 1) is replaced in the first search and again in the next,
    // on its first visit.
    assert_eq!(replaced[1..3], [1, 2], "{replaced:?}");
}

/// Nim (take 1, 2 or 3; whoever takes the last stone wins) as `(stones, player)`.
struct TwoNim;

impl Game for TwoNim {
    type State = (u32, u8);
    type Move = u32;

    fn to_move(&self, &(stones, player): &(u32, u8)) -> ToMove {
        if stones == 0 { ToMove::Terminal } else { ToMove::Player(player) }
    }
    fn moves(&self, &(stones, _): &(u32, u8), moves: &mut MoveList<u32>) {
        moves.extend((1..=3).filter(|&take| take <= stones));
    }
    fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
        assert!(take <= stones, "take {take} of {stones}");
        (stones - take, 1 - player)
    }
}

/// Knowledge that replaces a pile of 8 by a pile of 4, which has the same winner (the player to
/// move loses both) and the same moves, as Hex's fill-in replaces a position by one with more
/// stones: below it the search's states are smaller than the game's.
struct Shrink;

impl Knowledge<TwoNim> for Shrink {
    fn analyse(&mut self, _: &TwoNim, _: &(u32, u8), moves: &[u32]) -> Insight<u32> {
        Insight::Moves(moves.to_vec())
    }
    fn equivalent(&mut self, _: &TwoNim, &(stones, player): &(u32, u8), _: &[u32]) -> Option<(u32, u8)> {
        (stones == 8).then_some((4, player))
    }
}

#[test]
fn a_kept_root_that_ended_the_game_below_a_replaced_state_is_grown_again() {
    // From 8 stones the root becomes 4 at once: after taking 3 and 1 the search's game is over
    // (a node without children, proved), where the real game has 4 stones left. Kept as the
    // next search's root, that node must be grown again from the real pile and searched, not
    // answered with no move (nor read past the kept tree's end).
    let playout = || RandomPlayout::new(|&(_, player): &(u32, u8)| mcts::win_for(1 - player));
    let config =
        Config { knowledge_after: Some(0), expand_after: 1, ..Config::iterations(2_000).with_seed(5) };
    let mut tree = mcts::SearchTree::new();
    let clock = WallClock::start();
    mcts::search_in_tree(&TwoNim, &(8, 0), &mut tree, &mut playout(), &mut Shrink, &config, &clock);
    assert!(tree.advance(&[3, 1]) > 0, "the search went through taking 3, then 1");
    assert_eq!(tree.len(), 1, "the search's game ended there: no children");
    let found =
        mcts::search_in_tree(&TwoNim, &(4, 0), &mut tree, &mut playout(), &mut Shrink, &config, &clock);
    assert!(found.best_move.is_some_and(|take| (1..=3).contains(&take)), "{found:?}");
    assert_eq!(found.moves.len(), 3);
    assert!(found.iterations > 0);
    // Every move loses from 4 stones: the search proves it.
    assert!(found.moves.iter().all(|m| m.winner == Some(1)), "{found:?}");
}

/// What a knowledge was asked, in order.
#[derive(Debug, PartialEq)]
enum Asked {
    Analyse((u32, u8)),
    Priors((u32, u8), Option<u32>),
}

/// Records every question; its analyses keep every move, its priors like taking one stone.
struct Recorder {
    asked: Vec<Asked>,
    changes_priors: bool,
}

impl Knowledge<ThreeNim> for Recorder {
    fn analyse(&mut self, _: &ThreeNim, state: &(u32, u8), moves: &[u32]) -> Insight<u32> {
        self.asked.push(Asked::Analyse(*state));
        Insight::Moves(moves.to_vec())
    }
    fn priors(
        &mut self,
        _: &ThreeNim,
        state: &(u32, u8),
        last: Option<&u32>,
        moves: &[u32],
        priors: &mut [f32],
    ) -> bool {
        self.asked.push(Asked::Priors(*state, last.copied()));
        for (prior, &take) in priors.iter_mut().zip(moves) {
            *prior = if take == 1 { 2.0 } else { 1.0 };
        }
        true
    }
    fn analysis_changes_priors(&self) -> bool {
        self.changes_priors
    }
}

#[test]
fn an_analysis_that_changes_priors_has_the_expanded_children_asked_again() {
    let config =
        Config { prior_weight: 1.0, knowledge_after: Some(4), ..Config::iterations(300).with_rave(100.0) };
    let run = |changes_priors: bool| {
        let mut recorder = Recorder { asked: Vec::new(), changes_priors };
        let mut playout = RandomPlayout::new(|&(_, to_move): &(u32, u8)| mcts::win_for((to_move + 2) % 3));
        mcts::search_with_knowledge(
            &ThreeNim,
            &(12, 0),
            &mut playout,
            &mut recorder,
            &config,
            &WallClock::start(),
        );
        recorder.asked
    };
    // The priors here do not change, so both searches run alike, and the one whose analyses
    // change priors asks only more: right after each analysis, about each child of the
    // analysed state that had been asked about before (and so had children).
    let (asked, plain) = (run(true), run(false));
    let (mut matched, mut last_analysis, mut extra) = (0, None, 0);
    for (i, question) in asked.iter().enumerate() {
        if plain.get(matched) == Some(question) {
            matched += 1;
            if let Asked::Analyse(state) = *question {
                last_analysis = Some((i, state));
            }
            continue;
        }
        let Asked::Priors(state, Some(take)) = *question else { panic!("extra question {i}: {question:?}") };
        let (at, (stones, player)) = last_analysis.expect("an analysis before");
        assert!(asked[at + 1..i].iter().all(|q| matches!(q, Asked::Priors(..))), "{i}: {asked:?}");
        assert_eq!(state, (stones - take, (player + 1) % 3), "{i}: not a child of the analysed state");
        assert!(asked[..at].contains(question), "{i}: a child without children");
        extra += 1;
    }
    assert_eq!(matched, plain.len());
    assert!(extra > 0, "no analysis came after a child had children: {asked:?}");
}

/// Each root move's visits, in generation order.
fn root_visits(found: &mcts::MctsResult<u32>) -> Vec<(u32, u32)> {
    found.moves.iter().map(|m| (m.mv, m.visits)).collect()
}

#[test]
fn plain_steps_at_every_step_are_uct_without_rave() {
    for seed in 0..30 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let uct = Config { exploration: 0.4, ..Config::iterations(600).with_seed(seed) };
        let plain = Config { plain_every: 1, ..uct.with_rave(50.0) };
        let (a, b) = (
            mcts::search(&tree, &root, &mut playout, &uct),
            mcts::search(&tree, &root, &mut playout, &plain),
        );
        assert_eq!((a.best_move, root_visits(&a)), (b.best_move, root_visits(&b)), "seed {seed}");
        // RAVE still learnt beside the plain steps.
        assert!(b.moves.iter().any(|m| m.amaf_visits > 0), "seed {seed}: {b:?}");
        // One plain step in three is neither of the two searches.
        let mixed = Config { plain_every: 3, ..plain };
        let rave = Config { plain_every: 0, ..plain };
        let (c, d) = (
            mcts::search(&tree, &root, &mut playout, &mixed),
            mcts::search(&tree, &root, &mut playout, &rave),
        );
        let mv = c.best_move.expect("the root is not a leaf");
        assert_eq!(
            value_for_player0(&tree, tree.play(&root, mv)),
            value_for_player0(&tree, root),
            "seed {seed}: {c:?}"
        );
        let _ = d;
    }
}

#[test]
fn some_plain_steps_change_the_search_and_keep_it_deterministic() {
    let mut changed = 0;
    for seed in 0..30 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let rave = Config { exploration: 0.0, ..Config::iterations(600).with_rave(50.0).with_seed(seed) };
        let mixed = Config { plain_every: 3, ..rave };
        let a = mcts::search(&tree, &root, &mut playout, &mixed);
        let b = mcts::search(&tree, &root, &mut playout, &mixed);
        assert_eq!(a.moves, b.moves, "seed {seed}");
        let c = mcts::search(&tree, &root, &mut playout, &rave);
        changed += usize::from(root_visits(&a) != root_visits(&c));
    }
    assert!(changed > 0, "one plain step in three never changed the root's visits");
}

#[test]
fn exploration_in_the_mean_needs_rave_and_an_exploration_term() {
    let mut differ = 0;
    for seed in 0..30 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let root_value = value_for_player0(&tree, root);
        // Without RAVE the term has nowhere else to go: the same search.
        let uct = Config { exploration: 0.7, ..Config::iterations(500).with_seed(seed) };
        let inside = Config { exploration_in_mean: true, ..uct };
        let (a, b) = (
            mcts::search(&tree, &root, &mut playout, &uct),
            mcts::search(&tree, &root, &mut playout, &inside),
        );
        assert_eq!(a.moves, b.moves, "seed {seed}");
        // With RAVE and no term: the same search too.
        let rave = Config { exploration: 0.0, ..Config::iterations(500).with_rave(50.0).with_seed(seed) };
        let inside = Config { exploration_in_mean: true, ..rave };
        let (a, b) = (
            mcts::search(&tree, &root, &mut playout, &rave),
            mcts::search(&tree, &root, &mut playout, &inside),
        );
        assert_eq!(a.moves, b.moves, "seed {seed}");
        // With both, the term moves visits: the search differs from the term outside.
        let outside = Config { exploration: 0.7, ..rave };
        let inside = Config { exploration_in_mean: true, ..outside };
        let (a, b) = (
            mcts::search(&tree, &root, &mut playout, &outside),
            mcts::search(&tree, &root, &mut playout, &inside),
        );
        differ += usize::from(root_visits(&a) != root_visits(&b));
        // MoHex's form of the whole selection, with its progressive bias (which is what tries a
        // move no all-moves-as-first result has reached), still finds a minimax move.
        let mohex = Config {
            exploration: 0.22,
            exploration_in_mean: true,
            rave_weight: RaveWeight::Counts { initial: 2.12, late: 830.0 },
            rave_prior: 8,
            plain_every: 30,
            first_play_urgency: Some(0.35),
            prior_weight: 2.47,
            ..Config::iterations(3_000).with_rave(500.0).with_seed(seed)
        };
        let clock = WallClock::start();
        let found =
            mcts::search_with_knowledge(&tree, &root, &mut playout, &mut ShuffledPriors, &mohex, &clock);
        let mv = found.best_move.expect("the root is not a leaf");
        assert_eq!(value_for_player0(&tree, tree.play(&root, mv)), root_value, "seed {seed}: {found:?}");
    }
    assert!(differ > 0, "the term inside RAVE's mix never changed the root's visits");
}

#[test]
fn first_play_urgency_leaves_fresh_moves_behind_a_better_mean() {
    // Move 0 always draws (0.5 for player 0); moves 1 and 2 are never tried while a fresh
    // move scores 0.2 and there is no exploration term, but are tried first without urgency.
    let mut tree = Tree::new();
    let (win, loss, draw) = (tree.leaf(1), tree.leaf(-1), tree.leaf(0));
    let a = tree.min(vec![draw, draw], 0);
    let b = tree.min(vec![win, loss], 0);
    let c = tree.min(vec![loss, win], 0);
    let root = tree.max(vec![a, b, c], 0);
    let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
    let config = Config { exploration: 0.0, first_play_urgency: Some(0.2), ..Config::iterations(300) };
    let found = mcts::search(&tree, &root, &mut playout, &config);
    assert_eq!(root_visits(&found), vec![(0, 300), (1, 0), (2, 0)]);
    // Above the draw's mean, each fresh move is tried once it is the best score.
    let eager = Config { first_play_urgency: Some(0.9), ..config };
    let found = mcts::search(&tree, &root, &mut playout, &eager);
    assert!(found.moves.iter().all(|m| m.visits > 0), "{found:?}");
    // Without urgency every fresh move comes first.
    let first = Config { first_play_urgency: None, ..config };
    let found = mcts::search(&tree, &root, &mut playout, &first);
    assert!(found.moves.iter().all(|m| m.visits > 0), "{found:?}");
    assert_eq!(found.best_move, Some(0));
}

/// Proof attempts from the minimax oracle ([`Knowledge::prove`]): the winner of every state
/// that is not a draw (with `prove`), nothing otherwise; every state asked is recorded. The
/// analysis keeps every move.
struct Prover<'a> {
    tree: &'a Tree,
    prove: bool,
    asked: Vec<NodeId>,
}

impl mcts::Knowledge<Tree> for Prover<'_> {
    fn analyse(&mut self, _: &Tree, _: &NodeId, _: &[u32]) -> Insight<u32> {
        Insight::Nothing
    }

    fn prove(&mut self, _: &Tree, state: &NodeId) -> Option<u8> {
        self.asked.push(*state);
        match value_for_player0(self.tree, *state).signum() {
            1 if self.prove => Some(0),
            -1 if self.prove => Some(1),
            _ => None,
        }
    }
}

/// A random win/loss tree deeper than [`win_loss_tree`], where terminal states alone prove
/// little in a few thousand iterations.
fn deep_tree(seed: u64) -> (Tree, NodeId) {
    let shape = Shape {
        depth: 7,
        branching: 2..=3,
        chance: 0.0,
        early_leaf: 0.05,
        values: -1..=1,
        ..Shape::default()
    };
    Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &shape)
}

#[test]
fn proof_attempts_skip_the_root_prove_nodes_below_it_and_back_up() {
    let mut faster = 0;
    for seed in 0..30 {
        let (tree, root) = deep_tree(seed);
        let root_value = value_for_player0(&tree, root);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let config = Config { knowledge_after: Some(1_000_000), ..Config::iterations(4_000).with_seed(seed) };
        let clock = WallClock::start();
        // Without `prove_after` nothing is asked.
        let mut prover = Prover { tree: &tree, prove: true, asked: Vec::new() };
        let plain = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut prover, &config, &clock);
        assert!(prover.asked.is_empty());
        let config = Config { prove_after: Some(3), ..config };
        let mut prover = Prover { tree: &tree, prove: true, asked: Vec::new() };
        let found = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut prover, &config, &clock);
        assert!(!prover.asked.contains(&root), "seed {seed}: the root was asked");
        let Some(best) = found.best_move else { continue };
        assert_eq!(value_for_player0(&tree, tree.play(&root, best)), root_value, "seed {seed}: {found:?}");
        for stats in &found.moves {
            if let Some(winner) = stats.winner {
                let value = value_for_player0(&tree, tree.play(&root, stats.mv));
                assert_eq!(value, if winner == 0 { 1 } else { -1 }, "seed {seed}: {stats:?}");
            }
        }
        // A root won for its mover is proved from its children's proofs, sooner than from the
        // terminal states alone.
        let ToMove::Player(to_move) = tree.to_move(&root) else { unreachable!("the root has moves") };
        if root_value != 0 && (root_value > 0) == (to_move == 0) {
            assert!(found.iterations < 4_000, "seed {seed}: a won root was not proved");
            assert!(found.iterations <= plain.iterations, "seed {seed}");
            faster += u32::from(found.iterations < plain.iterations);
        }
    }
    assert!(faster >= 5, "{faster}");
}

#[test]
fn a_node_left_open_is_asked_again_at_four_times_the_visits() {
    let (tree, root) = deep_tree(7);
    let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
    let iterations = 5_000;
    let config =
        Config { knowledge_after: Some(1_000_000), prove_after: Some(2), ..Config::iterations(iterations) };
    let mut prover = Prover { tree: &tree, prove: false, asked: Vec::new() };
    let found =
        mcts::search_with_knowledge(&tree, &root, &mut playout, &mut prover, &config, &WallClock::start());
    assert!(found.iterations > 0);
    let mut counts = std::collections::HashMap::new();
    for state in &prover.asked {
        *counts.entry(*state).or_insert(0u32) += 1;
    }
    // A node visited v times is asked at 2, 8, 32, ... visits: at most 1 + log4(v / 2) times.
    let most = 1 + (found.iterations as f64 / 2.0).log(4.0).floor() as u32;
    assert!(counts.values().all(|&n| n <= most), "{counts:?}");
    assert!(counts.values().any(|&n| n >= 3), "{counts:?}");
}

/// The root's moves ranked by [`shuffled_prior`], the highest first (the first in move order
/// among equals).
fn by_shuffled_prior(tree: &Tree, root: NodeId) -> Vec<u32> {
    let mut moves = MoveList::new();
    tree.moves(&root, &mut moves);
    let mut moves: Vec<u32> = moves.iter().copied().collect();
    moves.sort_by(|&a, &b| shuffled_prior(root, b).total_cmp(&shuffled_prior(root, a)));
    moves
}

#[test]
fn widening_keeps_the_visits_on_the_children_ranked_first_by_prior() {
    let shape = Shape {
        depth: 3,
        branching: 5..=9,
        chance: 0.0,
        early_leaf: 0.0,
        values: -1..=1,
        ..Shape::default()
    };
    let clock = WallClock::start();
    for seed in 0..20 {
        let (tree, root) = Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &shape);
        let ranked = by_shuffled_prior(&tree, root);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let base = Config { prior_weight: 1.0, ..Config::iterations(300).with_rave(50.0).with_seed(seed) };
        let search = |widening: Option<Widening>, playout: &mut RandomPlayout<_>| {
            let config = Config { widening, ..base };
            mcts::search_with_knowledge(&tree, &root, playout, &mut ShuffledPriors, &config, &clock)
        };
        // Two children until a billion visits: only the two ranked first are ever visited.
        let narrow = search(Some(Widening { start: 2, visits: 1e9, factor: 2.0 }), &mut playout);
        let mut visited: Vec<u32> = narrow.moves.iter().filter(|m| m.visits > 0).map(|m| m.mv).collect();
        visited.sort_unstable();
        let mut first_two = ranked[..2].to_vec();
        first_two.sort_unstable();
        assert_eq!(visited, first_two, "seed {seed}");
        assert_eq!(narrow.moves.iter().map(|m| m.visits).sum::<u32>(), 300);
        // One more child from 10 visits on, doubling: by 300 visits five more have joined.
        let growing = search(Some(Widening { start: 1, visits: 10.0, factor: 2.0 }), &mut playout);
        let visited = growing.moves.iter().filter(|m| m.visits > 0).count();
        assert!(visited <= 6, "seed {seed}: {visited} children visited");
        assert!(visited > 2, "seed {seed}: {visited} children visited");
        // As many children as the root has from the start: the same search as without.
        let wide = search(Some(Widening { start: 9, visits: 1e9, factor: 2.0 }), &mut playout);
        let plain = search(None, &mut playout);
        assert_eq!((wide.best_move, &wide.moves), (plain.best_move, &plain.moves), "seed {seed}");
    }
}

#[test]
fn widening_still_finds_the_minimax_moves_given_the_visits() {
    let clock = WallClock::start();
    for seed in 0..40 {
        let (tree, root) = win_loss_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let config = Config {
            prior_weight: 1.0,
            widening: Some(Widening { start: 1, visits: 20.0, factor: 1.5 }),
            ..Config::iterations(3_000).with_rave(50.0).with_seed(seed)
        };
        let found =
            mcts::search_with_knowledge(&tree, &root, &mut playout, &mut ShuffledPriors, &config, &clock);
        let best = found.best_move.expect("the root has moves");
        assert!(keeps_value(&tree, root)(best), "seed {seed}: {best} gives the value away");
    }
}

#[test]
fn widening_passes_over_lost_children_to_the_waiting_ones() {
    // Two losing moves for player 0 first by prior, the winning one last; one child at a time.
    let mut tree = Tree::new();
    let (lose_a, lose_b, win) = (tree.leaf(-1), tree.leaf(-1), tree.leaf(1));
    let root = tree.max(vec![lose_a, lose_b, win], 0);
    let mut priors = OraclePriors { tree: &tree, good: 0.1, give: true, calls: 0, asked: Vec::new() };
    let config = Config {
        prior_weight: 1.0,
        widening: Some(Widening { start: 1, visits: 1e9, factor: 2.0 }),
        ..Config::iterations(100)
    };
    let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
    let found =
        mcts::search_with_knowledge(&tree, &root, &mut playout, &mut priors, &config, &WallClock::start());
    assert_eq!(found.best_move, Some(2));
}

/// Flat priors at every new node, the minimax oracle's late priors: counts the late calls
/// and the states they were asked about.
struct SecondLook<'a> {
    tree: &'a Tree,
    asked: Vec<NodeId>,
}

impl mcts::Knowledge<Tree> for SecondLook<'_> {
    fn analyse(&mut self, _: &Tree, _: &NodeId, _: &[u32]) -> Insight<u32> {
        Insight::Nothing
    }

    fn priors(&mut self, _: &Tree, _: &NodeId, _: Option<&u32>, _: &[u32], priors: &mut [f32]) -> bool {
        priors.fill(1.0);
        true
    }

    fn late_priors(
        &mut self,
        _: &Tree,
        state: &NodeId,
        _: Option<&u32>,
        moves: &[u32],
        priors: &mut [f32],
    ) -> bool {
        self.asked.push(*state);
        let keeps = keeps_value(self.tree, *state);
        for (prior, &mv) in priors.iter_mut().zip(moves) {
            *prior = if keeps(mv) { 3.0 } else { 1.0 };
        }
        true
    }
}

/// A random win/draw/loss tree, three or four moves a node and no early leaves, deep enough
/// that a few hundred iterations do not prove its root.
fn bushy_tree(seed: u64) -> (Tree, NodeId) {
    let shape = Shape {
        depth: 7,
        branching: 3..=4,
        chance: 0.0,
        early_leaf: 0.0,
        values: -1..=1,
        ..Shape::default()
    };
    Tree::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &shape)
}

#[test]
fn late_priors_come_once_per_node_reached_often_enough() {
    for seed in 0..20 {
        let (tree, root) = bushy_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let clock = search_core::WallClock::start();
        let config = Config { late_priors_after: Some(6), ..Config::iterations(300).with_seed(seed) };
        // Without a prior weight there are no priors to replace.
        let mut look = SecondLook { tree: &tree, asked: Vec::new() };
        mcts::search_with_knowledge(&tree, &root, &mut playout, &mut look, &config, &clock);
        assert!(look.asked.is_empty(), "seed {seed}");
        // With one, each node reached six times is asked once, the root first, and the root
        // holds its late priors: 3 for the moves keeping the value, 1 for the others, as shares.
        let weighted = Config { prior_weight: 1.0, ..config };
        let mut look = SecondLook { tree: &tree, asked: Vec::new() };
        let found = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut look, &weighted, &clock);
        assert!(look.asked.len() > 3, "seed {seed}: {} late calls", look.asked.len());
        assert_eq!(look.asked[0], root);
        let mut distinct = look.asked.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), look.asked.len(), "seed {seed}: a node asked twice");
        let keeps = keeps_value(&tree, root);
        let total: f32 = found.moves.iter().map(|m| if keeps(m.mv) { 3.0 } else { 1.0 }).sum();
        for m in &found.moves {
            let want = if keeps(m.mv) { 3.0 } else { 1.0 } / total;
            assert!((m.prior - want).abs() < 1e-6, "seed {seed}: move {} has prior {}", m.mv, m.prior);
        }
        // Never asked: the search is the flat-prior one.
        let never = Config { late_priors_after: None, ..weighted };
        let mut look = SecondLook { tree: &tree, asked: Vec::new() };
        mcts::search_with_knowledge(&tree, &root, &mut playout, &mut look, &never, &clock);
        assert!(look.asked.is_empty());
    }
}

/// Flat priors, and the minimax oracle's values at late nodes (1 for a move keeping the
/// value, 0 for the others): records which states were asked for late priors and for values.
struct LateJudge<'a> {
    tree: &'a Tree,
    priors_asked: Vec<NodeId>,
    values_asked: Vec<NodeId>,
}

impl mcts::Knowledge<Tree> for LateJudge<'_> {
    fn analyse(&mut self, _: &Tree, _: &NodeId, _: &[u32]) -> Insight<u32> {
        Insight::Nothing
    }

    fn priors(&mut self, _: &Tree, _: &NodeId, _: Option<&u32>, _: &[u32], priors: &mut [f32]) -> bool {
        priors.fill(1.0);
        true
    }

    fn late_priors(&mut self, _: &Tree, state: &NodeId, _: Option<&u32>, _: &[u32], _: &mut [f32]) -> bool {
        self.priors_asked.push(*state);
        false
    }

    fn late_values(
        &mut self,
        _: &Tree,
        state: &NodeId,
        _: Option<&u32>,
        moves: &[u32],
        values: &mut [f32],
    ) -> bool {
        assert_eq!(self.priors_asked.last(), Some(state), "values come right after the late priors");
        self.values_asked.push(*state);
        let keeps = keeps_value(self.tree, *state);
        for (value, &mv) in values.iter_mut().zip(moves) {
            *value = if keeps(mv) { 1.0 } else { 0.0 };
        }
        true
    }
}

#[test]
fn late_values_add_their_weight_of_results_once_per_node() {
    for seed in 0..20 {
        let (tree, root) = bushy_tree(seed);
        let mut playout = RandomPlayout::new(|&leaf: &NodeId| result(&tree, leaf));
        let clock = search_core::WallClock::start();
        let config = Config {
            prior_weight: 1.0,
            late_priors_after: Some(2),
            ..Config::iterations(300).with_seed(seed)
        };
        // Without a weight for them, values are never asked.
        let mut judge = LateJudge { tree: &tree, priors_asked: Vec::new(), values_asked: Vec::new() };
        let plain = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut judge, &config, &clock);
        assert!(!judge.priors_asked.is_empty() && judge.values_asked.is_empty(), "seed {seed}");
        // With one, asked at the same nodes as the late priors, once each, the root first.
        let weighted = Config { late_value_visits: 30, ..config };
        let mut judge = LateJudge { tree: &tree, priors_asked: Vec::new(), values_asked: Vec::new() };
        let found = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut judge, &weighted, &clock);
        assert_eq!(judge.values_asked, judge.priors_asked, "seed {seed}");
        assert_eq!(judge.values_asked[0], root);
        let mut distinct = judge.values_asked.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), judge.values_asked.len(), "seed {seed}: a node asked twice");
        // Every root move not proved carries the 30 results: real iterations are 300 in all.
        let real: u32 = plain.moves.iter().map(|m| m.visits).sum();
        let open = found.moves.iter().filter(|m| m.winner.is_none()).count() as u32;
        let total: u32 = found.moves.iter().map(|m| m.visits).sum();
        assert!(total >= 30 * open && total <= real + 30 * open, "seed {seed}: {total} visits");
        for m in found.moves.iter().filter(|m| m.winner.is_none()) {
            assert!(m.visits >= 30, "seed {seed}: move {} has {} visits", m.mv, m.visits);
        }
        // Heavy oracle values lead a short search to a move keeping the value.
        let heavy = Config { late_value_visits: 1_000, ..Config::iterations(100).with_seed(seed) };
        let heavy = Config { prior_weight: 1.0, late_priors_after: Some(2), ..heavy };
        let mut judge = LateJudge { tree: &tree, priors_asked: Vec::new(), values_asked: Vec::new() };
        let led = mcts::search_with_knowledge(&tree, &root, &mut playout, &mut judge, &heavy, &clock);
        let best = led.best_move.expect("the root has moves");
        assert!(keeps_value(&tree, root)(best), "seed {seed}: {best} gives the value away");
    }
}
