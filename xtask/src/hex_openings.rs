//! `cargo xtask hex-openings`: solves every opening of the empty n×n Hex board with the exact
//! solver ([`hex::solver`]), checks the map against the published one and reports the time.
//!
//! For each size it prints one line per opening as it is solved, the map (`W`: Black's first
//! stone there wins), a total line, and whether the winning openings are the published ones
//! (`crates/hex/tests/data/hex-solved-openings.json`). Into the output folder it writes
//! `openings-<n>x<n>.json` (one record per opening) and `summary.md` (one table row per size),
//! rewritten after every size. A comparison with another solver belongs to
//! `cargo xtask hex-solve-vs`, which runs both on the same machine in the same run.
//!
//! Openings are solved by [`Solver::opening_map_threads`]: one solver and table per thread, and
//! an opening that is the 180° rotation of another is copied from it (zero nodes, zero time).
//! The CPU seconds are the sum of the openings' own times; the wall seconds are the whole map.
//!
//! [`main`] returns the exit status: 0 when every map matches, 1 on a mismatch or an opening a
//! time limit left unsolved, 2 on bad arguments or an unreadable or malformed published map.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hex::Cell;
use hex::solver::{MAX_SOLVER_SIZE, Opening, OpeningMap, SolveError, Solver, SolverConfig, SolverStats};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The published maps, relative to the workspace root.
pub const DEFAULT_EXPECTED: &str = "crates/hex/tests/data/hex-solved-openings.json";

/// The largest `--table-bits`: 2^30 entries of 80 bytes are 80 GiB per thread already.
pub const MAX_TABLE_BITS: u32 = 30;

/// Bytes per transposition-table entry (see [`SolverConfig::table_bits`]).
const ENTRY_BYTES: u64 = 80;

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct OpeningsConfig {
    /// The board sizes, solved in this order.
    pub sizes: Vec<u8>,
    /// Solver threads, each with its own table.
    pub threads: usize,
    /// Each table has `2^table_bits` entries.
    pub table_bits: u32,
    /// A time limit per opening; an opening that reaches it is left unsolved.
    pub time_limit: Option<Duration>,
    /// The published maps (JSON).
    pub expected: PathBuf,
    /// The output folder, created if needed.
    pub out: PathBuf,
}

impl OpeningsConfig {
    /// The solver's configuration: its defaults with this table size and time limit.
    pub fn solver_config(&self) -> SolverConfig {
        SolverConfig { table_bits: self.table_bits, time_limit: self.time_limit, ..SolverConfig::default() }
    }
}

/// What can stop a run.
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// A bad argument.
    #[error("{0}")]
    Usage(String),
    /// The published maps cannot be read.
    #[error("cannot read the published maps {}: {source}", path.display())]
    ReadExpected {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The published maps are not what they should be.
    #[error("{}: {message}", path.display())]
    BadExpected {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An output file or folder cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The solver refused.
    #[error("{size}x{size}: {source}")]
    Solve {
        /// The board size.
        size: u8,
        /// Why.
        source: SolveError,
    },
}

impl OpeningsError {
    /// The process exit status: 2 for bad arguments and input files, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            OpeningsError::Usage(_)
            | OpeningsError::ReadExpected { .. }
            | OpeningsError::BadExpected { .. }
            | OpeningsError::Write { .. } => 2,
            OpeningsError::Solve { .. } => 1,
        }
    }
}

/// The published file: `{"winning_openings": {"6": ["f1", ...], ...}}` (other fields ignored).
#[derive(Deserialize)]
struct PublishedFile {
    winning_openings: BTreeMap<String, Vec<String>>,
}

/// The winning openings of each size in a published-maps JSON document, each list row by row.
/// A size is named `"6"` (or `"6x6"`); every cell must be on its board, and none twice.
pub fn parse_expected(json: &str) -> Result<BTreeMap<u8, Vec<Cell>>, String> {
    let file: PublishedFile =
        serde_json::from_str(json).map_err(|e| format!("not a published-maps file: {e}"))?;
    let mut maps = BTreeMap::new();
    for (key, names) in file.winning_openings {
        let size = parse_size_key(&key).ok_or_else(|| format!("{key:?} is not a board size like \"6\""))?;
        let mut cells = BTreeSet::new();
        for name in &names {
            let cell = hex::parse_cell(name, size).map_err(|e| format!("size {key}: {e}"))?;
            if !cells.insert(cell) {
                return Err(format!("size {key}: {name} is listed twice"));
            }
        }
        if maps.insert(size, cells.into_iter().collect()).is_some() {
            return Err(format!("size {size} is listed twice"));
        }
    }
    Ok(maps)
}

