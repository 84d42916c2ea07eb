//! Explicit game trees: a [`Game`] whose states are the nodes of a tree (or a DAG) built by hand
//! or at random, for tests, benches and examples.
//!
//! Node values are integers from player 0's point of view; [`TreeEval`] reads them in any
//! [`Value`] type. Player 0 maximises at `max` nodes, player 1 moves at `min` nodes.

use std::marker::PhantomData;
use std::ops::RangeInclusive;

use rand::{Rng, RngExt};

use crate::eval::Evaluator;
use crate::game::{Game, GameHash, MoveList, OutcomeList, Player, ToMove};
use crate::value::Value;

/// A node id in a [`Tree`]; it is also the game's state.
pub type NodeId = usize;

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Leaf,
    Player(Player, Vec<NodeId>),
    Chance(Vec<(NodeId, f64)>),
}

#[derive(Clone, Debug, PartialEq)]
struct Node {
    kind: Kind,
    /// The terminal value of a leaf, or the static (heuristic) value of an inner node.
    value: i32,
}

/// An explicit game tree. Moves are child positions `0, 1, …` in the order given.
///
/// Children must exist before their parent, so trees are built bottom-up; a child may have
/// several parents, which makes transpositions.
///
/// # Examples
///
/// ```
/// use search_core::{Game, ToMove};
/// use search_core::tree::Tree;
///
/// let mut tree = Tree::new();
/// let (a, b) = (tree.leaf(1), tree.leaf(-1));
/// let root = tree.max(vec![a, b], 0);
/// assert_eq!(tree.to_move(&root), ToMove::Player(0));
/// assert_eq!(tree.play(&root, 1), b);
/// assert_eq!(tree.to_move(&b), ToMove::Terminal);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tree {
    nodes: Vec<Node>,
    max_branching: usize,
}

/// The shape of a random tree; see [`Tree::random`].
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// Layers below the root; nodes of the last layer are leaves.
    pub depth: u32,
    /// Children per inner node.
    pub branching: RangeInclusive<usize>,
    /// Chance that an inner node is a chance node (the rest alternate max and min, or are all max
    /// when `two_players` is false).
    pub chance: f64,
    /// Whether min nodes exist; without them every player node is player 0's.
    pub two_players: bool,
    /// Chance that an inner node is cut short into a leaf (an early terminal state).
    pub early_leaf: f64,
    /// Range of leaf values and of inner nodes' static values.
    pub values: RangeInclusive<i32>,
    /// Chance probabilities are dyadic (sums of powers of 1/2), so sums in `f64` are exact.
    pub dyadic: bool,
    /// When set, each layer has this many nodes shared by the layer above (a DAG with
    /// transpositions); otherwise every node has its own children (a tree).
    pub layer_width: Option<usize>,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            depth: 4,
            branching: 1..=4,
            chance: 0.25,
            two_players: true,
            early_leaf: 0.1,
            values: -20..=20,
            dyadic: true,
            layer_width: None,
        }
    }
}

impl Tree {
    /// An empty tree.
    pub fn new() -> Self {
        Tree::default()
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn push(&mut self, kind: Kind, value: i32) -> NodeId {
        let width = match &kind {
            Kind::Leaf => 0,
            Kind::Player(_, c) => c.len(),
            Kind::Chance(c) => c.len(),
        };
        self.max_branching = self.max_branching.max(width);
        self.nodes.push(Node { kind, value });
        self.nodes.len() - 1
    }

    fn check_children(&self, children: impl Iterator<Item = NodeId>) {
        for c in children {
            assert!(c < self.nodes.len(), "child {c} does not exist yet (build trees bottom-up)");
        }
    }

    /// Adds a terminal node worth `value` to player 0.
    pub fn leaf(&mut self, value: i32) -> NodeId {
        self.push(Kind::Leaf, value)
    }

    /// Adds a node where player 0 (the maximiser) chooses among `children`; `value` is its static
    /// value, used when a search stops there.
    ///
    /// # Panics
    /// If `children` is empty or names a node not yet added.
    pub fn max(&mut self, children: Vec<NodeId>, value: i32) -> NodeId {
        self.player(0, children, value)
    }

    /// Adds a node where player 1 (the minimiser) chooses among `children`.
    ///
    /// # Panics
    /// If `children` is empty or names a node not yet added.
    pub fn min(&mut self, children: Vec<NodeId>, value: i32) -> NodeId {
        self.player(1, children, value)
    }

    fn player(&mut self, player: Player, children: Vec<NodeId>, value: i32) -> NodeId {
        assert!(!children.is_empty(), "a player node needs at least one child");
        self.check_children(children.iter().copied());
        self.push(Kind::Player(player, children), value)
    }

    /// Adds a chance node with `(child, probability)` outcomes.
    ///
    /// # Panics
    /// If there are no outcomes, a probability is not positive, they do not sum to 1 (within
    /// 1e-9), or a child does not exist yet.
    pub fn chance(&mut self, outcomes: Vec<(NodeId, f64)>, value: i32) -> NodeId {
        assert!(!outcomes.is_empty(), "a chance node needs at least one outcome");
        assert!(outcomes.iter().all(|&(_, p)| p > 0.0), "chance probabilities must be positive");
        let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9, "chance probabilities sum to {total}, not 1");
        self.check_children(outcomes.iter().map(|&(c, _)| c));
        self.push(Kind::Chance(outcomes), value)
    }

