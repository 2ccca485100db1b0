//! Scripted USI sessions against the real binary: the start-up sequences of ShogiHome and
//! Shogidokoro (docs/usi.md §2 and §7), held searches, the end of a game and of input, odd bytes,
//! and bad input. Every session has a deadline.

use crate::usi_support;

use saikoro_core::{Move, Position};
use std::time::Duration;
use usi_support::*;

const USI_BLOCK: [&str; 7] = [
    concat!("id name Saikoro ", env!("CARGO_PKG_VERSION")),
    "id author the Saikoro developers",
    "option name USI_Ponder type check default false",
    "option name Seed type spin default 0 min 0 max 2147483647",
    "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule27",
    "option name LogFile type filename default <empty>",
    "usiok",
];

/// The position after `moves` from the start.
fn after(moves: &str) -> Position {
    let mut p = Position::startpos();
    for m in moves.split_whitespace() {
        let m = Move::from_usi(m).unwrap();
        p.is_legal(m).unwrap();
        p = p.play(m);
    }
    p
}

fn assert_legal(pos: &Position, text: &str) {
    let m = Move::from_usi(text).unwrap_or_else(|_| panic!("not a move: {text}"));
    assert!(pos.is_legal(m).is_ok(), "{text} illegal in {pos}");
}

/// ShogiHome (docs/usi.md §2.1, §7): LF only; after `usiok` it sends every option, including
/// undeclared `USI_Hash` and an empty `LogFile` with a trailing space; `isready` then
/// `usinewgame`; `position startpos` without `moves` at ply 0; byoyomi as `byoyomi 30000`, sudden
/// death as `byoyomi 0`; at the end `gameover` then `quit`, after which nothing may be printed.
#[test]
fn shogihome_game() {
    let mut s = Session::start();
    s.send("usi");
    for expected in USI_BLOCK {
        assert_eq!(s.recv(), expected);
    }
    for opt in [
        "setoption name USI_Ponder value false",
        "setoption name Seed value 0",
        "setoption name EnteringKingRule value CSARule27",
        "setoption name LogFile value ",
        "setoption name USI_Hash value 32",
    ] {
        s.send(opt);
    }
    s.send("isready");
    assert_eq!(s.recv(), "readyok", "options must be accepted silently");
    s.send("usinewgame");
    s.send("position startpos");
    s.send("go btime 0 wtime 0 byoyomi 30000");
    let seed = s.recv();
    assert!(seed.starts_with("info string seed "), "{seed}");
    let first = s.expect("bestmove ");
    let first = first.strip_prefix("bestmove ").unwrap();
    assert_legal(&Position::startpos(), first);
    let history = format!("{first} 3c3d");
    s.send(&format!("position startpos moves {history}"));
    s.send("go btime 0 wtime 0 byoyomi 0");
    let second = s.expect("bestmove ");
    assert_legal(&after(&history), second.strip_prefix("bestmove ").unwrap());
    s.send("gameover lose");
    // Next game in the same process.
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    s.send("usinewgame");
    s.send("position startpos moves 2g2f");
    s.send("go btime 60000 wtime 60000 binc 10000 winc 10000");
    let m = s.expect("bestmove ");
    assert_legal(&after("2g2f"), m.strip_prefix("bestmove ").unwrap());
    let (status, rest) = s.quit();
    assert!(status.success());
    assert!(rest.is_empty(), "output after quit: {rest:?}");
}

/// ShogiHome's option dialog and engine registration: `usi`, `usiok`, `quit` at once.
#[test]
fn shogihome_registration() {
    let out = run("usi\nquit");
    assert_eq!(out.lines(), USI_BLOCK);
    assert!(out.status.success());
    assert!(out.stderr.is_empty());
}

