use super::*;
use crate::app::action::Action;
use crate::app::connection::Profile;
use crate::app::connection::{ConnStatus, ConnectionAction};
use crate::app::figures::FiguresAction;
use crate::app::loadable::Loadable;
use crate::app::machine::MachineAction;
use crate::app::notifications::NEWS_SECS;
use crate::app::overview::OverviewAction;
use crate::app::settings::Preset;
use crate::app::settings::Settings;
use crate::app::timeline::TimelineAction;
use fleetview_api::ApiError;
use fleetview_api::DataKind;
use fleetview_api::model::SecretValue;
use fleetview_api::time::TimeWindow;
use fleetview_core::export::shown::{ExportContent, ExportKey};
use fleetview_core::worker::Event;
use fleetview_core::worker::{
    ConnectionEvent, ExportEvent, ExportOutcome, MachineEvent, OverviewEvent,
};

fn connection(embedded: bool, url: &str) -> Connection {
    let mut c = if embedded {
        Connection::embedded(url, "demo")
    } else {
        Connection::service(url, false, fleetview_api::AuthMethod::Token)
    };
    c.status = ConnStatus::Connected;
    c
}

#[test]
fn settings_survive_a_restart_without_secrets() {
    let mut a = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    a.on_action(MachineAction::Select(1003).into());
    a.on_action(MachineAction::SetPreset(Preset::Last30Days).into());
    a.on_action(Action::SetTab(Tab::History));
    a.on_action(Action::SetTimesIn(crate::app::TimesIn::Machine));
    a.on_action(Action::SetTheme(crate::app::ThemeChoice::Light));
    a.on_action(Action::SetUnits(
        fleetview_core::analysis::UnitSystem::Imperial,
    ));
    let hours = fleetview_core::analysis::WorkingHours {
        days: [true; 7],
        start_min: 420,
        end_min: 1080,
    };
    a.on_action(FiguresAction::SetWorkingHours(hours).into());
    a.on_action(
        FiguresAction::SetTank {
            equipment: 1003,
            litres: Some(380.0),
        }
        .into(),
    );
    let filters = crate::app::overview::Filters {
        text: "volvo".into(),
        category: Some("Excavator".into()),
        state: Some(fleetview_core::analysis::MachineState::Silent),
        ..Default::default()
    };
    a.on_action(OverviewAction::SetFilters(filters.clone()).into());
    a.on_action(OverviewAction::SortBy(crate::app::overview::Column::LastReport).into());
    a.on_action(
        ConnectionAction::SaveProfile {
            index: None,
            profile: Profile {
                name: "Prod".into(),
                base_url: "https://fleet.example".into(),
                sandbox_url: "https://sandbox.fleet.example".into(),
                use_sandbox: true,
                allow_insecure_http: false,
                auth: fleetview_api::AuthMethod::ApiKey {
                    name: "ops-laptop".into(),
                },
            },
            secret: Some(SecretValue::new("key-secret-456")),
        }
        .into(),
    );
    a.on_action(ConnectionAction::UseSecret(SecretValue::new("tok-secret-123")).into());
    let saved = serde_json::to_string(&a.settings()).unwrap_or_default();
    assert!(!saved.contains("tok-secret-123"));
    assert!(!saved.contains("key-secret-456"));
    assert!(
        saved.contains("ops-laptop"),
        "the key's name is kept: {saved}"
    );
    let settings: Settings = serde_json::from_str(&saved).expect("settings read back");

    // Same (embedded) service: everything comes back.
    let mut b = AppState::new(connection(true, "http://127.0.0.1:2"), Some(1_750_000_000));
    b.restore(settings.clone());
    assert_eq!(
        (b.selected(), b.machine.preset, b.machine_tab, b.times_in),
        (
            Some(1003),
            Preset::Last30Days,
            Tab::History,
            crate::app::TimesIn::Machine
        )
    );
    assert_eq!(b.tab, Tab::History, "the page left is reopened");
    assert_eq!(b.theme, crate::app::ThemeChoice::Light);
    assert_eq!(b.units, fleetview_core::analysis::UnitSystem::Imperial);
    assert_eq!(b.overview.settings.filters, filters);
    assert_eq!(
        (b.figures.working_hours, b.figures.tank_l(1003)),
        (hours, Some(380.0))
    );
    assert_eq!(
        b.overview.settings.sort,
        crate::app::overview::Sort {
            column: crate::app::overview::Column::LastReport,
            descending: true,
            attention_first: false,
        }
    );
    assert_eq!(b.machine.recent, vec![1003]);
    assert_eq!(b.profiles().len(), 1);
    assert_eq!(b.profiles()[0].url(), "https://sandbox.fleet.example");
    // Another service: the profiles, not the machine of the other one.
    let mut c = AppState::new(
        connection(false, "https://other.example"),
        Some(1_750_000_000),
    );
    c.restore(settings);
    assert_eq!((c.selected(), c.profiles().len()), (None, 1));
}