    /// The value stored at `node` (terminal value of a leaf, static value otherwise).
    pub fn value(&self, node: NodeId) -> i32 {
        self.nodes[node].value
    }

    /// A random tree (or DAG) of the given shape; returns the tree and its root.
    ///
    /// # Examples
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use rand::rngs::StdRng;
    /// use search_core::tree::{Shape, Tree};
    ///
    /// let (tree, root) = Tree::random(&mut StdRng::seed_from_u64(7), &Shape::default());
    /// let (again, _) = Tree::random(&mut StdRng::seed_from_u64(7), &Shape::default());
    /// assert_eq!(tree, again);
    /// assert_eq!(root, tree.len() - 1);
    /// ```
    pub fn random<R: Rng + ?Sized>(rng: &mut R, shape: &Shape) -> (Tree, NodeId) {
        let mut tree = Tree::new();
        let root = match shape.layer_width {
            None => tree.random_subtree(rng, shape, 0),
            Some(width) => {
                // Bottom-up, one layer at a time; each node picks its children (repeats allowed)
                // from the layer below, so nodes get several parents: transpositions.
                let mut below: Vec<NodeId> = Vec::new();
                for level in (0..=shape.depth).rev() {
                    let count = if level == 0 { 1 } else { width.max(1) };
                    below = (0..count)
                        .map(|_| {
                            if below.is_empty() || (level > 0 && rng.random_bool(shape.early_leaf)) {
                                return tree.leaf(rng.random_range(shape.values.clone()));
                            }
                            let n = rng.random_range(shape.branching.clone()).max(1);
                            let children = (0..n).map(|_| below[rng.random_range(0..below.len())]).collect();
                            tree.random_inner(rng, shape, level, children)
                        })
                        .collect();
                }
                below[0]
            }
        };
        (tree, root)
    }

    /// A fresh random subtree rooted at `level`.
    fn random_subtree<R: Rng + ?Sized>(&mut self, rng: &mut R, shape: &Shape, level: u32) -> NodeId {
        if level == shape.depth || (level > 0 && rng.random_bool(shape.early_leaf)) {
            return self.leaf(rng.random_range(shape.values.clone()));
        }
        let n = rng.random_range(shape.branching.clone()).max(1);
        let children = (0..n).map(|_| self.random_subtree(rng, shape, level + 1)).collect();
        self.random_inner(rng, shape, level, children)
    }

    /// An inner node at `level` over `children`: a chance node with probability `shape.chance`,
    /// otherwise max on even levels and min on odd ones (max only for one player).
    fn random_inner<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        shape: &Shape,
        level: u32,
        children: Vec<NodeId>,
    ) -> NodeId {
        let value = rng.random_range(shape.values.clone());
        if rng.random_bool(shape.chance) {
            let probs = random_probabilities(rng, children.len(), shape.dyadic);
            return self.chance(children.into_iter().zip(probs).collect(), value);
        }
        let player = if shape.two_players { (level % 2) as Player } else { 0 };
        self.player(player, children, value)
    }

    /// A uniform two-player tree with perfect move ordering: branching `b`, depth `d`, max at the
    /// root, and at every node the first child is the best for the player to move and every
    /// other child worse by one. Alpha-beta visits exactly `b^⌈d/2⌉ + b^⌊d/2⌋ − 1` leaves on it
    /// (Knuth and Moore, 1975).
    ///
    /// # Examples
    ///
    /// ```
    /// use search_core::{alphabeta, NoTable};
    /// use search_core::tree::{Tree, TreeEval};
    ///
    /// let (tree, root) = Tree::perfectly_ordered(3, 4);
    /// let config = alphabeta::Config { killers: false, history: false, ..alphabeta::Config::depth(4) };
    /// let found = alphabeta::search(&tree, &TreeEval::<i32>::new(), &root, &config, NoTable);
    /// assert_eq!(found.stats.leaves, 9 + 9 - 1);
    /// ```
    pub fn perfectly_ordered(b: usize, d: u32) -> (Tree, NodeId) {
        let mut tree = Tree::new();
        let root = tree.ordered_subtree(b, d, 0, 0);
        (tree, root)
    }

    fn ordered_subtree(&mut self, b: usize, d: u32, level: u32, value: i32) -> NodeId {
        if level == d {
            return self.leaf(value);
        }
        let is_max = level.is_multiple_of(2);
        let children = (0..b)
            .map(|i| {
                let worse = if i == 0 { 0 } else { 1 };
                let v = if is_max { value - worse } else { value + worse };
                self.ordered_subtree(b, d, level + 1, v)
            })
            .collect();
        if is_max { self.max(children, value) } else { self.min(children, value) }
    }

    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }
}

