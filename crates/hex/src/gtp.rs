//! A GTP engine for Hex in the dialect of HexGui and Benzene, as a library: feed it lines, get the
//! responses.
//!
//! The `hex-gtp` binary wraps [`Engine`] in a loop over standard input; tests and tournament code
//! can drive the engine directly.
//!
//! # Protocol
//!
//! Framing is standard GTP: a command line is `[id] command [arguments]`; the answer is
//! `=[id] result` on success and `?[id] message` on failure, followed by an empty line. Control
//! characters are dropped, tabs become spaces, and everything from `#` to the end of the line is a
//! comment. A line with no command (empty, blank, or only a comment) gets no response at all, as
//! GTP requires; every other line gets exactly one.
//!
//! Cells are named the way Benzene, HexGui and OpenSpiel name them: column letter and 1-based row,
//! `a1` top left; Black moves first and connects top to bottom, White connects left to right. The
//! swap is the move `swap-pieces`, legal as White's answer to the first move when
//! `param_game allow_swap 1` is set. As in Benzene, the swap keeps the stone where it is, black,
//! and White moves next (the players trade colours; Benzene's tournament driver then asks the
//! program that placed the stone `genmove w`); `param_game swap mirror` mirrors the stone into a
//! white one and gives Black the move instead, as OpenSpiel does ([`SwapConvention`]).
//!
//! The engine takes the command streams of Benzene's tournament driver (`tournament/` in
//! Benzene's sources): `boardsize n n`, `play c resign` (the driver relays every answer of
//! `genmove`, a resignation too, and abandons the game if the other program refuses it),
//! `final_score` after a resignation, `time_left`, `param_game game_time`, and the
//! `--seed N --logfile-name FILE` flags the driver adds to every program's command line
//! (`hex-gtp` takes both). A test replays a command stream recorded from that driver.
//!
//! | command | answer |
//! |---|---|
//! | `name`, `version`, `protocol_version` | `hex-gtp`, the crate version, `2` |
//! | `list_commands`, `known_command c` | one command a line; `true` or `false` |
//! | `boardsize n [n]` | starts a new n×n game, 1 ≤ n ≤ 19 (rectangular boards are refused) |
//! | `clear_board` | starts a new game of the same size |
//! | `play c m` | plays `m` (`c3`, `swap-pieces`, `resign`) for colour `c` (`b`, `black`, `w`, `white`); no move is taken after a resignation |
//! | `genmove c` | the engine's move for `c`, played, its time taken off `c`'s clock; `resign` when the game is over (connected or resigned) |
//! | `reg_genmove c` | the engine's move for `c`, not played |
//! | `undo` | takes back the last move or resignation (nothing happens on an empty history) |
//! | `showboard` | the board drawn over several lines |
//! | `final_score` | `B+`, `W+` (connected, or the other side resigned), or `cannot score` while the game goes on |
//! | `time_left [c [s]]` | both clocks as `Black: s, White: s`; `c`'s seconds left; with `s`, sets `c`'s clock (GTP's `time_left c s stones` too) |
//! | `all_legal_moves` | the legal moves, space-separated |
//! | `solve-state [c]` | `black` or `white`: who wins with perfect play, `c` (if given) to move; `? unknown: …` past the solver's time limit (`param_solver`) |
//! | `vc-between-cells-full c x y`, `vc-between-cells-semi c x y` | the virtual (semi-) connections the solver's H-search finds between `x` and `y` (cells, or `c`'s edges `north`/`south`, `west`/`east`) for colour `c`, one a line: `[d3 c4]`, `c4 [c4 d4 c5]` (boards up to 11×11; Benzene's commands of the same names, to set the two engines' connections side by side) |
//! | `find-winning [c]` | every winning move of the side to move (or of `c`), space-separated in cell order; empty if none |
//! | `param_hex [name value]` | the engine's settings: `player`, `time`, `depth`, `seed`, `knowledge`, `solver`, `priors` (below) |
//! | `param_game [name value]` | the game's settings: `allow_swap` (`0` or `1`), `swap` (`keep` or `mirror`), `game_time` (seconds a side, 1800 as Benzene; only before the first move) |
//! | `param_solver [name value]` | the solver's settings: `time` (seconds, `0` or `inf` for none), `table_bits`, `threads` (below) |
//! | `hexgui-analyze_commands` | the analysis commands HexGui can offer in its menus |
//! | `quit` | an empty success; every later line gets no response |
//!
//! # Colours that play out of turn
//!
//! Benzene does not enforce alternation, and neither does this engine: `play` or `genmove` for
//! the colour that is not to move puts a stone of that colour on the board, and **the other
//! colour moves next** (so `play b a1` then `play b b1` leaves White to move). This lets a
//! controller set up any position with `play` commands. The swap is the exception: only White
//! may play it, as the second move.
//!
//! # Settings
//!
//! `param_hex` with no arguments lists the settings as `[string] player mcts` lines;
//! `param_hex player NAME` chooses the player that `genmove` asks ([`PlayerKind`]: `mcts`, the
//! default, [`crate::mcts::MctsPlayer`]; `strong`, [`crate::strong::StrongPlayer`]; `random`; or
//! one of the seed players `madeup`, `coolcow` and `bridges`), `param_hex time SECONDS` the time
//! per move of `mcts` and `strong` (0.5 s by default), `param_hex depth N` the search depth of the
//! seed players (3 by default, as their documents), `param_hex seed N` the seed of the random
//! and MCTS players, `param_hex knowledge N` the visits after which the solver's knowledge
//! prunes an MCTS node's moves ([`DEFAULT_KNOWLEDGE`] by default; `off` for none; boards up to
//! 11×11), `param_hex solver SHARE` the share of each MCTS move's time the exact solver gets
//! first, in positions with few empty cells ([`DEFAULT_SOLVER`] by default, `off` for none; see
//! [`crate::mcts`]),
//! `param_hex solver_empty N` the most empty cells of a position the solver goes in
//! ([`crate::mcts::DEFAULT_SOLVER_EMPTY`] by default) and
//! `param_hex priors WEIGHT` the weight of the learned pattern priors in the MCTS tree
//! ([`MctsConfig::prior_weight`]; [`DEFAULT_PRIORS`] by default, `off` for none);
//! `param_hex exploration C` and `param_hex rave K` set the MCTS search's UCB1 constant and RAVE
//! equivalence parameter ([`MctsConfig::exploration`], [`MctsConfig::rave`]; 0 and 500 by
//! default, `rave off` for plain UCT), `param_hex rave_counts INITIAL,LATE` weighs RAVE by
//! both visit counts instead ([`search_core::mcts::RaveWeight::Counts`]; `off` by default),
//! `param_hex rave_prior N` starts every new node with N virtual all-moves-as-first visits at
//! half a win ([`MctsConfig::rave_prior`]; 0 by default) and `param_hex expand N` expands a
//! node once reached N times ([`MctsConfig::expand_after`]; 1 by default), `param_hex
//! vc_answers W` raises the priors of the answers to intrusions into virtual connections
//! ([`MctsConfig::vc_answers`]; `off` by default); `param_hex reuse 1` keeps the MCTS tree from move to move
//! ([`MctsConfig::reuse_tree`]), `param_hex fill_in 1` goes on below each analysed node from
//! its position with dead and captured cells filled in ([`MctsConfig::fill_in`]),
//! `param_hex inferior 1` leaves each new node's dead, captured and vulnerable cells out at once
//! ([`MctsConfig::inferior_on_expand`]), `param_hex dominated 1` leaves their dominated cells
//! out too ([`MctsConfig::dominated_on_expand`]), `param_hex fresh_by_prior 1` tries a node's children
//! without statistics in the order of their priors ([`MctsConfig::fresh_by_prior`]),
//! `param_hex exploration_in_mean 1` puts the exploration term on a move's own mean inside
//! RAVE's mix ([`MctsConfig::exploration_in_mean`]), `param_hex plain_every N` scores one
//! selection step in N by the moves' own means alone ([`MctsConfig::plain_every`]; 0, never, by
//! default) and `param_hex first_play_urgency V` gives children without statistics the value V
//! instead of trying them first ([`MctsConfig::first_play_urgency`]; `off` by default), the
//! three as MoHex's search has them, `param_hex edge_bridges 1` has the playouts' bridge
//! replies keep the bridges from the second row to the player's edge too
//! ([`MctsConfig::edge_bridges`]; off by default),
//! `param_hex captured_regions 1` has the knowledge's solver fill in captured regions
//! ([`MctsConfig::captured_regions`]; off by default), `param_hex prove_after N` gives every
//! node the search reaches N times a small proof search of the solver
//! ([`MctsConfig::prove_after`]; `off` by default) of `param_hex prove_nodes` nodes, in
//! positions with at most `param_hex prove_empty` empty cells, all of them taking at most
//! `param_hex prove_share` of the move, `param_hex widening START,VISITS,FACTOR` lets
//! selection consider only the children ranked first by prior, START of them and one more at
//! VISITS visits and at each further FACTOR times as many ([`MctsConfig::widening`]; `off` by
//! default), `param_hex eval_mix SHARE` takes the share SHARE of each playout's result from
//! Queenbee's two-distance evaluation through a logistic of scale `param_hex eval_scale`
//! ([`MctsConfig::eval_mix`]; 0 by default),
//! `param_hex verify S` keeps the share S of each move to check the search's most visited
//! moves with the exact solver, passing over those it proves losing ([`MctsConfig::verify`];
//! `off` by default), `param_hex verify_moves N` checks at most N of them (4 by default),
//! `param_hex local_priors 1` multiplies the priors of the cells near the opponent's last stone
//! by their local-response strengths ([`MctsConfig::local_priors`]; on by default,
//! [`DEFAULT_LOCAL_PRIORS`], `0` turns it off), `param_hex local_playouts 1`
//! has the playouts answer the last move the same way ([`MctsConfig::local_playouts`]),
//! `param_hex local_scale S` multiplies those answers' extra weight by S
//! ([`MctsConfig::local_scale`]; 1 by default), `param_hex playout_inferior 1` has the playouts
//! leave the cells that their six neighbours make dead or vulnerable until last
//! ([`MctsConfig::playout_inferior`]; off by default), `param_hex playout_table FILE` and
//! `param_hex playout_answers FILE` draw the playouts' cells by twelve-cell pattern weights
//! read from files in the format of `param_hex patterns`, as MoHex 2.0's playouts draw them
//! ([`MctsConfig::playout_table`], [`MctsConfig::playout_answers`]; `off` by default), and
//! `param_hex playout_patterns 1` draws the playouts' cells by
//! learned six-cell pattern weights ([`MctsConfig::playout_patterns`]), `param_hex
//! playout_weights FILE` by the six-cell weights of a file instead, such as `cargo xtask
//! hex-balance` writes ([`MctsConfig::playout_weights`]; `off` by default), and `param_hex
//! answer_factors FILE` has them answer the opponent's last stone by the factors of such a
//! file's local-response strengths ([`MctsConfig::answer_factors`]; `off` by default); `param_hex patterns
//! FILE` takes the priors' pattern weights from a file in the format `cargo xtask hex-patterns`
//! writes, to try weights without building them in (`shipped` goes back to the crate's own;
//! [`MctsConfig::patterns`], [`PatternsFile`]), and `param_hex answer_patterns FILE` adds the
//! γ of a second such file to the priors of the cells near the opponent's last stone, as MoHex
//! 2.0 adds its local table (`off` by default; [`MctsConfig::answer_patterns`]); `param_hex net
//! FILE` gives the priors of the nodes reached `param_hex net_after N` times to a
//! convolutional policy in the format `cargo xtask hex-net` writes (`off` by default;
//! [`MctsConfig::net`], [`NetFile`]), and `param_hex net_values N` has its move values count
//! for N results of each child of those nodes (0 by default: unused;
//! [`MctsConfig::net_values`]); `param_hex threads T`
//! searches with T threads (root parallelism, [`MctsConfig::threads`]; 1 by default, up to
//! [`MAX_MCTS_THREADS`]; with two or more, one of them runs the exact solver beside the search
//! for the whole move in positions with at most `param_hex solver_beside N` empty cells,
//! [`crate::mcts::DEFAULT_SOLVER_BESIDE_EMPTY`] by default). MCTS is the
//! default because it plays better at equal time: it beat the alpha-beta strong player in
//! matches on 9×9 (see [`crate::mcts`]; measured, with the commands that reproduce it:
//! `docs/measurements.md` in the repository). A player is built from the settings by the
//! engine's [`PlayerFactory`] when it is first needed and is kept, with its random state, until
//! a setting changes: a session that sends the same commands gets the same answers.
//!
//! `param_solver` with no arguments lists the settings of `solve-state` and `find-winning` as
//! `[string] time 10`, `[string] table_bits 18`, `[string] threads 1` and `[bool] captured_regions 1` lines ([`SOLVER_CONFIG`]: ten seconds a
//! command, a table of 2^18 entries of 80 bytes). `param_solver time SECONDS` sets the time
//! limit of each solver command (`0`, `inf` or `none`: no limit; listed as `inf`), and
//! `param_solver table_bits B` the table's size, 2^B entries for B from 1 to
//! [`MAX_SOLVER_TABLE_BITS`], and `param_solver threads T` the threads of `solve-state` (one
//! shared table; 1 by default, up to [`MAX_SOLVER_THREADS`]), and `param_solver captured_regions 0`
//! turns off [`SolverConfig::captured_regions`](crate::solver::SolverConfig::captured_regions). Each command starts a fresh solver with an empty table, so an
//! answer does not depend on the commands before it.
//!
//! `param_game allow_swap 1` turns the swap rule on (`0`, the default, off). A change applies to
//! the game in progress, which is replayed under the new rule; turning the swap off is refused
//! while the game contains a swap, and so is changing `param_game swap`.
//!
//! **Clocks.** Each side's clock starts a game at `param_game game_time` seconds; a played
//! `genmove` takes its wall time off the mover's clock, and `time_left` reads or sets the
//! clocks (a controller may send the real time left). The MCTS and strong players search
//! `param_hex time` a move, cut when the clock runs low to nine tenths of the clock shared over
//! one move for every two empty cells (never below [`MIN_MOVE_TIME`]); the player keeps its
//! tree or table through such cuts (`Agent::set_time_limit`), while any other change of
//! `param_hex` builds a new one. No response ever contains
//! an empty line (one ends a response): empty lines inside an answer are dropped.
//!
//! # Examples
//!
//! ```
//! use hex::gtp::Engine;
//!
//! let mut engine = Engine::default();
//! assert_eq!(engine.handle("boardsize 3").unwrap(), "= \n\n");
//! assert_eq!(engine.handle("1 play b b1").unwrap(), "=1 \n\n");
//! assert_eq!(engine.handle("play w b1").unwrap(), "? illegal move: white b1 (occupied)\n\n");
//! for line in ["play w a1", "play b b2", "play w a2", "play b b3"] {
//!     engine.handle(line);
//! }
//! assert_eq!(engine.handle("final_score").unwrap(), "= B+\n\n");
//! assert_eq!(engine.handle("genmove w").unwrap(), "= resign\n\n");
//! assert_eq!(engine.handle("quit").unwrap(), "= \n\n");
//! assert_eq!(engine.handle("name"), None);
//! ```

