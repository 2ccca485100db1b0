//! `saikoro record convert|check|show` as a user runs them, and the match refusing openings
//! files that hold no game or a record of another form.

use saikoro_record::{csa, form, Format, Record};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::usi_support::BIN;

fn records_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/saikoro-record/positions/records")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("saikoro-record-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn read_as(path: &Path, format: Format) -> Vec<Record> {
    let t = form::decode(&std::fs::read(path).unwrap()).unwrap();
    form::read(&t, format).unwrap_or_else(|e| panic!("{}: {e}\n{t}", path.display()))
}

/// seed.csa through every form that keeps the moves and back to CSA: the same 31 moves and
/// the same names each time; `--to sfen` gives the last position.
#[test]
fn convert_through_every_form_and_back() {
    let dir = scratch("convert");
    let seed = records_dir().join("seed.csa");
    let original = read_as(&seed, Format::Csa).remove(0);
    for form in ["csa", "jkf", "usi", "kif"] {
        let mid = format!("mid.{form}");
        let r = run(
            &dir,
            &[
                "record",
                "convert",
                seed.to_str().unwrap(),
                "--to",
                form,
                "-o",
                &mid,
            ],
        );
        assert!(r.status.success(), "{form}: {}", text(&r.stderr));
        let r = run(
            &dir,
            &["record", "convert", &mid, "-o", "back.csa", "--force"],
        );
        assert!(r.status.success(), "{form}: {}", text(&r.stderr));
        let back = read_as(&dir.join("back.csa"), Format::Csa).remove(0);
        assert_eq!(back.start, original.start, "{form}");
        let moves = |r: &Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
        assert_eq!(moves(&back), moves(&original), "{form}");
        if form != "usi" {
            assert_eq!(
                back.name(saikoro_core::Color::Black),
                Some("hoge1 2級"),
                "{form}"
            );
            assert_eq!(back.end, original.end, "{form}");
        }
    }
    // The last position as SFEN, on stdout.
    let r = run(
        &dir,
        &["record", "convert", seed.to_str().unwrap(), "--to", "sfen"],
    );
    assert!(r.status.success());
    let last = original.position_at(31).to_sfen();
    assert_eq!(text(&r.stdout), format!("{last}\n"));
    // Several games in CSA stay several; KIF holds one and asks for --game.
    let three = records_dir().join("three_games.csa");
    let r = run(
        &dir,
        &["record", "convert", three.to_str().unwrap(), "--to", "csa"],
    );
    assert_eq!(csa::read_records(&text(&r.stdout)).unwrap().len(), 3);
    let r = run(
        &dir,
        &["record", "convert", three.to_str().unwrap(), "--to", "jkf"],
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stderr).contains("holds 3 games and jkf holds one: give --game K"));
    let r = run(
        &dir,
        &[
            "record",
            "convert",
            three.to_str().unwrap(),
            "--to",
            "usi",
            "--game",
            "2",
        ],
    );
    assert_eq!(
        text(&r.stdout),
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n"
    );
    outputs_follow_the_rule_of_every_file(&dir, &seed);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `-o` follows the rule of every output file (docs/files.md): an existing file kept without
/// --force, never the record being read, a missing directory named.
fn outputs_follow_the_rule_of_every_file(dir: &Path, seed: &Path) {
    // An existing output is kept without --force.
    let r = run(
        dir,
        &[
            "record",
            "convert",
            seed.to_str().unwrap(),
            "-o",
            "back.csa",
        ],
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stderr)
        .contains("-o back.csa: the file exists; give another file, or --force to replace it"));
    // Never onto the record being read, --force or not: it is left as it was.
    let before = std::fs::read(dir.join("back.csa")).unwrap();
    for out in ["back.csa", "./back.csa"] {
        let r = run(
            dir,
            &[
                "record", "convert", "back.csa", "--to", "kif", "-o", out, "--force",
            ],
        );
        assert_eq!(r.status.code(), Some(1), "{out}");
        assert!(
            text(&r.stderr).contains("the same file as IN back.csa, which this command reads"),
            "{}",
            text(&r.stderr)
        );
        assert_eq!(std::fs::read(dir.join("back.csa")).unwrap(), before);
    }
    let r = run(dir, &["record", "convert", "back.csa", "-o", "no/such.kif"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stderr).contains("-o no/such.kif: no such directory: no"));
}

