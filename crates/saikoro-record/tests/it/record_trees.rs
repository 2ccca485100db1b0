//! Records as trees (issue 45), against tsshogi's reading: the fixtures of
//! `positions/records/trees/` each hold a record with variations and, beside it as
//! `NAME.EXT.tree.json`, the tree tsshogi 2.2.0 reads from it (positions/README.md says how
//! each was made). Saikoro must read the same tree (but where it departs from tsshogi by design,
//! each case named below), and give it back through KIF, KI2 (times aside) and JKF (bookmarks
//! aside). The texts tsshogi wrote (the `.kifu` fixtures are its canonical KIF, the
//! `NAME.kifu.to.jkf` files its JKF) are compared with Saikoro's text too.

use saikoro_core::Color;
use saikoro_record::tree::{LineView, Node};
use saikoro_record::{form, jkf, ki2, kif, Ending, Format, Record};
use serde_json::{json, Value};

/// The directory of the fixtures.
fn dir() -> String {
    format!("{}/positions/records/trees", env!("CARGO_MANIFEST_DIR"))
}

/// A fixture's text.
fn text(name: &str) -> String {
    form::decode(&std::fs::read(format!("{}/{name}", dir())).unwrap()).unwrap()
}

/// A fixture read by its extension's form.
fn read(name: &str) -> Record {
    let format = Format::from_extension(std::path::Path::new(name)).unwrap();
    let mut r = form::read(&text(name), format).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(r.len(), 1, "{name}");
    r.remove(0)
}

/// The tree tsshogi read from the fixture `name`.
fn oracle(name: &str) -> Value {
    serde_json::from_str(&text(&format!("{name}.tree.json"))).unwrap()
}

/// tsshogi's name of an end (`SpecialMoveType`), `next` to move at it.
fn special(end: Ending, next: Color) -> String {
    match end {
        Ending::Resign => "resign",
        Ending::Interrupt => "interrupt",
        Ending::Repetition => "repetitionDraw",
        Ending::Mate => "mate",
        Ending::Jishogi | Ending::MaxMoves | Ending::Draw => "impass",
        Ending::TimeUp => "timeout",
        Ending::Foul(c) if c == next => "foulLose",
        Ending::Foul(_) => "foulWin",
        Ending::Declaration => "enteringOfKing",
        Ending::DefaultWin => "winByDefault",
        Ending::DefaultLoss => "loseByDefault",
        Ending::Sealed => "any:封じ手",
        Ending::NoMate => "noMate",
        Ending::Error => "any:ERROR",
    }
    .to_string()
}

/// What is compared of a tree.
#[derive(Clone, Copy)]
struct Keep {
    times: bool,
    bookmarks: bool,
}

const ALL: Keep = Keep {
    times: true,
    bookmarks: true,
};

/// A node as tree.json writes it, with only what `keep` compares; a comment without its last
/// line break (KIF's comments end with one in tsshogi, JKF's not).
fn node_json(
    ply: usize,
    (key, what): (&str, Value),
    comments: &[String],
    bookmark: Option<&str>,
    time: Option<u64>,
    children: Vec<Value>,
    keep: Keep,
) -> Value {
    // Built by hand: `json!` would copy `children` (it serializes what it is given).
    let mut v = serde_json::Map::new();
    v.insert("ply".into(), json!(ply));
    v.insert(key.into(), what);
    v.insert("comment".into(), json!(comments.join("\n")));
    if keep.bookmarks {
        v.insert("bookmark".into(), json!(bookmark.unwrap_or("")));
    }
    if keep.times {
        v.insert("elapsedMs".into(), json!(time.unwrap_or(0)));
    }
    v.insert("children".into(), Value::Array(children));
    Value::Object(v)
}

/// The children of a node: the line's node `i` (its first child) and that node's alternatives.
fn children(line: LineView<'_>, i: usize, ply: usize, start: Color, keep: Keep) -> Vec<Value> {
    let Some(first) = line.node(i) else {
        return Vec::new();
    };
    let mut out = vec![node_of(line, i, ply, start, keep)];
    for alt in first.alternatives() {
        out.push(node_of(alt.view(), 0, ply, start, keep));
    }
    out
}

