//! [`saikoro_driver::guard::end_all`], what a tool does on SIGTERM, on real processes. In a test
//! binary of its own: it ends every engine of the process, and the other tests' would go too.
#![cfg(unix)]

mod support;

use saikoro_driver::guard;
use saikoro_driver::process::{EngineProcess, Stderr};
use std::time::{Duration, Instant};
use support::sh;

const WAIT: Duration = Duration::from_secs(20);

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