#[test]
fn choosing_another_service_first_cancels_the_last_ones_reads() {
    let mut s = AppState::new(connection(false, "https://a.example"), Some(1_750_000_000));
    let profile = Profile {
        name: "B".into(),
        base_url: "https://b.example".into(),
        sandbox_url: String::new(),
        use_sandbox: false,
        allow_insecure_http: false,
        auth: fleetview_api::AuthMethod::Token,
    };
    s.on_action(
        ConnectionAction::SaveProfile {
            index: None,
            profile,
            secret: None,
        }
        .into(),
    );
    let commands = s.on_action(
        ConnectionAction::UseProfile {
            index: 0,
            secret: None,
        }
        .into(),
    );
    assert!(matches!(commands.first(), Some(Command::CancelReads)));
    assert!(matches!(commands.get(1), Some(Command::UseProfile { .. })));
    // A new token for the same service keeps its reads going.
    let commands = s.on_action(ConnectionAction::UseSecret(SecretValue::new("t")).into());
    assert!(!commands.iter().any(|c| matches!(c, Command::CancelReads)));
}

#[test]
fn a_key_profile_with_no_key_kept_asks_for_the_key_and_the_notice_goes_once_connected() {
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    let kept = s.on_event(Event::Failed {
        target: Target::Connection,
        request: 1,
        error: ApiError::NoToken,
    });
    assert_eq!(s.conn.current.status, ConnStatus::NoSecret);
    assert!(s.conn.needs_secret());
    assert_eq!(
        s.notifications()[0].title,
        "No API key is kept for this service on this computer"
    );
    // The fleet the cache holds shows meanwhile, not as offline.
    assert!(
        matches!(
            kept.as_slice(),
            [Command::KeptFleet { scope }, Command::KeptSnapshots { .. }]
                if scope == s.connection().config.cache_scope()
        ),
        "{kept:?}"
    );
    let machine = fleetview_api::model::EquipmentSummary {
        id: 1003,
        ..Default::default()
    };
    s.on_event(Event::Fleet(fleetview_core::worker::FleetEvent::Cached {
        request: 3,
        equipments: vec![machine],
        fetched_at: 1_749_000_000,
    }));
    assert_eq!(s.fleet.equipments.len(), 1);
    assert!(s.offline().is_none(), "signed out, not offline");
    // Nothing is asked of a service that refuses: the Fleet page's
    // figures come from the cache alone.
    let asked = s.tick(1_750_000_000);
    assert!(
        !asked.is_empty()
            && asked.iter().all(|c| matches!(
                c,
                Command::FetchFigures { offline: true, .. }
                    | Command::FetchLookBack { offline: true, .. }
            )),
        "{asked:?}"
    );
    let read = s.on_event(Event::Connection(ConnectionEvent::Connected {
        request: 2,
        base_url: "x".into(),
        token_place: None,
        user: None,
    }));
    assert!(s.notifications().is_empty(), "{:?}", s.notifications());
    // Signed in: what the cache showed is read afresh.
    assert!(
        read.iter()
            .any(|c| matches!(c, Command::DiscoverFleet { .. }))
    );
    assert!(
        s.fleet.loading && s.fleet.equipments.len() == 1,
        "kept until it comes"
    );
}

#[test]
fn connecting_on_the_integrations_tab_loads_them() {
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    s.tab = Tab::Catalog;
    let commands = s.on_event(Event::Connection(ConnectionEvent::Connected {
        request: 7,
        base_url: "x".into(),
        token_place: None,
        user: None,
    }));
    assert!(commands.iter().any(|c| matches!(c, Command::LoadCatalog)));
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::DiscoverFleet { .. }))
    );
}

