//! The fault policy of `saikoro match` and `saikoro check`, through the binary, with the fault
//! engine: a hung engine costs its deadline plus the documented grace, not `--ready-ms` or
//! `--timeout-ms`; and however the tool ends — SIGTERM, SIGHUP, Ctrl-C, SIGKILL — no engine
//! process outlives it, also one that had stopped reading its input. (`saikoro csa --engine`
//! is tested the same way in `tests/it/csa.rs`, where the CSA server lives.)
#![cfg(unix)]

use crate::usi_support;

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};
use usi_support::{fault_engine, gone, Dir, Run, BIN};

/// The longest any run here may take before the test gives up on it.
const DEADLINE: Duration = Duration::from_secs(120);
/// The grace after `stop` in `match` and `check` (`FaultPolicy::MATCH` and `CHECK`).
const STOP_GRACE: Duration = Duration::from_secs(1);
/// Room for starting processes and the handshakes on a loaded 2-core machine: far below what
/// the old waits cost (60 s per hang in `match`, 10 s per check in `check`).
const SLACK: Duration = Duration::from_secs(8);

/// The fault engine's argument string with these faults, writing its pid to `pids`.
fn fault_args(faults: &[&str], pids: &Path) -> String {
    let mut args = format!("--seed 3 --pid-file {}", pids.display());
    for f in faults {
        args.push_str(" --fault ");
        args.push_str(f);
    }
    args
}

/// `--engine` words for a fault engine that stops reading its input at ply 2.
fn deaf(name: &str, pids: &Path) -> Vec<String> {
    vec![
        "--engine".to_string(),
        format!("name={name}"),
        format!("cmd={}", fault_engine().display()),
        format!("args={}", fault_args(&["deaf@2"], pids)),
    ]
}

/// `saikoro check FLAGS -- fault_engine …` with these faults.
fn check_args(flags: &str, faults: &[&str], pids: &Path) -> Vec<String> {
    let mut args = words(&format!("check {flags} --"));
    args.push(fault_engine().display().to_string());
    args.extend(words(&fault_args(faults, pids)));
    args
}

/// `saikoro match` of two deaf engines (60 s a move, one round) with `extra` flags.
fn deaf_match(pids: &Path, extra: &str) -> Vec<String> {
    [
        words("match"),
        deaf("a", pids),
        deaf("b", pids),
        words(&format!("--each movetime=60000 --rounds 1 {extra}")),
    ]
    .concat()
}

fn start(args: &[String], dir: &Dir) -> Child {
    usi_support::start_in(Path::new(&*BIN), dir, args)
}

