//! SFEN parsing against the data files `positions/valid.sfen` and `positions/invalid.sfen`
//! (formats described at the top of each file and in `positions/README.md`).

use super::read_positions_file;

use saikoro_core::sfen;
use saikoro_core::{InvalidSfen, KingRule, Position, PositionError, SfenError, STARTPOS_SFEN};

/// The error as `invalid.sfen` writes it in full: the inner error's `Debug` text
/// (`RankLength { rank: 1, offset: 2, squares: 10 }`).
fn full_error(e: &InvalidSfen) -> String {
    match e {
        InvalidSfen::Syntax(e) => format!("{e:?}"),
        InvalidSfen::Position(e) => format!("{e:?}"),
    }
}

/// The variant name at the start of an error's text (`RankLength`, `Nifu`, ...).
fn variant_name(error: &str) -> String {
    error
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect()
}

const SFEN_ERRORS: [&str; 9] = [
    "MissingField",
    "UnexpectedChar",
    "RankLength",
    "RankCount",
    "BadPromotion",
    "BadHandCount",
    "KingInHand",
    "BadMoveNumber",
    "TrailingText",
];
const POSITION_ERRORS: [&str; 5] = [
    "KingCount",
    "TooManyPieces",
    "Nifu",
    "DeadPiece",
    "OpponentInCheck",
];

/// The non-empty, non-comment lines of a `.sfen` file, with their 1-based line numbers. A `#`
/// starts a comment only at the start of a line or after whitespace.
pub fn sfen_lines(name: &str) -> Vec<(usize, String)> {
    read_positions_file(name)
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

#[test]
fn valid_sfens_are_accepted_and_printed_canonically() {
    let lines = sfen_lines("valid.sfen");
    assert!(lines.len() >= 30, "only {} valid lines", lines.len());
    let mut failures = Vec::new();
    for (n, line) in &lines {
        let (line, lenient) = match line.split_once(" # ") {
            Some((s, tag)) => {
                assert_eq!(tag.trim(), "lenient", "valid.sfen:{n}: unknown tag");
                (s, true)
            }
            None => (line.as_str(), false),
        };
        let (input, expected) = match line.split_once(" => ") {
            Some((i, c)) => (i, c.trim()),
            None => (line, line.trim()),
        };
        let parsed = if lenient {
            match Position::from_sfen(input) {
                Err(InvalidSfen::Position(PositionError::KingCount { count: 0, .. })) => {}
                other => failures.push(format!(
                    "valid.sfen:{n}: strict parse should fail with KingCount, got {other:?}"
                )),
            }
            Position::from_sfen_lenient(input)
        } else {
            Position::from_sfen(input)
        };
        match parsed {
            Ok(pos) => {
                if pos.to_sfen() != expected {
                    failures.push(format!(
                        "valid.sfen:{n}: {input:?} printed as {:?}, expected {expected:?}",
                        pos.to_sfen()
                    ));
                }
                // The canonical text is a fixed point.
                let again = Position::from_sfen_lenient(&pos.to_sfen()).unwrap();
                assert_eq!(
                    again, pos,
                    "valid.sfen:{n}: canonical text does not round-trip"
                );
            }
            Err(e) => failures.push(format!("valid.sfen:{n}: {input:?} rejected: {e}")),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn invalid_sfens_are_rejected_with_the_expected_error() {
    let lines = sfen_lines("invalid.sfen");
    let mut seen = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for (n, line) in &lines {
        let (input, expected) = line
            .rsplit_once(" # ")
            .unwrap_or_else(|| panic!("invalid.sfen:{n}: no ` # <Variant>`"));
        // The variant alone, or the whole error with its fields.
        let expected_error = expected.trim();
        let variant = variant_name(expected_error);
        let expected = variant.as_str();
        assert!(
            SFEN_ERRORS.contains(&expected) || POSITION_ERRORS.contains(&expected),
            "invalid.sfen:{n}: unknown variant {expected:?}"
        );
        seen.insert(expected.to_string());
        match Position::from_sfen(input) {
            Ok(p) => failures.push(format!(
                "invalid.sfen:{n}: {input:?} accepted as {}",
                p.to_sfen()
            )),
            Err(e) => {
                let full = full_error(&e);
                let got = variant_name(&full);
                let right_layer = match &e {
                    InvalidSfen::Syntax(_) => SFEN_ERRORS.contains(&got.as_str()),
                    InvalidSfen::Position(_) => POSITION_ERRORS.contains(&got.as_str()),
                };
                let fields_differ = expected_error != expected && full != expected_error;
                if got != expected || !right_layer || fields_differ {
                    failures.push(format!(
                        "invalid.sfen:{n}: {input:?}: expected {expected_error}, got {e:?}"
                    ));
                }
                // Syntax errors come from the parser alone; rules errors only after it.
                let syntax = sfen::parse(input);
                match (&e, syntax) {
                    (InvalidSfen::Syntax(a), Err(b)) if *a == b => {}
                    (InvalidSfen::Position(_), Ok(_)) => {}
                    (e, s) => failures.push(format!(
                        "invalid.sfen:{n}: from_sfen gave {e:?} but parse gave {s:?}"
                    )),
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    for v in SFEN_ERRORS.iter().chain(&POSITION_ERRORS) {
        assert!(seen.contains(*v), "invalid.sfen has no line for {v}");
    }
}

#[test]
fn empty_and_blank_text_miss_the_board_field() {
    for s in ["", " ", "\t \t"] {
        assert!(
            matches!(sfen::parse(s), Err(SfenError::MissingField { .. })),
            "{s:?}"
        );
    }
}

#[test]
fn lenient_constructor_still_rejects_two_kings_and_other_rule_errors() {
    for s in [
        "4k4/9/9/9/9/9/9/9/3KK4 b - 1",
        "9/9/9/9/4P4/4P4/9/9/9 b - 1",
        "P8/9/9/9/9/9/9/9/9 b - 1",
        "9/9/9/9/9/9/9/9/9 b 19p 1",
    ] {
        assert!(Position::from_sfen_lenient(s).is_err(), "{s}");
    }
}

#[test]
fn from_setup_agrees_with_from_sfen() {
    for sfen in [STARTPOS_SFEN, "4k4/9/9/9/9/9/9/9/4K4 b 2pP3gR 5"] {
        let setup = sfen::parse(sfen).unwrap();
        let pos = Position::from_setup(&setup, KingRule::Required).unwrap();
        assert_eq!(pos, Position::from_sfen(sfen).unwrap());
        assert_eq!(pos.to_setup(), setup);
    }
}

/// Whatever `from_setup` accepts, `to_sfen` must print as text that `from_sfen` accepts again:
/// a setup with move number 0 (which SFEN text cannot carry) is read as move number 1.
#[test]
fn from_setup_output_always_reparses() {
    let mut setup = sfen::parse("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
    setup.ply = 0;
    if let Ok(pos) = Position::from_setup(&setup, KingRule::Required) {
        let text = pos.to_sfen();
        assert!(
            Position::from_sfen(&text).is_ok(),
            "from_setup accepted ply 0 and printed {text:?}, which from_sfen rejects: {:?}",
            Position::from_sfen(&text)
        );
        assert_eq!(pos.ply(), 1);
    }
}
