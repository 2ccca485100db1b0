//! The tree of a record as the readers of KIF, KI2 and JKF build it, a node at a time: moves
//! and ends appended to the node read last, every move checked by the rules, a variation
//! (`変化：N手`, a JKF fork) begun by going back to its branch point. The nodes sit in one
//! vector while they are read; [`Builder::finish`] turns them into the record's lines.
//!
//! As tsshogi reads records, a move appended where the same move already follows is that node
//! again (a variation that repeats a move is merged into it: its comment added to the node's,
//! its time and bookmark, when it has them, taking the place of the node's).

use crate::address::Address;
use crate::japanese::rule_reason;
use crate::tree::{with_notes, Line, RecordEnd, RecordMove, MAX_NESTING};
use crate::Ending;
use saikoro_core::{Move, Position, Square};

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Start,
    Move(Move),
    End(Ending),
}

/// A node while the tree is read.
#[derive(Debug)]
struct Slot {
    kind: Kind,
    parent: usize,
    /// The move number (0 for the start; an end's is the number it is written at).
    ply: usize,
    /// How many variations deep the node's line is (0: the main line).
    depth: usize,
    time_ms: Option<u64>,
    comments: Vec<String>,
    bookmark: Option<String>,
    children: Vec<usize>,
}

/// A tree being read.
pub(crate) struct Builder {
    start: Position,
    slots: Vec<Slot>,
    /// The node read last.
    cur: usize,
    /// The position at `cur` (at an end: after the last move).
    pos: Position,
    /// The tips of the lines read before the one being read, in the order read.
    tips: Vec<usize>,
}

/// The start, its comment and bookmark, and the main line, as [`Builder::finish`] gives them.
pub(crate) struct Built {
    pub comments: Vec<String>,
    pub bookmark: Option<String>,
    pub moves: Vec<RecordMove>,
    pub end: Option<RecordEnd>,
}

impl Builder {
    /// A tree of nothing but `start`.
    pub(crate) fn new(start: Position) -> Builder {
        let root = Slot {
            kind: Kind::Start,
            parent: 0,
            ply: 0,
            depth: 0,
            time_ms: None,
            comments: Vec::new(),
            bookmark: None,
            children: Vec::new(),
        };
        Builder {
            pos: start.clone(),
            start,
            slots: vec![root],
            cur: 0,
            tips: Vec::new(),
        }
    }

    /// The position at the node read last.
    pub(crate) fn position(&self) -> &Position {
        &self.pos
    }

    /// The move number of the node read last (0 at the start).
    pub(crate) fn ply(&self) -> usize {
        self.slots[self.cur].ply
    }

    /// Whether the node read last is an end.
    pub(crate) fn at_end(&self) -> bool {
        matches!(self.slots[self.cur].kind, Kind::End(_))
    }

    /// Where the node read last moved to (what `同` refers to).
    pub(crate) fn last_to(&self) -> Option<Square> {
        match self.slots[self.cur].kind {
            Kind::Move(mv) => Some(mv.to()),
            _ => None,
        }
    }

    /// How many moves the line read last has up to the node read last.
    pub(crate) fn moves_in_line(&self) -> usize {
        match self.slots[self.cur].kind {
            Kind::End(_) => self.ply() - 1,
            _ => self.ply(),
        }
    }

    /// The child of `cur` that is `kind`, or a new one; the new node's line is a variation of
    /// `cur`'s when `cur` already has a child.
    fn child(&mut self, kind: Kind) -> Result<usize, String> {
        let slot = &self.slots[self.cur];
        if let Some(&c) = slot.children.iter().find(|&&c| self.slots[c].kind == kind) {
            return Ok(c);
        }
        let depth = slot.depth + usize::from(!slot.children.is_empty());
        if depth > MAX_NESTING {
            return Err(format!(
                "variations nested more than {MAX_NESTING} deep (a variation of a variation \
                 of …): the limit is {MAX_NESTING}"
            ));
        }
        let ply = slot.ply + 1;
        self.slots.push(Slot {
            kind,
            parent: self.cur,
            ply,
            depth,
            time_ms: None,
            comments: Vec::new(),
            bookmark: None,
            children: Vec::new(),
        });
        let id = self.slots.len() - 1;
        self.slots[self.cur].children.push(id);
        Ok(id)
    }

    /// Plays `mv` after the node read last, checked by the rules; `text` names it in an error.
    /// A time given replaces the node's (a merged repeat keeps the first's when it has none).
    pub(crate) fn play(
        &mut self,
        mv: Move,
        text: &str,
        time_ms: Option<u64>,
    ) -> Result<(), String> {
        if let Kind::End(_) = self.slots[self.cur].kind {
            return Err(format!("{text}: a move after the end"));
        }
        if let Err(e) = self.pos.is_legal(mv) {
            return Err(format!(
                "{text}: {}",
                rule_reason(self.pos.side_to_move(), mv, e)
            ));
        }
        self.cur = self.child(Kind::Move(mv))?;
        self.pos.do_move(mv);
        if time_ms.is_some() {
            self.slots[self.cur].time_ms = time_ms;
        }
        Ok(())
    }

    /// Ends the line read last with `ending`, with its time.
    pub(crate) fn end(&mut self, ending: Ending, time_ms: Option<u64>) -> Result<(), String> {
        if let Kind::End(_) = self.slots[self.cur].kind {
            return Err("an end after the end".to_string());
        }
        self.cur = self.child(Kind::End(ending))?;
        if time_ms.is_some() {
            self.slots[self.cur].time_ms = time_ms;
        }
        Ok(())
    }

