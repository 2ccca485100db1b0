//! The modes a build offers: every mode with the tools (the default build); the engine's alone
//! without them (`--no-default-features`), where a tool mode is a usage error that says how
//! to get it, and the USI engine is the same.

use crate::usi_support::{run, BIN};
use std::process::Command;

const TOOLS: [&str; 7] = [
    "selfplay",
    "match",
    "csa",
    "record",
    "report",
    "check",
    "shogitest",
];

#[test]
fn each_tool_mode_runs_or_says_how_to_get_it() {
    for mode in TOOLS {
        let out = Command::new(BIN).args([mode, "--help"]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        if cfg!(feature = "tools") {
            assert!(out.status.success(), "{mode}: {err}");
            assert!(!out.stdout.is_empty(), "{mode}: no help");
        } else {
            assert_eq!(out.status.code(), Some(2), "{mode}: {err}");
            assert!(
                err.starts_with(&format!(
                    "saikoro: `saikoro {mode}` is not in this build, which has the engine only \
                     (--no-default-features): selfplay, match, csa, record, report, check and \
                     shogitest come with the default build (cargo build --release"
                )),
                "{mode}: {err}"
            );
            assert!(out.stdout.is_empty(), "{mode}: stdout {:?}", out.stdout);
        }
    }
    let help = Command::new(BIN).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("saikoro [usi]") && help.contains("saikoro bench"),
        "{help}"
    );
    assert_eq!(
        help.contains("saikoro match"),
        cfg!(feature = "tools"),
        "{help}"
    );
}

/// The engine is the same in both builds: the handshake and a legal answer to `go`.
#[test]
fn the_engine_answers_in_either_build() {
    let out = run("usi\nisready\nsetoption name Seed value 42\nposition startpos\ngo\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("usiok\nreadyok\n"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}

/// Under the farm's name (`shogitest-ob`) the binary reads shogitest's command line, or, built
/// without the tools, says that it cannot.
#[cfg(unix)]
#[test]
fn under_the_farms_name() {
    use crate::usi_support::{copy_program, Dir};
    let dir = Dir::new("modes-farm-name");
    let copy = dir.path("shogitest-ob");
    copy_program(std::path::Path::new(&*BIN), &copy);
    let out = Command::new(&copy).arg("-version").output().unwrap();
    let (text, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    if cfg!(feature = "tools") {
        assert!(out.status.success(), "{err}");
        assert!(text.starts_with("Shogitest version "), "{text}");
    } else {
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("`saikoro shogitest` is not in this build"),
            "{err}"
        );
    }
}
