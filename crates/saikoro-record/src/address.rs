//! Where a node of a record's tree is: an address that `saikoro record show --at` takes and
//! that errors name a variation by.
//!
//! - `35` is move 35 of the main line (the position after it); `0` is the start; `end` is the
//!   last node of the main line (its end, or its last move).
//! - `12.2` is the second of the moves played at move 12 (the first is the main line's own;
//!   the second is the first variation, KIF's first `変化：12手` of that move): the variation's
//!   first node. `12.2:35` is move 35 along that variation, `12.2:end` its last node.
//! - Branches are chained with `,` for a variation of a variation: `12.2,20.3:35` takes the
//!   second move at 12, then, along that line, the third at 20, then goes on to move 35.
//!
//! The moves played at a move number are counted in the order the record holds them, the main
//! line's (or the line's own) first: the order of tsshogi's and ShogiHome's branch list, and of
//! the `変化：N手` blocks of a KIF file for that move.

use crate::tree::{LineView, Node};
use crate::Record;
use saikoro_core::Position;
use std::fmt;
use std::str::FromStr;

/// Which node of a line an address ends at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The node at this move number (0: the start).
    Ply(usize),
    /// The line's last node.
    End,
}

/// A node of a record's tree: the branches taken from the main line (move number, and which of
/// the moves played there, from 1), then the node along the line reached.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    branches: Vec<(usize, usize)>,
    target: Target,
}

/// Why an address names no node of a record, or is no address.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AddressError {
    /// The text is not an address.
    Syntax {
        /// The text.
        text: String,
        /// What is wrong.
        why: &'static str,
    },
    /// The line has no node at that move number.
    NoMove {
        /// The line (`the main line`, `variation 12.2`).
        line: String,
        /// The move number asked for.
        ply: usize,
        /// The move numbers the line has nodes at.
        first: usize,
        /// The last.
        last: usize,
    },
    /// Fewer moves were played at that move number than the address counts.
    NoBranch {
        /// The line branched from.
        line: String,
        /// The move number.
        ply: usize,
        /// How many moves (and ends) were played there.
        count: usize,
        /// The one asked for.
        asked: usize,
    },
}

impl fmt::Display for AddressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddressError::Syntax { text, why } => write!(
                f,
                "{text:?} is no address ({why}): give a move number (35), `end`, or the \
                 variation's branches and a move (12.2:35, 12.2,20.3:end)"
            ),
            AddressError::NoMove {
                line,
                ply,
                first,
                last,
            } if last < first => write!(f, "{line} has no move {ply}: it has no moves"),
            AddressError::NoMove {
                line,
                ply,
                first,
                last,
            } => write!(
                f,
                "{line} has no move {ply}: its nodes are at moves {first} to {last}"
            ),
            AddressError::NoBranch {
                line,
                ply,
                count,
                asked,
            } => {
                let s = if *count == 1 { "" } else { "s" };
                write!(
                    f,
                    "{line} has {count} move{s} at move {ply} ({ply}.1 to {ply}.{count}): no \
                     {ply}.{asked}"
                )
            }
        }
    }
}

impl std::error::Error for AddressError {}

impl Address {
    /// The node at move `ply` of the main line (0: the start).
    pub fn main(ply: usize) -> Address {
        Address {
            branches: Vec::new(),
            target: Target::Ply(ply),
        }
    }

    /// The first node of the line that `branches` lead to (the start for none).
    pub(crate) fn of_branches(branches: Vec<(usize, usize)>) -> Address {
        let ply = branches.last().map_or(0, |b| b.0);
        Address {
            branches,
            target: Target::Ply(ply),
        }
    }

    /// Takes the `k`-th move at move `ply` (from 1) along the line reached, and goes to it.
    pub(crate) fn branch(&mut self, ply: usize, k: usize) {
        self.branches.push((ply, k));
        self.target = Target::Ply(ply);
    }

    /// The same line, at move `ply`.
    pub fn at(&self, ply: usize) -> Address {
        Address {
            branches: self.branches.clone(),
            target: Target::Ply(ply),
        }
    }

    /// The branches taken (move number, which move there from 1), from the main line.
    pub fn branches(&self) -> &[(usize, usize)] {
        &self.branches
    }

    /// The node reached along the last line.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Whether the address is on the main line.
    pub fn is_main_line(&self) -> bool {
        self.branches.iter().all(|&(_, k)| k == 1)
    }

    /// The line's name: `the main line`, `variation 12.2`, `variation 12.2,20.3`.
    pub fn line_name(&self) -> String {
        if self.is_main_line() {
            return "the main line".to_string();
        }
        let parts: Vec<String> = self
            .branches
            .iter()
            .map(|(p, k)| format!("{p}.{k}"))
            .collect();
        format!("variation {}", parts.join(","))
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (p, k)) in self.branches.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(f, "{comma}{p}.{k}")?;
        }
        let last = self.branches.last().map(|b| b.0);
        match (self.target, last) {
            (Target::Ply(p), Some(l)) if p == l => Ok(()),
            (Target::Ply(p), Some(_)) => write!(f, ":{p}"),
            (Target::Ply(p), None) => write!(f, "{p}"),
            (Target::End, Some(_)) => f.write_str(":end"),
            (Target::End, None) => f.write_str("end"),
        }
    }
}

/// A number of an address: ASCII digits.
fn number(s: &str) -> Option<usize> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

impl FromStr for Address {
    type Err = AddressError;

