use std::collections::HashMap;

use super::*;
use crate::app::settings::Settings;
use crate::app::{AppState, Connection};

fn names(keys: &[&str]) -> Vec<Option<Column>> {
    keys.iter().map(|k| Column::from_key(k)).collect()
}

#[test]
fn the_attention_columns_come_before_the_figures() {
    let shown: Vec<Column> = ColumnLayout::default().shown().collect();
    assert_eq!(shown.len(), Column::ALL.len(), "every column, once");
    let at = |c| shown.iter().position(|x| *x == c).unwrap_or(usize::MAX);
    assert_eq!(at(Column::Name), 0);
    for attention in [
        Column::State,
        Column::Flags,
        Column::Faults,
        Column::IdlePercent,
    ] {
        for figure in [
            Column::LastReport,
            Column::WindowHours,
            Column::EngineHours,
            Column::Fuel,
        ] {
            assert!(
                at(attention) < at(figure),
                "{attention:?} before {figure:?}"
            );
        }
    }
}

#[test]
fn name_can_neither_hide_nor_move_and_nothing_passes_it() {
    let l = ColumnLayout::default();
    assert_eq!(l.with_shown(Column::Name, false), l);
    assert_eq!(l.moved(Column::Name, false), l);
    assert!(
        !l.can_move(Column::State, true),
        "State is right after Name"
    );
    assert!(!l.can_move(Column::Source, false), "Source is last");
    let moved = l.moved(Column::Fuel, true);
    let order: Vec<Column> = moved.shown().collect();
    let fuel = order.iter().position(|c| *c == Column::Fuel);
    let hours = order.iter().position(|c| *c == Column::EngineHours);
    assert!(fuel < hours);
    let hidden = moved.with_shown(Column::Make, false);
    assert!(!hidden.shown().any(|c| c == Column::Make));
    assert!(hidden.all().any(|(c, shown)| c == Column::Make && !shown));
    assert_eq!(hidden.with_shown(Column::Make, true), moved);
}

#[test]
fn saved_names_are_read_leniently() {
    // Unknown, repeated, Name not first, columns missing; Name "hidden".
    let order = names(&["Fuel", "Bogus", "Fuel", "Name", "State", "Make"]);
    let hidden = names(&["Name", "Make", "Nope", "Make"]);
    let l = ColumnLayout::from_names(&order, &hidden);
    let all: Vec<Column> = l.all().map(|(c, _)| c).collect();
    assert_eq!(all.len(), Column::ALL.len(), "each known column once");
    assert_eq!(all[0], Column::Name);
    let at = |c| all.iter().position(|x| *x == c).unwrap_or(usize::MAX);
    // Those named keep the file's order...
    assert!(at(Column::Fuel) < at(Column::State) && at(Column::State) < at(Column::Make));
    // ...those missing come back after the column they follow by default.
    assert_eq!(at(Column::Flags), at(Column::State) + 1);
    assert_eq!(at(Column::Category), at(Column::Fuel) + 1);
    assert_eq!(at(Column::Model), at(Column::Make) + 1);
    let shown: Vec<Column> = l.shown().collect();
    assert_eq!(shown[0], Column::Name, "Name always shows");
    assert!(!shown.contains(&Column::Make));
    assert_eq!(
        ColumnLayout::from_names(&[], &[]),
        ColumnLayout::default(),
        "nothing named: the default"
    );
}

/// eframe's storage, in memory (RON, as on disk).
#[derive(Default)]
struct Store(HashMap<String, String>);

impl eframe::Storage for Store {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

/// The settings a fresh app saves, as eframe writes them.
fn saved(columns: &ColumnLayout) -> String {
    let mut a = AppState::new(Connection::embedded("http://127.0.0.1:1", "demo"), Some(0));
    let mut s = a.settings();
    s.overview.columns = columns.clone();
    a.restore(s);
    let mut store = Store::default();
    eframe::set_value(&mut store, "s", &a.settings());
    store.0.remove("s").unwrap_or_default()
}

fn read(ron: String) -> Option<Settings> {
    let mut store = Store::default();
    store.0.insert("s".into(), ron);
    eframe::get_value(&store, "s")
}

/// `ron` with its `columns:(..)` replaced (or removed, `with` empty).
fn with_columns(ron: &str, with: &str) -> String {
    let start = ron.find("columns:(").expect("columns saved");
    let mut depth = 0;
    let mut end = start;
    for (i, ch) in ron[start..].char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    end = start + i + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    let mut out = format!("{}{with}{}", &ron[..start], &ron[end..]);
    if with.is_empty() {
        out = out.replace(",,", ",").replace(",)", ")").replace("(,", "(");
    }
    out
}

#[test]
fn the_layout_survives_a_restart_and_odd_files_keep_the_rest() {
    let layout = ColumnLayout::default()
        .moved(Column::Source, true)
        .with_shown(Column::Serial, false);
    let ron = saved(&layout);
    let back = read(ron.clone()).expect("read back");
    assert_eq!(back.overview.columns, layout);

    // A file from before columns could be chosen.
    let old = read(with_columns(&ron, "")).expect("an older file reads");
    assert_eq!(old.overview.columns, ColumnLayout::default());
    assert_eq!(old.overview.sort, back.overview.sort, "the rest is kept");

    // Odd entries: unknown names, numbers, lists, Name hidden.
    let mut order: Vec<String> = ColumnLayout::default()
        .shown()
        .filter(|c| *c != Column::Fuel)
        .map(|c| format!("{:?}", c.key()))
        .collect();
    order.insert(0, r#""Fuel",3,"Bogus",["x"],(a:1)"#.to_owned());
    let odd = format!(
        r#"columns:(order:[{}],hidden:["Name","Make",true])"#,
        order.join(",")
    );
    let odd = read(with_columns(&ron, &odd)).expect("odd columns read");
    let shown: Vec<Column> = odd.overview.columns.shown().collect();
    assert_eq!(&shown[..2], &[Column::Name, Column::Fuel]);
    assert!(!shown.contains(&Column::Make));
    assert_eq!(shown.len(), Column::ALL.len() - 1);
}
