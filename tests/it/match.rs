//! `saikoro match` through the real binary: every way a game can end, produced by the fault
//! engine (`examples/fault_engine.rs`) or by Saikoro itself from a chosen position, and
//! checked against what the rules say, not against the runner's own code; reproducible
//! records; resume after a kill; Ctrl-C. Every wait has a deadline.

use crate::match_support;
use crate::usi_support;

use match_support::*;
use saikoro_core::{IllegalMove, Move, Position};
#[cfg(unix)]
use std::process::{Child, Command};
use std::time::{Duration, Instant};
#[cfg(unix)]
use usi_support::fault_engine;
use usi_support::{Dir, BIN};

/// The one game of a one-game match: (result, reason, detail) and the line.
fn one_game(dir: &Dir, args: &[String]) -> (String, String, String, String) {
    let mut all = args.to_vec();
    all.extend(words("--rounds 1 --games 1 --ratinginterval 0"));
    let r = run(dir, &all);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let lines = results(dir);
    assert_eq!(lines.len(), 1, "{lines:?}\n{}", r.err);
    let l = lines[0].clone();
    let result = field(&l, "result").unwrap();
    let reason = field(&l, "reason").unwrap();
    let detail = field(&l, "detail").unwrap();
    // The same game, as the Finished line shows it.
    assert!(
        r.out.contains(&format!("): {result} {{{detail}}}")),
        "{}",
        r.out
    );
    // The run's figures count it in the singular, and its plies as the line has them.
    let plies: usize = field(&l, "plies").unwrap().parse().unwrap();
    let plies = match plies {
        1 => "1 ply".to_string(),
        n => format!("{n} plies"),
    };
    assert!(
        r.out.contains(&format!("Played 1 game, {plies} in ")),
        "{}",
        r.out
    );
    (result, reason, detail, l)
}

/// White's king on 1a, a Black pawn on 1c: G*1b is mate (the gold covers 1a's escapes 2a and
/// 2b, the pawn guards it).
const MATE_IN_ONE: &str = "sfen 8k/9/8P/9/9/9/9/9/K8 b G 1";

#[test]
fn mate_ends_the_game_without_waiting_for_resign() {
    for limit in ["", "--maxplies 1"] {
        let dir = Dir::new(&format!("mate{}", limit.len()));
        let args = cat(&[
            faulty("mater", &["script=G*1b"]),
            saikoro("saikoro", 1),
            openings(&dir, MATE_IN_ONE),
            words(&format!("--each depth=1 --log-file log {limit}")),
        ]);
        // At the ply limit too, a mate on the last move wins.
        let (result, reason, detail, line) = one_game(&dir, &args);
        assert_eq!(
            (result.as_str(), reason.as_str()),
            ("1-0", "mate"),
            "{limit}"
        );
        assert_eq!(detail, "Black mates");
        assert_eq!(moves(&line), ["G*1b"]);
        assert_eq!(field(&line, "plies").as_deref(), Some("1"));
        // The mated engine was never asked to move; each hears its result.
        let log = dir.read("log");
        assert!(!log.contains("saikoro> go"), "{log}");
        assert!(log.contains("mater> gameover win\n"), "{log}");
        assert!(log.contains("saikoro> gameover lose\n"), "{log}");
    }
}

#[test]
fn resignation() {
    let dir = Dir::new("resign");
    let args = cat(&[
        faulty("quitter", &["resign@4"]),
        saikoro("saikoro", 1),
        words("--each depth=1"),
    ]);
    let (result, reason, detail, line) = one_game(&dir, &args);
    assert_eq!((result.as_str(), reason.as_str()), ("0-1", "resign"));
    assert_eq!(detail, "Black resigns");
    assert_eq!(moves(&line).len(), 4);
}

/// Black king on 5b with 10 pieces in the camp and 28 points (the core's declaration test
/// position): Saikoro declares at once. The runner's `--entering-king-rule` judges it.
#[test]
fn declarations_under_each_rule() {
    let declare = "sfen +R+BGGG+P+PSS/4K3+N/G8/9/9/9/9/9/k8 b 9P 1";
    for (rule, result, reason) in [
        ("CSARule27", "1-0", "declaration"),
        ("CSARule24", "0-1", "illegal_declaration"),
        ("NoEnteringKing", "0-1", "illegal_declaration"),
    ] {
        let dir = Dir::new(&format!("declare-{rule}"));
        let args = cat(&[
            saikoro("declarer", 1),
            saikoro("other", 2),
            openings(&dir, declare),
            words(&format!("--each depth=1 --entering-king-rule {rule}")),
        ]);
        let (r, why, detail, line) = one_game(&dir, &args);
        assert_eq!(
            (r.as_str(), why.as_str()),
            (result, reason),
            "{rule}: {detail}"
        );
        assert!(detail.contains(rule), "{detail}");
        assert!(moves(&line).is_empty());
    }
    // A declaration from the start position never holds.
    let dir = Dir::new("declare-false");
    let args = cat(&[
        saikoro("saikoro", 1),
        faulty("liar", &["win@3"]),
        words("--each depth=1"),
    ]);
    let (r, why, detail, line) = one_game(&dir, &args);
    assert_eq!((r.as_str(), why.as_str()), ("1-0", "illegal_declaration"));
    assert_eq!(detail, "White's illegal declaration (CSARule27)");
    assert_eq!(field(&line, "illegal_move").as_deref(), Some("win"));
}

