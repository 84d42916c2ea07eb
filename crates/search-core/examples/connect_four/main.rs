//! Connect Four on `search-core`: a bitboard game with a Zobrist hash and a window-count
//! evaluator (`game.rs`), searched by iterative deepening with a transposition table and played
//! against Monte Carlo tree search in the arena.
//!
//! ```text
//! cargo run --release -p game-search-core --example connect_four
//! cargo run --release -p game-search-core --example connect_four -- --depth 10 --moves 3,3,4
//! cargo run --release -p game-search-core --example connect_four -- --match 10 --depth 6 --playouts 2000
//! ```
//!
//! Without `--match` it searches one position (the empty board, or the columns of `--moves`
//! played in turn, 0 to 6 from the left) and prints the board, the value, the best move and
//! what the search did. `--match N` plays N pairs of games, the alpha-beta engine against MCTS,
//! each pair from its own random opening of four plies with the seats swapped, and prints the
//! score.

// The tests and the comparison bench share this file and use more of it than the example does.
#[allow(dead_code)]
mod game;

use std::process::ExitCode;

use game::{Board, ConnectFour, Windows};
use search_core::agent::{IterativeAgent, MctsAgent};
use search_core::arena::{self, MatchConfig};
use search_core::mcts::{self, RandomPlayout};
use search_core::{Limits, Rewards, TranspositionTable, draw, iterative, win_for};

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
struct Settings {
    depth: u32,
    moves: Vec<u8>,
    pairs: u32,
    playouts: u64,
    seed: u64,
}

const USAGE: &str =
    "usage: connect_four [--depth N] [--moves C,C,...] [--match PAIRS] [--playouts N] [--seed N]
  --depth N      alpha-beta depth in plies (default 8)
  --moves C,...  columns (0-6) played from the empty board before searching
  --match PAIRS  play PAIRS pairs of games, alpha-beta against MCTS, from random openings
  --playouts N   MCTS iterations a move (default 1000)
  --seed N       seed of the openings and of MCTS (default 1)";

fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<Settings>, String> {
    let mut settings = Settings { depth: 8, moves: Vec::new(), pairs: 0, playouts: 1000, seed: 1 };
    let mut args = args.peekable();
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |what: &str| value.parse::<u64>().map_err(|_| format!("{flag}: {what}, got {value:?}"));
        match flag.as_str() {
            "--depth" => settings.depth = number("a depth in plies")?.clamp(1, 42) as u32,
            "--match" => settings.pairs = number("a number of pairs")? as u32,
            "--playouts" => settings.playouts = number("a number of iterations")?.max(1),
            "--seed" => settings.seed = number("a seed")?,
            "--moves" => {
                settings.moves = value
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .map(|c| {
                        c.trim().parse::<u8>().map_err(|_| format!("--moves: {c:?} is not a column 0-6"))
                    })
                    .collect::<Result<_, _>>()?;
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(Some(settings))
}

/// Each player's result at the end of a game: 1 the winner, 0 the loser, ½ each for a draw.
fn rewards(board: &Board) -> Rewards {
    match board.winner() {
        Some(winner) => win_for(winner),
        None => draw(),
    }
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
    let board = match Board::from_moves(&settings.moves) {
        Ok(board) => board,
        Err(message) => {
            eprintln!("error: --moves: {message}");
            return ExitCode::from(2);
        }
    };
    // One table, 16 MiB, borrowed by the search and by the agent below.
    let table = TranspositionTable::<i32>::with_megabytes(16);
    let config = iterative::Config { limits: Limits::depth(settings.depth), ..Default::default() };

    if settings.pairs == 0 {
        let found = iterative::search(&ConnectFour, &Windows, &board, &config, &table);
        println!("{board}");
        let stats = &found.result.stats;
        println!(
            "value {} best column {:?} depth {} nodes {} ({:.1} ms)",
            found.result.value,
            found.result.best_move,
            stats.depth_reached,
            stats.nodes,
            stats.elapsed.as_secs_f64() * 1e3
        );
        return ExitCode::SUCCESS;
    }

    let mut engine = IterativeAgent::new(format!("alphabeta-d{}", settings.depth), Windows, config, &table);
    let mcts_config = mcts::Config { seed: settings.seed, ..mcts::Config::iterations(settings.playouts) };
    let mut mcts =
        MctsAgent::new(format!("mcts-{}", settings.playouts), RandomPlayout::new(rewards), mcts_config);
    let match_config = MatchConfig { seed: settings.seed, opening_plies: 4, ..MatchConfig::default() };
    let starts = vec![board; settings.pairs as usize];
    let result =
        arena::play_match(&ConnectFour, &starts, &mut engine, &mut mcts, &match_config, |_, board| {
            rewards(board)
        });
    println!("{result}");
    ExitCode::SUCCESS
}
