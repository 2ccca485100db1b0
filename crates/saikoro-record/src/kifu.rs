//! The text of 棋譜 that KIF and KI2 share (Kakinoki's formats): the header, the start
//! position (`手合割`, or a board diagram, BOD), comments, variations and the end, read line by
//! line for either form, whose move lines are read by the form's own module. Every move is
//! checked by the rules as it is read. Text only: decoding Shift_JIS is the caller's.
//!
//! What it keeps and what it refuses is told in [`crate::kif`]'s documentation.

use crate::build::Builder;
use crate::japanese::SIDE_MARKS;
use crate::japanese::{
    digit, ending_of_summary, ending_of_word, parse_hand, piece_at_start, side_name, KANJI_NUMBERS,
};
use crate::{Record, RecordError};
use saikoro_core::{ByColor, Color, Hand, Piece, Position, Setup, Square};

/// Which move lines a text holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// KIF: numbered lines with the origin (`   1 ７六歩(77)`).
    Kif,
    /// KI2: `▲７六歩　△３四歩`, several a line.
    Ki2,
}

impl Syntax {
    fn name(self) -> &'static str {
        match self {
            Syntax::Kif => "KIF",
            Syntax::Ki2 => "KI2",
        }
    }
}

/// A game read so far: the header and the start position's parts, then the tree of moves.
pub(crate) struct Reader {
    syntax: Syntax,
    moves_reader: MoveLines,
    header: Vec<(String, String)>,
    file_comments: Vec<String>,
    handicap: Option<String>,
    board: [Option<Piece>; 81],
    ranks: u16,
    hands: ByColor<Hand>,
    handicap_labels: bool,
    side: Option<Color>,
    /// The start's comment and bookmark, until the moves begin.
    comments: Vec<String>,
    bookmark: Option<String>,
    /// The moves, once a move line, a variation or a `まで` line began them.
    tree: Option<Builder>,
    /// The number the next KIF move line must have: that of the `変化：N手` line just read.
    pub(crate) variation: Option<usize>,
    /// Whether a line only a game has was read: `手合割`, a board row, the moves' heading, a
    /// move line or a `まで` line.
    seen: bool,
}

/// A form's reader of its move lines: the line (for KIF the whole line, for KI2 without its
/// leading spaces), played on the reader.
pub(crate) type MoveLines = fn(&mut Reader, &str) -> Result<(), String>;

/// Reads a KIF or KI2 text into its one record, the form's move lines read by `moves`.
pub(crate) fn read_text(
    text: &str,
    syntax: Syntax,
    moves: MoveLines,
) -> Result<Record, RecordError> {
    let mut r = Reader {
        syntax,
        moves_reader: moves,
        header: Vec::new(),
        file_comments: Vec::new(),
        handicap: None,
        board: [None; 81],
        ranks: 0,
        hands: ByColor([Hand::default(); 2]),
        handicap_labels: false,
        side: None,
        comments: Vec::new(),
        bookmark: None,
        tree: None,
        variation: None,
        seen: false,
    };
    let mut lines = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        r.line(line).map_err(|reason| r.error(i + 1, reason))?;
        lines = i + 1;
    }
    if !r.seen {
        return Err(RecordError::at(0, no_game_reason(text, syntax)));
    }
    let start = r.start().map_err(|reason| RecordError::at(lines, reason))?;
    let tree = r.tree.take().unwrap_or_else(|| Builder::new(start.clone()));
    let mut record = Record::new(start);
    let built = tree.finish();
    record.header = r.header;
    record.file_comments = r.file_comments;
    record.comments = r.comments;
    record.comments.extend(built.comments);
    record.bookmark = built.bookmark.or(r.bookmark);
    record.moves = built.moves;
    record.end = built.end;
    Ok(record)
}

/// Why a text with no game line is refused, naming the form it looks like when it is a CSA
/// record.
fn no_game_reason(text: &str, syntax: Syntax) -> String {
    let csa = text.lines().map(str::trim).any(|l| {
        l.starts_with("V2")
            || l.starts_with("PI")
            || l.starts_with("P1")
            || ((l.starts_with('+') || l.starts_with('-'))
                && l.len() >= 7
                && l.as_bytes()[1..5].iter().all(u8::is_ascii_digit))
    });
    let mut reason = format!("no moves and no position: not a {} record", syntax.name());
    if csa {
        reason.push_str(" (it looks like a CSA record: read it as CSA)");
    }
    reason
}

