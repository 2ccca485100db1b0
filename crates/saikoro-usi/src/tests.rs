//! Parser tests: one input line, the exact command or error.

use super::*;
use saikoro_core::{Color, GameResult, Square};

fn mv(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

fn position(line: &str) -> PositionCommand {
    match parse_line(line) {
        Ok(Command::Position(p)) => p,
        other => panic!("{line}: {other:?}"),
    }
}

fn go(line: &str) -> Go {
    match parse_line(line) {
        Ok(Command::Go(g)) => g,
        other => panic!("{line}: {other:?}"),
    }
}

fn setoption(line: &str) -> (String, Option<String>) {
    match parse_line(line) {
        Ok(Command::SetOption { name, value }) => (name, value),
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn simple_commands() {
    assert_eq!(parse_line("usi"), Ok(Command::Usi));
    assert_eq!(parse_line("isready"), Ok(Command::IsReady));
    assert_eq!(parse_line("usinewgame"), Ok(Command::UsiNewGame));
    assert_eq!(parse_line("stop"), Ok(Command::Stop));
    assert_eq!(parse_line("ponderhit"), Ok(Command::PonderHit));
    assert_eq!(
        parse_line("ponderhit btime 1000 wtime 2000 byoyomi 0"),
        Ok(Command::PonderHit)
    );
    assert_eq!(parse_line("quit"), Ok(Command::Quit));
    assert_eq!(parse_line("d"), Ok(Command::Display));
    assert_eq!(parse_line("side"), Ok(Command::Side));
    assert_eq!(parse_line("moves"), Ok(Command::Moves));
    assert_eq!(
        parse_line("debug on"),
        Ok(Command::Ignored("debug".to_string()))
    );
}

#[test]
fn whitespace_and_bom_are_tolerated() {
    assert_eq!(parse_line("  \t isready \t "), Ok(Command::IsReady));
    assert_eq!(parse_line("\u{feff}usi"), Ok(Command::Usi));
    assert_eq!(parse_line(""), Err(UsiError::Empty));
    assert_eq!(parse_line(" \t\x0c"), Err(UsiError::Empty));
}

#[test]
fn unknown_commands_are_errors() {
    assert_eq!(
        parse_line("xyzzy 1 2"),
        Err(UsiError::UnknownCommand("xyzzy".to_string()))
    );
    // Commands are case-sensitive, as in the protocol.
    assert!(matches!(
        parse_line("USI"),
        Err(UsiError::UnknownCommand(_))
    ));
    // A non-breaking or full-width space is not a separator.
    assert!(matches!(
        parse_line("isready\u{3000}"),
        Err(UsiError::UnknownCommand(_))
    ));
}

#[test]
fn gameover_results() {
    assert_eq!(
        parse_line("gameover win"),
        Ok(Command::GameOver(Some(GameResult::Win)))
    );
    assert_eq!(
        parse_line("gameover lose"),
        Ok(Command::GameOver(Some(GameResult::Loss)))
    );
    assert_eq!(
        parse_line("gameover draw"),
        Ok(Command::GameOver(Some(GameResult::Draw)))
    );
    assert_eq!(parse_line("gameover"), Ok(Command::GameOver(None)));
    assert_eq!(parse_line("gameover what"), Ok(Command::GameOver(None)));
}

#[test]
fn setoption_name_and_value() {
    assert_eq!(
        setoption("setoption name USI_Hash value 32"),
        ("USI_Hash".to_string(), Some("32".to_string()))
    );
    assert_eq!(
        setoption("setoption name USI_Ponder value false"),
        ("USI_Ponder".to_string(), Some("false".to_string()))
    );
    // ShogiHome's empty filename: a trailing space and nothing else.
    assert_eq!(
        setoption("setoption name LogFile value "),
        ("LogFile".to_string(), Some(String::new()))
    );
    assert_eq!(
        setoption("setoption name LogFile value"),
        ("LogFile".to_string(), Some(String::new()))
    );
    // Values keep their inner spaces.
    assert_eq!(
        setoption("setoption name LogFile value C:\\My Logs\\saikoro  run.log  "),
        (
            "LogFile".to_string(),
            Some("C:\\My Logs\\saikoro  run.log".to_string())
        )
    );
    // A button has no value.
    assert_eq!(
        setoption("setoption name ClearHash"),
        ("ClearHash".to_string(), None)
    );
    // The `name` keyword may be left out.
    assert_eq!(
        setoption("setoption Seed value 7"),
        ("Seed".to_string(), Some("7".to_string()))
    );
    assert!(matches!(
        parse_line("setoption name"),
        Err(UsiError::Malformed { .. })
    ));
    assert!(matches!(
        parse_line("setoption name value 3"),
        Err(UsiError::Malformed { .. })
    ));
}

#[test]
fn position_startpos_forms() {
    for line in [
        "position startpos",
        "position startpos moves",
        "position  startpos   moves  ",
    ] {
        let p = position(line);
        assert_eq!(p.start, Start::Startpos, "{line}");
        assert!(p.moves.is_empty(), "{line}");
    }
    let p = position("position startpos moves 7g7f 3c3d 8h2b+ B*4e");
    assert_eq!(
        p.moves,
        vec![mv("7g7f"), mv("3c3d"), mv("8h2b+"), mv("B*4e")]
    );
    // Without the `moves` keyword.
    assert_eq!(position("position startpos 7g7f 3c3d").moves.len(), 2);
}

#[test]
fn position_sfen_forms() {
    let with_ply = position(
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f",
    );
    let Start::Sfen(setup) = &with_ply.start else {
        panic!()
    };
    assert_eq!(setup.side, Color::Black);
    assert_eq!(with_ply.moves, vec![mv("7g7f")]);
    // No move number, bare SFEN, missing `moves`: the same command.
    for line in [
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - moves 7g7f",
        "position lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 7g7f",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 7g7f",
    ] {
        assert_eq!(position(line), with_ply, "{line}");
    }
    // Hands and a later move number.
    let p = position("position sfen 8k/9/9/9/9/9/9/9/K8 w RB2G4p 121");
    let Start::Sfen(setup) = &p.start else {
        panic!()
    };
    assert_eq!(setup.ply, 121);
    assert!(setup.board[Square::new(1, 1).unwrap().index()].is_some());
}

#[test]
fn position_errors() {
    assert!(matches!(
        parse_line("position"),
        Err(UsiError::Malformed { .. })
    ));
    assert!(matches!(
        parse_line("position sfen"),
        Err(UsiError::Sfen(_))
    ));
    assert!(matches!(
        parse_line("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1"),
        Err(UsiError::Sfen(_))
    ));
    assert!(matches!(
        parse_line("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1"),
        Err(UsiError::Sfen(_))
    ));
    // Two fields only, then `moves`.
    assert!(matches!(
        parse_line(
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b moves 7g7f"
        ),
        Err(UsiError::Sfen(_))
    ));
    assert_eq!(
        parse_line("position startpos moves 7g7f 3c3x 2g2f"),
        Err(UsiError::MoveSyntax {
            index: 2,
            text: "3c3x".to_string()
        })
    );
    // Drops use upper-case letters for both sides.
    assert!(matches!(
        parse_line("position startpos moves p*5e"),
        Err(UsiError::MoveSyntax { index: 1, .. })
    ));
    assert!(matches!(
        parse_line("position startpos moves resign"),
        Err(UsiError::MoveSyntax { index: 1, .. })
    ));
}

#[test]
fn go_parameters() {
    assert_eq!(go("go"), Go::default());
    let g = go("go btime 1000 wtime 2000 byoyomi 0");
    assert_eq!(
        (g.btime, g.wtime, g.byoyomi),
        (Some(1000), Some(2000), Some(0))
    );
    assert!(!g.ponder && !g.infinite && g.mate.is_none());
    let g = go("go btime 33000 wtime 30000 binc 5000 winc 5000");
    assert_eq!((g.binc, g.winc), (Some(5000), Some(5000)));
    let g = go("go ponder btime 1 wtime 2 byoyomi 3");
    assert!(g.ponder);
    assert!(go("go ponder").ponder);
    assert!(go("go infinite").infinite);
    let g = go("go depth 3 nodes 100 movetime 50");
    assert_eq!(
        g.limits,
        vec![
            ("depth".to_string(), 3),
            ("nodes".to_string(), 100),
            ("movetime".to_string(), 50)
        ]
    );
    let g = go("go btime -5 searchmoves 7g7f 2g2f foo bar wtime 7 depth x movetime");
    assert_eq!((g.btime, g.wtime), (None, Some(7)));
    let mv = |t: &str| Move::from_usi(t).unwrap();
    assert_eq!(g.searchmoves, vec![mv("7g7f"), mv("2g2f")]);
    let bad = |param: &str, text: Option<&str>| GoProblem::BadNumber {
        param: param.to_string(),
        text: text.map(str::to_string),
    };
    assert_eq!(
        g.problems,
        vec![
            bad("btime", Some("-5")),
            GoProblem::SearchMove("foo".to_string()),
            GoProblem::SearchMove("bar".to_string()),
            bad("depth", Some("x")),
            bad("movetime", None),
        ]
    );
    // A number missing before the next parameter leaves that parameter alone.
    let g = go("go byoyomi btime 5");
    assert_eq!(g.problems, vec![bad("byoyomi", None)]);
    assert_eq!(g.btime, Some(5));
}

#[test]
fn go_mate_and_perft() {
    assert_eq!(go("go mate 10000").mate, Some(MateLimit::Millis(10000)));
    assert_eq!(go("go mate infinite").mate, Some(MateLimit::Infinite));
    assert_eq!(go("go mate").mate, Some(MateLimit::Infinite));
    assert_eq!(go("go perft 3").perft, Some(3));
    assert!(matches!(
        parse_line("go perft"),
        Err(UsiError::Malformed { .. })
    ));
    assert!(matches!(
        parse_line("go perft x"),
        Err(UsiError::Malformed { .. })
    ));
}

#[test]
fn error_messages_name_the_token() {
    let e = parse_line("position startpos moves 7g7f 3c3x").unwrap_err();
    assert_eq!(
        e.to_string(),
        "position rejected: move 2 '3c3x' is not a USI move"
    );
    let long = "x".repeat(100);
    let e = parse_line(&long).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("unknown command '{}...'", "x".repeat(40))
    );
}

/// `go` as GUIs send it reads back to the same parameters, and prints as they send it.
#[test]
fn go_commands_print_as_guis_send_them() {
    for line in [
        "go btime 60000 wtime 50000 byoyomi 10000",
        "go btime 300000 wtime 300000 binc 10000 winc 10000",
        "go ponder btime 1000 wtime 2000 byoyomi 0",
        "go infinite",
        "go movetime 500",
        "go nodes 10000",
        "go depth 3",
        "go mate 10000",
        "go mate infinite",
        "go perft 3",
        "go",
    ] {
        assert_eq!(go(line).to_string(), line);
    }
    // Parameters in another order print in the GUIs' order; skipped tokens are dropped.
    assert_eq!(
        go("go byoyomi 1000 wtime 2 btime 3 searchmoves 7g7f x").to_string(),
        "go btime 3 wtime 2 byoyomi 1000 searchmoves 7g7f"
    );
}
