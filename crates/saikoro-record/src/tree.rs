//! The record as a tree (棋譜の分岐): every move with the moves played instead of it
//! (変化), in order; an end (投了, 中断, …) as a node that may have alternatives too. A line is
//! moves one after another, each the first child of the one before, then maybe an end; the main
//! line is the first child all the way down, [`Record::moves`](crate::Record::moves) and
//! [`Record::end`](crate::Record::end). A node's alternatives are the lines that start in its
//! place (at its move number), after it, in order: in KIF the `変化：N手` blocks of that move,
//! in JKF its `forks`.

use crate::ending::Ending;
use saikoro_core::Move;

/// How deeply variations may nest: a variation of the main line is at depth 1, a variation of
/// that variation at depth 2, and so on. Deeper input is refused with its line, in every form
/// (JSON allows some 40 in JKF, serde_json's limit of 128 nested arrays and objects).
pub const MAX_NESTING: usize = 32;

/// What a node says besides its move or end, which most moves lack: its comment, its
/// bookmark and the lines played instead of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Notes {
    comments: Vec<String>,
    bookmark: Option<String>,
    alternatives: Vec<Line>,
}

impl Notes {
    /// The notes of nothing: a node without them keeps none.
    const NONE: &'static Notes = &Notes {
        comments: Vec::new(),
        bookmark: None,
        alternatives: Vec::new(),
    };
}

/// A move of a line with what the record says of it: its time, and its comment, bookmark and
/// alternatives through the methods. (Those three sit in one box that a move without them does
/// not have: a record of a thousand games holds some 300,000 moves, few with any.)
#[derive(Clone, Debug, Eq)]
pub struct RecordMove {
    /// The move, legal in the position before it.
    pub mv: Move,
    /// The time the move took, in milliseconds, if the record says.
    pub time_ms: Option<u64>,
    notes: Option<Box<Notes>>,
}

impl PartialEq for RecordMove {
    /// Equal moves, times, comments, bookmarks and alternatives (a box of no notes is none).
    fn eq(&self, other: &RecordMove) -> bool {
        self.mv == other.mv && self.time_ms == other.time_ms && self.notes() == other.notes()
    }
}

impl RecordMove {
    /// `mv` with no time, comment, bookmark or alternative.
    pub fn new(mv: Move) -> RecordMove {
        RecordMove {
            mv,
            time_ms: None,
            notes: None,
        }
    }

    /// `mv` with its time (`None`: the record does not say), and no comment, bookmark or
    /// alternative.
    pub fn with_time(mv: Move, time_ms: Option<u64>) -> RecordMove {
        RecordMove {
            mv,
            time_ms,
            notes: None,
        }
    }

    fn notes(&self) -> &Notes {
        self.notes.as_deref().unwrap_or(Notes::NONE)
    }

    fn notes_mut(&mut self) -> &mut Notes {
        self.notes.get_or_insert_with(Box::default)
    }

    /// The comment after the move, a line a string (KIF's `*` lines).
    pub fn comments(&self) -> &[String] {
        &self.notes().comments
    }

    /// The comment, to change.
    pub fn comments_mut(&mut self) -> &mut Vec<String> {
        &mut self.notes_mut().comments
    }

    /// The bookmark (しおり, KIF's `&` line) on the position after the move.
    pub fn bookmark(&self) -> Option<&str> {
        self.notes().bookmark.as_deref()
    }

    /// Sets the bookmark (none: takes it away).
    pub fn set_bookmark(&mut self, bookmark: Option<String>) {
        if bookmark.is_some() || self.notes.is_some() {
            self.notes_mut().bookmark = bookmark;
        }
    }

    /// The lines played instead of this move, after it in order (its later siblings). Each
    /// starts with a move or an end at this move's number.
    pub fn alternatives(&self) -> &[Line] {
        &self.notes().alternatives
    }

    /// The alternatives, to change.
    pub fn alternatives_mut(&mut self) -> &mut Vec<Line> {
        &mut self.notes_mut().alternatives
    }
}

