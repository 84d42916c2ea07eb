//! The workspace's task runner, reached as `cargo xtask <task>` (a release build).
//!
//! - `cargo xtask eval`: runs the evaluation tiers of the seed documents and writes one JSON
//!   line per game, `summary.md` and SVG plots into an output folder.
//! - `cargo xtask report DIR...`: rebuilds the summary and plots from the JSON lines of one or
//!   more output folders (for example the shards of one run, made on several machines).
//! - `cargo xtask hex-match "cmd A" "cmd B"`: a referee that plays two GTP Hex engines against
//!   each other (see [`hex_match`]); `cargo xtask hex-match-report FILE...` adds up the games
//!   of several of its `--out` files (see [`hex_match_report`]).
//! - `cargo xtask hex-openings --sizes 6,7`: solves every Hex opening of each size with the
//!   exact solver, checks the maps against the published ones and reports the time, writing
//!   `openings-<n>x<n>.json` and `summary.md` (see [`hex_openings`]).
//! - `cargo xtask hex-solve-vs --ours CMD --theirs CMD --positions FILE`: two GTP solvers on
//!   the same positions, each in a fresh process, compared by the CPU time the operating system
//!   measures (see [`hex_solve_vs`]).
//! - `cargo xtask bench-2048 [--nneonneo PATH/2048.so]`: our strong 2048 agent and nneonneo's on
//!   the same boards, timed by thread CPU time, with their move agreement (see [`bench_2048`]);
//!   with `--games N`, whole games of both (and of our n-tuple players with `--network FILE`)
//!   from the same seeds, in moves per CPU-second (see [`bench_2048::games`]).
//! - `cargo xtask hex-patterns`: learns the Hex move-pattern weights from our MCTS player's
//!   self-play (see [`hex_patterns`]).
//! - `cargo xtask train-2048`: trains an n-tuple network for 2048 by TD learning (plain or
//!   temporal coherence, optionally restarting games from kept late-game boards), with
//!   checkpoints and a learning curve (see [`train_2048`]).

mod bench_2048;
mod hex_balance;
mod hex_decided;
mod hex_match;
mod hex_match_report;
mod hex_net;
mod hex_net_games;
mod hex_net_labels;
mod hex_openings;
mod hex_patterns;
mod hex_probe;
mod hex_reach;
mod hex_solve_vs;
mod plots;
mod record;
mod run;
mod summary;
mod tiers;
mod train_2048;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::{Parser, Subcommand, ValueEnum};

use crate::record::{GameLine, RESULTS_FILE};
use crate::run::{EvalOptions, GameChoice, Shard};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Workspace tasks: evaluation runs and their reports")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Clone, Copy, ValueEnum)]
enum GameArg {
    #[value(name = "2048")]
    G2048,
    Hex,
    Domino,
    All,
}

#[derive(Clone, Copy, ValueEnum)]
enum TierArg {
    #[value(name = "1")]
    One,
    #[value(name = "2")]
    Two,
    #[value(name = "3")]
    Three,
    All,
}