/// stdin and stdout: the form of `-` is told by its content.
#[test]
fn convert_from_stdin() {
    let mut child = Command::new(BIN)
        .args(["record", "convert", "-", "--to", "usi"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "position startpos moves 7g7f 3c3d\n");
}

#[test]
fn convert_through_ki2_and_back() {
    let dir = scratch("ki2");
    let seed = records_dir().join("seed.csa");
    let r = run(
        &dir,
        &["record", "convert", seed.to_str().unwrap(), "-o", "mid.ki2"],
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    let r = run(&dir, &["record", "convert", "mid.ki2", "-o", "back.csa"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let back = read_as(&dir.join("back.csa"), Format::Csa).remove(0);
    assert_eq!(back.moves.len(), 31);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `check`: a good file's summary line; a file with 二歩 on line 9 (Black's pawn dropped on
/// file 7, where its 7七 pawn stands) named with that line and the reason, exit status 1.
#[test]
fn check_names_the_first_wrong_line() {
    let dir = scratch("check");
    std::fs::write(
        dir.join("nifu.csa"),
        "V2.2\nN+a\nN-b\nPI17FU\nP+00FU\n+\n+2726FU\n-3334FU\n+0075FU\n%TORYO\n",
    )
    .unwrap();
    let seed = records_dir().join("seed.csa");
    let r = run(&dir, &["record", "check", seed.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(
        text(&r.stdout),
        format!("{}: 1 game, 31 moves (csa)\n", seed.display())
    );
    let r = run(
        &dir,
        &["record", "check", "nifu.csa", seed.to_str().unwrap()],
    );
    assert_eq!(r.status.code(), Some(1));
    let out = text(&r.stdout);
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("nifu.csa:9: move 3: '+0075FU' is illegal"),
        "{out}"
    );
    assert!(first.ends_with("(nifu)"), "the reason says 二歩: {first}");
    assert_eq!(
        out.lines().count(),
        2,
        "the good file is still checked: {out}"
    );
    let r = run(&dir, &["record", "check", "missing.kif"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stdout).starts_with("missing.kif: cannot read"));
    // One of each, in the singular: a game of one move, and no second game in it.
    std::fs::write(dir.join("one.csa"), "V2.2\nPI\n+\n+7776FU\n%TORYO\n").unwrap();
    let r = run(&dir, &["record", "check", "one.csa"]);
    assert_eq!(text(&r.stdout), "one.csa: 1 game, 1 move (csa)\n");
    let r = run(
        &dir,
        &["record", "convert", "one.csa", "--to", "usi", "--game", "2"],
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr).contains("one.csa holds 1 game: no game 2"),
        "{}",
        text(&r.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `show` after 3 moves of seed.kif (▲2六歩 △8四歩 ▲2五歩), by hand: the pawns on 2五 and 8四,
/// White to move, move 4.
#[test]
fn show_prints_the_diagram_and_sfen() {
    let seed = records_dir().join("seed.kif");
    let r = run(
        &records_dir(),
        &["record", "show", seed.to_str().unwrap(), "--ply", "3"],
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    let out = text(&r.stdout);
    assert!(
        out.starts_with("game 1 of 1, after move 3 of 31\nWhite hand: -\n"),
        "{out}"
    );
    assert!(out.contains("| .  .  .  .  .  .  .  P  . | e\n"), "{out}");
    assert!(
        out.ends_with("sfen lnsgkgsnl/1r5b1/p1ppppppp/1p7/7P1/9/PPPPPPP1P/1B5R1/LNSGKGSNL w - 4\n")
    );
    let r = run(
        &records_dir(),
        &["record", "show", seed.to_str().unwrap(), "--ply", "40"],
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr).contains("the main line has no move 40: its nodes are at moves 1 to 32"),
        "{}",
        text(&r.stderr)
    );
}

/// Usage errors: exit status 2 with the pointer to `--help`.
#[test]
fn usage_errors() {
    let dir = scratch("usage");
    for args in [
        &["record"][..],
        &["record", "frobnicate"],
        &["record", "check"],
        &["record", "check", "a.csa", "--to", "kif"],
        &["record", "convert", "a.csa"],
        &["record", "convert", "a.csa", "--to", "bod"],
        &["record", "show", "a.csa", "--ply", "x"],
        &["record", "show", "a.csa", "b.csa"],
        &["record", "convert", "a.csa", "--to", "kif", "--game", "0"],
    ] {
        let r = run(&dir, args);
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        assert!(
            text(&r.stderr).contains("saikoro record --help"),
            "{args:?}"
        );
    }
    let r = run(&dir, &["record", "--help"]);
    assert!(r.status.success() && text(&r.stdout).contains("saikoro record convert IN"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The match refuses an openings file with no game, and a CSA record given `format=kif`, with
/// the file, line and reason (exit status 1), before any game is played; a CSA file of three
/// games, two of them bad (an illegal move on line 9, a tsume problem's position from line 12),
/// with both.
#[test]
fn match_refuses_openings_without_a_game() {
    let dir = scratch("match");
    std::fs::write(
        dir.join("games.csa"),
        "V2.2\nPI\n+\n+7776FU\n/\nPI\n+\n+7776FU\n-7776FU\n/\n'tsume\nP-11OU\nP+00KI\n+\n",
    )
    .unwrap();
    std::fs::write(dir.join("garbage.kif"), "garbage\n").unwrap();
    std::fs::write(dir.join("game.txt"), "V2.2\nPI\n+\n+7776FU\n%TORYO\n").unwrap();
    std::fs::write(
        dir.join("nifu.jkf"),
        "{\"moves\":[{},\n{\"move\":{\"to\":{\"x\":5,\"y\":5},\"color\":0,\"piece\":\"FU\"}}]}",
    )
    .unwrap();
    let engine = format!("cmd={BIN}");
    for (book, says) in [
        (
            "file=garbage.kif",
            "openings garbage.kif: no moves and no position: not a KIF record",
        ),
        (
            "file=game.txt format=kif",
            "openings game.txt: no moves and no position: not a KIF record (it looks like a CSA record",
        ),
        (
            "file=nifu.jkf",
            "openings nifu.jkf:2: moves[1].move (P*5e) is illegal",
        ),
        ("file=games.csa", "openings games.csa: 2 bad lines:\n  games.csa:9: "),
        (
            "file=games.csa",
            "\n  games.csa:12: game 3: not a game's position: ",
        ),
    ] {
        let mut args = vec![
            "match",
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--each",
            "depth=1",
            "--rounds",
            "1",
            "--openings",
        ];
        args.extend(book.split(' '));
        let r = run(&dir, &args);
        assert_eq!(r.status.code(), Some(1), "{book}");
        assert!(
            text(&r.stderr).contains(says),
            "{book}: {}",
            text(&r.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A KIF with variations (変化), by hand: KIF keeps them all (nothing said); USI keeps the main
/// line and says on stderr what it left out (the two variations and their two moves, and the
/// end, 投了, which a `position` line cannot say); `check` counts the moves of each.
#[test]
fn what_a_form_cannot_keep_is_said() {
    let dir = scratch("variations");
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n\n変化：3手\n   3 ６六歩(67)\n   4 投了\n\n変化：２手\n   2 ８四歩(83)\n";
    std::fs::write(dir.join("v.kifu"), kif).unwrap();
    let r = run(&dir, &["record", "convert", "v.kifu", "--to", "usi"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), "position startpos moves 7g7f 3c3d 2g2f\n");
    assert_eq!(
        text(&r.stderr),
        "saikoro record convert: v.kifu: written as usi (the main line only): left out 2 \
         variations (2 moves), 1 end\n"
    );
    let r = run(&dir, &["record", "convert", "v.kifu", "--to", "kif"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(text(&r.stderr), "");
    let out = text(&r.stdout);
    assert!(out.contains("\n   2 ３四歩(33) +\n"), "{out}");
    assert!(
        out.contains("\n変化：3手\n   3 ６六歩(67)\n   4 投了\n"),
        "{out}"
    );
    let r = run(&dir, &["record", "check", "v.kifu"]);
    assert!(r.status.success());
    assert_eq!(
        text(&r.stdout),
        "v.kifu: 1 game, 3 moves in the main line, 2 in 2 variations (kif)\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A match's results file (two lines by hand in the format of docs/match.md) is read by
/// `check` and `convert` as the match's games: their names, moves and ends; a line that is no
/// game is refused at its line.
#[test]
fn a_results_file_is_read_as_its_games() {
    let dir = scratch("results");
    let game = |n: u32, result: &str, reason: &str, moves: &str| {
        format!(
            "{{\"game\":{n},\"round\":1,\"black\":\"a\",\"white\":\"b\",\"opening\":\
             \"startpos moves 7g7f\",\"opening_line\":0,\"result\":\"{result}\",\
             \"reason\":\"{reason}\",\"detail\":\"d\",\"plies\":1,\"opening_plies\":1,\
             \"moves\":[{moves}],\"time_ms\":{{\"black\":0,\"white\":0}}}}\n"
        )
    };
    let lines =
        game(1, "1-0", "resign", "\"3c3d\",\"2g2f\"") + &game(2, "1/2-1/2", "max_plies", "");
    std::fs::write(dir.join("r.jsonl"), &lines).unwrap();
    let r = run(&dir, &["record", "check", "r.jsonl"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), "r.jsonl: 2 games, 4 moves (results)\n");
    // Game 1: White resigns after 7g7f 3c3d 2g2f (投了, %TORYO); game 2: the move limit after
    // 7g7f (%MAX_MOVES, V3.0's word for it).
    let r = run(&dir, &["record", "convert", "r.jsonl", "--to", "csa"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let csa_text = text(&r.stdout);
    assert!(
        csa_text.contains("N+a\nN-b\n$EVENT:saikoro match\n'saikoro match, game 1, round 1\n"),
        "{csa_text}"
    );
    assert!(
        csa_text.contains("PI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n'*d\n/\n"),
        "{csa_text}"
    );
    assert!(
        csa_text.ends_with("PI\n+\n+7776FU\n%MAX_MOVES\n'*d\n"),
        "{csa_text}"
    );
    let games = csa::read_records(&csa_text).unwrap();
    assert_eq!(games.len(), 2);
    let r = run(
        &dir,
        &["record", "convert", "r.jsonl", "--game", "1", "--to", "kif"],
    );
    let kif = text(&r.stdout);
    assert!(
        kif.contains("   4 投了\n*d\nまで3手で先手の勝ち\n"),
        "{kif}"
    );

    std::fs::write(
        dir.join("bad.jsonl"),
        format!("{}{{\"saikoro\":1}}\n", game(1, "*", "interrupted", "")),
    )
    .unwrap();
    let r = run(&dir, &["record", "check", "bad.jsonl"]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(
        text(&r.stdout),
        // `{"saikoro":1}` is 13 characters: its `}` is where the missing `game` is found.
        "bad.jsonl:2: not a game of a results file: missing field `game` at column 13\n"
    );
}

/// `show --at`, by hand on `comments_bookmarks.kifu`: the start's comment and bookmark at `0`;
/// at `2.2` (△８四歩, the variation at move 2) the position after ▲７六歩 △８四歩, its
/// three comment lines (one empty) and bookmark, and the moves that follow with their
/// addresses; a move or a branch that is not there is refused with what there is.
#[test]
fn show_reaches_any_node_of_any_variation() {
    let file = records_dir().join("trees/comments_bookmarks.kifu");
    let file = file.to_str().unwrap();
    let r = run(&records_dir(), &["record", "show", file, "--at", "2.2"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let out = text(&r.stdout);
    assert!(
        out.starts_with(
            "game 1 of 1, at 2.2 (variation 2.2), after move 2\ncomment: 居飛車\ncomment: \n\
             comment: 空行を挟んだコメント\nbookmark: 変化A\n\
             next: 2.2:3 ▲２六歩(27), 2.2,3.2 ▲７八銀(79)\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with("sfen lnsgkgsnl/1r5b1/p1ppppppp/1p7/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n"),
        "{out}"
    );
    let r = run(&records_dir(), &["record", "show", file, "--at", "0"]);
    let out = text(&r.stdout);
    assert!(
        out.starts_with(
            "game 1 of 1, after move 0 of 3\ncomment: 開始局面のコメント\ncomment: 二行目\n\
             bookmark: 開始\n"
        ),
        "{out}"
    );
    let r = run(&records_dir(), &["record", "show", file, "--at", "2.2:end"]);
    assert!(
        text(&r.stdout).starts_with("game 1 of 1, at 2.2:4: the end, stop (中断)\n"),
        "{}",
        text(&r.stdout)
    );
    for (at, why) in [
        (
            "2.3",
            "the main line has 2 moves at move 2 (2.1 to 2.2): no 2.3",
        ),
        (
            "2.2:6",
            "variation 2.2 has no move 6: its nodes are at moves 2 to 4",
        ),
    ] {
        let r = run(&records_dir(), &["record", "show", file, "--at", at]);
        assert_eq!(r.status.code(), Some(1), "{at}");
        assert!(text(&r.stderr).contains(why), "{at}: {}", text(&r.stderr));
    }
    let r = run(&records_dir(), &["record", "show", file, "--at", "2.x"]);
    assert_eq!(r.status.code(), Some(2));
}

/// `check` reads every line: a move of a variation of a variation that the rules refuse
/// (`▲同　歩(25)` at move 5 of variation 2.2,4.2, where the pawn stands on ２六: ▲２五歩 was
/// played in the other line) is named with its line and the variation, by hand.
#[test]
fn check_names_an_illegal_move_in_a_variation() {
    let dir = scratch("variation-check");
    let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n\
               変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n   4 ３四歩(33)\n   5 ２五歩(26)\n\
               \n変化：4手\n   4 ２四歩(23)\n   5 同　歩(25)\n";
    std::fs::write(dir.join("v.kifu"), kif).unwrap();
    let r = run(&dir, &["record", "check", "v.kifu"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        (r.status.code(), text(&r.stdout).as_str()),
        (
            Some(1),
            "v.kifu:14: in variation 2.2,4.2: ▲同　歩(25): no 歩 of the side to move on ２五\n"
        )
    );
}

/// `-o x.kif` is Shift_JIS, `-o x.kifu` UTF-8 (Kifu for Windows' convention); a character
/// Shift_JIS cannot hold is refused with its line and nothing written, or written as `?`
/// with `--replace-unmappable`; `--encoding utf-8` writes UTF-8 into a `.kif`. The bytes by
/// hand from the JIS X 0208 table (checked with Python's `shift_jis` codec).
#[test]
fn kif_files_are_written_as_the_programs_that_read_them_expect() {
    let dir = scratch("encoding");
    let kif =
        "手合割：平手\n先手：太郎\u{1f600}\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    std::fs::write(dir.join("e.kifu"), kif).unwrap();
    let r = run(&dir, &["record", "convert", "e.kifu", "-o", "e.kif"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr).contains(
            "e.kif: nothing written: Shift_JIS cannot hold '\u{1f600}' (U+1F600), on line 3 of \
             the kif text"
        ),
        "{}",
        text(&r.stderr)
    );
    assert!(!dir.join("e.kif").exists());
    let r = run(
        &dir,
        &[
            "record",
            "convert",
            "e.kifu",
            "-o",
            "e.kif",
            "--replace-unmappable",
        ],
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    let bytes = std::fs::read(dir.join("e.kif")).unwrap();
    assert!(bytes.starts_with(b"#KIF version=2.0 encoding=Shift_JIS\n"));
    // 太郎 is 0x91BE 0x9859, ７六歩 0x8256 0x985A 0x95E0; the emoji a `?`.
    assert!(
        bytes.windows(5).any(|w| w == b"\x91\xbe\x98\x59?"),
        "{bytes:x?}"
    );
    let seven_six_pawn = b"\x82\x56\x98\x5a\x95\xe0(77)";
    assert!(bytes.windows(10).any(|w| w == seven_six_pawn), "{bytes:x?}");
    assert!(text(&r.stderr).contains("1 character that Shift_JIS cannot hold written as ?"));
    let r = run(
        &dir,
        &[
            "record",
            "convert",
            "e.kifu",
            "-o",
            "u.kif",
            "--encoding",
            "utf-8",
        ],
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    let utf8 = std::fs::read_to_string(dir.join("u.kif")).unwrap();
    assert!(utf8.starts_with("#KIF version=2.0 encoding=UTF-8\n"));
    assert!(utf8.contains("太郎\u{1f600}"));
    // Read back, each is the same game.
    for name in ["e.kif", "u.kif"] {
        let back = read_as(&dir.join(name), Format::Kif).remove(0);
        assert_eq!(back.moves.len(), 1, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// docs/records.md's table of what each form keeps is `Format::keeps`, the table the convert
/// note is made from: row by row, form by form.
#[test]
fn the_docs_table_of_what_each_form_keeps_is_the_code_s() {
    use saikoro_record::form::{Precision, Reach};
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/records.md"))
            .unwrap();
    let table = docs
        .split("## What each form keeps")
        .nth(1)
        .unwrap()
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>();
    let forms: Vec<Format> = table[0][1..]
        .iter()
        .map(|f| Format::from_name(f).unwrap())
        .collect();
    assert_eq!(forms, Format::ALL);
    let yes = |b: bool| if b { "yes" } else { "no" };
    let rows = &table[2..];
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        [
            "moves",
            "comments",
            "bookmarks",
            "times",
            "header",
            "`#` comments of the file",
            "ends"
        ]
    );
    for (i, f) in forms.iter().enumerate() {
        let k = f.keeps();
        let want = [
            match k.moves {
                Reach::Tree => "the tree",
                Reach::MainLine => "the main line",
                Reach::None => "none (the last position)",
            },
            yes(k.comments),
            yes(k.bookmarks),
            match k.times {
                Some(Precision::Seconds) => "whole seconds",
                Some(Precision::Milliseconds) => "milliseconds",
                None => "no",
            },
            yes(k.header),
            yes(k.file_comments),
            yes(k.ends),
        ];
        let got: Vec<&str> = rows.iter().map(|r| r[i + 1].as_str()).collect();
        assert_eq!(got, want, "{f}");
    }
}
