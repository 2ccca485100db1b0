//! A uniformly random legal move by rejection, without counting every move: each piece gets as
//! many places as it could have moves at most, a bound read from its free steps and from tables;
//! a place is drawn among all the pieces' places and the exact drops, and it is kept when that
//! piece has a legal move there, else another place is drawn.
//!
//! Uniform: every legal move owns exactly one place (the j-th legal move of a piece owns its
//! j-th place; a piece has no more legal moves than places), every place is drawn with the same
//! chance, and a draw that lands on a place without a move is thrown away and drawn again: the
//! move kept is uniform over the legal moves. After [`ATTEMPTS`] throws the exact draw of
//! [`Position::pick_legal`] decides, uniform too; in check it always does.

use super::pieces::{Squares, PROMOTION_REACH, STEP_COUNTS};
use super::sink::{NthSink, TallySink};
use super::threats::Threats;
use crate::mailbox::{
    ix, piece, square, step, ALL_SQUARES, BOARD_CELLS, CELLS, CELL_SQUARE, EMPTY, LANDS,
    MOVE_CHOICES, REL_RANK, SLIDE, STEP,
};
use crate::rules::in_promotion_zone;
use crate::{Move, Position};

/// The board move from cell `from` to cell `to`.
fn normal(from: usize, to: usize, promote: bool) -> Move {
    Move::Normal {
        from: square(from),
        to: square(to),
        promote,
    }
}

/// Draws thrown away before the exact draw decides (a side with no legal move but some
/// places, which no random game has yet shown, ends there too).
const ATTEMPTS: usize = 64;

/// `RAY_BOUNDS[code][square][direction]`: the moves (promotion and plain counted apart) a
/// slider with this code on this square has along the direction on an empty board; 0 for
/// directions it does not slide in.
static RAY_BOUNDS: [[[u8; 8]; 81]; 32] = {
    let mut t = [[[0u8; 8]; 81]; 32];
    let mut code = 0;
    while code < 32 {
        if let Some(p) = piece(code as u8) {
            let ranks = &REL_RANK[p.color as usize];
            let mut s = 0;
            while s < 81 {
                let from = BOARD_CELLS[s] as usize;
                let zone = in_promotion_zone(ranks[from]) as usize;
                let mut d = 0;
                while d < 8 {
                    if SLIDE[code] & (1 << d) != 0 {
                        let mut to = (from as isize + step(d)) as usize;
                        while CELL_SQUARE[to] != 255 {
                            let versions = MOVE_CHOICES[code][zone][ranks[to] as usize];
                            t[code][s][d] += versions.count_ones() as u8;
                            to = (to as isize + step(d)) as usize;
                        }
                    }
                    d += 1;
                }
                s += 1;
            }
        }
        code += 1;
    }
    t
};

impl Position {
    /// A legal move drawn uniformly at random (by rejection, see the module's notes), `draw(n)`
    /// giving a uniform integer below `n` each time it is called; `None` when there is no legal
    /// move. The move is not the one [`Position::pick_legal`] finds with the same draws.
    pub fn sample_legal(&self, mut draw: impl FnMut(usize) -> usize) -> Option<Move> {
        let th = self.threats();
        if th.n_checkers > 0 {
            return self.pick_legal(draw);
        }
        let us = self.side_to_move();
        let mut places = [0u8; CELLS];
        let mut board_places = 0;
        for s in Squares::of(self.board.occupied(us)) {
            let c = BOARD_CELLS[s] as usize;
            places[c] = self.move_bound(s, c);
            board_places += usize::from(places[c]);
        }
        let mut drops = TallySink::new();
        let empty = !(self.board.occupied(us) | self.board.occupied(!us)) & ALL_SQUARES;
        self.drops(&mut drops, empty);
        let total = board_places + drops.total;
        if total == 0 {
            return None;
        }
        for _ in 0..ATTEMPTS {
            let mut i = draw(total);
            if i >= board_places {
                return Some(drops.nth_drop(i - board_places));
            }
            for s in Squares::of(self.board.occupied(us)) {
                let c = BOARD_CELLS[s] as usize;
                let n = usize::from(places[c]);
                if i >= n {
                    i -= n;
                    continue;
                }
                let found = match c == self.board.king(us) {
                    true => {
                        let mut nth = NthSink::new(i);
                        self.king_moves(&mut nth, c);
                        nth.found
                    }
                    false => self.move_at(s, c, i, &th),
                };
                if found.is_some() {
                    return found;
                }
                break;
            }
        }
        self.pick_legal(draw)
    }

