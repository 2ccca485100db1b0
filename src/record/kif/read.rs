//! Reading KIF records: the start position (`手合割`, or a board diagram, BOD), the main line's
//! moves, each checked by the rules as it is read, and the end word. Text only: decoding
//! Shift_JIS is the caller's.

use crate::record::japanese::{
    End, HANDICAPS, KANJI_NUMBERS, OTHER_PIECE_NAMES, PIECE_NAMES, WIDE_DIGITS,
};
use crate::{ByColor, Color, Game, Hand, Move, Piece, PieceType, Position, Setup, Square};
use std::fmt;

/// A record read: where it starts and the moves of its main line.
#[derive(Clone, Debug)]
pub struct KifRecord {
    /// The start position.
    pub start: Position,
    /// The moves, all legal from `start`.
    pub moves: Vec<Move>,
    /// The end word after the moves, if there is one.
    pub end: Option<End>,
}

/// Why a KIF text is not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for KifError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for KifError {}

/// The kind whose name `s` starts with (a move's name, a board diagram's, `王` or `竜`) and the
/// name's length.
fn piece_at_start(s: &str) -> Option<(PieceType, usize)> {
    PIECE_NAMES
        .iter()
        .flat_map(|&(kind, name, board)| [(name, kind), (board, kind)])
        .chain(OTHER_PIECE_NAMES)
        .find(|(name, _)| s.starts_with(name))
        .map(|(name, kind)| (kind, name.len()))
}

/// A digit written as ASCII, full-width (`１`) or kanji (`一`).
fn digit(c: char) -> Option<u8> {
    let kanji = |k: &&str| k.chars().eq(std::iter::once(c));
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => WIDE_DIGITS
            .iter()
            .position(|&w| w == c)
            .or_else(|| KANJI_NUMBERS[..9].iter().position(kanji))
            .map(|i| i as u8 + 1),
    }
}

/// A count in kanji as hands write it (`二`, `十`, `十八`); empty is one.
fn kanji_count(s: &str) -> Option<u8> {
    match s.split_once('十') {
        Some((tens, ones)) => {
            let t = if tens.is_empty() {
                1
            } else {
                digit(tens.chars().next()?)?
            };
            let o = if ones.is_empty() {
                0
            } else {
                digit(ones.chars().next()?)?
            };
            Some(t * 10 + o)
        }
        None if s.is_empty() => Some(1),
        None => digit(s.chars().next()?),
    }
}

/// A hand line's pieces (`飛　角　金二　歩十八`, `なし`).
fn parse_hand(text: &str) -> Option<Hand> {
    let mut hand = Hand::default();
    let text = text.trim();
    if text == "なし" || text.is_empty() {
        return Some(hand);
    }
    for part in text.split(['　', ' ']).filter(|p| !p.is_empty()) {
        let (kind, len) = piece_at_start(part)?;
        if !kind.is_hand_kind() {
            return None;
        }
        let n = kanji_count(&part[len..])?;
        hand.set(kind, hand.count(kind) + n);
    }
    Some(hand)
}

/// A board diagram's row (`|v香v桂 ・ ・ ・ ・ ・v桂v香|一`): nine cells of a side mark (` `
/// or `v`) and a piece (or `・`).
fn parse_row(text: &str, board: &mut [Option<Piece>; 81]) -> Option<()> {
    let inner = text.strip_prefix('|')?;
    let (cells, rank) = inner.split_once('|')?;
    let rank = digit(rank.trim().chars().next()?)?;
    let mut rest = cells;
    for file in (1..=9u8).rev() {
        let color = match rest.chars().next()? {
            'v' | 'V' => Color::White,
            ' ' | '^' | '+' => Color::Black,
            _ => return None,
        };
        rest = &rest[1..];
        let sq = Square::new(file, rank)?;
        if let Some(r) = rest.strip_prefix('・') {
            board[sq.index()] = None;
            rest = r;
        } else {
            let (kind, len) = piece_at_start(rest)?;
            board[sq.index()] = Some(Piece::new(color, kind));
            rest = &rest[len..];
        }
    }
    Some(())
}

/// What a move line says: the destination (or "the same square"), the piece, promotion and
/// origin (`None`: a drop).
struct KifMove {
    to: Option<Square>,
    kind: PieceType,
    promote: bool,
    drop: bool,
    from: Option<Square>,
}

