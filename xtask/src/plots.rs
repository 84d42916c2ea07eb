//! SVG plots of a run's summary, drawn with plotters' pure-SVG backend (text stays SVG text, so
//! no font or system library is needed).
//!
//! The plots of 2048 are named as below; another game's plots carry its name as a prefix
//! (`hex-win-rate-tier-1.svg`).
//! - `win-rate-tier-N.svg`: each row's win rate with its 95% Wilson interval, and the seed
//!   document's published rate and interval where it has one.
//! - `time-vs-depth.svg` and `winrate-vs-depth.svg`: mean seconds per game and win rate against
//!   the search depth, one line per agent (and heuristic) that ran at several depths.
//! - `max-tile.svg` (2048): how often each highest tile ended a game, one panel per tier.
//!
//! A plot without data is skipped. The same summary always gives byte-identical files.

use std::collections::BTreeMap;
use std::error::Error as StdError;
use std::ops::Range;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use thiserror::Error;

use crate::record::GameKind;
use crate::summary::{RowSummary, games_of, tier_title, tiers_of, wilson};

/// A plot that could not be drawn or written.
#[derive(Debug, Error)]
pub enum PlotError {
    /// Plotters failed while drawing.
    #[error("drawing {}: {message}", path.display())]
    Draw {
        /// The plot's file.
        path: PathBuf,
        /// Plotters' error, as text.
        message: String,
    },
    /// The file could not be written.
    #[error("writing {}: {source}", path.display())]
    Io {
        /// The plot's file, or the folder that could not be created.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = Result<(), Box<dyn StdError>>;

const FONT: &str = "sans-serif";
/// Plotters' text size; the SVG font size is this over 1.24.
const TEXT: u32 = 16;
const TITLE: u32 = 22;
const OURS: RGBColor = RGBColor(0x1f, 0x5f, 0x9f);
const SEED: RGBColor = RGBColor(0xd9, 0x5f, 0x0e);
const NEUTRAL: RGBColor = RGBColor(0x55, 0x55, 0x55);
const GRID: RGBColor = RGBColor(0xdd, 0xdd, 0xdd);
/// Tableau's ten colours, for one series each.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xba, 0xb0, 0xac),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

fn font(size: u32) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font())
}

/// A rough width in pixels of `text` at plotters size `size` (the SVG backend cannot measure).
fn text_width(text: &str, size: u32) -> i32 {
    (text.chars().count() as f64 * f64::from(size) / 1.24 * 0.6).ceil() as i32
}

/// A linear axis over `f64` with the tick marks chosen by hand (plotters' own `f64` axis picks
/// its ticks itself, and its key-point wrapper loses the custom label formatter).
#[derive(Clone)]
struct Axis {
    range: Range<f64>,
    ticks: Vec<f64>,
}

impl Axis {
    fn new(range: Range<f64>, ticks: Vec<f64>) -> Self {
        Axis { range, ticks }
    }

