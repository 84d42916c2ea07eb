//! A game of 2048 played by the strong expectimax agent, the board redrawn as it goes.
//!
//! The example builds [`Strong`] with the per-line heuristic [`LineTable`] and a fast setting
//! (a probability cut-off of 0.001 and at most 6 moves deep), then lets [`play_game`] play a
//! seeded game. The observer closure `play_game` takes sees every move: on a terminal it clears
//! the screen and redraws the board; when the output is piped it prints the board every few
//! moves instead, so a log stays readable. At the end it prints the score, the highest tile and
//! the moves per second.
//!
//! ```text
//! cargo run --release --example play_2048 -- --seed 1 --moves 300
//! ```

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use game2048::Rules;
use game2048::agents::{Strong, StrongConfig};
use game2048::heuristics::LineTable;
use game2048::play::{MoveReport, play_game};

/// What the command line asks for.
struct Settings {
    seed: u64,
    moves: u64,
    cprob: f64,
    max_depth: u32,
    every: u64,
}

const USAGE: &str = "usage: cargo run --release --example play_2048 -- [options]

  --seed N        seed of the game's tile spawns (default 1)
  --moves N       stop after N moves, at least 1 (default 300)
  --cprob P       probability cut-off of the search, above 0 and below 1 (default 0.001)
  --max-depth D   deepest search in moves, from 1 to 12 (default 6)
  --every N       when not on a terminal, print the board every N moves (default 50)";

/// Reads the options from the arguments (program name excluded). `Ok(None)` means help.
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Option<Settings>, String> {
    let mut settings = Settings { seed: 1, moves: 300, cprob: 0.001, max_depth: 6, every: 50 };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "-h" || arg == "--help" {
            return Ok(None);
        }
        let flag = arg.as_str();
        if !matches!(flag, "--seed" | "--moves" | "--cprob" | "--max-depth" | "--every") {
            return Err(format!("unknown argument `{arg}`"));
        }
        let Some(text) = args.next() else {
            return Err(format!("`{flag}` needs a value"));
        };
        let whole = |min: u64, max: u64| match text.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!("`{flag}` takes a whole number from {min} to {max}, not `{text}`")),
        };
        match flag {
            "--seed" => settings.seed = whole(0, u64::MAX)?,
            "--moves" => settings.moves = whole(1, u64::MAX)?,
            "--max-depth" => settings.max_depth = whole(1, 12)? as u32,
            "--every" => settings.every = whole(1, u64::MAX)?,
            _ => {
                settings.cprob = match text.parse::<f64>() {
                    Ok(p) if p > 0.0 && p < 1.0 => p,
                    _ => {
                        return Err(format!("`--cprob` takes a number above 0 and below 1, not `{text}`"));
                    }
                }
            }
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

    // Step 1: the agent. `StrongConfig` holds the search settings; everything not named here
    // (Star1 pruning, the table size, one thread) keeps its default.
    let config = StrongConfig {
        probability_cutoff: settings.cprob,
        max_depth: settings.max_depth,
        ..StrongConfig::default()
    };
    let mut agent = Strong::new(config, LineTable::default());

    // Step 2: the observer. A terminal gets the board redrawn in place (ANSI "clear screen" and
    // "cursor home"); anything else gets plain successive boards, every `every` moves.
    let live = std::io::stdout().is_terminal();
    let every = settings.every;
    let mut total: u64 = 0;
    let observe = |report: &MoveReport| {
        total += u64::from(report.score);
        if !live && !report.number.is_multiple_of(every) {
            return;
        }
        let mut out = std::io::stdout().lock();
        if live {
            let _ = write!(out, "\x1b[2J\x1b[H");
        }
        let _ = writeln!(
            out,
            "move {} ({}), score {total}\n{}",
            report.number,
            report.decision.direction,
            report.after.grid()
        );
        let _ = out.flush();
    };

    // Step 3: play. The same seed and settings always give the same game.
    println!(
        "2048, strong agent (cut-off {}, depth at most {}), seed {}, at most {} moves",
        settings.cprob, settings.max_depth, settings.seed, settings.moves
    );
    let rules = Rules::default();
    let game = play_game(&mut agent, &rules, settings.seed, Some(settings.moves), observe);

    // Step 4: the summary, read from the game's record.
    println!("Final board:\n{}", game.board.grid());
    println!("Outcome:       {}", game.outcome.name());
    println!("Score:         {}", game.score);
    println!("Highest tile:  {}", game.max_tile);
    println!("Moves:         {} in {:.2} s", game.moves, game.seconds);
    println!("Moves/s:       {:.1}", game.moves_per_second());
    println!("Nodes:         {}", game.nodes);
    ExitCode::SUCCESS
}
