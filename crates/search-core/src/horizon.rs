//! Where a search stops: the depth limit, how depth is counted, and cut-off policies at the
//! nodes that are not the maximiser's.

use crate::game::Game;

/// How the depth limit is counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DepthCount {
    /// Depth counts player moves only; chance nodes do not use it up (OpenSpiel's
    /// `expectiminimax` convention). The default.
    #[default]
    Moves,
    /// Every layer counts, chance layers included: each node's children get one less. This is
    /// how the 2048 seed program counted (its depth 5 is 3 own moves and 2 spawn layers).
    Plies,
}

/// What a [`CutoffPolicy`] knows about the node it is asked about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CutoffContext {
    /// The depth the node's children would get (after the node's own decrement, if any).
    pub remaining: u32,
    /// The number of outcomes (at a chance node) or moves (at an opponent's node).
    pub width: usize,
    /// The product of the chance probabilities on the path from the root to this node.
    pub path_probability: f64,
    /// Distance from the root in plies.
    pub ply: u32,
    /// `true` at a chance node, `false` at an opponent's (minimising) node.
    pub chance: bool,
}

/// A rule that turns a chance node or an opponent's node into a leaf before it is expanded.
///
/// Searches consult it at every node that is not the maximiser's, after generating the node's
/// outcomes or moves and before searching any of them. When it answers `true`, the node is
/// valued by the evaluator, exactly as at the depth limit.
///
/// # Examples
///
/// ```
/// use search_core::{CutoffContext, CutoffPolicy, ProbabilityCutoff};
/// # use search_core::{Game, MoveList, ToMove};
/// # struct G;
/// # impl Game for G {
/// #     type State = (); type Move = ();
/// #     fn to_move(&self, _: &()) -> ToMove { ToMove::Terminal }
/// #     fn moves(&self, _: &(), _: &mut MoveList<()>) {}
/// #     fn play(&self, _: &(), _: ()) {}
/// # }
///
/// let ctx = CutoffContext { remaining: 3, width: 8, path_probability: 1e-5, ply: 4, chance: true };
/// assert!(CutoffPolicy::<G>::cut(&ProbabilityCutoff { threshold: 1e-4 }, &G, &(), &ctx));
/// ```
pub trait CutoffPolicy<G: Game>: Sync {
    /// Whether the node `state` should be valued statically instead of searched.
    fn cut(&self, game: &G, state: &G::State, ctx: &CutoffContext) -> bool;

    /// Whether [`CutoffPolicy::cut`] reads [`CutoffContext::width`]. A policy that does not
    /// (return `false`) may be asked before the node's outcomes are generated, with `width` 0,
    /// which saves generating them at every node it cuts ([`crate::expectimax`] does this).
    /// The default, `true`, is always safe.
    fn uses_width(&self) -> bool {
        true
    }

    /// Whether [`CutoffPolicy::cut`] answers `true` for every chance node, whatever its state
    /// and width, with `remaining` depth left, reached with path probability `prob`, `ply` below
    /// the root. The default, `false`, is always safe; a search that knows it can value a whole
    /// node of leaves at once ([`crate::Evaluator::best_chance_child`]).
    fn cuts_every_chance_node(&self, remaining: u32, prob: f64, ply: u32) -> bool {
        let _ = (remaining, prob, ply);
        false
    }
}

/// Never cuts: the search stops only at the depth limit and at terminal states. The default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoCutoff;

impl<G: Game> CutoffPolicy<G> for NoCutoff {
    fn cut(&self, _: &G, _: &G::State, _: &CutoffContext) -> bool {
        false
    }

    fn uses_width(&self) -> bool {
        false
    }
}

/// Cuts a chance node whose path probability is below `threshold`, as the strongest 2048
/// programs do (nneonneo's uses `1e-4`): unlikely lines are not worth a deep look.
///
/// A threshold of 0 never cuts. Opponent nodes are never cut by this policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbabilityCutoff {
    /// The path probability below which a chance node becomes a leaf.
    pub threshold: f64,
}

impl<G: Game> CutoffPolicy<G> for ProbabilityCutoff {
    fn cut(&self, _: &G, _: &G::State, ctx: &CutoffContext) -> bool {
        ctx.chance && ctx.path_probability < self.threshold
    }

    fn uses_width(&self) -> bool {
        false
    }

    fn cuts_every_chance_node(&self, _: u32, prob: f64, _: u32) -> bool {
        prob < self.threshold
    }
}

/// The 2048 seed document's "partial pruning": a chance or opponent node with at least
/// `min_width` children and at most `max_remaining` depth left is valued statically.
///
/// The seed program tested "at least 6 empty cells and at most 2 levels left", after the node's
/// own decrement, at both its chance (`expecti`) and adversarial (`mini`) nodes. A 2048 spawn
/// node has two outcomes per empty cell, so 6 empty cells is `min_width: 12` there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartialCut {
    /// The least number of children for the cut to apply.
    pub min_width: usize,
    /// The most depth left (as [`CutoffContext::remaining`]) for the cut to apply.
    pub max_remaining: u32,
}

impl<G: Game> CutoffPolicy<G> for PartialCut {
    fn cut(&self, _: &G, _: &G::State, ctx: &CutoffContext) -> bool {
        ctx.width >= self.min_width && ctx.remaining <= self.max_remaining
    }
}

/// Where a search stops: a depth limit, how it is counted, and a cut-off policy.
///
/// Both the plain [`crate::minimax`] oracle and the pruning searches take one, so an oracle and
/// a pruned search with the same horizon must agree exactly.
///
/// # Examples
///
/// ```
/// use search_core::{DepthCount, Horizon, PartialCut};
///
/// // The 2048 seed program's expectimax at its depth 5.
/// let seed = Horizon {
///     depth: 5,
///     count: DepthCount::Plies,
///     cutoff: PartialCut { min_width: 12, max_remaining: 2 },
/// };
/// assert_eq!(seed.depth, 5);
/// assert_eq!(Horizon::depth(3).count, DepthCount::Moves);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Horizon<C = NoCutoff> {
    /// The depth limit; a node reached with depth 0 is a leaf.
    pub depth: u32,
    /// How the limit is counted.
    pub count: DepthCount,
    /// The cut-off policy at chance and opponent nodes.
    pub cutoff: C,
}

impl Horizon<NoCutoff> {
    /// A horizon of `depth` player moves and no cut-off policy.
    pub fn depth(depth: u32) -> Self {
        Horizon { depth, count: DepthCount::Moves, cutoff: NoCutoff }
    }
}

impl<C> Horizon<C> {
    /// The depth the children of a node with `depth` left get; `chance` tells the node's kind.
    pub(crate) fn child_depth(&self, depth: u32, chance: bool) -> u32 {
        match (chance, self.count) {
            (true, DepthCount::Moves) => depth,
            _ => depth.saturating_sub(1),
        }
    }
}

impl<C> Horizon<C> {
    /// Asks the cut-off policy about a node and counts a cut in `stats`.
    pub(crate) fn cuts<G: Game>(
        &self,
        game: &G,
        state: &G::State,
        ctx: CutoffContext,
        stats: &mut crate::stats::SearchStats,
    ) -> bool
    where
        C: CutoffPolicy<G>,
    {
        let cut = self.cutoff.cut(game, state, &ctx);
        if cut {
            stats.policy_cutoffs += 1;
        }
        cut
    }

    /// The same horizon with another depth limit.
    pub fn with_depth(&self, depth: u32) -> Self
    where
        C: Clone,
    {
        Horizon { depth, count: self.count, cutoff: self.cutoff.clone() }
    }
}