    /// Categories `0..n` centred on whole numbers, one tick each.
    fn categories(n: usize) -> Self {
        Axis::new(-0.5..n as f64 - 0.5, (0..n).map(|i| i as f64).collect())
    }
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.range.end - self.range.start;
        let t = if span > 0.0 { (value - self.range.start) / span } else { 0.5 };
        limit.0 + (t * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Only bold grid lines: light ones would come back as the same ticks.
        if hint.weight().allow_light_points() { Vec::new() } else { self.ticks.clone() }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// Writes every plot the rows have data for into `dir` (created if needed) and returns the files
/// written, in a fixed order. Plots without data are skipped.
pub fn write_plots(dir: &Path, rows: &[RowSummary]) -> Result<Vec<PathBuf>, PlotError> {
    std::fs::create_dir_all(dir).map_err(|source| PlotError::Io { path: dir.to_path_buf(), source })?;
    let mut written = Vec::new();
    for game in games_of(rows) {
        let name =
            |base: &str| if game == GameKind::G2048 { base.to_string() } else { format!("{game}-{base}") };
        for (tier, tier_rows) in tiers_of(rows, game) {
            let title = format!("{game}: {}", tier_title(tier, &tier_rows));
            let plot = WinRates::new(title, &tier_rows);
            save(
                dir,
                &name(&format!("win-rate-tier-{tier}.svg")),
                plot.size(),
                |root| plot.draw(root),
                &mut written,
            )?;
        }
        let lines = depth_lines(rows, game);
        if !lines.is_empty() {
            let plot = DepthPlot { game, lines: &lines, measure: Measure::Seconds };
            save(dir, &name("time-vs-depth.svg"), plot.size(), |root| plot.draw(root), &mut written)?;
            let plot = DepthPlot { measure: Measure::WinRate, ..plot };
            save(dir, &name("winrate-vs-depth.svg"), plot.size(), |root| plot.draw(root), &mut written)?;
        }
        if game == GameKind::G2048 {
            let plot = MaxTiles::new(rows, game);
            if !plot.panels.is_empty() {
                save(dir, &name("max-tile.svg"), plot.size(), |root| plot.draw(root), &mut written)?;
            }
        }
    }
    Ok(written)
}

/// Draws one SVG into memory, then writes it to `dir/name`.
fn save(
    dir: &Path,
    name: &str,
    size: (u32, u32),
    draw: impl FnOnce(&Area<'_>) -> DrawResult,
    written: &mut Vec<PathBuf>,
) -> Result<(), PlotError> {
    let path = dir.join(name);
    let mut svg = String::new();
    let drawn = (|| -> DrawResult {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE)?;
        draw(&root)?;
        root.present()?;
        Ok(())
    })();
    drawn.map_err(|e| PlotError::Draw { path: path.clone(), message: e.to_string() })?;
    std::fs::write(&path, svg).map_err(|source| PlotError::Io { path: path.clone(), source })?;
    written.push(path);
    Ok(())
}

/// A legend entry's marker.
#[derive(Clone, Copy)]
enum Mark {
    Dot(RGBColor),
    Triangle(RGBColor),
    Line(RGBColor),
    Bar(RGBColor),
}

const LEGEND_ROW: i32 = 24;
const MARK_WIDTH: i32 = 30;
const ENTRY_GAP: i32 = 28;

/// Lays legend entries out in rows no wider than `width`: each entry's row and x offset.
fn legend_layout(entries: &[(Mark, String)], width: i32) -> Vec<(i32, i32)> {
    let mut places = Vec::new();
    let (mut row, mut x) = (0, 0);
    for (_, label) in entries {
        let w = MARK_WIDTH + text_width(label, TEXT);
        if x > 0 && x + w > width {
            row += 1;
            x = 0;
        }
        places.push((row, x));
        x += w + ENTRY_GAP;
    }
    places
}

fn legend_height(entries: &[(Mark, String)], width: i32) -> i32 {
    legend_layout(entries, width).last().map_or(0, |&(row, _)| (row + 1) * LEGEND_ROW)
}

/// The height of a title and its legend above a chart.
fn header_height(entries: &[(Mark, String)], width: i32) -> i32 {
    54 + legend_height(entries, width - 40)
}

/// Draws a title and a legend at the top of `area` and returns the area left below them.
fn header<'a>(
    area: &Area<'a>,
    title: &str,
    entries: &[(Mark, String)],
) -> Result<Area<'a>, Box<dyn StdError>> {
    let (width, _) = area.dim_in_pixel();
    let width = width as i32;
    let height = header_height(entries, width);
    let (top, rest) = area.split_vertically(height);
    let title_style = font(TITLE).pos(Pos::new(HPos::Center, VPos::Top));
    top.draw_text(title, &title_style, (width / 2, 10))?;
    let label_style = font(TEXT).pos(Pos::new(HPos::Left, VPos::Center));
    for ((mark, label), (row, x)) in entries.iter().zip(legend_layout(entries, width - 40)) {
        let (x, y) = (20 + x, 40 + row * LEGEND_ROW + LEGEND_ROW / 2);
        let centre = (x + 12, y);
        match *mark {
            Mark::Dot(c) => top.draw(&Circle::new(centre, 5, c.filled()))?,
            Mark::Triangle(c) => top.draw(&TriangleMarker::new(centre, 7, c.filled()))?,
            Mark::Line(c) => {
                top.draw(&PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(2)))?;
                top.draw(&Circle::new(centre, 4, c.filled()))?;
            }
            Mark::Bar(c) => top.draw(&Rectangle::new([(x + 4, y - 7), (x + 20, y + 7)], c.filled()))?,
        }
        top.draw_text(label, &label_style, (x + MARK_WIDTH, y))?;
    }
    Ok(rest)
}