#[derive(Subcommand)]
enum Task {
    /// Run the evaluation tiers and write games.jsonl, summary.md and plots.
    Eval {
        /// The game to evaluate.
        #[arg(long, value_enum, default_value = "all")]
        game: GameArg,
        /// The tier to run.
        #[arg(long, value_enum, default_value = "all")]
        tier: TierArg,
        /// Games per row, instead of the rows' own counts (2048: 1,000 for the depth-4 seed rows,
        /// 200 at depths 5 and 6, 50 for the baselines, 20 and 10 for the strong rows).
        #[arg(long)]
        games: Option<u64>,
        /// The run's seed: game i of every row uses a seed derived from it and i.
        #[arg(long, default_value_t = 2048)]
        seed: u64,
        /// Games played at once (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
        /// The output folder (default: target/eval/ and the UTC time); rerunning with the same
        /// folder skips the games already recorded there.
        #[arg(long)]
        out: Option<PathBuf>,
        /// A handful of games per row at reduced depth, in well under a minute.
        #[arg(long)]
        quick: bool,
        /// Run only the games whose index is K modulo N.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// An n-tuple network (from `cargo xtask train-2048`): adds 2048 rows that play to the
        /// end with it, one ply, a shallow strong search (with and without tile downgrading)
        /// and a deeper one.
        #[arg(long, value_name = "FILE")]
        network: Option<PathBuf>,
        /// The tile downgrade of the `ntuple-strong-dg` row: `FROM[,FLOOR[,SCALE]]`, boards with
        /// a FROM tile and a missing tile from FLOOR up valued as the board with the tiles
        /// above that gap halved, their points to come times SCALE.
        #[arg(long, value_name = "FROM[,FLOOR[,SCALE]]", default_value = "16384,256,2")]
        downgrade: game2048::ntuple::Downgrade,
        /// Run only the rows whose id contains one of these words (e.g. `--rows ntuple,greedy`).
        #[arg(long, value_delimiter = ',', value_name = "WORD,...")]
        rows: Vec<String>,
    },
    /// Rebuild summary.md and the plots from the games.jsonl of one or more output folders.
    Report {
        /// Output folders (or games.jsonl files) to read.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Where to write summary.md and the plots (default: the first folder).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Play two GTP Hex engines against each other, the referee judging every move.
    ///
    /// Each command line is split into words with simple shell quoting (no variables or pipes:
    /// use `sh -c '...'` for those). An engine that crashes, answers garbage or an illegal move,
    /// or exceeds the time limit loses that game and is restarted.
    HexMatch {
        /// Engine A's command line, e.g. "target/release/hex-gtp --player random --seed 1".
        engine_a: String,
        /// Engine B's command line.
        engine_b: String,
        /// Games to play; A is Black in the even-numbered games, B in the odd ones.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// The board side.
        #[arg(long, default_value_t = 11, value_parser = clap::value_parser!(u8).range(2..=i64::from(hex::MAX_SIZE)))]
        size: u8,
        /// The seed of the openings (one random Black stone, shared by games 2k and 2k+1).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seconds an engine may take to answer any one command.
        #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
        timeout: f64,
        /// Also write one JSON object per game to this file.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Show the engines' standard error (discarded otherwise).
        #[arg(long)]
        engine_stderr: bool,
        /// Restarts per engine and game: an engine that fails is restarted, replayed to the
        /// position and asked again this many times before the failure loses the game.
        #[arg(long, default_value_t = 0)]
        retries: u32,
        /// Score a failure (after any retries) as a win for the failing engine when the
        /// position is proved won for its colour: by bridges with disjoint carriers on any
        /// board, or by the exact solver within this many seconds on boards up to 11x11; a
        /// failure that loses is recorded with a proof that the position was lost for it
        /// anyway, if one is found the same way. Off by default: every failure loses.
        #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
        adjudicate: Option<f64>,
        /// A third engine's command line that plays engine A's first moves of every game (a
        /// diagnostic: are A's games lost in the opening?); A plays on from there. The
        /// assistant's failures count as A's; its time is not A's.
        #[arg(long, value_name = "COMMAND")]
        assist: Option<String>,
        /// How many of engine A's moves of each game the assistant plays.
        #[arg(long, value_name = "N", default_value_t = 1, requires = "assist",
              value_parser = clap::value_parser!(u32).range(1..))]
        assist_moves: u32,
    },
    /// Solve every Hex opening of each size with the exact solver, check the maps against the
    /// published ones and report the time.
    ///
    /// Prints one line per opening as it is solved, the map, a total and the comparison with
    /// the published map; writes openings-NxN.json and summary.md. Exits with 0 when every
    /// map matches, 1 on a mismatch or an unsolved opening, 2 on bad arguments or input.
    HexOpenings {
        /// The board sizes, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "6,7",
              value_parser = clap::value_parser!(u8).range(1..=i64::from(hex::solver::MAX_SOLVER_SIZE)))]
        sizes: Vec<u8>,
        /// Solver threads, each with its own table (default: one per core).
        #[arg(long, value_parser = parse_threads)]
        threads: Option<usize>,
        /// Each thread's transposition table has 2^B entries of 80 bytes (23: 640 MiB).
        #[arg(long, value_name = "B", default_value_t = 23,
              value_parser = clap::value_parser!(u32).range(1..=i64::from(hex_openings::MAX_TABLE_BITS)))]
        table_bits: u32,
        /// Seconds per opening; an opening that reaches it stays unsolved (and the run fails).
        #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
        time_limit: Option<f64>,
        /// The published maps (default: the hex crate's test data).
        #[arg(long, value_name = "PATH")]
        expected: Option<PathBuf>,
        /// The output folder (default: target/eval/hex-openings- and the UTC time).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Add up the games of several `hex-match --out` files of the same two engines: each
    /// file's and all files' wins of engine A with the 95% Wilson interval, wins as Black, each
    /// engine's mean time over its first five answers of each game, and how the games ended,
    /// as a Markdown table. With --beside, a second run on the same openings is compared with
    /// it game by game, with the sign test. Exits with 2 on a file that cannot be read or holds
    /// no games, or on files beside that do not pair with the files.
    #[command(name = "hex-match-report")]
    HexMatchReport {
        /// The games: JSON lines files written by `hex-match --out`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The files of a second run of the same seeds and seats (engine A another version,
        /// engine B the same opponent), one beside each file, in the same order: the two runs
        /// are compared game by game.
        #[arg(long, num_args = 1.., value_name = "FILE")]
        beside: Vec<PathBuf>,
        /// Also write the table to this file.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Where the games of a `hex-match --out` file were decided: for each game the exact
    /// solver takes the positions from the last back, each within --time-limit, until one it
    /// cannot decide; it prints the first ply it proves (and which engine held the win there)
    /// and every later move that threw a proved win away, then the totals. Boards up to the
    /// solver's 11x11. Exits with 2 on a bad file or arguments.
    HexDecided {
        /// The games: a JSON lines file written by `hex-match --out`.
        games: PathBuf,
        /// The board side of the games (the file does not record it).
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=i64::from(hex::solver::MAX_SOLVER_SIZE)))]
        size: u8,
        /// The solver's time limit per position, in seconds.
        #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
        time_limit: f64,
        /// The solver's table, 2^BITS entries (one per game).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=30))]
        table_bits: u32,
        /// Also write one JSON object per game to this file.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Solve the same Hex positions with two GTP engines, each in a fresh process, and compare
    /// the winners and the CPU time of each engine's process.
    ///
    /// For every position and engine: `boardsize N N`, `play black X`/`play white Y` for the
    /// moves, the setup commands, the solve command, `quit`. The CPU time (user + system) is
    /// the child's, from getrusage, less the engine's start-up (a process that is sent only
    /// `boardsize` and `quit`). Writes solve-vs.jsonl and summary.md. Exits with 0 when the
    /// engines agree on every position, 1 on a DISAGREEMENT, 2 on bad arguments, a bad
    /// positions file or an engine that does not start.
    HexSolveVs {
        /// Our engine's command line (split with simple shell quoting, like hex-match's).
        #[arg(long, default_value = "target/release/hex-gtp")]
        ours: String,
        /// Their engine's command line, e.g. a script that runs Benzene's mohex; without it,
        /// only ours runs.
        #[arg(long)]
        theirs: Option<String>,
        /// The positions: `NAME SIZE MOVE...` a line (see the top of the default file).
        #[arg(long, value_name = "FILE", default_value = "crates/hex/tests/data/solve-positions.txt")]
        positions: PathBuf,
        /// GTP commands sent to ours before the solve, separated by `;`.
        #[arg(long, value_name = "COMMANDS", default_value = "param_solver time 0")]
        ours_setup: String,
        /// GTP commands sent to theirs before the solve, separated by `;`
        /// (e.g. "param_dfpn threads 1").
        #[arg(long, value_name = "COMMANDS", default_value = "")]
        theirs_setup: String,
        /// Our solve command; it must answer `black` or `white`.
        #[arg(long, value_name = "COMMAND", default_value = "solve-state")]
        ours_solve: String,
        /// Their solve command (Benzene: dfpn-solve-state, or solve-state for its DFS solver).
        #[arg(long, value_name = "COMMAND", default_value = "dfpn-solve-state")]
        theirs_solve: String,
        /// Run only these positions, by name, comma-separated.
        #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
        only: Vec<String>,
        /// Solve every child of each position instead (one row per empty cell, named
        /// NAME+CELL, the cell played by the side to move): shows move by move where the
        /// engines' times part.
        #[arg(long)]
        children: bool,
        /// Seconds a solve command may take; the engine is then killed and the row says timeout.
        #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
        timeout: Option<f64>,
        /// Solve each position this many times with each engine (the two alternating, every
        /// solve in a fresh process) and keep each engine's least net CPU time, with all of
        /// them in the row: a solve's time only grows with other work on the machine, and
        /// positions that take milliseconds are otherwise within the start-up's noise.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        repeat: u32,
        /// The output folder (default: target/eval/solve-vs- and the UTC time).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Show the engines' standard error (discarded otherwise).
        #[arg(long)]
        engine_stderr: bool,
    },
    /// Do GTP engines keep a proved win? Each position of the file that the exact solver proves
    /// won for the side to move goes to every engine (`genmove`, after `boardsize`,
    /// `clear_board` and the moves), and the solver judges each move: kept the win, threw it
    /// away, or not decided within --solve-time. Writes probe.jsonl and summary.md (each
    /// engine's kept share with a 95 % interval, its seconds a move, and the positions where
    /// the engines fared differently). Boards up to the solver's 11x11. Exits with 2 on bad
    /// arguments or a bad positions file.
    HexProbe {
        /// An engine, `NAME=COMMAND` (command split like hex-match's); give one or more.
        #[arg(long = "engine", value_name = "NAME=COMMAND", required = true)]
        engines: Vec<hex_probe::ProbeEngine>,
        /// The positions: `NAME SIZE MOVE...` a line, as hex-solve-vs reads them (make some
        /// with hex-probe-positions).
        #[arg(long, value_name = "FILE")]
        positions: PathBuf,
        /// The solver's time limit for each position it judges, in seconds.
        #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
        solve_time: f64,
        /// The solver's table, 2^BITS entries, shared by the run.
        #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(1..=30))]
        table_bits: u32,
        /// Seconds an engine may take to answer any one command.
        #[arg(long, default_value_t = 60.0, value_parser = parse_timeout)]
        timeout: f64,
        /// The output folder (default: target/eval/probe- and the UTC time).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Show the engines' standard error (discarded otherwise).
        #[arg(long)]
        engine_stderr: bool,
    },
    /// Make a positions file for hex-probe from a `hex-match --out` file: every distinct
    /// position of its games at the plies asked that the solver proves won for the side to
    /// move within --solve-time. Exits with 2 on a bad file or arguments.
    HexProbePositions {
        /// The games: a JSON lines file written by `hex-match --out`.
        games: PathBuf,
        /// The board side of the games.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=i64::from(hex::solver::MAX_SOLVER_SIZE)))]
        size: u8,
        /// The first ply (stones on the board) to look at.
        #[arg(long, default_value_t = 8)]
        from_ply: usize,
        /// The last ply to look at.
        #[arg(long, default_value_t = 16)]
        to_ply: usize,
        /// The solver's time limit per position, in seconds.
        #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
        solve_time: f64,
        /// The solver's table, 2^BITS entries.
        #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(1..=30))]
        table_bits: u32,
        /// Keep only positions whose proof took at least this many solver nodes (the default
        /// drops positions decided by a connection without a search, where every move wins).
        #[arg(long, default_value_t = 2)]
        min_nodes: u64,
        /// The positions file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// How far from a game's end does the exact solver prove positions in a share of a move?
    /// Replays `hex-match --out` files as the MCTS player meets them (one solver per colour,
    /// its table kept from move to move) with --solve-time on each position, and prints, by
    /// empty cells, the positions proved won or lost for the side to move and the mean seconds:
    /// the border that `param_hex solver_empty` sets. Exits with 2 on a bad file or arguments.
    HexReach {
        /// The games: JSON lines files written by `hex-match --out`.
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// The board side of the games.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=i64::from(hex::solver::MAX_SOLVER_SIZE)))]
        size: u8,
        /// The solver's time on each position, in seconds (the player's share of its move).
        #[arg(long, default_value_t = 0.3, value_parser = parse_timeout)]
        solve_time: f64,
        /// The table's rows, in empty cells.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
        band: u32,
    },
    /// Time our strong 2048 agent and nneonneo/2048-ai on the same boards (thread CPU time, same
    /// process, alternating), with the move agreement and the raw move rate.
    #[command(name = "bench-2048")]
    Bench2048 {
        /// The boards file (one board per line, `2 4 0 0/...`).
        #[arg(long, value_name = "FILE", default_value = bench_2048::DEFAULT_BOARDS)]
        boards: PathBuf,
        /// nneonneo's shared library (`bin/2048.so` of a local build; see docs/nneonneo.md).
        /// Without it only our side runs.
        #[arg(long, value_name = "PATH")]
        nneonneo: Option<PathBuf>,
        /// Our probability cut-off (nneonneo's is compiled in: 1e-4).
        #[arg(long, default_value_t = 1e-4, value_parser = parse_probability)]
        cprob: f64,
        /// Decisions per board and program; the median is kept.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=1000))]
        repeat: u64,
        /// The output folder (default `target/eval/bench-2048-<time>`).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Instead of benchmarking, play one seeded game and write a boards file here.
        #[arg(long, value_name = "FILE")]
        make_boards: Option<PathBuf>,
        /// The seed of the game --make-boards plays, or of the first game of --games.
        #[arg(long, default_value_t = 2048)]
        seed: u64,
        /// Boards --make-boards keeps per largest tile (512 to 8192).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1000))]
        per_stage: u64,
        /// Instead of timing decisions on boards, play this many whole games per player from
        /// the same seeds (nneonneo, our strong search and, with --network, our n-tuple
        /// players), timed by CPU clock: moves per CPU-second and tiles reached.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        games: Option<u64>,
        /// With --games: an n-tuple network file, which adds our n-tuple players.
        #[arg(long, value_name = "FILE", requires = "games")]
        network: Option<PathBuf>,
        /// With --games: stop each game after this many moves.
        #[arg(long, requires = "games", value_parser = clap::value_parser!(u64).range(1..))]
        max_moves: Option<u64>,
    },
    /// Train the convolutional move policy (hex::net) on games of hex-net-games, and report how
    /// well it predicts held-out moves beside the shipped patterns.
    #[command(name = "hex-net")]
    HexNet {
        /// Files written by hex-net-games.
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// Channels per layer.
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=512))]
        channels: u64,
        /// Convolution layers.
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(1..=32))]
        layers: u64,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 10)]
        epochs: usize,
        /// Positions per step.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
        batch: u64,
        /// Adam's step size (halved for the last third of the epochs).
        #[arg(long, default_value_t = 0.001)]
        rate: f32,
        /// The seed of the starting weights and of the positions' order.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads sharing each batch.
        #[arg(long, default_value_t = 2, value_parser = parse_threads)]
        threads: usize,
        /// Start from this network instead of random weights.
        #[arg(long)]
        start: Option<PathBuf>,
        /// The weight of the move-value loss beside the policy's (0: the value head does not
        /// learn). The targets are the root moves' mean results, from games that kept them.
        #[arg(long, default_value_t = 1.0, value_parser = parse_value_weight)]
        values: f32,
        /// The visits a root move needs to be a value target.
        #[arg(long, default_value_t = 16)]
        value_visits: u32,
        /// The share of the game's outcome in the played move's value target (0 to 1; the rest
        /// is the root's mean).
        #[arg(long, default_value_t = 0.0, value_parser = parse_outcome_share)]
        outcome: f32,
        /// Files of hex-net-labels: the solver's exact move values as more value targets
        /// (their held-out positions are judged apart).
        #[arg(long, num_args = 1..)]
        labels: Vec<PathBuf>,
        /// The weight of each label in the value loss.
        #[arg(long, default_value_t = 1.0, value_parser = parse_value_weight)]
        label_weight: f32,
        /// The network file to write (after every epoch).
        #[arg(long)]
        out: PathBuf,
    },
    /// Label positions of hex-net-games files with the exact solver for the network's value
    /// head: for each game the positions from the last back, within --nodes each, until one it
    /// cannot decide; the first --keep of them from one ply before that border, one JSON line
    /// each. Boards up to the solver's 11x11. Exits with 2 on a bad file or arguments.
    #[command(name = "hex-net-labels")]
    HexNetLabels {
        /// Files written by hex-net-games.
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// The solver's node limit per position (a limit of nodes, not time, so that the
        /// labels are the same on any machine).
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// The solver's table, 2^BITS entries of 80 bytes, one per thread.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=30))]
        table_bits: u32,
        /// Positions labelled per game.
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(1..))]
        keep: u64,
        /// Threads solving games at once.
        #[arg(long, default_value_t = 2, value_parser = parse_threads)]
        threads: usize,
        /// The labels file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Balance the six-cell playout weights on positions of known value (hex::mcts::balance;
    /// Silver and Tesauro's simulation balancing): hex-net-labels files give the positions,
    /// their held-out games judge each pass. Prints a JSON report; writes a weights file for
    /// `param_hex playout_weights`. Exits with 2 on a bad file or arguments.
    #[command(name = "hex-balance")]
    HexBalance {
        /// Files written by hex-net-labels.
        #[arg(required = true)]
        labels: Vec<PathBuf>,
        /// Weights to start from (a hex-patterns file in the stones code); default: every γ 1,
        /// the engine's uniform playouts.
        #[arg(long)]
        start: Option<PathBuf>,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
        epochs: u32,
        /// Playouts in each of the two sets per position and step.
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(2..))]
        playouts: u32,
        /// The step size.
        #[arg(long, default_value_t = 0.05, value_parser = parse_rate)]
        rate: f64,
        /// Playouts per held-out position when the error is measured.
        #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..))]
        judge_playouts: u32,
        /// The seed of the playouts and of the positions' order.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The weights file to write.
        #[arg(long)]
        out: PathBuf,
        /// Balance the playouts' answer factors too (param_hex answer_factors) and write them
        /// to this file.
        #[arg(long)]
        answers_out: Option<PathBuf>,
        /// Answer factors to start from (a hex-patterns file of local-response codes); default:
        /// every factor 1. Needs --answers-out.
        #[arg(long, requires = "answers_out")]
        start_answers: Option<PathBuf>,
    },
    /// Play self-play games kept whole (moves and the root's visits) for the convolutional move
    /// policy (hex::net), one JSON line per game as it ends.
    #[command(name = "hex-net-games")]
    HexNetGames {
        /// Board sizes, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "9,11")]
        sizes: Vec<u8>,
        /// Games per size.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Playouts per move of the self-play player (the GTP engine's defaults otherwise).
        #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..))]
        iterations: u64,
        /// The seed of the openings and the players.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads playing games at once.
        #[arg(long, default_value_t = 2, value_parser = parse_threads)]
        threads: usize,
        /// The self-play player's convolutional policy (a file of hex-net): a network trained
        /// on earlier games makes a stronger teacher for the next.
        #[arg(long)]
        net: Option<PathBuf>,
        /// The games file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Learn the Hex move-pattern weights (hex::patterns) from our MCTS player's self-play, and
    /// report how well they predict held-out moves.
    #[command(name = "hex-patterns")]
    HexPatterns {
        /// Board sizes, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "9,11")]
        sizes: Vec<u8>,
        /// Games per size.
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Playouts per move of the self-play player.
        #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..))]
        iterations: u64,
        /// The seed of the openings and the players.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads playing games at once.
        #[arg(long, default_value_t = 2, value_parser = parse_threads)]
        threads: usize,
        /// Self-play with the shipped weights as priors of this weight (a second generation).
        #[arg(long, value_name = "WEIGHT")]
        priors: Option<f64>,
        /// The cells a pattern reads: 12 (the tree's priors) or 6 (the playout policy's
        /// patterns, written by default to the playout weights file the hex crate ships).
        #[arg(long, default_value_t = 12, value_parser = parse_pattern_cells)]
        cells: u8,
        /// How the 12-cell patterns read the cells off the board: stones (an edge as a stone of
        /// its owner) or edges (every cell off the board one state of its own). The 6-cell and
        /// local-response patterns are always in the stones code.
        #[arg(long, default_value = "stones", value_parser = parse_pattern_code)]
        code: hex::patterns::PatternCode,
        /// Let the exact solver teach instead of the search: every position with at most this
        /// many empty cells (boards up to 11x11) gives its winning moves, each against every
        /// losing move.
        #[arg(long, value_name = "EMPTY")]
        solver_labels: Option<u32>,
        /// Learn the local-response weights (hex::patterns::local: cells near the opponent's
        /// last stone) with the shipped 12-cell weights held fixed, written by default to the
        /// local weights file the hex crate ships.
        #[arg(long, conflicts_with = "solver_labels")]
        local: bool,
        /// With --local: the playouts' local weights file (they weigh the cells near the last
        /// stone against a flat rest). Default: beside --out as NAME-playout.txt when --out is
        /// given, else the one the hex crate ships.
        #[arg(long, value_name = "FILE", requires = "local")]
        playout_out: Option<PathBuf>,
        /// With --solver-labels: the solver's seconds for one position (positions it does not
        /// finish are skipped).
        #[arg(long, default_value_t = 1.0, value_parser = parse_timeout)]
        solve_time: f64,
        /// Minorization-maximization rounds.
        #[arg(long, default_value_t = 30)]
        rounds: usize,
        /// Leave out patterns seen fewer times than this.
        #[arg(long, default_value_t = 5)]
        min_count: u32,
        /// The weights file (default: the one the hex crate ships).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Play only the games whose index (per board size) is K modulo N; needs --samples-out.
        #[arg(long, value_name = "K/N", requires = "samples_out")]
        shard: Option<Shard>,
        /// Write the games' samples to this file (JSON lines) instead of learning, to learn
        /// from later with --samples-in, beside the other shards' files.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "playout_out"])]
        samples_out: Option<PathBuf>,
        /// Judge these weights files too, each in the learned weights' place, on every run's
        /// held-out samples (share ranked first and mean log-probability of the chosen cell).
        #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "samples_out")]
        compare: Vec<PathBuf>,
        /// Learn from these sample files instead of playing: every shard of one run, or of
        /// several runs (other settings; each run complete), learned from together; the files'
        /// settings are the play settings.
        #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = [
            "sizes", "games", "iterations", "seed", "priors", "solver_labels", "solve_time", "samples_out",
        ])]
        samples_in: Vec<PathBuf>,
    },
    /// Train an n-tuple network for 2048 by TD learning from self-play, with checkpoints, a
    /// learning curve (`<out>.curve.jsonl`) and a progress bar.
    #[command(name = "train-2048")]
    Train2048 {
        /// The tuples: small (4 x 4-tuples, 1 MiB), standard (4 x 6-tuples, 256 MiB) or large
        /// (8 x 6-tuples, 512 MiB).
        #[arg(long, default_value = "standard", value_parser = parse_shape)]
        shape: game2048::ntuple::Shape,
        /// Games to play in this run.
        #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// How the weights move: td (one step size) or tc (temporal coherence: a step size per
        /// weight).
        #[arg(long, default_value = "td", value_parser = parse_rule)]
        rule: game2048::ntuple::LearningRule,
        /// The step size of a board's value (default 0.1 with td, 1 with tc).
        #[arg(long, value_parser = parse_learning_rate)]
        learning_rate: Option<f32>,
        /// Keep the board where a game first shows this tile, to restart later games from.
        #[arg(long, value_name = "TILE", value_parser = parse_tile, requires = "restart_share")]
        restart_tile: Option<u32>,
        /// The share of games, above 0 and at most 1, that start from a kept board.
        #[arg(long, value_name = "SHARE", value_parser = parse_share, requires = "restart_tile")]
        restart_share: Option<f64>,
        /// Split the game into stages with weights of their own, each starting where the board
        /// holds a set of tiles: `16384,16384+8192` makes three. With --resume, a one-stage
        /// network is split, each stage starting from its weights; a network already split
        /// keeps its stages (asking for others is an error).
        #[arg(long, value_parser = parse_stages)]
        stages: Option<game2048::ntuple::Stages>,
        /// When a network is split into stages: the later stages start with no temporal
        /// coherence sums (fresh: every weight at the full rate) or with the first stage's
        /// (carried).
        #[arg(long, default_value = "fresh", value_parser = parse_step_sizes)]
        stage_step_sizes: game2048::ntuple::StepSizes,
        /// The seed of the spawns.
        #[arg(long, default_value_t = 2048)]
        seed: u64,
        /// Threads playing games at once (1 is deterministic).
        #[arg(long, default_value_t = 1, value_parser = parse_threads)]
        threads: usize,
        /// The network file (default `target/ntuple/<shape>.bin`).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Games between checkpoints and learning-curve lines.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        checkpoint_every: u64,
        /// Continue from the network file if it exists.
        #[arg(long)]
        resume: bool,
        /// Start a new network with every board worth this many points to come (optimistic
        /// initialisation, e.g. 320000), so that self-play tries the boards it has not learned
        /// yet; not with a resumed network.
        #[arg(long, value_name = "POINTS", value_parser = parse_optimistic)]
        optimistic: Option<f32>,
    },
}

