//! A Monte Carlo tree search player: `search-core`'s UCT with RAVE over [`HexGame`], with fast
//! bridge-aware random playouts, move priors from local patterns learned on our own self-play
//! and, on boards up to 11×11, the exact solver's knowledge inside the tree (MoHex's approach).
//!
//! # How it plays
//!
//! 1. **Critical cells** first ([`critical_cell`]): a cell that wins at once, else the cell where
//!    the opponent would win at once.
//! 2. **Solver** (optional, [`MctsConfig::solver_share`], off by default): in positions with
//!    few empty cells ([`MctsConfig::solver_empty`]) the exact solver gets a share of the move's
//!    time, and a proved win is played. With two threads or more it runs beside the search
//!    instead, for the whole move ([`MctsConfig::solver_beside_empty`]).
//! 3. **Search**: [`search_core::mcts`] with RAVE from the position, until the iteration or time
//!    budget runs out; a move proved to win is played, else the most visited move not proved to
//!    lose.
//! 4. **Knowledge** ([`MctsConfig::knowledge_after`]; [`SolverKnowledge`]): at the root, and at
//!    every node the search has visited that many times, [`Solver::analyse`] looks at the
//!    position without searching: dead and captured cells are filled in, H-search builds both
//!    sides' virtual and semi-connections, and the node keeps only the cells inside every
//!    threat of the opponent (the must-play region) that are not dead, captured, vulnerable or
//!    dominated. A virtual connection proves the node won or lost; the search then scores the
//!    proof instead of playouts there and backs it up (MCTS-Solver: a node with a move proved to
//!    win is won, a node whose every kept move is lost is lost), and stops when the root is
//!    proved won. One analysis costs as much as many playouts, so it waits for nodes that have
//!    earned it, as MoHex's knowledge threshold does. With [`MctsConfig::fill_in`] (off by
//!    default) the search also goes on below an analysed node from its position with the dead
//!    and captured cells filled in, as MoHex does ([`Knowledge::equivalent`]): the playouts
//!    there no longer spend moves on cells that cannot matter, nor let a captured cell change
//!    hands. On boards larger than 11×11 the solver
//!    does not go; there a chain of bridges with disjoint carriers
//!    ([`crate::bridge_chain::proved_win`], far cheaper than an analysis) still proves nodes.
//! 5. **Priors** ([`MctsConfig::prior_weight`], off by default): when a node gets its children,
//!    each cell gets the strength of its local pattern ([`crate::patterns`]) as a share of its
//!    siblings', and selection adds a progressive bias `w · p / √(n + 1)`, so the first visits
//!    go where shape says they should and the bias fades as the playouts come in.
//! 6. **Playouts** ([`HexPlayout`]): Hex has no draws and a full board has exactly one winner,
//!    so a playout fills every empty cell in one random order and checks the winner once at the
//!    end. One pattern bends the order: when the last move took one carrier cell of a bridge
//!    between two stones of the player to move, that player answers in the other carrier cell,
//!    as MoHex's playouts do. Without it a random playout lets half the bridges be cut, and a
//!    bridge is as good as a connection in real play. With [`MctsConfig::playout_patterns`]
//!    (off by default) the other cells are drawn by learned weights of their six neighbours
//!    ([`PlayoutPolicy`], MoHex 2.0's playout patterns) instead of uniformly, and with
//!    [`MctsConfig::playout_weights`] by the weights of a file, such as [`balance()`] learns:
//!    weights balanced so that the playouts' mean result matches the exact solver's values of
//!    positions (Silver and Tesauro's simulation balancing) rather than to predict good moves.
//!    [`MctsConfig::answer_factors`] (off by default) multiplies the weights of the cells
//!    around the opponent's last stone by factors of their local-response codes
//!    ([`AnswerFactors`]), which [`balance()`] can learn beside the weights.
//! 7. **Answering the last move** ([`MctsConfig::local_priors`],
//!    [`MctsConfig::local_playouts`]): most good moves answer the opponent's last stone, and
//!    MoHex's priors and playouts both know where it lies. With `local_priors` a cell among the
//!    twelve around the last stone (its six neighbours and six bridge cells) has its prior
//!    multiplied by a learned local-response strength ([`crate::patterns::local`]: the cell's
//!    six neighbours and the stone's place among its twelve); with `local_playouts` each playout
//!    move first draws among those twelve cells by their own learned weights against a flat
//!    rest of the board ([`LocalPolicy`]), after the bridge reply.
//! 8. **Answering intrusions** ([`MctsConfig::vc_answers`], off by default): when the
//!    knowledge analyses a node, it also asks H-search where the opponent's virtual connections
//!    can be broken by one stone ([`Solver::intrusion_answers`]: the cells inside every carrier
//!    between two of its groups) and where the opponent then connects the pair again (the keys
//!    of its semi-connections that avoid the intruding cell). Below each such move the answers
//!    share a large part of the priors, as MoHex's "VC maintenance" gives them a prior bonus;
//!    children grown before the analysis get their priors again
//!    ([`Knowledge::analysis_changes_priors`]). A bridge is the simplest case; the edge
//!    templates and longer chains H-search knows are the rest.
//! 9. **A convolutional policy** ([`MctsConfig::net`], off by default): a node the search
//!    reaches [`MctsConfig::net_after`] times gets its children's priors from a small network
//!    that reads the whole board ([`crate::net`]), in place of the patterns'. The patterns see
//!    twelve cells and cost a few nanoseconds; the network sees as far as it has layers and
//!    costs about half a millisecond on 11×11, so it goes only where the search keeps
//!    returning. `cargo xtask hex-net-games` and `cargo xtask hex-net` train one on the
//!    search's own visits. With [`MctsConfig::net_values`] the same pass's move values (the
//!    network's second head, trained on the root's means and the games' outcomes) count as
//!    that many results of each child ([`search_core::mcts::Config::late_value_visits`]).
//!
//! The search's random choices follow from [`MctsConfig::seed`] and the position, so a player
//! with an iteration budget plays the same game every time.
//!
//! # Choosing the settings
//!
//! - **Budget**: [`MctsConfig::iterations`] gives a deterministic player (the same game every
//!   time for a seed); [`MctsConfig::time`] plays at a fixed time a move, and its moves then
//!   depend on the machine's speed and load. The alpha-beta
//!   [`StrongPlayer`](crate::strong::StrongPlayer) is the deterministic choice under a node
//!   budget; at equal time MCTS plays better, which is why the GTP engine ([`crate::gtp`])
//!   plays MCTS by default.
//! - **The defaults** ([`MctsConfig::default`]): RAVE with `k = 500`, no UCB exploration term,
//!   and bridge replies in the playouts. Each of the three made the player stronger in matches
//!   at equal time: RAVE's all-moves-as-first statistics suit Hex, where a cell is good largely
//!   whatever the order it is played in; RAVE already spreads the early visits, so a UCB
//!   exploration term only wastes playouts on bad cells; and without bridge replies random
//!   playouts cut half the bridges and value bridged positions as coin flips.
//! - **Knowledge** ([`MctsConfig::knowledge_after`], off by default): turn it on for boards up
//!   to 11×11. It made the player stronger in self-play at equal time, with thresholds from 50 to
//!   1,000 visits close to each other; the GTP engine uses 200
//!   ([`crate::gtp::DEFAULT_KNOWLEDGE`]). Proofs are backed up, so the search does not spend
//!   playouts on decided lines.
//! - **Priors** ([`MctsConfig::prior_weight`], off by default): turn them on. With the shipped
//!   weights they made the player stronger in self-play at equal time on 9×9 (weights 1 and 3
//!   both; the GTP engine uses 3, [`crate::gtp::DEFAULT_PRIORS`]). They cost one pattern read per
//!   empty cell when a node gets its children, a few per cent of the playouts.
//! - **Solver first** ([`MctsConfig::solver_share`], off by default): turn it on near the end,
//!   where it can finish ([`MctsConfig::solver_empty`]). Near the border of what the solver
//!   decides the search alone throws proved wins away (about one position in ten on 9×9); the
//!   solver plays them right. Given every move it lost in self-play (the early solves cannot
//!   finish and cost the search its time); kept to positions with at most 70 empty cells it won
//!   55 of 80 games on 9×9 at 1 s a move against the same engine without it, and 24 of 40 at
//!   0.5 s. The GTP engine gives it 0.3 of a move ([`crate::gtp::DEFAULT_SOLVER`]).
//! - **Fill-in** ([`MctsConfig::fill_in`], off by default): leave it off. It makes iterations
//!   about 8 % cheaper (fewer cells to fill in the playouts below filled nodes) but the player
//!   no stronger: 75 of 200 games against MoHex on 9×9 at 1.6 s a move, where the same engine
//!   without it won 77 on the same openings, side by side.
//! - **Local answers** ([`MctsConfig::local_priors`], [`MctsConfig::local_playouts`], off by
//!   default here; the GTP engine turns the local priors on, [`crate::gtp::DEFAULT_LOCAL_PRIORS`]):
//!   alone, the local priors won 95 of 200 games against MoHex on 9×9 at 1.6 s a move where the
//!   engine without them won 80 on the same openings beside them (sign test p = 0.10), so the
//!   engine uses them; leave the local playouts off. With the shipped weights the engine plays near the last
//!   stone as often as MoHex does, and won 28 of 50 (priors), 29 of 50 (playouts) and 29 of 52
//!   (both) self-play games on 9×9 at 0.5 s a move against the same engine without them, but
//!   with both it won 77 of 200 games against MoHex at 1.6 s a move, where the engine without
//!   them won 77 on the same openings. The local playouts cost half as much again per
//!   iteration; the local priors a few per cent.
//! - **The playouts' shape** ([`MctsConfig::playout_inferior`], [`MctsConfig::local_scale`],
//!   off and 1 by default). Without its playouts'
//!   pattern heuristic (answers to the last move, and cells left for last once their patterns
//!   make them dead, captured, vulnerable or dominated) MoHex lost 32 of 40 games on 11×11 to
//!   this engine's default at equal time, against 12 of the same 40 with it (`docs/benzene.md`
//!   in the repository, session 67); but without it MoHex's playouts also stop saving cut
//!   bridges, which this engine's playouts always do, and MoHex's whole playout policy in this
//!   search gained nothing measurable (the next bullet). Leaving the cells inferior by their six neighbours for
//!   last, with the local answers ten times as sharp, is the first try of that shape here;
//!   its first screens against MoHex are in the same place. Each costs time per playout
//!   (about 1.5 and 1.9 times the plain playout from an 11×11 middle game).
//! - **Twelve-cell playouts** ([`MctsConfig::playout_table`], [`MctsConfig::playout_answers`],
//!   [`TwelvePolicy`], off by default): MoHex 2.0's whole playout form, weights of each cell's
//!   twelve-cell pattern refreshed around every stone, and answers to the last stone by a
//!   second weight of the same patterns. Leave them off. With MoHex's own playout weights mapped onto
//!   our codes (a diagnostic, not shipped) they won 5 of 40 games against MoHex on 11×11 at
//!   1.9 s a move, where the default won 9 of the same 40 beside them (13 of 40 in a first
//!   run). They won 22 of 40 against the
//!   default at 20,000 iterations a move each (session 68). A playout costs about 4.5 times the
//!   plain one, so at equal time the search runs 40 % of the iterations.
//! - **RAVE's even prior and schedule** ([`MctsConfig::rave_prior`],
//!   [`MctsConfig::rave_weight`], [`MctsConfig::expand_after`]): leave the defaults. Ten
//!   virtual visits at half a win send a new node's first visits where the priors point
//!   (without them they go to the children in cell order until each has been seen in a
//!   playout), but won 19 of 40 self-play games on 9×9 at 0.5 s a move and 69 of 200 games
//!   against MoHex at 1.6 s a move, where the engine without it won 77 on the same openings
//!   (session 47's run: a comparison of our versions, not one run).
//! - **Answering intrusions** ([`MctsConfig::vc_answers`], off by default): leave it off for
//!   now. With weight 1 it won 76 of 200 games against MoHex at 1.6 s a move on 9×9, where the
//!   engine without it won 77 on the same openings (session 47's run); each analysed node costs one more
//!   connection build.
//! - **Inferior cells at every new node** ([`MctsConfig::inferior_on_expand`], off by default):
//!   leave it off for now. It costs no measurable time and won 39 of 100 games against MoHex
//!   at 1.6 s a move on 9×9, where the engine without it won 37 on the same openings (session
//!   51's run): the analysis at 200 visits drops the same cells anyway. On 11×11 at 1.9 s a
//!   move it won 52 of 155 games beside the engine without it, which won 44 on the same
//!   openings (game by game 34 / 26, sign test p = 0.37): a first run's lead of 16 / 8 was not
//!   repeated by a second (15 / 15).
//! - **Dominated cells at every new node** ([`MctsConfig::dominated_on_expand`], off by
//!   default): the same with the mover's dominated cells too, which MoHex's prunable patterns
//!   drop at every node it expands. It makes an iteration 1.7 times as long, and won 5 of 20
//!   games against MoHex at 1.6 s a move on 9×9 where the default won 9 beside it (session
//!   57's screen): leave it off.
//! - **Weighted playouts** ([`MctsConfig::playout_patterns`], off by default): leave them off.
//!   With the shipped weights they halve the playout rate and made the player no stronger: 19
//!   of 40 self-play games on 9×9 at 1 s a move against the same engine without them, and 5 of
//!   20 against MoHex where the engine without them won 7 on the same openings.
//! - **Balanced playouts** ([`MctsConfig::playout_weights`] with weights from [`balance()`], off
//!   by default): leave them off for now. Balanced on the exact solver's values of 3,078
//!   positions near where self-play games are decided, the playouts' squared error on held-out
//!   positions fell from 0.232 to 0.225 (a constant guess: 0.245), and in play against MoHex
//!   they won 25 of 60 games on 9×9 and 5 of 20 on 11×11, where the engine without them won 24
//!   and 5 of the same games beside them (session 75 in `docs/benzene.md`). Balanced longer
//!   (held-out error 0.188), they won 37 of 100 on 9×9 where the engine without them won 32
//!   beside them (session 76). They cost little time: the weights are six-cell, and the
//!   knowledge takes much of each move. Answer factors ([`MctsConfig::answer_factors`])
//!   balanced beside them did not lower the held-out error: not played yet.
//!
//! - **Threads** ([`MctsConfig::threads`], 1 by default): root parallelism
//!   ([`search_core::mcts::search_root_parallel`]): each thread grows its own tree with its own
//!   playouts and knowledge, and the root statistics are added up. No locks and no shared
//!   nodes, so two threads run about twice the iterations of one; the trees are each half as
//!   deep, which is what costs root parallelism strength against a shared tree. An iteration
//!   budget is split between the threads, so the same seed still plays the same game. The
//!   threads share their solver analyses (a position is analysed once a move, unless two
//!   threads reach it at the same moment). With the
//!   solver on and a time limit, one of the threads runs the exact solver for the whole move
//!   instead, beside the search, wherever at most [`MctsConfig::solver_beside_empty`] cells
//!   are empty (80 by default): near the border of what it proves, a position needs one to
//!   ten seconds of solving, more than a share of one move gives it, and its table, kept from
//!   move to move, carries the work over.
//!
//! - **Exploration** ([`MctsConfig::exploration`], 0 by default): leave it at 0 for now. With
//!   no UCB term the chosen root move keeps most of the visits (over 70 % after 100,000
//!   iterations in four of six 9×9 openings; the repository's `hex_root` example prints the
//!   root's statistics) and
//!   four times the time seldom changes the choice; with 0.2 the visits spread, but the player
//!   won 20 of 60 games against MoHex at 1.6 s a move, where the versions of the three sessions
//!   before it, without the term, had won 19–24 on the same openings (their own runs).
//!
//! Against Benzene's MoHex at equal time the player is still well behind, and four times the
//! time does not close the gap (15 of 40 games). MoHex with its learned pattern weights all
//! set to 1 lost 24 of 40 games to this player: MoHex's weights are worth that much to MoHex.
//! Ours are not, so far: four sets of prior weights learned from stronger teachers (our search
//! at more playouts, the exact solver) won 34 to 39 of 100 games against MoHex where the shipped
//! ones won 37, and with no priors at all the player won 19 of 60 where the shipped ones won 20.
//! Given MoHex's own weights (a diagnostic, not shipped) it won 66 of 160, and with MoHex's
//! expansion threshold as well (`expand_after` 10, `rave_prior` 8) 64 of 140 over two sessions:
//! even MoHex's weights are worth only a few games in a hundred to this search, and what MoHex
//! gets from them lies in how its own search uses them (`docs/benzene.md` in the repository).
//!
//! Measured strength and speed, with the commands that reproduce them: `docs/measurements.md`
//! in the repository.
//!
//! # Examples
//!
//! ```
//! use hex::mcts::{MctsConfig, MctsPlayer};
//! use hex::{HexPlayer, Position};
//!
//! let mut player = MctsPlayer::new(MctsConfig::iterations(200));
//! let start = Position::new(5).unwrap();
//! let mv = player.choose_move(&start);
//! assert!(start.play(mv).is_ok());
//! assert_eq!(player.last_result().unwrap().iterations, 200);
//! ```

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use rand::RngExt;
use search_core::mcts::{self, Insight, Knowledge, McRng, Playout, Rewards, SearchTree, Worker};
/// How RAVE weighs all-moves-as-first against own statistics ([`MctsConfig::rave_weight`]).
pub use search_core::mcts::{RaveWeight, Widening};
use search_core::{Clock, Player, WallClock};

use crate::board::{Cell, Color, HexMove, Position};
use crate::bridge_chain::{ProvedWin, proved_win};
use crate::distances::two_distance;
use crate::heuristics::{Critical, critical_cell};
use crate::net::PolicyNet;
use crate::patterns::{
    OFFSETS, PATTERN_CELLS, PatternGrid, PatternWeights, RING_CODES, local_key, within_twelve,
};
use crate::rules::HexGame;
use crate::solver::{Analysis, MAX_SOLVER_SIZE, SolveError, Solver, SolverConfig, Verdict};

mod balance;
mod twelve;
pub use balance::{
    BalanceConfig, BalanceEpoch, BalanceError, BalanceTarget, Balanced, balance, playout_error,
};
pub use twelve::TwelvePolicy;

/// No neighbour in that direction (off the board).
const NONE: u16 = u16::MAX;

/// The six neighbour offsets `(dr, dc)` in ring order: each is adjacent to the next, so two
/// stones at ring places `k − 1` and `k + 1` form a bridge whose carrier is places `k` and the
/// centre.
const RING: [(i8, i8); 6] = [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)];

/// A cell's colour in a playout's grid.
const EMPTY: u8 = 0;

fn grid_colour(color: Color) -> u8 {
    color.index() + 1
}

/// Per cell of an n×n board (by id), the ids of the cells at `offsets` `(dr, dc)` from it, in
/// their order, [`NONE`] off the board.
fn cells_at<const K: usize>(size: u8, offsets: &[(i8, i8); K]) -> Vec<[u16; K]> {
    let n = i16::from(size);
    (0..n * n)
        .map(|id| {
            let (r, c) = (id / n, id % n);
            offsets.map(|(dr, dc)| {
                let (r, c) = (r + i16::from(dr), c + i16::from(dc));
                if (0..n).contains(&r) && (0..n).contains(&c) { (r * n + c) as u16 } else { NONE }
            })
        })
        .collect()
}