/// The KIF move line's number and the text after it: optional spaces, the number, a space.
pub(crate) fn move_number(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start_matches(' ');
    let end = t.find(|c: char| !c.is_ascii_digit())?;
    if end == 0 || !t[end..].starts_with([' ', '\u{3000}']) {
        return None;
    }
    Some((t[..end].parse().ok()?, &t[end..]))
}

/// Whether a line holds KI2 moves: a side mark after optional spaces.
fn is_ki2_line(line: &str) -> bool {
    line.trim_start_matches([' ', '\u{3000}'])
        .starts_with(|c: char| SIDE_MARKS.iter().any(|&(m, _)| m == c))
}

/// A header line's key and value (`^[^ ：:]+[：:]`), if it is one.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let at = line.find(['：', ':'])?;
    let key = &line[..at];
    if key.is_empty() || key.contains([' ', '\u{3000}']) {
        return None;
    }
    let colon = line[at..].chars().next()?.len_utf8();
    Some((key, line[at + colon..].trim_matches([' ', '\u{3000}'])))
}

impl Reader {
    /// The tree of moves, begun from the start position the header gave when there is none.
    pub(crate) fn tree(&mut self) -> Result<&mut Builder, String> {
        if self.tree.is_none() {
            self.tree = Some(Builder::new(self.start()?));
        }
        Ok(self.tree.as_mut().expect("set above"))
    }

    /// The error `reason` at `line`, naming the variation being read when it is not the main
    /// line.
    fn error(&self, line: usize, reason: String) -> RecordError {
        match self.tree.as_ref().map(Builder::next_line) {
            Some(a) if !a.is_main_line() => {
                RecordError::at(line, format!("in {}: {reason}", a.line_name()))
            }
            _ => RecordError::at(line, reason),
        }
    }

    /// The start position the header lines give: the board diagram if there is one, else the
    /// `手合割`, else 平手.
    fn start(&self) -> Result<Position, String> {
        let handicapped = self.handicap.as_deref().is_some_and(|h| h != "平手");
        if self.ranks != 0 {
            if self.ranks != 0b11_1111_1110 {
                let missing: Vec<&str> = (1..=9)
                    .filter(|r| self.ranks & (1 << r) == 0)
                    .map(|r| KANJI_NUMBERS[r - 1])
                    .collect();
                return Err(format!(
                    "the board diagram has no row {}",
                    missing.join(", ")
                ));
            }
            let side = self.side.unwrap_or(if handicapped || self.handicap_labels {
                Color::White
            } else {
                Color::Black
            });
            let setup = Setup {
                board: self.board,
                hands: self.hands,
                side,
                ply: 1,
            };
            return Position::from_setup(&setup, crate::game::START_KINGS)
                .map_err(|e| format!("illegal board diagram: {e}"));
        }
        let name = self.handicap.as_deref().unwrap_or("平手");
        let mut pos = crate::japanese::handicap_position(name)
            .ok_or_else(|| format!("手合割 '{name}' needs a board diagram"))?;
        if let Some(side) = self.side.filter(|&s| s != pos.side_to_move()) {
            let mut setup = pos.to_setup();
            setup.side = side;
            pos = Position::from_setup(&setup, crate::game::START_KINGS)
                .map_err(|e| format!("手合割 '{name}' with {}番: {e}", side_name(side)))?;
        }
        Ok(pos)
    }

    /// A `変化：N手` line, `tail` what follows `変化` (a colon, spaces, the number in ASCII or
    /// full-width digits, `手`): back to the branch point of the variation at move N.
    fn variation(&mut self, tail: &str) -> Result<(), String> {
        let t = tail.trim_start_matches([':', '：', ' ', '\u{3000}']);
        let digits: String = t
            .chars()
            .map_while(|c| match c {
                '0'..='9' => Some(c),
                '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32),
                _ => None,
            })
            .collect();
        let n = digits
            .parse::<usize>()
            .map_err(|_| format!("'変化{tail}' names no move (変化：N手)"))?;
        self.seen = true;
        self.tree()?.branch(n)?;
        self.variation = Some(n);
        Ok(())
    }

