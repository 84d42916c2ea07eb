//! What the MCTS player's search thinks of a Hex position: for each iteration budget and
//! exploration constant asked for, the move it chooses and its root statistics (each top move's
//! share of the visits, its mean result, its all-moves-as-first mean and its share of the
//! priors), with the GTP engine's player: its default settings, or others given as
//! `--param name=value` exactly as `param_hex name value` takes them.
//!
//! Budgets are counted in iterations, not seconds, so the same command prints the same lines on
//! any machine, loaded or not. It shows how the visits settle as the budget grows: with no
//! exploration term ([`MctsConfig::exploration`] 0, the default) the first move that looks good
//! keeps nearly every visit, and a larger budget seldom changes the choice.
//!
//! ```text
//! cargo run --release --example hex_root -- --size 9 --moves "b6" --iterations 100000,400000 --exploration 0,0.2
//! cargo run --release --example hex_root -- --size 11 --moves "f6" --param knowledge=1000
//! ```

use std::process::ExitCode;

use hex::gtp::{Engine, Settings as EngineSettings, default_player};
use hex::mcts::{MctsConfig, MctsPlayer};
use hex::{MAX_SIZE, Position, move_name, play_moves};

/// What the command line asks for.
struct Settings {
    size: u32,
    moves: String,
    iterations: Vec<u64>,
    exploration: Vec<f64>,
    seed: u64,
    top: usize,
    /// The engine's settings after the `--param` options.
    engine: EngineSettings,
}