/// Per cell of an n×n board (by id), the code of its places at `offsets` that lie off the
/// board, two bits a place in their order: Black's edge past the top or bottom, White's past a
/// side, [`RING_CORNER`] past both; 0 for the places on the board.
fn edge_codes<const K: usize>(size: u8, offsets: &[(i8, i8); K]) -> Vec<u32> {
    let n = i16::from(size);
    (0..n * n)
        .map(|id| {
            let (r, c) = (id / n, id % n);
            let mut code = 0;
            for (k, (dr, dc)) in offsets.iter().enumerate() {
                let (r, c) = (r + i16::from(*dr), c + i16::from(*dc));
                let state = match ((0..n).contains(&r), (0..n).contains(&c)) {
                    (true, true) => continue,
                    (false, true) => u32::from(grid_colour(Color::Black)),
                    (true, false) => u32::from(grid_colour(Color::White)),
                    (false, false) => u32::from(RING_CORNER),
                };
                code |= state << (2 * k);
            }
            code
        })
        .collect()
}

/// The code of a cell whose places are the grid cells `cells` (ids in place order, [`NONE`]
/// off the board), on top of `edge`, the code of its places off the board ([`edge_codes`]).
fn code_of(grid: &[u8], edge: u32, cells: &[u16]) -> u32 {
    cells
        .iter()
        .enumerate()
        .filter(|&(_, &m)| m != NONE)
        .fold(edge, |code, (k, &m)| code | (u32::from(grid[usize::from(m)]) << (2 * k)))
}

/// Random playouts for [`HexGame`]: fill the board in a random order, answering bridge
/// intrusions (see the [module docs](self)).
///
/// # Examples
///
/// ```
/// use rand::SeedableRng;
/// use search_core::mcts::{McRng, Playout};
/// use hex::mcts::HexPlayout;
/// use hex::{HexGame, Position};
///
/// let start = Position::new(7).unwrap();
/// let mut trace = Vec::new();
/// let rewards = HexPlayout::new(true).playout(&HexGame::new(7), &start, &mut McRng::seed_from_u64(3), &mut trace);
/// assert_eq!(rewards[0] + rewards[1], 1.0); // one winner
/// assert_eq!(trace.len(), 49); // every cell filled
/// ```
#[derive(Clone, Debug)]
pub struct HexPlayout {
    bridge_replies: bool,
    /// Bridge replies count the player's own edges as stones ([`HexPlayout::with_edge_bridges`]).
    edge_bridges: bool,
    /// Pattern weights for the move order; `None`: uniform.
    policy: Option<Arc<PlayoutPolicy>>,
    /// Local-response weights for the cells near the last stone; `None`: none.
    local: Option<Arc<LocalPolicy>>,
    /// Factors on the weights of the cells near the last stone ([`HexPlayout::with_answers`]);
    /// `None`: none.
    answers: Option<Arc<AnswerFactors>>,
    /// Twelve-cell pattern weights ([`HexPlayout::with_twelve`]), in place of `policy` and
    /// `local`; `None`: none.
    twelve: Option<Arc<TwelvePolicy>>,
    /// Per empty cell, its raw twelve-cell code from Black's view (twelve-cell playouts only).
    views: Vec<u32>,
    /// Per cell, its answer weight for Black and for White to move (twelve-cell playouts).
    answer_weights: [Vec<u32>; 2],
    /// Per cell, the raw twelve-cell code of its places off the board, from Black's view.
    edge_twelve: Vec<u32>,
    /// Per cell, the cells at the twelve offsets of a pattern ([`NONE`] off the board).
    around: Vec<[u16; PATTERN_CELLS]>,
    /// The board side the tables below are for.
    size: u8,
    /// Neighbour cell ids in ring order, [`NONE`] off the board.
    neighbours: Vec<[u16; 6]>,
    /// Per cell, the ring code of its neighbours off the board (see [`PlayoutPolicy`]).
    edge_codes: Vec<u16>,
    /// Per cell, its row.
    rows: Vec<u8>,
    /// Per empty cell, the ring code of its neighbours (weighted or local playouts only).
    codes: Vec<u16>,
    /// Per cell, its weight for Black and for White to move; 0 once taken.
    weights: [Vec<u32>; 2],
    /// Per row, the sum of its cells' weights for Black and for White.
    row_sums: [Vec<u32>; 2],
    /// Per cell: empty, or a stone's colour plus one.
    grid: Vec<u8>,
    /// The empty cells in playing order.
    order: Vec<u16>,
    /// Flood-fill scratch.
    stack: Vec<u16>,
    seen: Vec<bool>,
    /// The static evaluation's share of each result and its logistic scale
    /// ([`HexPlayout::with_eval_mix`]); `None`: playouts alone.
    eval_mix: Option<(f64, f64)>,
}

impl HexPlayout {
    /// A playout policy; `bridge_replies` turns the bridge pattern on.
    pub fn new(bridge_replies: bool) -> Self {
        HexPlayout {
            bridge_replies,
            edge_bridges: false,
            policy: None,
            local: None,
            answers: None,
            twelve: None,
            views: Vec::new(),
            answer_weights: [Vec::new(), Vec::new()],
            edge_twelve: Vec::new(),
            around: Vec::new(),
            size: 0,
            neighbours: Vec::new(),
            edge_codes: Vec::new(),
            rows: Vec::new(),
            codes: Vec::new(),
            weights: [Vec::new(), Vec::new()],
            row_sums: [Vec::new(), Vec::new()],
            grid: Vec::new(),
            order: Vec::new(),
            stack: Vec::new(),
            seen: Vec::new(),
            eval_mix: None,
        }
    }

    /// The same playouts with each result mixed with a static evaluation of the position the
    /// playout starts from: `(1 − share) · result + share · v`, where `v` is Black's chance
    /// `1 / (1 + e^(−scale · (p_white − p_black)))` by Queenbee's two-distance potentials
    /// ([`crate::distances::two_distance`]: lower is closer to connecting), and `1 − v` White's.
    /// Random playouts rate a block next to the opponent's stone below moves across the board;
    /// the potentials rate it as a block. A share of 0 is the plain playout.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use search_core::mcts::{McRng, Playout};
    /// use hex::mcts::HexPlayout;
    /// use hex::{HexGame, Position};
    ///
    /// let mut playout = HexPlayout::new(true).with_eval_mix(0.5, 0.5);
    /// let mut trace = Vec::new();
    /// let start = Position::new(7).unwrap();
    /// let rewards = playout.playout(&HexGame::new(7), &start, &mut McRng::seed_from_u64(3), &mut trace);
    /// // The empty board is even for the potentials: half of the result is one half.
    /// assert!((rewards[0] - 0.25).abs() < 1e-9 || (rewards[0] - 0.75).abs() < 1e-9);
    /// assert!((rewards[0] + rewards[1] - 1.0).abs() < 1e-9);
    /// ```
    pub fn with_eval_mix(self, share: f64, scale: f64) -> Self {
        let eval_mix = (share > 0.0).then_some((share.min(1.0), scale));
        HexPlayout { eval_mix, ..self }
    }

    /// The same playouts with the empty cells drawn in proportion to their pattern weights
    /// (bridge replies, if on, still come first).
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use search_core::mcts::{McRng, Playout};
    /// use hex::mcts::{HexPlayout, PlayoutPolicy};
    /// use hex::{HexGame, Position};
    ///
    /// let mut playout = HexPlayout::new(true).with_policy(PlayoutPolicy::shipped().clone());
    /// let mut trace = Vec::new();
    /// let start = Position::new(9).unwrap();
    /// let rewards = playout.playout(&HexGame::new(9), &start, &mut McRng::seed_from_u64(3), &mut trace);
    /// assert_eq!(rewards[0] + rewards[1], 1.0);
    /// assert_eq!(trace.len(), 81);
    /// ```
    pub fn with_policy(self, policy: Arc<PlayoutPolicy>) -> Self {
        HexPlayout { policy: Some(policy), ..self }
    }

    /// The same playouts answering the last move: each move, the empty cells among the twelve
    /// around the opponent's last stone get extra weight by their local-response strength
    /// ([`LocalPolicy`]) against the rest of the board, as MoHex 2.0's playouts answer locally
    /// (bridge replies, if on, still come first).
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use search_core::mcts::{McRng, Playout};
    /// use hex::mcts::{HexPlayout, LocalPolicy};
    /// use hex::{HexGame, Position};
    ///
    /// let mut playout = HexPlayout::new(true).with_local(LocalPolicy::shipped().clone());
    /// let mut trace = Vec::new();
    /// let start = Position::new(9).unwrap();
    /// let rewards = playout.playout(&HexGame::new(9), &start, &mut McRng::seed_from_u64(3), &mut trace);
    /// assert_eq!(rewards[0] + rewards[1], 1.0);
    /// assert_eq!(trace.len(), 81);
    /// ```
    pub fn with_local(self, local: Arc<LocalPolicy>) -> Self {
        HexPlayout { local: Some(local), ..self }
    }

    /// The same weighted playouts answering the last move by factors: each move that is not a
    /// bridge reply, the weight of every empty cell among the twelve around the opponent's last
    /// stone is multiplied by its factor ([`AnswerFactors`]) for that draw, against the rest of
    /// the board at its own weights ([`HexPlayout::with_policy`]'s, or uniform ones if no policy
    /// is given). [`balance()`] learns such factors beside the six-cell weights. Takes the place
    /// of [`HexPlayout::with_local`]'s answers.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rand::SeedableRng;
    /// use search_core::mcts::{McRng, Playout};
    /// use hex::mcts::{AnswerFactors, HexPlayout};
    /// use hex::patterns::PatternWeights;
    /// use hex::{HexGame, Position};
    ///
    /// let factors = Arc::new(AnswerFactors::new(&PatternWeights::default()));
    /// let mut playout = HexPlayout::new(true).with_answers(factors);
    /// let mut trace = Vec::new();
    /// let start = Position::new(9).unwrap();
    /// let rewards = playout.playout(&HexGame::new(9), &start, &mut McRng::seed_from_u64(3), &mut trace);
    /// assert_eq!(rewards[0] + rewards[1], 1.0);
    /// assert_eq!(trace.len(), 81);
    /// ```
    pub fn with_answers(self, answers: Arc<AnswerFactors>) -> Self {
        HexPlayout { answers: Some(answers), ..self }
    }

    /// The same playouts with bridge replies (if on) that also keep a stone's bridge to its own
    /// edge: when the opponent takes one of the two cells between a stone on the second row and
    /// the player's edge, the player takes the other. Without it a stone one row from its edge
    /// keeps its edge connection in only about half of the playouts, though no reply can cut it.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use search_core::mcts::{McRng, Playout};
    /// use hex::mcts::HexPlayout;
    /// use hex::{HexGame, HexMove, parse_cell, play_moves};
    ///
    /// // Black (top to bottom) on b2, one row from the top edge; White takes b1, between them.
    /// let (position, cells) = play_moves(5, ["b2", "b1"]).unwrap();
    /// let mut playout = HexPlayout::new(true).with_edge_bridges(true);
    /// let mut trace = vec![(1, HexMove::Place(cells[1]))];
    /// playout.playout(&HexGame::new(5), &position, &mut McRng::seed_from_u64(3), &mut trace);
    /// // Black's answer is the other cell of the bridge to its edge: c1.
    /// assert_eq!(trace[1].1, HexMove::Place(parse_cell("c1", 5).unwrap()));
    /// ```
    pub fn with_edge_bridges(self, on: bool) -> Self {
        HexPlayout { edge_bridges: on, ..self }
    }

    /// Builds the neighbour tables for an n×n board.
    fn prepare(&mut self, size: u8) {
        if self.size == size {
            return;
        }
        self.size = size;
        let n = i16::from(size);
        self.neighbours = cells_at(size, &RING);
        // Six places of two bits: the codes fit in 12 bits.
        self.edge_codes = edge_codes(size, &RING).into_iter().map(|code| code as u16).collect();
        self.rows = (0..n * n).map(|id| (id / n) as u8).collect();
        self.around = cells_at(size, &OFFSETS);
        self.edge_twelve = edge_codes(size, &OFFSETS);
    }

    /// Reads the ring code of every empty cell of the grid.
    fn read_codes(&mut self) {
        let n = usize::from(self.size);
        self.codes.clear();
        self.codes.resize(n * n, 0);
        for id in 0..n * n {
            if self.grid[id] != EMPTY {
                continue;
            }
            // Six places of two bits: the code fits in 12 bits.
            self.codes[id] = code_of(&self.grid, u32::from(self.edge_codes[id]), &self.neighbours[id]) as u16;
        }
    }

    /// A cell among the twelve around the opponent's last stone `last`, drawn by its extra
    /// local weight for `side` against `empty` cells of weight [`PLAYOUT_UNIT`] each; `None`
    /// if the draw falls on the rest of the board.
    fn local_reply(
        &self,
        local: &LocalPolicy,
        last: u16,
        side: usize,
        empty: u32,
        rng: &mut McRng,
    ) -> Option<u16> {
        let mut cells = [NONE; PATTERN_CELLS];
        let mut weights = [0u32; PATTERN_CELLS];
        let mut total = 0;
        for (k, &cell) in self.around[usize::from(last)].iter().enumerate() {
            if cell == NONE || self.grid[usize::from(cell)] != EMPTY {
                continue;
            }
            let weight =
                local.weights[side][LAST_PLACE[k] * RING_CODES + usize::from(self.codes[usize::from(cell)])];
            cells[k] = cell;
            weights[k] = weight;
            total += weight;
        }
        if total == 0 {
            return None;
        }
        let mut x = rng.random_range(0..total + empty * PLAYOUT_UNIT as u32);
        for (cell, weight) in cells.into_iter().zip(weights) {
            if x < weight {
                return Some(cell);
            }
            x -= weight;
        }
        None
    }

    /// Sets every cell's weights and every row's sums to 0, for a board of the prepared size.
    fn clear_weights(&mut self) {
        let n = usize::from(self.size);
        for side in 0..2 {
            self.weights[side].clear();
            self.weights[side].resize(n * n, 0);
            self.row_sums[side].clear();
            self.row_sums[side].resize(n, 0);
        }
    }

    /// Sets cell `id`'s weights for Black and for White to move, keeping its row's sums (a
    /// filled cell gets `[0, 0]`).
    fn set_weights(&mut self, id: usize, weights: [u32; 2]) {
        for (side, weight) in weights.into_iter().enumerate() {
            self.set_side_weight(id, side, weight);
        }
    }

    /// Fills the ring codes, weights and row sums of the grid's empty cells.
    fn weigh(&mut self, policy: &PlayoutPolicy) {
        self.read_codes();
        self.clear_weights();
        for id in 0..self.grid.len() {
            if self.grid[id] != EMPTY {
                continue;
            }
            let code = usize::from(self.codes[id]);
            self.set_weights(id, [policy.weights[0][code], policy.weights[1][code]]);
        }
    }

    /// Puts a stone of grid colour `colour` on the empty `cell`, keeping the weights of a
    /// weighted playout in step.
    fn place(&mut self, cell: u16, colour: u8, policy: Option<&PlayoutPolicy>, codes: bool) {
        let id = usize::from(cell);
        self.grid[id] = colour;
        let Some(policy) = policy else {
            if codes {
                for (k, &m) in self.neighbours[id].iter().enumerate() {
                    if m != NONE && self.grid[usize::from(m)] == EMPTY {
                        self.codes[usize::from(m)] |= u16::from(colour) << (2 * ((k + 3) % 6));
                    }
                }
            }
            return;
        };
        self.set_weights(id, [0, 0]);
        let ring = self.neighbours[id];
        for (k, &m) in ring.iter().enumerate() {
            let m = usize::from(m);
            if m == usize::from(NONE) || self.grid[m] != EMPTY {
                continue;
            }
            // The new stone is at place k + 3 of its neighbour's ring.
            self.codes[m] |= u16::from(colour) << (2 * ((k + 3) % 6));
            let code = usize::from(self.codes[m]);
            self.set_weights(m, [policy.weights[0][code], policy.weights[1][code]]);
        }
    }

    /// An empty cell drawn in proportion to its weight for `side` (0 Black, 1 White).
    fn draw(&self, side: usize, rng: &mut McRng) -> u16 {
        let n = usize::from(self.size);
        let sums = &self.row_sums[side];
        let total: u32 = sums.iter().sum();
        let mut x = rng.random_range(0..total);
        for (row, &sum) in sums.iter().enumerate() {
            if x >= sum {
                x -= sum;
                continue;
            }
            for (id, &weight) in self.weights[side][row * n..(row + 1) * n].iter().enumerate() {
                if x < weight {
                    return (row * n + id) as u16;
                }
                x -= weight;
            }
        }
        unreachable!("the weights of the empty cells sum to the rows' sums")
    }

    /// An empty cell drawn for `side` with the weights of the empty cells among the twelve
    /// around `last` multiplied by their answer factors, which are then put back.
    fn draw_answering(&mut self, answers: &AnswerFactors, last: u16, side: usize, rng: &mut McRng) -> u16 {
        let mut changed = [(NONE, 0u32); PATTERN_CELLS];
        let around = self.around[usize::from(last)];
        for (k, &cell) in around.iter().enumerate() {
            if cell == NONE || self.grid[usize::from(cell)] != EMPTY {
                continue;
            }
            let id = usize::from(cell);
            let factor = answers.factors[side][LAST_PLACE[k] * RING_CODES + usize::from(self.codes[id])];
            if factor == PLAYOUT_UNIT as u32 {
                continue;
            }
            let weight = self.weights[side][id];
            changed[k] = (cell, weight);
            // At most 2^26 a cell: twelve such cells and a full 19x19 board of the largest
            // pattern weight (2^20) still sum below 2^32.
            let answered = ((u64::from(weight) * u64::from(factor)) >> 10).clamp(1, 1 << 26) as u32;
            self.set_side_weight(id, side, answered);
        }
        let cell = self.draw(side, rng);
        for (id, weight) in changed {
            if id != NONE {
                self.set_side_weight(usize::from(id), side, weight);
            }
        }
        cell
    }

    /// Sets cell `id`'s weight for `side` to move, keeping its row's sum.
    fn set_side_weight(&mut self, id: usize, side: usize, weight: u32) {
        let row = usize::from(self.rows[id]);
        self.row_sums[side][row] = self.row_sums[side][row] - self.weights[side][id] + weight;
        self.weights[side][id] = weight;
    }

