//! A dominoes match between two chosen players over duplicate deals, with its score and interval.
//!
//! Luck of the deal dominates single games of dominoes, so [`play_match`] plays every deal twice,
//! the seats swapped: each player holds both hands once, and a better player shows in the score
//! with far fewer deals. The result ([`MatchResult`]) counts wins, draws and losses from the first
//! player's side; its score is wins plus half the draws per game, given with a 95% Wilson
//! interval. A score whose interval excludes 0.5 is a real difference, not luck.
//!
//! The players: `random` (a uniformly random legal move), `greedy` (the heaviest tile that fits),
//! `seed` (the seed program's depth-limited search), `pimc` (perfect-information Monte Carlo:
//! sample the opponent's hand, solve each sample exactly) and `expectimax` (a search over the
//! opponent's hidden hand with exact counting: the opponent plays its best held tile, our draws
//! are chance nodes).
//!
//! ```text
//! cargo run --release --example domino_match -- --a pimc --b greedy --deals 100 --variant block
//! ```

use std::process::ExitCode;
use std::time::Instant;

use domino::Agent;
use domino::Rules;
use domino::game::DominoGame;
use domino::matches::{MatchResult, play_match};
use domino::players::{ExpectimaxPlayer, Greedy, MinNode, PimcPlayer, RandomPlayer, SeedPlayer};
use domino::solver::Objective;

/// What the command line asks for.
struct Settings {
    a: String,
    b: String,
    deals: u32,
    draw: bool,
    seed: u64,
    depth: u32,
    samples: usize,
}

const PLAYERS: [&str; 5] = ["random", "greedy", "seed", "pimc", "expectimax"];

const USAGE: &str = "usage: cargo run --release --example domino_match -- [options]

  --a P            the first player: random, greedy, seed, pimc or expectimax (default pimc)
  --b P            the second player, the same choices (default greedy)
  --deals N        deals, each played twice with the seats swapped, from 1 (default 100)
  --variant V      block (OpenSpiel's Block game, the default) or draw (the seed's Draw game)
  --seed N         seed of the deals and of the random players (default 1)
  --depth D        plies searched by seed and expectimax, from 1 to 12 (default 4)
  --samples N      hands sampled per decision by pimc, from 1 to 1000 (default 20)";

/// Reads the options from the arguments (program name excluded). `Ok(None)` means help.
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Option<Settings>, String> {
    let mut settings = Settings {
        a: "pimc".to_string(),
        b: "greedy".to_string(),
        deals: 100,
        draw: false,
        seed: 1,
        depth: 4,
        samples: 20,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let flag = arg.as_str();
        match flag {
            "-h" | "--help" => return Ok(None),
            "--a" | "--b" | "--deals" | "--variant" | "--seed" | "--depth" | "--samples" => {}
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
            "--a" | "--b" => {
                if !PLAYERS.contains(&text.as_str()) {
                    return Err(format!("`{flag}` takes one of {}, not `{text}`", PLAYERS.join(", ")));
                }
                if flag == "--a" {
                    settings.a = text;
                } else {
                    settings.b = text;
                }
            }
            "--variant" => {
                settings.draw = match text.as_str() {
                    "block" => false,
                    "draw" => true,
                    _ => return Err(format!("`--variant` takes block or draw, not `{text}`")),
                }
            }
            "--deals" => settings.deals = whole(1, u64::from(u32::MAX))? as u32,
            "--seed" => settings.seed = whole(0, u64::MAX)?,
            "--depth" => settings.depth = whole(1, 12)? as u32,
            _ => settings.samples = whole(1, 1000)? as usize,
        }
    }
    Ok(Some(settings))
}

/// Step 1: a player by name. Every player is a `Box<dyn Agent<DominoGame>>` (the one agent trait), what the referee seats;
/// each one sees only its own seat's view of the game.
fn make_player(name: &str, settings: &Settings, seed: u64) -> Box<dyn Agent<DominoGame>> {
    match name {
        "random" => Box::new(RandomPlayer::new(seed)),
        "greedy" => Box::new(Greedy),
        "seed" => Box::new(SeedPlayer::new(settings.depth, MinNode::Average)),
        "pimc" => Box::new(PimcPlayer::new(settings.samples, Objective::Points, 1, seed)),
        _ => Box::new(ExpectimaxPlayer { depth: settings.depth }),
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

    // The two players get different seeds, so a random player against itself is two players.
    let mut a = make_player(&settings.a, &settings, settings.seed);
    let mut b = make_player(&settings.b, &settings, settings.seed.wrapping_add(1));
    let (rules, variant) = if settings.draw { (Rules::draw(), "Draw") } else { (Rules::block(), "Block") };
    println!(
        "Dominoes, {variant} game: {} against {}, {} deals each played twice, seed {}",
        a.name(),
        b.name(),
        settings.deals,
        settings.seed
    );

    // Step 2: the match. Deal `i` follows from the seed alone, so the same command gives the
    // same match.
    let start = Instant::now();
    let result = play_match(a.as_mut(), b.as_mut(), rules, settings.deals, settings.seed);
    let seconds = start.elapsed().as_secs_f64();

    // Step 3: the tally, from the first player's side.
    print_result(&result, &a.name());
    println!("Time:            {seconds:.2} s ({:.1} games/s)", f64::from(result.games) / seconds);
    ExitCode::SUCCESS
}

/// The match result, one line per figure.
fn print_result(result: &MatchResult, first: &str) {
    let (lo, hi) = result.interval();
    println!("Games:           {}", result.games);
    println!("Won/drew/lost:   {} / {} / {} (from {first}'s side)", result.wins, result.draws, result.losses);
    println!("Score:           {:.3} (95% interval {lo:.3} to {hi:.3})", result.score());
    let verdict = if lo > 0.5 {
        format!("{first} is the stronger player")
    } else if hi < 0.5 {
        format!("{first} is the weaker player")
    } else {
        "no significant difference at this number of deals".to_string()
    };
    println!("Verdict:         {verdict}");
    println!("Points per game: {:+.2}", result.points_per_game());
}
