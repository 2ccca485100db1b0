//! The lexer under [`super::flags`]: a command line split into options and their values, the
//! way lexopt 0.3 splits it (the parser the modes used before; the engine-only build links no
//! parser crate). It knows no flag: the flag tables ask it for a value or for words, as a
//! flag of theirs takes.
//!
//! - `--name`, and `--name=value` (the value joined by the first `=`, any bytes, may be empty);
//! - `-s`, and clusters `-abc` read as `-a -b -c` until a flag takes a value, which is then
//!   the cluster's rest: `-nvalue`, `-n=value` (one `=` dropped), or the next argument;
//! - a value taken from the next argument is taken whatever it looks like (`-1`, `--`);
//! - words ([`Lexer::values`]) run up to the next option or `--`, one only after an `=`;
//! - a value joined to a flag that takes none (`--on=3`, `-o=3`) is an error;
//! - `--` ends the options: every argument after it is positional;
//! - `-` alone, and any word not starting with `-`, is positional.
//!
//! Arguments are [`OsString`]s: on Unix a value or a positional argument may be any bytes and
//! comes out as it went in (on Windows, unpaired surrogates likewise); an option's name that is
//! not Unicode is read with U+FFFD in place of the bad bytes (as `String::from_utf8_lossy`
//! reads it).

use std::ffi::OsString;
use units::{Unit, EQUALS};

/// One argument of the command line, as the lexer reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arg {
    /// `--name` or `--name=value`: the name without its dashes.
    Long(String),
    /// `-c`, alone or one letter of a cluster `-abc`.
    Short(char),
    /// A word that is no option: one not starting with `-`, a lone `-`, any word after `--`.
    Positional(OsString),
}

/// What is wrong with a command line's options and values, in lexopt's words (the tests and
/// the users' scripts see them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ArgError {
    /// A flag that takes a value came last (or before an option, for words); the flag as
    /// given (`--number`, `-n`), if one was read.
    MissingValue {
        /// The flag as given.
        option: Option<String>,
    },
    /// A positional argument where the mode takes none.
    UnexpectedArgument(OsString),
    /// A value joined to a flag that takes none: `--on=3`, `-o=3`.
    UnexpectedValue {
        /// The flag as given.
        option: String,
        /// The value joined to it.
        value: OsString,
    },
    /// A value that must be text and is not UTF-8.
    NonUnicodeValue(OsString),
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::MissingValue { option: None } => write!(f, "missing argument"),
            ArgError::MissingValue {
                option: Some(option),
            } => write!(f, "missing argument for option '{option}'"),
            ArgError::UnexpectedArgument(value) => write!(f, "unexpected argument {value:?}"),
            ArgError::UnexpectedValue { option, value } => {
                write!(f, "unexpected argument for option '{option}': {value:?}")
            }
            ArgError::NonUnicodeValue(value) => {
                write!(f, "argument is invalid unicode: {value:?}")
            }
        }
    }
}

impl std::error::Error for ArgError {}

/// Where the lexer is in the command line.
enum State {
    /// At the start of an argument.
    Between,
    /// After `--name=value`: the value, not taken yet.
    Joined(OsString),
    /// Inside a cluster `-abc`: its units, and where its next letter starts (after the dash:
    /// 1 or more; its length at its end).
    Cluster(Vec<Unit>, usize),
    /// After `--`: every argument left is positional.
    Positional,
}

/// A command line being read: [`Lexer::next`] gives its options and positional arguments, one
/// at a time; after an option, [`Lexer::value`] or [`Lexer::values`] takes what it takes.
pub(crate) struct Lexer {
    /// The arguments not read yet.
    args: std::vec::IntoIter<OsString>,
    /// Where the lexer is.
    state: State,
    /// The last option read, as given (`--name`, `-c`): the one a missing or unexpected value
    /// names.
    last: Option<String>,
}

