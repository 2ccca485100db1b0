//! CSA notation (CSA 標準棋譜ファイル形式 V2.2, as used on the wire): moves ⇄ [`Move`], and
//! position blocks (`PI`, `P1`..`P9`, `P+`/`P-`, turn line) ⇄ [`Setup`]/[`Position`].
//!
//! A CSA move names the piece *after* the move (`+8822UM`), so whether it promotes is read off
//! the board; `00` as origin is a drop (`+0055KA`).

use saikoro_core::{
    ByColor, Color, Hand, IllegalMove, Move, Piece, PieceType, Position, Setup, Square,
};
use std::fmt;
use std::io::{self, Write};

/// The CSA sign of a side: `+` for Black (先手), `-` for White (後手).
pub const fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// The two-letter CSA name of a kind (`FU`, `KY`, …, `TO`, `UM`, `RY`).
pub const fn piece_name(kind: PieceType) -> &'static str {
    match kind {
        PieceType::Pawn => "FU",
        PieceType::Lance => "KY",
        PieceType::Knight => "KE",
        PieceType::Silver => "GI",
        PieceType::Bishop => "KA",
        PieceType::Rook => "HI",
        PieceType::Gold => "KI",
        PieceType::King => "OU",
        PieceType::ProPawn => "TO",
        PieceType::ProLance => "NY",
        PieceType::ProKnight => "NK",
        PieceType::ProSilver => "NG",
        PieceType::Horse => "UM",
        PieceType::Dragon => "RY",
    }
}

/// The kind a CSA two-letter name stands for.
pub fn piece_kind(name: &str) -> Option<PieceType> {
    PieceType::ALL.into_iter().find(|&k| piece_name(k) == name)
}

/// Why a CSA move text is not a move in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveError {
    /// Not `[+-]` + four digits + a piece name.
    Syntax(String),
    /// The sign is not the side to move's.
    WrongSide(String),
    /// The named piece is neither the piece on the origin square nor its promotion.
    PieceMismatch(String),
    /// Well-formed, but the rules forbid it.
    Illegal {
        /// The move text.
        text: String,
        /// Why.
        reason: IllegalMove,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(t) => write!(f, "'{t}' is not a CSA move"),
            MoveError::WrongSide(t) => write!(f, "'{t}': not that side's turn"),
            MoveError::PieceMismatch(t) => {
                write!(f, "'{t}': the piece does not match the board")
            }
            MoveError::Illegal { text, reason } => write!(f, "'{text}' is illegal: {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Splits a move line as the server sends it (`+7776FU,T12`, `-3334FU,T0,'* 30 ...`) into the
/// move text and the time charged, if any. `None` when the line does not start like a move.
pub fn split_move_line(line: &str) -> Option<(&str, Option<u32>)> {
    let mut parts = line.split(',');
    let mv = parts.next()?;
    let b = mv.as_bytes();
    if b.len() != 7 || !matches!(b[0], b'+' | b'-') {
        return None;
    }
    let time = parts
        .find_map(|p| p.strip_prefix('T'))
        .and_then(|t| t.parse::<u32>().ok());
    Some((mv, time))
}

fn parse_square(b: &[u8]) -> Option<Option<Square>> {
    let (f, r) = (b[0].wrapping_sub(b'0'), b[1].wrapping_sub(b'0'));
    match (f, r) {
        (0, 0) => Some(None),
        (1..=9, 1..=9) => Some(Square::new(f, r)),
        _ => None,
    }
}

fn csa_color(c: u8) -> Option<Color> {
    match c {
        b'+' => Some(Color::Black),
        b'-' => Some(Color::White),
        _ => None,
    }
}

/// Parses a CSA move (`+7776FU`, `+8822UM`, `+0055KA`, 7 characters) in `pos` and checks it is
/// legal there.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let syntax = || MoveError::Syntax(text.to_string());
    let b = text.as_bytes();
    if b.len() != 7 || !text.is_ascii() {
        return Err(syntax());
    }
    let color = csa_color(b[0]).ok_or_else(syntax)?;
    let from = parse_square(&b[1..3]).ok_or_else(syntax)?;
    let to = parse_square(&b[3..5])
        .ok_or_else(syntax)?
        .ok_or_else(syntax)?;
    let kind = piece_kind(&text[5..7]).ok_or_else(syntax)?;
    if color != pos.side_to_move() {
        return Err(MoveError::WrongSide(text.to_string()));
    }
    let mv = match from {
        None => Move::Drop { kind, to },
        Some(from) => {
            let on_board = pos
                .piece_at(from)
                .ok_or_else(|| MoveError::Illegal {
                    text: text.to_string(),
                    reason: IllegalMove::NoPiece,
                })?
                .kind;
            let promote = if on_board == kind {
                false
            } else if on_board.promote() == Some(kind) {
                true
            } else {
                return Err(MoveError::PieceMismatch(text.to_string()));
            };
            Move::Normal { from, to, promote }
        }
    };
    pos.is_legal(mv).map_err(|reason| MoveError::Illegal {
        text: text.to_string(),
        reason,
    })?;
    Ok(mv)
}

/// The CSA text of `mv` (legal in `pos`): sign of the side to move, origin (`00` for a drop),
/// destination, and the piece after the move.
pub fn move_to_csa(pos: &Position, mv: Move) -> String {
    let mut s = String::with_capacity(8);
    push_move(&mut s, pos, mv);
    s
}

/// [`move_to_csa`] onto the end of `out` (a record's writer, a move a line: no `format!` and no
/// string of its own for each).
pub(crate) fn push_move(out: &mut String, pos: &Position, mv: Move) {
    let digit = |n: u8| char::from(b'0' + n);
    out.push(sign(pos.side_to_move()));
    let (from, to, kind) = match mv {
        Move::Drop { kind, to } => ((0, 0), to, kind),
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceType::Pawn, |p| p.kind);
            let after = if promote {
                kind.promote().unwrap_or(kind)
            } else {
                kind
            };
            ((from.file(), from.rank()), to, after)
        }
    };
    for n in [from.0, from.1, to.file(), to.rank()] {
        out.push(digit(n));
    }
    out.push_str(piece_name(kind));
}

