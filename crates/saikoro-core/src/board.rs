//! The board (盤): the mailbox of cells and every view cached from it, kept consistent by four
//! primitives (put, remove, move, promote) that set-up, make and unmake all go through.

use crate::mailbox::{
    cell, cell_bit, cell_file, code, ix, opposite, piece, BOARD_CELLS, CELLS, CELL_SQUARE, CODES,
    DIR, EMPTY, KNIGHT_STEPS, LINE, NO_CELL, NO_LINE, OWNER, SLIDE, STEP, WALL,
};
use crate::zobrist::ZOBRIST;
use crate::{Color, Piece, PieceType, Square};

/// What a cell code is, for the caches: bit flags.
const ORTHOGONAL: u8 = 1;
const DIAGONAL: u8 = 2;
const KING: u8 = 4;
const PAWN: u8 = 8;

/// The slide directions along files and ranks, and along diagonals.
const ORTHOGONAL_DIRS: u8 = 0b0101_1010;
const DIAGONAL_DIRS: u8 = 0b1010_0101;

const FLAGS: [u8; CODES] = {
    let mut t = [0u8; CODES];
    let mut c = 0;
    while c < CODES {
        if let Some(p) = piece(c as u8) {
            if SLIDE[c] & ORTHOGONAL_DIRS != 0 {
                t[c] |= ORTHOGONAL;
            }
            if SLIDE[c] & DIAGONAL_DIRS != 0 {
                t[c] |= DIAGONAL;
            }
            if matches!(p.kind, PieceType::King) {
                t[c] |= KING;
            }
            if matches!(p.kind, PieceType::Pawn) {
                t[c] |= PAWN;
            }
        }
        c += 1;
    }
    t
};

/// `ADJACENT_ATTACK[by][d][code]`: a piece with this code, owned by `by`, standing next to a
/// target in direction `d` (seen from the target), attacks the target.
pub(crate) static ADJACENT_ATTACK: [[[bool; CODES]; 8]; 2] = {
    let mut t = [[[false; CODES]; 8]; 2];
    let mut by = 0;
    while by < 2 {
        let mut d = 0;
        while d < 8 {
            let toward = 1u16 << opposite(d);
            let mut c = 0;
            while c < CODES {
                let moves = STEP[c] | SLIDE[c] as u16;
                t[by][d][c] = OWNER[c] as usize == by && moves & toward != 0;
                c += 1;
            }
            d += 1;
        }
        by += 1;
    }
    t
};

/// The pieces on the 81 squares, with what is cached from them: each side's occupied squares
/// and sliding pieces (as square sets), the files of its unpromoted pawns, its king's cell, the
/// steps its pieces cannot take, and the Zobrist key of the whole board.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Board {
    cells: [u8; CELLS],
    occupied: [u128; 2],
    /// Per colour and board cell, the steps (bits over the twelve directions of [`DIR`]) that
    /// lead from the cell onto the wall or onto a piece of that colour: those a piece of that
    /// colour standing there cannot take.
    blocked: [[u16; CELLS]; 2],
    /// Per colour, the pieces that slide along files or ranks (lances, rooks, dragons), and
    /// those that slide along diagonals (bishops, horses).
    sliders: [[u128; 2]; 2],
    /// Bit `f` set when the colour has an unpromoted pawn on file `f` (for nifu).
    pawn_files: [u16; 2],
    kings: [usize; 2],
    key: u64,
}

impl Board {
    /// A board with no piece.
    pub(crate) fn empty() -> Board {
        let mut cells = [WALL; CELLS];
        for &c in &BOARD_CELLS {
            cells[c as usize] = EMPTY;
        }
        let mut walls = [0u16; CELLS];
        for &c in &BOARD_CELLS {
            for (d, &delta) in DIR.iter().enumerate() {
                if cells[ix((c as isize + delta) as usize)] == WALL {
                    walls[c as usize] |= 1 << d;
                }
            }
        }
        Board {
            cells,
            occupied: [0; 2],
            blocked: [walls; 2],
            sliders: [[0; 2]; 2],
            pawn_files: [0; 2],
            kings: [NO_CELL; 2],
            key: 0,
        }
    }

