//! Solves every opening of an empty n×n Hex board and prints the map, with times and nodes; or
//! solves one position given by its moves.
//!
//! ```text
//! hex-solve --size N [--check FILE] [--threads T] [--max-nodes N] [--time-limit SECONDS]
//!           [--table-bits B] [--no-h-search] [--no-semi] [--no-captured-regions] [--only CELL[,CELL…]]
//! hex-solve --size N --position "MOVES" [--max-nodes N] [--time-limit SECONDS] [--table-bits B]
//!           [--no-h-search] [--no-semi] [--no-captured-regions]
//! ```
//!
//! `--position "d4 e5 …"` solves the position after those moves, which alternate from Black
//! (cells as in [`hex::parse_cell`], separated by spaces or commas; `""` is the empty board). It
//! prints the side to move, the winner, a winning move when the side to move wins, the nodes
//! and table hits, and the process's CPU time (user + system, from `getrusage`) beside the
//! solver's wall-clock time:
//!
//! ```text
//! position: 4x4 after 2 moves (a1 b2), black to move
//! winner: black
//! winning move: c2
//! nodes: 13 (0 table hits)
//! time: 0.004 s CPU (process, user+sys), 0.002 s wall (solver)
//! ```
//!
//! A cell that is not a cell or is off the board, a cell played twice, or a move after
//! somebody has connected (or a position where somebody has) is refused with a message and
//! exit status 2; `--position` does not go with `--only` or `--check`. A limit
//! that stops the search prints `winner: unknown (…)` and exits with status 1.
//!
//! `--threads T` solves the map on T threads, each with its own table of `2^B` entries (80
//! bytes each); an opening and its 180° rotation are solved once. The last line gives the
//! wall-clock time next to the sum of the openings' times. With `--position` or `--only`,
//! `--threads T` runs each solve on T threads sharing one table instead.
//!
//! `--only CELL[,CELL…]` solves those openings, in that order and with one table, instead of the
//! whole map (no drawing, no check).
//!
//! `--check FILE` compares the winning openings with the list for n in a JSON file shaped like
//! `crates/hex/tests/data/hex-solved-openings.json` (`{"winning_openings": {"6": ["f1", …]}}`).
//! Exit status: 0 on success (and a match), 1 on a mismatch or an unsolved opening under
//! `--check`, 2 on bad arguments or an unreadable file.

use std::process::ExitCode;
use std::time::Duration;

use hex::solver::{MAX_SOLVER_SIZE, Solver, SolverConfig, Verdict};
use hex::{Cell, HexMove, MoveListError, Position, move_name, parse_cell, play_moves};

const USAGE: &str = "usage: hex-solve --size N [--check FILE] [--threads T] [--max-nodes N] \
                     [--time-limit SECONDS] [--table-bits B] [--no-h-search] [--no-semi] [--no-captured-regions] [--only CELL[,CELL...]]\n       \
                     hex-solve --size N --position \"MOVES\" [--max-nodes N] [--time-limit SECONDS] \
                     [--table-bits B] [--no-h-search] [--no-semi] [--no-captured-regions]";

/// The command line.
struct Args {
    size: u32,
    check: Option<String>,
    only: Option<String>,
    position: Option<String>,
    threads: usize,
    config: SolverConfig,
}

fn parse_args() -> Result<Args, String> {
    let mut size = None;
    let mut check = None;
    let mut only = None;
    let mut position = None;
    let mut threads = None;
    let mut config = SolverConfig::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--size" => size = Some(number(&flag, &value()?)?),
            "--check" => check = Some(value()?),
            "--max-nodes" => config.max_nodes = Some(number(&flag, &value()?)?),
            "--time-limit" => {
                let secs: f64 = value()?.parse().map_err(|_| format!("{flag} takes seconds"))?;
                if !(secs.is_finite() && secs > 0.0) {
                    return Err(format!("{flag} takes a positive number of seconds"));
                }
                config.time_limit = Some(Duration::from_secs_f64(secs));
            }
            "--table-bits" => {
                let bits: u32 = number(&flag, &value()?)?;
                if !(1..=30).contains(&bits) {
                    return Err(format!("{flag} must be from 1 to 30"));
                }
                config.table_bits = bits;
            }
            "--no-semi" => config.semi_connections = false,
            "--no-captured-regions" => config.captured_regions = false,
            "--no-h-search" => config.h_search = false,
            "--only" => only = Some(value()?),
            "--position" => position = Some(value()?),
            "--threads" => {
                let count = number(&flag, &value()?)?;
                threads = Some(count);
                if !(1..=256).contains(&count) {
                    return Err(format!("{flag} must be from 1 to 256"));
                }
            }
            "--help" | "-h" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let size = size.ok_or("--size is required")?;
    if !(1..=u32::from(MAX_SOLVER_SIZE)).contains(&size) {
        return Err(format!("--size must be from 1 to {MAX_SOLVER_SIZE}"));
    }
    if only.is_some() && check.is_some() {
        return Err("--only and --check do not go together".to_string());
    }
    if position.is_some() {
        for (given, flag) in [(only.is_some(), "--only"), (check.is_some(), "--check")] {
            if given {
                return Err(format!("--position and {flag} do not go together"));
            }
        }
    }
    let threads = threads.unwrap_or(1);
    if position.is_some() || only.is_some() {
        config.threads = threads;
    }
    Ok(Args { size, check, only, position, threads, config })
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{flag} takes a whole number, not {text:?}"))
}