#[test]
fn the_snapshots_are_read_again_every_ten_minutes_while_online() {
    let reads = |commands: &[Command]| {
        commands
            .iter()
            .filter(|c| matches!(c, Command::FetchSnapshots))
            .count()
    };
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    let t0 = now_secs();
    assert_eq!(reads(&s.start()), 1);
    s.on_event(Event::Overview(OverviewEvent::SnapshotPage {
        request: 1,
        snapshots: Vec::new(),
        done: 0,
        total: 0,
        finished: true,
    }));
    assert_eq!(reads(&s.tick(t0 + 598)), 0);
    assert_eq!(reads(&s.tick(t0 + 605)), 1);
    assert_eq!(reads(&s.tick(t0 + 606)), 0, "one read at a time");
    s.on_event(Event::Overview(OverviewEvent::SnapshotPage {
        request: 2,
        snapshots: Vec::new(),
        done: 0,
        total: 0,
        finished: true,
    }));
    s.conn.went_offline(None, "gone".into());
    assert_eq!(reads(&s.tick(t0 + 2_000)), 0, "not while offline");
}

#[test]
fn a_page_sends_the_figures_reads_ahead_with_its_own() {
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    let out = s.on_action(MachineAction::Select(1003).into());
    let window = s.window().expect("a window");
    assert!(
        out.iter().any(|c| matches!(
            c,
            Command::ReadAhead { equipment: 1003, window: w } if *w == window
        )),
        "{out:?}"
    );
    // Never said as failed: nothing to tell the user.
    let before = s.notifications().len();
    s.on_event(Event::Failed {
        target: Target::ReadAhead,
        request: 1,
        error: ApiError::NotConnected,
    });
    assert_eq!(s.notifications().len(), before);
}

#[test]
fn a_cursor_outside_a_new_window_goes() {
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    s.on_action(MachineAction::Select(1003).into());
    s.on_action(MachineAction::SetPreset(Preset::Last30Days).into());
    let month = s.window().expect("a window");
    s.on_action(TimelineAction::SeekTo(month.since + 3_600).into());
    s.on_action(MachineAction::SetPreset(Preset::Yesterday).into());
    assert_eq!(s.timeline().cursor, None, "not left before the window");
    let day = s.window().expect("a window");
    s.on_action(TimelineAction::SeekTo(day.since + 60).into());
    s.on_action(MachineAction::SetPreset(Preset::Last7Days).into());
    assert_eq!(
        s.timeline().cursor,
        Some(day.since + 60),
        "kept when still inside"
    );
}

#[test]
fn an_answer_for_another_machine_or_window_is_dropped() {
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    s.on_action(MachineAction::Select(1003).into());
    let window = s.window().expect("a window");
    let answer = |equipment, window| {
        Event::Machine(MachineEvent::Faults {
            request: 1,
            equipment,
            window,
            rows: Vec::new(),
            offline: None,
        })
    };
    s.on_event(answer(1004, window));
    assert!(
        s.faults().is_pending(),
        "another machine's faults are not shown"
    );
    let other = TimeWindow {
        since: window.since - 1,
        ..window
    };
    s.on_event(answer(1003, other));
    assert!(
        s.faults().is_pending(),
        "another window's faults are not shown"
    );
    s.on_event(answer(1003, window));
    assert_eq!(s.faults().value().map(Vec::len), Some(0));
}

