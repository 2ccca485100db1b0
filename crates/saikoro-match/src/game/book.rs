//! Openings: the positions games start from, read from a file of one position per line.
//!
//! A line is `startpos` or `sfen <SFEN>`, either followed by `moves <m1> <m2> …`, or a bare SFEN
//! (optionally with `moves …`), as YaneuraOu's `position` accepts; a leading `position` is
//! allowed too. Blank lines and lines starting with `#` are skipped. Every line is checked
//! before any game starts: a malformed line or an illegal move is reported with its line number.
//! Game records (KIF, KI2, CSA, JKF) are read as openings too (`format=kif|ki2|csa|jkf`, or by
//! the file name), through the one reader of the record forms: see `record_book`.

use crate::game::record_book;
use crate::words::{self, KeyValue, NotUtf8};
use saikoro_core::{Game, KingRule, Move, Position, RandomMover};
use saikoro_record::Format;
use saikoro_usi::{parse_line, Command, Start, UsiError};
use std::ffi::OsStr;
use std::fmt;
use std::path::Path;

/// One opening: a start position and the moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The line number in the file (1-based); 0 for the default start position.
    pub line: usize,
    /// The start position.
    pub start: Position,
    /// The moves played from it before the engines take over.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position, no moves.
    pub fn startpos() -> Opening {
        Opening {
            line: 0,
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }

    /// The game at the end of the opening.
    pub fn game(&self) -> Game {
        let mut g = Game::new(self.start.clone());
        for &m in &self.moves {
            g.play(m);
        }
        g
    }
}

/// The order openings are played in (`order=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// As in the file.
    #[default]
    Sequential,
    /// Shuffled once, from the match's seed.
    Random,
}

/// What an openings file holds (`format=`, or from the file name: `.csa`, `.kif`/`.kifu`,
/// `.ki2`/`.ki2u`, `.jkf`/`.json`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BookFormat {
    /// One position per line (`format=sfen`, `usi` or `epd`): the default.
    #[default]
    Sfen,
    /// CSA records, several games per file separated by `/` (`format=csa`).
    Csa,
    /// A KIF record, UTF-8 or Shift_JIS (`format=kif`).
    Kif,
    /// A KI2 record (`format=ki2`).
    Ki2,
    /// A JKF record (`format=jkf`).
    Jkf,
}

impl Order {
    /// Each order's word (`order=`): what the parser reads, the match state keeps and
    /// `--resume`'s messages show.
    pub const NAMES: [(&'static str, Order); 2] =
        [("sequential", Order::Sequential), ("random", Order::Random)];

    /// The word (`sequential`, `random`).
    pub fn name(self) -> &'static str {
        crate::word_of(&Order::NAMES, self)
    }
}

impl BookFormat {
    /// Each format's name (`format=`), as the match state keeps it and `--resume`'s
    /// messages show it.
    pub const NAMES: [(&'static str, BookFormat); 5] = [
        ("sfen", BookFormat::Sfen),
        ("csa", BookFormat::Csa),
        ("kif", BookFormat::Kif),
        ("ki2", BookFormat::Ki2),
        ("jkf", BookFormat::Jkf),
    ];

    /// The other names `format=` takes for them.
    const ALIASES: [(&'static str, BookFormat); 5] = [
        ("usi", BookFormat::Sfen),
        ("epd", BookFormat::Sfen),
        ("kifu", BookFormat::Kif),
        ("ki2u", BookFormat::Ki2),
        ("json", BookFormat::Jkf),
    ];

    /// The name (`sfen`, `csa`, `kif`, `ki2`, `jkf`).
    pub fn name(self) -> &'static str {
        crate::word_of(&BookFormat::NAMES, self)
    }

    /// The format `format=` names.
    fn named(name: &str) -> Result<BookFormat, BookError> {
        BookFormat::NAMES
            .iter()
            .chain(&BookFormat::ALIASES)
            .find(|(n, _)| *n == name)
            .map(|&(_, f)| f)
            .ok_or_else(|| BookError::Format(name.to_string()))
    }

    /// The format of a file by its name: `.csa`, `.kif`, `.kifu`, `.ki2`, `.ki2u`, `.jkf`,
    /// `.json`; anything else holds lines.
    pub fn of_file(path: &Path) -> BookFormat {
        match Format::from_extension(path) {
            Some(Format::Csa) => BookFormat::Csa,
            Some(Format::Kif) => BookFormat::Kif,
            Some(Format::Ki2) => BookFormat::Ki2,
            Some(Format::Jkf) => BookFormat::Jkf,
            _ => BookFormat::Sfen,
        }
    }

    /// The record form of a records format; `None` for the lines of positions.
    fn record_form(self) -> Option<Format> {
        match self {
            BookFormat::Sfen => None,
            BookFormat::Csa => Some(Format::Csa),
            BookFormat::Kif => Some(Format::Kif),
            BookFormat::Ki2 => Some(Format::Ki2),
            BookFormat::Jkf => Some(Format::Jkf),
        }
    }
}

/// How to read and use an openings file (`--openings file=F order=… start=N plies=N`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningsConfig {
    /// The file.
    pub file: std::path::PathBuf,
    /// The order.
    pub order: Order,
    /// The first opening to play, 1-based, counted after ordering.
    pub start: usize,
    /// Cut each line after this many moves.
    pub plies: Option<usize>,
    /// `format=`; `None`: from the file name.
    pub format: Option<BookFormat>,
}

/// How many bad lines of an openings file its error names, in file order; the rest are
/// counted (docs/match.md).
pub const MAX_BAD_LINES: usize = 20;

/// A line of an openings file that is no opening, or a game of a record file that cannot be
/// one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// 1-based line number; 0 where there is none to name (the file as a whole, or a game of
    /// a KIF, KI2 or JKF record).
    pub line: usize,
    /// The game's number in a record file that holds several, from 1.
    pub game: Option<usize>,
    /// What is wrong (for a line of positions, its text first).
    pub reason: String,
}