    /// The node read last, to come back to with [`Builder::back_to`].
    pub(crate) fn mark(&self) -> usize {
        self.cur
    }

    /// Makes the node `mark` (from [`Builder::mark`]) the node read last again.
    pub(crate) fn back_to(&mut self, mark: usize) {
        if mark != self.cur {
            self.goto(mark);
        }
    }

    /// Adds a line to the comment of the node read last.
    pub(crate) fn comment(&mut self, line: String) {
        self.slots[self.cur].comments.push(line);
    }

    /// Sets the bookmark of the node read last (a later one takes the place of an earlier).
    pub(crate) fn bookmark(&mut self, name: String) {
        self.slots[self.cur].bookmark = Some(name);
    }

    /// The node at move `ply` on the path to `node` (which is at `ply` or deeper).
    fn ancestor_at(&self, mut node: usize, ply: usize) -> usize {
        while self.slots[node].ply > ply {
            node = self.slots[node].parent;
        }
        node
    }

    /// Goes back to the branch point of a variation at move `n` (KIF's `変化：N手`): the node
    /// at move `n - 1` of the line read last that reaches it, which must have a node at `n`
    /// for the variation to be played instead of.
    pub(crate) fn branch(&mut self, n: usize) -> Result<(), String> {
        if n == 0 {
            return Err("変化：0手: moves count from 1".to_string());
        }
        let found = std::iter::once(self.cur)
            .chain(self.tips.iter().rev().copied())
            .find(|&tip| self.slots[tip].ply + 1 >= n);
        let Some(tip) = found else {
            return Err(format!(
                "変化：{n}手: no line read so far reaches move {}, to branch from",
                n - 1
            ));
        };
        let at = self.ancestor_at(tip, n - 1);
        if self.slots[at].children.is_empty() {
            return Err(format!(
                "変化：{n}手: the line it branches from ends at move {}: a variation is played \
                 instead of a move {n}",
                n - 1
            ));
        }
        if self.tips.last() != Some(&self.cur) {
            self.tips.push(self.cur);
        }
        self.goto(at);
        Ok(())
    }

    /// Makes `node` the node read last, its position played from the start.
    fn goto(&mut self, node: usize) {
        let mut path = Vec::new();
        let mut n = node;
        while n != 0 {
            if let Kind::Move(mv) = self.slots[n].kind {
                path.push(mv);
            }
            n = self.slots[n].parent;
        }
        self.pos = self.start.clone();
        for &mv in path.iter().rev() {
            self.pos.do_move(mv);
        }
        self.cur = node;
    }

    /// The address of the line that a node appended now would be on: the line of the node
    /// read last, or a new variation of it when that node already has a child.
    pub(crate) fn next_line(&self) -> Address {
        let mut address = self.line_of(self.cur);
        let slot = &self.slots[self.cur];
        if !slot.children.is_empty() {
            address.branch(slot.ply + 1, slot.children.len() + 1);
        }
        address
    }

    /// The address of the line `node` is on (its branches only).
    fn line_of(&self, mut node: usize) -> Address {
        let mut branches = Vec::new();
        while node != 0 {
            let slot = &self.slots[node];
            let siblings = &self.slots[slot.parent].children;
            let k = siblings.iter().position(|&c| c == node).unwrap_or(0);
            if k > 0 {
                branches.push((slot.ply, k + 1));
            }
            node = slot.parent;
        }
        branches.reverse();
        Address::of_branches(branches)
    }

    /// The tree as the record holds it: the start's comment and bookmark, and the main line
    /// with every variation on the node it was played instead of.
    pub(crate) fn finish(mut self) -> Built {
        let comments = std::mem::take(&mut self.slots[0].comments);
        let bookmark = self.slots[0].bookmark.take();
        let line = match self.slots[0].children.first() {
            Some(&first) => self.line_from(first, 0),
            None => Line::default(),
        };
        Built {
            comments,
            bookmark,
            moves: line.moves,
            end: line.end,
        }
    }

    /// The line that starts at `node`, a child of its parent at `index`: first children all the
    /// way down, each with its later siblings as its alternatives (but `node`'s own, when it is
    /// not the first: those are the first child's).
    fn line_from(&mut self, node: usize, index: usize) -> Line {
        let mut line = Line::default();
        let mut n = node;
        let mut first = index == 0;
        loop {
            let alternatives = match first {
                true => {
                    let parent = self.slots[n].parent;
                    let later: Vec<usize> = self.slots[parent].children[1..].to_vec();
                    later
                        .into_iter()
                        .enumerate()
                        .map(|(i, c)| self.line_from(c, i + 1))
                        .collect()
                }
                false => Vec::new(),
            };
            let slot = &mut self.slots[n];
            let (time_ms, comments, bookmark) = (
                slot.time_ms,
                std::mem::take(&mut slot.comments),
                slot.bookmark.take(),
            );
            let notes = with_notes(comments, bookmark, alternatives);
            match slot.kind {
                Kind::Move(mv) => line.moves.push(RecordMove::from_parts(mv, time_ms, notes)),
                Kind::End(ending) => {
                    line.end = Some(RecordEnd::from_parts(ending, time_ms, notes));
                    return line;
                }
                Kind::Start => unreachable!("the start is no child"),
            }
            match slot.children.first() {
                Some(&c) => n = c,
                None => return line,
            }
            first = true;
        }
    }
}
