//! The 2048 evaluation: its rows, how a row plays one game, and the seed document's published
//! numbers to compare with.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use game2048::Rules;
use game2048::agents::{
    Agent, Greedy, LateSearch, LostBoard, RandomAgent, SeedConfig, SeedExpectimax, SeedMinimax, Strong,
    StrongConfig,
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

/// Which configuration of the seed program a seed row runs ([`SeedConfig`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedModel {
    /// The final program: plies, the partial cut, a lost board valued by the heuristic
    /// ([`SeedConfig::original`]).
    Original,
    /// The earlier code version of the published depth-6 minimax row: the first ten spawns
    /// searched instead of the partial cut ([`SeedConfig::earlier`]).
    Earlier,
    /// The final program with the described loss rule: a lost board below every other board, as
    /// the seed document asks (what these rows ran before the seed's rule was reproduced).
    LossPenalty,
}

impl SeedModel {
    /// The agents' configuration at `depth`.
    pub fn config(self, depth: u32) -> SeedConfig {
        match self {
            SeedModel::Original => SeedConfig::original(depth),
            SeedModel::Earlier => SeedConfig::earlier(depth),
            SeedModel::LossPenalty => SeedConfig { lost: LostBoard::Penalty, ..SeedConfig::original(depth) },
        }
    }

    /// The name recorded with each game (setting `model`).
    pub fn name(self) -> &'static str {
        match self {
            SeedModel::Original => "original",
            SeedModel::Earlier => "original-earlier",
            SeedModel::LossPenalty => "original-loss-penalty",
        }
    }

    /// What the search of an agent in this configuration (an expectimax one if `expectimax`)
    /// does differently from the seed program's code, in a few words (setting `differs`).
    pub fn differs(self, expectimax: bool) -> String {
        let mut differs = match self {
            SeedModel::Original | SeedModel::Earlier => "nothing".to_string(),
            SeedModel::LossPenalty => {
                "a lost board scores below every board (the seed program values it by its heuristic)"
                    .to_string()
            }
        };
        if expectimax {
            // Exact ties are rare with these heuristics; the spawns' order changes no value.
            differs += "; equal moves go to the first (the seed's expectimax shuffled them)";
        }
        differs
    }

    /// The `g2048` flags that select it.
    fn flags(self) -> &'static str {
        match self {
            SeedModel::Original => "",
            SeedModel::Earlier => " --model earlier",
            SeedModel::LossPenalty => " --lost penalty",
        }
    }
}