/// Shogidokoro / ShogiGUI (docs/usi.md §2.2, §2.3): .NET programs that may send CRLF and
/// Shift_JIS text; `USI_Ponder` and `USI_Hash` are always sent; `isready` before every game;
/// `gameover` then the next game's `isready`.
#[test]
fn shogidokoro_games_with_crlf() {
    let mut script = Vec::new();
    let mut line = |s: &[u8]| {
        script.extend_from_slice(s);
        script.extend_from_slice(b"\r\n");
    };
    line(b"usi");
    line(b"setoption name USI_Hash value 256");
    line(b"setoption name USI_Ponder value true");
    line(b"setoption name Seed value 12345");
    line(b"setoption name EnteringKingRule value CSARule27");
    line(b"isready");
    line(b"usinewgame");
    line(b"position startpos");
    line(b"go btime 600000 wtime 600000 byoyomi 10000");
    line(b"position startpos moves 7g7f 3c3d");
    line(b"go btime 590000 wtime 598000 byoyomi 10000");
    line(b"gameover win");
    line(b"setoption name USI_Hash value 256");
    line(b"setoption name USI_Ponder value true");
    line(b"isready");
    line(b"usinewgame");
    line(b"position startpos");
    line(b"go btime 600000 wtime 600000 byoyomi 10000");
    line(b"gameover draw");
    line(b"quit");
    let out = run_bytes(&script);
    let lines = out.lines();
    assert_eq!(lines[..7], USI_BLOCK);
    assert_eq!(
        lines[7..],
        [
            "readyok".to_string(),
            "info string seed 12345 (from the Seed option)".to_string(),
            format!("bestmove {}", out.bestmoves()[0]),
            format!("bestmove {}", out.bestmoves()[1]),
            "readyok".to_string(),
            "info string seed 12345 (from the Seed option), game 2 since it was set".to_string(),
            format!("bestmove {}", out.bestmoves()[2]),
        ]
    );
    let b = out.bestmoves();
    assert_legal(&Position::startpos(), &b[0]);
    assert_legal(&after("7g7f 3c3d"), &b[1]);
    // usinewgame goes on with the session's stream (the second game is no replay).
    assert_legal(&Position::startpos(), &b[2]);
    assert!(out.stderr.is_empty());
}

/// Shift_JIS bytes (and other invalid UTF-8) in any line must not stop the reading: a path
/// with Japanese characters in an unknown option, a garbled command, a garbled move.
#[test]
fn shift_jis_and_invalid_utf8_do_not_stop_the_engine() {
    let mut script = Vec::new();
    script.extend_from_slice(b"usi\r\n");
    // "setoption name Comment value 将棋所" in Shift_JIS.
    script.extend_from_slice(b"setoption name Comment value \x8f\xab\x8a\xfb\x8f\x8a\r\n");
    script.extend_from_slice(b"\x83\x65\x83\x58\x83\x67\r\n"); // "テスト"
    script.extend_from_slice(b"\xff\xfe\x00\x01garbage\r\n");
    script.extend_from_slice(b"position startpos moves 7g7f \x82\xa0\r\n");
    script.extend_from_slice(b"go\r\n");
    script.extend_from_slice(b"isready\r\n");
    let out = run_bytes(&script);
    let lines = out.lines();
    assert_eq!(lines[..7], USI_BLOCK);
    let rest = &lines[7..];
    assert_eq!(rest.len(), 6, "{rest:?}");
    assert_eq!(
        rest[0],
        "info string setoption: unknown option 'Comment' ignored (the options are USI_Ponder, Seed, EnteringKingRule, LogFile)"
    );
    assert!(
        rest[1].starts_with("info string unknown command '"),
        "{rest:?}"
    );
    assert!(
        rest[2].starts_with("info string unknown command '"),
        "{rest:?}"
    );
    assert_eq!(
        rest[3],
        "info string position rejected: move 2 '??' is not a USI move; resigning until a valid position"
    );
    assert_eq!(rest[4], "bestmove resign");
    assert_eq!(rest[5], "readyok");
    assert!(out.status.success());
}

/// LF, CRLF, a lone CR between commands, extra spaces and tabs all work.
#[test]
fn line_endings_and_spacing() {
    let out = run_bytes(b"isready\r\n  isready  \n\tisready\risready\r\r\n\nisready");
    assert_eq!(out.lines(), vec!["readyok"; 5]);
}

/// `go infinite` (analysis) holds the move until `stop`; `isready` is answered meanwhile; one
/// `bestmove` only, however many `stop`s follow.
#[test]
fn go_infinite_then_stop() {
    let mut s = Session::start();
    s.send("setoption name Seed value 7");
    s.send("position startpos moves 7g7f");
    s.send("go infinite");
    assert!(s.recv().starts_with("info string seed"));
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    assert_eq!(
        s.poll(Duration::from_millis(200)),
        None,
        "bestmove before stop"
    );
    s.send("stop");
    let m = s.expect("bestmove ");
    assert_legal(&after("7g7f"), m.strip_prefix("bestmove ").unwrap());
    s.send("stop");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    let (status, rest) = s.quit();
    assert!(status.success() && rest.is_empty());
}

