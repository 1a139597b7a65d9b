//! What the real service adds to `fleet-service.md` (D1, D2): the API-key
//! login and its answer, the fleet's identities (`/v2/fleet/equipments`,
//! `/{id}`) and their snapshots (`/snapshot`, `/{id}/snapshot`), named as
//! its public reference names them. Members are lenient as real rows are:
//! `hour` and `hours` are both read, a reading may be a number or a nested
//! `{value, unit}`, and AEMP placeholders (a year-1 date, a model `missing`)
//! are read as unknown.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::model::{EquipmentSummary, SecretValue};
use super::placeholder::{is_placeholder_date, known_text};
use super::time::Timestamp;

// ------------------------------------------------------------------ login

/// Body of `POST /login` (D1): an API key's name and the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ApiKeyLogin {
    pub(crate) name: String,
    pub(crate) api_key: SecretValue,
}

/// Answer of `POST /login` (and of the sandbox's `/auth/login`): who logged
/// in, and the token. Only `token` is required, so an answer with less
/// still logs in.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoginAnswer {
    #[serde(
        default,
        deserialize_with = "lenient_id",
        serialize_with = "numeric_id"
    )]
    pub id: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub admin: Option<bool>,
    #[serde(default)]
    pub first_name: Option<String>,
    #[serde(default)]
    pub last_name: Option<String>,
    pub token: String,
}

impl fmt::Debug for LoginAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoginAnswer")
            .field("id", &self.id)
            .field("email", &self.email)
            .field("admin", &self.admin)
            .field("first_name", &self.first_name)
            .field("last_name", &self.last_name)
            .field("token", &"[redacted]")
            .finish()
    }
}

impl LoginAnswer {
    /// Who is logged in, without the token.
    pub fn user(&self) -> UserInfo {
        let name = [&self.first_name, &self.last_name]
            .into_iter()
            .flatten()
            .filter_map(|s| known_text(s))
            .collect::<Vec<_>>()
            .join(" ");
        UserInfo {
            name: (!name.is_empty()).then_some(name),
            email: self
                .email
                .as_deref()
                .and_then(known_text)
                .map(str::to_owned),
        }
    }
}

/// The person an API key belongs to, as the login answered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserInfo {
    pub name: Option<String>,
    pub email: Option<String>,
}

impl UserInfo {
    /// "First Last <e-mail>", or what is known of it.
    pub fn label(&self) -> Option<String> {
        match (&self.name, &self.email) {
            (Some(n), Some(e)) => Some(format!("{n} <{e}>")),
            (Some(n), None) => Some(n.clone()),
            (None, Some(e)) => Some(e.clone()),
            (None, None) => None,
        }
    }
}

fn lenient_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Option::<serde_json::Value>::deserialize(d)? {
        Some(serde_json::Value::String(s)) => Some(s),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        _ => None,
    })
}

/// An id is written as a number when it is one, as the service writes it.
fn numeric_id<S: Serializer>(id: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    match id.as_deref() {
        Some(i) => match i.parse::<i64>() {
            Ok(n) => s.serialize_i64(n),
            Err(_) => s.serialize_str(i),
        },
        None => s.serialize_none(),
    }
}

// --------------------------------------------------------------- identity

/// One machine of `GET /v2/fleet/equipments` (and `/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EquipmentRecord {
    pub id: i64,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub make: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub serial_number: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub year: Option<i32>,
    /// The owning company (spelled so by the service).
    #[serde(default)]
    pub entreprise: Option<Entreprise>,
}

/// The owning company: a name, or an object with one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Entreprise {
    Name(String),
    Object {
        #[serde(default)]
        name: Option<String>,
    },
}

impl Entreprise {
    pub fn name(&self) -> Option<&str> {
        match self {
            Entreprise::Name(n) => known_text(n),
            Entreprise::Object { name } => name.as_deref().and_then(known_text),
        }
    }
}

fn text(s: &Option<String>) -> String {
    s.as_deref()
        .and_then(known_text)
        .unwrap_or_default()
        .to_owned()
}