impl Lexer {
    /// A lexer over `args`, the command line without the program's name.
    pub(crate) fn new<I>(args: I) -> Lexer
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        Lexer {
            args: args.into_iter(),
            state: State::Between,
            last: None,
        }
    }

    /// The next option or positional argument; `None` at the end. A value joined to the option
    /// before (`--on=3`) that no one took is an error here.
    pub(crate) fn next(&mut self) -> Result<Option<Arg>, ArgError> {
        match std::mem::replace(&mut self.state, State::Between) {
            State::Joined(value) => return Err(self.unexpected_value(value)),
            State::Cluster(units, at) if at < units.len() => return self.short(units, at),
            State::Positional => {
                self.state = State::Positional;
                return Ok(self.args.next().map(Arg::Positional));
            }
            State::Cluster(..) | State::Between => {}
        }
        let Some(arg) = self.args.next() else {
            return Ok(None);
        };
        let bytes = arg.as_encoded_bytes();
        let (end, long, short) = (
            bytes == b"--",
            bytes.starts_with(b"--"),
            bytes.len() > 1 && bytes[0] == b'-',
        );
        if end {
            self.state = State::Positional;
            Ok(self.args.next().map(Arg::Positional))
        } else if long {
            Ok(Some(self.long(units::of(arg))))
        } else if short {
            self.short(units::of(arg), 1)
        } else {
            Ok(Some(Arg::Positional(arg)))
        }
    }

    /// The long option `units` (`--name` or `--name=value`), its value held for
    /// [`Lexer::value`].
    fn long(&mut self, mut units: Vec<Unit>) -> Arg {
        if let Some(eq) = units.iter().position(|&u| u == EQUALS) {
            self.state = State::Joined(units::os(&units[eq + 1..]));
            units.truncate(eq);
        }
        let option = units::lossy(&units);
        let name = option[2..].to_string();
        self.last = Some(option);
        Arg::Long(name)
    }

    /// The letter of the cluster `units` at `at` (not its end). An `=` there, after a letter,
    /// joins a value to a flag that took none (`-o=3`).
    fn short(&mut self, units: Vec<Unit>, at: usize) -> Result<Option<Arg>, ArgError> {
        if at > 1 && units[at] == EQUALS {
            return Err(self.unexpected_value(units::os(&units[at + 1..])));
        }
        let (c, len) = units::first_char(&units[at..]);
        self.last = Some(format!("-{c}"));
        self.state = State::Cluster(units, at + len);
        Ok(Some(Arg::Short(c)))
    }

    /// The value of the option just read: the one joined to it (`--name=value`, `-nvalue`,
    /// `-n=value`), else the next argument, whatever it is (`-1`, `--`).
    pub(crate) fn value(&mut self) -> Result<OsString, ArgError> {
        if let Some((value, _)) = self.joined() {
            return Ok(value);
        }
        self.args.next().ok_or_else(|| self.missing())
    }

    /// The words of the option just read: the value joined to it, alone if an `=` joined it
    /// (`--name=a b`: `a`, then `b` is positional); else (and after `-na`) every next argument
    /// up to an option or `--` (a lone `-` is a word). At least one word, or an error.
    pub(crate) fn values(&mut self) -> Result<Vec<OsString>, ArgError> {
        let mut words = Vec::new();
        match self.joined() {
            Some((value, true)) => return Ok(vec![value]),
            Some((value, false)) => words.push(value),
            None if !self.next_is_word() => return Err(self.missing()),
            None => {}
        }
        while self.next_is_word() {
            words.extend(self.args.next());
        }
        Ok(words)
    }

    /// The arguments left, as they are, read no further; an error if the option just read has
    /// a value joined to it.
    pub(crate) fn rest(&mut self) -> Result<Vec<OsString>, ArgError> {
        if let Some((value, _)) = self.joined() {
            return Err(self.unexpected_value(value));
        }
        Ok(self.args.by_ref().collect())
    }

    /// The value joined to the option just read, taken, and whether an `=` joined it (a
    /// cluster's rest: only if it starts with `=`, which is dropped).
    fn joined(&mut self) -> Option<(OsString, bool)> {
        match std::mem::replace(&mut self.state, State::Between) {
            State::Joined(value) => Some((value, true)),
            State::Cluster(units, at) if at < units.len() => {
                let eq = units[at] == EQUALS;
                Some((units::os(&units[at + usize::from(eq)..]), eq))
            }
            State::Positional => {
                self.state = State::Positional;
                None
            }
            State::Cluster(..) | State::Between => None,
        }
    }

    /// Whether the next argument is a word for [`Lexer::values`]: there is one, and it is no
    /// option and not `--`.
    fn next_is_word(&self) -> bool {
        match self.args.as_slice().first() {
            None => false,
            Some(_) if matches!(self.state, State::Positional) => true,
            Some(arg) => arg == "-" || !arg.as_encoded_bytes().starts_with(b"-"),
        }
    }

    /// The error for a value missing after the last option.
    fn missing(&self) -> ArgError {
        ArgError::MissingValue {
            option: self.last.clone(),
        }
    }

    /// The error for `value`, joined to the last option, which took none.
    fn unexpected_value(&self, value: OsString) -> ArgError {
        ArgError::UnexpectedValue {
            option: self.last.clone().unwrap_or_default(),
            value,
        }
    }
}

