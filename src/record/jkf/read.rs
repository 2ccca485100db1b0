//! Reading JKF: the JSON is read strictly ([`crate::json::Json`]), then every move is played by
//! the rules and its fields checked against the move they describe.

use crate::json::Json;
use crate::record::csa::notation::{piece_kind, piece_name};
use crate::record::csa::special_ending;
use crate::record::japanese::handicap_position;
use crate::record::jkf::PRESETS;
use crate::record::ki2::notation::Relative;
use crate::record::{Record, RecordError, RecordMove};
use crate::{ByColor, Color, Hand, Move, Piece, Position, Setup, Square};

/// The 1-based line of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The byte offsets of the items of the top-level object's `moves` array, found by a scan of
/// the text (which [`Json::parse`] has already read without error), for the lines of errors.
fn move_offsets(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let (mut i, mut depth) = (0, 0usize);
    let mut out = Vec::new();
    // The depth of the `moves` array when inside it, and whether an item may start next.
    let mut moves_depth: Option<usize> = None;
    let mut item_next = false;
    let mut last_key_moves = false;
    while i < b.len() {
        let c = b[i];
        if item_next && !c.is_ascii_whitespace() && c != b']' {
            out.push(i);
            item_next = false;
        }
        match c {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                last_key_moves = depth == 1 && &text[start..i.min(b.len())] == "moves";
            }
            b'{' | b'[' => {
                depth += 1;
                if c == b'[' && depth == 2 && last_key_moves && moves_depth.is_none() {
                    moves_depth = Some(depth);
                    item_next = true;
                }
            }
            b'}' | b']' => {
                if moves_depth == Some(depth) {
                    moves_depth = Some(usize::MAX);
                }
                depth = depth.saturating_sub(1);
            }
            b',' if moves_depth == Some(depth) => item_next = true,
            _ => {}
        }
        i += 1;
    }
    out
}

/// What is wrong, said of a JSON path (`moves[3].move.piece`).
type Fault = String;

fn field<'a>(obj: &'a Json, key: &str) -> Option<&'a Json> {
    obj.get(key).filter(|v| **v != Json::Null)
}

fn object<'a>(v: &'a Json, path: &str) -> Result<&'a [(String, Json)], Fault> {
    match v {
        Json::Object(m) => Ok(m),
        _ => Err(format!("{path} is not an object")),
    }
}

fn array<'a>(v: &'a Json, path: &str) -> Result<&'a [Json], Fault> {
    v.as_array()
        .ok_or_else(|| format!("{path} is not an array"))
}

fn string<'a>(v: &'a Json, path: &str) -> Result<&'a str, Fault> {
    v.as_str().ok_or_else(|| format!("{path} is not a string"))
}

fn number(v: &Json, path: &str, max: u64) -> Result<u64, Fault> {
    v.as_number::<u64>()
        .filter(|&n| n <= max)
        .ok_or_else(|| format!("{path} is not a whole number from 0 to {max}"))
}

fn color(v: &Json, path: &str) -> Result<Color, Fault> {
    match v.as_number::<u8>() {
        Some(0) => Ok(Color::Black),
        Some(1) => Ok(Color::White),
        _ => Err(format!("{path} is not a color (0 for 先手, 1 for 後手)")),
    }
}

fn place(v: &Json, path: &str) -> Result<Square, Fault> {
    object(v, path)?;
    let coord = |k: &str| {
        field(v, k)
            .and_then(|n| n.as_number::<u8>())
            .filter(|n| (1..=9).contains(n))
            .ok_or_else(|| format!("{path}.{k} is not a number from 1 to 9"))
    };
    let (x, y) = (coord("x")?, coord("y")?);
    Ok(Square::new(x, y).expect("1..=9"))
}

fn kind(v: &Json, path: &str) -> Result<crate::PieceType, Fault> {
    let name = string(v, path)?;
    piece_kind(name).ok_or_else(|| format!("{path} '{name}' is not a CSA piece name"))
}

