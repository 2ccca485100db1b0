//! perft: the number of leaf nodes of the legal-move tree, the standard test of a generator.

use crate::{Move, MoveList, Position};

/// The number of move sequences of length `depth` from `pos`. The last ply is bulk-counted.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    // One move list per level, made once.
    let mut lists: Vec<MoveList> = (1..depth).map(|_| MoveList::new()).collect();
    perft_with(pos, depth, &mut lists)
}

fn perft_with(pos: &mut Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let Some((list, deeper)) = lists.split_first_mut() else {
                unreachable!("one list per level above the last")
            };
            pos.generate_legal(list);
            let mut n = 0;
            for &m in list.iter() {
                let undo = pos.do_move(m);
                n += perft_with(pos, depth - 1, deeper);
                pos.undo_move(m, undo);
            }
            n
        }
    }
}

/// perft split by root move ("divide"), in canonical move order; `depth` ≥ 1.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    // legal_moves() already comes in canonical order.
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let undo = pos.do_move(m);
            let n = perft(pos, depth.saturating_sub(1));
            pos.undo_move(m, undo);
            (m, n)
        })
        .collect()
}