/// `"6"` or `"6x6"` for a size the board takes.
fn parse_size_key(key: &str) -> Option<u8> {
    let side = match key.split_once(['x', 'X', '×']) {
        Some((a, b)) if a == b => a,
        Some(_) => return None,
        None => key,
    };
    let size: u8 = side.trim().parse().ok()?;
    (1..=hex::MAX_SIZE).contains(&size).then_some(size)
}

/// Reads [`parse_expected`]'s maps from a file.
pub fn read_expected(path: &Path) -> Result<BTreeMap<u8, Vec<Cell>>, OpeningsError> {
    let json = std::fs::read_to_string(path)
        .map_err(|source| OpeningsError::ReadExpected { path: path.to_path_buf(), source })?;
    parse_expected(&json).map_err(|message| OpeningsError::BadExpected { path: path.to_path_buf(), message })
}

/// How a solved map differs from the published one; every list row by row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Published winning openings the solver found losing.
    pub missing: Vec<Cell>,
    /// Openings the solver found winning that are not published as wins.
    pub extra: Vec<Cell>,
    /// Openings left unsolved (by a time limit).
    pub unsolved: Vec<Cell>,
    /// How many winning openings are published.
    pub published: usize,
}

impl Comparison {
    /// Compares the solver's winning and unsolved openings with the published winning ones.
    pub fn new(found: &[Cell], unsolved: &[Cell], published: &[Cell]) -> Comparison {
        let found: BTreeSet<Cell> = found.iter().copied().collect();
        let unsolved: BTreeSet<Cell> = unsolved.iter().copied().collect();
        let published_set: BTreeSet<Cell> = published.iter().copied().collect();
        Comparison {
            missing: published_set
                .iter()
                .filter(|c| !found.contains(c) && !unsolved.contains(c))
                .copied()
                .collect(),
            extra: found.difference(&published_set).copied().collect(),
            unsolved: unsolved.into_iter().collect(),
            published: published_set.len(),
        }
    }

    /// Compares a solved map with the published winning openings.
    pub fn of_map(map: &OpeningMap, published: &[Cell]) -> Comparison {
        let unsolved: Vec<Cell> =
            map.openings().iter().filter(|o| o.black_wins().is_none()).map(|o| o.cell).collect();
        Comparison::new(&map.winning_cells(), &unsolved, published)
    }

    /// Whether the map is complete and its winning openings are the published ones.
    pub fn matches(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty() && self.unsolved.is_empty()
    }

    /// `matches the N winning openings`, or the differences.
    pub fn line(&self) -> String {
        if self.matches() {
            return format!("matches the {} winning openings", self.published);
        }
        let mut parts = Vec::new();
        if !self.missing.is_empty() {
            parts.push(format!("published wins found losing: {}", cell_list(&self.missing)));
        }
        if !self.extra.is_empty() {
            parts.push(format!("wins not in the published map: {}", cell_list(&self.extra)));
        }
        if !self.unsolved.is_empty() {
            parts.push(format!("unsolved: {}", cell_list(&self.unsolved)));
        }
        format!("DOES NOT MATCH the {} published winning openings; {}", self.published, parts.join("; "))
    }
}

fn cell_list(cells: &[Cell]) -> String {
    cells.iter().map(Cell::to_string).collect::<Vec<_>>().join(" ")
}

/// One opening as written to `openings-<n>x<n>.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// Black's first stone, e.g. `c3`.
    pub cell: String,
    /// Whether it wins for Black; `null` if unsolved.
    pub black_wins: Option<bool>,
    /// Nodes searched (0 for a copied rotation).
    pub nodes: u64,
    /// Transposition-table hits.
    pub table_hits: u64,
    /// Its search time.
    pub seconds: f64,
    /// The opening it was copied from (its 180° rotation), if it was not searched.
    pub rotation_of: Option<String>,
}