/// Each kind of illegal `bestmove` from a position where one exists: a loss, the move quoted,
/// and the rules name the fault the fault engine aimed at.
#[test]
fn illegal_moves_of_every_kind() {
    let cases: [(&str, &str, Option<IllegalMove>); 12] = [
        // Black king on 5i in check from a rook on 9i: stepping along the rank stays in check.
        (
            "into-check",
            "sfen 4k4/9/9/9/9/9/9/9/r3K4 b - 1",
            Some(IllegalMove::KingInCheck),
        ),
        // P*1b would mate the king on 1a, hemmed in by its own lance and pawn, guarded by the
        // knight on 2d.
        (
            "uchifuzume",
            "sfen 7lk/7p1/9/7N1/9/9/9/9/K8 b P 1",
            Some(IllegalMove::PawnDropMate),
        ),
        (
            "nifu",
            "sfen 4k4/9/9/9/9/9/4P4/9/4K4 b P 1",
            Some(IllegalMove::Nifu),
        ),
        (
            "no-promotion",
            "sfen 4k4/P8/9/9/9/9/9/9/4K4 b - 1",
            Some(IllegalMove::MustPromote),
        ),
        (
            "bad-promotion",
            "startpos",
            Some(IllegalMove::CannotPromote),
        ),
        ("not-in-hand", "startpos", Some(IllegalMove::NotInHand)),
        (
            "occupied",
            "sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1",
            Some(IllegalMove::SquareOccupied),
        ),
        ("wrong-side", "startpos", Some(IllegalMove::NotOwnPiece)),
        ("no-piece", "startpos", Some(IllegalMove::NoPiece)),
        ("unreachable", "startpos", Some(IllegalMove::CannotReach)),
        ("malformed", "startpos", None),
        ("empty", "startpos", None),
    ];
    for (kind, opening, reason) in cases {
        let dir = Dir::new(&format!("illegal-{kind}"));
        let args = cat(&[
            faulty("cheat", &[&format!("illegal={kind}")]),
            saikoro("saikoro", 1),
            openings(&dir, opening),
            words("--each depth=1"),
        ]);
        let (result, why, detail, line) = one_game(&dir, &args);
        assert_eq!(
            (result.as_str(), why.as_str()),
            ("0-1", "illegal_move"),
            "{kind}"
        );
        let text = field(&line, "illegal_move").unwrap();
        let quoted = if text.is_empty() { "(empty)" } else { &text };
        assert_eq!(detail, format!("Black's illegal move {quoted}"), "{kind}");
        match reason {
            Some(reason) => {
                let start = if opening == "startpos" {
                    Position::startpos()
                } else {
                    Position::from_sfen(opening.strip_prefix("sfen ").unwrap()).unwrap()
                };
                let mv = Move::from_usi(&text).unwrap();
                assert_eq!(start.is_legal(mv), Err(reason), "{kind}: {text}");
            }
            None => assert!(Move::from_usi(&text).is_err(), "{kind}: {text}"),
        }
    }
}

/// Both sides shuffle a gold: the start position's fourth occurrence comes at ply 12.
#[test]
fn fourfold_repetition_is_a_draw() {
    let dir = Dir::new("repetition");
    let args = cat(&[
        faulty("b", &["script=6i6h,6h6i"]),
        faulty("w", &["script=4a4b,4b4a"]),
        words("--each depth=1"),
    ]);
    let (result, reason, detail, line) = one_game(&dir, &args);
    assert_eq!(
        (result.as_str(), reason.as_str()),
        ("1/2-1/2", "repetition")
    );
    assert_eq!(detail, "Draw by fourfold repetition");
    assert_eq!(moves(&line).len(), 12);
}

/// White's king on 1a, in check from Black's rook on 1i; the king steps 1a-2a-1a and the rook
/// follows, checking every time: at the fourth occurrence Black, the checker, loses.
#[test]
fn perpetual_check_loses_for_the_checker() {
    let dir = Dir::new("perpetual");
    let args = cat(&[
        faulty("checker", &["script=1i2i,2i1i"]),
        faulty("king", &["script=1a2a,2a1a"]),
        openings(&dir, "sfen 8k/9/p8/9/9/9/K8/9/8R w - 1"),
        words("--each depth=1"),
    ]);
    let (result, reason, detail, line) = one_game(&dir, &args);
    // Game 1: the first engine (checker) is Black.
    assert_eq!(
        (result.as_str(), reason.as_str()),
        ("0-1", "perpetual_check")
    );
    assert_eq!(detail, "Black loses by perpetual check");
    assert_eq!(moves(&line).len(), 12);
}

#[test]
fn ply_limit_is_a_draw() {
    let dir = Dir::new("maxplies");
    let args = cat(&[
        saikoro("a", 1),
        saikoro("b", 2),
        words("--each depth=1 --maxplies 10"),
    ]);
    let (result, reason, detail, line) = one_game(&dir, &args);
    assert_eq!((result.as_str(), reason.as_str()), ("1/2-1/2", "max_plies"));
    assert_eq!(detail, "Draw by the 10-ply limit");
    assert_eq!(moves(&line).len(), 10);
}

#[test]
fn time_losses_and_the_margin() {
    // 100 ms byoyomi, an engine that takes 300 ms.
    let dir = Dir::new("time");
    let args = cat(&[
        saikoro("saikoro", 1),
        faulty("slow", &["slow=300@2"]),
        words("--each tc=0 byoyomi=0.1"),
    ]);
    let (result, reason, detail, line) = one_game(&dir, &args);
    assert_eq!((result.as_str(), reason.as_str()), ("1-0", "time"));
    assert!(detail.starts_with("White loses on time ("), "{detail}");
    assert_eq!(moves(&line).len(), 3);
    // The same with a margin of a second: no loss, the ply limit ends it.
    let dir = Dir::new("time-margin");
    let mut args = args;
    args.extend(words("--timemargin 1000 --maxplies 4"));
    let (result, reason, _, line) = one_game(&dir, &args);
    assert_eq!((result.as_str(), reason.as_str()), ("1/2-1/2", "max_plies"));
    let times = &line[line.find("\"time_ms\"").unwrap()..];
    let white_ms: u64 = field(times, "white").unwrap().parse().unwrap();
    assert!(white_ms >= 300, "{line}");
    // A hung engine on a clock loses on time, and the match goes on (it is killed).
    let dir = Dir::new("time-hang");
    let args = cat(&[
        faulty("hung", &["hang@2"]),
        saikoro("saikoro", 1),
        words("--each tc=0 byoyomi=0.1 --ready-ms 300"),
    ]);
    let (result, reason, detail, _) = one_game(&dir, &args);
    assert_eq!((result.as_str(), reason.as_str()), ("0-1", "time"));
    assert_eq!(
        detail,
        "Black loses on time (no bestmove in its 100 ms, nor 1000 ms after stop)"
    );
}

