//! Daily history: the machine's identity, the daily charts, its daily usage
//! with every member (units shown, estimated values marked, nulls as a
//! dash; the rows of the cursor's day and of the day hovered on a chart
//! marked), and its engine events, read per D10 (`running: true` is a
//! stop).

use super::daily_charts::{DailyChartsView, NO_ROOM, daily_charts_ui};
use super::format;
use super::theme;
use crate::app::{Action, AppState, TimelineAction};
use fleetview_api::model::{
    DailyUsageRow, EngineConditionRow, EngineEvent, EquipmentHistory, Hours,
};
use fleetview_api::time::SECS_PER_DAY;
use fleetview_core::analysis::{Quantity, UnitSystem};
use fleetview_core::export::shown::ExportContent;

/// A daily usage column: its header and how to read a cell, in the units
/// chosen.
struct UsageColumn {
    title: &'static str,
    /// The unit in the header: fixed, or the one the units chosen give.
    unit: ColumnUnit,
    cell: fn(&DailyUsageRow, UnitSystem) -> String,
}

#[derive(Clone, Copy)]
enum ColumnUnit {
    None,
    Fixed(&'static str),
    Of(Quantity),
    /// Tonnes, or pounds.
    Payload,
}

impl UsageColumn {
    fn header(&self, units: UnitSystem) -> String {
        let unit = match self.unit {
            ColumnUnit::None => return self.title.to_owned(),
            ColumnUnit::Fixed(u) => u,
            ColumnUnit::Of(q) => units.unit(q),
            ColumnUnit::Payload => match units {
                UnitSystem::Metric => "t",
                UnitSystem::Imperial => units.unit(Quantity::Mass),
            },
        };
        format!("{} ({unit})", self.title)
    }
}

fn hours(h: &Option<Hours>) -> String {
    format::number(h.as_ref().and_then(|h| h.hour), 2)
}

/// `12.50 (est.)` when the value was estimated.
fn with_estimate(value: String, estimated: Option<bool>) -> String {
    if estimated == Some(true) && value != format::NULL {
        format!("{value} (est.)")
    } else {
        value
    }
}

/// The service's value in its unit, in the column's (see
/// `format::service_number`).
fn measured(units: UnitSystem, q: Quantity, value: Option<f64>, unit: &str) -> String {
    format::service_number(units, q, value, unit, 2)
}

const COLUMNS: &[UsageColumn] = &[
    UsageColumn {
        title: "Operating",
        unit: ColumnUnit::Fixed("h"),
        cell: |r, _| hours(&r.operating_hours),
    },
    UsageColumn {
        title: "Idle",
        unit: ColumnUnit::Fixed("h"),
        cell: |r, _| hours(&r.idle_hours),
    },
    UsageColumn {
        title: "Working",
        unit: ColumnUnit::Fixed("h"),
        cell: |r, _| hours(&r.working_hours),
    },
    UsageColumn {
        title: "Fuel",
        unit: ColumnUnit::Of(Quantity::Volume),
        cell: |r, units| match &r.fuel_used {
            Some(f) => with_estimate(
                measured(units, Quantity::Volume, f.fuel_used, &f.unit),
                f.estimated,
            ),
            None => format::NULL.to_owned(),
        },
    },
    UsageColumn {
        title: "Distance",
        unit: ColumnUnit::Of(Quantity::Distance),
        cell: |r, units| match &r.daily_distance {
            Some(d) => measured(units, Quantity::Distance, d.odometer, &d.unit),
            None => format::NULL.to_owned(),
        },
    },
    UsageColumn {
        title: "Peak speed",
        unit: ColumnUnit::Of(Quantity::Speed),
        cell: |r, units| match &r.peak_daily_speed {
            Some(s) => {
                format::service_number(units, Quantity::Speed, Some(s.speed), &s.speed_unit, 1)
            }
            None => format::NULL.to_owned(),
        },
    },
    UsageColumn {
        title: "Load factor",
        unit: ColumnUnit::Fixed("%"),
        cell: |r, _| {
            format::number(
                r.average_daily_engine_load_factor
                    .as_ref()
                    .map(|p| p.percent),
                1,
            )
        },
    },
    UsageColumn {
        title: "CO2",
        unit: ColumnUnit::Of(Quantity::Mass),
        cell: |r, units| match &r.co2 {
            Some(c) => with_estimate(
                measured(units, Quantity::Mass, Some(c.weight), &c.unit),
                c.estimated,
            ),
            None => format::NULL.to_owned(),
        },
    },
    UsageColumn {
        title: "DEF",
        unit: ColumnUnit::Fixed("%"),
        cell: |r, _| format::number(r.def_remaining_ratio.as_ref().map(|d| d.percent), 1),
    },
    UsageColumn {
        title: "DEF tank",
        unit: ColumnUnit::None,
        cell: |r, units| match &r.def_remaining_ratio {
            Some(d) if d.tank_capacity > 0.0 => {
                let (v, unit) = units.from_service(d.tank_capacity, &d.tank_capacity_unit);
                format!("{} {unit}", format::number(Some(v), 0))
            }
            _ => format::NULL.to_owned(),
        },
    },
    UsageColumn {
        title: "Total operating",
        unit: ColumnUnit::Fixed("h"),
        cell: |r, _| hours(&r.cumulative_operating_hours),
    },
    UsageColumn {
        title: "Total idle",
        unit: ColumnUnit::Fixed("h"),
        cell: |r, _| hours(&r.cumulative_idle_hours),
    },
    UsageColumn {
        title: "Total fuel",
        unit: ColumnUnit::Of(Quantity::Volume),
        cell: |r, units| match &r.cumulative_fuel_used {
            Some(f) => measured(units, Quantity::Volume, Some(f.fuel_used), &f.unit),
            None => format::NULL.to_owned(),
        },
    },
    UsageColumn {
        title: "Total distance",
        unit: ColumnUnit::Of(Quantity::Distance),
        cell: |r, units| match &r.cumulative_distance {
            Some(d) => measured(units, Quantity::Distance, Some(d.odometer), &d.unit),
            None => format::NULL.to_owned(),
        },
    },
    UsageColumn {
        title: "Total loads",
        unit: ColumnUnit::None,
        cell: |r, _| {
            r.cumulative_load_count
                .as_ref()
                .and_then(|c| c.count)
                .map_or_else(|| format::NULL.to_owned(), |c| c.to_string())
        },
    },
    UsageColumn {
        title: "Total payload",
        unit: ColumnUnit::Payload,
        cell: |r, units| match &r.cumulative_payload_total {
            Some(p) => match fleetview_core::analysis::units::kilograms(p.payload, &p.payload_unit)
            {
                Some(kg) if units == UnitSystem::Metric => format::number(Some(kg / 1000.0), 2),
                Some(kg) => format::number(Some(units.from_metric(Quantity::Mass, kg)), 0),
                None => format!("{} {}", format::number(Some(p.payload), 2), p.payload_unit),
            },
            None => format::NULL.to_owned(),
        },
    },
    UsageColumn {
        title: "Regeneration",
        unit: ColumnUnit::Fixed("h"),
        cell: |r, _| hours(&r.cumulative_active_regeneration_hours),
    },
    UsageColumn {
        title: "Power take-off",
        unit: ColumnUnit::Fixed("h"),
        cell: |r, _| hours(&r.cumulative_power_take_off_hours),
    },
];

pub fn history_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    charts: &mut DailyChartsView,
    actions: &mut Vec<Action>,
) {
    if let Some(e) = state.history().error() {
        super::widgets::panel_failed_ui(ui, "Daily history", e, actions);
    }
    let Some(h) = state.history().value() else {
        if state.history().is_pending() {
            ui.horizontal(|ui| {
                crate::ui::widgets::spinner_ui(ui);
                ui.label("Loading the daily history");
            });
        }
        return;
    };
    identity_ui(ui, h);
    ui.separator();
    let charts_shown = daily_charts_ui(ui, state, charts, actions);
    let rows = &h.daily_usages.rows;
    let marks = RowMarks {
        cursor: state
            .timeline()
            .cursor
            .and_then(|t| row_of_day(rows, t.div_euclid(SECS_PER_DAY))),
        hovered: charts.hovered_day().and_then(|d| row_of_day(rows, d)),
        scroll_to: charts
            .day_to_scroll_to(state)
            .and_then(|d| row_of_day(rows, d)),
    };
    // Daily usage on the left, engine events on the right: both keep their
    // headings and scroll on their own within the pane.
    let events_width = theme::ENGINE_EVENTS_WIDTH.min(ui.available_width() * 0.35);
    ui.horizontal_top(|ui| {
        let height = ui.available_height();
        let usage_width = ui.available_width() - events_width - theme::GAP * 2.0;
        ui.allocate_ui(egui::vec2(usage_width, height), |ui| {
            ui.vertical(|ui| {
                // Within its share: in a small window the hint is cut short
                // (whole on hover) and the table scrolls sideways, rather
                // than push the engine events out of the window.
                ui.set_max_width(usage_width);
                ui.horizontal(|ui| {
                    ui.strong(format!(
                        "Daily usage ({}, UTC days)",
                        format::count(h.daily_usages.rows.len(), "day", "days")
                    ));
                    if ui
                        .add_enabled(
                            !h.daily_usages.rows.is_empty(),
                            egui::Button::new("Export daily history (CSV)…"),
                        )
                        .clicked()
                    {
                        actions.push(Action::Export(ExportContent::DailyHistory(h.clone())));
                    }
                    if !charts_shown {
                        ui.add(egui::Label::new(egui::RichText::new(NO_ROOM).weak()).truncate());
                    }
                });
                usage_table_ui(ui, rows, state.units(), marks, actions);
            });
        });
        ui.separator();
        ui.vertical(|ui| {
            ui.set_width(events_width);
            engine_events_ui(ui, &h.engine_conditions.rows, &format::machine_zone(state));
        });
    });
}

