//! Writing JKF: one game as one JSON object, a `moves` item a line.

use crate::json::Json;
use crate::record::csa::notation::piece_name;
use crate::record::csa::special_word;
use crate::record::japanese::handicap_name;
use crate::record::jkf::PRESETS;
use crate::record::ki2::notation::relative_of;
use crate::record::Record;
use crate::{ByColor, Color, Move, Position, Square};

fn obj(members: Vec<(&str, Json)>) -> Json {
    Json::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn place(sq: Square) -> Json {
    obj(vec![
        ("x", Json::number(sq.file())),
        ("y", Json::number(sq.rank())),
    ])
}

fn color(c: Color) -> Json {
    Json::number(c as u8)
}

/// `initial`: the preset `start` is (none for 平手), else `OTHER` with the board and hands.
fn initial(start: &Position) -> Option<Json> {
    let handicap = handicap_name(start);
    if let Some((preset, _)) = PRESETS.iter().find(|(_, h)| Some(*h) == handicap) {
        return (*preset != "HIRATE").then(|| obj(vec![("preset", Json::string(*preset))]));
    }
    let board = (1..=9u8)
        .map(|x| {
            Json::Array(
                (1..=9u8)
                    .map(|y| {
                        let sq = Square::new(x, y).expect("on the board");
                        match start.piece_at(sq) {
                            Some(p) => obj(vec![
                                ("color", color(p.color)),
                                ("kind", Json::string(piece_name(p.kind))),
                            ]),
                            None => Json::Object(Vec::new()),
                        }
                    })
                    .collect(),
            )
        })
        .collect();
    let hands = Color::ALL
        .into_iter()
        .map(|c| {
            Json::Object(
                crate::PieceType::HAND_SFEN_ORDER
                    .into_iter()
                    .rev()
                    .map(|k| {
                        (
                            piece_name(k).to_string(),
                            Json::number(start.hand(c).count(k)),
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    let data = obj(vec![
        ("color", color(start.side_to_move())),
        ("board", Json::Array(board)),
        ("hands", Json::Array(hands)),
    ]);
    Some(obj(vec![("preset", Json::string("OTHER")), ("data", data)]))
}

/// A time of `ms` as JKF's `TimeFormat`, whole seconds (`h` when `with_hours`).
fn time(ms: u64, with_hours: bool) -> Json {
    let s = ms / 1000;
    if with_hours {
        obj(vec![
            ("h", Json::number(s / 3600)),
            ("m", Json::number(s / 60 % 60)),
            ("s", Json::number(s % 60)),
        ])
    } else {
        obj(vec![
            ("m", Json::number(s / 60)),
            ("s", Json::number(s % 60)),
        ])
    }
}

/// The `move` object of the legal move `mv` in `pos`: `promote` only where the move could
/// promote (`false` for 不成), `capture` the piece as it stood, `relative` only where the
/// position needs it (by the rules: a pinned piece that cannot reach the square needs none).
fn move_object(pos: &Position, mv: Move, last_to: Option<Square>) -> Json {
    let side = pos.side_to_move();
    let to = mv.to();
    let mut m = Vec::new();
    let piece = match mv {
        Move::Drop { kind, .. } => kind,
        Move::Normal { from, .. } => {
            m.push(("from", place(from)));
            pos.piece_at(from)
                .map_or(crate::PieceType::Pawn, |p| p.kind)
        }
    };
    m.push(("to", place(to)));
    m.push(("color", color(side)));
    m.push(("piece", Json::string(piece_name(piece))));
    if last_to == Some(to) {
        m.push(("same", Json::Bool(true)));
    }
    if let Move::Normal { from, promote, .. } = mv {
        let other = Move::Normal {
            from,
            to,
            promote: !promote,
        };
        if promote || pos.is_legal(other).is_ok() {
            m.push(("promote", Json::Bool(promote)));
        }
    }
    if let Some(p) = pos.piece_at(to) {
        m.push(("capture", Json::string(piece_name(p.kind))));
    }
    let relative = relative_of(pos, mv).jkf();
    if !relative.is_empty() {
        m.push(("relative", Json::string(relative)));
    }
    obj(m)
}

fn strings(items: &[String]) -> Json {
    Json::Array(items.iter().map(|c| Json::string(c.as_str())).collect())
}

/// One game as JKF: `header` as the record holds it, `initial` (none for 平手, a preset for the
/// handicaps, `OTHER` with the board for any other start), and `moves`, one item a line: the
/// start's comments, each move with its `time` (whole seconds: `now`, and each side's `total`)
/// and comments, and the `special` of the end.
pub fn write(record: &Record) -> String {
    let header = Json::Object(
        record
            .header
            .iter()
            .map(|(k, v)| (k.clone(), Json::string(v.as_str())))
            .collect(),
    );
    let mut out = format!("{{\"header\":{header},\n");
    if let Some(init) = initial(&record.start) {
        out.push_str(&format!("\"initial\":{init},\n"));
    }
    out.push_str("\"moves\":[\n");
    let mut items = Vec::new();
    items.push(if record.comments.is_empty() {
        Json::Object(Vec::new())
    } else {
        obj(vec![("comments", strings(&record.comments))])
    });
    let mut pos = record.start.clone();
    let mut last_to = None;
    let mut total = ByColor([0u64; 2]);
    for m in &record.moves {
        let side = pos.side_to_move();
        let mut item = vec![("move", move_object(&pos, m.mv, last_to))];
        if let Some(t) = m.time_ms {
            total[side] += t / 1000 * 1000;
            item.push((
                "time",
                obj(vec![
                    ("now", time(t, false)),
                    ("total", time(total[side], true)),
                ]),
            ));
        }
        if !m.comments.is_empty() {
            item.push(("comments", strings(&m.comments)));
        }
        items.push(obj(item));
        last_to = Some(m.mv.to());
        pos.do_move(m.mv);
    }
    if let Some(end) = record.end {
        let mut item = vec![("special", Json::string(special_word(end)))];
        if !record.end_comments.is_empty() {
            item.push(("comments", strings(&record.end_comments)));
        }
        items.push(obj(item));
    }
    let lines: Vec<String> = items.iter().map(Json::to_string).collect();
    out.push_str(&lines.join(",\n"));
    out.push_str("\n]}\n");
    out
}
