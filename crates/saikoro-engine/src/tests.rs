//! Session tests: lines in, exact lines out, with a `Vec<u8>` as stdout.

use super::*;
use saikoro_core::{Move, Position};

/// Feeds `input` line by line; returns the output lines and whether `quit` was seen.
fn run(engine: &mut Engine, input: &str) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    let mut quit = false;
    for line in input.lines() {
        if engine.handle_line(line, &mut out).unwrap() == Flow::Quit {
            quit = true;
            break;
        }
    }
    let text = String::from_utf8(out).unwrap();
    (text.lines().map(str::to_string).collect(), quit)
}

fn lines(input: &str) -> Vec<String> {
    run(&mut Engine::new(), input).0
}

fn bestmoves(out: &[String]) -> Vec<&str> {
    out.iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect()
}

#[test]
fn usi_handshake() {
    let out = lines("usi");
    assert_eq!(
        out,
        vec![
            format!("id name Saikoro {}", env!("CARGO_PKG_VERSION")),
            format!("id author {AUTHOR}"),
            "option name USI_Ponder type check default false".to_string(),
            "option name Seed type spin default 0 min 0 max 2147483647".to_string(),
            "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule27".to_string(),
            "option name LogFile type filename default <empty>".to_string(),
            "usiok".to_string(),
        ]
    );
    for l in &out {
        assert!(
            l.is_ascii() && !l.contains("  ") && !l.ends_with(' '),
            "{l:?}"
        );
    }
}

#[test]
fn isready_always_answers() {
    assert_eq!(lines("isready"), vec!["readyok"]);
    // Also while a search is pending, without ending it.
    let out =
        lines("setoption name Seed value 1\nposition startpos\ngo infinite\nisready\nisready");
    assert_eq!(
        out,
        vec![
            "info string seed 1 (from the Seed option)",
            "readyok",
            "readyok"
        ]
    );
}

#[test]
fn go_answers_a_legal_move_at_once() {
    let mut e = Engine::new();
    let (out, _) = run(
        &mut e,
        "setoption name Seed value 5\nposition startpos moves 7g7f\ngo btime 0 wtime 0 byoyomi 0",
    );
    assert_eq!(out[0], "info string seed 5 (from the Seed option)");
    assert_eq!(out.len(), 2);
    let m = Move::from_usi(bestmoves(&out)[0]).unwrap();
    let pos = Position::startpos().play(Move::from_usi("7g7f").unwrap());
    assert!(pos.is_legal(m).is_ok());
}

/// A fixed Seed fixes the whole session: two sessions give the same moves, game for game;
/// `usinewgame` goes on with the stream, so the second game differs from the first; a new
/// `Seed` restarts it.
#[test]
fn same_seed_same_session_and_each_game_differs() {
    let game = "usinewgame\nposition startpos\ngo\nposition startpos moves 7g7f\ngo\nposition startpos moves 2g2f\ngo\n";
    let script = format!("setoption name Seed value 42\n{}", game.repeat(2));
    let a = lines(&script);
    let b = bestmoves(&a);
    assert_eq!(b.len(), 6);
    assert_eq!(
        bestmoves(&lines(&script)),
        b,
        "the same session, the same moves"
    );
    assert_ne!(b[..3], b[3..], "usinewgame does not restart the generator");
    let seeds: Vec<&String> = a
        .iter()
        .filter(|l| l.starts_with("info string seed"))
        .collect();
    assert_eq!(
        seeds,
        [
            "info string seed 42 (from the Seed option)",
            "info string seed 42 (from the Seed option), game 2 since it was set"
        ]
    );
    // Setting the Seed to the value it has (as Shogidokoro sends every option before each
    // game) goes on with the stream: a third game, not the first again.
    let resent = lines(&format!("{script}setoption name Seed value 42\n{game}"));
    let third = bestmoves(&resent)[6..].to_vec();
    assert_eq!(bestmoves(&resent)[..6], b[..]);
    assert_ne!(third[..], b[..3]);
    assert_ne!(third[..], b[3..]);
    // Another value, then 42 again: a new stream, the first game again.
    let again = lines(&format!(
        "{script}setoption name Seed value 7\nsetoption name Seed value 42\n{game}"
    ));
    assert_eq!(bestmoves(&again)[6..], b[..3]);
    let c = lines(&script.replace("42", "43"));
    assert_ne!(bestmoves(&c), b);
}