/// Tick marks at round values covering `0..=max`.
fn linear_ticks(max: f64) -> Vec<f64> {
    let raw = (max / 5.0).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * magnitude).find(|&s| s >= raw).unwrap_or(raw);
    (0..).map(|i| i as f64 * step).take_while(|&t| t <= max * (1.0 + 1e-9)).collect()
}

/// A number for an axis label: up to 3 significant digits, no trailing zeros.
fn short_number(x: f64) -> String {
    if x >= 100.0 {
        return format!("{x:.0}");
    }
    let decimals = if x > 0.0 { (2 - x.log10().floor() as i32).max(0) as usize } else { 0 };
    let text = format!("{x:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// Draws a vertical interval with end caps at `x`, in data coordinates.
fn draw_interval(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<Axis, Axis>>,
    x: f64,
    (low, high): (f64, f64),
    cap: f64,
    style: ShapeStyle,
) -> DrawResult {
    let segments = [
        vec![(x, low), (x, high)],
        vec![(x - cap, low), (x + cap, low)],
        vec![(x - cap, high), (x + cap, high)],
    ];
    chart.draw_series(segments.into_iter().map(|points| PathElement::new(points, style)))?;
    Ok(())
}

/// The win rate per row of one tier.
struct WinRates<'r> {
    title: String,
    rows: Vec<&'r RowSummary>,
    legend: Vec<(Mark, String)>,
    seed: bool,
}

impl<'r> WinRates<'r> {
    fn new(title: String, rows: &[&'r RowSummary]) -> Self {
        let seed = rows.iter().any(|r| r.published().is_some());
        let mut legend = vec![(Mark::Dot(OURS), "ours: win rate and its 95% Wilson interval".to_string())];
        if seed {
            legend.push((
                Mark::Triangle(SEED),
                "seed document, as published (its interval computed the same way)".into(),
            ));
        }
        WinRates { title, rows: rows.to_vec(), legend, seed }
    }

    fn label_height(&self) -> i32 {
        self.rows.iter().map(|r| text_width(&r.row, TEXT)).max().unwrap_or(0) + 16
    }

    fn size(&self) -> (u32, u32) {
        let width = (130 + 70 * self.rows.len() as i32).max(760);
        let height = header_height(&self.legend, width) + 380 + self.label_height();
        (width as u32, height as u32)
    }

    fn draw(&self, root: &Area<'_>) -> DrawResult {
        let body = header(root, &self.title, &self.legend)?;
        let n = self.rows.len();
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .margin_right(24)
            .x_label_area_size(self.label_height())
            .y_label_area_size(72)
            .build_cartesian_2d(Axis::categories(n), Axis::new(0.0..100.0, linear_ticks(100.0)))?;
        chart
            .configure_mesh()
            .bold_line_style(GRID)
            .x_label_formatter(&|_| String::new())
            .y_label_formatter(&|y| format!("{y:.0}%"))
            .y_desc("games won")
            .label_style(font(TEXT))
            .axis_desc_style(font(TEXT))
            .draw()?;
        // Row ids read upwards under their column, ending at the axis.
        let label_style =
            font(TEXT).transform(FontTransform::Rotate270).pos(Pos::new(HPos::Right, VPos::Center));
        for (i, row) in self.rows.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(i as f64, 0.0));
            root.draw_text(&row.row, &label_style, (px, py + 10))?;
        }
        let shift = if self.seed { 0.14 } else { 0.0 };
        for (i, row) in self.rows.iter().enumerate() {
            let x = i as f64 - shift;
            let interval = (row.interval.0 * 100.0, row.interval.1 * 100.0);
            draw_interval(&mut chart, x, interval, 0.08, OURS.stroke_width(2))?;
            chart.draw_series([Circle::new((x, row.win_rate * 100.0), 5, OURS.filled())])?;
            if let Some(seed) = row.published() {
                let x = i as f64 + shift;
                let (low, high) = wilson(seed.wins.into(), seed.games.into());
                draw_interval(&mut chart, x, (low * 100.0, high * 100.0), 0.08, SEED.stroke_width(1))?;
                let rate = f64::from(seed.wins) / f64::from(seed.games) * 100.0;
                chart.draw_series([TriangleMarker::new((x, rate), 7, SEED.filled())])?;
            }
        }
        Ok(())
    }
}