    /// The other carrier cell of a bridge of `colour` whose carrier `intruder` just took, if any
    /// (a random one if there are several).
    fn bridge_reply(&self, intruder: u16, colour: u8, rng: &mut McRng) -> Option<u16> {
        let ring = &self.neighbours[usize::from(intruder)];
        // The intruder's neighbours off the board, by ring place (see `edge_codes`); with edge
        // bridges, those on the player's own edge count as the player's stones.
        let edges = if self.edge_bridges { self.edge_codes[usize::from(intruder)] } else { 0 };
        let own = |place: usize| match ring[place] {
            NONE => (edges >> (2 * place)) & 3 == u16::from(colour),
            cell => self.grid[usize::from(cell)] == colour,
        };
        let mut replies = [NONE; 6];
        let mut count = 0;
        for (k, &c) in ring.iter().enumerate() {
            if c == NONE || self.grid[usize::from(c)] != EMPTY {
                continue;
            }
            if own((k + 5) % 6) && own((k + 1) % 6) {
                replies[count] = c;
                count += 1;
            }
        }
        match count {
            0 => None,
            1 => Some(replies[0]),
            _ => Some(replies[rng.random_range(0..count)]),
        }
    }

    /// Whether Black's stones in the grid join the top row to the bottom row.
    fn black_connects(&mut self) -> bool {
        let n = usize::from(self.size);
        let black = grid_colour(Color::Black);
        self.seen.clear();
        self.seen.resize(n * n, false);
        self.stack.clear();
        for id in 0..n {
            if self.grid[id] == black {
                self.seen[id] = true;
                self.stack.push(id as u16);
            }
        }
        while let Some(id) = self.stack.pop() {
            if usize::from(id) >= n * (n - 1) {
                return true;
            }
            for &m in &self.neighbours[usize::from(id)] {
                if m != NONE && !self.seen[usize::from(m)] && self.grid[usize::from(m)] == black {
                    self.seen[usize::from(m)] = true;
                    self.stack.push(m);
                }
            }
        }
        false
    }
}

impl Playout<HexGame> for HexPlayout {
    fn playout(
        &mut self,
        _game: &HexGame,
        position: &Position,
        rng: &mut McRng,
        trace: &mut Vec<(Player, HexMove)>,
    ) -> Rewards {
        if let Some(winner) = position.winner() {
            return mcts::win_for(winner.index());
        }
        let Some((share, scale)) = self.eval_mix else { return self.play_out(position, rng, trace) };
        let board = position.board();
        let cap = 2 * u32::from(board.size()) * u32::from(board.size()) + 1;
        let potential = |c: Color| f64::from(two_distance(board, c).best_potential().unwrap_or(cap));
        let black = 1.0 / (1.0 + (-scale * (potential(Color::White) - potential(Color::Black))).exp());
        let result = self.play_out(position, rng, trace);
        let mut rewards = result;
        rewards[Color::Black.index() as usize] =
            (1.0 - share) * result[Color::Black.index() as usize] + share * black;
        rewards[Color::White.index() as usize] =
            (1.0 - share) * result[Color::White.index() as usize] + share * (1.0 - black);
        rewards
    }
}

impl HexPlayout {
    /// The plain playout of [`Playout::playout`] from a position nobody has won.
    fn play_out(
        &mut self,
        position: &Position,
        rng: &mut McRng,
        trace: &mut Vec<(Player, HexMove)>,
    ) -> Rewards {
        let size = position.size();
        self.prepare(size);
        let board = position.board();
        self.grid.clear();
        self.grid.extend(board.cells().map(|cell| board.get(cell).map_or(EMPTY, grid_colour)));
        if let Some(twelve) = self.twelve.clone() {
            return self.play_out_twelve(&twelve, position, rng, trace);
        }
        let answers = self.answers.clone();
        let policy = match (&self.policy, &answers) {
            (None, Some(_)) => Some(PlayoutPolicy::flat_shared().clone()),
            (policy, _) => policy.clone(),
        };
        let local = if answers.is_some() { None } else { self.local.clone() };
        let empty = board.empty_cells().count();
        if policy.is_none() && local.is_some() {
            self.read_codes();
        }
        match policy.as_deref() {
            Some(policy) => self.weigh(policy),
            None => {
                self.order.clear();
                self.order.extend(board.empty_cells().map(|cell| cell.id(size) as u16));
                // Fisher–Yates: every order of the empty cells is equally likely.
                for i in (1..self.order.len()).rev() {
                    let j = rng.random_range(0..=i);
                    self.order.swap(i, j);
                }
            }
        }
        let mut last = match trace.last() {
            Some(&(_, HexMove::Place(cell))) => Some(cell.id(size) as u16),
            _ => None,
        };
        let mut me = position.to_move();
        let mut next = 0;
        for played in 0..empty {
            let mut reply = match last {
                Some(intruder) if self.bridge_replies => self.bridge_reply(intruder, grid_colour(me), rng),
                _ => None,
            };
            if let (None, Some(local), Some(last)) = (reply, local.as_deref(), last) {
                let left = (empty - played) as u32;
                reply = self.local_reply(local, last, usize::from(me.index()), left, rng);
            }
            let cell = reply.unwrap_or_else(|| match (&policy, answers.as_deref(), last) {
                (Some(_), Some(answers), Some(last)) => {
                    self.draw_answering(answers, last, usize::from(me.index()), rng)
                }
                (Some(_), _, _) => self.draw(usize::from(me.index()), rng),
                (None, _, _) => {
                    // Cells taken out of order by a reply are skipped here.
                    while self.grid[usize::from(self.order[next])] != EMPTY {
                        next += 1;
                    }
                    self.order[next]
                }
            });
            self.place(cell, grid_colour(me), policy.as_deref(), local.is_some());
            trace.push((me.index(), HexMove::Place(Cell::from_id(usize::from(cell), size))));
            last = Some(cell);
            me = me.opponent();
        }
        let winner = if self.black_connects() { Color::Black } else { Color::White };
        mcts::win_for(winner.index())
    }
}

/// A ring code's state for a cell off a corner, beyond both edges.
const RING_CORNER: u16 = 3;

/// The weights by which weighted playouts ([`HexPlayout::with_policy`]) draw their cells: MoHex
/// 2.0's playout patterns, learned here by our own code from our own self-play.
///
/// A cell's weight depends on its six neighbours ([`crate::patterns::ring`]) and on the player
/// to move. The playout keeps every empty cell's ring code as the board fills (a stone changes
/// the rings of its six neighbours only) and looks its weight up in a table of all 4,096 codes,
/// built once from the pattern strengths: no pattern is read twice and no table is searched.
/// The weights are whole numbers (γ × 1024, at least 1), so the sums a playout keeps per row
/// stay exact however long it runs.
///
/// # Examples
///
/// ```
/// use hex::mcts::PlayoutPolicy;
/// use hex::patterns::PatternWeights;
///
/// // Pattern 0 (six empty neighbours) four times as strong as any other.
/// let policy = PlayoutPolicy::new(&PatternWeights::from_pairs([(0, 4.0)]));
/// assert_eq!(policy.weight(hex::Color::Black, 0), 4 * policy.weight(hex::Color::White, 1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutPolicy {
    /// Per ring code read on the board (place `k` of [`RING`] at bits `2k`: empty, Black's
    /// stone or edge, White's, off a corner), the cell's weight for Black to move, then for
    /// White.
    weights: [Vec<u32>; 2],
}

/// The weights of a pattern of strength 1.
const PLAYOUT_UNIT: f32 = 1024.0;

impl PlayoutPolicy {
    /// The policy of these six-cell pattern strengths (codes as [`crate::patterns::ring`]
    /// gives them, seen from the player to move; a code they do not hold has strength 1).
    pub fn new(patterns: &PatternWeights) -> PlayoutPolicy {
        let weight = |code: u32| {
            let gamma = patterns.gamma(crate::patterns::ring(code));
            (gamma * PLAYOUT_UNIT).round().clamp(1.0, 1_048_576.0) as u32
        };
        let black = (0..1u32 << 12).map(weight).collect();
        let white = (0..1u32 << 12).map(|code| weight(white_view(code))).collect();
        PlayoutPolicy { weights: [black, white] }
    }

    /// The uniform policy: every empty cell weighs the same (a draw by it is a uniform random
    /// move, as the plain playouts make), to be narrowed by [`PlayoutPolicy::with_inferior`].
    ///
    /// ```
    /// use hex::mcts::PlayoutPolicy;
    /// use hex::Color;
    ///
    /// let flat = PlayoutPolicy::flat();
    /// assert!((0..4096).all(|code| flat.weight(Color::Black, code) == flat.weight(Color::White, 0)));
    /// ```
    pub fn flat() -> PlayoutPolicy {
        PlayoutPolicy::new(&PatternWeights::default())
    }

    /// The same policy with every cell that is inferior for the player to move by its six
    /// neighbours alone ([`ring_inferior`]: dead, or left dead by an opponent's stone on one of
    /// its empty neighbours) at the least weight, so that the playouts leave such cells until
    /// the rest of the board is full, as MoHex's playouts leave the cells its patterns mark
    /// dead, captured, vulnerable or dominated. A dead cell changes nobody's connections, so
    /// playing it only hands the opponent a tempo, and a vulnerable stone is one the
    /// opponent's answer makes useless. The playouts refresh a cell's weight whenever one of
    /// its neighbours is played, so a cell is deferred as soon as it becomes inferior.
    ///
    /// ```
    /// use hex::mcts::PlayoutPolicy;
    /// use hex::Color;
    ///
    /// let policy = PlayoutPolicy::flat().with_inferior();
    /// // Four Black neighbours in a row (places 0 to 3, two bits each): dead for both sides.
    /// let dead = 0b01_01_01_01;
    /// assert!(policy.weight(Color::White, dead) < policy.weight(Color::White, 0));
    /// assert!(policy.weight(Color::Black, dead) < policy.weight(Color::Black, 0));
    /// ```
    pub fn with_inferior(self) -> PlayoutPolicy {
        let mut weights = self.weights;
        for (side, colour) in [(0, Color::Black), (1, Color::White)] {
            for (code, weight) in weights[side].iter_mut().enumerate() {
                if ring_inferior(code as u32, colour) {
                    *weight = 1;
                }
            }
        }
        PlayoutPolicy { weights }
    }

    /// The uniform policy ([`PlayoutPolicy::flat`]), built once.
    fn flat_shared() -> &'static Arc<PlayoutPolicy> {
        static POLICY: OnceLock<Arc<PlayoutPolicy>> = OnceLock::new();
        POLICY.get_or_init(|| Arc::new(PlayoutPolicy::flat()))
    }

    /// The policy learned from our own self-play and shipped with the crate
    /// ([`PatternWeights::shipped_playout`]), built once.
    pub fn shipped() -> &'static Arc<PlayoutPolicy> {
        static POLICY: OnceLock<Arc<PlayoutPolicy>> = OnceLock::new();
        POLICY.get_or_init(|| Arc::new(PlayoutPolicy::new(PatternWeights::shipped_playout())))
    }

    /// The weight of an empty cell whose neighbours read `code` on the board (place `k` of the
    /// ring `(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)` at bits `2k`: 0 empty, 1
    /// Black's stone or edge, 2 White's, 3 off a corner), for `to_move`.
    ///
    /// # Panics
    /// If `code` is not below [`crate::patterns::RING_CODES`].
    pub fn weight(&self, to_move: Color, code: u32) -> u32 {
        self.weights[usize::from(to_move.index())][code as usize]
    }
}

/// A ring code read on the board, as White sees it: White sees the board mirrored in the long
/// diagonal with the colours swapped, so place `k` of its view is place `5 − k` of the board,
/// and Black's states are its opponent's.
fn white_view(code: u32) -> u32 {
    (0..6).fold(0, |view, k| {
        let state = match (code >> (2 * (5 - k))) & 3 {
            1 => 2,
            2 => 1,
            other => other,
        };
        view | (state << (2 * k))
    })
}

/// The state of place `k` of a ring code ([`PlayoutPolicy::weight`] reads them: 0 empty, 1
/// Black's stone or edge, 2 White's, 3 off a corner).
fn ring_state(code: u32, k: usize) -> u32 {
    (code >> (2 * (k % 6))) & 3
}

/// Whether an empty cell whose neighbours read `code` (as [`PlayoutPolicy::weight`] reads it)
/// could lie on a minimal connection of `colour` (1 Black, 2 White) for all its ring shows:
/// whether two of its neighbours that are empty or `colour`'s, not next to each other, are not
/// already joined past it by a run of `colour`'s stones on either side of the ring. Otherwise
/// every path of `colour` through the cell has a shorter one around it.
fn ring_useful(code: u32, colour: u32) -> bool {
    let open = |k: usize| matches!(ring_state(code, k), 0) || ring_state(code, k) == colour;
    let joined = |from: usize, to: usize| (from..to).all(|k| ring_state(code, k) == colour);
    (0..6).any(|a| {
        open(a)
            && (a + 2..=a + 4).any(|b| {
                // The two arcs between a and b: places a+1..b and b+1..a+6 (mod 6).
                open(b) && !joined(a + 1, b) && !joined(b + 1, a + 6)
            })
    })
}

/// Whether an empty cell whose neighbours read `code` is dead by its ring alone: no minimal
/// connection of either colour can pass through it, so whoever takes it changes nothing.
///
/// ```
/// use hex::mcts::ring_dead;
///
/// assert!(!ring_dead(0)); // six empty neighbours
/// // Four Black neighbours in a row (places 0 to 3, two bits each).
/// assert!(ring_dead(0b01_01_01_01));
/// // Three Black in a row and two White in a row: dead too.
/// assert!(ring_dead(0b10_10_01_01_01));
/// // Black on two opposite sides: the cell joins them.
/// assert!(!ring_dead(0b01 | 0b01 << 6));
/// ```
pub fn ring_dead(code: u32) -> bool {
    !ring_useful(code, 1) && !ring_useful(code, 2)
}

/// Whether an empty cell whose neighbours read `code` is inferior for `to_move` by its ring
/// alone: dead ([`ring_dead`]), or vulnerable, left dead by an opponent's stone on one of its
/// empty neighbours (the opponent's answer there would make the mover's stone useless).
///
/// ```
/// use hex::mcts::ring_inferior;
/// use hex::Color;
///
/// assert!(!ring_inferior(0, Color::Black));
/// // Black on places 0 to 2, the rest empty: alive (Black can join place 0 to place 4 through
/// // it), but White on place 4 leaves it dead, and so does Black on place 3.
/// let code = 0b01_01_01;
/// assert!(!hex::mcts::ring_dead(code));
/// assert!(ring_inferior(code, Color::Black) && ring_inferior(code, Color::White));
/// ```
pub fn ring_inferior(code: u32, to_move: Color) -> bool {
    let code = code & ((1 << 12) - 1);
    if ring_dead(code) {
        return true;
    }
    let opponent = match to_move {
        Color::Black => 2,
        Color::White => 1,
    };
    (0..6).any(|k| ring_state(code, k) == 0 && ring_dead(code | opponent << (2 * k)))
}

/// Per place `k` of [`OFFSETS`]: the place of the centre seen from the cell at place `k` (the
/// opposite offset).
const LAST_PLACE: [usize; PATTERN_CELLS] = [3, 4, 5, 0, 1, 2, 9, 10, 11, 6, 7, 8];

/// The place of [`OFFSETS`] that place `k` goes to when the board is mirrored in its long
/// diagonal (White's view).
fn transposed_place(k: usize) -> usize {
    let (dr, dc) = OFFSETS[k];
    OFFSETS.iter().position(|&offset| offset == (dc, dr)).expect("the offsets are closed under the mirror")
}

/// The weights by which local playouts ([`HexPlayout::with_local`]) answer the last move: the
/// local-response strengths ([`crate::patterns::local`]) of the cells near the opponent's last
/// stone, learned by our own code from our own self-play against a flat rest of the board.
///
/// A cell's local weight depends on its six neighbours and on where the last stone lies among
/// its twelve cells. The playout keeps every empty cell's ring code as the board fills (as
/// [`PlayoutPolicy`] does) and looks the weight up in a table of the twelve places × 4,096
/// codes for each colour. A cell of strength γ > 1 gets the extra weight γ − 1 (in units of
/// 1,024) on top of the unit every empty cell has, so its chance against a cell far from the
/// last stone is γ to 1; a strength below 1 adds nothing.
///
/// # Examples
///
/// ```
/// use hex::mcts::LocalPolicy;
/// use hex::patterns::PatternWeights;
///
/// // No local weights: no cell gets extra weight.
/// let none = LocalPolicy::new(&PatternWeights::default());
/// assert!((0..12).all(|place| none.extra(hex::Color::Black, place, 0) == 0));
/// assert!(LocalPolicy::shipped().extra(hex::Color::White, 0, 0) < u32::MAX);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LocalPolicy {
    /// Per colour to move, per place of the last stone × [`RING_CODES`] + ring code read on the
    /// board (as [`PlayoutPolicy`] reads it), the extra weight.
    weights: [Vec<u32>; 2],
}

impl LocalPolicy {
    /// The policy of these local-response strengths ([`crate::patterns::local`] codes; a code
    /// they do not hold has strength 1 and no extra weight).
    pub fn new(local: &PatternWeights) -> LocalPolicy {
        LocalPolicy::scaled(local, 1.0)
    }

    /// The policy of these local-response strengths with every extra weight multiplied by
    /// `scale`: at scale `s` a cell of strength γ > 1 wins a draw against a cell far from the
    /// last stone `1 + s · (γ − 1)` to 1. MoHex's playouts answer the last move far more
    /// sharply than our learned strengths do at scale 1 (after the centre stone of 11×11,
    /// about nine draws in ten fall on the four blocking cells in front of and behind it,
    /// against one in seven in ours), so the scale tries that sharpness with our own weights.
    /// A scale of 0 or below (or not a number) gives no extra weight at all.
    ///
    /// ```
    /// use hex::mcts::LocalPolicy;
    /// use hex::patterns::PatternWeights;
    ///
    /// let weights = PatternWeights::shipped_local_playout();
    /// let (one, ten) = (LocalPolicy::new(weights), LocalPolicy::scaled(weights, 10.0));
    /// let sharp = (0..12).flat_map(|place| (0..4096).map(move |code| (place, code)));
    /// for (place, code) in sharp {
    ///     let (a, b) = (one.extra(hex::Color::Black, place, code), ten.extra(hex::Color::Black, place, code));
    ///     assert!(b >= a && b <= 10 * a + 10);
    /// }
    /// ```
    pub fn scaled(local: &PatternWeights, scale: f32) -> LocalPolicy {
        let scale = if scale > 0.0 { scale } else { 0.0 };
        let extra = |key: u16| {
            let gamma = local.gamma(u32::from(key));
            ((gamma - 1.0).max(0.0) * scale * PLAYOUT_UNIT).round().min(16_777_216.0) as u32
        };
        let [black, white] = local_keys();
        LocalPolicy {
            weights: [black.iter().map(|&k| extra(k)).collect(), white.iter().map(|&k| extra(k)).collect()],
        }
    }