/// How a line ends (投了, 中断, 千日手, …), as a node of the tree: at the move number where the
/// record writes it (KIF's `  61 投了`), with its time; its comment, bookmark and the lines
/// played instead of it through the methods, as a move's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordEnd {
    /// How the line ended.
    pub ending: Ending,
    /// The time the end took (KIF's time on the end line), if the record says.
    pub time_ms: Option<u64>,
    notes: Notes,
}

impl RecordEnd {
    /// `ending` with no time, comment, bookmark or alternative.
    pub fn new(ending: Ending) -> RecordEnd {
        RecordEnd {
            ending,
            time_ms: None,
            notes: Notes::default(),
        }
    }

    /// The comment after the end, a line a string (KIF's `*` lines after the end word, KI2's
    /// after the `まで` line, JKF's on the `special`, CSA's `'` lines after the `%` line).
    pub fn comments(&self) -> &[String] {
        &self.notes.comments
    }

    /// The comment, to change.
    pub fn comments_mut(&mut self) -> &mut Vec<String> {
        &mut self.notes.comments
    }

    /// The bookmark (`&`) on the end.
    pub fn bookmark(&self) -> Option<&str> {
        self.notes.bookmark.as_deref()
    }

    /// Sets the bookmark (none: takes it away).
    pub fn set_bookmark(&mut self, bookmark: Option<String>) {
        self.notes.bookmark = bookmark;
    }

    /// The lines played instead of the end, after it in order. Each starts with a move (or
    /// another end) at the end's move number.
    pub fn alternatives(&self) -> &[Line] {
        &self.notes.alternatives
    }

    /// The alternatives, to change.
    pub fn alternatives_mut(&mut self) -> &mut Vec<Line> {
        &mut self.notes.alternatives
    }
}

/// A node's comment, bookmark and alternatives, for the readers that build a tree.
pub(crate) fn with_notes(
    comments: Vec<String>,
    bookmark: Option<String>,
    alternatives: Vec<Line>,
) -> Option<Notes> {
    let notes = Notes {
        comments,
        bookmark,
        alternatives,
    };
    (notes != *Notes::NONE).then_some(notes)
}

impl RecordMove {
    /// `mv` with its time and what [`with_notes`] made.
    pub(crate) fn from_parts(mv: Move, time_ms: Option<u64>, notes: Option<Notes>) -> RecordMove {
        RecordMove {
            mv,
            time_ms,
            notes: notes.map(Box::new),
        }
    }
}

impl RecordEnd {
    /// `ending` with its time and what [`with_notes`] made.
    pub(crate) fn from_parts(
        ending: Ending,
        time_ms: Option<u64>,
        notes: Option<Notes>,
    ) -> RecordEnd {
        RecordEnd {
            ending,
            time_ms,
            notes: notes.unwrap_or_default(),
        }
    }
}

/// A line of play that branches from another (a variation, 変化): its moves, each the first
/// child of the one before, then maybe an end. A line holds at least one node (a move or the
/// end); its first node's own alternatives are empty, for the lines beside it are the
/// alternatives of the node it was played instead of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves.
    pub moves: Vec<RecordMove>,
    /// The end, if the line has one.
    pub end: Option<RecordEnd>,
}

impl Line {
    /// The line as a view.
    pub fn view(&self) -> LineView<'_> {
        LineView {
            moves: &self.moves,
            end: self.end.as_ref(),
        }
    }
}

/// A line borrowed: the main line of a record ([`Record::main_line`](crate::Record::main_line))
/// or a variation ([`Line::view`]), so that both are walked the same way.
#[derive(Clone, Copy, Debug)]
pub struct LineView<'a> {
    /// The moves.
    pub moves: &'a [RecordMove],
    /// The end, if the line has one.
    pub end: Option<&'a RecordEnd>,
}

