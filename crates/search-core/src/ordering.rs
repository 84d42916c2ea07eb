//! Killer and history tables: move ordering learned during a search.

const EMPTY: usize = usize::MAX;

/// Killer moves per ply and history scores per move index, both keyed by
/// [`crate::Game::move_index`].
///
/// - A **killer** is a move that caused a cut-off at the same ply in a sibling subtree; two slots
///   per ply, the newest first (a new killer shifts the old first one to second place).
/// - A **history** score (Schaeffer, 1989) grows by `depth²` each time a move causes a cut-off
///   with `depth` left, so moves that refute often anywhere are tried early. Scores saturate and
///   [`MoveOrdering::decay`] halves them between iterations so old knowledge fades.
///
/// # Examples
///
/// ```
/// use search_core::MoveOrdering;
///
/// let mut ordering = MoveOrdering::new(64);
/// ordering.record_cutoff(3, 10, 4);
/// ordering.record_cutoff(3, 12, 2);
/// assert_eq!(ordering.killers(3), [Some(12), Some(10)]);
/// assert_eq!((ordering.history(10), ordering.history(12)), (16, 4));
/// ordering.decay();
/// assert_eq!(ordering.history(10), 8);
/// ```
#[derive(Clone, Debug)]
pub struct MoveOrdering {
    killers: Vec<[usize; 2]>,
    history: Vec<u64>,
}

impl MoveOrdering {
    /// Empty tables for moves indexed `0..move_space`.
    pub fn new(move_space: usize) -> Self {
        MoveOrdering { killers: Vec::new(), history: vec![0; move_space] }
    }

    /// Records that the move `index` caused a cut-off at `ply` with `depth` left.
    /// Indices outside the move space are ignored.
    pub fn record_cutoff(&mut self, ply: u32, index: usize, depth: u32) {
        if index >= self.history.len() {
            return;
        }
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [EMPTY; 2]);
        }
        let slots = &mut self.killers[ply];
        if slots[0] != index {
            slots[1] = slots[0];
            slots[0] = index;
        }
        let bonus = u64::from(depth).saturating_mul(u64::from(depth));
        self.history[index] = self.history[index].saturating_add(bonus);
    }

    /// The killer move indices at `ply`, newest first.
    pub fn killers(&self, ply: u32) -> [Option<usize>; 2] {
        let slots = self.killers.get(ply as usize).copied().unwrap_or([EMPTY; 2]);
        slots.map(|k| (k != EMPTY).then_some(k))
    }

    /// The history score of the move `index` (0 outside the move space).
    pub fn history(&self, index: usize) -> u64 {
        self.history.get(index).copied().unwrap_or(0)
    }

    /// Halves every history score; killers stay.
    pub fn decay(&mut self) {
        for h in &mut self.history {
            *h >>= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killer_repeat_does_not_shift() {
        let mut o = MoveOrdering::new(8);
        o.record_cutoff(0, 1, 1);
        o.record_cutoff(0, 2, 1);
        o.record_cutoff(0, 2, 1);
        assert_eq!(o.killers(0), [Some(2), Some(1)]);
        o.record_cutoff(0, 3, 1);
        assert_eq!(o.killers(0), [Some(3), Some(2)]);
        assert_eq!(o.killers(5), [None, None]);
    }

    #[test]
    fn out_of_space_is_ignored_and_history_saturates() {
        let mut o = MoveOrdering::new(2);
        o.record_cutoff(0, 7, 3);
        assert_eq!(o.killers(0), [None, None]);
        assert_eq!(o.history(7), 0);
        for _ in 0..10 {
            o.record_cutoff(0, 1, u32::MAX);
        }
        assert_eq!(o.history(1), u64::MAX);
    }
}