fn parse_shape(text: &str) -> Result<game2048::ntuple::Shape, String> {
    text.parse().map_err(|e: game2048::ntuple::NTupleError| e.to_string())
}

fn parse_step_sizes(text: &str) -> Result<game2048::ntuple::StepSizes, String> {
    text.parse().map_err(|e: game2048::ntuple::NTupleError| e.to_string())
}

fn parse_stages(text: &str) -> Result<game2048::ntuple::Stages, String> {
    text.parse().map_err(|e: game2048::ntuple::NTupleError| e.to_string())
}

fn parse_rule(text: &str) -> Result<game2048::ntuple::LearningRule, String> {
    text.parse().map_err(|e: game2048::ntuple::NTupleError| e.to_string())
}

fn parse_tile(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(tile) if tile >= 4 && tile.is_power_of_two() && tile <= 1 << 16 => Ok(tile),
        _ => Err(format!("expected a tile, a power of two from 4 to 65536, not {text:?}")),
    }
}

fn parse_share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(share) if share > 0.0 && share <= 1.0 => Ok(share),
        _ => Err(format!("expected a share above 0 and at most 1, not {text:?}")),
    }
}

fn parse_optimistic(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(points) if points > 0.0 && points <= 1e7 => Ok(points),
        _ => Err(format!("expected points above 0 and at most 10000000, not {text:?}")),
    }
}

