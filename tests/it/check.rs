//! `saikoro check` against real processes: Saikoro's own engine must pass every check, and the
//! fault engine (`examples/fault_engine.rs`) with one fault at a time must fail exactly the
//! checks meant for that fault, and no other. The expectations come from what each fault does
//! (its doc table) and what each check is for (`docs/check.md`), not from the checker's output.
//!
//! A run mostly waits (for answers that must not come, for timeouts), so each test runs its
//! faults side by side, each on its own thread, with a deadline on the whole.

use crate::usi_support;

use saikoro_check::{self as check, positions, Config, Report, Status};
use saikoro_driver::EngineCommand;
use std::collections::BTreeSet;
use std::sync::mpsc;
use std::time::Duration;
use usi_support::{fault_engine, faulty, BIN};

/// The checker's timeout for the fault engine, which answers at once: short, so faults that
/// leave the checker waiting cost little.
const TIMEOUT: Duration = Duration::from_millis(2000);

/// The longest a whole run may take before the test gives up on it.
const RUN_DEADLINE: Duration = Duration::from_secs(120);

/// Runs the checker on each engine, side by side; the reports in the same order.
fn run_all(engines: Vec<(EngineCommand, Duration)>) -> Vec<Report> {
    let (tx, rx) = mpsc::channel();
    let n = engines.len();
    for (i, (engine, timeout)) in engines.into_iter().enumerate() {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let config = Config {
                timeout,
                ..Config::new(engine)
            };
            let report = check::run(&config, &mut |_| {});
            let _ = tx.send((i, report));
        });
    }
    let mut out: Vec<Option<Report>> = (0..n).map(|_| None).collect();
    for _ in 0..n {
        let (i, r) = rx
            .recv_timeout(RUN_DEADLINE)
            .expect("a check run took longer than its deadline");
        out[i] = Some(r);
    }
    out.into_iter()
        .map(|r| r.expect("every run reported"))
        .collect()
}

fn names(report: &Report, status: Status) -> BTreeSet<String> {
    report
        .results
        .iter()
        .filter(|r| r.status == status)
        .map(|r| r.name.clone())
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// What one fault must do to a run.
struct Case {
    /// The fault engine's `--fault` flags.
    faults: Vec<String>,
    /// The checks that must fail, and nothing else.
    fail: &'static [&'static str],
    /// The checks that must warn, and nothing else.
    warn: &'static [&'static str],
    /// Words the first failure's reason must contain.
    reason: &'static str,
    /// Whether every check after the start-up is not run.
    rest_not_run: bool,
    /// Checks that may fail or pass: where the fault shows only if the engine's random move
    /// happens to be illegal, which depends on how many moves its session has drawn before.
    either: &'static [&'static str],
}

/// A fault caught by the checks in `warn` with a warning, and failing none.
fn warning(fault: &str, warn: &'static [&'static str], reason: &'static str) -> Case {
    Case {
        warn,
        ..case(fault, &[], reason)
    }
}

fn case(fault: &str, fail: &'static [&'static str], reason: &'static str) -> Case {
    Case {
        faults: vec![fault.to_string()],
        fail,
        warn: &[],
        reason,
        rest_not_run: false,
        either: &[],
    }
}

/// A fault limited to the position of the record `id` of `positions/check.txt`.
fn at(fault: &str, id: &str) -> String {
    let p = positions::get(id).unwrap_or_else(|| panic!("no position '{id}'"));
    assert!(
        p.moves.is_empty(),
        "{id}: @sfen needs a position without moves"
    );
    format!("{fault}@sfen={}", p.sfen.expect("an SFEN position"))
}