/// The first character of `bytes` (not empty) and its length in bytes; for bytes that are not
/// UTF-8, U+FFFD and the length of the bad sequence, as `String::from_utf8_lossy` replaces it.
#[cfg(not(windows))]
fn first_utf8(bytes: &[u8]) -> (char, usize) {
    // A character is 4 bytes at most.
    let head = &bytes[..bytes.len().min(4)];
    let (valid, bad) = match std::str::from_utf8(head) {
        Ok(text) => (text, None),
        Err(e) => {
            let valid = std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default();
            (valid, e.error_len())
        }
    };
    match valid.chars().next() {
        Some(c) => (c, c.len_utf8()),
        // A sequence cut short by the argument's end: the rest.
        None => (char::REPLACEMENT_CHARACTER, bad.unwrap_or(head.len())),
    }
}

/// An option's code units, where the lexer splits it: its bytes on Unix, any bytes, kept as
/// they are.
#[cfg(unix)]
mod units {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt as _;

    /// A code unit: a byte.
    pub(super) type Unit = u8;

    /// The `=` that joins a value to an option.
    pub(super) const EQUALS: Unit = b'=';

    /// The units of `arg`.
    pub(super) fn of(arg: OsString) -> Vec<Unit> {
        arg.into_vec()
    }

    /// `units` as an argument.
    pub(super) fn os(units: &[Unit]) -> OsString {
        OsString::from_vec(units.to_vec())
    }

    /// `units` as text, U+FFFD for what is not UTF-8.
    pub(super) fn lossy(units: &[Unit]) -> String {
        String::from_utf8_lossy(units).into_owned()
    }

    /// The first character of `units` (not empty) and its length in units.
    pub(super) fn first_char(units: &[Unit]) -> (char, usize) {
        super::first_utf8(units)
    }
}

/// An option's code units, where the lexer splits it: its UTF-16 units on Windows, unpaired
/// surrogates kept.
#[cfg(windows)]
mod units {
    use std::ffi::OsString;
    use std::os::windows::ffi::{OsStrExt as _, OsStringExt as _};

    /// A code unit: 16 bits of UTF-16.
    pub(super) type Unit = u16;

    /// The `=` that joins a value to an option.
    pub(super) const EQUALS: Unit = b'=' as Unit;

    /// The units of `arg`.
    pub(super) fn of(arg: OsString) -> Vec<Unit> {
        arg.encode_wide().collect()
    }

    /// `units` as an argument.
    pub(super) fn os(units: &[Unit]) -> OsString {
        OsString::from_wide(units)
    }