/// Why a CSA position block could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionBlockError {
    /// A line that is not part of CSA position syntax, or a malformed one.
    BadLine(String),
    /// No turn line (`+` or `-`) before the moves or the end.
    MissingTurn,
    /// The position breaks the rules.
    Position(saikoro_core::PositionError),
    /// A move listed after the position is not legal (or not a move).
    Move {
        /// Index of the move in the list (0-based).
        index: usize,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for PositionBlockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionBlockError::BadLine(l) => write!(f, "bad position line '{l}'"),
            PositionBlockError::MissingTurn => f.write_str("no turn line in the position"),
            PositionBlockError::Position(e) => write!(f, "bad position: {e}"),
            PositionBlockError::Move { index, error } => {
                write!(f, "move {} of the position block: {error}", index + 1)
            }
        }
    }
}

impl std::error::Error for PositionBlockError {}

/// A CSA position block read line by line: the start position, then the moves already played
/// (with the time each took, if given).
#[derive(Clone, Debug, Default)]
pub struct PositionBlock {
    board: Option<[Option<Piece>; 81]>,
    hands: ByColor<Hand>,
    all_rest: Option<Color>,
    side: Option<Color>,
    moves: Vec<(String, Option<u32>)>,
}

/// The 平手 start position, for `PI`.
fn hirate_board() -> [Option<Piece>; 81] {
    Position::startpos().to_setup().board
}

impl PositionBlock {
    /// An empty block.
    pub fn new() -> PositionBlock {
        PositionBlock::default()
    }

    /// Reads one line. Comments (`'`), version, name and `$` header lines are skipped.
    pub fn feed(&mut self, line: &str) -> Result<(), PositionBlockError> {
        let bad = || PositionBlockError::BadLine(line.to_string());
        let t = line.trim_end_matches(['\r', '\n']);
        if t.is_empty()
            || t.starts_with('\'')
            || t.starts_with('V')
            || t.starts_with('N')
            || t.starts_with('$')
        {
            return Ok(());
        }
        if t == "+" || t == "-" {
            self.side = csa_color(t.as_bytes()[0]);
            return Ok(());
        }
        if let Some((mv, time)) = split_move_line(t) {
            if self.side.is_none() {
                return Err(PositionBlockError::MissingTurn);
            }
            self.moves.push((mv.to_string(), time));
            return Ok(());
        }
        let b = t.as_bytes();
        if b.len() < 2 || b[0] != b'P' {
            return Err(bad());
        }
        let read = match b[1] {
            b'I' => self.hirate_minus(&t[2..]),
            b'1'..=b'9' => self.row(b[1] - b'0', &t[2..]),
            b'+' | b'-' => csa_color(b[1]).and_then(|color| self.pieces(color, &t[2..])),
            _ => None,
        };
        read.ok_or_else(bad)
    }

