//! The numbers of a run, one summary per row, rebuilt from the game records alone, and the
//! `summary.md` that shows them in one table per tier, beside the seed document's published
//! numbers for 2048.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::record::{GameKind, GameLine};
use crate::tiers::g2048::{Published, published_2048, seed_runs_2048};

/// The 2048 tiles whose reach the summary counts, in increasing order.
pub const TILES: [u32; 5] = [2048, 4096, 8192, 16384, 32768];

/// The 95% Wilson score interval of a success rate with `wins` successes in `n` trials, as
/// fractions in `[0, 1]`. With no trials nothing is known, and the interval is `(0, 1)`.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    wilson_score(wins as f64, n)
}

/// The 95% Wilson interval for a score of `score` points out of `n` (a win is 1, a draw ½):
/// the arena's, so every table of the workspace computes it one way.
pub use search_core::arena::wilson as wilson_score;

/// What the games of one row add up to.
#[derive(Clone, Debug, PartialEq)]
pub struct RowSummary {
    /// The game (`2048`, `hex`, `domino`).
    pub game: GameKind,
    /// The evaluation tier.
    pub tier: u8,
    /// The row's id.
    pub row: String,
    /// The agent, as the row's first game records it.
    pub agent: String,
    /// The heuristic, as the row's first game records it.
    pub heuristic: String,
    /// The search depth, if the agent has a fixed one.
    pub depth: Option<u32>,
    /// The other settings, as the row's first game records them.
    pub settings: BTreeMap<String, String>,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn (dominoes; never in 2048).
    pub draws: u64,
    /// The score: `(wins + draws / 2) / games` (0 without games); the win rate when nothing is
    /// drawn.
    pub win_rate: f64,
    /// The 95% Wilson interval of the score (exact for a win rate; with draws, the Wilson formula
    /// applied to the score as if it were a proportion, slightly wider than the true interval).
    pub interval: (f64, f64),
    /// Average moves per game.
    pub avg_moves: f64,
    /// Average wall time per game, in seconds.
    pub avg_seconds: f64,
    /// The longest game, in seconds.
    pub max_seconds: f64,
    /// Total moves over total seconds (0 if no time was measured).
    pub moves_per_second: f64,
    /// Average score per game.
    pub avg_score: f64,
    /// Total search nodes over total seconds (0 if no time was measured).
    pub nodes_per_second: f64,
    /// For each tile of [`TILES`], how many games reached it (their highest tile is at least it).
    pub reached: [u64; 5],
    /// How many games ended with each highest tile (2048 only; empty for other games).
    pub max_tiles: BTreeMap<u32, u64>,
}

impl RowSummary {
    /// Whether the row played on past 2048 (setting `stop_at` = `none`).
    pub fn plays_on(&self) -> bool {
        self.settings.get("stop_at").is_some_and(|stop| stop == "none")
    }

    /// What the seed document published for this row, if anything.
    pub fn published(&self) -> Option<Published> {
        if self.game == GameKind::G2048 { published_2048(&self.row) } else { None }
    }

    fn from_games(games: &[&GameLine]) -> RowSummary {
        let first = games[0];
        let n = games.len() as u64;
        let n_f = n as f64;
        let wins = games.iter().filter(|g| g.won()).count() as u64;
        let draws = games.iter().filter(|g| g.result == "draw").count() as u64;
        let score = wins as f64 + draws as f64 / 2.0;
        let total_moves: u64 = games.iter().map(|g| g.moves).sum();
        let total_seconds: f64 = games.iter().map(|g| g.seconds).sum();
        let total_nodes: u64 = games.iter().map(|g| g.nodes).sum();
        let per_second = |total: f64| if total_seconds > 0.0 { total / total_seconds } else { 0.0 };
        let mut reached = [0; TILES.len()];
        let mut max_tiles = BTreeMap::new();
        for tile in games.iter().filter_map(|g| g.max_tile) {
            *max_tiles.entry(tile).or_insert(0) += 1;
            for (count, &goal) in reached.iter_mut().zip(&TILES) {
                if tile >= goal {
                    *count += 1;
                }
            }
        }
        RowSummary {
            game: first.game,
            tier: first.tier,
            row: first.row.clone(),
            agent: first.agent.clone(),
            heuristic: first.heuristic.clone(),
            depth: first.depth,
            settings: first.settings.clone(),
            games: n,
            wins,
            draws,
            win_rate: score / n_f,
            interval: wilson_score(score, n),
            avg_moves: total_moves as f64 / n_f,
            avg_seconds: total_seconds / n_f,
            max_seconds: games.iter().map(|g| g.seconds).fold(0.0, f64::max),
            moves_per_second: per_second(total_moves as f64),
            avg_score: games.iter().map(|g| g.score).sum::<f64>() / n_f,
            nodes_per_second: per_second(total_nodes as f64),
            reached,
            max_tiles,
        }
    }
}

