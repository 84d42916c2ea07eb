//! `hex-gtp`: a Hex engine that speaks GTP in the dialect of HexGui and Benzene on standard input
//! and output, for GUIs and tournament tools.
//!
//! Each command line gets its response, flushed at once; lines without a command get none. The
//! program ends after `quit` or at the end of its input. See `hex::gtp` for the commands.
//!
//! Flags set the engine up before the first command, exactly as the matching `param_hex`
//! commands would: `hex-gtp --player random --seed 3` is a uniformly random engine. A flag the
//! engine refuses ends the program with exit code 2 before anything is read.
//!
//! Benzene's tournament driver starts each program as `PROGRAM --config FILE.htp --seed N
//! --logfile-name FILE`, and `hex-gtp` takes that line: `--config` runs the GTP commands of a
//! file (one a line, `#` comments) before standard input, and a command the engine refuses
//! ends the program with exit code 2, naming the line; `--logfile-name` appends every command
//! and response to a file, as `>command` and `<response` lines.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use hex::gtp::Engine;

const USAGE: &str = "\
Usage: hex-gtp [OPTIONS]

A Hex engine speaking GTP (the HexGui/Benzene dialect) on standard input and output.

Options:
      --player NAME        the player genmove asks (as `param_hex player NAME`)
      --seed N             the random players' seed (as `param_hex seed N`)
      --depth N            the search depth (as `param_hex depth N`)
      --param NAME=VALUE   any engine setting (as `param_hex NAME VALUE`); repeatable
      --config FILE        run the GTP commands of FILE first (one a line)
      --logfile-name FILE  append every command and response to FILE
  -h, --help               print this help
  -V, --version            print the version";

/// How to run the engine.
#[derive(Default)]
struct Serve {
    /// `param_hex` settings, in order.
    settings: Vec<(String, String)>,
    /// Files of GTP commands to run first, in order.
    configs: Vec<PathBuf>,
    /// Where to log the session.
    log: Option<PathBuf>,
}

/// What the command line asks for.
enum Invocation {
    /// Run the engine.
    Serve(Serve),
    /// Print the help.
    Help,
    /// Print the version.
    Version,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let serve = match parse_args(&args) {
        Ok(Invocation::Serve(serve)) => serve,
        // `println!` would panic on a closed pipe (`hex-gtp --help | head -1`).
        Ok(Invocation::Help) => {
            let _ = writeln!(io::stdout(), "{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Invocation::Version) => {
            let _ = writeln!(io::stdout(), "hex-gtp {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("hex-gtp: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut engine = Engine::default();
    for (name, value) in &serve.settings {
        if let Err(message) = apply(&mut engine, name, value) {
            eprintln!("hex-gtp: {message}");
            return ExitCode::from(2);
        }
    }
    for path in &serve.configs {
        if let Err(message) = run_config(&mut engine, path) {
            eprintln!("hex-gtp: {message}");
            return ExitCode::from(2);
        }
    }
    let log = match &serve.log {
        Some(path) => match OpenOptions::new().create(true).append(true).open(path) {
            Ok(file) => Some(BufWriter::new(file)),
            Err(error) => {
                eprintln!("hex-gtp: cannot open the log file {}: {error}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    match run(engine, log) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("hex-gtp: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The settings the flags ask for, in the order given, or what is wrong with the flags.
fn parse_args(args: &[String]) -> Result<Invocation, String> {
    let mut serve = Serve::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        // `--flag=value` and `--flag value` are the same.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if arg.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            inline.clone().or_else(|| rest.next().cloned()).ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag {
            "-h" | "--help" => return Ok(Invocation::Help),
            "-V" | "--version" => return Ok(Invocation::Version),
            "--player" | "--seed" | "--depth" => serve.settings.push((flag[2..].to_string(), value()?)),
            "--config" => serve.configs.push(PathBuf::from(value()?)),
            "--logfile-name" => serve.log = Some(PathBuf::from(value()?)),
            "--param" => {
                let text = value()?;
                let (name, value) =
                    text.split_once('=').ok_or_else(|| format!("--param takes NAME=VALUE, not {text:?}"))?;
                serve.settings.push((name.to_string(), value.to_string()));
            }
            _ => return Err(format!("unknown argument: {arg}")),
        }
    }
    Ok(Invocation::Serve(serve))
}

/// Sends `param_hex name value` to the engine; the engine's message if it refuses.
fn apply(engine: &mut Engine, name: &str, value: &str) -> Result<(), String> {
    // A space, `#` or control character would change the command line's meaning.
    let plain = |text: &str| {
        !text.is_empty() && !text.chars().any(|c| c.is_whitespace() || c.is_control() || c == '#')
    };
    if !plain(name) || !plain(value) {
        return Err(format!("bad setting {name:?} = {value:?}: names and values are single words"));
    }
    let response = engine.handle(&format!("param_hex {name} {value}")).unwrap_or_default();
    match response.strip_prefix('?') {
        Some(message) => Err(format!("--{name} {value}: {}", message.trim())),
        None => Ok(()),
    }
}

/// Runs the GTP commands of a `--config` file; the first refusal stops it.
fn run_config(engine: &mut Engine, path: &Path) -> Result<(), String> {
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    for (number, line) in text.lines().enumerate() {
        let response = engine.handle(line).unwrap_or_default();
        if let Some(message) = response.strip_prefix('?') {
            return Err(format!(
                "{}:{}: {line:?} was refused: {}",
                path.display(),
                number + 1,
                message.trim()
            ));
        }
    }
    Ok(())
}

fn run(mut engine: Engine, mut log: Option<BufWriter<File>>) -> io::Result<()> {
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        // Bytes that are not UTF-8 become U+FFFD: the command is then unknown or malformed and
        // is answered as such.
        let text = String::from_utf8_lossy(&line);
        let response = engine.handle(&text);
        if let Some(log) = &mut log {
            // The log is for people reading a tournament afterwards; failing to write it
            // must not stop the game.
            let _ = writeln!(log, ">{}", text.trim_end());
            // Every line of the response, its final empty line too, as a `<` line.
            for line in response.iter().flat_map(|r| r.lines()) {
                let _ = writeln!(log, "<{line}");
            }
            let _ = log.flush();
        }
        match response {
            Some(response) => {
                output.write_all(response.as_bytes())?;
                output.flush()?;
            }
            None => return Ok(()),
        }
        if engine.has_quit() {
            return Ok(());
        }
    }
}