    /// The playouts' local weights learned from our own self-play and shipped with the crate
    /// (`cargo xtask hex-patterns --local` regenerates them), built once.
    pub fn shipped() -> &'static Arc<LocalPolicy> {
        static POLICY: OnceLock<Arc<LocalPolicy>> = OnceLock::new();
        POLICY.get_or_init(|| Arc::new(LocalPolicy::new(PatternWeights::shipped_local_playout())))
    }

    /// The extra weight, for `to_move`, of an empty cell whose neighbours read `code` on the
    /// board (as [`PlayoutPolicy::weight`] reads it) when the opponent's last stone is at place
    /// `place` of its twelve (0–5 the neighbours `(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1),
    /// (0, -1)`, 6–11 the bridge cells `(-2, 1), (-1, 2), (1, 1), (2, -1), (1, -2), (-1, -1)`).
    ///
    /// # Panics
    /// If `place` is not below 12 or `code` not below [`RING_CODES`].
    pub fn extra(&self, to_move: Color, place: usize, code: u32) -> u32 {
        assert!(place < PATTERN_CELLS && (code as usize) < RING_CODES, "place {place}, code {code}");
        self.weights[usize::from(to_move.index())][place * RING_CODES + code as usize]
    }
}

/// Per side (Black, White) and `place * RING_CODES + code`, where `place` is where the
/// opponent's last stone lies among a cell's twelve and `code` the cell's ring code read on the
/// board: the local-response key ([`crate::patterns::local`]'s code) of the mover's view. Built
/// once; [`LocalPolicy`], [`AnswerFactors`] and the balancer read their weights through it.
pub(crate) fn local_keys() -> &'static [Vec<u16>; 2] {
    static KEYS: OnceLock<[Vec<u16>; 2]> = OnceLock::new();
    KEYS.get_or_init(|| {
        let table = |view: &dyn Fn(u32, usize) -> (u32, usize)| {
            let mut keys = vec![0; PATTERN_CELLS * RING_CODES];
            for place in 0..PATTERN_CELLS {
                for code in 0..RING_CODES as u32 {
                    let (ring, at) = view(code, place);
                    // Twelve places and twelve bits: every key is below 49,152.
                    keys[place * RING_CODES + code as usize] = local_key(ring, at) as u16;
                }
            }
            keys
        };
        let black = table(&|code, place| (code, place));
        // White sees the board mirrored in the long diagonal with the colours swapped.
        let white = table(&|code, place| {
            let ring = (0..6).fold(0, |view, k| {
                let state = match (code >> (2 * transposed_place(k))) & 3 {
                    1 => 2,
                    2 => 1,
                    other => other,
                };
                view | (state << (2 * k))
            });
            (ring, transposed_place(place))
        });
        [black, white]
    })
}

/// Factors by which weighted playouts answer the last move ([`HexPlayout::with_answers`]):
/// each move, the weight of every empty cell among the twelve around the opponent's last stone
/// is multiplied by the strength of its local-response code ([`crate::patterns::local`]), so
/// that a cell is drawn in proportion to its pattern weight times that factor. Unlike
/// [`LocalPolicy`]'s extra weights, a factor may be below 1 (a cell the answer makes worse),
/// and the draw stays one log-linear choice over the whole board, which is what
/// [`balance()`] learns factors for.
///
/// # Examples
///
/// ```
/// use hex::mcts::AnswerFactors;
/// use hex::patterns::PatternWeights;
/// use hex::Color;
///
/// // No strengths: every factor is 1.
/// let none = AnswerFactors::new(&PatternWeights::default());
/// assert!((0..12).all(|place| none.factor(Color::Black, place, 0) == 1.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerFactors {
    /// Per colour to move, per place of the last stone × [`RING_CODES`] + ring code read on the
    /// board, the factor in units of 1/1024.
    factors: [Vec<u32>; 2],
}

impl AnswerFactors {
    /// The factors of these local-response strengths (a code they do not hold has factor 1),
    /// kept between 1/1024 and 1024 in whole multiples of 1/1024.
    pub fn new(local: &PatternWeights) -> AnswerFactors {
        let factor =
            |key: u16| (local.gamma(u32::from(key)) * PLAYOUT_UNIT).round().clamp(1.0, 1_048_576.0) as u32;
        let [black, white] = local_keys();
        AnswerFactors {
            factors: [black.iter().map(|&k| factor(k)).collect(), white.iter().map(|&k| factor(k)).collect()],
        }
    }

    /// The factor, for `to_move`, of an empty cell whose neighbours read `code` on the board
    /// when the opponent's last stone is at place `place` of its twelve (as
    /// [`LocalPolicy::extra`] reads them).
    ///
    /// # Panics
    /// If `place` is not below 12 or `code` not below [`RING_CODES`].
    pub fn factor(&self, to_move: Color, place: usize, code: u32) -> f64 {
        assert!(place < PATTERN_CELLS && (code as usize) < RING_CODES, "place {place}, code {code}");
        f64::from(self.factors[usize::from(to_move.index())][place * RING_CODES + code as usize])
            / f64::from(PLAYOUT_UNIT)
    }
}

/// The settings of an [`MctsPlayer`]: a budget per move and the search's parameters.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use hex::mcts::MctsConfig;
///
/// let config = MctsConfig::time(Duration::from_millis(200));
/// assert_eq!((config.time, config.iterations), (Some(Duration::from_millis(200)), None));
/// assert!(config.rave.is_some() && config.bridge_replies);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// The time per move (wall clock), if limited; a timed player is not deterministic.
    pub time: Option<Duration>,
    /// The playouts per move, if limited; a player limited only by iterations is deterministic.
    pub iterations: Option<u64>,
    /// The seed of the random choices, mixed with each position's hash.
    pub seed: u64,
    /// UCB1's exploration constant.
    pub exploration: f64,
    /// RAVE's equivalence parameter, or `None` for plain UCT.
    pub rave: Option<f64>,
    /// How RAVE's weight falls as a move is tried ([`RaveWeight`]; the equivalence
    /// parameter's schedule by default).
    pub rave_weight: RaveWeight,
    /// Virtual all-moves-as-first visits at half a win that every new node starts with
    /// ([`search_core::mcts::Config::rave_prior`]); 0: none.
    pub rave_prior: u32,
    /// A node gets children once reached this many times.
    pub expand_after: u32,
    /// Answer bridge intrusions in playouts.
    pub bridge_replies: bool,
    /// With bridge replies, a player's own edge counts as a stone of theirs, so the playouts
    /// also keep the bridges from the second row to the edge ([`HexPlayout::with_edge_bridges`]).
    pub edge_bridges: bool,
    /// The share of a timed move (0 to 1) kept from the search to check its most visited moves
    /// with the exact solver, the most visited first: a move after which the solver proves the
    /// opponent's win is passed over for the next, up to [`MctsConfig::verify_moves`] of them
    /// (a move proved to win is played at once). On 11×11 the solver proves in a second or two
    /// many positions the search still rates near even (`docs/benzene.md` in the repository,
    /// session 59). `None`, or a
    /// player without a time limit: no check. Boards up to [`MAX_SOLVER_SIZE`].
    pub verify: Option<f64>,
    /// How many of the search's most visited moves [`MctsConfig::verify`] checks at most.
    pub verify_moves: u32,
    /// Draw the playouts' cells by the shipped six-cell pattern weights
    /// ([`PlayoutPolicy::shipped`]) instead of uniformly.
    pub playout_patterns: bool,
    /// The six-cell playout weights to draw by in place of the shipped ones (weighted
    /// playouts as with [`MctsConfig::playout_patterns`], which this turns on), for instance
    /// weights balanced by [`balance()`] (`cargo xtask hex-balance` in the repository). `None`,
    /// the default: the shipped weights if [`MctsConfig::playout_patterns`], else uniform. A
    /// reference for the whole process, as with [`MctsConfig::patterns`].
    pub playout_weights: Option<&'static PatternWeights>,
    /// The playouts answer the last move by the factors of these local-response strengths
    /// ([`AnswerFactors`], [`HexPlayout::with_answers`]), such as [`balance()`] learns beside
    /// [`MctsConfig::playout_weights`]: the cells around the opponent's last stone have their
    /// weights multiplied by them. Without playout weights the rest of the board is uniform.
    /// Takes the place of [`MctsConfig::local_playouts`]. `None` (the default): off.
    pub answer_factors: Option<&'static PatternWeights>,
    /// The solver's knowledge ([`Solver::analyse`]: proved wins and losses, the must-play
    /// region, inferior cells) prunes the moves of the root and of every node visited this many
    /// times; `None`: off. On boards larger than [`MAX_SOLVER_SIZE`], where the solver does
    /// not go, only chains of bridges ([`proved_win`]) prove nodes, and every move is searched.
    pub knowledge_after: Option<u32>,
    /// The share of a timed move (0 to 1) the exact solver gets before the search: a proved
    /// win is played at once, otherwise the search gets the rest of the time. The solver keeps
    /// its table from move to move. `None`, or a player without a time limit: no solver. Boards
    /// up to [`MAX_SOLVER_SIZE`] only.
    pub solver_share: Option<f64>,
    /// The solver of [`MctsConfig::solver_share`] goes only in positions with at most this
    /// many empty cells ([`DEFAULT_SOLVER_EMPTY`] by default). Further from the end it rarely
    /// proves anything within a share of a move, and the time it takes is the search's loss.
    pub solver_empty: u32,
    /// The weight of the learned pattern priors ([`crate::patterns::PatternWeights::shipped`])
    /// in the tree's progressive bias (see [`search_core::mcts::Config::prior_weight`]);
    /// `None`: no priors.
    pub prior_weight: Option<f64>,
    /// The pattern weights of the priors, `None` for the weights the crate ships
    /// ([`PatternWeights::shipped`]): weights read from a file ([`PatternWeights::read`]) are
    /// tried this way without building them in. A reference for the whole process, so that the
    /// settings stay `Copy`: leak the weights (`Box::leak`) or keep them in a `static`.
    pub patterns: Option<&'static PatternWeights>,
    /// Keep the search tree from move to move: when the position is the last searched one
    /// plus the player's move and one reply, the next search goes on from that subtree
    /// ([`search_core::mcts::SearchTree`]) instead of starting afresh.
    pub reuse_tree: bool,
    /// Threads searching the root together ([`search_core::mcts::search_root_parallel`]:
    /// each its own tree, playouts and knowledge, merged at the root). An iteration budget is
    /// shared between them, so the same seed still gives the same game; 0 counts as 1.
    pub threads: usize,
    /// With two threads or more, a time limit and the solver on
    /// ([`MctsConfig::solver_share`]), one thread runs the exact solver for the whole move
    /// beside the search, in positions with at most this many empty cells
    /// ([`DEFAULT_SOLVER_BESIDE_EMPTY`] by default), instead of the solver first; the others
    /// search. A win it proves is played and ends the search.
    pub solver_beside_empty: u32,
    /// With the knowledge on, every node (but the root) the search reaches this many times gets
    /// a small proof search of the exact solver ([`MctsConfig::prove_nodes`] nodes at most),
    /// and again after four times as many visits while it stays open
    /// ([`search_core::mcts::Config::prove_after`]): a proved node is a win for its winner
    /// from then on, and the proof backs up the tree. In the middle of 11×11 games the solver
    /// proves in a few dozen nodes positions two or three moves below the root that the
    /// search still rates near even. Boards up to [`MAX_SOLVER_SIZE`], positions with at most
    /// [`MctsConfig::prove_empty`] empty cells; a timed player gives the attempts at most
    /// [`MctsConfig::prove_share`] of the move. `None` (the default): no attempts.
    pub prove_after: Option<u32>,
    /// The solver's nodes per proof attempt of [`MctsConfig::prove_after`] (its table is kept
    /// from attempt to attempt and from move to move).
    pub prove_nodes: u64,
    /// The most empty cells of a position that [`MctsConfig::prove_after`] tries to prove.
    pub prove_empty: u32,
    /// The share of a timed move (0 to 1) that the proof attempts of
    /// [`MctsConfig::prove_after`] may take together; once spent, no more attempts this move.
    pub prove_share: f64,
    /// The share (0 to 1) of every playout's result taken from a static evaluation of the
    /// position it starts from, Queenbee's two-distance potentials through a logistic of scale
    /// [`MctsConfig::eval_scale`] ([`HexPlayout::with_eval_mix`]). 0 (the default): playouts
    /// alone.
    pub eval_mix: f64,
    /// The logistic scale of [`MctsConfig::eval_mix`]: Black's chance is
    /// `1 / (1 + e^(−scale · (p_white − p_black)))`.
    pub eval_scale: f64,
    /// Progressive widening by prior ([`search_core::mcts::Config::widening`]): at each node
    /// only the children with the highest priors may be selected, more of them as the node's
    /// visits grow. Needs [`MctsConfig::prior_weight`]. `None` (the default): every child.
    pub widening: Option<Widening>,
    /// The solver of the knowledge ([`MctsConfig::knowledge_after`]) and of
    /// [`MctsConfig::solver_share`] also fills in captured regions of three to five empty cells
    /// ([`SolverConfig::captured_regions`]), as the exact solver does by default: in the
    /// middle of 11×11 games an analysis then proves many positions lost that it otherwise
    /// leaves open, at about the same cost.
    pub captured_regions: bool,
    /// With the knowledge on, the search goes on below each analysed node from its position
    /// with the dead and captured cells filled in (as MoHex does), so the playouts there no
    /// longer spend moves on cells that cannot matter or let captured cells change hands.
    /// Off by default: it made the player no stronger against MoHex (see the module docs).
    pub fill_in: bool,
    /// With priors on, a cell near the opponent's last stone (one of the twelve its pattern
    /// reads) has its pattern strength multiplied by its local-response strength
    /// ([`crate::patterns::local`], [`PatternWeights::shipped_local`]), as MoHex 2.0's priors
    /// answer the last move. Nodes whose last move the search does not know (the root of a
    /// fresh search) get the patterns alone.
    pub local_priors: bool,
    /// The playouts answer the last move: the cells near the opponent's last stone get extra
    /// weight by their local-response strengths ([`HexPlayout::with_local`],
    /// [`LocalPolicy::shipped`]).
    pub local_playouts: bool,
    /// With [`MctsConfig::local_playouts`], the multiplier of the local weights' extra
    /// ([`LocalPolicy::scaled`]); 1 (the default): the weights as learned.
    pub local_scale: f32,
    /// The playouts leave the cells that are inferior by their six neighbours
    /// ([`ring_inferior`]: dead or vulnerable) until the rest of the board is full
    /// ([`PlayoutPolicy::with_inferior`]), with [`MctsConfig::playout_patterns`]' weights or
    /// uniform ones.
    pub playout_inferior: bool,
    /// The playouts draw their cells by these global twelve-cell pattern weights
    /// ([`TwelvePolicy`], [`HexPlayout::with_twelve`]) instead of the six-cell weights of
    /// [`MctsConfig::playout_patterns`] and the answers of [`MctsConfig::local_playouts`], as
    /// MoHex 2.0's playouts draw theirs; a pattern the table does not hold has strength 1.
    /// With only [`MctsConfig::playout_answers`] given, every pattern has strength 1. `None`
    /// (the default) and no answers: off. A reference for the whole process, as with
    /// [`MctsConfig::patterns`].
    pub playout_table: Option<&'static PatternWeights>,
    /// The answer weights of the twelve-cell playouts ([`TwelvePolicy`]): a cell among the
    /// twelve around the opponent's last stone is drawn as an answer by its pattern's weight
    /// here, against the global weights of the whole board. `None` (the default): no answers
    /// (and, without [`MctsConfig::playout_table`], no twelve-cell playouts).
    pub playout_answers: Option<&'static PatternWeights>,
    /// With the knowledge and the priors on, the answers to intrusions into virtual
    /// connections (MoHex's "VC maintenance"): each analysed node finds, for its moves that
    /// break every virtual connection H-search knows between two of the opponent's groups, the
    /// opponent's cells that connect the pair again ([`Solver::intrusion_answers`]); at the
    /// child, those cells' priors together get this many times the other moves' (1: half of
    /// the node's priors). Children grown before the analysis get their priors again. `None`:
    /// off.
    pub vc_answers: Option<f32>,
    /// With the knowledge on, every node the tree grows leaves out its inferior cells at once
    /// ([`Solver::inferior_cells`]: dead and captured cells, and the mover's vulnerable
    /// cells), as MoHex prunes inferior cells by pattern at every expanded node, long before the
    /// node is visited [`MctsConfig::knowledge_after`] times and analysed in full. Boards up to
    /// [`MAX_SOLVER_SIZE`].
    pub inferior_on_expand: bool,
    /// With the knowledge on, every node the tree grows leaves out its inferior cells as with
    /// [`MctsConfig::inferior_on_expand`] and its dominated cells too
    /// ([`Solver::inferior_and_dominated_cells`]), as MoHex's prunable patterns do (about a
    /// fifth of the empty cells of MoHex's 9×9 positions match a pattern it prunes as
    /// dominated). Either switch turns the pruning at new nodes on. Boards up to
    /// [`MAX_SOLVER_SIZE`].
    pub dominated_on_expand: bool,
    /// With priors on, a node's children without any statistics are tried in the order of
    /// their priors, the highest first, instead of in cell order
    /// ([`search_core::mcts::Config::fresh_by_prior`]). It matters without
    /// [`MctsConfig::rave_prior`], where every new child starts without statistics.
    pub fresh_by_prior: bool,
    /// With priors on, answer weights in MoHex 2.0's form: each empty cell among the twelve
    /// around the opponent's last stone ([`crate::patterns::within_twelve`]) gets the γ of its
    /// 12-cell pattern ([`crate::patterns::pattern`]) in this table **added** to its prior's
    /// strength; a pattern the table does not hold adds nothing ([`PatternWeights::get`]).
    /// MoHex adds such a second table, learned on the answers to the last move, to its global
    /// one, and its γ there are large (the median near 1, the 99th percentile above 1,000),
    /// so most of its prior mass goes to the answers. `None` (the default): no answer table.
    /// It adds to whatever [`MctsConfig::local_priors`] makes of the cell.
    pub answer_patterns: Option<&'static PatternWeights>,
    /// With RAVE, the exploration term goes on a move's own mean inside RAVE's mix, as in
    /// MoHex's search ([`search_core::mcts::Config::exploration_in_mean`]).
    pub exploration_in_mean: bool,
    /// With RAVE, one selection step in this many scores the children by their own means alone
    /// ([`search_core::mcts::Config::plain_every`]; MoHex: 30); 0: never.
    pub plain_every: u32,
    /// The value of a child without statistics in selection instead of being tried first
    /// ([`search_core::mcts::Config::first_play_urgency`]; MoHex: 0.35); `None`: tried first.
    pub first_play_urgency: Option<f64>,
    /// With priors on, the convolutional move policy ([`crate::net`]) gives the priors of every
    /// node the search reaches [`MctsConfig::net_after`] times, in place of the patterns'
    /// ([`search_core::mcts::Knowledge::late_priors`]): it reads the whole board, but costs
    /// about half a millisecond a call on 11×11, too much for every new node. `None` (the
    /// default): off. A reference for the whole process, as with [`MctsConfig::patterns`].
    pub net: Option<&'static PolicyNet>,
    /// The visits after which a node's priors come from [`MctsConfig::net`]
    /// ([`DEFAULT_NET_AFTER`] by default).
    pub net_after: u32,
    /// With [`MctsConfig::net`] and its move-value head ([`PolicyNet::move_values`]), the
    /// results each child's value counts for when the network judges a node: that many
    /// results of the network's win probability join the child's own
    /// ([`search_core::mcts::Config::late_value_visits`]), in the same pass of the network as
    /// the priors. `0` (the default): the values are not used.
    pub net_values: u32,
}

