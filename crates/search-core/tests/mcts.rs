//! Monte Carlo tree search against the minimax oracle on small win/loss trees, wins in one, and
//! determinism for a seed.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::mcts::{self, Config, RandomPlayout, Rewards};
use search_core::tree::{NodeId, Shape, Tree, TreeEval};
use search_core::{Game, Horizon, MoveList, ToMove, minimax};

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
        for config in [Config::iterations(3_000), Config::iterations(3_000).with_rave(50.0)] {
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
    assert_eq!(found.moves.iter().map(|m| u64::from(m.visits)).sum::<u64>(), 300);
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
    assert_eq!(a.iterations, 500);
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
    fn outcomes(&self, _: &(u32, u8), _: &mut search_core::OutcomeList<u32>) {}
    fn play(&self, &(stones, player): &(u32, u8), take: u32) -> (u32, u8) {
        (stones - take, (player + 1) % 3)
    }
}

#[test]
fn three_players_each_play_for_themselves() {
    // Two stones left: the player to move takes both and wins.
    let mut playout = RandomPlayout::new(|&(_, to_move): &(u32, u8)| mcts::win_for((to_move + 2) % 3));
    let found = mcts::search(&ThreeNim, &(2, 1), &mut playout, &Config::iterations(200));
    assert_eq!(found.best_move, Some(2));
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