/// Reads the move text after the number (`７六歩(77)`, `同　銀(31)`, `４五角打`), or an end
/// word (`Err`).
fn parse_move_text(text: &str) -> Result<Result<KifMove, End>, String> {
    let t = text.trim_start_matches([' ', '　']);
    if let Some(end) = End::at_start(t) {
        return Ok(Err(end));
    }
    let bad = || {
        format!(
            "'{}' is not a KIF move",
            t.split_whitespace().next().unwrap_or(t)
        )
    };
    let (to, rest) = if let Some(r) = t.strip_prefix('同') {
        (None, r.trim_start_matches([' ', '　']))
    } else {
        let mut cs = t.chars();
        let f = cs.next().and_then(digit).ok_or_else(bad)?;
        let r = cs.next().and_then(digit).ok_or_else(bad)?;
        (Some(Square::new(f, r).ok_or_else(bad)?), cs.as_str())
    };
    let (kind, len) = piece_at_start(rest).ok_or_else(bad)?;
    let mut rest = &rest[len..];
    let (mut promote, mut drop) = (false, false);
    if let Some(r) = rest
        .strip_prefix("不成")
        .or_else(|| rest.strip_prefix('生'))
    {
        rest = r;
    } else if let Some(r) = rest.strip_prefix('成') {
        promote = true;
        rest = r;
    } else if let Some(r) = rest.strip_prefix('打') {
        drop = true;
        rest = r;
    }
    let from = match rest.strip_prefix('(') {
        Some(r) => {
            let b = r.as_bytes();
            if b.len() < 3 || b[2] != b')' {
                return Err(bad());
            }
            let (f, rk) = (digit(b[0] as char), digit(b[1] as char));
            Some(Square::new(f.ok_or_else(bad)?, rk.ok_or_else(bad)?).ok_or_else(bad)?)
        }
        None => None,
    };
    Ok(Ok(KifMove {
        to,
        kind,
        promote,
        drop: drop || from.is_none(),
        from,
    }))
}

/// Whether a line is a move line: optional spaces, the move number, a space.
fn move_number(line: &str) -> Option<(u32, &str)> {
    let t = line.trim_start();
    let end = t.find(|c: char| !c.is_ascii_digit())?;
    if end == 0 || !t[end..].starts_with([' ', '　']) {
        return None;
    }
    Some((t[..end].parse().ok()?, &t[end..]))
}

/// Reads a KIF text: the start position, then the main line's moves, each checked by the rules,
/// and the end word after them.
pub fn parse(text: &str) -> Result<KifRecord, KifError> {
    let mut reader = Reader::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r').trim_start_matches('\u{feff}');
        match reader.line(line) {
            Ok(Next::Line) => {}
            Ok(Next::Stop) => break,
            Err(reason) => {
                return Err(KifError {
                    line: i + 1,
                    reason,
                })
            }
        }
    }
    let start = match &reader.game {
        Some(g) => g.start().clone(),
        None => reader.start().map_err(|reason| KifError {
            line: text.lines().count(),
            reason,
        })?,
    };
    Ok(KifRecord {
        start,
        moves: reader.moves,
        end: reader.end,
    })
}

/// Whether to read on after a line.
enum Next {
    Line,
    Stop,
}

/// A KIF text read so far: the start position's parts up to the first move line, then the
/// game.
struct Reader<'a> {
    handicap: Option<&'a str>,
    board: Option<[Option<Piece>; 81]>,
    hands: ByColor<Hand>,
    side: Option<Color>,
    game: Option<Game>,
    moves: Vec<Move>,
    last_to: Option<Square>,
    end: Option<End>,
}

