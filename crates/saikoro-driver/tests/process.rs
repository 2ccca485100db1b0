//! The process layer (`saikoro_driver::process`) and the guard of engines' lives
//! (`saikoro_driver::guard`) against real processes: writes that cannot block for ever, kills
//! that take the whole process group, a bounded stderr tail, and the list of engines running.
#![cfg(unix)]

mod support;

use saikoro_driver::guard;
use saikoro_driver::process::{EngineProcess, Next, Stderr, STDERR_TAIL};
use std::time::{Duration, Instant};
use support::{gone, sh};

const WAIT: Duration = Duration::from_secs(20);

fn wait_gone(pid: u32) -> bool {
    let until = Instant::now() + WAIT;
    while Instant::now() < until {
        if gone(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// An engine that never reads its input: once the pipe is full, a write fails at its deadline
/// (`TimedOut`) instead of blocking the tool.
#[test]
fn a_write_to_an_engine_that_does_not_read_ends_at_its_deadline() {
    let mut p = EngineProcess::spawn(&sh("exec sleep 60"), "deaf", Stderr::Null).unwrap();
    let big = vec![b'x'; 4 << 20];
    let t0 = Instant::now();
    let err = p
        .write(&big, Instant::now() + Duration::from_millis(300))
        .unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::TimedOut, "{err}");
    let took = t0.elapsed();
    assert!(took >= Duration::from_millis(300), "{took:?}");
    assert!(took < WAIT, "{took:?}");
    p.kill();
}

/// A kill takes the engine's whole process group: here a helper it started in the background.
#[test]
fn a_kill_takes_the_whole_process_group() {
    let mut p =
        EngineProcess::spawn(&sh("sleep 300 & echo $!; wait"), "parent", Stderr::Null).unwrap();
    let Next::Line(line) = p.read_line(Some(Instant::now() + WAIT)) else {
        panic!("no pid line");
    };
    let helper: u32 = line.text.trim().parse().unwrap();
    assert!(!gone(helper));
    let leader = p.pid();
    assert!(guard::running().contains(&leader));
    p.kill();
    assert!(wait_gone(helper), "the helper {helper} outlived the kill");
    assert!(!guard::running().contains(&leader));
}

/// Dropping the process (a tool that ends, or unwinds from a panic) kills it too.
#[test]
fn dropping_the_process_kills_it() {
    let p = EngineProcess::spawn(&sh("exec sleep 300"), "dropped", Stderr::Null).unwrap();
    let pid = p.pid();
    drop(p);
    assert!(wait_gone(pid));
    assert!(!guard::running().contains(&pid));
}

/// Only the last lines of stderr are kept, the last one included; stdout is read alongside.
#[test]
fn the_stderr_tail_is_bounded() {
    let script = "i=1; while [ $i -le 100 ]; do echo \"err $i\" >&2; i=$((i+1)); done; echo done";
    let mut p = EngineProcess::spawn(&sh(script), "noisy", Stderr::Keep).unwrap();
    let Next::Line(line) = p.read_line(Some(Instant::now() + WAIT)) else {
        panic!("no stdout line");
    };
    assert_eq!(line.text, "done");
    assert_eq!(p.read_line(Some(Instant::now() + WAIT)), Next::End);
    p.wait_stderr(WAIT);
    let tail = p.stderr_tail();
    assert_eq!(tail.len(), STDERR_TAIL);
    assert_eq!(tail.first().unwrap(), &format!("err {}", 101 - STDERR_TAIL));
    assert_eq!(tail.last().unwrap(), "err 100");
    // Every line is there for a transcript.
    assert_eq!(p.take_stderr().len(), 100);
    assert!(p.wait_exit(WAIT).unwrap().success());
}

/// A wait for a line ends at its deadline, not before, and not long after.
#[test]
fn a_read_waits_until_its_deadline() {
    let mut p = EngineProcess::spawn(&sh("exec sleep 60"), "silent", Stderr::Null).unwrap();
    let t0 = Instant::now();
    assert_eq!(
        p.read_line(Some(t0 + Duration::from_millis(150))),
        Next::Nothing
    );
    let took = t0.elapsed();
    assert!(took >= Duration::from_millis(150), "{took:?}");
    assert!(took < WAIT, "{took:?}");
    assert_eq!(p.read_line(None), Next::Nothing);
}