/// A 2048 player as a row describes it: enough to build it and to print the `g2048` flags that
/// rebuild it.
#[derive(Clone, Debug, PartialEq)]
pub enum Player2048 {
    /// A uniformly random legal move.
    Random,
    /// One ply with the line-table heuristic.
    Greedy,
    /// The seed's minimax in one of the seed program's configurations.
    Minimax { depth: u32, heuristic: SeedHeuristic, model: SeedModel },
    /// The seed's expectimax in one of the seed program's configurations.
    Expectimax { depth: u32, heuristic: SeedHeuristic, model: SeedModel },
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
            Player2048::Minimax { depth, heuristic, model } => {
                Box::new(SeedMinimax::new(model.config(depth), heuristic))
            }
            Player2048::Expectimax { depth, heuristic, model } => {
                Box::new(SeedExpectimax::new(model.config(depth), heuristic))
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
            Player2048::Minimax { depth, heuristic, model } => {
                format!("--agent minimax --depth {depth} --heuristic {}{}", heuristic.name(), model.flags())
            }
            Player2048::Expectimax { depth, heuristic, model } => {
                format!(
                    "--agent expectimax --depth {depth} --heuristic {}{}",
                    heuristic.name(),
                    model.flags()
                )
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
            Player2048::Minimax { model, .. } | Player2048::Expectimax { model, .. } => {
                settings.insert("model".into(), model.name().into());
                let expectimax = matches!(self.player, Player2048::Expectimax { .. });
                settings.insert("differs".into(), model.differs(expectimax));
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
/// The rows that stand beside a published figure run the seed program's configuration that made
/// it ([`SeedModel::Original`]; the depth-6 minimax [`SeedModel::Earlier`]), with enough games
/// to tell a quirk from chance: 1,000 at depth 4, 200 at depths 5 and 6. Rows named
/// `…-loss-penalty` run the same with the described loss rule ([`SeedModel::LossPenalty`]), and
/// `minimax-d6-final` the final code at depth 6.
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
    let (original, earlier, penalty) = (SeedModel::Original, SeedModel::Earlier, SeedModel::LossPenalty);
    let minimax = |depth, heuristic, model| Player2048::Minimax { depth, heuristic, model };
    let expectimax = |depth, heuristic, model| Player2048::Expectimax { depth, heuristic, model };
    let mut rows = Vec::new();
    for heuristic in SeedHeuristic::ALL {
        let id = format!("{prefix}minimax-d{d4}-{}", heuristic.name());
        rows.push(row(1, id, games(1000), minimax(d4, heuristic, original), TO_2048));
    }
    rows.push(row(2, format!("{prefix}minimax-d{d4}"), games(1000), minimax(d4, sq, original), TO_2048));
    rows.push(row(
        2,
        format!("{prefix}expectimax-d{d4}"),
        games(1000),
        expectimax(d4, sq, original),
        TO_2048,
    ));
    let id = format!("{prefix}minimax-d{d4}-loss-penalty");
    rows.push(row(2, id, games(1000), minimax(d4, sq, penalty), TO_2048));
    let id = format!("{prefix}expectimax-d{d4}-loss-penalty");
    rows.push(row(2, id, games(1000), expectimax(d4, sq, penalty), TO_2048));
    rows.push(row(2, format!("{prefix}random"), games(50), Player2048::Random, TO_2048));
    rows.push(row(2, format!("{prefix}greedy"), games(50), Player2048::Greedy, TO_2048));
    rows.push(row(3, format!("{prefix}expectimax-d{d5}"), games(200), expectimax(d5, sq, original), TO_2048));
    let id = format!("{prefix}expectimax-d{d5}-mixed");
    rows.push(row(3, id, games(200), expectimax(d5, SeedHeuristic::Mixed, original), TO_2048));
    rows.push(row(3, format!("{prefix}minimax-d{d6}"), games(200), minimax(d6, sq, earlier), TO_2048));
    rows.push(row(3, format!("{prefix}minimax-d{d6}-final"), games(200), minimax(d6, sq, original), TO_2048));
    let id = format!("{prefix}expectimax-d{d5}-loss-penalty");
    rows.push(row(3, id, games(200), expectimax(d5, sq, penalty), TO_2048));
    let id = format!("{prefix}minimax-d{d6}-loss-penalty");
    rows.push(row(3, id, games(200), minimax(d6, sq, penalty), TO_2048));
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

/// One of the seed's own logged runs (files of `federicoalonso/IA`, folder `2048/`): the
/// published figure is one of them, and the others of the same configuration show how much its
/// runs disagree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedRun {
    /// Where it is logged, and which run of the file.
    pub log: &'static str,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
}

/// The seed's logged runs of the configuration a 2048 row reproduces, the published one first
/// (see `shared/reference/2048.md` §3.6; counted from the logs' "WON" and "Loser" lines and their
/// per-run averages). Runs of unknown configuration are left out.
pub fn seed_runs_2048(row: &str) -> &'static [SeedRun] {
    match row {
        "minimax-d4-mixed" => &[
            SeedRun { log: "MMAgentMixedHeur_test-d4.txt (the published run)", games: 50, wins: 14 },
            SeedRun { log: "MiniMaxAgentMixedHeur_test-d4.txt", games: 10, wins: 8 },
            SeedRun { log: "MiniMaxAgentMaxMixedHeur_test2-d4.txt", games: 20, wins: 7 },
            SeedRun { log: "the document's heuristic table, \"Mixta\"", games: 10, wins: 7 },
        ],
        "minimax-d4-max-sq-coef-sum" | "minimax-d4" => &[
            SeedRun { log: "MMAgentMaxCoefSqSumHeur_test-d4.txt (the published run)", games: 50, wins: 21 },
            SeedRun { log: "MiniMaxAgentMaxCoefSqSumHeur_test-d4.txt, first run", games: 20, wins: 13 },
            SeedRun { log: "MiniMaxAgentMaxCoefSqSumHeur_test-d4.txt, second run", games: 20, wins: 7 },
            SeedRun {
                log: "log.csv (labelled mixed by hand; the code used max_sq_coef_sum)",
                games: 28,
                wins: 13,
            },
        ],
        "minimax-d4-max-sq-coef-sum-col" => &[
            SeedRun { log: "MMAgentMaxCoefSqSumOrdHeur_test-d4.txt (the published run)", games: 50, wins: 0 },
            SeedRun { log: "MiniMaxAgentMaxCoefSqSumOrdHeur_test-d4.txt, first run", games: 20, wins: 2 },
            SeedRun { log: "MiniMaxAgentMaxCoefSqSumOrdHeur_test-d4.txt, second run", games: 20, wins: 2 },
        ],
        // The document's earlier table of heuristic variants (10 games each, earlier code).
        "minimax-d4-smoothness" => {
            &[SeedRun { log: "the document's heuristic table, \"Favorecer Smooth\"", games: 10, wins: 0 }]
        }
        "minimax-d4-sum-sq-per-empty" => &[SeedRun {
            log: "the document's heuristic table, `Suma**2 / lugares vacíos`",
            games: 10,
            wins: 0,
        }],
        "minimax-d4-mixed-position" => &[SeedRun {
            log: "the document's heuristic table, \"Mixta + Valor por posición\"",
            games: 10,
            wins: 1,
        }],
        "minimax-d4-position" => &[SeedRun {
            log: "the document's heuristic table, \"Sólo favorecer posición\"",
            games: 10,
            wins: 0,
        }],
        "minimax-d4-max-coef" => {
            &[SeedRun { log: "MiniMaxAgentMaxCoefHeur_test-d4.txt", games: 10, wins: 4 }]
        }
        "minimax-d4-max-sq-coef" => {
            &[SeedRun { log: "MiniMaxAgentMaxCoefSqHeur_test-d4.txt", games: 20, wins: 11 }]
        }
        "expectimax-d4" => {
            &[SeedRun { log: "EMAgentMaxCoefSqSumHeur_test-d4.txt (the published run)", games: 50, wins: 31 }]
        }
        "expectimax-d5" => &[
            SeedRun {
                log: "RegistroPruebas/EMAgent-d5.txt, final commit (the published run)",
                games: 20,
                wins: 17,
            },
            SeedRun {
                log: "EMAgent-d5.txt, the commit before (15 wins in its lines; its average line and the summary figure say 80 %)",
                games: 20,
                wins: 15,
            },
            SeedRun { log: "log.csv", games: 3, wins: 2 },
        ],
        "expectimax-d5-mixed" => {
            &[SeedRun { log: "ExpectiMaxAgentMixedHeur_test-d5.txt (the published run)", games: 10, wins: 9 }]
        }
        "minimax-d6" => &[SeedRun { log: "MMAgent-d6.txt (the published run)", games: 5, wins: 3 }],
        _ => &[],
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

    /// Every row beside a published figure runs the seed program's configuration that made it,
    /// with enough games to tell a quirk from chance, and says so in its record; the loss
    /// penalty stays available as named rows, and the replay command rebuilds each.
    #[test]
    fn seed_rows_run_the_seed_programs_configuration() {
        let rows = rows_2048(false, None, Downgrade::default());
        let spec = |id: &str| match &rows.iter().find(|r| r.id == id).expect(id).spec {
            RowSpec::G2048(spec) => spec.clone(),
            _ => panic!("a 2048 row"),
        };
        for row in rows.iter().filter(|r| published_2048(&r.id).is_some()) {
            let RowSpec::G2048(spec) = &row.spec else { panic!("a 2048 row") };
            let (Player2048::Minimax { depth, model, .. } | Player2048::Expectimax { depth, model, .. }) =
                spec.player
            else {
                panic!("{} is no seed agent", row.id)
            };
            let expected = if row.id == "minimax-d6" { SeedModel::Earlier } else { SeedModel::Original };
            assert_eq!(model, expected, "{}", row.id);
            assert!(row.games >= if depth == 4 { 1000 } else { 200 }, "{}", row.id);
            assert!(!seed_runs_2048(&row.id).is_empty(), "{}", row.id);
            assert_eq!(spec.settings().get("model").map(String::as_str), Some(model.name()));
        }
        assert_eq!(SeedModel::Earlier.config(6), SeedConfig::earlier(6));
        assert_eq!(SeedModel::LossPenalty.config(4).lost, LostBoard::Penalty);
        assert_eq!(SeedModel::Original.config(4), SeedConfig::original(4));
        let replay = spec("minimax-d6").replay(1);
        assert!(replay.contains("--depth 6") && replay.contains("--model earlier"), "{replay}");
        let replay = spec("expectimax-d4-loss-penalty").replay(1);
        assert!(replay.contains("--lost penalty") && !replay.contains("--model"), "{replay}");
        assert!(!spec("expectimax-d4").replay(1).contains("--lost"));
        let penalty = spec("minimax-d6-loss-penalty").settings();
        assert!(penalty["differs"].contains("below every board"), "{penalty:?}");
        for id in ["minimax-d4-loss-penalty", "expectimax-d5-loss-penalty", "minimax-d6-final"] {
            assert!(published_2048(id).is_none(), "{id}");
        }
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
