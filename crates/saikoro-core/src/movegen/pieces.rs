//! Moves of the pieces other than the king, with the promotion choices the rules allow.

use super::sink::Sink;
use super::threats::Threats;
use crate::mailbox::{
    cell_bit, ix, step, BOARD_CELLS, CELLS, CELL_SQUARE, CELL_SQUARE_OR_0, CODES, EMPTY, LANDS,
    MOVE_CHOICES, NO_CELL, REL_RANK, SLIDE, STEP, ZONE,
};

use crate::rules::in_promotion_zone;
use crate::{Move, PieceType, Position, Square};

/// `MOVE_COUNTS[code][from in zone][relative rank of to]`: how many versions of the move
/// (plain, promotion) the rules allow: the number of bits of `MOVE_CHOICES`.
static MOVE_COUNTS: [[[u8; 10]; 2]; CODES] = {
    let mut t = [[[0u8; 10]; 2]; CODES];
    let mut c = 0;
    while c < CODES {
        let mut z = 0;
        while z < 2 {
            let mut r = 0;
            while r < 10 {
                t[c][z][r] = MOVE_CHOICES[c][z][r].count_ones() as u8;
                r += 1;
            }
            z += 1;
        }
        c += 1;
    }
    t
};

/// `STEP_COUNTS[steps]`: how many of the twelve step directions the bits `steps` hold (a table:
/// the portable x86-64 target has no population-count instruction, and `count_ones` there is a
/// dozen instructions).
pub(super) static STEP_COUNTS: [u8; 1 << 12] = {
    let mut t = [0u8; 1 << 12];
    let mut i = 0;
    while i < t.len() {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// `PLAIN_STEPS[square][direction]`: the plain move one step from a square in each of the twelve
/// directions (four more entries pad the row so that a direction needs no bounds check). A step
/// off the board gets square 0 as destination: such a move is written but never kept.
static PLAIN_STEPS: [[Move; 16]; 81] = {
    let mut t = [[Move::Drop {
        kind: PieceType::Pawn,
        to: Square::from_index_unchecked(0),
    }; 16]; 81];
    let mut s = 0;
    while s < 81 {
        let mut d = 0;
        while d < 12 {
            let to = (BOARD_CELLS[s] as isize + step(d)) as usize;
            t[s][d] = Move::Normal {
                from: Square::from_index_unchecked(s as u8),
                to: Square::from_index_unchecked(CELL_SQUARE_OR_0[ix(to)]),
                promote: false,
            };
            d += 1;
        }
        s += 1;
    }
    t
};

/// The farthest relative rank from which a stepping piece with this code may reach the zone
/// and promote: two ranks short of it (a knight's jump is two ranks) for the kinds that promote,
/// none (0) for the others.
pub(super) static PROMOTION_REACH: [u8; CODES] = {
    let mut t = [0u8; CODES];
    let mut c = 0;
    while c < CODES {
        if MOVE_CHOICES[c][1][1] & 2 != 0 {
            t[c] = crate::rules::PROMOTION_ZONE_RANKS + 2;
        }
        c += 1;
    }
    t
};

/// The squares of a square set in ascending order, a 64-bit half at a time.
pub(super) struct Squares(u64, u64);

impl Squares {
    pub(super) fn of(set: u128) -> Squares {
        Squares(set as u64, (set >> 64) as u64)
    }
}

impl Iterator for Squares {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 != 0 {
            let s = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(s)
        } else if self.1 != 0 {
            let s = self.1.trailing_zeros() as usize;
            self.1 &= self.1 - 1;
            Some(s + 64)
        } else {
            None
        }
    }
}

impl Position {
    /// Emits the moves of the side to move's pieces on the square set `pieces` (by origin, then
    /// destination), each kept on its pin line and, in check, on the cells `block` allows. An
    /// ordered sink gets the king's moves at the king's place; for the others the caller
    /// generates them apart.
    pub(super) fn piece_moves<S: Sink>(
        &self,
        sink: &mut S,
        pieces: u128,
        block: Option<&[bool; CELLS]>,
        th: &Threats,
    ) {
        match block {
            None => self.piece_moves_in::<S, false>(sink, pieces, &[true; CELLS], th),
            Some(block) => self.piece_moves_in::<S, true>(sink, pieces, block, th),
        }
    }

    /// Emits the moves of the side to move's piece on square `sq` (not the king), as
    /// [`Position::piece_moves`] does.
    pub(super) fn moves_of<S: Sink>(
        &self,
        sink: &mut S,
        sq: usize,
        block: Option<&[bool; CELLS]>,
        th: &Threats,
    ) {
        let pins = th.any_pin();
        match block {
            None => self.moves_from::<S, false>(sink, sq, &[true; CELLS], th, pins),
            Some(block) => self.moves_from::<S, true>(sink, sq, block, th, pins),
        }
    }

    fn piece_moves_in<S: Sink, const CHECK: bool>(
        &self,
        sink: &mut S,
        pieces: u128,
        block: &[bool; CELLS],
        th: &Threats,
    ) {
        let k = self.board.king(self.side_to_move());
        let king = if S::ORDERED && k != NO_CELL {
            cell_bit(k)
        } else {
            0
        };
        let (below, above) = if king != 0 {
            (pieces & (king - 1), pieces & !(king | (king - 1)))
        } else {
            (pieces, 0)
        };
        let pins = th.any_pin();
        for s in Squares::of(below) {
            self.moves_from::<S, CHECK>(sink, s, block, th, pins);
            if sink.done() {
                return;
            }
        }
        if king != 0 {
            self.king_moves(sink, k);
        }
        for s in Squares::of(above) {
            self.moves_from::<S, CHECK>(sink, s, block, th, pins);
        }
    }

    /// The moves of the piece on square `sq` (not the king); `pins` says whether any piece is
    /// pinned.
    #[inline(always)]
    fn moves_from<S: Sink, const CHECK: bool>(
        &self,
        sink: &mut S,
        sq: usize,
        block: &[bool; CELLS],
        th: &Threats,
        pins: bool,
    ) {
        let us = self.side_to_move().index();
        let from = BOARD_CELLS[sq] as usize;
        let p = self.board.at(from) as usize;
        // The steps onto an empty square or an enemy piece (the board keeps those that are not).
        let mut steps = STEP[p] & !self.board.blocked_steps(self.side_to_move(), from);
        let mut slides = SLIDE[p];
        if pins {
            let allowed = th.allowed_directions(from);
            steps &= allowed;
            slides &= allowed as u8;
        }
        // Whether a step kept above, or a slide, may end on cell `to`.
        let step_lands = |to: usize| !CHECK || block[ix(to)];
        let lands = &LANDS[us];
        let lands_on = |to: usize| lands[self.board.at(to) as usize] & (!CHECK || block[ix(to)]);
        let ranks = &REL_RANK[us];
        let rank = ranks[ix(from)];
        if !S::ORDERED {
            if !CHECK && slides == 0 && rank > PROMOTION_REACH[p] {
                // Out of check and out of promotion's reach: one plain move per step.
                sink.add(from, STEP_COUNTS[usize::from(steps) & 0xfff].into());
                return;
            }
            // Only the number matters: one or two moves per destination.
            let counts = &MOVE_COUNTS[p][in_promotion_zone(rank) as usize];
            let versions = |to: usize| u32::from(counts[ranks[ix(to)] as usize]);
            let mut count = 0;
            self.each_target(from, steps, 0, |to| {
                count += u32::from(step_lands(to)) * versions(to);
            });
            self.each_target(from, 0, slides, |to| {
                count += u32::from(lands_on(to)) * versions(to);
            });
            sink.add(from, count.into());
            return;
        }
        if slides == 0 {
            // Steps only: the directions are in ascending order of their step, so the
            // destinations come out in ascending order.
            if rank <= PROMOTION_REACH[p] {
                let choices = &MOVE_CHOICES[p][in_promotion_zone(rank) as usize];
                while steps != 0 {
                    let d = steps.trailing_zeros() as usize;
                    steps &= steps - 1;
                    let to = (from as isize + step(d)) as usize;
                    if step_lands(to) {
                        emit(sink, from, to, choices[ranks[ix(to)] as usize]);
                    }
                }
            } else {
                // Written and kept or not without a branch (in check, whether a step ends on
                // the checker or between it and the king is unpredictable).
                let row = &PLAIN_STEPS[sq];
                while steps != 0 {
                    let d = steps.trailing_zeros() as usize;
                    steps &= steps - 1;
                    let to = (from as isize + step(d)) as usize;
                    sink.move_if(row[d & 15], step_lands(to));
                }
            }
            return;
        }
        let from_zone = in_promotion_zone(rank) as usize;
        let choices = &MOVE_CHOICES[p][from_zone];
        // Destinations gathered as a square set, which lists them in ascending order.
        let mut set = 0u128;
        self.each_target(from, steps, slides, |to| {
            set |= u128::from(lands_on(to)).wrapping_shl(u32::from(CELL_SQUARE[ix(to)]));
        });
        if from_zone == 0 && set & ZONE[us] == 0 {
            // Neither end in the zone: plain moves only.
            while set != 0 {
                let to = BOARD_CELLS[set.trailing_zeros() as usize] as usize;
                set &= set - 1;
                sink.normal(from, to, false);
            }
            return;
        }
        while set != 0 {
            let to = BOARD_CELLS[set.trailing_zeros() as usize] as usize;
            set &= set - 1;
            let c = choices[ranks[ix(to)] as usize];
            sink.normal_if(from, to, false, c & 1 != 0);
            sink.normal_if(from, to, true, c & 2 != 0);
        }
    }

    /// Calls `f` with each cell a piece on cell `from` reaches with the steps `steps` (bits over
    /// the twelve directions) and the slides `slides` (bits over the eight), whatever stands
    /// there: each slide ends on the first occupied cell (a piece or a wall).
    #[inline(always)]
    fn each_target(&self, from: usize, mut steps: u16, mut slides: u8, mut f: impl FnMut(usize)) {
        while steps != 0 {
            let d = steps.trailing_zeros() as usize;
            steps &= steps - 1;
            f((from as isize + step(d)) as usize);
        }
        while slides != 0 {
            let d = slides.trailing_zeros() as usize;
            slides &= slides - 1;
            let mut to = from;
            loop {
                to = (to as isize + step(d)) as usize;
                f(to);
                if self.board.at(to) != EMPTY {
                    break;
                }
            }
        }
    }
}

/// Emits the board move from `from` to `to` in the versions `choices` allows (bit 0: the plain
/// move, bit 1: the promotion; see `MOVE_CHOICES`).
#[inline]
fn emit<S: Sink>(sink: &mut S, from: usize, to: usize, choices: u8) {
    if choices & 1 != 0 {
        sink.normal(from, to, false);
    }
    if choices & 2 != 0 {
        sink.normal(from, to, true);
    }
}