    /// `PI` and what follows: the 平手 position less the pieces listed (square and piece, four
    /// bytes each). `None` for a malformed line.
    fn hirate_minus(&mut self, rest: &str) -> Option<()> {
        let mut board = hirate_board();
        if !rest.len().is_multiple_of(4) {
            return None;
        }
        for chunk in rest.as_bytes().chunks(4) {
            let sq = parse_square(&chunk[0..2])??;
            let name = std::str::from_utf8(&chunk[2..4]).ok()?;
            let kind = piece_kind(name)?;
            match board[sq.index()] {
                Some(p) if p.kind == kind => board[sq.index()] = None,
                _ => return None,
            }
        }
        self.board = Some(board);
        Some(())
    }

    /// `P1` … `P9`: the nine cells of `rank`, from file 9 to file 1. `None` for a malformed
    /// line.
    fn row(&mut self, rank: u8, cells: &str) -> Option<()> {
        let board = self.board.get_or_insert([None; 81]);
        // Rows keep a trailing space on the wire; tolerate it being trimmed.
        let mut row = cells.to_string();
        while row.len() < 27 {
            row.push(' ');
        }
        // Nine cells of three bytes; a cell with anything but ASCII names no piece.
        if row.len() != 27 {
            return None;
        }
        for (i, cell) in row.as_bytes().chunks(3).enumerate() {
            let file = 9 - i as u8;
            let sq = Square::new(file, rank)?;
            board[sq.index()] = if cell == b" * " || cell == b"   " {
                None
            } else {
                let color = csa_color(cell[0])?;
                let name = std::str::from_utf8(&cell[1..3]).ok()?;
                let kind = piece_kind(name)?;
                Some(Piece::new(color, kind))
            };
        }
        Some(())
    }

    /// `P+` / `P-`: pieces of `color` put on the board, or in its hand (square `00`), or
    /// `00AL` (all the rest to its hand). `None` for a malformed line.
    fn pieces(&mut self, color: Color, rest: &str) -> Option<()> {
        if !rest.len().is_multiple_of(4) || !rest.is_ascii() {
            return None;
        }
        for chunk in rest.as_bytes().chunks(4) {
            let name = std::str::from_utf8(&chunk[2..4]).ok()?;
            let sq = parse_square(&chunk[0..2])?;
            if sq.is_none() && name == "AL" {
                self.all_rest = Some(color);
                continue;
            }
            let kind = piece_kind(name)?;
            match sq {
                Some(sq) => {
                    self.board.get_or_insert([None; 81])[sq.index()] =
                        Some(Piece::new(color, kind));
                }
                None => {
                    if !kind.is_hand_kind() {
                        return None;
                    }
                    let n = self.hands[color].count(kind);
                    self.hands[color].set(kind, n + 1);
                }
            }
        }
        Some(())
    }

    /// The position before the listed moves (`00AL` resolved: every piece of a full set not on
    /// the board or in a hand goes to that side's hand, kings excluded).
    pub fn setup(&self) -> Result<Setup, PositionBlockError> {
        let side = self.side.ok_or(PositionBlockError::MissingTurn)?;
        let mut setup = Setup {
            board: self.board.unwrap_or([None; 81]),
            hands: self.hands,
            side,
            ply: 1,
        };
        if let Some(color) = self.all_rest {
            for kind in PieceType::HAND_SFEN_ORDER {
                let used = setup
                    .board
                    .iter()
                    .flatten()
                    .filter(|p| p.kind.unpromote() == kind)
                    .count() as u8
                    + setup.hands[Color::Black].count(kind)
                    + setup.hands[Color::White].count(kind);
                let left = kind.set_count().saturating_sub(used);
                let n = setup.hands[color].count(kind);
                setup.hands[color].set(kind, n + left);
            }
        }
        Ok(setup)
    }

