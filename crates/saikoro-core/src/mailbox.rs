//! The padded mailbox layout: cell codes, cell indices, directions, and the per-code movement
//! and promotion tables, all derived at compile time from the rules in `rules.rs`.
//!
//! The 9×9 board sits inside an 11-column × 13-row array of cells (files 0 and 10, and two rows
//! above and below, are walls), so every step or knight jump from a board square lands inside
//! the array and a slide stops at the first non-empty cell without any bounds test. The cell
//! of the square at `file`, `rank` is `file * 13 + rank + 1`; cells, like squares, grow with the
//! file first and the rank second, so sorting cells sorts squares.

use crate::rules;
use crate::rules::Promotion;
use crate::{Color, Piece, PieceType, Square};

/// Number of cells in the padded board, rounded up to a power of two: a cell index masked with
/// `CELLS - 1` (see [`ix`]) needs no bounds check; the cells past the padded board are walls.
pub(crate) const CELLS: usize = 256;
/// Number of cell codes, likewise: tables indexed by a `u8` code need no bounds check.
pub(crate) const CODES: usize = 256;

/// A cell index as an index into a per-cell table (a no-op on valid cells).
#[inline]
pub(crate) const fn ix(c: usize) -> usize {
    c & (CELLS - 1)
}
/// The code of an empty cell.
pub(crate) const EMPTY: u8 = 0;
/// The code of a wall cell (outside the board).
pub(crate) const WALL: u8 = 32;
/// "No cell" (a side without a king); cell 0 is a wall.
pub(crate) const NO_CELL: usize = 0;

/// Cell index step of a `(file, rank)` offset.
const fn delta(df: i8, dr: i8) -> isize {
    df as isize * 13 + dr as isize
}

/// The eight directions in ascending order of their cell step, then the four knight jumps
/// (Black's two and White's two), also ascending. A direction `d` < 8 and `7 - d` are
/// opposite; `min(d, 7 - d)` is the line (axis) they share.
pub(crate) const DIR: [isize; 12] = [-14, -13, -12, -1, 1, 12, 13, 14, -15, -11, 11, 15];

/// The step of direction `d` (any `d` < 12), as an index that needs no bounds check.
#[inline]
pub(crate) const fn step(d: usize) -> isize {
    const PADDED: [isize; 16] = {
        let mut t = [0; 16];
        let mut d = 0;
        while d < 12 {
            t[d] = DIR[d];
            d += 1;
        }
        t
    };
    PADDED[d & 15]
}

/// The opposite direction of each of the twelve.
pub(crate) const fn opposite(d: usize) -> usize {
    if d < 8 {
        7 - d
    } else {
        19 - d
    }
}

/// The index in [`DIR`] of a `(file, rank)` offset.
const fn dir_index(df: i8, dr: i8) -> usize {
    let step = delta(df, dr);
    let mut d = 0;
    while DIR[d] != step {
        d += 1;
    }
    d
}

/// Direction bits of a list of offsets seen from Black, turned for `color`.
const fn dir_bits(offsets: &[(i8, i8)], color: Color) -> u16 {
    let mut bits = 0u16;
    let mut i = 0;
    while i < offsets.len() {
        let d = dir_index(offsets[i].0, offsets[i].1);
        bits |= 1
            << match color {
                Color::Black => d,
                Color::White => opposite(d),
            };
        i += 1;
    }
    bits
}

/// The code of a piece in a cell: the kind's discriminant, plus 16 for White.
#[inline]
pub(crate) const fn code(p: Piece) -> u8 {
    p.kind as u8 | ((p.color as u8) << 4)
}

/// The piece a cell code stands for, if any.
#[inline]
pub(crate) const fn piece(c: u8) -> Option<Piece> {
    PIECES[c as usize]
}

/// The kind of an occupied cell's code.
#[inline]
pub(crate) fn kind(c: u8) -> PieceType {
    match PIECES[c as usize] {
        Some(p) => p.kind,
        None => unreachable!("code {c} holds no piece"),
    }
}