/// `openings-<n>x<n>.json`: one size's map and what it cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapRecord {
    /// The board side.
    pub size: u8,
    /// Solver threads.
    pub threads: usize,
    /// Each thread's table has `2^table_bits` entries.
    pub table_bits: u32,
    /// The time limit per opening, if any.
    pub time_limit_seconds: Option<f64>,
    /// Whether the map is complete and equal to the published one.
    pub matches_published: bool,
    /// Nodes of all openings.
    pub nodes: u64,
    /// The openings' own times added up.
    pub cpu_seconds: f64,
    /// The whole map's wall-clock time.
    pub wall_seconds: f64,
    /// Every opening, row by row.
    pub openings: Vec<OpeningRecord>,
}

/// One size's result.
#[derive(Clone, Debug)]
pub struct SizeReport {
    /// The solved map.
    pub map: OpeningMap,
    /// How it compares with the published one.
    pub comparison: Comparison,
    /// The whole map's wall-clock time.
    pub wall: Duration,
    /// Solver threads.
    pub threads: usize,
}

impl SizeReport {
    /// The board side.
    pub fn size(&self) -> u8 {
        self.map.size()
    }

    /// `total: N nodes, C s CPU (sum of openings), W s wall, T threads`.
    pub fn total_line(&self) -> String {
        let stats = self.map.total_stats();
        format!(
            "total {n}x{n}: {} nodes, {:.3} s CPU (sum of the openings), {:.3} s wall, {} thread{}",
            thousands(stats.nodes),
            stats.time.as_secs_f64(),
            self.wall.as_secs_f64(),
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            n = self.size(),
        )
    }

    fn record(&self, config: &OpeningsConfig) -> MapRecord {
        let size = self.size();
        let stats = self.map.total_stats();
        MapRecord {
            size,
            threads: self.threads,
            table_bits: config.table_bits,
            time_limit_seconds: config.time_limit.map(|t| t.as_secs_f64()),
            matches_published: self.comparison.matches(),
            nodes: stats.nodes,
            cpu_seconds: stats.time.as_secs_f64(),
            wall_seconds: self.wall.as_secs_f64(),
            openings: self
                .map
                .openings()
                .iter()
                .map(|o| OpeningRecord {
                    cell: o.cell.to_string(),
                    black_wins: o.black_wins(),
                    nodes: o.stats.nodes,
                    table_hits: o.stats.table_hits,
                    seconds: o.stats.time.as_secs_f64(),
                    rotation_of: copied_from(o, size).map(|c| c.to_string()),
                })
                .collect(),
        }
    }
}

/// A whole run's result.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// One report per size, in the order solved.
    pub sizes: Vec<SizeReport>,
}

impl RunReport {
    /// Whether every map is complete and equal to the published one.
    pub fn all_match(&self) -> bool {
        self.sizes.iter().all(|s| s.comparison.matches())
    }
}

/// The opening's 180° rotation if the opening was copied from it rather than searched: the
/// library searches the one of each pair that comes first row by row and copies the other with
/// empty stats.
fn copied_from(opening: &Opening, size: u8) -> Option<Cell> {
    let twin = Cell::new(size - 1 - opening.cell.row, size - 1 - opening.cell.col);
    (twin < opening.cell && opening.stats == SolverStats::default()).then_some(twin)
}

/// The memory of one table of `2^bits` entries: `640 MiB`, `320 KiB`.
fn table_size(bits: u32) -> String {
    let bytes = ENTRY_BYTES << bits;
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / f64::from(1 << 30))
    } else if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// The printed line of one opening.
fn opening_line(opening: &Opening, size: u8) -> String {
    let result = match opening.black_wins() {
        Some(true) => "Black wins".to_string(),
        Some(false) => "White wins".to_string(),
        None => match opening.verdict {
            hex::solver::Verdict::Unknown(limit) => format!("unsolved ({limit})"),
            hex::solver::Verdict::Win { .. } => "unsolved".to_string(),
        },
    };
    match copied_from(opening, size) {
        Some(twin) => format!("  {:<4} {result:<22} (180° rotation of {twin}, not searched)", opening.cell),
        None => format!(
            "  {:<4} {result:<22} {:>14} nodes {:>10.3} s",
            opening.cell,
            thousands(opening.stats.nodes),
            opening.stats.time.as_secs_f64()
        ),
    }
}