use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use crate::board::{Board, Color, HexMove, IllegalMove, MAX_SIZE, Position};
use crate::mcts::{MctsConfig, MctsPlayer};
use crate::mcts::{RaveWeight, Widening};
use crate::net::{NetError, PolicyNet};
use crate::notation::{NotationError, move_name, parse_move, showboard};
use crate::patterns::{PatternCode, PatternFileError, PatternWeights};
use crate::player::{HexPlayer, RandomPlayer};
use crate::players::{BridgesConfig, BridgesPlayer, CoolcowPlayer, MadeupConfig, MadeupPlayer, SearchConfig};
use crate::solver::{Endpoint, Solver, SolverConfig, Verdict};
use crate::strong::{StrongConfig, StrongPlayer};

/// A command's handler: the engine and the command's arguments, giving the response's text or
/// the reason for a `?` answer.
type Handler = fn(&mut Engine, &[&str]) -> Result<String, Failure>;

/// Every command the engine knows and what answers it, in the order `list_commands` gives them.
/// One table drives the dispatch, `list_commands` and `known_command`, so they cannot disagree.
const TABLE: &[(&str, Handler)] = &[
    ("all_legal_moves", |e, args| e.all_legal_moves(args)),
    ("boardsize", |e, args| e.boardsize(args)),
    ("clear_board", |e, args| {
        no_args(args)?;
        e.new_game(e.position.size());
        Ok(String::new())
    }),
    ("final_score", |e, args| {
        no_args(args)?;
        let score = match e.winner() {
            Some(Color::Black) => "B+",
            Some(Color::White) => "W+",
            None => "cannot score",
        };
        Ok(score.to_string())
    }),
    ("find-winning", |e, args| find_winning(&solver_position(&e.position, args)?, e.solver)),
    ("genmove", |e, args| {
        let [color] = exact(args)?;
        e.genmove(parse_color(color)?, true)
    }),
    ("hexgui-analyze_commands", |_, args| {
        no_args(args)?;
        Ok([
            "param/Engine Param/param_hex",
            "param/Game Param/param_game",
            "param/Solver Param/param_solver",
            "plist/All Legal Moves/all_legal_moves %c",
            "string/Final Score/final_score",
            "string/Show Board/showboard",
        ]
        .join("\n"))
    }),
    ("known_command", |_, args| {
        let [name] = exact(args)?;
        Ok(TABLE.iter().any(|&(known, _)| known == name).to_string())
    }),
    ("list_commands", |_, args| {
        no_args(args)?;
        Ok(TABLE.iter().map(|&(name, _)| name).collect::<Vec<_>>().join("\n"))
    }),
    ("name", |_, args| no_args(args).map(|()| "hex-gtp".to_string())),
    ("param_game", |e, args| e.param_game(args)),
    ("param_hex", |e, args| e.param_hex(args)),
    ("param_solver", |e, args| e.param_solver(args)),
    ("play", |e, args| {
        let [color, mv] = exact(args)?;
        e.play(parse_color(color)?, mv)
    }),
    ("protocol_version", |_, args| no_args(args).map(|()| "2".to_string())),
    ("quit", |e, args| {
        no_args(args)?;
        e.quit = true;
        Ok(String::new())
    }),
    ("reg_genmove", |e, args| {
        let [color] = exact(args)?;
        e.genmove(parse_color(color)?, false)
    }),
    ("showboard", |e, args| no_args(args).map(|()| format!("\n{}", showboard(&e.position)))),
    ("solve-state", |e, args| solve_state(&solver_position(&e.position, args)?, e.solver)),
    ("time_left", |e, args| e.time_left_command(args)),
    ("undo", |e, args| {
        no_args(args)?;
        if e.resigned.take().is_none()
            && let Some(last) = e.history.pop()
        {
            e.position = last.before;
        }
        Ok(String::new())
    }),
    ("vc-between-cells-full", |e, args| vc_between(&e.position, args, true)),
    ("vc-between-cells-semi", |e, args| vc_between(&e.position, args, false)),
    ("version", |_, args| no_args(args).map(|()| env!("CARGO_PKG_VERSION").to_string())),
];

/// The commands the engine knows, in the order `list_commands` gives them (the names of its
/// command table).
pub const COMMANDS: [&str; TABLE.len()] = {
    let mut names = [""; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        names[i] = TABLE[i].0;
        i += 1;
    }
    names
};

/// The board side of a new engine (HexGui's and Benzene's default).
pub const DEFAULT_SIZE: u8 = 11;

/// The players `genmove` can ask, chosen with `param_hex player NAME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// [`MctsPlayer`]: UCT with RAVE and bridge-aware playouts, with [`Settings::time`] per move
    /// and [`Settings::seed`]. The default.
    Mcts,
    /// [`StrongPlayer`]: selective iterative-deepening alpha-beta on two-distance, with
    /// [`Settings::time`] per move.
    Strong,
    /// [`RandomPlayer`]: a uniformly random legal move, from the seed.
    Random,
    /// [`MadeupPlayer`]: the madeup seed, alpha-beta on `1 − d/n²` of its own BFS distance.
    Madeup,
    /// [`CoolcowPlayer`]: the coolcow seed, alpha-beta on the shortest-path difference.
    Coolcow,
    /// [`BridgesPlayer`]: the third seed, critical cells, bridges and an opening, then alpha-beta.
    Bridges,
}