/// The start position of `initial` (absent or `null`: 平手).
fn initial(v: Option<&Json>) -> Result<Position, Fault> {
    let Some(init) = v else {
        return Ok(Position::startpos());
    };
    object(init, "initial")?;
    let preset = string(
        field(init, "preset").ok_or("initial.preset is missing")?,
        "initial.preset",
    )?;
    if preset != "OTHER" {
        return PRESETS
            .iter()
            .find(|(p, _)| *p == preset)
            .and_then(|(_, name)| handicap_position(name))
            .ok_or_else(|| format!("initial.preset '{preset}' is not a JKF preset"));
    }
    let data = field(init, "data").ok_or("initial.preset is OTHER but initial.data is missing")?;
    object(data, "initial.data")?;
    let side = color(
        field(data, "color").ok_or("initial.data.color is missing")?,
        "initial.data.color",
    )?;
    let mut setup = Setup {
        board: [None; 81],
        hands: ByColor([Hand::default(), Hand::default()]),
        side,
        ply: 1,
    };
    let board = field(data, "board").ok_or("initial.data.board is missing")?;
    let files = array(board, "initial.data.board")?;
    if files.len() != 9 {
        return Err("initial.data.board does not hold 9 files".into());
    }
    for (x, file) in files.iter().enumerate() {
        let cells = array(file, &format!("initial.data.board[{x}]"))?;
        if cells.len() != 9 {
            return Err(format!("initial.data.board[{x}] does not hold 9 squares"));
        }
        for (y, cell) in cells.iter().enumerate() {
            let path = format!("initial.data.board[{x}][{y}]");
            object(cell, &path)?;
            let (c, k) = (field(cell, "color"), field(cell, "kind"));
            let piece = match (c, k) {
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
    let hands = field(data, "hands").ok_or("initial.data.hands is missing")?;
    let hands = array(hands, "initial.data.hands")?;
    if hands.len() != 2 {
        return Err("initial.data.hands does not hold 2 hands".into());
    }
    for (c, hand) in Color::ALL.into_iter().zip(hands) {
        let path = format!("initial.data.hands[{}]", c as usize);
        for (name, n) in object(hand, &path)? {
            let k = piece_kind(name)
                .filter(|k| k.is_hand_kind())
                .ok_or_else(|| format!("{path}: '{name}' is no piece of a hand"))?;
            let n = number(n, &format!("{path}.{name}"), 18)?;
            setup.hands[c].set(k, n as u8);
        }
    }
    Position::from_setup(&setup, crate::record::game::START_KINGS)
        .map_err(|e| format!("initial.data is not a position: {e}"))
}

/// A `time`'s `now` in milliseconds.
fn time_ms(v: &Json, path: &str) -> Result<u64, Fault> {
    object(v, path)?;
    let now = field(v, "now").ok_or_else(|| format!("{path}.now is missing"))?;
    let path = format!("{path}.now");
    object(now, &path)?;
    let part =
        |k: &str| field(now, k).map_or(Ok(0), |n| number(n, &format!("{path}.{k}"), 1 << 40));
    Ok((part("h")? * 3600 + part("m")? * 60 + part("s")?) * 1000)
}

/// The comments of an entry.
fn comments(v: &Json, path: &str) -> Result<Vec<String>, Fault> {
    match field(v, "comments") {
        None => Ok(Vec::new()),
        Some(c) => array(c, &format!("{path}.comments"))?
            .iter()
            .map(|s| string(s, &format!("{path}.comments[]")).map(str::to_string))
            .collect(),
    }
}

/// How many variations `forks` holds, those inside them counted too.
fn forks(v: &Json) -> usize {
    let Some(list) = field(v, "forks").and_then(Json::as_array) else {
        return 0;
    };
    list.len()
        + list
            .iter()
            .filter_map(Json::as_array)
            .flatten()
            .map(forks)
            .sum::<usize>()
}

/// The move `m` (a `move` object) describes in `pos`, checked: the side, the piece on `from`
/// (or in hand), `promote`, `capture` and `same` must agree with the board, and the move must
/// be legal.
fn read_move(pos: &Position, m: &Json, path: &str, last_to: Option<Square>) -> Result<Move, Fault> {
    object(m, path)?;
    if let Some(c) = field(m, "color") {
        let c = color(c, &format!("{path}.color"))?;
        if c != pos.side_to_move() {
            return Err(format!("{path}.color: not that side's turn"));
        }
    }
    let to = place(
        field(m, "to").ok_or_else(|| format!("{path}.to is missing"))?,
        &format!("{path}.to"),
    )?;
    let piece = kind(
        field(m, "piece").ok_or_else(|| format!("{path}.piece is missing"))?,
        &format!("{path}.piece"),
    )?;
    let promote = match field(m, "promote") {
        None => false,
        Some(p) => p
            .as_bool()
            .ok_or_else(|| format!("{path}.promote is not true or false"))?,
    };
    let mv = match field(m, "from") {
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
    m: &Json,
    path: &str,
    to: Square,
    last_to: Option<Square>,
) -> Result<(), Fault> {
    let captured = pos.piece_at(to).map(|p| p.kind);
    if let Some(c) = field(m, "capture") {
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
    if field(m, "same").and_then(Json::as_bool) == Some(true) && last_to != Some(to) {
        return Err(format!(
            "{path}.same is true but the last move did not go to {}{}",
            to.file(),
            to.rank()
        ));
    }
    if let Some(r) = field(m, "relative") {
        let r = string(r, &format!("{path}.relative"))?;
        if Relative::from_jkf(r).is_none() {
            return Err(format!(
                "{path}.relative '{r}' is not L/C/R, U/M/D or H letters"
            ));
        }
    }
    Ok(())
}

/// Reads one JKF object; errors name the JSON path, and the index of the `moves` item where
/// there is one.
fn read_game(v: &Json) -> Result<Record, (Option<usize>, Fault)> {
    let whole = |f: Fault| (None, f);
    object(v, "the text").map_err(|_| whole("a JKF text is a JSON object".into()))?;
    let mut record = Record::new(initial(field(v, "initial")).map_err(whole)?);
    if let Some(h) = field(v, "header") {
        for (k, value) in object(h, "header").map_err(whole)? {
            let value = string(value, &format!("header.{k}")).map_err(whole)?;
            record.header.push((k.clone(), value.to_string()));
        }
    }
    let moves = field(v, "moves").ok_or_else(|| whole("moves is missing".into()))?;
    let moves = array(moves, "moves").map_err(whole)?;
    let mut pos = record.start.clone();
    let mut last_to = None;
    for (i, entry) in moves.iter().enumerate() {
        let at = |f: Fault| (Some(i), f);
        let path = format!("moves[{i}]");
        object(entry, &path).map_err(at)?;
        let notes = comments(entry, &path).map_err(at)?;
        let forked = forks(entry);
        if forked > 0 && record.variations_from.is_none() {
            record.variations_from = Some(i);
        }
        record.variations_dropped += forked;
        if record.end.is_some() {
            return Err(at(format!(
                "{path} comes after the special that ended the game"
            )));
        }
        let (m, special) = (field(entry, "move"), field(entry, "special"));
        match (m, special) {
            (Some(_), Some(_)) => return Err(at(format!("{path} has both move and special"))),
            (Some(_), None) if i == 0 => {
                return Err(at(
                    "moves[0] is the start's entry (comments only); the first move is moves[1]"
                        .into(),
                ))
            }
            (Some(m), None) => {
                let mv = read_move(&pos, m, &format!("{path}.move"), last_to).map_err(at)?;
                let mut rm = RecordMove::new(mv);
                if let Some(t) = field(entry, "time") {
                    rm.time_ms = Some(time_ms(t, &format!("{path}.time")).map_err(at)?);
                }
                rm.comments = notes;
                pos.do_move(mv);
                last_to = Some(mv.to());
                record.moves.push(rm);
            }
            (None, Some(s)) => {
                let word = string(s, &format!("{path}.special")).map_err(at)?;
                let end = special_ending(word, pos.side_to_move())
                    .ok_or_else(|| at(format!("{path}.special '{word}' is not a JKF special")))?;
                record.end = Some(end);
                record.end_comments = notes;
            }
            (None, None) if i == 0 => record.comments = notes,
            (None, None) => return Err(at(format!("{path} has neither move nor special"))),
        }
    }
    Ok(record)
}

/// The game of a JKF text (one JSON object), every move checked by the rules and against its
/// own fields; the error's line is that of the `moves` item at fault (or of the JSON error).
pub fn read_records(text: &str) -> Result<Vec<Record>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let v = Json::parse(text).map_err(|e| RecordError::at(line_of(text, e.at), e.to_string()))?;
    read_game(&v).map(|r| vec![r]).map_err(|(item, reason)| {
        let line = item
            .and_then(|i| move_offsets(text).get(i).copied())
            .map_or(0, |at| line_of(text, at));
        RecordError::at(line, reason)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_of_the_moves_items() {
        let text = "{\"header\":{\"moves\":[1]},\n\"moves\":[\n{},\n {\"a\":[1,2]} ,\n\"x,]\"]}";
        let offs = move_offsets(text);
        let lines: Vec<usize> = offs.iter().map(|&o| line_of(text, o)).collect();
        assert_eq!(lines, [3, 4, 5]);
        assert_eq!(&text[offs[1]..offs[1] + 5], "{\"a\":");
    }
}