fn parse_learning_rate(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(rate) if rate > 0.0 && rate <= 10.0 => Ok(rate),
        _ => Err(format!("expected a learning rate above 0 and at most 10, not {text:?}")),
    }
}

fn parse_probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("expected a probability between 0 and 1, not {text:?}")),
    }
}

/// A positive, finite number of seconds.
fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 1e6 => Ok(seconds),
        _ => Err(format!("expected a number of seconds above 0, not {text:?}")),
    }
}

/// A number of threads, at least 1.
fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("expected a number of threads, at least 1, not {text:?}")),
    }
}

/// `--rate` of `hex-balance`: a positive step size.
fn parse_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if r.is_finite() && r > 0.0 => Ok(r),
        _ => Err(format!("expected a positive step size, not {text:?}")),
    }
}

/// `--outcome` of `hex-net`: a share from 0 to 1.
fn parse_outcome_share(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err(format!("expected a share from 0 to 1, not {text:?}")),
    }
}

/// `--values` of `hex-net`: a finite weight, at least 0.
fn parse_value_weight(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(w) if w.is_finite() && w >= 0.0 => Ok(w),
        _ => Err(format!("expected a weight of at least 0, not {text:?}")),
    }
}

/// `--cells` of `hex-patterns`: 6 or 12.
fn parse_pattern_cells(text: &str) -> Result<u8, String> {
    match text {
        "6" => Ok(6),
        "12" => Ok(12),
        _ => Err(format!("a pattern reads 6 cells (playouts) or 12 (priors), not {text:?}")),
    }
}