fn finish(child: Child, t0: Instant) -> Run {
    usi_support::finish(child, t0, DEADLINE)
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// The process ids the fault engines wrote to `file`.
fn pids(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// The engines of `file` still alive 3 s after their tool ended (a kill takes effect at once;
/// the grace is for a slow machine).
fn survivors(file: &Path) -> Vec<u32> {
    let until = Instant::now() + Duration::from_secs(3);
    loop {
        let alive: Vec<u32> = pids(file).into_iter().filter(|&p| !gone(p)).collect();
        if alive.is_empty() || Instant::now() >= until {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `n` engines have written their pid, then `settle` more.
fn wait_for_engines(file: &Path, n: usize, settle: Duration) {
    let t = Instant::now();
    while pids(file).len() < n {
        assert!(t.elapsed() < DEADLINE, "the engines did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(settle);
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{sig}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// A two-game match against an engine that never answers `go` (nor `stop`): each game is lost
/// on time at its deadline, the engine gets the 1 s grace after `stop`, is killed, and is
/// started afresh for the next game. The whole match costs two deadlines and two graces (plus
/// start-ups), not two `--ready-ms` of 60 s.
#[test]
fn a_hung_engine_costs_a_match_its_deadline_plus_the_grace() {
    let dir = Dir::new("match-hang");
    let pids_file = dir.path("pids");
    let movetime = Duration::from_millis(300);
    let args = [
        words("match --engine name=hangs"),
        vec![
            format!("cmd={}", fault_engine().display()),
            format!("args={}", fault_args(&["hang-every"], &pids_file)),
        ],
        words(&format!(
            "--engine cmd={BIN} name=saikoro --each movetime={} --rounds 1 --games 2 \
             --ratinginterval 0 --results results.jsonl --state state",
            movetime.as_millis()
        )),
    ]
    .concat();
    let t0 = Instant::now();
    let r = finish(start(&args, &dir), t0);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let results = std::fs::read_to_string(dir.path("results.jsonl")).unwrap();
    let games: Vec<&str> = results.lines().collect();
    assert_eq!(games.len(), 2, "{results}");
    for g in &games {
        assert!(g.contains("\"reason\":\"time\""), "{g}");
    }
    let budget = 2 * (movetime + STOP_GRACE) + SLACK;
    assert!(r.took < budget, "took {:?} (budget {budget:?})", r.took);
    // The probe, and one process per game: each hung one was killed, none is left.
    assert_eq!(pids(&pids_file).len(), 3, "{:?}", pids(&pids_file));
    assert_eq!(survivors(&pids_file), Vec::<u32>::new());
}

/// `saikoro check` on an engine that hangs on every timed `go`: the first three checks that
/// search fail, each saying the engine hangs; every later one that needs a timed search says
/// that it was not run because the engine hangs in every timed search; the whole run ends well
/// under a minute.
#[test]
fn check_on_an_engine_that_hangs_on_every_go_is_quick() {
    let dir = Dir::new("check-hang");
    let pids_file = dir.path("pids");
    let args = check_args("--json", &["hang-every"], &pids_file);
    let t0 = Instant::now();
    let r = finish(start(&args, &dir), t0);
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.out, r.err);
    assert!(
        r.took < Duration::from_secs(30),
        "took {:?}:\n{}",
        r.took,
        r.out
    );
    // One JSON object per check: the first searching checks fail, saying the engine hangs;
    // the rest of the searching checks say why they were not run.
    assert_eq!(
        r.out.matches("the engine hangs (killed").count(),
        3,
        "{}",
        r.out
    );
    let skipped = r
        .out
        .matches("the engine hangs in every timed search")
        .count();
    assert!(skipped >= 20, "{skipped} checks skipped:\n{}", r.out);
    assert!(r.out.contains("\"status\": \"pass\""), "{}", r.out);
    assert_eq!(survivors(&pids_file), Vec::<u32>::new());
}

/// A match of two engines that stop reading their input at their first `go`: SIGTERM ends the
/// runner (143) and both engines, which never see `quit` nor the end of their input.
#[test]
fn sigterm_ends_a_match_and_its_deaf_engines() {
    for (sig, code) in [("TERM", 143), ("HUP", 129)] {
        let dir = Dir::new(&format!("match-{sig}"));
        let pids_file = dir.path("pids");
        let args = deaf_match(&pids_file, "--results results.jsonl --state state");
        let child = start(&args, &dir);
        // Two probes, then the game's two engines, deaf from ply 2 on.
        wait_for_engines(&pids_file, 4, Duration::from_millis(500));
        let t0 = Instant::now();
        signal(&child, sig);
        let r = finish(child, t0);
        assert_eq!(r.status.code(), Some(code), "{}\n{}", r.out, r.err);
        assert!(r.took < Duration::from_secs(10), "{:?}", r.took);
        assert_eq!(survivors(&pids_file), Vec::<u32>::new(), "SIG{sig}");
    }
}

/// Ctrl-C twice ends a match whose engines are deaf: the running game is abandoned, the
/// engines are killed after their grace.
#[test]
fn ctrl_c_twice_ends_a_match_with_deaf_engines() {
    let dir = Dir::new("match-int");
    let pids_file = dir.path("pids");
    let args = deaf_match(&pids_file, "--results results.jsonl --state state");
    let child = start(&args, &dir);
    wait_for_engines(&pids_file, 4, Duration::from_millis(500));
    let t0 = Instant::now();
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(100));
    signal(&child, "INT");
    let r = finish(child, t0);
    assert_eq!(r.status.code(), Some(130), "{}\n{}", r.out, r.err);
    assert!(r.took < Duration::from_secs(15), "{:?}", r.took);
    assert_eq!(survivors(&pids_file), Vec::<u32>::new());
}

/// SIGTERM during `saikoro check`, while the engine is deaf: both end.
#[test]
fn sigterm_ends_check_and_its_deaf_engine() {
    let dir = Dir::new("check-term");
    let pids_file = dir.path("pids");
    let args = check_args("", &["deaf"], &pids_file);
    let child = start(&args, &dir);
    // The start-up and option checks take a moment; then every search makes it deaf.
    wait_for_engines(&pids_file, 1, Duration::from_millis(1500));
    let t0 = Instant::now();
    signal(&child, "TERM");
    let r = finish(child, t0);
    assert_eq!(r.status.code(), Some(143), "{}\n{}", r.out, r.err);
    assert!(r.took < Duration::from_secs(10), "{:?}", r.took);
    assert_eq!(survivors(&pids_file), Vec::<u32>::new());
}

/// SIGKILL gives the runner no chance to end anything: on Linux the engines carry the
/// parent-death signal and go with it.
#[cfg(target_os = "linux")]
#[test]
fn sigkill_takes_the_engines_too() {
    let dir = Dir::new("match-kill");
    let pids_file = dir.path("pids");
    let args = deaf_match(&pids_file, "--concurrency 1");
    let child = start(&args, &dir);
    wait_for_engines(&pids_file, 4, Duration::from_millis(300));
    signal(&child, "KILL");
    let _ = finish(child, Instant::now());
    assert_eq!(survivors(&pids_file), Vec::<u32>::new());
}