/// Sums up the games of each (game, tier, row), ordered by tier, then by the order in which the
/// rows first appear in `games`. Every record counts: records of the same game read twice count
/// twice.
pub fn summarize(games: &[GameLine]) -> Vec<RowSummary> {
    let mut index: BTreeMap<(GameKind, u8, &str), usize> = BTreeMap::new();
    let mut groups: Vec<Vec<&GameLine>> = Vec::new();
    for game in games {
        let key = (game.game, game.tier, game.row.as_str());
        let slot = *index.entry(key).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[slot].push(game);
    }
    let mut rows: Vec<RowSummary> = groups.iter().map(|group| RowSummary::from_games(group)).collect();
    // A stable sort keeps first appearance within a tier.
    rows.sort_by_key(|row| row.tier);
    rows
}

/// The title of a tier's table: its number, what it compares, and the agent and depth its rows
/// share, e.g. "Tier 1 — heuristics (minimax, depth 4)". The depth is the one shared by every row
/// that searches deeper than one ply; one-ply and depth-less baselines do not count.
pub fn tier_title(tier: u8, rows: &[&RowSummary]) -> String {
    let domino = rows.first().is_some_and(|r| r.game == GameKind::Domino);
    let what = match (tier, domino) {
        (1, false) => "heuristics",
        (1, true) => "against the baselines",
        (2, false) => "agents",
        (2, true) => "search players against each other",
        (3, _) => "longer runs",
        _ => "",
    };
    let mut shared = Vec::new();
    if let Some(first) = rows.first()
        && rows.iter().all(|r| r.agent == first.agent)
    {
        shared.push(first.agent.clone());
    }
    let mut depths: Vec<u32> = rows.iter().filter_map(|r| r.depth).filter(|&d| d > 1).collect();
    depths.sort_unstable();
    depths.dedup();
    if let [depth] = depths[..] {
        shared.push(format!("depth {depth}"));
    }
    let mut title = format!("Tier {tier}");
    if !what.is_empty() {
        title += &format!(" — {what}");
    }
    if !shared.is_empty() {
        title += &format!(" ({})", shared.join(", "));
    }
    title
}

/// A game's name as a heading.
pub fn game_title(game: GameKind) -> &'static str {
    match game {
        GameKind::G2048 => "2048",
        GameKind::Domino => "Dominoes",
        GameKind::Hex => "Hex",
    }
}

/// The games of `rows` in order of first appearance.
pub fn games_of(rows: &[RowSummary]) -> Vec<GameKind> {
    let mut games: Vec<GameKind> = Vec::new();
    for row in rows {
        if !games.contains(&row.game) {
            games.push(row.game);
        }
    }
    games
}

/// The tiers of one game's rows in `rows`, in increasing order, each with its rows.
pub fn tiers_of(rows: &[RowSummary], game: GameKind) -> Vec<(u8, Vec<&RowSummary>)> {
    let mut tiers: BTreeMap<u8, Vec<&RowSummary>> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.game == game) {
        tiers.entry(row.tier).or_default().push(row);
    }
    tiers.into_iter().collect()
}

const DASH: &str = "–";

/// A rate as a whole percentage, e.g. `42%`.
fn percent(rate: f64) -> String {
    format!("{:.0}%", rate * 100.0)
}

/// A rate and its interval, e.g. `42% [29–56]`.
fn percent_with_interval(rate: f64, (low, high): (f64, f64)) -> String {
    format!("{} [{:.0}–{:.0}]", percent(rate), low * 100.0, high * 100.0)
}

