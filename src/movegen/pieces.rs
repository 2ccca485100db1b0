//! Moves of the pieces other than the king, with the promotion choices the rules allow.

use super::sink::Sink;
use super::threats::Threats;
use crate::mailbox::{BOARD_CELLS, CELLS, DIR, EMPTY, MOVE_CHOICES, OWNER, REL_RANK, SLIDE, STEP};

/// `LANDS[side to move][code]`: whether a piece may end its move on a cell holding this code
/// (empty, or an enemy piece).
static LANDS: [[bool; 64]; 2] = {
    let mut t = [[false; 64]; 2];
    let mut c = 0;
    while c < 64 {
        t[0][c] = OWNER[c] == 2 || OWNER[c] == 1;
        t[1][c] = OWNER[c] == 2 || OWNER[c] == 0;
        c += 1;
    }
    t
};
use crate::rules::in_promotion_zone;
use crate::Position;

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

impl Position {
    /// Emits the moves of the side to move's pieces on the square set `pieces` (by origin, then
    /// destination), each kept on its pin line and on the cells `block` allows.
    pub(super) fn piece_moves<S: Sink>(
        &self,
        sink: &mut S,
        mut pieces: u128,
        block: &[bool; CELLS],
        th: &Threats,
    ) {
        let us = self.side_to_move();
        let k = self.board.king(us);
        while pieces != 0 {
            let from = BOARD_CELLS[pieces.trailing_zeros() as usize] as usize;
            pieces &= pieces - 1;
            if from == k {
                self.king_moves(sink, k);
            } else {
                self.moves_from(sink, from, block, th);
            }
            if sink.done() {
                return;
            }
        }
    }

    /// The moves of the piece on cell `from` (not the king).
    #[inline]
    fn moves_from<S: Sink>(&self, sink: &mut S, from: usize, block: &[bool; CELLS], th: &Threats) {
        let us = self.side_to_move();
        let p = self.board.at(from) as usize;
        let mut steps = STEP[p];
        let mut slides = SLIDE[p];
        if th.any_pin() {
            let allowed = th.allowed_directions(from);
            steps &= allowed;
            slides &= allowed as u8;
        }
        let lands = &LANDS[us.index()];
        // Destinations, gathered in ascending order. Steps come out ascending (the directions
        // are ordered by their step); slides need sorting. Each candidate is written, then kept
        // by advancing `n`.
        let mut dests = [0u8; 24];
        let mut n = 0;
        while steps != 0 {
            let d = steps.trailing_zeros() as usize;
            steps &= steps - 1;
            let to = (from as isize + DIR[d]) as usize;
            dests[n] = to as u8;
            n += (lands[self.board.at(to) as usize] & block[to]) as usize;
        }
        if slides != 0 {
            while slides != 0 {
                let d = slides.trailing_zeros() as usize;
                slides &= slides - 1;
                let delta = DIR[d];
                let mut to = (from as isize + delta) as usize;
                loop {
                    let q = self.board.at(to);
                    dests[n] = to as u8;
                    n += (lands[q as usize] & block[to]) as usize;
                    if q != EMPTY {
                        break;
                    }
                    to = (to as isize + delta) as usize;
                }
            }
            if S::ORDERED {
                insertion_sort(&mut dests[..n]);
            }
        }
        let choices = &MOVE_CHOICES[p][in_promotion_zone(REL_RANK[us.index()][from]) as usize];
        let ranks = &REL_RANK[us.index()];
        if S::ORDERED {
            for &to in &dests[..n] {
                let to = to as usize;
                let c = choices[ranks[to] as usize];
                if c & 1 != 0 {
                    sink.normal(from, to, false);
                }
                if c & 2 != 0 {
                    sink.normal(from, to, true);
                }
            }
        } else {
            let mut count = 0;
            for &to in &dests[..n] {
                let c = choices[ranks[to as usize] as usize];
                count += (c & 1) + (c >> 1);
            }
            sink.add(count as u64);
        }
    }
}
