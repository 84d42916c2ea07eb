//! `cargo xtask bench-2048 --games N`: whole games of nneonneo/2048-ai and of our agents, from
//! the same seeds, in the same process, each timed by the CPU clock of the thread that plays.
//!
//! The per-board comparison ([`super::run`]) times single decisions; the strength goal
//! is stated in moves per CPU-second over whole games (ours at least ten times nneonneo's), and
//! a decision late in a game, with big tiles and few distinct ones, costs much more than one in
//! the middle. So this plays games to the end: game `k` of every player draws its spawns from
//! seed `first_seed + k` (the same first board for all; later spawns differ once the moves do),
//! players take turns game by game, and each game's moves, CPU seconds, score and largest tile
//! go to `games.jsonl` as soon as it ends, so a long run can be stopped and still read.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use game2048::agents::{Agent, Decision};
use game2048::play::{GameRecord, play_game};
use game2048::{Board, Rules};
use serde::Serialize;

use super::{BenchError, Nneonneo, thread_cpu_seconds};
use crate::summary::wilson;
use crate::tiers::g2048::{Player2048, STRONG, load_network, ntuple_players};

/// The games file in the output folder.
pub const GAMES_FILE: &str = "games.jsonl";

/// The summary of the games in the output folder.
pub const GAMES_SUMMARY_FILE: &str = "games-summary.md";

/// The tiles whose rates the summary gives.
const TILES: [u32; 5] = [2048, 4096, 8192, 16384, 32768];

/// What to play.
#[derive(Clone, Debug)]
pub struct GamesConfig {
    /// nneonneo's shared library; without it only our players play.
    pub nneonneo: Option<PathBuf>,
    /// Our players, each with the name the summary gives it.
    pub players: Vec<(String, Player2048)>,
    /// Games per player.
    pub games: u64,
    /// The seed of game 0; game `k` uses `first_seed + k`.
    pub first_seed: u64,
    /// Stop every game after this many moves (for a quick look; the rates then undercount).
    pub max_moves: Option<u64>,
    /// The output folder.
    pub out: PathBuf,
}

/// Our players at the settings the evaluation uses: the strong search at nneonneo's settings,
/// and, given a network file, the n-tuple network one ply deep, shallow (cut-off 0.01, 3 moves;
/// also with the default tile downgrade) and deep (cut-off 0.001, 4 moves). Not the
/// evaluation's `ntuple-strong-late`: it plays as the shallow one until its first 16384, which
/// the bench's first moves never reach.
pub fn default_players(network: Option<&Path>) -> Vec<(String, Player2048)> {
    let mut players = vec![("strong".to_string(), STRONG)];
    if let Some(path) = network {
        players.extend(
            ntuple_players(path, game2048::ntuple::Downgrade::default())
                .into_iter()
                .filter(|(name, _)| *name != "ntuple-strong-late")
                .map(|(name, player)| (name.to_string(), player)),
        );
    }
    players
}

/// One game of one player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRow {
    /// The player's name.
    pub player: String,
    /// The seed of the spawns.
    pub seed: u64,
    /// How it ended (`lost`, `overflow` or `move-limit`).
    pub outcome: String,
    /// Moves played.
    pub moves: u64,
    /// CPU seconds of the playing thread.
    pub cpu_seconds: f64,
    /// The score.
    pub score: u64,
    /// The largest tile.
    pub max_tile: u32,
}

/// nneonneo as one of our agents: its move through the library; an answer that is not a legal
/// move is kept and reported after the game (the game goes on with the first legal move).
struct NneonneoAgent<'a> {
    library: &'a Nneonneo,
    error: Option<BenchError>,
}

impl Agent for NneonneoAgent<'_> {
    fn name(&self) -> String {
        "nneonneo".to_string()
    }

    fn decide(&mut self, board: Board) -> Decision {
        let direction = match self.library.decide(board) {
            Ok(direction) => direction,
            Err(e) => {
                self.error.get_or_insert(e);
                board.legal_moves().next().expect("a board with a legal move")
            }
        };
        Decision { direction, value: None, stats: Default::default() }
    }
}

