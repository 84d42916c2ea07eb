//! A game of Hex between two chosen players, printed the way the GTP `showboard` command prints.
//!
//! Black moves first and connects top to bottom; White connects left to right. Each side is one
//! of the crate's players behind the [`HexPlayer`] trait: a uniformly random mover, or one of the
//! three seed players (madeup, coolcow, bridges), which search `--depth` moves ahead with
//! `search-core`'s alpha-beta, or the strong player (selective iterative deepening on
//! two-distance potentials) with a budget of `--nodes` search nodes a move. The example asks the side to move for a move, plays it on the
//! [`Position`] and prints the board, until a side connects its edges (Hex has no draws).
//!
//! ```text
//! cargo run --release --example hex_game -- --black bridges --white madeup --size 7 --depth 3
//! ```

use std::process::ExitCode;
use std::time::Instant;

use hex::players::{BridgesConfig, BridgesPlayer, CoolcowPlayer, MadeupConfig, MadeupPlayer, SearchConfig};
use hex::strong::{StrongConfig, StrongPlayer};
use hex::{HexPlayer, MAX_SIZE, Position, RandomPlayer, move_name, showboard};

/// What the command line asks for.
struct Settings {
    black: String,
    white: String,
    size: u32,
    depth: u32,
    nodes: u64,
    seed: u64,
    quiet: bool,
}

const PLAYERS: [&str; 5] = ["random", "madeup", "coolcow", "bridges", "strong"];

const USAGE: &str = "usage: cargo run --release --example hex_game -- [options]

  --black P    Black's player: random, madeup, coolcow, bridges or strong (default bridges)
  --white P    White's player, the same choices (default madeup)
  --size N     board size, from 1 to 19 (default 7)
  --depth D    search depth in moves of the seed players, from 1 to 6 (default 3)
  --nodes N    the strong player's search nodes per move, from 1 to 10^9 (default 20000)
  --seed N     seed of the random players (default 1)
  --quiet      print the board only at the end";

/// Reads the options from the arguments (program name excluded). `Ok(None)` means help.
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Option<Settings>, String> {
    let mut settings = Settings {
        black: "bridges".to_string(),
        white: "madeup".to_string(),
        size: 7,
        depth: 3,
        nodes: 20_000,
        seed: 1,
        quiet: false,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let flag = arg.as_str();
        match flag {
            "-h" | "--help" => return Ok(None),
            "--quiet" => {
                settings.quiet = true;
                continue;
            }
            "--black" | "--white" | "--size" | "--depth" | "--nodes" | "--seed" => {}
            _ => return Err(format!("unknown argument `{arg}`")),
        }
        let Some(text) = args.next() else {
            return Err(format!("`{flag}` needs a value"));
        };
        let whole = |min: u64, max: u64| match text.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!("`{flag}` takes a whole number from {min} to {max}, not `{text}`")),
        };
        match flag {
            "--black" | "--white" => {
                if !PLAYERS.contains(&text.as_str()) {
                    return Err(format!("`{flag}` takes one of {}, not `{text}`", PLAYERS.join(", ")));
                }
                if flag == "--black" {
                    settings.black = text;
                } else {
                    settings.white = text;
                }
            }
            "--size" => settings.size = whole(1, u64::from(MAX_SIZE))? as u32,
            "--depth" => settings.depth = whole(1, 6)? as u32,
            "--nodes" => settings.nodes = whole(1, 1_000_000_000)?,
            _ => settings.seed = whole(0, u64::MAX)?,
        }
    }
    Ok(Some(settings))
}

/// Step 1: a player by name. Every player is a `Box<dyn HexPlayer>`, so the game loop does not
/// care which is which. The searching players take a `SearchConfig`; `ordered()` turns on killer
/// and history move ordering, which makes alpha-beta faster without changing the value. The
/// strong player gets a node budget rather than a time limit, so the game is the same on any
/// machine.
fn make_player(name: &str, settings: &Settings, seed: u64) -> Box<dyn HexPlayer> {
    let depth = settings.depth;
    let search = SearchConfig::depth(depth).ordered();
    match name {
        "random" => Box::new(RandomPlayer::new(seed)),
        "madeup" => Box::new(MadeupPlayer::new(MadeupConfig { search, ..Default::default() })),
        "coolcow" => Box::new(CoolcowPlayer::new(search)),
        "strong" => Box::new(StrongPlayer::new(StrongConfig::nodes(settings.nodes))),
        _ => Box::new(BridgesPlayer::new(BridgesConfig { search, ..Default::default() })),
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

    // Black's random player and White's get different seeds, so two random players differ.
    let mut black = make_player(&settings.black, &settings, settings.seed);
    let mut white = make_player(&settings.white, &settings, settings.seed.wrapping_add(1));
    // The size was checked against MAX_SIZE, so the position can be made.
    let mut position = Position::new(settings.size).expect("the size is checked");
    println!(
        "Hex {n}x{n}: Black {} (top to bottom) against White {} (left to right), depth {}",
        black.name(),
        white.name(),
        settings.depth,
        n = settings.size,
    );

    // Step 2: the game loop. The side to move chooses; `play` returns the new position (a move
    // a player returns is always legal, so an error here would be a bug in the player).
    let start = Instant::now();
    let winner = loop {
        if let Some(winner) = position.winner() {
            break winner;
        }
        let color = position.to_move();
        let player = if color == hex::Color::Black { &mut black } else { &mut white };
        let mv = player.choose_move(&position);
        position = position.play(mv).expect("players choose legal moves");
        if !settings.quiet {
            println!("\n{}. {color} {}", position.moves_played(), move_name(mv));
            println!("{}", showboard(&position));
        }
    };

    // Step 3: the result.
    if settings.quiet {
        println!("{}", showboard(&position));
    }
    let name = if winner == hex::Color::Black { black.name() } else { white.name() };
    println!(
        "{winner} ({name}) wins after {} moves, in {:.3} s",
        position.moves_played(),
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