/// `go ponder` holds the move until `ponderhit` (also with YaneuraOu's clock values after it).
#[test]
fn go_ponder_then_ponderhit() {
    let mut s = Session::start();
    s.send("setoption name Seed value 8");
    s.send("position startpos moves 7g7f 3c3d");
    s.send("go ponder btime 1000 wtime 1000 byoyomi 5000");
    assert!(s.recv().starts_with("info string seed"));
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    assert_eq!(
        s.poll(Duration::from_millis(200)),
        None,
        "bestmove while pondering"
    );
    s.send("ponderhit btime 900 wtime 1000 byoyomi 5000");
    let m = s.expect("bestmove ");
    assert!(!m.contains("ponder"), "{m}");
    assert_legal(&after("7g7f 3c3d"), m.strip_prefix("bestmove ").unwrap());
    // Ponder miss: stop, the discarded bestmove, then the real position and go.
    s.send("position startpos moves 7g7f 3c3d 2g2f 8c8d");
    s.send("go ponder");
    s.send("stop");
    s.expect("bestmove ");
    s.send("position startpos moves 7g7f 3c3d 2g2f 4c4d");
    s.send("go btime 900 wtime 1000 byoyomi 5000");
    let m = s.expect("bestmove ");
    assert_legal(
        &after("7g7f 3c3d 2g2f 4c4d"),
        m.strip_prefix("bestmove ").unwrap(),
    );
    let (status, rest) = s.quit();
    assert!(status.success() && rest.is_empty());
}

/// The end of a game while a search is held: ShogiHome sends `stop` then `gameover` and
/// discards exactly one `bestmove`; Shogidokoro sends `gameover` alone. Both get exactly one.
#[test]
fn gameover_during_a_held_search() {
    for (go, end) in [
        ("go ponder", "stop\ngameover win"),
        ("go ponder", "gameover lose"),
        ("go infinite", "gameover draw"),
    ] {
        let out = run(&format!(
            "position startpos\n{go}\n{end}\nisready\nusinewgame\nisready\nquit"
        ));
        let lines = out.lines();
        assert_eq!(out.bestmoves().len(), 1, "{go} / {end}: {lines:?}");
        assert_eq!(&lines[lines.len() - 2..], ["readyok", "readyok"]);
    }
}

/// End of input without `quit` acts as `quit`, after emitting the held `bestmove`.
#[test]
fn eof_without_quit() {
    let out = run("usi\nisready\nposition startpos\ngo infinite");
    assert!(out.status.success());
    let lines = out.lines();
    assert_eq!(lines.last().map(|l| l.starts_with("bestmove ")), Some(true));
    assert_eq!(out.bestmoves().len(), 1);
    assert_legal(&Position::startpos(), &out.bestmoves()[0]);
    // Plain EOF after a timed go: the bestmove is already out, nothing else follows.
    let out = run("position startpos\ngo byoyomi 1000");
    assert_eq!(out.bestmoves().len(), 1);
    assert!(out.status.success());
    // Empty input.
    let out = run_bytes(b"");
    assert!(out.status.success() && out.stdout.is_empty());
}

/// `quit` during a held search exits at once and prints nothing more.
#[test]
fn quit_during_a_held_search() {
    let out = run("setoption name Seed value 1\nposition startpos\ngo infinite\nquit\nisready");
    assert_eq!(
        out.lines(),
        vec!["info string seed 1 (from the Seed option)"]
    );
    assert!(out.status.success());
}