/// `n` positive probabilities summing to 1; dyadic ones are exact in binary floating point.
fn random_probabilities<R: Rng + ?Sized>(rng: &mut R, n: usize, dyadic: bool) -> Vec<f64> {
    if dyadic {
        // Split 1 repeatedly: halve a random piece until there are n pieces.
        let mut pieces = vec![1.0f64];
        while pieces.len() < n {
            let i = rng.random_range(0..pieces.len());
            pieces[i] /= 2.0;
            let half = pieces[i];
            pieces.push(half);
        }
        pieces
    } else {
        let weights: Vec<f64> = (0..n).map(|_| rng.random_range(1..=10) as f64).collect();
        let total: f64 = weights.iter().sum();
        let mut probs: Vec<f64> = weights.iter().map(|w| w / total).collect();
        // Give the rounding error to the last outcome so the sum is 1 to within an ulp or two.
        let rest: f64 = probs[..n - 1].iter().sum();
        probs[n - 1] = 1.0 - rest;
        probs
    }
}

impl Game for Tree {
    type State = NodeId;
    type Move = u32;

    fn to_move(&self, &state: &NodeId) -> ToMove {
        match self.node(state).kind {
            Kind::Leaf => ToMove::Terminal,
            Kind::Player(p, _) => ToMove::Player(p),
            Kind::Chance(_) => ToMove::Chance,
        }
    }

    fn moves(&self, &state: &NodeId, moves: &mut MoveList<u32>) {
        if let Kind::Player(_, children) = &self.node(state).kind {
            moves.extend(0..children.len() as u32);
        }
    }

    fn outcomes(&self, &state: &NodeId, outcomes: &mut OutcomeList<u32>) {
        if let Kind::Chance(children) = &self.node(state).kind {
            outcomes.extend(children.iter().enumerate().map(|(i, &(_, p))| (i as u32, p)));
        }
    }

    fn play(&self, &state: &NodeId, mv: u32) -> NodeId {
        match &self.node(state).kind {
            Kind::Player(_, children) => children[mv as usize],
            Kind::Chance(children) => children[mv as usize].0,
            Kind::Leaf => panic!("no move from a leaf"),
        }
    }

    fn move_space(&self) -> usize {
        self.max_branching
    }

    fn move_index(&self, mv: u32) -> usize {
        mv as usize
    }
}

impl GameHash for Tree {
    fn hash(&self, &state: &NodeId) -> u64 {
        crate::zobrist::splitmix64(state as u64)
    }
}

/// Reads a [`Tree`]'s node values as values of type `V`, negated for player 1.
///
/// With [`TreeEval::with_bounds`] it reports static bounds, which turns on Star1.
///
/// # Examples
///
/// ```
/// use search_core::Evaluator;
/// use search_core::tree::{Tree, TreeEval};
///
/// let mut tree = Tree::new();
/// let leaf = tree.leaf(-3);
/// assert_eq!(TreeEval::<f64>::new().terminal(&tree, &leaf, 0, 0), -3.0);
/// assert_eq!(TreeEval::<i32>::new().terminal(&tree, &leaf, 1, 0), 3);
/// assert_eq!(TreeEval::<i32>::with_bounds(-20, 20).bounds(), Some((-20, 20)));
/// assert_eq!(TreeEval::<i32>::with_bounds(0, 5).bounds(), Some((-5, 5)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TreeEval<V> {
    bounds: Option<(i32, i32)>,
    _value: PhantomData<fn() -> V>,
}

impl<V> TreeEval<V> {
    /// An evaluator without bounds.
    pub fn new() -> Self {
        TreeEval { bounds: None, _value: PhantomData }
    }

    /// An evaluator that promises every node value lies in `[lo, hi]`.
    pub fn with_bounds(lo: i32, hi: i32) -> Self {
        TreeEval { bounds: Some((lo, hi)), _value: PhantomData }
    }
}

impl<V: Value> Evaluator<Tree> for TreeEval<V> {
    type Value = V;

    fn evaluate(&self, tree: &Tree, &state: &NodeId, player: Player) -> V {
        let v = tree.value(state);
        V::from_f64(f64::from(if player == 0 { v } else { -v }))
    }

    fn bounds(&self) -> Option<(V, V)> {
        // Player 1 sees negated values, so the bounds must cover both signs.
        self.bounds.map(|(lo, hi)| {
            let (lo, hi) = (lo.min(-hi), hi.max(-lo));
            (V::from_f64(f64::from(lo)), V::from_f64(f64::from(hi)))
        })
    }
}