/// A fractional Seed, as an SPSA tuner sends it, is read as the nearest integer, said on the
/// line it is set and named with the first move; the session is then the one of that integer.
#[test]
fn a_fractional_seed_plays_as_its_nearest_integer() {
    let game = "position startpos\ngo\nposition startpos moves 7g7f\ngo\n";
    let out = lines(&format!("setoption name Seed value 12.6\n{game}"));
    assert_eq!(
        out[..2],
        [
            "info string setoption Seed: 12.6 rounded to 13",
            "info string seed 13 (from the Seed option)",
        ]
    );
    let whole = lines(&format!("setoption name Seed value 13\n{game}"));
    assert_eq!(bestmoves(&out), bestmoves(&whole));
    assert_eq!(bestmoves(&out).len(), 2);
    // Below a half it rounds down, a half rounds up.
    for (sent, seed) in [("12.4", 12), ("12.5", 13)] {
        let out = lines(&format!(
            "setoption name Seed value {sent}\nposition startpos\ngo"
        ));
        assert_eq!(
            out[1],
            format!("info string seed {seed} (from the Seed option)")
        );
    }
}

#[test]
fn seed_zero_uses_entropy_and_reports_a_replayable_seed() {
    let out = lines("position startpos\ngo");
    let seed: u64 = out[0]
        .strip_prefix("info string seed ")
        .and_then(|s| s.strip_suffix(" (from entropy)"))
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=SEED_MAX).contains(&seed));
    let replay = lines(&format!(
        "setoption name Seed value {seed}\nposition startpos\ngo"
    ));
    assert_eq!(bestmoves(&replay), bestmoves(&out));
}

#[test]
fn infinite_and_ponder_hold_until_released() {
    for (go, release) in [
        ("go infinite", "stop"),
        ("go ponder btime 100 wtime 100 byoyomi 1000", "ponderhit"),
        ("go ponder", "stop"),
        ("go ponder", "gameover lose"),
        ("go infinite", "gameover win"),
    ] {
        let mut e = Engine::new();
        let (before, _) = run(
            &mut e,
            &format!("setoption name Seed value 1\nposition startpos\n{go}\nisready"),
        );
        assert_eq!(bestmoves(&before).len(), 0, "{go}");
        assert!(e.is_searching());
        let (after, _) = run(&mut e, &format!("{release}\n{release}\nstop\nponderhit"));
        assert_eq!(bestmoves(&after).len(), 1, "{go} / {release}: {after:?}");
        assert!(!e.is_searching());
    }
}

/// `go infinite` ends only with `stop` (usi.md 1.4.2): a stray `ponderhit` leaves it held.
#[test]
fn ponderhit_does_not_end_go_infinite() {
    let mut e = Engine::new();
    let (out, _) = run(&mut e, "position startpos\ngo infinite\nponderhit\nisready");
    assert_eq!(bestmoves(&out).len(), 0, "{out:?}");
    assert!(e.is_searching());
    let (out, _) = run(&mut e, "stop");
    assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
}

#[test]
fn finish_emits_the_pending_bestmove_once() {
    let mut e = Engine::new();
    run(&mut e, "position startpos\ngo infinite");
    let mut out = Vec::new();
    e.finish(&mut out).unwrap();
    e.finish(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove ")).count(),
        1
    );
}

#[test]
fn quit_prints_nothing_even_with_a_pending_search() {
    let (out, quit) = run(
        &mut Engine::new(),
        "setoption name Seed value 3\nposition startpos\ngo infinite\nquit\nisready",
    );
    assert!(quit);
    assert_eq!(out, vec!["info string seed 3 (from the Seed option)"]);
}

#[test]
fn go_during_a_pending_search_answers_both() {
    let out = lines("position startpos\ngo ponder\ngo btime 1 wtime 1");
    assert_eq!(bestmoves(&out).len(), 2);
}

#[test]
fn stop_and_ponderhit_when_idle_say_nothing() {
    assert!(lines("stop\nponderhit\ngameover draw\nusinewgame").is_empty());
}

#[test]
fn go_mate_is_not_implemented() {
    for g in ["go mate 10000", "go mate infinite", "go mate"] {
        assert_eq!(
            lines(&format!(
                "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\n{g}"
            )),
            vec!["checkmate notimplemented"],
            "{g}"
        );
    }
}

