//! What an engine says: its output lines as typed values, seen from the GUI's side.
//!
//! [`parse_engine_line`] is pure, like [`parse_line`](super::parse_line) for the other
//! direction. It is lenient where GUIs are (unknown lines are [`EngineMessage::Other`], unknown
//! `info` fields are skipped) and exact where they are not: an `option` line that a GUI could
//! not read is an [`OptionError`], and a `bestmove` whose move is not USI move text is kept as
//! text ([`BestMove::Unparsable`]) for the caller to judge. An option's name is the words
//! between `name` and `type`, spaces and all (`Skill Level`), as the engine reads it back in
//! `setoption`.
//!
//! ```
//! use saikoro_usi::{parse_engine_line, BestMove, EngineMessage, OptionKind};
//!
//! match parse_engine_line("option name Seed type spin default 0 min 0 max 100") {
//!     EngineMessage::Option(Ok(o)) => {
//!         assert_eq!(o.name, "Seed");
//!         assert_eq!(o.kind, OptionKind::Spin { default: 0, min: 0, max: 100 });
//!     }
//!     other => panic!("{other:?}"),
//! }
//! match parse_engine_line("bestmove 7g7f ponder 3c3d") {
//!     EngineMessage::BestMove { best: BestMove::Move(m), ponder } => {
//!         assert_eq!(m.to_string(), "7g7f");
//!         assert_eq!(ponder.as_deref(), Some("3c3d"));
//!     }
//!     other => panic!("{other:?}"),
//! }
//! ```

use saikoro_core::Move;
use std::fmt;

/// One line of engine output.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineMessage {
    /// `id name <text>`.
    IdName(String),
    /// `id author <text>`.
    IdAuthor(String),
    /// `option name … type …`, or why it cannot be read.
    Option(Result<UsiOption, OptionError>),
    /// `usiok`.
    UsiOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove <move> [ponder <move>]`.
    BestMove {
        /// The move, `resign` or `win`.
        best: BestMove,
        /// The `ponder` move's text, if any (not checked here).
        ponder: Option<String>,
    },
    /// `checkmate …`, the answer to `go mate`.
    Checkmate(Checkmate),
    /// `info …`.
    Info(Info),
    /// Anything else (blank lines included): GUIs ignore such lines.
    Other(String),
}

/// The move of a `bestmove` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move in USI notation (syntax checked only, not legality).
    Move(Move),
    /// `resign`.
    Resign,
    /// `win`: an entering-king declaration (入玉宣言).
    Win,
    /// Text that is no USI move (or nothing): GUIs score it as a resignation or a foul.
    Unparsable(String),
}

impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BestMove::Move(m) => write!(f, "{m}"),
            BestMove::Resign => f.write_str("resign"),
            BestMove::Win => f.write_str("win"),
            BestMove::Unparsable(t) => f.write_str(t),
        }
    }
}

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkmate {
    /// `checkmate <m1> … <mn>`: the mating line, as text.
    Mate(Vec<String>),
    /// `checkmate nomate`: proven not mate.
    NoMate,
    /// `checkmate timeout`.
    Timeout,
    /// `checkmate notimplemented`.
    NotImplemented,
}

/// The score of an `info` line, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score cp <x>`: centipawns (strictly, hundredths of a pawn).
    Cp(i32),
    /// `score mate <n>`: mate in `n` plies, negative when the engine is being mated; `mate +`
    /// and `mate -` (length unknown) read as `i32::MAX` and `i32::MIN`.
    Mate(i32),
}

/// The fields of `info` lines that tools use; the rest are skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `score cp|mate`, when it is exact (no `lowerbound`/`upperbound`).
    pub score: Option<Score>,
    /// `pv …`: the moves as text.
    pub pv: Vec<String>,
    /// `string …`: the rest of the line.
    pub string: Option<String>,
}