/// Checks the arguments and the published maps before anything is solved.
fn check(config: &OpeningsConfig) -> Result<BTreeMap<u8, Vec<Cell>>, OpeningsError> {
    if config.sizes.is_empty() {
        return Err(OpeningsError::Usage("--sizes names no size".to_string()));
    }
    if let Some(&size) = config.sizes.iter().find(|&&s| !(1..=MAX_SOLVER_SIZE).contains(&s)) {
        return Err(OpeningsError::Usage(format!(
            "the solver takes sizes 1 to {MAX_SOLVER_SIZE}, not {size}"
        )));
    }
    if config.threads == 0 {
        return Err(OpeningsError::Usage("--threads must be at least 1".to_string()));
    }
    if !(1..=MAX_TABLE_BITS).contains(&config.table_bits) {
        return Err(OpeningsError::Usage(format!(
            "--table-bits must be between 1 and {MAX_TABLE_BITS}, not {}",
            config.table_bits
        )));
    }
    if config.time_limit.is_some_and(|t| t.is_zero()) {
        return Err(OpeningsError::Usage("--time-limit must be above 0".to_string()));
    }
    let expected = read_expected(&config.expected)?;
    let missing: Vec<String> =
        config.sizes.iter().filter(|s| !expected.contains_key(s)).map(|s| format!("{s}x{s}")).collect();
    if !missing.is_empty() {
        let known: Vec<String> = expected.keys().map(|s| format!("{s}x{s}")).collect();
        return Err(OpeningsError::BadExpected {
            path: config.expected.clone(),
            message: format!(
                "no published map for {} (it has {})",
                missing.join(", "),
                if known.is_empty() { "none".to_string() } else { known.join(", ") }
            ),
        });
    }
    Ok(expected)
}

/// Solves one size, printing every opening, the map, the total and the comparison.
fn solve_size(config: &OpeningsConfig, size: u8, published: &[Cell]) -> Result<SizeReport, OpeningsError> {
    let n = usize::from(size);
    let searched = (n * n).div_ceil(2);
    println!(
        "\n{size}x{size}: {} opening{} ({searched} searched, the others copied from their 180° rotations), {} thread{}",
        n * n,
        if n * n == 1 { "" } else { "s" },
        config.threads,
        if config.threads == 1 { "" } else { "s" },
    );
    let started = Instant::now();
    let map =
        Solver::opening_map_threads(config.solver_config(), u32::from(size), config.threads, |opening| {
            println!("{}", opening_line(opening, size));
            // Progress matters on the long sizes, whatever buffers stdout.
            let _ = std::io::stdout().flush();
        })
        .map_err(|source| OpeningsError::Solve { size, source })?;
    let wall = started.elapsed();
    let comparison = Comparison::of_map(&map, published);
    let report = SizeReport { map, comparison, wall, threads: config.threads };
    print!("{}", report.map);
    println!("{}", report.total_line());
    println!("{size}x{size}: {}", report.comparison.line());
    Ok(report)
}