/// How late a late engine was: under `movetime=100`, an engine that answers after 400 ms (it
/// sleeps before reading `stop`) is 300 ms over, not the few ms between its deadline and the
/// runner's timer. It sent nothing in the 20 ms the runner waits past the deadline, so the
/// runner sent `stop` first, and the detail says so.
#[test]
fn a_time_loss_says_how_late_the_bestmove_came() {
    let dir = Dir::new("time-late");
    let args = cat(&[
        faulty("late", &["slow=400@2"]),
        saikoro("saikoro", 1),
        words("--each movetime=100"),
    ]);
    let (result, reason, detail, _) = one_game(&dir, &args);
    assert_eq!((result.as_str(), reason.as_str()), ("0-1", "time"));
    let (over, after_stop) = overrun(&detail);
    assert!(detail.starts_with("Black loses on time ("), "{detail}");
    assert!(after_stop, "{detail}");
    // 400 ms of sleep less the 100 ms given, and less than the 1 s grace after stop.
    assert!((300.0..1000.0).contains(&over), "{detail}");
}

/// An engine still searching when its time is up, which answers the runner's `stop` at once
/// (the fault engine's `until-stop`, as Fairy-Stockfish 11.1 reading the other side's clock):
/// it loses on time, the detail says that it moved only after the `stop`, and no margin is
/// hinted, even with `--timemargin 2` (the issue's second run, which hinted 3). The `stop` goes
/// 20 ms past the time and the margin, so the overrun is 22 ms at least, and below the 1 s grace
/// after it. A note says why no margin is named.
#[test]
fn an_engine_that_moves_only_when_stopped_gets_no_margin_hint() {
    let dir = Dir::new("time-until-stop");
    let args = cat(&[
        faulty("searcher", &["until-stop@2"]),
        saikoro("saikoro", 1),
        words("--each movetime=100 --timemargin 2 --rounds 1 --games 1"),
    ]);
    let r = run(&dir, &args);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let lines = results(&dir);
    let detail = field(&lines[0], "detail").unwrap();
    assert_eq!(
        field(&lines[0], "reason").as_deref(),
        Some("time"),
        "{detail}"
    );
    assert!(detail.starts_with("Black loses on time ("), "{detail}");
    assert!(
        detail.ends_with(" ms over: it moved only after the runner's stop)"),
        "{detail}"
    );
    let (over, _) = overrun(&detail);
    assert!((22.0..1000.0).contains(&over), "{detail}");
    assert!(!r.out.contains("Hint:"), "{}", r.out);
    assert!(
        r.out.contains(
            "Note: 1 game was lost on time by an engine still searching 20 ms after its time and \
             the margin ran out, which moved only after the runner's stop: no margin is known to \
             cover it."
        ),
        "{}",
        r.out
    );
}

/// The overrun a time-loss detail states (`Black loses on time (5.4 ms over)`), in ms, and
/// whether it adds that the engine moved only after the runner's `stop`.
fn overrun(detail: &str) -> (f64, bool) {
    let (_, after) = detail
        .split_once("on time (")
        .unwrap_or_else(|| panic!("{detail}"));
    let (n, rest) = after
        .split_once(" ms over")
        .unwrap_or_else(|| panic!("{detail}"));
    let after_stop = match rest {
        ")" => false,
        ": it moved only after the runner's stop)" => true,
        _ => panic!("{detail}"),
    };
    (n.parse().unwrap_or_else(|_| panic!("{detail}")), after_stop)
}

/// The margin a time-margin hint names after `flag` (`--timemargin `, `timemargin=`), if the
/// output holds the hint.
#[cfg(unix)]
fn hinted_margin(out: &str, flag: &str) -> Option<f64> {
    let line = out.lines().find(|l| l.starts_with("Hint: "))?;
    let at = line.find(flag).unwrap_or_else(|| panic!("{line}")) + flag.len();
    let n = &line[at..];
    let n = &n[..n.find(|c: char| !c.is_ascii_digit()).unwrap_or(n.len())];
    assert!(line.contains("GUIs and servers allow"), "{line}");
    Some(n.parse().unwrap())
}

/// An engine that answers 5 ms after its movetime (it sleeps 105 ms) loses on time with the
/// default margin of 0, and the end of the match says which `--timemargin` would have covered
/// the overrun, in the words of the dialect: `--timemargin N` in ours, `timemargin=N` in
/// shogitest's. The overrun is the engine's 5 ms plus the pipe's latency: when a loaded
/// machine makes it 20 ms or more, no hint is due, and none may come.
#[cfg(unix)]
#[test]
fn a_narrow_time_loss_names_the_margin_that_covers_it() {
    let dir = Dir::new("time-hint");
    // shogitest's engine words have no args=: the faults go in a script.
    let engine = script(
        &dir,
        "late.sh",
        &format!(
            "exec '{}' --seed 3 --fault slow=105 \"$@\"\n",
            fault_engine().display()
        ),
    );
    let runs = [
        (
            cat(&[
                words("match"),
                faulty("late", &["slow=105"]),
                saikoro("saikoro", 1),
                words("--each movetime=100 --rounds 1 --games 1"),
                words("--results results.jsonl --state state"),
            ]),
            "--timemargin ",
        ),
        (
            cat(&[
                words("shogitest -games 1 -rounds 2 -engine name=late st=100"),
                vec![format!("cmd={engine}")],
                words(&format!("-engine name=s st=100 cmd={BIN}")),
                words("--results results.jsonl --state state"),
            ]),
            "timemargin=",
        ),
    ];
    for (args, flag) in runs {
        let _ = std::fs::remove_file(dir.path("results.jsonl"));
        let _ = std::fs::remove_file(dir.path("state"));
        let r = usi_support::finish(
            usi_support::start_in(std::path::Path::new(&*BIN), &dir, &args),
            Instant::now(),
            DEADLINE,
        );
        assert!(r.status.success(), "{}\n{}", r.out, r.err);
        // Every game's overrun: the late engine loses each one on time. An answer that a
        // loaded machine delays past the 20 ms the runner waits comes after its stop, and is
        // no near miss.
        let overs: Vec<(f64, bool)> = results(&dir)
            .iter()
            .map(|l| overrun(&field(l, "detail").unwrap()))
            .collect();
        assert!(!overs.is_empty(), "{}", r.out);
        assert!(overs.iter().all(|&(o, _)| o >= 5.0), "{overs:?}");
        let narrow = overs
            .iter()
            .filter(|&&(o, after_stop)| o < 20.0 && !after_stop)
            .map(|&(o, _)| o);
        match (hinted_margin(&r.out, flag), narrow.reduce(f64::max)) {
            // The largest narrow overrun rounded up to a whole ms (the detail shows it to a
            // tenth below 10 ms, in whole ms above).
            (Some(margin), Some(over)) => {
                assert!(over - 0.05 <= margin && margin < over + 1.05, "{}", r.out)
            }
            (None, None) => {}
            (hint, over) => panic!("hint {hint:?} for the overrun {over:?}:\n{}", r.out),
        }
    }
}