/// Plays one game of `agent` from `seed`; its row, timed by this thread's CPU clock.
fn timed_game(name: &str, agent: &mut dyn Agent, seed: u64, max_moves: Option<u64>) -> GameRow {
    let start = thread_cpu_seconds();
    let record: GameRecord = play_game(agent, &Rules::default(), seed, max_moves, |_| {});
    GameRow {
        player: name.to_string(),
        seed,
        outcome: record.outcome.name().to_string(),
        moves: record.moves,
        cpu_seconds: thread_cpu_seconds() - start,
        score: record.score,
        max_tile: record.max_tile,
    }
}

/// Plays the games and writes `games.jsonl` and `games-summary.md`; returns the rows.
pub fn run(config: &GamesConfig) -> Result<Vec<GameRow>, BenchError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BenchError::Io { path, source }
    };
    let theirs = config.nneonneo.as_deref().map(Nneonneo::load).transpose()?;
    let mut ours = Vec::new();
    for (name, player) in &config.players {
        if let Player2048::NTupleGreedy { network } | Player2048::NTupleStrong { network, .. } = player {
            load_network(network)
                .map_err(|message| BenchError::Network { path: network.clone(), message })?;
        }
        ours.push((name.clone(), player.agent()));
    }
    std::fs::create_dir_all(&config.out).map_err(io(&config.out))?;
    let jsonl = config.out.join(GAMES_FILE);
    let mut lines = std::fs::File::create(&jsonl).map_err(io(&jsonl))?;
    let mut rows = Vec::new();
    // Each game's row is printed and written as soon as the game ends: a whole game of
    // nneonneo at its settings takes tens of minutes, and a run stopped early keeps them all.
    let mut record = |row: GameRow| -> Result<(), BenchError> {
        eprintln!(
            "game {}/{} {:<14} {:>6} moves {:>9.1} CPU s {:>8.1} moves/s  score {:>7}  tile {}",
            row.seed - config.first_seed + 1,
            config.games,
            row.player,
            row.moves,
            row.cpu_seconds,
            row.moves as f64 / row.cpu_seconds.max(1e-9),
            row.score,
            row.max_tile
        );
        let line = serde_json::to_string(&row).expect("rows serialise");
        writeln!(lines, "{line}").map_err(io(&jsonl))?;
        rows.push(row);
        Ok(())
    };
    for k in 0..config.games {
        let seed = config.first_seed + k;
        if let Some(library) = &theirs {
            let mut agent = NneonneoAgent { library, error: None };
            let row = timed_game("nneonneo", &mut agent, seed, config.max_moves);
            if let Some(e) = agent.error {
                return Err(e);
            }
            record(row)?;
        }
        for (name, agent) in &mut ours {
            record(timed_game(name, agent.as_mut(), seed, config.max_moves))?;
        }
    }
    let summary = games_markdown(&rows);
    let path = config.out.join(GAMES_SUMMARY_FILE);
    std::fs::write(&path, &summary).map_err(io(&path))?;
    println!("{summary}");
    println!("wrote {} and {}", jsonl.display(), path.display());
    Ok(rows)
}

