//! The alpha-beta recursion: the one search behind [`super::search`], iterative deepening and
//! the parallel root split.
//!
//! It is a fail-hard alpha-beta in max/min form (values are always the maximiser's) that also
//! handles chance nodes, exactly or with Star1, and a transposition table, killers, history and
//! a node/time budget, each switched by its configuration.

use std::mem::take;

use super::Config;
use crate::eval::Evaluator;
use crate::game::{Game, MoveList, OutcomeList, Player, ToMove};
use crate::horizon::{CutoffContext, CutoffPolicy};
use crate::limits::Budget;
use crate::ordering::MoveOrdering;
use crate::stats::SearchStats;
use crate::table::{Bound, Entry, TableAccess};
use crate::value::{Value, checked};

/// The least depth left at which a player node looks its children up in the table before
/// searching them ([`Searcher::transposition_cutoff`]); nearer the leaves the look-ups cost more
/// than the searches they save.
const ETC_DEPTH: u32 = 3;

/// A ply's moves as search keys, one `u64` each: the class (hint, table move, killers) in the top
/// 3 bits, the history score in the next 45, and the move's position in the move list, inverted,
/// in the low 16, so that the largest key is the move to search first and equal classes and
/// scores keep the game's order. One buffer per ply, reused, so ordering allocates only while
/// the search first grows.
type Order = Vec<u64>;

/// The low bits of a key that hold the (inverted) position.
const POSITION_BITS: u32 = 16;

/// The largest history score a key holds; larger scores rank as this one.
const MAX_SCORE: u64 = (1 << 45) - 1;

/// How many moves a node picks one by one, the best remaining each time, before it sorts the
/// rest: most nodes that cut off do so within the first few moves, and picking those costs less
/// than sorting every move.
const PICKED: usize = 3;

/// The key of the move at `pos` with `class` and history `score`.
fn order_key(class: u64, score: u64, pos: usize) -> u64 {
    class << 61 | score.min(MAX_SCORE) << POSITION_BITS | (u64::from(u16::MAX) - pos as u64)
}

/// The position in the move list that `key` holds.
fn key_position(key: u64) -> usize {
    (u64::from(u16::MAX) - (key & u64::from(u16::MAX))) as usize
}

/// Puts the move to search `i`-th at `order[i]`: the largest key of `order[i..]` for the first
/// [`PICKED`] moves, then the rest sorted, largest first, at once.
fn next_in_order(order: &mut [u64], i: usize) {
    if i < PICKED {
        let best = (i..order.len()).max_by_key(|&j| order[j]).unwrap_or(i);
        order.swap(i, best);
    } else if i == PICKED {
        order[i..].sort_unstable_by(|x, y| y.cmp(x));
    }
}

/// The state of one running search (one thread's worth).
pub(crate) struct Searcher<'a, G: Game, E: Evaluator<G>, C, T> {
    game: &'a G,
    eval: &'a E,
    config: &'a Config<C>,
    table: T,
    /// Mixed into table keys so that searches for different players never share entries.
    salt: u64,
    pub(crate) maximizer: Player,
    /// Evaluator bounds, present only when Star1 is on.
    bounds: Option<(E::Value, E::Value)>,
    pub(crate) stats: SearchStats,
    pub(crate) ordering: Option<MoveOrdering>,
    // Per-ply buffers, taken out while their ply is searched. Boxed, so that taking one out moves
    // a pointer rather than a whole inline small vector.
    moves: Vec<Option<Box<MoveList<G::Move>>>>,
    orders: Vec<Order>,
    outcomes: Vec<Option<Box<OutcomeList<G::Move>>>>,
    pv: Vec<Vec<G::Move>>,
    budget: Option<Budget<'a>>,
    pub(crate) aborted: bool,
    /// A move to try first at the root (the previous iteration's best).
    pub(crate) root_hint: Option<G::Move>,
    /// How many places the root's move order is rotated: a helper thread of a parallel
    /// iterative search starts on other moves than the main thread, so the two fill the shared
    /// table with different subtrees. 0 for every other search.
    pub(crate) root_rotation: usize,
}