impl PlayerKind {
    /// Every kind, in the order error messages list them.
    pub const ALL: &[PlayerKind] = &[
        PlayerKind::Mcts,
        PlayerKind::Strong,
        PlayerKind::Random,
        PlayerKind::Madeup,
        PlayerKind::Coolcow,
        PlayerKind::Bridges,
    ];

    /// The name `param_hex player` takes and prints.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Mcts => "mcts",
            PlayerKind::Strong => "strong",
            PlayerKind::Random => "random",
            PlayerKind::Madeup => "madeup",
            PlayerKind::Coolcow => "coolcow",
            PlayerKind::Bridges => "bridges",
        }
    }

    /// The kind called `name` (case-insensitive), if any.
    pub fn from_name(name: &str) -> Option<PlayerKind> {
        PlayerKind::ALL.iter().copied().find(|kind| kind.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What `param_hex` sets: which player `genmove` asks, and its limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The player.
    pub player: PlayerKind,
    /// The time per move of the MCTS and strong players.
    pub time: Duration,
    /// The search depth, in moves, of the players that search.
    pub depth: u32,
    /// The seed of the players that draw random numbers.
    pub seed: u64,
    /// The MCTS player's [`MctsConfig::knowledge_after`]: the visits after which the solver's
    /// knowledge prunes a node's moves (the root's always), or `None` for no knowledge.
    pub knowledge: Option<u32>,
    /// The MCTS player's [`MctsConfig::solver_share`]: the share of each move's time the exact
    /// solver gets first, or `None` for no solver.
    pub solver: Option<f64>,
    /// The MCTS player's [`MctsConfig::solver_empty`]: the solver goes only in positions with at
    /// most this many empty cells.
    pub solver_empty: u32,
    /// The MCTS player's [`MctsConfig::prior_weight`]: the weight of the learned pattern priors
    /// in its tree, or `None` for no priors.
    pub priors: Option<f64>,
    /// The MCTS player's [`MctsConfig::exploration`]: UCB1's exploration constant.
    pub exploration: f64,
    /// The MCTS player's [`MctsConfig::rave`]: RAVE's equivalence parameter, or `None` for plain
    /// UCT.
    pub rave: Option<f64>,
    /// The MCTS player's [`MctsConfig::rave_prior`]: virtual all-moves-as-first visits at half
    /// a win for every new node.
    pub rave_prior: u32,
    /// The MCTS player's [`MctsConfig::rave_weight`]: RAVE's schedule.
    pub rave_weight: RaveWeight,
    /// The MCTS player's [`MctsConfig::expand_after`]: a node gets children once reached this
    /// many times.
    pub expand: u32,
    /// The MCTS player's [`MctsConfig::vc_answers`]: the priors of the answers to intrusions
    /// into virtual connections, or `None` for none.
    pub vc_answers: Option<f32>,
    /// The MCTS player's [`MctsConfig::reuse_tree`]: keep the search tree from move to move.
    pub reuse: bool,
    /// The MCTS player's [`MctsConfig::playout_patterns`]: draw the playouts' cells by the
    /// learned six-cell pattern weights.
    pub playout_patterns: bool,
    /// The MCTS player's [`MctsConfig::threads`]: threads searching the root together.
    pub threads: usize,
    /// The MCTS player's [`MctsConfig::solver_beside_empty`]: with two threads or more, one
    /// solves beside the search in positions with at most this many empty cells.
    pub solver_beside: u32,
    /// The MCTS player's [`MctsConfig::fill_in`]: go on below analysed nodes from their
    /// position with dead and captured cells filled in.
    pub fill_in: bool,
    /// The MCTS player's [`MctsConfig::inferior_on_expand`]: new nodes leave their inferior
    /// cells out.
    pub inferior: bool,
    /// The MCTS player's [`MctsConfig::dominated_on_expand`]: new nodes leave their inferior
    /// and dominated cells out.
    pub dominated: bool,
    /// The MCTS player's [`MctsConfig::fresh_by_prior`]: children without statistics are
    /// tried in the order of their priors.
    pub fresh_by_prior: bool,
    /// The MCTS player's [`MctsConfig::local_priors`]: the priors answer the last move.
    pub local_priors: bool,
    /// The MCTS player's [`MctsConfig::local_playouts`]: the playouts answer the last move.
    pub local_playouts: bool,
    /// The MCTS player's [`MctsConfig::local_scale`]: how sharply the local playouts answer.
    pub local_scale: f32,
    /// The MCTS player's [`MctsConfig::playout_inferior`]: the playouts leave cells inferior by
    /// their neighbours until last.
    pub playout_inferior: bool,
    /// The MCTS player's [`MctsConfig::patterns`]: the priors' pattern weights read from a file
    /// (`param_hex patterns FILE`), or `None` for the shipped ones.
    pub patterns: Option<PatternsFile>,
    /// The MCTS player's [`MctsConfig::answer_patterns`]: γ added to the priors of the cells
    /// near the last stone, read from a file (`param_hex answer_patterns FILE`), or `None`.
    pub answer_patterns: Option<PatternsFile>,
    /// The MCTS player's [`MctsConfig::playout_weights`]: six-cell playout weights read from a
    /// file (`param_hex playout_weights FILE`) in place of the shipped ones, or `None`.
    pub playout_weights: Option<PatternsFile>,
    /// The MCTS player's [`MctsConfig::answer_factors`]: the playouts' answer factors, read
    /// from a file (`param_hex answer_factors FILE`), or `None`.
    pub answer_factors: Option<PatternsFile>,
    /// The MCTS player's [`MctsConfig::playout_table`]: the playouts' global twelve-cell
    /// weights, read from a file (`param_hex playout_table FILE`), or `None`.
    pub playout_table: Option<PatternsFile>,
    /// The MCTS player's [`MctsConfig::playout_answers`]: the playouts' answer weights of the
    /// twelve-cell patterns, read from a file (`param_hex playout_answers FILE`), or `None`.
    pub playout_answers: Option<PatternsFile>,
    /// The MCTS player's [`MctsConfig::exploration_in_mean`]: the exploration term inside
    /// RAVE's mix.
    pub exploration_in_mean: bool,
    /// The MCTS player's [`MctsConfig::plain_every`]: one selection step in this many without
    /// RAVE; 0: never.
    pub plain_every: u32,
    /// The MCTS player's [`MctsConfig::first_play_urgency`]: the value of children without
    /// statistics; `None`: tried first.
    pub first_play_urgency: Option<f64>,
    /// The MCTS player's [`MctsConfig::edge_bridges`]: the playouts' bridge replies keep the
    /// bridges from the second row to the player's edge too.
    pub edge_bridges: bool,
    /// The MCTS player's [`MctsConfig::captured_regions`]: the knowledge's solver fills in
    /// captured regions.
    pub captured_regions: bool,
    /// The MCTS player's [`MctsConfig::prove_after`]: the visits after which a node gets a
    /// proof attempt; `None`: no attempts.
    pub prove_after: Option<u32>,
    /// The MCTS player's [`MctsConfig::prove_nodes`].
    pub prove_nodes: u64,
    /// The MCTS player's [`MctsConfig::prove_empty`].
    pub prove_empty: u32,
    /// The MCTS player's [`MctsConfig::prove_share`].
    pub prove_share: f64,
    /// The MCTS player's [`MctsConfig::eval_mix`].
    pub eval_mix: f64,
    /// The MCTS player's [`MctsConfig::eval_scale`].
    pub eval_scale: f64,
    /// The MCTS player's [`MctsConfig::widening`].
    pub widening: Option<Widening>,
    /// The MCTS player's [`MctsConfig::net`]: the convolutional policy of the priors of the
    /// nodes reached often, read from a file (`param_hex net FILE`), or `None` (`param_hex net
    /// off`).
    pub net: Option<NetFile>,
    /// The MCTS player's [`MctsConfig::net_after`] (`param_hex net_after N`).
    pub net_after: u32,
    /// The MCTS player's [`MctsConfig::net_values`] (`param_hex net_values N`).
    pub net_values: u32,
    /// The MCTS player's [`MctsConfig::verify`]: the share of a move kept to check the
    /// search's most visited moves with the solver; `None`: no check.
    pub verify: Option<f64>,
    /// The MCTS player's [`MctsConfig::verify_moves`]: how many moves the check takes at most.
    pub verify_moves: u32,
}

/// Prior pattern weights read by `param_hex patterns FILE`, and the file's name as given.
///
/// The weights stay in memory for the rest of the process, so that [`Settings`] can hold a
/// reference and stay `Copy`: each `param_hex patterns` with a file reads it again and keeps one
/// more table (under a megabyte for a file like the shipped one); an engine loads a handful.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternsFile {
    /// The file, as the command named it.
    pub path: &'static str,
    /// Its weights.
    pub weights: &'static PatternWeights,
}

/// A convolutional policy file ([`PolicyNet::read`]) loaded for [`Settings::net`], kept for
/// the rest of the process as [`PatternsFile`] keeps its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetFile {
    /// The file, as the command named it.
    pub path: &'static str,
    /// Its network.
    pub net: &'static PolicyNet,
}

impl NetFile {
    /// Reads `path` and keeps it for the rest of the process.
    ///
    /// # Errors
    /// The file cannot be read or is not a network file.
    ///
    /// # Examples
    ///
    /// ```
    /// use hex::gtp::NetFile;
    ///
    /// let path = std::env::temp_dir().join("hex-gtp-doc-not-a-net.txt");
    /// std::fs::write(&path, "hex-patterns 1\n").unwrap();
    /// assert!(NetFile::load(path.to_str().unwrap()).is_err());
    /// ```
    pub fn load(path: &str) -> Result<NetFile, NetError> {
        let net = PolicyNet::read(std::path::Path::new(path))?;
        Ok(NetFile { path: Box::leak(path.into()), net: Box::leak(Box::new(net)) })
    }
}

