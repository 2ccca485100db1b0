//! `saikoro selfplay` through the real binary: the summary adds up, the seed replays a game,
//! and every record replays move by move under the rules core.

use saikoro_core::{EnteringKingRule, Position};
use saikoro_record::csa::notation::parse_move;
use std::path::Path;
use std::process::Command;

fn selfplay(args: &[&str]) -> String {
    let out = Command::new(crate::usi_support::BIN)
        .arg("selfplay")
        .args(args)
        .output()
        .expect("run saikoro selfplay");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("ASCII summary")
}

fn field(summary: &str, name: &str) -> String {
    summary
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .unwrap_or_else(|| panic!("no {name} line in {summary}"))
        .to_string()
}

fn total(summary: &str, name: &str) -> u64 {
    field(summary, name)
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count")
}

/// Replays a CSA record with the core; returns (plies, end line, final position).
fn replay(path: &Path) -> (usize, String, Position) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut pos = Position::startpos();
    let mut plies = 0;
    let mut end = String::new();
    for line in text.lines() {
        if line.starts_with('+') && line.len() == 7 || line.starts_with('-') && line.len() == 7 {
            let mv = parse_move(&pos, line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(pos.is_legal(mv).is_ok(), "{line} illegal in {pos}");
            pos.do_move(mv);
            plies += 1;
        } else if line.starts_with('%') {
            end = line.to_string();
        }
    }
    (plies, end, pos)
}

#[test]
fn summary_adds_up_and_records_replay() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("selfplay-records");
    let _ = std::fs::remove_dir_all(&dir);
    let s = selfplay(&[
        "--games",
        "6",
        "--seed",
        "11",
        "--record-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(field(&s, "seed"), "11");
    assert_eq!(total(&s, "games"), 6);
    let ended: u64 = [
        "checkmate",
        "repetition",
        "perpetual check",
        "declaration",
        "ply cap reached",
    ]
    .iter()
    .map(|k| total(&s, k))
    .sum();
    assert_eq!(ended, 6, "{s}");
    let mut plies_total = 0;
    for seed in 11..17 {
        let (plies, end, pos) = replay(&dir.join(format!("selfplay-{seed}.csa")));
        plies_total += plies;
        match end.as_str() {
            "%TSUMI" => assert!(!pos.has_legal_move(), "seed {seed}: not mate"),
            "%KACHI" => assert!(pos.can_declare_win(EnteringKingRule::CsaRule27)),
            "%SENNICHITE" | "%+ILLEGAL_ACTION" | "%-ILLEGAL_ACTION" | "%MAX_MOVES" => {}
            e => panic!("seed {seed}: unexpected end line {e:?}"),
        }
    }
    let plies_line = field(&s, "plies");
    assert!(
        plies_line.ends_with(&format!("total {plies_total}")),
        "{plies_line} vs {plies_total}"
    );
}

#[test]
fn a_game_replays_alone_from_its_seed() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("selfplay-replay");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    selfplay(&["--games", "3", "--seed", "40", "--record-dir", d]);
    let third = std::fs::read_to_string(dir.join("selfplay-42.csa")).unwrap();
    let alone = dir.join("alone");
    selfplay(&[
        "--games",
        "1",
        "--seed",
        "42",
        "--record-dir",
        alone.to_str().unwrap(),
    ]);
    let again = std::fs::read_to_string(alone.join("selfplay-42.csa")).unwrap();
    let moves = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with(['+', '-', '%']) && l.len() >= 5)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&third), moves(&again));
}

#[test]
fn ply_cap_and_start_position_are_honoured() {
    let s = selfplay(&[
        "--games",
        "2",
        "--seed",
        "1",
        "--max-plies",
        "7",
        "--sfen",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ]);
    assert_eq!(total(&s, "ply cap reached"), 2, "{s}");
    assert!(
        field(&s, "plies").starts_with("mean 7.0, min 7, max 7"),
        "{s}"
    );
}

