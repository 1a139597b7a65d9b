//! A small bar chart as inline SVG, written by hand: one bar per day, the
//! value over each bar on hover (`<title>`), a labelled axis; no script,
//! no font or style from elsewhere, so the report's HTML file stays one
//! self-contained file that prints as it shows (docs/decisions.md).

use std::fmt::Write as _;

use super::markup::esc;

/// The chart's size in SVG units (it scales to the page's width).
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 180.0;
/// Room for the axis labels: left, bottom, top.
const LEFT: f64 = 48.0;
const BOTTOM: f64 = 22.0;
const TOP: f64 = 10.0;

/// One bar: its label under the axis (a date), its value (none: no bar,
/// and the label says no data).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bar {
    pub(crate) label: String,
    pub(crate) value: Option<f64>,
}

/// A step for the axis: 1, 2 or 5 times a power of ten, so the top is a
/// round number at or above `max`.
fn nice_top(max: f64) -> f64 {
    if !(max.is_finite() && max > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(max.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|t| *t >= max)
        .unwrap_or(10.0 * p)
}

/// A value as the axis writes it: no more decimals than it needs.
fn tick(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The chart of `bars`, `what` (with its unit) naming it for screen readers
/// and under the title.
pub(crate) fn bar_chart(what: &str, unit: &str, decimals: usize, bars: &[Bar]) -> String {
    let max = bars
        .iter()
        .filter_map(|b| b.value)
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let top = nice_top(max);
    let plot_w = WIDTH - LEFT - 4.0;
    let plot_h = HEIGHT - BOTTOM - TOP;
    let slot = plot_w / bars.len().max(1) as f64;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{}">"#,
        esc(what)
    );
    let _ = write!(s, "<title>{}</title>", esc(what));
    // The axis: 0, half and the top, with faint lines across.
    for frac in [0.0, 0.5, 1.0] {
        let y = TOP + plot_h * (1.0 - frac);
        let _ = write!(
            s,
            r##"<line x1="{LEFT}" x2="{WIDTH}" y1="{y:.1}" y2="{y:.1}" stroke="#ccc" stroke-width="0.5"/><text x="{:.1}" y="{:.1}" font-size="10" text-anchor="end" fill="#444">{} {}</text>"##,
            LEFT - 4.0,
            y + 3.5,
            tick(top * frac),
            esc(unit)
        );
    }
    let every = (bars.len() / 10).max(1);
    for (k, bar) in bars.iter().enumerate() {
        let x = LEFT + slot * k as f64;
        let label = esc(&bar.label);
        match bar.value.filter(|v| v.is_finite()) {
            Some(v) => {
                let h = (v.max(0.0) / top * plot_h).max(0.0);
                let _ = write!(
                    s,
                    r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="#2f6db5"><title>{label}: {v:.decimals$} {}</title></rect>"##,
                    x + slot * 0.15,
                    TOP + plot_h - h,
                    slot * 0.7,
                    esc(unit)
                );
            }
            None => {
                let _ = write!(s, "<desc>{label}: no data</desc>");
            }
        }
        if k % every == 0 {
            let _ = write!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#444">{label}</text>"##,
                x + slot / 2.0,
                HEIGHT - 6.0
            );
        }
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tops_are_round_and_bars_scale_to_them() {
        assert_eq!(nice_top(7.3), 10.0);
        assert_eq!(nice_top(13.0), 20.0);
        assert_eq!(nice_top(0.0), 1.0);
        assert_eq!(nice_top(f64::NAN), 1.0);
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(10.0), "10");
        let bars = [
            Bar {
                label: "06-16".into(),
                value: Some(5.0),
            },
            Bar {
                label: "<b>".into(),
                value: None,
            },
        ];
        let svg = bar_chart("Engine hours per day (h)", "h", 2, &bars);
        assert!(svg.starts_with("<svg "), "{svg}");
        assert!(svg.ends_with("</svg>"));
        assert_eq!(svg.matches("<rect").count(), 1, "no bar without data");
        // 5 of a top of 5: the whole plot's height.
        assert!(svg.contains(r#"height="148.0""#), "{svg}");
        assert!(svg.contains("06-16: 5.00 h"));
        assert!(svg.contains("&lt;b&gt;: no data"), "labels escaped");
    }
}
