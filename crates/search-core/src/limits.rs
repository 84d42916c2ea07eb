//! Limits on a search (depth, nodes, time) and the clock that measures time.

use std::time::{Duration, Instant};

/// Where time comes from. Searches ask it how long they have run, so tests can inject a clock
/// that advances by a fixed step per call and check the stopping logic without timing anything.
pub trait Clock: Sync {
    /// Time since the clock was started.
    fn elapsed(&self) -> Duration;
}

/// The real clock, started when created.
///
/// # Examples
///
/// ```
/// use search_core::{Clock, WallClock};
///
/// let clock = WallClock::start();
/// assert!(clock.elapsed() < std::time::Duration::from_secs(60));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WallClock(Instant);

impl WallClock {
    /// A clock started now.
    pub fn start() -> Self {
        WallClock(Instant::now())
    }
}

impl Clock for WallClock {
    fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }
}

/// How far an iterative-deepening search may go. The search stops at whichever limit it meets
/// first and answers with its last completed iteration.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use search_core::Limits;
///
/// let limits = Limits { time: Some(Duration::from_millis(100)), ..Limits::depth(20) };
/// assert_eq!((limits.depth, limits.nodes), (20, None));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration. 0 runs none: the answer is the root's static value and the
    /// first move in the game's order, with no node searched.
    pub depth: u32,
    /// The most nodes over all iterations.
    pub nodes: Option<u64>,
    /// The most time, as measured by the search's [`Clock`].
    pub time: Option<Duration>,
}

impl Limits {
    /// Only a depth limit.
    pub fn depth(depth: u32) -> Self {
        Limits { depth, nodes: None, time: None }
    }
}

/// How many nodes pass between two looks at the clock. Reading a clock costs far more than a
/// node of a fast game, so the time limit can be overshot by this many nodes' work.
pub const CLOCK_INTERVAL: u64 = 256;

/// The node and time budget one running search checks as it goes.
pub(crate) struct Budget<'a> {
    pub(crate) nodes: Option<u64>,
    pub(crate) time: Option<Duration>,
    pub(crate) clock: &'a dyn Clock,
    /// Set by another thread when this search's work is no longer wanted (a helper thread of a
    /// parallel search whose main thread has finished). Read with the clock.
    pub(crate) stop: Option<&'a std::sync::atomic::AtomicBool>,
}

impl Budget<'_> {
    /// Whether the search must stop, having entered `nodes` nodes so far.
    pub(crate) fn exhausted(&self, nodes: u64) -> bool {
        if self.nodes.is_some_and(|max| nodes >= max) {
            return true;
        }
        if let Some(stop) = self.stop
            && nodes.is_multiple_of(CLOCK_INTERVAL)
            && stop.load(std::sync::atomic::Ordering::Relaxed)
        {
            return true;
        }
        match self.time {
            Some(limit) if nodes.is_multiple_of(CLOCK_INTERVAL) => self.clock.elapsed() >= limit,
            _ => false,
        }
    }
}
