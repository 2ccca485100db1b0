//! KI2 move text (the moves of 棋譜 without from-squares: `▲７六歩`, `△同　銀`, `▲５二金左上`)
//! and the relative-position words, both ways, by the exact rules.
//!
//! The convention is the Japan Shogi Association's (日本将棋連盟, 「棋譜の表記方法」):
//!
//! - No word when only one piece of the kind can move to the square (`７六歩`, never
//!   `７六歩直不成`); `同` when the move lands where the previous one did.
//! - The motion first: `上` (the piece moves one rank or more forward), `寄` (sideways), `引`
//!   (back), seen from the mover — for White (△) forward is down the diagram.
//! - Where the motion does not tell the pieces apart, the position: `右`/`左` (the piece on the
//!   mover's right or left of the square it goes to), `直` (a gold-like or silver stepping straight
//!   forward). Where neither alone is enough, both, position first (`左上`, `右引`).
//! - 竜 and 馬 (at most two of each): the motion first too, then `右`/`左` by where the piece
//!   stands beside the other one, never `直`.
//! - `打` only for a drop where a piece of that kind on the board could also move to the square.
//! - `成` for a promotion, `不成` only where the move could have promoted and did not.
//!
//! Only legal moves count: a pinned piece that cannot move to the square needs no word.

use crate::japanese::{digit, piece_at_start, piece_name, rule_reason};
use crate::japanese::{square_text as square_words, SIDE_MARKS};
use saikoro_core::{Color, IllegalMove, Move, PieceType, Position, Square};
use std::fmt;

/// Which way a piece came, told among the pieces of its kind that can reach the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Horizontal {
    /// `右`: the piece on the mover's right.
    Right,
    /// `左`: the piece on the mover's left.
    Left,
    /// `直`: a gold-like or silver stepping straight forward.
    Straight,
}

/// How the piece moved, seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertical {
    /// `上`: forward (one rank or more).
    Up,
    /// `引`: back.
    Down,
    /// `寄`: sideways.
    Sideways,
}

/// The relative-position words of one move; `Relative::default()` is none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Relative {
    /// `右`, `左` or `直`.
    pub horizontal: Option<Horizontal>,
    /// `上`, `引` or `寄`.
    pub vertical: Option<Vertical>,
    /// `打`: a drop that must be told apart from a move of a piece on the board.
    pub drop: bool,
}

const HORIZONTALS: [(Horizontal, &str, &str); 3] = [
    (Horizontal::Right, "右", "R"),
    (Horizontal::Left, "左", "L"),
    (Horizontal::Straight, "直", "C"),
];

const VERTICALS: [(Vertical, &str, &str); 3] = [
    (Vertical::Up, "上", "U"),
    (Vertical::Down, "引", "D"),
    (Vertical::Sideways, "寄", "M"),
];

/// `打`, and its JKF letter.
const DROP_WORD: (&str, &str) = ("打", "H");

fn horizontal_word(h: Horizontal) -> (&'static str, &'static str) {
    HORIZONTALS
        .iter()
        .find(|e| e.0 == h)
        .map_or(("", ""), |e| (e.1, e.2))
}

fn vertical_word(v: Vertical) -> (&'static str, &'static str) {
    VERTICALS
        .iter()
        .find(|e| e.0 == v)
        .map_or(("", ""), |e| (e.1, e.2))
}

impl Relative {
    /// `"左上"`, `"直"`, `"引"`, `"打"`, `""` (horizontal word first, then vertical; 打 alone).
    pub fn kanji(self) -> String {
        self.words(|(kanji, _)| kanji)
    }

    /// JKF's `relative` letters: L/C/R then U/M/D, `H` for 打: `"LU"`, `"C"`, `"H"`; `""` for none.
    pub fn jkf(self) -> String {
        self.words(|(_, letter)| letter)
    }

    fn words(self, pick: impl Fn((&'static str, &'static str)) -> &'static str) -> String {
        let mut s = String::new();
        if let Some(h) = self.horizontal {
            s.push_str(pick(horizontal_word(h)));
        }
        if let Some(v) = self.vertical {
            s.push_str(pick(vertical_word(v)));
        }
        if self.drop {
            s.push_str(pick(DROP_WORD));
        }
        s
    }

