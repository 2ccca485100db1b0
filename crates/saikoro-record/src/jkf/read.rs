//! Reading JKF: the JSON is read into [`format`](super::format)'s types, then every move is
//! played by the rules and its fields checked against the move they describe.

use super::format::{Entry, Initial, Jkf, MoveFields, Object, Place, Time};
use crate::build::Builder;
use crate::csa::notation::{piece_kind, piece_name};
use crate::csa::special_ending;
use crate::japanese::handicap_position;
use crate::jkf::PRESETS;
use crate::ki2::notation::Relative;
use crate::{Record, RecordError};
use saikoro_core::{ByColor, Color, Hand, Move, Piece, PieceType, Position, Setup, Square};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::value::RawValue;

/// The 1-based line of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The byte offset of `part`, a slice of `text`, in `text`.
fn offset_in(text: &str, part: &str) -> usize {
    part.as_ptr().addr().saturating_sub(text.as_ptr().addr())
}

/// serde_json's message without its ` at line L column C`, which the caller says its own way.
fn message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&at).unwrap_or(&text).to_string()
}

/// Why serde refused `part`: the whole text (`name` empty), or the `moves` item `name`
/// (`moves[3]`) starting on line `first`. Bad JSON is said with its line and column; a value of
/// the wrong type with its line and its path (`moves[3].move.to.x`), which a second reading,
/// into `T` with the path tracked, finds (the first goes without, for speed).
fn refusal<'a, T: Deserialize<'a>>(
    part: &'a str,
    name: &str,
    first: usize,
    e: &serde_json::Error,
) -> RecordError {
    let line = first + e.line().saturating_sub(1);
    if !e.is_data() {
        let what = format!("bad JSON at column {}: {}", e.column(), message(e));
        return RecordError::at(line, what);
    }
    if name.is_empty() && !part.trim_start().starts_with('{') {
        return RecordError::at(0, "a JKF text is a JSON object");
    }
    let mut d = serde_json::Deserializer::from_str(part);
    let tracked = serde_path_to_error::deserialize::<_, T>(&mut d).err();
    let path = tracked
        .as_ref()
        .map_or(".".to_string(), |t| t.path().to_string());
    let e = tracked.as_ref().map_or(e, |t| t.inner());
    let line = first + e.line().saturating_sub(1);
    let field = match (name, path.as_str()) {
        (_, ".") => name.to_string(),
        ("", p) => p.to_string(),
        (n, p) => format!("{n}.{p}"),
    };
    let why = message(e);
    RecordError::at(
        line,
        if field.is_empty() {
            why
        } else {
            format!("{field}: {why}")
        },
    )
}

/// What is wrong, said of a JSON path (`moves[3].move.piece`).
type Fault = String;

fn color(c: u64, path: &str) -> Result<Color, Fault> {
    match c {
        0 => Ok(Color::Black),
        1 => Ok(Color::White),
        _ => Err(format!("{path} is not a color (0 for 先手, 1 for 後手)")),
    }
}

fn place(p: &Place, path: &str) -> Result<Square, Fault> {
    let coord = |n: Option<u64>, k: &str| {
        n.filter(|n| (1..=9).contains(n))
            .ok_or_else(|| format!("{path}.{k} is not a number from 1 to 9"))
    };
    let (x, y) = (coord(p.x, "x")?, coord(p.y, "y")?);
    Ok(Square::new(x as u8, y as u8).expect("1..=9"))
}

fn kind(name: &str, path: &str) -> Result<PieceType, Fault> {
    piece_kind(name).ok_or_else(|| format!("{path} '{name}' is not a CSA piece name"))
}

fn number(n: u64, path: &str, max: u64) -> Result<u64, Fault> {
    (n <= max)
        .then_some(n)
        .ok_or_else(|| format!("{path} is not a whole number from 0 to {max}"))
}

