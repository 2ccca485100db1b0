//! Fully legal move generation: every rules-legal move and nothing else, in canonical order.
//!
//! One pass per position, in parts:
//! - `threats`: the checkers and the pinned pieces of the side to move, found from its king
//!   (adjacent cells, knight squares, and the lines to each enemy slider);
//! - `king`: king steps onto squares no enemy piece attacks once the king has left;
//! - `pieces`: the other pieces' moves, each kept on its pin line and, in single check, on the
//!   checker or between it and the king; both the promotion and the plain move whenever the
//!   rules allow both;
//! - `drops`: drops on empty squares (in check, only between checker and king), with nifu and
//!   dead squares excluded;
//! - `uchifuzume`: a pawn drop that would mate (打ち歩詰め) is left out;
//! - `explain`: why a move that is not in the list is illegal.
//!
//! In double check only king moves are generated.

// The generators stay whole, each one pass over the board, for speed: the one place where a
// function may run over clippy.toml's 80 lines.
#![allow(clippy::too_many_lines)]

mod drops;
mod explain;
mod king;
mod pieces;
mod sample;
mod sink;
mod threats;
mod uchifuzume;

use crate::mailbox::{cell_bit, ALL_SQUARES, BOARD_CELLS, CELLS, DIR, NO_CELL};
use crate::{Move, MoveList, Position};
use pieces::Squares;
use sink::{AnySink, CountSink, ListSink, NthSink, Sink, TallySink};
use std::fmt;
use threats::{Threats, KNIGHT_CHECK};