    /// The inverse of `jkf`; `None` for any other text.
    pub fn from_jkf(text: &str) -> Option<Relative> {
        if text == DROP_WORD.1 {
            return Some(Relative {
                drop: true,
                ..Relative::default()
            });
        }
        let mut rest = text;
        let mut rel = Relative::default();
        if let Some(&(h, _, letter)) = HORIZONTALS.iter().find(|e| rest.starts_with(e.2)) {
            rel.horizontal = Some(h);
            rest = &rest[letter.len()..];
        }
        if let Some(&(v, _, letter)) = VERTICALS.iter().find(|e| rest.starts_with(e.2)) {
            rel.vertical = Some(v);
            rest = &rest[letter.len()..];
        }
        rest.is_empty().then_some(rel)
    }
}

/// How far `to` lies forward of `from` for `color` (negative: back).
fn forward(color: Color, from: Square, to: Square) -> i8 {
    let d = from.rank() as i8 - to.rank() as i8;
    match color {
        Color::Black => d,
        Color::White => -d,
    }
}

/// How far `sq` lies to `color`'s right of `file` (negative: to its left). Black's right is
/// the lower files; White's the higher.
fn rightward(color: Color, sq: Square, file: u8) -> i8 {
    let d = file as i8 - sq.file() as i8;
    match color {
        Color::Black => d,
        Color::White => -d,
    }
}

fn vertical_of(color: Color, from: Square, to: Square) -> Vertical {
    match forward(color, from, to) {
        d if d > 0 => Vertical::Up,
        d if d < 0 => Vertical::Down,
        _ => Vertical::Sideways,
    }
}

/// Whether `kind` is a dragon or a horse: told apart by where they stand beside each other.
fn is_dragon_or_horse(kind: PieceType) -> bool {
    matches!(kind, PieceType::Dragon | PieceType::Horse)
}

/// Whether `kind` steps one square straight forward and may then be called `直`: the gold-likes
/// and the silver.
fn may_be_straight(kind: PieceType) -> bool {
    matches!(
        kind,
        PieceType::Gold
            | PieceType::Silver
            | PieceType::ProPawn
            | PieceType::ProLance
            | PieceType::ProKnight
            | PieceType::ProSilver
    )
}

/// The horizontal word true of the piece of `kind` on `from` going to `to`, among the pieces of
/// its kind on `froms` (all those that can move there, `from` among them).
fn horizontal_of(
    color: Color,
    kind: PieceType,
    from: Square,
    to: Square,
    froms: &[Square],
) -> Option<Horizontal> {
    let side = |d: i8| match d {
        d if d > 0 => Some(Horizontal::Right),
        d if d < 0 => Some(Horizontal::Left),
        _ => None,
    };
    if is_dragon_or_horse(kind) {
        // Beside the other one, when there is another that can move there.
        if let [a, b] = froms {
            let other = if *a == from { *b } else { *a };
            if let Some(h) = side(rightward(color, from, other.file())) {
                return Some(h);
            }
        }
        return side(rightward(color, from, to.file()));
    }
    match side(rightward(color, from, to.file())) {
        None if may_be_straight(kind) && forward(color, from, to) == 1 => {
            Some(Horizontal::Straight)
        }
        h => h,
    }
}

/// The origin squares of the legal board moves of pieces of `kind` (as on the board) of the side
/// to move to `to`, each once.
fn origins(pos: &Position, legal: &[Move], kind: PieceType, to: Square) -> Vec<Square> {
    let mut froms: Vec<Square> = Vec::new();
    for &mv in legal {
        if let Move::Normal { from, to: t, .. } = mv {
            if t == to
                && pos.piece_at(from).is_some_and(|p| p.kind == kind)
                && !froms.contains(&from)
            {
                froms.push(from);
            }
        }
    }
    froms
}

/// The words `pos` needs to tell the legal move `mv` apart from every other legal move of a piece
/// of the same kind (same `PieceType` as shown in the record, e.g. 成銀 vs 金 are different kinds)
/// to the same square, and a drop from a move (打); none when nothing else fits.
pub fn relative_of(pos: &Position, mv: Move) -> Relative {
    relative_in(pos, &pos.legal_moves(), mv)
}

