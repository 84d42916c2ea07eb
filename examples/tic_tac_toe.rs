//! Tic-tac-toe from scratch on `search-core`: a tutorial on what a Rust project writes to search
//! its own game with the library.
//!
//! # 1. The dependency
//!
//! A project outside this workspace names the crate by its path in its `Cargo.toml`:
//!
//! ```toml
//! [dependencies]
//! game-search-core = { path = "../game-search/crates/search-core" }
//! ```
//!
//! A crate inside the workspace uses the workspace form, `search-core.workspace = true`, as
//! this root package does. Nothing else is needed: no game crate, no random-number crate.
//!
//! # 2. The traits
//!
//! - [`Game`] for `TicTacToe`: who is to move (or whether the game is over), the legal moves,
//!   and `play`, which returns the next position and leaves the old one alone. The board is two
//!   `u16` bitmasks, one per player, and the side to move.
//! - [`GameHash`], a 64-bit key per position, so the search can use a transposition table.
//! - [`Evaluator`] for `Score`: a won game is worth `+(100 − ply)`, a lost one `−(100 − ply)`
//!   (a quick win beats a slow one, a slow loss beats a quick one), a draw 0; a position cut off
//!   by the depth limit is worth 0, or with line counting the lines still open to the player
//!   minus those open to the opponent.
//!
//! # 3. A search, and a move chosen
//!
//! [`alphabeta::search`] with a [`TranspositionTable`] returns a [`SearchResult`]: the value of
//! the position for the player to move, the best move and the nodes searched (see `choose`).
//!
//! # 4. Agents
//!
//! Anything that plays games takes a [`search_core::agent::Agent`]: the engine is an
//! [`AlphaBetaAgent`] (the search, its evaluator, its settings and a table kept from move to
//! move), and the random player implements the trait itself (`RandomMover`: a name and a move
//! for a board).
//!
//! # 5. A game, and a match
//!
//! `main` plays a full game, engine against engine (perfect play is a draw), or engine against a
//! random player seeded with `--seed` (the random player moves first when the seed is odd). It
//! prints the board after every move with the move and the nodes searched. `--match N` instead
//! plays N pairs of games against the random player through [`search_core::arena::play_match`]
//! (the match runner every game of the workspace uses), each pair with the seats swapped, and
//! prints the engine's score with its 95 % interval.
//!
//! ```text
//! cargo run --release --example tic_tac_toe
//! cargo run --release --example tic_tac_toe -- --vs-random --seed 7 --depth 9
//! cargo run --release --example tic_tac_toe -- --match 50 --seed 3
//! ```

use std::process::ExitCode;

use search_core::agent::{Agent, AlphaBetaAgent};
use search_core::{
    Evaluator, Game, GameHash, MoveList, NoCutoff, Player, Rewards, SearchResult, ToMove, TranspositionTable,
    alphabeta, arena, draw, win_for,
};

// Step 1: the game. Cell `i` (0 to 8, row by row from the top left) is bit `i` of a mask.

/// The rules of tic-tac-toe. It holds no data: the rules never change.
pub struct TicTacToe;

/// The nine cells, all set.
pub const FULL: u16 = 0x1ff;

/// The eight lines: three rows, three columns, two diagonals.
pub const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// A position: the cells of each player (`marks[0]` for X, who starts) and the player to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// The cells marked by player 0 (X) and player 1 (O).
    pub marks: [u16; 2],
    /// The player to move: 0 for X, 1 for O.
    pub to_move: Player,
}

impl Board {
    /// The empty board, X to move.
    pub fn new() -> Self {
        Board::default()
    }

    /// The player with three in a line, if any.
    pub fn winner(&self) -> Option<Player> {
        (0..2).find(|&p| LINES.iter().any(|&line| self.marks[usize::from(p)] & line == line))
    }

    /// The empty cells as a mask.
    pub fn empty(&self) -> u16 {
        FULL & !(self.marks[0] | self.marks[1])
    }