#[test]
fn illegal_history_rejects_the_whole_command() {
    let mut e = Engine::new();
    let (out, _) = run(
        &mut e,
        "position startpos moves 7g7f 3c3d 7f7e 3d3e 7e7e\ngo",
    );
    assert_eq!(
        out,
        vec![
            "info string position rejected: move 5 '7e7e' is illegal: a null move: the destination is the origin square; resigning until a valid position",
            "bestmove resign",
        ]
    );
    // Still resigning (also with ponder), until a valid position.
    let (out, _) = run(
        &mut e,
        "go infinite\nstop\nposition startpos moves 7g7f\nsetoption name Seed value 9\ngo",
    );
    assert_eq!(out[0], "bestmove resign");
    assert!(out[2].starts_with("bestmove ") && out[2] != "bestmove resign");
    assert_eq!(e.game().len(), 1);
}

#[test]
fn malformed_sfen_and_moves_are_reported() {
    let out =
        lines("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1\ngo");
    assert_eq!(out.len(), 2);
    assert!(
        out[0].starts_with("info string position rejected: bad SFEN: rank i has 8 squares"),
        "{out:?}"
    );
    assert_eq!(out[1], "bestmove resign");
    // Two black kings: well formed, not a position.
    let out = lines("position sfen 4k4/9/9/9/9/9/9/9/3KK4 b - 1\ngo");
    assert!(
        out[0].starts_with("info string position rejected: illegal position"),
        "{out:?}"
    );
    assert_eq!(out[1], "bestmove resign");
    let out = lines("position startpos moves 7g7f 3c3x\ngo");
    assert_eq!(out[0], "info string position rejected: move 2 '3c3x' is not a USI move; resigning until a valid position");
    assert_eq!(out[1], "bestmove resign");
}

#[test]
fn positions_without_a_king_are_accepted() {
    // A mate problem: White king only. Black plays a legal move.
    let mut e = Engine::new();
    let (out, _) = run(
        &mut e,
        "setoption name Seed value 1\nposition sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\ngo",
    );
    let m = Move::from_usi(bestmoves(&out)[0]).unwrap();
    assert!(e.game().position().is_legal(m).is_ok());
}

#[test]
fn no_legal_move_resigns_and_declaration_wins() {
    // White to move, mated: gold on 5b protected by the pawn on 5c.
    let out = lines("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1\ngo");
    assert_eq!(bestmoves(&out), vec!["resign"]);
    // Black king in White's camp with enough points and pieces (CSA 27-point rule).
    let sfen = "position sfen K1+R+B+P+P+P+P+P/+P+P+P+P+P4/9/9/9/9/9/9/4k4 b RB2G 1";
    assert_eq!(bestmoves(&lines(&format!("{sfen}\ngo"))), vec!["win"]);
    let out = lines(&format!(
        "setoption name EnteringKingRule value NoEnteringKing\n{sfen}\ngo"
    ));
    assert!(!["win", "resign"].contains(&bestmoves(&out)[0]));
}

#[test]
fn options_are_case_insensitive_and_bad_values_warn() {
    let mut e = Engine::new();
    let (out, _) = run(
        &mut e,
        "setoption name seed value 77\nsetoption name enteringkingrule value csarule24\nsetoption name USI_Hash value 32\nsetoption name USI_Ponder value true\nsetoption name LogFile value ",
    );
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(e.options().seed, 77);
    assert_eq!(e.options().entering_king_rule, EnteringKingRule::CsaRule24);
    assert!(e.options().ponder);
    let (out, _) = run(
        &mut e,
        "setoption name Seed value -1\nsetoption name Seed value 2147483648\nsetoption name Seed value\nsetoption name EnteringKingRule value TryRule\nsetoption name USI_Ponder value maybe\nsetoption name Threads value 4\nsetoption name\nsetoption name USI_Hash value lots",
    );
    assert_eq!(out.len(), 8, "{out:?}");
    assert!(out.iter().all(|l| l.starts_with("info string ")));
    assert_eq!(
        out[5],
        "info string setoption: unknown option 'Threads' ignored (the options are USI_Ponder, Seed, EnteringKingRule, LogFile)"
    );
    assert_eq!(e.options().seed, 77);
    assert_eq!(e.options().entering_king_rule, EnteringKingRule::CsaRule24);
}

