//! Saikoro's own USI options, declared once as typed [`UsiOption`]s. The `option` lines `usi`
//! prints are their `Display`; a `setoption` value is read by their
//! [`parse_value`](UsiOption::parse_value), and the engine sets its state from the typed value
//! in one `match` on [`OptionId`]. Adding an option is one entry here, a field of [`Options`]
//! and one arm of that match (plus the golden transcripts that show `usi`).

use saikoro_core::EnteringKingRule;
use saikoro_usi::{OptionKind, OptionValueError, UsiOption};
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Engine;
    use saikoro_usi::{parse_engine_line, EngineMessage};

    /// Saikoro's options as docs/engine.md and the golden transcripts state them, written out.
    fn spec() -> Vec<UsiOption> {
        let option = |name: &str, kind| UsiOption {
            name: name.to_string(),
            kind,
        };
        vec![
            option("USI_Ponder", OptionKind::Check { default: false }),
            option(
                "Seed",
                OptionKind::Spin {
                    default: 0,
                    min: 0,
                    max: 2_147_483_647,
                },
            ),
            option(
                "EnteringKingRule",
                OptionKind::Combo {
                    default: "CSARule27".to_string(),
                    vars: vec![
                        "NoEnteringKing".to_string(),
                        "CSARule24".to_string(),
                        "CSARule27".to_string(),
                    ],
                },
            ),
            option(
                "LogFile",
                OptionKind::Filename {
                    default: String::new(),
                },
            ),
        ]
    }

    /// The output lines of `input`, one command a line.
    fn run(engine: &mut Engine, input: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        for line in input {
            engine.handle_line(line, &mut out).unwrap();
        }
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The `option` lines `usi` prints, read back as a GUI reads them.
    fn printed() -> Vec<UsiOption> {
        run(&mut Engine::new(), &["usi"])
            .iter()
            .filter_map(|l| match parse_engine_line(l) {
                EngineMessage::Option(o) => Some(o.unwrap_or_else(|e| panic!("{l}: {e}"))),
                _ => None,
            })
            .collect()
    }

    /// What a `setoption` that is accepted prints.
    const NOTHING: [&str; 0] = [];

    fn setoption(name: &str, value: &str) -> String {
        format!("setoption name {name} value {value}")
    }

    #[test]
    fn printed_lines_read_back_as_declared() {
        assert_eq!(printed(), spec());
        assert_eq!(
            Engine::declared_options().cloned().collect::<Vec<_>>(),
            spec()
        );
        for o in spec() {
            assert_eq!(o.inconsistency(), None, "{o}");
        }
    }

    /// Every spin `usi` prints accepts its min and max and refuses one past either, with the
    /// warning naming the printed range.
    #[test]
    fn every_spin_takes_its_limits_and_refuses_one_past_them() {
        let mut spins = 0;
        for o in printed() {
            let OptionKind::Spin { min, max, .. } = o.kind else {
                continue;
            };
            spins += 1;
            let mut e = Engine::new();
            for ok in [min, max] {
                assert_eq!(
                    run(&mut e, &[&setoption(&o.name, &ok.to_string())]),
                    NOTHING
                );
            }
            for bad in [min - 1, max + 1] {
                assert_eq!(
                    run(&mut e, &[&setoption(&o.name, &bad.to_string())]),
                    [format!(
                        "info string setoption {}: bad value '{bad}' (expected an integer from {min} to {max})",
                        o.name
                    )]
                );
            }
        }
        assert_eq!(spins, 1);
        let mut e = Engine::new();
        assert_eq!(
            run(&mut e, &["setoption name Seed value 2147483647"]),
            NOTHING
        );
        assert_eq!(e.options().seed, 2_147_483_647);
        assert_eq!(
            run(&mut e, &["setoption name Seed value 2147483648", "setoption name Seed value x"]),
            [
                "info string setoption Seed: bad value '2147483648' (expected an integer from 0 to 2147483647)",
                "info string setoption Seed: bad value 'x' (expected an integer from 0 to 2147483647)",
            ]
        );
        assert_eq!(e.options().seed, 2_147_483_647);
    }

    /// Every spin the engine reads, declared or not, takes a fraction within its limits as the
    /// nearest integer (a half away from zero, as OpenBench's SPSA asks), and says so; a
    /// fraction below its limits as written is refused, as a negative integer is.
    #[test]
    fn every_spin_rounds_a_fraction_within_its_limits() {
        let mut spins = 0;
        for entry in TABLE.iter() {
            let OptionKind::Spin { min, .. } = entry.option.kind else {
                continue;
            };
            spins += 1;
            assert_eq!(min, 0, "the cases below are written for min 0");
            let name = &entry.option.name;
            let mut e = Engine::new();
            for (sent, rounded) in [("0.4", 0), ("12.5", 13), ("16.73", 17), ("7.0", 7)] {
                assert_eq!(
                    run(&mut e, &[&setoption(name, sent)]),
                    [format!(
                        "info string setoption {name}: {sent} rounded to {rounded}"
                    )]
                );
            }
            let why = entry.expected(&OptionValueError::NotInteger);
            assert_eq!(
                run(&mut e, &[&setoption(name, "-0.4")]),
                [format!(
                    "info string setoption {name}: bad value '-0.4' ({why})"
                )]
            );
        }
        assert_eq!(spins, 2, "Seed and USI_Hash");
        let mut e = Engine::new();
        run(&mut e, &["setoption name Seed value 12.5"]);
        assert_eq!(e.options().seed, 13);
        run(&mut e, &["setoption name Seed value 12.4"]);
        assert_eq!(e.options().seed, 12);
        // Up to the largest seed, not past it; a refused value leaves the seed as it was.
        run(&mut e, &["setoption name Seed value 2147483646.5"]);
        assert_eq!(e.options().seed, 2_147_483_647);
        run(&mut e, &["setoption name Seed value 12.4"]);
        assert_eq!(
            run(
                &mut e,
                &["setoption name Seed value 2147483647.5", "setoption name Seed value -0.4"]
            ),
            [
                "info string setoption Seed: bad value '2147483647.5' (expected an integer from 0 to 2147483647)",
                "info string setoption Seed: bad value '-0.4' (expected an integer from 0 to 2147483647)",
            ]
        );
        assert_eq!(e.options().seed, 12);
    }

    /// Every combo `usi` prints accepts each of its vars (in any case) and nothing else;
    /// EnteringKingRule's vars set the rules they name.
    #[test]
    fn every_combo_takes_each_var_and_nothing_else() {
        for o in printed() {
            let OptionKind::Combo { vars, .. } = &o.kind else {
                continue;
            };
            let mut e = Engine::new();
            for var in vars {
                for sent in [var.clone(), var.to_ascii_lowercase()] {
                    assert_eq!(run(&mut e, &[&setoption(&o.name, &sent)]), NOTHING);
                }
            }
            let out = run(&mut e, &[&setoption(&o.name, "NoSuchVar")]);
            assert_eq!(out.len(), 1, "{out:?}");
        }
        let mut e = Engine::new();
        for (var, rule) in [
            ("NoEnteringKing", EnteringKingRule::NoEnteringKing),
            ("csarule24", EnteringKingRule::CsaRule24),
            ("CSARule27", EnteringKingRule::CsaRule27),
        ] {
            assert_eq!(run(&mut e, &[&setoption("EnteringKingRule", var)]), NOTHING);
            assert_eq!(e.options().entering_king_rule, rule);
        }
        assert_eq!(
            run(&mut e, &["setoption name EnteringKingRule value TryRule"]),
            ["info string setoption EnteringKingRule: bad value 'TryRule' (expected NoEnteringKing, CSARule24 or CSARule27)"]
        );
    }

    /// Every check `usi` prints accepts `true` and `false` (in any case) and nothing else.
    #[test]
    fn every_check_takes_true_or_false() {
        let mut checks = 0;
        for o in printed() {
            if !matches!(o.kind, OptionKind::Check { .. }) {
                continue;
            }
            checks += 1;
            let mut e = Engine::new();
            for ok in ["true", "FALSE", "True"] {
                assert_eq!(run(&mut e, &[&setoption(&o.name, ok)]), NOTHING);
            }
            assert_eq!(
                run(&mut e, &[&setoption(&o.name, "yes")]),
                [format!(
                    "info string setoption {}: bad value 'yes' (expected true or false)",
                    o.name
                )]
            );
        }
        assert_eq!(checks, 1);
        let mut e = Engine::new();
        run(&mut e, &["setoption name USI_Ponder value true"]);
        assert!(e.options().ponder);
    }

    /// Each option the engine reads, declared or not, takes its own default under any case of
    /// its name, and the defaults are the starting state.
    #[test]
    fn every_default_is_accepted_and_is_the_start() {
        let mut e = Engine::new();
        for entry in TABLE.iter() {
            let o = &entry.option;
            let value = o.default_value().unwrap();
            for name in [
                o.name.clone(),
                o.name.to_ascii_lowercase(),
                o.name.to_ascii_uppercase(),
            ] {
                assert_eq!(run(&mut e, &[&setoption(&name, &value)]), NOTHING, "{o}");
            }
        }
        assert_eq!(*e.options(), Options::default());
        assert_eq!(
            Options::default(),
            Options {
                seed: 0,
                entering_king_rule: EnteringKingRule::CsaRule27,
                log_file: String::new(),
                ponder: false,
            }
        );
        // The printed `<empty>` reads as no log file.
        assert_eq!(
            run(&mut e, &["setoption name LogFile value <empty>"]),
            NOTHING
        );
        assert_eq!(e.options().log_file, "");
    }

    /// GUIs send USI_Hash whether or not it is declared: a size is taken silently, other text
    /// warned about, and `usi` does not print it.
    #[test]
    fn usi_hash_is_read_but_not_declared() {
        assert!(printed().iter().all(|o| o.name != "USI_Hash"));
        let mut e = Engine::new();
        assert_eq!(
            run(
                &mut e,
                &[
                    "setoption name USI_Hash value 256",
                    "setoption name usi_hash value 0"
                ]
            ),
            NOTHING
        );
        assert_eq!(
            run(&mut e, &["setoption name USI_Hash value lots"]),
            ["info string setoption USI_Hash: bad value 'lots' (expected a size in MB)"]
        );
    }

    #[test]
    fn unknown_options_are_warned_about() {
        assert_eq!(
            run(&mut Engine::new(), &["setoption name Threads value 4"]),
            ["info string setoption: unknown option 'Threads' ignored (the options are USI_Ponder, Seed, EnteringKingRule, LogFile)"]
        );
    }
}