impl PatternsFile {
    /// Reads `path` ([`PatternWeights::read`]) and keeps it for the rest of the process.
    ///
    /// # Errors
    /// The file cannot be read or is not a weights file.
    ///
    /// ```
    /// use hex::gtp::{Engine, PatternsFile};
    ///
    /// let path = std::env::temp_dir().join(format!("hex-patterns-file-doc-{}.txt", std::process::id()));
    /// std::fs::write(&path, "hex-patterns 1\n00a4 2.5\n").unwrap();
    /// let file = PatternsFile::load(path.to_str().unwrap()).unwrap();
    /// assert_eq!(file.weights.gamma(0xa4), 2.5);
    /// // What `param_hex patterns FILE` does, in an engine:
    /// let mut engine = Engine::default();
    /// let answer = engine.handle(&format!("param_hex patterns {}", path.display())).unwrap();
    /// assert!(answer.starts_with('='), "{answer}");
    /// std::fs::remove_file(&path).unwrap();
    /// assert!(PatternsFile::load(path.to_str().unwrap()).is_err());
    /// ```
    pub fn load(path: &str) -> Result<PatternsFile, PatternFileError> {
        let weights = PatternWeights::read(std::path::Path::new(path))?;
        Ok(PatternsFile { path: Box::leak(path.into()), weights: Box::leak(Box::new(weights)) })
    }
}

/// A weights file for the playouts (six-cell or twelve-cell), which keep every cell's pattern
/// in [`PatternCode::Stones`] as the board fills: a file in another code is refused.
fn load_stones(name: &str, path: &str) -> Result<PatternsFile, String> {
    let file = PatternsFile::load(path).map_err(|e| e.to_string())?;
    match file.weights.code() {
        PatternCode::Stones => Ok(file),
        code => Err(format!(
            "{name}: {path} holds patterns in the {code:?} code; the playouts read the Stones code (header \"hex-patterns 1\")"
        )),
    }
}

impl Settings {
    /// The MCTS player's configuration these settings describe: what `genmove` plays with when
    /// [`Settings::player`] is [`PlayerKind::Mcts`], [`Settings::time`] per move. A tool that
    /// wants the engine's player on another budget replaces the budget and keeps the rest.
    ///
    /// # Examples
    ///
    /// ```
    /// use hex::gtp::{DEFAULT_KNOWLEDGE, Settings};
    /// use hex::mcts::MctsConfig;
    ///
    /// let config = Settings::default().mcts_config();
    /// assert_eq!(config.knowledge_after, Some(DEFAULT_KNOWLEDGE));
    /// // The same player on a fixed number of iterations, for reproducible analyses.
    /// let fixed = MctsConfig { time: None, iterations: Some(5_000), ..config };
    /// assert_eq!(fixed.iterations, Some(5_000));
    /// ```
    pub fn mcts_config(&self) -> MctsConfig {
        MctsConfig {
            seed: self.seed,
            knowledge_after: self.knowledge,
            solver_share: self.solver,
            solver_empty: self.solver_empty,
            prior_weight: self.priors,
            exploration: self.exploration,
            rave: self.rave,
            rave_prior: self.rave_prior,
            rave_weight: self.rave_weight,
            expand_after: self.expand,
            vc_answers: self.vc_answers,
            reuse_tree: self.reuse,
            playout_patterns: self.playout_patterns,
            threads: self.threads,
            solver_beside_empty: self.solver_beside,
            fill_in: self.fill_in,
            inferior_on_expand: self.inferior,
            dominated_on_expand: self.dominated,
            fresh_by_prior: self.fresh_by_prior,
            exploration_in_mean: self.exploration_in_mean,
            plain_every: self.plain_every,
            first_play_urgency: self.first_play_urgency,
            edge_bridges: self.edge_bridges,
            captured_regions: self.captured_regions,
            prove_after: self.prove_after,
            prove_nodes: self.prove_nodes,
            prove_empty: self.prove_empty,
            prove_share: self.prove_share,
            eval_mix: self.eval_mix,
            eval_scale: self.eval_scale,
            widening: self.widening,
            verify: self.verify,
            verify_moves: self.verify_moves,
            local_priors: self.local_priors,
            local_playouts: self.local_playouts,
            local_scale: self.local_scale,
            playout_inferior: self.playout_inferior,
            patterns: self.patterns.map(|p| p.weights),
            answer_patterns: self.answer_patterns.map(|p| p.weights),
            net: self.net.map(|n| n.net),
            net_after: self.net_after,
            net_values: self.net_values,
            playout_weights: self.playout_weights.map(|p| p.weights),
            answer_factors: self.answer_factors.map(|p| p.weights),
            playout_table: self.playout_table.map(|p| p.weights),
            playout_answers: self.playout_answers.map(|p| p.weights),
            ..MctsConfig::time(self.time)
        }
    }
}

impl Default for Settings {
    /// The shipped engine, [`MctsConfig::engine`]: the MCTS player with 0.5 s per move, the
    /// solver's knowledge after [`DEFAULT_KNOWLEDGE`] visits, the solver first for
    /// [`DEFAULT_SOLVER`] of a move near the end and pattern priors of weight [`DEFAULT_PRIORS`]
    /// that answer the opponent's last stone ([`DEFAULT_LOCAL_PRIORS`]); depth 3 and the
    /// engine's seed, 1, for the other players.
    fn default() -> Self {
        // Every MCTS setting is the shipped engine's: it is defined once, there.
        let engine = MctsConfig::engine();
        Settings {
            player: PlayerKind::Mcts,
            time: engine.time.unwrap_or(DEFAULT_TIME),
            depth: 3,
            seed: engine.seed,
            knowledge: engine.knowledge_after,
            solver: engine.solver_share,
            solver_empty: engine.solver_empty,
            priors: engine.prior_weight,
            exploration: engine.exploration,
            rave: engine.rave,
            rave_prior: engine.rave_prior,
            rave_weight: engine.rave_weight,
            expand: engine.expand_after,
            vc_answers: engine.vc_answers,
            reuse: engine.reuse_tree,
            playout_patterns: engine.playout_patterns,
            threads: engine.threads,
            solver_beside: engine.solver_beside_empty,
            fill_in: engine.fill_in,
            inferior: engine.inferior_on_expand,
            dominated: engine.dominated_on_expand,
            fresh_by_prior: engine.fresh_by_prior,
            local_priors: engine.local_priors,
            local_playouts: engine.local_playouts,
            local_scale: engine.local_scale,
            playout_inferior: engine.playout_inferior,
            patterns: None,
            answer_patterns: None,
            net: None,
            net_after: engine.net_after,
            net_values: engine.net_values,
            playout_weights: None,
            answer_factors: None,
            playout_table: None,
            playout_answers: None,
            exploration_in_mean: engine.exploration_in_mean,
            plain_every: engine.plain_every,
            first_play_urgency: engine.first_play_urgency,
            edge_bridges: engine.edge_bridges,
            captured_regions: engine.captured_regions,
            prove_after: engine.prove_after,
            prove_nodes: engine.prove_nodes,
            prove_empty: engine.prove_empty,
            prove_share: engine.prove_share,
            eval_mix: engine.eval_mix,
            eval_scale: engine.eval_scale,
            widening: engine.widening,
            verify: engine.verify,
            verify_moves: engine.verify_moves,
        }
    }
}

// The shipped engine's settings are the MCTS player's ([`MctsConfig::engine`]); their names
// stay here too, where the GTP engine's other defaults are.
pub use crate::mcts::{
    DEFAULT_KNOWLEDGE, DEFAULT_LOCAL_PRIORS, DEFAULT_PRIORS, DEFAULT_SOLVER, DEFAULT_TIME,
};

/// The names `param_hex` sets.
const PARAMETERS: [&str; 49] = [
    "player",
    "time",
    "depth",
    "seed",
    "knowledge",
    "solver",
    "solver_empty",
    "priors",
    "exploration",
    "rave",
    "reuse",
    "playout_patterns",
    "threads",
    "solver_beside",
    "fill_in",
    "inferior",
    "dominated",
    "fresh_by_prior",
    "local_priors",
    "local_playouts",
    "local_scale",
    "playout_inferior",
    "playout_weights",
    "answer_factors",
    "playout_table",
    "playout_answers",
    "rave_prior",
    "rave_counts",
    "expand",
    "vc_answers",
    "patterns",
    "answer_patterns",
    "exploration_in_mean",
    "plain_every",
    "first_play_urgency",
    "edge_bridges",
    "verify",
    "verify_moves",
    "captured_regions",
    "prove_after",
    "prove_nodes",
    "prove_empty",
    "prove_share",
    "eval_mix",
    "eval_scale",
    "widening",
    "net",
    "net_after",
    "net_values",
];

/// The least time per move the clock cuts a search to (see `time_left`).
pub const MIN_MOVE_TIME: Duration = Duration::from_millis(20);

/// The longest time per move `param_hex time` accepts, in seconds.
pub const MAX_TIME_SECONDS: f64 = 3600.0;

/// The largest search depth `param_hex depth` accepts.
pub const MAX_DEPTH: u32 = 64;

/// Builds the player `genmove` asks from the settings.
pub type PlayerFactory = fn(&Settings) -> Box<dyn HexPlayer>;

/// The crate's players, as [`Settings::player`] names them. The MCTS and strong players search
/// for [`Settings::time`] per move ([`MctsConfig::time`], [`StrongConfig::time`]; MCTS draws its
/// playouts from [`Settings::seed`]); the seed players search
/// [`Settings::depth`] moves deep in their documents' move order ([`SearchConfig::depth`]); the
/// random player draws from [`Settings::seed`].
pub fn default_player(settings: &Settings) -> Box<dyn HexPlayer> {
    let search = SearchConfig::depth(settings.depth);
    match settings.player {
        PlayerKind::Mcts => Box::new(MctsPlayer::new(settings.mcts_config())),
        PlayerKind::Strong => Box::new(StrongPlayer::new(StrongConfig::time(settings.time))),
        PlayerKind::Random => Box::new(RandomPlayer::new(settings.seed)),
        PlayerKind::Madeup => Box::new(MadeupPlayer::new(MadeupConfig { search, ..MadeupConfig::default() })),
        PlayerKind::Coolcow => Box::new(CoolcowPlayer::new(search)),
        PlayerKind::Bridges => {
            Box::new(BridgesPlayer::new(BridgesConfig { search, ..BridgesConfig::default() }))
        }
    }
}

/// One move of the game: the position before it, who played it, and what.
#[derive(Clone, Copy, Debug)]
struct Played {
    before: Position,
    color: Color,
    mv: HexMove,
}

