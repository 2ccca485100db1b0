//! `go searchmoves m1 m2 ...`: the random choice restricted to the listed moves that are legal.

use saikoro_core::{Game, Move, Position, RandomMover};

/// The legal moves among `listed`, in canonical order without repeats, and a problem for each
/// one left out (illegal here), plus one when none is legal (the choice is then among all the
/// legal moves, as if no list had come).
pub(super) fn legal_among(pos: &Position, listed: &[Move]) -> (Vec<Move>, Vec<String>) {
    let mut legal = Vec::with_capacity(listed.len());
    let mut problems = Vec::new();
    for &m in listed {
        match pos.is_legal(m) {
            Ok(()) => legal.push(m),
            Err(why) => problems.push(format!("searchmoves: '{m}' left out: illegal here ({why})")),
        }
    }
    legal.sort_unstable();
    legal.dedup();
    if legal.is_empty() {
        problems.push(
            "searchmoves: none of the listed moves is legal here: choosing among all the legal moves"
                .to_string(),
        );
    }
    (legal, problems)
}

/// A uniformly random move of `legal` (not empty, canonical order), leaving out moves that
/// would lose by perpetual check (連続王手の千日手) unless nothing else is left, as the
/// unrestricted choice does.
pub(super) fn pick(player: &mut RandomMover, game: &mut Game, mut legal: Vec<Move>) -> Move {
    if game.may_lose_by_perpetual_check() {
        let safe: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| !game.loses_by_perpetual_check(m))
            .collect();
        if !safe.is_empty() {
            legal = safe;
        }
    }
    legal[player.below(legal.len() as u64) as usize]
}