fn check_cases(cases: Vec<Case>) {
    let engines = cases
        .iter()
        .map(|c| {
            let faults: Vec<&str> = c.faults.iter().map(String::as_str).collect();
            (faulty(&faults), TIMEOUT)
        })
        .collect();
    let reports = run_all(engines);
    for (c, r) in cases.iter().zip(&reports) {
        let table = || {
            let mut v = Vec::new();
            check::write_table(&mut v, r).unwrap();
            String::from_utf8(v).unwrap()
        };
        let mut failed = names(r, Status::Fail);
        for e in c.either {
            let status = r.get(e).unwrap().status;
            assert!(
                matches!(status, Status::Pass | Status::Fail),
                "{e}: {status:?}"
            );
            failed.remove(*e);
        }
        assert_eq!(
            failed,
            set(c.fail),
            "failing checks with {:?}:\n{}",
            c.faults,
            table()
        );
        assert_eq!(
            names(r, Status::Warning),
            set(c.warn),
            "warnings with {:?}:\n{}",
            c.faults,
            table()
        );
        // The first failure, or the first warning when the fault fails nothing.
        let first = r
            .results
            .iter()
            .find(|x| x.status == Status::Fail)
            .or_else(|| r.results.iter().find(|x| x.status == Status::Warning))
            .expect("a failure or a warning");
        assert!(
            first.reason.contains(c.reason),
            "{:?}: '{}' does not say '{}'",
            c.faults,
            first.reason,
            c.reason
        );
        assert!(
            !first.transcript.is_empty(),
            "{:?}: a failure shows its transcript",
            c.faults
        );
        let not_run = names(r, Status::NotRun);
        if c.rest_not_run {
            assert_eq!(
                not_run.len() + c.fail.len() + names(r, Status::Pass).len(),
                r.results.len(),
                "{:?}",
                c.faults
            );
            assert!(not_run.contains("quit"), "{:?}", c.faults);
        } else {
            assert!(
                not_run.is_empty(),
                "{:?}: not run: {not_run:?}\n{}",
                c.faults,
                table()
            );
        }
    }
}

/// Saikoro passes every check, and the checks are the ones documented, in order.
#[test]
fn saikoro_passes_every_check() {
    let engine = EngineCommand {
        program: BIN.into_path(),
        args: Vec::new(),
        dir: None,
    };
    let reports = run_all(vec![
        (engine, check::DEFAULT_TIMEOUT),
        (faulty(&[]), TIMEOUT),
    ]);
    for r in &reports {
        let mut v = Vec::new();
        check::write_table(&mut v, r).unwrap();
        let table = String::from_utf8(v).unwrap();
        assert_eq!(r.count(Status::Pass), r.results.len(), "{table}");
        assert!(r.ok());
        let names: Vec<&str> = r.results.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, check::check_names());
        // An engine that answers at once is checked well within the 30 s the issue allows.
        assert!(r.elapsed < Duration::from_secs(30), "{table}");
    }
    assert_eq!(
        reports[0].name.as_deref().map(|n| n.starts_with("Saikoro")),
        Some(true)
    );
}

/// Start-up faults: the check for it fails; when there is no usiok or readyok, nothing else
/// can run.
#[test]
fn start_up_faults() {
    let mut cases = vec![
        // ShogiHome shows a default name and author: the draft's rule alone is a warning.
        warning("no-id-name", &["id-name"], "no 'id name' line"),
        warning("no-id-author", &["id-author"], "no 'id author' line"),
        case("bad-option", &["option-lines"], "no 'min' value"),
        case(
            "inconsistent-option",
            &["option-lines"],
            "default 0 is outside 1..10",
        ),
        // Read and set by match and csa, but no USI name and dropped by ShogiHome.
        case(
            "spaced-option",
            &["option-lines"],
            "option name 'Skill Level' has a space: USI names are one word, and ShogiHome drops",
        ),
    ];
    for (fault, fail, reason) in [
        ("no-usiok", "usiok", "no usiok within 2000 ms"),
        ("slow-usiok=3000", "usiok", "no usiok within 2000 ms"),
        (
            "crash-at-start",
            "usiok",
            "exited (exit status: 3) before usiok",
        ),
        ("no-readyok", "readyok", "no readyok within 2000 ms"),
        ("slow-readyok=3000", "readyok", "no readyok within 2000 ms"),
        (
            "crash-on-isready",
            "readyok",
            "exited (exit status: 3) before readyok",
        ),
    ] {
        cases.push(Case {
            rest_not_run: true,
            ..case(
                fault,
                if fail == "usiok" {
                    &["usiok"]
                } else {
                    &["readyok"]
                },
                reason,
            )
        });
    }
    check_cases(cases);
}