    /// The moves listed after the position, with their times.
    pub fn moves(&self) -> &[(String, Option<u32>)] {
        &self.moves
    }
}

/// Writes `pos` as a CSA position block: `P1`..`P9` rows (with the usual trailing space
/// cells), `P+`/`P-` hand lines (`00` + piece per piece held), and the turn line.
pub fn write_position(w: &mut impl Write, pos: &Position) -> io::Result<()> {
    for rank in 1..=9u8 {
        let mut row = format!("P{rank}");
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                Some(p) => {
                    row.push(sign(p.color));
                    row.push_str(piece_name(p.kind));
                }
                None => row.push_str(" * "),
            }
        }
        writeln!(w, "{row}")?;
    }
    for color in Color::ALL {
        let mut line = format!("P{}", sign(color));
        for kind in PieceType::HAND_SFEN_ORDER {
            for _ in 0..pos.hand(color).count(kind) {
                line.push_str("00");
                line.push_str(piece_name(kind));
            }
        }
        writeln!(w, "{line}")?;
    }
    writeln!(w, "{}", sign(pos.side_to_move()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use saikoro_core::KingRule;

    const HIRATE: &str = "\
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
";

    fn block(text: &str) -> PositionBlock {
        let mut b = PositionBlock::new();
        for l in text.lines() {
            b.feed(l).unwrap();
        }
        b
    }

    fn pos_of(text: &str) -> Position {
        Position::from_setup(&block(text).setup().unwrap(), KingRule::Required).unwrap()
    }

    #[test]
    fn piece_names_round_trip() {
        for k in PieceType::ALL {
            assert_eq!(piece_kind(piece_name(k)), Some(k));
        }
        assert_eq!(piece_kind("NK"), Some(PieceType::ProKnight));
        assert_eq!(piece_kind("XX"), None);
        assert_eq!(sign(Color::White), '-');
    }

    #[test]
    fn rows_with_trailing_spaces_give_the_start_position() {
        assert_eq!(pos_of(HIRATE), Position::startpos());
        // The same rows with the trailing spaces trimmed, as some servers send them.
        let trimmed: String = HIRATE
            .lines()
            .map(|l| format!("{}\n", l.trim_end()))
            .collect();
        assert_eq!(pos_of(&trimmed), Position::startpos());
    }

    #[test]
    fn pi_alone_is_the_start_position_and_removals_apply() {
        assert_eq!(pos_of("PI\n+\n"), Position::startpos());
        // 二枚落ち as shogi-server numbers it from Black's side: rook 28 and bishop 88 gone.
        let p = pos_of("PI28HI88KA\n-\n");
        assert_eq!(
            p.to_sfen(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL w - 1"
        );
        let mut b = PositionBlock::new();
        assert!(b.feed("PI28KA").is_err(), "no bishop on 28");
    }

    #[test]
    fn writing_and_reading_a_block_round_trips() {
        let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
        let pos = Position::from_sfen(sfen).unwrap();
        let mut out = Vec::new();
        write_position(&mut out, &pos).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("P+00HI00KI\n"), "{text}");
        assert!(
            text.contains("P-00KI00GI00KE00FU00FU00FU00FU00FU\n"),
            "{text}"
        );
        assert!(text.ends_with("\n-\n"));
        assert_eq!(pos_of(&text).to_sfen(), sfen);
    }

    /// A tsume-style block: pieces placed with `P-`/`P+` square entries, the rest to White's
    /// hand with `00AL`.
    /// What a record or a Game_Summary puts around the position: the version line, the
    /// players' names, `$` headers, `'` comments and blank lines are read past.
    #[test]
    fn headers_comments_and_blank_lines_are_skipped() {
        let text = format!(
            "V2.2\nN+sente\nN-gote\n$EVENT:test\n$START_TIME:2026/12/01 10:00:00\n\
             ' a comment\n\n{HIRATE}' after the turn\n\n+7776FU\n"
        );
        let b = block(&text);
        assert_eq!(b.moves(), &[("+7776FU".to_string(), None)]);
        let pos = Position::from_setup(&b.setup().unwrap(), KingRule::Required).unwrap();
        assert_eq!(pos, Position::startpos());
    }

    /// Lines that are none of the above and no `P` line are errors, not guesses: a lone `P`,
    /// a `PI` with its `P` miswritten, a row with an unknown letter.
    #[test]
    fn lines_that_are_not_position_lines_are_rejected() {
        for line in [
            "P",
            "QI",
            "X1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
            "%TORYO",
            "+7776",
            // Piece entries come in fours: square and name.
            "P+11OU0",
            "P-00AL00",
            "PI28H",
            // A row of more than nine cells, and one with a name that is not ASCII.
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY-FU",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-歩",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE歩",
        ] {
            let mut b = PositionBlock::new();
            assert!(
                matches!(b.feed(line), Err(PositionBlockError::BadLine(_))),
                "{line}"
            );
        }
    }

    #[test]
    fn piece_placement_and_all_rest() {
        let p = pos_of("P-11OU\nP+33KI00KI\nP+99OU\nP-00AL\n+\n");
        assert_eq!(
            p.piece_at(Square::new(3, 3).unwrap()).unwrap().kind,
            PieceType::Gold
        );
        assert_eq!(p.hand(Color::Black).count(PieceType::Gold), 1);
        let white = p.hand(Color::White);
        assert_eq!(white.count(PieceType::Gold), 2);
        assert_eq!(white.count(PieceType::Pawn), 18);
        assert_eq!(white.count(PieceType::Rook), 2);
        // The rest counts what either hand already holds: White's two golds are not Black's.
        let p = pos_of("P-11OU\nP+99OU\nP-00KI00KI00FU\nP+00AL\n-\n");
        let (black, white) = (p.hand(Color::Black), p.hand(Color::White));
        assert_eq!(black.count(PieceType::Gold), 2);
        assert_eq!(black.count(PieceType::Pawn), 17);
        assert_eq!(black.count(PieceType::Bishop), 2);
        assert_eq!(
            (white.count(PieceType::Gold), white.count(PieceType::Pawn)),
            (2, 1)
        );
    }

    #[test]
    fn moves_after_the_turn_line_are_kept_with_times() {
        let b = block(&format!("{HIRATE}+7776FU,T1\n-3334FU\n"));
        assert_eq!(
            b.moves(),
            &[
                ("+7776FU".to_string(), Some(1)),
                ("-3334FU".to_string(), None)
            ]
        );
    }

    #[test]
    fn promotion_is_inferred_from_the_board() {
        let mut pos = Position::startpos();
        for (text, usi) in [
            ("+7776FU", "7g7f"),
            ("-3334FU", "3c3d"),
            ("+8822UM", "8h2b+"),
            ("-3122GI", "3a2b"),
            ("+0055KA", "B*5e"),
        ] {
            let mv = parse_move(&pos, text).unwrap();
            assert_eq!(mv.to_string(), usi);
            assert_eq!(move_to_csa(&pos, mv), text);
            pos.do_move(mv);
        }
    }

    #[test]
    fn bad_moves_are_told_apart() {
        let pos = Position::startpos();
        assert!(matches!(
            parse_move(&pos, "-3334FU"),
            Err(MoveError::WrongSide(_))
        ));
        assert!(matches!(
            parse_move(&pos, "+7776KI"),
            Err(MoveError::PieceMismatch(_))
        ));
        assert!(matches!(
            parse_move(&pos, "+7775FU"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            parse_move(&pos, "+7776F"),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            parse_move(&pos, "+0055KA"),
            Err(MoveError::Illegal { .. })
        ));
    }

    #[test]
    fn move_lines_split_off_time_and_comment() {
        assert_eq!(split_move_line("+7776FU,T12"), Some(("+7776FU", Some(12))));
        assert_eq!(
            split_move_line("-3334FU,T0,'* 30 +2726FU"),
            Some(("-3334FU", Some(0)))
        );
        assert_eq!(split_move_line("+7776FU"), Some(("+7776FU", None)));
        assert_eq!(split_move_line("%TORYO"), None);
        assert_eq!(split_move_line("+"), None);
    }
}
