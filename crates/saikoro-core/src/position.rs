//! Positions (局面): board, hands, side to move, with make/unmake and attack queries.

use crate::board::Board;
use crate::mailbox;
use crate::mailbox::{cell, code, square, NO_CELL, PROMOTED, UNPROMOTED};
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
                write!(f, "{color} has {count} kings (exactly one is needed)")
            }
            PositionError::TooManyPieces { kind, count } => write!(
                f,
                "{count} pieces of kind {} (a set has {})",
                kind.sfen_letter(),
                kind.set_count()
            ),
            PositionError::Nifu { color, file } => {
                write!(f, "{color} has two unpromoted pawns on file {file} (nifu)")
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
                // A second king is reported below, once the board is set.
                king_count[piece.color.index()] += 1;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(usi: &str) -> Move {
        Move::from_usi(usi).unwrap()
    }

    fn sq(usi: &str) -> Square {
        Square::from_usi(usi).unwrap()
    }

    /// ```text
    ///   9 8 7 6 5 4 3 2 1
    ///  . . . . k . . . .  a
    ///  . . . . . P . . .  b
    ///  . . . . . . . . .  c
    ///  S . . . . . . . .  d
    ///  . . . . . . . . .  e
    ///  . . . . . . . . .  f
    ///  . . . . . . . . .  g
    ///  . . . . p . . . .  h
    ///  . . . . K . . . .  i
    /// Black to move, hands: -
    /// ```
    ///
    /// Each king takes the piece next to it (5i5h, 5a4b), then the silver promotes on 9c. The
    /// kings stand where they moved, a promotion elsewhere leaves them, and taking the moves
    /// back puts them home.
    #[test]
    fn kings_are_found_after_captures_and_promotions() {
        let start = Position::from_sfen("4k4/5P3/9/S8/9/9/9/4p4/4K4 b - 1").unwrap();
        let kings = |p: &Position| (p.king_square(Color::Black), p.king_square(Color::White));
        assert_eq!(kings(&start), (Some(sq("5i")), Some(sq("5a"))));
        let mut p = start.clone();
        let mut undos = Vec::new();
        for m in ["5i5h", "5a4b", "9d9c+"] {
            undos.push((mv(m), p.do_move(mv(m))));
        }
        assert_eq!(kings(&p), (Some(sq("5h")), Some(sq("4b"))));
        assert_eq!(p.to_sfen(), "9/5k3/+S8/9/9/9/9/4K4/9 w Pp 4");
        for (m, u) in undos.into_iter().rev() {
            p.undo_move(m, u);
        }
        assert_eq!(kings(&p), kings(&start));
        // A tsume-style position without a Black king.
        let kingless = Position::from_sfen_lenient("4k4/9/9/9/9/9/9/9/9 b G 1").unwrap();
        assert_eq!(kings(&kingless), (None, Some(sq("5a"))));
    }

    /// Every legal move of positions full of captures, promotions and drops, played and taken
    /// back, leaves the position exactly as it was (board, hands, side, move number and key);
    /// after the move the move number is one more and the side to move the other one.
    #[test]
    fn undo_move_restores_the_position() {
        for sfen in [
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        ] {
            let start = Position::from_sfen(sfen).unwrap();
            for m in start.legal_moves().iter().copied() {
                let mut p = start.clone();
                let undo = p.do_move(m);
                assert_eq!(p.ply(), start.ply() + 1, "{m} in {sfen}");
                assert_eq!(p.side_to_move(), !start.side_to_move());
                p.undo_move(m, undo);
                assert_eq!(p, start, "{m} in {sfen}");
                assert_eq!(p.key(), start.key(), "{m} in {sfen}");
            }
        }
    }

    /// A position reached by moves is the position set up from its SFEN, key included. Here
    /// the Black rook takes the pawn on 5d and goes back while the White king steps 1a2a1a, so
    /// Black holds a pawn; then the pawn is dropped on 5d: the hand goes from none to one and
    /// back.
    #[test]
    fn positions_reached_by_moves_equal_their_sfen() {
        let mut p = Position::from_sfen("8k/9/9/4p4/4R4/9/9/9/4K4 b - 1").unwrap();
        for m in ["5e5d", "1a2a", "5d5e", "2a1a"] {
            p.do_move(mv(m));
        }
        let holding = Position::from_sfen("8k/9/9/9/4R4/9/9/9/4K4 b P 5").unwrap();
        assert_eq!(p, holding);
        assert_eq!(p.key(), holding.key());
        p.do_move(mv("P*5d"));
        let dropped = Position::from_sfen("8k/9/9/4P4/4R4/9/9/9/4K4 w - 6").unwrap();
        assert_eq!(p, dropped);
        assert_eq!(p.key(), dropped.key());
    }

    /// The repetition rule compares board, hands and side to move: positions that differ in
    /// any of them have different keys, and the move number does not count.
    #[test]
    fn keys_tell_hands_and_side_to_move_apart() {
        let key = |s: &str| Position::from_sfen(s).unwrap().key();
        let keys = [
            key("4k4/9/9/9/9/9/9/9/4K4 b - 1"),
            key("4k4/9/9/9/9/9/9/9/4K4 w - 1"),
            key("4k4/9/9/9/9/9/9/9/4K4 b P 1"),
            key("4k4/9/9/9/9/9/9/9/4K4 b 2P 1"),
            key("4k4/9/9/9/9/9/9/9/4K4 b p 1"),
            key("4k4/9/9/9/9/9/9/9/4K4 b L 1"),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(keys[2], key("4k4/9/9/9/9/9/9/9/4K4 b P 80"));
    }

    /// Zobrist keys are the exclusive or of independent parts, which is what lets make and
    /// unmake update them piece by piece: the side to move changes every key by the same
    /// amount, and so does a given hand, whatever the board. Checked on the positions of
    /// `positions/random-games.sfen` (each also with its hands moved onto a board of two kings).
    #[test]
    fn keys_are_made_of_independent_parts() {
        let key = |s: &str| Position::from_sfen(s).ok().map(|p| p.key());
        let kings = "4k4/9/9/9/9/9/9/9/4K4";
        let (mut side_changes, mut hand_changes) = (Vec::new(), Vec::new());
        for line in include_str!("../positions/random-games.sfen").lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if line.starts_with('#') || fields.len() != 4 {
                continue;
            }
            let (board, hands) = (fields[0], fields[2]);
            if let (Some(b), Some(w)) = (
                key(&format!("{board} b {hands} 1")),
                key(&format!("{board} w {hands} 1")),
            ) {
                side_changes.push(b ^ w);
            }
            if hands == "-" {
                continue;
            }
            let change = |board: &str| {
                Some(key(&format!("{board} b {hands} 1"))? ^ key(&format!("{board} b - 1"))?)
            };
            if let (Some(here), Some(there)) = (change(board), change(kings)) {
                hand_changes.push((here, there));
            }
        }
        assert!(side_changes.len() > 100 && hand_changes.len() > 100);
        assert!(side_changes.iter().all(|&d| d == side_changes[0] && d != 0));
        assert!(hand_changes
            .iter()
            .all(|&(here, there)| here == there && here != 0));
    }

    /// Debug builds refuse a move that is not even shaped like a legal one: here a move from an
    /// empty square of the start position.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "no own piece on 5e")]
    fn debug_builds_refuse_a_misshapen_move() {
        Position::startpos().do_move(mv("5e5d"));
    }
}