/// The node `i` of `line` (at move `ply`) with its children, `start` to move at the start.
fn node_of(line: LineView<'_>, i: usize, ply: usize, start: Color, keep: Keep) -> Value {
    let node = line.node(i).unwrap();
    let next = if ply % 2 == 1 { start } else { !start };
    let what = match node {
        Node::Move(m) => ("move", json!(m.mv.to_string())),
        Node::End(e) => ("special", json!(special(e.ending, next))),
    };
    let kids = children(line, i + 1, ply + 1, start, keep);
    node_json(
        ply,
        what,
        node.comments(),
        node.bookmark(),
        node.time_ms(),
        kids,
        keep,
    )
}

/// The record's tree as tree.json writes it: the start's node and all below.
fn tree(r: &Record, keep: Keep) -> Value {
    let start = r.start.side_to_move();
    let kids = children(r.main_line(), 0, 1, start, keep);
    let what = ("special", json!("start"));
    let root = node_json(
        0,
        what,
        &r.comments,
        r.bookmark.as_deref(),
        None,
        kids,
        keep,
    );
    let mut v = serde_json::Map::new();
    v.insert("initialSfen".into(), json!(r.start.to_sfen()));
    v.insert("root".into(), root);
    Value::Object(v)
}

/// tsshogi's tree with only what `keep` compares, comments without their last line break.
fn theirs(v: &Value, keep: Keep) -> Value {
    let mut n = v.clone();
    let obj = n.as_object_mut().unwrap();
    let comment = obj["comment"].as_str().unwrap_or("");
    let comment = comment.strip_suffix('\n').unwrap_or(comment).to_string();
    obj.insert("comment".into(), json!(comment));
    if !keep.bookmarks {
        obj.remove("bookmark");
    }
    if !keep.times {
        obj.remove("elapsedMs");
    }
    let kids: Vec<Value> = obj["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| theirs(c, keep))
        .collect();
    obj.insert("children".into(), Value::Array(kids));
    n
}

/// Saikoro's tree of `r` is tsshogi's tree of the fixture `name`, as far as `keep` says.
fn assert_tree(r: &Record, name: &str, keep: Keep, what: &str) {
    let want = oracle(name);
    let ours = tree(r, keep);
    assert_eq!(ours["initialSfen"], want["initialSfen"], "{name} {what}");
    assert_eq!(
        ours["root"],
        theirs(&want["root"], keep),
        "{name} {what}: the tree differs from tsshogi's"
    );
}

/// The moves of a KIF text (from the `手数----` line on), without the lines Saikoro writes and
/// tsshogi does not: the `まで…` lines (Kifu for Windows' summary). The header is not compared:
/// Saikoro writes `手合割` before the players' names and a hand from the rook down, as Kifu
/// for Windows does; tsshogi after every other header line, and from the pawn up.
fn moves_part(text: &str) -> String {
    text.lines()
        .skip_while(|l| !l.starts_with("手数----"))
        .filter(|l| !l.starts_with("まで"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A fixture read as tsshogi reads it, and given back: KIF (the same tree; for a `.kifu` that
/// tsshogi wrote, its very text but for Saikoro's version line and `まで` lines), KI2 (times
/// aside) and JKF (bookmarks aside).
fn check(name: &str) {
    check_but_jkf(name);
    let r = read(name);
    let keep = Keep {
        times: !name.ends_with(".ki2u"),
        bookmarks: false,
    };
    let back = jkf::read_records(&jkf::write(&r)).unwrap().remove(0);
    assert_tree(&back, name, keep, "through JKF");
}

/// [`check`] but through JKF.
fn check_but_jkf(name: &str) {
    let r = read(name);
    let keep = Keep {
        times: !name.ends_with(".ki2u"),
        bookmarks: !name.ends_with(".jkf"),
    };
    assert_tree(&r, name, keep, "read");
    let kif_text = kif::write(&r);
    if name.ends_with(".kifu") && !name.starts_with("edge_") {
        let want = moves_part(&text(name));
        assert_eq!(moves_part(&kif_text), want, "{name}: tsshogi's KIF");
    }
    let back = kif::read_records(&kif_text).unwrap().remove(0);
    assert_tree(&back, name, keep, "through KIF");
    let no_times = Keep {
        times: false,
        ..keep
    };
    let back = ki2::read_records(&ki2::write(&r)).unwrap().remove(0);
    assert_tree(&back, name, no_times, "through KI2");
}

/// Three moves at move 1 (`変化：1手` twice, `+` on the first two), the second with its own
/// continuation.
#[test]
fn variations_at_move_1() {
    for ext in ["kifu", "ki2u", "jkf"] {
        check(&format!("var_move1.{ext}"));
    }
    let r = read("var_move1.kifu");
    assert_eq!(r.moves[0].alternatives().len(), 2);
}

/// Two alternatives to the last move of a main line that has no end.
#[test]
fn variations_of_the_last_move() {
    for ext in ["kifu", "ki2u", "jkf"] {
        check(&format!("var_last_move.{ext}"));
    }
    let r = read("var_last_move.kifu");
    assert_eq!((r.moves.len(), r.moves[3].alternatives().len()), (4, 2));
    assert!(r.end.is_none());
}

/// 投了 with an alternative move whose line ends in 中断, which has an alternative ending in
/// 千日手; a third alternative at that move is itself an end (中断).
#[test]
fn alternatives_of_an_end() {
    for ext in ["kifu", "ki2u", "jkf"] {
        check(&format!("end_alternatives.{ext}"));
    }
    let r = read("end_alternatives.kifu");
    let end = r.end.as_ref().unwrap();
    assert_eq!((end.ending, end.alternatives().len()), (Ending::Resign, 2));
    assert_eq!(end.alternatives()[1].moves.len(), 0, "an end alone");
}

/// Variations at moves 6 and 2 of the main line, written deepest first; the one at 2 has one
/// at 4, which has one at 5.
#[test]
fn nested_variations() {
    for ext in ["kifu", "ki2u", "jkf"] {
        check(&format!("nested.{ext}"));
    }
    assert_eq!(read("nested.kifu").counts().depth, 3);
}

/// The start's comment (two lines) and bookmark; comments and bookmarks on moves of the main
/// line, on an end, inside a variation (with an empty comment line), on a variation's end and
/// on a nested variation's move.
#[test]
fn comments_and_bookmarks_inside_variations() {
    for ext in ["kifu", "ki2u", "jkf"] {
        check(&format!("comments_bookmarks.{ext}"));
    }
}

/// A handicap (香落ち, 上手 moving first) and a board diagram's start, each with variations.
#[test]
fn handicap_and_board_diagram_starts() {
    for name in ["handicap_lance", "board_diagram"] {
        for ext in ["kifu", "ki2u", "jkf"] {
            check(&format!("{name}.{ext}"));
        }
    }
}

/// Times along the main line and a variation, ends with times, a 61-minute move: the totals
/// (each side's, along each line) are tsshogi's in KIF (the text is its) and in JKF.
#[test]
fn times_along_a_variation() {
    check("times.kifu");
    check("times.jkf");
}

/// JKF as tsshogi writes it, item for item (`time` with `now` and `total`, `move`, `special`,
/// `comments`, `forks`), but `same`, which tsshogi writes only for moves read from `同` text.
#[test]
fn jkf_as_tsshogi_writes_it() {
    fn strip_same(v: &mut Value) {
        match v {
            Value::Object(o) => {
                o.remove("same");
                o.values_mut().for_each(strip_same);
            }
            Value::Array(a) => a.iter_mut().for_each(strip_same),
            _ => {}
        }
    }
    for name in [
        "var_move1",
        "var_last_move",
        "end_alternatives",
        "nested",
        "comments_bookmarks",
        "handicap_lance",
        "board_diagram",
        "times",
        "file_comment",
    ] {
        let r = read(&format!("{name}.kifu"));
        let mut ours: Value = serde_json::from_str(&jkf::write(&r)).unwrap();
        let mut want: Value = serde_json::from_str(&text(&format!("{name}.kifu.to.jkf"))).unwrap();
        strip_same(&mut ours);
        strip_same(&mut want);
        assert_eq!(ours["moves"], want["moves"], "{name}");
    }
}

/// A `#` line is the file's comment: tsshogi drops it; Saikoro keeps it KIF to KIF (and KI2),
/// but the `#KIF version=…` line, which the writer makes anew.
#[test]
fn file_comments_are_kept() {
    check("file_comment.kifu");
    let r = read("file_comment.kifu");
    assert_eq!(
        r.file_comments,
        Vec::<String>::new(),
        "the version line is made anew"
    );
    let with = format!(
        "# ---- Kifu for Windows V7 ----\n{}",
        text("file_comment.kifu")
    );
    let r = kif::read_records(&with).unwrap().remove(0);
    assert_eq!(r.file_comments, [" ---- Kifu for Windows V7 ----"]);
    let back = kif::read_records(&kif::write(&r)).unwrap().remove(0);
    assert_eq!(back, r);
    let back = ki2::read_records(&ki2::write(&r)).unwrap().remove(0);
    assert_eq!(back.file_comments, r.file_comments, "KI2 keeps them too");
}

/// Where tsshogi is lenient and Saikoro reads the same: a `変化:2手` header with a half-width
/// colon and no blank line, `変化： ３手` with a full-width digit (KIF), a variation with no
/// header (a move numbered below the next); a variation repeating a move merged into it (its
/// comment added, its time and bookmark taking the node's place); ends with no CSA word.
#[test]
fn lenient_input_read_as_tsshogi_reads_it() {
    for name in [
        "edge_header_variants.kifu",
        "edge_header_variants.ki2u",
        "edge_duplicate_variation.kifu",
    ] {
        check(name);
    }
    // 不戦勝 and 封じ手 have no word in JKF (CSA's words): written `CHUDAN`, the lines and
    // their alternatives kept (tsshogi drops the line at such an end, and its forks).
    check_but_jkf("edge_end_without_csa_name.kifu");
    let r = read("edge_end_without_csa_name.kifu");
    let back = jkf::read_records(&jkf::write(&r)).unwrap().remove(0);
    assert_eq!(back.ending(), Some(Ending::Interrupt));
    assert_eq!(back.counts(), r.counts());
    let lost = form::left_out(&r, Format::Jkf);
    assert_eq!(lost.renamed_ends, [Ending::DefaultWin, Ending::Sealed]);
    assert_eq!(
        lost.to_string(),
        "the win by default (不戦勝) and the sealed move (封じ手) written as other ends"
    );
}

/// The error reading a fixture.
fn refused(name: &str) -> saikoro_record::RecordError {
    let format = Format::from_extension(std::path::Path::new(name)).unwrap();
    form::read(&text(name), format).expect_err(name)
}

/// The moves of `line`, as USI.
fn usi(moves: &[saikoro_record::RecordMove]) -> Vec<String> {
    moves.iter().map(|m| m.mv.to_string()).collect()
}

/// Where Saikoro departs from tsshogi, by design, each checked by hand:
/// - a `変化：6手` after a variation that reaches move 3 only branches from the line read last
///   that reaches move 5, the main line: △３三角 is played instead of its △８五歩 (tsshogi's
///   KIF reader plays it after that variation's ▲２六歩, at move 4, illegal there; its KI2
///   reader refuses the file);
/// - a comment between `変化：2手` and its first move is the branch point's (move 1), in KIF as
///   in KI2 (tsshogi's KI2 reading; its KIF reader gives it to the tip of the line before);
/// - JKF's `same` without `to` goes to the last move's square: △同　銀 is 3a2b (tsshogi takes
///   the square of the move before it, 3a3d, an illegal move);
/// - KIF's `不成` is a move that does not promote (tsshogi reads `２二角不成(88)` as an end named
///   by that text).
#[test]
fn where_saikoro_departs_from_tsshogi() {
    for name in ["edge_out_of_order.kifu", "edge_out_of_order.ki2u"] {
        let r = read(name);
        assert_eq!(
            usi(&r.moves),
            ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e"],
            "{name}"
        );
        assert_eq!(usi(&r.moves[1].alternatives()[0].moves), ["8c8d", "2g2f"]);
        assert_eq!(usi(&r.moves[5].alternatives()[0].moves), ["2b3c"], "{name}");
    }
    let r = read("edge_comment_before_variation_move.kifu");
    let keep = Keep {
        times: false,
        ..ALL
    };
    assert_tree(&r, "edge_comment_before_variation_move.ki2u", keep, "KIF");
    check("edge_comment_before_variation_move.ki2u");
    let r = read("edge_jkf_same_without_to.jkf");
    assert_eq!(usi(&r.moves), ["7g7f", "3c3d", "8h2b+", "3a2b"]);
    let r = read("edge_funari.kifu");
    assert_eq!(usi(&r.moves), ["7g7f", "3c3d", "8h2b"]);
}

/// Bad input refused with its line: a move after an end in the same line (tsshogi makes it the
/// end's alternative, illegal there: a black pawn on White's move), a fork whose first item is
/// no move (tsshogi gives its comment to the branch point).
#[test]
fn bad_trees_are_refused_with_their_line() {
    let e = refused("edge_move_after_end.kifu");
    assert_eq!(e.line, 5, "{e}");
    assert!(e.reason.ends_with("a move after the end"), "{e}");
    let e = refused("edge_jkf_fork_comment_only.jkf");
    assert_eq!(
        (e.line, e.reason.as_str()),
        (
            11,
            "in variation 2.2: moves[2].forks[0][0] has neither move nor special"
        )
    );
}

/// `levels` variations each inside the last, by hand (as in `record_jkf.rs`): at move p the
/// variation is the king's step aside (▲5九↔4八, △5一↔4二) and each line goes on with a step
/// ahead (▲5九→5八 or 4八→3八, △5一→5二 or 4二→3二); the king has stepped aside (p-1)/2 times
/// before move p, so it is home when that is even.
fn deep(levels: usize) -> Record {
    let step = |ply: usize, aside: bool| {
        let home = ((ply - 1) / 2).is_multiple_of(2);
        let usi = match (ply % 2 == 1, aside, home) {
            (true, true, true) => "5i4h",
            (true, true, false) => "4h5i",
            (true, false, true) => "5i5h",
            (true, false, false) => "4h3h",
            (false, true, true) => "5a4b",
            (false, true, false) => "4b5a",
            (false, false, true) => "5a5b",
            (false, false, false) => "4b3b",
        };
        saikoro_record::RecordMove::new(saikoro_core::Move::from_usi(usi).unwrap())
    };
    let mut item = step(levels + 1, false);
    for ply in (1..=levels).rev() {
        let line = saikoro_record::Line {
            moves: vec![step(ply, true), item],
            end: None,
        };
        item = {
            let mut m = step(ply, false);
            m.alternatives_mut().push(line);
            m
        };
    }
    let mut r = Record::new(saikoro_core::Position::startpos());
    r.moves = vec![item];
    r
}

/// Variations nested `MAX_NESTING` (32) deep are read and written by KIF, KI2 and JKF; one
/// deeper is refused by each reader, at the line of the move that goes too deep.
#[test]
fn nesting_has_a_limit() {
    use saikoro_record::tree::MAX_NESTING;
    let r = deep(MAX_NESTING);
    assert_eq!(r.counts().depth, MAX_NESTING);
    for format in [Format::Kif, Format::Ki2, Format::Jkf] {
        let text = form::write(&r, format);
        let back = form::read(&text, format).unwrap().remove(0);
        assert_eq!(back.counts(), r.counts(), "{format}");
    }
    let too_deep = deep(MAX_NESTING + 1);
    let kif_text = kif::write(&too_deep);
    let e = kif::read_records(&kif_text).unwrap_err();
    // The last block, `変化：33手`, and its first move on the line after.
    let line = kif_text.lines().count() - 1;
    assert_eq!(e.line, line, "{e}");
    assert!(e.reason.contains("nested more than 32 deep"), "{e}");
    for format in [Format::Ki2, Format::Jkf] {
        let e = form::read(&form::write(&too_deep, format), format).unwrap_err();
        assert!(
            e.reason.contains("nested more than 32 deep"),
            "{format}: {e}"
        );
    }
}

/// A `変化：N手` with no line to branch from: none reaches move N-1, or the line read last that
/// does ends there (nothing to be an alternative to); a first move not numbered N; a variation
/// whose first move is illegal there (▲７六歩 at move 2, White's move), named with its line and
/// the variation; a JKF fork that is not an array. Each by hand.
#[test]
fn bad_variations_are_refused_with_their_line() {
    let main = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n";
    let e = kif::read_records(&format!("{main}\n変化：6手\n   6 ８四歩(83)\n")).unwrap_err();
    assert_eq!(
        (e.line, e.reason.as_str()),
        (
            6,
            "変化：6手: no line read so far reaches move 5, to branch from"
        )
    );
    let e = kif::read_records(&format!("{main}\n変化：4手\n   4 ８四歩(83)\n")).unwrap_err();
    assert_eq!(e.line, 6, "{e}");
    assert!(e.reason.contains("ends at move 3"), "{e}");
    let e = kif::read_records(&format!("{main}\n変化：2手\n   3 ８四歩(83)\n")).unwrap_err();
    assert_eq!(
        (e.line, e.reason.as_str()),
        (
            7,
            "in variation 2.2: 変化：2手 but its first move is numbered 3"
        )
    );
    let e = kif::read_records(&format!("{main}\n変化：2手\n   2 ７六歩(77)\n")).unwrap_err();
    assert_eq!(e.line, 7, "{e}");
    assert!(
        e.reason
            .starts_with("in variation 2.2: △７六歩(77): no 歩 of the side to move on ７七"),
        "{e}"
    );
    let e = kif::read_records(&format!("{main}\n変化：二手\n")).unwrap_err();
    assert_eq!(
        (e.line, e.reason.as_str()),
        (6, "'変化：二手' names no move (変化：N手)")
    );
    let e = ki2::read_records("手合割：平手\n▲７六歩\n\n変化：1手\n△３四歩\n").unwrap_err();
    assert_eq!(e.line, 5, "{e}");
    assert!(e.reason.starts_with("in variation 1.2: "), "{e}");
    let fork = r#"{"moves":[{},
{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"},
 "forks":[{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":6},"color":0,"piece":"FU"}}]}]}"#;
    let e = jkf::read_records(fork).unwrap_err();
    assert_eq!(
        (e.line, e.reason.as_str()),
        (
            3,
            "moves[1].forks[0] is not an array: a fork is an array of moves items"
        )
    );
}

/// What a tree.json-shaped tree holds: nodes, ends, nodes with a comment, with a bookmark, the
/// deepest nesting, the sum of the times.
fn figures(node: &Value, depth: usize, f: &mut [u64; 6]) {
    f[0] += 1;
    f[1] += u64::from(node.get("special").is_some_and(|s| s != "start"));
    f[2] += u64::from(node["comment"].as_str().is_some_and(|c| !c.is_empty()));
    f[3] += u64::from(node["bookmark"].as_str().is_some_and(|b| !b.is_empty()));
    f[4] = f[4].max(depth as u64);
    f[5] += node["elapsedMs"].as_u64().unwrap_or(0);
    for (i, c) in node["children"].as_array().unwrap().iter().enumerate() {
        figures(c, depth + usize::from(i > 0), f);
    }
}

/// A branched record of 10,000 nodes, written by tsshogi (`gen_big.mjs --nodes=10000
/// --seed=1`): random legal moves with 464 variations, ends with alternatives, comments,
/// bookmarks and times. Read, it has tsshogi's figures (10,000 nodes, 154 of them ends; 516
/// with a comment, 84 with a bookmark; variations 9 deep; 4,467,478 s of times) and is written
/// back as tsshogi wrote it; KI2 (times aside) and JKF (bookmarks aside) give it back.
#[test]
fn a_branched_record_of_10000_nodes() {
    let r = read("big.kifu");
    let mut f = [0; 6];
    figures(&tree(&r, ALL)["root"], 0, &mut f);
    assert_eq!(f, [10_000, 154, 516, 84, 9, 4_467_478_000]);
    assert_eq!((r.counts().variations, r.moves.len()), (464, 200));
    let kif_text = kif::write(&r);
    assert_eq!(moves_part(&kif_text), moves_part(&text("big.kifu")));
    let back = kif::read_records(&kif_text).unwrap().remove(0);
    assert_eq!(back, r);
    let no_times = Keep {
        times: false,
        ..ALL
    };
    let back = ki2::read_records(&ki2::write(&r)).unwrap().remove(0);
    assert_eq!(tree(&back, no_times), tree(&r, no_times));
    let no_bookmarks = Keep {
        bookmarks: false,
        ..ALL
    };
    let back = jkf::read_records(&jkf::write(&r)).unwrap().remove(0);
    assert_eq!(tree(&back, no_bookmarks), tree(&r, no_bookmarks));
}