fn engine_events_ui(ui: &mut egui::Ui, rows: &[EngineConditionRow], zone: &format::Zone) {
    let starts = rows
        .iter()
        .filter(|e| e.event() == EngineEvent::Started)
        .count();
    ui.strong(format!(
        "Engine events: {} started, {} stopped",
        starts,
        rows.len() - starts
    ));
    egui::ScrollArea::vertical()
        .id_salt("engine_events_scroll")
        .min_scrolled_height(0.0)
        .auto_shrink([false, false])
        .show_rows(ui, theme::ROW_HEIGHT, rows.len(), |ui, range| {
            for e in &rows[range] {
                let event = e.event();
                ui.horizontal(|ui| {
                    ui.label(format::format_time(e.date.0, zone));
                    let color = if event == EngineEvent::Started {
                        theme::INFO
                    } else {
                        theme::UNKNOWN
                    };
                    ui.colored_label(theme::ink(ui, color), event.label());
                });
            }
        });
}

/// The identity on one wrapped line: the pane's height is for the days.
fn identity_ui(ui: &mut egui::Ui, h: &EquipmentHistory) {
    let or_dash = |s: &Option<String>| {
        s.clone()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| format::NULL.to_owned())
    };
    ui.horizontal_wrapped(|ui| {
        for (label, value) in [
            ("Name", h.name.clone()),
            ("Make", h.make.clone()),
            ("Model", h.model.clone()),
            ("Serial number", h.serial_number.clone()),
            ("PIN", or_dash(&h.pin)),
            ("VIN", or_dash(&h.vin)),
        ] {
            ui.label(egui::RichText::new(label).weak());
            ui.strong(value);
            ui.add_space(theme::GAP * 2.0);
        }
    });
}

