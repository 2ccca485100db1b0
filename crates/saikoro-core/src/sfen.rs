//! SFEN text: lenient parsing into a [`Setup`], canonical printing of a [`Position`].

use crate::{
    ByColor, Color, Hand, KingRule, Piece, PieceType, Position, PositionError, Setup, Square,
};
use std::fmt;

/// The field of an SFEN string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SfenField {
    /// The board (first field).
    Board,
    /// The side to move (second field).
    SideToMove,
    /// The pieces in hand (third field).
    Hands,
    /// The move number (fourth field).
    MoveNumber,
}

impl fmt::Display for SfenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SfenField::Board => "board",
            SfenField::SideToMove => "side to move",
            SfenField::Hands => "pieces in hand",
            SfenField::MoveNumber => "move number",
        })
    }
}

/// An SFEN string that is not well formed (a syntax error). Offsets are byte offsets into the
/// string given to [`parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// A field is missing.
    MissingField {
        /// The first missing field.
        field: SfenField,
    },
    /// A character that has no meaning where it stands.
    UnexpectedChar {
        /// The field.
        field: SfenField,
        /// Byte offset.
        offset: usize,
        /// The character.
        found: char,
    },
    /// A rank describes more or fewer than nine squares.
    RankLength {
        /// The rank, 1–9 (`a`–`i`).
        rank: u8,
        /// Byte offset of the rank's end.
        offset: usize,
        /// How many squares it describes.
        squares: u32,
    },
    /// The board has more or fewer than nine ranks.
    RankCount {
        /// How many ranks there are.
        ranks: u32,
    },
    /// A `+` before a piece that cannot promote, or at the end of a rank.
    BadPromotion {
        /// Byte offset of the `+`.
        offset: usize,
    },
    /// A count in the hands field that is 0, over 18, or not followed by a piece letter.
    BadHandCount {
        /// Byte offset of the count.
        offset: usize,
    },
    /// A king in hand.
    KingInHand {
        /// Byte offset.
        offset: usize,
    },
    /// A move number that is not a positive integer.
    BadMoveNumber {
        /// Byte offset.
        offset: usize,
    },
    /// Text after the fourth field.
    TrailingText {
        /// Byte offset.
        offset: usize,
    },
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::MissingField { field } => write!(f, "SFEN has no {field} field"),
            SfenError::UnexpectedChar {
                field,
                offset,
                found,
            } => write!(
                f,
                "unexpected {found:?} in the {field} field at byte {offset}"
            ),
            SfenError::RankLength {
                rank,
                offset,
                squares,
            } => write!(
                f,
                "rank {} has {squares} squares instead of 9 (byte {offset})",
                (b'a' + rank - 1) as char
            ),
            SfenError::RankCount { ranks } => write!(f, "board has {ranks} ranks instead of 9"),
            SfenError::BadPromotion { offset } => {
                write!(
                    f,
                    "'+' at byte {offset} is not before a piece that can promote"
                )
            }
            SfenError::BadHandCount { offset } => {
                write!(f, "bad count of pieces in hand at byte {offset}")
            }
            SfenError::KingInHand { offset } => write!(f, "a king in hand at byte {offset}"),
            SfenError::BadMoveNumber { offset } => {
                write!(f, "move number at byte {offset} is not a positive integer")
            }
            SfenError::TrailingText { offset } => {
                write!(f, "unexpected text after the SFEN at byte {offset}")
            }
        }
    }
}

impl std::error::Error for SfenError {}

/// An SFEN string that does not give a legal position: either bad syntax or bad content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidSfen {
    /// Not well-formed SFEN.
    Syntax(SfenError),
    /// Well formed, but not a legal position.
    Position(PositionError),
}

impl fmt::Display for InvalidSfen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidSfen::Syntax(e) => write!(f, "malformed SFEN: {e}"),
            InvalidSfen::Position(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for InvalidSfen {}

impl From<SfenError> for InvalidSfen {
    fn from(e: SfenError) -> Self {
        InvalidSfen::Syntax(e)
    }
}

impl From<PositionError> for InvalidSfen {
    fn from(e: PositionError) -> Self {
        InvalidSfen::Position(e)
    }
}

/// Splits `s` at ASCII whitespace, keeping each token's byte offset.
fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split(|c: char| c.is_ascii_whitespace())
        .scan(0usize, |pos, t| {
            let start = *pos;
            *pos += t.len() + 1;
            Some((start, t))
        })
        .filter(|(_, t)| !t.is_empty())
}

