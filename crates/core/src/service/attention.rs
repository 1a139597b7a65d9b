//! Services overdue or due soon as the Fleet page's attention items
//! (`service_due`): one per plan, in words.

use super::due::{DueItem, DueStatus};
use super::plan::PlanUnit;
use crate::analysis::{Attention, AttentionKind};

/// A remaining amount in words: `12.5 h`, `1,200 km`, `3 days`.
pub fn amount(v: f64, unit: PlanUnit) -> String {
    let v = v.abs();
    match unit {
        PlanUnit::Hours => format!("{} h", trimmed(v)),
        PlanUnit::Km => format!("{} km", trimmed(v)),
        PlanUnit::Days => {
            let n = v.round() as i64;
            format!("{n} {}", if n == 1 { "day" } else { "days" })
        }
    }
}

/// To 0.1, with no trailing `.0`.
fn trimmed(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// What a due item says: `Engine oil overdue by 12.5 h` or `Annual
/// inspection due in 3 days (2026-12-05)`.
pub fn describe(item: &DueItem) -> String {
    let plan = &item.plan.plan;
    let Some(remaining) = item.remaining else {
        return format!("{}: not known", plan.task);
    };
    let when = item
        .when()
        .map(|d| {
            format!(
                " ({}{d})",
                if item.due_day.is_some() { "" } else { "about " }
            )
        })
        .unwrap_or_default();
    match item.status {
        DueStatus::Overdue => format!(
            "{} overdue by {}{when}",
            plan.task,
            amount(remaining, plan.unit)
        ),
        _ => format!(
            "{} due in {}{when}",
            plan.task,
            amount(remaining, plan.unit)
        ),
    }
}

/// The machine's services that need attention (overdue, due soon).
pub fn due_attention(items: &[DueItem]) -> Vec<Attention> {
    items
        .iter()
        .filter(|i| i.status.is_due())
        .map(|i| Attention {
            kind: AttentionKind::ServiceDue,
            text: describe(i),
            at: None,
            position: None,
            level: None,
        })
        .collect()
}
