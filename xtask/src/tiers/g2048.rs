//! The 2048 evaluation: its rows, how a row plays one game, and the seed document's published
//! numbers to compare with.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use game2048::Rules;
use game2048::agents::{
    Agent, Greedy, LateSearch, RandomAgent, SeedConfig, SeedExpectimax, SeedMinimax, Strong, StrongConfig,
};
use game2048::heuristics::{LineTable, SeedHeuristic};
use game2048::ntuple::{Downgrade, Downgrading, NTupleNetwork};
use game2048::play::{GameRecord, play_game};

use super::{Row, RowSpec};
use crate::record::{GameKind, GameLine};

/// The network of an n-tuple row, loaded once per process and shared by its games.
///
/// A row names the file; [`load_network`] reads it (and [`crate::run::eval`] does so before any
/// game starts, so a bad file fails the run at once with its reason).
pub fn load_network(path: &Path) -> Result<Arc<NTupleNetwork>, String> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, Arc<NTupleNetwork>>>> = OnceLock::new();
    let mut loaded = LOADED.get_or_init(Mutex::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(network) = loaded.get(path) {
        return Ok(Arc::clone(network));
    }
    let network = Arc::new(NTupleNetwork::load_to_play(path).map_err(|e| e.to_string())?);
    loaded.insert(path.to_path_buf(), Arc::clone(&network));
    Ok(network)
}

/// A 2048 player as a row describes it: enough to build it and to print the `g2048` flags that
/// rebuild it.
#[derive(Clone, Debug, PartialEq)]
pub enum Player2048 {
    /// A uniformly random legal move.
    Random,
    /// One ply with the line-table heuristic.
    Greedy,
    /// The seed's minimax as the original program ran it (plies, partial cut).
    Minimax { depth: u32, heuristic: SeedHeuristic },
    /// The seed's expectimax as the original program ran it (plies, partial cut).
    Expectimax { depth: u32, heuristic: SeedHeuristic },
    /// The strong expectimax with the line-table heuristic, on one thread.
    Strong { cprob: f64, max_depth: u32 },
    /// One ply with an n-tuple network (a file of `cargo xtask train-2048`).
    NTupleGreedy { network: PathBuf },
    /// The strong expectimax with an n-tuple network, on one thread, valuing boards through a
    /// tile downgrade when one is given, and searching late boards with `late` when given.
    NTupleStrong {
        network: PathBuf,
        cprob: f64,
        max_depth: u32,
        downgrade: Option<Downgrade>,
        late: Option<LateSearch>,
    },
}

/// One row of the 2048 evaluation: a player and the game's stopping rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Row2048 {
    /// The player.
    pub player: Player2048,
    /// Stop as won at this tile (the seed's protocol stops at 2048); `None` plays on.
    pub stop_at: Option<u32>,
    /// Stop after this many moves (only `--quick` uses it, to keep play-on rows short).
    pub max_moves: Option<u64>,
}

impl Player2048 {
    /// The agent this describes, on one thread.
    pub fn agent(&self) -> Box<dyn Agent> {
        let network = |path: &Path| load_network(path).expect("the eval loads every network before it plays");
        let strong_config = |cprob, max_depth, late| StrongConfig {
            probability_cutoff: cprob,
            max_depth,
            threads: 1,
            late,
            ..StrongConfig::default()
        };
        match *self {
            Player2048::Random => Box::new(RandomAgent::new(0)),
            Player2048::Greedy => Box::new(Greedy::new(LineTable::default())),
            Player2048::Minimax { depth, heuristic } => {
                Box::new(SeedMinimax::new(SeedConfig::original(depth), heuristic))
            }
            Player2048::Expectimax { depth, heuristic } => {
                Box::new(SeedExpectimax::new(SeedConfig::original(depth), heuristic))
            }
            Player2048::Strong { cprob, max_depth } => {
                Box::new(Strong::new(strong_config(cprob, max_depth, None), LineTable::default()))
            }
            Player2048::NTupleGreedy { network: ref path } => Box::new(Greedy::new(network(path))),
            Player2048::NTupleStrong { network: ref path, cprob, max_depth, downgrade: None, late } => {
                Box::new(Strong::new(strong_config(cprob, max_depth, late), network(path)))
            }
            Player2048::NTupleStrong {
                network: ref path,
                cprob,
                max_depth,
                downgrade: Some(downgrade),
                late,
            } => {
                let heuristic = Downgrading::new(network(path), downgrade);
                Box::new(Strong::new(strong_config(cprob, max_depth, late), heuristic))
            }
        }
    }