#[test]
fn logfile_calls_the_switch() {
    use std::sync::{Arc, Mutex};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let mut e = Engine::new().with_log_switch(Box::new(move |p: Option<&Path>| {
        s.lock().unwrap().push(p.map(|p| p.display().to_string()));
        if p.is_some_and(|p| p.to_string_lossy().contains("forbidden")) {
            Err(io::Error::other("denied"))
        } else {
            Ok(())
        }
    }));
    let (out, _) = run(
        &mut e,
        "setoption name LogFile value C:\\logs\\my log.txt\nsetoption name LogFile value <empty>\nsetoption name LogFile value /forbidden/x",
    );
    assert_eq!(
        *seen.lock().unwrap(),
        vec![
            Some("C:\\logs\\my log.txt".to_string()),
            None,
            Some("/forbidden/x".to_string())
        ]
    );
    assert_eq!(
        out,
        vec!["info string setoption LogFile: cannot open '/forbidden/x': denied"]
    );
    assert_eq!(e.options().log_file, "");
}

#[test]
fn unknown_commands_get_one_ascii_info_line() {
    let out = lines("foo bar\n\n   \nxyz\u{3042}\u{fffd}  baz");
    assert_eq!(
        out,
        vec![
            "info string unknown command 'foo'",
            "info string unknown command 'xyz??'",
        ]
    );
}

#[test]
fn perft_divide_output() {
    let out = lines("position startpos\ngo perft 2");
    assert_eq!(out.len(), 30 + 3);
    assert!(out[..30].iter().all(|l| l.ends_with(": 30")), "{out:?}");
    assert_eq!(out[30], "");
    assert_eq!(out[31], "Nodes searched: 900");
    assert!(out[32].starts_with("info string perft 2 nodes 900 time "));
    let out = lines("position startpos\ngo perft 0");
    assert_eq!(out[1], "Nodes searched: 1");
}

/// `side` answers `black`/`white` (YaneuraOu's words) for whoever is to move.
#[test]
fn side_names_the_side_to_move() {
    assert_eq!(lines("side"), ["black"]);
    assert_eq!(lines("position startpos\nside"), ["black"]);
    assert_eq!(lines("position startpos moves 7g7f\nside"), ["white"]);
    assert_eq!(lines("position startpos moves 7g7f 3c3d\nside"), ["black"]);
    // White to move by the SFEN, then Black after one White move.
    let sfen = "position sfen 4k4/9/9/9/9/9/9/9/4K4 w - 1";
    assert_eq!(lines(&format!("{sfen}\nside")), ["white"]);
    assert_eq!(lines(&format!("{sfen} moves 5a4b\nside")), ["black"]);
}

/// `moves` lists the legal moves on one line. Expectations worked out by hand.
#[test]
fn moves_lists_the_legal_moves_on_one_line() {
    // The start position: 9 pawn pushes, 2 lance steps, 4 silver, 6 gold, 3 king and 6 rook
    // moves; the bishop and the knights are boxed in.
    let want = "9g9f 8g8f 7g7f 6g6f 5g5f 4g4f 3g3f 2g2f 1g1f 9i9h 1i1h 7i7h 7i6h 3i3h 3i4h \
                6i7h 6i6h 6i5h 4i5h 4i4h 4i3h 5i6h 5i5h 5i4h 2h3h 2h4h 2h5h 2h6h 2h7h 2h1h";
    let out = lines("position startpos\nmoves");
    assert_eq!(out.len(), 1);
    assert!(
        !out[0].contains("  ") && !out[0].ends_with(' '),
        "{:?}",
        out[0]
    );
    let mut got: Vec<&str> = out[0].split(' ').collect();
    let mut want: Vec<&str> = want.split_whitespace().collect();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);

    // A pawn on 2d may step to 2c with or without promotion; the king on 5i has five steps.
    let out = lines("position sfen 4k4/9/9/7P1/9/9/9/9/4K4 b - 1\nmoves");
    let mut got: Vec<&str> = out[0].split(' ').collect();
    got.sort_unstable();
    assert_eq!(
        got,
        ["2d2c", "2d2c+", "5i4h", "5i4i", "5i5h", "5i6h", "5i6i"]
    );

    // A pawn in hand: 5 king steps and a drop on each of the 71 empty squares of ranks b-i
    // (none on rank a, where a pawn could never move). P*5b checks but is no mate (the king
    // takes it or steps aside), so it is legal.
    let out = lines("position sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1\nmoves");
    let got: Vec<&str> = out[0].split(' ').collect();
    assert_eq!(got.len(), 76);
    assert_eq!(got.iter().filter(|m| m.starts_with("P*")).count(), 71);
    assert!(got.contains(&"P*5b") && got.contains(&"P*1i") && !got.contains(&"P*5a"));
}