impl<'a, G, E, C, T> Searcher<'a, G, E, C, T>
where
    G: Game,
    E: Evaluator<G>,
    C: CutoffPolicy<G>,
    T: TableAccess<G, E::Value>,
{
    pub(crate) fn new(
        game: &'a G,
        eval: &'a E,
        config: &'a Config<C>,
        table: T,
        maximizer: Player,
        budget: Option<Budget<'a>>,
    ) -> Self {
        let space = game.move_space();
        let ordering = ((config.killers || config.history) && space > 0).then(|| MoveOrdering::new(space));
        Searcher {
            game,
            eval,
            config,
            table,
            salt: u64::from(maximizer).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            maximizer,
            bounds: if config.star1 { eval.bounds() } else { None },
            stats: SearchStats::default(),
            ordering,
            moves: Vec::new(),
            orders: Vec::new(),
            outcomes: Vec::new(),
            pv: Vec::new(),
            budget,
            aborted: false,
            root_hint: None,
            root_rotation: 0,
        }
    }

    /// The principal variation found below `ply` by the last search of that ply.
    pub(crate) fn pv(&self, ply: u32) -> &[G::Move] {
        self.pv.get(ply as usize).map_or(&[], Vec::as_slice)
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.pv.len() <= ply + 1 {
            self.pv.push(Vec::new());
            self.moves.push(Some(Box::default()));
            self.orders.push(Order::new());
            self.outcomes.push(Some(Box::default()));
        }
    }

    /// Fail-hard value of `state` in the window `[alpha, beta]`, with `depth` left, `ply` below
    /// the root, reached with path probability `prob`.
    ///
    /// Fail-soft: if `alpha < r < beta` the result `r` is the exact value; `r <= alpha` means the
    /// true value is at most `r` (fail low), and `r >= beta` that it is at least `r` (fail
    /// high). A bound beyond the window is worth more to the table than the window's edge; the
    /// public searches clamp the root's result into their window, which makes them fail-hard.
    /// After an abort the result is `alpha` and means nothing; callers check `aborted`.
    pub(crate) fn node(
        &mut self,
        state: &G::State,
        depth: u32,
        ply: u32,
        alpha: E::Value,
        beta: E::Value,
        prob: f64,
    ) -> E::Value {
        debug_assert!(alpha <= beta, "empty window [{alpha:?}, {beta:?}]");
        self.stats.nodes += 1;
        self.ensure_ply(ply as usize);
        self.pv[ply as usize].clear();
        if !self.aborted && self.budget.as_ref().is_some_and(|b| b.exhausted(self.stats.nodes)) {
            self.aborted = true;
        }
        if self.aborted {
            return alpha;
        }
        let kind = self.game.to_move(state);
        match kind {
            ToMove::Terminal => {
                let v = self.eval.terminal(self.game, state, self.maximizer, ply);
                self.leaf(v)
            }
            _ if depth == 0 => self.static_value(state),
            _ => self.interior(state, kind, depth, ply, alpha, beta, prob),
        }
    }

    /// Counts a leaf and checks it against the evaluator's bounds when Star1 relies on them.
    fn leaf(&mut self, v: E::Value) -> E::Value {
        self.stats.leaves += 1;
        let v = checked(v);
        if let Some((lo, hi)) = self.bounds {
            debug_assert!(lo <= v && v <= hi, "value {v:?} outside the evaluator's bounds [{lo:?}, {hi:?}]");
        }
        v
    }

    fn static_value(&mut self, state: &G::State) -> E::Value {
        let v = self.eval.evaluate(self.game, state, self.maximizer);
        self.leaf(v)
    }

    #[allow(clippy::too_many_arguments)]
    fn interior(
        &mut self,
        state: &G::State,
        kind: ToMove,
        depth: u32,
        ply: u32,
        alpha: E::Value,
        beta: E::Value,
        prob: f64,
    ) -> E::Value {
        let key = if T::ENABLED { self.table.key(self.game, state) ^ self.salt } else { 0 };
        let (mut a, mut b) = (alpha, beta);
        let mut tt_best = None;
        if T::ENABLED {
            self.stats.tt_probes += 1;
            if let Some(entry) = self.table.probe(key) {
                self.stats.tt_hits += 1;
                tt_best = entry.best;
                let usable =
                    if self.config.tt_exact_depth { entry.depth == depth } else { entry.depth >= depth };
                // The root always searches, so it can name a move and a principal variation.
                if usable && ply > 0 {
                    let v = entry.value;
                    match entry.bound {
                        Bound::Exact => {
                            self.stats.tt_cutoffs += 1;
                            return v;
                        }
                        Bound::Lower if v >= beta => {
                            self.stats.tt_cutoffs += 1;
                            return v;
                        }
                        Bound::Upper if v <= alpha => {
                            self.stats.tt_cutoffs += 1;
                            return v;
                        }
                        Bound::Lower if v > a => a = v,
                        Bound::Upper if v < b => b = v,
                        _ => {}
                    }
                }
            }
        }
        let (mut value, best) = match kind {
            ToMove::Player(p) => self.player(state, p == self.maximizer, depth, ply, a, b, prob, tt_best),
            _ => (self.chance(state, depth, ply, a, b, prob), None),
        };
        // A result beyond a bound the table narrowed the window to meets the table's bound: the
        // value is that bound, exactly (the two bounds can disagree only where a deeper entry
        // stands in for a shallower search).
        if a > alpha && value < a {
            value = a;
        }
        if b < beta && value > b {
            value = b;
        }
        // Flags are relative to the window the caller gave: a result on a bound narrowed by the
        // table is exact (the table's bound and the search's bound meet), and it is stored so.
        // A zero-width window says nothing about which side failed, so it is not stored.
        if T::ENABLED && !self.aborted && alpha < beta {
            let bound = if value <= alpha {
                Bound::Upper
            } else if value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.store(key, Entry { value, depth, bound, best });
        }
        value
    }

    /// A player node. Returns the value and the position (in the game-ordered move list) of the
    /// move that set it, for the transposition table.
    #[allow(clippy::too_many_arguments)]
    fn player(
        &mut self,
        state: &G::State,
        is_max: bool,
        depth: u32,
        ply: u32,
        mut a: E::Value,
        mut b: E::Value,
        prob: f64,
        tt_best: Option<u16>,
    ) -> (E::Value, Option<u16>) {
        let p = ply as usize;
        let mut moves = self.moves[p].take().unwrap_or_default();
        moves.clear();
        self.game.moves(state, &mut moves);
        debug_assert!(!moves.is_empty(), "a player node without moves (it should be terminal)");
        let child_depth = self.config.horizon.child_depth(depth, false);
        if moves.is_empty() || !is_max && self.policy_cut(state, child_depth, moves.len(), prob, ply, false) {
            self.moves[p] = Some(moves);
            return (self.static_value(state), None);
        }
        self.game.order_moves(state, &mut moves);
        if T::ENABLED
            && depth >= ETC_DEPTH
            && ply > 0
            && let Some(cut) = self.transposition_cutoff(state, &moves, is_max, child_depth, a, b)
        {
            self.moves[p] = Some(moves);
            return cut;
        }
        let mut order = take(&mut self.orders[p]);
        self.fill_order(&moves, &mut order, ply, tt_best);

        let mut best = None;
        let mut cut = None;
        // A null-window search only asks whether the value passes a bound; its principal
        // variation is never read, so only the root and wider windows keep one.
        let keep_pv = ply == 0 || b > a.next_up();
        // The best child value so far, which bounds the node's value when every child fails.
        let mut soft = if is_max { E::Value::NEG_INFINITY } else { E::Value::INFINITY };
        let mut soft_at = None;
        for i in 0..order.len() {
            if ply > 0 {
                next_in_order(&mut order, i);
            }
            let pos = key_position(order[i]);
            let mv = moves[pos];
            let child = self.game.play(state, mv);
            let v = if i > 0 && self.config.pvs {
                self.scout(&child, is_max, child_depth, ply + 1, a, b, prob)
            } else {
                self.node(&child, child_depth, ply + 1, a, b, prob)
            };
            if self.aborted {
                break;
            }
            if if is_max { v > soft } else { v < soft } {
                soft = v;
                soft_at = Some(pos);
            }
            let (fails, improves) = if is_max { (v >= b, v > a) } else { (v <= a, v < b) };
            if fails {
                self.record_cutoff(ply, mv, depth);
                if keep_pv {
                    self.update_pv(p, mv);
                }
                best = Some(pos);
                cut = Some(v);
                break;
            }
            if improves {
                if is_max {
                    a = v
                } else {
                    b = v
                }
                best = Some(pos);
                if keep_pv {
                    self.update_pv(p, mv);
                }
            }
        }
        self.moves[p] = Some(moves);
        self.orders[p] = order;
        // Every child inside the window set `a` (or `b`) to its value, and `soft` followed: it is
        // the exact value then, and the best bound found when every child failed.
        let value = cut.unwrap_or(soft);
        // When every move failed, the one that failed by the least is the table's best guess.
        (value, best.or(soft_at).and_then(|pos| u16::try_from(pos).ok()))
    }

    /// Enhanced transposition cutoff: a move whose resulting state the table already values
    /// beyond the window (at least `b` at a max node, at most `a` at a min node, searched deep
    /// enough) cuts the node off before any move is searched, as that child would have done
    /// had it come first. Many move orders reach one position, so in games rich in
    /// transpositions a sibling of the first move is often settled already.
    fn transposition_cutoff(
        &mut self,
        state: &G::State,
        moves: &[G::Move],
        is_max: bool,
        child_depth: u32,
        a: E::Value,
        b: E::Value,
    ) -> Option<(E::Value, Option<u16>)> {
        for (pos, &mv) in moves.iter().enumerate() {
            let child = self.game.play(state, mv);
            if !matches!(self.game.to_move(&child), ToMove::Player(_)) {
                continue;
            }
            let key = self.table.key(self.game, &child) ^ self.salt;
            self.stats.tt_probes += 1;
            let Some(entry) = self.table.probe(key) else { continue };
            self.stats.tt_hits += 1;
            let usable = if self.config.tt_exact_depth {
                entry.depth == child_depth
            } else {
                entry.depth >= child_depth
            };
            if !usable {
                continue;
            }
            let v = entry.value;
            let cuts = if is_max {
                v >= b && matches!(entry.bound, Bound::Exact | Bound::Lower)
            } else {
                v <= a && matches!(entry.bound, Bound::Exact | Bound::Upper)
            };
            if cuts {
                self.stats.tt_cutoffs += 1;
                self.stats.cutoffs += 1;
                return Some((v, u16::try_from(pos).ok()));
            }
        }
        None
    }

    /// A move after the first at a player node, searched as principal variation search does:
    /// first with the null window just past the bound the node must beat (`[a, a⁺]` at a max
    /// node, `[b⁻, b]` at a min node), which only asks whether the move is better, and again with
    /// the whole window `[a, b]` only when it is. The result means what a search of the child with
    /// `[a, b]` would mean: a move that is no better gives the probe's bound, which fails.
    #[allow(clippy::too_many_arguments)]
    fn scout(
        &mut self,
        child: &G::State,
        is_max: bool,
        depth: u32,
        ply: u32,
        a: E::Value,
        b: E::Value,
        prob: f64,
    ) -> E::Value {
        let (lo, hi) = if is_max { (a, a.next_up()) } else { (b.next_down(), b) };
        // A window already that narrow gains nothing from a probe; nor does a chance node
        // without Star1, which searches its outcomes whatever the window, so that a probe would
        // cost as much as the search it is meant to spare.
        let narrow = if is_max { hi >= b } else { lo <= a };
        if narrow || self.bounds.is_none() && self.game.to_move(child) == ToMove::Chance {
            return self.node(child, depth, ply, a, b, prob);
        }
        let probe = self.node(child, depth, ply, lo, hi, prob);
        if self.aborted {
            return probe;
        }
        let better = if is_max { probe > lo } else { probe < hi };
        if better {
            self.stats.researches += 1;
            self.node(child, depth, ply, a, b, prob)
        } else {
            probe
        }
    }

    fn chance(
        &mut self,
        state: &G::State,
        depth: u32,
        ply: u32,
        a: E::Value,
        b: E::Value,
        prob: f64,
    ) -> E::Value {
        let p = ply as usize;
        let mut outcomes = self.outcomes[p].take().unwrap_or_default();
        outcomes.clear();
        self.game.outcomes(state, &mut outcomes);
        debug_assert!(!outcomes.is_empty(), "a chance node without outcomes");
        debug_assert!(outcomes.iter().all(|&(_, q)| q > 0.0), "a chance outcome with probability <= 0");
        debug_assert!(
            (outcomes.iter().map(|&(_, q)| q).sum::<f64>() - 1.0).abs() < 1e-9,
            "chance probabilities do not sum to 1"
        );
        let child_depth = self.config.horizon.child_depth(depth, true);
        let value =
            if outcomes.is_empty() || self.policy_cut(state, child_depth, outcomes.len(), prob, ply, true) {
                self.static_value(state)
            } else if let Some((lo, hi)) = self.bounds {
                self.star1(state, &outcomes, child_depth, ply, a, b, prob, (lo, hi))
            } else {
                self.expectation(state, &outcomes, child_depth, ply, a, prob)
            };
        self.outcomes[p] = Some(outcomes);
        value
    }

    /// The plain chance node: every child searched exactly, then averaged.
    #[allow(clippy::too_many_arguments)]
    fn expectation(
        &mut self,
        state: &G::State,
        outcomes: &[(G::Move, f64)],
        child_depth: u32,
        ply: u32,
        a: E::Value,
        prob: f64,
    ) -> E::Value {
        let mut sum = 0.0;
        for &(mv, q) in outcomes {
            let child = self.game.play(state, mv);
            let v =
                self.node(&child, child_depth, ply + 1, E::Value::NEG_INFINITY, E::Value::INFINITY, prob * q);
            if self.aborted {
                return a;
            }
            sum += q * v.to_f64();
        }
        E::Value::from_f64(sum)
    }

    /// Ballard's Star1: each child gets the window outside which the whole chance node would fail
    /// low or high whatever the unsearched children are (they lie in `[lo, hi]`).
    ///
    /// With `s` the weighted sum of the children searched so far and `r` the probability of the
    /// children after child `i`, the node fails low if `v_i <= (a - s - hi*r) / q_i` and fails high
    /// if `v_i >= (b - s - lo*r) / q_i`. When nothing fails, the sum is formed in the same order as
    /// [`Self::expectation`] forms it, so both give the same value to the last bit.
    ///
    /// The thresholds are computed in `f64`, which rounds every sum and every integer value past
    /// 2^53, so each is moved outwards by more than the rounding can account for
    /// ([`star1_slack`]): a child within that slack of a threshold is searched rather than cut.
    /// Cutting less is always safe; cutting on a rounded threshold is not (an `i64` alpha of
    /// 2^60 − 1 rounds to 2^60 and would cut a child worth exactly 2^60).
    #[allow(clippy::too_many_arguments)]
    fn star1(
        &mut self,
        state: &G::State,
        outcomes: &[(G::Move, f64)],
        child_depth: u32,
        ply: u32,
        a: E::Value,
        b: E::Value,
        prob: f64,
        (lo, hi): (E::Value, E::Value),
    ) -> E::Value {
        let (lo, hi) = (lo.to_f64(), hi.to_f64());
        let (af, bf) = (a.to_f64(), b.to_f64());
        let mut sum = 0.0;
        // The sum of |q·v| so far: what the rounding of `sum` is relative to.
        let mut magnitude = 0.0;
        let mut rest: f64 = outcomes.iter().map(|&(_, q)| q).sum();
        for &(mv, q) in outcomes {
            rest -= q;
            let r = rest.max(0.0);
            let fail_low = (af - sum - hi * r) / q - star1_slack(af, magnitude, hi * r, q);
            let fail_high = (bf - sum - lo * r) / q + star1_slack(bf, magnitude, lo * r, q);
            // Even the best (worst) possible child value cannot lift (sink) the node back into
            // the window: no need to search it.
            if fail_low >= hi {
                self.stats.chance_cutoffs += 1;
                return a;
            }
            if fail_high <= lo {
                self.stats.chance_cutoffs += 1;
                return b;
            }
            let child_a = E::Value::floor_from_f64(fail_low.max(lo));
            let child_b = E::Value::ceil_from_f64(fail_high.min(hi));
            let child = self.game.play(state, mv);
            let v = self.node(&child, child_depth, ply + 1, child_a, child_b, prob * q).to_f64();
            if self.aborted {
                return a;
            }
            if v <= fail_low {
                self.stats.chance_cutoffs += 1;
                return a;
            }
            if v >= fail_high {
                self.stats.chance_cutoffs += 1;
                return b;
            }
            sum += q * v;
            magnitude += (q * v).abs();
        }
        E::Value::from_f64(sum)
    }

    fn policy_cut(
        &mut self,
        state: &G::State,
        remaining: u32,
        width: usize,
        prob: f64,
        ply: u32,
        chance: bool,
    ) -> bool {
        let ctx = CutoffContext { remaining, width, path_probability: prob, ply, chance };
        self.config.horizon.cuts(self.game, state, ctx, &mut self.stats)
    }

    /// Fills `order` with the keys of `moves`: the root hint first, then the table's move, then
    /// killers, then by history score; ties keep the game's order. The root's order is sorted
    /// (and rotated for a helper thread) at once; other plies pick their moves as they go
    /// ([`next_in_order`]).
    fn fill_order(&self, moves: &[G::Move], order: &mut Order, ply: u32, tt_best: Option<u16>) {
        order.clear();
        let hint = if ply == 0 { self.root_hint } else { None };
        let killers = match &self.ordering {
            Some(o) if self.config.killers => o.killers(ply),
            _ => [None, None],
        };
        let history = self.ordering.as_ref().filter(|_| self.config.history);
        let by_index = killers != [None, None] || history.is_some();
        for (pos, &mv) in moves.iter().enumerate() {
            let index = if by_index { self.game.move_index(mv) } else { 0 };
            let class = if hint == Some(mv) {
                4
            } else if tt_best.is_some_and(|best| usize::from(best) == pos) {
                3
            } else if killers[0] == Some(index) {
                2
            } else if killers[1] == Some(index) {
                1
            } else {
                0
            };
            let score = history.map_or(0, |h| h.history(index));
            order.push(order_key(class, score, pos));
        }
        if ply == 0 {
            order.sort_unstable_by(|x, y| y.cmp(x));
            if self.root_rotation > 0 && !order.is_empty() {
                let len = order.len();
                order.rotate_left(self.root_rotation % len);
            }
        }
    }

    fn record_cutoff(&mut self, ply: u32, mv: G::Move, depth: u32) {
        self.stats.cutoffs += 1;
        if let Some(ordering) = &mut self.ordering {
            ordering.record_cutoff(ply, self.game.move_index(mv), depth);
        }
    }

    fn update_pv(&mut self, p: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(p + 1);
        let line = &mut head[p];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}

/// How far a Star1 threshold `(bound - sum - extreme) / q` computed in `f64` may be from the
/// exact one: a few hundred roundings of the largest term involved, divided by `q`. An infinite
/// bound gives an infinite threshold already, so it adds no slack.
fn star1_slack(bound: f64, sum_magnitude: f64, extreme: f64, q: f64) -> f64 {
    if !bound.is_finite() {
        return 0.0;
    }
    let scale = bound.abs() + sum_magnitude + extreme.abs();
    256.0 * f64::EPSILON * scale / q
}