impl Info {
    /// Keeps what `newer` says and the rest of `self`: a search's latest view of itself.
    pub fn update(&mut self, newer: Info) {
        if newer.depth.is_some() {
            self.depth = newer.depth;
        }
        if newer.nodes.is_some() {
            self.nodes = newer.nodes;
        }
        if newer.score.is_some() {
            self.score = newer.score;
        }
        if !newer.pv.is_empty() {
            self.pv = newer.pv;
        }
    }
}

/// An engine option as declared by `option name <id> type <t> …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiOption {
    /// The name, exactly as declared.
    pub name: String,
    /// The type and its values.
    pub kind: OptionKind,
}

/// An option's type with its default and limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `check`: `true` or `false`.
    Check {
        /// The default.
        default: bool,
    },
    /// `spin`: an integer between `min` and `max`.
    Spin {
        /// The default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `combo`: one of `vars`.
    Combo {
        /// The default.
        default: String,
        /// The choices, in order.
        vars: Vec<String>,
    },
    /// `button`: no value.
    Button,
    /// `string`: free text (`<empty>` declares an empty default).
    String {
        /// The default.
        default: String,
    },
    /// `filename`: a path, shown by GUIs as a file picker.
    Filename {
        /// The default.
        default: String,
    },
}

/// A `setoption` value as its option's type reads it ([`UsiOption::parse_value`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A `check`'s `true` or `false`.
    Bool(bool),
    /// A `spin`'s integer, within its limits.
    Int(i64),
    /// A `combo`'s choice (spelt as declared), or a `string`'s or `filename`'s text.
    Text(String),
    /// A `button`'s press.
    Press,
}

/// Why an `option` line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionError {
    /// No `name` first, no name after it, or no `type` after the name (`option name <id> type
    /// <t>`).
    Layout,
    /// A type USI does not define.
    UnknownType(String),
    /// A value the type needs is missing (`default`, `min`, `max`).
    Missing(&'static str),
    /// A value that is not of the option's type.
    BadValue {
        /// The keyword it follows.
        field: &'static str,
        /// The text found.
        text: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Layout => f.write_str("expected 'option name <id> type <type> ...'"),
            OptionError::UnknownType(t) => write!(f, "unknown option type '{t}'"),
            OptionError::Missing(w) => write!(f, "no '{w}' value"),
            OptionError::BadValue { field, text } => write!(f, "bad '{field}' value '{text}'"),
        }
    }
}

impl std::error::Error for OptionError {}

/// A value that an option does not accept (`setoption` would set nonsense).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionValueError {
    /// A `check` value other than `true`/`false`.
    NotBool,
    /// A `spin` value that is not a number.
    NotInteger,
    /// A `spin` value that is a number within `min..=max` but not an integer (`12.2`, or
    /// `1e-05` as Python writes a float): what SPSA tuners send, which OpenBench asks engines
    /// to round to the nearest integer (halves away from zero).
    Fractional {
        /// The integer it rounds to.
        rounded: i64,
    },
    /// A `spin` value outside `min..=max`.
    OutOfRange {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A `combo` value that is not one of its `var`s.
    NotAChoice(Vec<String>),
    /// A value for a `button`.
    ButtonValue,
}

impl fmt::Display for OptionValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValueError::NotBool => f.write_str("expected true or false"),
            OptionValueError::NotInteger => f.write_str("expected an integer"),
            OptionValueError::Fractional { rounded } => write!(
                f,
                "not an integer; the engine will have to round it to {rounded}"
            ),
            OptionValueError::OutOfRange { min, max } => {
                write!(f, "expected an integer from {min} to {max}")
            }
            OptionValueError::NotAChoice(vars) => write!(f, "expected one of {}", vars.join(", ")),
            OptionValueError::ButtonValue => f.write_str("a button takes no value"),
        }
    }
}

impl std::error::Error for OptionValueError {}

