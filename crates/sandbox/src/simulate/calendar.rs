//! Which days a machine works: weekdays, weekends now and then, and the
//! lay-ups in which it neither works nor reports.

use super::machine::{FIRST_ID, Machine, hash3, unit};

/// Monday = 0 .. Sunday = 6 (1970-01-01 was a Thursday).
pub(crate) fn weekday(day: i64) -> i64 {
    (day + 3).rem_euclid(7)
}

/// A machine laid up (in the workshop, between jobs) neither works nor
/// reports: its unit is off. One machine in eight is, 5 days in every 21,
/// the turns staggered by 3 days, so on any day of a 60-machine fleet some
/// machine has been silent for more than a day.
const LAYUP_PERIOD_DAYS: i64 = 21;
const LAYUP_DAYS: i64 = 5;
const LAYUP_ONE_IN: i64 = 8;

impl Machine {
    /// Whether the machine is laid up on `day`: no work, no row of any kind.
    pub fn is_laid_up(&self, day: i64) -> bool {
        let index = self.id - FIRST_ID;
        if day < self.commissioned_day || index.rem_euclid(LAYUP_ONE_IN) != 3 {
            return false;
        }
        let turn = index / LAYUP_ONE_IN;
        (day + 3 * turn).rem_euclid(LAYUP_PERIOD_DAYS) < LAYUP_DAYS
    }

    /// Whether the machine works on `day` at all. Tuesdays always do unless
    /// laid up, so a search back for the last working day ends within a
    /// week and a lay-up.
    pub fn is_working_day(&self, day: i64) -> bool {
        if day < self.commissioned_day || self.is_laid_up(day) {
            return false;
        }
        let u = unit(hash3(self.seed, day as u64, 0xDA7));
        match weekday(day) {
            1 => true,
            0 | 2..=4 => u < 0.93,
            5 => u < 0.3,
            _ => u < 0.05,
        }
    }

    /// The last working day before `day`, within a week and a lay-up, if
    /// any.
    pub(crate) fn previous_working_day(&self, day: i64) -> Option<i64> {
        (1..=7 + LAYUP_DAYS)
            .map(|back| day - back)
            .take_while(|d| *d >= self.commissioned_day)
            .find(|d| self.is_working_day(*d))
    }
}
