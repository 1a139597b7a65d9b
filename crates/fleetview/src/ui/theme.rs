//! Colours and sizes, in one place. How values read (times, numbers,
//! durations) is in `format.rs`.

use egui::Color32;

/// Space between groups of controls.
pub const GAP: f32 = 6.0;
/// The replay's Play/Pause button (fits "Pause").
pub const PLAY_BUTTON_WIDTH: f32 = 56.0;
/// Height of a table or list row.
pub const ROW_HEIGHT: f32 = 22.0;
/// Notices float this far from the window's bottom right corner (above the
/// status bar), at most this wide.
pub const TOAST_MARGIN: egui::Vec2 = egui::vec2(12.0, 36.0);
pub const TOAST_WIDTH: f32 = 380.0;
/// Kept in the status bar, offline, for what follows the offline words
/// (Details, the next try's time, Retry now, what is going on).
pub const STATUS_OFFLINE_CONTROLS_WIDTH: f32 = 360.0;
/// The offline words are never cut shorter than this.
pub const STATUS_OFFLINE_WORDS_MIN_WIDTH: f32 = 120.0;
/// The About window.
pub const ABOUT_WIDTH: f32 = 480.0;
/// The history of notices, when first opened.
pub const NOTICES_SIZE: egui::Vec2 = egui::vec2(460.0, 360.0);
/// The width kept for the "(in use)" mark of the Connections list.
pub const IN_USE_WIDTH: f32 = 52.0;
/// After a sorted column's title.
pub const SORT_ASCENDING: &str = " ⏶";
pub const SORT_DESCENDING: &str = " ⏷";
/// The daily history's engine events column, and its frozen Day column.
pub const ENGINE_EVENTS_WIDTH: f32 = 250.0;
pub const DAY_COLUMN_WIDTH: f32 = 90.0;
/// A chip of the window figures strip.
pub const FIGURE_CHIP_MIN_WIDTH: f32 = 128.0;
pub const FIGURE_CHIP_HEIGHT: f32 = 34.0;
/// How often what is under way is drawn anew: a spinner's turn, a
/// progress line, a tile rendered, a part of a page while the rest loads
/// (30 frames a second; the frame that completes a page is drawn at once).
pub const PROGRESS_FRAME: std::time::Duration = std::time::Duration::from_millis(33);
/// A spinner's size, as egui's own.
pub const SPINNER_STROKE: f32 = 3.0;

pub const ERROR: Color32 = Color32::from_rgb(0xE5, 0x48, 0x4D);
pub const WARNING: Color32 = Color32::from_rgb(0xF5, 0xA5, 0x24);
pub const INFO: Color32 = Color32::from_rgb(0x4C, 0x9A, 0xFF);
pub const UNKNOWN: Color32 = Color32::from_rgb(0x9A, 0x9A, 0x9A);
pub const CRITICAL: Color32 = Color32::from_rgb(0xC0, 0x3A, 0xE0);
pub const OFFLINE: Color32 = Color32::from_rgb(0xF5, 0xA5, 0x24);

/// The time cursor, in plots and on the map.
pub const CURSOR: Color32 = Color32::from_rgb(0xFF, 0xD2, 0x4A);
/// The span selected on the plots: a light band with a border.
pub const SPAN_FILL: Color32 = Color32::from_rgba_premultiplied(0x20, 0x40, 0x60, 0x40);
pub const SPAN_BORDER: Color32 = Color32::from_rgb(0x6A, 0xA8, 0xE0);
/// Estimated samples (hollow markers).
pub const ESTIMATED: Color32 = Color32::from_rgb(0xFF, 0x8C, 0x42);
/// Start and end of the track.
pub const TRACK_START: Color32 = Color32::from_rgb(0x3C, 0xC8, 0x6E);
pub const TRACK_END: Color32 = Color32::from_rgb(0xE5, 0x48, 0x4D);
/// Under a selected activity's part of the track: light on the dark
/// basemap, a deep blue on the light one.
pub const ACTIVITY_HALO: Color32 = Color32::from_rgb(0xF0, 0xF0, 0xF0);
pub const ACTIVITY_HALO_ON_LIGHT: Color32 = Color32::from_rgb(0x2A, 0x6C, 0xB0);
/// Behind what is written on the map (legend, labels, notes), readable on
/// dark and light tiles alike.
pub const MAP_OVERLAY_BG: Color32 = Color32::from_black_alpha(190);
/// The offline basemap's colours under `visuals`: light land and sea in
/// a light theme, dark in a dark one.
pub fn basemap_palette(visuals: &egui::Visuals) -> fleetview_core::basemap::Palette {
    use fleetview_core::basemap::Palette;
    if visuals.dark_mode {
        Palette::DARK
    } else {
        Palette::LIGHT
    }
}

