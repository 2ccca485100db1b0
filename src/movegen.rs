//! Fully legal move generation: every rules-legal move and nothing else.
//!
//! Checkers and pinned pieces are found once per position by scanning the eight rays and the
//! knight squares from the own king. In double check only king moves are generated; in single
//! check, king moves, captures of the checker and interpositions (moves and drops); pinned pieces
//! stay on their pin line; a king never steps onto an attacked square (attacks are computed with
//! the king removed, so it cannot retreat along a checking ray). Promotions follow the zone and
//! dead-piece rules and both choices are generated whenever both are legal. Drops obey nifu and
//! the dead-square rule, and a pawn drop that mates (打ち歩詰め) is left out.

use crate::board::{
    code, kind_of, square, BOARD_CELLS, CELLS, DIR, EMPTY, NO_CELL, OPPOSITE, OWNER, REL_RANK,
    SLIDE, STEP,
};
use crate::{Color, Move, MoveList, PieceType, Position};
use std::fmt;

/// Why a move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
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

/// Receives generated moves: a list collects them, a counter only counts.
trait Sink {
    fn normal(&mut self, from: usize, to: usize, promote: bool);
    fn drops(&mut self, to: usize, kinds: &[PieceType]);
}

struct ListSink<'a>(&'a mut MoveList);

impl Sink for ListSink<'_> {
    #[inline]
    fn normal(&mut self, from: usize, to: usize, promote: bool) {
        self.0.push(Move::Normal {
            from: square(from),
            to: square(to),
            promote,
        });
    }
    #[inline]
    fn drops(&mut self, to: usize, kinds: &[PieceType]) {
        let to = square(to);
        for &kind in kinds {
            self.0.push(Move::Drop { kind, to });
        }
    }
}

struct CountSink(u64);

impl Sink for CountSink {
    #[inline]
    fn normal(&mut self, _: usize, _: usize, _: bool) {
        self.0 += 1;
    }
    #[inline]
    fn drops(&mut self, _: usize, kinds: &[PieceType]) {
        self.0 += kinds.len() as u64;
    }
}

/// Stops at the first move: answers "is there any legal move?".
struct AnySink(bool);

impl Sink for AnySink {
    #[inline]
    fn normal(&mut self, _: usize, _: usize, _: bool) {
        self.0 = true;
    }
    #[inline]
    fn drops(&mut self, _: usize, kinds: &[PieceType]) {
        self.0 |= !kinds.is_empty();
    }
}

/// Checkers and pins of the side to move.
struct Threats {
    /// Checking pieces: (cell, direction from the king, or 255 for a knight).
    checkers: [(usize, u8); 2],
    n_checkers: usize,
    /// Pinned own pieces: (cell, axis = direction % 4).
    pins: [(usize, u8); 8],
    n_pins: usize,
}

impl Threats {
    #[inline]
    fn pin_axis(&self, c: usize) -> Option<u8> {
        self.pins[..self.n_pins]
            .iter()
            .find(|&&(p, _)| p == c)
            .map(|&(_, a)| a)
    }
}

impl Position {
    fn threats(&self) -> Threats {
        let us = self.side;
        let them = (!us) as u8;
        let mut t = Threats {
            checkers: [(NO_CELL, 0); 2],
            n_checkers: 0,
            pins: [(NO_CELL, 0); 8],
            n_pins: 0,
        };
        let k = self.kings[us.index()];
        if k == NO_CELL {
            return t;
        }
        for (d, &delta) in DIR.iter().enumerate().take(8) {
            let opp = 1u8 << OPPOSITE[d];
            let mut s = (k as isize + delta) as usize;
            let mut p = self.cells[s];
            let adjacent = p != EMPTY;
            while p == EMPTY {
                s = (s as isize + delta) as usize;
                p = self.cells[s];
            }
            let owner = OWNER[p as usize];
            if owner == them {
                let steps = if adjacent { STEP[p as usize] as u8 } else { 0 };
                if (steps | SLIDE[p as usize]) & opp != 0 && t.n_checkers < 2 {
                    t.checkers[t.n_checkers] = (s, d as u8);
                    t.n_checkers += 1;
                }
            } else if owner == us as u8 {
                let mut s2 = (s as isize + delta) as usize;
                let mut p2 = self.cells[s2];
                while p2 == EMPTY {
                    s2 = (s2 as isize + delta) as usize;
                    p2 = self.cells[s2];
                }
                if OWNER[p2 as usize] == them && SLIDE[p2 as usize] & opp != 0 {
                    t.pins[t.n_pins] = (s, (d % 4) as u8);
                    t.n_pins += 1;
                }
            }
        }
        let knight = code(!us, PieceType::Knight);
        let jumps = match !us {
            Color::Black => [DIR[8], DIR[9]],
            Color::White => [DIR[10], DIR[11]],
        };
        for j in jumps {
            let s = (k as isize - j) as usize;
            if self.cells[s] == knight && t.n_checkers < 2 {
                t.checkers[t.n_checkers] = (s, 255);
                t.n_checkers += 1;
            }
        }
        t
    }