/// The start position of `initial` (absent or `null`: 平手).
fn initial(init: Option<&Initial>) -> Result<Position, Fault> {
    let Some(init) = init else {
        return Ok(Position::startpos());
    };
    let preset = init.preset.as_deref().ok_or("initial.preset is missing")?;
    if preset != "OTHER" {
        return PRESETS
            .iter()
            .find(|(p, _)| *p == preset)
            .and_then(|(_, name)| handicap_position(name))
            .ok_or_else(|| format!("initial.preset '{preset}' is not a JKF preset"));
    }
    let data = init
        .data
        .as_deref()
        .ok_or("initial.preset is OTHER but initial.data is missing")?;
    let side = color(
        data.color.ok_or("initial.data.color is missing")?,
        "initial.data.color",
    )?;
    let mut setup = Setup {
        board: [None; 81],
        hands: ByColor([Hand::default(), Hand::default()]),
        side,
        ply: 1,
    };
    let board = data.board.as_ref().ok_or("initial.data.board is missing")?;
    board_cells(board, &mut setup)?;
    let hands = data.hands.as_ref().ok_or("initial.data.hands is missing")?;
    if hands.len() != 2 {
        return Err("initial.data.hands does not hold 2 hands".into());
    }
    for (c, hand) in Color::ALL.into_iter().zip(hands) {
        let path = format!("initial.data.hands[{}]", c as usize);
        for (name, n) in &hand.0 {
            let k = piece_kind(name)
                .filter(|k| k.is_hand_kind())
                .ok_or_else(|| format!("{path}: '{name}' is no piece of a hand"))?;
            let n = number(*n, &format!("{path}.{name}"), 18)?;
            setup.hands[c].set(k, n as u8);
        }
    }
    Position::from_setup(&setup, crate::game::START_KINGS)
        .map_err(|e| format!("initial.data is not a position: {e}"))
}

/// `initial.data.board`, `board[x-1][y-1]`, onto `setup`.
fn board_cells(files: &[Vec<Object<super::format::Cell>>], setup: &mut Setup) -> Result<(), Fault> {
    if files.len() != 9 {
        return Err("initial.data.board does not hold 9 files".into());
    }
    for (x, cells) in files.iter().enumerate() {
        if cells.len() != 9 {
            return Err(format!("initial.data.board[{x}] does not hold 9 squares"));
        }
        for (y, cell) in cells.iter().enumerate() {
            let path = format!("initial.data.board[{x}][{y}]");
            let piece = match (cell.color, cell.kind.as_deref()) {
                (None, None) => None,
                (Some(c), Some(k)) => Some(Piece::new(
                    color(c, &format!("{path}.color"))?,
                    kind(k, &format!("{path}.kind"))?,
                )),
                _ => return Err(format!("{path} has a color or a kind but not both")),
            };
            let sq = Square::new(x as u8 + 1, y as u8 + 1).expect("on the board");
            setup.board[sq.index()] = piece;
        }
    }
    Ok(())
}

/// A `time`'s `now` in milliseconds.
fn time_ms(t: &Time, path: &str) -> Result<u64, Fault> {
    let now = t
        .now
        .as_deref()
        .ok_or_else(|| format!("{path}.now is missing"))?;
    let part = |n: Option<u64>, k: &str| {
        n.map_or(Ok(0), |n| number(n, &format!("{path}.now.{k}"), 1 << 40))
    };
    Ok((part(now.h, "h")? * 3600 + part(now.m, "m")? * 60 + part(now.s, "s")?) * 1000)
}

/// The move `m` (a `move` object) describes in `pos`, checked: the side, the piece on `from`
/// (or in hand), `promote`, `capture` and `same` must agree with the board, and the move must
/// be legal.
fn read_move(
    pos: &Position,
    m: &MoveFields,
    path: &str,
    last_to: Option<Square>,
) -> Result<Move, Fault> {
    if let Some(c) = m.color {
        if color(c, &format!("{path}.color"))? != pos.side_to_move() {
            return Err(format!("{path}.color: not that side's turn"));
        }
    }
    // `same` stands for `to` when there is none: the square the last move went to (the
    // spec's `same`, 直前と同じ場合; tsshogi takes the square of the move before that).
    let to = match (m.to.as_deref(), m.same, last_to) {
        (Some(to), _, _) => place(to, &format!("{path}.to"))?,
        (None, Some(true), Some(last)) => last,
        (None, Some(true), None) => {
            return Err(format!("{path}.same is true but no move came before"))
        }
        (None, _, _) => return Err(format!("{path}.to is missing")),
    };
    let piece = kind(
        m.piece
            .as_deref()
            .ok_or_else(|| format!("{path}.piece is missing"))?,
        &format!("{path}.piece"),
    )?;
    let promote = m.promote.unwrap_or(false);
    let mv = match m.from.as_deref() {
        None => {
            if promote {
                return Err(format!("{path}: a drop does not promote"));
            }
            Move::Drop { kind: piece, to }
        }
        Some(f) => {
            let from = place(f, &format!("{path}.from"))?;
            match pos.piece_at(from) {
                Some(p) if p.color == pos.side_to_move() && p.kind == piece => {}
                Some(p) if p.color == pos.side_to_move() => {
                    return Err(format!(
                        "{path}.piece is {} but {}{} holds {}",
                        piece_name(piece),
                        from.file(),
                        from.rank(),
                        piece_name(p.kind)
                    ))
                }
                _ => {
                    return Err(format!(
                        "{path}.from: no piece of the side to move on {}{}",
                        from.file(),
                        from.rank()
                    ))
                }
            }
            Move::Normal { from, to, promote }
        }
    };
    check_claims(pos, m, path, to, last_to)?;
    pos.is_legal(mv)
        .map_err(|e| format!("{path} ({mv}) is illegal: {e}"))?;
    Ok(mv)
}