    /// The move that owns place `j` of the piece on square `s` (cell `c`, not the king), out
    /// of check, if it is legal. The places, as [`Position::move_bound`] counts them: first the
    /// free steps, by direction, each once, or twice (plain, then promotion) where the piece
    /// might promote; then the slides, by direction, cell by cell from the piece to the edge,
    /// each cell once per version of the move the rules allow from here to there.
    fn move_at(&self, s: usize, c: usize, mut j: usize, th: &Threats) -> Option<Move> {
        let us = self.side_to_move();
        let p = self.board.at(c) as usize;
        let free = !self.board.blocked_steps(us, c);
        // The directions a pinned piece keeps (all twelve for the others).
        let allowed = th.allowed_directions(c);
        let ranks = &REL_RANK[us.index()];
        let choices = &MOVE_CHOICES[p][in_promotion_zone(ranks[c]) as usize];
        let twice = ranks[c] <= PROMOTION_REACH[p];
        let mut steps = STEP[p] & free;
        let step_places = usize::from(STEP_COUNTS[usize::from(steps) & 0xfff]) << twice as u32;
        if j < step_places {
            let (mut k, version) = if twice { (j / 2, j % 2) } else { (j, 0) };
            while k > 0 {
                steps &= steps - 1;
                k -= 1;
            }
            let d = steps.trailing_zeros() as usize;
            let to = (c as isize + step(d)) as usize;
            let ch = choices[ranks[ix(to)] as usize];
            // Once: the one version allowed; twice: plain (bit 0) or promotion (bit 1).
            let promote = match twice {
                true => version == 1,
                false => ch == 2,
            };
            let ok = allowed & (1 << d) != 0
                && match twice {
                    true => ch & (1 << version) != 0,
                    false => ch != 0,
                };
            return ok.then(|| normal(c, to, promote));
        }
        j -= step_places;
        let mut slides = SLIDE[p] & free as u8;
        let rays = &RAY_BOUNDS[p & 31][s % 81];
        while slides != 0 {
            let d = slides.trailing_zeros() as usize;
            slides &= slides - 1;
            let n = usize::from(rays[d]);
            if j >= n {
                j -= n;
                continue;
            }
            if allowed & (1 << d) == 0 {
                return None;
            }
            let mut to = c;
            loop {
                to = (to as isize + step(d)) as usize;
                let ch = choices[ranks[ix(to)] as usize];
                let versions = usize::from((ch & 1) + (ch >> 1));
                let there = self.board.at(to);
                if j < versions {
                    let promote = if versions == 2 { j == 1 } else { ch == 2 };
                    return LANDS[us.index()][there as usize].then(|| normal(c, to, promote));
                }
                if there != EMPTY {
                    return None;
                }
                j -= versions;
            }
        }
        unreachable!("place {j} beyond the bound")
    }

    /// At least the number of legal moves of the side to move's piece on square `s` (cell
    /// `c`), out of check: its free steps (onto an empty square or an enemy piece), twice
    /// where it might promote, and its slides' moves on an empty board along each free first
    /// step.
    #[inline]
    fn move_bound(&self, s: usize, c: usize) -> u8 {
        let us = self.side_to_move();
        let p = self.board.at(c) as usize;
        let free = !self.board.blocked_steps(us, c);
        let steps = STEP_COUNTS[usize::from(STEP[p] & free) & 0xfff];
        let rank = REL_RANK[us.index()][c];
        let mut bound = match rank <= PROMOTION_REACH[p] {
            true => 2 * steps,
            false => steps,
        };
        let mut slides = SLIDE[p] & free as u8;
        let rays = &RAY_BOUNDS[p & 31][s % 81];
        while slides != 0 {
            let d = slides.trailing_zeros() as usize;
            slides &= slides - 1;
            bound += rays[d];
        }
        bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The board moves the places of every piece own, listed place by place.
    fn moves_by_place(pos: &Position) -> Vec<Move> {
        let th = pos.threats();
        let us = pos.side_to_move();
        let mut found = Vec::new();
        for s in Squares::of(pos.board.occupied(us)) {
            let c = BOARD_CELLS[s] as usize;
            for j in 0..usize::from(pos.move_bound(s, c)) {
                let m = match c == pos.board.king(us) {
                    true => {
                        let mut nth = NthSink::new(j);
                        pos.king_moves(&mut nth, c);
                        nth.found
                    }
                    false => pos.move_at(s, c, j, &th),
                };
                found.extend(m);
            }
        }
        found
    }

    /// Out of check, the places own every legal board move exactly once and nothing else: in
    /// each position of the random-game sample (promotions, drops, pins) and three by hand
    /// (pinned silver and bishop; a lance and a knight that must promote; the start).
    #[test]
    fn every_legal_board_move_owns_one_place() {
        let sample = include_str!("../../positions/random-games.sfen");
        let extra = [
            "k3r4/9/9/9/8b/9/9/3GSB3/4K4 b - 1",
            "4k4/9/L1N6/9/9/9/9/9/4K4 b - 1",
            crate::STARTPOS_SFEN,
        ];
        let mut positions = 0;
        for sfen in sample.lines().filter(|l| !l.starts_with('#')).chain(extra) {
            let pos = Position::from_sfen(sfen).unwrap();
            if pos.in_check() {
                continue;
            }
            let places = moves_by_place(&pos);
            let set: BTreeSet<Move> = places.iter().copied().collect();
            assert_eq!(set.len(), places.len(), "a move owns two places in {sfen}");
            let legal: BTreeSet<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Normal { .. }))
                .collect();
            assert_eq!(set, legal, "{sfen}");
            positions += 1;
        }
        assert!(positions > 1000, "{positions}");
    }
}
