//! The "needs attention" strip at the top of the Fleet page: how many
//! machines need attention for each kind (faults by their worst level),
//! each count a button that filters the table to those machines (a second
//! click, or *× Show all*, removes it); the look-back and the idle
//! threshold beside it. And the Flags cell: a machine's items, each
//! opening the machine at its time.

use crate::app::overview::{
    AttentionFilter, AttentionSettings, Filters, LOOK_BACK_CHOICES_DAYS, worst_fault,
};
use crate::app::{Action, AppState, Loadable, OverviewAction};
use crate::ui::format;
use crate::ui::theme;
use fleetview_core::analysis::{Attention, AttentionKind};

/// What a count's button says: `Critical faults: 2`, `Suspected drains: 1`.
pub fn count_label(filter: &AttentionFilter, n: usize, settings: AttentionSettings) -> String {
    let what = match filter {
        AttentionFilter::Fault(level) => format!("{} faults", capitalised(level)),
        AttentionFilter::Kind(AttentionKind::HighIdle) => {
            format!("Idle > {} %", settings.idle_threshold_percent)
        }
        AttentionFilter::Kind(k) => k.label().to_owned(),
    };
    format!("{what}: {n}")
}

/// `error` as `Error`: the service's level labels start a button's text.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

fn hint(filter: &AttentionFilter, days: u16) -> String {
    let period = format!("in the last {days} days");
    match filter {
        AttentionFilter::Fault(level) => {
            format!("Machines whose worst fault {period} is {level}")
        }
        AttentionFilter::Kind(AttentionKind::FuelDrop) => {
            format!("Machines whose fuel fell by 5 points or more with the engine off {period}")
        }
        AttentionFilter::Kind(AttentionKind::CounterReset) => {
            format!("Machines whose hour meter went down {period}")
        }
        AttentionFilter::Kind(AttentionKind::ServiceDue) => {
            "Machines with a service overdue or due soon (their service plans)".to_owned()
        }
        AttentionFilter::Kind(AttentionKind::Silent) => {
            "Machines with no report for more than 24 h, or none ever".to_owned()
        }
        AttentionFilter::Kind(AttentionKind::HighIdle) => {
            format!("Machines idle for more than this share of their engine hours {period}")
        }
        AttentionFilter::Kind(AttentionKind::Gap) => {
            format!("Machines whose feed fell silent for hours while the engine ran {period}")
        }
        AttentionFilter::Kind(AttentionKind::Fault) => String::new(),
    }
}

fn color(filter: &AttentionFilter) -> egui::Color32 {
    match filter {
        AttentionFilter::Fault(level) => theme::level_color(level),
        AttentionFilter::Kind(AttentionKind::Silent) => {
            theme::machine_state_color(fleetview_core::analysis::MachineState::Silent)
        }
        _ => theme::WARNING,
    }
}

/// The strip: one line (wrapped on a narrow window).
pub fn attention_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    let o = state.overview();
    let settings = o.settings.attention;
    let filters = &o.settings.filters;
    ui.horizontal_wrapped(|ui| {
        ui.strong("Needs attention");
        look_back_ui(ui, settings, actions);
        let n = state.fleet().equipments.len();
        let left = o.look_back.loading(n);
        if left > 0 && n > 0 {
            let done = n - left;
            ui.add_sized(
                [170.0, ui.spacing().interact_size.y],
                egui::ProgressBar::new(done as f32 / n as f32)
                    .text(format!("{done} of {n} machines read")),
            )
            .on_hover_text(
                "Each machine's last days are read in the background; the counts grow as they come",
            );
        }
        for (filter, count) in &o.look_back.counts {
            count_ui(ui, filters, filter, *count, settings, actions);
            if *filter == AttentionFilter::Kind(AttentionKind::HighIdle) {
                idle_threshold_ui(ui, settings, actions);
            }
        }
        // Always there (greyed without a filter): nothing after it moves
        // when a count is clicked.
        let clear = ui
            .add_enabled(filters.attention.is_some(), egui::Button::new("× Show all"))
            .on_hover_text("Remove the attention filter");
        if clear.clicked() {
            set_filter(filters, None, actions);
        }
        worst_first_ui(ui, o.settings.sort.attention_first, actions);
    });
}

/// Back to the attention sort once a header was clicked.
fn worst_first_ui(ui: &mut egui::Ui, on: bool, actions: &mut Vec<Action>) {
    ui.separator();
    let button = ui
        .add(egui::Button::selectable(on, "Worst first"))
        .on_hover_text(if on {
            "The table lists the machines that need attention first, the worst first. Click a column's header to sort by it instead."
        } else {
            "List the machines that need attention first, the worst first"
        });
    if button.clicked() && !on {
        actions.push(OverviewAction::SortByAttention.into());
    }
}