    fn from_str(text: &str) -> Result<Address, AddressError> {
        let bad = |why| AddressError::Syntax {
            text: text.to_string(),
            why,
        };
        let t = text.trim();
        let (path, tail) = match t.split_once(':') {
            Some((p, tail)) => (Some(p), tail),
            None if t.contains('.') => (Some(t), ""),
            None => (None, t),
        };
        let mut branches = Vec::new();
        for part in path.into_iter().flat_map(|p| p.split(',')) {
            let (p, k) = part
                .split_once('.')
                .ok_or_else(|| bad("a branch is MOVE.K, as 12.2"))?;
            let (p, k) = (number(p.trim()), number(k.trim()));
            let (Some(p), Some(k)) = (p, k) else {
                return Err(bad("a branch is two numbers, MOVE.K"));
            };
            if p == 0 || k == 0 {
                return Err(bad("moves and branches count from 1"));
            }
            if branches.last().is_some_and(|&(q, _)| q >= p) {
                return Err(bad("each branch is at a later move than the one before"));
            }
            branches.push((p, k));
        }
        let last = branches.last().map_or(0, |b| b.0);
        let target = match tail.trim() {
            "end" => Target::End,
            "" if !branches.is_empty() => Target::Ply(last),
            n => Target::Ply(number(n).ok_or_else(|| bad("the move is a number or `end`"))?),
        };
        if matches!(target, Target::Ply(p) if p < last) {
            return Err(bad("the move is before the last branch"));
        }
        Ok(Address { branches, target })
    }
}

/// A node of a record found by its address: the position there, the node, and the moves (and
/// ends) that follow it, each with its address.
#[derive(Clone, Debug)]
pub struct Located<'a> {
    /// The address, with `end` made a move number.
    pub address: Address,
    /// The node's move number (0 for the start; an end's is the number it is written at).
    pub ply: usize,
    /// The position at the node (at an end: after the last move).
    pub position: Position,
    /// The node; `None` for the start.
    pub node: Option<Node<'a>>,
    /// The nodes that follow, the line's own first, each with its address.
    pub next: Vec<(Address, Node<'a>)>,
}

/// A line being walked: the line, the move number of its first node, and its address.
struct Walk<'a> {
    line: LineView<'a>,
    first: usize,
    address: Address,
}

impl<'a> Walk<'a> {
    /// The index in the line of its node at move `ply`, and the node.
    fn node(&self, ply: usize) -> Result<(usize, Node<'a>), AddressError> {
        let no = || AddressError::NoMove {
            line: self.address.line_name(),
            ply,
            first: self.first,
            last: self.first + self.line.len().saturating_sub(1),
        };
        let i = ply.checked_sub(self.first).ok_or_else(no)?;
        Ok((i, self.line.node(i).ok_or_else(no)?))
    }

    /// Plays the line's first `n` moves on `pos`.
    fn play(&self, pos: &mut Position, n: usize) {
        for m in &self.line.moves[..n.min(self.line.moves.len())] {
            pos.do_move(m.mv);
        }
    }

    /// The nodes after index `i` of the line (`None`: before its first), with their addresses.
    fn next(&self, i: Option<usize>) -> Vec<(Address, Node<'a>)> {
        let j = i.map_or(0, |i| i + 1);
        let Some(node) = self.line.node(j) else {
            return Vec::new();
        };
        let ply = self.first + j;
        let mut out = vec![(self.address.at(ply), node)];
        for (k, alt) in node.alternatives().iter().enumerate() {
            if let Some(first) = alt.view().node(0) {
                let mut a = self.address.clone();
                a.branch(ply, k + 2);
                out.push((a, first));
            }
        }
        out
    }
}

impl Record {
    /// The node at `address`, with its position and what follows it.
    pub fn locate(&self, address: &Address) -> Result<Located<'_>, AddressError> {
        let mut walk = Walk {
            line: self.main_line(),
            first: 1,
            address: Address::main(0),
        };
        let mut pos = self.start.clone();
        for &(ply, k) in &address.branches {
            let (i, node) = walk.node(ply)?;
            if k == 1 {
                continue;
            }
            let alt = node
                .alternatives()
                .get(k - 2)
                .ok_or_else(|| AddressError::NoBranch {
                    line: walk.address.line_name(),
                    ply,
                    count: node.alternatives().len() + 1,
                    asked: k,
                })?;
            // The branch point: the position before the node at `ply`.
            walk.play(&mut pos, i);
            let mut address = walk.address;
            address.branch(ply, k);
            walk = Walk {
                line: alt.view(),
                first: ply,
                address,
            };
        }
        self.located(walk, pos, address.target)
    }

    /// The node `target` of the line walked to, its position played on `pos` (the line's
    /// branch point).
    fn located<'a>(
        &'a self,
        walk: Walk<'a>,
        mut pos: Position,
        target: Target,
    ) -> Result<Located<'a>, AddressError> {
        let last = walk.first + walk.line.len();
        let ply = match target {
            Target::Ply(p) => p,
            // An empty main line ends at the start.
            Target::End => last.saturating_sub(1),
        };
        if ply == 0 && walk.address.branches.is_empty() {
            return Ok(Located {
                address: Address::main(0),
                ply: 0,
                position: pos,
                node: None,
                next: walk.next(None),
            });
        }
        let (i, node) = walk.node(ply)?;
        walk.play(&mut pos, i + 1);
        Ok(Located {
            address: walk.address.at(ply),
            ply,
            position: pos,
            node: Some(node),
            next: walk.next(Some(i)),
        })
    }
}