/// fastchess's `-log file=F level=info` honours the level: four games leave a few lines
/// (no USI exchange, which is the debug level); `engine=true` adds the exchange, as in
/// fastchess.
#[test]
fn fastchess_log_levels_are_honoured() {
    let dir = Dir::new("log-level");
    let engines = cat(&[saikoro("a", 1), saikoro("b", 2)]);
    let mut sizes = Vec::new();
    for (name, words_) in [("info", "level=info"), ("engine", "level=info engine=true")] {
        let log = dir.path(&format!("{name}.log")).display().to_string();
        let args = cat(&[
            engines.clone(),
            words("-each nodes=1 -rounds 2 -games 2 --overwrite -log"),
            vec![format!("file={log}")],
            words(words_),
        ]);
        let r = run(&dir, &args);
        assert!(r.status.success(), "{}", r.err);
        let text = dir.read(&format!("{name}.log"));
        let exchange = text.lines().filter(|l| l.contains(" DEBUG ")).count();
        if name == "info" {
            assert_eq!(exchange, 0, "{text}");
            assert!(text.lines().count() < 20, "{text}");
        } else {
            assert!(text.contains("a> usinewgame"), "{text}");
        }
        sizes.push(text.len());
    }
    assert!(sizes[0] * 10 < sizes[1], "{sizes:?}");
}

#[test]
fn crashes_and_silences_lose() {
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["crash@2"],
            "crash",
            "Black's engine exited (exit status: 3)",
        ),
        (
            &["crash-on-isready"],
            "crash",
            "Black's engine exited (exit status: 3)",
        ),
        (
            &["no-readyok"],
            "no_response",
            "Black's engine gave no readyok within 300 ms",
        ),
        // No clock: a move that never comes is a silence, after --ready-ms.
        (
            &["hang@1"],
            "no_response",
            "Black's engine gave no bestmove within 300 ms",
        ),
    ];
    for (faults, reason, detail) in cases {
        let dir = Dir::new(&format!("fail-{}", faults[0]));
        let args = cat(&[
            faulty("broken", faults),
            saikoro("saikoro", 1),
            words("--each depth=1 --startup-ms 300 --ready-ms 300"),
        ]);
        let (r, why, d, _) = one_game(&dir, &args);
        assert_eq!(
            (r.as_str(), why.as_str(), d.as_str()),
            ("0-1", reason, detail)
        );
    }
}

/// An engine that quits after each game is started again and loses nothing.
#[test]
fn engines_that_quit_between_games_are_restarted() {
    let dir = Dir::new("restart");
    let args = cat(&[
        faulty("quitter", &["die-after-game"]),
        saikoro("saikoro", 1),
        words("--each depth=1 --maxplies 6 --rounds 2 --games 2"),
    ]);
    let r = run(&dir, &args);
    assert!(r.status.success(), "{}", r.err);
    let lines = results(&dir);
    assert_eq!(lines.len(), 4);
    for l in &lines {
        assert_eq!(field(l, "reason").as_deref(), Some("max_plies"), "{l}");
    }
}

/// An engine that answered its first handshake (the probe before the first game) but gives
/// no `usiok` when it is started for a game loses that game.
#[cfg(unix)]
#[test]
fn a_later_start_without_usiok_loses_the_game() {
    let dir = Dir::new("later-no-usiok");
    let args = cat(&[
        faulty_after_first_start(&dir, "broken", &["no-usiok"]),
        saikoro("saikoro", 1),
        words("--each depth=1 --startup-ms 300 --ready-ms 300"),
    ]);
    let (r, why, d, _) = one_game(&dir, &args);
    assert_eq!(
        (r.as_str(), why.as_str(), d.as_str()),
        (
            "0-1",
            "no_response",
            "Black's engine gave no usiok within 300 ms"
        )
    );
}

/// An engine that fails its first handshake stops the match before any game, in every
/// dialect (fastchess stops at an engine's start-up failure too), with the stage, the exit
/// status and its last words, exit status 1, and nothing left behind: no state, no results.
#[cfg(unix)]
#[test]
fn an_engine_that_fails_its_first_handshake_stops_the_match() {
    let cases: [(&[&str], &str); 2] = [
        (
            &["no-usiok"],
            "engine broken failed its start-up at the handshake (usi ... usiok): no usiok from \
             the engine within 300 ms",
        ),
        (
            &["crash-at-start"],
            "engine broken failed its start-up at the handshake (usi ... usiok): engine exited \
             (exit status: 3)",
        ),
    ];
    for (faults, message) in cases {
        for dialect in ["--rounds 1", "-recover -rounds 1"] {
            let dir = Dir::new(&format!("first-handshake-{}", faults[0]));
            let args = cat(&[
                faulty("broken", faults),
                saikoro("saikoro", 1),
                words("--each depth=1 --startup-ms 300"),
                words(dialect),
            ]);
            let r = run(&dir, &args);
            assert_eq!(r.status.code(), Some(1), "{}\n{}", r.out, r.err);
            assert!(r.err.contains(message), "{}", r.err);
            assert_eq!(r.out, "", "no game line");
            assert!(!dir.path("state").exists(), "a state was left behind");
            assert!(!dir.path("results.jsonl").exists(), "a results file too");
        }
    }
}

#[cfg(unix)]
#[test]
fn an_engine_that_keeps_crashing_ends_the_match() {
    let dir = Dir::new("keeps-crashing");
    let args = cat(&[
        faulty_after_first_start(&dir, "dead", &["crash-at-start"]),
        saikoro("saikoro", 1),
        words("--each depth=1 --rounds 10"),
    ]);
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.out, r.err);
    assert!(
        r.out
            .contains("Match stopped: engine dead failed in 3 games in a row"),
        "{}",
        r.out
    );
    // No worker starts a game before the last one is counted: exactly three.
    assert_eq!(results(&dir).len(), 3);
}