impl UsiOption {
    /// The type's USI name: `check`, `spin`, `combo`, `button`, `string` or `filename`.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            OptionKind::Check { .. } => "check",
            OptionKind::Spin { .. } => "spin",
            OptionKind::Combo { .. } => "combo",
            OptionKind::Button => "button",
            OptionKind::String { .. } => "string",
            OptionKind::Filename { .. } => "filename",
        }
    }

    /// The default as `setoption` would send it; `None` for a button.
    pub fn default_value(&self) -> Option<String> {
        match &self.kind {
            OptionKind::Check { default } => Some(default.to_string()),
            OptionKind::Spin { default, .. } => Some(default.to_string()),
            OptionKind::Combo { default, .. }
            | OptionKind::String { default }
            | OptionKind::Filename { default } => Some(default.clone()),
            OptionKind::Button => None,
        }
    }

    /// Whether the declaration contradicts itself: a spin default outside `min..=max` (or
    /// `min > max`), a combo default that is not one of its vars. GUIs show such options
    /// wrongly or refuse them.
    pub fn inconsistency(&self) -> Option<String> {
        match &self.kind {
            OptionKind::Spin { min, max, .. } if min > max => {
                Some(format!("min {min} is greater than max {max}"))
            }
            OptionKind::Spin { default, min, max } if default < min || default > max => {
                Some(format!("default {default} is outside {min}..{max}"))
            }
            OptionKind::Combo { default, vars } if !vars.contains(default) => {
                Some(format!("default '{default}' is not one of its vars"))
            }
            _ => None,
        }
    }

    /// Checks `value` against the declaration (`None` for a button press). Check values and
    /// combo choices are matched without regard to ASCII case, as GUIs and engines do.
    pub fn check_value(&self, value: Option<&str>) -> Result<(), OptionValueError> {
        self.parse_value(value).map(|_| ())
    }

    /// Reads `value` as the declaration's type, with the checks of
    /// [`check_value`](Self::check_value): what an engine sets on `setoption`. A missing value
    /// reads as empty text; a combo choice comes back spelt as declared; `<empty>` for a
    /// `string` or `filename` is the empty text, as in declarations. A spin's fractional value
    /// within its limits is [`OptionValueError::Fractional`], which says what it rounds to:
    /// the caller decides whether to take that.
    pub fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, OptionValueError> {
        let text = value.unwrap_or("");
        match &self.kind {
            OptionKind::Button if text.is_empty() => Ok(OptionValue::Press),
            OptionKind::Button => Err(OptionValueError::ButtonValue),
            OptionKind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                _ => Err(OptionValueError::NotBool),
            },
            &OptionKind::Spin { min, max, .. } => {
                let out_of_range = OptionValueError::OutOfRange { min, max };
                if let Ok(v) = text.parse::<i64>() {
                    return if v < min || v > max {
                        Err(out_of_range)
                    } else {
                        Ok(OptionValue::Int(v))
                    };
                }
                // A number as written must be within the limits; since they are integers,
                // its rounding is then within them too. It is read as a float, as the tuner
                // wrote it from one (beyond 2^53 the limits are judged to a float's
                // precision).
                match text.parse::<f64>() {
                    Ok(x) if !x.is_finite() => Err(OptionValueError::NotInteger),
                    Ok(x) if x < min as f64 || x > max as f64 => Err(out_of_range),
                    Ok(x) => Err(OptionValueError::Fractional {
                        rounded: x.round() as i64,
                    }),
                    Err(_) => Err(OptionValueError::NotInteger),
                }
            }
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(text))
                .map(|v| OptionValue::Text(v.clone()))
                .ok_or_else(|| OptionValueError::NotAChoice(vars.clone())),
            OptionKind::String { .. } | OptionKind::Filename { .. } => {
                Ok(OptionValue::Text(match text {
                    "<empty>" => String::new(),
                    t => t.to_string(),
                }))
            }
        }
    }
}

impl fmt::Display for UsiOption {
    /// The declaration as an engine prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = |s: &str| {
            if s.is_empty() {
                "<empty>".to_string()
            } else {
                s.to_string()
            }
        };
        write!(f, "option name {} type {}", self.name, self.type_name())?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, " default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, " default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, " default {}", text(default))?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::Button => Ok(()),
            OptionKind::String { default } | OptionKind::Filename { default } => {
                write!(f, " default {}", text(default))
            }
        }
    }
}

