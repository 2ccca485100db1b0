//! Other runners' command lines for `saikoro match`: each dialect is a translation of its argv
//! into the default dialect's (two-dash flags, the same `key=value` words), so the match itself
//! has one parser and one configuration.
//!
//! - [`fastchess`]: fastchess's single-dash flags, mixed freely with ours;
//! - [`shogitest`]: shogitest's command line, as the ShogiBench worker writes it (the binary
//!   run as `shogitest`/`shogitest-ob`, or `saikoro shogitest`).

pub mod fastchess;
pub mod shogitest;

use std::ffi::OsStr;
use std::fmt;

/// A command line a dialect cannot translate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialectError {
    /// A flag the dialect knows but that cannot mean anything here.
    Refused {
        /// The flag as given.
        flag: String,
        /// Why.
        reason: &'static str,
    },
    /// A flag nobody knows, with the nearest known one.
    Unknown {
        /// The flag as given.
        flag: String,
        /// The nearest known flag, if one is near.
        hint: Option<String>,
    },
    /// A flag without the value it needs, or with a bad one.
    BadValue {
        /// The flag or word.
        flag: String,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for DialectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DialectError::Refused { flag, reason } => write!(f, "{flag} is refused: {reason}"),
            DialectError::Unknown { flag, hint } => {
                write!(f, "unknown flag {flag}")?;
                match hint {
                    Some(h) => write!(f, " (did you mean {h}?)"),
                    None => Ok(()),
                }
            }
            DialectError::BadValue { flag, reason } => write!(f, "{flag}: {reason}"),
        }
    }
}

impl std::error::Error for DialectError {}

/// The flags the farm dialects add to their translation: every `option.NAME=VALUE` goes to the
/// engine as written, as shogitest and fastchess send them and let the engine read them. An
/// option the engine does not declare, or a value its declaration rules out (an SPSA tuner's
/// `12.2` for a spin), is sent with a warning, so that a farm does not lose a workload to an
/// option one engine lacks or reads its own way.
pub(crate) const AS_WRITTEN: [&str; 2] = [
    "--send-undeclared-options",
    "--send-option-values-as-written",
];

/// An engine word `option.option.NAME=VALUE` as `option.NAME=VALUE`: the ShogiBench worker
/// puts `option.` before every token of the server's engine options, and the server requires
/// the token `option.EnteringKingRule=CSARule24` there, so the runner is given the prefix
/// twice. Any other word is returned as it is.
pub(crate) fn engine_option_word(word: &str) -> String {
    match word.strip_prefix("option.option.") {
        Some(rest) => format!("option.{rest}"),
        None => word.to_string(),
    }
}

pub use super::flags::did_you_mean;

/// A dialect's flags as help lines: each flag with its words, then its meaning from column
/// 27, wrapped at 92 columns (a long flag gets its meaning on the next line).
pub(crate) fn help_entries(entries: impl IntoIterator<Item = (String, String)>) -> String {
    const COLUMN: usize = 26;
    const WIDTH: usize = 92;
    let mut out = String::new();
    for (head, meaning) in entries {
        let mut line = format!("  {head}");
        if line.len() + 2 > COLUMN {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        let mut words = meaning.split(' ').peekable();
        while words.peek().is_some() {
            line = format!("{line:<COLUMN$}");
            let mut first = true;
            while let Some(w) = words.peek() {
                if !first && line.len() + 1 + w.len() > WIDTH {
                    break;
                }
                if !first {
                    line.push(' ');
                }
                line.push_str(w);
                first = false;
                words.next();
            }
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
    }
    out
}

/// Whether `arg` is a single-dash flag word (`-engine`, `-testEnv`, `-cpu-affinity`): not
/// `--…`, not a negative number, not `-h`.
pub(crate) fn is_single_dash_flag(arg: &str) -> bool {
    let Some(rest) = arg.strip_prefix('-') else {
        return false;
    };
    !rest.starts_with('-')
        && rest.len() >= 2
        && rest.as_bytes()[0].is_ascii_alphabetic()
        && rest
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}

/// The values after a flag at `args[*i]`: the words up to the next flag (a word starting with
/// `-` that is not a negative number). Moves `*i` past them. The words are text, or as the
/// system gave them (a word that is not UTF-8 is never a flag).
pub(crate) fn take_words<A: AsRef<OsStr> + Clone>(args: &[A], i: &mut usize) -> Vec<A> {
    let mut out = Vec::new();
    while let Some(w) = args.get(*i + 1) {
        // By bytes: `-` and the digits are ASCII, and a word may start with one of several
        // bytes (`é`).
        let bytes = w.as_ref().as_encoded_bytes();
        let is_number = bytes.get(1).is_some_and(u8::is_ascii_digit);
        if bytes.first() == Some(&b'-') && !is_number {
            break;
        }
        out.push(w.clone());
        *i += 1;
    }
    out
}

/// The one value after the flag at `args[*i]`. Moves `*i` past it.
pub(crate) fn take_value<A: AsRef<OsStr> + Clone>(
    args: &[A],
    i: &mut usize,
) -> Result<A, DialectError> {
    let flag = args[*i].as_ref();
    let is_flag = |v: &OsStr| {
        v.to_str()
            .is_some_and(|v| is_single_dash_flag(v) || v.starts_with("--"))
    };
    match args.get(*i + 1) {
        Some(v) if !is_flag(v.as_ref()) => {
            *i += 1;
            Ok(v.clone())
        }
        _ => Err(DialectError::BadValue {
            flag: flag.to_string_lossy().into_owned(),
            reason: "needs a value".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workers_doubled_option_prefix() {
        assert_eq!(
            engine_option_word("option.option.EnteringKingRule=CSARule24"),
            "option.EnteringKingRule=CSARule24"
        );
        assert_eq!(
            engine_option_word("option.USI_Hash=16"),
            "option.USI_Hash=16"
        );
        assert_eq!(engine_option_word("name=E-dev"), "name=E-dev");
    }

    #[test]
    fn single_dash_flags() {
        for f in ["-engine", "-testEnv", "-cpu-affinity", "-tb"] {
            assert!(is_single_dash_flag(f), "{f}");
        }
        for f in ["--engine", "-5", "-h", "engine", "-", "cmd=-x"] {
            assert!(!is_single_dash_flag(f), "{f}");
        }
    }

    /// A word may start with a character of several bytes (it panicked on `é`).
    #[test]
    fn the_words_after_a_flag() {
        let args: Vec<String> = ["--engine", "é", "-5", "x=1", "-rounds", "2"]
            .map(String::from)
            .into();
        let mut i = 0;
        assert_eq!(take_words(&args, &mut i), ["é", "-5", "x=1"]);
        assert_eq!(i, 3);
    }
}