/// The winning openings listed for `size` in the JSON text, as cell names.
fn expected_openings(json: &str, size: u32) -> Result<Vec<String>, String> {
    // A tiny reader for this one shape, so the binary needs no JSON library: find the key
    // "N" after "winning_openings", then read the strings of its array.
    let table = json.find("\"winning_openings\"").ok_or("no \"winning_openings\" object")?;
    let key = format!("\"{size}\"");
    let at = json[table..].find(&key).ok_or_else(|| format!("no list for size {size}"))? + table;
    let open = json[at..].find('[').ok_or("a list should follow the key")? + at;
    let close = json[open..].find(']').ok_or("unterminated list")? + open;
    Ok(json[open + 1..close]
        .split(',')
        .map(|s| s.trim().trim_matches('"').to_string())
        .filter(|s| !s.is_empty())
        .collect())
}

/// The position after `moves` (cell names separated by spaces or commas, alternating from Black)
/// on an empty `size`×`size` board, and the moves' names; a message if it cannot be solved.
fn position_after(size: u32, moves: &str) -> Result<(Position, Vec<String>), String> {
    let texts = moves.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty());
    let (position, cells) = play_moves(size, texts).map_err(|e| match e {
        MoveListError::AfterGameOver { number, cell, winner } => {
            format!("move {number}: {cell} comes after the game is over ({winner} has connected)")
        }
        other => other.to_string(),
    })?;
    if let Some(winner) = position.winner() {
        return Err(format!("the game is over: {winner} has connected; nothing to solve"));
    }
    Ok((position, cells.into_iter().map(|c| move_name(HexMove::Place(c))).collect()))
}

/// The process's CPU time so far (user and system), where the platform tells it.
fn process_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        use nix::sys::resource::{UsageWho, getrusage};
        use nix::sys::time::TimeValLike;
        let usage = getrusage(UsageWho::RUSAGE_SELF).ok()?;
        let micros = usage.user_time().num_microseconds() + usage.system_time().num_microseconds();
        Some(micros as f64 / 1e6)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// `--position`: solves one position and prints the answer (exit 0), a limit (1) or why the