/// The default [`crate::gtp::Settings::knowledge`]: the solver's knowledge prunes the MCTS player's root and
/// every node visited 200 times (boards up to 11×11). In self-play on 9×9 at 0.5 s a move it
/// made the player stronger than without knowledge, and 200 did at least as well as 1,000 (see
/// [`crate::mcts`]; measured: `docs/measurements.md` in the repository).
pub const DEFAULT_KNOWLEDGE: u32 = 200;

/// The default [`crate::gtp::Settings::priors`]: the weight of the learned pattern priors in the MCTS tree
/// ([`crate::patterns`]). In self-play at 0.25 s a move, priors of weight 1 won 24 of 40 games
/// on 9×9 against the same engine without them, and of weight 3 won 73 of 120 on 9×9 and 11×11
/// (measured: `docs/measurements.md` in the repository; against MoHex they show no gain yet).
pub const DEFAULT_PRIORS: f64 = 3.0;

/// The default [`crate::gtp::Settings::local_priors`]: on. The priors of the cells near the opponent's last
/// stone are multiplied by their learned local-response strengths ([`MctsConfig::local_priors`]).
/// Against MoHex on 9×9 at 1.6 s a move (MoHex 1 s), one thread each, it won 50 of 100 games
/// where the engine without it won 43 on the same openings beside it, and 45 of another 100
/// where the engine without it won 37: 95 of 200 against 80, game by game 44 won only with it
/// and 29 only without (sign test p = 0.10; measured: `docs/benzene.md` in the repository).
/// `param_hex local_priors 0` turns it off.
pub const DEFAULT_LOCAL_PRIORS: bool = true;

/// The default [`crate::gtp::Settings::solver`]: the exact solver gets 0.3 of each MCTS move first, in
/// positions with at most [`crate::mcts::DEFAULT_SOLVER_EMPTY`] empty cells. In self-play on
/// 9×9 against the same engine without it, it won 55 of 80 games at 1 s a move and 24 of 40 at
/// 0.5 s (measured: `docs/measurements.md` in the repository). Against MoHex on 9×9 at 1.6 s a
/// move, one thread each, half of each move wherever at most 80 cells are empty (`param_hex
/// solver 0.5`, `solver_empty 80`) won 37 of 100 games where this default won 34 of the same
/// 100 beside it (game by game 15 / 12), so the default stayed (`docs/benzene.md`).
pub const DEFAULT_SOLVER: f64 = 0.3;

/// The default time per move of the MCTS and strong players.
pub const DEFAULT_TIME: Duration = Duration::from_millis(500);

impl MctsConfig {
    /// The engine `hex-gtp` ships, and the one [`crate::gtp::Settings::default`] plays: 0.5 s a
    /// move ([`DEFAULT_TIME`]), the solver's knowledge after [`DEFAULT_KNOWLEDGE`] visits, the
    /// exact solver first for [`DEFAULT_SOLVER`] of a move near the end, learned pattern priors
    /// of weight [`DEFAULT_PRIORS`] that answer the opponent's last stone
    /// ([`DEFAULT_LOCAL_PRIORS`]), seed 1, and the rest as [`MctsConfig::default`].
    ///
    /// With a number of iterations in place of the time it plays the same moves on every
    /// machine (the solver that runs first on a share of the time is then left out):
    ///
    /// ```
    /// use hex::mcts::{MctsConfig, MctsPlayer};
    /// use hex::{play_moves, HexPlayer};
    ///
    /// let config = MctsConfig { time: None, iterations: Some(300), ..MctsConfig::engine() };
    /// let (position, _) = play_moves(7, ["d4"]).unwrap();
    /// let first = MctsPlayer::new(config).choose_move(&position);
    /// assert_eq!(MctsPlayer::new(config).choose_move(&position), first);
    /// assert_eq!(MctsConfig::engine(), hex::gtp::Settings::default().mcts_config());
    /// ```
    pub fn engine() -> Self {
        MctsConfig {
            seed: 1,
            knowledge_after: Some(DEFAULT_KNOWLEDGE),
            solver_share: Some(DEFAULT_SOLVER),
            prior_weight: Some(DEFAULT_PRIORS),
            local_priors: DEFAULT_LOCAL_PRIORS,
            ..MctsConfig::time(DEFAULT_TIME)
        }
    }

    /// The default settings with `time` per move.
    pub fn time(time: Duration) -> Self {
        MctsConfig { time: Some(time), iterations: None, ..MctsConfig::default() }
    }

    /// The default settings with `iterations` playouts per move: deterministic.
    pub fn iterations(iterations: u64) -> Self {
        MctsConfig { time: None, iterations: Some(iterations), ..MctsConfig::default() }
    }
}

impl Default for MctsConfig {
    /// 10,000 playouts a move with RAVE (`k = 500`), no UCB exploration term and bridge replies
    /// (the [module docs](self) say why).
    fn default() -> Self {
        MctsConfig {
            time: None,
            iterations: Some(10_000),
            seed: 0,
            exploration: 0.0,
            rave: Some(500.0),
            rave_weight: RaveWeight::Equivalence,
            rave_prior: 0,
            expand_after: 1,
            bridge_replies: true,
            edge_bridges: false,
            verify: None,
            verify_moves: 4,
            playout_patterns: false,
            playout_weights: None,
            answer_factors: None,
            knowledge_after: None,
            solver_share: None,
            solver_empty: DEFAULT_SOLVER_EMPTY,
            prior_weight: None,
            patterns: None,
            reuse_tree: false,
            threads: 1,
            solver_beside_empty: DEFAULT_SOLVER_BESIDE_EMPTY,
            captured_regions: false,
            prove_after: None,
            prove_nodes: DEFAULT_PROVE_NODES,
            prove_empty: DEFAULT_PROVE_EMPTY,
            prove_share: DEFAULT_PROVE_SHARE,
            eval_mix: 0.0,
            eval_scale: DEFAULT_EVAL_SCALE,
            widening: None,
            fill_in: false,
            local_priors: false,
            local_playouts: false,
            local_scale: 1.0,
            playout_inferior: false,
            playout_table: None,
            playout_answers: None,
            vc_answers: None,
            inferior_on_expand: false,
            dominated_on_expand: false,
            fresh_by_prior: false,
            answer_patterns: None,
            exploration_in_mean: false,
            plain_every: 0,
            first_play_urgency: None,
            net: None,
            net_after: DEFAULT_NET_AFTER,
            net_values: 0,
        }
    }
}

/// The default [`MctsConfig::net_after`]: a node's priors come from the network once the
/// search has reached it 50 times.
pub const DEFAULT_NET_AFTER: u32 = 50;

/// The default [`MctsConfig::solver_empty`]: the solver goes in positions with at most 70
/// empty cells. Given 0.3 s on each position of 60 games of 9×9 matches against MoHex, its table
/// kept from move to move, it proved 47 % of the positions with 65 to 69 empty cells, 11 % of
/// those with 70 to 74 and 1 % of those with 75 to 79 (`cargo xtask hex-reach`;
/// `docs/benzene.md` in the repository).
pub const DEFAULT_SOLVER_EMPTY: u32 = 70;

/// The default [`MctsConfig::prove_nodes`].
pub const DEFAULT_PROVE_NODES: u64 = 30;

/// The default [`MctsConfig::prove_empty`].
pub const DEFAULT_PROVE_EMPTY: u32 = 100;

/// The default [`MctsConfig::eval_scale`]: one step of potential is worth about 0.12 of
/// Black's chance near even.
pub const DEFAULT_EVAL_SCALE: f64 = 0.5;

/// The default [`MctsConfig::prove_share`].
pub const DEFAULT_PROVE_SHARE: f64 = 0.3;

/// The default [`MctsConfig::solver_beside_empty`]: with two threads, one solves beside the
/// search wherever at most 80 cells are empty (on 9×9 from the second stone, on 11×11 from
/// the 41st). The solver's table is kept from move to move, so its work near the border adds
/// up over the moves. Session 74 tried 70 (both threads searching the 9×9 opening, where the
/// solver proves nothing): against MoHex with two threads each it won 32 of 60 games where 80
/// won 33 of the same 60, so the default stayed (`docs/benzene.md` in the repository).
pub const DEFAULT_SOLVER_BESIDE_EMPTY: u32 = 80;

/// The table of the solver of [`MctsConfig::solver_share`]: 2^20 entries, kept from move to
/// move.
pub const SOLVER_TABLE_BITS: u32 = 20;

/// Why an [`MctsPlayer`] chose its last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MctsReason {
    /// The move wins at once.
    Win,
    /// The move stops the opponent's win in one.
    Block,
    /// The search chose it.
    Search,
    /// The exact solver proved that it wins.
    Solved,
}

/// The solver's knowledge as MCTS pruning (see [`MctsConfig::knowledge_after`]).
#[derive(Debug)]
pub struct SolverKnowledge {
    solver: Solver,
    /// Positions analysed.
    pub calls: u64,
    /// Their total time.
    pub time: Duration,
    /// Whether the search goes on below an analysed node from its position with the dead and
    /// captured cells filled in ([`Knowledge::equivalent`]).
    fill_in: bool,
    /// The last position analysed and, if the analysis filled cells in, its filled position.
    last_fill: Option<(Position, Position)>,
    /// Whether an analysis also finds the answers to intrusions ([`MctsConfig::vc_answers`]).
    answers_on: bool,
    /// The answers found in this search: a position right after the mover intruded into the
    /// opponent's virtual connection (one move of an analysed node), and the opponent's cells
    /// that connect the pair again.
    answers: HashMap<Position, Vec<Cell>>,
    /// What the last analysis added to `answers`.
    last_answers: Vec<(Position, Vec<Cell>)>,
    /// The solver of the proof attempts ([`SolverKnowledge::with_proofs`]), built when first
    /// needed; its table is kept from attempt to attempt.
    prover: Option<Solver>,
    /// The solver's nodes per attempt and the most empty cells of a position tried; `None`:
    /// no attempts.
    proofs: Option<(u64, u32)>,
    /// What the attempts may still spend in the current search (`None`: no limit).
    proof_budget: Option<Duration>,
    /// Proof attempts made.
    pub proof_calls: u64,
    /// Proof attempts that proved their position.
    pub proofs_found: u64,
    /// Their total time.
    pub proof_time: Duration,
}

impl SolverKnowledge {
    /// Knowledge from a solver with a small table (the analysis does not search).
    pub fn new() -> Self {
        SolverKnowledge {
            // Captured regions are off unless asked for (`with_captured_regions`): they prove
            // more positions at about the same cost per analysis, but in play against MoHex on
            // 11x11 they won no more games than the default (docs/benzene.md, session 60).
            solver: Solver::new(SolverConfig {
                table_bits: 1,
                captured_regions: false,
                ..SolverConfig::default()
            }),
            calls: 0,
            time: Duration::ZERO,
            fill_in: false,
            last_fill: None,
            answers_on: false,
            answers: HashMap::new(),
            last_answers: Vec::new(),
            prover: None,
            proofs: None,
            proof_budget: None,
            proof_calls: 0,
            proofs_found: 0,
            proof_time: Duration::ZERO,
        }
    }

    /// The same knowledge, which proves positions with at most `max_empty` empty cells by a
    /// search of the exact solver of at most `nodes` nodes when the tree search asks
    /// ([`Knowledge::prove`]; [`MctsConfig::prove_after`]). The solver's table (2^18 entries)
    /// is kept from attempt to attempt, so the attempts below one node share their work.
    ///
    /// ```
    /// use hex::mcts::SolverKnowledge;
    /// use hex::{Color, HexGame, play_moves};
    /// use search_core::mcts::Knowledge;
    ///
    /// // 6×6, Black to move, who wins with perfect play.
    /// let (position, _) = play_moves(6, ["c3", "d4"]).unwrap();
    /// let game = HexGame::new(6);
    /// let mut knowledge = SolverKnowledge::new().with_proofs(200_000, 36);
    /// assert_eq!(knowledge.prove(&game, &position), Some(Color::Black.index()));
    /// assert_eq!((knowledge.proof_calls, knowledge.proofs_found), (1, 1));
    /// // Beyond the empty cells allowed, nothing is tried.
    /// let mut narrow = SolverKnowledge::new().with_proofs(200_000, 30);
    /// assert_eq!(narrow.prove(&game, &position), None);
    /// assert_eq!(narrow.proof_calls, 0);
    /// ```
    pub fn with_proofs(self, nodes: u64, max_empty: u32) -> Self {
        SolverKnowledge { proofs: Some((nodes, max_empty)), prover: None, ..self }
    }

    /// Limits what the proof attempts may spend from now on (`None`: no limit): once spent,
    /// the attempts prove nothing until the next call.
    pub fn set_proof_budget(&mut self, budget: Option<Duration>) {
        self.proof_budget = budget;
    }

    /// The same knowledge, whose analyses with `on` also fill in captured regions of three to
    /// five empty cells ([`SolverConfig::captured_regions`]; [`MctsConfig::captured_regions`]).
    ///
    /// ```
    /// use hex::mcts::SolverKnowledge;
    /// use hex::play_moves;
    /// use search_core::mcts::{Insight, Knowledge};
    ///
    /// // 11×11, White to move: lost, but only a captured region shows it without a search.
    /// let moves = "g7 j2 g5 g4 e5 f6 d7 d8 e7 f2 f3 g2 e3 e2 d3 d2 b3 c3 a5 b4 a4 i1 b6 d6 c6 c7 e6 e8 h7";
    /// let (position, _) = play_moves(11, moves.split_whitespace()).unwrap();
    /// let game = hex::HexGame::new(11);
    /// let black = hex::Color::Black.index();
    /// let mut plain = SolverKnowledge::new();
    /// assert!(!matches!(plain.analyse(&game, &position, &[]), Insight::Solved { .. }));
    /// let mut regions = SolverKnowledge::new().with_captured_regions(true);
    /// assert!(matches!(regions.analyse(&game, &position, &[]), Insight::Solved { winner, .. } if winner == black));
    /// ```
    pub fn with_captured_regions(self, on: bool) -> Self {
        let config = SolverConfig { captured_regions: on, ..*self.solver.config() };
        SolverKnowledge { solver: Solver::new(config), ..self }
    }

    /// The same knowledge, which with `fill_in` has the search go on below an analysed node
    /// from its position with the dead and captured cells filled in ([`Knowledge::equivalent`];
    /// [`MctsConfig::fill_in`]).
    pub fn with_fill_in(self, fill_in: bool) -> Self {
        SolverKnowledge { fill_in, ..self }
    }

    /// The same knowledge, which with `answers` also finds, at each analysed node, where the
    /// opponent answers the node's moves that intrude into its virtual connections
    /// ([`MctsConfig::vc_answers`]; [`Solver::intrusion_answers`]).
    pub fn with_answers(self, answers: bool) -> Self {
        SolverKnowledge { answers_on: answers, ..self }
    }

    /// The opponent's answers in `position`, right after an intrusion into one of its virtual
    /// connections, if an analysis of this search found them.
    pub fn answers(&self, position: &Position) -> Option<&[Cell]> {
        self.answers.get(position).map(Vec::as_slice)
    }

    /// Finds the answers to the intrusions among `kept`, the moves of the analysed `state`.
    fn find_answers(&mut self, state: &Position, kept: &[Cell]) {
        let Ok(found) = self.solver.intrusion_answers(state, state.to_move().opponent()) else { return };
        // With the fill-in on, the node's children grow from its filled position.
        let filled = self.last_fill.map(|(_, filled)| filled);
        for (probe, answers) in found {
            if !kept.contains(&probe) {
                continue;
            }
            for base in std::iter::once(*state).chain(filled) {
                if let Ok(child) = base.play(HexMove::Place(probe)) {
                    self.last_answers.push((child, answers.clone()));
                }
            }
        }
        self.answers.extend(self.last_answers.iter().cloned());
    }
}

/// `position` with the stones of `filled` added, the same side to move.
fn with_stones(position: &Position, filled: &[(Cell, Color)]) -> Position {
    let mut board = *position.board();
    for &(cell, colour) in filled {
        board.set(cell, Some(colour));
    }
    Position::from_board(board, position.to_move())
}

impl Default for SolverKnowledge {
    fn default() -> Self {
        SolverKnowledge::new()
    }
}

impl Knowledge<HexGame> for SolverKnowledge {
    fn analyse(&mut self, _: &HexGame, state: &Position, _: &[HexMove]) -> Insight<HexMove> {
        self.last_fill = None;
        self.last_answers.clear();
        let started = Instant::now();
        let analysis = self.solver.analyse(state);
        if let Ok(Analysis::Open { moves, filled }) = &analysis {
            if self.fill_in && !filled.is_empty() {
                self.last_fill = Some((*state, with_stones(state, filled)));
            }
            if self.answers_on {
                self.find_answers(state, moves);
            }
        }
        self.calls += 1;
        self.time += started.elapsed();
        let moves = |cells: Vec<Cell>| cells.into_iter().map(HexMove::Place).collect();
        let me = state.to_move();
        match analysis {
            Ok(Analysis::Win { winning_move }) => {
                Insight::Solved { winner: me.index(), moves: moves(winning_move.into_iter().collect()) }
            }
            Ok(Analysis::Loss { carrier }) => {
                Insight::Solved { winner: me.opponent().index(), moves: moves(carrier) }
            }
            Ok(Analysis::Open { moves: cells, .. }) => Insight::Moves(moves(cells)),
            // Too large for the solver: a chain of bridges still proves a win on any board.
            Err(SolveError::TooLarge(_)) => bridge_insight(state),
            // The swap still available: nothing known.
            Err(_) => Insight::Nothing,
        }
    }

    fn equivalent(&mut self, _: &HexGame, state: &Position, _: &[HexMove]) -> Option<Position> {
        self.last_fill.take().filter(|(analysed, _)| analysed == state).map(|(_, filled)| filled)
    }

    fn prove(&mut self, _: &HexGame, state: &Position) -> Option<Player> {
        let (nodes, max_empty) = self.proofs?;
        let empty = u32::from(state.size()).pow(2) - state.board().stones_on_board();
        if state.size() > MAX_SOLVER_SIZE
            || state.can_swap()
            || empty > max_empty
            || self.proof_budget.is_some_and(|left| left.is_zero())
        {
            return None;
        }
        let captured_regions = self.solver.config().captured_regions;
        let prover = self.prover.get_or_insert_with(|| {
            Solver::new(SolverConfig {
                table_bits: PROVER_TABLE_BITS,
                max_nodes: Some(nodes.max(1)),
                captured_regions,
                ..SolverConfig::default()
            })
        });
        let started = Instant::now();
        let verdict = prover.solve(state).ok().map(|solution| solution.verdict);
        let spent = started.elapsed();
        self.proof_calls += 1;
        self.proof_time += spent;
        if let Some(left) = &mut self.proof_budget {
            *left = left.saturating_sub(spent);
        }
        let winner = verdict?.winner()?;
        self.proofs_found += 1;
        Some(winner.index())
    }
}