    /// `units` as text, U+FFFD for an unpaired surrogate.
    pub(super) fn lossy(units: &[Unit]) -> String {
        String::from_utf16_lossy(units)
    }

    /// The first character of `units` (not empty) and its length in units (U+FFFD and 1 for
    /// an unpaired surrogate).
    pub(super) fn first_char(units: &[Unit]) -> (char, usize) {
        match char::decode_utf16(units.iter().copied()).next() {
            Some(Ok(c)) => (c, c.len_utf16()),
            _ => (char::REPLACEMENT_CHARACTER, 1),
        }
    }
}

/// An option's code units, where the lexer splits it, on other systems: the bytes of its text,
/// U+FFFD in place of what is not Unicode (only an option's joined value can lose that way; a
/// positional argument or a value of its own is kept as it is).
#[cfg(not(any(unix, windows)))]
mod units {
    use std::ffi::OsString;

    /// A code unit: a byte of UTF-8.
    pub(super) type Unit = u8;

    /// The `=` that joins a value to an option.
    pub(super) const EQUALS: Unit = b'=';

    /// The units of `arg`.
    pub(super) fn of(arg: OsString) -> Vec<Unit> {
        arg.to_string_lossy().into_owned().into_bytes()
    }

    /// `units` as an argument.
    pub(super) fn os(units: &[Unit]) -> OsString {
        lossy(units).into()
    }

    /// `units` as text.
    pub(super) fn lossy(units: &[Unit]) -> String {
        String::from_utf8_lossy(units).into_owned()
    }

    /// The first character of `units` (not empty) and its length in units.
    pub(super) fn first_char(units: &[Unit]) -> (char, usize) {
        super::first_utf8(units)
    }
}

/// The expectations are lexopt 0.3's documented behaviour (its docs of `Parser::next`,
/// `value`, `values`, `raw_args` and `set_short_equals`, its default), which the modes' command
/// lines were written against.
#[cfg(test)]
mod tests {
    use super::*;