    /// The agent's short name.
    pub fn name(&self) -> &'static str {
        match self {
            Player2048::Random => "random",
            Player2048::Greedy => "greedy",
            Player2048::Minimax { .. } => "minimax",
            Player2048::Expectimax { .. } => "expectimax",
            Player2048::Strong { .. } | Player2048::NTupleStrong { .. } => "strong",
            Player2048::NTupleGreedy { .. } => "greedy",
        }
    }

    fn heuristic(&self) -> String {
        match self {
            Player2048::Random => "none".into(),
            Player2048::Greedy | Player2048::Strong { .. } => "line-table".into(),
            Player2048::Minimax { heuristic, .. } | Player2048::Expectimax { heuristic, .. } => {
                heuristic.name().into()
            }
            Player2048::NTupleGreedy { network } | Player2048::NTupleStrong { network, .. } => {
                format!("n-tuple {}", network.display())
            }
        }
    }

    fn depth(&self) -> Option<u32> {
        match self {
            Player2048::Minimax { depth, .. } | Player2048::Expectimax { depth, .. } => Some(*depth),
            Player2048::Greedy | Player2048::NTupleGreedy { .. } => Some(1),
            _ => None,
        }
    }

    /// The `g2048` flags that build this player.
    fn flags(&self) -> String {
        match self {
            Player2048::Random => "--agent random".into(),
            Player2048::Greedy => "--agent greedy".into(),
            Player2048::Minimax { depth, heuristic } => {
                format!("--agent minimax --depth {depth} --heuristic {}", heuristic.name())
            }
            Player2048::Expectimax { depth, heuristic } => {
                format!("--agent expectimax --depth {depth} --heuristic {}", heuristic.name())
            }
            Player2048::Strong { cprob, max_depth } => {
                format!("--agent strong --cprob {cprob} --max-depth {max_depth} --threads 1")
            }
            Player2048::NTupleGreedy { network } => format!("--agent greedy --network {}", network.display()),
            Player2048::NTupleStrong { network, cprob, max_depth, downgrade, late } => {
                let mut flags = format!(
                    "--agent strong --network {} --cprob {cprob} --max-depth {max_depth} --threads 1",
                    network.display()
                );
                if let Some(downgrade) = downgrade {
                    flags += &format!(" --downgrade {downgrade}");
                }
                if let Some(late) = late {
                    flags += &format!(" --late {late}");
                }
                flags
            }
        }
    }
}

impl Row2048 {
    /// Plays game `index` of row `id` of tier `tier` with spawn seed `seed` and returns its
    /// record line.
    pub fn run(&self, tier: u8, id: &str, index: u64, seed: u64) -> GameLine {
        let record = self.play(seed);
        GameLine {
            game: GameKind::G2048,
            tier,
            row: id.to_string(),
            index,
            agent: self.player.name().into(),
            heuristic: self.player.heuristic(),
            depth: self.player.depth(),
            settings: self.settings(),
            seed,
            result: record.outcome.name().into(),
            score: record.score as f64,
            max_tile: Some(record.max_tile),
            moves: record.moves,
            seconds: record.seconds,
            nodes: record.nodes,
            replay: self.replay(seed),
        }
    }

    /// Plays game `index` of this row with spawn seed `seed`.
    pub fn play(&self, seed: u64) -> GameRecord {
        let rules = Rules { stop_at: self.stop_at, ..Rules::default() };
        let mut agent = self.player.agent();
        play_game(agent.as_mut(), &rules, seed, self.max_moves, |_| {})
    }