fn count_ui(
    ui: &mut egui::Ui,
    filters: &Filters,
    filter: &AttentionFilter,
    count: usize,
    settings: AttentionSettings,
    actions: &mut Vec<Action>,
) {
    let active = filters.attention.as_ref() == Some(filter);
    let label = count_label(filter, count, settings);
    let mut text = egui::RichText::new(label);
    if count > 0 {
        text = text.color(theme::ink(ui, color(filter)));
    }
    if active {
        text = text.strong();
    }
    let button = ui
        .add_enabled(count > 0 || active, egui::Button::selectable(active, text))
        .on_hover_text(format!(
            "{}. {}",
            hint(filter, settings.look_back_days),
            if active {
                "Click again to show every machine."
            } else {
                "Click to show only them."
            }
        ));
    if button.clicked() {
        set_filter(filters, (!active).then(|| filter.clone()), actions);
    }
}

fn set_filter(filters: &Filters, attention: Option<AttentionFilter>, actions: &mut Vec<Action>) {
    let next = Filters {
        attention,
        ..filters.clone()
    };
    actions.push(OverviewAction::SetFilters(next).into());
}

fn look_back_ui(ui: &mut egui::Ui, settings: AttentionSettings, actions: &mut Vec<Action>) {
    let name = ui.label("in the last");
    let mut days = settings.look_back_days;
    egui::ComboBox::from_id_salt("attention_look_back")
        .selected_text(format!("{days} days"))
        .width(70.0)
        .show_ui(ui, |ui| {
            for d in LOOK_BACK_CHOICES_DAYS {
                ui.selectable_value(&mut days, d, format!("{d} days"));
            }
        })
        .response
        .labelled_by(name.id)
        .on_hover_text("How far back faults, drains, resets, idle and gaps are looked for, whatever the window of the table's figures");
    if days != settings.look_back_days {
        let next = AttentionSettings {
            look_back_days: days,
            ..settings
        };
        actions.push(OverviewAction::SetAttention(next).into());
    }
}

fn idle_threshold_ui(ui: &mut egui::Ui, settings: AttentionSettings, actions: &mut Vec<Action>) {
    let mut percent = settings.idle_threshold_percent;
    let name = ui.weak("threshold");
    ui.add(
        egui::DragValue::new(&mut percent)
            .range(1..=99)
            .suffix(" %"),
    )
    .labelled_by(name.id)
    .on_hover_text("Idle hours as a share of engine hours over the look-back above which a machine needs attention");
    if percent != settings.idle_threshold_percent {
        let next = AttentionSettings {
            idle_threshold_percent: percent,
            ..settings
        };
        actions.push(OverviewAction::SetAttention(next).into());
    }
}

/// A machine's items in a few words: `Critical fault · 2 suspected drains
/// · silent` (`Error fault` for the service's `error`).
pub fn summary(items: &[Attention]) -> String {
    let n = |k: AttentionKind| items.iter().filter(|a| a.kind == k).count();
    let mut parts = Vec::new();
    if let Some(level) = worst_fault(items) {
        parts.push(format!("{} fault", level.label));
    }
    let drains = n(AttentionKind::FuelDrop);
    if drains > 0 {
        parts.push(format::count(drains, "suspected drain", "suspected drains"));
    }
    let resets = n(AttentionKind::CounterReset);
    if resets > 0 {
        parts.push(format::count(resets, "meter reset", "meter resets"));
    }
    let services = n(AttentionKind::ServiceDue);
    if services > 0 {
        parts.push(format::count(services, "service due", "services due"));
    }
    if n(AttentionKind::Silent) > 0 {
        parts.push("silent".to_owned());
    }
    if n(AttentionKind::HighIdle) > 0 {
        parts.push("high idle".to_owned());
    }
    if n(AttentionKind::Gap) > 0 {
        parts.push("data gaps".to_owned());
    }
    capitalised(&parts.join(" · "))
}

/// The Flags cell: `none`, or a menu of the machine's items over the
/// look-back, each opening the machine there.
pub fn flags_cell_ui(ui: &mut egui::Ui, state: &AppState, id: i64, actions: &mut Vec<Action>) {
    let o = state.overview();
    let items = o.look_back.items_of(id);
    if items.is_empty() {
        match o.look_back.figures.get(&id) {
            Some(f) if f.value().is_some() => {
                ui.label("none");
            }
            Some(Loadable::Failed { error, .. }) => {
                ui.label(format::NULL).on_hover_text(error.as_str());
            }
            _ => {
                ui.weak("…").on_hover_text("Loading");
            }
        }
        return;
    }
    let text =
        egui::RichText::new(format!("⚠ {}", summary(items))).color(theme::ink(ui, theme::WARNING));
    ui.menu_button(text, |ui| {
        ui.weak(format!(
            "In the last {} days; click one to open the machine there",
            o.settings.attention.look_back_days
        ));
        for item in items {
            if ui.button(&item.text).clicked() {
                actions.push(
                    OverviewAction::OpenAt {
                        equipment: id,
                        at: item.at,
                        position: item.position,
                    }
                    .into(),
                );
                ui.close();
            }
        }
    })
    .response
    .on_hover_text("What this machine needs attention for: click to list them and open one");
}