/// With no legal move, or after a rejected `position`, `moves` still answers one line: empty.
#[test]
fn moves_answers_an_empty_line_when_there_is_nothing_to_play() {
    // White is mated: gold on 5b, protected by the pawn on 5c.
    assert_eq!(
        lines("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1\nmoves\nside"),
        ["", "white"]
    );
    let out = lines("position startpos moves 7g7f 7g7f\nmoves\nside");
    assert!(
        out[0].starts_with("info string position rejected"),
        "{out:?}"
    );
    // `side` still describes the position `d` shows: the last valid one (here the start).
    assert_eq!(out[1..], ["", "black"]);
}

#[test]
fn display_shows_position_facts() {
    let out = lines("position startpos moves 7g7f 3c3d 8h2b+\nd");
    let text = out.join("\n");
    assert!(text.is_ascii());
    assert!(
        text.contains("SFEN: lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"),
        "{text}"
    );
    assert!(text.contains("Side to move: white (gote)"));
    assert!(text.contains("In check: no"));
    assert!(text.contains("Legal moves: "));
    assert!(text.contains("Moves played: 3"));
}

#[test]
fn resent_games_replay_only_new_moves_and_handle_takebacks() {
    let mut e = Engine::new();
    run(&mut e, "position startpos moves 7g7f 3c3d 2g2f");
    let sfen_after = |moves: &str| {
        let mut p = Position::startpos();
        for m in moves.split_whitespace() {
            p = p.play(Move::from_usi(m).unwrap());
        }
        p.to_sfen()
    };
    // A take-back (shorter list, different branch), then an extension.
    run(&mut e, "position startpos moves 7g7f 4c4d");
    assert_eq!(e.game().position().to_sfen(), sfen_after("7g7f 4c4d"));
    run(&mut e, "position startpos moves 7g7f 4c4d 2g2f 8c8d");
    assert_eq!(
        e.game().position().to_sfen(),
        sfen_after("7g7f 4c4d 2g2f 8c8d")
    );
    // A different start replaces the game.
    run(
        &mut e,
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 3 moves 2g2f",
    );
    assert_eq!(e.game().len(), 1);
    assert_eq!(e.game().start().ply(), 3);
    // A rejected command leaves a consistent game behind, and the next valid one is right.
    run(&mut e, "position startpos moves 7g7f 3c3d 7g7f");
    run(&mut e, "position startpos moves 7g7f 3c3d 8h2b+");
    assert_eq!(e.game().position().to_sfen(), sfen_after("7g7f 3c3d 8h2b+"));
}

#[test]
fn ascii_line_cleans_text() {
    assert_eq!(ascii_line("a  b\t\u{3042}\nc "), "a b ? c");
}

/// Shogidokoro and ShogiGUI send Shift_JIS; decoded lossily, a Japanese path turns into
/// U+FFFD characters. Opening that would create a file with a garbled name somewhere the user
/// never looks, so the value is refused with a warning instead.
#[test]
fn logfile_with_undecodable_bytes_is_refused() {
    use std::sync::{Arc, Mutex};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let mut e = Engine::new().with_log_switch(Box::new(move |p: Option<&Path>| {
        s.lock().unwrap().push(p.map(|p| p.display().to_string()));
        Ok(())
    }));
    let line =
        String::from_utf8_lossy(b"setoption name LogFile value C:\\\x83\x65\x83\x58\x83\x67.log");
    let (out, _) = run(&mut e, &line);
    assert!(
        seen.lock().unwrap().is_empty(),
        "{:?}",
        seen.lock().unwrap()
    );
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string setoption LogFile: ") && out[0].contains("not ASCII/UTF-8"),
        "{out:?}"
    );
    assert_eq!(e.options().log_file, "");
}