/// `restart=on` (fastchess's and cutechess's word): a new process for every game, in our
/// dialect and in fastchess's and shogitest's; without it the engine plays every game in
/// one process.
#[cfg(unix)]
#[test]
fn restart_on_starts_an_engine_for_every_game() {
    let dir = Dir::new("restart-on");
    let starts = |log: &str| dir.read(log).lines().count();
    for (tag, line) in [
        (
            "ours",
            "match --engine cmd=./a restart=on --engine cmd=./b --each depth=1 --rounds 2",
        ),
        (
            "fastchess",
            "match -engine cmd=./a restart=on -engine cmd=./b -each depth=1 -rounds 2 -repeat",
        ),
        (
            "shogitest",
            "shogitest -engine cmd=./a restart=on nodes=1 -engine cmd=./b nodes=1 -games 2 -repeat",
        ),
    ] {
        for e in ["a", "b"] {
            script(&dir, e, &format!("echo $$ >> {tag}.{e}.pids\nexec {BIN}\n"));
        }
        let mut args = words(line);
        args.extend(words(&format!("--state {tag}.state")));
        let r = finish(usi_support::start_in(
            std::path::Path::new(&*BIN),
            &dir,
            &args,
        ));
        assert!(r.status.success(), "{tag}: {}\n{}", r.out, r.err);
        assert_eq!(
            r.out.matches("Finished game").count(),
            4,
            "{tag}: {}",
            r.out
        );
        // a: one process a game (besides the first start, which learns its name and
        // options); b: the same process throughout, besides that start.
        let (a, b) = (
            starts(&format!("{tag}.a.pids")),
            starts(&format!("{tag}.b.pids")),
        );
        assert!(a >= 4, "{tag}: {a} starts of a");
        assert!(b <= 2, "{tag}: {b} starts of b");
    }
    let r = finish(start(
        &dir,
        &words("--engine cmd=./a restart=maybe --engine cmd=./b --each depth=1"),
    ));
    assert_eq!(r.status.code(), Some(2), "{}", r.err);
    assert!(r.err.contains("restart"), "{}", r.err);
}

/// An engine that answers `usi` and `isready` but never `bestmove` (nor `stop`) loses each
/// game on time and is killed: a failure, as a crash is, so `--max-failures` ends the match
/// instead of burning every round on it.
#[cfg(unix)]
#[test]
fn a_silent_engine_counts_as_failed() {
    let dir = Dir::new("keeps-silent");
    let args = cat(&[
        faulty("silent", &["hang-every"]),
        saikoro("saikoro", 1),
        words("--each movetime=100 --rounds 10 --max-failures 2"),
    ]);
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.out, r.err);
    assert!(
        r.out
            .contains("Match stopped: engine silent failed in 2 games in a row (last: "),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("loses on time (no bestmove in its 100 ms"),
        "{}",
        r.out
    );
    assert_eq!(results(&dir).len(), 2);
}

/// `--resign`: three moves in a row at −500 or worse lose; a mate score against the engine
/// counts as the worst. `--draw`: both sides within 10 cp for two moves each.
#[test]
fn adjudication_from_scores() {
    for (fault, flags, result) in [
        ("score=cp:-900@2", "--resign movecount=3 score=500", "0-1"),
        ("score=mate:-5", "--resign movecount=1 score=30000", "0-1"),
        (
            "score=cp:3",
            "--draw movenumber=6 movecount=2 score=10",
            "1/2-1/2",
        ),
    ] {
        let dir = Dir::new(&format!("adjudicate-{}", fault.replace(':', "")));
        let args = cat(&[
            faulty("scored", &[fault]),
            faulty(
                "scored2",
                &[if result == "0-1" { "score=cp:0" } else { fault }],
            ),
            words(&format!("--each depth=1 {flags}")),
        ]);
        let (r, why, detail, line) = one_game(&dir, &args);
        assert_eq!(
            (r.as_str(), why.as_str()),
            (result, "adjudication"),
            "{fault}"
        );
        let plies = moves(&line).len();
        if result == "0-1" {
            assert_eq!(detail, "White wins by adjudication");
            // Black's scores count from its first move (ply 1), or from ply 3 for @2.
            let expected = if fault.ends_with("@2") { 7 } else { 1 };
            assert_eq!(plies, expected, "{fault}");
        } else {
            assert_eq!(detail, "Draw by adjudication");
            assert_eq!(plies, 6);
        }
    }
}

/// The log (debug level in a log file) shows what each engine was sent: the whole game in
/// every `position`, `gameover` with its own result, and `quit`.
#[test]
fn engines_hear_the_whole_game_and_its_end() {
    let dir = Dir::new("protocol");
    let mut args = cat(&[
        saikoro("first", 1),
        saikoro("second", 2),
        words("--each depth=1 --maxplies 8 --log-file log"),
    ]);
    args.extend(openings(&dir, "startpos moves 7g7f 3c3d"));
    let (_, reason, _, line) = one_game(&dir, &args);
    assert_eq!(reason, "max_plies");
    let log = dir.read("log");
    let played = moves(&line);
    let mut all = vec!["7g7f".to_string(), "3c3d".to_string()];
    all.extend(played.iter().cloned());
    // Before the last move, the mover was sent every move before it.
    let before_last = format!(
        "> position startpos moves {}",
        all[..all.len() - 1].join(" ")
    );
    assert!(log.contains(&format!("{before_last}\n")), "{log}");
    assert!(log.contains("first> gameover draw"), "{log}");
    assert!(log.contains("second> gameover draw"), "{log}");
    assert!(
        log.contains("first> quit") && log.contains("second> quit"),
        "{log}"
    );
    assert!(log.contains("first> usinewgame"), "{log}");
}

