//! The SVG charts: one grouped horizontal bar chart per measure (size, and
//! the median time of each operation), one group per dataset and one colour
//! per format, drawn with plotters' SVG backend. In the messages suite the
//! groups are workloads and the measures are per message.
//!
//! Plotters without a font feature lays text out with a fixed width estimate
//! and writes it as SVG `<text>` elements that the viewer renders, so no font
//! library is needed. The output depends only on the numbers: no
//! timestamps, no random ids, so an unchanged input gives byte-identical
//! files.
//!
//! Bars are horizontal because nine dataset names fit side by side only if
//! they are rotated or shrunk; down the left edge they stay level and
//! readable.

use std::ops::Range;

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::units::{SIZE_UNITS, TIME_UNITS, Unit, unit_for};
use crate::{BenchError, Format, Measurement, Operation, Suite};

/// One of the charts a run draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chart {
    /// Serialized size per format and dataset.
    Size,
    /// Serialized size after zstd (level 3) per format and dataset.
    ZstdSize,
    /// Median time of one operation per format and dataset.
    Time(Operation),
}

/// When the largest bar of a time chart is more than this many times the
/// smallest, the time charts' value axes are logarithmic.
pub const LOG_SCALE_SPAN: f64 = 20.0;

const WIDTH: u32 = 1000;
/// Thickness of one bar, and the gap between dataset groups, in pixels.
const BAR_PX: u32 = 14;
const GROUP_GAP_PX: u32 = 16;
/// Title, legend and bottom axis areas, in pixels.
const TITLE_PX: u32 = 40;
const LEGEND_PX: u32 = 34;
const X_AXIS_PX: u32 = 64;
const MARGIN_PX: u32 = 16;
/// Font sizes as plotters takes them (it writes `size / 1.24` into the SVG).
const TITLE_FONT: f64 = 24.0;
const TEXT_FONT: f64 = 17.0;
const VALUE_FONT: f64 = 13.64;
/// A generous average glyph width for a sans-serif font, as a fraction of
/// the SVG font size, used to keep labels apart.
const GLYPH_EM: f64 = 0.62;
/// The largest bar ends at most this far across the plot, leaving room for
/// its value label.
const BAR_REACH: f64 = 0.84;

const FONT: &str = "sans-serif";
const GRID_BOLD: RGBColor = RGBColor(0xC8, 0xC8, 0xC8);
const GRID_LIGHT: RGBColor = RGBColor(0xEE, 0xEE, 0xEE);
const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);

