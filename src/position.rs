//! Positions (局面): board, hands, side to move, with make/unmake and attack queries.

use crate::board::Board;
use crate::mailbox::{self, cell, code, square, NO_CELL, PROMOTED, UNPROMOTED};
use crate::rules;
use crate::zobrist::ZOBRIST;
use crate::{ByColor, Color, Hand, Move, Piece, PieceType, Square};
use std::fmt;

/// A position that obeys the rules: what a game can reach.
///
/// Build one with [`Position::startpos`], [`Position::from_sfen`] or [`Position::from_setup`].
/// [`Position::legal_moves`] lists exactly the rules-legal moves; [`Position::do_move`] plays one.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: Board,
    hands: ByColor<Hand>,
    /// The Zobrist key of both hands.
    hand_key: u64,
    side: Color,
    ply: u32,
}

/// What [`Position::do_move`] returns, to give to [`Position::undo_move`].
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The code of the captured piece, or `EMPTY`.
    captured: u8,
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
        Position {
            board: Board::empty(),
            hands: ByColor::default(),
            hand_key: 0,
            side: Color::Black,
            ply: 1,
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
            totals[piece.kind.unpromote() as usize] += 1;
            if rules::is_dead(piece.kind, sq.relative_rank(piece.color)) {
                return Err(PositionError::DeadPiece { square: sq, piece });
            }
            if piece.kind == PieceType::Pawn
                && pos.board.pawn_files(piece.color) & (1 << sq.file()) != 0
            {
                return Err(PositionError::Nifu {
                    color: piece.color,
                    file: sq.file(),
                });
            }
            if piece.kind == PieceType::King {
                king_count[piece.color.index()] += 1;
                if king_count[piece.color.index()] > 1 {
                    continue; // reported below; the board caches one king per side
                }
            }
            pos.board.put(cell(sq), code(piece));
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
        for color in Color::ALL {
            for (kind, n) in setup.hands[color].iter() {
                for _ in 0..n {
                    pos.add_to_hand(color, kind);
                }
            }
        }
        pos.side = setup.side;
        pos.ply = setup.ply.max(1);
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

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
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
        self.board.key() ^ self.hand_key ^ ZOBRIST.side(self.side)
    }

    /// Where `color`'s king stands, if it has one.
    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        match self.board.king(color) {
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
        let k = self.board.king(color);
        k != NO_CELL && self.board.attacked_by(k, !color, NO_CELL)
    }

    fn add_to_hand(&mut self, color: Color, kind: PieceType) {
        let n = self.hands[color].count(kind);
        self.hand_key ^= ZOBRIST.hand(color, kind, n) ^ ZOBRIST.hand(color, kind, n + 1);
        self.hands[color].add(kind);
    }

    fn take_from_hand(&mut self, color: Color, kind: PieceType) {
        let n = self.hands[color].count(kind);
        debug_assert!(n > 0, "no {kind:?} in hand");
        self.hand_key ^= ZOBRIST.hand(color, kind, n) ^ ZOBRIST.hand(color, kind, n - 1);
        self.hands[color].take(kind);
    }

    /// Plays `mv`, which must be legal in this position (see [`Position::is_legal`]); returns
    /// what [`Position::undo_move`] needs to take it back. Debug builds check the move's shape
    /// (own piece, reachable, promotion and drop rules) and that the mover's king is safe after
    /// it.
    pub fn do_move(&mut self, mv: Move) -> Undo {
        #[cfg(debug_assertions)]
        self.debug_check_move(mv);
        let us = self.side;
        let captured = match mv {
            Move::Normal { from, to, promote } => {
                let (f, t) = (cell(from), cell(to));
                let captured = self.board.at(t);
                if captured != mailbox::EMPTY {
                    self.board.remove(t);
                    self.add_to_hand(us, mailbox::kind(captured).unpromote());
                }
                self.board.move_piece(f, t);
                if promote {
                    self.board.replace(t, PROMOTED[self.board.at(t) as usize]);
                }
                captured
            }
            Move::Drop { kind, to } => {
                self.take_from_hand(us, kind);
                self.board.put(cell(to), code(Piece::new(us, kind)));
                mailbox::EMPTY
            }
        };
        self.side = !us;
        self.ply += 1;
        debug_assert!(!self.is_in_check(us), "{mv} leaves the king in check");
        Undo { captured }
    }

    /// Takes back `mv`, which must be the last move played, with the [`Undo`] it returned.
    pub fn undo_move(&mut self, mv: Move, undo: Undo) {
        let us = !self.side;
        match mv {
            Move::Normal { from, to, promote } => {
                let (f, t) = (cell(from), cell(to));
                if promote {
                    self.board.replace(t, UNPROMOTED[self.board.at(t) as usize]);
                }
                self.board.move_piece(t, f);
                if undo.captured != mailbox::EMPTY {
                    self.board.put(t, undo.captured);
                    self.take_from_hand(us, mailbox::kind(undo.captured).unpromote());
                }
            }
            Move::Drop { kind, to } => {
                self.board.remove(cell(to));
                self.add_to_hand(us, kind);
            }
        }
        self.side = us;
        self.ply -= 1;
    }

    /// Debug builds: panics on a move that is not even shaped like a legal one.
    #[cfg(debug_assertions)]
    fn debug_check_move(&self, mv: Move) {
        let us = self.side;
        match mv {
            Move::Normal { from, to, promote } => {
                let p = self.piece_at(from);
                assert!(
                    p.is_some_and(|p| p.color == us),
                    "{mv}: no own piece on {from} in {self}"
                );
                let kind = p.map_or(PieceType::Pawn, |p| p.kind);
                assert!(
                    self.piece_at(to)
                        .is_none_or(|q| q.color != us && q.kind != PieceType::King),
                    "{mv}: captures an own piece or a king in {self}"
                );
                assert!(
                    self.reaches(cell(from), cell(to)),
                    "{mv}: unreachable in {self}"
                );
                let rule = rules::promotion(kind, from.relative_rank(us), to.relative_rank(us));
                let ok = match rule {
                    rules::Promotion::Never => !promote,
                    rules::Promotion::Optional => true,
                    rules::Promotion::Forced => promote,
                };
                assert!(ok, "{mv}: breaks the promotion rule in {self}");
            }
            Move::Drop { kind, to } => {
                assert!(
                    self.hands[us].count(kind) > 0 && self.piece_at(to).is_none(),
                    "{mv}: not in hand or square occupied in {self}"
                );
                assert!(
                    !rules::is_dead(kind, to.relative_rank(us)),
                    "{mv}: dead drop"
                );
                assert!(
                    kind != PieceType::Pawn || self.board.pawn_files(us) & (1 << to.file()) == 0,
                    "{mv}: nifu in {self}"
                );
            }
        }
    }

    /// The position after `mv` (which must be legal), leaving this one unchanged.
    pub fn play(&self, mv: Move) -> Position {
        let mut p = self.clone();
        p.do_move(mv);
        p
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