/// Around what is drawn on the map (the track's ends, the events' marks,
/// the point hovered): white on the dark basemap, near black on the light
/// one, so a mark's edge shows on land and sea alike.
pub fn map_outline(visuals: &egui::Visuals) -> Color32 {
    if visuals.dark_mode {
        Color32::WHITE
    } else {
        Color32::from_gray(40)
    }
}

/// Under the track on the light basemap, where its lighter speed colours
/// (drawn for the dark one) would fade into the land: a dark edge.
pub fn track_casing(visuals: &egui::Visuals) -> Option<Color32> {
    (!visuals.dark_mode).then(|| Color32::from_black_alpha(170))
}

/// Under the selected part of the track.
pub fn activity_halo(visuals: &egui::Visuals) -> Color32 {
    if visuals.dark_mode {
        ACTIVITY_HALO
    } else {
        ACTIVITY_HALO_ON_LIGHT
    }
}

/// Space between the map's edge and what sits on it.
pub const MAP_MARGIN: f32 = 8.0;

/// The daily charts over the Daily history's table (x axis included):
/// their height, the least they shrink to in a short pane, the least that
/// keeps their legends clear of the bars, and the room they leave under
/// them for the table (its heading, header and a day: the charts come
/// first, a click on one scrolls the table to its day); a shorter pane
/// shows no charts.
pub const DAILY_CHART_HEIGHT: f32 = 110.0;
pub const DAILY_CHART_MIN_HEIGHT: f32 = 64.0;
pub const DAILY_CHART_LEGEND_HEIGHT: f32 = 88.0;
/// What the daily table keeps under the charts: its title line, its header
/// and three days (the charts give way first; at the pane's floor they
/// show none, and the table its five days).
pub const DAILY_TABLE_ROOM: f32 = 2.0 * PANE_LINE_HEIGHT + 3.0 * TABLE_ROW_PITCH;
/// Working hours (under) and idle hours (stacked on them), as the engine
/// states' lanes colour running and idle.
pub const WORKING: Color32 = Color32::from_rgb(0x3C, 0xA8, 0x5E);
pub const IDLE: Color32 = Color32::from_rgb(0x8A, 0x92, 0x9A);
/// The expected hours' step line.
pub const EXPECTED: Color32 = Color32::from_rgb(0xD8, 0xD8, 0xE4);
pub const FUEL: Color32 = Color32::from_rgb(0x4C, 0x9A, 0xFF);
pub const DISTANCE: Color32 = Color32::from_rgb(0x5A, 0xD2, 0xD2);

/// An estimated day's bar: hollow, its outline in [`ESTIMATED`] over a
/// faint fill of the measured bars' colour.
pub fn estimated_fill(measured: Color32) -> Color32 {
    measured.gamma_multiply(0.2)
}

/// The day holding the time cursor, behind its bars and its table row.
pub fn cursor_day_fill() -> Color32 {
    CURSOR.gamma_multiply(0.18)
}

/// The day under the pointer on a daily chart, and its table row.
pub fn hovered_day_fill() -> Color32 {
    Color32::from_gray(160).gamma_multiply(0.22)
}

