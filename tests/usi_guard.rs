//! [`saikoro::driver::guard::end_all`], what a tool does on SIGTERM, on real processes. In a test
//! binary of its own: it ends every engine of the process, and the other tests' would go too.
#![cfg(unix)]

use saikoro::driver::guard;
use saikoro::driver::process::{EngineProcess, Stderr};
use saikoro::driver::EngineCommand;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(20);

/// `sh -c script` (the one helper of `tests/it/usi_support.rs` this file needs, written out so
/// that the support modules stay compiled once, into `tests/it/`).
fn sh(script: &str) -> EngineCommand {
    EngineCommand {
        program: "sh".into(),
        args: vec!["-c".into(), script.into()],
        dir: None,
    }
}

fn wait_exit(p: &mut EngineProcess) -> bool {
    p.wait_exit(WAIT).is_some()
}

/// `end_all` (what a tool does on SIGTERM) ends an engine that exits on `quit` at once, and
/// kills one that does not read its input when the grace is over.
#[test]
fn end_all_quits_then_kills() {
    let polite = EngineProcess::spawn(
        &sh("while read l; do [ \"$l\" = quit ] && exit 0; done"),
        "polite",
        Stderr::Null,
    )
    .unwrap();
    let deaf = EngineProcess::spawn(&sh("exec sleep 300"), "deaf", Stderr::Null).unwrap();
    let (mut polite, mut deaf) = (polite, deaf);
    let t0 = Instant::now();
    assert_eq!(guard::end_all(Duration::from_millis(400)), 2);
    let took = t0.elapsed();
    // The grace is waited out for the deaf one, then it is killed.
    assert!(took >= Duration::from_millis(400), "{took:?}");
    assert!(took < WAIT, "{took:?}");
    assert!(wait_exit(&mut polite) && wait_exit(&mut deaf));
    assert!(polite.exit_status().unwrap().success());
    assert!(!deaf.exit_status().unwrap().success());
    assert!(guard::running().is_empty());
}