/// What a `move` object says besides the move itself, checked against the board: `capture`
/// (the piece on `to`), `same` (the last move went to `to`) and `relative` (its letters).
fn check_claims(
    pos: &Position,
    m: &MoveFields,
    path: &str,
    to: Square,
    last_to: Option<Square>,
) -> Result<(), Fault> {
    let captured = pos.piece_at(to).map(|p| p.kind);
    if let Some(c) = &m.capture {
        let c = kind(c, &format!("{path}.capture"))?;
        if captured != Some(c) {
            return Err(format!(
                "{path}.capture is {} but {}{} holds {}",
                piece_name(c),
                to.file(),
                to.rank(),
                captured.map_or("nothing", piece_name)
            ));
        }
    }
    if m.same == Some(true) && last_to != Some(to) {
        return Err(format!(
            "{path}.same is true but the last move did not go to {}{}",
            to.file(),
            to.rank()
        ));
    }
    if let Some(r) = &m.relative {
        if Relative::from_jkf(r).is_none() {
            return Err(format!(
                "{path}.relative '{r}' is not L/C/R, U/M/D or H letters"
            ));
        }
    }
    Ok(())
}

/// The game so far, as the `moves` items are read, and the text they are read from.
struct Reading<'t> {
    text: &'t str,
    tree: Builder,
}

/// A `moves` item or an item of a fork, read.
type Item<'t> = Entry<&'t RawValue>;

impl<'t> Reading<'t> {
    /// The error `fault` at the line where `part` starts, naming the variation read when it
    /// is not the main line.
    fn error(&self, part: &RawValue, fault: Fault) -> RecordError {
        let line = line_of(self.text, offset_in(self.text, part.get()));
        let a = self.tree.next_line();
        match a.is_main_line() {
            true => RecordError::at(line, fault),
            false => RecordError::at(line, format!("in {}: {fault}", a.line_name())),
        }
    }