/// The table of the solver of [`SolverKnowledge::with_proofs`]: 2^18 entries.
const PROVER_TABLE_BITS: u32 = 18;

/// The analyses the threads of one search share ([`MctsConfig::threads`]): the threads' trees
/// reach the same nodes near the root, and an analysis is a function of the position alone, so
/// a position one thread has analysed is not analysed again by another (with the position
/// filled in, if [`MctsConfig::fill_in`] gave it one, and the answers to intrusions it found).
type SharedInsights = Mutex<HashMap<Position, SharedInsight>>;

/// One analysis in [`SharedInsights`]: what it says, the filled position, the answers.
type SharedInsight = (Insight<HexMove>, Option<Position>, Vec<(Position, Vec<Cell>)>);

/// What the player's tree search knows: the solver's analysis if it is on (shared with the
/// other threads' through `shared`, if any), and the pattern priors if they are.
struct TreeKnowledge<'a> {
    solver: Option<&'a mut SolverKnowledge>,
    shared: Option<&'a SharedInsights>,
    patterns: Option<&'static PatternWeights>,
    /// The local-response weights multiplying the patterns' near the last stone, if on.
    local: Option<&'static PatternWeights>,
    /// [`MctsConfig::answer_patterns`]: the γ added near the last stone, if on.
    answer_patterns: Option<&'static PatternWeights>,
    /// The root position and the opponent's last stone there, if the player knows it (the
    /// search does not: its root has no move).
    root_last: Option<(Position, Cell)>,
    /// [`MctsConfig::vc_answers`]: the answers' share of a node's priors against the rest.
    answers: Option<f32>,
    /// [`MctsConfig::inferior_on_expand`].
    inferior: bool,
    /// [`MctsConfig::dominated_on_expand`].
    dominated: bool,
    /// [`MctsConfig::net`], with the move values of the node it judged last.
    net: Option<NetJudge>,
}

/// The network of [`MctsConfig::net`] and what it said of the last node it judged: the search
/// asks a node's late values right after its late priors, and one pass of the network gives
/// both.
struct NetJudge {
    net: &'static PolicyNet,
    /// The judged position's hash and each board cell's value (by [`Cell::id`]).
    values: Option<(u64, Vec<f32>)>,
}

impl From<&'static PolicyNet> for NetJudge {
    fn from(net: &'static PolicyNet) -> NetJudge {
        NetJudge { net, values: None }
    }
}

impl TreeKnowledge<'_> {
    /// The opponent's last stone at `state`, reached by `last`: the node's move, or at the
    /// root (which has none) the stone the player knows was played last.
    fn last_stone(&self, state: &Position, last: Option<&HexMove>) -> Option<Cell> {
        match (last, self.root_last) {
            (Some(&HexMove::Place(last)), _) => Some(last),
            (None, Some((root, last))) if root == *state => Some(last),
            _ => None,
        }
    }
}

impl Knowledge<HexGame> for TreeKnowledge<'_> {
    fn analyse(&mut self, game: &HexGame, state: &Position, moves: &[HexMove]) -> Insight<HexMove> {
        let Some(solver) = &mut self.solver else { return Insight::Nothing };
        let Some(shared) = self.shared else { return solver.analyse(game, state, moves) };
        // A poisoned lock only means another thread panicked; the map is still whole.
        let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((known, fill, answers)) = lock().get(state) {
            solver.last_fill = fill.map(|filled| (*state, filled));
            solver.answers.extend(answers.iter().cloned());
            return known.clone();
        }
        let insight = solver.analyse(game, state, moves);
        let fill = solver.last_fill.map(|(_, filled)| filled);
        lock().insert(*state, (insight.clone(), fill, solver.last_answers.clone()));
        insight
    }

    fn equivalent(&mut self, game: &HexGame, state: &Position, kept: &[HexMove]) -> Option<Position> {
        self.solver.as_mut()?.equivalent(game, state, kept)
    }

    fn prove(&mut self, game: &HexGame, state: &Position) -> Option<Player> {
        self.solver.as_mut()?.prove(game, state)
    }

    fn priors(
        &mut self,
        _: &HexGame,
        state: &Position,
        last: Option<&HexMove>,
        moves: &[HexMove],
        priors: &mut [f32],
    ) -> bool {
        let Some(weights) = self.patterns else { return false };
        let grid = PatternGrid::new(state);
        let last = self.last_stone(state, last);
        let local = self.local.zip(last);
        let answers = self.answer_patterns.zip(last);
        for (prior, mv) in priors.iter_mut().zip(moves) {
            *prior = match *mv {
                HexMove::Place(cell) => {
                    // Each table reads the cell's pattern in its own code.
                    let code = grid.code_as(weights.code(), cell);
                    let near =
                        local.and_then(|(local, last)| Some(local.gamma(grid.local_code(cell, last)?)));
                    let added =
                        answers.filter(|&(_, last)| within_twelve(cell, last)).and_then(|(table, _)| {
                            let own = if table.code() == weights.code() {
                                code
                            } else {
                                grid.code_as(table.code(), cell)
                            };
                            table.get(own)
                        });
                    weights.gamma(code) * near.unwrap_or(1.0) + added.unwrap_or(0.0)
                }
                HexMove::Swap => 1.0,
            };
        }
        let known =
            self.answers.zip(self.solver.as_ref()).and_then(|(w, solver)| Some((w, solver.answers(state)?)));
        if let Some((weight, cells)) = known {
            let answer = |mv: &HexMove| matches!(mv, HexMove::Place(cell) if cells.contains(cell));
            let count = moves.iter().filter(|mv| answer(mv)).count();
            if count > 0 {
                let bonus = weight * priors.iter().sum::<f32>() / count as f32;
                for (prior, mv) in priors.iter_mut().zip(moves) {
                    if answer(mv) {
                        *prior += bonus;
                    }
                }
            }
        }
        true
    }

    fn late_priors(
        &mut self,
        _: &HexGame,
        state: &Position,
        last: Option<&HexMove>,
        moves: &[HexMove],
        priors: &mut [f32],
    ) -> bool {
        let last = self.last_stone(state, last);
        let Some(judge) = &mut self.net else { return false };
        let size = state.size();
        let mut shares = vec![0.0; usize::from(size) * usize::from(size)];
        let mut values = vec![0.5; shares.len()];
        for (cell, share, value) in judge.net.evaluate(state, last) {
            shares[cell.id(size)] = share;
            values[cell.id(size)] = value;
        }
        judge.values = judge.net.has_values().then(|| (state.hash(), values));
        for (prior, mv) in priors.iter_mut().zip(moves) {
            *prior = match *mv {
                HexMove::Place(cell) => shares[cell.id(size)],
                HexMove::Swap => 1.0 / moves.len() as f32,
            };
        }
        true
    }

    fn late_values(
        &mut self,
        _: &HexGame,
        state: &Position,
        _: Option<&HexMove>,
        moves: &[HexMove],
        values: &mut [f32],
    ) -> bool {
        // The values of the pass that gave this node's late priors, asked just before.
        let Some((hash, judged)) = self.net.as_mut().and_then(|judge| judge.values.take()) else {
            return false;
        };
        if hash != state.hash() || moves.contains(&HexMove::Swap) {
            return false;
        }
        let size = state.size();
        for (value, mv) in values.iter_mut().zip(moves) {
            if let HexMove::Place(cell) = *mv {
                *value = judged[cell.id(size)];
            }
        }
        true
    }

    fn analysis_changes_priors(&self) -> bool {
        self.answers.is_some() && self.solver.is_some() && self.patterns.is_some()
    }

    fn inferior(&mut self, _: &HexGame, state: &Position, moves: &[HexMove], inferior: &mut [bool]) -> bool {
        let Some(knowledge) = self.solver.as_mut().filter(|_| self.inferior || self.dominated) else {
            return false;
        };
        let cells = if self.dominated {
            knowledge.solver.inferior_and_dominated_cells(state)
        } else {
            knowledge.solver.inferior_cells(state)
        };
        let Ok(cells) = cells else { return false };
        if cells.is_empty() {
            return false;
        }
        for (drop, mv) in inferior.iter_mut().zip(moves) {
            *drop = matches!(mv, HexMove::Place(cell) if cells.binary_search(cell).is_ok());
        }
        true
    }
}

/// What [`proved_win`] proves on boards too large for the solver: a win for the side to move
/// (a connecting move, or a chain of bridges whatever it plays), or a loss, whose longest
/// resistance is inside the opponent's carriers.
fn bridge_insight(state: &Position) -> Insight<HexMove> {
    let me = state.to_move();
    match proved_win(state, me) {
        Some(ProvedWin::ConnectingMove(cell)) => {
            return Insight::Solved { winner: me.index(), moves: vec![HexMove::Place(cell)] };
        }
        Some(_) => return Insight::Solved { winner: me.index(), moves: Vec::new() },
        None => {}
    }
    match proved_win(state, me.opponent()) {
        Some(ProvedWin::BridgeChain(carriers)) => Insight::Solved {
            winner: me.opponent().index(),
            moves: carriers.into_iter().flatten().map(HexMove::Place).collect(),
        },
        _ => Insight::Nothing,
    }
}

/// The moves that lead from `from` to `to` when `to` is `from` after one move of the player to
/// move there and one reply (or `from` itself), in playing order; `None` otherwise.
fn moves_between(from: &Position, to: &Position) -> Option<Vec<HexMove>> {
    if from.size() != to.size() || from.to_move() != to.to_move() {
        return None;
    }
    let (before, after) = (from.board(), to.board());
    let mut added: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
    for cell in after.cells() {
        match (before.get(cell), after.get(cell)) {
            (None, Some(colour)) => added[usize::from(colour.index())].push(cell),
            (old, new) if old != new => return None,
            _ => {}
        }
    }
    let [mine, theirs] =
        if from.to_move() == Color::Black { [&added[0], &added[1]] } else { [&added[1], &added[0]] };
    match (mine.as_slice(), theirs.as_slice()) {
        ([], []) => Some(Vec::new()),
        ([mine], [theirs]) => Some(vec![HexMove::Place(*mine), HexMove::Place(*theirs)]),
        _ => None,
    }
}

/// The MCTS player (see the [module docs](self)).
#[derive(Debug)]
pub struct MctsPlayer {
    config: MctsConfig,
    playout: HexPlayout,
    knowledge: SolverKnowledge,
    /// The solver of [`MctsConfig::solver_share`], built when first needed.
    solver: Option<Solver>,
    /// The time the solver took on the current move.
    solver_time: Duration,
    /// The moves [`MctsConfig::verify`] proved losing in the last decision.
    rejected: Vec<HexMove>,
    reason: Option<MctsReason>,
    last: Option<mcts::MctsResult<HexMove>>,
    /// The last search's tree and the position at its root ([`MctsConfig::reuse_tree`]).
    tree: SearchTree<HexMove>,
    tree_root: Option<Position>,
    /// The position of the last decision, to find the opponent's last stone in the next
    /// ([`MctsConfig::local_priors`] at the root).
    searched: Option<Position>,
    /// The opponent's last stone in the position being decided, if known.
    root_last: Option<Cell>,
    /// The other threads' playouts, knowledge and trees ([`MctsConfig::threads`]).
    helpers: Vec<Helper>,
    /// The analyses of the current search, shared by its threads (two or more only).
    insights: SharedInsights,
}

/// What a search thread other than the first keeps from move to move.
#[derive(Debug)]
struct Helper {
    playout: HexPlayout,
    knowledge: SolverKnowledge,
    tree: SearchTree<HexMove>,
}

