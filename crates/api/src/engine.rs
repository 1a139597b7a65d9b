//! The engine's starts and stops (D10). The service's `engineCondition`
//! rows carry a `running` flag that reads the wrong way round: `true` marks
//! the engine going from running to *stopped*, `false` from stopped to
//! *started*. The flag is turned into an [`EngineEvent`] here, as a row is
//! decoded, and back only as a row is encoded, so no reader ever sees it and
//! the rule is written once.

use serde::{Deserialize, Serialize};

use super::time::Timestamp;

/// What an engine condition row means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineEvent {
    Started,
    Stopped,
}

impl EngineEvent {
    /// Reads the service's `running` flag (D10: `true` is a stop). Also for
    /// readers of the flag as a plotted column (D7), whose values are the
    /// flag as sent.
    pub const fn from_running_flag(running: bool) -> Self {
        if running {
            EngineEvent::Stopped
        } else {
            EngineEvent::Started
        }
    }

    /// The flag the service sends for this event: the inverse of
    /// [`EngineEvent::from_running_flag`].
    pub const fn running_flag(self) -> bool {
        matches!(self, EngineEvent::Stopped)
    }

    pub const fn label(self) -> &'static str {
        match self {
            EngineEvent::Started => "started",
            EngineEvent::Stopped => "stopped",
        }
    }
}

/// Engine condition row: the engine started or stopped at `date`. On the
/// wire it is `{"running": bool, "date": ...}`, the flag read per D10.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineConditionRow {
    /// Private so the only way in and out is through the D10 rule.
    #[serde(rename = "running", with = "running_flag")]
    event: EngineEvent,
    pub date: Timestamp,
}

impl EngineConditionRow {
    pub fn new(event: EngineEvent, date: Timestamp) -> Self {
        Self { event, date }
    }

    /// The engine started at `secs`.
    pub fn started_at(secs: i64) -> Self {
        Self::new(EngineEvent::Started, Timestamp::from_secs(secs))
    }

    /// The engine stopped at `secs`.
    pub fn stopped_at(secs: i64) -> Self {
        Self::new(EngineEvent::Stopped, Timestamp::from_secs(secs))
    }

    pub fn event(&self) -> EngineEvent {
        self.event
    }

    pub fn is_start(&self) -> bool {
        self.event == EngineEvent::Started
    }

    pub fn is_stop(&self) -> bool {
        self.event == EngineEvent::Stopped
    }
}

/// The `running` member as serde reads and writes it: a plain boolean on
/// the wire, an [`EngineEvent`] in the row.
mod running_flag {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::EngineEvent;

    pub(crate) fn serialize<S: Serializer>(event: &EngineEvent, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(event.running_flag())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<EngineEvent, D::Error> {
        bool::deserialize(d).map(EngineEvent::from_running_flag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn running_true_decodes_as_a_stop_and_false_as_a_start() {
        let stopped: EngineConditionRow =
            serde_json::from_value(json!({"running": true, "date": "1970-01-01T00:00:00Z"}))
                .expect("decodes");
        let started: EngineConditionRow =
            serde_json::from_value(json!({"running": false, "date": "1970-01-01T00:00:00Z"}))
                .expect("decodes");
        assert_eq!(stopped, EngineConditionRow::stopped_at(0));
        assert_eq!(started, EngineConditionRow::started_at(0));
        assert_eq!(stopped.event(), EngineEvent::Stopped);
        assert_eq!(started.event(), EngineEvent::Started);
        assert!(stopped.is_stop() && !stopped.is_start());
        assert!(started.is_start() && !started.is_stop());
        assert_eq!(stopped.event().label(), "stopped");
    }

    #[test]
    fn a_stop_encodes_as_running_true_and_a_start_as_false() {
        let stop = serde_json::to_string(&EngineConditionRow::stopped_at(0)).unwrap_or_default();
        let start = serde_json::to_string(&EngineConditionRow::started_at(0)).unwrap_or_default();
        let date = serde_json::to_string(&Timestamp::from_secs(0)).unwrap_or_default();
        assert_eq!(stop, format!(r#"{{"running":true,"date":{date}}}"#));
        assert_eq!(start, format!(r#"{{"running":false,"date":{date}}}"#));
        assert!(EngineEvent::Stopped.running_flag());
        assert!(!EngineEvent::Started.running_flag());
    }

    #[test]
    fn the_flag_goes_round_both_ways() {
        for running in [true, false] {
            assert_eq!(
                EngineEvent::from_running_flag(running).running_flag(),
                running
            );
        }
        for event in [EngineEvent::Started, EngineEvent::Stopped] {
            let row = EngineConditionRow::new(event, Timestamp::from_secs(90));
            let wire = serde_json::to_value(&row).unwrap_or_default();
            assert_eq!(wire["running"], json!(event.running_flag()));
            let back: EngineConditionRow = serde_json::from_value(wire).expect("decodes");
            assert_eq!(back, row);
        }
    }

    #[test]
    fn a_flag_that_is_not_a_boolean_is_not_a_row() {
        let odd = json!({"running": "yes", "date": "1970-01-01T00:00:00Z"});
        assert!(serde_json::from_value::<EngineConditionRow>(odd).is_err());
    }
}