impl BadLine {
    /// The fault as `FILE:LINE: reason` (`FILE, game N: reason` where there is no line).
    fn write(&self, file: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(file)?;
        match (self.line, self.game) {
            (0, None) => {}
            (0, Some(g)) => write!(f, ", game {g}")?,
            (l, None) => write!(f, ":{l}")?,
            (l, Some(g)) => write!(f, ":{l}: game {g}")?,
        }
        write!(f, ": {}", self.reason)
    }
}

/// Why an openings setting or file cannot be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum BookError {
    /// A word of `--openings` that is not `key=value` or has an unknown key or a bad value.
    BadWord(String),
    /// No `file=`.
    NoFile,
    /// The file cannot be read.
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// Lines that are no openings (or games of a record file that cannot be): the first
    /// [`MAX_BAD_LINES`] in file order, and how many there are in all.
    BadLines {
        /// The file.
        file: String,
        /// The bad lines named.
        lines: Vec<BadLine>,
        /// How many there are in all.
        total: usize,
    },
    /// The file holds no position.
    Empty(String),
    /// A word of `--openings` that must be text and is not UTF-8 (every word but the file).
    NotUtf8(NotUtf8),
    /// An unknown `format=`.
    Format(String),
}

impl BookError {
    /// The error for `bad`, every bad line of `file` (at least one): the first
    /// [`MAX_BAD_LINES`] kept.
    fn bad_lines(file: String, mut bad: Vec<BadLine>) -> BookError {
        let total = bad.len();
        bad.truncate(MAX_BAD_LINES);
        BookError::BadLines {
            file,
            lines: bad,
            total,
        }
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::BadWord(w) => write!(
                f,
                "--openings: bad word '{w}' (expected file=F order=sequential|random start=N plies=N)"
            ),
            BookError::NoFile => f.write_str("--openings: file=F is missing"),
            BookError::Read { file, source } => write!(f, "cannot read openings {file}: {source}"),
            BookError::BadLines { file, lines, total } => {
                f.write_str("openings ")?;
                if let ([only], 1) = (lines.as_slice(), total) {
                    return only.write(file, f);
                }
                let what = if lines.iter().all(|l| l.game.is_some()) {
                    "games"
                } else {
                    "lines"
                };
                write!(f, "{file}: {total} bad {what}:")?;
                for l in lines {
                    f.write_str("\n  ")?;
                    l.write(file, f)?;
                }
                match total - lines.len() {
                    0 => Ok(()),
                    n => write!(f, "\n  and {n} more (the first {MAX_BAD_LINES} are named)"),
                }
            }
            BookError::Empty(file) => write!(f, "openings {file}: no position in the file"),
            BookError::NotUtf8(e) => write!(f, "--openings: {e}"),
            BookError::Format(name) if name == "pgn" => f.write_str(
                "--openings format=pgn: PGN holds chess games; give shogi records \
                 (format=kif, ki2, csa or jkf) or positions (format=sfen or epd)",
            ),
            BookError::Format(name) => write!(
                f,
                "--openings format={name}: unknown format (known: sfen, epd, usi, csa, kif, ki2, jkf)"
            ),
        }
    }
}

impl std::error::Error for BookError {}