/// [`relative_of`] with the legal moves of `pos` already listed.
fn relative_in(pos: &Position, legal: &[Move], mv: Move) -> Relative {
    let color = pos.side_to_move();
    match mv {
        Move::Drop { kind, to } => Relative {
            drop: !origins(pos, legal, kind, to).is_empty(),
            ..Relative::default()
        },
        Move::Normal { from, to, .. } => {
            let Some(kind) = pos.piece_at(from).map(|p| p.kind) else {
                return Relative::default();
            };
            let froms = origins(pos, legal, kind, to);
            if froms.len() < 2 {
                return Relative::default();
            }
            let words = |f: Square| {
                (
                    horizontal_of(color, kind, f, to, &froms),
                    vertical_of(color, f, to),
                )
            };
            let (h, v) = words(from);
            let others: Vec<_> = froms
                .iter()
                .filter(|&&f| f != from)
                .map(|&f| words(f))
                .collect();
            if others.iter().all(|o| o.1 != v) {
                Relative {
                    vertical: Some(v),
                    ..Relative::default()
                }
            } else if h.is_some() && others.iter().all(|o| o.0 != h) {
                Relative {
                    horizontal: h,
                    ..Relative::default()
                }
            } else {
                Relative {
                    horizontal: h,
                    vertical: Some(v),
                    drop: false,
                }
            }
        }
    }
}

/// The square in KI2 text: full-width file, kanji rank (`５二`).
pub fn square_text(sq: Square) -> String {
    square_words(sq)
}

/// The KI2 text of the legal move `mv` in `pos`, without the side mark: `"７六歩"`, `"同　銀"`
/// (when `last_to == Some(mv.to())`), `"５二金左上"`, `"２二角成"`, `"３三桂不成"`, `"５五角打"`.
/// Piece names and digits come from `crate::japanese`.
pub fn write_move(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    write_in(pos, &pos.legal_moves(), mv, last_to)
}

/// [`write_move`] with the legal moves of `pos` already listed.
pub(crate) fn write_with(
    pos: &Position,
    legal: &[Move],
    mv: Move,
    last_to: Option<Square>,
) -> String {
    write_in(pos, legal, mv, last_to)
}

fn write_in(pos: &Position, legal: &[Move], mv: Move, last_to: Option<Square>) -> String {
    let to = mv.to();
    let mut s = if last_to == Some(to) {
        "同　".to_string()
    } else {
        square_text(to)
    };
    let kind = match mv {
        Move::Normal { from, .. } => pos.piece_at(from).map_or(PieceType::Pawn, |p| p.kind),
        Move::Drop { kind, .. } => kind,
    };
    s.push_str(piece_name(kind));
    s.push_str(&relative_in(pos, legal, mv).kanji());
    if let Move::Normal { from, promote, .. } = mv {
        if promote {
            s.push('成');
        } else if legal.contains(&Move::Normal {
            from,
            to,
            promote: true,
        }) {
            s.push_str("不成");
        }
    }
    s
}

/// Why a KI2 move could not be read. Each names the text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveTextError {
    /// Not the shape of a KI2 move (square or `同`, piece, words, `成`/`不成`/`生`/`打`).
    Unreadable {
        /// The text.
        text: String,
    },
    /// The side mark (`▲`/`△`) is not that of the side to move.
    WrongSide {
        /// The text.
        text: String,
        /// The side to move.
        side: Color,
    },
    /// `同` with no previous move.
    NoPreviousMove {
        /// The text.
        text: String,
    },
    /// No piece of the kind can move to the square (and none can be dropped there).
    NoPiece {
        /// The text.
        text: String,
        /// The kind named.
        kind: PieceType,
        /// The square.
        to: Square,
    },
    /// The relative words are true of no piece of the kind that can move to the square.
    FalseWords {
        /// The text.
        text: String,
        /// The words as written.
        words: String,
        /// The kind named.
        kind: PieceType,
        /// The square.
        to: Square,
    },
    /// The text fits more than one legal move: the KI2 texts of those it fits.
    Ambiguous {
        /// The text.
        text: String,
        /// The full KI2 text of each move it fits.
        fits: Vec<String>,
    },
    /// A drop (`打`) of a kind the side to move does not hold.
    NotInHand {
        /// The text.
        text: String,
        /// The kind.
        kind: PieceType,
    },
    /// The one move the text names breaks a rule (二歩, 打ち歩詰め, a promotion that is not
    /// allowed or a missing one that is required, the king left in check, …).
    Illegal {
        /// The text.
        text: String,
        /// The move named.
        mv: Move,
        /// The rule it breaks.
        reason: IllegalMove,
        /// The side to move.
        side: Color,
    },
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Unreadable { text } => write!(f, "unreadable move text {text}"),
            MoveTextError::WrongSide { text, side } => {
                write!(
                    f,
                    "{text}: the side mark is not that of the side to move ({})",
                    side.name()
                )
            }
            MoveTextError::NoPreviousMove { text } => {
                write!(f, "{text}: 同 with no previous move")
            }
            MoveTextError::NoPiece { text, kind, to } => write!(
                f,
                "{text}: no {} can reach {}",
                piece_name(*kind),
                square_text(*to)
            ),
            MoveTextError::FalseWords {
                text,
                words,
                kind,
                to,
            } => write!(
                f,
                "{text}: {words} is true of no {} that can move to {}",
                piece_name(*kind),
                square_text(*to)
            ),
            MoveTextError::Ambiguous { text, fits } => write!(
                f,
                "{text} fits {} moves ({}): add 右, 左, 直, 上, 引 or 寄 to tell which",
                fits.len(),
                fits.join(", ")
            ),
            MoveTextError::NotInHand { text, kind } => {
                write!(f, "{text}: no {} in hand to drop", piece_name(*kind))
            }
            MoveTextError::Illegal {
                text,
                mv,
                reason,
                side,
            } => write!(f, "{text}: {}", rule_reason(*side, *mv, reason.clone())),
        }
    }
}