/// Option faults: a crash on one kind of `setoption` fails the check that sends it; the
/// engine is restarted and the rest pass.
#[test]
fn option_faults() {
    check_cases(vec![
        case(
            "crash-on-empty-value",
            &["setoption-defaults"],
            "exited (exit status: 3) after 'setoption name LogFile value '",
        ),
        case(
            "crash-on-spin-max",
            &["setoption-limits"],
            "exited (exit status: 3) after 'setoption name Seed value 2147483647'",
        ),
        case(
            "crash-on-unknown-option",
            &["setoption-undeclared"],
            "after 'setoption name USI_Hash value 32'",
        ),
        // ShogiHome waits for readyok without a limit: a slow one is a warning with its figure.
        warning(
            "slow-spin-max=3000",
            &["setoption-limits"],
            " ms after 'setoption name Seed value 2147483647', more than 2000 ms",
        ),
    ]);
}

/// Game-flow faults.
#[test]
fn game_flow_faults() {
    let ponder_warnings: &[&str] = &[
        "ponder-miss",
        "gameover-after-stop",
        "gameover-without-stop",
    ];
    check_cases(vec![
        // Every timed go is answered twice: each game fails at its first move.
        case(
            "two-bestmoves",
            &[
                "game-byoyomi",
                "game-fischer",
                "game-sudden-death",
                "game-uneven-clocks",
            ],
            "two bestmoves for one go",
        ),
        // Its time read from wtime when it is Sente (Fairy-Stockfish 11.1's bug): only the
        // game where the two clocks differ shows it, and the reason names the cause.
        case(
            "chess-clocks",
            &["game-uneven-clocks"],
            "reads its time from wtime, the chess way round",
        ),
        case(
            "sudden-death-slow=1500",
            &["game-sudden-death"],
            "with 600 ms given (tolerance 500 ms, ",
        ),
        // Late once only, as on a machine busy for a moment: the check is repeated and the
        // lateness reported as the machine's.
        warning(
            "slow-first=1800",
            &["game-byoyomi"],
            "with 1000 ms given (tolerance 500 ms, ",
        ),
        Case {
            warn: &["isready-during-search"],
            ..case("early-infinite", &["go-infinite"], "before stop")
        },
        Case {
            warn: &["isready-during-search"],
            ..case(
                "ignore-stop",
                &["go-infinite"],
                "no bestmove within 1000 ms after stop",
            )
        },
        // The early answer fails the check of go ponder; the checks that only need a ponder
        // search to be running say they could not test their subject.
        Case {
            warn: ponder_warnings,
            ..case("early-ponder", &["ponder-hit"], "before ponderhit")
        },
        case(
            "ignore-ponder-stop",
            &["ponder-miss"],
            "no bestmove within 1000 ms after stop during go ponder",
        ),
        case(
            "idle-stop-bestmove",
            &["ponder-hit"],
            "two bestmoves (the second after a stop that came once the search had ended)",
        ),
        case(
            "gameover-keeps-pondering",
            &["gameover-without-stop"],
            "kept its ponder search after gameover",
        ),
    ]);
}