#[test]
fn offline_retries_back_off_and_a_reachable_service_refreshes_in_place() {
    let mut s = AppState::new(connection(false, "http://127.0.0.1:1"), Some(1_750_000_000));
    s.on_action(MachineAction::Select(1001).into());
    s.machine.faults = Loadable::Ready(Vec::new());
    s.on_event(Event::Failed {
        target: Target::Faults,
        request: 1,
        error: ApiError::Network {
            endpoint: "GET /x".into(),
            message: "connection refused".into(),
            refused: true,
            address: "127.0.0.1:1".into(),
            cause: fleetview_api::NetworkCause::Refused,
        },
    });
    assert!(s.offline().is_some());
    assert!(
        s.notifications().is_empty(),
        "the offline mark says it, once"
    );
    assert!(s.title().ends_with("(offline)"));
    // First tick schedules, then tries at 5 s, then 10 s after that.
    assert!(s.tick(100).is_empty());
    assert!(s.tick(104).is_empty());
    assert!(matches!(s.tick(105).as_slice(), [Command::Probe]));
    assert!(s.tick(200).is_empty(), "one probe at a time");
    s.on_event(Event::Failed {
        target: Target::Probe,
        request: 2,
        error: ApiError::Timeout {
            endpoint: "GET /catalog/dataSources".into(),
            timeout_secs: 60,
            address: "127.0.0.1:1".into(),
            connect: false,
        },
    });
    assert!(s.tick(114).is_empty());
    assert!(matches!(s.tick(115).as_slice(), [Command::Probe]));
    // The service answers: a refresh that keeps what is shown meanwhile.
    let commands = s.on_event(Event::Connection(ConnectionEvent::Reachable { request: 3 }));
    assert!(s.offline().is_none());
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::DiscoverFleet { .. }))
    );
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::FetchFaults { .. }))
    );
    assert_eq!(
        s.faults().value().map(Vec::len),
        Some(0),
        "kept while refreshing"
    );
    assert!(s.tick(1_000).is_empty());
}

#[test]
fn exports_of_two_kinds_with_the_same_channel_get_their_own_names() {
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    s.fleet.on_page(
        vec![fleetview_api::model::EquipmentSummary {
            id: 1021,
            name: "GE-021 Atlas Copco QAS 150 (Lyon)".into(),
            make: "Atlas Copco".into(),
            model: "QAS 150".into(),
            serial_number: "S".into(),
            ..Default::default()
        }],
        (1, 1),
        true,
        fleetview_core::worker::FleetSource::List,
    );
    s.on_action(MachineAction::Select(1021).into());
    let rows = br#"[{"date":"2025-06-01T00:00:00Z","voltage":12.5,"unit":"V"}]"#;
    let series = std::sync::Arc::new(fleetview_core::series::PlotSeries::new(
        fleetview_core::series::decode_rows(rows).expect("rows"),
    ));
    let names: Vec<String> = [DataKind::BatteryVoltage, DataKind::DeviceBatteryVoltage]
        .into_iter()
        .flat_map(|kind| {
            s.on_action(Action::Export(ExportContent::Channel {
                kind,
                series: series.clone(),
                channel: 0,
                unit: "V".into(),
            }))
        })
        .map(|c| match c {
            Command::Export(job) => job.file_name,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(names.len(), 2, "both are under way at once");
    assert_ne!(names[0], names[1]);
    for n in &names {
        assert!(
            n.starts_with("1021-GE-021-Atlas-Copco-QAS-150-Lyon-"),
            "{n}"
        );
        assert!(
            n.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
            "{n}"
        );
    }
}

#[test]
fn an_export_under_way_is_not_asked_for_twice() {
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    s.on_action(MachineAction::Select(1003).into());
    let faults = || Action::Export(ExportContent::Faults(Vec::new()));
    let first = s.on_action(faults());
    assert!(matches!(
        first.as_slice(),
        [Command::Export(job)] if job.file_name.starts_with("1003-faults-")
            && job.file_name.ends_with(".csv")
    ));
    assert!(s.on_action(faults()).is_empty(), "its dialog is still open");
    assert_eq!(
        s.exports.describe_under_way().collect::<Vec<_>>(),
        vec!["faults (CSV)"]
    );
    s.on_event(Event::Export(ExportEvent::Exported {
        request: 1,
        key: ExportKey::Faults,
        what: "faults (CSV)".into(),
        outcome: ExportOutcome::Cancelled,
    }));
    assert_eq!(s.exports.describe_under_way().count(), 0);
    assert_eq!(s.on_action(faults()).len(), 1, "and can be asked for again");
}

#[test]
fn an_app_left_alone_wakes_only_when_something_is_due() {
    let now = 1_750_000_000;
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(now));
    assert_eq!(s.next_wake(), None, "nothing due: no frame");
    s.notify(Level::Info, "Exported", "faults.csv");
    s.tick(now);
    assert_eq!(s.next_wake(), Some(now + NEWS_SECS), "the news goes");
    s.tick(now + NEWS_SECS);
    assert_eq!(s.next_wake(), None);
    s.notify(Level::Error, "Failed", "");
    s.tick(now + NEWS_SECS);
    assert_eq!(s.next_wake(), None, "a problem stays");
    s.conn.went_offline(None, "no network".into());
    s.tick(now);
    let retry = s.offline().and_then(|o| o.next_retry);
    assert!(retry.is_some_and(|t| t > now));
    assert_eq!(s.next_wake(), retry, "the next try");
}

#[test]
fn a_cache_written_again_takes_back_the_notice_that_nothing_is_kept() {
    use fleetview_core::cache::{CacheNotice, Unwritable};
    let mut a = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    let full = CacheNotice::NotKept {
        why: Unwritable::Full,
        error: "database or disk is full".into(),
    };
    a.on_cache_notice(&full);
    a.notify(Level::Error, "Something else failed", "");
    let titles = |a: &AppState| -> Vec<String> {
        a.notifications().iter().map(|n| n.title.clone()).collect()
    };
    assert!(titles(&a).contains(&full.title()));
    a.on_cache_notice(&CacheNotice::Kept);
    let left = titles(&a);
    assert!(!left.contains(&full.title()), "{left:?}");
    assert!(
        left.contains(&"Something else failed".to_owned()),
        "{left:?}"
    );
    assert!(left.contains(&CacheNotice::Kept.title()), "{left:?}");
}

#[test]
fn an_attention_item_opens_its_machine_on_the_events_tab_over_a_window_that_sees_it() {
    const DAY: i64 = fleetview_api::time::SECS_PER_DAY;
    let now = 1_750_000_000;
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(now));
    let _ = s.tick(now);
    let look_back = crate::app::overview::AttentionSettings::default().window(now);
    assert_eq!(s.overview.look_back.window, Some(look_back));
    // Two days ago: the week holds it and the days before it.
    let open = |id, at, position| OverviewAction::OpenAt {
        equipment: id,
        at: Some(at),
        position,
    };
    s.on_action(open(1003, now - 2 * DAY, None).into());
    assert_eq!(
        (s.machine.selected, s.tab, s.machine.preset),
        (Some(1003), Tab::Events, Preset::Last7Days)
    );
    assert_eq!(s.timeline.cursor, Some(now - 2 * DAY));
    // Five days ago, the reading before it may be out of the week: the
    // look-back the strip found it in.
    let place = fleetview_api::geo::LatLon {
        lat: 51.0,
        lon: 4.0,
    };
    s.on_action(open(1004, now - 5 * DAY, Some(place)).into());
    assert_eq!(
        (s.machine.selected, s.machine.preset, s.selected_window()),
        (Some(1004), Preset::Last30Days, look_back)
    );
    assert_eq!(
        (s.timeline.cursor, s.timeline.seek_place),
        (Some(now - 5 * DAY), Some(place))
    );
}