/// Per player: games, moves, CPU seconds, moves per CPU-second (and its ratio to nneonneo's
/// when nneonneo played), mean score, and the games reaching each tile with 95 % intervals.
pub fn games_markdown(rows: &[GameRow]) -> String {
    let mut players: Vec<&str> = Vec::new();
    for row in rows {
        if !players.contains(&row.player.as_str()) {
            players.push(&row.player);
        }
    }
    let of = |player: &str| -> Vec<&GameRow> { rows.iter().filter(|r| r.player == player).collect() };
    let rate = |player: &str| {
        let (moves, seconds) =
            of(player).iter().fold((0u64, 0f64), |(m, s), r| (m + r.moves, s + r.cpu_seconds));
        moves as f64 / seconds.max(1e-9)
    };
    let theirs = players.contains(&"nneonneo").then(|| rate("nneonneo"));
    let mut text = String::new();
    let cut = rows.iter().filter(|r| r.outcome == "move-limit").count();
    let games =
        if cut > 0 { format!("games ({cut} cut short by --max-moves)") } else { "whole games".to_string() };
    let _ = writeln!(
        text,
        "# 2048: {games}, the same seeds, one thread each\n\n\
         | player | games | moves | CPU s | moves per CPU-s | × nneonneo's rate | mean score |"
    );
    let _ = writeln!(text, "|---|---:|---:|---:|---:|---:|---:|");
    for &player in &players {
        let games = of(player);
        let moves: u64 = games.iter().map(|r| r.moves).sum();
        let seconds: f64 = games.iter().map(|r| r.cpu_seconds).sum();
        let mean = games.iter().map(|r| r.score as f64).sum::<f64>() / games.len().max(1) as f64;
        let times = theirs.map_or("-".to_string(), |t| format!("{:.1}", rate(player) / t));
        let _ = writeln!(
            text,
            "| {player} | {} | {moves} | {seconds:.1} | {:.1} | {times} | {mean:.0} |",
            games.len(),
            rate(player)
        );
    }
    let _ = writeln!(text, "\n| player | games | {} |", TILES.map(|t| t.to_string()).join(" | "));
    let _ = writeln!(text, "|---|---:|{}", "---:|".repeat(TILES.len()));
    for &player in &players {
        let games = of(player);
        let n = games.len() as u64;
        let cells: Vec<String> = TILES
            .iter()
            .map(|&tile| {
                let hits = games.iter().filter(|r| r.max_tile >= tile).count() as u64;
                let (low, high) = wilson(hits, n);
                format!(
                    "{hits} ({:.0} %, {:.0}–{:.0})",
                    100.0 * hits as f64 / n.max(1) as f64,
                    100.0 * low,
                    100.0 * high
                )
            })
            .collect();
        let _ = writeln!(text, "| {player} | {n} | {} |", cells.join(" | "));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(player: &str, moves: u64, cpu_seconds: f64, max_tile: u32) -> GameRow {
        GameRow {
            player: player.to_string(),
            seed: 1,
            outcome: "lost".to_string(),
            moves,
            cpu_seconds,
            score: 1000,
            max_tile,
        }
    }

    #[test]
    fn summary_gives_rates_ratios_and_tiles() {
        let rows =
            [row("nneonneo", 100, 10.0, 16384), row("ours", 1000, 5.0, 8192), row("ours", 1000, 5.0, 16384)];
        let text = games_markdown(&rows);
        // nneonneo: 10 moves a CPU-second; ours 200, twenty times as many.
        assert!(text.contains("| nneonneo | 1 | 100 | 10.0 | 10.0 | 1.0 |"), "{text}");
        assert!(text.contains("| ours | 2 | 2000 | 10.0 | 200.0 | 20.0 |"), "{text}");
        assert!(text.contains("| ours | 2 | 2 (100 %"), "{text}");
        assert!(text.contains("| 1 (50 %"), "{text}");
        // Without nneonneo there is no ratio.
        let text = games_markdown(&rows[1..]);
        assert!(text.contains("| ours | 2 | 2000 | 10.0 | 200.0 | - |"), "{text}");
    }

    #[test]
    fn plays_our_side_alone_and_writes_its_files() {
        let dir = std::env::temp_dir().join(format!("bench-2048-games-test-{}", std::process::id()));
        let config = GamesConfig {
            nneonneo: None,
            players: vec![("quick".to_string(), Player2048::Strong { cprob: 0.05, max_depth: 2 })],
            games: 2,
            first_seed: 7,
            max_moves: Some(30),
            out: dir.clone(),
        };
        let rows = run(&config).unwrap();
        assert_eq!(rows.iter().map(|r| (r.seed, r.moves)).collect::<Vec<_>>(), vec![(7, 30), (8, 30)]);
        assert!(rows.iter().all(|r| r.outcome == "move-limit" && r.cpu_seconds >= 0.0));
        let lines = std::fs::read_to_string(dir.join(GAMES_FILE)).unwrap();
        assert_eq!(lines.lines().count(), 2);
        assert!(
            std::fs::read_to_string(dir.join(GAMES_SUMMARY_FILE)).unwrap().contains("| quick | 2 | 60 |")
        );
        // A network that does not exist is a clear error before any game.
        let bad = GamesConfig { players: default_players(Some(&dir.join("missing.bin"))), ..config };
        assert!(matches!(run(&bad), Err(BenchError::Network { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
