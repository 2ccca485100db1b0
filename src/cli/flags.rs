//! The flags of a mode, each defined once in the mode's table ([`Flag`]), and what comes from
//! that table: the parser ([`next`], over our [`Lexer`]), the `--help` list
//! ([`help_sections`]), the "did you mean" hint ([`names`], [`did_you_mean`]) and what the farm
//! dialects know of the match's flags. ripgrep's `flags/defs.rs` has the same shape: one definition per flag, its
//! help, its suggestions and its parsing derived from it.

use super::args::Arg;
pub(crate) use super::args::{ArgError, Lexer};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::PathBuf;

/// What a flag takes after its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Takes {
    /// Nothing: a switch.
    Nothing,
    /// One value; the name shown in the help (`N`, `FILE`).
    Value(&'static str),
    /// The `KEY=VALUE` words up to the next flag ([`Lexer::values`]); the words shown in the
    /// help.
    Words(&'static str),
    /// Nothing: prints the mode's help and ends.
    Help,
    /// Nothing: prints the version and ends.
    Version,
}

/// How a flag is shown in its mode's `--help`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Doc {
    /// Not listed: an alias, a flag named in another's entry, or a mode whose help is prose.
    Hidden,
    /// Listed as `--name VALUE` (with the short name first, when it has one), then the text:
    /// its first line at the help's column on the same line when the head leaves room, each
    /// further line at the column.
    Text(&'static str),
    /// Listed with a head of its own (several flags in one entry, or words on two lines), then
    /// the text as with [`Doc::Text`].
    Head(&'static str, &'static str),
    /// Listed as [`Doc::Text`] is, its text one paragraph wrapped at the help's width (a text
    /// with a part the mode fills in: see [`help_sections`]).
    Wrapped(&'static str),
}

/// What a flag does to a mode's settings `C`, given what followed it on the command line.
pub(crate) type Set<C> = fn(&mut C, FlagValue) -> anyhow::Result<()>;

/// One flag of a mode: its names, what it takes, its help and section, and how it sets the
/// mode's settings. `K` is what only one mode asks of its flags (the match: whether a flag may
/// differ on `--resume`).
pub(crate) struct Flag<C, K = ()> {
    /// The long name, without its dashes.
    pub long: &'static str,
    /// The one-letter name, if it has one.
    pub short: Option<char>,
    /// What it takes after its name.
    pub takes: Takes,
    /// How the help shows it.
    pub doc: Doc,
    /// The heading of the help's section it is listed under (`""`: the list has none).
    pub section: &'static str,
    /// Words listed under it in the help, each with its meaning (the keys of `--engine`).
    pub words: &'static [(&'static str, &'static str)],
    /// What it does.
    pub set: Set<C>,
    /// What the mode alone asks of it.
    pub class: K,
}

impl<C> Flag<C, ()> {
    /// A flag with a long name only, in no section, with no words listed under it.
    pub(crate) const fn new(long: &'static str, takes: Takes, doc: Doc, set: Set<C>) -> Self {
        Flag {
            long,
            short: None,
            takes,
            doc,
            section: "",
            words: &[],
            set,
            class: (),
        }
    }
}

impl<C, K: Copy> Flag<C, K> {
    /// The same flag, with what its mode alone asks of it.
    pub(crate) const fn class<L: Copy>(self, class: L) -> Flag<C, L> {
        Flag {
            long: self.long,
            short: self.short,
            takes: self.takes,
            doc: self.doc,
            section: self.section,
            words: self.words,
            set: self.set,
            class,
        }
    }

    /// The same flag with a one-letter name too.
    pub(crate) const fn short(self, c: char) -> Self {
        Flag {
            short: Some(c),
            ..self
        }
    }

    /// The same flag, listed under `heading`.
    pub(crate) const fn section(self, heading: &'static str) -> Self {
        Flag {
            section: heading,
            ..self
        }
    }

    /// The same flag, with these words listed under it.
    pub(crate) const fn words(self, words: &'static [(&'static str, &'static str)]) -> Self {
        Flag { words, ..self }
    }
}

/// A flag that does nothing to the settings (help and version, which the parser handles).
pub(crate) fn no_setting<C>(_: &mut C, _: FlagValue) -> anyhow::Result<()> {
    Ok(())
}

/// What followed a flag on the command line: nothing, its value or its words.
pub(crate) struct FlagValue {
    /// The flag as its messages name it: `--long`.
    pub flag: String,
    value: Got,
}

enum Got {
    Nothing,
    One(OsString),
    Words(Vec<OsString>),
}

impl FlagValue {
    /// The value, which must be UTF-8 ([`ArgError::NonUnicodeValue`] otherwise).
    pub(crate) fn text(self) -> Result<String, ArgError> {
        utf8(self.os())
    }

    /// The value as it was given, any bytes.
    pub(crate) fn os(self) -> OsString {
        match self.value {
            Got::One(v) => v,
            Got::Nothing => OsString::new(),
            Got::Words(w) => w.into_iter().next().unwrap_or_default(),
        }
    }

    /// The value as a path, any bytes (nothing lost on Unix).
    pub(crate) fn path(self) -> PathBuf {
        self.os().into()
    }

    /// The value parsed as a `T`: see [`parse_text`].
    pub(crate) fn number<T>(self) -> anyhow::Result<T>
    where
        T: std::str::FromStr,
        T::Err: std::fmt::Display,
    {
        let flag = self.flag.clone();
        parse_text(&flag, &self.text()?)
    }

    /// The words, as they were given.
    pub(crate) fn os_words(self) -> Vec<OsString> {
        match self.value {
            Got::Words(w) => w,
            Got::One(v) => vec![v],
            Got::Nothing => Vec::new(),
        }
    }

    /// The words, each of which must be UTF-8.
    pub(crate) fn words(self) -> Result<Vec<String>, ArgError> {
        self.os_words().into_iter().map(utf8).collect()
    }
}

/// `v` as text, or the error for a value that is not UTF-8.
pub(crate) fn utf8(v: OsString) -> Result<String, ArgError> {
    v.into_string().map_err(ArgError::NonUnicodeValue)
}

/// What the parser met that is not a flag of the table.
pub(crate) enum Step {
    /// `--help` (or its short name): the mode prints its help.
    Help,
    /// `--version`.
    Version,
    /// A word that is no flag (an input file, a subcommand, the program after `--`).
    Positional(OsString),
    /// The flag of this long name was read, and has set what it sets.
    Flag(&'static str),
}

/// Reads the next flag of the command line, setting `settings` by it, or the next other
/// [`Step`]; `None` at its end. An unknown flag is an error that names the known flag nearest to it,
/// if one is near ([`did_you_mean`]).
pub(crate) fn next<C, K>(
    p: &mut Lexer,
    table: &[Flag<C, K>],
    settings: &mut C,
) -> anyhow::Result<Option<Step>> {
    let Some(arg) = p.next()? else {
        return Ok(None);
    };
    let flag = match &arg {
        Arg::Long(name) => table.iter().find(|f| f.long == name),
        Arg::Short(c) => table.iter().find(|f| f.short == Some(*c)),
        Arg::Positional(_) => None,
    };
    let Some(flag) = flag else {
        return match arg {
            Arg::Positional(v) => Ok(Some(Step::Positional(v))),
            Arg::Long(name) => Err(unknown(format!("--{name}"), &name, table)),
            Arg::Short(c) => Err(unknown(format!("-{c}"), &c.to_string(), table)),
        };
    };
    let name = format!("--{}", flag.long);
    let value = match flag.takes {
        Takes::Help => return Ok(Some(Step::Help)),
        Takes::Version => return Ok(Some(Step::Version)),
        Takes::Nothing => Got::Nothing,
        Takes::Value(_) => Got::One(p.value()?),
        Takes::Words(_) => match p.values() {
            Ok(words) => Got::Words(words),
            Err(e) => anyhow::bail!("{name} needs KEY=VALUE words: {e}"),
        },
    };
    (flag.set)(settings, FlagValue { flag: name, value })?;
    Ok(Some(Step::Flag(flag.long)))
}

/// A flag not in the mode's table, with the known flag nearest to it, if one is near.
#[derive(Debug)]
pub(crate) struct UnknownFlag {
    /// The flag as given, with its dashes.
    pub given: String,
    /// The nearest known flag's long name.
    pub hint: Option<&'static str>,
}

impl std::fmt::Display for UnknownFlag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // lexopt's words for an unexpected option, which the modes used before.
        write!(f, "invalid option '{}'", self.given)?;
        match self.hint {
            Some(hint) => write!(f, " (did you mean --{hint}?)"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for UnknownFlag {}

/// The error for a flag not in `table`: `given` with its dashes, `name` without them.
fn unknown<C, K>(given: String, name: &str, table: &[Flag<C, K>]) -> anyhow::Error {
    let hint = did_you_mean(name, names(table));
    UnknownFlag { given, hint }.into()
}

/// The long names of a table's flags, in its order.
pub(crate) fn names<C, K>(table: &[Flag<C, K>]) -> impl Iterator<Item = &'static str> + '_ {
    table.iter().map(|f| f.long)
}

/// Levenshtein distance of two short ASCII words (case-insensitive).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<u8> = a.bytes().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<u8> = b.bytes().map(|c| c.to_ascii_lowercase()).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut row = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            row.push((prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1));
        }
        prev = row;
    }
    prev[b.len()]
}

/// The known flag nearest to `flag` (both without their dashes), if it is near enough to be
/// what was meant: at most a third of its letters differ, or one starts with the other.
pub fn did_you_mean<'a>(flag: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let flag = flag.trim_start_matches('-');
    let flag = flag.split_once('=').map_or(flag, |(f, _)| f);
    known
        .into_iter()
        .map(|k| {
            let d = distance(flag, k);
            let prefix = flag.len() >= 3 && (k.starts_with(flag) || flag.starts_with(k));
            (if prefix { d.min(1) } else { d }, k)
        })
        .filter(|&(d, k)| k != flag && d <= (k.len().max(flag.len()) / 3).max(1))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// `text` parsed as a `T`, for the flag `flag`. The error names the flag and the reason once; a
/// whole number out of the flag's range says so, with the range.
pub(crate) fn parse_text<T>(flag: &str, text: &str) -> anyhow::Result<T>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e| match integer_range::<T>() {
        Some((min, max)) => {
            let what = match text.trim().parse::<i128>() {
                Ok(_) => "out of range",
                Err(_) => "not a whole number",
            };
            // A limit of 64 bits is no limit anyone types: "0 or more" says what matters.
            let range = if max == u64::MAX {
                format!("{min} or more")
            } else {
                format!("from {min} to {max}")
            };
            anyhow::anyhow!("{flag} {text:?}: {what} (expected a whole number {range})")
        }
        None => anyhow::anyhow!("{flag} {text:?}: {e}"),
    })
}