/// One agent (with one heuristic and stopping rule) at several depths.
struct DepthLine<'r> {
    label: String,
    /// Each depth's row: the one with the most games, the first of equals.
    points: BTreeMap<u32, &'r RowSummary>,
}

/// What one line of a depth plot stands for: agent, heuristic, stopping rule, and whether a lost
/// board carries the loss penalty (a seed row's `model`).
type LineKey<'r> = (&'r str, &'r str, Option<&'r str>, bool);

/// The agents of `game` that ran at several depths, in order of first appearance.
fn depth_lines<'r>(rows: &'r [RowSummary], game: GameKind) -> Vec<DepthLine<'r>> {
    let mut lines: Vec<(LineKey<'r>, DepthLine<'r>)> = Vec::new();
    for row in rows.iter().filter(|r| r.game == game && r.games > 0) {
        let Some(depth) = row.depth else { continue };
        let penalty = row.settings.get("model").is_some_and(|m| m.ends_with("loss-penalty"));
        let stop_at = row.settings.get("stop_at").map(String::as_str);
        let key = (row.agent.as_str(), row.heuristic.as_str(), stop_at, penalty);
        let at = match lines.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                let mut label = format!("{}, {}", row.agent, row.heuristic);
                if penalty {
                    label += " (loss penalty)";
                }
                lines.push((key, DepthLine { label, points: BTreeMap::new() }));
                lines.len() - 1
            }
        };
        let points = &mut lines[at].1.points;
        if points.get(&depth).is_none_or(|held| held.games < row.games) {
            points.insert(depth, row);
        }
    }
    lines.into_iter().map(|(_, line)| line).filter(|line| line.points.len() > 1).collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Measure {
    Seconds,
    WinRate,
}

/// Seconds per game or win rate against depth.
#[derive(Clone, Copy)]
struct DepthPlot<'a, 'r> {
    game: GameKind,
    lines: &'a [DepthLine<'r>],
    measure: Measure,
}

impl DepthPlot<'_, '_> {
    const WIDTH: i32 = 820;

    fn legend(&self) -> Vec<(Mark, String)> {
        let mut legend: Vec<(Mark, String)> = self
            .lines
            .iter()
            .enumerate()
            .map(|(i, line)| (Mark::Line(colour(i)), line.label.clone()))
            .collect();
        if self.has_seed() {
            let what = match self.measure {
                Measure::Seconds => "triangles, dashed: the seed document's published times (its machine)",
                Measure::WinRate => "triangles, dashed: the seed document's published win rates",
            };
            legend.push((Mark::Triangle(NEUTRAL), what.into()));
        }
        legend
    }

    fn has_seed(&self) -> bool {
        self.lines.iter().flat_map(|l| l.points.values()).any(|r| self.seed_value(r).is_some())
    }

    fn value(&self, row: &RowSummary) -> f64 {
        match self.measure {
            Measure::Seconds => row.avg_seconds,
            Measure::WinRate => row.win_rate * 100.0,
        }
    }

    fn seed_value(&self, row: &RowSummary) -> Option<f64> {
        let seed = row.published()?;
        match self.measure {
            Measure::Seconds => seed.seconds,
            Measure::WinRate => Some(f64::from(seed.wins) / f64::from(seed.games) * 100.0),
        }
    }

    fn size(&self) -> (u32, u32) {
        let height = header_height(&self.legend(), Self::WIDTH) + 460;
        (Self::WIDTH as u32, height as u32)
    }