/// With `ponder`, an engine that names a ponder move is sent `go ponder` on that position,
/// then `ponderhit` when the opponent plays it (here always: the opponent plays the first
/// legal move, which is the fault engine's prediction) or `stop` when it does not.
#[test]
fn pondering_hits_and_misses() {
    for (opponent, expect) in [("first", "ponderhit"), ("", "stop")] {
        let dir = Dir::new(&format!("ponder-{expect}"));
        let other = if opponent.is_empty() {
            saikoro("other", 2)
        } else {
            faulty("other", &[opponent])
        };
        let mut args = cat(&[
            faulty("ponderer", &["ponder"]),
            other,
            words("--each depth=1 --maxplies 20 --log-file log"),
        ]);
        args.insert(4, "ponder".into());
        let (_, reason, _, _) = one_game(&dir, &args);
        assert_eq!(reason, "max_plies", "{expect}");
        let log = dir.read("log");
        assert!(
            log.contains("ponderer> setoption name USI_Ponder value true"),
            "{log}"
        );
        assert!(log.contains("ponderer> go ponder"), "{log}");
        assert!(log.contains(&format!("ponderer> {expect}\n")), "{log}");
        assert!(!log.contains("other> go ponder"), "{log}");
    }
}

fn strip_times(text: &str) -> String {
    text.lines()
        .filter(|l| {
            !l.starts_with("$START_TIME")
                && !l.starts_with("$END_TIME")
                && !l.starts_with("開始日時")
                && !l.starts_with("終了日時")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Two runs of the same match between seeded Saikoros write the same records (but for their
/// start and end times). One game at a time: a seeded Saikoro is one random stream per session,
/// so with two games at a time which process plays which game, and so its moves, is up to the
/// scheduler.
#[test]
fn seeded_matches_write_the_same_records_twice() {
    for format in ["csa", "kif"] {
        let mut seen: Vec<Vec<(String, String)>> = Vec::new();
        for attempt in 0..2 {
            let dir = Dir::new(&format!("repeat-{format}-{attempt}"));
            let mut args = cat(&[
                saikoro("a", 11),
                saikoro("b", 12),
                words(&format!(
                    "--each depth=1 --rounds 3 --concurrency 1 --seed 5 --records rec \
                     --records-format {format} --maxplies 120"
                )),
            ]);
            let book = openings(
                &dir,
                "startpos\nstartpos moves 2g2f\nstartpos moves 7g7f 3c3d\n",
            );
            args.extend(book);
            args.push("order=random".into());
            let r = run(&dir, &args);
            assert!(r.status.success(), "{}", r.err);
            let mut files: Vec<(String, String)> = std::fs::read_dir(dir.path("rec"))
                .unwrap()
                .map(|e| {
                    let e = e.unwrap();
                    let text = std::fs::read_to_string(e.path()).unwrap();
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        strip_times(&text),
                    )
                })
                .collect();
            files.sort();
            assert_eq!(files.len(), 6);
            seen.push(files);
        }
        assert_eq!(seen[0], seen[1], "{format}");
        let first = &seen[0][0];
        let ext = if format == "csa" { ".csa" } else { ".kifu" };
        assert!(first.0.ends_with(ext), "{}", first.0);
    }
}

/// A match killed mid-way and resumed ends with the same table (and the same results) as
/// the same match never stopped.
#[test]
fn resume_after_a_kill_gives_the_same_table() {
    let engines = || {
        cat(&[
            faulty("a", &["slow=5"]),
            saikoro("b", 7),
            words(
                "--each depth=1 --rounds 4 --concurrency 2 --maxplies 60 --seed 9 --ratinginterval 0 \
                 --pgnout games.pgn",
            ),
        ])
    };
    let whole = Dir::new("resume-whole");
    let mut args = engines();
    args.extend(openings(
        &whole,
        "startpos\nstartpos moves 2g2f\nstartpos moves 7g7f\n",
    ));
    args.push("order=random".into());
    let uninterrupted = run(&whole, &args);
    assert!(uninterrupted.status.success(), "{}", uninterrupted.err);
    // The seed of the random order, first on stdout.
    let first = uninterrupted.out.lines().next().unwrap_or("");
    assert!(
        first.starts_with("Openings: ")
            && first
                .ends_with("3 positions in random order, seed 9 (--seed 9 plays this order again)"),
        "{}",
        uninterrupted.out
    );

    let cut = Dir::new("resume-cut");
    let mut args = engines();
    args.extend(openings(
        &cut,
        "startpos\nstartpos moves 2g2f\nstartpos moves 7g7f\n",
    ));
    args.push("order=random".into());
    args.extend(words("--results results.jsonl --state state"));
    let mut child = start(&cut, &args);
    let t = Instant::now();
    while cut.read("state").lines().count() < 3 {
        assert!(t.elapsed() < DEADLINE, "no games saved");
        if child.try_wait().unwrap().is_some() {
            panic!("the match ended before it could be killed");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let resumed = finish(start(&cut, &words("--resume --state state")));
    assert!(resumed.status.success(), "{}\n{}", resumed.out, resumed.err);
    assert_eq!(final_table(&resumed.out), final_table(&uninterrupted.out));
    let results = |d: &Dir| {
        let mut v: Vec<(u64, String, String)> = results(d)
            .iter()
            .map(|l| {
                (
                    field(l, "game").unwrap().parse().unwrap(),
                    field(l, "result").unwrap(),
                    field(l, "reason").unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(results(&cut), results(&whole));
    assert_eq!(results(&whole).len(), 8);
    // The PGN file too holds each game once (`[Round "R.N"]`, N the game).
    let mut rounds: Vec<u64> = cut
        .read("games.pgn")
        .lines()
        .filter_map(|l| {
            l.strip_prefix("[Round \"")?
                .strip_suffix("\"]")?
                .rsplit('.')
                .next()?
                .parse()
                .ok()
        })
        .collect();
    rounds.sort();
    assert_eq!(rounds, (1..=8).collect::<Vec<u64>>());
}

/// Ctrl-C once: no new game, the running one ends normally, the table is printed, exit 130;
/// `--resume` then plays the rest. Twice: the running game ends at once, scoring nothing.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_then_ends() {
    let interrupt = |c: &Child| {
        let ok = Command::new("kill")
            .args(["-INT", &c.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    };
    let engines = || {
        cat(&[
            faulty("a", &["slow=3"]),
            faulty("b", &["slow=3"]),
            words("--each depth=1 --rounds 6 --maxplies 100 --results results.jsonl --state state"),
        ])
    };
    let wait_for_a_game = |dir: &Dir| {
        let t = Instant::now();
        while results(dir).is_empty() {
            assert!(t.elapsed() < DEADLINE, "no game finished");
            std::thread::sleep(Duration::from_millis(2));
        }
    };
    let dir = Dir::new("ctrl-c-once");
    let child = start(&dir, &engines());
    wait_for_a_game(&dir);
    interrupt(&child);
    let r = finish(child);
    assert_eq!(r.status.code(), Some(130), "{}\n{}", r.out, r.err);
    assert!(r.out.contains("Match interrupted"), "{}", r.out);
    assert!(r.out.contains("Results of a vs b"), "{}", r.out);
    let played = results(&dir);
    assert!(played.len() < 12, "{played:?}");
    assert!(played
        .iter()
        .all(|l| field(l, "reason").unwrap() != "interrupted"));
    let r = finish(start(&dir, &words("--resume --state state")));
    assert!(r.status.success(), "{}", r.err);
    let mut numbers: Vec<u64> = results(&dir)
        .iter()
        .map(|l| field(l, "game").unwrap().parse().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, (1..=12).collect::<Vec<_>>());

    let dir = Dir::new("ctrl-c-twice");
    let child = start(&dir, &engines());
    wait_for_a_game(&dir);
    // The first game's line is written just before the second game starts: give it time to
    // start (each game lasts at least 100 plies × 3 ms, so the two signals fall inside it).
    std::thread::sleep(Duration::from_millis(100));
    interrupt(&child);
    std::thread::sleep(Duration::from_millis(30));
    interrupt(&child);
    let r = finish(child);
    assert_eq!(r.status.code(), Some(130), "{}\n{}", r.out, r.err);
    let last = results(&dir).pop().unwrap();
    assert_eq!(
        field(&last, "reason").as_deref(),
        Some("interrupted"),
        "{last}"
    );
    assert_eq!(field(&last, "result").as_deref(), Some("*"));
    // Interrupted games are not saved: the state has only the finished ones.
    let saved = dir.read("state").lines().count() - 1;
    assert_eq!(saved, results(&dir).len() - 1);
}

/// Every bad line of an openings file is named in one error, each with the file and its line
/// (lines 3 and 4 here; line 2 is a comment), before any engine starts.
#[test]
fn bad_openings_are_reported_before_any_game() {
    let dir = Dir::new("bad-book");
    let mut args = cat(&[saikoro("a", 1), saikoro("b", 2), words("--each depth=1")]);
    args.extend(openings(
        &dir,
        "startpos\n# fine\nstartpos moves 7g7f 7g7f\nhello\n",
    ));
    let file = dir.path("openings.sfen").display().to_string();
    args.extend(words("--log-file log"));
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(1));
    let expected = format!(
        "saikoro: openings {file}: 2 bad lines:\n  {file}:3: 'startpos moves 7g7f 7g7f': move 2 \
         '7g7f' is illegal"
    );
    assert!(r.err.contains(&expected), "{}", r.err);
    assert!(
        r.err.contains(&format!("\n  {file}:4: 'hello': ")),
        "{}",
        r.err
    );
    assert!(!r.out.contains("Finished game"), "{}", r.out);
    // No engine was started.
    assert!(!dir.read("log").contains("started"), "{}", dir.read("log"));
}

#[test]
fn engine_options_are_checked_against_the_engine() {
    for (option, message) in [
        ("option.Sede=1", "engine a has no option 'Sede'"),
        (
            "option.Seed=x",
            "engine a: option.Seed=x: expected an integer",
        ),
    ] {
        let dir = Dir::new(&format!("options-{}", &option[7..11]));
        let mut args = cat(&[saikoro("a", 1), saikoro("b", 2), words("--each depth=1")]);
        args.insert(4, option.into());
        let r = run(&dir, &args);
        assert_eq!(r.status.code(), Some(1));
        assert!(r.err.contains(message), "{}", r.err);
    }
    let dir = Dir::new("no-program");
    let args = cat(&[
        words("--engine cmd=/nonexistent/engine name=x"),
        saikoro("b", 2),
        words("--each depth=1"),
    ]);
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(1));
    assert!(r.err.contains("/nonexistent/engine"), "{}", r.err);
}

/// An option whose name has a space, as Fairy-Stockfish's `option name Skill Level type spin
/// default 20 min -20 max 20` (the fault engine declares that line): `option.Skill Level=3` is
/// checked against the declaration and sent as the engine reads it back, `setoption name Skill
/// Level value 3`; given in another case and spacing it is sent in the engine's spelling. A
/// value outside -20..20 is refused as for any other option.
#[test]
fn option_names_with_spaces_are_sent_as_declared() {
    let dir = Dir::new("spaced-option");
    let mut a = faulty("a", &["spaced-option"]);
    a.push("option.Skill Level=3".into());
    let mut b = faulty("b", &["spaced-option"]);
    b.push("option.skill  level=-5".into());
    let args = cat(&[a, b, words("--each depth=1 --maxplies 4 --log-file log")]);
    let (_, reason, _, _) = one_game(&dir, &args);
    assert_eq!(reason, "max_plies");
    let log = dir.read("log");
    for line in [
        "a> setoption name Skill Level value 3\n",
        "a< info string Skill Level = 3\n",
        "b> setoption name Skill Level value -5\n",
        "b< info string Skill Level = -5\n",
    ] {
        assert!(log.contains(line), "{line}{log}");
    }
    let dir = Dir::new("spaced-option-range");
    let mut a = faulty("a", &["spaced-option"]);
    a.push("option.Skill Level=21".into());
    let r = run(&dir, &cat(&[a, saikoro("b", 2), words("--each depth=1")]));
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(
        r.err
            .contains("engine a: option.Skill Level=21: expected an integer from -20 to 20"),
        "{}",
        r.err
    );
}

/// Every key of the results schema (docs/match.md), in a results line.
#[test]
fn results_lines_hold_the_documented_keys() {
    let dir = Dir::new("schema");
    let args = cat(&[
        faulty("cheat", &["illegal=bad-promotion@2"]),
        saikoro("saikoro", 1),
        words("--each depth=1"),
    ]);
    let (_, _, _, line) = one_game(&dir, &args);
    for key in [
        "game",
        "round",
        "black",
        "white",
        "opening",
        "opening_line",
        "result",
        "reason",
        "detail",
        "plies",
        "opening_plies",
        "moves",
        "time_ms",
        "illegal_move",
    ] {
        assert!(line.contains(&format!("\"{key}\":")), "{key}: {line}");
    }
    assert_eq!(field(&line, "black").as_deref(), Some("cheat"));
    assert_eq!(field(&line, "opening").as_deref(), Some("startpos"));
}

/// A crash's last words: the engine's last stderr lines are in the warning on the runner's
/// stderr (no `--log-file` needed) and in the results line (`stderr`).
#[test]
fn a_crashing_engines_stderr_is_kept() {
    let dir = Dir::new("crash-stderr");
    let args = cat(&[
        faulty("crasher", &["crash@2"]),
        saikoro("saikoro", 1),
        words("--each depth=1 --rounds 1 --games 1 --ratinginterval 0"),
    ]);
    let r = run(&dir, &args);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    // The fault engine's own words (examples/fault_engine.rs): its first go at ply 2 or later,
    // its second move.
    let words = "fault_engine: crashing at ply 2 as asked";
    assert!(r.err.contains(words), "{}", r.err);
    let lines = results(&dir);
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    assert_eq!(field(line, "reason").as_deref(), Some("crash"), "{line}");
    assert!(
        line.contains(&format!("\"stderr\":[\"{words}\"]")),
        "{line}"
    );
}

/// An engine that dies at start-up, before its `usiok`: its last words and its exit status
/// are in the message that stops the match before its first game.
#[cfg(unix)]
#[test]
fn a_start_up_crash_tells_its_stderr() {
    let dir = Dir::new("startup-stderr");
    let script = script(
        &dir,
        "dies.sh",
        "echo 'fatal: cannot open eval file nn.bin' >&2\nexit 3\n",
    );
    let args = cat(&[
        vec![
            "--engine".into(),
            format!("cmd={script}"),
            "name=dies".into(),
        ],
        saikoro("saikoro", 1),
        words("--each depth=1 --rounds 1 --ratinginterval 0"),
    ]);
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.out, r.err);
    assert_eq!(
        r.err.trim_end(),
        "saikoro: engine dies failed its start-up at the handshake (usi ... usiok): engine \
         exited (exit status: 3); the last lines of its stderr:\n  \
         fatal: cannot open eval file nn.bin"
    );
    assert!(results(&dir).is_empty());
}

/// The issue's command, as written (with Saikoro as both engines and fewer rounds), and its
/// table checked against counts made here from the results file: the first engine's wins,
/// losses and draws, and its game pairs' points (0 to 2) as the pentanomial bins.
#[test]
fn the_issues_command_and_its_table() {
    let dir = Dir::new("issue");
    let book = dir.write(
        "openings.sfen",
        "startpos\nstartpos moves 2g2f\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n",
    );
    let args = words(&format!(
        "--engine cmd={BIN} name=new --engine cmd={BIN} name=old \
         --each tc=10+0.1 --rounds 5 --games 2 --concurrency 2 \
         --openings file={book} order=random --sprt elo0=0 elo1=5"
    ));
    let r = run(&dir, &args);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let lines = results(&dir);
    assert_eq!(lines.len(), 10);
    // Points of `new` per game number.
    let mut points = std::collections::BTreeMap::new();
    for l in &lines {
        let new_is_black = field(l, "black").unwrap() == "new";
        let p = match (field(l, "result").unwrap().as_str(), new_is_black) {
            ("1-0", true) | ("0-1", false) => 2,
            ("1/2-1/2", _) => 1,
            _ => 0,
        };
        points.insert(field(l, "game").unwrap().parse::<u64>().unwrap(), p);
    }
    let count = |v: u32| points.values().filter(|&&p| p == v).count();
    let (w, d, l) = (count(2), count(1), count(0));
    let mut bins = [0; 5];
    for pair in 0..5u64 {
        bins[(points[&(2 * pair + 1)] + points[&(2 * pair + 2)]) as usize] += 1;
    }
    let table = final_table(&r.out);
    assert!(
        table.contains(&format!(
            "Games: 10, Wins: {w}, Losses: {l}, Draws: {d}, Points: {:.1}",
            w as f64 + d as f64 / 2.0
        )),
        "{table}"
    );
    assert!(
        table.contains(&format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}]",
            bins[0], bins[1], bins[2], bins[3], bins[4]
        )),
        "{table}"
    );
    assert!(
        table.contains("Results of new vs old (tc=10+0.1, openings.sfen):"),
        "{table}"
    );
    assert!(table.contains("LLR: "), "{table}");
    assert!(r.out.contains("Match finished"), "{}", r.out);
}

/// An engine that always resigns: the SPRT accepts H1 and the match ends there, exit 0.
#[test]
fn the_sprt_ends_the_match_at_a_bound() {
    let dir = Dir::new("sprt");
    let args = cat(&[
        saikoro("strong", 1),
        faulty("weak", &["resign"]),
        words("--each depth=1 --rounds 200 --sprt elo0=0 elo1=10 --ratinginterval 0"),
    ]);
    let r = run(&dir, &args);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert!(
        r.out
            .contains("Match finished: SPRT ([0.00, 10.00]) completed - H1 was accepted"),
        "{}",
        r.out
    );
    let games = results(&dir).len();
    assert!(games < 400 && games > 0, "{games}");
}

/// fastchess's pentanomial `DrawRatio` (its `stats.hpp`: pairs scoring one point, WL + DD,
/// over all pairs) as docs/match.md explains it: two engines that resign at once make Black
/// lose every game, so each colour-swapped pair is a win and a loss: no drawn game, and a
/// draw ratio of 100 %.
#[test]
fn draw_ratio_counts_pairs_that_scored_one_point() {
    let dir = Dir::new("draw-ratio");
    let args = cat(&[
        faulty("a", &["resign"]),
        faulty("b", &["resign"]),
        words("--each depth=1 --rounds 2 --games 2 --ratinginterval 0"),
    ]);
    let r = run(&dir, &args);
    assert!(r.status.success(), "{}", r.err);
    assert!(r.out.contains("DrawRatio: 100.00 %"), "{}", r.out);
    assert!(r.out.contains(", Draws: 0,"), "{}", r.out);
    assert!(r.out.contains("Ptnml(0-2): [0, 0, 2, 0, 0]"), "{}", r.out);
}
