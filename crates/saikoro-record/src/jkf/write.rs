//! Writing JKF: one game as one JSON object of [`format`](super::format)'s types, a `moves`
//! item a line ([`Layout`]).

use super::format::{
    Cell, Entry, Fork, Initial, InitialData, Jkf, Layout, Members, MoveFields, Object, Place, Time,
    TimeFormat,
};
use crate::csa::notation::piece_name;
use crate::csa::special_word;
use crate::japanese::handicap_name;
use crate::jkf::PRESETS;
use crate::ki2::notation::relative_of;
use crate::tree::{LineView, Node};
use crate::Record;
use saikoro_core::{ByColor, Color, Move, PieceType, Position, Square};
use serde::Serialize;

fn place(sq: Square) -> Option<Object<Place>> {
    Some(Object(Place {
        x: Some(sq.file().into()),
        y: Some(sq.rank().into()),
    }))
}

fn color(c: Color) -> Option<u64> {
    Some(c as u64)
}

/// `initial`: the preset `start` is (none for 平手), else `OTHER` with the board and hands.
fn initial(start: &Position) -> Option<Object<Initial>> {
    let handicap = handicap_name(start);
    if let Some((preset, _)) = PRESETS.iter().find(|(_, h)| Some(*h) == handicap) {
        return (*preset != "HIRATE").then(|| {
            Object(Initial {
                preset: Some(preset.to_string()),
                data: None,
            })
        });
    }
    let board = (1..=9u8)
        .map(|x| {
            (1..=9u8)
                .map(|y| {
                    let piece = start.piece_at(Square::new(x, y).expect("on the board"));
                    Object(Cell {
                        color: piece.and_then(|p| color(p.color)),
                        kind: piece.map(|p| piece_name(p.kind).to_string()),
                    })
                })
                .collect()
        })
        .collect();
    let hands = Color::ALL
        .into_iter()
        .map(|c| {
            Members(
                PieceType::HAND_SFEN_ORDER
                    .into_iter()
                    .rev()
                    .map(|k| (piece_name(k).to_string(), start.hand(c).count(k).into()))
                    .collect(),
            )
        })
        .collect();
    Some(Object(Initial {
        preset: Some("OTHER".to_string()),
        data: Some(Object(InitialData {
            color: color(start.side_to_move()),
            board: Some(board),
            hands: Some(hands),
        })),
    }))
}

/// A time of `ms` as JKF's `TimeFormat`, whole seconds (`h` when `with_hours`).
fn time(ms: u64, with_hours: bool) -> Option<Object<TimeFormat>> {
    let s = ms / 1000;
    Some(Object(if with_hours {
        TimeFormat {
            h: Some(s / 3600),
            m: Some(s / 60 % 60),
            s: Some(s % 60),
        }
    } else {
        TimeFormat {
            h: None,
            m: Some(s / 60),
            s: Some(s % 60),
        }
    }))
}

/// The `move` object of the legal move `mv` in `pos`: `promote` only where the move could
/// promote (`false` for 不成), `capture` the piece as it stood, `relative` only where the
/// position needs it (by the rules: a pinned piece that cannot reach the square needs none).
fn move_fields(pos: &Position, mv: Move, last_to: Option<Square>) -> MoveFields {
    let to = mv.to();
    let (from, piece, promote) = match mv {
        Move::Drop { kind, .. } => (None, kind, None),
        Move::Normal { from, promote, .. } => {
            let other = Move::Normal {
                from,
                to,
                promote: !promote,
            };
            let piece = pos.piece_at(from).map_or(PieceType::Pawn, |p| p.kind);
            let could = promote || pos.is_legal(other).is_ok();
            (place(from), piece, could.then_some(promote))
        }
    };
    let relative = relative_of(pos, mv).jkf();
    MoveFields {
        from,
        to: place(to),
        color: color(pos.side_to_move()),
        piece: Some(piece_name(piece).to_string()),
        same: (last_to == Some(to)).then_some(true),
        promote,
        capture: pos.piece_at(to).map(|p| piece_name(p.kind).to_string()),
        relative: (!relative.is_empty()).then_some(relative),
    }
}

fn comments(items: &[String]) -> Option<Vec<String>> {
    (!items.is_empty()).then(|| items.to_vec())
}

/// A `moves` item.
type Item = Object<Entry<Fork>>;

/// The `moves` items of `record`: the start's comments, then its main line.
fn entries(record: &Record) -> Vec<Item> {
    let mut items = vec![Object(Entry {
        comments: comments(&record.comments),
        ..Entry::default()
    })];
    let mut pos = record.start.clone();
    line(
        record.main_line(),
        &mut pos,
        None,
        ByColor([0; 2]),
        &mut items,
    );
    items
}

/// The items of a line from `pos` (at its branch point, where it is left) after a move to
/// `last_to`, each side's time so far `totals`: each move with its `time` (whole seconds: `now`,
/// and the side's `total` along the line) and comments, or the `special` of the end, with the
/// variations played instead of it as its `forks`.
fn line(
    line: LineView<'_>,
    pos: &mut Position,
    mut last_to: Option<Square>,
    mut totals: ByColor<u64>,
    items: &mut Vec<Item>,
) {
    let mut played = Vec::with_capacity(line.moves.len());
    for node in line.nodes() {
        let forks = node.alternatives().iter().map(|alt| {
            let mut fork = Vec::new();
            self::line(alt.view(), pos, last_to, totals, &mut fork);
            Fork(fork)
        });
        let forks: Vec<Fork> = forks.collect();
        let side = pos.side_to_move();
        let time = node.time_ms().map(|t| {
            totals[side] += t / 1000 * 1000;
            Object(Time {
                now: time(t, false),
                total: time(totals[side], true),
            })
        });
        let mut item = Entry {
            time,
            comments: comments(node.comments()),
            forks: (!forks.is_empty()).then_some(forks),
            ..Entry::default()
        };
        match node {
            Node::Move(m) => {
                item.mv = Some(Object(move_fields(pos, m.mv, last_to)));
                played.push((m.mv, pos.do_move(m.mv)));
                last_to = Some(m.mv.to());
            }
            Node::End(e) => item.special = Some(special_word(e.ending).to_string()),
        }
        items.push(Object(item));
    }
    for (mv, undo) in played.into_iter().rev() {
        pos.undo_move(mv, undo);
    }
}

/// One game as JKF: `header` as the record holds it, `initial` (none for 平手, a preset for the
/// handicaps, `OTHER` with the board for any other start), and `moves`, one item a line.
pub fn write(record: &Record) -> String {
    let jkf = Jkf {
        header: Some(Members(record.header.clone())),
        initial: initial(&record.start),
        moves: Some(entries(record)),
    };
    let mut out = Vec::new();
    jkf.serialize(&mut serde_json::Serializer::with_formatter(
        &mut out,
        Layout::default(),
    ))
    .expect("JKF's types serialize into memory");
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}
