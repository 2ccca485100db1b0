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
    bit, code, kind_of, square, BOARD_CELLS, CELLS, DIR, EMPTY, NO_CELL, OPPOSITE, OWNER, REL_RANK,
    SLIDE, STEP,
};
use crate::{Color, Move, MoveList, PieceType, Position, Square};
use std::fmt;

/// The king's eight steps, in ascending order of the destination.
const KING_DELTAS: [isize; 8] = [-14, -13, -12, -1, 1, 12, 13, 14];

/// Per side to move: whether a piece may land on a cell holding each code (empty or enemy).
const CAN_LAND: [[bool; 64]; 2] = {
    let mut t = [[false; 64]; 2];
    let mut c = 0;
    while c < 64 {
        t[0][c] = OWNER[c] == 2 || OWNER[c] == 1;
        t[1][c] = OWNER[c] == 2 || OWNER[c] == 0;
        c += 1;
    }
    t
};

/// `CHOICES[colour][kind][from in zone][relative rank of to]`: how many legal moves (0, 1 or
/// 2: promotion and non-promotion) a board move of that kind makes, as `emit_promotions`
/// decides them.
const CHOICES: [[[[u8; 10]; 2]; 16]; 2] = {
    let mut t = [[[[0u8; 10]; 2]; 16]; 2];
    let mut c = 0;
    while c < 2 {
        let mut kind = 1;
        while kind <= 14 {
            let mut fz = 0;
            while fz < 2 {
                let mut rel = 1;
                while rel <= 9 {
                    t[c][kind][fz][rel] = if kind > PieceType::Rook as usize {
                        1
                    } else if rel <= 3 || fz == 1 {
                        let must = match kind {
                            1 | 2 => rel == 1,
                            3 => rel <= 2,
                            _ => false,
                        };
                        if must {
                            1
                        } else {
                            2
                        }
                    } else {
                        1
                    };
                    rel += 1;
                }
                fz += 1;
            }
            kind += 1;
        }
        c += 1;
    }
    t
};

