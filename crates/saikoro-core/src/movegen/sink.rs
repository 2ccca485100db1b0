//! Where generated moves go: a list collects them, a counter counts them, a flag notes that
//! one exists.

use crate::mailbox::{ix, square, CELLS, CELL_SQUARE_OR_0};
use crate::mv::MoveWriter;
use crate::{Move, MoveList, PieceType, Square};

/// Receives generated moves.
///
/// An ordered sink (a list) is given each board move, through [`Sink::normal`],
/// [`Sink::normal_if`] and [`Sink::move_if`]; an unordered one (a counter) is given the board
/// moves of each piece as a number, through [`Sink::add`]. Each kind implements only its own
/// methods; the others are never called, and say so if they are.
pub(super) trait Sink {
    /// Whether the moves must come in canonical order. A sink that does not care is given board
    /// moves through [`Sink::add`] as a bare number.
    const ORDERED: bool;
    /// The board move from cell `from` to cell `to` (king moves go here for every sink).
    fn normal(&mut self, from: usize, to: usize, promote: bool);
    /// The same when `keep` is true, else nothing (for generation without branches; ordered
    /// sinks only).
    fn normal_if(&mut self, _from: usize, _to: usize, _promote: bool, _keep: bool) {
        unreachable!("an unordered sink is given board moves as a count")
    }
    /// The board move `m`, made beforehand, when `keep` is true (ordered sinks only).
    fn move_if(&mut self, _m: Move, _keep: bool) {
        unreachable!("an unordered sink is given board moves as a count")
    }
    /// `n` more board moves, all from cell `from` (unordered sinks only).
    fn add(&mut self, _from: usize, _n: u64) {
        unreachable!("an ordered sink is given every move")
    }
    /// Drops of `kind` on each square of the square set `to`.
    fn drops(&mut self, kind: PieceType, to: u128);
    /// Whether the sink needs no more moves.
    #[inline]
    fn done(&self) -> bool {
        false
    }
}

/// Collects the moves in a list.
pub(super) struct ListSink<'a> {
    list: MoveWriter<'a>,
}

impl<'a> ListSink<'a> {
    pub(super) fn new(list: &'a mut MoveList) -> ListSink<'a> {
        ListSink {
            list: list.writer(),
        }
    }
}

impl Sink for ListSink<'_> {
    const ORDERED: bool = true;
    #[inline]
    fn normal(&mut self, from: usize, to: usize, promote: bool) {
        self.normal_if(from, to, promote, true);
    }
    #[inline]
    fn move_if(&mut self, m: Move, keep: bool) {
        self.list.push_if(m, keep);
    }
    #[inline]
    fn normal_if(&mut self, from: usize, to: usize, promote: bool, keep: bool) {
        // A move that is not kept may lead onto a wall; any square stands in for it.
        let m = Move::Normal {
            from: square(from),
            to: Square::from_index_unchecked(CELL_SQUARE_OR_0[ix(to)]),
            promote,
        };
        self.list.push_if(m, keep);
    }
    #[inline]
    fn drops(&mut self, kind: PieceType, to: u128) {
        self.list.push_drops(kind, to);
    }
}

/// Counts the moves.
pub(super) struct CountSink(pub(super) u64);

impl Sink for CountSink {
    const ORDERED: bool = false;
    #[inline]
    fn add(&mut self, _: usize, n: u64) {
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

/// Notes whether there is any legal move.
pub(super) struct AnySink(pub(super) bool);

impl Sink for AnySink {
    const ORDERED: bool = false;
    #[inline]
    fn add(&mut self, _: usize, n: u64) {
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
    #[inline]
    fn done(&self) -> bool {
        self.0
    }
}

/// Counts the moves by origin square, and keeps the drop squares of each kind: enough to find
/// the move at a given place of the canonical order without listing them all.
pub(super) struct TallySink {
    /// Legal board moves per origin cell.
    pub(super) by_origin: [u8; CELLS],
    /// The drops, in the order generated (by kind): each kind and its squares.
    pub(super) drops: [(PieceType, u128); 7],
    pub(super) n_drops: usize,
    /// All legal moves.
    pub(super) total: usize,
}

impl TallySink {
    pub(super) fn new() -> TallySink {
        TallySink {
            by_origin: [0; CELLS],
            drops: [(PieceType::Pawn, 0); 7],
            n_drops: 0,
            total: 0,
        }
    }
}

impl TallySink {
    /// The `i`-th of the drops (from 0, by kind then square), which number more than `i`.
    pub(super) fn nth_drop(&self, mut i: usize) -> Move {
        for &(kind, to) in &self.drops[..self.n_drops] {
            let n = to.count_ones() as usize;
            if i < n {
                return Move::Drop {
                    kind,
                    to: Square::from_index_unchecked(nth_square(to, i)),
                };
            }
            i -= n;
        }
        unreachable!("drop {i} asked of fewer")
    }
}

/// The `i`-th square (from 0, in ascending order) of the square set `set`, which has more
/// than `i`.
fn nth_square(set: u128, i: usize) -> u8 {
    let low = set as u64;
    let (mut half, mut i, base) = match (low.count_ones() as usize).checked_sub(i + 1) {
        Some(_) => (low, i, 0),
        None => ((set >> 64) as u64, i - low.count_ones() as usize, 64),
    };
    while i > 0 {
        half &= half - 1;
        i -= 1;
    }
    half.trailing_zeros() as u8 + base
}

impl Sink for TallySink {
    const ORDERED: bool = false;
    #[inline]
    fn add(&mut self, from: usize, n: u64) {
        self.by_origin[ix(from)] = n as u8;
        self.total += n as usize;
    }
    #[inline]
    fn normal(&mut self, from: usize, _: usize, _: bool) {
        self.by_origin[ix(from)] += 1;
        self.total += 1;
    }
    #[inline]
    fn drops(&mut self, kind: PieceType, to: u128) {
        self.drops[self.n_drops % 7] = (kind, to);
        self.n_drops += 1;
        self.total += to.count_ones() as usize;
    }
}

/// Keeps the move at one place of the order in which an ordered generation gives them (of one
/// piece's moves, say).
pub(super) struct NthSink {
    /// How many moves to pass over before the one kept.
    left: usize,
    pub(super) found: Option<Move>,
}

impl NthSink {
    pub(super) fn new(n: usize) -> NthSink {
        NthSink {
            left: n,
            found: None,
        }
    }
}

impl Sink for NthSink {
    const ORDERED: bool = true;
    #[inline]
    fn normal(&mut self, from: usize, to: usize, promote: bool) {
        self.normal_if(from, to, promote, true);
    }
    #[inline]
    fn normal_if(&mut self, from: usize, to: usize, promote: bool, keep: bool) {
        if keep {
            let m = Move::Normal {
                from: square(from),
                to: square(to),
                promote,
            };
            self.move_if(m, true);
        }
    }
    #[inline]
    fn move_if(&mut self, m: Move, keep: bool) {
        if keep {
            if self.left == 0 && self.found.is_none() {
                self.found = Some(m);
            }
            self.left = self.left.saturating_sub(1);
        }
    }
    fn drops(&mut self, _: PieceType, _: u128) {
        unreachable!("drops are found from the tally's square sets")
    }
    #[inline]
    fn done(&self) -> bool {
        self.found.is_some()
    }
}
