//! The client against the stub: every fixture decodes, with its instants
//! to the millisecond and its placeholders unknown.

use super::*;

use fleetview_api::model::EquipmentSummary;
use fleetview_api::{ApiClient, ClientConfig, DataKind, SeriesSource};
use fleetview_core::series::decode_envelope;

fn client(stub: &Stub) -> ApiClient {
    ApiClient::new(ClientConfig::new(stub.base.clone()).token("any token")).expect("a client")
}

#[tokio::test]
async fn typed_rows_keep_their_milliseconds_and_read_placeholders_as_unknown() {
    let stub = stub().await;
    let c = client(&stub);

    let faults = c.faults(ID, day()).await.expect("faults").rows;
    assert_eq!(faults[0].date.to_string(), "2025-08-20T09:48:10.721Z");
    assert_eq!(
        (faults[0].severity, faults[0].level()),
        (None, "unknown"),
        "a severity and a level `missing` are unknown"
    );
    assert_eq!(faults[1].date.to_string(), "2025-08-20T10:00:00Z");
    assert_eq!((faults[1].severity, faults[1].level()), (Some(2), "error"));

    let positions = c.positions(ID, day()).await.expect("positions").rows;
    let dates: Vec<String> = positions.iter().map(|p| p.date.to_string()).collect();
    assert_eq!(
        dates[1..],
        [
            "2025-08-20T06:30:00.125Z",
            "2025-08-20T09:48:10.721Z",
            "2025-08-20T10:00:00Z"
        ]
    );

    let activity = &c.activities(ID, day()).await.expect("activities").rows[0];
    assert_eq!(
        (
            activity.date_start.to_string(),
            activity.date_stop.to_string()
        ),
        (
            "2025-08-20T06:30:00.125Z".to_owned(),
            "2025-08-20T10:00:00Z".to_owned()
        )
    );
    assert_eq!(stub.hits(&format!("/v2/fleet/equipments/{ID}/faults")), 1);
}

#[tokio::test]
async fn a_kinds_rows_decode_into_channels_with_their_milliseconds() {
    let stub = stub().await;
    let body = client(&stub)
        .series_body(
            ID,
            SeriesSource::Kind(DataKind::CumulativeOperatingHours),
            day(),
        )
        .await
        .expect("a body");
    let (info, s) = decode_envelope(&body).expect("decodes");
    assert_eq!(info.total, Some(4));
    assert_eq!(s.skipped_rows, 1, "the placeholder-dated row");
    let dates: Vec<String> = (0..s.len()).map(|i| s.instant(i).to_string()).collect();
    assert_eq!(
        dates,
        [
            "2025-08-20T06:30:00Z",
            "2025-08-20T09:48:10.721Z",
            "2025-08-20T10:00:00Z"
        ]
    );
    let hour = s.channel("hour").expect("hour");
    assert_eq!(hour.values, vec![1519.25, 1520.5, 1520.75]);
    assert!(s.channel("usageHours").is_some());
}

#[tokio::test]
async fn the_fleets_identities_and_snapshots_read_placeholders_as_unknown() {
    let stub = stub().await;
    let c = client(&stub);
    let page = c.equipments_page("", 50, 0).await.expect("a page");
    let list: Vec<EquipmentSummary> = page.rows.into_iter().map(EquipmentSummary::from).collect();
    assert_eq!(
        (list[0].name.as_str(), list[0].model.as_str()),
        ("EX-7", "")
    );
    assert_eq!((list[1].category.as_deref(), list[1].year), (None, None));

    // The deprecated list, through the client: the same placeholders.
    let history = c.fleet_history_page(day(), 50, 0).await.expect("a page");
    let from_history: Vec<EquipmentSummary> = history
        .rows
        .into_iter()
        .map(EquipmentSummary::from)
        .collect();
    assert_eq!(
        (
            from_history[0].make.as_str(),
            from_history[0].model.as_str()
        ),
        ("Volvo", "")
    );

    let snaps = c.snapshots_page("", 50, 0).await.expect("snapshots");
    let (ex, wl) = (&snaps.rows[0], &snaps.rows[1]);
    let op = ex.cumulative_operating_hours.as_ref().expect("operating");
    assert_eq!(
        (op.hour, op.date.map(|d| d.to_string())),
        (Some(1520.75), Some("2025-08-20T10:00:00Z".to_owned()))
    );
    assert_eq!(
        ex.cumulative_idle_hours.as_ref().and_then(|h| h.hours),
        Some(310.25)
    );
    let pto = ex.cumulative_power_take_off_hours.as_ref().expect("PTO");
    assert_eq!(pto.date, None, "a placeholder date is unknown");
    assert_eq!(
        ex.cumulative_fuel_used.as_ref().and_then(|f| f.fuel_used),
        Some(12515.5)
    );
    // `hours` where `hour` is expected, and the other way round.
    let op = wl.cumulative_operating_hours.as_ref().expect("operating");
    assert_eq!(op.hour, Some(8120.0));
    assert_eq!(
        op.date.map(|d| d.to_string()).as_deref(),
        Some("2025-08-19T17:02:44.090Z")
    );
    assert_eq!(
        wl.cumulative_active_regeneration_hours
            .as_ref()
            .and_then(|h| h.hours),
        Some(96.5)
    );
}
