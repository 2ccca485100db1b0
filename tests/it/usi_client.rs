//! The USI client (`saikoro_driver::UsiClient`) against real processes: Saikoro's own engine and
//! the fault engine of `examples/fault_engine.rs`. Every wait has a deadline, so a broken
//! client fails these tests instead of hanging them.

use crate::usi_support;

use saikoro_core::{Move, Position};
use saikoro_driver::client::{Direction, SpawnOptions, Stderr};
use saikoro_driver::{ClientError, EngineCommand, UsiClient};
use saikoro_usi::{BestMove, Go, OptionKind, Score};
use std::time::{Duration, Instant};
use usi_support::{faulty, BIN};

const WAIT: Duration = Duration::from_secs(20);

fn saikoro() -> EngineCommand {
    EngineCommand {
        program: BIN.into_path(),
        args: Vec::new(),
        dir: None,
    }
}

fn spawn(cmd: &EngineCommand) -> UsiClient {
    let opts = SpawnOptions {
        stderr: Stderr::Keep,
        transcript: true,
        ..SpawnOptions::default()
    };
    UsiClient::spawn(cmd, &opts).expect("start the engine")
}

fn byoyomi(ms: u64) -> Go {
    Go {
        btime: Some(0),
        wtime: Some(0),
        byoyomi: Some(ms),
        ..Go::default()
    }
}

/// Saikoro declares its four options (see the option table of docs/engine.md) and plays a legal move.
#[test]
fn handshake_and_a_move_with_saikoro() {
    let mut e = spawn(&saikoro());
    let info = e.handshake(WAIT).unwrap();
    assert!(info.name.as_deref().unwrap().starts_with("Saikoro"));
    assert!(info.author.is_some());
    assert!(info.bad_options.is_empty(), "{:?}", info.bad_options);
    let names: Vec<&str> = info.options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["USI_Ponder", "Seed", "EnteringKingRule", "LogFile"]);
    assert_eq!(
        info.option("seed").unwrap().kind,
        OptionKind::Spin {
            default: 0,
            min: 0,
            max: (1 << 31) - 1
        }
    );
    e.set_option("Seed", Some("42")).unwrap();
    e.is_ready(WAIT).unwrap();
    e.send("usinewgame").unwrap();
    e.send("position startpos moves 7g7f").unwrap();
    let sent = e.go(&byoyomi(1000)).unwrap();
    let r = e.wait_bestmove(Instant::now() + WAIT).unwrap().unwrap();
    assert!(r.at >= sent);
    let BestMove::Move(mv) = r.best else {
        panic!("{:?}", r.best)
    };
    let mut pos = Position::startpos();
    pos.do_move(Move::from_usi("7g7f").unwrap());
    assert!(pos.is_legal(mv).is_ok(), "{mv}");
    assert!(e.quit(WAIT).unwrap().success());
    let t = e.transcript().unwrap();
    assert_eq!(t.entries()[0].direction, Direction::Sent);
    assert_eq!(t.entries()[0].text, "usi");
    assert_eq!(t.excerpt(t.entries().len() - 1), vec!["> quit"]);
}

/// `go infinite` holds its move: no `bestmove` by the first deadline, one after `stop`.
#[test]
fn infinite_search_waits_for_stop() {
    let mut e = spawn(&saikoro());
    e.handshake(WAIT).unwrap();
    e.send("position startpos").unwrap();
    e.go(&Go {
        infinite: true,
        ..Go::default()
    })
    .unwrap();
    let early = e
        .wait_bestmove(Instant::now() + Duration::from_millis(200))
        .unwrap();
    assert_eq!(early, None);
    e.stop().unwrap();
    let r = e.wait_bestmove(Instant::now() + WAIT).unwrap().unwrap();
    assert!(matches!(r.best, BestMove::Move(_)));
}

#[test]
fn an_engine_without_usiok_times_out() {
    let mut e = spawn(&faulty(&["no-usiok"]));
    let started = Instant::now();
    let err = e.handshake(Duration::from_millis(300)).unwrap_err();
    assert!(
        matches!(
            err,
            ClientError::Timeout {
                waiting_for: "usiok",
                ..
            }
        ),
        "{err}"
    );
    assert!(started.elapsed() < WAIT);
}

#[test]
fn an_engine_without_readyok_times_out() {
    let mut e = spawn(&faulty(&["no-readyok"]));
    e.handshake(WAIT).unwrap();
    let err = e.is_ready(Duration::from_millis(300)).unwrap_err();
    assert!(
        matches!(
            err,
            ClientError::Timeout {
                waiting_for: "readyok",
                ..
            }
        ),
        "{err}"
    );
}

/// A crash is an error with the exit status (3, the fault engine's), and its stderr is kept.
#[test]
fn a_crash_is_reported_with_its_exit_status() {
    let mut e = spawn(&faulty(&["crash@2"]));
    e.handshake(WAIT).unwrap();
    e.send("position startpos moves 7g7f 3c3d").unwrap();
    e.go(&byoyomi(100)).unwrap();
    let err = e.wait_bestmove(Instant::now() + WAIT).unwrap_err();
    match err {
        ClientError::Exited(Some(status)) => assert_eq!(status.code(), Some(3)),
        other => panic!("{other}"),
    }
    // Every later wait fails at once.
    assert!(matches!(
        e.is_ready(WAIT),
        Err(ClientError::Exited(_) | ClientError::Write(_))
    ));
    let lines = e.transcript().unwrap().excerpt(0);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("! fault_engine: crashing")),
        "{lines:?}"
    );
}