    /// A `*` comment line's text, on the node read last (the start before the moves).
    fn comment(&mut self, text: &str) {
        match self.tree.as_mut() {
            Some(t) => t.comment(text.to_string()),
            None => self.comments.push(text.to_string()),
        }
    }

    /// A `&` bookmark line's text, on the node read last; an empty one is none.
    fn bookmark(&mut self, text: &str) {
        let text = text.trim_matches([' ', '\u{3000}']);
        if text.is_empty() {
            return;
        }
        match self.tree.as_mut() {
            Some(t) => t.bookmark(text.to_string()),
            None => self.bookmark = Some(text.to_string()),
        }
    }

    /// A `#` line: a comment of the file, kept but for the `#KIF version=…` line.
    fn file_comment(&mut self, text: &str) {
        let version = ["KIF version=", "KI2 version="]
            .iter()
            .any(|v| text.starts_with(v));
        if !version {
            self.file_comments.push(text.to_string());
        }
    }

    /// Reads one line (without its `\r`).
    fn line(&mut self, line: &str) -> Result<(), String> {
        let trimmed = line.trim_matches([' ', '\u{3000}', '\t']);
        if trimmed.is_empty() {
            return Ok(());
        }
        if let Some(c) = line.strip_prefix('#') {
            self.file_comment(c);
            return Ok(());
        }
        if let Some(c) = line.strip_prefix('&') {
            self.bookmark(c);
            return Ok(());
        }
        if let Some(c) = line.strip_prefix('*') {
            self.comment(c);
            return Ok(());
        }
        // `変化：N手` (a colon, as tsshogi's reader asks); a header key that starts with 変化
        // (`変化手数：…`) is a header line.
        if let Some(tail) = trimmed
            .strip_prefix("変化")
            .filter(|t| t.starts_with([':', '：']))
        {
            return self.variation(tail);
        }
        if let Some(tail) = trimmed.strip_prefix("まで") {
            return self.summary_line(tail);
        }
        if self.position_line(line)? {
            if self.tree.is_some() {
                return Err(format!(
                    "'{trimmed}': a position line after the moves (one game a record)"
                ));
            }
            self.seen = true;
            return Ok(());
        }
        self.game_line(line, trimmed)
    }

    /// A line that is not a comment, a variation, a `まで` line or part of the position: a move
    /// line, the moves' heading, a header line, or a line to ignore.
    fn game_line(&mut self, line: &str, trimmed: &str) -> Result<(), String> {
        if move_number(line).is_some() {
            if self.syntax == Syntax::Ki2 {
                return Err(format!("'{trimmed}': a KIF move line in a KI2 record"));
            }
            self.seen = true;
            return (self.moves_reader)(self, line);
        }
        if is_ki2_line(line) {
            if self.syntax == Syntax::Kif {
                return Err(format!("'{trimmed}': a KI2 move line in a KIF record"));
            }
            self.seen = true;
            self.tree()?;
            return (self.moves_reader)(self, trimmed);
        }
        if trimmed.starts_with("手数-") || trimmed.starts_with("手数─") {
            self.seen = true;
            return Ok(());
        }
        if let Some((key, value)) = key_value(line) {
            // The players are kept by side (先手, 後手) whatever the form called them: a
            // handicap game's 下手 and 上手 are written back as such by KIF and KI2.
            let key = match key {
                "下手" => "先手",
                "上手" => "後手",
                other => other,
            };
            self.header.push((key.to_string(), value.to_string()));
            return Ok(());
        }
        match &self.tree {
            // The header's other lines (a diagram's frame and file numbers, titles), and what
            // follows an end.
            None => Ok(()),
            Some(t) if t.at_end() => Ok(()),
            Some(_) => Err(format!(
                "'{trimmed}' is not a move, a comment or an end of a {} record",
                self.syntax.name()
            )),
        }
    }

