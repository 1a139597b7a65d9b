//! Serde types for every resource and body of the service, named exactly as
//! in `fleet-service.md`. Fields the description marks nullable are `Option`.
//! Daily-usage members are `Option` with a default as well: a service that
//! leaves one out should not make the whole day undecodable. Over 700
//! lines because of its tests, which hold the wire names to the contract.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use super::placeholder::known_text;
pub use super::time::Timestamp;

// ---------------------------------------------------------------- envelope

/// `{ data: ... }`, the shape of every 200 read response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope<T> {
    pub data: T,
}

/// The common time-series envelope of the single-equipment endpoints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesData<R> {
    pub total: i64,
    pub rows: Vec<R>,
    pub id: i64,
    pub serial_number: String,
    pub since: Timestamp,
    pub until: Timestamp,
}

/// `{ total, rows[] }`, a sub-object of the history responses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page<R> {
    pub total: i64,
    pub rows: Vec<R>,
}

impl<R> Page<R> {
    pub fn of(rows: Vec<R>) -> Self {
        Self {
            total: rows.len() as i64,
            rows,
        }
    }
}

// ------------------------------------------------------------------- rows

/// `/activities` row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityRow {
    pub date_start: Timestamp,
    pub date_stop: Timestamp,
    pub distance_meters: f64,
    #[serde(rename = "averageSpeedKmH")]
    pub average_speed_km_h: f64,
    pub first_position_address: String,
    pub last_position_address: String,
}

/// `/faults` row. `severity` and `levelLabel` are documented as nullable in
/// `/history`; they are kept nullable here too so one odd fault does not fail
/// the whole response (D9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FaultRow {
    pub date: Timestamp,
    pub description: String,
    pub identifier: String,
    #[serde(default, deserialize_with = "super::placeholder::severity")]
    pub severity: Option<i64>,
    pub level_label: Option<String>,
}

impl FaultRow {
    /// The level label as shown: a missing, blank or placeholder one
    /// (`missing`, `n/a`, ...) is `unknown` (D9).
    pub fn level(&self) -> &str {
        self.level_label
            .as_deref()
            .filter(|l| known_text(l).is_some())
            .unwrap_or("unknown")
    }
}

/// `/positions` row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionRow {
    pub date: Timestamp,
    pub latitude: f64,
    pub longitude: f64,
    pub altitude: Option<f64>,
    pub speed: Option<f64>,
    pub heading: Option<f64>,
}

/// `/fuelRemaining` row, the one data-kind shape the description gives; also
/// the row of `fuelRemainings` in the history responses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FuelRemainingRow {
    pub percent: f64,
    pub date: Timestamp,
}

/// `/dailyFuel` row: litres, with `estimated` (usage hours x model rate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyFuelRow {
    pub date: Timestamp,
    pub fuel_used: Option<f64>,
    pub(crate) unit: String,
    pub estimated: bool,
}

/// `/dailyCO2` row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DailyCo2Row {
    pub(crate) date: Timestamp,
    pub weight: f64,
    pub(crate) unit: String,
    pub estimated: bool,
}

/// Position row of the history responses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryPositionRow {
    pub latitude: f64,
    pub longitude: f64,
    pub date: Timestamp,
}

/// Fault row of `/history`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryFaultRow {
    pub level_label: Option<String>,
    #[serde(default, deserialize_with = "super::placeholder::severity")]
    pub severity: Option<i64>,
    pub identifier: String,
    pub description: String,
    pub date: Timestamp,
}

/// Fault row of the deprecated fleet history: no `levelLabel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FleetFaultRow {
    #[serde(default, deserialize_with = "super::placeholder::severity")]
    pub severity: Option<i64>,
    pub identifier: String,
    pub description: String,
    pub date: Timestamp,
}

/// Engine condition row (D10), its `running` flag read as it is decoded.
pub use super::engine::{EngineConditionRow, EngineEvent};