/// Why a move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// A board move whose destination is its origin (a null move, `7g7g`): no move at all.
    NullMove,
    /// No piece on the origin square.
    NoPiece,
    /// The piece on the origin square belongs to the opponent.
    NotOwnPiece,
    /// The piece cannot reach the destination (blocked, or not one of its moves).
    CannotReach,
    /// The destination holds an own piece.
    OwnPieceOnTarget,
    /// Promotion asked where it is not allowed (outside the zone, or a piece that cannot promote).
    CannotPromote,
    /// No promotion where the piece would be left without a move (行き所のない駒).
    MustPromote,
    /// A drop of a kind not in hand.
    NotInHand,
    /// A drop on an occupied square.
    SquareOccupied,
    /// A drop where the piece could never move (pawn or lance on the last rank, knight on the
    /// last two).
    DeadDrop,
    /// A pawn drop on a file with an own unpromoted pawn (二歩).
    Nifu,
    /// A pawn drop that gives checkmate (打ち歩詰め).
    PawnDropMate,
    /// The move leaves (or puts) the own king in check.
    KingInCheck,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::NullMove => "a null move: the destination is the origin square",
            IllegalMove::NoPiece => "no piece on the origin square",
            IllegalMove::NotOwnPiece => "the piece on the origin square is the opponent's",
            IllegalMove::CannotReach => "the piece cannot move to that square",
            IllegalMove::OwnPieceOnTarget => "an own piece stands on the destination",
            IllegalMove::CannotPromote => "that move cannot promote",
            IllegalMove::MustPromote => "the piece must promote there",
            IllegalMove::NotInHand => "no such piece in hand",
            IllegalMove::SquareOccupied => "drop on an occupied square",
            IllegalMove::DeadDrop => "the dropped piece could never move",
            IllegalMove::Nifu => "two unpromoted pawns on one file (nifu)",
            IllegalMove::PawnDropMate => "pawn drop checkmate (uchifuzume)",
            IllegalMove::KingInCheck => "leaves the own king in check",
        })
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// All legal moves, in canonical order (that of [`Move`]'s `Ord`).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Clears `list` and fills it with all legal moves, in canonical order.
    pub fn generate_legal(&self, list: &mut MoveList) {
        list.clear();
        self.generate(&mut ListSink::new(list));
    }

    /// The number of legal moves, without listing them (perft's bulk count).
    pub fn count_legal(&self) -> u64 {
        let mut sink = CountSink(0);
        self.generate(&mut sink);
        sink.0
    }

    /// Whether the side to move has any legal move; with none it has lost (詰み).
    pub fn has_legal_move(&self) -> bool {
        let mut sink = AnySink(false);
        self.generate(&mut sink);
        sink.0
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Whether `mv` is legal here; if not, why.
    pub fn is_legal(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.legal_moves().contains(&mv) {
            return Ok(());
        }
        Err(self.explain_illegal(mv))
    }

    /// Generates every legal move into `sink`. An ordered sink gets them in canonical order
    /// (that of [`Move`]'s `Ord`): board moves by origin square, then destination square, the
    /// plain move before the promotion; then drops by kind, then square.
    fn generate<S: Sink>(&self, sink: &mut S) {
        let th = self.threats();
        let block = self.check_block(&th);
        self.generate_with(sink, &th, block.as_ref());
    }

    /// In single check, the cells a move other than the king's may end on (the checker and the
    /// cells between it and the king), and the squares between as a square set (where drops may
    /// interpose); `None` out of check.
    fn check_block(&self, th: &Threats) -> Option<CheckBlock> {
        if th.n_checkers != 1 {
            return None;
        }
        let k = self.board.king(self.side_to_move());
        let mut b = CheckBlock {
            cells: [false; CELLS],
            between: 0,
        };
        let (c, d) = th.checker;
        b.cells[c] = true;
        if d != KNIGHT_CHECK {
            let mut s = (k as isize + DIR[d as usize]) as usize;
            while s != c {
                b.cells[s] = true;
                b.between |= cell_bit(s);
                s = (s as isize + DIR[d as usize]) as usize;
            }
        }
        Some(b)
    }

    /// [`Position::generate`] with the threats and the check's cells worked out.
    fn generate_with<S: Sink>(&self, sink: &mut S, th: &Threats, block: Option<&CheckBlock>) {
        let us = self.side_to_move();
        let k = self.board.king(us);
        if th.n_checkers >= 2 {
            self.king_moves(sink, k);
            return;
        }
        let mut pieces = self.board.occupied(us);
        if !S::ORDERED && k != NO_CELL {
            // The king first: when only asked whether a move exists, it most often has one.
            self.king_moves(sink, k);
            pieces &= !cell_bit(k);
        }
        self.piece_moves(sink, pieces, block.map(|b| &b.cells), th);
        if sink.done() {
            return;
        }
        let targets = match block {
            Some(b) => b.between,
            None => !(self.board.occupied(us) | self.board.occupied(!us)) & ALL_SQUARES,
        };
        self.drops(sink, targets);
    }

    /// The legal move at place `pick(n)` of the canonical order, `n` being the number of legal
    /// moves (`pick` must return less than `n`); `None`, without calling `pick`, when there is no
    /// legal move. The moves are counted by piece, and only the chosen piece's are listed: the
    /// result is `legal_moves()[pick(n)]`, found with less work.
    pub fn pick_legal(&self, pick: impl FnOnce(usize) -> usize) -> Option<Move> {
        let th = self.threats();
        let block = self.check_block(&th);
        let mut tally = TallySink::new();
        self.generate_with(&mut tally, &th, block.as_ref());
        if tally.total == 0 {
            return None;
        }
        let mut i = pick(tally.total);
        assert!(i < tally.total, "pick({}) gave {i}", tally.total);
        let us = self.side_to_move();
        for s in Squares::of(self.board.occupied(us)) {
            let c = BOARD_CELLS[s] as usize;
            let n = usize::from(tally.by_origin[c]);
            if i >= n {
                i -= n;
                continue;
            }
            let mut nth = NthSink::new(i);
            if c == self.board.king(us) {
                self.king_moves(&mut nth, c);
            } else {
                self.moves_of(&mut nth, s, block.as_ref().map(|b| &b.cells), &th);
            }
            return nth.found;
        }
        Some(tally.nth_drop(i))
    }
}

/// The cells a move must end on to answer a single check (see [`Position::check_block`]).
struct CheckBlock {
    cells: [bool; CELLS],
    between: u128,
}

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn legal_moves_come_in_canonical_order() {
        for sfen in [
            crate::STARTPOS_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let list = pos.legal_moves();
            let mut sorted = list.clone();
            sorted.sort();
            assert_eq!(list, sorted, "{sfen}");
            for m in &list {
                let after = pos.play(*m);
                for n in &after.legal_moves() {
                    assert!(after.is_legal(*n).is_ok());
                }
                let l2 = after.legal_moves();
                let mut s2 = l2.clone();
                s2.sort();
                assert_eq!(l2, s2, "after {m} in {sfen}");
            }
        }
    }
}