    /// The settings that shape a game, for the record.
    pub fn settings(&self) -> BTreeMap<String, String> {
        let mut settings = BTreeMap::new();
        settings.insert("stop_at".into(), self.stop_at.map_or("none".into(), |t| t.to_string()));
        if let Some(max) = self.max_moves {
            settings.insert("max_moves".into(), max.to_string());
        }
        match self.player {
            Player2048::Minimax { .. } | Player2048::Expectimax { .. } => {
                settings.insert("model".into(), "original (plies, partial cut)".into());
            }
            Player2048::Strong { cprob, max_depth } | Player2048::NTupleStrong { cprob, max_depth, .. } => {
                settings.insert("cprob".into(), cprob.to_string());
                settings.insert("max_depth".into(), max_depth.to_string());
            }
            _ => {}
        }
        if let Player2048::NTupleStrong { downgrade: Some(downgrade), .. } = self.player {
            settings.insert("downgrade".into(), downgrade.to_string());
        }
        if let Player2048::NTupleStrong { late: Some(late), .. } = self.player {
            settings.insert("late".into(), late.to_string());
        }
        settings
    }

    /// The command that replays the game with spawn seed `seed` alone.
    pub fn replay(&self, seed: u64) -> String {
        let mut command = format!(
            "cargo run --release -p game-search-2048 --bin g2048 -- play {} --seed {seed}",
            self.player.flags()
        );
        if let Some(tile) = self.stop_at {
            command += &format!(" --stop-at {tile}");
        }
        if let Some(max) = self.max_moves {
            command += &format!(" --max-moves {max}");
        }
        command
    }
}

const TO_2048: Option<u32> = Some(2048);

fn row(tier: u8, id: impl Into<String>, games: u64, player: Player2048, stop_at: Option<u32>) -> Row {
    Row { tier, id: id.into(), games, spec: RowSpec::G2048(Row2048 { player, stop_at, max_moves: None }) }
}

/// The strong agent's fast setting for play-on games (a game to the end in minutes, not hours).
pub const STRONG_FAST: Player2048 = Player2048::Strong { cprob: 1e-3, max_depth: 6 };

/// The strong search at nneonneo's settings (its cut-off; the depth cap never binds).
pub const STRONG: Player2048 = Player2048::Strong { cprob: 1e-4, max_depth: 12 };

