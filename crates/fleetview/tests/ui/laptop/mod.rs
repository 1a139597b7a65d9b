//! A laptop on battery, offline, in a hurry: idle CPU, keystrokes that
//! reach their field, shortcuts that wait while typing, errors in plain
//! words, pages that keep what the cache holds, files written somewhere
//! when there is no dialog, a layout that fits a small screen, and maps
//! that read in both themes. `cargo test -- laptop` runs them all.

mod desktop;
mod idle;
mod layout;
mod maps;
mod pages;
mod typing;
mod words;