#[test]
fn settings_from_before_the_machine_zone_keep_their_choice() {
    let a = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
    let mut saved = serde_json::to_value(a.settings()).expect("settings as JSON");
    let fields = saved.as_object_mut().expect("an object");
    fields.remove("times_in");
    fields.insert("local_time".into(), true.into());
    let settings: Settings = serde_json::from_value(saved).expect("older settings read");
    let mut b = AppState::new(connection(true, "http://127.0.0.1:2"), Some(1_750_000_000));
    b.restore(settings);
    assert_eq!(b.times_in, crate::app::TimesIn::Computer);
}

/// JSON is for scripts, whose keys are fixed: metric whatever the Units
/// menu says; the reports for people follow it.
#[test]
fn a_json_report_from_the_app_is_metric_whatever_the_units_shown() {
    use crate::app::exports::ReportAsk;
    use fleetview_core::analysis::UnitSystem;
    use fleetview_core::report::ReportFormat;
    let now = 1_750_000_000;
    let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(now));
    s.on_action(Action::SetUnits(UnitSystem::Imperial));
    let units_of = |commands: Vec<Command>| match commands.as_slice() {
        [Command::Report(job)] => job.units,
        other => panic!("one report asked for: {other:?}"),
    };
    let json = s.on_action(Action::Report(ReportAsk {
        fleet: true,
        format: ReportFormat::Json,
    }));
    assert_eq!(units_of(json), UnitSystem::Metric);
    s.exports.report_under_way = None;
    let html = s.on_action(Action::Report(ReportAsk {
        fleet: true,
        format: ReportFormat::Html,
    }));
    assert_eq!(units_of(html), UnitSystem::Imperial);
}