/// What `swap-pieces` does to the board (`param_game swap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SwapConvention {
    /// The first stone stays where it is, still black, and White moves next: the players trade
    /// colours instead. This is what Benzene (MoHex, Wolve) and its tournament driver do: after
    /// `play w swap-pieces` the driver asks the program that placed the black stone
    /// `genmove w`. The default.
    #[default]
    Keep,
    /// The first stone is mirrored in the long diagonal and turns white, and Black moves next:
    /// the players keep their colours ([`Position::play`]'s swap, as OpenSpiel plays it).
    Mirror,
}

impl SwapConvention {
    /// The name `param_game swap` takes and prints.
    pub fn name(self) -> &'static str {
        match self {
            SwapConvention::Keep => "keep",
            SwapConvention::Mirror => "mirror",
        }
    }
}

/// Benzene's default game time, in seconds per side (`param_game game_time`).
pub const DEFAULT_GAME_TIME: f64 = 1800.0;

/// A failed command: the text after `? `.
type Failure = String;

/// The GTP engine: the game in progress with its history, the settings, and the player.
///
/// See the [module docs](self) for the commands.
pub struct Engine {
    position: Position,
    history: Vec<Played>,
    /// The colour that resigned the game in progress, if one did: always the last event of the
    /// game, so `undo` takes it back first.
    resigned: Option<Color>,
    allow_swap: bool,
    swap: SwapConvention,
    /// Seconds per side at the start of a game (`param_game game_time`).
    game_time: f64,
    /// Seconds left on each side's clock (Black first): `genmove` spends them, `time_left`
    /// reads and sets them.
    clock: [f64; 2],
    settings: Settings,
    factory: PlayerFactory,
    /// Built from `settings` when first needed; dropped when they change.
    player: Option<Box<dyn HexPlayer>>,
    /// The settings `player` was built with (the time per move may be cut by the clock).
    player_settings: Settings,
    /// What `solve-state` and `find-winning` run with (`param_solver`).
    solver: SolverConfig,
    quit: bool,
}

impl Default for Engine {
    /// An engine on an empty 11×11 board, swap off, with the crate's players.
    fn default() -> Self {
        Engine::new(default_player)
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("position", &self.position)
            .field("moves", &self.history.len())
            .field("resigned", &self.resigned)
            .field("allow_swap", &self.allow_swap)
            .field("swap", &self.swap)
            .field("clock", &self.clock)
            .field("settings", &self.settings)
            .field("solver", &self.solver)
            .field("quit", &self.quit)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine on an empty 11×11 board, swap off, whose players `factory` builds.
    pub fn new(factory: PlayerFactory) -> Self {
        Engine {
            position: Position::new(u32::from(DEFAULT_SIZE)).expect("the default size is valid"),
            history: Vec::new(),
            resigned: None,
            allow_swap: false,
            swap: SwapConvention::Keep,
            game_time: DEFAULT_GAME_TIME,
            clock: [DEFAULT_GAME_TIME; 2],
            settings: Settings::default(),
            factory,
            player: None,
            player_settings: Settings::default(),
            solver: SOLVER_CONFIG,
            quit: false,
        }
    }

    /// The game in progress.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves of the game in progress, with the colour that played each.
    pub fn moves(&self) -> impl Iterator<Item = (Color, HexMove)> + '_ {
        self.history.iter().map(|p| (p.color, p.mv))
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings of `solve-state` and `find-winning`: [`SOLVER_CONFIG`] with the time limit
    /// and table size `param_solver` set.
    pub fn solver_config(&self) -> &SolverConfig {
        &self.solver
    }

    /// Whether the swap rule is on.
    pub fn allow_swap(&self) -> bool {
        self.allow_swap
    }

    /// What `swap-pieces` does to the board.
    pub fn swap_convention(&self) -> SwapConvention {
        self.swap
    }

    /// The colour that resigned the game in progress (`play c resign`), if one did.
    pub fn resigned(&self) -> Option<Color> {
        self.resigned
    }

    /// The winner of the game in progress: the side that connected, else the opponent of a side
    /// that resigned.
    pub fn winner(&self) -> Option<Color> {
        self.position.winner().or(self.resigned.map(Color::opponent))
    }

    /// Seconds left on `color`'s clock (`time_left`).
    pub fn time_left(&self, color: Color) -> f64 {
        self.clock[usize::from(color.index())]
    }

    /// Whether `quit` has been received.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Answers one command line: the full response, framing and final empty line included.
    ///
    /// A line without a command (empty, or only a comment) gives `Some("")`: nothing to send.
    /// After `quit` has been answered, every line gives `None`.
    pub fn handle(&mut self, line: &str) -> Option<String> {
        if self.quit {
            return None;
        }
        let cleaned = clean(line);
        let mut words = cleaned.split_whitespace();
        let first = match words.next() {
            Some(word) => word,
            None => return Some(String::new()),
        };
        let (id, command) =
            if first.bytes().all(|b| b.is_ascii_digit()) { (first, words.next()) } else { ("", Some(first)) };
        let args: Vec<&str> = words.collect();
        let result = match command {
            Some(command) => self.run(command, &args),
            None => Err("missing command after the id".to_string()),
        };
        Some(frame(id, result))
    }

    fn run(&mut self, command: &str, args: &[&str]) -> Result<String, Failure> {
        match TABLE.iter().find(|(name, _)| *name == command) {
            Some((_, handler)) => handler(self, args),
            None => Err(format!("unknown command: {command}")),
        }
    }

    fn all_legal_moves(&self, args: &[&str]) -> Result<String, Failure> {
        if args.len() > 1 {
            return Err("expected at most one argument, a colour".to_string());
        }
        if let Some(color) = args.first() {
            parse_color(color)?;
        }
        let moves: Vec<String> = self.position.legal_moves().into_iter().map(move_name).collect();
        Ok(moves.join(" "))
    }

    fn new_game(&mut self, size: u8) {
        self.position =
            Position::with_swap(u32::from(size), self.allow_swap).expect("sizes are checked before");
        self.history.clear();
        self.resigned = None;
        self.clock = [self.game_time; 2];
    }

    fn boardsize(&mut self, args: &[&str]) -> Result<String, Failure> {
        let (width, height) = match *args {
            [w] => (w, w),
            [w, h] => (w, h),
            _ => return Err("expected boardsize W [H]".to_string()),
        };
        let parse = |text: &str| -> Result<u32, Failure> {
            text.parse().map_err(|_| format!("board size is not a number: {text}"))
        };
        let (width, height) = (parse(width)?, parse(height)?);
        if width != height {
            return Err(format!("unacceptable size: {width}x{height} (only square boards are supported)"));
        }
        if !(1..=u32::from(MAX_SIZE)).contains(&width) {
            return Err(format!("unacceptable size: {width} (sizes are 1 to {MAX_SIZE})"));
        }
        self.new_game(width as u8);
        Ok(String::new())
    }

    fn play(&mut self, color: Color, text: &str) -> Result<String, Failure> {
        if let Some(resigned) = self.resigned {
            return Err(format!("illegal move: {color} {text} (the game is over: {resigned} resigned)"));
        }
        if text.eq_ignore_ascii_case("resign") {
            // Benzene's tournament driver relays every answer of `genmove`, the resignation
            // too, and gives up the game if the other program refuses it; the loser may also
            // resign a game that is already connected.
            self.resigned = Some(color);
            return Ok(String::new());
        }
        let mv = parse_move(text, self.position.size()).map_err(|error| {
            let reason = match error {
                NotationError::OffBoard { .. } => "off the board",
                _ => "not a cell or swap-pieces",
            };
            format!("illegal move: {color} {text} ({reason})")
        })?;
        if mv == HexMove::Swap && !self.allow_swap {
            return Err(format!(
                "illegal move: {color} swap-pieces (the swap rule is off: param_game allow_swap 1 turns it on)"
            ));
        }
        let next = play_as(&self.position, color, mv, self.swap)
            .map_err(|reason| format!("illegal move: {color} {} ({reason})", move_name(mv)))?;
        self.history.push(Played { before: self.position, color, mv });
        self.position = next;
        Ok(String::new())
    }

    fn genmove(&mut self, color: Color, play: bool) -> Result<String, Failure> {
        if self.winner().is_some() {
            return Ok("resign".to_string());
        }
        let started = Instant::now();
        // The player chooses for the side to move, so a colour out of turn is asked as if it
        // were its turn.
        let view = if color == self.position.to_move() {
            self.position
        } else {
            Position::from_board(*self.position.board(), color)
        };
        let factory = self.factory;
        let settings = Settings { time: self.move_time(color), ..self.settings };
        if settings != self.player_settings {
            // A clock running low changes only the time: the player keeps its tree or table
            // when it can take the new limit.
            let only_time = Settings { time: settings.time, ..self.player_settings } == settings;
            let kept = only_time && self.player.as_mut().is_some_and(|p| p.set_time_limit(settings.time));
            if !kept {
                self.player = None;
            }
        }
        self.player_settings = settings;
        let player = self.player.get_or_insert_with(|| factory(&settings));
        let chosen = panic::catch_unwind(AssertUnwindSafe(|| player.choose_move(&view)));
        let mv = match chosen {
            Ok(mv) => mv,
            Err(_) => {
                // Start afresh next time: the player may be in a broken state.
                self.player = None;
                return Err(format!("the {} player failed to choose a move", settings.player));
            }
        };
        let next = play_as(&self.position, color, mv, self.swap).map_err(|reason| {
            format!("the {} player chose an illegal move: {} ({reason})", settings.player, move_name(mv))
        })?;
        if play {
            self.history.push(Played { before: self.position, color, mv });
            self.position = next;
            // As Benzene: only a played `genmove` runs the mover's clock.
            let clock = &mut self.clock[usize::from(color.index())];
            *clock = (*clock - started.elapsed().as_secs_f64()).max(0.0);
        }
        Ok(move_name(mv))
    }

    /// The search time of `color`'s next move: [`Settings::time`], cut so that the clock lasts
    /// the rest of the game when it runs low. The mover is taken to need one move for every two
    /// empty cells (a full board; games end sooner), and a tenth of the clock is kept back for
    /// the time that is not search. Players that do not search on a clock keep their time.
    fn move_time(&self, color: Color) -> Duration {
        if !matches!(self.settings.player, PlayerKind::Mcts | PlayerKind::Strong) {
            return self.settings.time;
        }
        let empty = self.position.legal_moves().len().max(1);
        let moves_left = empty.div_ceil(2) as f64;
        let share = 0.9 * self.time_left(color) / moves_left;
        // A whole millisecond, so that the same clocks give the same player settings.
        let share = Duration::from_millis((share * 1000.0) as u64).max(MIN_MOVE_TIME);
        self.settings.time.min(share)
    }

    /// `time_left`: both clocks, one colour's, or sets one colour's (Benzene's forms; GTP's
    /// `time_left COLOUR SECONDS STONES` is taken too, the stones ignored).
    fn time_left_command(&mut self, args: &[&str]) -> Result<String, Failure> {
        let seconds = |text: &str| -> Result<f64, Failure> {
            text.parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("time must be a number of seconds, 0 or more, not {text}"))
        };
        match *args {
            [] => Ok(format!("Black: {}, White: {}", self.clock[0], self.clock[1])),
            [color] => Ok(self.time_left(parse_color(color)?).to_string()),
            [color, time] | [color, time, _] => {
                let color = parse_color(color)?;
                if let [_, _, stones] = *args {
                    stones.parse::<u32>().map_err(|_| format!("stones must be a count, not {stones}"))?;
                }
                self.clock[usize::from(color.index())] = seconds(time)?;
                Ok(String::new())
            }
            _ => Err("expected time_left [COLOUR [SECONDS [STONES]]]".to_string()),
        }
    }