impl<'a> LineView<'a> {
    /// The nodes of the line in order: its moves, then its end.
    pub fn nodes(self) -> impl Iterator<Item = Node<'a>> {
        self.moves
            .iter()
            .map(Node::Move)
            .chain(self.end.map(Node::End))
    }

    /// The nodes of the line from the last to the first, each with its index: how the writers
    /// of variations walk back, undoing a move at a time, to write each node's alternatives.
    pub(crate) fn nodes_back(self) -> impl Iterator<Item = (usize, Node<'a>)> {
        (0..self.len())
            .rev()
            .filter_map(move |i| Some((i, self.node(i)?)))
    }

    /// How many nodes the line has (its moves and its end).
    pub fn len(self) -> usize {
        self.moves.len() + usize::from(self.end.is_some())
    }

    /// Whether the line has no node.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The node `i` (from 0) of the line.
    pub fn node(self, i: usize) -> Option<Node<'a>> {
        match self.moves.get(i) {
            Some(m) => Some(Node::Move(m)),
            None if i == self.moves.len() => self.end.map(Node::End),
            None => None,
        }
    }
}

/// A node of a line: a move or an end.
#[derive(Clone, Copy, Debug)]
pub enum Node<'a> {
    /// A move.
    Move(&'a RecordMove),
    /// An end.
    End(&'a RecordEnd),
}

impl<'a> Node<'a> {
    /// The node's time in milliseconds, if the record says.
    pub fn time_ms(self) -> Option<u64> {
        match self {
            Node::Move(m) => m.time_ms,
            Node::End(e) => e.time_ms,
        }
    }

    /// The node's comment lines.
    pub fn comments(self) -> &'a [String] {
        match self {
            Node::Move(m) => m.comments(),
            Node::End(e) => e.comments(),
        }
    }

    /// The node's bookmark.
    pub fn bookmark(self) -> Option<&'a str> {
        match self {
            Node::Move(m) => m.bookmark(),
            Node::End(e) => e.bookmark(),
        }
    }

    /// The lines played instead of the node, after it.
    pub fn alternatives(self) -> &'a [Line] {
        match self {
            Node::Move(m) => m.alternatives(),
            Node::End(e) => e.alternatives(),
        }
    }

    /// The move, when the node is one.
    pub fn mv(self) -> Option<Move> {
        match self {
            Node::Move(m) => Some(m.mv),
            Node::End(_) => None,
        }
    }
}

/// What a record's tree holds, counted: the figures that `saikoro record check` prints and
/// that a form which cannot keep something says it left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// The moves of the main line.
    pub main_moves: usize,
    /// The variations (lines that branch from another), at every depth.
    pub variations: usize,
    /// The moves inside variations.
    pub variation_moves: usize,
    /// The nodes with a comment, the start's included: on the main line.
    pub main_comments: usize,
    /// The nodes with a comment inside variations.
    pub variation_comments: usize,
    /// The nodes with a bookmark, the start's included.
    pub bookmarks: usize,
    /// The nodes with a time.
    pub times: usize,
    /// The nodes with a time that is not whole seconds.
    pub fractional_times: usize,
    /// The deepest nesting of variations (0: the main line alone).
    pub depth: usize,
}

impl Counts {
    /// Adds the nodes of `line`, a line at `depth` (0: the main line), and every line that
    /// branches from them. (A loop of its own rather than [`walk`]: `record check` counts
    /// every game of a file of thousands.)
    pub(crate) fn add_line(&mut self, line: LineView<'_>, depth: usize) {
        self.depth = self.depth.max(depth);
        if depth == 0 {
            self.main_moves += line.moves.len();
        } else {
            self.variations += 1;
            self.variation_moves += line.moves.len();
        }
        for m in line.moves {
            self.add_node(m.comments(), m.bookmark(), m.time_ms, depth);
            for alt in m.alternatives() {
                self.add_line(alt.view(), depth + 1);
            }
        }
        if let Some(e) = line.end {
            self.add_node(e.comments(), e.bookmark(), e.time_ms, depth);
            for alt in e.alternatives() {
                self.add_line(alt.view(), depth + 1);
            }
        }
    }

    /// Adds one node's comment, bookmark and time.
    #[inline]
    pub(crate) fn add_node(
        &mut self,
        comments: &[String],
        bookmark: Option<&str>,
        time: Option<u64>,
        depth: usize,
    ) {
        if !comments.is_empty() {
            match depth {
                0 => self.main_comments += 1,
                _ => self.variation_comments += 1,
            }
        }
        self.bookmarks += usize::from(bookmark.is_some());
        self.times += usize::from(time.is_some());
        self.fractional_times += usize::from(time.is_some_and(|t| t % 1000 != 0));
    }
}