    fn draw(&self, root: &Area<'_>) -> DrawResult {
        let what = match self.measure {
            Measure::Seconds => "mean seconds per game against search depth",
            Measure::WinRate => "win rate against search depth",
        };
        let body = header(root, &format!("{}: {what}", self.game), &self.legend())?;
        let depths: Vec<u32> = self.lines.iter().flat_map(|l| l.points.keys().copied()).collect();
        let (low, high) =
            (depths.iter().min().copied().unwrap_or(1), depths.iter().max().copied().unwrap_or(1));
        let x_keys: Vec<f64> = (low..=high).map(f64::from).collect();
        let x_axis = Axis::new(f64::from(low) - 0.5..f64::from(high) + 0.5, x_keys);

        // Seconds span orders of magnitude: past a factor of 10 they are drawn on a log scale,
        // as log10 values with ticks labelled in seconds.
        let mut values: Vec<f64> = Vec::new();
        for row in self.lines.iter().flat_map(|l| l.points.values()) {
            values.push(self.value(row));
            values.extend(self.seed_value(row));
        }
        let positive: Vec<f64> = values.iter().copied().filter(|&v| v > 0.0).collect();
        let min = positive.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(0.0, f64::max);
        let log = self.measure == Measure::Seconds && !positive.is_empty() && max / min >= 10.0;
        let to_y = |v: f64| if log { v.max(min).log10() } else { v };
        let (y_range, y_keys) = match self.measure {
            Measure::WinRate => (0.0..100.0, vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]),
            Measure::Seconds if log => {
                let (lo, hi) = (min.log10() - 0.15, max.log10() + 0.15);
                let mut keys = Vec::new();
                for decade in lo.floor() as i32..=hi.ceil() as i32 {
                    for m in [1.0, 2.0, 5.0] {
                        let k = (m * 10f64.powi(decade)).log10();
                        if (lo..=hi).contains(&k) && (m == 1.0 || hi - lo < 3.0) {
                            keys.push(k);
                        }
                    }
                }
                (lo..hi, keys)
            }
            Measure::Seconds => {
                let top = if max > 0.0 { max * 1.15 } else { 1.0 };
                (0.0..top, linear_ticks(top))
            }
        };
        let y_label = move |y: &f64| match self.measure {
            Measure::WinRate => format!("{y:.0}%"),
            Measure::Seconds if log => format!("{} s", short_number(10f64.powf(*y))),
            Measure::Seconds => format!("{} s", short_number(*y)),
        };
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .margin_right(24)
            .x_label_area_size(56)
            .y_label_area_size(84)
            .build_cartesian_2d(x_axis, Axis::new(y_range, y_keys))?;
        chart
            .configure_mesh()
            .bold_line_style(GRID)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&y_label)
            .x_desc("search depth")
            .y_desc(if self.measure == Measure::Seconds { "seconds per game" } else { "games won" })
            .label_style(font(TEXT))
            .axis_desc_style(font(TEXT))
            .draw()?;

        let k = self.lines.len() as f64;
        for (i, line) in self.lines.iter().enumerate() {
            let c = colour(i);
            // Lines side by side are shifted apart a little so their intervals do not hide each other.
            let shift =
                if self.measure == Measure::WinRate { (i as f64 - (k - 1.0) / 2.0) * 0.06 } else { 0.0 };
            let points: Vec<(f64, f64)> =
                line.points.iter().map(|(&d, row)| (f64::from(d) + shift, to_y(self.value(row)))).collect();
            chart.draw_series(LineSeries::new(points.clone(), c.stroke_width(2)))?;
            if self.measure == Measure::WinRate {
                for (&(x, _), row) in points.iter().zip(line.points.values()) {
                    let interval = (row.interval.0 * 100.0, row.interval.1 * 100.0);
                    draw_interval(&mut chart, x, interval, 0.04, c.stroke_width(1))?;
                }
            }
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 5, c.filled())))?;
            // The seed's published numbers for the same rows: triangles, joined by a dashed line.
            let seed: Vec<(f64, f64)> = line
                .points
                .iter()
                .filter_map(|(&d, row)| Some((f64::from(d) + shift + 0.02, to_y(self.seed_value(row)?))))
                .collect();
            if seed.len() > 1 {
                chart.draw_series(DashedLineSeries::new(seed.clone(), 6, 4, c.stroke_width(1)))?;
            }
            chart.draw_series(seed.iter().map(|&p| TriangleMarker::new(p, 7, c.filled())))?;
        }
        Ok(())
    }
}