    /// All legal moves, in generation order (see [`MoveList::sort`] for a canonical order).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Clears `list` and fills it with all legal moves.
    pub fn generate_legal(&self, list: &mut MoveList) {
        list.clear();
        self.generate(&mut ListSink(list));
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

    #[inline]
    fn emit_promotions<S: Sink>(&self, sink: &mut S, p: u8, from: usize, to: usize) {
        let us = self.side.index();
        let kind = kind_of(p);
        if kind > PieceType::Rook as u8 {
            sink.normal(from, to, false);
            return;
        }
        let rel_to = REL_RANK[us][to];
        if rel_to <= 3 || REL_RANK[us][from] <= 3 {
            sink.normal(from, to, true);
            let must = match kind {
                1 | 2 => rel_to == 1,
                3 => rel_to <= 2,
                _ => false,
            };
            if !must {
                sink.normal(from, to, false);
            }
        } else {
            sink.normal(from, to, false);
        }
    }

    fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.side;
        let own = us as u8;
        let them = !us;
        let th = self.threats();
        let k = self.kings[us.index()];

        // King moves.
        if k != NO_CELL {
            for &delta in &DIR[..8] {
                let t = (k as isize + delta) as usize;
                let o = OWNER[self.cells[t] as usize];
                if (o == them as u8 || o == 2) && !self.attacked_by(t, them, k) {
                    sink.normal(k, t, false);
                }
            }
        }
        if th.n_checkers >= 2 {
            return;
        }

        // In single check, the squares a non-king move or a drop may go to.
        let mut block = [false; CELLS];
        let mut drop_targets: &[u8] = &BOARD_CELLS;
        let mut between = [0u8; 8];
        if th.n_checkers == 1 {
            let (c, d) = th.checkers[0];
            block[c] = true;
            let mut n = 0;
            if d != 255 {
                let mut s = (k as isize + DIR[d as usize]) as usize;
                while s != c {
                    block[s] = true;
                    between[n] = s as u8;
                    n += 1;
                    s = (s as isize + DIR[d as usize]) as usize;
                }
            }
            drop_targets = &between[..n];
        }
        let in_check = th.n_checkers == 1;

        // Board moves of the pieces other than the king.
        for &fc in &BOARD_CELLS {
            let from = fc as usize;
            let p = self.cells[from];
            if OWNER[p as usize] != own || from == k {
                continue;
            }
            let axis = if th.n_pins > 0 {
                th.pin_axis(from)
            } else {
                None
            };
            let mut steps = STEP[p as usize];
            let mut slides = SLIDE[p as usize];
            if let Some(a) = axis {
                let keep = (1u16 << a) | (1u16 << (a + 4));
                steps &= keep;
                slides &= keep as u8;
            }
            while steps != 0 {
                let d = steps.trailing_zeros() as usize;
                steps &= steps - 1;
                let to = (from as isize + DIR[d]) as usize;
                let o = OWNER[self.cells[to] as usize];
                if (o == 2 || o == them as u8) && (!in_check || block[to]) {
                    self.emit_promotions(sink, p, from, to);
                }
            }
            while slides != 0 {
                let d = slides.trailing_zeros() as usize;
                slides &= slides - 1;
                let delta = DIR[d];
                let mut to = (from as isize + delta) as usize;
                loop {
                    let q = self.cells[to];
                    if q == EMPTY {
                        if !in_check || block[to] {
                            self.emit_promotions(sink, p, from, to);
                        }
                    } else {
                        if OWNER[q as usize] == them as u8 && (!in_check || block[to]) {
                            self.emit_promotions(sink, p, from, to);
                        }
                        break;
                    }
                    to = (to as isize + delta) as usize;
                }
            }
        }

        // Drops.
        let hand = &self.hands[us];
        if hand.is_empty() {
            return;
        }
        // Kinds in hand: those droppable anywhere, then knight, lance, pawn, so that what may
        // be dropped on a square is a prefix of the list.
        let mut kinds = [PieceType::Pawn; 7];
        let mut n = 0;
        for kind in [
            PieceType::Rook,
            PieceType::Bishop,
            PieceType::Gold,
            PieceType::Silver,
        ] {
            if hand.count(kind) > 0 {
                kinds[n] = kind;
                n += 1;
            }
        }
        let n_any = n; // droppable on every rank
        let has_knight = hand.count(PieceType::Knight) > 0;
        let has_lance = hand.count(PieceType::Lance) > 0;
        let has_pawn = hand.count(PieceType::Pawn) > 0;
        if has_knight {
            kinds[n] = PieceType::Knight;
            n += 1;
        }
        if has_lance {
            kinds[n] = PieceType::Lance;
            n += 1;
        }
        let n_no_pawn = n;
        if has_pawn {
            kinds[n] = PieceType::Pawn;
            n += 1;
        }
        // On the second-last rank: everything but the knight.
        let mut kinds2 = [PieceType::Pawn; 7];
        kinds2[..n_any].copy_from_slice(&kinds[..n_any]);
        let mut n2 = n_any;
        if has_lance {
            kinds2[n2] = PieceType::Lance;
            n2 += 1;
        }
        let n2_no_pawn = n2;
        if has_pawn {
            kinds2[n2] = PieceType::Pawn;
            n2 += 1;
        }

        let their_king = self.kings[them.index()];
        let forward = if us == Color::Black { DIR[0] } else { DIR[4] };
        let pawn_files = self.pawn_files[us.index()];
        for &tc in drop_targets {
            let to = tc as usize;
            if self.cells[to] != EMPTY {
                continue;
            }
            let rel = REL_RANK[us.index()][to];
            if rel == 1 {
                sink.drops(to, &kinds[..n_any]);
                continue;
            }
            let pawn_ok = has_pawn
                && pawn_files & (1 << (to / 13)) == 0
                && !((to as isize + forward) as usize == their_king && self.pawn_drop_mates(to));
            if rel == 2 {
                sink.drops(to, &kinds2[..if pawn_ok { n2 } else { n2_no_pawn }]);
            } else {
                sink.drops(to, &kinds[..if pawn_ok { n } else { n_no_pawn }]);
            }
        }
    }