/// Distinct line colours for the channels of one plot.
pub fn series_color(k: usize) -> Color32 {
    const C: [Color32; 6] = [
        Color32::from_rgb(0x4C, 0x9A, 0xFF),
        Color32::from_rgb(0x3C, 0xC8, 0x6E),
        Color32::from_rgb(0xE0, 0x6C, 0xC8),
        Color32::from_rgb(0xF5, 0xA5, 0x24),
        Color32::from_rgb(0x5A, 0xD2, 0xD2),
        Color32::from_rgb(0xB4, 0x8C, 0xFF),
    ];
    C[k % C.len()]
}

/// Under a line, the band of its crowded samples' range: the line's
/// colour, light.
pub fn band_fill(line: Color32) -> Color32 {
    line.gamma_multiply(0.3)
}

/// A bar of a daily value: the series' colour, a little see-through.
pub fn bar_fill(line: Color32) -> Color32 {
    line.gamma_multiply(0.75)
}

/// The colour of a state in a lane: known states fixed, others by name.
pub fn state_color(label: &str) -> Color32 {
    match label {
        "started" | "true" | "charging" | "running" => Color32::from_rgb(0x3C, 0xA8, 0x5E),
        "stopped" | "false" | "idle" | "off" => Color32::from_rgb(0x6A, 0x70, 0x76),
        other => {
            // A stable colour per label.
            let h = other
                .bytes()
                .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
            series_color(h as usize)
        }
    }
}

/// Speed colour scale of the track: blue (slow) through green and yellow to
/// red (fast); `frac` is 0..1 of the scale, missing speeds grey.
pub fn speed_color(frac: f32) -> Color32 {
    if !frac.is_finite() {
        return UNKNOWN;
    }
    const STOPS: [(f32, [u8; 3]); 5] = [
        // The ends light enough to stand out on the legend's dark plate
        // (3:1, tested), which is the same in both themes.
        (0.0, [0x5B, 0x8C, 0xFF]),
        (0.3, [0x2C, 0xC8, 0xC0]),
        (0.55, [0x6C, 0xD0, 0x4A]),
        (0.8, [0xF5, 0xC5, 0x24]),
        (1.0, [0xFF, 0x5A, 0x5F]),
    ];
    let f = frac.clamp(0.0, 1.0);
    let k = STOPS.iter().position(|(x, _)| *x >= f).unwrap_or(4).max(1);
    let ((x0, c0), (x1, c1)) = (STOPS[k - 1], STOPS[k]);
    let t = if x1 > x0 { (f - x0) / (x1 - x0) } else { 0.0 };
    let mix = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
    Color32::from_rgb(mix(c0[0], c1[0]), mix(c0[1], c1[1]), mix(c0[2], c1[2]))
}

/// The colour of a fault level label (D9: any label may come; unknown ones
/// are grey).
pub fn level_color(label: &str) -> Color32 {
    match label.to_ascii_lowercase().as_str() {
        "critical" => CRITICAL,
        "error" => ERROR,
        "warning" => WARNING,
        "information" | "info" => INFO,
        _ => UNKNOWN,
    }
}

/// The fleet table's columns are never dragged narrower than these.
pub const FLEET_NAME_MIN_WIDTH: f32 = 120.0;
pub const FLEET_COLUMN_MIN_WIDTH: f32 = 50.0;
/// The fleet table's sideways scroll bar, under the columns right of Name.
pub const FLEET_SIDEWAYS_BAR_HEIGHT: f32 = 14.0;
/// Half the width a fleet table column's edge is grabbed by, to resize it.
pub const FLEET_RESIZE_GRAB: f32 = 4.0;

/// The first width of a fleet table column: its header and sort arrow fit.
pub fn fleet_column_width(c: crate::app::overview::Column) -> f32 {
    use crate::app::overview::Column as C;
    match c {
        C::Name => 210.0,
        C::Category => 130.0,
        C::Make | C::Model => 110.0,
        C::Serial => 120.0,
        C::State => 140.0,
        C::LastReport => 110.0,
        C::EngineHours => 115.0,
        C::WindowHours => 135.0,
        C::IdlePercent => 140.0,
        C::Fuel => 130.0,
        C::Faults => 140.0,
        C::Flags => 230.0,
        C::Source => 130.0,
        C::Service => 230.0,
    }
}

