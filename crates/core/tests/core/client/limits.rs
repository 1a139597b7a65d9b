//! D13: windows are cut into chunks the service accepts and merged in
//! order; a window over ten years and an answer over the body cap end
//! in clear errors.

use super::*;
use fleetview_api::fleet::HISTORY_CHUNK_SECS;
use fleetview_api::limits::MAX_EQUIPMENT_WINDOW_SECS;

const DAY: i64 = SECS_PER_DAY;

fn years_back(n: i64) -> TimeWindow {
    TimeWindow {
        since: common::now() - n * 365 * DAY,
        until: common::now(),
    }
}

/// `w` in consecutive windows of `len_secs`, from its start (not the
/// client's grid).
fn pieces(w: TimeWindow, len_secs: i64) -> Vec<TimeWindow> {
    let mut out = Vec::new();
    let mut since = w.since;
    while since <= w.until {
        let until = (since + len_secs - 1).min(w.until);
        out.push(TimeWindow { since, until });
        since = until + 1;
    }
    out
}

#[tokio::test]
async fn three_years_of_history_and_faults_come_in_chunks_equal_to_yearly_requests() {
    let sb = start().await;
    let c = client_for(&sb);
    let id = FIRST_ID;
    let eq = format!("/v2/fleet/equipments/{id}");
    let w = years_back(3);
    let years = pieces(w, 365 * DAY);
    assert_eq!(years.len(), 4, "three years and a day");

    let before = sb.running.request_count();
    let history = c.history(id, w).await.expect("history");
    let requests = sb.running.request_count() - before;
    let chunks = split_window(w, HISTORY_CHUNK_SECS);
    assert!(
        chunks
            .iter()
            .all(|c| c.duration_secs() < MAX_EQUIPMENT_WINDOW_SECS)
    );
    assert_eq!(requests as usize, chunks.len(), "one request per chunk");

    let mut yearly: Vec<EquipmentHistory> = Vec::new();
    for y in &years {
        yearly.push(
            raw::<Envelope<_>>(&sb, &format!("{eq}/history"), *y)
                .await
                .data,
        );
    }
    let first = &yearly[0];
    assert_eq!(
        (
            &history.id,
            &history.name,
            &history.serial_number,
            &history.pin
        ),
        (&first.id, &first.name, &first.serial_number, &first.pin)
    );
    macro_rules! same_page {
        ($field:ident) => {
            let rows: Vec<_> = yearly
                .iter()
                .flat_map(|h| h.$field.rows.iter().cloned())
                .collect();
            assert!(!rows.is_empty(), stringify!($field));
            assert_eq!(history.$field.rows, rows, stringify!($field));
            assert_eq!(history.$field.total, rows.len() as i64);
        };
    }
    same_page!(positions);
    same_page!(fault_codes);
    same_page!(fuel_remainings);
    same_page!(engine_conditions);
    same_page!(daily_usages);

    // The raw body the worker caches and exports is the same answer.
    let body = c.history_body(id, w).await.expect("body");
    let decoded: Envelope<EquipmentHistory> = serde_json::from_slice(&body).expect("json");
    assert_eq!(decoded.data, history);

    let before = sb.running.request_count();
    let faults = c.faults(id, w).await.expect("faults");
    let requests = sb.running.request_count() - before;
    assert_eq!(
        requests as usize,
        split_window(w, SeriesSource::Faults.chunk_secs()).len()
    );
    let mut rows = Vec::new();
    for y in &years {
        let year: Envelope<SeriesData<FaultRow>> = raw(&sb, &format!("{eq}/faults"), *y).await;
        rows.extend(year.data.rows);
    }
    assert!(rows.len() > 10, "{} faults in three years", rows.len());
    assert_eq!(faults.rows, rows);
    assert_eq!(faults.total, rows.len() as i64);
    assert_eq!((faults.since.0, faults.until.0), (w.since, w.until));
}

#[tokio::test]
async fn the_fleet_history_comes_in_chunks_of_31_days_at_most() {
    let sb = start().await;
    let c = client_for(&sb);
    let w = TimeWindow {
        since: common::now() - 70 * DAY,
        until: common::now(),
    };
    let before = sb.running.request_count();
    let page = c.fleet_history_page(w, 3, 2).await.expect("page");
    let requests = sb.running.request_count() - before;
    assert_eq!(requests, 3, "70 days in three chunks of at most 31");
    let mut reference: Vec<FleetEquipment> = Vec::new();
    for p in pieces(w, 20 * DAY) {
        let path = format!(
            "/v2/fleet/equipments/history?limit=3&offset=2&{}",
            common::window_query(p.since, p.until)
        );
        let part: Envelope<FleetHistory> = sb.get_ok(&path).await;
        if reference.is_empty() {
            reference = part.data.rows;
            continue;
        }
        for (into, more) in reference.iter_mut().zip(part.data.rows) {
            into.positions.rows.extend(more.positions.rows);
            into.fault_codes.rows.extend(more.fault_codes.rows);
            into.fuel_remainings.rows.extend(more.fuel_remainings.rows);
            into.engine_conditions
                .rows
                .extend(more.engine_conditions.rows);
            into.daily_usages.rows.extend(more.daily_usages.rows);
        }
    }
    assert_eq!(
        page.rows.iter().map(|e| e.id).collect::<Vec<_>>(),
        vec![FIRST_ID + 2, FIRST_ID + 3, FIRST_ID + 4]
    );
    for (got, want) in page.rows.iter().zip(&reference) {
        assert_eq!(got.positions.rows, want.positions.rows);
        assert_eq!(got.positions.total, want.positions.rows.len() as i64);
        assert_eq!(got.fault_codes.rows, want.fault_codes.rows);
        assert_eq!(got.fuel_remainings.rows, want.fuel_remainings.rows);
        assert_eq!(got.engine_conditions.rows, want.engine_conditions.rows);
        assert_eq!(got.daily_usages.rows, want.daily_usages.rows);
    }
    assert_eq!((page.since.0, page.until.0), (w.since, w.until));
}