    fn param_hex(&mut self, args: &[&str]) -> Result<String, Failure> {
        let mut settings = self.settings;
        match *args {
            [] => {
                let s = &self.settings;
                return Ok(format!(
                    "[string] player {}\n[string] time {}\n[string] depth {}\n[string] seed {}\n[string] knowledge {}\n[string] solver {}\n[string] solver_empty {}\n[string] priors {}\n[string] exploration {}\n[string] rave {}\n[bool] reuse {}\n[bool] playout_patterns {}\n[string] threads {}\n[string] solver_beside {}\n[bool] fill_in {}\n[bool] inferior {}\n[bool] dominated {}\n[bool] fresh_by_prior {}\n[bool] local_priors {}\n[bool] local_playouts {}\n[string] local_scale {}\n[bool] playout_inferior {}\n[string] playout_weights {}\n[string] answer_factors {}\n[string] playout_table {}\n[string] playout_answers {}\n[string] rave_prior {}\n[string] rave_counts {}\n[string] expand {}\n[string] vc_answers {}\n[string] patterns {}\n[string] answer_patterns {}\n[bool] exploration_in_mean {}\n[string] plain_every {}\n[string] first_play_urgency {}\n[bool] edge_bridges {}\n[string] verify {}\n[string] verify_moves {}\n[bool] captured_regions {}\n[string] prove_after {}\n[string] prove_nodes {}\n[string] prove_empty {}\n[string] prove_share {}\n[string] eval_mix {}\n[string] eval_scale {}\n[string] widening {}\n[string] net {}\n[string] net_after {}\n[string] net_values {}",
                    s.player,
                    s.time.as_secs_f64(),
                    s.depth,
                    s.seed,
                    s.knowledge.map_or("off".to_string(), |n| n.to_string()),
                    s.solver.map_or("off".to_string(), |share| share.to_string()),
                    s.solver_empty,
                    s.priors.map_or("off".to_string(), |weight| weight.to_string()),
                    s.exploration,
                    s.rave.map_or("off".to_string(), |k| k.to_string()),
                    u8::from(s.reuse),
                    u8::from(s.playout_patterns),
                    s.threads,
                    s.solver_beside,
                    u8::from(s.fill_in),
                    u8::from(s.inferior),
                    u8::from(s.dominated),
                    u8::from(s.fresh_by_prior),
                    u8::from(s.local_priors),
                    u8::from(s.local_playouts),
                    s.local_scale,
                    u8::from(s.playout_inferior),
                    s.playout_weights.map_or("off", |p| p.path),
                    s.answer_factors.map_or("off", |p| p.path),
                    s.playout_table.map_or("off", |p| p.path),
                    s.playout_answers.map_or("off", |p| p.path),
                    s.rave_prior,
                    match s.rave_weight {
                        RaveWeight::Equivalence => "off".to_string(),
                        RaveWeight::Counts { initial, late } => format!("{initial},{late}"),
                    },
                    s.expand,
                    s.vc_answers.map_or("off".to_string(), |w| w.to_string()),
                    s.patterns.map_or("shipped", |p| p.path),
                    s.answer_patterns.map_or("off", |p| p.path),
                    u8::from(s.exploration_in_mean),
                    s.plain_every,
                    s.first_play_urgency.map_or("off".to_string(), |v| v.to_string()),
                    u8::from(s.edge_bridges),
                    s.verify.map_or("off".to_string(), |v| v.to_string()),
                    s.verify_moves,
                    u8::from(s.captured_regions),
                    s.prove_after.map_or("off".to_string(), |v| v.to_string()),
                    s.prove_nodes,
                    s.prove_empty,
                    s.prove_share,
                    s.eval_mix,
                    s.eval_scale,
                    s.widening
                        .map_or("off".to_string(), |w| format!("{},{},{}", w.start, w.visits, w.factor)),
                    s.net.map_or("off", |n| n.path),
                    s.net_after,
                    s.net_values
                ));
            }
            ["player", name] => {
                settings.player = PlayerKind::from_name(name).ok_or_else(|| {
                    let names: Vec<&str> = PlayerKind::ALL.iter().map(|k| k.name()).collect();
                    format!("unknown player: {name} (players: {})", names.join(", "))
                })?;
            }
            ["time", value] => {
                settings.time = value
                    .parse::<f64>()
                    .ok()
                    .filter(|t| *t > 0.0 && *t <= MAX_TIME_SECONDS)
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| {
                        format!("time must be a number of seconds above 0 and at most {MAX_TIME_SECONDS}, not {value}")
                    })?;
            }
            ["depth", value] => {
                settings.depth = parse_number("depth", value, 1..=MAX_DEPTH)?;
            }
            ["seed", value] => {
                settings.seed = value
                    .parse()
                    .map_err(|_| format!("seed must be a number from 0 to 2^64 - 1, not {value}"))?;
            }
            ["knowledge", value] => {
                settings.knowledge = match value {
                    "off" | "none" => None,
                    _ => Some(value.parse().map_err(|_| {
                        format!("knowledge must be off or a number of visits from 0 to 2^32 - 1, not {value}")
                    })?),
                };
            }
            ["solver", value] => {
                settings.solver = match value {
                    "off" | "none" => None,
                    _ => Some(value.parse().ok().filter(|share| (0.0..=1.0).contains(share)).ok_or_else(
                        || {
                            format!(
                                "solver must be off or a share of the move's time from 0 to 1, not {value}"
                            )
                        },
                    )?),
                };
            }
            ["solver_empty", value] => {
                settings.solver_empty = parse_empty_cells("solver_empty", value)?;
            }
            ["priors", value] => {
                settings.priors =
                    match value {
                        "off" | "none" => None,
                        _ => {
                            Some(value.parse().ok().filter(|w: &f64| w.is_finite() && *w > 0.0).ok_or_else(
                                || format!("priors must be off or a weight above 0, not {value}"),
                            )?)
                        }
                    };
            }
            ["exploration", value] => {
                settings.exploration = value
                    .parse()
                    .ok()
                    .filter(|c: &f64| c.is_finite() && *c >= 0.0)
                    .ok_or_else(|| format!("exploration must be a number from 0 up, not {value}"))?;
            }
            ["rave", value] => {
                settings.rave = match value {
                    "off" | "none" => None,
                    _ => Some(value.parse().ok().filter(|k: &f64| k.is_finite() && *k > 0.0).ok_or_else(
                        || format!("rave must be off or an equivalence parameter above 0, not {value}"),
                    )?),
                };
            }
            ["rave_prior", value] => {
                settings.rave_prior = parse_number("rave_prior", value, 0..=1_000_000)?;
            }
            ["rave_counts", value] => settings.rave_weight = parse_rave_counts(value)?,
            ["expand", value] => settings.expand = parse_number("expand", value, 0..=1_000_000)?,
            ["vc_answers", value] => {
                settings.vc_answers = match value {
                    "off" | "none" => None,
                    _ => {
                        Some(value.parse().ok().filter(|w: &f32| w.is_finite() && *w > 0.0).ok_or_else(
                            || format!("vc_answers must be off or a weight above 0, not {value}"),
                        )?)
                    }
                };
            }
            ["reuse", value] => settings.reuse = parse_switch("reuse", value)?,
            ["fill_in", value] => settings.fill_in = parse_switch("fill_in", value)?,
            ["inferior", value] => settings.inferior = parse_switch("inferior", value)?,
            ["dominated", value] => settings.dominated = parse_switch("dominated", value)?,
            ["fresh_by_prior", value] => settings.fresh_by_prior = parse_switch("fresh_by_prior", value)?,
            ["exploration_in_mean", value] => {
                settings.exploration_in_mean = parse_switch("exploration_in_mean", value)?
            }
            ["edge_bridges", value] => settings.edge_bridges = parse_switch("edge_bridges", value)?,
            ["captured_regions", value] => {
                settings.captured_regions = parse_switch("captured_regions", value)?;
            }
            ["prove_after", value] => {
                let visits = |v: f64| (1.0..=f64::from(u32::MAX)).contains(&v) && v.fract() == 0.0;
                settings.prove_after =
                    parse_off_or("prove_after", value, "a number of visits from 1 to 2^32 - 1", visits)?
                        .map(|v| v as u32);
            }
            ["prove_nodes", value] => {
                settings.prove_nodes = parse_number("prove_nodes", value, 1..=1_000_000_000)?
            }
            ["prove_empty", value] => settings.prove_empty = parse_number("prove_empty", value, 0..=361)?,
            ["prove_share", value] => settings.prove_share = parse_number("prove_share", value, 0.0..=1.0)?,
            ["eval_mix", value] => settings.eval_mix = parse_number("eval_mix", value, 0.0..=1.0)?,
            ["widening", value] => settings.widening = parse_widening(value)?,
            ["eval_scale", value] => settings.eval_scale = parse_number("eval_scale", value, 0.0..=100.0)?,
            ["verify", value] => {
                settings.verify =
                    parse_off_or("verify", value, "a share above 0 and below 1", |v| v > 0.0 && v < 1.0)?;
            }
            ["verify_moves", value] => settings.verify_moves = parse_number("verify_moves", value, 1..=361)?,
            ["plain_every", value] => {
                settings.plain_every = parse_number("plain_every", value, 0..=1_000_000)?;
            }
            ["first_play_urgency", value] => {
                settings.first_play_urgency =
                    parse_off_or("first_play_urgency", value, "a value from 0 to 1", |v| {
                        (0.0..=1.0).contains(&v)
                    })?;
            }
            ["net_after", value] => settings.net_after = parse_number("net_after", value, 0..=1_000_000_000)?,
            ["net_values", value] => settings.net_values = parse_number("net_values", value, 0..=1_000_000)?,
            ["net", "off"] => settings.net = None,
            ["net", path] => {
                settings.net = Some(NetFile::load(path).map_err(|e| format!("net: {path}: {e}"))?)
            }
            ["patterns", "shipped"] => settings.patterns = None,
            ["patterns", path] => {
                settings.patterns = Some(PatternsFile::load(path).map_err(|e| e.to_string())?)
            }
            ["playout_weights", "off"] => settings.playout_weights = None,
            ["playout_weights", path] => {
                settings.playout_weights = Some(load_stones("playout_weights", path)?)
            }
            ["answer_factors", "off"] => settings.answer_factors = None,
            ["answer_factors", path] => settings.answer_factors = Some(load_stones("answer_factors", path)?),
            ["playout_table", "off"] => settings.playout_table = None,
            ["playout_table", path] => settings.playout_table = Some(load_stones("playout_table", path)?),
            ["playout_answers", "off"] => settings.playout_answers = None,
            ["playout_answers", path] => {
                settings.playout_answers = Some(load_stones("playout_answers", path)?)
            }
            ["answer_patterns", "off"] => settings.answer_patterns = None,
            ["answer_patterns", path] => {
                settings.answer_patterns = Some(PatternsFile::load(path).map_err(|e| e.to_string())?)
            }
            ["local_priors", value] => settings.local_priors = parse_switch("local_priors", value)?,
            ["local_playouts", value] => settings.local_playouts = parse_switch("local_playouts", value)?,
            ["playout_inferior", value] => {
                settings.playout_inferior = parse_switch("playout_inferior", value)?
            }
            ["local_scale", value] => {
                settings.local_scale = parse_number("local_scale", value, 0.0..=10_000.0)?
            }
            ["playout_patterns", value] => {
                settings.playout_patterns = parse_switch("playout_patterns", value)?
            }
            ["solver_beside", value] => {
                settings.solver_beside = parse_empty_cells("solver_beside", value)?;
            }
            ["threads", value] => {
                settings.threads = parse_number("threads", value, 1..=MAX_MCTS_THREADS)?;
            }
            [name, _] if !PARAMETERS.contains(&name) => {
                return Err(format!("unknown parameter: {name} (parameters: {})", PARAMETERS.join(", ")));
            }
            _ => return Err("expected param_hex [NAME VALUE]".to_string()),
        }
        if settings != self.settings {
            self.settings = settings;
            self.player = None;
        }
        Ok(String::new())
    }

    fn param_game(&mut self, args: &[&str]) -> Result<String, Failure> {
        match *args {
            [] => Ok(format!(
                "[bool] allow_swap {}\n[string] swap {}\n[string] game_time {}",
                u8::from(self.allow_swap),
                self.swap.name(),
                self.game_time
            )),
            ["allow_swap", value] => {
                self.set_allow_swap(parse_switch("allow_swap", value)?)?;
                Ok(String::new())
            }
            ["swap", value] => {
                let swap = match value {
                    "keep" => SwapConvention::Keep,
                    "mirror" => SwapConvention::Mirror,
                    _ => return Err(format!("swap must be keep or mirror, not {value}")),
                };
                if swap != self.swap && self.history.iter().any(|played| played.mv == HexMove::Swap) {
                    return Err("cannot change swap in a game that contains a swap".to_string());
                }
                self.swap = swap;
                Ok(String::new())
            }
            ["game_time", value] => {
                // As Benzene: the clocks start with the game.
                if !self.history.is_empty() || self.resigned.is_some() {
                    return Err("cannot set game_time once the game has started".to_string());
                }
                self.game_time =
                    value.parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0).ok_or_else(|| {
                        format!("game_time must be a number of seconds, 0 or more, not {value}")
                    })?;
                self.clock = [self.game_time; 2];
                Ok(String::new())
            }
            [name, _] => Err(format!("unknown parameter: {name} (parameters: allow_swap, swap, game_time)")),
            _ => Err("expected param_game [NAME VALUE]".to_string()),
        }
    }

    fn param_solver(&mut self, args: &[&str]) -> Result<String, Failure> {
        match *args {
            [] => {
                let time = match self.solver.time_limit {
                    Some(limit) => limit.as_secs_f64().to_string(),
                    None => "inf".to_string(),
                };
                Ok(format!(
                    "[string] time {time}\n[string] table_bits {}\n[string] threads {}\n[bool] captured_regions {}",
                    self.solver.table_bits,
                    self.solver.threads,
                    u8::from(self.solver.captured_regions)
                ))
            }
            ["time", value] => {
                self.solver.time_limit = parse_solver_time(value)?;
                Ok(String::new())
            }
            ["table_bits", value] => {
                self.solver.table_bits = value
                    .parse()
                    .ok()
                    .filter(|bits| (1..=MAX_SOLVER_TABLE_BITS).contains(bits))
                    .ok_or_else(|| {
                        format!("table_bits must be a number from 1 to {MAX_SOLVER_TABLE_BITS}, not {value}")
                    })?;
                Ok(String::new())
            }
            ["threads", value] => {
                self.solver.threads = parse_number("threads", value, 1..=MAX_SOLVER_THREADS)?;
                Ok(String::new())
            }
            ["captured_regions", value] => {
                self.solver.captured_regions = match value {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => return Err(format!("captured_regions must be 0 or 1, not {value}")),
                };
                Ok(String::new())
            }
            [name, _] if !["time", "table_bits", "threads", "captured_regions"].contains(&name) => {
                Err(format!(
                    "unknown parameter: {name} (parameters: time, table_bits, threads, captured_regions)"
                ))
            }
            _ => Err("expected param_solver [NAME VALUE]".to_string()),
        }
    }

    /// Turns the swap rule on or off, replaying the game in progress under the new rule.
    fn set_allow_swap(&mut self, allow: bool) -> Result<(), Failure> {
        if allow == self.allow_swap {
            return Ok(());
        }
        let start = Position::with_swap(u32::from(self.position.size()), allow).expect("a valid size");
        let mut replayed = Vec::with_capacity(self.history.len());
        let mut position = start;
        for played in &self.history {
            let next = play_as(&position, played.color, played.mv, self.swap).map_err(|reason| {
                format!(
                    "cannot change allow_swap in this game: {} {} ({reason})",
                    played.color,
                    move_name(played.mv)
                )
            })?;
            replayed.push(Played { before: position, ..*played });
            position = next;
        }
        self.allow_swap = allow;
        self.history = replayed;
        self.position = position;
        Ok(())
    }
}