/// Rules faults: an illegal move of each kind where the position invites it, and the bugs of
/// move generation and game rules that the positions are there to catch.
#[test]
fn rules_faults() {
    let illegal = |kind: &str, id: &str| at(&format!("illegal={kind}"), id);
    let cases = vec![
        Case {
            faults: vec![illegal("into-check", "evasion")],
            ..case("", &["rules-evasion"], "leaves the own king in check")
        },
        Case {
            faults: vec![illegal("into-check", "pin")],
            ..case("", &["rules-pin"], "leaves the own king in check")
        },
        Case {
            faults: vec![illegal("dead-drop", "drops-only")],
            ..case("", &["rules-drops-only"], "could never move")
        },
        Case {
            faults: vec![illegal("uchifuzume", "uchifuzume")],
            ..case(
                "",
                &["rules-uchifuzume"],
                "illegal move P*1b: pawn drop checkmate",
            )
        },
        Case {
            faults: vec![illegal("uchifuzume", "uchifuzume-pinned")],
            ..case(
                "",
                &["rules-uchifuzume-pinned"],
                "illegal move P*1b: pawn drop checkmate",
            )
        },
        Case {
            faults: vec![illegal("nifu", "nifu")],
            ..case("", &["rules-nifu"], "(nifu)")
        },
        Case {
            faults: vec![illegal("no-promotion", "forced-promotion")],
            ..case("", &["rules-forced-promotion"], "must promote")
        },
        Case {
            faults: vec![illegal("no-piece", "mated")],
            ..case("", &["rules-mated"], "no piece on the origin square")
        },
        Case {
            faults: vec![illegal("no-promotion", "max-moves")],
            ..case("", &["rules-max-moves"], "must promote")
        },
        case(
            "move-buffer=512",
            &["rules-max-moves"],
            "exited (exit status: 3) after",
        ),
        case("resign-if-forced", &["rules-one-move"], "7i7h is legal"),
        case(
            "crash-if-mated",
            &["rules-mated"],
            "exited (exit status: 3)",
        ),
        case(
            "declare-27",
            &["rules-declaration-short"],
            "Black: 27 points, 28 are needed",
        ),
        case(
            "perpetual-check",
            &["rules-perpetual-check"],
            "2i1i repeats the position a fourth time",
        ),
        // Reading the history only up to 8h2b leaves the engine on Black's move in a position
        // where White is to move. The long history holds such a move too (its 19th): from the
        // 18-move position the engine's random move is illegal in the real one, or happens to
        // be legal there (a seeded engine is one random stream per session, so which move it
        // draws depends on every check before).
        Case {
            either: &["long-history"],
            ..case(
                "reject-non-promotion",
                &["rules-non-promotion"],
                "illegal move",
            )
        },
    ];
    check_cases(cases);
}

/// Robustness faults, `go mate`, and the faults of the whole run's output.
#[test]
fn robustness_and_output_faults() {
    check_cases(vec![
        warning(
            "no-readyok-while-searching",
            &["isready-during-search"],
            "no readyok within 2000 ms of isready while go infinite runs",
        ),
        // A history of over 500 moves crashes it, or hangs it: the checker stops waiting,
        // restarts the engine, and the later checks pass.
        case("crash@500", &["long-history"], "exited (exit status: 3)"),
        case("hang@500", &["long-history"], "no bestmove for"),
        case(
            "crash-on-crlf",
            &["crlf"],
            "exited (exit status: 3) after 'isready'",
        ),
        case(
            "crash-on-unknown-command",
            &["unknown-command"],
            "after 'saikoro-check-unknown-command with arguments'",
        ),
        warning("mate-bestmove", &["go-mate"], "waits for a checkmate line"),
        case("checkmate=G*3b", &["go-mate"], "does not end in mate"),
        case(
            "checkmate=G*1b,1a2a",
            &["go-mate"],
            "move 2 (1a2a) is illegal",
        ),
        warning(
            "junk",
            &["stdout"],
            "'FaultEngine 1.0 starting up' is not a USI message",
        ),
        case(
            "double-spaces",
            &["stdout"],
            "ShogiHome splits bestmove lines on single spaces",
        ),
        case("ignore-quit", &["quit"], "still running 2000 ms after quit"),
    ]);
}

/// An engine that hangs in every timed search from its second move on costs three checks (each
/// waits for its time, the tolerance and the grace after `stop`); the later checks that need a
/// timed search are not run, those with a held search still are, and the run ends quickly.
#[test]
fn a_hanging_engine_is_bounded() {
    let r = &run_all(vec![(faulty(&["hang-every@2"]), TIMEOUT)])[0];
    let mut v = Vec::new();
    check::write_table(&mut v, r).unwrap();
    let table = String::from_utf8(v).unwrap();
    assert_eq!(
        names(r, Status::Fail),
        set(&["game-byoyomi", "game-fischer", "game-sudden-death"]),
        "{table}"
    );
    for held in ["go-infinite", "ponder-hit", "isready-during-search"] {
        assert_eq!(r.get(held).unwrap().status, Status::Pass, "{table}");
    }
    let not_run = names(r, Status::NotRun);
    assert!(not_run.contains("rules-nifu") && not_run.contains("gameover-without-stop"));
    for n in &not_run {
        let reason = &r.get(n).unwrap().reason;
        assert!(
            reason.contains("hangs in every timed search") && reason.contains("game-fischer"),
            "{reason}"
        );
    }
    // Three hangs of at most 3.5 s + 1 s each, restarts, and the checks that pass.
    assert!(r.elapsed < Duration::from_secs(40), "{table}");
    // The table gives each run of consecutive checks not run for one reason one line:
    // game-uneven-clocks (go-infinite and ponder-hit, held searches, pass after it), then
    // ponder-miss … rules-perpetual-check, then long-history … go-mate.
    assert_eq!(table.matches("not run:").count(), 3, "{table}");
}