    /// The board as three lines of `X`, `O` and `.`.
    pub fn render(&self) -> String {
        let rows: Vec<String> = (0..3)
            .map(|row| {
                let cells: Vec<&str> = (0..3)
                    .map(|col| {
                        let bit = 1 << (3 * row + col);
                        if self.marks[0] & bit != 0 {
                            "X"
                        } else if self.marks[1] & bit != 0 {
                            "O"
                        } else {
                            "."
                        }
                    })
                    .collect();
                format!("    {}", cells.join(" "))
            })
            .collect();
        rows.join("\n")
    }
}

/// The order moves are generated in: centre, corners, edges. Alpha-beta prunes more when the
/// best move comes early, and in tic-tac-toe the centre and corners usually are.
const MOVE_ORDER: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

impl Game for TicTacToe {
    type State = Board;
    /// The cell marked, 0 to 8.
    type Move = u8;

    fn to_move(&self, board: &Board) -> ToMove {
        // The game ends with three in a line or a full board; there are no chance nodes.
        if board.winner().is_some() || board.empty() == 0 {
            ToMove::Terminal
        } else {
            ToMove::Player(board.to_move)
        }
    }

    fn moves(&self, board: &Board, moves: &mut MoveList<u8>) {
        let empty = board.empty();
        moves.extend(MOVE_ORDER.iter().copied().filter(|&cell| empty & (1 << cell) != 0));
    }

    fn play(&self, board: &Board, cell: u8) -> Board {
        let mut next = *board;
        next.marks[usize::from(board.to_move)] |= 1 << cell;
        next.to_move = 1 - board.to_move;
        next
    }

    // Optional: naming each move by a small index turns on the killer and history tables.
    fn move_space(&self) -> usize {
        9
    }

    fn move_index(&self, cell: u8) -> usize {
        usize::from(cell)
    }
}

// Step 2: a hash for the transposition table. Different move orders reach the same board, and
// the table searches each board once. Two 9-bit masks and the side to move fit in 19 bits, so
// the key is exact: no two boards share one.
impl GameHash for TicTacToe {
    fn hash(&self, board: &Board) -> u64 {
        u64::from(board.marks[0]) | u64::from(board.marks[1]) << 9 | u64::from(board.to_move) << 18
    }
}

// Step 3: an evaluator. Values are from the point of view of `player`, the player to move at
// the root of the search.

/// The score of a win at the root; a win `ply` moves deep scores `WIN - ply`.
pub const WIN: i32 = 100;

/// Values finished games by who won and how soon, and unfinished ones by 0 or by open lines.
#[derive(Clone, Copy, Debug, Default)]
pub struct Score {
    /// Value positions cut off by the depth limit by counting open lines, instead of 0.
    pub count_lines: bool,
}

impl Evaluator<TicTacToe> for Score {
    type Value = i32;

    fn evaluate(&self, _: &TicTacToe, board: &Board, player: Player) -> i32 {
        if !self.count_lines {
            return 0;
        }
        // A line is open to a player when the opponent has no mark on it. At most 8 either way,
        // far from any win or loss.
        let mine = board.marks[usize::from(player)];
        let theirs = board.marks[usize::from(1 - player)];
        let open = |blocker: u16| LINES.iter().filter(|&&line| line & blocker == 0).count() as i32;
        open(theirs) - open(mine)
    }

    fn terminal(&self, _: &TicTacToe, board: &Board, player: Player, ply: u32) -> i32 {
        // `ply` depends only on the path length, and in tic-tac-toe every path from the root to
        // a board has the same length (one mark per move), so a table of one search can share
        // these values safely. A new search, from a new root, needs a new table.
        let score = WIN - ply as i32;
        match board.winner() {
            Some(winner) if winner == player => score,
            Some(_) => -score,
            None => 0,
        }
    }
}

// Step 4: a search, and a move chosen.