/// The position after `color` plays `mv`, whether or not it is `color`'s turn; the reason in the
/// words of an `illegal move` answer if the move is refused.
fn play_as(position: &Position, color: Color, mv: HexMove, swap: SwapConvention) -> Result<Position, String> {
    position.check(mv).map_err(reason)?;
    if color == position.to_move() {
        if mv == HexMove::Swap && swap == SwapConvention::Keep {
            // The stone stays black and White, who now owns it, moves: the position has no
            // history left that could allow a second swap.
            return Ok(Position::from_board(*position.board(), Color::White));
        }
        return Ok(position.play_unchecked(mv));
    }
    match mv {
        // The swap is White's answer to the first move; checked above, so White is to move.
        HexMove::Swap => Err("only white may swap, as the second move".to_string()),
        HexMove::Place(cell) => {
            let mut board: Board = *position.board();
            board.set(cell, Some(color));
            Ok(Position::from_board(board, color.opponent()))
        }
    }
}

/// Why `position` refuses a move, in the words of an `illegal move` answer.
fn reason(error: IllegalMove) -> String {
    match error {
        IllegalMove::OffBoard { .. } => "off the board".to_string(),
        IllegalMove::Occupied(_) => "occupied".to_string(),
        IllegalMove::GameOver(winner) => format!("the game is over: {winner} has won"),
        IllegalMove::SwapNotAllowed => "swap is allowed only as the second move".to_string(),
    }
}

/// The line as GTP reads it: control characters other than tab and newline dropped, tabs as
/// spaces, the comment from `#` cut off.
fn clean(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    line.chars().filter(|c| !c.is_control() || *c == '\t').map(|c| if c == '\t' { ' ' } else { c }).collect()
}

/// The response text for a result: `=id text` or `?id message`, then an empty line.
/// Frames a response as GTP has it: `=` or `?`, the command's id if it had one, a space, the
/// text, and the empty line that ends a response. Empty lines inside the text are dropped, since
/// a controller would take one for the end of the response. [`parse_response`] reads it back.
///
/// # Examples
///
/// ```
/// use hex::gtp::{Answer, frame, parse_response};
///
/// let framed = frame("7", Ok("a\n\nb".to_string()));
/// assert_eq!(framed, "=7 a\nb\n\n");
/// assert_eq!(parse_response(framed.trim_end()), Some(Answer::Success("a\nb".to_string())));
/// assert_eq!(frame("", Err("illegal move".to_string())), "? illegal move\n\n");
/// ```
pub fn frame(id: &str, result: Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(text) => ('=', text),
        Err(message) => ('?', message),
    };
    // An empty line ends a response, so none may appear inside one: a controller would stop
    // reading there and take the rest for the answer to its next command.
    let mut lines = text.trim_end().split('\n');
    let mut body = lines.next().unwrap_or("").trim_end().to_string();
    for line in lines.filter(|line| !line.trim().is_empty()) {
        body.push('\n');
        body.push_str(line.trim_end());
    }
    format!("{mark}{id} {body}\n\n")
}