impl std::error::Error for MoveTextError {}

/// What follows the words: `成`, `不成` (or `生`), `打`, or nothing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Suffix {
    None,
    Promote,
    NoPromote,
    Drop,
}

/// A KI2 move as written, before the position is asked.
struct Parsed {
    side: Option<Color>,
    /// `None` for `同`.
    to: Option<Square>,
    kind: PieceType,
    horizontal: Option<Horizontal>,
    vertical: Option<Vertical>,
    suffix: Suffix,
}

impl Parsed {
    /// The relative words as written (打 apart).
    fn words(&self) -> Relative {
        Relative {
            horizontal: self.horizontal,
            vertical: self.vertical,
            drop: false,
        }
    }
}

/// `rest` without the first word of `words` it starts with, and that word's value.
fn take<'a, T: Copy>(rest: &'a str, words: &[(T, &str)]) -> Option<(T, &'a str)> {
    words
        .iter()
        .filter(|(_, w)| rest.starts_with(w))
        .max_by_key(|(_, w)| w.len())
        .map(|&(v, w)| (v, &rest[w.len()..]))
}

fn parse(text: &str) -> Option<Parsed> {
    let mut rest = text;
    let side = SIDE_MARKS
        .iter()
        .find(|&&(m, _)| rest.starts_with(m))
        .map(|&(m, c)| {
            rest = &rest[m.len_utf8()..];
            c
        });
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches([' ', '　']);
        None
    } else {
        let mut chars = rest.chars();
        let file = digit(chars.next()?)?;
        let rank = digit(chars.next()?)?;
        rest = chars.as_str();
        Some(Square::new(file, rank)?)
    };
    let (kind, len) = piece_at_start(rest)?;
    rest = &rest[len..];
    let hs: Vec<_> = HORIZONTALS.iter().map(|&(h, w, _)| (h, w)).collect();
    let horizontal = take(rest, &hs).map(|(h, r)| {
        rest = r;
        h
    });
    let mut vs: Vec<_> = VERTICALS.iter().map(|&(v, w, _)| (v, w)).collect();
    vs.push((Vertical::Up, "行"));
    let vertical = take(rest, &vs).map(|(v, r)| {
        rest = r;
        v
    });
    let suffixes = [
        (Suffix::Promote, "成"),
        (Suffix::NoPromote, "不成"),
        (Suffix::NoPromote, "生"),
        (Suffix::Drop, DROP_WORD.0),
    ];
    let suffix = take(rest, &suffixes).map_or(Suffix::None, |(s, r)| {
        rest = r;
        s
    });
    let words = horizontal.is_some() || vertical.is_some();
    (rest.is_empty() && !(words && suffix == Suffix::Drop)).then_some(Parsed {
        side,
        to,
        kind,
        horizontal,
        vertical,
        suffix,
    })
}

/// Reads one KI2 move in `pos` — with or without a leading `▲`/`△`/`☗`/`☖` (which must then be
/// the side to move), `同`/`同　`, `竜`/`龍`, `王`/`玉`, `生` read as `不成`, redundant relative
/// words accepted when they are true of the move — and returns the one legal move it names.
/// `last_to` is the previous move's destination (for 同).
pub fn read_move(
    pos: &Position,
    text: &str,
    last_to: Option<Square>,
) -> Result<Move, MoveTextError> {
    read_in(pos, &pos.legal_moves(), text, last_to)
}

