//! Positions (局面): board, hands, side to move, with make/unmake and attack queries.

use crate::board::{
    bit, cell, cell_file, code, kind_of, square, BOARD_CELLS, CELLS, DIR, EMPTY, NO_CELL, OPPOSITE,
    OWNER, SLIDE, STEP, WALL, ZOBRIST,
};
use crate::{ByColor, Color, Hand, Move, Piece, PieceType, Square};
use std::fmt;

/// A position that obeys the rules: what a game can reach.
///
/// Build one with [`Position::startpos`], [`Position::from_sfen`] or [`Position::from_setup`].
/// [`Position::legal_moves`] lists exactly the rules-legal moves; [`Position::do_move`] plays one.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) cells: [u8; CELLS],
    pub(crate) hands: ByColor<Hand>,
    pub(crate) side: Color,
    pub(crate) ply: u32,
    /// Cell of each king, or [`NO_CELL`].
    pub(crate) kings: [usize; 2],
    pub(crate) key: u64,
    /// Bit `f` set when the colour has an unpromoted pawn on file `f` (for nifu).
    pub(crate) pawn_files: [u16; 2],
    /// The squares each colour occupies (bit `i` = square index `i`), to visit pieces and
    /// empty squares in square order without scanning the board.
    pub(crate) occupied: [u128; 2],
    /// Per colour, how many lances, bishops/horses and rooks/dragons it has on the board: the
    /// attack test walks only the lines such pieces could attack along.
    pub(crate) sliders: [[u8; 4]; 2],
}

/// `ADJACENT_ATTACK[by][d][code]`: a piece with this code, owned by `by`, standing next to a
/// target in direction `d` (seen from the target), attacks the target.
static ADJACENT_ATTACK: [[[bool; 64]; 8]; 2] = attack_table(true);

/// `DISTANT_ATTACK[by][d][code]`: the same for a piece further away on an open line, which only
/// a slider can attack along.
static DISTANT_ATTACK: [[[bool; 64]; 8]; 2] = attack_table(false);

const fn attack_table(adjacent: bool) -> [[[bool; 64]; 8]; 2] {
    let mut t = [[[false; 64]; 8]; 2];
    let mut by = 0;
    while by < 2 {
        let mut d = 0;
        while d < 8 {
            let toward = 1u16 << OPPOSITE[d];
            let mut c = 0;
            while c < 64 {
                let moves = if adjacent {
                    STEP[c] | SLIDE[c] as u16
                } else {
                    SLIDE[c] as u16
                };
                t[by][d][c] = OWNER[c] as usize == by && moves & toward != 0;
                c += 1;
            }
            d += 1;
        }
        by += 1;
    }
    t
}

/// Slider class of every cell code: 1 lance, 2 bishop or horse, 3 rook or dragon, 0 otherwise.
const SLIDER_CLASS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut c = 0;
    while c < 2 {
        let base = c * 16;
        t[base + PieceType::Lance as usize] = 1;
        t[base + PieceType::Bishop as usize] = 2;
        t[base + PieceType::Horse as usize] = 2;
        t[base + PieceType::Rook as usize] = 3;
        t[base + PieceType::Dragon as usize] = 3;
        c += 1;
    }
    t
};

/// What [`Position::do_move`] returns, to give to [`Position::undo_move`].
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    key: u64,
    pawn_files: [u16; 2],
}

/// The raw content of a position, with no rule checked: what an SFEN string or a CSA position
/// block describes. [`Position::from_setup`] validates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, by file-major square index.
    pub board: [Option<Piece>; 81],
    /// Pieces in hand.
    pub hands: ByColor<Hand>,
    /// Side to move.
    pub side: Color,
    /// Move number (SFEN's fourth field), 1 at the start of a game.
    pub ply: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            board: [None; 81],
            hands: ByColor::default(),
            side: Color::Black,
            ply: 1,
        }
    }
}