/// The colour of a machine's state on the fleet map and in the table.
pub fn machine_state_color(state: fleetview_core::analysis::MachineState) -> Color32 {
    use fleetview_core::analysis::MachineState as S;
    match state {
        S::Running => Color32::from_rgb(0x3C, 0xC8, 0x6E),
        S::ReportedToday => Color32::from_rgb(0x4C, 0x9A, 0xFF),
        S::Recent => Color32::from_rgb(0x8A, 0xA4, 0xC8),
        S::Silent => WARNING,
        S::Unknown => UNKNOWN,
        S::Pending => UNKNOWN.gamma_multiply(0.6),
    }
}

/// The fleet map: a machine's marker (its shape's inner radius), points.
pub const FLEET_MARKER_RADIUS: f32 = 6.5;
/// Markers whose centres are closer than this (points) are one cluster.
pub const FLEET_CLUSTER_DISTANCE: f32 = 40.0;
/// Around a machine or cluster with faults in the window.
pub const FAULT_RING: Color32 = ERROR;
pub const FAULT_RING_WIDTH: f32 = 2.5;
/// Around every marker, so it stands out on land, sea and online tiles.
pub const MARKER_OUTLINE: Color32 = Color32::WHITE;
/// A cluster's count, on its state's colour.
pub const MARKER_TEXT: Color32 = Color32::from_gray(16);
/// The marker under the pointer.
pub const MARKER_HOVER: Color32 = CURSOR;
/// A site's or company's name under a cluster, and the legend's text.
pub const FLEET_LABEL_SIZE: f32 = 11.0;

/// A cluster's radius in points: grows with the count, so a crowd reads
/// as one, and its count fits inside.
pub fn cluster_radius(count: u32) -> f32 {
    (9.5 + 3.0 * (count.max(1) as f32).log10()).min(FLEET_CLUSTER_DISTANCE / 2.0 - 1.0)
}

/// Text on an event's colour.
pub const EVENT_CHIP_TEXT: Color32 = Color32::from_gray(12);
/// The plots' event lane: its height, and an instant's mark (points).
pub const EVENT_LANE_HEIGHT: f32 = 30.0;
pub const EVENT_TICK_RADIUS: f32 = 4.5;
/// An instant's mark stands for this many points of time either side, for
/// the pointer to find it.
pub const EVENT_HOVER_PX: f32 = 5.0;
/// The map's event marks: the fuel pump's and the warning triangle's
/// height, and a stop's dot, from its least to its largest radius.
pub const EVENT_ICON_SIZE: f32 = 15.0;
pub const STOP_MIN_RADIUS: f32 = 3.5;
pub const STOP_MAX_RADIUS: f32 = 14.0;
/// Marks closer than this (points) are drawn as one, and no more than
/// [`MAX_EVENT_MARKS`] a frame.
pub const EVENT_MERGE_PX: f32 = 12.0;
pub const MAX_EVENT_MARKS: usize = 2_000;
/// A map mark's badge (the count of its most telling kind): its height.
pub const EVENT_BADGE_HEIGHT: f32 = 13.0;
/// Marks holding several events named for accessibility, at most, the
/// most telling first.
pub const MAX_NAMED_MARKS: usize = 64;

/// A stop's dot radius: its area grows with its duration (square root),
/// from a 5-min stop's at [`STOP_MIN_RADIUS`] to a day's at
/// [`STOP_MAX_RADIUS`].
pub fn stop_radius(duration_secs: Option<i64>) -> f32 {
    let minutes = duration_secs.unwrap_or(0).max(0) as f32 / 60.0;
    (STOP_MIN_RADIUS + 0.3 * (minutes - 5.0).max(0.0).sqrt()).min(STOP_MAX_RADIUS)
}

