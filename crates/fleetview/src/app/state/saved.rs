//! The settings saved between runs: restored at start, gathered to save.

use super::AppState;
use crate::app::settings::{Settings, Tab, TimesIn};
use crate::app::timeline::Replay;

impl AppState {
    /// Restores settings; the selection only when it was made on this same
    /// service.
    pub fn restore(&mut self, s: Settings) {
        self.map = s.map;
        self.panes = s.panes;
        self.timeline.replay = Replay {
            playing: false,
            ..s.replay
        };
        if let Some(kinds) = s.plot_kinds {
            self.timeline.plot_kinds = kinds;
        }
        self.overview.settings = s.overview;
        self.figures.expected = s.expected;
        self.figures.working_hours = s.working_hours;
        self.figures.tanks_l = s.tanks_l.into_iter().collect();
        self.theme = s.theme;
        self.units = s.units;
        if let Some(p) = s.service_soon_percent {
            let _ = self
                .service
                .on_action(crate::app::ServiceAction::SetSoonPercent(p));
        }
        self.overview.mark_dirty();
        self.conn.profiles = s.profiles;
        self.conn.active_profile = s.active_profile.filter(|i| *i < self.conn.profiles.len());
        let current = &self.conn.current;
        let here = (!current.embedded).then(|| current.base_url.clone());
        if s.base_url != here {
            return;
        }
        self.machine.selected = s.selected;
        self.machine.recent = s.recent;
        self.fleet.remember(s.names);
        self.machine.preset = s.preset;
        // A window saved by an older version may be longer than the cap.
        self.machine.custom_days = crate::app::machine::capped_custom_days(s.custom_days);
        if s.tab.is_machine_tab() {
            self.machine_tab = s.tab;
        }
        // The page left, if it can show: a machine's page needs the
        // machine.
        self.tab = match s.page {
            Some(Tab::Catalog) => Tab::Catalog,
            Some(t) if t.is_machine_tab() && self.machine.selected.is_some() => t,
            _ => Tab::Fleet,
        };
        self.times_in = s.times_in.unwrap_or(if s.local_time {
            TimesIn::Computer
        } else {
            TimesIn::Utc
        });
    }

    pub fn settings(&self) -> Settings {
        let current = &self.conn.current;
        Settings {
            base_url: (!current.embedded).then(|| current.base_url.clone()),
            profiles: self.conn.profiles.clone(),
            active_profile: self.conn.active_profile,
            selected: self.machine.selected,
            recent: self.machine.recent.clone(),
            names: self
                .machine
                .selected
                .iter()
                .chain(&self.machine.recent)
                .filter_map(|id| Some((*id, self.fleet.known_name(*id)?.to_owned())))
                .collect(),
            preset: self.machine.preset,
            custom_days: self.machine.custom_days,
            tab: self.machine_tab,
            local_time: self.times_in == TimesIn::Computer,
            times_in: Some(self.times_in),
            overview: self.overview.settings.clone(),
            plot_kinds: Some(self.timeline.plot_kinds.clone()),
            map: self.map.clone(),
            replay: self.timeline.replay,
            expected: self.figures.expected,
            working_hours: self.figures.working_hours,
            tanks_l: self.figures.tanks_l.iter().map(|(k, v)| (*k, *v)).collect(),
            theme: self.theme,
            units: self.units,
            page: Some(self.tab),
            panes: self.panes,
            service_soon_percent: Some(self.service.soon_percent()),
        }
    }
}