/// The players over an n-tuple network that the evaluation's rows and `bench-2048 --games`
/// play, with their names: one ply (`ntuple-greedy`), the strong search at a shallow setting
/// (`ntuple-strong`: cut-off 0.01, at most 3 moves deep), the same valuing boards through
/// `downgrade` (`ntuple-strong-dg`, see [`Downgrade`]), a deeper one (`ntuple-deep`:
/// cut-off 0.001, at most 4) and the shallow one that searches as the deep one from its first
/// 16384 on (`ntuple-strong-late`, see [`LATE`]). At cut-off 0.01 the probabilities stop the
/// search after about three moves whatever the depth cap, so the deeper one lowers the cut-off
/// too.
pub fn ntuple_players(network: &Path, downgrade: Downgrade) -> [(&'static str, Player2048); 5] {
    let network = network.to_path_buf();
    let strong = |cprob, max_depth, downgrade, late| Player2048::NTupleStrong {
        network: network.clone(),
        cprob,
        max_depth,
        downgrade,
        late,
    };
    [
        ("ntuple-greedy", Player2048::NTupleGreedy { network: network.clone() }),
        ("ntuple-strong", strong(0.01, 3, None, None)),
        ("ntuple-strong-dg", strong(0.01, 3, Some(downgrade), None)),
        ("ntuple-deep", strong(0.001, 4, None, None)),
        ("ntuple-strong-late", strong(0.01, 3, None, Some(LATE))),
    ]
}

/// The late setting of the `ntuple-strong-late` rows: the deep row's cut-off and depth from the
/// first 16384 on (docs/ntuple.md, "Snapshots").
pub const LATE: LateSearch = LateSearch { from_tile: 16384, probability_cutoff: 0.001, max_depth: 4 };

/// The 2048 rows: the seed document's three tiers (minimax at depth 4 for every heuristic; both
/// agents at depth 4; expectimax at 5 and minimax at 6), then rows beyond the seed (baselines,
/// the strong agent to 2048, and the strong agent playing on to the end).
///
/// With `network` (a file of `cargo xtask train-2048`), five more rows play on to the end with
/// it: one ply (`ntuple-greedy-play-on`), the strong search at a shallow setting
/// (`ntuple-strong-play-on`: cut-off 0.01, at most 3 moves deep), the same through `downgrade`
/// (`ntuple-strong-dg-play-on`), a deeper one (`ntuple-deep-play-on`: cut-off 0.001, at
/// most 4) and the shallow one deep from its first 16384 on (`ntuple-strong-late-play-on`).
///
/// `quick` keeps every row but plays at reduced depth, and the play-on rows stop after 300 moves.
pub fn rows_2048(quick: bool, network: Option<&Path>, downgrade: Downgrade) -> Vec<Row> {
    let (d4, d5, d6) = if quick { (2, 3, 4) } else { (4, 5, 6) };
    let games = |n: u64| if quick { 2 } else { n };
    let prefix = if quick { "quick-" } else { "" };
    // The seed's final heuristic, used by both agents in tiers 2 and 3.
    let sq = SeedHeuristic::MaxSqCoefSum;
    let mut rows = Vec::new();
    for heuristic in SeedHeuristic::ALL {
        let id = format!("{prefix}minimax-d{d4}-{}", heuristic.name());
        rows.push(row(1, id, games(50), Player2048::Minimax { depth: d4, heuristic }, TO_2048));
    }
    rows.push(row(
        2,
        format!("{prefix}minimax-d{d4}"),
        games(50),
        Player2048::Minimax { depth: d4, heuristic: sq },
        TO_2048,
    ));
    rows.push(row(
        2,
        format!("{prefix}expectimax-d{d4}"),
        games(50),
        Player2048::Expectimax { depth: d4, heuristic: sq },
        TO_2048,
    ));
    rows.push(row(2, format!("{prefix}random"), games(50), Player2048::Random, TO_2048));
    rows.push(row(2, format!("{prefix}greedy"), games(50), Player2048::Greedy, TO_2048));
    rows.push(row(
        3,
        format!("{prefix}expectimax-d{d5}"),
        games(20),
        Player2048::Expectimax { depth: d5, heuristic: sq },
        TO_2048,
    ));
    rows.push(row(
        3,
        format!("{prefix}expectimax-d{d5}-mixed"),
        games(20),
        Player2048::Expectimax { depth: d5, heuristic: SeedHeuristic::Mixed },
        TO_2048,
    ));
    rows.push(row(
        3,
        format!("{prefix}minimax-d{d6}"),
        games(20),
        Player2048::Minimax { depth: d6, heuristic: sq },
        TO_2048,
    ));
    let strong = if quick { Player2048::Strong { cprob: 0.05, max_depth: 3 } } else { STRONG };
    rows.push(row(3, format!("{prefix}strong"), games(20), strong, TO_2048));
    let fast = if quick { Player2048::Strong { cprob: 0.05, max_depth: 3 } } else { STRONG_FAST };
    rows.push(row(3, format!("{prefix}strong-fast-play-on"), games(10), fast, None));
    if let Some(path) = network {
        for ((name, player), n) in ntuple_players(path, downgrade).into_iter().zip([100, 50, 50, 50, 50]) {
            // The deep row is about a tenth of the shallow one's speed: --quick plays it shallow.
            let player = match player {
                Player2048::NTupleStrong { network, cprob: 0.001, downgrade, late, .. } if quick => {
                    Player2048::NTupleStrong { network, cprob: 0.05, max_depth: 3, downgrade, late }
                }
                player => player,
            };
            rows.push(row(3, format!("{prefix}{name}-play-on"), games(n), player, None));
        }
    }
    if quick {
        for row in &mut rows {
            if let RowSpec::G2048(spec) = &mut row.spec
                && spec.stop_at.is_none()
            {
                spec.max_moves = Some(300);
            }
        }
    }
    rows
}

/// What the seed document (or, for the strong rows, nneonneo's program) published for a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Published {
    /// Games played.
    pub games: u32,
    /// Games won (2048 reached).
    pub wins: u32,
    /// Average moves per game, if published.
    pub moves: Option<f64>,
    /// Average seconds per game on the authors' machine, if published.
    pub seconds: Option<f64>,
}