    /// A line of the start position (`手合割`, a hand, the side to move, a board row): read, and
    /// `true`; `false` for any other line.
    fn position_line(&mut self, line: &str) -> Result<bool, String> {
        let trimmed = line.trim_matches([' ', '\u{3000}']);
        for (side, color, handicap) in [
            ("先手番", Color::Black, false),
            ("下手番", Color::Black, true),
            ("後手番", Color::White, false),
            ("上手番", Color::White, true),
        ] {
            if trimmed == side {
                self.side = Some(color);
                self.handicap_labels |= handicap;
                return Ok(true);
            }
        }
        if line.starts_with('|') {
            self.board_row(line)
                .ok_or_else(|| format!("'{line}' is not a board diagram's row"))?;
            return Ok(true);
        }
        let Some((key, value)) = key_value(line) else {
            return Ok(false);
        };
        let hand = |value: &str| parse_hand(value).ok_or_else(|| format!("bad hand '{value}'"));
        match key {
            "手合割" => self.handicap = Some(value.to_string()),
            "先手の持駒" => self.hands[Color::Black] = hand(value)?,
            "後手の持駒" => self.hands[Color::White] = hand(value)?,
            "下手の持駒" => {
                self.hands[Color::Black] = hand(value)?;
                self.handicap_labels = true;
            }
            "上手の持駒" => {
                self.hands[Color::White] = hand(value)?;
                self.handicap_labels = true;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A board diagram's row (`|v香v桂 ・ ・ ・ ・ ・v桂v香|一`): nine cells of a side mark
    /// (` ` or `v`) and a piece (or `・`), then the rank.
    fn board_row(&mut self, line: &str) -> Option<()> {
        let inner = line.strip_prefix('|')?;
        let (cells, rank) = inner.split_once('|')?;
        let mut rank_chars = rank.trim_matches([' ', '\u{3000}']).chars();
        let rank = digit(rank_chars.next()?)?;
        if rank_chars.next().is_some() || self.ranks & (1 << rank) != 0 {
            return None;
        }
        let mut rest = cells;
        for file in (1..=9u8).rev() {
            let mut cs = rest.chars();
            let color = match cs.next()? {
                'v' | 'V' => Color::White,
                ' ' | '^' | '+' => Color::Black,
                _ => return None,
            };
            rest = cs.as_str();
            let sq = Square::new(file, rank)?;
            if let Some(r) = rest.strip_prefix('・') {
                self.board[sq.index()] = None;
                rest = r;
            } else {
                let (kind, len) = piece_at_start(rest)?;
                self.board[sq.index()] = Some(Piece::new(color, kind));
                rest = &rest[len..];
            }
        }
        if !rest.trim_matches([' ', '\u{3000}']).is_empty() {
            return None;
        }
        self.ranks |= 1 << rank;
        Some(())
    }

    /// A `まで…` line (the text after `まで`): the end of the line read last for KI2, or for a
    /// KIF line whose moves gave none; its move count must be the line's.
    fn summary_line(&mut self, tail: &str) -> Result<(), String> {
        self.seen = true;
        let tree = self.tree()?;
        let next = tree.position().side_to_move();
        let t = tail.trim_start_matches([' ', '\u{3000}', '、']);
        let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() && t[digits.len()..].starts_with("手") {
            let n: usize = digits
                .parse()
                .map_err(|_| format!("bad move count {digits}"))?;
            let moves = tree.moves_in_line();
            if n != moves {
                let s = if moves == 1 { "" } else { "s" };
                return Err(format!("まで{n}手: the line has {moves} move{s}"));
            }
        }
        if !tree.at_end() {
            let end = ending_of_summary(t, next)
                .ok_or_else(|| format!("'まで{t}' names no end this reader knows"))?;
            tree.end(end, None)?;
        }
        Ok(())
    }

    /// Ends the line read last with the end word `word` (read where a move would be) and its
    /// time: `true`, or `false` when `word` is no end word.
    pub(crate) fn end_with(&mut self, word: &str, time_ms: Option<u64>) -> Result<bool, String> {
        let tree = self.tree()?;
        let next = tree.position().side_to_move();
        match ending_of_word(word, next) {
            Some(end) => tree.end(end, time_ms).map(|()| true),
            None => Ok(false),
        }
    }
}