/// The highest-tile categories of the 2048 plot: the first and last gather everything beyond.
const TILE_BINS: [&str; 8] = ["≤256", "512", "1024", "2048", "4096", "8192", "16384", "≥32768"];

fn tile_bin(tile: u32) -> usize {
    (tile.max(1).ilog2() as usize).clamp(8, 15) - 8
}

/// A row and the share of its games (in %) that ended in each of [`TILE_BINS`].
type Shares<'r> = (&'r RowSummary, [f64; 8]);

/// For each tier, its rows' distributions of the highest tile, as percentages of their games.
struct MaxTiles<'r> {
    game: GameKind,
    panels: Vec<(String, Vec<Shares<'r>>)>,
}

impl<'r> MaxTiles<'r> {
    const WIDTH: i32 = 1000;
    const CHART: i32 = 320;

    fn new(rows: &'r [RowSummary], game: GameKind) -> Self {
        let mut panels = Vec::new();
        for (tier, tier_rows) in tiers_of(rows, game) {
            let mut bars = Vec::new();
            for row in &tier_rows {
                let ended: u64 = row.max_tiles.values().sum();
                if ended == 0 {
                    continue;
                }
                let mut shares = [0.0; 8];
                for (&tile, &count) in &row.max_tiles {
                    shares[tile_bin(tile)] += count as f64 / ended as f64 * 100.0;
                }
                bars.push((*row, shares));
            }
            if !bars.is_empty() {
                panels.push((tier_title(tier, &tier_rows), bars));
            }
        }
        MaxTiles { game, panels }
    }