const PIECES: [Option<Piece>; CODES] = {
    let mut t = [None; CODES];
    let mut k = 0;
    while k < 14 {
        let kind = PieceType::ALL[k];
        t[code(Piece::new(Color::Black, kind)) as usize] = Some(Piece::new(Color::Black, kind));
        t[code(Piece::new(Color::White, kind)) as usize] = Some(Piece::new(Color::White, kind));
        k += 1;
    }
    t
};

/// Builds a table over the 64 cell codes from a function of the piece.
macro_rules! per_code {
    ($ty:ty, $default:expr, |$p:ident| $value:expr) => {{
        let mut t: [$ty; CODES] = [$default; CODES];
        let mut c = 0;
        while c < CODES {
            if let Some($p) = PIECES[c] {
                t[c] = $value;
            }
            c += 1;
        }
        t
    }};
}

/// Owner of a cell code: 0 Black, 1 White, 2 empty, 3 wall.
pub(crate) const OWNER: [u8; CODES] = {
    let mut t = per_code!(u8, 3, |p| p.color as u8);
    t[EMPTY as usize] = 2;
    t
};

/// `LANDS[side to move][code]`: whether a piece may end its move on a cell holding this code
/// (empty, or an enemy piece).
pub(crate) static LANDS: [[bool; CODES]; 2] = {
    let mut t = [[false; CODES]; 2];
    let mut c = 0;
    while c < CODES {
        t[0][c] = OWNER[c] == 2 || OWNER[c] == 1;
        t[1][c] = OWNER[c] == 2 || OWNER[c] == 0;
        c += 1;
    }
    t
};

/// Step directions (bits over [`DIR`]) of every cell code.
pub(crate) const STEP: [u16; CODES] =
    per_code!(u16, 0, |p| dir_bits(rules::steps(p.kind), p.color));

/// Slide directions (bits over the first eight [`DIR`]s) of every cell code.
pub(crate) const SLIDE: [u8; CODES] =
    per_code!(u8, 0, |p| dir_bits(rules::slides(p.kind), p.color) as u8);

/// The code after promotion (unchanged for kinds that cannot promote).
pub(crate) const PROMOTED: [u8; CODES] = per_code!(u8, 0, |p| match p.kind.promote() {
    Some(k) => code(Piece::new(p.color, k)),
    None => code(p),
});

/// The code before promotion (unchanged for unpromoted kinds).
pub(crate) const UNPROMOTED: [u8; CODES] =
    per_code!(u8, 0, |p| code(Piece::new(p.color, p.kind.unpromote())));

/// `MOVE_CHOICES[code][from in zone][relative rank of to]`: bit 0 set when the plain move is
/// allowed, bit 1 when the promotion is (see [`rules::promotion`]).
pub(crate) static MOVE_CHOICES: [[[u8; 10]; 2]; CODES] = {
    let mut t = [[[0u8; 10]; 2]; CODES];
    let mut c = 0;
    while c < CODES {
        if let Some(p) = PIECES[c] {
            let mut fz = 0;
            while fz < 2 {
                // A representative rank for "in the zone" (1) and "outside" (9).
                let from_rank = if fz == 1 { 1 } else { 9 };
                let mut to = 1;
                while to <= 9 {
                    t[c][fz][to] = match rules::promotion(p.kind, from_rank, to as u8) {
                        Promotion::Never => 1,
                        Promotion::Optional => 3,
                        Promotion::Forced => 2,
                    };
                    to += 1;
                }
                fz += 1;
            }
        }
        c += 1;
    }
    t
};

/// Cell index of a square.
#[inline]
pub(crate) const fn cell(sq: Square) -> usize {
    BOARD_CELLS[sq.index()] as usize
}

/// File (1–9) of a board cell.
#[inline]
pub(crate) const fn cell_file(c: usize) -> u32 {
    (c / 13) as u32
}

/// The square of a board cell (which must be on the board).
#[inline]
pub(crate) fn square(c: usize) -> Square {
    Square::from_index_unchecked(CELL_SQUARE[ix(c)])
}