#[tokio::test]
async fn a_window_over_ten_years_is_refused_before_any_request() {
    let sb = start().await;
    let c = client_for(&sb);
    let w = years_back(11);
    let before = sb.running.request_count();
    let errors = [
        c.faults(FIRST_ID, w).await.map(|_| ()),
        c.positions(FIRST_ID, w).await.map(|_| ()),
        c.history(FIRST_ID, w).await.map(|_| ()),
        c.series_body(FIRST_ID, SeriesSource::Kind(DataKind::DailyUsages), w)
            .await
            .map(|_| ()),
        c.fleet_history_page(w, 50, 0).await.map(|_| ()),
    ];
    for e in errors {
        let e = e.expect_err("refused");
        assert!(
            matches!(e, ApiError::WindowTooLong { max_years: 10, .. }),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .contains("fleetview reads at most 10 years at a time"),
            "{e}"
        );
    }
    assert_eq!(sb.running.request_count(), before, "nothing was sent");
    // Ten years are read (a daily kind, in yearly chunks).
    let ten = TimeWindow {
        since: common::now() - 3652 * DAY,
        until: common::now(),
    };
    let before = sb.running.request_count();
    let body = c
        .series_body(FIRST_ID, SeriesSource::Kind(DataKind::DailyUsages), ten)
        .await
        .expect("ten years");
    assert!(RowsChunk::of(&body).expect("rows").count > 0);
    assert_eq!(
        (sb.running.request_count() - before) as usize,
        split_window(ten, MAX_EQUIPMENT_WINDOW_SECS).len()
    );
}

#[tokio::test]
async fn an_answer_past_the_body_cap_ends_in_a_clear_error_counted_after_gzip() {
    assert_eq!(
        ClientConfig::new("http://127.0.0.1:1").max_body_bytes,
        256 * 1024 * 1024
    );
    let sb = start_with(common::fixed_config().gzip(true)).await;
    // Two days inside one chunk of positions: one request.
    let week = 7 * DAY;
    let since = (common::now().div_euclid(week) - 1) * week;
    let w = TimeWindow {
        since,
        until: since + 2 * DAY - 1,
    };
    let path = format!(
        "{}/v2/fleet/equipments/{}/positions?{}",
        sb.base,
        FIRST_ID + 2,
        common::window_query(w.since, w.until)
    );
    let plain = reqwest::Client::builder().no_gzip().build().expect("http");
    let compressed = plain
        .get(&path)
        .header("x-access-token", &sb.token)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("sent")
        .bytes()
        .await
        .expect("body")
        .len() as u64;
    let inflated = sb.raw_bytes(&path.replacen(&sb.base, "", 1)).await.len() as u64;
    assert!(inflated > 2 * compressed, "{inflated} vs {compressed}");

    let capped = |max_body_bytes: u64| {
        let mut cfg = ClientConfig::new(sb.base.clone()).token(sb.token.clone());
        cfg.retry = fast_retry();
        cfg.max_body_bytes = max_body_bytes;
        ApiClient::new(cfg).expect("client")
    };
    let source = SeriesSource::Kind(DataKind::Positions);
    // Above the compressed size, below the inflated one: refused.
    let before = sb.running.request_count();
    let err = capped((compressed + inflated) / 2)
        .series_body(FIRST_ID + 2, source, w)
        .await
        .expect_err("over the cap");
    assert!(matches!(err, ApiError::TooLarge { .. }), "{err:?}");
    assert!(!err.is_retryable());
    assert_eq!(sb.running.request_count() - before, 1, "not retried");
    assert!(
        err.to_string().contains(&format!(
            "the answer is larger than {} bytes",
            (compressed + inflated) / 2
        )),
        "{err}"
    );
    // Exactly the cap is read.
    let body = capped(inflated)
        .series_body(FIRST_ID + 2, source, w)
        .await
        .expect("at the cap");
    assert_eq!(body.len() as u64, inflated);
}