/// Seconds with 2 decimals, or 3 significant digits below 0.1 s.
fn seconds(s: f64) -> String {
    if s >= 0.1 || s <= 0.0 || !s.is_finite() {
        format!("{s:.2}")
    } else {
        let decimals = (2 - s.log10().floor() as i32).max(0) as usize;
        format!("{s:.decimals$}")
    }
}

/// A rate such as moves per second: whole numbers from 100 up (grouped by thousands from
/// 10,000), else 3 significant digits.
fn rate(x: f64) -> String {
    if x >= 10_000.0 && x.is_finite() {
        let digits = format!("{x:.0}");
        let mut grouped = String::new();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        grouped
    } else if x >= 100.0 || x <= 0.0 || !x.is_finite() {
        format!("{x:.0}")
    } else {
        let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
        format!("{x:.decimals$}")
    }
}

fn table_row(out: &mut String, cells: &[String]) {
    let _ = writeln!(out, "| {} |", cells.join(" | "));
}

fn table_head(out: &mut String, names: &[&str], left_aligned: usize) {
    let _ = writeln!(out, "| {} |", names.join(" | "));
    let marks: Vec<&str> = (0..names.len()).map(|i| if i < left_aligned { "---" } else { "---:" }).collect();
    let _ = writeln!(out, "|{}|", marks.join("|"));
}

fn tier_table(out: &mut String, rows: &[&RowSummary], with_seed: bool) {
    // Dominoes can be drawn: its tables score a win 1 and a draw ½.
    let score = if rows.iter().any(|r| r.draws > 0 || r.game == GameKind::Domino) {
        "score % (win + ½ draw) [95% CI]"
    } else {
        "win % [95% CI]"
    };
    // Only 2048 rows vary the heuristic and have a score worth averaging; the other games name
    // the opponent in that column, and a Hex game's "score" is just its win.
    let is_2048 = rows.iter().all(|r| r.game == GameKind::G2048);
    let with_score = !rows.iter().any(|r| r.game == GameKind::Hex);
    let second = if is_2048 { "heuristic" } else { "opponent" };
    let mut names = vec!["row", "agent", second, "depth", "games", score, "avg moves", "avg s/game"];
    names.extend(["max s/game", "moves/s"]);
    if with_score {
        names.push("avg score");
    }
    names.push("nodes/s");
    if with_seed {
        names.extend(["seed games", "seed win % [95% CI]", "seed moves", "seed s/game"]);
    }
    table_head(out, &names, 3);
    for row in rows {
        let mut cells = vec![
            format!("`{}`", row.row),
            row.agent.clone(),
            row.heuristic.clone(),
            row.depth.map_or(DASH.into(), |d| d.to_string()),
            row.games.to_string(),
            // A game that plays on past the target tile has no "won": see the tiles table.
            if row.plays_on() {
                format!("{DASH} (plays on)")
            } else {
                percent_with_interval(row.win_rate, row.interval)
            },
            format!("{:.1}", row.avg_moves),
            seconds(row.avg_seconds),
            seconds(row.max_seconds),
            rate(row.moves_per_second),
        ];
        if with_score {
            cells.push(format!("{:.0}", row.avg_score));
        }
        // A player that does not search (or does not count its nodes) has no rate to show.
        cells.push(if row.nodes_per_second > 0.0 { rate(row.nodes_per_second) } else { DASH.into() });
        if with_seed {
            match row.published() {
                Some(seed) => {
                    let rate = seed.wins as f64 / seed.games as f64;
                    cells.push(seed.games.to_string());
                    cells.push(percent_with_interval(rate, wilson(seed.wins.into(), seed.games.into())));
                    cells.push(seed.moves.map_or(DASH.into(), |m| format!("{m:.1}")));
                    // As published: one decimal.
                    cells.push(seed.seconds.map_or(DASH.into(), |s| format!("{s:.1}")));
                }
                None => cells.extend(std::iter::repeat_n(DASH.to_string(), 4)),
            }
        }
        table_row(out, &cells);
    }
}

fn tiles_reached_table(out: &mut String, rows: &[&RowSummary]) {
    let mut names = vec!["row".to_string(), "games".to_string()];
    names.extend(TILES.iter().map(|t| t.to_string()));
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    table_head(out, &names, 1);
    for row in rows {
        let mut cells = vec![format!("`{}`", row.row), row.games.to_string()];
        for &count in &row.reached {
            let share = count as f64 / row.games as f64;
            cells.push(format!("{} ({count})", percent_with_interval(share, wilson(count, row.games))));
        }
        table_row(out, &cells);
    }
}