impl<'a> Reader<'a> {
    fn new() -> Reader<'a> {
        Reader {
            handicap: None,
            board: None,
            hands: ByColor([Hand::default(); 2]),
            side: None,
            game: None,
            moves: Vec::new(),
            last_to: None,
            end: None,
        }
    }

    /// The start position the header lines give.
    fn start(&self) -> Result<Position, String> {
        start_position(self.handicap, self.board, self.hands, self.side)
    }

    /// Reads one line (its `\r` and BOM dropped).
    fn line(&mut self, line: &'a str) -> Result<Next, String> {
        if line.starts_with('#') || line.starts_with('*') || line.starts_with('&') {
            return Ok(Next::Line);
        }
        if line.starts_with("変化") || line.trim_start().starts_with("まで") {
            return Ok(Next::Stop);
        }
        if let Some((number, rest)) = move_number(line) {
            return self.move_line(number, rest);
        }
        if self.game.is_none() {
            self.header_line(line)?;
        }
        // After the first move: comments and time lines between the moves.
        Ok(Next::Line)
    }

    /// A header line: the handicap, a hand, the side to move, or a board diagram's row.
    fn header_line(&mut self, line: &'a str) -> Result<(), String> {
        let (key, value) = match line.split_once('：').or_else(|| line.split_once(':')) {
            Some((k, v)) => (k.trim(), v.trim()),
            None => (line.trim(), ""),
        };
        let hand = || parse_hand(value).ok_or_else(|| format!("bad hand '{value}'"));
        match key {
            "手合割" => self.handicap = Some(value),
            "後手の持駒" | "上手の持駒" => self.hands[Color::White] = hand()?,
            "先手の持駒" | "下手の持駒" => self.hands[Color::Black] = hand()?,
            "先手番" | "下手番" => self.side = Some(Color::Black),
            "後手番" | "上手番" => self.side = Some(Color::White),
            _ if line.starts_with('|') => {
                parse_row(line, self.board.get_or_insert([None; 81]))
                    .ok_or_else(|| format!("bad board row '{line}'"))?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Move line `number` (the text after the number): a move played, or the end word.
    fn move_line(&mut self, number: u32, rest: &str) -> Result<Next, String> {
        if self.game.is_none() {
            self.game = Some(Game::new(self.start()?));
        }
        if number as usize != self.moves.len() + 1 {
            return Err(format!(
                "move number {number} where {} was expected",
                self.moves.len() + 1
            ));
        }
        let km = match parse_move_text(rest)? {
            Ok(km) => km,
            Err(end) => {
                self.end = Some(end);
                return Ok(Next::Stop);
            }
        };
        let game = self.game.as_mut().expect("started above");
        let mv = resolve(&km, self.last_to, game.position(), number)?;
        game.try_play(mv)
            .map_err(|e| format!("move {number} ({mv}) is illegal: {e}"))?;
        self.moves.push(mv);
        self.last_to = Some(mv.to());
        Ok(Next::Line)
    }
}

/// The move a move line means in `pos` (`last_to`: the last move's destination, for `同`), its
/// piece checked against the board.
fn resolve(
    km: &KifMove,
    last_to: Option<Square>,
    pos: &Position,
    number: u32,
) -> Result<Move, String> {
    let to = km
        .to
        .or(last_to)
        .ok_or_else(|| "同 with no move before it".to_string())?;
    if km.drop {
        return Ok(Move::Drop { kind: km.kind, to });
    }
    let from = km.from.ok_or_else(|| "no origin square".to_string())?;
    let on = pos.piece_at(from).map(|p| p.kind);
    if on != Some(km.kind) {
        return Err(format!(
            "move {number}: no {} on {from}",
            crate::record::csa::notation::piece_name(km.kind)
        ));
    }
    Ok(Move::Normal {
        from,
        to,
        promote: km.promote,
    })
}

/// The start position: the board diagram if there is one (Black to move unless it says
/// otherwise, or White with a handicap), else the `手合割`, else 平手.
fn start_position(
    handicap: Option<&str>,
    board: Option<[Option<Piece>; 81]>,
    hands: ByColor<Hand>,
    side: Option<Color>,
) -> Result<Position, String> {
    let handicapped = handicap.is_some_and(|h| h != "平手");
    if let Some(board) = board {
        let side = side.unwrap_or(if handicapped {
            Color::White
        } else {
            Color::Black
        });
        let setup = Setup {
            board,
            hands,
            side,
            ply: 1,
        };
        return Position::from_setup(&setup, crate::KingRule::Required)
            .map_err(|e| format!("illegal board diagram: {e}"));
    }
    let name = handicap.unwrap_or("平手");
    let (_, sfen) = HANDICAPS
        .iter()
        .find(|(h, _)| *h == name)
        .ok_or_else(|| format!("手合割 '{name}' needs a board diagram"))?;
    Position::from_sfen(sfen).map_err(|e| format!("手合割 '{name}': {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::kif::End;

    #[test]
    fn moves_of_every_shape() {
        let text = "\
# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----
開始日時：2026/12/01 10:00:00
手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(33)   ( 0:01/00:00:02)
*a comment
   3 ２二角成(88)   ( 0:01/00:00:02)
   4 同　銀(31)   ( 0:01/00:00:03)
   5 ４五角打   ( 0:01/00:00:03)
   6 投了
まで5手で先手の勝ち
";
        let r = parse(text).unwrap();
        assert_eq!(r.start, Position::startpos());
        let usi: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert_eq!(r.end, Some(End::Resign));
    }

    /// A record as the match writes one, by hand: a 香落ち board (上手, White, to move), a
    /// promotion, a capture back (`同`), a drop, and a loss on time.
    #[test]
    fn a_match_record_with_a_handicap_board_and_its_end() {
        let text = "\u{feff}#KIF version=2.0 encoding=UTF-8
#saikoro match, game 1, round 1
開始日時：2026/12/01 10:00:00
棋戦：saikoro match
後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂 ・|一
| ・v飛 ・ ・ ・ ・ ・v角 ・|二
|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七
| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 金 玉 金 銀 桂 香|九
+---------------------------+
先手の持駒：なし
後手番
先手：a
後手：b
手数----指手---------消費時間--
   1 ３四歩(33)   ( 0:01/00:00:01)
   2 ７六歩(77)   ( 0:02/00:00:02)
   3 ８八角成(22) ( 0:00/00:00:01)
   4 同　銀(79)   ( 0:00/00:00:02)
   5 ３三桂(21)   ( 0:00/00:00:01)
   6 ５五角打     ( 0:00/00:00:02)
   7 切れ負け     ( 0:00/00:00:01)
*White's time is up
まで6手で時間切れにより先手の勝ち
";
        let r = parse(text).unwrap();
        assert_eq!(
            r.start.to_sfen(),
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        let usi: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(usi, ["3c3d", "7g7f", "2b8h+", "7i8h", "2a3c", "B*5e"]);
        assert_eq!(r.end, Some(End::TimeUp));
    }

    #[test]
    fn a_board_diagram_and_a_non_promotion() {
        // Black: king 5i, knight 4e; White: king 5a. Black plays 4e3c, not promoting.
        let text = "\
後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ 桂 ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：金二　歩十八
先手番
手数----指手---------消費時間--
   1 ３三桂不成(45)
";
        let r = parse(text).unwrap();
        assert_eq!(r.start.to_sfen(), "4k4/9/9/9/5N3/9/9/9/4K4 b 2G18P 1");
        assert_eq!(r.moves[0].to_string(), "4e3c");
    }

    #[test]
    fn a_handicap_starts_with_white() {
        let r = parse("手合割：香落ち\n   1 １一角(22)\n").unwrap();
        assert_eq!(r.start.side_to_move(), Color::White);
        assert_eq!(r.moves[0].to_string(), "2b1a");
    }

    #[test]
    fn any_cut_of_a_record_is_read_or_refused_without_a_panic() {
        let text = "手合割：平手\n後手の持駒：金二　歩十八\n|v香v桂 ・|一\n   1 ７六歩(77)   ( 0:01/00:00:01)\n\
                    *c\n   2 同　歩(７７)\n   3 ４五角打\n   4 ２二角成(88)\n   5 投了\n";
        for (i, _) in text.char_indices() {
            let _ = parse(&text[..i]);
            let _ = parse(&text[i..]);
        }
    }

    #[test]
    fn faults_name_their_line() {
        let e = parse("手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(77)\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.reason.contains("move 2"), "{e}");
        let e = parse("   1 ７五歩(77)\n").unwrap_err();
        assert!(e.reason.contains("illegal"), "{e}");
        let e = parse("   1 ７六歩(77)\n   3 ３四歩(33)\n").unwrap_err();
        assert!(e.reason.contains("move number 3"), "{e}");
        let e = parse("手合割：八枚落ち\n   1 ５二玉(51)\n").unwrap_err();
        assert!(e.reason.contains("board diagram"), "{e}");
        assert!(parse("   1 ７六金(77)\n").is_err());
    }
}