impl MctsPlayer {
    /// A player with these settings.
    pub fn new(config: MctsConfig) -> Self {
        let twelve = (config.playout_table.is_some() || config.playout_answers.is_some()).then(|| {
            let flat = PatternWeights::default();
            Arc::new(TwelvePolicy::new(config.playout_table.unwrap_or(&flat), config.playout_answers))
        });
        // The weighted playouts' policy, built once for every thread.
        let weights =
            config.playout_weights.or(config.playout_patterns.then(PatternWeights::shipped_playout));
        let policy = match (weights, config.playout_inferior) {
            (None, false) => None,
            (None, true) => Some(Arc::new(PlayoutPolicy::flat().with_inferior())),
            (Some(weights), inferior)
                if std::ptr::eq(weights, PatternWeights::shipped_playout()) && !inferior =>
            {
                Some(PlayoutPolicy::shipped().clone())
            }
            (Some(weights), false) => Some(Arc::new(PlayoutPolicy::new(weights))),
            (Some(weights), true) => Some(Arc::new(PlayoutPolicy::new(weights).with_inferior())),
        };
        let answers = config.answer_factors.map(|factors| Arc::new(AnswerFactors::new(factors)));
        let playout = || {
            let mut playout = HexPlayout::new(config.bridge_replies)
                .with_edge_bridges(config.edge_bridges)
                .with_eval_mix(config.eval_mix, config.eval_scale);
            if let Some(policy) = &policy {
                playout = playout.with_policy(policy.clone());
            }
            if let Some(twelve) = &twelve {
                return playout.with_twelve(twelve.clone());
            }
            if let Some(answers) = &answers {
                return playout.with_answers(answers.clone());
            }
            if config.local_playouts {
                // The shipped table is built once; a scaled one per player.
                let scaled = config.local_scale != 1.0;
                playout = playout.with_local(if scaled {
                    Arc::new(LocalPolicy::scaled(PatternWeights::shipped_local_playout(), config.local_scale))
                } else {
                    LocalPolicy::shipped().clone()
                });
            }
            playout
        };
        let knowledge = || {
            let knowledge = SolverKnowledge::new()
                .with_captured_regions(config.captured_regions)
                .with_fill_in(config.fill_in)
                .with_answers(config.vc_answers.is_some());
            match config.prove_after {
                Some(_) => knowledge.with_proofs(config.prove_nodes, config.prove_empty),
                None => knowledge,
            }
        };
        MctsPlayer {
            config,
            playout: playout(),
            helpers: (1..config.threads)
                .map(|_| Helper { playout: playout(), knowledge: knowledge(), tree: SearchTree::new() })
                .collect(),
            knowledge: knowledge(),
            insights: Mutex::new(HashMap::new()),
            solver: None,
            solver_time: Duration::ZERO,
            rejected: Vec::new(),
            reason: None,
            last: None,
            tree: SearchTree::new(),
            tree_root: None,
            searched: None,
            root_last: None,
        }
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The solver knowledge and what it has cost so far.
    pub fn knowledge(&self) -> &SolverKnowledge {
        &self.knowledge
    }

    /// Why the last move was chosen.
    pub fn last_reason(&self) -> Option<MctsReason> {
        self.reason
    }

    /// The last search, if the last move came from one.
    pub fn last_result(&self) -> Option<&mcts::MctsResult<HexMove>> {
        self.last.as_ref()
    }

    /// The move and the rule that gave it.
    ///
    /// # Panics
    /// If the game is over.
    pub fn decide(&mut self, position: &Position) -> (HexMove, MctsReason) {
        assert!(position.winner().is_none(), "choose() needs a position where the game is not over");
        self.last = None;
        self.rejected.clear();
        // The opponent's last stone: the reply to our last move, or the only stone on the board.
        let before = self.searched.replace(*position);
        let board = position.board();
        self.root_last = match before.and_then(|before| moves_between(&before, position)).as_deref() {
            Some(&[_, HexMove::Place(cell)]) => Some(cell),
            _ if board.stones_on_board() == 1 => board.cells().find(|&cell| board.get(cell).is_some()),
            _ => None,
        };
        let (mv, reason) = match critical_cell(position) {
            Some(Critical::Win(cell)) => (HexMove::Place(cell), MctsReason::Win),
            Some(Critical::Block(cell)) => (HexMove::Place(cell), MctsReason::Block),
            None if self.solves_beside(position) => self.search_beside_solver(position),
            None => match self.solve(position) {
                Some(cell) => (HexMove::Place(cell), MctsReason::Solved),
                None => match self.verify_time(position) {
                    Some(reserve) => {
                        self.solver_time += reserve;
                        let mv = self.search(position, self.config.threads, None);
                        self.verify_moves(position, mv, reserve)
                    }
                    None => (self.search(position, self.config.threads, None), MctsReason::Search),
                },
            },
        };
        self.reason = Some(reason);
        (mv, reason)
    }

    /// The moves [`MctsConfig::verify`] proved losing in the last decision, the most visited
    /// first; empty without the check or when the search's choice was not proved losing.
    pub fn last_rejected(&self) -> &[HexMove] {
        &self.rejected
    }

    /// The time [`MctsConfig::verify`] keeps from the search in this position, if it checks here.
    fn verify_time(&self, position: &Position) -> Option<Duration> {
        let share = self.config.verify?.clamp(0.0, 1.0);
        let time = self.config.time?;
        (share > 0.0
            && self.config.verify_moves > 0
            && position.size() <= MAX_SOLVER_SIZE
            && !position.can_swap())
        .then(|| time.mul_f64(share))
    }

    /// The search's most visited moves checked by the solver within `reserve`, the most visited
    /// first: the first not proved losing (or `chosen` if none of those checked is). A move
    /// the root already knows to lose is passed over without a solve.
    fn verify_moves(
        &mut self,
        position: &Position,
        chosen: HexMove,
        reserve: Duration,
    ) -> (HexMove, MctsReason) {
        let me = position.to_move();
        let mut candidates: Vec<(HexMove, u32, Option<Player>)> = match &self.last {
            Some(found) => found.moves.iter().map(|m| (m.mv, m.visits, m.winner)).collect(),
            None => return (chosen, MctsReason::Search),
        };
        // The chosen move first, then by visits (a stable sort keeps the search's order in ties).
        candidates.sort_by_key(|&(mv, visits, _)| (mv != chosen, std::cmp::Reverse(visits)));
        candidates.truncate(self.config.verify_moves as usize);
        let deadline = Instant::now() + reserve;
        for &(mv, _, proved) in &candidates {
            match proved {
                Some(winner) if winner == me.index() => return (mv, MctsReason::Solved),
                Some(_) => {
                    self.rejected.push(mv);
                    continue;
                }
                None => {}
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return (mv, MctsReason::Search);
            }
            let Ok(next) = position.play(mv) else { continue };
            let solver = self.solver.get_or_insert_with(|| new_solver(self.config.captured_regions));
            // Each check may take all that is left: the time kept is the search's loss either
            // way, and a move passed over quickly leaves the rest to the next.
            solver.set_time_limit(Some(left));
            match solver.solve(&next).ok().map(|solution| solution.verdict) {
                Some(Verdict::Win { winner, .. }) if winner == me => return (mv, MctsReason::Solved),
                Some(Verdict::Win { .. }) => self.rejected.push(mv),
                _ => return (mv, MctsReason::Search),
            }
        }
        (chosen, MctsReason::Search)
    }

    /// A winning move the solver proves within its share of the move's time, if any.
    fn solve(&mut self, position: &Position) -> Option<Cell> {
        let share = self.config.solver_share?.clamp(0.0, 1.0);
        let time = self.config.time?;
        let empty = u32::from(position.size()).pow(2) - position.board().stones_on_board();
        if position.size() > MAX_SOLVER_SIZE
            || position.can_swap()
            || share == 0.0
            || empty > self.config.solver_empty
        {
            return None;
        }
        let started = Instant::now();
        let solver = self.solver.get_or_insert_with(|| new_solver(self.config.captured_regions));
        solver.set_time_limit(Some(time.mul_f64(share)));
        let solution = solver.solve(position).ok()?;
        self.solver_time = started.elapsed();
        match solution.verdict {
            Verdict::Win { winner, winning_move } if winner == position.to_move() => winning_move,
            _ => None,
        }
    }

    /// Whether, in `position`, one thread runs the exact solver for the whole move beside the
    /// search on the others ([`MctsConfig::solver_beside_empty`]): with two threads or more, a
    /// time limit, the solver on, a board the solver takes and at most that many empty cells.
    ///
    /// ```
    /// use hex::mcts::{MctsConfig, MctsPlayer};
    /// use hex::play_moves;
    ///
    /// let config = MctsConfig { threads: 2, ..MctsConfig::engine() };
    /// let player = MctsPlayer::new(config);
    /// // 11x11 after one stone: 120 empty cells, both threads search.
    /// let (opening, _) = play_moves(11, ["f6"]).unwrap();
    /// assert!(!player.solves_beside(&opening));
    /// // 9x9 after one stone (80 empty): the second thread solves for the whole move.
    /// let (nine, _) = play_moves(9, ["e5"]).unwrap();
    /// assert!(player.solves_beside(&nine));
    /// // One thread never does: it gives the solver a share of its move first instead.
    /// let single = MctsPlayer::new(MctsConfig { threads: 1, ..config });
    /// assert!(!single.solves_beside(&nine));
    /// ```
    pub fn solves_beside(&self, position: &Position) -> bool {
        let empty = u32::from(position.size()).pow(2) - position.board().stones_on_board();
        self.config.threads >= 2
            && self.config.time.is_some()
            && self.config.solver_share.is_some_and(|share| share > 0.0)
            && position.size() <= MAX_SOLVER_SIZE
            && !position.can_swap()
            && empty <= self.config.solver_beside_empty
    }

    /// The exact solver on one thread for the whole move, the search on the others; the
    /// solver's proved win if it finds one (which also ends the search), else the search's move.
    fn search_beside_solver(&mut self, position: &Position) -> (HexMove, MctsReason) {
        let mut solver = self.solver.take().unwrap_or_else(|| new_solver(self.config.captured_regions));
        solver.set_time_limit(self.config.time);
        let solved = AtomicBool::new(false);
        let (solver, win, mv) = std::thread::scope(|scope| {
            let solved = &solved;
            let handle = scope.spawn(move || {
                let win = solver.solve(position).ok().and_then(|solution| match solution.verdict {
                    Verdict::Win { winner, winning_move } if winner == position.to_move() => winning_move,
                    _ => None,
                });
                if win.is_some() {
                    solved.store(true, Ordering::Relaxed);
                }
                (solver, win)
            });
            let mv = self.search(position, self.config.threads - 1, Some(solved));
            let (solver, win) = handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (solver, win, mv)
        });
        self.solver = Some(solver);
        match win {
            Some(cell) => (HexMove::Place(cell), MctsReason::Solved),
            None => (mv, MctsReason::Search),
        }
    }

    /// The search on `threads` threads; it stops early once `solved` is set.
    fn search(&mut self, position: &Position, threads: usize, solved: Option<&AtomicBool>) -> HexMove {
        // What the solver used of the move's time is the search's no more.
        let time = self.config.time.map(|t| t.saturating_sub(std::mem::take(&mut self.solver_time)));
        let config = mcts::Config {
            exploration: self.config.exploration,
            iterations: self.config.iterations,
            time,
            rave: self.config.rave,
            rave_weight: self.config.rave_weight,
            rave_prior: self.config.rave_prior,
            expand_after: self.config.expand_after,
            // The same seed gives different playouts in different positions.
            seed: self.config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ position.hash(),
            knowledge_after: self.config.knowledge_after,
            prior_weight: self.config.prior_weight.unwrap_or(0.0),
            fresh_by_prior: self.config.fresh_by_prior,
            exploration_in_mean: self.config.exploration_in_mean,
            plain_every: self.config.plain_every,
            first_play_urgency: self.config.first_play_urgency,
            prove_after: self.config.prove_after.filter(|_| self.config.knowledge_after.is_some()),
            late_priors_after: self.config.net.map(|_| self.config.net_after),
            late_value_visits: self.config.net.map_or(0, |_| self.config.net_values),
            widening: self.config.widening,
        };
        let proof_budget = time.map(|t| t.mul_f64(self.config.prove_share.clamp(0.0, 1.0)));
        self.knowledge.set_proof_budget(proof_budget);
        for helper in &mut self.helpers {
            helper.knowledge.set_proof_budget(proof_budget);
        }
        let game = HexGame::new(position.size());
        let clock = UntilSolved { clock: WallClock::start(), solved };
        let path = self.tree_root.take().and_then(|root| moves_between(&root, position));
        let root_last = self.root_last.map(|cell| (*position, cell));
        let trees = std::iter::once(&mut self.tree).chain(self.helpers.iter_mut().map(|h| &mut h.tree));
        for tree in trees {
            match &path {
                Some(path) if self.config.reuse_tree => {
                    tree.advance(path);
                }
                _ => tree.clear(),
            }
        }
        let with_solver = self.config.knowledge_after.is_some();
        let patterns =
            self.config.prior_weight.map(|_| self.config.patterns.unwrap_or_else(PatternWeights::shipped));
        let local = (self.config.local_priors && patterns.is_some()).then(PatternWeights::shipped_local);
        let insights = self.insights.get_mut().unwrap_or_else(PoisonError::into_inner);
        insights.clear();
        // The answers hold for their positions whatever the search, but the map would only grow.
        self.knowledge.answers.clear();
        for helper in &mut self.helpers {
            helper.knowledge.answers.clear();
        }
        let shared = (threads > 1).then_some(&self.insights);
        let mut parts: Vec<(&mut SearchTree<HexMove>, &mut HexPlayout, TreeKnowledge<'_>)> =
            std::iter::once((&mut self.tree, &mut self.playout, &mut self.knowledge))
                .chain(self.helpers.iter_mut().map(|h| (&mut h.tree, &mut h.playout, &mut h.knowledge)))
                .take(threads.max(1))
                .map(|(tree, playout, solver)| {
                    (
                        tree,
                        playout,
                        TreeKnowledge {
                            solver: with_solver.then_some(solver),
                            shared,
                            patterns,
                            local,
                            answer_patterns: self.config.answer_patterns.filter(|_| patterns.is_some()),
                            root_last,
                            answers: self.config.vc_answers,
                            inferior: self.config.inferior_on_expand,
                            dominated: self.config.dominated_on_expand,
                            net: self.config.net.map(NetJudge::from),
                        },
                    )
                })
                .collect();
        let mut workers: Vec<Worker<'_, HexMove, HexPlayout, TreeKnowledge<'_>>> = parts
            .iter_mut()
            .map(|(tree, playout, knowledge)| Worker {
                tree: &mut **tree,
                playout: &mut **playout,
                knowledge,
            })
            .collect();
        let mut found = mcts::search_root_parallel(&game, position, &mut workers, &config, &clock);
        // The clock reads as run out once the solver has won; the result keeps the real time.
        found.elapsed = clock.clock.elapsed();
        if self.config.reuse_tree {
            self.tree_root = Some(*position);
        }
        let mv = found.best_move.unwrap_or_else(|| {
            *position.legal_moves().first().expect("choose() needs a position where the game is not over")
        });
        self.last = Some(found);
        mv
    }
}

/// The solver of [`MctsConfig::solver_share`] and [`MctsConfig::solver_beside_empty`]: one
/// thread, a table of 2^[`SOLVER_TABLE_BITS`] entries kept from move to move, captured regions
/// as [`MctsConfig::captured_regions`] says.
fn new_solver(captured_regions: bool) -> Solver {
    Solver::new(SolverConfig { table_bits: SOLVER_TABLE_BITS, captured_regions, ..SolverConfig::default() })
}

/// The search's clock: the wall clock, read as run out once the solver beside the search has
/// proved a win.
struct UntilSolved<'a> {
    clock: WallClock,
    solved: Option<&'a AtomicBool>,
}

impl Clock for UntilSolved<'_> {
    fn elapsed(&self) -> Duration {
        match self.solved {
            Some(solved) if solved.load(Ordering::Relaxed) => Duration::MAX,
            _ => self.clock.elapsed(),
        }
    }
}

impl Default for MctsPlayer {
    fn default() -> Self {
        MctsPlayer::new(MctsConfig::default())
    }
}

impl search_core::agent::Agent<HexGame> for MctsPlayer {
    fn name(&self) -> String {
        let budget = match (self.config.time, self.config.iterations) {
            (Some(t), _) => format!("{}ms", t.as_millis()),
            (None, Some(n)) => format!("{n}it"),
            (None, None) => "unlimited".to_string(),
        };
        let rave = if self.config.rave.is_some() { " rave" } else { "" };
        format!("mcts {budget}{rave}")
    }

    fn choose(&mut self, _: &HexGame, position: &Position) -> HexMove {
        self.decide(position).0
    }