/// The square index of every cell; 255 on walls.
pub(crate) const CELL_SQUARE: [u8; CELLS] = {
    let mut t = [255u8; CELLS];
    let mut i = 0;
    while i < 81 {
        t[BOARD_CELLS[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The square index of every cell, with 0 standing in on walls: for moves that are written but
/// not kept (see `MoveWriter::push_if`), which may point off the board.
pub(crate) const CELL_SQUARE_OR_0: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < 81 {
        t[BOARD_CELLS[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The 81 board cells in square-index order.
pub(crate) const BOARD_CELLS: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = ((i / 9 + 1) * 13 + i % 9 + 2) as u8;
        i += 1;
    }
    t
};

/// Relative rank (1 = last rank for that colour) of every cell, per colour; 0 on walls.
pub(crate) const REL_RANK: [[u8; CELLS]; 2] = {
    let mut t = [[0u8; CELLS]; 2];
    let mut i = 0;
    while i < 81 {
        let c = BOARD_CELLS[i] as usize;
        let rank = (i % 9 + 1) as u8;
        t[0][c] = rank;
        t[1][c] = 10 - rank;
        i += 1;
    }
    t
};

/// The bit of a board cell's square in a square set.
#[inline]
pub(crate) const fn cell_bit(c: usize) -> u128 {
    1 << CELL_SQUARE[ix(c)]
}

/// No line between two squares.
pub(crate) const NO_LINE: u8 = 255;

/// `LINE[a][b]`: the direction (0–7) from square `a` toward square `b` when they share a
/// file, rank or diagonal, else [`NO_LINE`].
pub(crate) static LINE: [[u8; 81]; 81] = {
    let mut t = [[NO_LINE; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let (fa, ra) = ((a / 9) as i32, (a % 9) as i32);
        let mut b = 0;
        while b < 81 {
            let (df, dr) = ((b / 9) as i32 - fa, (b % 9) as i32 - ra);
            if a != b && (df == 0 || dr == 0 || df == dr || df == -dr) {
                t[a][b] = dir_index(df.signum() as i8, dr.signum() as i8) as u8;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// Per colour, the cell steps of its two knight jumps.
pub(crate) const KNIGHT_STEPS: [[isize; 2]; 2] = {
    let j = rules::KNIGHT_JUMPS;
    [
        [delta(j[0].0, j[0].1), delta(j[1].0, j[1].1)],
        [-delta(j[0].0, j[0].1), -delta(j[1].0, j[1].1)],
    ]
};

/// The squares (as a square set) on which a piece of `kind`, dropped by each colour, could still
/// move: all but its dead ranks (see [`rules::dead_ranks`]).
pub(crate) const fn live_squares(color: Color, kind: PieceType) -> u128 {
    let mut t = 0u128;
    let mut i = 0;
    while i < 81 {
        let rank = (i % 9 + 1) as u8;
        let rel = match color {
            Color::Black => rank,
            Color::White => 10 - rank,
        };
        if !rules::is_dead(kind, rel) {
            t |= 1 << i;
        }
        i += 1;
    }
    t
}

/// The squares of each file (index 1–9).
pub(crate) const FILE_SQUARES: [u128; 10] = {
    let mut t = [0u128; 10];
    let mut f = 1;
    while f <= 9 {
        t[f] = 0x1ff << ((f - 1) * 9);
        f += 1;
    }
    t
};

/// All 81 squares as a square set.
pub(crate) const ALL_SQUARES: u128 = (1 << 81) - 1;

/// Each colour's promotion zone, as a square set.
pub(crate) const ZONE: [u128; 2] = {
    let mut t = [0u128; 2];
    let mut i = 0;
    while i < 81 {
        let rank = (i % 9 + 1) as u8;
        if crate::rules::in_promotion_zone(rank) {
            t[0] |= 1 << i;
        }
        if crate::rules::in_promotion_zone(10 - rank) {
            t[1] |= 1 << i;
        }
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    /// A dropped piece may stand anywhere but where it could never move again: pawns and
    /// lances not on the last rank (72 squares), knights not on the last two (63), everything
    /// else anywhere (81); never off the board.
    #[test]
    fn live_squares_leave_out_the_dead_ranks() {
        for color in Color::ALL {
            for kind in PieceType::HAND_SFEN_ORDER {
                let live = live_squares(color, kind);
                let expected = match kind {
                    PieceType::Pawn | PieceType::Lance => 72,
                    PieceType::Knight => 63,
                    _ => 81,
                };
                assert_eq!(live & !ALL_SQUARES, 0, "{color:?} {kind:?}");
                assert_eq!(live.count_ones(), expected, "{color:?} {kind:?}");
            }
            let last = match color {
                Color::Black => Square::from_usi("5a").unwrap(),
                Color::White => Square::from_usi("5i").unwrap(),
            };
            let bit = 1u128 << last.index();
            assert_eq!(live_squares(color, PieceType::Pawn) & bit, 0);
            assert_ne!(live_squares(color, PieceType::Gold) & bit, 0);
        }
    }

    #[test]
    fn cells_round_trip() {
        for sq in Square::all() {
            let c = cell(sq);
            assert_eq!(square(c), sq);
            assert_eq!(cell_file(c), sq.file() as u32);
        }
    }

    #[test]
    fn directions_are_opposite_pairs() {
        for d in 0..12 {
            assert_eq!(DIR[d], -DIR[opposite(d)]);
            assert_eq!(opposite(opposite(d)), d);
        }
    }

    #[test]
    fn codes_round_trip() {
        for c in Color::ALL {
            for k in PieceType::ALL {
                let p = Piece::new(c, k);
                assert_eq!(piece(code(p)), Some(p));
            }
        }
        assert_eq!(piece(EMPTY), None);
        assert_eq!(piece(WALL), None);
    }

    fn names(from: &str, mask: u16) -> Vec<String> {
        let from = cell(Square::from_usi(from).unwrap());
        let mut v: Vec<String> = (0..12)
            .filter(|d| mask & (1 << d) != 0)
            .map(|d| square((from as isize + DIR[d]) as usize).to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn gold_silver_and_knight_steps() {
        let b = |k| code(Piece::new(Color::Black, k)) as usize;
        let w = |k| code(Piece::new(Color::White, k)) as usize;
        assert_eq!(
            names("5e", STEP[b(PieceType::Gold)]),
            ["4d", "4e", "5d", "5f", "6d", "6e"]
        );
        assert_eq!(
            names("5e", STEP[b(PieceType::Silver)]),
            ["4d", "4f", "5d", "6d", "6f"]
        );
        assert_eq!(
            names("5e", STEP[w(PieceType::Silver)]),
            ["4d", "4f", "5f", "6d", "6f"]
        );
        assert_eq!(names("5e", STEP[b(PieceType::Knight)]), ["4c", "6c"]);
        assert_eq!(names("5e", STEP[w(PieceType::Knight)]), ["4g", "6g"]);
        assert_eq!(names("5e", SLIDE[b(PieceType::Lance)] as u16), ["5d"]);
        assert_eq!(names("5e", SLIDE[w(PieceType::Lance)] as u16), ["5f"]);
    }

    #[test]
    fn promotion_table_follows_the_rule() {
        let p = code(Piece::new(Color::Black, PieceType::Pawn)) as usize;
        assert_eq!(MOVE_CHOICES[p][0][4], 1);
        assert_eq!(MOVE_CHOICES[p][0][3], 3);
        assert_eq!(MOVE_CHOICES[p][1][1], 2);
        let g = code(Piece::new(Color::White, PieceType::Gold)) as usize;
        assert_eq!(MOVE_CHOICES[g][1][1], 1);
    }

    #[test]
    fn lines_join_aligned_squares() {
        let sq = |s| Square::from_usi(s).unwrap().index();
        assert_eq!(DIR[LINE[sq("5e")][sq("5a")] as usize], -1);
        assert_eq!(DIR[LINE[sq("5e")][sq("1a")] as usize], -14);
        assert_eq!(LINE[sq("5e")][sq("4c")], NO_LINE);
    }
}
