//! Search statistics as data.

use std::ops::AddAssign;
use std::time::Duration;

/// What a search did, as numbers a caller can log, sum or compare.
///
/// `+=` sums the counters, keeps the deeper `depth_reached` and the longer `elapsed` (the way
/// statistics of threads that ran side by side combine). The struct is `#[non_exhaustive]`: a
/// later version may count more, so build one from [`Default`] and set its fields.
///
/// # Examples
///
/// ```
/// use search_core::SearchStats;
///
/// let mut total = SearchStats::default();
/// (total.nodes, total.leaves, total.depth_reached) = (10, 6, 2);
/// let mut other = SearchStats::default();
/// (other.nodes, other.leaves, other.depth_reached) = (5, 3, 3);
/// total += other;
/// assert_eq!((total.nodes, total.leaves, total.depth_reached), (15, 9, 3));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchStats {
    /// Nodes entered, leaves included.
    pub nodes: u64,
    /// Static evaluations: depth-limit leaves, terminal states and nodes a cut-off policy stopped.
    pub leaves: u64,
    /// Beta (or, at a minimising node, alpha) cut-offs at player nodes.
    pub cutoffs: u64,
    /// Star1 fail-low and fail-high cut-offs at chance nodes.
    pub chance_cutoffs: u64,
    /// Nodes a [`crate::CutoffPolicy`] turned into leaves.
    pub policy_cutoffs: u64,
    /// Moves that principal variation search searched twice: a null-window probe said the move
    /// was better than the best so far, and the full window then valued it.
    pub researches: u64,
    /// Transposition-table look-ups.
    pub tt_probes: u64,
    /// Look-ups that found an entry for the same state.
    pub tt_hits: u64,
    /// Look-ups whose entry settled the node without a search.
    pub tt_cutoffs: u64,
    /// The deepest fully completed search depth.
    pub depth_reached: u32,
    /// Wall time (or the injected clock's time) the search took.
    pub elapsed: Duration,
}

impl SearchStats {
    /// Nodes per second over `elapsed`, or 0 when no time was measured.
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 { self.nodes as f64 / secs } else { 0.0 }
    }
}

impl AddAssign for SearchStats {
    fn add_assign(&mut self, other: SearchStats) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.cutoffs += other.cutoffs;
        self.chance_cutoffs += other.chance_cutoffs;
        self.policy_cutoffs += other.policy_cutoffs;
        self.researches += other.researches;
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.tt_cutoffs += other.tt_cutoffs;
        self.depth_reached = self.depth_reached.max(other.depth_reached);
        self.elapsed = self.elapsed.max(other.elapsed);
    }
}