/// `summary.md`: one row per size.
pub fn summary_markdown(config: &OpeningsConfig, sizes: &[SizeReport]) -> String {
    let solver = config.solver_config();
    let mut out = String::from("# Hex opening maps\n\n");
    let _ = writeln!(
        out,
        "Every opening (Black's first stone, no swap) solved by `hex::solver` ({}), one table of \
         2^{} entries per thread, {}. Published maps: `{}`.\n",
        if solver.h_search {
            "H-search on"
        } else if solver.semi_connections {
            "semi-connections on"
        } else {
            "plain search"
        },
        config.table_bits,
        match config.time_limit {
            Some(t) => format!("{} s limit per opening", t.as_secs_f64()),
            None => "no time limit".to_string(),
        },
        config.expected.strip_prefix(crate::workspace_root()).unwrap_or(&config.expected).display(),
    );
    out.push_str(
        "| size | openings | Black wins | matches published map | nodes | CPU s | wall s | threads |\n",
    );
    out.push_str("|---|---:|---:|---|---:|---:|---:|---:|\n");
    for report in sizes {
        let stats = report.map.total_stats();
        let size = report.size();
        let _ = writeln!(
            out,
            "| {size}x{size} | {} | {} | {} | {} | {:.3} | {:.3} | {} |",
            report.map.openings().len(),
            report.map.winning_cells().len(),
            if report.comparison.matches() { "yes" } else { "no" },
            thousands(stats.nodes),
            stats.time.as_secs_f64(),
            report.wall.as_secs_f64(),
            report.threads,
        );
    }
    out.push_str(
        "\nCPU s adds up the openings' own search times (an opening copied from its 180° rotation \
         counts 0); wall s is the whole map, including the allocation of each thread's table. \
         `cargo xtask hex-solve-vs` compares with another solver on the same machine.\n",
    );
    for report in sizes.iter().filter(|r| !r.comparison.matches()) {
        let size = report.size();
        let _ = writeln!(out, "\n{size}x{size}: {}", report.comparison.line());
    }
    out
}

fn write_file(path: &Path, text: &str) -> Result<(), OpeningsError> {
    std::fs::write(path, text).map_err(|source| OpeningsError::Write { path: path.to_path_buf(), source })
}

/// Solves every size and writes the files; `Ok` even when a map does not match (see
/// [`RunReport::all_match`]).
pub fn run(config: &OpeningsConfig) -> Result<RunReport, OpeningsError> {
    let expected = check(config)?;
    std::fs::create_dir_all(&config.out)
        .map_err(|source| OpeningsError::Write { path: config.out.clone(), source })?;
    println!(
        "hex-openings: sizes {}, {} thread(s), table 2^{} entries ({}) per thread, {}",
        config.sizes.iter().map(|s| format!("{s}x{s}")).collect::<Vec<_>>().join(", "),
        config.threads,
        config.table_bits,
        table_size(config.table_bits),
        match config.time_limit {
            Some(t) => format!("{} s limit per opening", t.as_secs_f64()),
            None => "no time limit".to_string(),
        },
    );
    let mut sizes = Vec::new();
    let mut done = BTreeSet::new();
    for &size in &config.sizes {
        if !done.insert(size) {
            continue;
        }
        let report = solve_size(config, size, &expected[&size])?;
        let path = config.out.join(format!("openings-{size}x{size}.json"));
        let json = serde_json::to_string_pretty(&report.record(config)).expect("records serialise");
        write_file(&path, &(json + "\n"))?;
        sizes.push(report);
        // Rewritten after every size, so a long run interrupted later keeps what it has.
        write_file(&config.out.join("summary.md"), &summary_markdown(config, &sizes))?;
    }
    let summary = summary_markdown(config, &sizes);
    println!("\n{summary}");
    println!("wrote {}", config.out.join("summary.md").display());
    for report in &sizes {
        let size = report.size();
        println!("wrote {}", config.out.join(format!("openings-{size}x{size}.json")).display());
    }
    Ok(RunReport { sizes })
}