    /// What the lexer gives for `args`, one line per step: `--name`, `-c`, `pos "word"`, and
    /// after a flag what it takes: flags whose name starts with `n` or `p` take a value
    /// (`value "…"`), with `w` words (`words […]`), the others nothing. An error is a line
    /// `error: …`, and the lexer goes on.
    fn script<I>(args: I) -> Vec<String>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut lexer = Lexer::new(args);
        let mut out = Vec::new();
        loop {
            let (shown, first) = match lexer.next() {
                Ok(None) => return out,
                Ok(Some(Arg::Long(name))) => (format!("--{name}"), name.chars().next()),
                Ok(Some(Arg::Short(c))) => (format!("-{c}"), Some(c)),
                Ok(Some(Arg::Positional(v))) => (format!("pos {v:?}"), None),
                Err(e) => (format!("error: {e}"), None),
            };
            out.push(shown);
            let taken = match first {
                Some('n' | 'p') => lexer.value().map(|v| format!("value {v:?}")),
                Some('w') => lexer.values().map(|w| format!("words {w:?}")),
                _ => continue,
            };
            out.push(taken.unwrap_or_else(|e| format!("error: {e}")));
        }
    }

    #[test]
    fn long_options_and_their_values() {
        assert_eq!(
            script([
                "--on",
                "--number",
                "7",
                "--number=8",
                "--path=a=b",
                "--path="
            ]),
            [
                "--on",
                "--number",
                "value \"7\"",
                "--number",
                "value \"8\"",
                "--path",
                // Split at the first `=`.
                "value \"a=b\"",
                "--path",
                "value \"\"",
            ]
        );
        // `---x` is the long option `-x`; `--=3` the long option with no name.
        assert_eq!(
            script(["---x", "--=3"]),
            [
                "---x",
                "--",
                "error: unexpected argument for option '--': \"3\""
            ]
        );
    }

    #[test]
    fn a_value_joined_to_a_switch_is_an_error_and_the_lexer_goes_on() {
        assert_eq!(
            script(["--on=3", "x", "--on=", "-o=3", "-o="]),
            [
                "--on",
                "error: unexpected argument for option '--on': \"3\"",
                "pos \"x\"",
                "--on",
                "error: unexpected argument for option '--on': \"\"",
                "-o",
                "error: unexpected argument for option '-o': \"3\"",
                "-o",
                "error: unexpected argument for option '-o': \"\"",
            ]
        );
    }

    #[test]
    fn short_options_and_their_values() {
        assert_eq!(
            script(["-n", "7", "-n8", "-n=9", "-n=", "-n==", "-=", "-µ"]),
            [
                "-n",
                "value \"7\"",
                "-n",
                "value \"8\"",
                "-n",
                // One `=` after the letter is dropped (lexopt's short_equals, on by default).
                "value \"9\"",
                "-n",
                "value \"\"",
                "-n",
                "value \"=\"",
                // `=` right after the dash is a letter.
                "-=",
                "-µ",
            ]
        );
    }

    /// `-abc` is `-a -b -c`; a letter that takes a value takes the cluster's rest.
    #[test]
    fn clustered_short_options() {
        assert_eq!(script(["-abc"]), ["-a", "-b", "-c"]);
        assert_eq!(
            script(["-an7", "-anx", "-ax-y", "-on", "8"]),
            [
                "-a",
                "-n",
                "value \"7\"",
                "-a",
                "-n",
                "value \"x\"",
                "-a",
                "-x",
                // `-` as a letter.
                "--",
                "-y",
                "-o",
                "-n",
                "value \"8\"",
            ]
        );
    }

    /// A value taken from the next argument is taken whatever it looks like.
    #[test]
    fn a_value_may_start_with_a_dash() {
        assert_eq!(
            script(["--number", "-1", "-n", "--on", "--path", "--", "x"]),
            [
                "--number",
                "value \"-1\"",
                "-n",
                "value \"--on\"",
                "--path",
                // Taken as the value: it does not end the options.
                "value \"--\"",
                "pos \"x\"",
            ]
        );
    }

    #[test]
    fn a_missing_value_names_its_flag_as_given() {
        assert_eq!(
            script(["--number"]),
            ["--number", "error: missing argument for option '--number'"]
        );
        assert_eq!(
            script(["-an"]),
            ["-a", "-n", "error: missing argument for option '-n'"]
        );
        let mut lexer = Lexer::new(["x"]);
        assert_eq!(
            lexer.value(),
            Ok("x".into()),
            "before any option: the next argument"
        );
        assert_eq!(
            lexer.value().unwrap_err().to_string(),
            "missing argument",
            "no option read"
        );
    }

    #[test]
    fn positional_arguments() {
        assert_eq!(
            script(["a", "-", "", "b=c"]),
            ["pos \"a\"", "pos \"-\"", "pos \"\"", "pos \"b=c\""]
        );
    }

    /// `--` ends the options, and is not itself an argument; a second `--` is positional.
    #[test]
    fn double_dash_ends_the_options() {
        assert_eq!(
            script(["--on", "--", "--on", "-n", "--", "-"]),
            [
                "--on",
                "pos \"--on\"",
                "pos \"-n\"",
                "pos \"--\"",
                "pos \"-\""
            ]
        );
        assert_eq!(script(["--"]), Vec::<String>::new());
    }

    /// Words run up to an option or `--`; a lone `-` is a word; an `=` limits them to one.
    #[test]
    fn words_up_to_the_next_option() {
        assert_eq!(
            script(["--words", "a=1", "-", "b=2", "--on", "--words", "c", "--", "d"]),
            [
                "--words",
                "words [\"a=1\", \"-\", \"b=2\"]",
                "--on",
                "--words",
                "words [\"c\"]",
                "pos \"d\"",
            ]
        );
        assert_eq!(
            script(["--words=a", "b", "-w=c", "d", "-wa", "b", "-w", "-1"]),
            [
                "--words",
                "words [\"a\"]",
                "pos \"b\"",
                "-w",
                "words [\"c\"]",
                "pos \"d\"",
                "-w",
                // Without `=` the cluster's rest is the first word of several.
                "words [\"a\", \"b\"]",
                "-w",
                // A word starting with `-` is an option.
                "error: missing argument for option '-w'",
                "-1",
            ]
        );
        for args in [&["--words"][..], &["--words", "--on"], &["--words", "--"]] {
            assert_eq!(
                script(args)[..2],
                ["--words", "error: missing argument for option '--words'"],
                "{args:?}"
            );
        }
        assert_eq!(script(["--words="]), ["--words", "words [\"\"]"]);
    }

    /// The rest of the command line, as it is (`saikoro check -- CMD ARGS`).
    #[test]
    fn the_rest_as_it_is() {
        let mut lexer = Lexer::new(["--on", "--", "prog", "-x", "--", "--y=1"]);
        assert_eq!(lexer.next(), Ok(Some(Arg::Long("on".into()))));
        assert_eq!(lexer.next(), Ok(Some(Arg::Positional("prog".into()))));
        assert_eq!(
            lexer.rest(),
            Ok(vec!["-x".into(), "--".into(), "--y=1".into()])
        );
        assert_eq!(lexer.next(), Ok(None));

        let mut lexer = Lexer::new(["prog", "-x"]);
        assert_eq!(lexer.next(), Ok(Some(Arg::Positional("prog".into()))));
        assert_eq!(lexer.rest(), Ok(vec!["-x".into()]));

        let mut lexer = Lexer::new(["--on=3", "x"]);
        assert_eq!(lexer.next(), Ok(Some(Arg::Long("on".into()))));
        assert_eq!(
            lexer.rest().unwrap_err().to_string(),
            "unexpected argument for option '--on': \"3\""
        );
        assert_eq!(lexer.rest(), Ok(vec!["x".into()]));
    }

    #[test]
    fn the_errors_in_lexopts_words() {
        let message = |e: ArgError| e.to_string();
        assert_eq!(
            message(ArgError::UnexpectedArgument("foo".into())),
            "unexpected argument \"foo\""
        );
        assert_eq!(
            message(ArgError::NonUnicodeValue("x".into())),
            "argument is invalid unicode: \"x\""
        );
    }

    /// On Unix an argument is any bytes: a value or a positional argument comes out as it went
    /// in; an option's name reads its bad bytes as U+FFFD.
    #[cfg(unix)]
    #[test]
    fn bytes_that_are_not_utf8() {
        use std::os::unix::ffi::OsStringExt as _;
        let os = |b: &[u8]| OsString::from_vec(b.to_vec());
        let args = [
            os(b"\xFFa"),
            os(b"--path=\xFF\xFE"),
            os(b"--path"),
            os(b"-\xFF"),
            os(b"-\xFF"),
            os(b"-p\xC3"),
            os(b"-a\xFF\xC3\xA9"),
            os(b"--na\xFFme=\xFF"),
            os(b"--o\xFFn=\xFF"),
        ];
        assert_eq!(
            script(args),
            [
                r#"pos "\xFFa""#,
                "--path",
                r#"value "\xFF\xFE""#,
                "--path",
                r#"value "-\xFF""#,
                "-\u{FFFD}",
                "-p",
                r#"value "\xC3""#,
                "-a",
                "-\u{FFFD}",
                "-é",
                "--na\u{FFFD}me",
                r#"value "\xFF""#,
                "--o\u{FFFD}n",
                "error: unexpected argument for option '--o\u{FFFD}n': \"\\xFF\"",
            ]
        );
        let mut lexer = Lexer::new([os(b"--words"), os(b"\xFF"), os(b"a=\xFE")]);
        lexer.next().unwrap();
        assert_eq!(lexer.values(), Ok(vec![os(b"\xFF"), os(b"a=\xFE")]));
    }
}