#[test]
fn bad_arguments_fail_cleanly() {
    for args in [
        &["--games", "x"][..],
        &["--sfen", "not an sfen"],
        &["--entering-king-rule", "Nope"],
        &["--frobnicate"],
    ] {
        let out = Command::new(crate::usi_support::BIN)
            .arg("selfplay")
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// A bad number names its flag once, with the reason once (lexopt's error and its source were
/// both printed: "invalid digit found in string: invalid digit found in string").
#[test]
fn bad_numbers_name_the_flag_once() {
    for (mode, args, flag) in [
        ("selfplay", &["--games", "x"][..], "--games"),
        ("selfplay", &["--seed", "-3"], "--seed"),
        (
            "csa",
            &[
                "--host",
                "h",
                "--user",
                "u",
                "--password",
                "p",
                "--port",
                "99999",
            ],
            "--port",
        ),
        ("csa", &["--margin-ms", "soon"], "--margin-ms"),
    ] {
        let out = Command::new(crate::usi_support::BIN)
            .arg(mode)
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stderr);
        // The message, then the pointer to --help (tests/it/cli.rs).
        assert_eq!(text.lines().count(), 2, "{text}");
        let err = text.lines().next().unwrap();
        assert!(err.contains(flag), "{err}");
        let reason = err.rsplit(": ").next().unwrap().trim();
        assert_eq!(err.matches(reason).count(), 1, "{err}");
    }
}

/// The histogram after the summary counts every game once, and games of one length (all cut
/// off by the ply cap at 7) make one full row.
#[test]
fn histogram_counts_every_game() {
    let s = selfplay(&["--games", "2", "--seed", "1", "--max-plies", "7"]);
    let rows: Vec<&str> = s
        .lines()
        .skip_while(|l| !l.starts_with("game lengths"))
        .skip(1)
        .collect();
    assert_eq!(rows, [format!("7: 2 {}", "#".repeat(40))], "{s}");

    let s = selfplay(&["--games", "30", "--seed", "5"]);
    let counted: u64 = s
        .lines()
        .skip_while(|l| !l.starts_with("game lengths"))
        .skip(1)
        .map(|l| {
            let (_, rest) = l.split_once(": ").expect("range: count bar");
            rest.split_whitespace()
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert_eq!(counted, 30, "{s}");
}

/// Piped (not a terminal), stderr gets nothing: no progress line, no log.
#[test]
fn no_progress_when_stderr_is_not_a_terminal() {
    let out = Command::new(crate::usi_support::BIN)
        .args(["selfplay", "--games", "50", "--seed", "9"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(!out.stdout.contains(&b'\r'));
}

/// On a terminal, stderr shows "selfplay: done/total games, rate games/s, ETA m:ss", redrawn in
/// place with carriage returns and erased at the end; stdout stays the plain summary. The
/// pseudo-terminal comes from util-linux's `script` (part of every Debian and Ubuntu base
/// system); the test is skipped, with a message, where it is missing.
#[test]
#[cfg(target_os = "linux")]
fn progress_on_a_terminal_goes_to_stderr_only() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` (util-linux) to make a pseudo-terminal");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("selfplay-pty");
    std::fs::create_dir_all(&dir).unwrap();
    let stdout_file = dir.join("stdout.txt");
    // Inside `script`, stdout goes to a file, so the terminal sees stderr alone.
    let inner = format!(
        "'{}' selfplay --games 60 --seed 9 > '{}'",
        crate::usi_support::BIN,
        stdout_file.display()
    );
    let out = Command::new("script")
        .args(["-qec", &inner, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let tty = String::from_utf8(out.stdout).unwrap();
    assert!(tty.starts_with("\rselfplay: "), "{tty:?}");
    let first = tty[1..].split('\r').next().unwrap();
    let (done, rest) = first
        .strip_prefix("selfplay: ")
        .and_then(|t| t.split_once("/60 games, "))
        .unwrap_or_else(|| panic!("{first:?}"));
    assert!(
        (1..=60).contains(&done.parse::<u64>().unwrap()),
        "{first:?}"
    );
    assert!(rest.contains(" games/s, ETA "), "{first:?}");
    // Erased at the end: blanks over the last line, back to its start, and nothing else.
    let last = tty.trim_end_matches([' ', '\r']);
    assert!(tty.ends_with(" \r") && !last.contains('\n'), "{tty:?}");
    let summary = std::fs::read_to_string(&stdout_file).unwrap();
    assert!(summary.starts_with("seed: 9\ngames: 60\n"), "{summary}");
    assert!(!summary.contains('\r'), "{summary:?}");
}
