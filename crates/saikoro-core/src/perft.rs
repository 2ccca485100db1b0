//! perft: the number of leaf nodes of the legal-move tree, the standard test of a generator.

use crate::{Move, MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// The number of move sequences of length `depth` from `pos`. The last ply is bulk-counted.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    count(pos, depth, &|| false)
}

/// [`perft`], giving up (and returning 0) as soon as `stopped` says so; it is asked once per
/// node above the last two plies, so a stop takes effect within microseconds.
fn count(pos: &mut Position, depth: u32, stopped: &impl Fn() -> bool) -> u64 {
    // One move list per level, made once.
    let mut lists: Vec<MoveList> = (1..depth).map(|_| MoveList::new()).collect();
    perft_with(pos, depth, &mut lists, stopped)
}

fn perft_with(
    pos: &mut Position,
    depth: u32,
    lists: &mut [MoveList],
    stopped: &impl Fn() -> bool,
) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            if stopped() {
                return 0;
            }
            let Some((list, deeper)) = lists.split_first_mut() else {
                unreachable!("one list per level above the last")
            };
            pos.generate_legal(list);
            let mut n = 0;
            for &m in list.iter() {
                let undo = pos.do_move(m);
                n += perft_with(pos, depth - 1, deeper, stopped);
                pos.undo_move(m, undo);
            }
            n
        }
    }
}

/// perft split by root move ("divide"), in canonical move order; `depth` ≥ 1.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    divide_until(pos, depth, &AtomicBool::new(false)).counts
}

/// A perft split by root move that may have been stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    /// The root moves counted in full, with their counts, in canonical move order.
    pub counts: Vec<(Move, u64)>,
    /// How many legal moves the root position has.
    pub root_moves: usize,
}

impl Divide {
    /// Whether every root move was counted (the total is then the perft number).
    pub fn is_complete(&self) -> bool {
        self.counts.len() == self.root_moves
    }

    /// The sum of the counts (the perft number when complete, else a part of it).
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|&(_, n)| n).sum()
    }
}

/// [`divide`] that ends early once `stop` is set (from another thread): the root move being
/// counted then is left out, so every count given is exact; `depth` ≥ 1.
pub fn divide_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Divide {
    let stopped = || stop.load(Ordering::Relaxed);
    // legal_moves() already comes in canonical order.
    let moves = pos.legal_moves();
    let mut counts = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        if stopped() {
            break;
        }
        let undo = pos.do_move(m);
        let n = count(pos, depth.saturating_sub(1), &stopped);
        pos.undo_move(m, undo);
        if stopped() {
            break;
        }
        counts.push((m, n));
    }
    Divide {
        counts,
        root_moves: moves.len(),
    }
}