impl Chart {
    /// The chart's file name inside `charts/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Chart::Size => "size.svg",
            Chart::ZstdSize => "size_zstd.svg",
            Chart::Time(Operation::Encode) => "encode.svg",
            Chart::Time(Operation::Decode) => "decode.svg",
            Chart::Time(Operation::DecodeBorrowed) => "decode_borrowed.svg",
            Chart::Time(Operation::Roundtrip) => "roundtrip.svg",
        }
    }

    fn title(self, suite: Suite, iterations: usize) -> String {
        match (self, suite) {
            (Chart::Size, Suite::Messages) => {
                "Bytes per message, framing included (lower is better)".to_owned()
            }
            (Chart::Size, _) => "Serialized size (lower is better)".to_owned(),
            (Chart::ZstdSize, _) => "Size after zstd level 3 (lower is better)".to_owned(),
            (Chart::Time(op), Suite::Messages) => format!(
                "{} time per message, median of {iterations} streams (lower is better)",
                op.title()
            ),
            (Chart::Time(op), _) => format!(
                "{} time, median of {iterations} runs (lower is better)",
                op.title()
            ),
        }
    }

    fn measure(self, suite: Suite) -> String {
        let measure = match self {
            Chart::Size if suite == Suite::Messages => "mean bytes",
            Chart::Size => "serialized size",
            Chart::ZstdSize => "size after zstd -3",
            Chart::Time(op) => match op {
                Operation::Encode => "median encode time",
                Operation::Decode => "median decode time",
                Operation::DecodeBorrowed => "median borrowed decode time",
                Operation::Roundtrip => "median roundtrip time",
            },
        };
        if suite == Suite::Messages {
            format!("{measure} per message")
        } else {
            measure.to_owned()
        }
    }

    /// The chart's value for a measurement, in base units (bytes or
    /// nanoseconds): per message in the messages suite.
    fn value(self, m: &Measurement) -> Option<f64> {
        match self {
            Chart::Size => Some(m.bytes_per_message()),
            Chart::ZstdSize => m.zstd_bytes.map(|z| z as f64),
            Chart::Time(_) => Some(m.median_ns_per_message()),
        }
    }

    fn units(self) -> &'static [Unit] {
        match self {
            Chart::Size | Chart::ZstdSize => &SIZE_UNITS,
            Chart::Time(_) => &TIME_UNITS,
        }
    }

    /// The measurements this chart draws a bar for: its operation's (the
    /// encode rows for sizes), of formats that are not pipelines in their
    /// suite, with a value.
    fn rows(self, measurements: &[Measurement]) -> Vec<&Measurement> {
        let wanted = match self {
            Chart::Size | Chart::ZstdSize => Operation::Encode,
            Chart::Time(op) => op,
        };
        measurements
            .iter()
            .filter(|m| {
                m.operation == wanted
                    && !m.format.is_pipeline_in(m.dataset.suite())
                    && self.value(m).is_some()
            })
            .collect()
    }

    /// Sizes are drawn on a linear axis whatever their span, so that a bar
    /// half as long is half the bytes. Times spread over orders of
    /// magnitude, and when any time chart of the run spans more than
    /// [`LOG_SCALE_SPAN`], every time chart gets a log axis: the time charts
    /// of a page share one kind of axis, so that bars read alike from one to
    /// the next, even on a chart whose own span is narrower (the borrowed
    /// decode has only the formats that can borrow).
    fn log_axis(self, measurements: &[Measurement]) -> bool {
        match self {
            Chart::Size | Chart::ZstdSize => false,
            Chart::Time(_) => Operation::ALL.into_iter().any(|op| {
                let chart = Chart::Time(op);
                let rows = chart.rows(measurements);
                spans_wide(rows.iter().filter_map(|m| chart.value(m)))
            }),
        }
    }

    /// Draws the chart for these measurements as an SVG document. Groups and
    /// colours follow the order in which datasets and formats first appear.
    /// Compressed pipelines of the value and typed suites are left out: the
    /// charts compare formats, and the size-after-zstd chart already shows
    /// what zstd does to each.
    pub fn render(
        self,
        measurements: &[Measurement],
        iterations: usize,
    ) -> Result<String, BenchError> {
        let rows = self.rows(measurements);
        let mut datasets = Vec::new();
        let mut formats: Vec<&'static Format> = Vec::new();
        for m in &rows {
            if !datasets.contains(&m.dataset) {
                datasets.push(m.dataset);
            }
            if !formats.contains(&m.format) {
                formats.push(m.format);
            }
        }
        let failed = |err: &dyn std::fmt::Display| BenchError::Chart {
            chart: self.file_name(),
            message: err.to_string(),
        };
        let longest_name = datasets.iter().map(|d| d.name().len()).max().unwrap_or(0);
        let name_px = text_px(longest_name, TEXT_FONT) + 16;
        let axis = ValueAxis::fit(
            rows.iter().filter_map(|m| self.value(m)),
            self.units(),
            WIDTH - 2 * MARGIN_PX - name_px,
            self.log_axis(measurements),
        );

        let group_px = formats.len() as u32 * BAR_PX + GROUP_GAP_PX;
        let plot_px = datasets.len().max(1) as u32 * group_px;
        let suite = rows.first().map_or(Suite::Value, |m| m.dataset.suite());
        let legend_px = LEGEND_PX * legend_rows(&formats, suite, WIDTH - 2 * MARGIN_PX);
        let height = MARGIN_PX + TITLE_PX + legend_px + plot_px + X_AXIS_PX + MARGIN_PX;

        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| failed(&e))?;
            let area = root.margin(MARGIN_PX, MARGIN_PX, MARGIN_PX, MARGIN_PX);
            let (title_area, rest) = area.split_vertically(TITLE_PX);
            let (legend_area, plot_area) = rest.split_vertically(legend_px);

            title_area
                .draw(&Text::new(
                    self.title(suite, iterations),
                    (0, 4),
                    (FONT, TITLE_FONT)
                        .into_font()
                        .style(FontStyle::Bold)
                        .color(&INK),
                ))
                .map_err(|e| failed(&e))?;
            draw_legend(&legend_area, &formats, suite).map_err(|e| failed(&e))?;

            let mut chart = ChartBuilder::on(&plot_area)
                .x_label_area_size(X_AXIS_PX)
                .y_label_area_size(name_px)
                .build_cartesian_2d(
                    axis.clone(),
                    GroupAxis {
                        names: datasets.iter().map(|d| d.name()).collect(),
                    },
                )
                .map_err(|e| failed(&e))?;
            let axis_title = format!(
                "{} ({}{})",
                self.measure(suite),
                axis.unit.symbol,
                if axis.log { ", log scale" } else { "" }
            );
            chart
                .configure_mesh()
                .disable_y_mesh()
                .bold_line_style(GRID_BOLD)
                .light_line_style(GRID_LIGHT)
                .axis_style(INK)
                .x_labels(64)
                .x_desc(axis_title)
                .y_desc(if suite == Suite::Messages {
                    "workload"
                } else {
                    "dataset"
                })
                .label_style((FONT, TEXT_FONT).into_font().color(&INK))
                .axis_desc_style((FONT, TEXT_FONT).into_font().color(&INK))
                .draw()
                .map_err(|e| failed(&e))?;

            // In axis units a group is 1 tall; bars and the gap are fractions of it.
            let bar = f64::from(BAR_PX) / f64::from(group_px);
            let inset = f64::from(GROUP_GAP_PX) / 2.0 / f64::from(group_px);
            let value_style = (FONT, VALUE_FONT)
                .into_font()
                .color(&INK)
                .pos(Pos::new(HPos::Left, VPos::Center));
            for (g, dataset) in datasets.iter().enumerate() {
                // The first dataset is drawn at the top.
                let top = (datasets.len() - g) as f64 - inset;
                for (k, format) in formats.iter().enumerate() {
                    let Some(m) = rows
                        .iter()
                        .find(|m| m.dataset == *dataset && m.format == *format)
                    else {
                        continue;
                    };
                    let Some(value) = self.value(m) else {
                        continue;
                    };
                    let y1 = top - k as f64 * bar;
                    let y0 = y1 - bar;
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(axis.start(), y0), (axis.clamp(value), y1)],
                            colour(format).filled(),
                        )))
                        .map_err(|e| failed(&e))?;
                    let label = crate::units::human(self.units(), value);
                    chart
                        .draw_series(std::iter::once(
                            EmptyElement::at((axis.clamp(value), (y0 + y1) / 2.0))
                                + Text::new(label, (4, 0), value_style.clone()),
                        ))
                        .map_err(|e| failed(&e))?;
                }
            }
            root.present().map_err(|e| failed(&e))?;
        }
        Ok(svg)
    }
}