/// Runs the task for the command line and returns its exit status: 0 when every map matches,
/// 1 on a mismatch or an unsolved opening, 2 on bad arguments or input files.
pub fn main(config: &OpeningsConfig) -> u8 {
    match run(config) {
        Ok(report) if report.all_match() => 0,
        Ok(report) => {
            for size in report.sizes.iter().filter(|s| !s.comparison.matches()) {
                eprintln!("error: {n}x{n}: {}", size.comparison.line(), n = size.size());
            }
            1
        }
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(names: &[&str], size: u8) -> Vec<Cell> {
        names.iter().map(|n| hex::parse_cell(n, size).unwrap()).collect()
    }

    fn published_path() -> PathBuf {
        crate::workspace_root().join(DEFAULT_EXPECTED)
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = crate::workspace_root()
            .join("target")
            .join("xtask-tests")
            .join(format!("hex-openings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn config(sizes: &[u8], out: PathBuf) -> OpeningsConfig {
        OpeningsConfig {
            sizes: sizes.to_vec(),
            threads: 2,
            table_bits: 12,
            time_limit: None,
            expected: published_path(),
            out,
        }
    }

    #[test]
    fn hex_openings_parses_the_published_file() {
        let json = std::fs::read_to_string(published_path()).unwrap();
        let maps = parse_expected(&json).unwrap();
        assert_eq!(maps.keys().copied().collect::<Vec<_>>(), vec![2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(maps[&2], cells(&["b1", "a2"], 2));
        assert_eq!(maps[&6].len(), 24);
        assert_eq!(maps[&7].len(), 27);
        // Row by row, and symmetric under the 180° rotation.
        for (&size, wins) in &maps {
            assert!(wins.windows(2).all(|w| w[0] < w[1]));
            for c in wins {
                assert!(wins.contains(&Cell::new(size - 1 - c.row, size - 1 - c.col)), "{size}: {c}");
            }
        }
    }

    #[test]
    fn hex_openings_parses_both_key_forms() {
        let maps =
            parse_expected(r#"{"about": "x", "winning_openings": {"3x3": ["c1"], "2": ["A2", "b1"]}}"#)
                .unwrap();
        assert_eq!(maps[&3], cells(&["c1"], 3));
        assert_eq!(maps[&2], cells(&["b1", "a2"], 2));
    }

    #[test]
    fn hex_openings_rejects_malformed_maps() {
        let bad = [
            ("not json", "not a published-maps file"),
            ("{}", "winning_openings"),
            (r#"{"winning_openings": []}"#, "not a published-maps file"),
            (r#"{"winning_openings": {"6": "f1"}}"#, "not a published-maps file"),
            (r#"{"winning_openings": {"6": [1]}}"#, "not a published-maps file"),
            (r#"{"winning_openings": {"six": []}}"#, "\"six\" is not a board size"),
            (r#"{"winning_openings": {"0": []}}"#, "\"0\" is not a board size"),
            (r#"{"winning_openings": {"3x4": []}}"#, "\"3x4\" is not a board size"),
            (r#"{"winning_openings": {"3": ["d1"]}}"#, "size 3"),
            (r#"{"winning_openings": {"3": ["a0"]}}"#, "size 3"),
            (r#"{"winning_openings": {"3": ["a1", "A1"]}}"#, "A1 is listed twice"),
            (r#"{"winning_openings": {"3": [], "3x3": []}}"#, "size 3 is listed twice"),
        ];
        for (json, wanted) in bad {
            let err = parse_expected(json).unwrap_err();
            assert!(err.contains(wanted), "{json}: {err}");
        }
    }

    #[test]
    fn hex_openings_comparison_match_missing_extra() {
        let published = cells(&["c1", "b2", "a3"], 3);
        let same = Comparison::new(&cells(&["a3", "b2", "c1"], 3), &[], &published);
        assert!(same.matches());
        assert_eq!(same.line(), "matches the 3 winning openings");

        let missing = Comparison::new(&cells(&["c1", "a3"], 3), &[], &published);
        assert!(!missing.matches());
        assert_eq!(missing.missing, cells(&["b2"], 3));
        assert!(missing.extra.is_empty());
        assert!(missing.line().contains("published wins found losing: b2"), "{}", missing.line());

        let extra = Comparison::new(&cells(&["c1", "b2", "a3", "a1"], 3), &[], &published);
        assert_eq!(extra.extra, cells(&["a1"], 3));
        assert!(extra.missing.is_empty());
        assert!(extra.line().contains("wins not in the published map: a1"), "{}", extra.line());

        // An unsolved opening is neither missing nor a match.
        let unsolved = Comparison::new(&cells(&["c1", "a3"], 3), &cells(&["b2"], 3), &published);
        assert!(!unsolved.matches());
        assert!(unsolved.missing.is_empty());
        assert_eq!(unsolved.unsolved, cells(&["b2"], 3));
        assert!(unsolved.line().contains("unsolved: b2"), "{}", unsolved.line());
    }

    #[test]
    fn hex_openings_number_formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(123), "123");
        assert_eq!(table_size(23), "640 MiB");
        assert_eq!(table_size(12), "320 KiB");
        assert_eq!(table_size(30), "80.0 GiB");
    }

    #[test]
    fn hex_openings_end_to_end_sizes_2_to_4() {
        let out = temp_dir("e2e");
        let config = config(&[2, 3, 4], out.clone());
        assert_eq!(main(&config), 0);
        let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
        for (size, wins) in [(2u8, 2usize), (3, 5), (4, 4)] {
            let row = format!("| {size}x{size} | {} | {wins} | yes |", size * size);
            assert!(summary.lines().any(|l| l.starts_with(&row) && l.ends_with("| 2 |")), "{summary}");
            assert!(summary.contains(&row), "no {row:?} in\n{summary}");
            let json = std::fs::read_to_string(out.join(format!("openings-{size}x{size}.json"))).unwrap();
            let record: MapRecord = serde_json::from_str(&json).unwrap();
            assert!(record.matches_published);
            assert_eq!(record.openings.len(), usize::from(size * size));
            assert_eq!(record.openings.iter().filter(|o| o.black_wins == Some(true)).count(), wins);
            // The second of each rotation pair is copied, the first searched.
            let last = record.openings.last().unwrap();
            assert_eq!(last.rotation_of.as_deref(), Some("a1"));
            assert_eq!(record.openings[0].rotation_of, None);
        }
        assert!(!summary.contains("| no |"));
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn hex_openings_size_one_without_a_published_map() {
        let out = temp_dir("one");
        let err = run(&config(&[1], out.clone())).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("no published map for 1x1"), "{err}");
        // With a published map it is trivial: Black's only stone connects.
        let path = out.join("one.json");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(&path, r#"{"winning_openings": {"1": ["a1"]}}"#).unwrap();
        let report = run(&OpeningsConfig { expected: path, ..config(&[1], out.clone()) }).unwrap();
        assert!(report.all_match());
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn hex_openings_reports_a_mismatch_with_status_1() {
        let out = temp_dir("mismatch");
        std::fs::create_dir_all(&out).unwrap();
        let path = out.join("wrong.json");
        std::fs::write(&path, r#"{"winning_openings": {"2": ["b1", "a1"]}}"#).unwrap();
        let config = OpeningsConfig { expected: path, ..config(&[2], out.clone()) };
        let report = run(&config).unwrap();
        assert!(!report.all_match());
        assert_eq!(report.sizes[0].comparison.missing, cells(&["a1"], 2));
        assert_eq!(report.sizes[0].comparison.extra, cells(&["a2"], 2));
        assert!(std::fs::read_to_string(out.join("summary.md")).unwrap().contains("| 2x2 | 4 | 2 | no |"));
        assert_eq!(main(&config), 1);
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn hex_openings_rejects_bad_arguments_with_status_2() {
        let out = temp_dir("bad");
        let base = config(&[3], out.clone());
        let cases = [
            (OpeningsConfig { sizes: vec![], ..base.clone() }, "names no size"),
            (OpeningsConfig { sizes: vec![0], ..base.clone() }, "not 0"),
            (
                OpeningsConfig { sizes: vec![3, MAX_SOLVER_SIZE + 1], ..base.clone() },
                "the solver takes sizes",
            ),
            (OpeningsConfig { threads: 0, ..base.clone() }, "--threads"),
            (OpeningsConfig { table_bits: 0, ..base.clone() }, "--table-bits"),
            (OpeningsConfig { table_bits: 64, ..base.clone() }, "--table-bits"),
            (OpeningsConfig { time_limit: Some(Duration::ZERO), ..base.clone() }, "--time-limit"),
            (OpeningsConfig { expected: out.join("no-such-file.json"), ..base.clone() }, "cannot read"),
            (OpeningsConfig { sizes: vec![9], ..base.clone() }, "no published map for 9x9"),
        ];
        for (config, wanted) in cases {
            let err = run(&config).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{err}");
            assert!(err.to_string().contains(wanted), "{wanted:?} not in {err}");
        }
        // Malformed JSON is a status 2 too, and nothing was written for any of them.
        std::fs::create_dir_all(&out).unwrap();
        let path = out.join("bad.json");
        std::fs::write(&path, "{\"winning_openings\": {\"3\": [\"z9\"]}}").unwrap();
        let err = run(&OpeningsConfig { expected: path, ..base }).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(!out.join("summary.md").exists());
        let _ = std::fs::remove_dir_all(&out);
    }
}
