//! One-pile Nim solved with `search-core`: a walkthrough of what a game needs to be searched.
//!
//! Two players take turns removing 1, 2 or 3 stones from one pile; whoever takes the last stone
//! wins. A pile that is a multiple of 4 is lost for the player to move (whatever they take, the
//! opponent takes the rest of 4), so the winning move is to leave a multiple of 4.
//!
//! The example implements the game ([`Game`]), a hash for the transposition table ([`GameHash`])
//! and an evaluator ([`Evaluator`]), runs [`iterative::search`] and prints what it found.
//!
//! ```text
//! cargo run --release --example nim -- --stones 21 --depth 25
//! ```

use std::process::ExitCode;

use search_core::{
    Evaluator, Game, GameHash, Limits, MoveList, Player, SearchStats, ToMove, TranspositionTable, iterative,
};

// Step 1: the game. `Nim` itself holds no data: the rules never change. A state is the pile and
// whose turn it is; `play` returns a new state and leaves the old one alone (copy-make).

/// One-pile Nim, taking 1 to 3 stones a turn.
struct Nim;

/// A position: the stones left and the player to move (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pile {
    stones: u32,
    to_move: Player,
}

impl Game for Nim {
    type State = Pile;
    /// The number of stones taken.
    type Move = u32;

    fn to_move(&self, pile: &Pile) -> ToMove {
        // An empty pile ends the game; there are no chance nodes in Nim.
        if pile.stones == 0 { ToMove::Terminal } else { ToMove::Player(pile.to_move) }
    }

    fn moves(&self, pile: &Pile, moves: &mut MoveList<u32>) {
        moves.extend((1..=3).filter(|&take| take <= pile.stones));
    }

    fn play(&self, pile: &Pile, take: u32) -> Pile {
        Pile { stones: pile.stones - take, to_move: 1 - pile.to_move }
    }

    // Optional: naming each move by a small index turns on the killer and history tables, which
    // learn which moves tend to refute and try them first.
    fn move_space(&self) -> usize {
        3
    }

    fn move_index(&self, take: u32) -> usize {
        take as usize - 1
    }
}

// Step 2: a hash, so the search can use a transposition table. Many move orders reach the same
// pile (1 then 3 leaves what 3 then 1 leaves), and the table searches each such pile only once.
// Any function that gives different states different numbers will do; board games usually use
// a Zobrist hash. It must include the player to move.
impl GameHash for Nim {
    fn hash(&self, pile: &Pile) -> u64 {
        (u64::from(pile.stones) << 1) | u64::from(pile.to_move)
    }
}

// Step 3: an evaluator, which values the positions where the search stops. Values are always
// from the point of view of `player`, the player to move at the root.

/// The score of a win; a loss is its negation.
const WIN: i32 = 100;

/// Win, loss, or 0 for a pile the search did not see to the end.
struct WinLoss;

impl Evaluator<Nim> for WinLoss {
    type Value = i32;

    fn evaluate(&self, _: &Nim, _: &Pile, _: Player) -> i32 {
        // A pile cut off by the depth limit: the search does not know, so it says "even".
        0
    }

    fn terminal(&self, _: &Nim, pile: &Pile, player: Player, _ply: u32) -> i32 {
        // At an empty pile, the player to move did not take the last stone: they lost.
        // The score ignores `ply` (how far from the root the game ended) on purpose: the
        // transposition table shares a pile's value among every path that reaches it, so the
        // value must not depend on the path.
        if pile.to_move == player { -WIN } else { WIN }
    }
}

/// What the command line asks for.
struct Settings {
    stones: u32,
    depth: u32,
}

/// The deepest search accepted. It keeps every run short: with the depth limit `d` below the
/// pile, a pile is reached with many different depths left, each searched anew, so the work
/// grows about as `d³` (depth 200 takes a quarter of a second, depth 1000 over half a minute).
const MAX_DEPTH: u32 = 200;

const USAGE: &str = "usage: cargo run --release --example nim -- [--stones N] [--depth D]

  --stones N   stones in the pile at the start, at least 1 (default 21)
  --depth D    deepest search, in moves, from 1 to 200 (default 25)";

/// Reads `--stones N` and `--depth D` from the arguments (program name excluded).
/// `Ok(None)` means help was asked for.
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Option<Settings>, String> {
    let mut settings = Settings { stones: 21, depth: 25 };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, max) = match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--stones" => ("--stones", u32::MAX),
            "--depth" => ("--depth", MAX_DEPTH),
            _ => return Err(format!("unknown argument `{arg}`")),
        };
        let Some(text) = args.next() else {
            return Err(format!("`{flag}` needs a value"));
        };
        let value = match text.parse::<u32>() {
            Ok(n) if (1..=max).contains(&n) => n,
            _ => return Err(format!("`{flag}` takes a whole number from 1 to {max}, not `{text}`")),
        };
        if flag == "--stones" {
            settings.stones = value;
        } else {
            settings.depth = value;
        }
    }
    Ok(Some(settings))
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
    let start = Pile { stones: settings.stones, to_move: 0 };
    println!("One-pile Nim: {} stones, take 1 to 3 a turn, whoever takes the last stone wins.", start.stones);

    // Step 4: search. Iterative deepening searches to depth 1, 2, … up to the limit; each
    // iteration tries the previous one's best move first and reuses the table. The table is
    // shared through a reference, and its size is a number of slots (rounded up to a power of 2).
    let table = TranspositionTable::<i32>::with_capacity(1 << 16);
    let config = iterative::Config { limits: Limits::depth(settings.depth), ..Default::default() };
    let found = iterative::search(&Nim, &WinLoss, &start, &config, &table);
    let result = &found.result;

    // Step 5: read the answer. Everything is plain data; the search itself never prints.
    match result.best_move {
        Some(take) => println!("Best move:  take {take}, leaving {}", start.stones - take),
        None => println!("Best move:  none (the game is over)"),
    }
    let verdict = match result.value {
        WIN => "a win for the player to move",
        v if v == -WIN => "a loss for the player to move, whatever they do",
        _ => "undecided: the end of the game is beyond the depth limit",
    };
    println!("Value:      {:+} ({verdict})", result.value);
    let theory = if start.stones.is_multiple_of(4) { "a loss" } else { "a win" };
    println!("Theory:     {} stones is {theory} for the player to move", start.stones);
    println!("Best line:  {}", describe_line(start.stones, &result.pv));
    print_stats(&result.stats, &found.stop);
    ExitCode::SUCCESS
}

/// The principal variation as `take 1 (20 left), take 3 (17 left), …`.
fn describe_line(mut stones: u32, pv: &[u32]) -> String {
    let steps: Vec<String> = pv
        .iter()
        .map(|&take| {
            stones -= take;
            format!("take {take} ({stones} left)")
        })
        .collect();
    if steps.is_empty() { "(empty)".to_string() } else { steps.join(", ") }
}

/// The search statistics, one per line. They are summed over every iteration.
fn print_stats(stats: &SearchStats, stop: &iterative::Stop) {
    println!("Search (all iterations together):");
    println!("  nodes       {}", stats.nodes);
    println!("  leaves      {}", stats.leaves);
    println!("  cut-offs    {}", stats.cutoffs);
    println!(
        "  table       {} hits in {} probes, {} of them ending the search of a node",
        stats.tt_hits, stats.tt_probes, stats.tt_cutoffs
    );
    println!("  depth       {} (stopped by the {stop:?} limit)", stats.depth_reached);
    println!("  time        {:.3} ms", stats.elapsed.as_secs_f64() * 1e3);
    println!("  nodes/s     {:.0}", stats.nodes_per_second());
}