/// The rows of the daily table to mark, and the one to scroll to.
#[derive(Debug, Clone, Copy)]
struct RowMarks {
    cursor: Option<usize>,
    hovered: Option<usize>,
    scroll_to: Option<usize>,
}

impl RowMarks {
    fn marked(&self, row: usize) -> bool {
        self.cursor == Some(row) || self.hovered == Some(row)
    }

    /// A grid row's background (row 0 is the header): the cursor's day,
    /// then the hovered day, else the stripes.
    fn row_color(self) -> impl Fn(usize, &egui::Style) -> Option<egui::Color32> + Send + Sync {
        move |row, style| {
            let day = row.checked_sub(1);
            if day.is_some() && day == self.cursor {
                Some(theme::cursor_day_fill())
            } else if day.is_some() && day == self.hovered {
                Some(theme::hovered_day_fill())
            } else {
                (row % 2 == 1).then_some(style.visuals.faint_bg_color)
            }
        }
    }
}

/// The row of a UTC day in daily rows sorted by date (one a day).
fn row_of_day(rows: &[DailyUsageRow], day: i64) -> Option<usize> {
    let k = rows.partition_point(|r| r.date.0.div_euclid(SECS_PER_DAY) < day);
    rows.get(k)
        .filter(|r| r.date.0.div_euclid(SECS_PER_DAY) == day)
        .map(|_| k)
}

