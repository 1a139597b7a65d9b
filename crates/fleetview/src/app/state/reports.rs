//! A report asked for from a page: the fleet's over the Fleet page's
//! window (its machines, their last reports from the snapshots), or the
//! machine open's over its window, with the figures' settings (expected
//! hours, working hours, tank) and the units shown. The worker asks where
//! to save, reads and writes; the page goes on meanwhile.

use super::AppState;
use crate::app::exports::{ReportAsk, report_file_name};
use fleetview_api::model::EquipmentSummary;
use fleetview_core::analysis::{UnitSystem, last_report};
use fleetview_core::report::ReportFormat;
use fleetview_core::worker::{Command, ReportJob, ReportMachine, ReportPlace, ReportScope};

impl AppState {
    pub(super) fn report(&mut self, ask: ReportAsk) -> Vec<Command> {
        let (scope, window, who) = if ask.fleet {
            let window = self
                .overview
                .window
                .unwrap_or_else(|| self.selected_window());
            let machines = self
                .fleet
                .equipments
                .iter()
                .map(|e| self.report_machine(e))
                .collect();
            let scope = ReportScope::Fleet {
                machines,
                last_reports_known: !self.overview.snapshots.is_empty(),
            };
            (scope, window, None)
        } else {
            let Some(id) = self.machine.selected else {
                return Vec::new();
            };
            let listed = self.fleet.equipments.iter().find(|e| e.id == id);
            let machine = match listed {
                Some(e) => self.report_machine(e),
                None => ReportMachine {
                    equipment: id,
                    ..ReportMachine::default()
                },
            };
            let name = listed.map(|e| e.name.clone()).filter(|n| !n.is_empty());
            let scope = ReportScope::Machine {
                machine,
                tank_l: self.figures.tank_l(id),
            };
            (scope, self.shown_or_selected_window(), Some((id, name)))
        };
        let who = who.as_ref().map(|(id, name)| (*id, name.as_deref()));
        let offline = self.conn.offline.is_some() || self.conn.needs_secret();
        self.exports.start_report(ReportJob {
            scope,
            window,
            expected: self.figures.expected,
            now: self.now(),
            working_hours: self.figures.working_hours,
            format: ask.format,
            // JSON is for scripts, which read fixed keys: metric, whatever
            // the Units menu shows (the command line's `--units` asks).
            units: match ask.format {
                ReportFormat::Json | ReportFormat::EventsJson => UnitSystem::Metric,
                _ => self.units,
            },
            // The strip's setting: the report and the strip agree.
            idle_threshold_percent: f64::from(
                self.overview.settings.attention.idle_threshold_percent,
            ),
            offline,
            place: ReportPlace::Saved {
                file_name: report_file_name(who, window, ask.format.extension()),
                directory: None,
                fallback_directory: None,
            },
            notes: Vec::new(),
        })
    }

    /// A machine of the list, with its last report as its snapshot says.
    fn report_machine(&self, e: &EquipmentSummary) -> ReportMachine {
        let known = |s: &str| (!s.trim().is_empty()).then(|| s.to_owned());
        ReportMachine {
            equipment: e.id,
            name: known(&e.name),
            category: e.category.clone(),
            make: known(&e.make),
            model: known(&e.model),
            last_report: self.overview.snapshots.get(&e.id).and_then(last_report),
        }
    }
}
