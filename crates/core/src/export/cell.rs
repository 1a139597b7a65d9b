//! CSV cells that come from the service (D14): text that a spreadsheet
//! would read as a formula (`=`, `+`, `-`, `@`, tab, carriage return first)
//! is written with a leading `'`, which spreadsheets show as text. Numbers,
//! dates and flags the app writes itself never pass through here, so a
//! negative number stays a number.

use std::borrow::Cow;

/// The characters that make a spreadsheet evaluate a cell.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `s` as a CSV cell that no spreadsheet evaluates.
pub fn text_cell(s: &str) -> Cow<'_, str> {
    if s.starts_with(FORMULA_STARTS) {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// Whether a cell as written could be evaluated as a formula: for tests
/// of every writer.
pub fn is_formula(cell: &str) -> bool {
    cell.starts_with(FORMULA_STARTS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn formulas_become_text_and_plain_text_is_kept() {
        assert_eq!(text_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(text_cell("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0");
        assert_eq!(text_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(text_cell("-2+3"), "'-2+3");
        assert_eq!(text_cell("\tx"), "'\tx");
        assert_eq!(text_cell("\rx"), "'\rx");
        assert_eq!(text_cell("SPN 100 FMI 1"), "SPN 100 FMI 1");
        assert_eq!(text_cell(""), "");
        assert!(matches!(text_cell("Rotterdam"), Cow::Borrowed(_)));
    }

    proptest! {
        #[test]
        fn no_cell_is_a_formula_and_nothing_is_lost(s in any::<String>()) {
            let cell = text_cell(&s);
            prop_assert!(!is_formula(&cell));
            // The text is all there: at most one quote in front.
            let kept = if cell.len() == s.len() { &cell[..] } else { &cell[1..] };
            prop_assert_eq!(kept, s.as_str());
        }

        #[test]
        fn formulas_are_quoted(first in proptest::sample::select(FORMULA_STARTS.to_vec()), rest in ".*") {
            let s = format!("{first}{rest}");
            prop_assert_eq!(text_cell(&s).into_owned(), format!("'{s}"));
        }
    }
}