/// Searches `board` to `depth` moves with alpha-beta and a fresh transposition table.
pub fn choose(board: &Board, depth: u32, count_lines: bool) -> SearchResult<u8, i32> {
    // 2^12 slots hold the 5,478 legal boards comfortably; the table is shared by reference.
    let table = TranspositionTable::<i32>::with_capacity(1 << 12);
    let config = alphabeta::Config::depth(depth);
    alphabeta::search(&TicTacToe, &Score { count_lines }, board, &config, &table)
}

/// A small seeded random-number generator (SplitMix64), so the random player needs no crate.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the tiny bias of the modulo does not matter here.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A uniformly random legal move.
pub fn random_move(board: &Board, rng: &mut SplitMix64) -> u8 {
    let mut moves = MoveList::new();
    TicTacToe.moves(board, &mut moves);
    moves[rng.below(moves.len())]
}

// Step 5: agents.

/// The engine as an agent: alpha-beta to `depth` moves with line counting, and a table of 2^12
/// slots kept from one move to the next.
pub fn engine(depth: u32) -> AlphaBetaAgent<Score, NoCutoff, TranspositionTable<i32>> {
    let config = alphabeta::Config::depth(depth);
    let table = TranspositionTable::with_capacity(1 << 12);
    AlphaBetaAgent::new(format!("alphabeta-d{depth}"), Score { count_lines: true }, config, table)
}

/// The random player as an agent: what a player of your own writes to plug into the arena.
#[derive(Clone, Debug)]
pub struct RandomMover(pub SplitMix64);

impl Agent<TicTacToe> for RandomMover {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, _: &TicTacToe, board: &Board) -> u8 {
        random_move(board, &mut self.0)
    }
}

/// Each player's result at the end of a game: 1 the winner, 0 the loser, ½ each for a draw.
pub fn rewards(_: &TicTacToe, board: &Board) -> Rewards {
    match board.winner() {
        Some(p) => win_for(p),
        None => draw(),
    }
}

/// What the command line asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The seed of the random player.
    pub seed: u64,
    /// The search depth in moves, 1 to 9.
    pub depth: u32,
    /// Play against a random player instead of the engine itself.
    pub vs_random: bool,
    /// Play this many pairs of games against the random player, seats swapped, and print the
    /// score (0 for one game).
    pub pairs: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { seed: 0, depth: 9, vs_random: false, pairs: 0 }
    }
}

const USAGE: &str =
    "usage: cargo run --release --example tic_tac_toe -- [--depth D] [--vs-random] [--seed N] [--match PAIRS]

  --depth D     search depth in moves, from 1 to 9 (default 9: to the end of the game)
  --vs-random   play the engine against a random player instead of itself
  --seed N      seed of the random player, 0 or more (default 0); with an odd seed the
                random player moves first
  --match PAIRS play PAIRS pairs of games against the random player, seats swapped, and
                print the engine's score with its 95% interval";

/// Reads the arguments (program name excluded). `Ok(None)` means help was asked for.
pub fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Option<Settings>, String> {
    let mut settings = Settings::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--vs-random" => settings.vs_random = true,
            "--depth" | "--seed" | "--match" => {
                let Some(text) = args.next() else {
                    return Err(format!("`{arg}` needs a value"));
                };
                if arg == "--match" {
                    settings.pairs = match text.parse::<u32>() {
                        Ok(n) if n > 0 => n,
                        _ => {
                            return Err(format!(
                                "`--match` takes a whole number of pairs, 1 or more, not `{text}`"
                            ));
                        }
                    };
                } else if arg == "--depth" {
                    settings.depth = match text.parse::<u32>() {
                        Ok(d) if (1..=9).contains(&d) => d,
                        _ => return Err(format!("`--depth` takes a whole number from 1 to 9, not `{text}`")),
                    };
                } else {
                    settings.seed = text
                        .parse::<u64>()
                        .map_err(|_| format!("`--seed` takes a whole number, 0 or more, not `{text}`"))?;
                }
            }
            _ => return Err(format!("unknown argument `{arg}`")),
        }
    }
    Ok(Some(settings))
}