impl From<EquipmentRecord> for EquipmentSummary {
    fn from(e: EquipmentRecord) -> Self {
        Self {
            id: e.id,
            name: text(&e.name),
            make: text(&e.make),
            model: text(&e.model),
            serial_number: text(&e.serial_number),
            category: e
                .category
                .as_deref()
                .and_then(known_text)
                .map(str::to_owned),
            // A feed's year 0 is no year.
            year: e.year.filter(|y| *y > 0),
            entreprise: e
                .entreprise
                .as_ref()
                .and_then(Entreprise::name)
                .map(str::to_owned),
        }
    }
}

// --------------------------------------------------------------- snapshot

/// A member's date; a placeholder date is unknown.
fn known_date<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
    Ok(Option::<Timestamp>::deserialize(d)?.filter(|t| !is_placeholder_date(t.0)))
}

/// A reading: a number, or a nested `{value, unit}` (some feeds nest them);
/// anything else is unknown.
fn reading<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(match Option::<serde_json::Value>::deserialize(d)? {
        Some(serde_json::Value::Number(n)) => n.as_f64(),
        Some(serde_json::Value::Object(o)) => o.get("value").and_then(serde_json::Value::as_f64),
        _ => None,
    })
}

macro_rules! snapshot_member {
    ($(#[$doc:meta])* $name:ident { $($field:ident : $wire:literal $(| $alias:literal)?),* $(; $unit:ident : $unit_wire:literal)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
        pub struct $name {
            #[serde(default, deserialize_with = "known_date")]
            pub date: Option<Timestamp>,
            $(
                #[serde(rename = $wire, $(alias = $alias,)? default, deserialize_with = "reading")]
                pub $field: Option<f64>,
            )*
            $(
                #[serde(rename = $unit_wire, default, skip_serializing_if = "Option::is_none")]
                pub $unit: Option<String>,
            )?
        }
    };
}

snapshot_member!(
    /// `lastPosition`.
    SnapPosition { latitude: "latitude", longitude: "longitude" }
);
snapshot_member!(
    /// `fuelRemaining`, `averageDailyEngineLoadFactor`, `DEFRemainingRatio`.
    SnapPercent { percent: "percent" }
);
snapshot_member!(
    /// `cumulativeOperatingHours`: `hour` (sic; `hours` read too).
    SnapOperatingHours { hour: "hour" | "hours", usage_hours: "usageHours" }
);
snapshot_member!(
    /// Idle, regeneration and power-take-off hours: `hours` (`hour` read too).
    SnapHours { hours: "hours" | "hour" }
);
snapshot_member!(
    /// `cumulativeDistance`.
    SnapOdometer { odometer: "odometer"; unit: "unit" }
);
snapshot_member!(
    /// `cumulativeFuelUsed`.
    SnapFuelUsed { fuel_used: "fuelUsed"; unit: "unit" }
);
snapshot_member!(
    /// `cumulativeLoadCount`.
    SnapCount { count: "count" }
);
snapshot_member!(
    /// `cumulativePayloadTotal`.
    SnapPayload { payload: "payload"; payload_unit: "payloadUnit" }
);
snapshot_member!(
    /// `peakDailySpeed`.
    SnapSpeed { speed: "speed"; speed_unit: "speedUnit" }
);

/// The latest value of each data kind of one machine, each with its own
/// date (`/snapshot` rows and `/{id}/snapshot`). A member the machine never
/// reported is absent.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EquipmentSnapshot {
    pub id: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_position: Option<SnapPosition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuel_remaining: Option<SnapPercent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative_operating_hours: Option<SnapOperatingHours>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative_idle_hours: Option<SnapHours>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative_distance: Option<SnapOdometer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative_fuel_used: Option<SnapFuelUsed>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative_load_count: Option<SnapCount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative_payload_total: Option<SnapPayload>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_daily_speed: Option<SnapSpeed>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_daily_engine_load_factor: Option<SnapPercent>,
    #[serde(
        rename = "DEFRemainingRatio",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub def_remaining_ratio: Option<SnapPercent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative_active_regeneration_hours: Option<SnapHours>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative_power_take_off_hours: Option<SnapHours>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Envelope, Page};
    use serde_json::json;

    #[test]
    fn a_login_answer_names_its_user_and_hides_its_token() {
        let a: LoginAnswer = serde_json::from_value(json!({
            "id": 42, "email": "ana@example.com", "admin": false,
            "firstName": "Ana", "lastName": "Silva", "token": "eyJ-secret"
        }))
        .expect("an answer");
        assert_eq!(a.id.as_deref(), Some("42"));
        let written = serde_json::to_value(&a).expect("written");
        assert_eq!(
            written["id"],
            json!(42),
            "a numeric id is written as a number"
        );
        assert_eq!(
            a.user().label().as_deref(),
            Some("Ana Silva <ana@example.com>")
        );
        assert!(!format!("{a:?}").contains("eyJ-secret"));
        let bare: LoginAnswer = serde_json::from_value(json!({"token": "t"})).expect("bare");
        assert_eq!(bare.user().label(), None);
        let body = serde_json::to_value(ApiKeyLogin {
            name: "ci".into(),
            api_key: "k".into(),
        })
        .expect("a body");
        assert_eq!(body, json!({"name": "ci", "apiKey": "k"}));
    }

    #[test]
    fn records_read_placeholders_as_unknown() {
        let page: Envelope<Page<EquipmentRecord>> = serde_json::from_value(json!({"data": {
            "total": 2,
            "rows": [
                {"id": 7, "name": "EX-7", "make": "Volvo", "model": "missing",
                 "serialNumber": "S7", "category": "Excavator", "year": 2019,
                 "entreprise": "Acme Earthworks"},
                {"id": 8, "name": "T-8", "entreprise": {"id": 3, "name": "Beta"}, "year": 0}
            ]
        }}))
        .expect("a page");
        let list: Vec<EquipmentSummary> = page
            .data
            .rows
            .into_iter()
            .map(EquipmentSummary::from)
            .collect();
        assert_eq!(list[0].model, "");
        assert_eq!(list[0].entreprise.as_deref(), Some("Acme Earthworks"));
        assert_eq!(list[0].year, Some(2019));
        assert_eq!(
            (list[1].year, list[1].entreprise.as_deref()),
            (None, Some("Beta"))
        );
        assert_eq!(list[1].make, "");
    }

    #[test]
    fn snapshot_members_read_hour_hours_nested_readings_and_placeholders() {
        let s: EquipmentSnapshot = serde_json::from_value(json!({
            "id": 7,
            "cumulativeOperatingHours": {"date": "2025-08-20T09:48:10.721Z", "hour": 1520.5, "usageHours": 1400.0},
            "cumulativeIdleHours": {"date": "2025-08-20T09:48:10Z", "hours": 310.25},
            "cumulativePowerTakeOffHours": {"date": "2025-08-20T09:48:10Z", "hour": 12.0},
            "fuelRemaining": {"date": "0001-01-01T00:00:00Z", "percent": {"value": 55.0, "unit": "%"}},
            "DEFRemainingRatio": {"date": "2025-08-20T12:00:00+02:00", "percent": 80},
            "lastPosition": {"date": "2025-08-20T09:48:10Z", "latitude": 51.9, "longitude": 4.4}
        }))
        .expect("a snapshot");
        let op = s.cumulative_operating_hours.expect("operating hours");
        assert_eq!((op.hour, op.usage_hours), (Some(1520.5), Some(1400.0)));
        assert_eq!(s.cumulative_idle_hours.and_then(|h| h.hours), Some(310.25));
        assert_eq!(
            s.cumulative_power_take_off_hours.and_then(|h| h.hours),
            Some(12.0)
        );
        let fuel = s.fuel_remaining.expect("fuel");
        assert_eq!((fuel.date, fuel.percent), (None, Some(55.0)));
        let def = s.def_remaining_ratio.expect("DEF");
        assert_eq!(
            def.date.map(|d| d.to_string()).as_deref(),
            Some("2025-08-20T10:00:00Z")
        );
        assert!(s.cumulative_distance.is_none());
        // What the sandbox writes reads back the same.
        let again: EquipmentSnapshot =
            serde_json::from_value(serde_json::to_value(def_only()).expect("json"))
                .expect("read back");
        assert_eq!(again, def_only());
    }

    fn def_only() -> EquipmentSnapshot {
        EquipmentSnapshot {
            id: 1,
            def_remaining_ratio: Some(SnapPercent {
                date: Some(Timestamp::from_secs(1_700_000_000)),
                percent: Some(80.0),
            }),
            ..EquipmentSnapshot::default()
        }
    }
}