/// position is refused (2).
fn solve_position(size: u32, moves: &str, config: SolverConfig) -> ExitCode {
    let (position, names) = match position_after(size, moves) {
        Ok(found) => found,
        Err(message) => {
            eprintln!("hex-solve: --position: {message}");
            return ExitCode::from(2);
        }
    };
    let listed = if names.is_empty() { String::new() } else { format!(" ({})", names.join(" ")) };
    println!(
        "position: {size}x{size} after {} move{}{listed}, {} to move",
        names.len(),
        if names.len() == 1 { "" } else { "s" },
        position.to_move()
    );
    let solution = match Solver::new(config).solve(&position) {
        Ok(solution) => solution,
        Err(e) => {
            eprintln!("hex-solve: {e}");
            return ExitCode::from(2);
        }
    };
    let status = match solution.verdict {
        Verdict::Win { winner, winning_move } => {
            println!("winner: {winner}");
            if let Some(cell) = winning_move {
                println!("winning move: {}", move_name(HexMove::Place(cell)));
            }
            ExitCode::SUCCESS
        }
        Verdict::Unknown(limit) => {
            println!("winner: unknown (the {limit} was reached)");
            ExitCode::from(1)
        }
    };
    println!("nodes: {} ({} table hits)", solution.stats.nodes, solution.stats.table_hits);
    let stats = &solution.stats;
    println!("connection builds: {} ({} from a saved build)", stats.builds, stats.incremental_builds);
    println!("decompositions: {}", stats.decompositions);
    println!("captured regions: {}", stats.regions);
    let wall = solution.stats.time.as_secs_f64();
    match process_cpu_seconds() {
        Some(cpu) => println!("time: {cpu:.3} s CPU (process, user+sys), {wall:.3} s wall (solver)"),
        None => println!("time: {wall:.3} s wall (solver)"),
    }
    status
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("hex-solve: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let expected = match &args.check {
        None => None,
        Some(path) => match std::fs::read_to_string(path) {
            Err(e) => {
                eprintln!("hex-solve: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
            Ok(text) => match expected_openings(&text, args.size) {
                Ok(list) => Some(list),
                Err(e) => {
                    eprintln!("hex-solve: {path}: {e}");
                    return ExitCode::from(2);
                }
            },
        },
    };

    if let Some(moves) = &args.position {
        return solve_position(args.size, moves, args.config);
    }
    let mut solver = Solver::new(args.config);
    if let Some(list) = &args.only {
        // The openings share one solver, so later ones may reuse the table of earlier ones.
        for text in list.split(',') {
            let Ok(cell) = parse_cell(text, args.size as u8) else {
                eprintln!("hex-solve: --only takes cells of the board, not {text:?}");
                return ExitCode::from(2);
            };
            let position = Position::new(args.size).expect("checked size").play(HexMove::Place(cell));
            let solution =
                position.map_err(|e| e.to_string()).and_then(|p| solver.solve(&p).map_err(|e| e.to_string()));
            match solution {
                Ok(s) => println!(
                    "{text}: {:?}; {} nodes, {} table hits, {:.3} s",
                    s.verdict,
                    s.stats.nodes,
                    s.stats.table_hits,
                    s.stats.time.as_secs_f64()
                ),
                Err(e) => {
                    eprintln!("hex-solve: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    // Each opening's line is printed as soon as it is solved, so a long run shows progress.
    let print = |o: &hex::solver::Opening| {
        let result = match o.black_wins() {
            Some(true) => "black wins".to_string(),
            Some(false) => "white wins".to_string(),
            None => format!("{:?}", o.verdict),
        };
        println!(
            "{:>4} {:<10} {:>12} nodes {:>10} hits {:>10.3} s",
            move_name(hex::HexMove::Place(o.cell)),
            result,
            o.stats.nodes,
            o.stats.table_hits,
            o.stats.time.as_secs_f64()
        );
    };
    let started = std::time::Instant::now();
    let map = if args.threads > 1 {
        Solver::opening_map_threads(args.config, args.size, args.threads, print)
    } else {
        solver.opening_map_with(args.size, print)
    };
    let wall = started.elapsed();
    let map = match map {
        Ok(map) => map,
        Err(e) => {
            eprintln!("hex-solve: {e}");
            return ExitCode::from(2);
        }
    };
    let total = map.total_stats();
    let wins = map.winning_cells();
    println!("\n{}x{}: {}/{} winning openings", args.size, args.size, wins.len(), map.openings().len());
    print!("{map}");
    println!(
        "total: {} nodes, {} table hits, {:.3} s ({:.3} s wall clock, {} thread{})",
        total.nodes,
        total.table_hits,
        total.time.as_secs_f64(),
        wall.as_secs_f64(),
        args.threads,
        if args.threads == 1 { "" } else { "s" }
    );

    let Some(expected) = expected else { return ExitCode::SUCCESS };
    if !map.is_complete() {
        eprintln!("hex-solve: a limit left openings unsolved; cannot check");
        return ExitCode::from(1);
    }
    let found: Vec<String> = wins.iter().map(|&c: &Cell| move_name(hex::HexMove::Place(c))).collect();
    let mut sorted_expected = expected.clone();
    sorted_expected.sort();
    let mut sorted_found = found.clone();
    sorted_found.sort();
    if sorted_found == sorted_expected {
        println!("check: matches the {} winning openings listed", expected.len());
        ExitCode::SUCCESS
    } else {
        let missing: Vec<&String> = expected.iter().filter(|c| !found.contains(c)).collect();
        let extra: Vec<&String> = found.iter().filter(|c| !expected.contains(c)).collect();
        eprintln!(
            "check: MISMATCH; listed but not found winning: {missing:?}; found but not listed: {extra:?}"
        );
        ExitCode::from(1)
    }
}