/// Parses one line of engine output (without its line terminator). Tokens are separated by
/// runs of ASCII whitespace.
pub fn parse_engine_line(line: &str) -> EngineMessage {
    let mut words = line.split_ascii_whitespace();
    let rest_after = |n: usize| rest_of(line, n);
    match words.next() {
        Some("usiok") if words.next().is_none() => EngineMessage::UsiOk,
        Some("readyok") if words.next().is_none() => EngineMessage::ReadyOk,
        Some("id") => match words.next() {
            Some("name") => EngineMessage::IdName(rest_after(2).to_string()),
            Some("author") => EngineMessage::IdAuthor(rest_after(2).to_string()),
            _ => EngineMessage::Other(line.to_string()),
        },
        Some("option") => EngineMessage::Option(parse_option(&words.collect::<Vec<_>>())),
        Some("bestmove") => {
            let best = match words.next() {
                Some("resign") => BestMove::Resign,
                Some("win") => BestMove::Win,
                Some(t) => Move::from_usi(t)
                    .map(BestMove::Move)
                    .unwrap_or_else(|_| BestMove::Unparsable(t.to_string())),
                None => BestMove::Unparsable(String::new()),
            };
            let ponder = match (words.next(), words.next()) {
                (Some("ponder"), Some(p)) => Some(p.to_string()),
                _ => None,
            };
            EngineMessage::BestMove { best, ponder }
        }
        Some("checkmate") => EngineMessage::Checkmate(match words.next() {
            Some("nomate") => Checkmate::NoMate,
            Some("timeout") => Checkmate::Timeout,
            Some("notimplemented") => Checkmate::NotImplemented,
            first => Checkmate::Mate(first.into_iter().chain(words).map(String::from).collect()),
        }),
        Some("info") => EngineMessage::Info(parse_info(line)),
        _ => EngineMessage::Other(line.to_string()),
    }
}

/// The text of `line` after its first `n` words, trimmed.
fn rest_of(line: &str, n: usize) -> &str {
    let mut rest = line.trim_start_matches(|c: char| c.is_ascii_whitespace());
    for _ in 0..n {
        let end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        rest = rest[end..].trim_start_matches(|c: char| c.is_ascii_whitespace());
    }
    rest.trim_end_matches(|c: char| c.is_ascii_whitespace())
}

/// The words after `option`. The name is every word between `name` and the first `type`,
/// joined by single spaces: Fairy-Stockfish declares `option name Skill Level type spin …`, and
/// reads `setoption name Skill Level value …` back the same way (cutechess and fastchess read
/// such names so too; ShogiHome, which reads `name` and `type` at fixed places, drops the
/// line). `default` takes one word; `var` may repeat.
fn parse_option(words: &[&str]) -> Result<UsiOption, OptionError> {
    let ["name", after_name @ ..] = words else {
        return Err(OptionError::Layout);
    };
    let Some(type_at) = after_name.iter().position(|&w| w == "type") else {
        return Err(OptionError::Layout);
    };
    let (name, [_, kind, rest @ ..]) = after_name.split_at(type_at) else {
        return Err(OptionError::Layout);
    };
    if name.is_empty() {
        return Err(OptionError::Layout);
    }
    let mut default = None;
    let mut min = None;
    let mut max = None;
    let mut vars = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let value = rest.get(i + 1).copied();
        match rest[i] {
            "default" => default = value,
            "min" => min = value,
            "max" => max = value,
            "var" => vars.extend(value.map(str::to_string)),
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let text = |v: Option<&str>| match v {
        None | Some("<empty>") => String::new(),
        Some(t) => t.to_string(),
    };
    let int = |field: &'static str, v: Option<&str>| -> Result<i64, OptionError> {
        let t = v.ok_or(OptionError::Missing(field))?;
        t.parse().map_err(|_| OptionError::BadValue {
            field,
            text: t.to_string(),
        })
    };
    let kind = match *kind {
        "check" => OptionKind::Check {
            default: match default {
                Some("true") => true,
                Some("false") => false,
                None => return Err(OptionError::Missing("default")),
                Some(t) => {
                    return Err(OptionError::BadValue {
                        field: "default",
                        text: t.to_string(),
                    })
                }
            },
        },
        "spin" => OptionKind::Spin {
            default: int("default", default)?,
            min: int("min", min)?,
            max: int("max", max)?,
        },
        "combo" => OptionKind::Combo {
            default: text(Some(default.ok_or(OptionError::Missing("default"))?)),
            vars,
        },
        "button" => OptionKind::Button,
        "string" => OptionKind::String {
            default: text(default),
        },
        "filename" => OptionKind::Filename {
            default: text(default),
        },
        other => return Err(OptionError::UnknownType(other.to_string())),
    };
    Ok(UsiOption {
        name: name.join(" "),
        kind,
    })
}