/// For each square, the squares from which a non-sliding piece could attack one of its eight
/// neighbours: up to two files and three ranks away (a knight's jump onto a neighbour).
const NEAR: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0usize;
    while i < 81 {
        let (f, r) = ((i / 9) as i32, (i % 9) as i32);
        let mut j = 0usize;
        while j < 81 {
            let (g, s) = ((j / 9) as i32, (j % 9) as i32);
            if (f - g).abs() <= 2 && (r - s).abs() <= 3 {
                t[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// Bits of the 81 squares in an occupancy set.
const ALL_SQUARES: u128 = (1 << 81) - 1;

/// Per colour, `RANKS_FROM[c][r]`: the squares whose relative rank for `c` is above `r` (1 is
/// the last rank), i.e. where a pawn or lance (`r` = 1) or a knight (`r` = 2) may be dropped.
const RANKS_FROM: [[u128; 3]; 2] = {
    let mut t = [[0u128; 3]; 2];
    let mut i = 0;
    while i < 81 {
        let rank = (i % 9 + 1) as u8;
        let rel = [rank, 10 - rank];
        let mut c = 0;
        while c < 2 {
            let mut r = 0;
            while r < 3 {
                if rel[c] > r as u8 {
                    t[c][r] |= 1 << i;
                }
                r += 1;
            }
            c += 1;
        }
        i += 1;
    }
    t
};

/// The squares of each file (index 1-9).
const FILE_MASK: [u128; 10] = {
    let mut t = [0u128; 10];
    let mut f = 1;
    while f <= 9 {
        t[f] = 0x1ff << ((f - 1) * 9);
        f += 1;
    }
    t
};

/// Sorts a short, often nearly sorted slice.
#[inline]
fn insertion_sort(v: &mut [u8]) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

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
    /// Whether the moves must come in canonical order (a counter does not care). A sink that
    /// does not is given board moves through [`Sink::add`] as a bare number.
    const ORDERED: bool;
    fn normal(&mut self, from: usize, to: usize, promote: bool);
    /// `n` more board moves (unordered sinks only).
    fn add(&mut self, n: u64);
    /// Drops of `kind` on each square of `to` (bit `i` = square index `i`).
    fn drops(&mut self, kind: PieceType, to: u128);
}

struct ListSink<'a>(&'a mut MoveList);

impl Sink for ListSink<'_> {
    const ORDERED: bool = true;
    fn add(&mut self, _: u64) {
        unreachable!("a move list is given every move")
    }
    #[inline]
    fn normal(&mut self, from: usize, to: usize, promote: bool) {
        self.0.push(Move::Normal {
            from: square(from),
            to: square(to),
            promote,
        });
    }
    #[inline]
    fn drops(&mut self, kind: PieceType, mut to: u128) {
        while to != 0 {
            let sq = to.trailing_zeros() as u8;
            to &= to - 1;
            self.0.push(Move::Drop {
                kind,
                to: Square::from_index_unchecked(sq),
            });
        }
    }
}

struct CountSink(u64);

impl Sink for CountSink {
    const ORDERED: bool = false;
    #[inline]
    fn add(&mut self, n: u64) {
        self.0 += n;
    }
    #[inline]
    fn normal(&mut self, _: usize, _: usize, _: bool) {
        self.0 += 1;
    }
    #[inline]
    fn drops(&mut self, _: PieceType, to: u128) {
        self.0 += to.count_ones() as u64;
    }
}

/// Answers "is there any legal move?".
struct AnySink(bool);

impl Sink for AnySink {
    const ORDERED: bool = false;
    #[inline]
    fn add(&mut self, n: u64) {
        self.0 |= n != 0;
    }
    #[inline]
    fn normal(&mut self, _: usize, _: usize, _: bool) {
        self.0 = true;
    }
    #[inline]
    fn drops(&mut self, _: PieceType, to: u128) {
        self.0 |= to != 0;
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
        // Beyond the adjacent cell, only the enemy's sliders can check or pin.
        let lines = self.slider_lines(!us);
        for (d, &delta) in DIR.iter().enumerate().take(8) {
            let opp = 1u8 << OPPOSITE[d];
            let mut s = (k as isize + delta) as usize;
            let mut p = self.cells[s];
            let adjacent = p != EMPTY;
            let far = lines & (1 << d) != 0;
            if !far && (!adjacent || OWNER[p as usize] != them) {
                continue;
            }
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

    /// All legal moves, in canonical order (that of [`Move`]'s `Ord`).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Clears `list` and fills it with all legal moves, in canonical order.
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

    /// Emits the moves of piece `p` from `from` to `to`: the non-promotion when it is
    /// legal, then the promotion when it is allowed (canonical order).
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
            let must = match kind {
                1 | 2 => rel_to == 1,
                3 => rel_to <= 2,
                _ => false,
            };
            if !must {
                sink.normal(from, to, false);
            }
            sink.normal(from, to, true);
        } else {
            sink.normal(from, to, false);
        }
    }

    /// Generates every legal move, in canonical order (that of [`Move`]'s `Ord`): board moves
    /// by origin square, then destination square, the non-promotion first; then drops by
    /// kind, then square.
    fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.side;
        let them = !us;
        let th = self.threats();
        let k = self.kings[us.index()];
        let in_check = th.n_checkers == 1;

        // The cells a non-king move may go to: any, or in single check the checker's cell and
        // the cells between it and the king (where drops may interpose too, ascending).
        let mut between: u128 = 0;
        let block_storage;
        let block: &[bool; CELLS] = if in_check {
            let mut b = [false; CELLS];
            let (c, d) = th.checkers[0];
            b[c] = true;
            if d != 255 {
                let mut s = (k as isize + DIR[d as usize]) as usize;
                while s != c {
                    b[s] = true;
                    between |= bit(square(s));
                    s = (s as isize + DIR[d as usize]) as usize;
                }
            }
            block_storage = b;
            &block_storage
        } else {
            &[true; CELLS]
        };

        // Board moves, by origin square.
        let land = &CAN_LAND[us.index()];
        let mut pieces = self.occupied[us.index()];
        if th.n_checkers >= 2 {
            pieces = if k == NO_CELL { 0 } else { bit(square(k)) };
        }
        while pieces != 0 {
            let from = BOARD_CELLS[pieces.trailing_zeros() as usize] as usize;
            pieces &= pieces - 1;
            if from == k {
                // With no enemy slider and no enemy piece within reach of the king's
                // neighbourhood, every square the king can step to is safe.
                let far = self.slider_lines(them) == 0
                    && self.occupied[them.index()] & NEAR[square(k).index()] == 0;
                for delta in KING_DELTAS {
                    let t = (k as isize + delta) as usize;
                    if land[self.cells[t] as usize] && (far || !self.attacked_by(t, them, k)) {
                        sink.normal(k, t, false);
                    }
                }
                continue;
            }
            let p = self.cells[from];
            let mut steps = STEP[p as usize];
            let mut slides = SLIDE[p as usize];
            if th.n_pins > 0 {
                if let Some(a) = th.pin_axis(from) {
                    let keep = (1u16 << a) | (1u16 << (a + 4));
                    steps &= keep;
                    slides &= keep as u8;
                }
            }
            // Destinations, gathered then sorted (at most 20 for a dragon or a horse). Each
            // candidate is written, then kept by advancing `n`: no branch to mispredict.
            let mut dests = [0u8; 24];
            let mut n = 0;
            while steps != 0 {
                let d = steps.trailing_zeros() as usize;
                steps &= steps - 1;
                let to = (from as isize + DIR[d]) as usize;
                dests[n] = to as u8;
                n += (land[self.cells[to] as usize] & block[to]) as usize;
            }
            while slides != 0 {
                let d = slides.trailing_zeros() as usize;
                slides &= slides - 1;
                let delta = DIR[d];
                let mut to = (from as isize + delta) as usize;
                loop {
                    let q = self.cells[to];
                    dests[n] = to as u8;
                    n += (land[q as usize] & block[to]) as usize;
                    if q != EMPTY {
                        break;
                    }
                    to = (to as isize + delta) as usize;
                }
            }
            let dests = &mut dests[..n];
            if S::ORDERED {
                insertion_sort(dests);
                for &to in dests.iter() {
                    self.emit_promotions(sink, p, from, to as usize);
                }
            } else {
                // Only the number matters: one move per destination, two where both the
                // promotion and the non-promotion are legal.
                let table = &CHOICES[us.index()][kind_of(p) as usize];
                let from_zone = REL_RANK[us.index()][from] <= 3;
                let mut count = 0;
                for &to in dests.iter() {
                    count += table[from_zone as usize][REL_RANK[us.index()][to as usize] as usize];
                }
                sink.add(count as u64);
            }
        }

        // Drops, by kind then square.
        let hand = &self.hands[us];
        if hand.is_empty() || th.n_checkers >= 2 {
            return;
        }
        let targets = if in_check {
            between
        } else {
            !(self.occupied[0] | self.occupied[1]) & ALL_SQUARES
        };
        let ranks = &RANKS_FROM[us.index()];
        for kind in PieceType::HAND_KINDS {
            if hand.count(kind) == 0 {
                continue;
            }
            let allowed = match kind {
                PieceType::Pawn => {
                    let mut files = self.pawn_files[us.index()];
                    let mut ok = targets & ranks[1];
                    while files != 0 {
                        ok &= !FILE_MASK[files.trailing_zeros() as usize];
                        files &= files - 1;
                    }
                    // A pawn dropped in front of the enemy king must not mate.
                    let their_king = self.kings[them.index()];
                    if their_king != NO_CELL {
                        let backward = if us == Color::Black { DIR[4] } else { DIR[0] };
                        let c = (their_king as isize + backward) as usize;
                        if REL_RANK[0][c] != 0 {
                            let b = bit(square(c));
                            if ok & b != 0 && self.pawn_drop_mates(c) {
                                ok &= !b;
                            }
                        }
                    }
                    ok
                }
                PieceType::Lance => targets & ranks[1],
                PieceType::Knight => targets & ranks[2],
                _ => targets,
            };
            sink.drops(kind, allowed);
        }
    }

    /// Whether dropping a pawn of the side to move on cell `to`, directly in front of the enemy
    /// king, would checkmate. The pawn gives a contact check, so the defender can only move
    /// the king to a safe square (capturing the pawn included) or capture the pawn with
    /// another piece that is not pinned; no drop can answer it, so there is no recursion.
    fn pawn_drop_mates(&self, to: usize) -> bool {
        let us = self.side;
        let them = !us;
        // An undefended pawn is simply taken by the king (the pawn adds no attack on its own
        // square, and the king leaving its square cannot expose it on the pawn's square).
        if !self.attacked_by(to, us, NO_CELL) {
            return false;
        }
        let mut after = self.clone();
        after.cells[to] = code(us, PieceType::Pawn);
        after.side = them;
        let dk = after.kings[them.index()];
        let land = &CAN_LAND[them.index()];
        for delta in KING_DELTAS {
            let t = (dk as isize + delta) as usize;
            if land[after.cells[t] as usize] && !after.attacked_by(t, us, dk) {
                return false;
            }
        }
        // Defenders (other than the king) that attack the pawn, each with the axis it moves on.
        let th = after.threats();
        let own = them as u8;
        for (d, &delta) in DIR.iter().enumerate().take(8) {
            let opp = 1u8 << OPPOSITE[d];
            let mut s = (to as isize + delta) as usize;
            let mut p = after.cells[s];
            let adjacent = p != EMPTY;
            while p == EMPTY {
                s = (s as isize + delta) as usize;
                p = after.cells[s];
            }
            let steps = if adjacent { STEP[p as usize] as u8 } else { 0 };
            if OWNER[p as usize] == own
                && s != dk
                && (steps | SLIDE[p as usize]) & opp != 0
                && th.pin_axis(s).is_none_or(|a| a as usize == d % 4)
            {
                return false;
            }
        }
        let knight = code(them, PieceType::Knight);
        let jumps = match them {
            Color::Black => [DIR[8], DIR[9]],
            Color::White => [DIR[10], DIR[11]],
        };
        for j in jumps {
            let s = (to as isize - j) as usize;
            if after.cells[s] == knight && th.pin_axis(s).is_none() {
                return false;
            }
        }
        true
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