/// Contrast wanted of text (WCAG AA for body text) and of lines and marks
/// (WCAG's 3:1 for graphics) against the panel they are on.
pub const TEXT_CONTRAST: f32 = 4.5;
pub const GRAPHIC_CONTRAST: f32 = 3.0;

/// `color` moved toward black on a light background, toward white on a
/// dark one, just enough to reach `min_ratio` against `background`. The
/// palette above is drawn for the dark theme; this keeps its hues
/// readable in the light one.
pub fn readable_on(color: Color32, background: Color32, min_ratio: f32) -> Color32 {
    let toward = if contrast_ratio(background, Color32::BLACK)
        > contrast_ratio(background, Color32::WHITE)
    {
        Color32::BLACK
    } else {
        Color32::WHITE
    };
    let [r, g, b, _] = color.to_array();
    let mut c = Color32::from_rgb(r, g, b);
    for step in 1..=20 {
        if contrast_ratio(c, background) >= min_ratio {
            break;
        }
        let t = step as f32 / 20.0;
        let mix = |a: u8, z: u8| (f32::from(a) + (f32::from(z) - f32::from(a)) * t).round() as u8;
        c = Color32::from_rgb(mix(r, toward.r()), mix(g, toward.g()), mix(b, toward.b()));
    }
    c
}

/// A level's (or any palette colour's) text colour on this theme's panels.
pub fn ink(ui: &egui::Ui, color: Color32) -> Color32 {
    readable_on(color, ui.visuals().panel_fill, TEXT_CONTRAST)
}

/// A line's or a mark's colour on this theme's plots and panels.
pub fn line_ink(visuals: &egui::Visuals, color: Color32) -> Color32 {
    readable_on(color, visuals.extreme_bg_color, GRAPHIC_CONTRAST)
}