/// `--code` of `hex-patterns`: stones or edges.
fn parse_pattern_code(text: &str) -> Result<hex::patterns::PatternCode, String> {
    match text {
        "stones" => Ok(hex::patterns::PatternCode::Stones),
        "edges" => Ok(hex::patterns::PatternCode::Edges),
        _ => Err(format!("a pattern code is stones or edges, not {text:?}")),
    }
}

/// The workspace root, where `target/` lives.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// `YYYYMMDD-HHMMSS` in UTC.
fn timestamp() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil-from-days algorithm.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}{month:02}{day:02}-{:02}{:02}{:02}", rest / 3600, rest / 60 % 60, rest % 60)
}

/// Writes summary.md and the plots for `games` into `dir`, and says where they are.
fn write_report(dir: &Path, games: &[GameLine]) -> Result<(), String> {
    let rows = summary::summarize(games);
    let text = summary::markdown(&rows);
    let path = dir.join("summary.md");
    std::fs::write(&path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let plots = plots::write_plots(dir, &rows).map_err(|e| e.to_string())?;
    println!("{text}");
    println!("wrote {}", path.display());
    for plot in plots {
        println!("wrote {}", plot.display());
    }
    Ok(())
}

fn eval_task(options: EvalOptions) -> Result<(), String> {
    let started = std::time::Instant::now();
    let games = run::eval(&options).map_err(|e| e.to_string())?;
    write_report(&options.out, &games)?;
    println!(
        "results in {} ({:.1} s)",
        options.out.join(RESULTS_FILE).display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn report_task(dirs: &[PathBuf], out: Option<PathBuf>) -> Result<(), String> {
    let mut games: Vec<GameLine> = Vec::new();
    // The seed of every game seen, by key.
    let mut seen = std::collections::HashMap::new();
    for dir in dirs {
        let path = if dir.is_dir() { dir.join(RESULTS_FILE) } else { dir.clone() };
        let loaded = record::read(&path).map_err(|e| e.to_string())?;
        if loaded.dropped_partial_line {
            eprintln!("{}: ignoring a half-written last line", path.display());
        }
        for game in loaded.games {
            // Shards never overlap, but the same folder named twice would count its games
            // twice; the same game with another seed comes from another run.
            match seen.insert(game.key(), game.seed) {
                None => games.push(game),
                Some(seed) if seed == game.seed => {}
                Some(seed) => {
                    return Err(format!(
                        "{}: game {} of row {} has seed {}, but another folder has it with seed {seed}: \
                         these folders come from runs with different seeds",
                        path.display(),
                        game.index,
                        game.row,
                        game.seed
                    ));
                }
            }
        }
    }
    if games.is_empty() {
        return Err("no game records found".to_string());
    }
    let out = out.unwrap_or_else(|| {
        let first = &dirs[0];
        if first.is_dir() {
            first.clone()
        } else {
            first.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        }
    });
    std::fs::create_dir_all(&out)
        .map_err(|e| format!("cannot use {} as the output folder: {e}", out.display()))?;
    write_report(&out, &games)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.task {
        Task::Eval { game, tier, games, seed, jobs, out, quick, shard, network, downgrade, rows } => {
            if games == Some(0) {
                eprintln!("error: --games must be at least 1");
                return ExitCode::from(2);
            }
            if jobs == Some(0) {
                eprintln!("error: --jobs must be at least 1");
                return ExitCode::from(2);
            }
            let game = match game {
                GameArg::G2048 => GameChoice::G2048,
                GameArg::Hex => GameChoice::Hex,
                GameArg::Domino => GameChoice::Domino,
                GameArg::All => GameChoice::All,
            };
            let tiers = match tier {
                TierArg::One => vec![1],
                TierArg::Two => vec![2],
                TierArg::Three => vec![3],
                TierArg::All => vec![1, 2, 3],
            };
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
            let out = out.unwrap_or_else(|| workspace_root().join("target").join("eval").join(timestamp()));
            eval_task(EvalOptions {
                game,
                tiers,
                games,
                seed,
                jobs,
                out,
                quick,
                shard: shard.unwrap_or(Shard::ALL),
                network,
                downgrade,
                rows,
            })
        }
        Task::Report { dirs, out } => report_task(&dirs, out),
        Task::HexMatch {
            engine_a,
            engine_b,
            games,
            size,
            seed,
            timeout,
            out,
            engine_stderr,
            retries,
            adjudicate,
            assist,
            assist_moves,
        } => {
            let config = hex_match::MatchConfig {
                engines: [engine_a, engine_b],
                games,
                size,
                seed,
                timeout: std::time::Duration::from_secs_f64(timeout),
                engine_stderr,
                retries,
                adjudicate: adjudicate.map(std::time::Duration::from_secs_f64),
                assist: assist.map(|command| hex_match::Assist { command, moves: assist_moves as usize }),
            };
            hex_match::run(&config, out.as_deref()).map(|_| ()).map_err(|e| e.to_string())
        }
        Task::HexNet {
            games,
            channels,
            layers,
            epochs,
            batch,
            rate,
            seed,
            threads,
            start,
            values,
            value_visits,
            outcome,
            labels,
            label_weight,
            out,
        } => {
            let options = hex_net::TrainOptions {
                labels,
                label_weight,
                value_weight: values,
                value_targets: hex_net::ValueTargets { visits: value_visits, outcome },
                games,
                channels: channels as usize,
                layers: layers as usize,
                epochs,
                batch: batch as usize,
                rate,
                seed,
                threads,
                out,
                start,
            };
            hex_net::train(&options)
                .map(|report| println!("{}", serde_json::to_string(&report).expect("a report serialises")))
        }
        Task::HexBalance {
            labels,
            start,
            epochs,
            playouts,
            rate,
            judge_playouts,
            seed,
            out,
            answers_out,
            start_answers,
        } => {
            let config = hex::mcts::BalanceConfig {
                epochs,
                playouts,
                rate,
                judge_playouts,
                bridge_replies: true,
                seed,
            };
            let options =
                hex_balance::BalanceOptions { labels, start, config, out, answers_out, start_answers };
            return match hex_balance::run(&options) {
                Ok(report) => {
                    println!("{}", serde_json::to_string(&report).expect("a report serialises"));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Task::HexNetLabels { games, nodes, table_bits, keep, threads, out } => {
            let options = hex_net_labels::LabelOptions { nodes, table_bits, keep: keep as usize, threads };
            return match hex_net_games::load_games(&games)
                .and_then(|games| hex_net_labels::save_labels(&games, &options, &out))
            {
                Ok(n) => {
                    eprintln!("hex-net-labels: {n} labelled positions in {}", out.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Task::HexNetGames { sizes, games, iterations, seed, threads, net, out } => {
            let net = match net.map(|path| hex::net::PolicyNet::read(&path)) {
                Some(Ok(net)) => Some(&*Box::leak(Box::new(net))),
                Some(Err(e)) => {
                    eprintln!("hex-net-games: {e}");
                    return ExitCode::FAILURE;
                }
                None => None,
            };
            let options = hex_net_games::GamesOptions { sizes, games, iterations, seed, threads, net };
            hex_net_games::save_games(&options, &out)
                .map(|n| eprintln!("hex-net-games: {n} games in {}", out.display()))
        }
        Task::HexPatterns {
            sizes,
            games,
            iterations,
            seed,
            threads,
            priors,
            cells,
            code,
            solver_labels,
            local,
            playout_out,
            solve_time,
            rounds,
            min_count,
            out,
            shard,
            samples_out,
            compare,
            samples_in,
        } => {
            let ring = cells == 6;
            if local && ring {
                eprintln!("hex-patterns: --local reads the 12-cell patterns; it does not go with --cells 6");
                return ExitCode::from(2);
            }
            if code != hex::patterns::PatternCode::Stones && (local || ring) {
                eprintln!(
                    "hex-patterns: the 6-cell and the local-response patterns are in the stones code; --code edges goes with the 12-cell patterns alone"
                );
                return ExitCode::from(2);
            }
            if let Some(&bad) =
                sizes.iter().find(|&&s| solver_labels.is_some() && s > hex::solver::MAX_SOLVER_SIZE)
            {
                eprintln!(
                    "hex-patterns: --solver-labels needs boards the solver takes (up to {}), not {bad}",
                    hex::solver::MAX_SOLVER_SIZE
                );
                return ExitCode::from(2);
            }
            let default_out = match (ring, local) {
                (true, _) => hex_patterns::DEFAULT_RING_OUT,
                (_, true) => hex_patterns::DEFAULT_LOCAL_OUT,
                _ => hex_patterns::DEFAULT_OUT,
            };
            let options = hex_patterns::PatternOptions {
                sizes,
                games,
                iterations,
                seed,
                threads,
                priors,
                ring,
                code,
                local,
                local_playout_out: local.then(|| {
                    playout_out.unwrap_or_else(|| match &out {
                        Some(out) => hex_patterns::playout_file_beside(out),
                        None => workspace_root().join(hex_patterns::DEFAULT_LOCAL_PLAYOUT_OUT),
                    })
                }),
                solver_labels: solver_labels.map(|max_empty| hex_patterns::SolverLabels {
                    max_empty,
                    time: std::time::Duration::from_secs_f64(solve_time),
                }),
                learn: hex::patterns::LearnConfig { rounds, min_count },
                out: out.unwrap_or_else(|| workspace_root().join(default_out)),
                shard: shard.unwrap_or(Shard::ALL),
                compare,
                samples_in,
            };
            if let Some(path) = samples_out {
                return match hex_patterns::save_samples(&options, &path) {
                    Ok(saved) => {
                        println!(
                            "{} games, {} samples from {:.0} s of self-play written to {}",
                            saved.games,
                            saved.samples,
                            saved.play_seconds,
                            path.display()
                        );
                        ExitCode::SUCCESS
                    }
                    Err(message) => {
                        eprintln!("hex-patterns: {message}");
                        ExitCode::from(2)
                    }
                };
            }
            return match hex_patterns::run(&options) {
                Ok(report) => {
                    let source = if options.samples_in.is_empty() {
                        format!("{:.0} s of self-play", report.play_seconds)
                    } else {
                        format!("{} sample files", options.samples_in.len())
                    };
                    println!(
                        "{} training and {} held-out samples from {source}; {} patterns written to {}",
                        report.train_samples,
                        report.test_samples,
                        report.patterns,
                        options.out.display()
                    );
                    println!(
                        "held-out moves ranked first: {:.1} % (the shipped weights in their place: {:.1} %; a uniform guess: {:.1} %{})",
                        100.0 * report.top1,
                        100.0 * report.shipped_top1,
                        100.0 * report.uniform,
                        report.patterns_alone.map_or(String::new(), |alone| format!(
                            "; the shipped patterns alone: {:.1} %",
                            100.0 * alone
                        ))
                    );
                    if report.runs.len() > 1 || !options.compare.is_empty() {
                        for run in &report.runs {
                            println!("{} held-out samples of {}", run.test_samples, run.command);
                            let row = |name: &str, top1: f64, log_likelihood: f64| {
                                println!(
                                    "  {name}: ranked first {:.1} %, mean log-probability {log_likelihood:.3}",
                                    100.0 * top1
                                )
                            };
                            row("learned", run.top1, run.log_likelihood);
                            row("shipped", run.shipped_top1, run.shipped_log_likelihood);
                            row("uniform", run.uniform, run.uniform_log_likelihood);
                            for judged in &run.compared {
                                row(&judged.file.display().to_string(), judged.top1, judged.log_likelihood);
                            }
                        }
                    }
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!("hex-patterns: {message}");
                    ExitCode::from(2)
                }
            };
        }
        Task::HexOpenings { sizes, threads, table_bits, time_limit, expected, out } => {
            let threads =
                threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
            let config = hex_openings::OpeningsConfig {
                sizes,
                threads,
                table_bits,
                time_limit: time_limit.map(std::time::Duration::from_secs_f64),
                expected: expected.unwrap_or_else(|| workspace_root().join(hex_openings::DEFAULT_EXPECTED)),
                out: out.unwrap_or_else(|| {
                    workspace_root().join("target").join("eval").join(format!("hex-openings-{}", timestamp()))
                }),
            };
            return ExitCode::from(hex_openings::main(&config));
        }
        Task::HexMatchReport { files, beside, out } => {
            let read = |paths: &[PathBuf]| -> Result<Vec<_>, _> {
                paths.iter().map(|f| hex_match_report::read(f)).collect()
            };
            let text = read(&files).and_then(|files| {
                let mut text = hex_match_report::report(&files);
                if !beside.is_empty() {
                    let paired = hex_match_report::pair(&files, &read(&beside)?)?;
                    text.push_str(&hex_match_report::paired_report(&paired));
                }
                Ok(text)
            });
            let text = match text {
                Ok(text) => text,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            print!("{text}");
            if let Some(out) = out
                && let Err(e) = std::fs::write(&out, &text)
            {
                eprintln!("error: {}: {e}", out.display());
                return ExitCode::from(2);
            }
            return ExitCode::SUCCESS;
        }
        Task::HexDecided { games, size, time_limit, table_bits, out } => {
            let config = hex_decided::DecidedConfig {
                games,
                size,
                time_limit: std::time::Duration::from_secs_f64(time_limit),
                table_bits,
                out,
            };
            return match hex_decided::run(&config) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Task::HexSolveVs {
            ours,
            theirs,
            positions,
            ours_setup,
            theirs_setup,
            ours_solve,
            theirs_solve,
            only,
            children,
            timeout,
            repeat,
            out,
            engine_stderr,
        } => {
            let config = hex_solve_vs::SolveVsConfig {
                ours: hex_solve_vs::EngineSpec {
                    label: "ours",
                    command: ours,
                    setup: hex_solve_vs::split_setup(&ours_setup),
                    solve: ours_solve,
                },
                theirs: theirs.map(|command| hex_solve_vs::EngineSpec {
                    label: "theirs",
                    command,
                    setup: hex_solve_vs::split_setup(&theirs_setup),
                    solve: theirs_solve,
                }),
                positions,
                only,
                children,
                timeout: timeout.map(std::time::Duration::from_secs_f64),
                repeat,
                out: out.unwrap_or_else(|| {
                    workspace_root().join("target").join("eval").join(format!("solve-vs-{}", timestamp()))
                }),
                engine_stderr,
            };
            return match hex_solve_vs::run(&config) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Task::HexProbe { engines, positions, solve_time, table_bits, timeout, out, engine_stderr } => {
            let config = hex_probe::ProbeConfig {
                positions,
                engines,
                solve_time: std::time::Duration::from_secs_f64(solve_time),
                table_bits,
                timeout: std::time::Duration::from_secs_f64(timeout),
                out: out.unwrap_or_else(|| {
                    workspace_root().join("target").join("eval").join(format!("probe-{}", timestamp()))
                }),
                engine_stderr,
            };
            return match hex_probe::run(&config) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Task::HexProbePositions { games, size, from_ply, to_ply, solve_time, table_bits, min_nodes, out } => {
            if from_ply > to_ply {
                eprintln!("error: --from-ply {from_ply} is after --to-ply {to_ply}");
                return ExitCode::from(2);
            }
            let config = hex_probe::PositionsConfig {
                games,
                size,
                plies: (from_ply, to_ply),
                solve_time: std::time::Duration::from_secs_f64(solve_time),
                table_bits,
                min_nodes,
                out,
            };
            return match hex_probe::make_positions(&config) {
                Ok(count) => {
                    println!("wrote {count} positions to {}", config.out.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Task::HexReach { games, size, solve_time, band } => {
            let config = hex_reach::ReachConfig {
                games,
                size,
                solve_time: std::time::Duration::from_secs_f64(solve_time),
                band,
            };
            return match hex_reach::run(&config) {
                Ok(rows) => {
                    print!("{}", hex_reach::markdown(&config, &rows));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Task::Train2048 {
            shape,
            games,
            rule,
            learning_rate,
            restart_tile,
            restart_share,
            stages,
            stage_step_sizes,
            seed,
            threads,
            out,
            checkpoint_every,
            resume,
            optimistic,
        } => {
            let out = out.unwrap_or_else(|| {
                workspace_root().join("target").join("ntuple").join(format!("{}.bin", shape.name()))
            });
            let learning_rate = learning_rate.unwrap_or(match rule {
                game2048::ntuple::LearningRule::Td => 0.1,
                game2048::ntuple::LearningRule::Coherence => 1.0,
            });
            let options = train_2048::TrainOptions {
                shape,
                games,
                rule,
                learning_rate,
                restarts: match (restart_tile, restart_share) {
                    (Some(tile), Some(share)) => game2048::ntuple::Restarts::from_tile(tile, share),
                    _ => game2048::ntuple::Restarts::NONE,
                },
                stages,
                stage_step_sizes,
                seed,
                threads,
                out,
                checkpoint_every,
                resume,
                optimistic,
            };
            train_2048::run(&options).map(|_| ())
        }
        Task::Bench2048 {
            boards,
            nneonneo,
            cprob,
            repeat,
            out,
            make_boards,
            seed,
            per_stage,
            games,
            network,
            max_moves,
        } => {
            if let Some(games) = games {
                let config = bench_2048::games::GamesConfig {
                    nneonneo,
                    players: bench_2048::games::default_players(network.as_deref()),
                    games,
                    first_seed: seed,
                    max_moves,
                    out: out.unwrap_or_else(|| {
                        workspace_root()
                            .join("target")
                            .join("eval")
                            .join(format!("bench-2048-games-{}", timestamp()))
                    }),
                };
                return match bench_2048::games::run(&config) {
                    Ok(_) => ExitCode::SUCCESS,
                    Err(e) => {
                        eprintln!("error: {e}");
                        ExitCode::from(2)
                    }
                };
            }
            if let Some(path) = make_boards {
                let text = bench_2048::make_boards(seed, per_stage as usize);
                std::fs::write(&path, text)
                    .map(|()| println!("wrote {}", path.display()))
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))
            } else {
                let config = bench_2048::BenchConfig {
                    boards: if boards.is_relative() && !boards.exists() {
                        workspace_root().join(boards)
                    } else {
                        boards
                    },
                    nneonneo,
                    cprob,
                    repeat: repeat as usize,
                    out: out.unwrap_or_else(|| {
                        workspace_root()
                            .join("target")
                            .join("eval")
                            .join(format!("bench-2048-{}", timestamp()))
                    }),
                };
                bench_2048::run(&config).map(|_| ()).map_err(|e| e.to_string())
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_look_right() {
        let t = timestamp();
        assert_eq!(t.len(), 15);
        assert!(t.starts_with("20"));
        assert_eq!(&t[8..9], "-");
    }

    #[test]
    fn training_flags_refuse_impossible_values() {
        assert_eq!(parse_optimistic("320000"), Ok(320_000.0));
        for bad in ["0", "-5", "nan", "inf", "1e9", "lots"] {
            let err = parse_optimistic(bad).unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
        assert!(
            parse_learning_rate("0").is_err() && parse_share("1.5").is_err() && parse_tile("300").is_err()
        );
    }
}