/// Why the move of `p` to `to`, which no piece can legally make, is refused: the one piece of
/// the kind that could go there but for its own king is checked (and the rule named), else
/// no piece fits.
fn no_legal_origin(
    pos: &Position,
    legal: &[Move],
    text: &str,
    p: &Parsed,
    to: Square,
) -> Result<Move, MoveTextError> {
    let us = pos.side_to_move();
    let promote = p.suffix == Suffix::Promote;
    let exposing: Vec<Move> = (0..81usize)
        .filter_map(Square::from_index)
        .filter(|&sq| {
            pos.piece_at(sq)
                .is_some_and(|q| q.color == us && q.kind == p.kind)
        })
        .map(|from| Move::Normal { from, to, promote })
        .filter(|&mv| pos.is_legal(mv) == Err(IllegalMove::KingInCheck))
        .collect();
    if let [mv] = exposing[..] {
        return checked(pos, legal, text, mv);
    }
    Err(MoveTextError::NoPiece {
        text: text.into(),
        kind: p.kind,
        to,
    })
}

/// [`read_move`] with the legal moves of `pos` already listed.
fn read_in(
    pos: &Position,
    legal: &[Move],
    text: &str,
    last_to: Option<Square>,
) -> Result<Move, MoveTextError> {
    let text = text.trim_matches(|c: char| c.is_whitespace());
    let p = parse(text).ok_or_else(|| MoveTextError::Unreadable { text: text.into() })?;
    let us = pos.side_to_move();
    if p.side.is_some_and(|s| s != us) {
        return Err(MoveTextError::WrongSide {
            text: text.into(),
            side: us,
        });
    }
    let to = match p.to {
        Some(sq) => sq,
        None => last_to.ok_or_else(|| MoveTextError::NoPreviousMove { text: text.into() })?,
    };
    let drop = Move::Drop { kind: p.kind, to };
    let in_hand = p.kind.is_hand_kind() && pos.hand(us).count(p.kind) > 0;
    if p.suffix == Suffix::Drop && !in_hand {
        return Err(MoveTextError::NotInHand {
            text: text.into(),
            kind: p.kind,
        });
    } else if p.suffix == Suffix::Drop {
        return checked(pos, legal, text, drop);
    }
    let froms = origins(pos, legal, p.kind, to);
    // A bare name where no piece on the board can move there is a drop (打 is written only where
    // one could).
    let bare = in_hand && p.words() == Relative::default() && p.suffix == Suffix::None;
    if froms.is_empty() {
        if bare {
            return checked(pos, legal, text, drop);
        }
        return no_legal_origin(pos, legal, text, &p, to);
    }
    let fitting = fitting(us, &p, to, &froms);
    if fitting.is_empty() {
        return Err(MoveTextError::FalseWords {
            text: text.into(),
            words: p.words().kanji(),
            kind: p.kind,
            to,
        });
    }
    let promote = p.suffix == Suffix::Promote;
    let moves: Vec<Move> = fitting
        .iter()
        .map(|&from| Move::Normal { from, to, promote })
        .filter(|mv| legal.contains(mv))
        .collect();
    match moves[..] {
        [mv] => Ok(mv),
        [] if bare => checked(pos, legal, text, drop),
        [] => checked(
            pos,
            legal,
            text,
            Move::Normal {
                from: fitting[0],
                to,
                promote,
            },
        ),
        _ => Err(MoveTextError::Ambiguous {
            text: text.into(),
            fits: moves
                .iter()
                .map(|&mv| write_in(pos, legal, mv, last_to))
                .collect(),
        }),
    }
}

/// The origins among `froms` of which the words of `p` are true.
fn fitting(us: Color, p: &Parsed, to: Square, froms: &[Square]) -> Vec<Square> {
    froms
        .iter()
        .copied()
        .filter(|&f| {
            p.vertical.is_none_or(|v| vertical_of(us, f, to) == v)
                && p.horizontal
                    .is_none_or(|h| horizontal_of(us, p.kind, f, to, froms) == Some(h))
        })
        .collect()
}

/// `mv` if it is legal, else why not.
fn checked(pos: &Position, legal: &[Move], text: &str, mv: Move) -> Result<Move, MoveTextError> {
    if legal.contains(&mv) {
        return Ok(mv);
    }
    Err(MoveTextError::Illegal {
        text: text.into(),
        mv,
        reason: pos.is_legal(mv).err().unwrap_or(IllegalMove::CannotReach),
        side: pos.side_to_move(),
    })
}