fn usage_table_ui(
    ui: &mut egui::Ui,
    rows: &[DailyUsageRow],
    units: UnitSystem,
    marks: RowMarks,
    actions: &mut Vec<Action>,
) {
    if rows.is_empty() {
        ui.label("No daily usage in this window.");
        return;
    }
    // One vertical scroll for both halves, so their rows stay side by side;
    // the Day column stays while the figures scroll sideways. Days are UTC
    // days, as the service counts its daily figures. Plain grids: two
    // tables side by side in a scroll area drew their headers only.
    egui::ScrollArea::vertical()
        .id_salt("usage_scroll")
        .min_scrolled_height(0.0)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.horizontal_top(|ui| {
                egui::Grid::new("usage_days")
                    .with_row_color(marks.row_color())
                    .min_row_height(theme::ROW_HEIGHT)
                    .min_col_width(theme::DAY_COLUMN_WIDTH)
                    .show(ui, |ui| {
                        ui.strong("Day");
                        ui.end_row();
                        for (k, r) in rows.iter().enumerate() {
                            // Selected while marked; a click moves the
                            // cursor to the day, as a click on its bar.
                            let day = ui
                                .selectable_label(
                                    marks.marked(k),
                                    format::format_in_zone(r.date.0, false, "%Y-%m-%d"),
                                )
                                .on_hover_text("Move the cursor to this day");
                            if day.clicked() {
                                let start = r.date.0.div_euclid(SECS_PER_DAY) * SECS_PER_DAY;
                                actions.push(TimelineAction::SeekTo(start).into());
                            }
                            if marks.scroll_to == Some(k) {
                                day.scroll_to_me(Some(egui::Align::Center));
                            }
                            ui.end_row();
                        }
                    });
                egui::ScrollArea::horizontal()
                    .id_salt("usage_figures")
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        egui::Grid::new("usage_table")
                            .with_row_color(marks.row_color())
                            .min_row_height(theme::ROW_HEIGHT)
                            .min_col_width(70.0)
                            .show(ui, |ui| {
                                for c in COLUMNS {
                                    ui.strong(c.header(units));
                                }
                                ui.end_row();
                                for r in rows {
                                    for c in COLUMNS {
                                        ui.label((c.cell)(r, units));
                                    }
                                    ui.end_row();
                                }
                            });
                    });
            });
        });
}