/// The range of the unsigned integer types the flags use.
fn integer_range<T>() -> Option<(u64, u64)> {
    let name = std::any::type_name::<T>();
    Some(match name {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" => (0, u64::MAX),
        "usize" => (0, usize::MAX as u64),
        _ => return None,
    })
}

/// The help's list of a table's flags: each section (in the order of its first flag) as its
/// heading and its entries, the sections apart by a blank line. Each entry is its head from
/// column 3, then its text from `column + 1` (on the next line when the head leaves no room);
/// the words listed under a flag are set from column 7. In each text, a name of `vars` is
/// replaced by its value; a [`Doc::Wrapped`] text is then wrapped at [`HELP_WIDTH`].
pub(crate) fn help_sections<C, K>(
    table: &[Flag<C, K>],
    column: usize,
    vars: &[(&str, &str)],
) -> String {
    let mut sections: Vec<&str> = Vec::new();
    for f in table {
        if f.doc != Doc::Hidden && !sections.contains(&f.section) {
            sections.push(f.section);
        }
    }
    let mut out = String::new();
    for (i, heading) in sections.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if !heading.is_empty() {
            out.push_str(heading);
            out.push('\n');
        }
        for f in table.iter().filter(|f| f.section == *heading) {
            let fill = |text: &str| {
                let mut text = text.to_string();
                for (name, value) in vars {
                    text = text.replace(name, value);
                }
                text
            };
            let (head, text) = match f.doc {
                Doc::Hidden => continue,
                Doc::Text(text) => (head(f), fill(text)),
                Doc::Head(head, text) => (head.to_string(), fill(text)),
                Doc::Wrapped(text) => (head(f), wrap(&fill(text), HELP_WIDTH - column)),
            };
            entry(&mut out, 2, &head, &text, column);
            for (word, meaning) in f.words {
                entry(&mut out, 6, word, meaning, column);
            }
        }
    }
    out
}