/// A format's legend text: its label, marked when a reader needs the
/// schema to decode it.
fn legend_label(format: &Format, suite: Suite) -> String {
    if format.needs_schema_in(suite) {
        format!("{} (schema)", format.label)
    } else {
        format.label.to_owned()
    }
}

/// Where each legend entry goes: (row, x) in pixels, wrapping to a new row
/// when the next entry would pass `width`, so entries never overlap.
fn legend_layout(formats: &[&'static Format], suite: Suite, width: u32) -> Vec<(u32, i32)> {
    const SWATCH: i32 = 16;
    let mut places = Vec::with_capacity(formats.len());
    let (mut row, mut x) = (0, 0);
    for format in formats {
        let entry =
            SWATCH + 6 + text_px(legend_label(format, suite).chars().count(), TEXT_FONT) as i32;
        if x > 0 && x + entry > width as i32 {
            row += 1;
            x = 0;
        }
        places.push((row, x));
        x += entry + 24;
    }
    places
}

fn legend_rows(formats: &[&'static Format], suite: Suite, width: u32) -> u32 {
    legend_layout(formats, suite, width)
        .last()
        .map_or(1, |&(row, _)| row + 1)
}

/// Rows of colour swatches with the format labels, spaced by their
/// estimated widths so they never overlap.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    formats: &[&'static Format],
    suite: Suite,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let swatch = 16;
    let width = area.dim_in_pixel().0;
    for (format, (row, x)) in formats.iter().zip(legend_layout(formats, suite, width)) {
        let y = 6 + (row * LEGEND_PX) as i32;
        area.draw(&Rectangle::new(
            [(x, y), (x + swatch, y + swatch)],
            colour(format).filled(),
        ))?;
        area.draw(&Text::new(
            legend_label(format, suite),
            (x + swatch + 6, y + swatch / 2),
            (FONT, TEXT_FONT)
                .into_font()
                .color(&INK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

fn colour(format: &Format) -> RGBColor {
    let (r, g, b) = format.colour;
    RGBColor(r, g, b)
}

/// The estimated width of `chars` characters at a plotters font size.
fn text_px(chars: usize, plotters_size: f64) -> u32 {
    (chars as f64 * plotters_size / 1.24 * GLYPH_EM).ceil() as u32
}

/// The values 1, 2 and 5 times a power of ten from `lo` to `hi`, inclusive,
/// ascending.
fn nice_values(lo: f64, hi: f64) -> Vec<f64> {
    multiples(lo, hi, &[1, 2, 5])
}

/// Every whole multiple (1 to 9) of a power of ten from `lo` to `hi`, for
/// the light grid of a log axis.
fn every_multiple(lo: f64, hi: f64) -> Vec<f64> {
    multiples(lo, hi, &[1, 2, 3, 4, 5, 6, 7, 8, 9])
}

fn multiples(lo: f64, hi: f64, factors: &[u32]) -> Vec<f64> {
    let mut out = Vec::new();
    if !(lo > 0.0 && hi >= lo) {
        return out;
    }
    let mut exp = lo.log10().floor() as i32;
    // Relative slack so that float error in 10^e * m does not drop an end.
    let (lo_edge, hi_edge) = (lo * (1.0 - 1e-9), hi * (1.0 + 1e-9));
    loop {
        let decade = 10f64.powi(exp);
        for &m in factors {
            let v = decade * f64::from(m);
            if v > hi_edge {
                return out;
            }
            if v >= lo_edge {
                out.push(v);
            }
        }
        exp += 1;
    }
}

/// A tick value without trailing zeros: 0.001, 0.5, 2, 1000.
fn tick_label(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    let text = if x >= 1.0 {
        format!("{x:.0}")
    } else {
        let decimals = (-x.log10().floor()) as usize + 1;
        format!("{x:.decimals$}")
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

/// The value axis: linear from zero, or logarithmic between powers of ten,
/// with its ticks chosen here so labels are round numbers in one unit.
#[derive(Clone, Debug)]
struct ValueAxis {
    log: bool,
    /// The axis range in base units (for a log axis, powers of ten).
    lo: f64,
    hi: f64,
    unit: Unit,
    /// Labelled ticks and unlabelled light grid lines, in base units.
    ticks: Vec<f64>,
    light: Vec<f64>,
}

/// The positive values' extremes, `None` when there is none.
fn positive_range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .filter(|v| *v > 0.0)
        .fold(None, |range, v| match range {
            None => Some((v, v)),
            Some((min, max)) => Some((f64::min(min, v), f64::max(max, v))),
        })
}

/// Whether the largest of these values is more than [`LOG_SCALE_SPAN`] times
/// the smallest positive one.
fn spans_wide(values: impl Iterator<Item = f64>) -> bool {
    positive_range(values).is_some_and(|(min, max)| max / min > LOG_SCALE_SPAN)
}

impl ValueAxis {
    /// An axis for these values: logarithmic if `log` and some value is
    /// positive, else linear from zero.
    fn fit(
        values: impl Iterator<Item = f64>,
        units: &'static [Unit],
        plot_px: u32,
        log: bool,
    ) -> ValueAxis {
        let (min, max) = positive_range(values).unwrap_or((0.0, 0.0));
        let unit = unit_for(units, max);
        if log && max > 0.0 {
            ValueAxis::log(min, max, unit, plot_px)
        } else {
            ValueAxis::linear(if max > 0.0 { max } else { unit.base }, unit)
        }
    }

    /// A log axis from a "nice" value (1, 2 or 5 times a power of ten) just
    /// under the smallest bar, so that bar keeps some length, to a whole
    /// multiple of a power of ten far enough out for the largest bar's label.
    /// Powers of ten are labelled, and 2s and 5s too when their labels have
    /// room; an axis too short for two of those (a chart whose times are
    /// close together) labels every whole multiple instead.
    fn log(min: f64, max: f64, unit: Unit, plot_px: u32) -> ValueAxis {
        let lo = nice_values(min / 10.0, min)
            .into_iter()
            .rfind(|v| *v <= min / 1.25)
            .unwrap_or(min);
        let reach = |hi: f64| (max / lo).log10() / (hi / lo).log10();
        // Any whole multiple of a power of ten may end the axis, so the
        // right edge wastes little room.
        let hi = every_multiple(max, max * 1e3)
            .into_iter()
            .find(|hi| *hi > max && reach(*hi) <= BAR_REACH)
            .unwrap_or(max * 10.0);
        let candidates = nice_values(lo, hi);
        let powers: Vec<f64> = candidates
            .iter()
            .copied()
            .filter(|v| (v.log10().round() - v.log10()).abs() < 1e-9)
            .collect();
        let span = (hi / lo).log10();
        let fits = |ticks: &[f64]| {
            ticks.windows(2).all(|w| {
                let gap = f64::from(plot_px) * (w[1] / w[0]).log10() / span;
                let widths: u32 = w
                    .iter()
                    .map(|v| text_px(tick_label(v / unit.base).len(), TEXT_FONT))
                    .sum();
                gap >= f64::from(widths) / 2.0 + 12.0
            })
        };
        let ticks = if candidates.len() < 2 {
            every_multiple(lo, hi)
        } else if powers.len() < 2 || fits(&candidates) {
            candidates
        } else {
            powers
        };
        let light = every_multiple(lo, hi)
            .into_iter()
            .filter(|v| !ticks.contains(v))
            .collect();
        ValueAxis {
            log: true,
            lo,
            hi,
            unit,
            ticks,
            light,
        }
    }

    fn linear(max: f64, unit: Unit) -> ValueAxis {
        let top = max / BAR_REACH;
        // A 1-2-5 step giving at most eight intervals.
        let raw = top / 8.0;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * magnitude)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * magnitude);
        let intervals = (top / step).ceil() as u32;
        let ticks: Vec<f64> = (0..=intervals).map(|i| f64::from(i) * step).collect();
        let light = (0..intervals)
            .map(|i| (f64::from(i) + 0.5) * step)
            .collect();
        ValueAxis {
            log: false,
            lo: 0.0,
            hi: f64::from(intervals) * step,
            unit,
            ticks,
            light,
        }
    }

    /// Where bars start.
    fn start(&self) -> f64 {
        self.lo
    }

    /// A value brought inside the axis, so a zero on a log axis draws as an
    /// empty bar rather than off the chart.
    fn clamp(&self, v: f64) -> f64 {
        v.clamp(self.lo, self.hi)
    }

    fn fraction(&self, v: f64) -> f64 {
        let v = self.clamp(v);
        if self.log {
            (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }
}

impl Ranged for ValueAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        limit.0 + (span * self.fraction(*v)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

impl ValueFormatter<f64> for ValueAxis {
    fn format_ext(&self, v: &f64) -> String {
        tick_label(*v / self.unit.base)
    }
}

/// The dataset axis: the group `i` places from the bottom spans `i..i+1`
/// and is labelled at its centre; the first name is the top group.
#[derive(Clone, Debug)]
struct GroupAxis {
    names: Vec<&'static str>,
}

impl GroupAxis {
    fn groups(&self) -> usize {
        self.names.len().max(1)
    }
}

impl ValueFormatter<f64> for GroupAxis {
    fn format_ext(&self, v: &f64) -> String {
        let from_top = self.names.len() as f64 - v.floor() - 1.0;
        self.names
            .get(from_top.max(0.0) as usize)
            .map_or_else(String::new, |name| (*name).to_owned())
    }
}

impl Ranged for GroupAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        limit.0 + (span * v / self.groups() as f64).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            (0..self.groups()).map(|i| i as f64 + 0.5).collect()
        }
    }

    fn range(&self) -> Range<f64> {
        0.0..self.groups() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(format: &str, operation: Operation, median_ns: u64) -> Measurement {
        Measurement {
            format: Format::from_name(format).unwrap(),
            dataset: surp_datasets::Dataset::Canada.into(),
            operation,
            stats: crate::Stats {
                samples: 1,
                median_ns,
                p95_ns: median_ns,
                min_ns: median_ns,
                cv_pct: 0.0,
            },
            size_bytes: 1_000,
            zstd_bytes: None,
            messages: None,
        }
    }

    #[test]
    fn a_wide_span_gets_a_log_axis_between_powers_of_ten() {
        assert!(spans_wide([150.0, 90_000.0].into_iter()));
        let axis = ValueAxis::fit([150.0, 90_000.0].into_iter(), &TIME_UNITS, 800, true);
        assert!(axis.log);
        assert_eq!(axis.lo, 100.0);
        assert!(axis.hi > 90_000.0);
        assert_eq!(axis.unit.symbol, "µs");
        assert!(axis.fraction(90_000.0) <= BAR_REACH);
        assert!(
            axis.fraction(150.0) > 0.0,
            "the smallest bar keeps some length"
        );
        assert!(axis.ticks.iter().all(|t| (axis.lo..=axis.hi).contains(t)));
    }

    #[test]
    fn a_narrow_span_gets_a_linear_axis_from_zero() {
        assert!(!spans_wide([100.0, 1_900.0, 0.0].into_iter()));
        let axis = ValueAxis::fit([100.0, 1_900.0].into_iter(), &SIZE_UNITS, 800, false);
        assert!(!axis.log);
        assert_eq!(axis.lo, 0.0);
        assert_eq!(axis.ticks[0], 0.0);
        assert!(axis.fraction(1_900.0) <= BAR_REACH + 1e-9);
        assert_eq!(axis.unit.symbol, "kB");
    }

    #[test]
    fn a_narrow_span_on_a_log_axis_still_labels_two_ticks() {
        let axis = ValueAxis::fit([3_000_000.0].into_iter(), &TIME_UNITS, 800, true);
        assert!(axis.log);
        assert!(axis.ticks.len() >= 2, "{:?}", axis.ticks);
        assert!(axis.fraction(3_000_000.0) > 0.0 && axis.fraction(3_000_000.0) <= BAR_REACH);
    }

    #[test]
    fn the_time_charts_of_a_run_share_a_log_axis() {
        // Decode times span 100 times; borrowed decode times only 2 times.
        let mut run = vec![
            timed("surp", Operation::Decode, 100_000),
            timed("json", Operation::Decode, 10_000_000),
            timed("surp", Operation::DecodeBorrowed, 1_000_000),
            timed("bitcode", Operation::DecodeBorrowed, 2_000_000),
        ];
        let borrowed = Chart::Time(Operation::DecodeBorrowed);
        assert!(borrowed.log_axis(&run));
        assert!(!Chart::Size.log_axis(&run));
        let svg = borrowed.render(&run, 1).unwrap();
        assert!(svg.contains("median borrowed decode time (ms, log scale)"));

        // When no time chart spans widely, all of them are linear.
        run[1] = timed("json", Operation::Decode, 1_000_000);
        assert!(!borrowed.log_axis(&run));
        assert!(!Chart::Time(Operation::Decode).log_axis(&run));
    }

    #[test]
    fn nice_values_are_one_two_five_steps() {
        assert_eq!(nice_values(15.0, 600.0), [20.0, 50.0, 100.0, 200.0, 500.0]);
        assert_eq!(nice_values(1.0, 1.0), [1.0]);
        assert_eq!(every_multiple(70.0, 100.0), [70.0, 80.0, 90.0, 100.0]);
    }

    #[test]
    fn tick_labels_drop_trailing_zeros() {
        assert_eq!(tick_label(0.001), "0.001");
        assert_eq!(tick_label(0.5), "0.5");
        assert_eq!(tick_label(20.0), "20");
        assert_eq!(tick_label(0.0), "0");
    }

    #[test]
    fn file_names_follow_the_operations() {
        let names: Vec<&str> = crate::Suite::Typed
            .charts()
            .iter()
            .map(|c| c.file_name())
            .collect();
        assert_eq!(
            names,
            [
                "size.svg",
                "size_zstd.svg",
                "encode.svg",
                "decode.svg",
                "decode_borrowed.svg",
                "roundtrip.svg"
            ]
        );
    }

    #[test]
    fn the_legend_wraps_instead_of_running_off_the_chart() {
        let formats: Vec<&'static Format> = crate::FORMATS.iter().collect();
        let places = legend_layout(&formats, Suite::Typed, WIDTH - 2 * MARGIN_PX);
        assert!(legend_rows(&formats, Suite::Typed, WIDTH - 2 * MARGIN_PX) > 1);
        for (format, (_, x)) in formats.iter().zip(&places) {
            let label = legend_label(format, Suite::Typed);
            let end = *x + 22 + text_px(label.chars().count(), TEXT_FONT) as i32;
            assert!(end <= (WIDTH - 2 * MARGIN_PX) as i32, "{}", format.name);
        }
    }
}
