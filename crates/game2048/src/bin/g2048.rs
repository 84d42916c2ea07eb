//! `g2048`: play 2048 with any agent, ask for the best move on a board, or apply a move.
//!
//! ```text
//! g2048 play --agent strong --seed 1 --show
//! g2048 play --agent expectimax --depth 5 --heuristic max-sq-coef-sum --stop-at 2048
//! g2048 best-move --board "2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2"
//! g2048 apply --board "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0" --move left
//! ```

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};
use game2048::agents::{
    Agent, Greedy, LostBoard, RandomAgent, SeedConfig, SeedExpectimax, SeedMinimax, Strong, StrongConfig,
};
use game2048::heuristics::{LineTable, SeedHeuristic};
use game2048::play::play_game;
use game2048::{Board, Direction, Heuristic, Rules};

#[derive(Parser)]
#[command(name = "g2048", version, about = "2048 with the seed document's agents and a strong expectimax")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play one seeded game and print a summary (or every board with --show).
    Play(PlayArgs),
    /// Print the agent's move for a board.
    BestMove {
        /// The board: 16 tile values, row-major, rows separated by '/'.
        #[arg(long)]
        board: Board,
        #[command(flatten)]
        agent: AgentArgs,
    },
    /// Print the board after a move and the move's merge score.
    Apply {
        /// The board: 16 tile values, row-major, rows separated by '/'.
        #[arg(long)]
        board: Board,
        /// up, down, left or right.
        #[arg(long = "move")]
        direction: Direction,
    },
}