/// A rejected `position` leaves the last valid game in place (what `d` shows), whether the
/// bad move comes after a resent prefix or the start itself changed.
#[test]
fn rejected_position_keeps_the_last_valid_game() {
    let mut e = Engine::new();
    run(&mut e, "position startpos moves 7g7f 3c3d 2g2f");
    let before = e.game().position().to_sfen();
    let (out, _) = run(&mut e, "position startpos moves 7g7f 3c3d 8h2b+ 3a2b 2b2b");
    assert!(out[0].contains("move 5 '2b2b'"), "{out:?}");
    assert_eq!(e.game().position().to_sfen(), before);
    assert_eq!(e.game().len(), 3);
    run(
        &mut e,
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d 3c3d",
    );
    assert_eq!(e.game().position().to_sfen(), before);
    let (out, _) = run(&mut e, "d\ngo");
    assert!(out[0].contains("rejected"), "{out:?}");
    assert!(
        out.iter().any(|l| l == &format!("SFEN: {before}")),
        "{out:?}"
    );
    assert_eq!(bestmoves(&out), vec!["resign"]);
}

/// `d` says the repetition in words: none after the rooks' first round trip (the start
/// position twice), a draw after the third (the start position a fourth time, no check given).
#[test]
fn d_says_the_repetition_in_words() {
    let round = "2h1h 8b9b 1h2h 9b8b ";
    let mut e = Engine::new();
    let (out, _) = run(&mut e, &format!("position startpos moves {round}\nd"));
    assert!(out.iter().any(|l| l == "Repetition: none"), "{out:?}");
    let (out, _) = run(
        &mut e,
        &format!("position startpos moves {}\nd", round.repeat(3)),
    );
    assert!(
        out.iter()
            .any(|l| l == "Repetition: draw (千日手: the fourth occurrence)"),
        "{out:?}"
    );
}

/// `go searchmoves`: the choice is among the listed legal moves only; an illegal or
/// unparsable one is named in an `info string` and left out; none legal: all legal moves,
/// with a warning.
#[test]
fn searchmoves_restricts_the_choice() {
    let script = "setoption name Seed value 7\nposition startpos\n".to_string()
        + &"go searchmoves 7g7f 2g2f\n".repeat(40);
    let out = lines(&script);
    let b = bestmoves(&out);
    assert_eq!(b.len(), 40);
    assert!(b.iter().all(|m| ["7g7f", "2g2f"].contains(m)), "{b:?}");
    assert!(b.contains(&"7g7f") && b.contains(&"2g2f"), "{b:?}");

    let out = lines("position startpos\ngo searchmoves 7g7e xx 2g2f");
    assert_eq!(bestmoves(&out), ["2g2f"]);
    let warnings: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string go:"))
        .collect();
    assert_eq!(warnings.len(), 2, "{out:?}");
    assert!(
        warnings[0].contains("'xx' left out: not a USI move"),
        "{out:?}"
    );
    assert!(
        warnings[1].contains("'7g7e' left out: illegal here"),
        "{out:?}"
    );

    let out = lines("position startpos\ngo searchmoves 7g7e byoyomi 100");
    assert!(
        out.iter()
            .any(|l| l.contains("none of the listed moves is legal")),
        "{out:?}"
    );
    let m = Move::from_usi(bestmoves(&out)[0]).unwrap();
    assert!(Position::startpos().is_legal(m).is_ok());
}

/// The game and the output a fresh engine gets from `line` alone (every move replayed).
fn fresh(line: &str) -> (String, Vec<String>, bool) {
    let mut e = Engine::new();
    let (out, _) = run(&mut e, line);
    (format!("{:?}", e.game()), out, e.position_ok)
}

