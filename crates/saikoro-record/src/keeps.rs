//! What each form keeps of a record, one table ([`Format::keeps`]), and what a record loses
//! when it is written in a form ([`left_out`]): what `saikoro record convert` says on stderr.

use crate::csa::{special_ending, special_word};
use crate::japanese::{ending_of_summary, ending_of_word, summary_of_ending, word_of_ending};
use crate::tree::{LineView, Node};
use crate::{Ending, Format, Record};
use saikoro_core::Color;
use std::fmt;

/// How much of the tree a form keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reach {
    /// Nothing.
    None,
    /// The main line (and the start).
    MainLine,
    /// Every line.
    Tree,
}

/// What a form keeps of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Keeps {
    /// The moves: the main line, or the tree with its variations.
    pub moves: Reach,
    /// The comments of the nodes it keeps.
    pub comments: bool,
    /// The bookmarks (しおり).
    pub bookmarks: bool,
    /// The times, and whether to the millisecond (else whole seconds, rounded down).
    pub times: Option<Precision>,
    /// The header (`先手`, `棋戦`, …).
    pub header: bool,
    /// The file's `#` comments.
    pub file_comments: bool,
    /// The ends (in the form's words, a table for each).
    pub ends: bool,
}

/// How finely a form writes times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    /// Whole seconds (KIF's `m:ss`, JKF's `s`).
    Seconds,
    /// Milliseconds (CSA V3.0's `T12.345`).
    Milliseconds,
}

impl Format {
    /// What the form keeps of a record when written: the one table the convert note and the
    /// docs' table come from.
    pub fn keeps(self) -> Keeps {
        let all = Keeps {
            moves: Reach::Tree,
            comments: true,
            bookmarks: true,
            times: Some(Precision::Seconds),
            header: true,
            file_comments: true,
            ends: true,
        };
        let none = Keeps {
            moves: Reach::MainLine,
            comments: false,
            bookmarks: false,
            times: None,
            header: false,
            file_comments: false,
            ends: false,
        };
        match self {
            Format::Kif => all,
            Format::Ki2 => Keeps { times: None, ..all },
            Format::Jkf => Keeps {
                bookmarks: false,
                file_comments: false,
                ..all
            },
            Format::Csa => Keeps {
                moves: Reach::MainLine,
                bookmarks: false,
                file_comments: false,
                times: Some(Precision::Milliseconds),
                ..all
            },
            Format::Usi => none,
            Format::Sfen => Keeps {
                moves: Reach::None,
                ..none
            },
        }
    }

    /// Whether the form writes `ending` (`next` to move at the end) in words that read back as
    /// the same ending: KIF has no word for the move limit or a draw (it writes `持将棋`),
    /// CSA and JKF none for 不戦勝, 不戦敗 or 封じ手 (`CHUDAN`).
    pub fn keeps_ending(self, ending: Ending, next: Color) -> bool {
        let back = match self {
            Format::Kif => ending_of_word(word_of_ending(ending, next), next),
            Format::Ki2 => ending_of_summary(&summary_of_ending(ending, next, true, false), next),
            Format::Csa | Format::Jkf => special_ending(special_word(ending), next),
            Format::Usi | Format::Sfen => None,
        };
        back == Some(ending)
    }
}

/// What a record loses written in a form: counts of what the written text does not hold.
/// What is inside a variation left out is counted in [`LeftOut::variation_moves`] alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// The variations left out (every line but the main line).
    pub variations: usize,
    /// Their moves.
    pub variation_moves: usize,
    /// The main line's moves left out (an SFEN is a position).
    pub moves: usize,
    /// The comments left out (nodes with one).
    pub comments: usize,
    /// The bookmarks left out.
    pub bookmarks: usize,
    /// The times left out.
    pub times: usize,
    /// The times written rounded down to whole seconds.
    pub rounded_times: usize,
    /// The header fields left out.
    pub header: usize,
    /// The file's `#` comments left out.
    pub file_comments: usize,
    /// The ends left out.
    pub ends: usize,
    /// The ends written in words that read back as another, each once (`持将棋` for the move
    /// limit in KIF).
    pub renamed_ends: Vec<Ending>,
}

impl LeftOut {
    /// Whether nothing is lost.
    pub fn is_empty(&self) -> bool {
        *self == LeftOut::default()
    }

    /// Adds what another record lost.
    pub fn add(&mut self, other: &LeftOut) {
        self.variations += other.variations;
        self.variation_moves += other.variation_moves;
        self.moves += other.moves;
        self.comments += other.comments;
        self.bookmarks += other.bookmarks;
        self.times += other.times;
        self.rounded_times += other.rounded_times;
        self.header += other.header;
        self.file_comments += other.file_comments;
        self.ends += other.ends;
        for e in &other.renamed_ends {
            if !self.renamed_ends.contains(e) {
                self.renamed_ends.push(*e);
            }
        }
    }
}