/// Which configuration of the seed program each seed row ran and what differs from the code that
/// made the seed's figure (the settings `model` and `differs` of its games).
fn seed_configuration_table(out: &mut String, rows: &[&RowSummary]) {
    table_head(out, &["row", "configuration", "what differs from the seed program"], 3);
    for row in rows {
        let (Some(model), Some(differs)) = (row.settings.get("model"), row.settings.get("differs")) else {
            continue;
        };
        table_row(out, &[format!("`{}`", row.row), format!("`{model}`"), differs.clone()]);
    }
}

/// The seed's own logged runs of the configurations our rows reproduce, beside our rate.
fn seed_runs_table(out: &mut String, rows: &[&RowSummary]) {
    table_head(out, &["row", "ours", "seed run", "games", "win % [95% CI]"], 3);
    for row in rows {
        for run in seed_runs_2048(&row.row) {
            let rate = f64::from(run.wins) / f64::from(run.games);
            table_row(
                out,
                &[
                    format!("`{}`", row.row),
                    percent_with_interval(row.win_rate, row.interval),
                    run.log.to_string(),
                    run.games.to_string(),
                    percent_with_interval(rate, wilson(run.wins.into(), run.games.into())),
                ],
            );
        }
    }
}

/// The `summary.md` of a run: a section per game, one table per tier with win rate and its 95%
/// Wilson interval, average moves, average and longest seconds per game, moves per second, average
/// score and search nodes per second; for 2048 also the seed document's published numbers in the
/// same rows, and how often the rows that played on past 2048 reached each larger tile.
pub fn markdown(rows: &[RowSummary]) -> String {
    let mut out = String::from("# Evaluation summary\n");
    if rows.is_empty() {
        out.push_str("\nNo games recorded.\n");
    }
    for game in games_of(rows) {
        let is_2048 = game == GameKind::G2048;
        let _ = writeln!(out, "\n## {}", game_title(game));
        for (tier, tier_rows) in tiers_of(rows, game) {
            let _ = writeln!(out, "\n### {}\n", tier_title(tier, &tier_rows));
            tier_table(&mut out, &tier_rows, is_2048);
        }
        if is_2048 {
            let play_on: Vec<&RowSummary> = rows.iter().filter(|r| r.game == game && r.plays_on()).collect();
            if !play_on.is_empty() {
                out.push_str("\n### Tiles reached (games played on past 2048)\n\n");
                tiles_reached_table(&mut out, &play_on);
            }
            let seed_rows: Vec<&RowSummary> =
                rows.iter().filter(|r| r.game == game && r.settings.contains_key("model")).collect();
            if !seed_rows.is_empty() {
                out.push_str("\n### What each seed row ran\n\n");
                out.push_str(concat!(
                    "`original`: the seed program's final code (depth in plies, its partial cut, a lost board ",
                    "valued by the heuristic, no loss penalty); `original-earlier`: the earlier version that ",
                    "played its depth-6 minimax row (no partial cut; a spawn node with at most 2 levels left ",
                    "searches its first 10 spawns, then returns its board's heuristic); ",
                    "`original-loss-penalty`: the final code with the seed document's loss rule (a lost ",
                    "board below every board).\n\n",
                ));
                seed_configuration_table(&mut out, &seed_rows);
            }
            let with_runs: Vec<&RowSummary> =
                rows.iter().filter(|r| r.game == game && !seed_runs_2048(&r.row).is_empty()).collect();
            if !with_runs.is_empty() {
                out.push_str("\n### The seed's own runs of the same configurations\n\n");
                seed_runs_table(&mut out, &with_runs);
            }
        }
        out.push_str("\nWin % is the share of games won (for dominoes the score: a win counts 1, a draw ½), with its 95% Wilson score interval in brackets. ");
        out.push_str("Times are wall time per game on this machine.\n");
        if is_2048 {
            out.push_str(concat!(
                "\nA 2048 game is won when a 2048 tile appears. The seed columns are the seed document's ",
                "published results; its times are CPython + numba on the authors' laptop, ours are this ",
                "machine, so only their order of magnitude compares. Seed rows of 10 games come from its ",
                "earlier table of heuristic variants. Tile rates come with their 95% Wilson intervals.\n",
            ));
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 2048 game record with the fields the summary reads.
    pub(crate) fn line(tier: u8, row: &str, index: u64, max_tile: u32, moves: u64, seconds: f64) -> GameLine {
        let (agent, depth) = match row.split('-').collect::<Vec<_>>()[..] {
            [agent, d, ..] if d.starts_with('d') => (agent.to_string(), d[1..].parse().ok()),
            [agent, ..] => (agent.to_string(), None),
            [] => (String::new(), None),
        };
        let stop_at = if row.contains("play-on") { "none" } else { "2048" };
        GameLine {
            game: GameKind::G2048,
            tier,
            row: row.into(),
            index,
            agent,
            heuristic: "max-sq-coef-sum".into(),
            depth,
            settings: BTreeMap::from([("stop_at".into(), stop_at.into())]),
            seed: index,
            result: if max_tile >= 2048 { "won".into() } else { "lost".into() },
            score: max_tile as f64 * 10.0,
            max_tile: Some(max_tile),
            moves,
            seconds,
            nodes: moves * 1000,
            replay: String::new(),
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_matches_known_intervals() {
        let (low, high) = wilson(21, 50);
        assert!(close(low, 0.2938) && close(high, 0.5577), "{low} {high}");
        let (low, high) = wilson(14, 50);
        assert!(close(low, 0.1747) && close(high, 0.4167), "{low} {high}");
        assert_eq!(wilson(0, 10).0, 0.0);
        assert!(close(wilson(0, 10).1, 0.2775));
        assert!(close(wilson(10, 10).0, 0.7225));
        assert_eq!(wilson(10, 10).1, 1.0);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (low, high) = wilson(1, 2);
        assert!(close(low + high, 1.0), "symmetric at one half");
    }

    #[test]
    fn summarize_groups_by_tier_then_first_appearance() {
        let games = vec![
            line(2, "expectimax-d4", 0, 2048, 1000, 2.0),
            line(1, "minimax-d4-mixed", 0, 1024, 700, 1.0),
            line(2, "greedy", 0, 256, 200, 0.01),
            line(2, "expectimax-d4", 1, 1024, 800, 3.0),
            line(1, "minimax-d4-mixed", 1, 2048, 900, 1.0),
            line(3, "strong-fast-play-on", 0, 16384, 8000, 100.0),
        ];
        let rows = summarize(&games);
        let ids: Vec<&str> = rows.iter().map(|r| r.row.as_str()).collect();
        assert_eq!(ids, ["minimax-d4-mixed", "expectimax-d4", "greedy", "strong-fast-play-on"]);

        let e = &rows[1];
        assert_eq!((e.tier, e.games, e.wins), (2, 2, 1));
        assert_eq!(e.agent, "expectimax");
        assert_eq!(e.depth, Some(4));
        assert!(close(e.win_rate, 0.5));
        assert_eq!(e.interval, wilson(1, 2));
        assert!(close(e.avg_moves, 900.0));
        assert!(close(e.avg_seconds, 2.5));
        assert!(close(e.max_seconds, 3.0));
        assert!(close(e.moves_per_second, 1800.0 / 5.0));
        assert!(close(e.nodes_per_second, 1_800_000.0 / 5.0));
        assert!(close(e.avg_score, (2048.0 + 1024.0) * 10.0 / 2.0));
        assert_eq!(e.reached, [1, 0, 0, 0, 0]);
        assert_eq!(e.max_tiles, BTreeMap::from([(1024, 1), (2048, 1)]));
        assert!(!e.plays_on());

        let p = &rows[3];
        assert!(p.plays_on());
        assert_eq!(p.reached, [1, 1, 1, 1, 0]);
    }

    #[test]
    fn markdown_puts_the_seed_beside_ours() {
        let mut games: Vec<GameLine> =
            (0..10).map(|i| line(2, "minimax-d4", i, if i < 4 { 2048 } else { 1024 }, 900, 0.5)).collect();
        games.push(line(2, "greedy", 0, 256, 150, 0.004));
        games.push(line(1, "minimax-d4-mixed", 0, 2048, 950, 0.25));
        games.push(line(3, "strong-fast-play-on", 0, 16384, 9000, 120.0));
        games.push(line(3, "expectimax-d5", 0, 2048, 1000, 30.0));
        games.push(line(3, "minimax-d6", 0, 1024, 800, 10.0));
        let text = markdown(&summarize(&games));

        let ours = text.lines().find(|l| l.starts_with("| `minimax-d4` |")).unwrap();
        assert!(
            ours.contains("| 10 | 40% [17–69] | 900.0 | 0.50 | 0.50 | 1800 | 14336 | 1,800,000 |"),
            "{ours}"
        );
        assert!(ours.ends_with("| 50 | 42% [29–56] | 919.1 | 10.7 |"), "{ours}");
        let greedy = text.lines().find(|l| l.starts_with("| `greedy` |")).unwrap();
        assert!(greedy.contains("| 0.00400 |"), "{greedy}");
        assert!(greedy.ends_with("| – | – | – | – |"), "{greedy}");

        assert!(text.contains("### Tier 1 — heuristics (minimax, depth 4)"), "{text}");
        assert!(text.contains("### Tier 2 — agents (depth 4)"), "{text}");
        assert!(text.contains("### Tier 3 — longer runs\n"), "{text}");
        assert!(text.find("Tier 1").unwrap() < text.find("Tier 2").unwrap());

        assert!(
            text.contains(
                "| `strong-fast-play-on` | 1 | 100% [21–100] (1) | 100% [21–100] (1) | 100% [21–100] (1) | 100% [21–100] (1) | 0% [0–79] (0) |"
            ),
            "{text}"
        );
        // Only rates measured in this run: no figure published elsewhere.
        assert!(!text.contains("published)"), "{text}");
        assert!(text.contains("CPython + numba"));
    }

    #[test]
    fn markdown_says_what_each_seed_row_ran_and_lists_the_seeds_runs() {
        let mut games = Vec::new();
        for (row, model, differs) in [
            ("minimax-d4", "original", "nothing in the search"),
            ("minimax-d4-loss-penalty", "original-loss-penalty", "a lost board scores below every board"),
        ] {
            for i in 0..4 {
                let mut game = line(2, row, i, if i < 2 { 2048 } else { 1024 }, 900, 0.01);
                game.settings.insert("model".into(), model.into());
                game.settings.insert("differs".into(), differs.into());
                games.push(game);
            }
        }
        games.push(line(2, "greedy", 0, 256, 150, 0.004));
        let text = markdown(&summarize(&games));
        assert!(text.contains("### What each seed row ran"), "{text}");
        assert!(text.contains("| `minimax-d4` | `original` | nothing in the search |"), "{text}");
        assert!(
            text.contains("| `minimax-d4-loss-penalty` | `original-loss-penalty` | a lost board"),
            "{text}"
        );
        assert!(!text.contains("| `greedy` | `"), "{text}");
        assert!(text.contains("### The seed's own runs of the same configurations"), "{text}");
        assert!(
            text.contains("| `minimax-d4` | 50% [15–85] | MMAgentMaxCoefSqSumHeur_test-d4.txt (the published run) | 50 | 42% [29–56] |"),
            "{text}"
        );
        assert!(text.contains("| 28 | 46% [30–64] |"), "{text}");
    }

    #[test]
    fn other_games_have_no_seed_columns() {
        let mut game = line(1, "mcts", 0, 0, 40, 1.0);
        game.game = GameKind::Hex;
        game.max_tile = None;
        let text = markdown(&summarize(&[game]));
        assert!(text.contains("## Hex"));
        assert!(!text.contains("seed games") && !text.contains("Tiles reached"), "{text}");
        assert_eq!(markdown(&[]), "# Evaluation summary\n\nNo games recorded.\n");
    }

    #[test]
    fn numbers_are_formatted_for_reading() {
        assert_eq!(seconds(12.345), "12.35");
        assert_eq!(seconds(0.1), "0.10");
        assert_eq!(seconds(0.0123456), "0.0123");
        assert_eq!(seconds(0.0), "0.00");
        assert_eq!(rate(123456.7), "123,457");
        assert_eq!(rate(9_745_910.0), "9,745,910");
        assert_eq!(rate(1800.0), "1800");
        assert_eq!(rate(12.345), "12.3");
        assert_eq!(percent_with_interval(0.42, (0.2938, 0.5577)), "42% [29–56]");
    }
}