/// Why a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king, or more than one.
    KingCount {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// More pieces of a kind (board and hands, both sides) than a set has.
    TooManyPieces {
        /// The base kind.
        kind: PieceType,
        /// How many there are.
        count: u32,
    },
    /// Two unpromoted pawns of one side on one file (二歩).
    Nifu {
        /// The side.
        color: Color,
        /// The file (1–9).
        file: u8,
    },
    /// A piece that could never move again (行き所のない駒): pawn or lance on the last rank,
    /// knight on the last two.
    DeadPiece {
        /// Where it stands.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// The side that is not to move is in check: its king could be captured.
    OpponentInCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KingCount { color, count } => {
                write!(f, "{color:?} has {count} kings (exactly one is needed)")
            }
            PositionError::TooManyPieces { kind, count } => write!(
                f,
                "{count} pieces of kind {} (a set has {})",
                kind.sfen_letter(),
                kind.set_count()
            ),
            PositionError::Nifu { color, file } => {
                write!(
                    f,
                    "{color:?} has two unpromoted pawns on file {file} (nifu)"
                )
            }
            PositionError::DeadPiece { square, piece } => {
                write!(f, "{piece} on {square} could never move")
            }
            PositionError::OpponentInCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for PositionError {}

/// How strictly [`Position::from_setup`] checks the kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingRule {
    /// Each side has exactly one king (a game position).
    Required,
    /// Each side has at most one king (tsume problems and edited positions).
    Optional,
}

/// The standard start position (平手).
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        match Position::from_sfen(STARTPOS_SFEN) {
            Ok(p) => p,
            Err(e) => unreachable!("start position: {e}"),
        }
    }

    fn empty() -> Position {
        let mut cells = [WALL; CELLS];
        for &c in &BOARD_CELLS {
            cells[c as usize] = EMPTY;
        }
        Position {
            cells,
            hands: ByColor::default(),
            side: Color::Black,
            ply: 1,
            kings: [NO_CELL; 2],
            key: 0,
            pawn_files: [0; 2],
            occupied: [0; 2],
            sliders: [[0; 4]; 2],
        }
    }

    /// Validates a setup: kings (see [`KingRule`]), piece totals, nifu, dead pieces, and the side
    /// not to move not in check. A move number of 0 counts as 1, the first SFEN move number.
    pub fn from_setup(setup: &Setup, kings: KingRule) -> Result<Position, PositionError> {
        let mut pos = Position::empty();
        let mut totals = [0u32; 15];
        let mut king_count = [0u32; 2];
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else {
                continue;
            };
            let c = cell(sq);
            let base = piece.kind.unpromote();
            totals[base as usize] += 1;
            let rel = sq.relative_rank(piece.color);
            let dead = match piece.kind {
                PieceType::Pawn | PieceType::Lance => rel == 1,
                PieceType::Knight => rel <= 2,
                _ => false,
            };
            if dead {
                return Err(PositionError::DeadPiece { square: sq, piece });
            }
            if piece.kind == PieceType::Pawn {
                let bit = 1 << sq.file();
                if pos.pawn_files[piece.color.index()] & bit != 0 {
                    return Err(PositionError::Nifu {
                        color: piece.color,
                        file: sq.file(),
                    });
                }
                pos.pawn_files[piece.color.index()] |= bit;
            }
            if piece.kind == PieceType::King {
                king_count[piece.color.index()] += 1;
                pos.kings[piece.color.index()] = c;
            }
            pos.cells[c] = piece.code();
            pos.occupied[piece.color.index()] |= bit(sq);
            pos.sliders[piece.color.index()][SLIDER_CLASS[piece.code() as usize] as usize] += 1;
        }
        for color in Color::ALL {
            let count = king_count[color.index()];
            let ok = match kings {
                KingRule::Required => count == 1,
                KingRule::Optional => count <= 1,
            };
            if !ok {
                return Err(PositionError::KingCount { color, count });
            }
            for (kind, n) in setup.hands[color].iter() {
                totals[kind as usize] += n as u32;
            }
        }
        for kind in PieceType::ALL.into_iter().filter(|k| !k.is_promoted()) {
            let count = totals[kind as usize];
            if count > kind.set_count() as u32 {
                return Err(PositionError::TooManyPieces { kind, count });
            }
        }
        pos.hands = setup.hands;
        pos.side = setup.side;
        pos.ply = setup.ply.max(1);
        pos.key = pos.compute_key();
        if pos.is_in_check(!pos.side) {
            return Err(PositionError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// The raw content of this position.
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 81];
        for sq in Square::all() {
            board[sq.index()] = self.piece_at(sq);
        }
        Setup {
            board,
            hands: self.hands,
            side: self.side,
            ply: self.ply,
        }
    }

    fn compute_key(&self) -> u64 {
        let mut k = 0;
        for &c in &BOARD_CELLS {
            let p = self.cells[c as usize];
            if p != EMPTY {
                k ^= ZOBRIST.board[p as usize][c as usize];
            }
        }
        for color in Color::ALL {
            for (kind, n) in self.hands[color].iter() {
                k ^= ZOBRIST.hand[color.index()][kind as usize][n as usize];
            }
        }
        if self.side == Color::White {
            k ^= ZOBRIST.white_to_move;
        }
        k
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.cells[cell(sq)])
    }

    /// The pieces `color` holds in hand.
    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color]
    }

    /// The side to move (手番).
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The move number (SFEN's fourth field): 1 at the start, plus one per move played.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// A 64-bit key of board, hands and side to move (not the move number): equal positions in
    /// the sense of the repetition rule have equal keys.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Where `color`'s king stands, if it has one.
    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        match self.kings[color.index()] {
            NO_CELL => None,
            c => Some(square(c)),
        }
    }

    /// Whether the side to move is in check (王手).
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_in_check(self.side)
    }

    pub(crate) fn is_in_check(&self, color: Color) -> bool {
        let k = self.kings[color.index()];
        k != NO_CELL && self.attacked_by(k, !color, NO_CELL)
    }

    /// Whether cell `t` is attacked by a piece of `by`, treating cell `ignore` as empty (pass
    /// [`NO_CELL`] to ignore nothing). A piece standing on `t` itself does not matter.
    pub(crate) fn attacked_by(&self, t: usize, by: Color, ignore: usize) -> bool {
        let adjacent = &ADJACENT_ATTACK[by.index()];
        let mut open = 0u8; // directions whose first cell is empty (or ignored)
        for d in 0..8 {
            let s = (t as isize + DIR[d]) as usize;
            let p = self.cells[s];
            if s != ignore && adjacent[d][p as usize] {
                return true;
            }
            open |= u8::from(p == EMPTY || s == ignore) << d;
        }
        let knight = code(by, PieceType::Knight);
        let jumps = match by {
            Color::Black => [DIR[8], DIR[9]],
            Color::White => [DIR[10], DIR[11]],
        };
        if jumps
            .iter()
            .any(|&j| self.cells[(t as isize - j) as usize] == knight)
        {
            return true;
        }
        // Distant sliders, on the open lines that the enemy's sliders could use.
        let mut lines = open & self.slider_lines(by);
        let distant = &DISTANT_ATTACK[by.index()];
        while lines != 0 {
            let d = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let delta = DIR[d];
            let mut s = (t as isize + 2 * delta) as usize;
            while self.cells[s] == EMPTY || s == ignore {
                s = (s as isize + delta) as usize;
            }
            if distant[d][self.cells[s] as usize] {
                return true;
            }
        }
        false
    }

    /// The directions, seen from a target square, along which a sliding piece of `by` could
    /// attack it: all eight when it has rooks and bishops, none when it has no slider.
    #[inline]
    pub(crate) fn slider_lines(&self, by: Color) -> u8 {
        let n = &self.sliders[by.index()];
        let mut lines = 0;
        if n[3] != 0 {
            lines |= 0b0101_0101;
        }
        if n[2] != 0 {
            lines |= 0b1010_1010;
        }
        if n[1] != 0 {
            // A lance attacks forward, so it stands behind its target (as seen by its owner).
            lines |= match by {
                Color::Black => 1 << 4,
                Color::White => 1 << 0,
            };
        }
        lines
    }

    /// Plays `mv`, which must be legal in this position (see [`Position::is_legal`]); returns
    /// what [`Position::undo_move`] needs to take it back.
    pub fn do_move(&mut self, mv: Move) -> Undo {
        let us = self.side;
        let undo = Undo {
            captured: EMPTY,
            key: self.key,
            pawn_files: self.pawn_files,
        };
        let z = &ZOBRIST;
        let mut key = self.key ^ z.white_to_move;
        let captured = match mv {
            Move::Normal { from, to, promote } => {
                let (f, t) = (cell(from), cell(to));
                let p = self.cells[f];
                let cap = self.cells[t];
                self.occupied[us.index()] ^= bit(from) | bit(to);
                key ^= z.board[p as usize][f];
                self.cells[f] = EMPTY;
                if cap != EMPTY {
                    self.occupied[(!us).index()] ^= bit(to);
                    self.sliders[(!us).index()][SLIDER_CLASS[cap as usize] as usize] -= 1;
                    key ^= z.board[cap as usize][t];
                    let base = PieceType::ALL[kind_of(cap) as usize - 1].unpromote();
                    if kind_of(cap) == PieceType::Pawn as u8 {
                        self.pawn_files[(!us).index()] &= !(1 << cell_file(t));
                    }
                    let hand = &mut self.hands[us];
                    let n = hand.count(base) as usize;
                    key ^= z.hand[us.index()][base as usize][n]
                        ^ z.hand[us.index()][base as usize][n + 1];
                    hand.add(base);
                }
                let np = if promote { p + 8 } else { p };
                if promote {
                    let s = &mut self.sliders[us.index()];
                    s[SLIDER_CLASS[p as usize] as usize] -= 1;
                    s[SLIDER_CLASS[np as usize] as usize] += 1;
                }
                if promote && kind_of(p) == PieceType::Pawn as u8 {
                    self.pawn_files[us.index()] &= !(1 << cell_file(f));
                }
                self.cells[t] = np;
                key ^= z.board[np as usize][t];
                if kind_of(p) == PieceType::King as u8 {
                    self.kings[us.index()] = t;
                }
                cap
            }
            Move::Drop { kind, to } => {
                let t = cell(to);
                let p = code(us, kind);
                let hand = &mut self.hands[us];
                let n = hand.count(kind) as usize;
                key ^=
                    z.hand[us.index()][kind as usize][n] ^ z.hand[us.index()][kind as usize][n - 1];
                hand.take(kind);
                self.cells[t] = p;
                self.occupied[us.index()] |= bit(to);
                self.sliders[us.index()][SLIDER_CLASS[p as usize] as usize] += 1;
                key ^= z.board[p as usize][t];
                if kind == PieceType::Pawn {
                    self.pawn_files[us.index()] |= 1 << cell_file(t);
                }
                EMPTY
            }
        };
        self.key = key;
        self.side = !us;
        self.ply += 1;
        Undo { captured, ..undo }
    }

    /// Takes back `mv`, which must be the last move played, with the [`Undo`] it returned.
    pub fn undo_move(&mut self, mv: Move, undo: Undo) {
        let us = !self.side;
        match mv {
            Move::Normal { from, to, promote } => {
                let (f, t) = (cell(from), cell(to));
                let np = self.cells[t];
                let p = if promote { np - 8 } else { np };
                if promote {
                    let s = &mut self.sliders[us.index()];
                    s[SLIDER_CLASS[np as usize] as usize] -= 1;
                    s[SLIDER_CLASS[p as usize] as usize] += 1;
                }
                self.cells[f] = p;
                self.cells[t] = undo.captured;
                self.occupied[us.index()] ^= bit(from) | bit(to);
                if undo.captured != EMPTY {
                    self.occupied[(!us).index()] ^= bit(to);
                    self.sliders[(!us).index()][SLIDER_CLASS[undo.captured as usize] as usize] += 1;
                    let base = PieceType::ALL[kind_of(undo.captured) as usize - 1].unpromote();
                    self.hands[us].take(base);
                }
                if kind_of(p) == PieceType::King as u8 {
                    self.kings[us.index()] = f;
                }
            }
            Move::Drop { kind, to } => {
                let p = self.cells[cell(to)];
                self.sliders[us.index()][SLIDER_CLASS[p as usize] as usize] -= 1;
                self.cells[cell(to)] = EMPTY;
                self.occupied[us.index()] ^= bit(to);
                self.hands[us].add(kind);
            }
        }
        self.key = undo.key;
        self.pawn_files = undo.pawn_files;
        self.side = us;
        self.ply -= 1;
    }

    /// The position after `mv` (which must be legal), leaving this one unchanged.
    pub fn play(&self, mv: Move) -> Position {
        let mut p = self.clone();
        p.do_move(mv);
        p
    }

    /// A board diagram for humans (the `d` debug command): ranks top to bottom, files 9 to 1.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "White hand: {}\n",
            hand_text(&self.hands[Color::White])
        ));
        s.push_str("  9  8  7  6  5  4  3  2  1\n");
        for rank in 1..=9u8 {
            s.push('|');
            for file in (1..=9u8).rev() {
                let sq = Square::new(file, rank).expect("board square");
                match self.piece_at(sq) {
                    Some(p) => {
                        let t = p.to_string();
                        s.push_str(&format!("{t:>2}"));
                    }
                    None => s.push_str(" ."),
                }
                s.push(' ');
            }
            s.push_str(&format!("| {}\n", (b'a' + rank - 1) as char));
        }
        s.push_str(&format!(
            "Black hand: {}\n",
            hand_text(&self.hands[Color::Black])
        ));
        s
    }
}

fn hand_text(h: &Hand) -> String {
    if h.is_empty() {
        "-".to_string()
    } else {
        h.to_string()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