    /// A player with a time limit takes the new one and keeps its kept tree and solver; one
    /// limited by iterations alone has no time limit to change.
    fn set_time_limit(&mut self, time: Duration) -> bool {
        if self.config.time.is_none() {
            return false;
        }
        self.config.time = Some(time);
        true
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::Board;
    use crate::patterns::{PatternCode, RING_CODES, pattern, ring};

    /// A policy whose every six-cell pattern has a strength of its own, so that a code read in
    /// the wrong orientation or for the wrong colour shows.
    fn distinct_policy() -> (PatternWeights, PlayoutPolicy) {
        let weights = PatternWeights::from_pairs(
            (0..RING_CODES as u32).map(|c| (ring(c), 1.0 + ring(c) as f32 / 16.0)),
        );
        let policy = PlayoutPolicy::new(&weights);
        (weights, policy)
    }

    /// An analysis finds where the opponent answers an intrusion into its bridge, and at the
    /// child the answers get, together, as much prior as every move had before.
    #[test]
    fn the_answers_to_an_intrusion_get_half_the_priors() {
        // White to move on 9x9; Black's c3 and d4 make a bridge over d3 and c4.
        let (position, _) = crate::play_moves(9, ["c3", "a9", "d4"]).unwrap();
        let cell = |name| crate::parse_cell(name, 9).unwrap();
        let game = HexGame::new(9);
        let mut solver = SolverKnowledge::new().with_answers(true);
        let insight = solver.analyse(&game, &position, &position.legal_moves());
        assert!(matches!(insight, Insight::Moves(_)), "{insight:?}");
        let child = position.play(HexMove::Place(cell("d3"))).unwrap();
        let answers = solver.answers(&child).expect("d3 intrudes").to_vec();
        assert!(answers.contains(&cell("c4")), "{answers:?}");
        assert!(solver.answers(&position).is_none(), "answers are for the positions after intrusions");
        let moves = child.legal_moves();
        let mut priors_of = |weight: Option<f32>| {
            let mut knowledge = TreeKnowledge {
                solver: Some(&mut solver),
                shared: None,
                patterns: Some(PatternWeights::shipped()),
                local: None,
                answer_patterns: None,
                root_last: None,
                answers: weight,
                inferior: false,
                dominated: false,
                net: None,
            };
            assert_eq!(knowledge.analysis_changes_priors(), weight.is_some());
            let mut priors = vec![0.0f32; moves.len()];
            assert!(knowledge.priors(&game, &child, Some(&HexMove::Place(cell("d3"))), &moves, &mut priors));
            priors
        };
        let (plain, raised) = (priors_of(None), priors_of(Some(1.0)));
        let total: f32 = plain.iter().sum();
        let is_answer = |mv: &HexMove| matches!(mv, HexMove::Place(c) if answers.contains(c));
        let bonus = total / answers.len() as f32;
        for ((mv, p), q) in moves.iter().zip(&plain).zip(&raised) {
            let expected = if is_answer(mv) { p + bonus } else { *p };
            assert!((q - expected).abs() <= 1e-4 * total, "{mv:?}: {p} {q}");
        }
        let share: f32 =
            moves.iter().zip(&raised).filter(|(mv, _)| is_answer(mv)).map(|(_, q)| q).sum::<f32>()
                / raised.iter().sum::<f32>();
        assert!(share >= 0.5, "{share}");
    }

    /// A player with the answers on finds some in its search, plays legal moves, and the same
    /// seed gives the same game.
    #[test]
    fn a_player_with_answers_finds_them_and_repeats_for_a_seed() {
        let config = MctsConfig {
            knowledge_after: Some(10),
            prior_weight: Some(3.0),
            vc_answers: Some(1.0),
            ..MctsConfig::iterations(500)
        };
        let (position, _) = crate::play_moves(9, ["e5", "d6", "c7", "f3"]).unwrap();
        let play = || {
            let mut player = MctsPlayer::new(config);
            let (mv, _) = player.decide(&position);
            (mv, player.knowledge().answers.len())
        };
        let (mv, found) = play();
        assert!(position.legal_moves().contains(&mv));
        assert!(found > 0, "no answers found");
        assert_eq!(play(), (mv, found));
    }

    /// The priors come from [`MctsConfig::patterns`] when it is set: with weights that rate every
    /// pattern alike, every root move gets the same prior, while the shipped weights tell the
    /// cells of an open board apart.
    #[test]
    fn nodes_reached_often_enough_take_the_networks_priors() {
        let net: &'static PolicyNet = Box::leak(Box::new(PolicyNet::random(6, 2, 11)));
        // One stone: the player knows it is the opponent's last.
        let (position, _) = crate::play_moves(7, ["c5"]).unwrap();
        let root = |net, net_after| {
            let config = MctsConfig {
                prior_weight: Some(3.0),
                net,
                net_after,
                seed: 3,
                ..MctsConfig::iterations(300)
            };
            let mut player = MctsPlayer::new(config);
            player.decide(&position);
            let moves = player.last_result().expect("a search ran").moves.clone();
            moves.into_iter().map(|m| (m.mv, m.prior)).collect::<Vec<_>>()
        };
        // Reached at once, the root's priors are the network's shares (the last stone known).
        let policy = net.policy(&position, Some(Cell::new(4, 2)));
        assert_ne!(policy, net.policy(&position, None), "the network reads the last stone");
        let share = |mv: HexMove| match mv {
            HexMove::Place(cell) => policy.iter().find(|(c, _)| *c == cell).expect("an empty cell").1,
            HexMove::Swap => unreachable!(),
        };
        let with_net = root(Some(net), 0);
        assert_eq!(with_net.len(), policy.len());
        for &(mv, prior) in &with_net {
            assert!((prior - share(mv)).abs() < 1e-5, "{mv:?}: {prior} against {}", share(mv));
        }
        // Never reached that often, or no network: the patterns' priors.
        let patterns = root(None, 0);
        assert_eq!(root(Some(net), 1_000), patterns);
        assert!(with_net.iter().zip(&patterns).any(|(a, b)| (a.1 - b.1).abs() > 1e-3));
    }

    #[test]
    fn the_networks_move_values_join_each_childs_results() {
        use crate::net::{Adam, NetInput, ValueTarget};
        // White to move after c5: a value head taught that b4 wins and f2 loses for White.
        let (position, _) = crate::play_moves(7, ["c5"]).unwrap();
        let (good, bad) = (Cell::new(3, 1), Cell::new(1, 5));
        let mut net = PolicyNet::random(6, 2, 12);
        let untrained: &'static PolicyNet = Box::leak(Box::new(net.clone()));
        let mut adam = Adam::new(&net, 0.02);
        let input = NetInput::new(&position, Some(Cell::new(4, 2)), false);
        let targets = [
            ValueTarget { id: good.id(7), value: 0.95, weight: 1.0 },
            ValueTarget { id: bad.id(7), value: 0.05, weight: 1.0 },
        ];
        for _ in 0..300 {
            let mut grad = net.zeros_like();
            net.learn_with_values(&input, &[], &targets, &mut grad);
            adam.step(&mut net, &grad, 1);
        }
        let net: &'static PolicyNet = Box::leak(Box::new(net));
        let root = |net, net_values| {
            let config = MctsConfig {
                prior_weight: Some(3.0),
                net: Some(net),
                net_after: 0,
                net_values,
                seed: 5,
                ..MctsConfig::iterations(200)
            };
            let mut player = MctsPlayer::new(config);
            player.decide(&position);
            player.last_result().expect("a search ran").moves.clone()
        };
        let stats = |moves: &[search_core::mcts::MoveStats<HexMove>], cell| {
            let m = moves.iter().find(|m| m.mv == HexMove::Place(cell)).expect("an open cell");
            (m.visits, m.value)
        };
        let plain = root(net, 0);
        let real: u32 = plain.iter().map(|m| m.visits).sum();
        let valued = root(net, 1_000);
        let open = valued.iter().filter(|m| m.winner.is_none()).count() as u32;
        let total: u32 = valued.iter().map(|m| m.visits).sum();
        assert!(total >= 1_000 * open && total <= real + 1_000 * open, "{total} visits, {open} open moves");
        let (good_visits, good_value) = stats(&valued, good);
        let (_, bad_value) = stats(&valued, bad);
        assert!(good_visits >= 1_000);
        assert!(good_value > 0.8 && bad_value < 0.3, "b4 {good_value}, f2 {bad_value}");
        // A network without a value head adds nothing: the same search as without values.
        assert!(!untrained.has_values());
        let without: Vec<u32> = root(untrained, 1_000).iter().map(|m| m.visits).collect();
        assert_eq!(without, root(untrained, 0).iter().map(|m| m.visits).collect::<Vec<_>>());
    }

    #[test]
    fn the_priors_use_the_configured_pattern_weights() {
        let flat: &'static PatternWeights = Box::leak(Box::new(PatternWeights::from_pairs([])));
        let (position, _) = crate::play_moves(7, ["d4"]).unwrap();
        let root_priors = |patterns| {
            let config = MctsConfig { prior_weight: Some(3.0), patterns, ..MctsConfig::iterations(100) };
            let mut player = MctsPlayer::new(config);
            player.decide(&position);
            player.last_result().expect("a search ran").moves.iter().map(|m| m.prior).collect::<Vec<f32>>()
        };
        let (with_flat, shipped) = (root_priors(Some(flat)), root_priors(None));
        assert_eq!(with_flat.len(), position.legal_moves().len());
        assert!(with_flat.iter().all(|&p| (p - with_flat[0]).abs() <= 1e-6), "{with_flat:?}");
        let spread =
            shipped.iter().fold(0f32, |m, &p| m.max(p)) - shipped.iter().fold(1f32, |m, &p| m.min(p));
        assert!(spread > 1e-3, "{shipped:?}");
    }

    /// The priors are the patterns' strengths (each cell's pattern read in the table's code),
    /// times the local codes' near the last stone when the local weights are on and the last
    /// move is known, and nothing else changes.
    #[test]
    fn local_priors_multiply_the_cells_near_the_last_stone() {
        let (position, _) = crate::play_moves(7, ["d4", "c5", "e3"]).unwrap();
        // A table holding every code of the position in either code, each with its own γ.
        let grid = PatternGrid::new(&position);
        let every: std::collections::BTreeSet<u32> = position
            .board()
            .empty_cells()
            .flat_map(|cell| [PatternCode::Stones, PatternCode::Edges].map(|kind| grid.code_as(kind, cell)))
            .collect();
        let distinct = PatternWeights::from_pairs(every.iter().map(|&code| (code, 1.0 + (code % 13) as f32)));
        let tables: [&'static PatternWeights; 3] = [
            PatternWeights::shipped(),
            Box::leak(Box::new(distinct.clone())),
            Box::leak(Box::new(distinct.with_code(PatternCode::Edges))),
        ];
        // The check has teeth only if some cell's pattern differs between the codes.
        assert!(
            position
                .board()
                .empty_cells()
                .any(|cell| grid.code_as(PatternCode::Stones, cell) != grid.code_as(PatternCode::Edges, cell))
        );
        for patterns in tables {
            local_priors_of(&position, patterns);
        }
    }

    /// [`local_priors_multiply_the_cells_near_the_last_stone`] with one table of pattern
    /// strengths.
    fn local_priors_of(position: &Position, patterns: &'static PatternWeights) {
        let position = *position;
        let local: &'static PatternWeights = Box::leak(Box::new(PatternWeights::from_pairs(
            (0..crate::patterns::LOCAL_CODES as u32).map(|code| (code, 2.0 + (code % 7) as f32)),
        )));
        let last = crate::parse_cell("e3", 7).unwrap();
        let moves = position.legal_moves();
        let priors_of = |local, last: Option<HexMove>| {
            let mut knowledge = TreeKnowledge {
                solver: None,
                shared: None,
                patterns: Some(patterns),
                local,
                answer_patterns: None,
                root_last: None,
                answers: None,
                inferior: false,
                dominated: false,
                net: None,
            };
            let mut priors = vec![0.0; moves.len()];
            assert!(knowledge.priors(&HexGame::new(7), &position, last.as_ref(), &moves, &mut priors));
            priors
        };
        let plain = priors_of(None, Some(HexMove::Place(last)));
        assert_eq!(plain, priors_of(Some(local), None), "no last move, no local factor");
        let answered = priors_of(Some(local), Some(HexMove::Place(last)));
        let grid = PatternGrid::new(&position);
        let mut near = 0;
        for ((mv, p), q) in moves.iter().zip(&plain).zip(&answered) {
            let HexMove::Place(cell) = *mv else { panic!("no swap after three stones") };
            assert_eq!(*p, patterns.gamma(grid.code_as(patterns.code(), cell)), "{cell}");
            match grid.local_code(cell, last) {
                Some(code) => {
                    near += 1;
                    assert_eq!(*q, p * local.gamma(code), "{cell}");
                }
                None => assert_eq!(q, p, "{cell}"),
            }
        }
        assert!(near >= 10, "{near}");
    }

    /// An answer table adds its γ to the cells near the last stone whose pattern it holds,
    /// nothing elsewhere or for patterns it lacks, and nothing without a last move; with the
    /// local factor on too, it adds to the multiplied strength.
    #[test]
    fn answer_patterns_add_their_gamma_near_the_last_stone() {
        let patterns = PatternWeights::shipped();
        let (position, _) = crate::play_moves(7, ["d4", "c5", "e3"]).unwrap();
        let last = crate::parse_cell("e3", 7).unwrap();
        let moves = position.legal_moves();
        let grid = PatternGrid::new(&position);
        let cells: Vec<Cell> = moves
            .iter()
            .map(|mv| if let HexMove::Place(cell) = *mv { cell } else { panic!("no swap") })
            .collect();
        // Every pattern on the board but one near the last stone; that one is left out.
        let near: Vec<Cell> = cells.iter().copied().filter(|&c| within_twelve(c, last)).collect();
        let left_out = grid.code(near[0]);
        let table: &'static PatternWeights = Box::leak(Box::new(PatternWeights::from_pairs(
            cells
                .iter()
                .map(|&c| grid.code(c))
                .filter(|&code| code != left_out)
                .map(|code| (code, 10.0 + (code % 5) as f32)),
        )));
        let priors_of = |local, answer_patterns, last: Option<HexMove>| {
            let mut knowledge = TreeKnowledge {
                solver: None,
                shared: None,
                patterns: Some(patterns),
                local,
                answer_patterns,
                root_last: None,
                answers: None,
                inferior: false,
                dominated: false,
                net: None,
            };
            let mut priors = vec![0.0; moves.len()];
            assert!(knowledge.priors(&HexGame::new(7), &position, last.as_ref(), &moves, &mut priors));
            priors
        };
        let placed = Some(HexMove::Place(last));
        let plain = priors_of(None, None, placed);
        assert_eq!(plain, priors_of(None, Some(table), None), "no last move, nothing added");
        let answered = priors_of(None, Some(table), placed);
        let mut added = 0;
        for ((&cell, p), q) in cells.iter().zip(&plain).zip(&answered) {
            let code = grid.code(cell);
            if within_twelve(cell, last) && code != left_out {
                added += 1;
                assert_eq!(*q, p + table.gamma(code), "{cell}");
            } else {
                assert_eq!(q, p, "{cell}");
            }
        }
        assert!(added >= 8, "{added}");
        let local = PatternWeights::shipped_local();
        let multiplied = priors_of(Some(local), None, placed);
        let both = priors_of(Some(local), Some(table), placed);
        for (((&cell, m), b), (p, q)) in
            cells.iter().zip(&multiplied).zip(&both).zip(plain.iter().zip(&answered))
        {
            assert_eq!(*b, m + (q - p), "{cell}");
        }
    }

    /// The player finds the opponent's last stone for the root's priors: the only stone on the
    /// board, or the reply to its own last move; a position it cannot trace back gets the
    /// patterns alone.
    #[test]
    fn the_root_priors_answer_the_opponents_last_stone() {
        let config = MctsConfig { prior_weight: Some(3.0), local_priors: true, ..MctsConfig::iterations(50) };
        let expected = |position: &Position, last: Option<Cell>| {
            let moves = position.legal_moves();
            let mut knowledge = TreeKnowledge {
                solver: None,
                shared: None,
                patterns: Some(PatternWeights::shipped()),
                local: Some(PatternWeights::shipped_local()),
                answer_patterns: None,
                root_last: None,
                answers: None,
                inferior: false,
                dominated: false,
                net: None,
            };
            let mut priors = vec![0.0f32; moves.len()];
            let last = last.map(HexMove::Place);
            knowledge.priors(&HexGame::new(position.size()), position, last.as_ref(), &moves, &mut priors);
            let total: f32 = priors.iter().sum();
            moves.into_iter().zip(priors.into_iter().map(move |p| p / total)).collect::<Vec<_>>()
        };
        let found = |player: &MctsPlayer| {
            let result = player.last_result().expect("a search");
            let mut moves: Vec<(HexMove, f32)> = result.moves.iter().map(|m| (m.mv, m.prior)).collect();
            moves.sort_by_key(|&(mv, _)| format!("{mv:?}"));
            moves
        };
        let same = |a: Vec<(HexMove, f32)>, mut b: Vec<(HexMove, f32)>| {
            b.sort_by_key(|&(mv, _)| format!("{mv:?}"));
            a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x.0 == y.0 && (x.1 - y.1).abs() < 1e-6)
        };
        let mut player = MctsPlayer::new(config);
        let (first, _) = crate::play_moves(7, ["b2"]).unwrap();
        let b2 = crate::parse_cell("b2", 7).unwrap();
        let (mv, reason) = player.decide(&first);
        assert_eq!(reason, MctsReason::Search);
        assert!(same(found(&player), expected(&first, Some(b2))));
        assert!(!same(found(&player), expected(&first, None)), "the local factor changes the priors");
        // Our move and the opponent's reply next to it.
        let HexMove::Place(ours) = mv else { panic!("no swap for White here") };
        let after = first.play(mv).unwrap();
        let reply =
            after.board().empty_cells().find(|c| c.row.abs_diff(ours.row) + c.col.abs_diff(ours.col) == 1);
        let reply = reply.expect("an empty neighbour");
        let third = after.play(HexMove::Place(reply)).unwrap();
        player.decide(&third);
        assert!(same(found(&player), expected(&third, Some(reply))));
        // A fresh player meeting the third position cannot tell which stone came last.
        let mut fresh = MctsPlayer::new(config);
        fresh.decide(&third);
        assert!(same(found(&fresh), expected(&third, None)));
    }

    /// A board of `size` with a random share (up to half) of its cells taken, Black and White
    /// in turn, set as `playout`'s grid; the cells in a random order, the first `before` of
    /// them the ones taken, the rest for the test to place one by one.
    fn partly_filled(playout: &mut HexPlayout, size: u8, rng: &mut McRng) -> (Board, Vec<Cell>, usize) {
        let mut board = Board::new(u32::from(size)).unwrap();
        let mut cells: Vec<Cell> = board.cells().collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.random_range(0..=i));
        }
        let before = rng.random_range(0..=cells.len() / 2);
        for (i, &cell) in cells[..before].iter().enumerate() {
            board.set(cell, Some(if i % 2 == 0 { Color::Black } else { Color::White }));
        }
        playout.prepare(size);
        playout.grid = board.cells().map(|cell| board.get(cell).map_or(EMPTY, grid_colour)).collect();
        (board, cells, before)
    }

    #[test]
    fn kept_weights_are_the_weights_of_the_patterns_on_the_board() {
        let (weights, policy) = distinct_policy();
        let policy = Arc::new(policy);
        let mut rng = McRng::seed_from_u64(11);
        for size in [1u8, 2, 3, 5, 8, 11] {
            let n = usize::from(size);
            for _ in 0..5 {
                let mut playout = HexPlayout::new(true).with_policy(Arc::clone(&policy));
                let (mut board, cells, before) = partly_filled(&mut playout, size, &mut rng);
                playout.weigh(&policy);
                for (i, &cell) in cells[before..].iter().enumerate() {
                    for side in [Color::Black, Color::White] {
                        let view = Position::from_board(board, side);
                        let s = usize::from(side.index());
                        for empty in board.empty_cells() {
                            let gamma = weights.gamma(ring(pattern(&view, empty)));
                            let expected = (gamma * PLAYOUT_UNIT).round() as u32;
                            assert_eq!(playout.weights[s][empty.id(size)], expected, "{empty} for {side:?}");
                        }
                        for row in 0..n {
                            let sum: u32 = playout.weights[s][row * n..(row + 1) * n].iter().sum();
                            assert_eq!(playout.row_sums[s][row], sum);
                        }
                    }
                    let colour = if i % 2 == 0 { Color::Black } else { Color::White };
                    playout.place(cell.id(size) as u16, grid_colour(colour), Some(&policy), false);
                    board.set(cell, Some(colour));
                }
                assert!(playout.row_sums.iter().flatten().all(|&sum| sum == 0));
            }
        }
    }

    #[test]
    fn cells_are_drawn_in_proportion_to_their_weights() {
        // Three empty cells of a 3x3 board, with weights that differ by side.
        let (_, policy) = distinct_policy();
        let mut board = Board::new(3).unwrap();
        for (i, cell) in
            board.cells().filter(|c| ![0, 4, 8].contains(&c.id(3))).enumerate().collect::<Vec<_>>()
        {
            board.set(cell, Some(if i % 2 == 0 { Color::Black } else { Color::White }));
        }
        let mut playout = HexPlayout::new(true).with_policy(Arc::new(policy.clone()));
        playout.prepare(3);
        playout.grid = board.cells().map(|cell| board.get(cell).map_or(EMPTY, grid_colour)).collect();
        playout.weigh(&policy);
        let mut rng = McRng::seed_from_u64(2);
        for side in 0..2 {
            let weights: Vec<f64> =
                [0, 4, 8].iter().map(|&id| f64::from(playout.weights[side][id])).collect();
            let total: f64 = weights.iter().sum();
            let mut counts = [0u32; 3];
            let draws = 30_000;
            for _ in 0..draws {
                let cell = playout.draw(side, &mut rng);
                counts[[0, 4, 8].iter().position(|&id| id == cell).expect("an empty cell")] += 1;
            }
            for (count, weight) in counts.iter().zip(&weights) {
                let share = f64::from(*count) / f64::from(draws);
                assert!((share - weight / total).abs() < 0.015, "side {side}: {counts:?} for {weights:?}");
            }
        }
    }

    /// Local weights where every local code has a strength of its own, so that a code or a
    /// place read in the wrong orientation or for the wrong colour shows.
    fn distinct_local() -> PatternWeights {
        PatternWeights::from_pairs(
            (0..crate::patterns::LOCAL_CODES as u32).map(|code| (code, 1.0 + (code % 977) as f32 / 8.0)),
        )
    }

    /// As the board fills, the table's extra weight of every empty cell near a stone, read from
    /// the ring codes the playout keeps, is the strength of the cell's local code for either
    /// side to move, minus one.
    #[test]
    fn local_weights_are_the_local_codes_on_the_board() {
        let weights = distinct_local();
        let policy = LocalPolicy::new(&weights);
        let mut rng = McRng::seed_from_u64(5);
        for size in [2u8, 3, 5, 8, 11] {
            for _ in 0..3 {
                let mut playout = HexPlayout::new(true).with_local(Arc::new(policy.clone()));
                let (mut board, cells, before) = partly_filled(&mut playout, size, &mut rng);
                playout.read_codes();
                for (i, &cell) in cells[before..].iter().enumerate() {
                    let colour = if i % 2 == 0 { Color::Black } else { Color::White };
                    playout.place(cell.id(size) as u16, grid_colour(colour), None, true);
                    board.set(cell, Some(colour));
                    // The stone just placed is the last one; the other side answers it.
                    let side = colour.opponent();
                    let view = Position::from_board(board, side);
                    let grid = PatternGrid::new(&view);
                    let last = cell.id(size) as u16;
                    for (k, &near) in playout.around[usize::from(last)].iter().enumerate() {
                        if near == NONE || playout.grid[usize::from(near)] != EMPTY {
                            continue;
                        }
                        let near_cell = Cell::from_id(usize::from(near), size);
                        let code = grid.local_code(near_cell, cell).expect("a cell of the twelve");
                        let expected = ((weights.gamma(code) - 1.0) * PLAYOUT_UNIT).round() as u32;
                        let read =
                            policy.extra(side, LAST_PLACE[k], u32::from(playout.codes[usize::from(near)]));
                        assert_eq!(read, expected, "{near_cell} after {cell} for {side:?}");
                    }
                }
            }
        }
    }

    /// The local draw picks a cell near the last stone with its extra weight's share of the
    /// extra weights plus one unit per empty cell, and otherwise leaves the move to the rest.
    #[test]
    fn local_replies_are_drawn_in_proportion_to_their_extra_weight() {
        let policy = LocalPolicy::new(&distinct_local());
        let (position, _) = crate::play_moves(5, ["c3"]).unwrap();
        let board = position.board();
        let mut playout = HexPlayout::new(false).with_local(Arc::new(policy.clone()));
        playout.prepare(5);
        playout.grid = board.cells().map(|cell| board.get(cell).map_or(EMPTY, grid_colour)).collect();
        playout.read_codes();
        let last = Cell::new(2, 2).id(5) as u16;
        let side = usize::from(Color::White.index());
        let extra: Vec<(u16, f64)> = playout.around[usize::from(last)]
            .iter()
            .enumerate()
            .map(|(k, &cell)| {
                let code = u32::from(playout.codes[usize::from(cell)]);
                (cell, f64::from(policy.extra(Color::White, LAST_PLACE[k], code)))
            })
            .collect();
        let total = extra.iter().map(|(_, w)| w).sum::<f64>() + 24.0 * f64::from(PLAYOUT_UNIT);
        let mut rng = McRng::seed_from_u64(8);
        let draws = 40_000;
        let mut counts = std::collections::HashMap::new();
        for _ in 0..draws {
            *counts.entry(playout.local_reply(&policy, last, side, 24, &mut rng)).or_insert(0u32) += 1;
        }
        let share = |key| f64::from(counts.get(&key).copied().unwrap_or(0)) / f64::from(draws);
        for &(cell, weight) in &extra {
            assert!((share(Some(cell)) - weight / total).abs() < 0.012, "{cell}: {counts:?}");
        }
        let rest = 24.0 * f64::from(PLAYOUT_UNIT) / total;
        assert!((share(None) - rest).abs() < 0.012, "{counts:?}");
    }

    /// Weighted, local, both and twelve-cell: every empty cell once, the sides in turn, the winner scored,
    /// the same playout for the same seed.
    #[test]
    fn weighted_and_local_playouts_fill_the_board_and_follow_the_seed() {
        let game = HexGame::new(7);
        let start = Position::new(7).unwrap().play(HexMove::Place(Cell::new(3, 3))).unwrap();
        let distinct = Arc::new(LocalPolicy::new(&distinct_local()));
        let weighted = || HexPlayout::new(true).with_policy(PlayoutPolicy::shipped().clone());
        let playouts = [
            weighted(),
            HexPlayout::new(true).with_local(Arc::clone(&distinct)),
            HexPlayout::new(false).with_local(LocalPolicy::shipped().clone()),
            weighted().with_local(distinct),
            HexPlayout::new(true).with_policy(Arc::new(PlayoutPolicy::flat().with_inferior())),
            HexPlayout::new(true)
                .with_policy(Arc::new(PlayoutPolicy::flat().with_inferior()))
                .with_local(Arc::new(LocalPolicy::scaled(PatternWeights::shipped_local_playout(), 10.0))),
            HexPlayout::new(true).with_twelve(Arc::new(TwelvePolicy::new(
                PatternWeights::shipped(),
                Some(PatternWeights::shipped()),
            ))),
            HexPlayout::new(false).with_twelve(Arc::new(TwelvePolicy::new(
                &PatternWeights::default(),
                Some(PatternWeights::shipped()),
            ))),
        ];
        for mut playout in playouts {
            let run = |playout: &mut HexPlayout, seed| {
                let mut trace = Vec::new();
                let rewards = playout.playout(&game, &start, &mut McRng::seed_from_u64(seed), &mut trace);
                (rewards, trace)
            };
            for seed in 0..20 {
                let (rewards, trace) = run(&mut playout, seed);
                assert_eq!(trace.len(), 48);
                // Every empty cell once, the two sides in turn from White.
                let mut board = *start.board();
                for (i, &(player, mv)) in trace.iter().enumerate() {
                    let HexMove::Place(cell) = mv else { panic!("a playout places stones") };
                    assert_eq!(board.get(cell), None, "{cell} twice");
                    let colour = if i % 2 == 0 { Color::White } else { Color::Black };
                    assert_eq!(player, colour.index());
                    board.set(cell, Some(colour));
                }
                assert_eq!(rewards[usize::from(board.winner().unwrap().index())], 1.0);
                assert_eq!(run(&mut playout, seed), (rewards, trace));
            }
        }
    }
}