/// The published numbers for a 2048 row id (see `shared/reference/2048.md` §3.6).
pub fn published_2048(row: &str) -> Option<Published> {
    let p = |games, wins, moves, seconds| Some(Published { games, wins, moves, seconds });
    match row {
        "minimax-d4-mixed" => p(50, 14, Some(902.7), Some(9.7)),
        "minimax-d4-max-sq-coef-sum" | "minimax-d4" => p(50, 21, Some(919.1), Some(10.7)),
        "minimax-d4-max-sq-coef-sum-col" => p(50, 0, Some(634.1), Some(7.2)),
        // The earlier 10-game table of heuristic variants at depth 4.
        "minimax-d4-smoothness" => p(10, 0, None, None),
        "minimax-d4-sum-sq-per-empty" => p(10, 0, None, None),
        "minimax-d4-mixed-position" => p(10, 1, None, None),
        "minimax-d4-position" => p(10, 0, None, None),
        "expectimax-d4" => p(50, 31, Some(957.8), Some(34.1)),
        "expectimax-d5" => p(20, 17, Some(1010.6), Some(255.9)),
        "expectimax-d5-mixed" => p(10, 9, Some(999.7), Some(214.3)),
        "minimax-d6" => p(5, 3, Some(845.4), Some(107.9)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiers::game_seed;

    #[test]
    fn row_ids_are_unique_and_published_rows_exist() {
        for quick in [false, true] {
            let rows = rows_2048(quick, None, Downgrade::default());
            let mut ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), rows.len());
        }
        let rows = rows_2048(false, None, Downgrade::default());
        for id in ["minimax-d4-mixed", "minimax-d4", "expectimax-d4", "expectimax-d5", "minimax-d6"] {
            assert!(rows.iter().any(|r| r.id == id), "{id}");
            assert!(published_2048(id).is_some());
        }
        assert_eq!(rows.iter().filter(|r| r.tier == 1).count(), 10);
        assert!(rows_2048(true, None, Downgrade::default()).iter().all(|r| published_2048(&r.id).is_none()));
    }

    #[test]
    fn a_row_replays_from_its_command() {
        let row = &rows_2048(true, None, Downgrade::default())[0];
        let line = row.run(0, 42);
        let seed = game_seed(42, 0);
        assert_eq!(line.seed, seed);
        assert!(line.replay.contains(&format!("--seed {seed}")) && line.replay.contains("--stop-at 2048"));
        assert!(line.replay.contains(&format!("--depth {}", line.depth.unwrap())));
        assert_eq!(row.run(0, 42).moves, line.moves);
    }

    #[test]
    fn a_network_adds_five_play_on_rows_that_replay_with_it() {
        use game2048::ntuple::{Shape, TrainConfig};
        let dir = std::env::temp_dir().join(format!("tiers-network-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.bin");
        let network = NTupleNetwork::new(Shape::Small);
        network.train(&TrainConfig { games: 10, ..TrainConfig::default() }, |_| {});
        network.save(&path).unwrap();

        let plain = rows_2048(true, None, Downgrade::default()).len();
        let downgrade: Downgrade = "8192,512,1.5".parse().unwrap();
        let rows = rows_2048(true, Some(&path), downgrade);
        assert_eq!(rows.len(), plain + 5);
        let ntuple: Vec<&Row> = rows.iter().filter(|r| r.id.contains("ntuple")).collect();
        assert_eq!(ntuple.len(), 5);
        let late = ntuple.iter().find(|r| r.id == "quick-ntuple-strong-late-play-on").expect("the late row");
        let line = late.run(0, 5);
        assert!(line.replay.contains("--late 16384,0.001,4"), "{}", line.replay);
        assert_eq!(line.settings.get("late").map(String::as_str), Some("16384,0.001,4"));
        let dg =
            ntuple.iter().find(|r| r.id == "quick-ntuple-strong-dg-play-on").expect("the downgrading row");
        let line = dg.run(0, 5);
        assert!(line.replay.contains("--downgrade 8192,512,1.5"), "{}", line.replay);
        assert_eq!(line.settings.get("downgrade").map(String::as_str), Some("8192,512,1.5"));
        assert!(ntuple.iter().filter(|r| r.id != dg.id).all(|r| !r.run(0, 5).replay.contains("--downgrade")));
        for row in ntuple {
            let RowSpec::G2048(spec) = &row.spec else { panic!("a 2048 row") };
            assert_eq!((spec.stop_at, spec.max_moves), (None, Some(300)));
            let line = row.run(0, 5);
            assert!(line.moves > 0 && line.moves <= 300);
            assert!(line.replay.contains(&format!("--network {}", path.display())), "{}", line.replay);
            assert!(line.heuristic.starts_with("n-tuple"));
        }
        assert!(load_network(&dir.join("missing.bin")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