/// `n` and the noun, its plural with an `s`.
fn count(n: usize, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {noun}{s}")
}

impl fmt::Display for LeftOut {
    /// `left out 3 variations (14 moves), 2 bookmarks; 1 time rounded down to whole seconds;
    /// the move limit (MAX_MOVES) written as another end`: what is lost, then what is changed;
    /// empty when nothing is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lost = Vec::new();
        if self.variations > 0 {
            let moves = count(self.variation_moves, "move");
            lost.push(format!("{} ({moves})", count(self.variations, "variation")));
        }
        if self.moves > 0 {
            lost.push(format!("{} of the main line", count(self.moves, "move")));
        }
        let plain = [
            (self.comments, "comment"),
            (self.bookmarks, "bookmark"),
            (self.times, "time"),
            (self.header, "header field"),
            (self.file_comments, "# line"),
            (self.ends, "end"),
        ];
        lost.extend(
            plain
                .iter()
                .filter(|p| p.0 > 0)
                .map(|&(n, noun)| count(n, noun)),
        );
        let mut parts = Vec::new();
        if !lost.is_empty() {
            parts.push(format!("left out {}", lost.join(", ")));
        }
        if self.rounded_times > 0 {
            let times = count(self.rounded_times, "time");
            parts.push(format!("{times} rounded down to whole seconds"));
        }
        if !self.renamed_ends.is_empty() {
            let names: Vec<String> = self
                .renamed_ends
                .iter()
                .map(|e| format!("the {}", e.name()))
                .collect();
            let other = match names.len() {
                1 => "another end",
                _ => "other ends",
            };
            parts.push(format!("{} written as {other}", names.join(" and ")));
        }
        f.write_str(&parts.join("; "))
    }
}

/// What `record` loses when written as `format`.
pub fn left_out(record: &Record, format: Format) -> LeftOut {
    let keeps = format.keeps();
    let mut out = LeftOut {
        file_comments: if keeps.file_comments {
            0
        } else {
            record.file_comments.len()
        },
        header: if keeps.header { 0 } else { record.header.len() },
        ..LeftOut::default()
    };
    out.comments += usize::from(!keeps.comments && !record.comments.is_empty());
    out.bookmarks += usize::from(!keeps.bookmarks && record.bookmark.is_some());
    let mut walk = Walk {
        out,
        keeps,
        format,
        start: record.start.side_to_move(),
    };
    walk.line(record.main_line(), 1);
    walk.out
}

/// A record being walked for what a form loses of it.
struct Walk {
    out: LeftOut,
    keeps: Keeps,
    format: Format,
    /// The side to move at the start.
    start: Color,
}

impl Walk {
    /// The nodes of `line` (its first at move `ply`) that the form writes, and the lines that
    /// branch from them.
    fn line(&mut self, line: LineView<'_>, ply: usize) {
        for (i, node) in line.nodes().enumerate() {
            let next = if (ply + i) % 2 == 1 {
                self.start
            } else {
                !self.start
            };
            lost_in_node(&mut self.out, self.keeps, self.format, node, next);
            for alt in node.alternatives() {
                match self.keeps.moves {
                    Reach::Tree => self.line(alt.view(), ply + i),
                    _ => self.left_out_line(alt.view()),
                }
            }
        }
    }

    /// A variation the form leaves out, and those that branch from it.
    fn left_out_line(&mut self, line: LineView<'_>) {
        self.out.variations += 1;
        self.out.variation_moves += line.moves.len();
        for node in line.nodes() {
            for alt in node.alternatives() {
                self.left_out_line(alt.view());
            }
        }
    }
}

/// What a node kept by the form loses in it, `next` to move at the node.
fn lost_in_node(out: &mut LeftOut, keeps: Keeps, format: Format, node: Node<'_>, next: Color) {
    out.comments += usize::from(!keeps.comments && !node.comments().is_empty());
    out.bookmarks += usize::from(!keeps.bookmarks && node.bookmark().is_some());
    if let Some(t) = node.time_ms() {
        match keeps.times {
            None => out.times += 1,
            Some(Precision::Seconds) => out.rounded_times += usize::from(t % 1000 != 0),
            Some(Precision::Milliseconds) => {}
        }
    }
    match node {
        Node::Move(_) if keeps.moves == Reach::None => out.moves += 1,
        Node::End(_) if !keeps.ends => out.ends += 1,
        Node::End(e)
            if !format.keeps_ending(e.ending, next) && !out.renamed_ends.contains(&e.ending) =>
        {
            out.renamed_ends.push(e.ending);
        }
        _ => {}
    }
}