/// The mark of a player.
pub fn mark(player: Player) -> char {
    if player == 0 { 'X' } else { 'O' }
}

/// The engine's side against the random player: X (0) for an even seed, O (1) for an odd one.
pub fn engine_side(seed: u64) -> Player {
    (seed % 2) as Player
}

/// Plays one game and returns the winner (`None` for a draw). With `vs_random` the random
/// player is O for an even seed and X for an odd one. Prints the game when `verbose`.
pub fn play_game(settings: &Settings, verbose: bool) -> Option<Player> {
    let mut engine_x = engine(settings.depth);
    let mut engine_o = engine(settings.depth);
    let mut random = RandomMover(SplitMix64(settings.seed));
    let random_side = settings.vs_random.then(|| 1 - engine_side(settings.seed));
    let mut agents: [&mut dyn Agent<TicTacToe>; 2] = match random_side {
        Some(0) => [&mut random, &mut engine_o],
        Some(_) => [&mut engine_x, &mut random],
        None => [&mut engine_x, &mut engine_o],
    };
    let mut board = Board::new();
    let mut turn = 1;
    while TicTacToe.to_move(&board) != ToMove::Terminal {
        let player = board.to_move;
        let agent = &mut agents[usize::from(player)];
        let cell = agent.choose(&TicTacToe, &board);
        board = TicTacToe.play(&board, cell);
        if verbose {
            let (row, col) = (cell / 3 + 1, cell % 3 + 1);
            let note = match agent.last_stats() {
                Some(stats) => format!("{}, {} nodes", agent.name(), stats.nodes),
                None => agent.name(),
            };
            println!("Move {turn}: {} at row {row}, column {col}: {note}", mark(player));
            println!("{}", board.render());
        }
        turn += 1;
    }
    board.winner()
}

/// Plays `settings.pairs` pairs of games, the engine against the random player with the seats
/// swapped in each pair, through the arena.
pub fn play_match(settings: &Settings) -> arena::MatchResult<Board, u8> {
    let starts = vec![Board::new(); settings.pairs as usize];
    let mut random = RandomMover(SplitMix64(settings.seed));
    arena::play_match(
        &TicTacToe,
        &starts,
        &mut engine(settings.depth),
        &mut random,
        &arena::MatchConfig { seed: settings.seed, ..arena::MatchConfig::default() },
        rewards,
    )
}

fn main() -> ExitCode {
    let settings = match parse_args(std::env::args().skip(1)) {
        Ok(Some(settings)) => settings,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if settings.pairs > 0 {
        let result = play_match(&settings);
        let (low, high) = result.interval_a();
        println!(
            "Tic-tac-toe, {} against {}: {} games, score {:.3} (95% interval {low:.3} to {high:.3}).",
            result.a,
            result.b,
            result.games.len(),
            result.score_a()
        );
        return ExitCode::SUCCESS;
    }
    let players = if settings.vs_random {
        let random = mark(1 - engine_side(settings.seed));
        format!("the engine against a random player (seed {}) playing {random}", settings.seed)
    } else {
        "the engine against itself".to_string()
    };
    println!("Tic-tac-toe, {players}; search depth {}.", settings.depth);
    let winner = play_game(&settings, true);
    match winner {
        Some(p) if settings.vs_random => {
            let who = if p == engine_side(settings.seed) { "the engine" } else { "the random player" };
            println!("Result: {} ({who}) wins.", mark(p));
        }
        Some(p) => println!("Result: {} wins.", mark(p)),
        None if settings.vs_random => println!("Result: a draw."),
        None => println!("Result: a draw, as perfect play on both sides must be."),
    }
    ExitCode::SUCCESS
}
