//! Statistics over the span selected on the plots: for every numeric
//! channel plotted, min, max, mean, first, last and the change, with the
//! span's duration and the engine-on time. Shown in a pane under the
//! plots (the plots above stay where they are when it opens), computed
//! once per span and data (`analysis::span`) and kept.

use std::sync::Arc;

use crate::app::{Action, AppState, TimelineAction};
use crate::ui::format;
use fleetview_api::DataKind;
use fleetview_core::analysis::{ChannelStats, channel_stats, engine_on_secs};
use fleetview_core::series::ChannelKind;
use fleetview_core::series::names::channel_name;

use super::values::conversion;

/// One row of the statistics: a channel of a plotted kind.
#[derive(Debug, Clone)]
struct StatRow {
    name: String,
    unit: String,
    stats: ChannelStats,
}

/// What the statistics were computed from: the span, and the data's
/// addresses.
type Basis = ((i64, i64), Vec<(DataKind, usize)>, usize);

#[derive(Debug, Default)]
pub struct SpanView {
    basis: Option<Basis>,
    rows: Vec<StatRow>,
    engine_on_secs: Option<i64>,
}

impl SpanView {
    fn update(&mut self, state: &AppState, span: (i64, i64)) {
        let plots: Vec<(DataKind, usize)> = state
            .timeline()
            .plot_kinds
            .iter()
            .filter_map(|k| {
                let s = state.timeline().plots.get(k)?.value()?;
                Some((*k, Arc::as_ptr(s) as usize))
            })
            .collect();
        let history = state.history().value();
        let basis = (span, plots, history.map_or(0, |h| Arc::as_ptr(h) as usize));
        if self.basis.as_ref() == Some(&basis) {
            return;
        }
        let (t0, t1) = span;
        self.rows.clear();
        for (kind, _) in &basis.1 {
            let Some(series) = state.timeline().plots.get(kind).and_then(|l| l.value()) else {
                continue;
            };
            for (ch, c) in series.series.channels.iter().enumerate() {
                if c.kind != ChannelKind::Numeric {
                    continue;
                }
                self.rows.push(StatRow {
                    name: channel_name(*kind, &c.name),
                    unit: series.shown_unit(ch, kind.unit()).to_owned(),
                    stats: channel_stats(series, ch, t0, t1),
                });
            }
        }
        self.engine_on_secs =
            history.and_then(|h| engine_on_secs(&h.engine_conditions.rows, t0, t1));
        self.basis = Some(basis);
    }
}

/// The statistics pane, if a span is selected.
pub fn span_stats_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut SpanView,
    actions: &mut Vec<Action>,
) {
    let Some(span) = state.timeline().span else {
        return;
    };
    view.update(state, span);
    let local = format::machine_zone(state);
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new("Span").strong());
        ui.label(format!(
            "{} – {}",
            format::format_time(span.0, &local),
            format::format_time(span.1, &local)
        ));
        ui.label(format!(
            "Duration {}",
            format::format_duration(span.1 - span.0)
        ));
        ui.label(format!(
            "Engine on {}",
            view.engine_on_secs
                .map_or_else(|| format::NULL.to_owned(), format::format_duration)
        ))
        .on_hover_text("Time between engine starts and stops in the span (engine events, D10)");
        if ui
            .button("Clear span")
            .on_hover_text("Clear the span (Esc)")
            .clicked()
        {
            actions.push(TimelineAction::SetSpan(None).into());
        }
    });
    if view.rows.is_empty() {
        ui.weak("No values plotted in this span.");
        return;
    }
    egui::ScrollArea::both()
        .id_salt("span_stats")
        .max_height(ui.available_height())
        .show(ui, |ui| {
            egui::Grid::new("span_stats_grid")
                .striped(true)
                .num_columns(8)
                .show(ui, |ui| {
                    for title in [
                        "Channel", "Min", "Max", "Mean", "First", "Last", "Change", "Samples",
                    ] {
                        ui.label(egui::RichText::new(title).strong());
                    }
                    ui.end_row();
                    for row in &view.rows {
                        let s = &row.stats;
                        let (scale, unit) = conversion(&row.unit, state.units());
                        ui.label(if unit.is_empty() {
                            row.name.clone()
                        } else {
                            format!("{} ({unit})", row.name)
                        });
                        for v in [s.min, s.max, s.mean, s.first, s.last] {
                            ui.label(format::number(v.map(|v| scale.apply(v)), 3));
                        }
                        let change = s.change().map(|d| scale.apply_to_change(d));
                        ui.label(format::number(change, 3));
                        ui.label(s.samples.to_string());
                        ui.end_row();
                    }
                });
        });
}