    fn legend(bars: &[Shares<'_>]) -> Vec<(Mark, String)> {
        let entry = |(i, (row, _)): (usize, &Shares<'_>)| {
            (Mark::Bar(colour(i)), format!("{} ({} games)", row.row, row.games))
        };
        bars.iter().enumerate().map(entry).collect()
    }

    fn panel_height(bars: &[Shares<'_>]) -> i32 {
        header_height(&Self::legend(bars), Self::WIDTH) + Self::CHART
    }

    fn size(&self) -> (u32, u32) {
        let height: i32 = 50 + self.panels.iter().map(|(_, bars)| Self::panel_height(bars)).sum::<i32>();
        (Self::WIDTH as u32, height as u32)
    }

    fn draw(&self, root: &Area<'_>) -> DrawResult {
        let title = format!("{}: highest tile of each game (share of the row's games)", self.game);
        let mut rest = header(root, &title, &[])?;
        rest = rest.margin(10, 0, 0, 0);
        for (title, bars) in &self.panels {
            let (panel, below) = rest.split_vertically(Self::panel_height(bars));
            rest = below;
            let body = header(&panel, title, &Self::legend(bars))?;
            let top = bars.iter().flat_map(|(_, shares)| shares.iter().copied()).fold(0.0, f64::max);
            let top = if top > 50.0 { 100.0 } else { (top * 1.1).max(10.0) };
            let mut chart = ChartBuilder::on(&body)
                .margin(8)
                .margin_right(24)
                .x_label_area_size(30)
                .y_label_area_size(72)
                .build_cartesian_2d(
                    Axis::categories(TILE_BINS.len()),
                    Axis::new(0.0..top, linear_ticks(top)),
                )?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .bold_line_style(GRID)
                .x_label_formatter(&|x| {
                    TILE_BINS.get(x.round() as usize).map_or(String::new(), |s| s.to_string())
                })
                .y_label_formatter(&|y| format!("{y:.0}%"))
                .y_desc("share of games")
                .label_style(font(TEXT))
                .axis_desc_style(font(TEXT))
                .draw()?;
            let width = 0.84 / bars.len() as f64;
            for (j, (_, shares)) in bars.iter().enumerate() {
                let c = colour(j);
                let rects =
                    shares.iter().enumerate().filter(|(_, share)| **share > 0.0).map(|(bin, &share)| {
                        let x0 = bin as f64 - 0.42 + j as f64 * width;
                        Rectangle::new([(x0, 0.0), (x0 + width * 0.92, share)], c.filled())
                    });
                chart.draw_series(rects)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summary::summarize;
    use crate::summary::tests::line;

    fn sample_rows() -> Vec<RowSummary> {
        let mut games = Vec::new();
        let tiles = [512, 1024, 2048, 2048, 1024, 256, 2048, 2048, 1024, 2048];
        for (i, &tile) in tiles.iter().enumerate() {
            let i = i as u64;
            games.push(line(1, "minimax-d4-max-sq-coef-sum", i, tile, 900, 0.4 + i as f64 * 0.01));
            games.push(line(1, "minimax-d4-sum-sq-per-empty", i, tile / 2, 600, 0.3));
            games.push(line(2, "minimax-d4", i, tile, 900, 0.4));
            games.push(line(2, "expectimax-d4", i, tile.max(1024), 950, 2.0));
            games.push(line(2, "greedy", i, 256, 200, 0.002));
            games.push(line(3, "expectimax-d5", i, 2048, 1000, 20.0));
            games.push(line(3, "minimax-d6", i, tile, 850, 8.0));
            games.push(line(3, "strong-fast-play-on", i, 8192 << (i % 3), 9000, 300.0));
        }
        summarize(&games)
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-plots-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn plots_are_written_and_identical_across_calls() {
        let rows = sample_rows();
        let (a, b) = (temp_dir("a"), temp_dir("b"));
        let first = write_plots(&a, &rows).unwrap();
        let second = write_plots(&b, &rows).unwrap();
        let names: Vec<String> =
            first.iter().map(|p| p.file_name().unwrap().to_string_lossy().into()).collect();
        assert_eq!(
            names,
            [
                "win-rate-tier-1.svg",
                "win-rate-tier-2.svg",
                "win-rate-tier-3.svg",
                "time-vs-depth.svg",
                "winrate-vs-depth.svg",
                "max-tile.svg"
            ]
        );
        for (x, y) in first.iter().zip(&second) {
            let (x_svg, y_svg) = (std::fs::read_to_string(x).unwrap(), std::fs::read_to_string(y).unwrap());
            assert!(x_svg.starts_with("<svg") && x_svg.trim_end().ends_with("</svg>"), "{}", x.display());
            assert!(x_svg.len() > 1000);
            assert_eq!(x_svg, y_svg, "{} differs between calls", x.display());
        }
        let tier_1 = std::fs::read_to_string(&first[0]).unwrap();
        assert!(tier_1.contains("minimax-d4-sum-sq-per-empty") && tier_1.contains("seed document"));
        let time = std::fs::read_to_string(&first[3]).unwrap();
        assert!(time.contains("minimax, max-sq-coef-sum") && time.contains("expectimax, max-sq-coef-sum"));
        let _ = (std::fs::remove_dir_all(a), std::fs::remove_dir_all(b));
    }

    #[test]
    fn plots_without_data_are_skipped() {
        let dir = temp_dir("empty");
        assert!(write_plots(&dir, &[]).unwrap().is_empty());
        // A single depth per agent gives no depth plots; a game without tiles no tile plot.
        let mut game = line(1, "mcts", 0, 0, 40, 1.0);
        game.game = GameKind::Hex;
        game.max_tile = None;
        let written = write_plots(&dir, &summarize(&[game])).unwrap();
        assert_eq!(written, [dir.join("hex-win-rate-tier-1.svg")]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn depth_lines_take_agents_seen_at_several_depths() {
        let rows = sample_rows();
        let lines = depth_lines(&rows, GameKind::G2048);
        let labels: Vec<&str> = lines.iter().map(|l| l.label.as_str()).collect();
        assert_eq!(labels, ["minimax, max-sq-coef-sum", "expectimax, max-sq-coef-sum"]);
        assert_eq!(lines[0].points.keys().copied().collect::<Vec<_>>(), [4, 6]);
        // Two depth-4 minimax rows of equal size: the first one stands for the depth.
        assert_eq!(lines[0].points[&4].row, "minimax-d4-max-sq-coef-sum");
    }

    #[test]
    fn helpers() {
        assert_eq!(tile_bin(2), 0);
        assert_eq!(tile_bin(256), 0);
        assert_eq!(tile_bin(2048), 3);
        assert_eq!(tile_bin(65536), 7);
        assert_eq!(linear_ticks(100.0), [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(short_number(0.5), "0.5");
        assert_eq!(short_number(20.0), "20");
        assert_eq!(short_number(0.002), "0.002");
    }
}
