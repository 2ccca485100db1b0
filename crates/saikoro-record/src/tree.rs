//! The record as a tree (棋譜の分岐): every move with the moves played instead of it
//! (変化), in order; an end (投了, 中断, …) as a node that may have alternatives too. A line is
//! moves one after another, each the first child of the one before, then maybe an end; the main
//! line is the first child all the way down, [`Record::moves`](crate::Record::moves) and
//! [`Record::end`](crate::Record::end). A node's alternatives are the lines that start in its
//! place (at its move number), after it, in order: in KIF the `変化：N手` blocks of that move,
//! in JKF its `forks`.

use crate::Ending;
use saikoro_core::Move;

/// How deeply variations may nest: a variation of the main line is at depth 1, a variation of
/// that variation at depth 2, and so on. Deeper input is refused with its line, in every form
/// (JSON allows some 40 in JKF, serde_json's limit of 128 nested arrays and objects).
pub const MAX_NESTING: usize = 32;

/// A move of a line with what the record says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move, legal in the position before it.
    pub mv: Move,
    /// The time the move took, in milliseconds, if the record says.
    pub time_ms: Option<u64>,
    /// The comment after the move, a line a string (KIF's `*` lines).
    pub comments: Vec<String>,
    /// The bookmark (しおり, KIF's `&` line) on the position after the move.
    pub bookmark: Option<String>,
    /// The lines played instead of this move, after it in order (its later siblings). Each
    /// starts with a move or an end at this move's number.
    pub alternatives: Vec<Line>,
}

impl RecordMove {
    /// `mv` with no time, comment, bookmark or alternative.
    pub fn new(mv: Move) -> RecordMove {
        RecordMove {
            mv,
            time_ms: None,
            comments: Vec::new(),
            bookmark: None,
            alternatives: Vec::new(),
        }
    }
}

/// How a line ends (投了, 中断, 千日手, …), as a node of the tree: at the move number where the
/// record writes it (KIF's `  61 投了`), with its time, comment and bookmark, and the lines
/// played instead of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordEnd {
    /// How the line ended.
    pub ending: Ending,
    /// The time the end took (KIF's time on the end line), if the record says.
    pub time_ms: Option<u64>,
    /// The comment after the end, a line a string (KIF's `*` lines after the end word, KI2's
    /// after the `まで` line, JKF's on the `special`, CSA's `'` lines after the `%` line).
    pub comments: Vec<String>,
    /// The bookmark (`&`) on the end.
    pub bookmark: Option<String>,
    /// The lines played instead of the end, after it in order. Each starts with a move (or
    /// another end) at the end's move number.
    pub alternatives: Vec<Line>,
}

impl RecordEnd {
    /// `ending` with no time, comment, bookmark or alternative.
    pub fn new(ending: Ending) -> RecordEnd {
        RecordEnd {
            ending,
            time_ms: None,
            comments: Vec::new(),
            bookmark: None,
            alternatives: Vec::new(),
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
            Node::Move(m) => &m.comments,
            Node::End(e) => &e.comments,
        }
    }

    /// The node's bookmark.
    pub fn bookmark(self) -> Option<&'a str> {
        match self {
            Node::Move(m) => m.bookmark.as_deref(),
            Node::End(e) => e.bookmark.as_deref(),
        }
    }

    /// The lines played instead of the node, after it.
    pub fn alternatives(self) -> &'a [Line] {
        match self {
            Node::Move(m) => &m.alternatives,
            Node::End(e) => &e.alternatives,
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
    /// branches from them.
    pub(crate) fn add_line(&mut self, line: LineView<'_>, depth: usize) {
        walk(line, 1, depth, &mut |node, _, depth, first| {
            self.depth = self.depth.max(depth);
            if first && depth > 0 {
                self.variations += 1;
            }
            match (node, depth) {
                (Node::Move(_), 0) => self.main_moves += 1,
                (Node::Move(_), _) => self.variation_moves += 1,
                (Node::End(_), _) => {}
            }
            self.add_node(node.comments(), node.bookmark(), node.time_ms(), depth);
        });
    }

    /// Adds one node's comment, bookmark and time.
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

/// Calls `f` on every node of `line` (its first node at move `ply`, the line at `depth`) and of
/// the lines that branch from them, depth-first: the node, its move number, its line's depth,
/// and whether it is its line's first node.
pub(crate) fn walk<'a>(
    line: LineView<'a>,
    ply: usize,
    depth: usize,
    f: &mut impl FnMut(Node<'a>, usize, usize, bool),
) {
    for (i, node) in line.nodes().enumerate() {
        f(node, ply + i, depth, i == 0);
        for alt in node.alternatives() {
            walk(alt.view(), ply + i, depth + 1, f);
        }
    }
}