    /// Whether dropping a pawn of the side to move on cell `to` (directly in front of the enemy
    /// king) would checkmate: the defender then has no legal move, since a drop cannot answer a
    /// contact check and so no recursion happens.
    fn pawn_drop_mates(&self, to: usize) -> bool {
        let mut after = self.clone();
        after.cells[to] = code(self.side, PieceType::Pawn);
        after.side = !self.side;
        !after.has_legal_move()
    }

    /// Whether `mv` is legal here; if not, why.
    pub fn is_legal(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.legal_moves().contains(&mv) {
            return Ok(());
        }
        Err(self.explain_illegal(mv))
    }

    /// Diagnoses a move known not to be legal.
    fn explain_illegal(&self, mv: Move) -> IllegalMove {
        let us = self.side;
        match mv {
            Move::Drop { kind, to } => {
                if self.hands[us].count(kind) == 0 {
                    IllegalMove::NotInHand
                } else if self.piece_at(to).is_some() {
                    IllegalMove::SquareOccupied
                } else if match kind {
                    PieceType::Pawn | PieceType::Lance => to.relative_rank(us) == 1,
                    PieceType::Knight => to.relative_rank(us) <= 2,
                    _ => false,
                } {
                    IllegalMove::DeadDrop
                } else if kind == PieceType::Pawn
                    && self.pawn_files[us.index()] & (1 << to.file()) != 0
                {
                    IllegalMove::Nifu
                } else if kind == PieceType::Pawn && {
                    let after = self.play(mv);
                    !after.is_in_check(us) && after.in_check()
                } {
                    IllegalMove::PawnDropMate
                } else {
                    IllegalMove::KingInCheck
                }
            }
            Move::Normal { from, to, promote } => {
                let Some(piece) = self.piece_at(from) else {
                    return IllegalMove::NoPiece;
                };
                if piece.color != us {
                    return IllegalMove::NotOwnPiece;
                }
                if self.piece_at(to).is_some_and(|p| p.color == us) {
                    return IllegalMove::OwnPieceOnTarget;
                }
                let reachable = self.reaches(crate::board::cell(from), crate::board::cell(to));
                if !reachable {
                    return IllegalMove::CannotReach;
                }
                if promote
                    && (!piece.kind.can_promote()
                        || !(from.in_promotion_zone(us) || to.in_promotion_zone(us)))
                {
                    return IllegalMove::CannotPromote;
                }
                if !promote
                    && match piece.kind {
                        PieceType::Pawn | PieceType::Lance => to.relative_rank(us) == 1,
                        PieceType::Knight => to.relative_rank(us) <= 2,
                        _ => false,
                    }
                {
                    return IllegalMove::MustPromote;
                }
                IllegalMove::KingInCheck
            }
        }
    }

    /// Whether the piece on cell `from` could move to cell `to` on an otherwise unobstructed
    /// path (its move pattern and blockers only).
    fn reaches(&self, from: usize, to: usize) -> bool {
        let p = self.cells[from] as usize;
        for (d, &delta) in DIR.iter().enumerate() {
            if STEP[p] & (1 << d) != 0 && (from as isize + delta) as usize == to {
                return true;
            }
        }
        for (d, &delta) in DIR.iter().enumerate().take(8) {
            if SLIDE[p] & (1 << d) == 0 {
                continue;
            }
            let mut s = (from as isize + delta) as usize;
            loop {
                if s == to {
                    return true;
                }
                if self.cells[s] != EMPTY {
                    break;
                }
                s = (s as isize + delta) as usize;
            }
        }
        false
    }
}