    /// The item `raw` (its path `path`), read by serde.
    fn parse(&self, raw: &'t RawValue, path: &str) -> Result<Item<'t>, RecordError> {
        let text = raw.get();
        serde_json::from_str::<Object<Item<'t>>>(text)
            .map(|o| o.0)
            .map_err(|e| {
                let line = line_of(self.text, offset_in(self.text, text));
                refusal::<Object<Entry<IgnoredAny>>>(text, path, line, &e)
            })
    }

    /// The items of a line (`moves` from its item 1, or a fork) appended one after the other
    /// from the node read last, each item's forks played instead of it.
    fn items(
        &mut self,
        items: &[&'t RawValue],
        path: &str,
        from: usize,
    ) -> Result<(), RecordError> {
        for (i, &raw) in items.iter().enumerate().skip(from) {
            let item_path = format!("{path}[{i}]");
            let item = self.parse(raw, &item_path)?;
            let branch_point = self.tree.mark();
            let forks = self.node(raw, item, &item_path)?;
            if forks.is_empty() {
                continue;
            }
            let node = self.tree.mark();
            for (j, &fork) in forks.iter().enumerate() {
                let fork_path = format!("{item_path}.forks[{j}]");
                let list = fork_items(fork, &fork_path).map_err(|f| self.error(fork, f))?;
                if list.is_empty() {
                    return Err(self.error(
                        fork,
                        format!("{fork_path} is empty: a fork holds the moves of a variation"),
                    ));
                }
                self.tree.back_to(branch_point);
                self.items(&list, &fork_path, 0)?;
            }
            self.tree.back_to(node);
        }
        Ok(())
    }

    /// The item `raw` appended as a node: its move or end, time and comments; its forks.
    fn node(
        &mut self,
        raw: &RawValue,
        item: Item<'t>,
        path: &str,
    ) -> Result<Vec<&'t RawValue>, RecordError> {
        let err = |s: &Self, f: Fault| s.error(raw, f);
        if self.tree.at_end() {
            return Err(err(
                self,
                format!("{path} comes after the special that ended the line"),
            ));
        }
        let time = match &item.time {
            Some(t) => Some(time_ms(t, &format!("{path}.time")).map_err(|f| err(self, f))?),
            None => None,
        };
        match (item.mv, item.special) {
            (Some(_), Some(_)) => {
                return Err(err(self, format!("{path} has both move and special")))
            }
            (Some(m), None) => {
                let (pos, last_to) = (self.tree.position(), self.tree.last_to());
                let mv = read_move(pos, &m, &format!("{path}.move"), last_to)
                    .map_err(|f| err(self, f))?;
                self.tree
                    .play(mv, &format!("{path}.move"), time)
                    .map_err(|f| err(self, f))?;
            }
            (None, Some(word)) => {
                let end = special_ending(&word, self.tree.position().side_to_move()).ok_or_else(
                    || {
                        err(
                            self,
                            format!("{path}.special '{word}' is not a JKF special"),
                        )
                    },
                )?;
                self.tree.end(end, time).map_err(|f| err(self, f))?;
            }
            (None, None) => return Err(err(self, format!("{path} has neither move nor special"))),
        }
        for c in item.comments.unwrap_or_default() {
            self.tree.comment(c);
        }
        Ok(item.forks.unwrap_or_default())
    }
}

/// The items of a fork, which must be an array.
fn fork_items<'t>(fork: &'t RawValue, path: &str) -> Result<Vec<&'t RawValue>, Fault> {
    if !fork.get().trim_start().starts_with('[') {
        return Err(format!(
            "{path} is not an array: a fork is an array of moves items"
        ));
    }
    serde_json::from_str(fork.get()).map_err(|e| format!("{path}: {}", message(&e)))
}

/// The game of a JKF text (one JSON object), every move of every line checked by the rules and
/// against its own fields; the error's line is that of the `moves` item at fault (or of the
/// JSON error), none for the header and the start position.
pub fn read_records(text: &str) -> Result<Vec<Record>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let jkf: Object<Jkf<&RawValue>> = serde_json::from_str(text)
        .map_err(|e| refusal::<Object<Jkf<IgnoredAny>>>(text, "", 1, &e))?;
    let Jkf {
        header,
        initial: init,
        moves,
    } = jkf.0;
    let whole = |f: Fault| RecordError::at(0, f);
    let mut record = Record::new(initial(init.as_deref()).map_err(whole)?);
    record.header = header.map(|h| h.0).unwrap_or_default();
    let moves = moves.ok_or_else(|| whole("moves is missing".into()))?;
    let mut reading = Reading {
        text,
        tree: Builder::new(record.start.clone()),
    };
    if let Some(&first) = moves.first() {
        let start = reading.parse(first, "moves[0]")?;
        if start.mv.is_some() || start.special.is_some() || start.forks.is_some() {
            let f = "moves[0] is the start's item (comments only); the first move is moves[1]";
            return Err(reading.error(first, f.into()));
        }
        for c in start.comments.unwrap_or_default() {
            reading.tree.comment(c);
        }
    }
    reading.items(&moves, "moves", 1)?;
    let built = reading.tree.finish();
    record.comments = built.comments;
    record.moves = built.moves;
    record.end = built.end;
    Ok(vec![record])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of the `moves` items, from where their text lies in the whole: a `moves` in
    /// the header and a string holding `,]` are not items.
    #[test]
    fn offsets_of_the_moves_items() {
        let text =
            "{\"header\":{\"moves\":\"[1]\"},\n\"moves\":[\n{},\n {\"a\":[1,2]} ,\n\"x,]\"]}";
        let jkf: Jkf<&RawValue> = serde_json::from_str(text).unwrap();
        let offs: Vec<usize> = jkf
            .moves
            .unwrap()
            .iter()
            .map(|raw| offset_in(text, raw.get()))
            .collect();
        let lines: Vec<usize> = offs.iter().map(|&o| line_of(text, o)).collect();
        assert_eq!(lines, [3, 4, 5]);
        assert_eq!(&text[offs[1]..offs[1] + 5], "{\"a\":");
    }
}