/// Parses SFEN text (board, side, hands, optional move number) into a [`Setup`] without checking
/// the rules. Lenient where SFEN writers differ: hand pieces in any order, counts up to 18,
/// runs of whitespace between fields, no move number (then 1).
pub fn parse(s: &str) -> Result<Setup, SfenError> {
    let mut fields = tokens(s);
    let mut setup = Setup::default();
    let (off, board) = fields.next().ok_or(SfenError::MissingField {
        field: SfenField::Board,
    })?;
    parse_board(board, off, &mut setup.board)?;
    let (off, side) = fields.next().ok_or(SfenError::MissingField {
        field: SfenField::SideToMove,
    })?;
    setup.side = match side {
        "b" => Color::Black,
        "w" => Color::White,
        _ => {
            return Err(SfenError::UnexpectedChar {
                field: SfenField::SideToMove,
                offset: off,
                found: side.chars().find(|&c| c != 'b' && c != 'w').unwrap_or('?'),
            })
        }
    };
    let (off, hands) = fields.next().ok_or(SfenError::MissingField {
        field: SfenField::Hands,
    })?;
    setup.hands = parse_hands(hands, off)?;
    if let Some((off, n)) = fields.next() {
        setup.ply = match n.parse::<u32>() {
            Ok(v) if v >= 1 && n.bytes().all(|b| b.is_ascii_digit()) => v,
            _ => return Err(SfenError::BadMoveNumber { offset: off }),
        };
    }
    if let Some((off, _)) = fields.next() {
        return Err(SfenError::TrailingText { offset: off });
    }
    Ok(setup)
}

fn parse_board(text: &str, base: usize, board: &mut [Option<Piece>; 81]) -> Result<(), SfenError> {
    let mut rank: u8 = 1;
    let mut file_count: u32 = 0; // squares described so far in this rank
    let mut promoted_at: Option<usize> = None;
    let bytes = text.as_bytes();
    let rank_end = |rank: u8, squares: u32, offset: usize| {
        if squares != 9 {
            Err(SfenError::RankLength {
                rank,
                offset,
                squares,
            })
        } else {
            Ok(())
        }
    };
    for (i, &b) in bytes.iter().enumerate() {
        let offset = base + i;
        match b {
            b'/' => {
                if let Some(o) = promoted_at {
                    return Err(SfenError::BadPromotion { offset: o });
                }
                rank_end(rank, file_count, offset)?;
                rank += 1;
                if rank > 9 {
                    return Err(SfenError::RankCount {
                        ranks: 1 + bytes.iter().filter(|&&c| c == b'/').count() as u32,
                    });
                }
                file_count = 0;
            }
            b'1'..=b'9' => {
                if let Some(o) = promoted_at {
                    return Err(SfenError::BadPromotion { offset: o });
                }
                file_count += (b - b'0') as u32;
                if file_count > 9 {
                    return Err(SfenError::RankLength {
                        rank,
                        offset,
                        squares: file_count,
                    });
                }
            }
            b'+' => {
                if promoted_at.is_some() {
                    return Err(SfenError::BadPromotion { offset });
                }
                promoted_at = Some(offset);
            }
            _ => {
                let piece = board_piece(text, i, offset, promoted_at.take())?;
                file_count += 1;
                if file_count > 9 {
                    return Err(SfenError::RankLength {
                        rank,
                        offset,
                        squares: file_count,
                    });
                }
                let file = 10 - file_count as u8;
                let sq = Square::new(file, rank).expect("file and rank are 1-9");
                board[sq.index()] = Some(piece);
            }
        }
    }
    if let Some(o) = promoted_at {
        return Err(SfenError::BadPromotion { offset: o });
    }
    rank_end(rank, file_count, base + text.len())?;
    if rank != 9 {
        return Err(SfenError::RankCount { ranks: rank as u32 });
    }
    Ok(())
}

/// The piece whose letter is `text[i]` (at `offset` in the whole SFEN), promoted when a `+`
/// came before it (at `promoted_at`): uppercase is Black's, lowercase White's.
#[inline]
fn board_piece(
    text: &str,
    i: usize,
    offset: usize,
    promoted_at: Option<usize>,
) -> Result<Piece, SfenError> {
    let c = text.as_bytes()[i] as char;
    let kind = PieceType::from_sfen_letter(c).ok_or(SfenError::UnexpectedChar {
        field: SfenField::Board,
        offset,
        found: text[i..].chars().next().unwrap_or('?'),
    })?;
    let kind = match promoted_at {
        Some(o) => kind
            .promote()
            .ok_or(SfenError::BadPromotion { offset: o })?,
        None => kind,
    };
    let color = if c.is_ascii_uppercase() {
        Color::Black
    } else {
        Color::White
    };
    Ok(Piece::new(color, kind))
}