const USAGE: &str = "usage: cargo run --release --example hex_root -- [options]

  --size N             board size, from 1 to 19 (default 9)
  --moves \"M...\"       the moves played so far, e.g. \"e5 c7\" (default: none)
  --iterations N,...   iteration budgets, each from 1 to 10^9 (default 20000)
  --exploration C,...  UCB exploration constants, each from 0 to 10 (default: the engine's, 0)
  --seed N             seed of the playouts (default: the engine's, 1)
  --top K              root moves shown, the most visited first, from 1 to 361 (default 6)
  --param NAME=VALUE   an engine setting, as `param_hex NAME VALUE` takes it (repeatable;
                       default: the engine's defaults)";

/// Reads the options from the arguments (program name excluded). `Ok(None)` means help.
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Option<Settings>, String> {
    let mut settings = Settings {
        size: 9,
        moves: String::new(),
        iterations: vec![20_000],
        exploration: Vec::new(),
        seed: 1,
        top: 6,
        engine: EngineSettings::default(),
    };
    let mut engine = Engine::new(default_player);
    let mut seed = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let flag = arg.as_str();
        match flag {
            "-h" | "--help" => return Ok(None),
            "--size" | "--moves" | "--iterations" | "--exploration" | "--seed" | "--top" | "--param" => {}
            _ => return Err(format!("unknown argument `{arg}`")),
        }
        let Some(text) = args.next() else {
            return Err(format!("`{flag}` needs a value"));
        };
        let whole = |text: &str, min: u64, max: u64| match text.trim().parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!("`{flag}` takes whole numbers from {min} to {max}, not `{text}`")),
        };
        match flag {
            "--size" => settings.size = whole(&text, 1, u64::from(MAX_SIZE))? as u32,
            "--moves" => settings.moves = text,
            "--iterations" => {
                settings.iterations =
                    text.split(',').map(|n| whole(n, 1, 1_000_000_000)).collect::<Result<_, _>>()?;
            }
            "--exploration" => {
                settings.exploration = text
                    .split(',')
                    .map(|c| match c.trim().parse::<f64>() {
                        Ok(c) if (0.0..=10.0).contains(&c) => Ok(c),
                        _ => Err(format!("`--exploration` takes numbers from 0 to 10, not `{c}`")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--seed" => seed = Some(whole(&text, 0, u64::MAX)?),
            "--param" => {
                let Some((name, value)) = text.split_once('=') else {
                    return Err(format!("`--param` takes NAME=VALUE, not `{text}`"));
                };
                let answer = engine.handle(&format!("param_hex {name} {value}")).unwrap_or_default();
                if let Some(error) = answer.strip_prefix('?') {
                    return Err(format!("`--param {text}`: {}", error.trim()));
                }
            }
            _ => settings.top = whole(&text, 1, 361)? as usize,
        }
    }
    // The constants and the seed not given take the engine's, which `--param` may have set.
    settings.engine = *engine.settings();
    if settings.exploration.is_empty() {
        settings.exploration = vec![settings.engine.exploration];
    }
    settings.seed = seed.unwrap_or(settings.engine.seed);
    Ok(Some(settings))
}

/// One line per budget and constant: the choice, then the top moves as
/// `cell visits% mean/all-moves-as-first-mean prior`.
fn report(position: &Position, settings: &Settings) -> Vec<String> {
    let mut lines = Vec::new();
    for &exploration in &settings.exploration {
        for &iterations in &settings.iterations {
            let mut player = MctsPlayer::new(MctsConfig {
                seed: settings.seed,
                exploration,
                time: None,
                iterations: Some(iterations),
                ..settings.engine.mcts_config()
            });
            let (chosen, reason) = player.decide(position);
            let mut line = format!("c={exploration} {iterations} it: {} ({reason:?})", move_name(chosen));
            if let Some(result) = player.last_result() {
                let mut moves = result.moves.clone();
                moves.sort_by_key(|m| std::cmp::Reverse(m.visits));
                let total = moves.iter().map(|m| f64::from(m.visits)).sum::<f64>().max(1.0);
                line += &format!(
                    ", value {:.3}, {} iterations, {} moves kept |",
                    result.value,
                    result.iterations,
                    moves.len()
                );
                for m in moves.iter().take(settings.top) {
                    line += &format!(
                        " {} {:.1}% {:.3}/{:.3} p{:.3}",
                        move_name(m.mv),
                        100.0 * f64::from(m.visits) / total,
                        m.value,
                        m.amaf_value,
                        m.prior
                    );
                }
            }
            lines.push(line);
        }
    }
    lines
}

fn main() -> ExitCode {
    let settings = match parse_args(std::env::args().skip(1)) {
        Ok(Some(settings)) => settings,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("hex_root: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let position = match play_moves(settings.size, settings.moves.split_whitespace()) {
        Ok((position, _)) if position.winner().is_none() => position,
        Ok(_) => {
            eprintln!("hex_root: the game is over after `{}`", settings.moves);
            return ExitCode::from(2);
        }
        Err(error) => {
            eprintln!("hex_root: {error}");
            return ExitCode::from(2);
        }
    };
    println!(
        "{}x{} after `{}`, {} to move",
        settings.size,
        settings.size,
        settings.moves,
        position.to_move()
    );
    for line in report(&position, &settings) {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split(' ').filter(|a| !a.is_empty()).map(String::from).collect()
    }

    #[test]
    fn reads_lists_and_refuses_bad_values() {
        let settings =
            parse_args(args("--iterations 100,2000 --exploration 0,0.2 --top 3")).unwrap().unwrap();
        assert_eq!(
            (settings.iterations, settings.exploration, settings.top),
            (vec![100, 2000], vec![0.0, 0.2], 3)
        );
        assert!(parse_args(args("--help")).unwrap().is_none());
        for bad in [
            "--size 20",
            "--iterations 0",
            "--iterations 5,x",
            "--exploration -1",
            "--top",
            "--depth 3",
            "--param knowledge",
            "--param knowledge=lots",
            "--param no_such_setting=1",
        ] {
            assert!(parse_args(args(bad)).is_err(), "{bad}");
        }
    }

    /// `--param` sets the engine's settings as `param_hex` does, and the constants and seed
    /// not given on the command line follow them.
    #[test]
    fn engine_settings_come_from_param() {
        let plain = parse_args(args("")).unwrap().unwrap();
        assert_eq!(plain.engine, EngineSettings::default());
        assert_eq!((plain.exploration, plain.seed), (vec![0.0], 1));
        let set = parse_args(args("--param knowledge=1000 --param exploration=0.3 --param seed=7"))
            .unwrap()
            .unwrap();
        assert_eq!(set.engine.knowledge, Some(1000));
        assert_eq!((set.exploration, set.seed), (vec![0.3], 7));
        let config = MctsConfig { iterations: Some(10), time: None, ..set.engine.mcts_config() };
        assert_eq!((config.knowledge_after, config.exploration), (Some(1000), 0.3));
        let given = parse_args(args("--param exploration=0.3 --exploration 0.1 --seed 2")).unwrap().unwrap();
        assert_eq!((given.exploration, given.seed), (vec![0.1], 2));
    }

    /// Each line names a legal choice, the budget it ran, and at most `top` moves, the most
    /// visited first, with shares that add up to at most 100 %.
    #[test]
    fn reports_each_budget_and_constant() {
        let settings =
            parse_args(args("--size 9 --iterations 200,800 --exploration 0,0.3 --top 4")).unwrap().unwrap();
        let (position, _) = play_moves(9, ["a1"]).unwrap();
        let lines = report(&position, &settings);
        assert_eq!(lines.len(), 4);
        for (line, budget) in lines.iter().zip([200, 800, 200, 800]) {
            assert!(line.contains(&format!(", {budget} iterations,")), "{line}");
            let (head, moves) = line.split_once(" |").unwrap();
            let chosen = head.split(": ").nth(1).unwrap().split(' ').next().unwrap();
            assert!(
                position.legal_moves().iter().any(|&m| m == hex::parse_move(chosen, 9).unwrap()),
                "{line}"
            );
            let shares: Vec<f64> = moves
                .split_whitespace()
                .filter(|w| w.ends_with('%'))
                .map(|w| w.trim_end_matches('%').parse().unwrap())
                .collect();
            assert!(shares.len() == 4 && shares[0] > 0.0, "{line}");
            assert!(
                shares.windows(2).all(|w| w[0] >= w[1]) && shares.iter().sum::<f64>() <= 100.05,
                "{line}"
            );
        }
    }
}