/// An illegal move anywhere in the history rejects the whole command (the info line names the
/// move and its index), and every `go` resigns until the next valid `position`.
#[test]
fn illegal_history() {
    let out = run("setoption name Seed value 3\n\
         position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e 5a4b 5e1a\n\
         go btime 0 wtime 0 byoyomi 1000\n\
         go ponder\nponderhit\n\
         position startpos moves 7g7f 3c3d 2g2f P*3c\n\
         go\n\
         position startpos moves 7g7f\n\
         go\n\
         quit");
    let lines = out.lines();
    assert_eq!(
        lines[0],
        "info string position rejected: move 7 '5e1a' is illegal: the piece cannot move to that square; resigning until a valid position"
    );
    assert_eq!(lines[1], "bestmove resign");
    assert_eq!(lines[2], "bestmove resign");
    assert_eq!(
        lines[3],
        "info string position rejected: move 4 'P*3c' is illegal: no such piece in hand; resigning until a valid position"
    );
    assert_eq!(lines[4], "bestmove resign");
    assert!(lines[5].starts_with("info string seed 3"));
    assert_legal(&after("7g7f"), lines[6].strip_prefix("bestmove ").unwrap());
    assert_eq!(lines.len(), 7);
}

/// Bad SFEN text and impossible positions are rejected the same way.
#[test]
fn bad_sfen() {
    for (sfen, why) in [
        (
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
            "position rejected: bad SFEN",
        ),
        (
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            "position rejected: bad SFEN",
        ),
        (
            "position sfen 4k4/9/9/9/9/9/P8/P8/4K4 b - 1",
            "position rejected: illegal position",
        ),
        (
            "position sfen 4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
            "position rejected: illegal position",
        ),
        (
            "position garbage",
            "position: expected startpos, sfen <SFEN> or an SFEN, not",
        ),
    ] {
        let out = run(&format!("{sfen}\ngo\nisready"));
        let lines = out.lines();
        assert!(
            lines[0].starts_with(&format!("info string {why}")),
            "{sfen}: {lines:?}"
        );
        assert_eq!(lines[1..], ["bestmove resign", "readyok"], "{sfen}");
    }
}

/// Unknown options and bad values get one `info string` each; the session goes on.
#[test]
fn bad_options() {
    let out = run("setoption name Threads value 4\n\
         setoption name Seed value banana\n\
         setoption name Seed value 99999999999\n\
         setoption name EnteringKingRule value TryRule\n\
         setoption name USI_Ponder value yes\n\
         setoption name\n\
         setoption name LogFile value /nonexistent-dir/x/y.log\n\
         setoption name seed value 5\n\
         position startpos\ngo\nisready");
    let lines = out.lines();
    assert_eq!(lines.len(), 10, "{lines:?}");
    assert!(
        lines[..7].iter().all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    assert!(lines[6].starts_with("info string setoption LogFile: cannot open"));
    assert_eq!(lines[7], "info string seed 5 (from the Seed option)");
    assert_eq!(lines[9], "readyok");
    assert!(out.stderr.is_empty());
}

/// `go mate` in any form gets `checkmate notimplemented`, never a `bestmove`; also for a mate
/// problem without the attacker's king.
#[test]
fn go_mate() {
    let out = run(
        "position sfen 3sks3/9/4S4/9/9/9/9/9/9 b G2r2b3gs4n4l18p 1\n\
         go mate 10000\ngo mate infinite\ngo mate\nisready",
    );
    assert_eq!(
        out.lines(),
        [
            "checkmate notimplemented",
            "checkmate notimplemented",
            "checkmate notimplemented",
            "readyok"
        ]
    );
}

/// No legal move: resign. Entering-king declaration: `win` under CSARule27 (the default) and
/// CSARule24 when the points suffice, never under NoEnteringKing.
#[test]
fn resign_and_declare() {
    let out = run("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1\ngo");
    assert_eq!(out.bestmoves(), ["resign"]);
    // Black: king on 9a, 12 pieces in the camp, 32 points with the hand.
    let decl = "position sfen K1+R+B+P+P+P+P+P/+P+P+P+P+P4/9/9/9/9/9/9/4k4 b RB2G 1";
    let out = run(&format!("{decl}\ngo"));
    assert_eq!(out.bestmoves(), ["win"]);
    let out = run(&format!(
        "setoption name EnteringKingRule value CSARule24\n{decl}\ngo"
    ));
    assert_eq!(out.bestmoves(), ["win"]);
    let out = run(&format!(
        "setoption name EnteringKingRule value NoEnteringKing\n{decl}\ngo"
    ));
    let pos = Position::from_sfen(decl.strip_prefix("position sfen ").unwrap()).unwrap();
    assert_legal(&pos, &out.bestmoves()[0]);
}

/// A script without `usi`, `isready` or `position`: `go` plays from the start position.
#[test]
fn bare_go() {
    let out = run("go");
    assert_legal(&Position::startpos(), &out.bestmoves()[0]);
}

/// Unknown commands: one `info string` line each, nothing else; very long lines are fine.
#[test]
fn unknown_commands_and_long_lines() {
    let long = "x".repeat(200_000);
    let out = run(&format!("hello world\n{long}\nisready"));
    let lines = out.lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], "info string unknown command 'hello'");
    assert_eq!(
        lines[1],
        format!("info string unknown command '{}...'", "x".repeat(40))
    );
    assert_eq!(lines[2], "readyok");
}