/// The `info` fields tools use. A `score` followed by `lowerbound`/`upperbound` is a bound,
/// not a score, and is dropped.
fn parse_info(line: &str) -> Info {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let mut info = Info::default();
    let mut i = 1;
    while i < words.len() {
        let next = words.get(i + 1).copied();
        match words[i] {
            "depth" => info.depth = next.and_then(|t| t.parse().ok()),
            "nodes" => info.nodes = next.and_then(|t| t.parse().ok()),
            "score" => {
                let value = words.get(i + 2).copied();
                let score = match (next, value) {
                    (Some("cp"), Some(v)) => v.parse().ok().map(Score::Cp),
                    (Some("mate"), Some("+")) => Some(Score::Mate(i32::MAX)),
                    (Some("mate"), Some("-")) => Some(Score::Mate(i32::MIN)),
                    (Some("mate"), Some(v)) => v.parse().ok().map(Score::Mate),
                    _ => None,
                };
                let bound = matches!(words.get(i + 3).copied(), Some("lowerbound" | "upperbound"));
                info.score = if bound { None } else { score };
                i += 3;
                continue;
            }
            "pv" => {
                info.pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                break;
            }
            "string" => {
                info.string = Some(rest_of(line, i + 1).to_string());
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(line: &str) -> Result<UsiOption, OptionError> {
        match parse_engine_line(line) {
            EngineMessage::Option(o) => o,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn info(line: &str) -> Info {
        match parse_engine_line(line) {
            EngineMessage::Info(i) => i,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn handshake_lines() {
        assert_eq!(parse_engine_line("usiok"), EngineMessage::UsiOk);
        assert_eq!(parse_engine_line("readyok"), EngineMessage::ReadyOk);
        assert_eq!(
            parse_engine_line("id name Saikoro 0.1.0"),
            EngineMessage::IdName("Saikoro 0.1.0".into())
        );
        assert_eq!(
            parse_engine_line("id  author  A. N. Other "),
            EngineMessage::IdAuthor("A. N. Other".into())
        );
        assert_eq!(
            parse_engine_line("usiok now"),
            EngineMessage::Other("usiok now".into())
        );
        assert_eq!(parse_engine_line(""), EngineMessage::Other(String::new()));
    }

    /// Every option type as ShogiHome's dummy engine declares them, `<empty>` defaults included.
    #[test]
    fn option_lines_of_every_type() {
        assert_eq!(
            option("option name USI_Ponder type check default false").unwrap(),
            UsiOption {
                name: "USI_Ponder".into(),
                kind: OptionKind::Check { default: false }
            }
        );
        assert_eq!(
            option("option name USI_Hash type spin default 256 min 1 max 1024")
                .unwrap()
                .kind,
            OptionKind::Spin {
                default: 256,
                min: 1,
                max: 1024
            }
        );
        assert_eq!(
            option("option name Style type combo default Normal var Aggressive var Normal var Defensive")
                .unwrap()
                .kind,
            OptionKind::Combo {
                default: "Normal".into(),
                vars: vec!["Aggressive".into(), "Normal".into(), "Defensive".into()]
            }
        );
        assert_eq!(
            option("option name Clear_Hash type button").unwrap().kind,
            OptionKind::Button
        );
        assert_eq!(
            option("option name BookFile type string default <empty>")
                .unwrap()
                .kind,
            OptionKind::String {
                default: String::new()
            }
        );
        assert_eq!(
            option("option name EvalDir type filename default eval")
                .unwrap()
                .kind,
            OptionKind::Filename {
                default: "eval".into()
            }
        );
        // Spin limits may come in any order after the type.
        assert_eq!(
            option("option name X type spin min -5 max 5 default -1")
                .unwrap()
                .kind,
            OptionKind::Spin {
                default: -1,
                min: -5,
                max: 5
            }
        );
    }

    /// Fairy-Stockfish 11.1's names with spaces (its `usi` answer, copied): the name is the
    /// words between `name` and `type`, one space apart, as the engine reads `setoption` back.
    #[test]
    fn option_names_with_spaces() {
        assert_eq!(
            option("option name Skill Level type spin default 20 min -20 max 20").unwrap(),
            UsiOption {
                name: "Skill Level".into(),
                kind: OptionKind::Spin {
                    default: 20,
                    min: -20,
                    max: 20
                }
            }
        );
        assert_eq!(
            option("option name Debug Log File type string default ").unwrap(),
            UsiOption {
                name: "Debug Log File".into(),
                kind: OptionKind::String {
                    default: String::new()
                }
            }
        );
        assert_eq!(
            option("option name Minimum Thinking Time type spin default 20 min 0 max 5000")
                .unwrap()
                .name,
            "Minimum Thinking Time"
        );
        // A run of spaces between the words is one space in the name.
        assert_eq!(
            option("option name  Clear   Hash type button").unwrap(),
            UsiOption {
                name: "Clear Hash".into(),
                kind: OptionKind::Button
            }
        );
    }

    #[test]
    fn option_lines_a_gui_cannot_read() {
        assert_eq!(option("option type spin name X"), Err(OptionError::Layout));
        assert_eq!(option("option name type spin"), Err(OptionError::Layout));
        assert_eq!(
            option("option name My Option check default true"),
            Err(OptionError::Layout)
        );
        assert_eq!(option("option name X type"), Err(OptionError::Layout));
        assert_eq!(
            option("option name X type slider default 1"),
            Err(OptionError::UnknownType("slider".into()))
        );
        assert_eq!(
            option("option name X type spin default 1 min 0"),
            Err(OptionError::Missing("max"))
        );
        assert_eq!(
            option("option name X type check default yes"),
            Err(OptionError::BadValue {
                field: "default",
                text: "yes".into()
            })
        );
        assert_eq!(
            option("option name X type spin default 1.5 min 0 max 2"),
            Err(OptionError::BadValue {
                field: "default",
                text: "1.5".into()
            })
        );
        assert_eq!(
            option("option name X type combo var a var b"),
            Err(OptionError::Missing("default"))
        );
    }

    #[test]
    fn declarations_that_contradict_themselves() {
        let spin = |d, lo, hi| UsiOption {
            name: "S".into(),
            kind: OptionKind::Spin {
                default: d,
                min: lo,
                max: hi,
            },
        };
        assert_eq!(spin(5, 0, 10).inconsistency(), None);
        assert_eq!(spin(0, 0, 0).inconsistency(), None);
        assert!(spin(11, 0, 10).inconsistency().is_some());
        assert!(spin(-1, 0, 10).inconsistency().is_some());
        assert!(spin(5, 10, 0).inconsistency().is_some());
        let combo = option("option name C type combo default c var a var b").unwrap();
        assert!(combo.inconsistency().is_some());
    }

    #[test]
    fn option_values() {
        let spin = option("option name S type spin default 5 min 1 max 10").unwrap();
        assert_eq!(spin.check_value(Some("1")), Ok(()));
        assert_eq!(spin.check_value(Some("10")), Ok(()));
        assert_eq!(
            spin.check_value(Some("11")),
            Err(OptionValueError::OutOfRange { min: 1, max: 10 })
        );
        assert_eq!(
            spin.check_value(Some("x")),
            Err(OptionValueError::NotInteger)
        );
        let check = option("option name P type check default true").unwrap();
        assert_eq!(check.check_value(Some("False")), Ok(()));
        assert_eq!(check.check_value(Some("1")), Err(OptionValueError::NotBool));
        let combo = option("option name C type combo default a var a var b").unwrap();
        assert_eq!(combo.check_value(Some("B")), Ok(()));
        assert!(combo.check_value(Some("c")).is_err());
        let button = option("option name B type button").unwrap();
        assert_eq!(button.check_value(None), Ok(()));
        assert_eq!(
            button.check_value(Some("x")),
            Err(OptionValueError::ButtonValue)
        );
        let string = option("option name F type string default <empty>").unwrap();
        assert_eq!(string.check_value(Some("C:\\my dir\\book.db")), Ok(()));
        assert_eq!(string.default_value().as_deref(), Some(""));
        assert_eq!(button.default_value(), None);
    }

    /// `parse_value` gives what `check_value` accepts, typed: a combo choice as declared,
    /// `<empty>` as the empty text.
    #[test]
    fn option_values_typed() {
        let check = option("option name P type check default true").unwrap();
        assert_eq!(check.parse_value(Some("TRUE")), Ok(OptionValue::Bool(true)));
        assert_eq!(
            check.parse_value(Some("false")),
            Ok(OptionValue::Bool(false))
        );
        assert_eq!(check.parse_value(None), Err(OptionValueError::NotBool));
        let spin = option("option name S type spin default 0 min -3 max 3").unwrap();
        assert_eq!(spin.parse_value(Some("-3")), Ok(OptionValue::Int(-3)));
        assert_eq!(spin.parse_value(Some("3")), Ok(OptionValue::Int(3)));
        assert_eq!(
            spin.parse_value(Some("4")),
            Err(OptionValueError::OutOfRange { min: -3, max: 3 })
        );
        assert_eq!(spin.parse_value(None), Err(OptionValueError::NotInteger));
        let combo = option("option name C type combo default Ab var Ab var Cd").unwrap();
        assert_eq!(
            combo.parse_value(Some("cD")),
            Ok(OptionValue::Text("Cd".into()))
        );
        assert_eq!(
            combo.parse_value(Some("Ef")),
            Err(OptionValueError::NotAChoice(vec!["Ab".into(), "Cd".into()]))
        );
        let file = option("option name F type filename default <empty>").unwrap();
        assert_eq!(
            file.parse_value(Some("<empty>")),
            Ok(OptionValue::Text(String::new()))
        );
        assert_eq!(file.parse_value(None), Ok(OptionValue::Text(String::new())));
        assert_eq!(
            file.parse_value(Some("C:\\my dir\\x.log")),
            Ok(OptionValue::Text("C:\\my dir\\x.log".into()))
        );
        let button = option("option name B type button").unwrap();
        assert_eq!(button.parse_value(None), Ok(OptionValue::Press));
        assert_eq!(button.parse_value(Some("")), Ok(OptionValue::Press));
        assert_eq!(
            button.parse_value(Some("x")),
            Err(OptionValueError::ButtonValue)
        );
    }

    /// A spin's fractional value within its limits names the integer it rounds to, the
    /// nearest one with halves away from zero (OpenBench's SPSA rounding); one outside the
    /// limits as written is out of range, and text that is no finite number is no integer.
    #[test]
    fn fractional_spin_values_name_their_rounding() {
        let spin = option("option name S type spin default 0 min -3 max 3").unwrap();
        let rounded = |r| Err(OptionValueError::Fractional { rounded: r });
        for (text, r) in [
            ("1.4", 1),
            ("1.5", 2),
            ("1.6", 2),
            ("-1.5", -2),
            ("-0.4", 0),
            ("2.0", 2),
            ("1e-05", 0),
            ("2.5e0", 3),
            ("3.0", 3),
        ] {
            assert_eq!(spin.parse_value(Some(text)), rounded(r), "{text}");
        }
        // Past the limits as written, though 3.4 would round to 3.
        for text in ["3.4", "-3.2", "1e300"] {
            assert_eq!(
                spin.parse_value(Some(text)),
                Err(OptionValueError::OutOfRange { min: -3, max: 3 }),
                "{text}"
            );
        }
        for text in ["inf", "NaN", "1.5x", "1,5", ""] {
            assert_eq!(
                spin.parse_value(Some(text)),
                Err(OptionValueError::NotInteger),
                "{text}"
            );
        }
        assert_eq!(
            OptionValueError::Fractional { rounded: 12 }.to_string(),
            "not an integer; the engine will have to round it to 12"
        );
    }

    /// A declaration printed and read back is the same declaration.
    #[test]
    fn option_declarations_print_as_engines_write_them() {
        for line in [
            "option name USI_Ponder type check default false",
            "option name Seed type spin default 0 min 0 max 2147483647",
            "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule27",
            "option name LogFile type filename default <empty>",
            "option name Go type button",
            "option name Name type string default x",
        ] {
            assert_eq!(option(line).unwrap().to_string(), line);
        }
    }

    #[test]
    fn bestmove_lines() {
        let best = |line: &str| match parse_engine_line(line) {
            EngineMessage::BestMove { best, ponder } => (best, ponder),
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(best("bestmove resign"), (BestMove::Resign, None));
        assert_eq!(best("bestmove win"), (BestMove::Win, None));
        assert_eq!(
            best("bestmove P*5e"),
            (BestMove::Move(Move::from_usi("P*5e").unwrap()), None)
        );
        assert_eq!(
            best("bestmove 8h2b+ ponder 3a2b"),
            (
                BestMove::Move(Move::from_usi("8h2b+").unwrap()),
                Some("3a2b".into())
            )
        );
        assert_eq!(
            best("bestmove 7g7z"),
            (BestMove::Unparsable("7g7z".into()), None)
        );
        assert_eq!(
            best("bestmove"),
            (BestMove::Unparsable(String::new()), None)
        );
        assert_eq!(BestMove::Unparsable("x".into()).to_string(), "x");
    }

    #[test]
    fn checkmate_lines() {
        assert_eq!(
            parse_engine_line("checkmate notimplemented"),
            EngineMessage::Checkmate(Checkmate::NotImplemented)
        );
        assert_eq!(
            parse_engine_line("checkmate nomate"),
            EngineMessage::Checkmate(Checkmate::NoMate)
        );
        assert_eq!(
            parse_engine_line("checkmate timeout"),
            EngineMessage::Checkmate(Checkmate::Timeout)
        );
        assert_eq!(
            parse_engine_line("checkmate G*2b 1a2b S*1b"),
            EngineMessage::Checkmate(Checkmate::Mate(vec![
                "G*2b".into(),
                "1a2b".into(),
                "S*1b".into()
            ]))
        );
    }

    #[test]
    fn info_lines() {
        let i = info("info depth 12 seldepth 20 score cp -35 nodes 123456 nps 1000 pv 7g7f 3c3d");
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.nodes, Some(123_456));
        assert_eq!(i.score, Some(Score::Cp(-35)));
        assert_eq!(i.pv, vec!["7g7f", "3c3d"]);
        assert_eq!(
            info("info score mate 5 pv G*2b").score,
            Some(Score::Mate(5))
        );
        assert_eq!(info("info score mate -4").score, Some(Score::Mate(-4)));
        assert_eq!(info("info score mate +").score, Some(Score::Mate(i32::MAX)));
        assert_eq!(info("info score mate -").score, Some(Score::Mate(i32::MIN)));
        assert_eq!(info("info depth 3 score cp 100 lowerbound").score, None);
        assert_eq!(
            info("info string hello  world ").string.as_deref(),
            Some("hello  world")
        );
        let mut latest = info("info depth 5 score cp 10 pv 2g2f");
        latest.update(info("info depth 6 nodes 99"));
        assert_eq!(latest.depth, Some(6));
        assert_eq!(latest.score, Some(Score::Cp(10)));
        assert_eq!(latest.pv, vec!["2g2f"]);
    }
}