/// WCAG contrast ratio of two opaque colours (1 to 21).
pub fn contrast_ratio(a: Color32, b: Color32) -> f32 {
    let luminance = |c: Color32| fleetview_core::basemap::relative_luminance(c.to_array());
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// A figure chip's text: its name small above its value; dimmed while the
/// figures are computed again.
pub fn figure_chip(ui: &egui::Ui, name: &str, value: &str, stale: bool) -> egui::text::LayoutJob {
    let style = ui.style();
    let weak = style.visuals.weak_text_color();
    let strong = if stale {
        weak
    } else {
        style.visuals.strong_text_color()
    };
    let mut job = egui::text::LayoutJob::default();
    job.append(
        name,
        0.0,
        egui::TextFormat::simple(egui::TextStyle::Small.resolve(style), weak),
    );
    job.append(
        &format!("\n{value}"),
        0.0,
        egui::TextFormat::simple(egui::TextStyle::Body.resolve(style), strong),
    );
    job
}

/// Height kept above the machine page's tables pane, however high it is
/// dragged: the replay bar, the figures strip (two rows) and a map and plots
/// still worth looking at.
pub const PAGE_ABOVE_TABLES_MIN: f32 = 330.0;

/// The tables pane's tabs and the line under them.
pub const TABLE_TABS_HEIGHT: f32 = 34.0;
/// A line of a pane above its table (a filter, a count, the header).
pub const PANE_LINE_HEIGHT: f32 = 24.0;
/// From one table row to the next.
pub const TABLE_ROW_PITCH: f32 = 25.0;
/// The rows a table pane always has room for.
pub const TABLE_ROWS_MIN: f32 = 5.0;
/// The tables pane at its smallest: the tabs, the most lines any tab shows
/// above its table (filters, the count, the header: four) and five rows.
/// One floor for every tab, so switching tabs moves nothing.
pub const TABLES_PANE_MIN: f32 =
    TABLE_TABS_HEIGHT + 4.0 * PANE_LINE_HEIGHT + TABLE_ROWS_MIN * TABLE_ROW_PITCH + GAP;

/// The plots' column keeps this much for the plots themselves (a plot, or
/// most of one) whatever the Measure tool's pane takes.
pub const PLOTS_MIN_HEIGHT: f32 = 120.0;

/// The Measure tool's statistics at their smallest in their pane under the
/// plots (the span's line, a header and two rows); with less room they
/// float in a window of their own.
pub const SPAN_PANE_MIN_HEIGHT: f32 = 4.0 * PANE_LINE_HEIGHT + 14.0;

/// The map and plots' row at its smallest before the figures strip gives
/// up rows: the plots' toolbar (two lines when narrow), the plots' floor
/// and the Measure pane's.
pub const MAP_AND_PLOTS_MIN: f32 = 2.0 * PANE_LINE_HEIGHT + PLOTS_MIN_HEIGHT + 60.0;

/// The Events table's Kind column: its longest chip ("Suspected drain") on
/// one line.
pub const EVENT_KIND_COLUMN_WIDTH: f32 = 130.0;

/// A table's time column: `2026-11-27 06:26:27` on one line, with the
/// machine's zone's abbreviation after it (`CEST`) when times are in it.
pub fn time_column_width(with_zone: bool) -> f32 {
    if with_zone { 190.0 } else { 150.0 }
}
/// The Events table's Duration column: "within 14 h 56 min" on one line.
pub const EVENT_DURATION_COLUMN_WIDTH: f32 = 140.0;

/// The Service tab's task column at most (a longer name is cut).
pub const SERVICE_TASK_WIDTH: f32 = 200.0;

/// A write the app says went well.
pub const OK_COLOR: Color32 = Color32::from_rgb(0x3C, 0xA8, 0x5E);

/// The colour of a service's status (the Service tab and column).
pub fn service_status_color(status: fleetview_core::service::due::DueStatus) -> Color32 {
    use fleetview_core::service::due::DueStatus as S;
    match status {
        S::Overdue => ERROR,
        S::DueSoon => WARNING,
        S::Unknown => UNKNOWN,
        S::Ok => OK_COLOR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_speeds_and_states_have_their_colours() {
        assert_eq!(level_color("Critical"), CRITICAL);
        assert_eq!(level_color("whatever"), UNKNOWN);
        assert_eq!(speed_color(0.0), Color32::from_rgb(0x5B, 0x8C, 0xFF));
        assert_eq!(speed_color(1.0), Color32::from_rgb(0xFF, 0x5A, 0x5F));
        assert_eq!(speed_color(f32::NAN), UNKNOWN);
        assert_eq!(state_color("stopped"), state_color("false"));
    }

    /// What is drawn on the map's overlays (legend, notes) sits on
    /// `MAP_OVERLAY_BG` over tiles of any colour: over white, the
    /// lightest it gets.
    fn overlay_over_white() -> Color32 {
        let a = f32::from(MAP_OVERLAY_BG.a()) / 255.0;
        Color32::from_gray((255.0 * (1.0 - a)).round() as u8)
    }

    #[test]
    fn level_colours_are_readable_text_on_both_themes() {
        let levels = [ERROR, WARNING, INFO, UNKNOWN, CRITICAL, OFFLINE];
        for visuals in [egui::Visuals::dark(), egui::Visuals::light()] {
            for bg in [visuals.panel_fill, visuals.window_fill] {
                for c in levels.into_iter().chain(["critical", "x"].map(level_color)) {
                    let text = readable_on(c, bg, TEXT_CONTRAST);
                    let ratio = contrast_ratio(text, bg);
                    assert!(ratio >= TEXT_CONTRAST, "{c:?} on {bg:?}: {ratio:.2}");
                }
            }
        }
        // Drawn for the dark theme: unchanged there, darker on the light one.
        let dark = egui::Visuals::dark().panel_fill;
        let light = egui::Visuals::light().panel_fill;
        assert_eq!(readable_on(INFO, dark, TEXT_CONTRAST), INFO);
        let on_light = readable_on(WARNING, light, TEXT_CONTRAST);
        assert_ne!(on_light, WARNING);
        assert!(on_light.r() > on_light.b(), "still an orange: {on_light:?}");
    }

    #[test]
    fn machine_states_are_readable_text_on_both_themes() {
        use fleetview_core::analysis::MachineState;
        for visuals in [egui::Visuals::dark(), egui::Visuals::light()] {
            let bg = visuals.panel_fill;
            for s in MachineState::ALL {
                let text = readable_on(machine_state_color(s), bg, TEXT_CONTRAST);
                let ratio = contrast_ratio(text, bg);
                assert!(ratio >= TEXT_CONTRAST, "{s:?} on {bg:?}: {ratio:.2}");
            }
        }
    }

    #[test]
    fn plot_lines_bars_and_the_cursor_stand_out_on_both_themes() {
        let plotted =
            (0..6)
                .map(series_color)
                .chain([WORKING, IDLE, FUEL, DISTANCE, ESTIMATED, SPAN_BORDER]);
        for visuals in [egui::Visuals::dark(), egui::Visuals::light()] {
            let bg = visuals.extreme_bg_color;
            for c in plotted.clone() {
                let ratio = contrast_ratio(line_ink(&visuals, c), bg);
                assert!(ratio >= GRAPHIC_CONTRAST, "{c:?} on {bg:?}: {ratio:.2}");
            }
        }
    }

    #[test]
    fn the_speed_legend_reads_on_any_tile_in_either_theme() {
        // The legend is drawn on its own dark plate whatever the theme:
        // its white labels, and every colour of its scale, against the
        // plate over the lightest tile.
        let plate = overlay_over_white();
        assert!(contrast_ratio(Color32::WHITE, plate) >= TEXT_CONTRAST);
        for k in 0..=20 {
            let c = speed_color(k as f32 / 20.0);
            let ratio = contrast_ratio(c, plate);
            assert!(ratio >= GRAPHIC_CONTRAST, "speed {k}/20 {c:?}: {ratio:.2}");
        }
        let missing = contrast_ratio(speed_color(f32::NAN), plate);
        assert!(missing >= GRAPHIC_CONTRAST, "no speed: {missing:.2}");
    }

    #[test]
    fn the_track_and_the_marks_edges_stand_out_on_either_basemap() {
        for visuals in [egui::Visuals::dark(), egui::Visuals::light()] {
            let palette = basemap_palette(&visuals);
            for [r, g, b, _] in [palette.land(), palette.water()] {
                let ground = Color32::from_rgb(r, g, b);
                let edge = contrast_ratio(map_outline(&visuals), ground);
                assert!(edge >= GRAPHIC_CONTRAST, "edges on {ground:?}: {edge:.2}");
                let halo = contrast_ratio(activity_halo(&visuals), ground);
                assert!(halo >= GRAPHIC_CONTRAST, "halo on {ground:?}: {halo:.2}");
                // The casing (premultiplied black) over the ground.
                let cased = track_casing(&visuals).map(|c| {
                    let keep = 1.0 - f32::from(c.a()) / 255.0;
                    let dim = |v: u8| (f32::from(v) * keep).round() as u8;
                    contrast_ratio(Color32::from_rgb(dim(r), dim(g), dim(b)), ground)
                });
                for k in 0..=20 {
                    let c = speed_color(k as f32 / 20.0);
                    let line = contrast_ratio(c, ground);
                    assert!(
                        line >= GRAPHIC_CONTRAST || cased.is_some_and(|x| x >= GRAPHIC_CONTRAST),
                        "speed {k}/20 {c:?} on {ground:?}: {line:.2}, casing {cased:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn stop_dots_grow_with_duration_within_bounds() {
        assert_eq!(stop_radius(Some(300)), STOP_MIN_RADIUS);
        assert_eq!(stop_radius(None), STOP_MIN_RADIUS);
        let (hour, day) = (stop_radius(Some(3600)), stop_radius(Some(86_400)));
        assert!(STOP_MIN_RADIUS < hour && hour < day, "{hour} {day}");
        assert!(day <= STOP_MAX_RADIUS);
        assert_eq!(stop_radius(Some(30 * 86_400)), STOP_MAX_RADIUS);
    }
}