/// The debug commands: `d` and `go perft` (Stockfish's divide format; more in
/// tests/it/usi_perft.rs).
#[test]
fn debug_commands() {
    let out = run("position startpos moves 7g7f\nd");
    let lines = out.lines();
    assert!(lines.contains(
        &"SFEN: lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2".to_string()
    ));
    assert!(lines.contains(&"Legal moves: 30".to_string()));
    assert!(lines.contains(&"Side to move: white (gote)".to_string()));
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go perft 3");
    let mut lines = Vec::new();
    while !lines
        .last()
        .is_some_and(|l: &String| l.starts_with("info string perft"))
    {
        lines.push(s.recv());
    }
    let i = lines
        .iter()
        .position(|l| l == "Nodes searched: 25470")
        .expect("perft total");
    // 30 replies, then a blank line, the total and an info line.
    let divide = &lines[i - 31..i - 1];
    assert!(divide.iter().all(|l| l.contains(": ")), "{divide:?}");
    let sum: u64 = divide
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 25470);
    assert_eq!(lines[i - 1], "");
    assert!(lines[i + 1].starts_with("info string perft 3 nodes 25470 time "));
    let (status, rest) = s.quit();
    assert!(status.success() && rest.is_empty());
}

/// YaneuraOu's `side` and `moves`, as its script driver Ayane uses them: each answers exactly
/// one line, read right after the command.
#[test]
fn yaneuraou_side_and_moves() {
    let mut s = Session::start();
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    s.send("position startpos moves 7g7f 3c3d 8h2b+");
    s.send("side");
    assert_eq!(s.recv(), "white");
    s.send("moves");
    let line = s.recv();
    // The wiring through the binary (the lists themselves are checked by hand in the engine's
    // unit tests): every listed move is legal, each once, all of them; the silver may take the
    // horse (3a2b).
    let pos = after("7g7f 3c3d 8h2b+");
    let moves: Vec<&str> = line.split(' ').collect();
    for m in &moves {
        assert_legal(&pos, m);
    }
    assert!(moves.contains(&"3a2b"));
    let mut unique = moves.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), moves.len());
    assert_eq!(moves.len(), pos.legal_moves().len());
    s.send("position startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    s.send("side");
    assert_eq!(s.recv(), "black");
    let (status, rest) = s.quit();
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

/// `--log-file` and the `LogFile` option append to a file; nothing reaches stderr or stdout.
#[test]
fn log_file() {
    let dir = std::env::temp_dir().join(format!("saikoro-usi-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("option log.txt");
    let b = dir.join("flag.txt");
    let _ = std::fs::remove_file(&a);
    let _ = std::fs::remove_file(&b);
    let out = run(&format!(
        "setoption name LogFile value {}\nposition startpos moves 7g7f 7g7f\nisready\nsetoption name LogFile value \nisready",
        a.display()
    ));
    assert_eq!(out.lines().last().unwrap(), "readyok");
    assert!(out.stderr.is_empty());
    let log = std::fs::read_to_string(&a).unwrap();
    assert!(log.contains("WARN"), "{log}");
    assert!(log.contains("move 2 '7g7f' is illegal"), "{log}");
    assert!(
        log.contains("< isready") && log.contains("> readyok"),
        "{log}"
    );
    assert_eq!(
        log.matches("> readyok").count(),
        1,
        "log closed by the empty value: {log}"
    );
    // CRLF, as the Windows GUIs send it: one `<` log line per command, no blank ones.
    let out = run_with(
        b"usi\r\nisready\r\n",
        &["--log-file", b.to_str().unwrap()],
        &[],
    );
    assert_eq!(out.lines().last().unwrap(), "readyok");
    let log = std::fs::read_to_string(&b).unwrap();
    assert!(log.contains("> readyok"), "{log}");
    // The first line dates the log in UTC: `---- 2026/12/01 15:04:18 UTC: saikoro ...`.
    let head = log.lines().next().unwrap();
    let date = head.strip_prefix("---- ").unwrap_or_default();
    let shape: String = date
        .chars()
        .take(24)
        .map(|c| if c.is_ascii_digit() { '9' } else { c })
        .collect();
    assert_eq!(shape, "9999/99/99 99:99:99 UTC:", "{head}");
    assert!(date[..4].parse::<u32>().unwrap() >= 2026, "{head}");
    let received: Vec<&str> = log
        .lines()
        .filter_map(|l| l.split_once(": < ").map(|(_, c)| c))
        .collect();
    assert_eq!(received, ["usi", "isready"], "{log}");
    // RUST_LOG sends logs to stderr, never stdout.
    let out = run_with(b"foo\n", &[], &[("RUST_LOG", "warn")]);
    assert_eq!(out.lines(), ["info string unknown command 'foo'"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("WARN"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Quiet by default: a session full of warnings writes nothing to stderr.
#[test]
fn stderr_is_quiet_by_default() {
    let out = run("foo\nsetoption name X value 1\nposition startpos moves 1a1a\ngo\nquit");
    assert!(
        out.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Output format: ASCII, no double or trailing spaces, a bestmove never carries `ponder`.
#[test]
fn output_format() {
    let out = run("usi\nsetoption name Seed value 11\nisready\nusinewgame\nposition startpos\ngo\ngo ponder\nponderhit\ngo infinite\nstop\nquit");
    for l in out.lines() {
        assert!(
            !l.contains("  ") && !l.ends_with(' ') && !l.starts_with(' '),
            "{l:?}"
        );
        if let Some(m) = l.strip_prefix("bestmove ") {
            assert!(!m.contains(' '), "{l}");
        }
    }
    assert_eq!(out.bestmoves().len(), 3);
}

/// Each malformed argument of `go` gets one `info string` saying what was expected, and the
/// `go` still gets its `bestmove`; likewise `gameover` without a result, `setoption` without
/// its keywords, and a `position` that is none of startpos, sfen or an SFEN.
#[test]
fn malformed_commands_warn_and_are_still_answered() {
    let ms = "expected milliseconds, a whole number from 0";
    for (go, warnings) in [
        (
            "go depth x",
            vec!["go: 'depth x' ignored: expected a whole number from 0".to_string()],
        ),
        (
            "go btime -5 wtime 0 byoyomi 100",
            vec![format!("go: 'btime -5' ignored: {ms}")],
        ),
        (
            "go movetime",
            vec![format!("go: 'movetime' without a value ignored: {ms}")],
        ),
        (
            "go foo bar byoyomi 100",
            vec![format!(
                "go: unknown 'foo bar' ignored: expected one of {}",
                saikoro_usi::GO_PARAMETERS
            )],
        ),
        (
            "go byoyomi wtime x",
            vec![
                format!("go: 'byoyomi' without a value ignored: {ms}"),
                format!("go: 'wtime x' ignored: {ms}"),
            ],
        ),
        // Well formed: no warning (searchmoves' moves are no unknown words).
        (
            "go btime 0 wtime 0 searchmoves 7g7f 2g2f byoyomi 100",
            vec![],
        ),
    ] {
        let out = run(&format!(
            "setoption name Seed value 1\nposition startpos\n{go}\nisready"
        ));
        let lines = out.lines();
        let (warned, rest) = lines.split_at(warnings.len());
        let want: Vec<String> = warnings
            .iter()
            .map(|w| format!("info string {w}"))
            .collect();
        assert_eq!(warned, want, "{go}");
        assert_eq!(rest[0], "info string seed 1 (from the Seed option)", "{go}");
        assert_legal(
            &Position::startpos(),
            rest[1].strip_prefix("bestmove ").unwrap(),
        );
        assert_eq!(rest[2..], ["readyok"], "{go}");
    }
    malformed_other_commands_warn();
}

/// The rest of [`malformed_commands_warn_and_are_still_answered`]: `gameover`, `setoption`
/// and `position` without what they need.
fn malformed_other_commands_warn() {
    let out = run("gameover\ngameover maybe\ngameover win\nisready");
    let gameover =
        "info string gameover: expected win, lose or draw after it; the game is over all the same";
    assert_eq!(out.lines(), [gameover, gameover, "readyok"]);
    // A held search ends at a malformed gameover too.
    let out = run("position startpos\ngo ponder\ngameover\nisready\nquit");
    assert_eq!(out.bestmoves().len(), 1);
    let out = run("setoption Seed 5\nsetoption name Seed 5\nsetoption name Hash value 1\nisready");
    let seed = "info string setoption: unknown option 'Seed 5' ignored (expected 'setoption name Seed value <value>')";
    assert_eq!(
        out.lines(),
        [
            seed,
            seed,
            "info string setoption: unknown option 'Hash' ignored (the options are USI_Ponder, Seed, EnteringKingRule, LogFile)",
            "readyok"
        ]
    );
    let out = run("position foo\ngo\nposition\ngo\nposition startpos\ngo\nisready");
    let lines = out.lines();
    assert_eq!(
        lines[0],
        "info string position: expected startpos, sfen <SFEN> or an SFEN, not 'foo' (bad SFEN: unexpected 'f' in the board field at byte 0); resigning until a valid position"
    );
    assert_eq!(lines[1], "bestmove resign");
    assert_eq!(
        lines[2],
        "info string position: expected startpos, sfen <SFEN> or an SFEN after it; resigning until a valid position"
    );
    assert_eq!(lines[3], "bestmove resign");
    assert_eq!(out.bestmoves().len(), 3);
    assert_ne!(out.bestmoves()[2], "resign");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

/// `go searchmoves`: the choice is among the listed legal moves; an illegal or unparsable one
/// is named in an `info string` and left out.
#[test]
fn searchmoves_restricts_the_choice() {
    let script = "setoption name Seed value 5\nposition startpos\n".to_string()
        + &"go searchmoves 7g7f 2g2f\n".repeat(20);
    let b = run(&script).bestmoves();
    assert_eq!(b.len(), 20);
    assert!(b.iter().all(|m| m == "7g7f" || m == "2g2f"), "{b:?}");
    assert!(
        b.iter().any(|m| m == "7g7f") && b.iter().any(|m| m == "2g2f"),
        "{b:?}"
    );
    let out = run("position startpos\ngo searchmoves 7g7e 2g2f xx");
    assert_eq!(out.bestmoves(), ["2g2f"]);
    let lines = out.lines();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string go: searchmoves: "))
            .count(),
        2,
        "{lines:?}"
    );
}

/// The games of a session: each as played by the engine on both sides, `plies` each, from
/// the start position; `usinewgame` before each.
fn session_games(seed: u64, games: usize, plies: usize) -> Vec<Vec<String>> {
    let mut s = Session::start();
    s.send(&format!("setoption name Seed value {seed}"));
    let mut all = Vec::new();
    for _ in 0..games {
        s.send("usinewgame");
        let mut moves: Vec<String> = Vec::new();
        while moves.len() < plies {
            s.send(&format!("position startpos moves {}", moves.join(" ")));
            s.send("go btime 0 wtime 0 byoyomi 1000");
            let m = s.expect("bestmove ")["bestmove ".len()..].to_string();
            if m == "resign" || m == "win" {
                break;
            }
            moves.push(m);
        }
        all.push(moves);
    }
    let (status, _) = s.quit();
    assert!(status.success());
    all
}

/// One random stream per session: a fixed Seed gives the same session every time, each game
/// of it differs from the others (`usinewgame` does not restart the generator), and another
/// Seed gives other games.
#[test]
fn seeds_give_sessions_whose_games_differ() {
    let one = session_games(1, 5, 16);
    assert_eq!(
        session_games(1, 5, 16),
        one,
        "the same Seed, the same session"
    );
    for (i, a) in one.iter().enumerate() {
        for b in &one[i + 1..] {
            assert_ne!(a, b, "two games of a session alike");
        }
    }
    let two = session_games(2, 5, 16);
    assert!(one.iter().all(|g| !two.contains(g)), "{one:?} {two:?}");
}