/// A hung engine gives no `bestmove` by the deadline, but still answers nothing on `stop`; the
/// client is not blocked, and `quit` ends it.
#[test]
fn a_hung_search_leaves_the_client_free() {
    let mut e = spawn(&faulty(&["hang"]));
    e.handshake(WAIT).unwrap();
    e.send("position startpos").unwrap();
    e.go(&byoyomi(100)).unwrap();
    let t = Instant::now();
    assert_eq!(
        e.wait_bestmove(t + Duration::from_millis(300)).unwrap(),
        None
    );
    assert!(t.elapsed() >= Duration::from_millis(300));
    e.stop().unwrap();
    assert_eq!(
        e.wait_bestmove(Instant::now() + Duration::from_millis(200))
            .unwrap(),
        None
    );
    e.is_ready(WAIT).unwrap();
}

/// The `info` score before `bestmove` comes with the result, and the time it arrived measures
/// the engine's thinking time (the fault engine sleeps 150 ms).
#[test]
fn search_info_and_timing() {
    let mut e = spawn(&faulty(&["score=cp:-250", "slow=150"]));
    e.handshake(WAIT).unwrap();
    e.send("position startpos").unwrap();
    let sent = e.go(&byoyomi(1000)).unwrap();
    let r = e.wait_bestmove(Instant::now() + WAIT).unwrap().unwrap();
    assert_eq!(r.info.score, Some(Score::Cp(-250)));
    assert_eq!(r.info.depth, Some(1));
    assert!(r.at.duration_since(sent) >= Duration::from_millis(150));
}

#[test]
fn a_missing_program_is_a_spawn_error() {
    let cmd = EngineCommand::parse("/nonexistent/engine --x").unwrap();
    let err = UsiClient::spawn(&cmd, &SpawnOptions::default()).unwrap_err();
    assert!(matches!(err, ClientError::Spawn { .. }), "{err}");
    assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
}

/// The working directory is the one asked for (an engine finds its files relative to it).
#[cfg(unix)]
#[test]
fn the_engine_runs_in_its_directory() {
    let dir = std::env::temp_dir();
    let cmd = EngineCommand {
        program: "sh".into(),
        args: vec!["-c".into(), "read x; pwd; echo usiok".into()],
        dir: Some(dir.clone()),
    };
    let mut e = spawn(&cmd);
    let info = e.handshake(WAIT).unwrap();
    let pwd = std::path::PathBuf::from(&info.other[0]);
    assert_eq!(pwd.canonicalize().unwrap(), dir.canonicalize().unwrap());
}

fn spawn_quiet(cmd: &EngineCommand) -> UsiClient {
    let opts = SpawnOptions {
        stderr: Stderr::Null,
        ..SpawnOptions::default()
    };
    UsiClient::spawn(cmd, &opts).expect("start the engine")
}

/// Without stderr or a transcript (the match runner's way) the answers, deadlines and errors
/// are the same.
#[test]
fn quiet_reading_answers_waits_and_fails_alike() {
    let mut e = spawn_quiet(&faulty(&["slow=150@2", "crash@4"]));
    let name = e.handshake(WAIT).unwrap().name.unwrap();
    assert!(name.starts_with("Saikoro"), "{name}");
    e.is_ready(WAIT).unwrap();
    e.send("position startpos moves 7g7f 3c3d").unwrap();
    let sent = e.go(&byoyomi(1000)).unwrap();
    // Not yet by 50 ms; by the deadline, after at least the 150 ms the engine sleeps.
    assert_eq!(
        e.wait_bestmove(Instant::now() + Duration::from_millis(50))
            .unwrap(),
        None
    );
    let r = e.wait_bestmove(Instant::now() + WAIT).unwrap().unwrap();
    assert!(r.at.duration_since(sent) >= Duration::from_millis(150));
    assert!(matches!(r.best, BestMove::Move(_)));
    e.send("position startpos moves 7g7f 3c3d 2g2f 8c8d")
        .unwrap();
    e.go(&byoyomi(1000)).unwrap();
    match e.wait_bestmove(Instant::now() + WAIT).unwrap_err() {
        ClientError::Exited(Some(status)) => assert_eq!(status.code(), Some(3)),
        other => panic!("{other}"),
    }
}

/// A line longer than the read buffer (8 KB) arrives whole; a last line without its newline
/// still counts, then the end of output is an error.
#[cfg(unix)]
#[test]
fn reading_keeps_an_unterminated_last_line() {
    let cmd = EngineCommand {
        program: "sh".into(),
        args: vec![
            "-c".into(),
            "read x; printf 'id name %s\\nusiok' $(head -c 20000 /dev/zero | tr '\\0' x)".into(),
        ],
        dir: None,
    };
    let mut e = spawn_quiet(&cmd);
    assert_eq!(e.handshake(WAIT).unwrap().name, Some("x".repeat(20_000)));
    assert!(matches!(
        e.is_ready(WAIT),
        Err(ClientError::Exited(_) | ClientError::Write(_))
    ));
}