    /// The code on cell `c` (a piece's code, [`EMPTY`] or [`WALL`]).
    #[inline]
    pub(crate) fn at(&self, c: usize) -> u8 {
        self.cells[ix(c)]
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub(crate) fn piece_at(&self, sq: Square) -> Option<Piece> {
        piece(self.cells[cell(sq)])
    }

    /// The squares `color` occupies.
    #[inline]
    pub(crate) fn occupied(&self, color: Color) -> u128 {
        self.occupied[color.index()]
    }

    /// The squares where `color` has a lance, bishop, rook, horse or dragon.
    #[inline]
    pub(crate) fn sliders(&self, color: Color) -> u128 {
        let s = &self.sliders[color.index()];
        s[0] | s[1]
    }

    /// The squares where `color` has a piece sliding along files or ranks (lance, rook,
    /// dragon), and those where it has one sliding along diagonals (bishop, horse).
    #[inline]
    pub(crate) fn sliders_by_line(&self, color: Color) -> [u128; 2] {
        self.sliders[color.index()]
    }

    /// Bit `f` set for each file `f` holding an unpromoted pawn of `color`.
    #[inline]
    pub(crate) fn pawn_files(&self, color: Color) -> u16 {
        self.pawn_files[color.index()]
    }

    /// The steps (bits over the twelve directions) that a piece of `color` on cell `c` cannot
    /// take: onto the wall or onto a piece of its own.
    #[inline]
    pub(crate) fn blocked_steps(&self, color: Color, c: usize) -> u16 {
        self.blocked[color.index()][ix(c)]
    }

    /// The cell of `color`'s king, or [`NO_CELL`].
    #[inline]
    pub(crate) fn king(&self, color: Color) -> usize {
        self.kings[color.index()]
    }

    /// The Zobrist key of the pieces on the board.
    #[inline]
    pub(crate) fn key(&self) -> u64 {
        self.key
    }

    /// Puts the piece with code `p` on the empty cell `c`.
    #[inline]
    pub(crate) fn put(&mut self, c: usize, p: u8) {
        debug_assert!(self.cells[ix(c)] == EMPTY && piece(p).is_some());
        self.cells[ix(c)] = p;
        self.update(c, p, true);
        self.key ^= ZOBRIST.piece(p, c);
    }

    /// Removes the piece on cell `c` and returns its code.
    #[inline]
    pub(crate) fn remove(&mut self, c: usize) -> u8 {
        let p = self.cells[ix(c)];
        debug_assert!(piece(p).is_some());
        self.cells[ix(c)] = EMPTY;
        self.update(c, p, false);
        self.key ^= ZOBRIST.piece(p, c);
        p
    }

    /// Moves the piece on cell `from` to the empty cell `to`.
    #[inline]
    pub(crate) fn move_piece(&mut self, from: usize, to: usize) {
        let p = self.cells[ix(from)];
        debug_assert!(piece(p).is_some() && self.cells[ix(to)] == EMPTY);
        self.cells[ix(from)] = EMPTY;
        self.cells[ix(to)] = p;
        let color = OWNER[p as usize] as usize;
        self.block_steps_onto(color, from, false);
        self.block_steps_onto(color, to, true);
        let both = cell_bit(from) | cell_bit(to);
        self.occupied[color] ^= both;
        let flags = FLAGS[p as usize];
        if flags != 0 {
            if flags & ORTHOGONAL != 0 {
                self.sliders[color][0] ^= both;
            }
            if flags & DIAGONAL != 0 {
                self.sliders[color][1] ^= both;
            }
            if flags & KING != 0 {
                self.kings[color] = to;
            }
            // A pawn moves (and captures) straight ahead: its file, and the pawn files, stay.
            debug_assert!(flags & PAWN == 0 || cell_file(from) == cell_file(to));
        }
        self.key ^= ZOBRIST.piece(p, from) ^ ZOBRIST.piece(p, to);
    }

    /// Replaces the piece on cell `c` by the piece with code `p` (a promotion or its undoing).
    #[inline]
    pub(crate) fn replace(&mut self, c: usize, p: u8) {
        self.remove(c);
        self.put(c, p);
    }

    /// Marks (`present`) or clears, for every cell one step from cell `c`, the step onto `c` as
    /// blocked for `color`.
    #[inline]
    fn block_steps_onto(&mut self, color: usize, c: usize, present: bool) {
        let blocked = &mut self.blocked[color & 1];
        for (d, &delta) in DIR.iter().enumerate() {
            let from = ix((c as isize - delta) as usize);
            if present {
                blocked[from] |= 1 << d;
            } else {
                blocked[from] &= !(1 << d);
            }
        }
    }

    /// Sets or clears the caches of piece `p` on cell `c`.
    #[inline]
    fn update(&mut self, c: usize, p: u8, present: bool) {
        let color = OWNER[p as usize] as usize;
        self.block_steps_onto(color, c, present);
        let b = cell_bit(c);
        let flags = FLAGS[p as usize];
        if present {
            self.occupied[color] |= b;
        } else {
            self.occupied[color] &= !b;
        }
        if flags == 0 {
            return;
        }
        for (line, flag) in [ORTHOGONAL, DIAGONAL].into_iter().enumerate() {
            if flags & flag != 0 {
                if present {
                    self.sliders[color][line] |= b;
                } else {
                    self.sliders[color][line] &= !b;
                }
            }
        }
        if flags & KING != 0 {
            self.kings[color] = if present { c } else { NO_CELL };
        }
        if flags & PAWN != 0 {
            if present {
                self.pawn_files[color] |= 1 << cell_file(c);
            } else {
                self.pawn_files[color] &= !(1 << cell_file(c));
            }
        }
    }

    /// Whether cell `t` is attacked by a piece of `by`, with cell `ignore` treated as empty (pass
    /// [`NO_CELL`] to ignore nothing). A piece standing on `t` itself does not matter.
    #[inline]
    pub(crate) fn attacked_by(&self, t: usize, by: Color, ignore: usize) -> bool {
        self.attacked_by_near(t, by, ignore) || self.attacked_by_slider(t, by, ignore)
    }

    /// Whether a piece of `by` next to cell `t`, or a knight of `by`, attacks it.
    #[inline]
    pub(crate) fn attacked_by_near(&self, t: usize, by: Color, ignore: usize) -> bool {
        let adjacent = &ADJACENT_ATTACK[by.index()];
        for (d, &delta) in DIR.iter().enumerate().take(8) {
            let s = (t as isize + delta) as usize;
            if adjacent[d][self.cells[ix(s)] as usize] & (s != ignore) {
                return true;
            }
        }
        let knight = code(Piece::new(by, PieceType::Knight));
        KNIGHT_STEPS[by.index()]
            .iter()
            .any(|&j| self.cells[ix((t as isize - j) as usize)] == knight)
    }

    /// Whether a sliding piece of `by` attacks cell `t` along an open line (cell `ignore` taken
    /// as empty).
    #[inline]
    pub(crate) fn attacked_by_slider(&self, t: usize, by: Color, ignore: usize) -> bool {
        self.attacked_by_one_of(t, self.sliders(by), ignore, NO_CELL)
    }

    /// Whether one of the sliding pieces on the square set `sliders` attacks cell `t` along an
    /// open line, with cell `ignore` taken as empty and cell `blocker` as occupied (pass
    /// [`NO_CELL`] for either to change nothing).
    #[inline(always)]
    pub(crate) fn attacked_by_one_of(
        &self,
        t: usize,
        sliders: u128,
        ignore: usize,
        blocker: usize,
    ) -> bool {
        self.aimed_at(t, sliders)
            .any(|(s, d)| self.clear_between(t, s, DIR[d], ignore, blocker))
    }

    /// Whether every cell strictly between cells `from` and `to`, stepping by `delta` from
    /// `from`, is empty, with cell `ignore` taken as empty and cell `blocker` as occupied (pass
    /// [`NO_CELL`] for either to change nothing).
    #[inline(always)]
    pub(crate) fn clear_between(
        &self,
        from: usize,
        to: usize,
        delta: isize,
        ignore: usize,
        blocker: usize,
    ) -> bool {
        let mut x = (from as isize + delta) as usize;
        while x != to && (self.cells[ix(x)] == EMPTY || x == ignore) && x != blocker {
            x = (x as isize + delta) as usize;
        }
        x == to
    }

    /// The first cell after `from` in the direction of `delta` that is not empty.
    #[inline]
    pub(crate) fn first_piece(&self, from: usize, delta: isize) -> usize {
        let mut x = (from as isize + delta) as usize;
        while self.cells[ix(x)] == EMPTY {
            x = (x as isize + delta) as usize;
        }
        x
    }

    /// The sliding pieces of the square set `sliders` that share a line with cell `t` and slide
    /// along it toward `t`, whatever stands between: each as its cell and the direction (0–7)
    /// from `t` toward it.
    #[inline]
    pub(crate) fn aimed_at(
        &self,
        t: usize,
        sliders: u128,
    ) -> impl Iterator<Item = (usize, usize)> + '_ {
        let line = &LINE[CELL_SQUARE[t] as usize];
        let mut rest = sliders;
        std::iter::from_fn(move || {
            while rest != 0 {
                let s = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let d = line[s] as usize;
                if d == NO_LINE as usize {
                    continue;
                }
                let c = BOARD_CELLS[s] as usize;
                if SLIDE[self.cells[ix(c)] as usize] & (1 << opposite(d)) != 0 {
                    return Some((c, d));
                }
            }
            None
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cached_views_agree(b: &Board) {
        let mut fresh = Board::empty();
        for &c in &BOARD_CELLS {
            let p = b.at(c as usize);
            if p != EMPTY {
                fresh.put(c as usize, p);
            }
        }
        assert!(fresh == *b);
    }

    /// The blocked steps are exactly those onto the wall or an own piece. By hand, on an empty
    /// board: from 1a every step with a file or rank below 1 (directions 0–3 and 5, knight
    /// jumps 8–10 in `DIR`'s order: (−1,−1) (−1,0) (−1,+1) (0,−1) (0,+1) (+1,−1) (+1,0)
    /// (+1,+1), then (−1,−2) (−1,+2) (+1,−2) (+1,+2)); from 9i every step with a file or rank
    /// above 9 (2, 4–7, 9–11); none from 5e. Then on the start position, every cell against the
    /// definition, for both sides.
    #[test]
    fn blocked_steps_are_the_walls_and_own_pieces() {
        let sq = |s| cell(Square::from_usi(s).unwrap());
        let b = Board::empty();
        for color in [Color::Black, Color::White] {
            assert_eq!(b.blocked_steps(color, sq("1a")), 0b0111_0010_1111);
            assert_eq!(b.blocked_steps(color, sq("9i")), 0b1110_1111_0100);
            assert_eq!(b.blocked_steps(color, sq("5e")), 0);
        }
        let start = crate::Position::startpos();
        let b = &start.board;
        for color in [Color::Black, Color::White] {
            for &c in &BOARD_CELLS {
                let c = c as usize;
                for (d, &delta) in DIR.iter().enumerate() {
                    let t = b.at((c as isize + delta) as usize);
                    let blocked = t == WALL || OWNER[t as usize] == color as u8;
                    assert_eq!(b.blocked_steps(color, c) >> d & 1 == 1, blocked, "{c} {d}");
                }
            }
        }
        // From 8h (Black's bishop), the step (0,−1) lands on 8g, Black's pawn: blocked for
        // Black, not for White.
        assert_ne!(b.blocked_steps(Color::Black, sq("8h")) & 1 << 3, 0);
        assert_eq!(b.blocked_steps(Color::White, sq("8h")) & 1 << 3, 0);
    }

    #[test]
    fn primitives_keep_the_caches() {
        let sq = |s| cell(Square::from_usi(s).unwrap());
        let mut b = Board::empty();
        let rook = code(Piece::new(Color::Black, PieceType::Rook));
        let pawn = code(Piece::new(Color::White, PieceType::Pawn));
        let king = code(Piece::new(Color::White, PieceType::King));
        b.put(sq("2h"), rook);
        b.put(sq("5c"), pawn);
        b.put(sq("5a"), king);
        assert_eq!(b.pawn_files(Color::White), 1 << 5);
        assert_eq!(b.king(Color::White), sq("5a"));
        b.move_piece(sq("2h"), sq("2c"));
        b.move_piece(sq("5c"), sq("5d"));
        cached_views_agree(&b);
        b.replace(sq("2c"), crate::mailbox::PROMOTED[rook as usize]);
        b.remove(sq("5d"));
        assert_eq!(b.pawn_files(Color::White), 0);
        assert!(b.attacked_by(sq("5c"), Color::Black, NO_CELL));
        assert!(!b.attacked_by(sq("5b"), Color::Black, NO_CELL));
        cached_views_agree(&b);
    }

    /// The slider sets hold exactly the pieces that slide, by the lines they slide along: in
    /// the start position Black's lances on 9i and 1i and rook on 2h slide along files or
    /// ranks, its bishop on 8h along diagonals; a promoted rook (dragon) still slides only
    /// along files and ranks, a horse only along diagonals; golds, kings and pawns do not.
    #[test]
    fn slider_sets_hold_the_sliding_pieces_by_line() {
        let bits = |squares: &[&str]| {
            squares
                .iter()
                .map(|s| cell_bit(cell(Square::from_usi(s).unwrap())))
                .fold(0, |a, b| a | b)
        };
        let start = crate::Position::startpos();
        let b = &start.board;
        assert_eq!(
            b.sliders_by_line(Color::Black),
            [bits(&["9i", "1i", "2h"]), bits(&["8h"])]
        );
        assert_eq!(
            b.sliders_by_line(Color::White),
            [bits(&["9a", "1a", "8b"]), bits(&["2b"])]
        );
        assert_eq!(b.sliders(Color::Black), bits(&["9i", "1i", "2h", "8h"]));
        let mut b = Board::empty();
        let black = |kind| code(Piece::new(Color::Black, kind));
        b.put(
            cell(Square::from_usi("5e").unwrap()),
            black(PieceType::Dragon),
        );
        b.put(
            cell(Square::from_usi("4e").unwrap()),
            black(PieceType::Horse),
        );
        b.put(
            cell(Square::from_usi("3e").unwrap()),
            black(PieceType::Gold),
        );
        b.put(
            cell(Square::from_usi("2e").unwrap()),
            black(PieceType::King),
        );
        assert_eq!(
            b.sliders_by_line(Color::Black),
            [bits(&["5e"]), bits(&["4e"])]
        );
    }
}