/// The width of the help's lines.
pub(crate) const HELP_WIDTH: usize = 92;

/// `text` in lines of at most `width` characters, broken at spaces.
pub(crate) fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines.join("\n")
}

/// A flag's head as the help lists it: `-s, --long VALUE`.
fn head<C, K>(f: &Flag<C, K>) -> String {
    let mut h = match f.short {
        Some(c) => format!("-{c}, --{}", f.long),
        None => format!("--{}", f.long),
    };
    if let Takes::Value(v) | Takes::Words(v) = f.takes {
        h.push(' ');
        h.push_str(v);
    }
    h
}

/// One entry of the list: `head` indented by `indent` (each of its lines), then the lines of
/// `text` from `column`.
pub(crate) fn entry(out: &mut String, indent: usize, head: &str, text: &str, column: usize) {
    let mut heads: Vec<String> = head.lines().map(|l| format!("{:indent$}{l}", "")).collect();
    let last = heads.pop().unwrap_or_default();
    for line in heads {
        let _ = writeln!(out, "{line}");
    }
    let mut lines = text.lines();
    if text.is_empty() {
        let _ = writeln!(out, "{last}");
    } else if last.chars().count() < column {
        let first = lines.next().unwrap_or("");
        let _ = writeln!(out, "{last:<column$}{first}");
    } else {
        let _ = writeln!(out, "{last}");
    }
    for line in lines {
        let _ = writeln!(out, "{:column$}{line}", "");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_for_near_misses_only() {
        let known = [
            "rounds",
            "games",
            "concurrency",
            "openings",
            "maxplies",
            "pgnout",
        ];
        assert_eq!(did_you_mean("--rouns", known), Some("rounds"));
        assert_eq!(did_you_mean("--concurency", known), Some("concurrency"));
        assert_eq!(did_you_mean("--opening", known), Some("openings"));
        assert_eq!(did_you_mean("--pgn", known), Some("pgnout"));
        assert_eq!(did_you_mean("--Games", known), Some("games"));
        assert_eq!(did_you_mean("--xyzzy", known), None);
        assert_eq!(did_you_mean("--rounds", known), None, "not a miss");
    }

    /// What the tests' table sets.
    #[derive(Default, Debug, PartialEq)]
    struct Settings {
        on: bool,
        n: u32,
        words: Vec<String>,
        path: Option<PathBuf>,
    }

    type F = Flag<Settings>;

    const TABLE: &[F] = &[
        F::new("on", Takes::Nothing, Doc::Text("a switch"), |s, _| {
            s.on = true;
            Ok(())
        })
        .section("First:"),
        F::new(
            "number",
            Takes::Value("N"),
            Doc::Text("a number,\non two lines"),
            |s, v| {
                s.n = v.number()?;
                Ok(())
            },
        )
        .short('n')
        .section("First:")
        .words(&[("x=1", "a word"), ("a-long-word=VALUE", "its meaning")]),
        F::new(
            "words",
            Takes::Words("KEY=VALUE... [MORE=WORDS]"),
            Doc::Text("words"),
            |s, v| {
                s.words = v.words()?;
                Ok(())
            },
        )
        .section("Second:"),
        F::new("path", Takes::Value("FILE"), Doc::Hidden, |s, v| {
            s.path = Some(v.path());
            Ok(())
        }),
        F::new("help", Takes::Help, Doc::Head("-h, --help", ""), no_setting)
            .short('h')
            .section("Second:"),
    ];

    fn read(args: &[&str]) -> (anyhow::Result<Vec<String>>, Settings) {
        let mut s = Settings::default();
        let mut p = Lexer::new(args.iter().copied());
        let mut steps = Vec::new();
        loop {
            match next(&mut p, TABLE, &mut s) {
                Ok(None) => return (Ok(steps), s),
                Ok(Some(Step::Flag(f))) => steps.push(f.to_string()),
                Ok(Some(Step::Positional(v))) => steps.push(format!("value {v:?}")),
                Ok(Some(Step::Help)) => {
                    // The mode prints its help and reads no further.
                    steps.push("help".into());
                    return (Ok(steps), s);
                }
                Ok(Some(Step::Version)) => steps.push("version".into()),
                Err(e) => return (Err(e), s),
            }
        }
    }

    #[test]
    fn the_parser_reads_what_each_flag_takes() {
        let (steps, s) = read(&["--on", "-n", "7", "--words", "a=1", "b=2", "--path=p", "x"]);
        assert_eq!(
            steps.unwrap(),
            ["on", "number", "words", "path", "value \"x\""]
        );
        let expected = Settings {
            on: true,
            n: 7,
            words: vec!["a=1".into(), "b=2".into()],
            path: Some("p".into()),
        };
        assert_eq!(s, expected);
        assert_eq!(read(&["-h", "--on"]).0.unwrap(), ["help"]);
        for joined in ["--number=8", "-n8", "-n=8"] {
            assert_eq!(read(&[joined]).1.n, 8, "{joined}");
        }
        // An `=` joins one word: the next is positional.
        let (steps, s) = read(&["--words=a=1", "b=2"]);
        assert_eq!(steps.unwrap(), ["words", "value \"b=2\""]);
        assert_eq!(s.words, ["a=1"]);
    }

    #[test]
    fn the_parsers_errors_name_the_flag() {
        let err = |args: &[&str]| format!("{:#}", read(args).0.unwrap_err());
        assert_eq!(
            err(&["--numbr", "3"]),
            "invalid option '--numbr' (did you mean --number?)"
        );
        assert_eq!(err(&["--xyzzy"]), "invalid option '--xyzzy'");
        assert_eq!(err(&["-x"]), "invalid option '-x'");
        assert_eq!(err(&["--number"]), "missing argument for option '--number'");
        assert_eq!(err(&["-n"]), "missing argument for option '-n'");
        assert_eq!(
            err(&["--number="]),
            "--number \"\": not a whole number (expected a whole number from 0 to 4294967295)"
        );
        assert_eq!(
            err(&["--number", "-1"]),
            "--number \"-1\": out of range (expected a whole number from 0 to 4294967295)"
        );
        assert_eq!(
            err(&["--words"]),
            "--words needs KEY=VALUE words: missing argument for option '--words'"
        );
        assert_eq!(
            err(&["--on=3"]),
            "unexpected argument for option '--on': \"3\""
        );
    }

    /// The layout, checked by hand: heads from column 3, meanings from column 21 (on the next
    /// line after a head that leaves no room), words from column 7, hidden flags left out.
    #[test]
    fn the_help_lists_the_sections() {
        let expected = "\
First:
  --on              a switch
  -n, --number N    a number,
                    on two lines
      x=1           a word
      a-long-word=VALUE
                    its meaning

Second:
  --words KEY=VALUE... [MORE=WORDS]
                    words
  -h, --help
";
        assert_eq!(help_sections(TABLE, 20, &[]), expected);
    }

    #[test]
    fn wrapped_at_the_width() {
        assert_eq!(wrap("aa bb cc dd", 5), "aa bb\ncc dd");
        assert_eq!(wrap("aaaaaaa b", 5), "aaaaaaa\nb");
    }
}
