//! Saikoro's own USI options, declared once as typed [`UsiOption`]s. The `option` lines `usi`
//! prints are their `Display`; a `setoption` value is read by their
//! [`parse_value`](UsiOption::parse_value), and the engine sets its state from the typed value
//! in one `match` on [`OptionId`]. Adding an option is one entry here, a field of [`Options`]
//! and one arm of that match (plus the golden transcripts that show `usi`).

use crate::usi::{OptionKind, OptionValueError, UsiOption};
use crate::EnteringKingRule;
use std::sync::LazyLock;

/// The largest `Seed` (2^31 - 1: fits any GUI's 32-bit spin control).
pub const SEED_MAX: u64 = (1 << 31) - 1;

/// The engine options (`setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Seed`: the random generator's seed; 0 draws a fresh one from the OS each game.
    pub seed: u64,
    /// `EnteringKingRule`: when `bestmove win` is declared.
    pub entering_king_rule: EnteringKingRule,
    /// `LogFile`: where logs are appended; empty for none.
    pub log_file: String,
    /// `USI_Ponder`: stored only (the engine never asks to ponder).
    pub ponder: bool,
}

impl Default for Options {
    /// Also the defaults the `option` lines declare.
    fn default() -> Self {
        Options {
            seed: 0,
            entering_king_rule: EnteringKingRule::CsaRule27,
            log_file: String::new(),
            ponder: false,
        }
    }
}

/// Which of Saikoro's options an entry is: what the engine matches on to set its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OptionId {
    UsiPonder,
    Seed,
    EnteringKingRule,
    LogFile,
    UsiHash,
}

/// One option the engine reads.
pub(super) struct Entry {
    pub(super) id: OptionId,
    /// The name, type, default and limits.
    pub(super) option: UsiOption,
    /// Printed for `usi`; false for an option GUIs send whether or not it is declared.
    declared: bool,
    /// What a bad value's warning says was expected, where the type's own words do not fit.
    expected: Option<&'static str>,
}

impl Entry {
    fn declared(id: OptionId, name: &str, kind: OptionKind) -> Entry {
        Entry {
            id,
            option: UsiOption {
                name: name.to_string(),
                kind,
            },
            declared: true,
            expected: None,
        }
    }

    /// The warning's `expected …` for a value the option refused: the spin's range (also for
    /// a value that is no integer), the combo's choices, the check's two values.
    pub(super) fn expected(&self, err: &OptionValueError) -> String {
        if let Some(what) = self.expected {
            return format!("expected {what}");
        }
        match &self.option.kind {
            &OptionKind::Spin { min, max, .. } => {
                OptionValueError::OutOfRange { min, max }.to_string()
            }
            OptionKind::Combo { vars, .. } => match vars.split_last() {
                Some((last, [])) => format!("expected {last}"),
                Some((last, rest)) => format!("expected {} or {last}", rest.join(", ")),
                None => err.to_string(),
            },
            _ => err.to_string(),
        }
    }
}

/// Every option the engine reads, declared ones in the order `usi` prints them.
static TABLE: LazyLock<Vec<Entry>> = LazyLock::new(|| {
    let d = Options::default();
    vec![
        Entry::declared(
            OptionId::UsiPonder,
            "USI_Ponder",
            OptionKind::Check { default: d.ponder },
        ),
        Entry::declared(
            OptionId::Seed,
            "Seed",
            OptionKind::Spin {
                default: d.seed as i64,
                min: 0,
                max: SEED_MAX as i64,
            },
        ),
        Entry::declared(
            OptionId::EnteringKingRule,
            "EnteringKingRule",
            OptionKind::Combo {
                default: d.entering_king_rule.name().to_string(),
                vars: EnteringKingRule::ALL
                    .iter()
                    .map(|r| r.name().to_string())
                    .collect(),
            },
        ),
        Entry::declared(
            OptionId::LogFile,
            "LogFile",
            OptionKind::Filename {
                default: d.log_file.clone(),
            },
        ),
        // Not declared (no hash table), but GUIs send it anyway.
        Entry {
            id: OptionId::UsiHash,
            option: UsiOption {
                name: "USI_Hash".to_string(),
                kind: OptionKind::Spin {
                    default: 0,
                    min: 0,
                    max: i64::MAX,
                },
            },
            declared: false,
            expected: Some("a size in MB"),
        },
    ]
});

/// The options `usi` declares, in order.
pub(super) fn declared() -> impl Iterator<Item = &'static UsiOption> {
    TABLE.iter().filter(|e| e.declared).map(|e| &e.option)
}

/// The option called `name`, matched without regard to ASCII case.
pub(super) fn find(name: &str) -> Option<&'static Entry> {
    TABLE
        .iter()
        .find(|e| e.option.name.eq_ignore_ascii_case(name))
}