impl From<NotUtf8> for BookError {
    fn from(e: NotUtf8) -> Self {
        BookError::NotUtf8(e)
    }
}

impl OpeningsConfig {
    /// Reads the words after `--openings`: `file=F` (required), `order=sequential|random`,
    /// `start=N` (1-based, default 1), `plies=N`, `format=sfen|epd|usi|csa|kif|ki2|jkf` (by
    /// default from the file name: `.csa`, `.kif`, `.kifu`, `.ki2`, `.ki2u`, `.jkf` and `.json`
    /// are records, anything else lines). The words are as the system gave them: the file is
    /// kept as given, any other word must be UTF-8.
    pub fn parse<W: AsRef<OsStr>>(
        words: impl IntoIterator<Item = W>,
    ) -> Result<OpeningsConfig, BookError> {
        let mut c = OpeningsConfig {
            start: 1,
            ..OpeningsConfig::default()
        };
        let mut file = None;
        for w in words {
            let w = w.as_ref();
            let Some(kv) = KeyValue::split(w)? else {
                return Err(BookError::BadWord(words::text(w)?.to_string()));
            };
            if kv.key() == "file" {
                file = Some(kv.path());
                continue;
            }
            let v = kv.text()?;
            let bad = || BookError::BadWord(kv.word().to_string_lossy().into_owned());
            match kv.key() {
                "order" => {
                    c.order = Order::NAMES
                        .iter()
                        .find(|(n, _)| *n == v)
                        .map(|&(_, o)| o)
                        .ok_or_else(bad)?;
                }
                "start" => c.start = v.parse().ok().filter(|&n| n >= 1).ok_or_else(bad)?,
                "plies" => c.plies = Some(v.parse().map_err(|_| bad())?),
                "format" => c.format = Some(BookFormat::named(v)?),
                _ => return Err(bad()),
            }
        }
        c.file = file.ok_or(BookError::NoFile)?;
        Ok(c)
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 80 {
        format!("{}...", s.chars().take(77).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Reads one line as an opening (`line` is its number, for messages). `Ok(None)` for a blank or
/// comment line.
pub(crate) fn parse_opening(text: &str, line: usize) -> Result<Option<Opening>, BadLine> {
    let t = text.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    let err = |reason: String| BadLine {
        line,
        game: None,
        reason: format!("'{}': {reason}", shorten(t)),
    };
    let body = t.strip_prefix("position").map_or(t, str::trim_start);
    let cmd = parse_line(&format!("position {body}")).map_err(|e| {
        err(match e {
            UsiError::Sfen(e) => format!("bad SFEN: {e}"),
            UsiError::MoveSyntax { index, text } => {
                format!("move {index} '{text}' is not a USI move")
            }
            other => other.to_string(),
        })
    })?;
    let Command::Position(p) = cmd else {
        return Err(err("not a position".to_string()));
    };
    let start = match p.start {
        Start::Startpos => Position::startpos(),
        Start::Sfen(setup) => Position::from_setup(&setup, KingRule::Required)
            .map_err(|e| err(format!("illegal position: {e}")))?,
    };
    let mut game = Game::new(start.clone());
    for (i, &m) in p.moves.iter().enumerate() {
        if game.outcome().is_some() {
            return Err(err(format!("the game is over before move {} '{m}'", i + 1)));
        }
        game.try_play(m)
            .map_err(|e| err(format!("move {} '{m}' is illegal: {e}", i + 1)))?;
    }
    if game.outcome().is_some() {
        return Err(err(
            "the game is already over at the end of the line".to_string()
        ));
    }
    Ok(Some(Opening {
        line,
        start,
        moves: p.moves,
    }))
}

/// The openings of a file, in file order, every line checked: every bad line is named.
pub(crate) fn read_openings(path: &Path) -> Result<Vec<Opening>, BookError> {
    let bytes = std::fs::read(path).map_err(|source| BookError::Read {
        file: path.display().to_string(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for (i, l) in text.lines().enumerate() {
        match parse_opening(l, i + 1) {
            Ok(Some(o)) => out.push(o),
            Ok(None) => {}
            Err(b) => bad.push(b),
        }
    }
    if !bad.is_empty() {
        return Err(BookError::bad_lines(path.display().to_string(), bad));
    }
    if out.is_empty() {
        return Err(BookError::Empty(path.display().to_string()));
    }
    Ok(out)
}

/// The openings in playing order: read, cut to `plies`, ordered (a seeded Fisher–Yates shuffle
/// for `order=random`), and rotated so that the `start`-th comes first. Round `r` (from 0)
/// plays entry `r % len`.
pub fn load(config: &OpeningsConfig, seed: u64) -> Result<Vec<Opening>, BookError> {
    let format = config
        .format
        .unwrap_or_else(|| BookFormat::of_file(&config.file));
    let mut book = match format.record_form() {
        None => read_openings(&config.file)?,
        Some(form) => from_records(record_book::read(&config.file, form, config.plies))?,
    };
    if let Some(n) = config.plies {
        for o in &mut book {
            o.moves.truncate(n);
        }
    }
    arrange(&mut book, config.order, config.start, seed);
    Ok(book)
}

/// The openings of a record file's games (`line`: the game's number in the file, from 1).
fn from_records(
    games: Result<Vec<record_book::RecordOpening>, record_book::RecordBookError>,
) -> Result<Vec<Opening>, BookError> {
    use record_book::RecordBookError as E;
    let games = games.map_err(|e| match e {
        E::Read { file, source } => BookError::Read { file, source },
        E::Bad { file, lines } => {
            let lines = lines.into_iter().map(|f| BadLine {
                line: f.line,
                game: f.game,
                reason: f.reason,
            });
            BookError::bad_lines(file, lines.collect())
        }
    })?;
    let openings = games.into_iter().enumerate();
    Ok(openings
        .map(|(i, (start, moves))| Opening {
            line: i + 1,
            start,
            moves,
        })
        .collect())
}

/// Orders and rotates `book` in place (see [`load`]).
pub(crate) fn arrange<T>(book: &mut [T], order: Order, start: usize, seed: u64) {
    if order == Order::Random {
        let mut rng = RandomMover::new(seed);
        for i in (1..book.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            book.swap(i, j);
        }
    }
    if !book.is_empty() {
        book.rotate_left((start.max(1) - 1) % book.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Option<Opening>, BadLine> {
        parse_opening(text, 7)
    }

    #[test]
    fn every_line_form() {
        let o = one("startpos").unwrap().unwrap();
        assert_eq!(o.start, Position::startpos());
        assert!(o.moves.is_empty());
        let o = one("startpos moves 7g7f 3c3d").unwrap().unwrap();
        assert_eq!(o.moves.len(), 2);
        let o = one("position startpos moves 2g2f").unwrap().unwrap();
        assert_eq!(o.moves.len(), 1);
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
        let o = one(&format!("sfen {sfen} moves 3c3d")).unwrap().unwrap();
        assert_eq!(o.start.to_sfen(), sfen);
        assert_eq!(o.game().len(), 1);
        let o = one(sfen).unwrap().unwrap();
        assert_eq!(o.start.to_sfen(), sfen);
        assert!(one("").unwrap().is_none());
        assert!(one("  # a comment").unwrap().is_none());
    }

    #[test]
    fn bad_lines_name_their_number_and_fault() {
        let bad = one("startpos moves 7g7f 7g7f").unwrap_err();
        assert_eq!((bad.line, bad.game), (7, None));
        let m = bad.reason;
        assert!(
            m.starts_with("'startpos moves 7g7f 7g7f': move 2 '7g7f' is illegal"),
            "{m}"
        );
        let msg = |t: &str| one(t).unwrap_err().reason;
        assert!(msg("startpos moves 7g7x").contains("move 1 '7g7x' is not a USI move"));
        assert!(msg("sfen lnsgkgsnl/9 b - 1").contains("bad SFEN"));
        // Both kings are required.
        assert!(msg("sfen 8k/9/9/9/9/9/9/9/9 b - 1").contains("illegal position"));
        assert!(msg("hello").starts_with("'hello': "));
    }

    /// A file with three bad lines among good ones and comments: one error names each with
    /// the file and its line, in file order.
    #[test]
    fn every_bad_line_of_a_file_is_named() {
        let dir = std::env::temp_dir().join(format!("saikoro-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.sfen");
        let text = "startpos\nstartpos moves 7g7x\n# fine\nhello\nstartpos moves 7g7f 7g7f\n";
        std::fs::write(&path, text).unwrap();
        let file = path.display().to_string();
        let e = read_openings(&path).unwrap_err().to_string();
        let lines: Vec<&str> = e.lines().collect();
        assert_eq!(lines.len(), 4, "{e}");
        assert_eq!(lines[0], format!("openings {file}: 3 bad lines:"));
        assert_eq!(
            lines[1],
            format!("  {file}:2: 'startpos moves 7g7x': move 1 '7g7x' is not a USI move")
        );
        assert!(
            lines[2].starts_with(&format!("  {file}:4: 'hello': ")),
            "{e}"
        );
        assert!(
            lines[3].starts_with(&format!(
                "  {file}:5: 'startpos moves 7g7f 7g7f': move 2 '7g7f' is illegal"
            )),
            "{e}"
        );
        // One bad line: one line of message, as the compilers write it.
        std::fs::write(&path, "startpos\nstartpos moves 7g7x\n").unwrap();
        let e = read_openings(&path).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("openings {file}:2: 'startpos moves 7g7x': move 1 '7g7x' is not a USI move")
        );
        // 25 bad lines: the first 20 named (lines 1 to 20), the other 5 counted.
        std::fs::write(&path, "hello\n".repeat(25)).unwrap();
        let e = read_openings(&path).unwrap_err().to_string();
        let lines: Vec<&str> = e.lines().collect();
        assert_eq!(lines.len(), 22, "{e}");
        assert_eq!(lines[0], format!("openings {file}: 25 bad lines:"));
        assert!(
            lines[20].starts_with(&format!("  {file}:20: 'hello': ")),
            "{e}"
        );
        assert_eq!(lines[21], "  and 5 more (the first 20 are named)");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn options_of_the_flag() {
        let c =
            OpeningsConfig::parse(["file=a.sfen", "order=random", "start=3", "plies=4"]).unwrap();
        assert_eq!(c.order, Order::Random);
        assert_eq!((c.start, c.plies), (3, Some(4)));
        assert!(matches!(
            OpeningsConfig::parse(["order=random"]),
            Err(BookError::NoFile)
        ));
        assert!(OpeningsConfig::parse(["file=a", "order=shuffled"]).is_err());
        assert!(OpeningsConfig::parse(["file=a", "start=0"]).is_err());
        let e = OpeningsConfig::parse(["file=a", "format=pgn"]).unwrap_err();
        assert!(e.to_string().contains("PGN holds chess games"), "{e}");
        let e = OpeningsConfig::parse(["file=a", "format=bod"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--openings format=bod: unknown format (known: sfen, epd, usi, csa, kif, ki2, jkf)"
        );
        let c = OpeningsConfig::parse(["file=a", "format=kif"]).unwrap();
        assert_eq!(c.format, Some(BookFormat::Kif));
        assert_eq!(
            BookFormat::of_file(Path::new("x/2026.CSA")),
            BookFormat::Csa
        );
        assert_eq!(BookFormat::of_file(Path::new("a.kifu")), BookFormat::Kif);
        assert_eq!(BookFormat::of_file(Path::new("a.ki2u")), BookFormat::Ki2);
        assert_eq!(BookFormat::of_file(Path::new("a.json")), BookFormat::Jkf);
        let c = OpeningsConfig::parse(["file=a", "format=ki2"]).unwrap();
        assert_eq!(c.format, Some(BookFormat::Ki2));
        let c = OpeningsConfig::parse(["file=a", "format=jkf"]).unwrap();
        assert_eq!(c.format, Some(BookFormat::Jkf));
        assert_eq!(
            BookFormat::of_file(Path::new("b.sfen.epd")),
            BookFormat::Sfen
        );
    }

    /// The file is a path, kept byte for byte; every other word must be UTF-8.
    #[cfg(unix)]
    #[test]
    fn words_that_are_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let bytes = |b: &[u8]| OsStr::from_bytes(b).to_owned();
        let c = OpeningsConfig::parse([bytes(b"file=b\xFF.kif"), bytes(b"plies=3")]).unwrap();
        assert_eq!(c.file.as_os_str(), bytes(b"b\xFF.kif"));
        assert_eq!(BookFormat::of_file(&c.file), BookFormat::Kif);
        for word in [&b"order=\xFF"[..], b"\xFF", b"fil\xFF=a"] {
            let e = OpeningsConfig::parse([bytes(b"file=a"), bytes(word)]).unwrap_err();
            assert!(
                matches!(&e, BookError::NotUtf8(n) if n.word == bytes(word)),
                "{e}"
            );
        }
        let e = OpeningsConfig::parse([bytes(b"file=a"), bytes(b"start=\xFF")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"--openings: the word "start=\xFF" is not valid UTF-8"#
        );
    }

    #[test]
    fn ordering() {
        let mut v: Vec<u32> = (1..=5).collect();
        arrange(&mut v, Order::Sequential, 2, 0);
        assert_eq!(v, [2, 3, 4, 5, 1]);
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        arrange(&mut a, Order::Random, 1, 9);
        arrange(&mut b, Order::Random, 1, 9);
        assert_eq!(a, b, "same seed, same order");
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>(), "a permutation");
        let mut c: Vec<u32> = (0..50).collect();
        arrange(&mut c, Order::Random, 1, 10);
        assert_ne!(a, c, "another seed, another order");
    }
}