/// The `position` lines of [`a_resent_game_gives_the_same_game_as_a_full_replay`], each with
/// whether it extends the line accepted before it.
fn resent_lines() -> Vec<(String, bool)> {
    const SFEN_START: &str =
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    // (line, whether it extends the line accepted before it)
    vec![
        ("position startpos".into(), false),
        ("position startpos moves 7g7f".into(), false),
        ("position startpos moves 7g7f 3c3d".into(), true),
        ("position startpos moves 7g7f 3c3d".into(), true),
        (
            "position startpos moves 7g7f 3c3d  2g2f\t8c8d ".into(),
            true,
        ),
        (
            "position startpos moves 7g7f 3c3d  2g2f\t8c8d 2f2e".into(),
            true,
        ),
        // Shares a prefix, then diverges; shorter; not at a token boundary.
        ("position startpos moves 7g7f 3c3d 2g2f 4c4d".into(), false),
        ("position startpos moves 7g7f".into(), false),
        ("position startpos moves 7g7f3c3d".into(), false),
        // A bad move in the new part: the same message, numbered in the whole line, and the
        // game stays as it was; a line extending the last accepted one is then read as usual.
        (
            "position startpos moves 7g7f 3c3d 7f7e 3d3e 7e7e".into(),
            true,
        ),
        ("position startpos moves 7g7f".into(), true),
        (
            "position startpos moves 7g7f 3c3d 7f7e 3d3e 7e7e".into(),
            true,
        ),
        ("position startpos moves 7g7f 3c3x".into(), true),
        ("position startpos moves 7g7f moves".into(), true),
        ("position startpos moves 7g7f 3c3d 8h2b+".into(), true),
        // The same start written as an SFEN, and back.
        (format!("{SFEN_START} moves 7g7f 3c3d 8h2b+ 3a2b"), false),
        (
            format!("{SFEN_START} moves 7g7f 3c3d 8h2b+ 3a2b B*4e"),
            true,
        ),
        (
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e".into(),
            false,
        ),
        // A different start, without `moves`, then with it.
        ("position sfen 8k/9/9/9/9/9/9/9/K8 b G 1".into(), false),
        (
            "position sfen 8k/9/9/9/9/9/9/9/K8 b G 1 moves".into(),
            false,
        ),
        (
            "position sfen 8k/9/9/9/9/9/9/9/K8 b G 1 moves G*2b".into(),
            true,
        ),
        // A game resent move by move into a fourfold repetition.
        ("position startpos moves".into(), false),
    ]
}

/// A `position` line that extends the one before is read by its new moves only; every other
/// line is read in full. Either way the game, its history of keys and repetition counts
/// included, and the warnings are those of an engine that reads the line alone.
#[test]
fn a_resent_game_gives_the_same_game_as_a_full_replay() {
    // 5i5h 5a5b 5h5i 5b5a three times brings the start position back for the fourth time
    // (千日手) with the 12th move.
    let shuffle = "5i5h 5a5b 5h5i 5b5a";
    let sennichite = format!("position startpos moves {shuffle} {shuffle} {shuffle}");
    let mut session = resent_lines();
    let mut grow = String::from("position startpos moves");
    for m in format!("{shuffle} {shuffle} {shuffle}").split(' ') {
        grow.push(' ');
        grow.push_str(m);
        session.push((grow.clone(), true));
    }
    assert_eq!(grow, sennichite);

    let mut e = Engine::new();
    for (line, extends) in &session {
        assert_eq!(
            e.last_position.tail(line).is_some(),
            *extends,
            "whether '{line}' extends the line before"
        );
        let (out, _) = run(&mut e, line);
        let (game, fresh_out, fresh_ok) = fresh(line);
        if fresh_ok {
            assert_eq!(format!("{:?}", e.game()), game, "after '{line}'");
        }
        assert_eq!(out, fresh_out, "after '{line}'");
        assert_eq!(e.position_ok, fresh_ok, "after '{line}'");
    }
    assert_eq!(e.game().len(), 12);
    assert_eq!(e.game().occurrences(), 4);
    assert_eq!(e.game().repetition(), saikoro_core::Repetition::Draw);
    assert_eq!(e.game().position().key(), Position::startpos().key());
    // The messages of the bad moves in an extension, numbered in the whole line.
    let mut e = Engine::new();
    run(&mut e, "position startpos moves 7g7f 3c3d");
    let (out, _) = run(&mut e, "position startpos moves 7g7f 3c3d 7f7e 3d3e 7e7e");
    assert_eq!(out, vec!["info string position rejected: move 5 '7e7e' is illegal: a null move: the destination is the origin square; resigning until a valid position"]);
    let (out, _) = run(&mut e, "position startpos moves 7g7f 3c3d 3x3y\ngo");
    assert_eq!(out, vec!["info string position rejected: move 3 '3x3y' is not a USI move; resigning until a valid position", "bestmove resign"]);
    assert_eq!(e.game().len(), 2);
}