fn parse_hands(text: &str, base: usize) -> Result<ByColor<Hand>, SfenError> {
    let mut hands = ByColor([Hand::EMPTY; 2]);
    if text == "-" {
        return Ok(hands);
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let mut count: u32 = 0;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            count = count
                .saturating_mul(10)
                .saturating_add((bytes[i] - b'0') as u32);
            i += 1;
        }
        let has_count = i > start;
        if has_count && (count == 0 || count > 18 || i == bytes.len()) {
            return Err(SfenError::BadHandCount {
                offset: base + start,
            });
        }
        let c = bytes[i] as char;
        let kind = PieceType::from_sfen_letter(c).ok_or(SfenError::UnexpectedChar {
            field: SfenField::Hands,
            offset: base + i,
            found: text[i..].chars().next().unwrap_or('?'),
        })?;
        if kind == PieceType::King {
            return Err(SfenError::KingInHand { offset: base + i });
        }
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let n = if has_count { count } else { 1 };
        let total = hands[color].count(kind) as u32 + n;
        if total > 18 {
            return Err(SfenError::BadHandCount {
                offset: base + start,
            });
        }
        hands[color].set(kind, total as u8);
        i += 1;
    }
    Ok(hands)
}

impl Position {
    /// Parses and validates SFEN text. Each side needs exactly one king; see
    /// [`Position::from_sfen_lenient`] for positions without kings.
    pub fn from_sfen(s: &str) -> Result<Position, InvalidSfen> {
        Ok(Position::from_setup(&parse(s)?, KingRule::Required)?)
    }

    /// Like [`Position::from_sfen`], but a side may have no king (tsume problems).
    pub fn from_sfen_lenient(s: &str) -> Result<Position, InvalidSfen> {
        Ok(Position::from_setup(&parse(s)?, KingRule::Optional)?)
    }

    /// Canonical SFEN text (hands in R B G S N L P order, Black's first, `-` when empty).
    pub fn to_sfen(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Position {
    /// Canonical SFEN text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in 1..=9u8 {
            if rank > 1 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::new(file, rank).expect("board square");
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{p}")?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        write!(f, " {} ", self.side_to_move().sfen_char())?;
        let (b, w) = (self.hand(Color::Black), self.hand(Color::White));
        if b.is_empty() && w.is_empty() {
            f.write_str("-")?;
        } else {
            write!(f, "{b}{}", w.to_string().to_ascii_lowercase())?;
        }
        write!(f, " {}", self.ply())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::STARTPOS_SFEN;

    #[test]
    fn startpos_round_trips() {
        let p = Position::from_sfen(STARTPOS_SFEN).unwrap();
        assert_eq!(p.to_sfen(), STARTPOS_SFEN);
    }

    #[test]
    fn hands_are_printed_canonically() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2pP3gR 5").unwrap();
        assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b RP3g2p 5");
    }

    #[test]
    fn move_number_is_optional() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w -").unwrap();
        assert_eq!(p.ply(), 1);
        assert_eq!(p.side_to_move(), Color::White);
    }

    #[test]
    fn syntax_errors_name_the_place() {
        assert_eq!(
            parse("4k5/9/9/9/9/9/9/9/4K4 b - 1"),
            Err(SfenError::RankLength {
                rank: 1,
                offset: 2,
                squares: 10
            })
        );
        assert_eq!(
            parse("4k4/9/9/9/9/9/9/9/4K4 x - 1"),
            Err(SfenError::UnexpectedChar {
                field: SfenField::SideToMove,
                offset: 22,
                found: 'x'
            })
        );
        assert_eq!(
            parse("4k4/9/9/9/9/9/9/9/4K4 b - 0"),
            Err(SfenError::BadMoveNumber { offset: 26 })
        );
        assert_eq!(
            parse("4k4/9/9/9/9/9/9/9/4K4 b 19P 1"),
            Err(SfenError::BadHandCount { offset: 24 })
        );
        assert_eq!(
            parse("4+g4/9/9/9/9/9/9/9/4K4 b - 1"),
            Err(SfenError::BadPromotion { offset: 1 })
        );
        assert!(matches!(
            parse("4k4/9/9/9/9/9/9/9 b - 1"),
            Err(SfenError::RankCount { ranks: 8 })
        ));
        assert!(matches!(
            parse("4k4/9/9/9/9/9/9/9/4K4"),
            Err(SfenError::MissingField {
                field: SfenField::SideToMove
            })
        ));
    }
}