// ------------------------------------------------------------ daily usage

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hours {
    pub hour: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FuelUsed {
    pub fuel_used: Option<f64>,
    pub unit: String,
    pub estimated: Option<bool>,
}

/// `fuelUsed` of the deprecated fleet history: no `estimated`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FleetFuelUsed {
    pub(crate) fuel_used: Option<f64>,
    pub(crate) unit: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Distance {
    pub odometer: Option<f64>,
    pub unit: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CumulativeFuel {
    pub fuel_used: f64,
    pub unit: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CumulativeDistance {
    pub odometer: f64,
    pub unit: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadCount {
    pub count: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Payload {
    pub payload: f64,
    pub payload_unit: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PeakSpeed {
    pub speed: f64,
    pub speed_unit: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Percent {
    pub percent: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DefRemaining {
    pub percent: f64,
    pub tank_capacity: f64,
    pub tank_capacity_unit: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Co2 {
    pub weight: f64,
    pub unit: String,
    pub estimated: Option<bool>,
}

/// Daily usage row of `/history` (and of the `dailyUsages` data kind).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyUsageRow {
    pub date: Timestamp,
    #[serde(default)]
    pub operating_hours: Option<Hours>,
    #[serde(default)]
    pub idle_hours: Option<Hours>,
    #[serde(default)]
    pub working_hours: Option<Hours>,
    #[serde(default)]
    pub fuel_used: Option<FuelUsed>,
    #[serde(default)]
    pub daily_distance: Option<Distance>,
    #[serde(default)]
    pub cumulative_idle_hours: Option<Hours>,
    #[serde(default)]
    pub cumulative_operating_hours: Option<Hours>,
    #[serde(default)]
    pub cumulative_fuel_used: Option<CumulativeFuel>,
    #[serde(default)]
    pub cumulative_distance: Option<CumulativeDistance>,
    #[serde(default)]
    pub cumulative_load_count: Option<LoadCount>,
    #[serde(default)]
    pub cumulative_payload_total: Option<Payload>,
    #[serde(default)]
    pub cumulative_active_regeneration_hours: Option<Hours>,
    #[serde(default)]
    pub cumulative_power_take_off_hours: Option<Hours>,
    #[serde(default)]
    pub peak_daily_speed: Option<PeakSpeed>,
    #[serde(default)]
    pub average_daily_engine_load_factor: Option<Percent>,
    #[serde(default, rename = "DEFRemainingRatio")]
    pub def_remaining_ratio: Option<DefRemaining>,
    #[serde(default)]
    pub co2: Option<Co2>,
}

/// Daily usage row of the deprecated fleet history: no `fuelUsed.estimated`,
/// no `co2`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetDailyUsageRow {
    pub(crate) date: Timestamp,
    #[serde(default)]
    pub(crate) operating_hours: Option<Hours>,
    #[serde(default)]
    pub(crate) idle_hours: Option<Hours>,
    #[serde(default)]
    pub(crate) working_hours: Option<Hours>,
    #[serde(default)]
    pub(crate) fuel_used: Option<FleetFuelUsed>,
    #[serde(default)]
    pub(crate) daily_distance: Option<Distance>,
    #[serde(default)]
    pub(crate) cumulative_idle_hours: Option<Hours>,
    #[serde(default)]
    pub(crate) cumulative_operating_hours: Option<Hours>,
    #[serde(default)]
    pub(crate) cumulative_fuel_used: Option<CumulativeFuel>,
    #[serde(default)]
    pub(crate) cumulative_distance: Option<CumulativeDistance>,
    #[serde(default)]
    pub(crate) cumulative_load_count: Option<LoadCount>,
    #[serde(default)]
    pub(crate) cumulative_payload_total: Option<Payload>,
    #[serde(default)]
    pub(crate) cumulative_active_regeneration_hours: Option<Hours>,
    #[serde(default)]
    pub(crate) cumulative_power_take_off_hours: Option<Hours>,
    #[serde(default)]
    pub(crate) peak_daily_speed: Option<PeakSpeed>,
    #[serde(default)]
    pub(crate) average_daily_engine_load_factor: Option<Percent>,
    #[serde(default, rename = "DEFRemainingRatio")]
    pub(crate) def_remaining_ratio: Option<DefRemaining>,
}

impl From<DailyUsageRow> for FleetDailyUsageRow {
    fn from(r: DailyUsageRow) -> Self {
        Self {
            date: r.date,
            operating_hours: r.operating_hours,
            idle_hours: r.idle_hours,
            working_hours: r.working_hours,
            fuel_used: r.fuel_used.map(|f| FleetFuelUsed {
                fuel_used: f.fuel_used,
                unit: f.unit,
            }),
            daily_distance: r.daily_distance,
            cumulative_idle_hours: r.cumulative_idle_hours,
            cumulative_operating_hours: r.cumulative_operating_hours,
            cumulative_fuel_used: r.cumulative_fuel_used,
            cumulative_distance: r.cumulative_distance,
            cumulative_load_count: r.cumulative_load_count,
            cumulative_payload_total: r.cumulative_payload_total,
            cumulative_active_regeneration_hours: r.cumulative_active_regeneration_hours,
            cumulative_power_take_off_hours: r.cumulative_power_take_off_hours,
            peak_daily_speed: r.peak_daily_speed,
            average_daily_engine_load_factor: r.average_daily_engine_load_factor,
            def_remaining_ratio: r.def_remaining_ratio,
        }
    }
}

// ---------------------------------------------------------------- history

/// `data` of `/v2/fleet/equipments/{id}/history`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EquipmentHistory {
    pub id: i64,
    pub name: String,
    pub make: String,
    pub model: String,
    pub serial_number: String,
    #[serde(default)]
    pub pin: Option<String>,
    #[serde(default)]
    pub vin: Option<String>,
    pub positions: Page<HistoryPositionRow>,
    pub fault_codes: Page<HistoryFaultRow>,
    pub fuel_remainings: Page<FuelRemainingRow>,
    pub engine_conditions: Page<EngineConditionRow>,
    pub daily_usages: Page<DailyUsageRow>,
}

/// `data` of the deprecated `/v2/fleet/equipments/history`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FleetHistory {
    pub total: i32,
    pub since: Timestamp,
    pub until: Timestamp,
    pub rows: Vec<FleetEquipment>,
}

/// One equipment of the deprecated fleet history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetEquipment {
    pub id: i64,
    pub name: String,
    pub make: String,
    pub model: String,
    pub serial_number: String,
    pub positions: Page<HistoryPositionRow>,
    pub fault_codes: Page<FleetFaultRow>,
    pub fuel_remainings: Page<FuelRemainingRow>,
    pub engine_conditions: Page<EngineConditionRow>,
    pub daily_usages: Page<FleetDailyUsageRow>,
}

/// One machine of the fleet as the app lists it: its identity, whichever
/// endpoint it was discovered through (D2).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EquipmentSummary {
    pub id: i64,
    pub name: String,
    pub make: String,
    pub model: String,
    pub serial_number: String,
    /// Known only from the equipment list (D2), not the fleet history.
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub year: Option<i32>,
    /// The owning company.
    #[serde(default)]
    pub entreprise: Option<String>,
}

impl EquipmentSummary {
    /// Whether every word of `query` is in the name, make, model or serial.
    pub fn matches(&self, query: &str) -> bool {
        let hay = format!(
            "{} {} {} {} {}",
            self.name, self.make, self.model, self.serial_number, self.id
        )
        .to_lowercase();
        query
            .to_lowercase()
            .split_whitespace()
            .all(|w| hay.contains(w))
    }
}

impl From<FleetEquipment> for EquipmentSummary {
    fn from(e: FleetEquipment) -> Self {
        // A feed's placeholder (a model `missing`) is no identity.
        let known = |s: String| known_text(&s).map(str::to_owned).unwrap_or_default();
        Self {
            id: e.id,
            name: known(e.name),
            make: known(e.make),
            model: known(e.model),
            serial_number: known(e.serial_number),
            category: None,
            year: None,
            entreprise: None,
        }
    }
}

// ---------------------------------------------------------------- catalog

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataSource {
    pub code: String,
    pub label: String,
    pub credentials: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataSourceList {
    pub data_sources: Vec<DataSource>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Integration {
    pub id: i64,
    pub name: String,
    pub data_source_code: String,
    /// Any string the service sends is kept as it comes (D4).
    pub status: String,
}

/// The two statuses D4 defines; others are shown as they come.
pub mod status {
    pub const RUNNING: &str = "running";
    pub const STOPPED: &str = "stopped";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntegrationList {
    pub integrations: Vec<Integration>,
}

/// One credential value. Never printed by `Debug`, wiped from memory on drop.
#[derive(Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SecretValue(Zeroizing<String>);

impl SecretValue {
    pub fn new(value: impl Into<String>) -> Self {
        Self(Zeroizing::new(value.into()))
    }

    /// The value itself; call only where it is sent or stored.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_blank(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl fmt::Debug for SecretValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"[redacted]\"")
    }
}

impl From<&str> for SecretValue {
    fn from(s: &str) -> Self {
        Self::new(s)
    }
}

/// Credential field name -> value, as sent in create and update bodies (D11).
pub type Credentials = BTreeMap<String, SecretValue>;

/// Body of `POST /catalog/integrations`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateIntegration {
    pub integration_credentials: Credentials,
    pub integration_name: String,
    pub data_source_code: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateIntegrationResponse {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integration_id: Option<i64>,
}

/// Body of `PATCH /catalog/integrations/{integrationId}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateIntegration {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integration_credentials: Option<Credentials>,
    pub integration_name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateIntegrationResponse {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integration_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integration_name: Option<String>,
}

/// Response of delete, activate and deactivate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationIdResponse {
    pub integration_id: i64,
}

// ------------------------------------------------------------ auth, errors

/// Every error body (D3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub message: String,
}

/// Body of the sandbox's `POST /auth/login` (D1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoginRequest {
    pub username: String,
    pub password: SecretValue,
}

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoginResponse {
    pub(crate) token: String,
}

impl fmt::Debug for LoginResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoginResponse")
            .field("token", &"[redacted]")
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn activity_row_uses_exact_wire_names() {
        let row = ActivityRow {
            date_start: Timestamp::from_secs(0),
            date_stop: Timestamp::from_secs(60),
            distance_meters: 12.5,
            average_speed_km_h: 0.75,
            first_position_address: "a".into(),
            last_position_address: "b".into(),
        };
        let v = serde_json::to_value(&row).unwrap_or_default();
        assert_eq!(
            v,
            json!({"dateStart":"1970-01-01T00:00:00Z","dateStop":"1970-01-01T00:01:00Z",
                   "distanceMeters":12.5,"averageSpeedKmH":0.75,
                   "firstPositionAddress":"a","lastPositionAddress":"b"})
        );
    }

    #[test]
    fn daily_usage_decodes_the_documented_member_names() {
        let v = json!({
            "date": "2024-01-01T00:00:00Z",
            "operatingHours": {"hour": 7.5}, "idleHours": {"hour": null},
            "workingHours": {"hour": 5.0},
            "fuelUsed": {"fuelUsed": 80.0, "unit": "L", "estimated": null},
            "dailyDistance": {"odometer": null, "unit": "km"},
            "cumulativeIdleHours": {"hour": null}, "cumulativeOperatingHours": {"hour": 100.0},
            "cumulativeFuelUsed": {"fuelUsed": 900.0, "unit": "L"},
            "cumulativeDistance": {"odometer": 12.0, "unit": "km"},
            "cumulativeLoadCount": {"count": null},
            "cumulativePayloadTotal": {"payload": 1.0, "payloadUnit": "t"},
            "cumulativeActiveRegenerationHours": {"hour": 1.0},
            "cumulativePowerTakeOffHours": {"hour": null},
            "peakDailySpeed": {"speed": 12.0, "speedUnit": "km/h"},
            "averageDailyEngineLoadFactor": {"percent": 40.0},
            "DEFRemainingRatio": {"percent": 50.0, "tankCapacity": 40.0, "tankCapacityUnit": "L"},
            "co2": {"weight": 214.4, "unit": "kg", "estimated": true}
        });
        let row: DailyUsageRow = serde_json::from_value(v.clone()).expect("decodes");
        assert_eq!(row.idle_hours, Some(Hours { hour: None }));
        assert_eq!(
            row.def_remaining_ratio.as_ref().map(|d| d.tank_capacity),
            Some(40.0)
        );
        assert_eq!(serde_json::to_value(&row).ok(), Some(v));
        // A missing member is not fatal.
        let sparse: DailyUsageRow =
            serde_json::from_value(json!({"date": "2024-01-01T00:00:00Z"})).expect("decodes");
        assert!(sparse.co2.is_none());
    }

    #[test]
    fn fleet_daily_usage_has_no_estimated_and_no_co2() {
        let row: DailyUsageRow = serde_json::from_value(json!({"date": "2024-01-01T00:00:00Z",
                "fuelUsed": {"fuelUsed": 1.0, "unit": "L", "estimated": true},
                "co2": {"weight": 2.68, "unit": "kg", "estimated": true}}))
        .expect("decodes");
        let fleet = serde_json::to_value(FleetDailyUsageRow::from(row)).unwrap_or_default();
        assert_eq!(fleet["fuelUsed"], json!({"fuelUsed": 1.0, "unit": "L"}));
        assert!(fleet.get("co2").is_none());
    }

    #[test]
    fn secrets_never_show_in_debug() {
        let mut creds = Credentials::new();
        creds.insert("apiKey".into(), SecretValue::new("hunter2-very-secret"));
        let body = CreateIntegration {
            integration_credentials: creds,
            integration_name: "n".into(),
            data_source_code: "X".into(),
        };
        let debug = format!("{body:?}");
        assert!(!debug.contains("hunter2"), "{debug}");
        assert!(debug.contains("apiKey"));
        // It is still sent on the wire.
        let json = serde_json::to_string(&body).unwrap_or_default();
        assert!(json.contains("\"integrationCredentials\":{\"apiKey\":\"hunter2-very-secret\"}"));
        let login = LoginResponse {
            token: "eyJsecret".into(),
        };
        assert!(!format!("{login:?}").contains("eyJ"));
    }

    #[test]
    fn optional_response_fields_may_be_absent() {
        let r: CreateIntegrationResponse = serde_json::from_str("{}").expect("decodes");
        assert_eq!(r.integration_id, None);
        let r: UpdateIntegrationResponse =
            serde_json::from_str(r#"{"integrationId":3}"#).expect("decodes");
        assert_eq!(r.integration_id, Some(3));
    }
}
