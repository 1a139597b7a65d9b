//! Daily history: the machine's identity, its daily usage with every member
//! (units shown, estimated values marked, nulls as a dash), and its engine
//! events, read per D10 (`running: true` is a stop).

use egui_extras::{Column, TableBuilder};

use super::theme;
use crate::api::model::{DailyUsageRow, EngineEvent, EquipmentHistory, Hours};
use crate::app::{Action, AppState};
use crate::export::shown::ExportContent;

/// A daily usage column: its header and how to read a cell.
struct UsageColumn {
    title: &'static str,
    cell: fn(&DailyUsageRow) -> String,
}

fn hours(h: &Option<Hours>) -> String {
    theme::number(h.as_ref().and_then(|h| h.hour), 2)
}

/// `12.50 (est.)` when the value was estimated.
fn with_estimate(value: Option<f64>, estimated: Option<bool>) -> String {
    let v = theme::number(value, 2);
    if estimated == Some(true) && v != theme::NULL {
        format!("{v} (est.)")
    } else {
        v
    }
}

const COLUMNS: &[UsageColumn] = &[
    UsageColumn {
        title: "Operating (h)",
        cell: |r| hours(&r.operating_hours),
    },
    UsageColumn {
        title: "Idle (h)",
        cell: |r| hours(&r.idle_hours),
    },
    UsageColumn {
        title: "Working (h)",
        cell: |r| hours(&r.working_hours),
    },
    UsageColumn {
        title: "Fuel (L)",
        cell: |r| {
            with_estimate(
                r.fuel_used.as_ref().and_then(|f| f.fuel_used),
                r.fuel_used.as_ref().and_then(|f| f.estimated),
            )
        },
    },
    UsageColumn {
        title: "Distance (km)",
        cell: |r| theme::number(r.daily_distance.as_ref().and_then(|d| d.odometer), 2),
    },
    UsageColumn {
        title: "Peak speed (km/h)",
        cell: |r| theme::number(r.peak_daily_speed.as_ref().map(|s| s.speed), 1),
    },
    UsageColumn {
        title: "Load factor (%)",
        cell: |r| {
            theme::number(
                r.average_daily_engine_load_factor
                    .as_ref()
                    .map(|p| p.percent),
                1,
            )
        },
    },
    UsageColumn {
        title: "CO2 (kg)",
        cell: |r| {
            with_estimate(
                r.co2.as_ref().map(|c| c.weight),
                r.co2.as_ref().and_then(|c| c.estimated),
            )
        },
    },
    UsageColumn {
        title: "DEF (%)",
        cell: |r| match &r.def_remaining_ratio {
            Some(d) if d.tank_capacity > 0.0 => format!(
                "{} of {} {}",
                theme::number(Some(d.percent), 1),
                d.tank_capacity,
                d.tank_capacity_unit
            ),
            _ => theme::NULL.to_owned(),
        },
    },
    UsageColumn {
        title: "Total operating (h)",
        cell: |r| hours(&r.cumulative_operating_hours),
    },
    UsageColumn {
        title: "Total idle (h)",
        cell: |r| hours(&r.cumulative_idle_hours),
    },
    UsageColumn {
        title: "Total fuel (L)",
        cell: |r| theme::number(r.cumulative_fuel_used.as_ref().map(|f| f.fuel_used), 2),
    },
    UsageColumn {
        title: "Total distance (km)",
        cell: |r| theme::number(r.cumulative_distance.as_ref().map(|d| d.odometer), 2),
    },
    UsageColumn {
        title: "Total loads",
        cell: |r| {
            r.cumulative_load_count
                .as_ref()
                .and_then(|c| c.count)
                .map_or_else(|| theme::NULL.to_owned(), |c| c.to_string())
        },
    },
    UsageColumn {
        title: "Total payload (t)",
        cell: |r| theme::number(r.cumulative_payload_total.as_ref().map(|p| p.payload), 2),
    },
    UsageColumn {
        title: "Regeneration (h)",
        cell: |r| hours(&r.cumulative_active_regeneration_hours),
    },
    UsageColumn {
        title: "Power take-off (h)",
        cell: |r| hours(&r.cumulative_power_take_off_hours),
    },
];

pub fn history_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    if let Some(e) = state.machine.history.error() {
        ui.colored_label(theme::ERROR, e);
    }
    let Some(h) = state.machine.history.value() else {
        if state.machine.history.is_pending() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Loading the daily history");
            });
        }
        return;
    };
    identity_ui(ui, h);
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("history_scroll")
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.strong(format!("Daily usage ({} days)", h.daily_usages.rows.len()));
                if ui
                    .add_enabled(
                        !h.daily_usages.rows.is_empty(),
                        egui::Button::new("Export daily history (CSV)…"),
                    )
                    .clicked()
                {
                    actions.push(Action::Export(ExportContent::DailyHistory(h.clone())));
                }
            });
            usage_table_ui(ui, &h.daily_usages.rows, state.local_time);
            ui.add_space(theme::GAP * 2.0);
            ui.strong(format!(
                "Engine events ({})",
                h.engine_conditions.rows.len()
            ));
            for e in &h.engine_conditions.rows {
                let event = e.event();
                ui.horizontal(|ui| {
                    ui.label(theme::format_time(e.date.0, state.local_time));
                    let color = if event == EngineEvent::Started {
                        theme::INFO
                    } else {
                        theme::UNKNOWN
                    };
                    ui.colored_label(color, event.label());
                });
            }
        });
}

fn identity_ui(ui: &mut egui::Ui, h: &EquipmentHistory) {
    egui::Grid::new("identity")
        .num_columns(4)
        .spacing([24.0, 4.0])
        .show(ui, |ui| {
            let or_dash = |s: &Option<String>| {
                s.clone()
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| theme::NULL.to_owned())
            };
            ui.label("Name");
            ui.strong(&h.name);
            ui.label("Serial number");
            ui.strong(&h.serial_number);
            ui.end_row();
            ui.label("Make");
            ui.strong(&h.make);
            ui.label("PIN");
            ui.strong(or_dash(&h.pin));
            ui.end_row();
            ui.label("Model");
            ui.strong(&h.model);
            ui.label("VIN");
            ui.strong(or_dash(&h.vin));
            ui.end_row();
        });
}

fn usage_table_ui(ui: &mut egui::Ui, rows: &[DailyUsageRow], local: bool) {
    if rows.is_empty() {
        ui.label("No daily usage in this window.");
        return;
    }
    egui::ScrollArea::horizontal()
        .id_salt("usage_scroll")
        .show(ui, |ui| {
            TableBuilder::new(ui)
                .id_salt("usage_table")
                .striped(true)
                .vscroll(false)
                .column(Column::auto().at_least(90.0))
                .columns(Column::auto().at_least(70.0), COLUMNS.len())
                .header(theme::ROW_HEIGHT, |mut header| {
                    header.col(|ui| {
                        ui.strong("Day");
                    });
                    for c in COLUMNS {
                        header.col(|ui| {
                            ui.strong(c.title);
                        });
                    }
                })
                .body(|body| {
                    body.rows(theme::ROW_HEIGHT, rows.len(), |mut row| {
                        let r = &rows[row.index()];
                        row.col(|ui| {
                            let day = theme::format_time(r.date.0, local);
                            ui.label(day.split(' ').next().unwrap_or_default());
                        });
                        for c in COLUMNS {
                            row.col(|ui| {
                                ui.label((c.cell)(r));
                            });
                        }
                    });
                });
        });
}
