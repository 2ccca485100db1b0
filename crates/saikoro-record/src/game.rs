//! The one record model that every form reads into and writes from: where a game starts, its
//! header, its moves with their times and comments, and how it ended. Each form's module
//! (KIF, KI2, CSA, JKF, and the USI and SFEN lines) reads a text into [`Record`]s, every
//! move checked by the rules as it is read, and writes a [`Record`] back.

pub use crate::ending::Ending;
use crate::tree::{Counts, LineView, RecordEnd, RecordMove};
use saikoro_core::{Color, Position};
use std::fmt;

/// One game as a record holds it: the header, the start position with its comment and
/// bookmark, and the tree of moves ([`crate::tree`]), whose main line is [`Record::moves`]
/// and [`Record::end`], every variation hanging from the node it was played instead of.
///
/// What reads a record for play takes its main line: the match's openings, the records the
/// match writes, `saikoro record show` without `--at`, and the CSA, USI and SFEN writers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The header fields in the order read, with KIF's Japanese keys (`先手`, `後手`,
    /// `開始日時`, `終了日時`, `棋戦`, `場所`, `持ち時間`, …). The start position is not one of
    /// them: `手合割` and board diagrams are read into [`Record::start`], and written from it.
    pub header: Vec<(String, String)>,
    /// The comments of the file (KIF's and KI2's `#` lines, but the `#KIF version=…` line,
    /// which a writer makes anew), in order, without the `#`.
    pub file_comments: Vec<String>,
    /// The start position (its ply counts from 1 at the record's first move).
    pub start: Position,
    /// The start's comment, a line a string (the comments before the first move).
    pub comments: Vec<String>,
    /// The start's bookmark (`&` before the first move).
    pub bookmark: Option<String>,
    /// The main line's moves, all legal from `start`; each holds the variations played
    /// instead of it.
    pub moves: Vec<RecordMove>,
    /// How the main line ended, if the record says, with the variations played instead of the
    /// end.
    pub end: Option<RecordEnd>,
}

/// The one rule for a record's start position, in every form that reads or writes one: a
/// side may be without its king (a tsume problem, as tsshogi reads and writes them), and
/// otherwise a position must be legal. What needs both kings (a match's openings) checks it
/// where it plays.
pub const START_KINGS: saikoro_core::KingRule = saikoro_core::KingRule::Optional;

/// The forms a record can be read from and written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// KIF (`.kif`, `.kifu`: Shift_JIS or UTF-8).
    Kif,
    /// KI2 (`.ki2`, `.ki2u`): moves without from-squares.
    Ki2,
    /// CSA (`.csa`), V2.2 and V3.0.
    Csa,
    /// JSON Kifu Format (`.jkf`, `.json`).
    Jkf,
    /// USI: `position startpos moves …` or `sfen … moves …`, one game a line.
    Usi,
    /// SFEN: a position, one a line (no moves).
    Sfen,
}

impl Format {
    /// All forms, in the order `--to` lists them.
    pub const ALL: [Format; 6] = [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Jkf,
        Format::Usi,
        Format::Sfen,
    ];

    /// The lower-case name (`kif`) used on command lines.
    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Jkf => "jkf",
            Format::Usi => "usi",
            Format::Sfen => "sfen",
        }
    }

    /// The form a command line names (`kif`, `KI2`, …).
    pub fn from_name(name: &str) -> Option<Format> {
        let name = name.to_ascii_lowercase();
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The form a file name's extension names (`.kif`, `.kifu`, `.ki2`, `.ki2u`, `.csa`,
    /// `.jkf`, `.json`, `.usi`, `.sfen`).
    pub fn from_extension(path: &std::path::Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "kif" | "kifu" => Some(Format::Kif),
            "ki2" | "ki2u" => Some(Format::Ki2),
            "csa" => Some(Format::Csa),
            "jkf" | "json" => Some(Format::Jkf),
            "usi" => Some(Format::Usi),
            "sfen" => Some(Format::Sfen),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a text is not a record: the 1-based line (0 when the text as a whole is wrong, as a
/// text with no game in it) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based line number; 0 for the whole text.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl RecordError {
    /// An error at `line`.
    pub fn at(line: usize, reason: impl Into<String>) -> RecordError {
        RecordError {
            line,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// A record of no moves from `start`, with no header.
    pub fn new(start: Position) -> Record {
        Record {
            header: Vec::new(),
            file_comments: Vec::new(),
            start,
            comments: Vec::new(),
            bookmark: None,
            moves: Vec::new(),
            end: None,
        }
    }

    /// The main line as a view, to walk the same way as a variation.
    pub fn main_line(&self) -> LineView<'_> {
        LineView {
            moves: &self.moves,
            end: self.end.as_ref(),
        }
    }

    /// How the main line ended, if the record says.
    pub fn ending(&self) -> Option<Ending> {
        self.end.as_ref().map(|e| e.ending)
    }

    /// Ends the main line with `ending` and the comment `comments` (no time, bookmark or
    /// alternative).
    pub fn set_end(&mut self, ending: Ending, comments: Vec<String>) {
        let mut end = RecordEnd::new(ending);
        *end.comments_mut() = comments;
        self.end = Some(end);
    }

    /// What the tree holds, counted: moves, variations, comments, bookmarks, times.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        counts.add_node(&self.comments, self.bookmark.as_deref(), None, 0);
        counts.add_line(self.main_line(), 0);
        counts
    }

    /// The header value for `key`, if there is one.
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets the header value for `key` (in its place if it is there, else at the end).
    pub fn set_header(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.header.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value,
            None => self.header.push((key.to_string(), value)),
        }
    }

    /// The player's name for `color` (`先手`/`下手` or `後手`/`上手`).
    pub fn name(&self, color: Color) -> Option<&str> {
        let keys = match color {
            Color::Black => ["先手", "下手"],
            Color::White => ["後手", "上手"],
        };
        keys.iter().find_map(|k| self.header_value(k))
    }

    /// The position after the first `ply` moves (all of them when `ply` is larger).
    pub fn position_at(&self, ply: usize) -> Position {
        let mut pos = self.start.clone();
        for m in self.moves.iter().take(ply) {
            pos.do_move(m.mv);
        }
        pos
    }
}
