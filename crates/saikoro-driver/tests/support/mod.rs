//! What the driver's test binaries share: an engine that is a shell script, and whether a
//! process is gone.

#![allow(dead_code)]

use saikoro_driver::EngineCommand;

/// `sh -c script`.
pub fn sh(script: &str) -> EngineCommand {
    EngineCommand {
        program: "sh".into(),
        args: vec!["-c".into(), script.into()],
        dir: None,
    }
}

/// Whether process `pid` is gone: no such process, or a zombie (killed, and waiting for a
/// parent that does not reap it, such as a container's init).
pub fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}