/// A successful or failed GTP response, without its `=`/`?`, id and final empty line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `= text`.
    Success(String),
    /// `? message`.
    Failure(String),
}

/// Reads a GTP response block (its lines up to, not including, the empty line that ends it):
/// `=` or `?`, an optional numeric id, a space, the text. `None` when it is not a response.
///
/// # Examples
///
/// ```
/// use hex::gtp::{Answer, parse_response};
///
/// assert_eq!(parse_response("=12 c3"), Some(Answer::Success("c3".to_string())));
/// assert_eq!(parse_response("? illegal move"), Some(Answer::Failure("illegal move".to_string())));
/// assert_eq!(parse_response("c3"), None);
/// ```
pub fn parse_response(block: &str) -> Option<Answer> {
    let (success, rest) = match block.as_bytes().first() {
        Some(b'=') => (true, &block[1..]),
        Some(b'?') => (false, &block[1..]),
        _ => return None,
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    // After the id comes a space, or the end of an empty answer.
    if !(rest.is_empty() || rest.starts_with([' ', '\t', '\n'])) {
        return None;
    }
    let text = rest.trim().to_string();
    Some(if success { Answer::Success(text) } else { Answer::Failure(text) })
}

fn no_args(args: &[&str]) -> Result<(), Failure> {
    match args {
        [] => Ok(()),
        _ => Err("this command takes no arguments".to_string()),
    }
}

/// Exactly `N` arguments.
fn exact<'a, const N: usize>(args: &[&'a str]) -> Result<[&'a str; N], Failure> {
    <[&str; N]>::try_from(args).map_err(|_| match N {
        1 => "expected one argument".to_string(),
        _ => format!("expected {N} arguments"),
    })
}

/// The default solver settings of `solve-state` and `find-winning`: a table of 2^18 entries
/// (20 MiB), and at most ten seconds a command before answering `? unknown`; `param_solver`
/// changes the time and the table.
pub const SOLVER_CONFIG: SolverConfig = SolverConfig {
    table_bits: 18,
    max_nodes: None,
    time_limit: Some(Duration::from_secs(10)),
    semi_connections: true,
    h_search: true,
    threads: 1,
    captured_regions: true,
};

/// The most threads `param_solver threads` accepts.
pub const MAX_SOLVER_THREADS: usize = 64;

/// The most threads `param_hex threads` accepts for the MCTS player.
pub const MAX_MCTS_THREADS: usize = 64;

/// The largest table `param_solver table_bits` accepts: 2^26 entries of 80 bytes, 5 GiB.
pub const MAX_SOLVER_TABLE_BITS: u32 = 26;

/// `param_solver time`'s value: `0`, `inf`, `infinity` or `none` for no limit, otherwise a
/// positive number of seconds.
fn parse_solver_time(value: &str) -> Result<Option<Duration>, Failure> {
    if ["inf", "infinity", "none"].iter().any(|word| value.eq_ignore_ascii_case(word)) {
        return Ok(None);
    }
    match value.parse::<f64>() {
        Ok(0.0) => Ok(None),
        Ok(seconds) if seconds > 0.0 && seconds <= 1e9 => Ok(Some(Duration::from_secs_f64(seconds))),
        _ => Err(format!(
            "time must be a number of seconds from 0 to 1e9 (0, inf or none: no limit), not {value}"
        )),
    }
}

/// The position the solver commands look at: the game's, or its stones with `args[0]` to move.
fn solver_position(position: &Position, args: &[&str]) -> Result<Position, Failure> {
    match args {
        [] => Ok(*position),
        [color] => {
            let color = parse_color(color)?;
            Ok(if color == position.to_move() {
                *position
            } else {
                Position::from_board(*position.board(), color)
            })
        }
        _ => Err("expected at most one argument, a colour".to_string()),
    }
}

/// `solve-state`: the winner's name.
/// A GTP switch: `1`/`true`/`on` or `0`/`false`/`off`.
/// A whole number of the setting `name` within `range`, or the error that names the range.
fn parse_number<T>(name: &str, value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, Failure>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    value.parse().ok().filter(|n| range.contains(n)).ok_or_else(|| {
        format!("{name} must be a number from {} to {}, not {value}", range.start(), range.end())
    })
}

/// `rave_counts`: `off` for the equivalence parameter's schedule, or `INITIAL,LATE` for
/// [`RaveWeight::Counts`] (both numbers above 0).
fn parse_rave_counts(value: &str) -> Result<RaveWeight, Failure> {
    if matches!(value, "off" | "none") {
        return Ok(RaveWeight::Equivalence);
    }
    let positive = |text: &str| text.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x > 0.0);
    value
        .split_once(',')
        .and_then(|(initial, late)| {
            Some(RaveWeight::Counts { initial: positive(initial)?, late: positive(late)? })
        })
        .ok_or_else(|| format!("rave_counts must be off or INITIAL,LATE, two numbers above 0, not {value}"))
}

/// `widening`: `off` for none, or `START,VISITS,FACTOR` for [`Widening`] (START a whole number
/// from 1, VISITS above 0, FACTOR above 1).
fn parse_widening(value: &str) -> Result<Option<Widening>, Failure> {
    if matches!(value, "off" | "none") {
        return Ok(None);
    }
    let parts: Vec<&str> = value.split(',').map(str::trim).collect();
    let number = |text: &str| text.parse::<f64>().ok().filter(|x| x.is_finite());
    match parts.as_slice() {
        [start, visits, factor] => {
            let start = start.parse::<u32>().ok().filter(|&n| n >= 1);
            match (start, number(visits).filter(|&v| v > 0.0), number(factor).filter(|&f| f > 1.0)) {
                (Some(start), Some(visits), Some(factor)) => Ok(Some(Widening { start, visits, factor })),
                _ => Err(widening_error(value)),
            }
        }
        _ => Err(widening_error(value)),
    }
}

fn widening_error(value: &str) -> Failure {
    format!(
        "widening must be off or START,VISITS,FACTOR (a whole number from 1, a number above 0, a number above 1), not {value}"
    )
}

/// A count of empty cells (`solver_empty`, `solver_beside`).
fn parse_empty_cells(name: &str, value: &str) -> Result<u32, Failure> {
    value
        .parse()
        .map_err(|_| format!("{name} must be a number of empty cells from 0 to 2^32 - 1, not {value}"))
}

/// `off` (or `none`) as `None`, else a finite number that `valid` accepts; `what` says which in
/// the error.
fn parse_off_or(
    name: &str,
    value: &str,
    what: &str,
    valid: impl Fn(f64) -> bool,
) -> Result<Option<f64>, Failure> {
    match value {
        "off" | "none" => Ok(None),
        _ => value
            .parse()
            .ok()
            .filter(|&v: &f64| v.is_finite() && valid(v))
            .map(Some)
            .ok_or_else(|| format!("{name} must be off or {what}, not {value}")),
    }
}

fn parse_switch(name: &str, value: &str) -> Result<bool, Failure> {
    match value {
        "0" | "false" | "off" => Ok(false),
        "1" | "true" | "on" => Ok(true),
        _ => Err(format!("{name} must be 0 or 1, not {value}")),
    }
}

fn solve_state(position: &Position, config: SolverConfig) -> Result<String, Failure> {
    if let Some(winner) = position.winner() {
        return Ok(winner.name().to_string());
    }
    let solution = Solver::new(config).solve(position).map_err(|e| e.to_string())?;
    match solution.verdict {
        Verdict::Win { winner, .. } => Ok(winner.name().to_string()),
        Verdict::Unknown(limit) => Err(format!("unknown: the solver reached its {limit}")),
    }
}

/// `find-winning`: the winning moves, space-separated.
fn find_winning(position: &Position, config: SolverConfig) -> Result<String, Failure> {
    if position.winner().is_some() {
        return Ok(String::new());
    }
    let moves = Solver::new(config).winning_moves(position).map_err(|e| e.to_string())?;
    Ok(moves.into_iter().map(move_name).collect::<Vec<_>>().join(" "))
}

/// `vc-between-cells-full c x y` and `vc-between-cells-semi c x y`: what the solver's
/// H-search finds between `x` and `y` for colour `c` on the game's position after the
/// fill-in, one connection a line: a virtual connection as its carrier (`[d3 c4]`, `[]` for
/// adjacent ends), a semi-connection as its key and carrier (`c4 [c4 d4 c5]`), cells in cell
/// order. An end is a cell (a stone of `c`, its whole group, or an empty cell standing for a
/// stone of `c`) or one of `c`'s edges: `north` and `south` for Black, `west` and `east` for
/// White. No connection found is an empty answer.
fn vc_between(position: &Position, args: &[&str], full: bool) -> Result<String, Failure> {
    let [color, from, to] = exact(args)?;
    let color = parse_color(color)?;
    let end = |text: &str| -> Result<Endpoint, Failure> {
        let edges = match color {
            Color::Black => ["north", "south"],
            Color::White => ["west", "east"],
        };
        let lower = text.to_ascii_lowercase();
        if lower == edges[0] {
            return Ok(Endpoint::First);
        }
        if lower == edges[1] {
            return Ok(Endpoint::Second);
        }
        if ["north", "south", "west", "east"].contains(&lower.as_str()) {
            return Err(format!("{text} is not one of {color}'s edges ({} and {})", edges[0], edges[1]));
        }
        match parse_move(text, position.size()).map_err(|e| e.to_string())? {
            HexMove::Place(cell) => Ok(Endpoint::Cell(cell)),
            HexMove::Swap => Err(format!("{text} is not a cell or an edge")),
        }
    };
    let (from, to) = (end(from)?, end(to)?);
    let found = Solver::new(SolverConfig { table_bits: 1, ..SolverConfig::default() })
        .connections(position, color, from, to)
        .map_err(|e| e.to_string())?;
    let cells = |carrier: &[crate::board::Cell]| {
        format!("[{}]", carrier.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "))
    };
    let lines: Vec<String> = if full {
        found.full.iter().map(|c| cells(c)).collect()
    } else {
        found.semi.iter().map(|s| format!("{} {}", s.key, cells(&s.carrier))).collect()
    };
    Ok(lines.join("\n"))
}

/// `b`, `black`, `w` or `white`, case-insensitive.
fn parse_color(text: &str) -> Result<Color, Failure> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("invalid color: {text} (b, black, w or white)")),
    }
}