/// A mating `checkmate` line passes `go mate`, and says it was verified.
#[test]
fn a_verified_mate_passes() {
    let r = &run_all(vec![(faulty(&["checkmate=G*1b"]), TIMEOUT)])[0];
    let mate = r.get("go-mate").unwrap();
    assert_eq!(mate.status, Status::Pass, "{mate:?}");
    assert!(mate.reason.contains("G*1b"), "{}", mate.reason);
    assert!(r.ok());
}

/// `check --json` of the fault engine's `bad-option` read back with the type that wrote it, and
/// as plain JSON with the members docs/check.md lists.
fn json_reads_back(json: &str) {
    let back: check::JsonReport = serde_json::from_str(json).unwrap();
    let lines = back
        .checks
        .iter()
        .find(|c| c.name == "option-lines")
        .unwrap();
    assert_eq!(
        (lines.group.as_str(), lines.status),
        ("start-up", Status::Fail)
    );
    assert_eq!(back.failed, 1);
    assert_eq!(
        back.passed + back.failed + back.warnings + back.not_run,
        back.checks.len()
    );
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    let keys =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let mut top = keys(&value);
    top.sort();
    assert_eq!(
        top,
        [
            "checks",
            "engine",
            "failed",
            "id_author",
            "id_name",
            "not_run",
            "passed",
            "seconds",
            "warnings"
        ]
    );
    let mut item = keys(&value["checks"][0]);
    item.sort();
    assert_eq!(
        item,
        ["group", "ms", "name", "reason", "status", "transcript"]
    );
}

/// The command line: the table with its final count, `--json`, and the exit status.
#[test]
fn command_line() {
    let fe = fault_engine().display().to_string();
    let out = usi_support::run_with(b"", &["check", "--timeout-ms", "2000", "--", &BIN], &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    let last = text.lines().last().unwrap();
    let n = check::check_names().len();
    assert_eq!(last, format!("{n} passed, 0 failed, 0 warnings"));
    assert!(text.contains("  ✔ rules-uchifuzume "), "{text}");

    let out = usi_support::run_with(
        b"",
        &[
            "check",
            "--json",
            "--timeout-ms",
            "2000",
            "--",
            &fe,
            "--fault",
            "bad-option",
        ],
        &[],
    );
    let json = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{json}");
    assert!(json.contains("\"failed\": 1,"), "{json}");
    assert!(
        json.contains("{\"name\": \"option-lines\", \"group\": \"start-up\", \"status\": \"fail\", \"reason\": \"'option name Broken type spin default 10': "),
        "{json}"
    );
    assert!(
        json.contains("\"transcript\": [\"> usi\", \"< id name Saikoro"),
        "{json}"
    );
    json_reads_back(&json);

    let out = usi_support::run_with(b"", &["check"], &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no engine command"));

    // An engine that cannot start: one failure and one line for everything not run.
    let out = usi_support::run_with(b"", &["check", "--", "/nonexistent/engine"], &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert_eq!(text.matches("not run").count(), 2, "{text}");
    assert!(text.contains(&format!("  - {} checks ", n - 1)), "{text}");
    assert!(text.ends_with(&format!(
        "0 passed, 1 failed, 0 warnings, {} not run\n",
        n - 1
    )));

    // --only and --skip take check names and groups.
    let out = usi_support::run_with(
        b"",
        &[
            "check",
            "--only",
            "rules,quit",
            "--skip",
            "rules-max-moves",
            "--",
            &fe,
        ],
        &[],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    let rules = positions::all()
        .iter()
        .filter(|p| p.check == "rules")
        .count();
    assert!(
        text.ends_with(&format!("{} passed, 0 failed, 0 warnings\n", rules)),
        "{text}"
    );
    assert!(
        !text.contains("rules-max-moves") && !text.contains("usiok"),
        "{text}"
    );
    let out = usi_support::run_with(b"", &["check", "--only", "rules-nowhere", "--", &fe], &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such check or group"));
}