#[derive(Args)]
struct PlayArgs {
    #[command(flatten)]
    agent: AgentArgs,
    /// The seed of the spawns (and of the random agent).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// End the game as won when this tile appears (the seed document used 2048).
    #[arg(long)]
    stop_at: Option<u32>,
    /// End the game after this many moves.
    #[arg(long)]
    max_moves: Option<u64>,
    /// The probability that a spawned tile is a 4.
    #[arg(long, default_value_t = 0.1)]
    four_probability: f64,
    /// Print the board after every move.
    #[arg(long)]
    show: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AgentKind {
    Random,
    Greedy,
    Minimax,
    Expectimax,
    Strong,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Model {
    /// As the final original program ran: depth counts every layer, partial pruning on, a lost
    /// board valued by the heuristic.
    Original,
    /// The earlier code version of the seed's published depth-6 minimax row: as original, but a
    /// spawn node with at most 2 levels left searches its first 10 spawns, then returns the
    /// heuristic of its board.
    Earlier,
    /// As the document describes: depth counts player moves, no partial pruning, a lost board
    /// below every other.
    Described,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Lost {
    /// By the heuristic, as the seed program did.
    Heuristic,
    /// Below every board, as the seed document asks.
    Penalty,
}

#[derive(Args)]
struct AgentArgs {
    /// The agent.
    #[arg(long, value_enum, default_value = "strong")]
    agent: AgentKind,
    /// The heuristic: line-table (the strong one) or one of the seed's (e.g. max-sq-coef-sum).
    /// Default: line-table for greedy and strong, max-sq-coef-sum for the seed agents.
    #[arg(long)]
    heuristic: Option<String>,
    /// An n-tuple network file (made by `cargo xtask train-2048`) as the heuristic, instead of
    /// --heuristic. Its values are of afterstates, which is what greedy and strong value.
    #[arg(long, value_name = "FILE", conflicts_with = "heuristic")]
    network: Option<std::path::PathBuf>,
    /// With --network: value boards with a large tile through a tile downgrade,
    /// `FROM[,FLOOR[,SCALE]]` (e.g. 16384,256,2; see `game2048::ntuple::Downgrade`).
    #[arg(long, value_name = "FROM[,FLOOR[,SCALE]]", requires = "network")]
    downgrade: Option<game2048::ntuple::Downgrade>,
    /// Search depth of the seed agents (default 4 for minimax, 5 for expectimax, the seed's).
    #[arg(long)]
    depth: Option<u32>,
    /// How the seed agents count depth and prune.
    #[arg(long, value_enum, default_value = "original")]
    model: Model,
    /// How the seed agents value a lost board, instead of the model's own rule.
    #[arg(long, value_enum)]
    lost: Option<Lost>,
    /// Strong agent: path probability below which a spawn is not searched.
    #[arg(long, default_value_t = 1e-4)]
    cprob: f64,
    /// Strong agent: threads for the root moves (0 = one per core).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Strong agent: the most player moves to look ahead.
    #[arg(long, default_value_t = 12)]
    max_depth: u32,
    /// Strong agent: another cut-off and depth cap from the first board with a tile on,
    /// `TILE,CUTOFF,DEPTH` (e.g. 16384,0.001,4; see `game2048::agents::LateSearch`).
    #[arg(long, value_name = "TILE,CUTOFF,DEPTH")]
    late: Option<game2048::agents::LateSearch>,
}

/// Why a command failed: bad arguments (exit code 2, like clap's own) or a refused request
/// (exit code 1).
enum Failure {
    Usage(String),
    Refused(String),
}

fn heuristic(args: &AgentArgs) -> Result<Box<dyn Heuristic>, Failure> {
    if let Some(path) = &args.network {
        let network = game2048::ntuple::NTupleNetwork::load_to_play(path)
            .map_err(|e| Failure::Refused(e.to_string()))?;
        return Ok(match args.downgrade {
            Some(downgrade) => Box::new(game2048::ntuple::Downgrading::new(Box::new(network), downgrade)),
            None => Box::new(network),
        });
    }
    let seed_agent = matches!(args.agent, AgentKind::Minimax | AgentKind::Expectimax);
    let name = args.heuristic.as_deref().unwrap_or(if seed_agent { "max-sq-coef-sum" } else { "line-table" });
    if name == "line-table" {
        return Ok(Box::new(LineTable::default()));
    }
    let seed: SeedHeuristic = name.parse().map_err(|e| Failure::Usage(format!("{e} (or line-table)")))?;
    Ok(Box::new(seed))
}

fn agent(args: &AgentArgs, seed: u64) -> Result<Box<dyn Agent>, Failure> {
    if !(0.0..=1.0).contains(&args.cprob) {
        return Err(Failure::Usage(format!("--cprob must be between 0 and 1, not {}", args.cprob)));
    }
    let h = heuristic(args)?;
    let seed_config = |default_depth| {
        let depth = args.depth.unwrap_or(default_depth);
        let config = match args.model {
            Model::Original => SeedConfig::original(depth),
            Model::Earlier => SeedConfig::earlier(depth),
            Model::Described => SeedConfig::described(depth),
        };
        match args.lost {
            Some(Lost::Heuristic) => SeedConfig { lost: LostBoard::Heuristic, ..config },
            Some(Lost::Penalty) => SeedConfig { lost: LostBoard::Penalty, ..config },
            None => config,
        }
    };
    Ok(match args.agent {
        AgentKind::Random => Box::new(RandomAgent::new(seed)),
        AgentKind::Greedy => Box::new(Greedy::new(h)),
        AgentKind::Minimax => Box::new(SeedMinimax::new(seed_config(4), h)),
        AgentKind::Expectimax => Box::new(SeedExpectimax::new(seed_config(5), h)),
        AgentKind::Strong => {
            let threads = if args.threads == 0 { rayon::current_num_threads() } else { args.threads };
            let config = StrongConfig {
                probability_cutoff: args.cprob,
                threads,
                max_depth: args.max_depth,
                late: args.late,
                ..StrongConfig::default()
            };
            Box::new(Strong::new(config, h))
        }
    })
}

fn play(args: &PlayArgs) -> Result<(), Failure> {
    if !(0.0..=1.0).contains(&args.four_probability) {
        return Err(Failure::Usage(format!(
            "--four-probability must be between 0 and 1, not {}",
            args.four_probability
        )));
    }
    if let Some(tile) = args.stop_at
        && (tile < 4 || !tile.is_power_of_two() || tile > 32768)
    {
        return Err(Failure::Usage(format!("--stop-at must be a tile value from 4 to 32768, not {tile}")));
    }
    let rules =
        Rules { four_probability: args.four_probability, stop_at: args.stop_at, spawn_after_noop: false };
    let mut agent = agent(&args.agent, args.seed)?;
    println!("agent: {}", agent.name());
    let progress = std::io::stderr().is_terminal() && !args.show;
    let started = Instant::now();
    let mut last_progress = Instant::now();
    let mut total = 0u64;
    let record = play_game(agent.as_mut(), &rules, args.seed, args.max_moves, |report| {
        total += u64::from(report.score);
        if args.show {
            println!(
                "move {}: {}  (score {total})\n{}",
                report.number,
                report.decision.direction,
                report.after.grid()
            );
        } else if progress && last_progress.elapsed() >= Duration::from_secs(1) {
            last_progress = Instant::now();
            let rate = report.number as f64 / started.elapsed().as_secs_f64();
            eprint!(
                "\rmove {:>6}  score {:>8}  max tile {:>5}  {:>7.1} moves/s ",
                report.number,
                total,
                report.after.max_tile(),
                rate
            );
            let _ = std::io::stderr().flush();
        }
    });
    if progress {
        eprintln!();
    }
    println!("final board:\n{}", record.board.grid());
    println!("outcome:   {}", record.outcome.name());
    println!("score:     {}", record.score);
    println!("max tile:  {}", record.max_tile);
    println!("moves:     {}", record.moves);
    println!("time:      {:.2} s", record.seconds);
    println!("moves/s:   {:.1}", record.moves_per_second());
    println!("nodes:     {}", record.nodes);
    println!("replay:    g2048 play {} --seed {}", replay_flags(&args.agent), args.seed);
    Ok(())
}

/// The agent flags that reproduce a game, for the replay line.
fn replay_flags(args: &AgentArgs) -> String {
    let mut flags = format!(
        "--agent {}",
        args.agent.to_possible_value().map_or("?".into(), |v| v.get_name().to_string())
    );
    if let Some(h) = &args.heuristic {
        flags += &format!(" --heuristic {h}");
    }
    if let Some(network) = &args.network {
        flags += &format!(" --network {}", network.display());
        if let Some(downgrade) = args.downgrade {
            flags += &format!(" --downgrade {downgrade}");
        }
    }
    if let Some(d) = args.depth {
        flags += &format!(" --depth {d}");
    }
    if args.model != Model::Original {
        let model = args.model.to_possible_value().map_or("?".into(), |v| v.get_name().to_string());
        flags += &format!(" --model {model}");
    }
    if let Some(lost) = args.lost {
        let lost = lost.to_possible_value().map_or("?".into(), |v| v.get_name().to_string());
        flags += &format!(" --lost {lost}");
    }
    if args.agent == AgentKind::Strong {
        flags +=
            &format!(" --cprob {} --threads {} --max-depth {}", args.cprob, args.threads, args.max_depth);
        if let Some(late) = args.late {
            flags += &format!(" --late {late}");
        }
    }
    flags
}

fn best_move(board: Board, args: &AgentArgs) -> Result<(), Failure> {
    if board.is_terminal() {
        return Err(Failure::Refused("no move changes this board: the game is over".to_string()));
    }
    let mut agent = agent(args, 1)?;
    let decision = agent.decide(board);
    println!("{}", decision.direction);
    if let Some(value) = decision.value {
        println!("value: {value}");
    }
    println!("nodes: {}", decision.stats.nodes);
    println!("time:  {:.3} s", decision.stats.elapsed.as_secs_f64());
    Ok(())
}

fn apply(board: Board, direction: Direction) -> Result<(), Failure> {
    let slide = board.slide(direction).map_err(|e| Failure::Refused(e.to_string()))?;
    if slide.board == board {
        return Err(Failure::Refused(format!(
            "{direction} does not change the board, so it is not a legal move"
        )));
    }
    println!("{}", slide.board);
    println!("score: {}", slide.score);
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Play(args) => play(args),
        Command::BestMove { board, agent } => best_move(*board, agent),
        Command::Apply { board, direction } => apply(*board, *direction),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Refused(message)) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
