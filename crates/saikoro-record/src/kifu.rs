//! The text of 棋譜 that KIF and KI2 share (Kakinoki's formats): the header, the start
//! position (`手合割`, or a board diagram, BOD), comments, variations and the end, read line by
//! line for either form, whose move lines are read by the form's own module. Every move is
//! checked by the rules as it is read. Text only: decoding Shift_JIS is the caller's.
//!
//! What it keeps and what it refuses is told in [`crate::kif`]'s documentation.

use crate::japanese::SIDE_MARKS;
use crate::japanese::{
    digit, ending_of_summary, ending_of_word, parse_hand, piece_at_start, rule_reason, side_name,
    KANJI_NUMBERS,
};
use crate::{Record, RecordError, RecordMove};
use saikoro_core::{ByColor, Color, Hand, Move, Piece, Position, Setup, Square};

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

/// Where a reader is in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Header,
    Moves,
    Ended,
    Variations,
}

/// A game read so far: the header and the start position's parts, then the moves.
pub(crate) struct Reader {
    syntax: Syntax,
    moves_reader: MoveLines,
    part: Part,
    header: Vec<(String, String)>,
    handicap: Option<String>,
    board: [Option<Piece>; 81],
    ranks: u16,
    hands: ByColor<Hand>,
    handicap_labels: bool,
    side: Option<Color>,
    comments: Vec<String>,
    /// The position after the moves read, once the first move line started them.
    pos: Option<Position>,
    moves: Vec<RecordMove>,
    pub(crate) last_to: Option<Square>,
    end: Option<crate::Ending>,
    end_comments: Vec<String>,
    variations: usize,
    /// The smallest move a `変化：N手` line names.
    variations_from: Option<usize>,
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
        part: Part::Header,
        header: Vec::new(),
        handicap: None,
        board: [None; 81],
        ranks: 0,
        hands: ByColor([Hand::default(); 2]),
        handicap_labels: false,
        side: None,
        comments: Vec::new(),
        pos: None,
        moves: Vec::new(),
        last_to: None,
        end: None,
        end_comments: Vec::new(),
        variations: 0,
        variations_from: None,
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
        r.line(line)
            .map_err(|reason| RecordError::at(i + 1, reason))?;
        lines = i + 1;
    }
    if !r.seen {
        return Err(RecordError::at(0, no_game_reason(text, syntax)));
    }
    let start = r.start().map_err(|reason| RecordError::at(lines, reason))?;
    Ok(Record {
        header: r.header,
        start,
        comments: r.comments,
        moves: r.moves,
        end: r.end,
        end_comments: r.end_comments,
        variations_dropped: r.variations,
        variations_from: r.variations_from,
    })
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
    /// How many moves have been read.
    pub(crate) fn moves_read(&self) -> usize {
        self.moves.len()
    }

    /// Whether the moves have ended (an end word or a `まで` line was read).
    pub(crate) fn is_ended(&self) -> bool {
        self.part == Part::Ended
    }

    /// The position after the moves read so far (the start before the first).
    pub(crate) fn position(&mut self) -> Result<&Position, String> {
        if self.pos.is_none() {
            self.pos = Some(self.start()?);
        }
        Ok(self.pos.as_ref().expect("set above"))
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

    /// Counts a variation, `tail` the rest of its `変化：N手` line (its move, ASCII or
    /// full-width digits, kept when it is the smallest yet).
    fn variation(&mut self, tail: &str) {
        self.variations += 1;
        let digits: String = tail
            .trim_start_matches([':', '：', ' ', '\u{3000}'])
            .chars()
            .map_while(|c| match c {
                '0'..='9' => Some(c),
                '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32),
                _ => None,
            })
            .collect();
        if let Ok(n) = digits.parse::<usize>() {
            self.variations_from = Some(self.variations_from.map_or(n, |m| m.min(n)));
        }
    }

    /// Reads one line (without its `\r`).
    fn line(&mut self, line: &str) -> Result<(), String> {
        let trimmed = line.trim_matches([' ', '\u{3000}', '\t']);
        if trimmed.is_empty() || line.starts_with('#') || line.starts_with('&') {
            return Ok(());
        }
        if self.part == Part::Variations {
            if let Some(tail) = trimmed.strip_prefix("変化") {
                self.variation(tail);
            }
            return Ok(());
        }
        if let Some(c) = line.strip_prefix('*') {
            let c = c.to_string();
            match self.part {
                Part::Header => self.comments.push(c),
                Part::Ended => self.end_comments.push(c),
                _ => match self.moves.last_mut() {
                    Some(m) => m.comments.push(c),
                    None => self.comments.push(c),
                },
            }
            return Ok(());
        }
        if let Some(tail) = trimmed.strip_prefix("変化") {
            if self.part != Part::Header {
                self.part = Part::Variations;
                self.variation(tail);
            }
            return Ok(());
        }
        if let Some(tail) = trimmed.strip_prefix("まで") {
            return self.summary_line(tail);
        }
        if self.position_line(line)? {
            if self.part != Part::Header {
                return Err(format!(
                    "'{trimmed}': a position line after the moves (one game a record)"
                ));
            }
            self.seen = true;
            return Ok(());
        }
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
            self.position()?;
            if self.part == Part::Header {
                self.part = Part::Moves;
            }
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
        match self.part {
            // The header's other lines: a diagram's frame and file numbers, titles.
            Part::Header | Part::Ended => Ok(()),
            _ => Err(format!(
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

    /// A `まで…` line (the text after `まで`): the end for KI2, or a KIF record's end when its
    /// moves gave none; its move count must be the record's.
    fn summary_line(&mut self, tail: &str) -> Result<(), String> {
        self.seen = true;
        let next = self.position()?.side_to_move();
        let t = tail.trim_start_matches([' ', '\u{3000}', '、']);
        let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() && t[digits.len()..].starts_with("手") {
            let n: usize = digits
                .parse()
                .map_err(|_| format!("bad move count {digits}"))?;
            if n != self.moves.len() {
                return Err(format!(
                    "まで{n}手: the record has {} moves",
                    self.moves.len()
                ));
            }
        }
        if self.end.is_none() {
            self.end = Some(
                ending_of_summary(t, next)
                    .ok_or_else(|| format!("'まで{t}' names no end this reader knows"))?,
            );
        }
        self.part = Part::Ended;
        Ok(())
    }

    /// Ends the moves with `end` (an end word read where a move would be).
    pub(crate) fn end_with(&mut self, word: &str) -> Result<bool, String> {
        let next = self.position()?.side_to_move();
        match ending_of_word(word, next) {
            Some(end) => {
                self.end = Some(end);
                self.part = Part::Ended;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Plays `mv` (checked by the rules) with its time; `text` names it in an error.
    pub(crate) fn play(
        &mut self,
        mv: Move,
        text: &str,
        time_ms: Option<u64>,
    ) -> Result<(), String> {
        let pos = self.position()?;
        if let Err(e) = pos.is_legal(mv) {
            return Err(format!(
                "{text}: {}",
                rule_reason(pos.side_to_move(), mv, e)
            ));
        }
        self.pos.as_mut().expect("set above").do_move(mv);
        self.moves.push(RecordMove {
            mv,
            time_ms,
            comments: Vec::new(),
        });
        self.last_to = Some(mv.to());
        self.part = Part::Moves;
        Ok(())
    }
}
